"""Repeated runs: several scores per (dataset, algorithm) cell -> one score per cell.

Means are exact: the runs' binary fractions are summed in integer arithmetic and divided
once, so the mean is the exact mean rounded once to the nearest float. Two cells whose runs
have the same exact mean get the same float whatever the order of the rows, which a naive
floating-point sum does not guarantee (``(0.1 + 0.2) + 0.3 != (0.3 + 0.2) + 0.1``).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from .._errors import CdplotInputError, CdplotWarning, check_in_list, spell

__all__ = [
    "AGGREGATES",
    "Aggregation",
    "aggregate_cells",
    "check_aggregate",
    "exact_mean",
    "split_decimal_ties",
]

#: Names accepted by ``aggregate=``; a callable is accepted too.
AGGREGATES = ("mean", "median")
_NOUNS = {"mean": "means", "median": "medians"}


def named_frame(values: np.ndarray, datasets: Any, algorithms: Any) -> Any:
    """A datasets x algorithms DataFrame (index ``dataset``, columns ``algorithm``)."""
    import pandas as pd

    return pd.DataFrame(
        values,
        index=pd.Index(list(datasets), name="dataset", dtype=object),
        columns=pd.Index(list(algorithms), name="algorithm", dtype=object),
    )


class Aggregation:
    """What was aggregated: the function, the repetition columns and the runs per cell.

    Parameters
    ----------
    function : str
        ``"mean"``, ``"median"``, or the name of the user's function.
    columns : tuple of str
        The repetition columns that tell the runs of a cell apart (e.g. ``("fold",)``);
        empty when no column names them.
    counts : numpy.ndarray or pandas.DataFrame
        Number of runs per cell (datasets x algorithms, integers): a 2-D array with
        ``datasets`` and ``algorithms`` naming its rows and columns, or a DataFrame.
    min_count, max_count : int
        Fewest and most runs in a cell (over the cells that have any).
    datasets, algorithms : sequence of str, optional
        Row and column names of an array ``counts`` (default ``0, 1, ...`` as strings).
    split_ties, tie_decimals : int, optional
        Pairs of cells on one dataset whose means are equal in decimal arithmetic of the
        scores as written but not as exact binary means (see :func:`split_decimal_ties`),
        and the fewest decimals that keep exactly those ties (None if none do).

    Attributes
    ----------
    function, columns, min_count, max_count, split_ties, tie_decimals
        As given.
    counts : pandas.DataFrame
        Number of runs per cell (datasets x algorithms, integers), before dropping
        incomplete datasets or algorithms; built when first asked for (reading a file
        never needs pandas).
    count_array : numpy.ndarray
        The same numbers as a read-only integer array.
    """

    __slots__ = (
        "_algorithms",
        "_array",
        "_datasets",
        "_frame",
        "columns",
        "function",
        "max_count",
        "min_count",
        "split_ties",
        "tie_decimals",
    )
    # declared for the type checker; the values are set once in __init__ (read-only after)
    function: str
    columns: tuple[str, ...]
    min_count: int
    max_count: int
    split_ties: int
    tie_decimals: int | None
    _frame: Any  # pandas.DataFrame or None (built on first use of ``counts``)
    _array: np.ndarray | None
    _datasets: list[str] | None
    _algorithms: list[str] | None

    def __init__(
        self,
        function: str,
        columns: tuple[str, ...],
        counts: Any,
        min_count: int,
        max_count: int,
        *,
        datasets: Any = None,
        algorithms: Any = None,
        split_ties: int = 0,
        tie_decimals: int | None = None,
    ) -> None:
        set_ = object.__setattr__
        set_(self, "function", function)
        set_(self, "split_ties", int(split_ties))
        set_(self, "tie_decimals", None if tie_decimals is None else int(tie_decimals))
        set_(self, "columns", tuple(columns))
        set_(self, "min_count", int(min_count))
        set_(self, "max_count", int(max_count))
        frame = None if isinstance(counts, np.ndarray) else counts
        array = None
        if frame is not None:  # a DataFrame carries its own names
            datasets = algorithms = None
        else:
            array = np.array(counts, dtype=np.int64)
            array.flags.writeable = False
            n, k = array.shape
            datasets = [str(i) for i in range(n)] if datasets is None else list(datasets)
            algorithms = [str(j) for j in range(k)] if algorithms is None else list(algorithms)
        set_(self, "_frame", frame)
        set_(self, "_array", array)
        set_(self, "_datasets", datasets)
        set_(self, "_algorithms", algorithms)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"Aggregation is read-only (cannot set {name!r})")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"Aggregation is read-only (cannot delete {name!r})")

    @property
    def count_array(self) -> np.ndarray:
        """Runs per cell as a read-only int64 array (datasets x algorithms)."""
        array = self._array
        if array is None:
            array = np.array(self._frame.to_numpy(), dtype=np.int64)
            array.flags.writeable = False
            object.__setattr__(self, "_array", array)
        return array

    @property
    def counts(self) -> Any:
        """Runs per cell as a pandas DataFrame (rows ``dataset``, columns ``algorithm``)."""
        if self._frame is None:
            frame = named_frame(np.array(self._array), self._datasets, self._algorithms)
            object.__setattr__(self, "_frame", frame)
        return self._frame

    def _key(self) -> tuple[Any, ...]:
        if self._datasets is not None and self._algorithms is not None:  # set together
            names = (list(self._datasets), list(self._algorithms))
        else:
            names = ([str(i) for i in self._frame.index], [str(c) for c in self._frame.columns])
        ties = (self.split_ties, self.tie_decimals)
        return (self.function, self.columns, self.min_count, self.max_count, *ties, *names)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Aggregation):
            return NotImplemented
        return self._key() == other._key() and np.array_equal(self.count_array, other.count_array)

    __hash__ = None  # type: ignore[assignment]

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # an Aggregation made from an array pickles the array (no pandas needed to load it)
        counts = self._frame if self._datasets is None else np.array(self._array)
        args = (self.function, self.columns, counts, self.min_count, self.max_count)
        ties = (self.split_ties, self.tie_decimals)
        return _restore, (*args, self._datasets, self._algorithms, *ties)

    def __repr__(self) -> str:
        return (
            f"Aggregation(function={self.function!r}, columns={self.columns!r}, "
            f"min_count={self.min_count!r}, max_count={self.max_count!r})"
        )

    def describe(self) -> str:
        """Plain-language sentence, e.g. ``"scores are means over 10 folds"``."""
        if self.min_count == self.max_count:
            n = str(self.max_count)
            plural = self.max_count != 1
        else:
            n = f"{self.min_count}\N{EN DASH}{self.max_count}"
            plural = True
        if len(self.columns) == 1:
            unit = self.columns[0]
            if plural and not unit.endswith("s"):
                unit += "s"
            runs = f"{n} {unit}"
        else:
            runs = f"{n} run{'s' if plural else ''}"
            if self.columns:
                runs += " (" + " \N{MULTIPLICATION SIGN} ".join(self.columns) + ")"
        noun = _NOUNS.get(self.function)
        if noun is None:
            return f"scores are {self.function}() of the runs over {runs}"
        return f"scores are {noun} over {runs}" + self._ties_hint()

    def _ties_hint(self) -> str:
        """The decimals hint when exact means split ties of the scores as written."""
        if not self.split_ties:
            return ""
        n = self.split_ties
        ties = f"{n} tie{'s' if n != 1 else ''}"
        keep = (
            f"{spell('decimals', self.tie_decimals)} keeps {'them' if n != 1 else 'it'}"
            if self.tie_decimals is not None
            else "no rounding keeps exactly those"
        )
        return f"; exact means split {ties} of means equal as the scores are written ({keep})"


def _restore(
    function: str,
    columns: tuple[str, ...],
    counts: Any,
    min_count: int,
    max_count: int,
    datasets: Any,
    algorithms: Any,
    split_ties: int = 0,
    tie_decimals: int | None = None,
) -> Aggregation:
    """Unpickle an :class:`Aggregation` (pickle and copy go through ``__reduce__``)."""
    return Aggregation(
        function,
        columns,
        counts,
        min_count,
        max_count,
        datasets=datasets,
        algorithms=algorithms,
        split_ties=split_ties,
        tie_decimals=tie_decimals,
    )


def check_aggregate(aggregate: Any) -> tuple[str, Callable[[np.ndarray], Any] | None] | None:
    """Validate ``aggregate=``: None, ``"mean"``, ``"median"`` or a callable."""
    if aggregate is None:
        return None
    if callable(aggregate) and not isinstance(aggregate, str):
        return getattr(aggregate, "__name__", type(aggregate).__name__), aggregate
    return check_in_list(AGGREGATES, aggregate=aggregate), None


def exact_mean(chunk: list[float]) -> float:
    """The exact mean of finite floats, rounded once to the nearest float.

    >>> exact_mean([0.1, 0.2, 0.3]) == exact_mean([0.3, 0.2, 0.1])
    True
    """
    lo, hi = min(chunk), max(chunk)
    if lo == hi:
        return float(hi)
    ratios = [x.as_integer_ratio() for x in chunk]
    den = max(d for _, d in ratios)  # a power of two: every denominator divides it
    total = sum(num * (den // d) for num, d in ratios)
    return total / (den * len(chunk))  # int / int is correctly rounded in Python


def aggregate_cells(
    cell: np.ndarray, values: np.ndarray, how: str, func: Callable[[np.ndarray], Any] | None
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Aggregate ``values`` per ``cell`` code.

    Returns the distinct cell codes, the aggregated score, the standard deviation of the
    runs (``ddof=1``; NaN for a single run) and the number of runs of each cell. A cell
    with a missing run (NaN) gets a missing score.
    """
    order = np.lexsort((values, cell))  # by cell, then by value (NaN last)
    cell_s, vals_s = cell[order], values[order]
    starts = np.flatnonzero(np.r_[True, cell_s[1:] != cell_s[:-1]]) if cell.size else cell
    counts = np.diff(np.r_[starts, cell_s.size]).astype(np.int64)
    runs = vals_s.tolist()
    out = np.empty(starts.size)
    std = np.full(starts.size, np.nan)
    for g, (s, c) in enumerate(zip(starts.tolist(), counts.tolist(), strict=True)):
        chunk = runs[s : s + c]
        if chunk[-1] != chunk[-1]:  # NaN sorts last: a missing run
            out[g] = np.nan
            continue
        mean = exact_mean(chunk)
        if c > 1:
            std[g] = math.sqrt(math.fsum((x - mean) ** 2 for x in chunk) / (c - 1))
        if how == "mean":
            out[g] = mean
        elif how == "median":
            half = c // 2
            a, b = chunk[half - 1 + c % 2], chunk[half]
            out[g] = b if a == b else exact_mean([a, b])
        else:
            out[g] = _call(func, np.array(chunk), how)
    return cell_s[starts], out, std, counts


#: Scores written with more decimals than this are read as full-precision numbers: no
#: decimal ties to look for.
_MAX_WRITTEN_DECIMALS = 6


def written_decimals(values: np.ndarray) -> int | None:
    """The fewest decimals that write every finite value exactly as read (None if > 6).

    A value read from ``0.83`` is the float nearest to 83/100, which ``83 / 100`` gives
    again (a correctly rounded division): so ``v == round(v * 10**d) / 10**d`` tells
    whether ``v`` was written with at most ``d`` decimals.

    >>> written_decimals(np.array([0.5, 0.83, 1.0]))
    2
    """
    finite = values[np.isfinite(values)]
    if not finite.size or np.abs(finite).max() >= 1e9:
        return None
    for d in range(_MAX_WRITTEN_DECIMALS + 1):
        scale = 10.0**d
        if np.array_equal(np.round(finite * scale) / scale, finite):
            return d
    return None


def split_decimal_ties(
    cell: np.ndarray, values: np.ndarray, means: np.ndarray, k: int
) -> tuple[int, int | None]:
    """Ties of the written scores' means that the exact binary means split.

    Each run's score, written with at most ``p`` decimals (:func:`written_decimals`), is
    the integer ``I / 10**p``; a cell's mean in decimal arithmetic is ``sum(I) / (n 10**p)``.
    Cells of one dataset (``cell // k``) whose decimal means are equal form a tie; their
    exact means of the binary floats may still differ (``0.81 + 0.85`` and ``0.82 + 0.84``
    differ in the last bit), which splits it.

    Parameters
    ----------
    cell, values : numpy.ndarray
        Each run's cell code (``dataset * k + algorithm``) and score.
    means : numpy.ndarray
        The exact mean of every cell, indexed by cell code.
    k : int
        Number of algorithms.

    Returns
    -------
    (int, int or None)
        The number of ties split, and the fewest decimals ``d`` (from ``p`` to 15) for
        which rounding the means keeps exactly the decimal ties (equal decimal means round
        alike, different ones differently); None if no ``d`` does.

    Examples
    --------
    >>> cell = np.array([0, 0, 1, 1])
    >>> values = np.array([0.81, 0.85, 0.82, 0.84])
    >>> means = np.array([exact_mean([0.81, 0.85]), exact_mean([0.82, 0.84])])
    >>> bool(means[0] != means[1]), split_decimal_ties(cell, values, means, 2)
    (True, (1, 2))
    """
    p = written_decimals(values)
    if p is None or not np.isfinite(values).all():
        return 0, None
    ints = np.round(values * 10.0**p).astype(np.int64)
    count = np.bincount(cell, minlength=means.size).astype(np.int64)
    if int(np.abs(ints).max(initial=0)) * int(count.max(initial=0)) >= 2**62:
        return 0, None  # sums beyond int64: too large to be fold scores
    total = np.zeros(means.size, dtype=np.int64)
    np.add.at(total, cell, ints)
    present = np.flatnonzero(count)
    g = np.gcd(total[present], count[present])
    num, den, row = total[present] // g, count[present] // g, present // k
    order = np.lexsort((den, num, row))
    num, den, row, mean = num[order], den[order], row[order], means[present][order]
    same = (row[1:] == row[:-1]) & (num[1:] == num[:-1]) & (den[1:] == den[:-1])
    starts = np.flatnonzero(np.r_[True, ~same])
    split = int(
        (np.maximum.reduceat(mean, starts) != np.minimum.reduceat(mean, starts)).sum()
        if mean.size
        else 0
    )
    if not split:
        return 0, None
    for d in range(p, 16):
        rounded = np.array([round(v, d) for v in mean.tolist()])
        kept = (rounded[1:][same] == rounded[:-1][same]).all()
        if kept and np.unique(np.column_stack([row, rounded]), axis=0).shape[0] == starts.size:
            return split, d
    return split, None


def _call(func: Any, chunk: np.ndarray, name: str) -> float:
    value = func(chunk)
    if np.ndim(value) != 0 or isinstance(value, (bool, np.bool_, str)):
        raise CdplotInputError(
            f"aggregate={name} must return one real number per cell, got {value!r}."
        )
    try:
        out = float(np.asarray(value).item())
    except (TypeError, ValueError, OverflowError):
        raise CdplotInputError(
            f"aggregate={name} must return one real number per cell, got {value!r}."
        ) from None
    return out


def warn_unequal_counts(
    counts: np.ndarray, datasets: list[str], algorithms: list[str], stacklevel: int
) -> None:
    """Warn, naming the cells, when the cells have different numbers of runs."""
    present = counts[counts > 0]
    if present.size == 0 or present.min() == present.max():
        return
    values, freq = np.unique(present, return_counts=True)
    usual = int(values[np.argmax(freq)])
    odd = np.argwhere((counts > 0) & (counts != usual))
    listed = ", ".join(
        f"{algorithms[j]!r} on {datasets[i]!r} ({int(counts[i, j])})" for i, j in odd[:5]
    )
    more = f" and {len(odd) - 5} more" if len(odd) > 5 else ""
    import warnings

    warnings.warn(
        f"the cells have different numbers of runs: most have {usual}, but {listed}{more}; "
        f"check for missing or duplicated runs.",
        CdplotWarning,
        stacklevel=stacklevel,
    )

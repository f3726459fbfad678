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

from .._errors import CdplotInputError, CdplotWarning, check_in_list

__all__ = ["AGGREGATES", "Aggregation", "aggregate_cells", "check_aggregate", "exact_mean"]

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

    Attributes
    ----------
    function, columns, min_count, max_count
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
    )

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
    ) -> None:
        set_ = object.__setattr__
        set_(self, "function", function)
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
        if self._array is None:
            array = np.array(self._frame.to_numpy(), dtype=np.int64)
            array.flags.writeable = False
            object.__setattr__(self, "_array", array)
        return self._array

    @property
    def counts(self) -> Any:
        """Runs per cell as a pandas DataFrame (rows ``dataset``, columns ``algorithm``)."""
        if self._frame is None:
            frame = named_frame(np.array(self._array), self._datasets, self._algorithms)
            object.__setattr__(self, "_frame", frame)
        return self._frame

    def _key(self) -> tuple[Any, ...]:
        if self._datasets is not None:
            names = (list(self._datasets), list(self._algorithms))
        else:
            names = ([str(i) for i in self._frame.index], [str(c) for c in self._frame.columns])
        return (self.function, self.columns, self.min_count, self.max_count, *names)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Aggregation):
            return NotImplemented
        return self._key() == other._key() and np.array_equal(self.count_array, other.count_array)

    __hash__ = None  # type: ignore[assignment]

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # an Aggregation made from an array pickles the array (no pandas needed to load it)
        counts = self._frame if self._datasets is None else np.array(self._array)
        args = (self.function, self.columns, counts, self.min_count, self.max_count)
        return _restore, (*args, self._datasets, self._algorithms)

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
        return f"scores are {noun} over {runs}"


def _restore(
    function: str,
    columns: tuple[str, ...],
    counts: Any,
    min_count: int,
    max_count: int,
    datasets: Any,
    algorithms: Any,
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

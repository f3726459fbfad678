"""The checked score table every analysis starts from."""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .._errors import CdplotInputError, CdplotWarning, spell
from ._aggregate import Aggregation, named_frame

__all__ = [
    "MISSING_OPTIONS",
    "ScoreTable",
    "all_finite",
    "count_missing",
    "finish_table",
    "round_scores",
]

#: Values of ``missing=`` understood by the reader ("keep" leaves NaN in the table for the
#: tests that handle incomplete tables; callers choose which values they offer).
MISSING_OPTIONS = ("raise", "drop", "drop-algorithms", "keep")


@dataclass(frozen=True)
class ScoreTable:
    """A checked score table: ``scores[i, j]`` is algorithm j's score on dataset i.

    Attributes
    ----------
    scores : numpy.ndarray
        N x k float scores (finite; NaN only with ``missing="keep"``).
    algorithms, datasets : list of str
        Names, unique, in input order.
    aggregation : Aggregation or None
        What was aggregated, if the table had repeated runs.
    score_std : numpy.ndarray or None
        N x k standard deviation of the runs of each cell (with ``aggregation``).
    dropped_datasets, dropped_algorithms : tuple of str
        Names dropped for missing results (``missing="drop"`` / ``"drop-algorithms"``).
    decimals : int or None
        The scores were rounded to this many decimals before ranking.
    """

    scores: np.ndarray
    algorithms: list[str]
    datasets: list[str]
    aggregation: Aggregation | None = None
    score_std: np.ndarray | None = field(default=None, repr=False)
    dropped_datasets: tuple[str, ...] = ()
    dropped_algorithms: tuple[str, ...] = ()
    decimals: int | None = None

    def to_frame(self) -> Any:
        """The table as a wide DataFrame (datasets x algorithms)."""
        return self._frame(self.scores)

    def std_frame(self) -> Any:
        """The runs' standard deviations as a wide DataFrame, or None without aggregation."""
        return None if self.score_std is None else self._frame(self.score_std)

    def _frame(self, values: np.ndarray) -> Any:
        return named_frame(values, self.datasets, self.algorithms)

    @property
    def notes(self) -> tuple[str, ...]:
        """Plain-language sentences on how the table was read (see :func:`input_notes`)."""
        return input_notes(
            self.aggregation, self.decimals, self.dropped_datasets, self.dropped_algorithms
        )


def input_notes(
    aggregation: Aggregation | None,
    decimals: int | None,
    dropped_datasets: tuple[str, ...],
    dropped_algorithms: tuple[str, ...],
) -> tuple[str, ...]:
    """Sentences for reports: aggregation, rounding and what was dropped.

    Examples
    --------
    >>> from cdplot.io import input_notes
    >>> for note in input_notes(None, 3, ('d2', 'd4'), ()):
    ...     print(note)
    scores were rounded to 3 decimals before ranking
    dropped 2 datasets with missing results: d2, d4
    """
    notes = []
    if aggregation is not None:
        notes.append(aggregation.describe())
    if decimals is not None:
        notes.append(f"scores were rounded to {decimals} decimals before ranking")
    if dropped_datasets:
        notes.append(
            f"dropped {len(dropped_datasets)} dataset{'s' if len(dropped_datasets) != 1 else ''}"
            f" with missing results: " + ", ".join(dropped_datasets)
        )
    if dropped_algorithms:
        notes.append(
            f"dropped {len(dropped_algorithms)} algorithm"
            f"{'s' if len(dropped_algorithms) != 1 else ''} with missing results: "
            + ", ".join(dropped_algorithms)
        )
    return tuple(notes)


def check_decimals(decimals: Any) -> int | None:
    """Validate ``decimals=``: None or an int from 0 to 15.

    Examples
    --------
    >>> from cdplot.io import check_decimals
    >>> check_decimals(3)
    3
    """
    if decimals is None:
        return None
    if isinstance(decimals, (bool, np.bool_)) or not isinstance(decimals, (int, np.integer)):
        raise CdplotInputError(
            f"decimals must be None or an integer from 0 to 15, got {decimals!r}; e.g. "
            f"{spell('decimals', 4)} rounds 0.83000000000000007 and 0.83 to 0.83."
        )
    if not 0 <= int(decimals) <= 15:
        raise CdplotInputError(
            f"{spell('decimals')} must be an integer from 0 to 15 (float64 has about 15 "
            f"significant digits), got {int(decimals)}."
        )
    return int(decimals)


def round_scores(scores: np.ndarray, decimals: int) -> np.ndarray:
    """Round every score to ``decimals`` decimals, correctly (Python's :func:`round`)."""
    flat = [
        v if v != v or v in (np.inf, -np.inf) else round(v, decimals)
        for v in scores.ravel().tolist()
    ]
    return np.array(flat, dtype=float).reshape(scores.shape)


def all_finite(values: np.ndarray) -> bool:
    """No NaN and no infinity in ``values``, decided without a mask of the array's size.

    A finite sum proves it (NaN and infinities propagate); an overflowing sum of finite
    values falls back to the exact check.
    """
    with np.errstate(over="ignore", invalid="ignore"):
        if np.isfinite(np.sum(values)):
            return True
    return bool(np.isfinite(values).all())


def count_missing(values: np.ndarray) -> int:
    """The number of NaN in ``values`` (without a mask of its size when there are none)."""
    return 0 if all_finite(values) else int(np.isnan(values).sum())


def finish_table(
    scores: np.ndarray,
    algorithms: list[str],
    datasets: list[str],
    *,
    missing: str,
    aggregation: Aggregation | None = None,
    score_std: np.ndarray | None = None,
    decimals: int | None = None,
    stacklevel: int = 4,
) -> ScoreTable:
    """Check sizes, infinities and missing results; drop incomplete rows or columns if asked."""
    scores = np.asarray(scores, dtype=float)
    clean = all_finite(scores)  # the usual case: no N x k masks of inf and NaN
    if not clean:
        inf = np.isinf(scores)
        if inf.any():
            i, j = np.argwhere(inf)[0]
            raise CdplotInputError(
                f"infinite score ({scores[i, j]}) for algorithm {algorithms[j]!r} on dataset "
                f"{datasets[i]!r}; scores must be finite numbers."
            )
        del inf
    if decimals is not None:
        scores = round_scores(scores, decimals)
    nan = np.zeros((0, 0), dtype=bool) if clean else np.isnan(scores)
    dropped_d: tuple[str, ...] = ()
    dropped_a: tuple[str, ...] = ()
    if missing == "keep" and nan.size and nan.all():
        raise CdplotInputError(
            "every score is missing (NaN or absent); the table holds no results."
        )
    if nan.any() and missing != "keep":
        if missing == "raise":
            i = int(np.flatnonzero(nan.any(axis=1))[0])
            j = int(np.flatnonzero(nan[i])[0])
            more = f" ({int(nan.sum())} missing results in all)" if nan.sum() > 1 else ""
            raise CdplotInputError(
                f"missing score (NaN or absent) for algorithm {algorithms[j]!r} on dataset "
                f"{datasets[i]!r}{more}; fill it in, pass {spell('missing', 'keep')} to analyse "
                f"the incomplete table (Skillings-Mack test), {spell('missing', 'drop')} to "
                f"drop the incomplete datasets or {spell('missing', 'drop-algorithms')} to drop "
                f"the algorithms with missing results."
            )
        axis = 1 if missing == "drop" else 0
        keep = np.asarray(~nan.any(axis=axis))  # an array (the stubs also allow a scalar)
        names = datasets if missing == "drop" else algorithms
        dropped = tuple(n for n, kept in zip(names, keep, strict=True) if not kept)
        what = "dataset" if missing == "drop" else "algorithm"
        warnings.warn(
            f"dropped {len(dropped)} {what}(s) with missing results: "
            + ", ".join(repr(d) for d in dropped),
            CdplotWarning,
            stacklevel=stacklevel,
        )
        if missing == "drop":
            scores = scores[keep]
            score_std = None if score_std is None else score_std[keep]
            datasets = [d for d, kept in zip(datasets, keep, strict=True) if kept]
            dropped_d = dropped
        else:
            scores = scores[:, keep]
            score_std = None if score_std is None else score_std[:, keep]
            algorithms = [a for a, kept in zip(algorithms, keep, strict=True) if kept]
            dropped_a = dropped
    k, n = len(algorithms), len(datasets)
    after = " after dropping those with missing results" if dropped_a or dropped_d else ""
    if k < 2:
        raise CdplotInputError(
            f"need at least 2 algorithms to compare, got {k}"
            + (f" ({algorithms[0]!r})" if k == 1 else "")
            + f"{after}; pass one column per algorithm (rows = datasets), or a long table "
            f"with dataset, algorithm and score columns."
        )
    if n < 2:
        raise CdplotInputError(
            f"need at least 2 datasets (rows) to compare algorithms, got {n}{after}."
        )
    return ScoreTable(
        np.ascontiguousarray(scores, dtype=float),
        list(algorithms),
        list(datasets),
        aggregation=aggregation,
        score_std=score_std,
        dropped_datasets=dropped_d,
        dropped_algorithms=dropped_a,
        decimals=decimals,
    )

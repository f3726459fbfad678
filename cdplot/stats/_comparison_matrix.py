"""The numbers of the multi-comparison matrix (Ismail-Fawaz et al. 2023), one pair a cell.

Every cell depends only on its two algorithms: the mean score difference, the wins, ties
and losses, the pairwise p-value of the result's test (and its decision after the
result's correction), optionally the paired-t interval of the mean difference.
:func:`cdplot.multi_comparison_matrix` draws a :class:`ComparisonMatrix`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:  # pragma: no cover
    from ._results import ComparisonResult

__all__ = ["ComparisonMatrix"]


@dataclass(frozen=True)
class ComparisonMatrix:
    """Every number of a multi-comparison matrix, rows and columns in the same order.

    Attributes
    ----------
    algorithms : tuple of str
        By mean score, best first (ties in the result's order).
    mean_score : numpy.ndarray
        Mean score over the datasets, oriented so that higher is better (negated for
        lower-is-better scores).
    difference : numpy.ndarray
        k x k mean score difference row minus column (oriented); NaN on the diagonal.
    wins, ties, losses : numpy.ndarray
        k x k counts of datasets on which the row beats, ties or loses to the column
        (``result.wins``).
    pvalues : numpy.ndarray
        k x k raw p-values of the result's test (``result.pvalues``).
    significant : numpy.ndarray of bool
        k x k decisions after the result's correction (``result.significant``).
    interval : numpy.ndarray or None
        k x k x 2 paired-t interval of the mean difference row minus column (R's
        ``t.test(row, column, paired=TRUE)$conf.int``, oriented), when asked for.
    confidence : float or None
        Its confidence level.
    """

    algorithms: tuple[str, ...]
    mean_score: np.ndarray = field(repr=False)
    difference: np.ndarray = field(repr=False)
    wins: np.ndarray = field(repr=False)
    ties: np.ndarray = field(repr=False)
    losses: np.ndarray = field(repr=False)
    pvalues: np.ndarray = field(repr=False)
    significant: np.ndarray = field(repr=False)
    interval: np.ndarray | None = field(default=None, repr=False)
    confidence: float | None = None

    @classmethod
    def of(cls, result: ComparisonResult, confidence: float | None = None) -> ComparisonMatrix:
        """The matrix of a comparison of all pairs; with ``confidence``, the intervals.

        Raises
        ------
        CdplotInputError
            For a ``confidence`` outside (0, 1).
        """
        scores = result.scores
        oriented = scores if result.higher_is_better else -scores
        means = oriented.mean(axis=0)
        order = sorted(
            result.algorithms, key=lambda a: (-float(means[a]), result.algorithms.index(a))
        )
        m = means[order].to_numpy(dtype=float)
        diff = m[:, None] - m[None, :]
        np.fill_diagonal(diff, np.nan)
        wins = result.wins
        bounds = None
        if confidence is not None:
            from ._options import check_confidence

            confidence = check_confidence(confidence)
            bounds = _interval_matrix(result, order, confidence)
        return cls(
            algorithms=tuple(str(a) for a in order),
            mean_score=np.asarray([float(means[a]) for a in order]),
            difference=diff,
            wins=wins.wins.loc[order, order].to_numpy(),
            ties=wins.ties.loc[order, order].to_numpy(),
            losses=wins.losses.loc[order, order].to_numpy(),
            pvalues=result.pvalues.loc[order, order].to_numpy(dtype=float),
            significant=np.asarray(result.significant.loc[order, order].to_numpy(), dtype=bool),
            interval=bounds,
            confidence=confidence,
        )


def _interval_matrix(result: ComparisonResult, order: list[str], confidence: float) -> np.ndarray:
    """k x k x 2 paired-t interval of the mean difference row minus column (oriented)."""
    from ._effects import MEASURES, oriented_differences

    k = len(order)
    bounds = np.full((k, k, 2), np.nan)
    for i in range(k):
        for j in range(i + 1, k):
            _, low, high = MEASURES["mean"](
                oriented_differences(result, order[i], order[j]), confidence
            )
            bounds[i, j] = low, high
            bounds[j, i] = -high, -low
    return bounds

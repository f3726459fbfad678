"""Durbin's test and its post-hoc test for balanced incomplete block designs.

In a balanced incomplete block design (BIBD) each of the b datasets has results for k of
the t algorithms, each algorithm has results on r datasets, and every pair of algorithms
meets on the same number of datasets. With ranks ``r_ij`` within each dataset over the
algorithms present, rank sums ``R_j``, ``A = sum r_ij^2`` and ``C = b k (k + 1)^2 / 4``
(Conover 1999, §5.8; NIST's handbook; PMCMRplus ``durbinTest`` / ``durbinAllPairsTest``):

    T1 = (t - 1) (sum_j R_j^2 - r C) / (A - C)                 ~ chi-square(t - 1)
    T2 = (T1 / (t - 1)) / ((b (k - 1) - T1) / (b k - b - t + 1))   ~ F(t - 1, b k - b - t + 1)
    t_ij = |R_i - R_j| / sqrt(2 r (A - C) / (b k - b - t + 1) (1 - T1 / (b (k - 1))))

with ``b k - b - t + 1`` degrees of freedom for the pairwise t.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._errors import CdplotInputError
from ._ranks import rank_rows
from ._test_results import OmnibusResult, PairwiseResult

__all__ = ["bibd_problem", "durbin_posthoc", "durbin_test"]


def bibd_problem(present: np.ndarray) -> str | None:
    """Why the b x t presence pattern is not a balanced incomplete block design, or None.

    A BIBD (as Durbin's test needs it): every dataset has results for the same number
    k >= 2 of algorithms, every algorithm has results on the same number of datasets, and
    every pair of algorithms meets on the same number of datasets.
    """
    present = np.asarray(present, dtype=bool)
    t = present.shape[1]
    per_block = present.sum(axis=1)
    per_algo = present.sum(axis=0)
    meets = present.T.astype(int) @ present.astype(int)
    off = meets[~np.eye(t, dtype=bool)]
    if (
        len(set(per_block.tolist())) != 1
        or len(set(per_algo.tolist())) != 1
        or len(set(off.tolist())) != 1
        or per_block[0] < 2
    ):
        return (
            "it needs a balanced incomplete block design: every dataset with results for "
            f"the same number (>= 2) of algorithms (got {sorted(set(per_block.tolist()))}), "
            "every algorithm on the same number of datasets (got "
            f"{sorted(set(per_algo.tolist()))}) and every pair of algorithms together on the "
            f"same number of datasets (got {sorted(set(off.tolist()))})"
        )
    return None


def _design(scores: Any) -> tuple[np.ndarray, int, int, int, int]:
    """Ranks within datasets (NaN where missing) and (b, t, k, r); refuses a non-BIBD."""
    x = np.asarray(scores, dtype=float)
    if x.ndim != 2:
        raise CdplotInputError(f"Durbin's test needs a 2-D table, got {x.ndim} dimension(s).")
    present = ~np.isnan(x)
    b, t = x.shape
    problem = bibd_problem(present)
    if problem is not None:
        raise CdplotInputError(
            f"Durbin's test cannot run: {problem}; for another incomplete table use "
            "cdplot.compare(..., missing='keep') (Skillings-Mack)."
        )
    per_block = present.sum(axis=1)
    per_algo = present.sum(axis=0)
    ranks = np.full(x.shape, np.nan)
    for i in range(b):
        ranks[i, present[i]] = rank_rows(x[i, present[i]][None, :])[0]
    return ranks, b, t, int(per_block[0]), int(per_algo[0])


def _pieces(scores: Any) -> tuple[np.ndarray, float, float, float, int, int, int, int]:
    """Rank sums, A, C, T1 (0 when every result ties within its dataset), b, t, k, r."""
    ranks, b, t, k, r = _design(scores)
    sums = np.nansum(ranks, axis=0)
    a = float(np.nansum(ranks**2))
    c = b * k * (k + 1) ** 2 / 4.0
    t1 = (t - 1) * (float(np.sum(sums**2)) - r * c) / (a - c) if a > c else 0.0
    return sums, a, c, t1, b, t, k, r


def durbin_test(scores: Any) -> tuple[OmnibusResult, OmnibusResult]:
    """Durbin's chi-square and F tests for a balanced incomplete block design.

    Parameters
    ----------
    scores : array_like
        b x t scores (rows = datasets), NaN where an algorithm was not run by design.

    Returns
    -------
    chi2, f : OmnibusResult
        ``T1`` on ``t - 1`` df (PMCMRplus ``durbinTest``) and ``T2`` on
        ``(t - 1, b k - b - t + 1)`` df.

    Examples
    --------
    >>> import numpy as np
    >>> nan = np.nan
    >>> y = np.array([[1, 2, nan], [1, nan, 3], [nan, 2, 3], [1, 3, nan], [2, nan, 3.0],
    ...               [nan, 1, 3]])
    >>> chi2, f = durbin_test(y)
    >>> round(chi2.statistic, 3), chi2.df
    (5.333, 2.0)
    """
    from ._special import special

    sums, a, c, t1, b, t, k, r = _pieces(scores)
    if a <= c:  # every result tied within its dataset: no evidence
        return (
            OmnibusResult(0.0, 1.0, float(t - 1), "Durbin chi-square"),
            OmnibusResult(0.0, 1.0, (float(t - 1), float(b * k - b - t + 1)), "Durbin F"),
        )
    df2 = float(b * k - b - t + 1)
    chi2 = OmnibusResult(t1, float(special.chdtrc(t - 1, t1)), float(t - 1), "Durbin chi-square")
    rest = b * (k - 1) - t1
    if rest <= 0:
        f = OmnibusResult(np.inf, 0.0, (float(t - 1), df2), "Durbin F")
    else:
        t2 = (t1 / (t - 1)) / (rest / df2)
        f = OmnibusResult(t2, float(special.fdtrc(t - 1, df2, t2)), (float(t - 1), df2), "Durbin F")
    return chi2, f


def durbin_posthoc(scores: Any) -> PairwiseResult:
    """Durbin's all-pairs t-tests (raw two-sided p-values; PMCMRplus ``durbinAllPairsTest``).

    Parameters
    ----------
    scores : array_like
        b x t scores, NaN where an algorithm was not run by design.

    Returns
    -------
    PairwiseResult
        ``statistic`` the symmetric ``|t|``, ``pvalue`` two-sided on ``b k - b - t + 1`` df;
        adjust them with :func:`cdplot.stats.adjust_all_pairs` or ``adjust_control``.

    Examples
    --------
    >>> import numpy as np
    >>> nan = np.nan
    >>> y = np.array([[1, 2, nan], [1, nan, 3], [nan, 2, 3], [1, 3, nan], [2, nan, 3.0],
    ...               [nan, 1, 3]])
    >>> round(float(durbin_posthoc(y).pvalue[0, 2]), 4)
    0.008
    """
    from ._special import special

    sums, a, c, t1, b, t, k, r = _pieces(scores)
    df = float(b * k - b - t + 1)
    var = (a - c) * 2 * r / df * (1 - t1 / (b * (k - 1)))
    diff = np.abs(sums[:, None] - sums[None, :])
    with np.errstate(divide="ignore", invalid="ignore"):
        stat = np.where(diff == 0, 0.0, diff / np.sqrt(max(var, 0.0)))
    p = np.where(np.isinf(stat), 0.0, 2.0 * special.stdtr(df, -stat))
    eye = np.eye(t, dtype=bool)
    return PairwiseResult(np.where(eye, np.nan, stat), np.where(eye, np.nan, np.minimum(p, 1.0)))

"""Conover's all-pairs and many-to-one tests after Friedman's test (Conover 1999, §5.8).

On the within-dataset ranks ``r_ij`` (1 = best, ties averaged) of N datasets and k
algorithms, with rank sums ``R_j`` and ``A_1 = sum_ij r_ij^2``, two algorithms differ when

    |R_i - R_j| / sqrt(2 (N A_1 - sum_j R_j^2) / ((N - 1)(k - 1)))

exceeds the t quantile with ``(N - 1)(k - 1)`` degrees of freedom (Conover 1999, p. 371,
eq. 5.8.11). The p-values are two-sided, from that t distribution, before any correction;
the correction (Holm by default in :func:`cdplot.compare`) makes them all-pairs or
many-to-one.

PMCMRplus's ``frdAllPairsConoverTest`` computes the same t in the form
``|R_i - R_j| / sqrt(A B)`` with ``B = 1 - T2 / (N (k - 1))``, ``T2`` Friedman's statistic.
Before version 1.9.10 its ``T2`` used ``sum(R.sum)`` (a constant, ``N k (k + 1) / 2``)
where Friedman's statistic has the squared rank sums (reported as scikit-posthocs issue
#63), so its p-values differed from Conover's whenever the rank sums were not all equal;
PMCMRplus 1.9.10 (2023-12-10, its NEWS: "frdAllPairsConoverTest internally calculated
wrong Friedmans test statistics") fixed it, and with Friedman's ``T2`` the two forms are
algebraically the same t. PMCMRplus has no many-to-one Conover test after Friedman; here
``control=`` applies a many-to-one correction to the same t-tests.
"""

from __future__ import annotations

import numpy as np

from ._ranks import rank_rows
from ._test_results import PairwiseResult

__all__ = ["conover_friedman_test", "conover_t_rows"]


def conover_t_rows(ranks: np.ndarray) -> tuple[np.ndarray, float]:
    """Conover's |t| for every pair, for each table of a stack of rank tables.

    Parameters
    ----------
    ranks : numpy.ndarray
        ``(..., N, k)`` within-dataset ranks.

    Returns
    -------
    t : numpy.ndarray
        ``(..., k, k)`` symmetric ``|R_i - R_j| / SE`` (0 on the diagonal; ``inf`` when
        every dataset ranks the algorithms alike, so the variance estimate is 0).
    df : float
        ``(N - 1)(k - 1)``.
    """
    r = np.asarray(ranks, dtype=float)
    n, k = r.shape[-2:]
    sums = r.sum(axis=-2)
    a1 = (r * r).sum(axis=(-2, -1))
    var = 2.0 * (n * a1 - (sums * sums).sum(axis=-1)) / ((n - 1) * (k - 1))
    diff = np.abs(sums[..., :, None] - sums[..., None, :])
    with np.errstate(divide="ignore", invalid="ignore"):
        t = diff / np.sqrt(np.maximum(var, 0.0))[..., None, None]
    t = np.where(diff == 0, 0.0, t)  # equal rank sums: no evidence, even when var = 0
    return t, float((n - 1) * (k - 1))


def conover_friedman_test(scores: np.ndarray) -> PairwiseResult:
    """Conover's post-hoc t-tests after Friedman's test, all pairs (raw p-values).

    Parameters
    ----------
    scores : array_like
        N x k scores, oriented so that higher is better; complete.

    Returns
    -------
    PairwiseResult
        ``statistic`` the k x k ``|t|`` (NaN diagonal), ``pvalue`` the two-sided
        p-values from the t distribution with ``(N - 1)(k - 1)`` df, unadjusted.

    Examples
    --------
    >>> import numpy as np
    >>> res = conover_friedman_test(np.array([[3, 2, 1], [3, 1, 2], [2, 3, 1], [3, 2, 1.0]]))
    >>> round(float(res.pvalue[0, 2]), 4)
    0.0321
    """
    from ._special import special

    x = np.asarray(scores, dtype=float)
    k = x.shape[1]
    t, df = conover_t_rows(rank_rows(-x))
    p = np.where(np.isinf(t), 0.0, 2.0 * special.stdtr(df, -t))
    eye = np.eye(k, dtype=bool)
    return PairwiseResult(np.where(eye, np.nan, t), np.where(eye, np.nan, np.minimum(p, 1.0)))

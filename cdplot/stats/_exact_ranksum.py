"""Exact p-values for the difference of two Friedman rank sums (Eisinga et al. 2017).

Under the null hypothesis each dataset (block) ranks the k algorithms in a random order,
so the difference ``r_i - r_j`` of two algorithms' ranks on one dataset takes the value
``d != 0`` in ``k - |d|`` of the ``k (k - 1)`` equally likely ordered pairs of distinct
ranks. The rank-sum difference ``D = R_i - R_j`` over N independent datasets is the
N-fold convolution of that distribution; its tail is counted here in exact integer
arithmetic and divided once, so the p-value is the correctly rounded double of the exact
fraction.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from .._errors import CdplotInputError, spell
from ._ranks import rank_rows
from ._test_results import PairwiseResult

__all__ = [
    "EXACT_MAX_ALGORITHMS",
    "EXACT_MAX_DATASETS",
    "exact_rank_sum_test",
    "lower_tail_counts",
    "rank_sum_pvalue",
]

#: Largest k and N for exact p-values: the largest case Eisinga et al. (2017) report
#: (their R supplement ``pexactfrsd``, example 1: k = n = 100, with 2048-bit precision
#: "sufficient even for rather large values of n (100, say)").
EXACT_MAX_ALGORITHMS = 100
EXACT_MAX_DATASETS = 100


def _box(counts: np.ndarray, k: int) -> np.ndarray:
    """Convolve integer counts (dtype object) with a box of k ones, by prefix sums."""
    padded = np.concatenate([counts, np.zeros(k - 1, dtype=object)])
    sums = np.cumsum(padded)
    out = sums.copy()
    out[k:] -= sums[:-k]
    return out


@lru_cache(maxsize=8)
def lower_tail_counts(k: int, n: int) -> tuple[int, ...]:
    """``W(D <= m)`` for ``m = -n (k - 1) .. n (k - 1)``: cumulative counts of outcomes.

    Parameters
    ----------
    k : int
        Number of algorithms ranked on each dataset.
    n : int
        Number of datasets.

    Returns
    -------
    tuple of int
        Entry ``m + n (k - 1)`` is the number of the ``(k (k - 1))^n`` equally likely
        outcomes with ``D <= m``; Python integers, exact.

    Notes
    -----
    One dataset's difference ``d`` has ``k - |d|`` ordered pairs of distinct ranks for
    ``0 < |d| < k`` and none for ``d = 0``: the triangle ``k - |d|`` (a box of k ones
    convolved with itself) minus ``k`` at 0. Each of the n convolutions is therefore two
    running sums and a subtraction, in exact integers: ``O(n^2 k)`` additions.
    """
    counts = np.array([1], dtype=object)  # D = 0 with no dataset
    for _ in range(n):
        wider = _box(_box(counts, k), k)
        wider[k - 1 : k - 1 + counts.size] -= k * counts
        counts = wider
    return tuple(int(c) for c in np.cumsum(counts))


def rank_sum_pvalue(d: int, k: int, n: int) -> float:
    """Exact two-sided p-value ``P(|D| >= |d|)`` of a rank-sum difference.

    Parameters
    ----------
    d : int
        Difference of the two algorithms' rank sums (any sign).
    k : int
        Number of algorithms ranked on each dataset (2 <= k <= 100).
    n : int
        Number of datasets (1 <= n <= 100).

    Returns
    -------
    float
        ``2 W(D <= -|d|) / (k (k - 1))^n`` for ``d != 0`` (the distribution is
        symmetric), 1 for ``d = 0``; the exact fraction rounded once to a double.

    Raises
    ------
    CdplotInputError
        When k or n is outside the range above, or d is not an integer in
        ``[-n (k - 1), n (k - 1)]``.

    Notes
    -----
    The counts come from :func:`lower_tail_counts` (n exact convolutions).
    Eisinga, Heskes, Pelzer & Te Grotenhuis (2017) give a closed form of the same
    distribution from its generating function; PMCMRplus's
    ``frdAllPairsExactTest`` evaluates it with 2048-bit floats.

    References
    ----------
    R. Eisinga, T. Heskes, B. Pelzer and M. Te Grotenhuis, "Exact p-values for
    pairwise comparison of Friedman rank sums, with application to comparing
    classifiers", BMC Bioinformatics 18 (2017) 68.

    Examples
    --------
    >>> round(rank_sum_pvalue(20, 4, 8), 10)  # PMCMRplus::frdAllPairsExactTest
    2.02288e-05
    """
    _check_size(k, n)
    if d != int(d):
        raise CdplotInputError(f"a rank-sum difference must be an integer, got {d!r}.")
    d = abs(int(d))
    if d > n * (k - 1):
        raise CdplotInputError(
            f"a rank-sum difference of {d} is impossible with k = {k} algorithms on "
            f"n = {n} datasets (at most n (k - 1) = {n * (k - 1)})."
        )
    if d == 0:
        return 1.0
    tail = lower_tail_counts(k, n)[n * (k - 1) - d]  # W(D <= -d) = W(D >= d)
    return min(1.0, 2 * tail / (k * (k - 1)) ** n)


def _check_size(k: int, n: int) -> None:
    if not 2 <= k <= EXACT_MAX_ALGORITHMS or not 1 <= n <= EXACT_MAX_DATASETS:
        raise CdplotInputError(
            f"exact rank-sum p-values are available for 2 to {EXACT_MAX_ALGORITHMS} "
            f"algorithms on 1 to {EXACT_MAX_DATASETS} datasets (the largest case Eisinga "
            f"et al. 2017 report), got k = {k}, N = {n}; use {spell('test', 'mean-ranks')} "
            f"(normal approximation, accurate at this size) or {spell('test', 'wilcoxon')}."
        )


def exact_rank_sum_test(scores: np.ndarray, *, datasets: list[str] | None = None) -> PairwiseResult:
    """Exact test of the rank-sum difference for every pair (Eisinga et al. 2017).

    Parameters
    ----------
    scores : array_like
        N x k scores, oriented so that higher is better; complete and without ties
        within a dataset.
    datasets : list of str, optional
        Dataset names, for error messages.

    Returns
    -------
    PairwiseResult
        ``statistic[i, j] = |R_i - R_j|``, the absolute difference of the rank sums
        (rank 1 = best); ``pvalue`` the exact two-sided p from
        :func:`rank_sum_pvalue`.

    Raises
    ------
    CdplotInputError
        For missing values, ties within a dataset (the exact distribution assumes
        none), or sizes beyond ``k = 100``, ``N = 100``.

    Notes
    -----
    The test compares the same quantity as the mean-ranks test,
    ``|R_i - R_j| / N``, with its exact null distribution instead of the normal
    approximation, which is poor in the far tail at small N. As the mean-ranks
    test, it depends on the other algorithms in the comparison through the ranks.

    Examples
    --------
    >>> x = np.array([[3.0, 2, 1], [3, 1, 2], [3, 2, 1], [2, 3, 1]])
    >>> res = exact_rank_sum_test(x)
    >>> float(res.statistic[0, 2]), round(float(res.pvalue[0, 2]), 6)
    (6.0, 0.050926)
    """
    x = np.asarray(scores, dtype=float)
    if x.ndim != 2:
        raise CdplotInputError(f"scores must be a 2-D table, got {x.ndim}-D.")
    if np.isnan(x).any():
        raise CdplotInputError(
            "exact rank-sum p-values need a complete table; for missing results use "
            "test='wilcoxon' or 'sign' (each pair on the datasets where both have a "
            "result), or drop the incomplete datasets (missing='drop')."
        )
    n, k = x.shape
    _check_size(k, n)
    ordered = np.sort(x, axis=1)
    tied = np.flatnonzero((ordered[:, 1:] == ordered[:, :-1]).any(axis=1))
    if tied.size:
        first = int(tied[0])
        where = repr(datasets[first]) if datasets is not None else f"row {first}"
        raise CdplotInputError(
            f"exact rank-sum p-values assume no ties within a dataset, but {tied.size} "
            f"dataset(s) have tied scores (the first is {where}); use "
            f"{spell('test', 'mean-ranks')} (normal approximation with average ranks) or "
            f"{spell('test', 'wilcoxon')}."
        )
    sums = rank_rows(-x).sum(axis=0)
    diff = np.abs(sums[:, None] - sums[None, :])
    p = np.ones((k, k))
    for d in np.unique(diff):
        if d > 0:
            p[diff == d] = rank_sum_pvalue(int(round(d)), k, n)
    np.fill_diagonal(diff, np.nan)
    np.fill_diagonal(p, np.nan)
    return PairwiseResult(diff, p)

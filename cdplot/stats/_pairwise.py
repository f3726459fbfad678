"""Raw pairwise tests over all pairs of algorithms, vectorised over pairs.

Each test returns a :class:`PairwiseResult` with a k x k matrix of statistics and a
symmetric k x k matrix of two-sided p-values (NaN diagonal). ``scores`` are always
oriented so that *higher is better* (the caller negates lower-is-better scores;
negation is exact in floating point, so differences keep their exact magnitudes).

The Wilcoxon and sign tests run over all k (k - 1) / 2 pairs at once, in chunks of at
most :data:`CHUNK_CELLS` (pair x dataset) cells, so memory stays bounded whatever k and
N. Their counts, rank sums and tie terms are integers or half-integers computed exactly;
the p-values then follow the same floating-point formulas as the per-pair definitions.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from functools import cache
from typing import Any

import numpy as np

from .._errors import CdplotInputError, CdplotWarning
from ._special import special
from ._studentized import range_ppf, range_sf
from ._test_results import PairwiseResult
from ._tiles import pair_chunks

__all__ = [
    "ZERO_METHODS",
    "SIGN_TIES",
    "mean_ranks_test",
    "nemenyi_critical_difference",
    "nemenyi_test",
    "nemenyi_q",
    "rank_standard_error",
    "sign_columns",
    "sign_test",
    "signed_rank_cdf",
    "wilcoxon_columns",
    "wilcoxon_test",
]

ZERO_METHODS = ("wilcox", "pratt", "zsplit")
SIGN_TIES = ("split", "discard")


def check_choice(value: Any, name: str, choices: tuple[str, ...]) -> str:
    """``value`` if it is one of ``choices`` (``zero_method``, ``ties``), else an error."""
    if value not in choices:
        raise CdplotInputError(
            f"{value!r} is not a valid value for {name}; supported values are "
            f"{', '.join(repr(c) for c in choices)}."
        )
    return value


def sign_pvalues(
    wins: np.ndarray, losses: np.ndarray, n: int, ties: str
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Wins and losses with the ties shared out, and the sign test's two-sided p-values.

    ``wins`` and ``losses`` count (as floats) the datasets of each pair; the other
    ``n - wins - losses`` are ties. ``p = min(1, 2 P(B <= min(w, l)))`` with
    ``B ~ Binomial(w + l, 1/2)``; 1 when nothing is counted.
    """
    n_ties = n - wins - losses
    if ties == "split":
        counted_ties = n_ties - n_ties % 2
        wins = wins + counted_ties / 2
        losses = losses + counted_ties / 2
    total = wins + losses
    smaller = np.minimum(wins, losses)
    p = np.ones(np.shape(wins))
    has = total > 0
    p[has] = np.minimum(
        1.0,
        2.0 * special.bdtr(smaller[has].astype(np.int64), total[has].astype(np.int64), 0.5),
    )
    return wins, losses, p


#: Scores at least this large in magnitude (2**1023, about 8.99e307) could make a
#: difference overflow; the Wilcoxon test then halves all scores (exactly) first.
HUGE = 2.0**1023
#: R's wilcox.test uses the exact distribution below this many non-zero differences.
EXACT_LIMIT = 50
#: Number of (pair x dataset) cells processed at once: bounds the working memory of the
#: Wilcoxon test (17 bytes a cell, more for many ties) and of the sign test (2 bytes a cell),
#: and keeps a chunk in the processor's cache.
CHUNK_CELLS = 1 << 18
#: Above this fraction of tied neighbours in a chunk, its tie blocks are found by walking
#: all blocks rather than only the runs of ties (same result, less work when ties abound).
_DENSE_TIES = 0.6


def _pairs(k: int) -> tuple[np.ndarray, np.ndarray]:
    return np.triu_indices(k, 1)


def _to_matrix(k: int, upper: np.ndarray, lower: np.ndarray | None = None) -> np.ndarray:
    out = np.full((k, k), np.nan)
    i, j = _pairs(k)
    out[i, j] = upper
    out[j, i] = upper if lower is None else lower
    return out


def _two_sided_normal(z: np.ndarray) -> np.ndarray:
    """``2 * P(Z >= |z|) = erfc(|z| / sqrt(2))`` for a standard normal Z, capped at 1.

    The C library's ``erfc`` (through :mod:`math`): as close to R's ``2 * pnorm(-|z|)``
    as ``scipy.special.ndtr`` is (both within 2.3e-13 relative down to 1e-300, where
    scaling the argument by sqrt(1/2) bounds the accuracy), without importing
    scipy.special, whose import costs more than a whole small comparison.
    """
    x = np.abs(np.asarray(z, dtype=float)) * math.sqrt(0.5)
    tail = np.fromiter(map(math.erfc, x.ravel().tolist()), dtype=float, count=x.size)
    return np.minimum(1.0, tail.reshape(x.shape))


def rank_standard_error(k: int, n_datasets: int) -> float:
    """Standard error of a difference of average ranks, ``sqrt(k (k + 1) / (6 N))``.

    Examples
    --------
    >>> from cdplot.stats import rank_standard_error
    >>> round(rank_standard_error(4, 14), 4)  # Demšar (2006) Table 6: k = 4, N = 14
    0.488
    """
    return math.sqrt(k * (k + 1) / (6.0 * n_datasets))


def _twice_rank_sums(r: np.ndarray, n_datasets: int) -> np.ndarray | None:
    """``2 N R_j`` as exact integers when the average ranks are rank sums over N, else None.

    Per-dataset ranks are integers or half-integers, so twice a rank sum is an integer;
    average ranks computed from them round-trip to it exactly (the rounding error of
    ``R_j = S_j / N`` is far below 1/2 after multiplying back by 2N). Published,
    rounded average ranks (e.g. 2.893) do not, and keep the float formula.
    """
    twice = 2.0 * n_datasets * r
    exact = np.rint(twice)
    if np.all(np.abs(twice - exact) <= 1e-9 * np.maximum(1.0, np.abs(twice))) and np.all(
        exact < 2.0**52
    ):
        return exact
    return None


def mean_ranks_test(avg_ranks: np.ndarray, n_datasets: int) -> PairwiseResult:
    """The mean-ranks test: ``z = |R_i - R_j| / sqrt(k (k + 1) / (6 N))``, normal p.

    García & Herrera (2008) §3, Demšar (2006) §3.2.2. Two-sided p-values.

    When the average ranks are rank sums over N datasets (as :func:`cdplot.compare`
    computes them), the statistic is computed from the exact integer differences of
    twice the rank sums, ``z = |2 S_i - 2 S_j| / sqrt(2 N k (k + 1) / 3)``: pairs with
    equal rank-sum differences get bit-identical statistics and p-values (average ranks
    are rounded floats, and their differences need not be equal in the last bits).

    Examples
    --------
    >>> import numpy as np
    >>> from cdplot.stats import mean_ranks_test
    >>> res = mean_ranks_test(np.array([3.143, 2.000, 2.893, 1.964]), 14)
    >>> np.round(res.statistic[0], 3)
    array([  nan, 2.342, 0.512, 2.416])
    """
    r = np.asarray(avg_ranks, dtype=float)
    k = r.size
    twice = _twice_rank_sums(r, n_datasets)
    if twice is not None:
        # |2 S_i - 2 S_j| is an exact integer; one division by one constant
        scale = math.sqrt(2.0 * n_datasets * k * (k + 1) / 3.0)
        z = np.abs(twice[:, None] - twice[None, :]) / scale
    else:
        se = rank_standard_error(k, n_datasets)
        z = np.abs(r[:, None] - r[None, :]) / se
    i, j = _pairs(k)
    p = _to_matrix(k, _two_sided_normal(z[i, j]))  # z is symmetric: each pair once
    np.fill_diagonal(z, np.nan)
    return PairwiseResult(z, p)


def nemenyi_q(k: int, alpha: float) -> float:
    """Demšar's critical value ``q_alpha`` of the Nemenyi test.

    The ``1 - alpha`` quantile of the studentized range of k independent
    standard normals (infinite degrees of freedom) divided by ``sqrt(2)``;
    Demšar (2006) Table 5(a).

    Examples
    --------
    >>> from cdplot.stats import nemenyi_q
    >>> round(nemenyi_q(4, 0.05), 3)  # Demšar (2006) Table 5(a): 2.569
    2.569
    """
    return range_ppf(alpha, k) / math.sqrt(2.0)


def nemenyi_critical_difference(scores: np.ndarray, alpha: float) -> float:
    """Nemenyi's critical difference ``q_alpha * sqrt(k (k + 1) / (6 N))`` of an N x k table
    (only its shape is read; Demšar 2006, §3.2.2)."""
    n, k = np.shape(scores)
    return nemenyi_q(k, alpha) * rank_standard_error(k, n)


def nemenyi_test(avg_ranks: np.ndarray, n_datasets: int) -> PairwiseResult:
    """The Nemenyi test: the mean-ranks distance judged with the studentized range.

    The statistic is ``z = |R_i - R_j| / SE`` as in the mean-ranks test (so it
    compares directly with Demšar's ``q_alpha``); the p-value is
    ``P(Q_k >= sqrt(2) z)`` for the studentized range ``Q_k`` of k standard
    normals with infinite degrees of freedom. This p-value already accounts for
    all k (k - 1) / 2 comparisons (single-step adjustment), and ``p <= alpha``
    exactly when ``|R_i - R_j| >= CD``. The distribution is computed by
    :func:`cdplot.stats._studentized.range_sf` (agrees with
    ``scipy.stats.studentized_range(k, np.inf)`` and keeps its relative precision
    in the far tail, where ``1 - cdf`` does not).

    Examples
    --------
    >>> import numpy as np
    >>> from cdplot.stats import nemenyi_test
    >>> res = nemenyi_test(np.array([3.143, 2.000, 2.893, 1.964]), 14)
    >>> np.round(res.pvalue[0], 3)
    array([  nan, 0.089, 0.956, 0.074])
    """
    res = mean_ranks_test(avg_ranks, n_datasets)
    k = res.statistic.shape[0]
    z = res.statistic
    p = np.full_like(z, np.nan)
    i, j = _pairs(k)
    q = z[i, j] * math.sqrt(2.0)
    pu = np.ones_like(q)
    positive = q > 0
    if positive.any():
        # one numerical integration per distinct statistic (equal inputs give equal
        # outputs, so no bit changes); many pairs share a rank difference
        distinct, where = np.unique(q[positive], return_inverse=True)
        pu[positive] = range_sf(distinct, k)[where]
    pu = np.clip(pu, 0.0, 1.0)
    p[i, j] = pu
    p[j, i] = pu
    return PairwiseResult(z, p)


# --- Wilcoxon signed-rank test ---------------------------------------------------------


@cache
def _signed_rank_cdf_table(n: int) -> np.ndarray:
    """``P(V <= v)`` for v = 0..n(n+1)/2 under H0, for n untied non-zero differences.

    Counts the subsets of {1..n} by their sum with a dynamic programme; counts
    stay below 2**53 for n < 53, so they and their cumulative sums are exact in
    float64 and the probabilities are correctly rounded quotients.
    """
    top = n * (n + 1) // 2
    counts = np.zeros(top + 1)
    counts[0] = 1.0
    for m in range(1, n + 1):
        reach = m * (m + 1) // 2
        counts[m : reach + 1] += counts[: reach + 1 - m].copy()
    cdf = np.cumsum(counts) / 2.0**n
    cdf.setflags(write=False)
    return cdf


def signed_rank_cdf(v: np.ndarray | float, n: int) -> np.ndarray:
    """Exact null CDF ``P(V <= v)`` of the Wilcoxon signed-rank statistic (R's ``psignrank``)."""
    table = _signed_rank_cdf_table(int(n))
    v = np.floor(np.asarray(v, dtype=float))
    idx = np.clip(v, -1, table.size - 1).astype(np.int64)
    out = np.where(idx < 0, 0.0, table[np.maximum(idx, 0)])
    return out


def _rank_weights(n: int) -> tuple[np.ndarray, int]:
    """Weights that give a row's count of flags and the sum of their ranks in one pass.

    With ``w_t = (t + 1) + 2**shift`` (t the 0-based sorted position) and 0/1 flags,
    ``sum(flag_t w_t) = count * 2**shift + sum(flag_t (t + 1))`` in uint64 without overflow
    while ``(n + 1) * 2**shift <= 2**64``; for longer rows ``shift`` is 0 and ``w_t = t + 1``.
    """
    shift = (n * (n + 1) // 2).bit_length()
    if (n + 1).bit_length() + shift > 64:
        shift = 0
    w = np.arange(1, n + 1, dtype=np.uint64)
    if shift:
        w += np.uint64(1 << shift)
    return w, shift


def _signed_rank_sums(
    scores: np.ndarray, order: Sequence[int] | None, halve: bool, negate: bool = False
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Rank sums and tie terms of ``|x_i - x_j|`` for every pair i < j.

    Parameters
    ----------
    scores : numpy.ndarray
        N x k scores; the pairs are those of the columns in ``order`` (see
        :func:`~cdplot.stats._tiles.pair_chunks`, which also turns -0.0 into +0.0, so that a
        difference is zero exactly when its bits are all zero, and halves the scores when
        ``halve``).

    Returns
    -------
    r_minus : numpy.ndarray
        Per pair, the sum of the average ranks of the negative differences when all N
        absolute differences (zeros included) are ranked together.
    n_neg, n_zero : numpy.ndarray
        Per pair, the numbers of negative and of zero differences (int64).
    tie_sum : numpy.ndarray
        Per pair, ``sum(t**3 - t)`` over the tie blocks of the non-zero ``|d|``.
    has_ties : numpy.ndarray
        Per pair, whether two non-zero ``|d|`` are equal.

    Notes
    -----
    One sort per chunk does both the ranks and the tie terms. The sort key of a difference
    d is its bit pattern rotated left by one: the bits of ``|d|`` (monotone in ``|d|`` as an
    unsigned integer, the sign bit shifted out) followed by the sign bit. Sorting the keys
    orders ``|d|`` and, inside a block of equal ``|d|``, puts the negative differences last.
    Without ties the negative difference at sorted position t has rank t + 1. A tie block
    of size s holding p negatives (its last p positions) and q = s - p positives gives each
    member the block's average rank, which lowers the negatives' position-rank sum by
    exactly ``p q / 2``. Ties are found by comparing neighbours; the tie blocks are then
    handled all at once (see :func:`_tie_blocks`). Every quantity is an integer or a
    half-integer below 2**53 (for the tie terms, while N**3 < 2**53: N up to 208,000),
    hence exact in float64 whatever the order of summation.
    """
    n = scores.shape[0]
    k = scores.shape[1] if order is None else len(order)
    m = k * (k - 1) // 2
    r_minus = np.zeros(m)
    n_neg = np.zeros(m, dtype=np.int64)
    n_zero = np.zeros(m, dtype=np.int64)
    tie_sum = np.zeros(m)
    has_ties = np.zeros(m, dtype=bool)
    if m == 0 or n == 0:
        return r_minus, n_neg, n_zero, tie_sum, has_ties
    rows = max(1, min(m, CHUNK_CELLS // n))
    diff = np.empty((rows, n))
    bits = diff.view(np.uint64)
    keys = np.empty((rows, n), dtype=np.uint64)
    # equal[r, t]: sorted |d| at t and t + 1 are equal; the last column is False, so
    # that in the flattened array no run of ties crosses from one pair into the next
    equal = np.zeros((rows, n), dtype=bool)
    weights, shift = _rank_weights(n)
    low = np.uint64((1 << shift) - 1)
    for pairs, segments in pair_chunks(scores, order, rows, halve=halve, negate=negate):
        r = pairs.size
        d, u, key = diff[:r], bits[:r], keys[:r]
        for x, ys, row in segments:
            np.subtract(x, ys, out=d[row : row + ys.shape[0]])
        np.left_shift(u, 1, out=key)
        np.right_shift(u, 63, out=u)
        np.bitwise_or(key, u, out=key)
        key.sort(axis=1)
        negative = np.bitwise_and(key, 1, out=u)
        packed = np.einsum("ij,j->i", negative, weights)
        if shift:
            neg = packed >> np.uint64(shift)
            position_sum = packed & low
        else:
            neg = negative.sum(axis=1)
            position_sum = packed
        magnitude = np.right_shift(key, 1, out=key)
        # neighbours compared in one flat pass; the comparisons across two rows land in
        # the last column, which is reset
        flat = magnitude.ravel()
        np.equal(flat[1:], flat[:-1], out=equal[:r].ravel()[:-1])
        equal[:r, -1] = False
        zeros = (magnitude[:, 0] == 0).astype(np.int64)  # zeros sort first
        rm = position_sum.astype(float)
        if equal[:r].any():
            ties, tied = np.zeros(r), np.zeros(r, dtype=bool)
            _tie_blocks(equal[:r], negative, rm, zeros, ties, tied)
            tie_sum[pairs] = ties
            has_ties[pairs] = tied
        r_minus[pairs] = rm
        n_neg[pairs] = neg
        n_zero[pairs] = zeros
    return r_minus, n_neg, n_zero, tie_sum, has_ties


def _tie_blocks(
    equal: np.ndarray,
    negative: np.ndarray,
    r_minus: np.ndarray,
    n_zero: np.ndarray,
    tie_sum: np.ndarray,
    has_ties: np.ndarray,
) -> None:
    """Correct a chunk's rank sums for its tie blocks; fill zero counts and tie terms.

    ``equal`` and ``negative`` are the chunk's r x n arrays (neighbour equality and 0/1
    negative flags, in sorted order); ``r_minus``, ``n_zero`` (on entry 1 for the rows
    with a zero difference, else 0), ``tie_sum`` and ``has_ties`` (length r) are updated in
    place. The block of zero differences (first in its row) gives ``n_zero`` and no tie
    term. Tie terms are computed in int64 and summed in float64: exact while
    ``N**3 < 2**53`` (N up to 208,000).
    """
    r, n = equal.shape
    same = equal.ravel()
    flags = negative.ravel()
    dense = np.count_nonzero(same) > _DENSE_TIES * same.size
    if dense:
        # dense ties: take every block, singletons included (their terms are zero); a
        # block starts wherever a value differs from the previous one, and at each row
        # start since the last column of ``equal`` is False
        starts = np.empty(same.size, dtype=bool)
        starts[0] = True
        np.logical_not(same[:-1], out=starts[1:])
        first = np.flatnonzero(starts)
        size = np.diff(first, append=same.size)
    else:
        # sparse ties: only the runs of equal neighbours
        tied = np.flatnonzero(same)
        breaks = np.flatnonzero(np.diff(tied) != 1) + 1
        run_starts = np.concatenate(([0], breaks))
        first = tied[run_starts]  # flat position of the first member of each block
        size = tied[np.concatenate((breaks - 1, [tied.size - 1]))] + 2 - first
    # negatives of each block: running sums of the flags, or for a few blocks a sum over
    # their members
    if dense or 16 * first.size > same.size:
        running = np.empty(same.size + 1, dtype=np.uint64)
        running[0] = 0
        np.cumsum(flags, out=running[1:])
        p = (running[first + size] - running[first]).astype(np.int64)
    else:
        p = (np.add.reduceat(flags[tied], run_starts) + flags[first + size - 1]).astype(np.int64)
    # blocks are in flat order, hence grouped by row: per-row sums are differences of
    # running sums (int64, exact) at the rows' first blocks
    bounds = np.searchsorted(first, np.arange(0, (r + 1) * n, n))

    def row_sums(values: np.ndarray) -> np.ndarray:
        running = np.zeros(values.size + 1, dtype=np.int64)
        np.cumsum(values, out=running[1:])
        return running[bounds[1:]] - running[bounds[:-1]]

    r_minus -= row_sums(p * (size - p)) / 2.0
    terms = size * size * size - size
    # a row's zero differences sort first: their block, if any, is the row's first
    zero_rows = np.flatnonzero(n_zero)
    at = np.minimum(bounds[zero_rows], first.size - 1)
    hit = first[at] == zero_rows * n
    n_zero[zero_rows[hit]] = size[at[hit]]
    terms[at[hit]] = 0  # no tie term for the zeros
    ties = row_sums(terms)
    tie_sum += ties
    has_ties |= ties > 0


def signed_rank_statistics(
    r_all: np.ndarray,
    n_neg: np.ndarray,
    n_zero: np.ndarray,
    tie_sum: np.ndarray,
    has_ties: np.ndarray,
    n: int,
    zero_method: str,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``V = R+``, ``R-`` and the tie terms of signed-rank tests under a zero method.

    ``r_all`` is the sum of the ranks (among all n absolute differences, zeros first) of
    the negative differences, ``n_neg`` their number, ``n_zero`` the number of zero
    differences, ``tie_sum`` the sum of ``t^3 - t`` over the tie blocks of non-zero
    differences; one entry per pair (or per replicate and pair). Returns ``(r_plus,
    r_minus, n_zero, tie_sum, has_ties)`` for :func:`_signed_rank_pvalues`; shared by the
    single-table test and the simulation kernels (``stats/_batch.py``).
    """
    zero_rank_sum = n_zero * (n_zero + 1) / 2.0  # the zeros' ranks 1..n_zero
    if zero_method == "wilcox":
        # zeros dropped: every other rank moves down by n_zero
        nonzero = n - n_zero
        r_minus = r_all - n_zero * n_neg
        r_plus = nonzero * (nonzero + 1) / 2.0 - r_minus
    elif zero_method == "pratt":
        r_minus = r_all
        r_plus = n * (n + 1) / 2.0 - zero_rank_sum - r_minus
    else:  # zsplit: the zeros' ranks are shared evenly; their block is a tie block too
        r_minus = r_all + zero_rank_sum / 2.0
        r_plus = n * (n + 1) / 2.0 - zero_rank_sum / 2.0 - r_all
        z = n_zero.astype(float)
        tie_sum = tie_sum + (z**3 - z)
        has_ties = has_ties | (n_zero > 1)
    return r_plus, r_minus, n_zero, tie_sum, has_ties


def _signed_rank_pvalues(
    r_plus: np.ndarray,
    n: int,
    n_zero: np.ndarray,
    tie_sum: np.ndarray,
    has_ties: np.ndarray,
    zero_method: str,
    exact: bool | None,
    continuity: bool,
) -> tuple[np.ndarray, int]:
    """Two-sided p-values of the signed-rank statistics ``r_plus`` of N-difference pairs.

    Returns the p-values and the number of pairs for which an exact test was asked
    (``exact=True``) but is not defined (ties, or zeros kept in the ranking).
    """
    count = (n - n_zero) if zero_method == "wilcox" else np.full(r_plus.size, n)
    count = count.astype(float)
    mean = count * (count + 1.0) / 4.0
    var24 = count * (count + 1.0) * (2.0 * count + 1.0)
    if zero_method == "pratt":
        mean = mean - n_zero * (n_zero + 1.0) / 4.0
        var24 = var24 - n_zero * (n_zero + 1.0) * (2.0 * n_zero + 1.0)
    sd = np.sqrt(np.maximum(var24 - tie_sum / 2.0, 0.0) / 24.0)

    if exact is None:  # R's rule
        use_exact = ~has_ties & (n_zero == 0) & (count < EXACT_LIMIT)
    elif exact:
        # dropped zeros ("wilcox") leave an exact problem on the non-zero differences
        use_exact = ~has_ties & ((n_zero == 0) | (zero_method == "wilcox"))
    else:
        use_exact = np.zeros(r_plus.size, dtype=bool)
    refused = int((~use_exact).sum()) if exact else 0

    p = np.empty(r_plus.size)
    approx = ~use_exact
    if approx.any():  # the normal tail only where the exact test is not used
        diff = r_plus[approx] - mean[approx]
        if continuity:
            diff = diff - 0.5 * np.sign(diff)
        with np.errstate(divide="ignore", invalid="ignore"):
            z = diff / sd[approx]
        # no information at all (every difference zero): the statistic sits at its mean
        p[approx] = np.where(sd[approx] == 0, 1.0, _two_sided_normal(z))
    for size in np.unique(count[use_exact]).astype(int):
        rows = use_exact & (count == size)
        v = r_plus[rows]
        # R: p = 2 * (P(V >= v) if v > n(n+1)/4 else P(V <= v)), capped at 1
        upper = 1.0 - signed_rank_cdf(v - 1.0, size)
        lower = signed_rank_cdf(v, size)
        tail = np.where(v > size * (size + 1) / 4.0, upper, lower)
        p[rows] = np.minimum(1.0, 2.0 * tail)
    return p, refused


def wilcoxon_test(
    scores: np.ndarray,
    *,
    zero_method: str = "wilcox",
    exact: bool | None = None,
    continuity: bool = True,
) -> PairwiseResult:
    """Wilcoxon signed-rank test for every pair of algorithms.

    Parameters
    ----------
    scores : numpy.ndarray
        N x k scores, oriented so that higher is better.
    zero_method : {"wilcox", "pratt", "zsplit"}
        Zero differences: dropped (R's ``wilcox.test`` and the default),
        ranked but left out of the sums (Pratt), or ranked and split evenly
        between R+ and R- (Demšar 2006, Table 2's example; as scipy's "zsplit").
    exact : bool or None
        None (default): the exact null distribution when fewer than 50 non-zero
        differences remain and there are no ties and no zeros (R's rule),
        otherwise the normal approximation. True: exact whenever the non-zero
        absolute differences have no ties and, for "pratt" and "zsplit", there
        are no zeros (as scipy's ``method="exact"``); a warning names the pairs
        left to the normal approximation. False: always the normal approximation.
    continuity : bool
        Continuity correction of the normal approximation (R's default).

    Returns
    -------
    PairwiseResult
        ``statistic[i, j]`` is R+ for the differences ``x_i - x_j``, i.e. R's
        ``wilcox.test(x_i, x_j, paired = TRUE)$statistic`` (so
        ``statistic[j, i]`` is R-); ``pvalue`` is two-sided.

    Notes
    -----
    The normal approximation uses the tie-corrected variance
    ``n (n + 1) (2 n + 1) / 24 - sum(t^3 - t) / 48`` (Pratt: Cureton's
    adjustment for the zeros, as in scipy). Ties are exact floating-point
    equality of ``|x_i - x_j|`` (R's default ``digits.rank = Inf``). A pair
    whose differences are all zero gets p = 1. All pairs are ranked together, one
    sort of ``|x_i - x_j|`` per pair giving both the rank sums and the tie terms,
    exactly (see ``_signed_rank_sums``); the exact null distribution is computed
    once per number of differences and cached. Scores of magnitude 2**1023 (about
    9e307) or more are first halved, exactly, so that no difference overflows to inf
    (which would create false ties); only subnormal scores (below 2**-1021) could lose
    their last bit then.

    Examples
    --------
    >>> import numpy as np
    >>> from cdplot.stats import wilcoxon_test
    >>> scores = np.array([[0.80, 0.82, 0.70], [0.75, 0.79, 0.72], [0.90, 0.93, 0.85],
    ...                    [0.66, 0.70, 0.61], [0.85, 0.84, 0.80], [0.71, 0.76, 0.69]])
    >>> res = wilcoxon_test(scores)
    >>> np.round(res.pvalue[0, 1], 4)  # exact, as R wilcox.test(x, y, paired=TRUE)
    np.float64(0.0625)
    """
    return wilcoxon_columns(
        scores, None, zero_method=zero_method, exact=exact, continuity=continuity
    )


def wilcoxon_columns(
    scores: np.ndarray,
    order: Sequence[int] | None,
    *,
    zero_method: str = "wilcox",
    exact: bool | None = None,
    continuity: bool = True,
    stacklevel: int = 3,
    negate: bool = False,
) -> PairwiseResult:
    """:func:`wilcoxon_test` of ``scores[:, order]`` without that copy of the table.

    ``stacklevel`` of the warning on exact p-values that are not defined counts from here.
    ``negate``: the test of ``-scores`` (lower-is-better scores), without a negated copy.
    """
    check_choice(zero_method, "zero_method", ZERO_METHODS)
    if exact not in (None, True, False):
        raise CdplotInputError(f"exact must be None, True or False, got {exact!r}.")
    scores = np.asarray(scores, dtype=float)
    n = scores.shape[0]
    k = scores.shape[1] if order is None else len(order)
    # the largest magnitude from max and min: no |scores| copy of the whole table
    # (|x_i - x_j| could overflow to inf and create false ties: then every score is halved,
    # exactly for all normal numbers -- only subnormal scores below 2**-1021 would lose
    # their last bit -- which keeps every difference's rank and sign)
    halve = bool(scores.size) and max(float(scores.max()), -float(scores.min())) >= HUGE
    parts = _signed_rank_sums(scores, order, halve, negate)
    r_plus, r_minus, n_zero, tie_sum, has_ties = signed_rank_statistics(*parts, n, zero_method)
    p, refused = _signed_rank_pvalues(
        r_plus, n, n_zero, tie_sum, has_ties, zero_method, exact, continuity
    )
    if refused:
        warnings.warn(
            f"exact Wilcoxon p-values are not defined for {refused} pair(s) with tied absolute "
            "differences (or zero differences with zero_method='pratt'/'zsplit'); used the "
            "normal approximation for them, as R's wilcox.test does.",
            CdplotWarning,
            stacklevel=stacklevel,
        )
    return PairwiseResult(_to_matrix(k, r_plus, r_minus), _to_matrix(k, p))


# --- sign test ---------------------------------------------------------------------------


def _count_true(flags: np.ndarray) -> np.ndarray:
    """Number of True values in each row of a C-contiguous bool array of whole words.

    Each byte of a bool array is 0 or 1, so the population count of a row's 8-byte words
    is its number of True values.
    """
    if hasattr(np, "bitwise_count"):  # numpy >= 2.0
        return np.bitwise_count(flags.view(np.uint64)).sum(axis=1)
    return np.count_nonzero(flags, axis=1)


def sign_test(scores: np.ndarray, *, ties: str = "split") -> PairwiseResult:
    """Sign test (counts of wins) for every pair, with the exact two-sided binomial p.

    Parameters
    ----------
    scores : numpy.ndarray
        N x k scores, oriented so that higher is better.
    ties : {"split", "discard"}
        "split" (default, Demšar 2006 §3.1.4): ties are split evenly between
        the two algorithms, one tie being ignored if their number is odd.
        "discard": ties are dropped.

    Returns
    -------
    PairwiseResult
        ``statistic[i, j]`` is the number of wins of i over j (with its share of
        the ties); ``pvalue = min(1, 2 P(B <= min(w, n - w)))`` for
        ``B ~ Binomial(n, 1/2)``, n the number of counted datasets, as
        ``scipy.stats.binomtest(w, n).pvalue`` and R's ``binom.test``.

    Examples
    --------
    >>> import numpy as np
    >>> from cdplot.stats import sign_test
    >>> scores = np.array([[0.80, 0.82], [0.75, 0.79], [0.90, 0.93], [0.66, 0.70], [0.85, 0.84]])
    >>> res = sign_test(scores)
    >>> np.round(res.pvalue[0, 1], 4)  # 4 wins of 5: R binom.test(4, 5)$p.value
    np.float64(0.375)
    """
    return sign_columns(scores, None, ties=ties)


def sign_columns(
    scores: np.ndarray, order: Sequence[int] | None, *, ties: str = "split", negate: bool = False
) -> PairwiseResult:
    """:func:`sign_test` of ``scores[:, order]`` without that copy of the table.

    ``negate``: the test of ``-scores`` (lower-is-better scores), without a negated copy.
    """
    check_choice(ties, "ties", SIGN_TIES)
    scores = np.asarray(scores, dtype=float)
    n = scores.shape[0]
    k = scores.shape[1] if order is None else len(order)
    m = k * (k - 1) // 2
    wins = np.zeros(m)
    losses = np.zeros(m)
    if m and n:
        rows = max(1, min(m, CHUNK_CELLS // n))
        # rows padded to whole 8-byte words (the padding stays False) for _count_true
        width = -(-n // 8) * 8
        greater = np.zeros((rows, width), dtype=bool)
        less = np.zeros((rows, width), dtype=bool)
        for pairs, segments in pair_chunks(scores, order, rows, negate=negate):
            for x, ys, row in segments:
                block = slice(row, row + ys.shape[0])
                np.greater(x, ys, out=greater[block, :n])
                np.less(x, ys, out=less[block, :n])
            wins[pairs] = _count_true(greater[: pairs.size])
            losses[pairs] = _count_true(less[: pairs.size])
    wins, losses, p = sign_pvalues(wins, losses, n, ties)
    return PairwiseResult(_to_matrix(k, wins, losses), _to_matrix(k, p))

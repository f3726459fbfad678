"""Raw pairwise tests over all pairs of algorithms, vectorised over pairs.

Each test returns a :class:`PairwiseResult` with a k x k matrix of statistics and a
symmetric k x k matrix of two-sided p-values (NaN diagonal). ``scores`` are always
oriented so that *higher is better* (the caller negates lower-is-better scores;
negation is exact in floating point, so differences keep their exact magnitudes).
"""

from __future__ import annotations

import math
import warnings
from functools import lru_cache

import numpy as np
from scipy import special

from .._errors import CdplotInputError, CdplotWarning
from ._ranks import rank_rows
from ._results import PairwiseResult

__all__ = [
    "ZERO_METHODS",
    "SIGN_TIES",
    "mean_ranks_test",
    "nemenyi_test",
    "nemenyi_q",
    "rank_standard_error",
    "sign_test",
    "signed_rank_cdf",
    "wilcoxon_test",
]

ZERO_METHODS = ("wilcox", "pratt", "zsplit")
SIGN_TIES = ("split", "discard")
#: R's wilcox.test uses the exact distribution below this many non-zero differences.
EXACT_LIMIT = 50
#: Number of (pair x dataset) cells processed at once, bounding peak memory.
CHUNK_CELLS = 1 << 21


def _pairs(k: int) -> tuple[np.ndarray, np.ndarray]:
    return np.triu_indices(k, 1)


def _to_matrix(k: int, upper: np.ndarray, lower: np.ndarray | None = None) -> np.ndarray:
    out = np.full((k, k), np.nan)
    i, j = _pairs(k)
    out[i, j] = upper
    out[j, i] = upper if lower is None else lower
    return out


def _two_sided_normal(z: np.ndarray) -> np.ndarray:
    """``2 * P(Z >= |z|)`` for a standard normal Z, capped at 1."""
    return np.minimum(1.0, 2.0 * special.ndtr(-np.abs(z)))


def rank_standard_error(k: int, n_datasets: int) -> float:
    """Standard error of a difference of average ranks, ``sqrt(k (k + 1) / (6 N))``."""
    return math.sqrt(k * (k + 1) / (6.0 * n_datasets))


def mean_ranks_test(avg_ranks: np.ndarray, n_datasets: int) -> PairwiseResult:
    """The mean-ranks test: ``z = |R_i - R_j| / sqrt(k (k + 1) / (6 N))``, normal p.

    García & Herrera (2008) §3, Demšar (2006) §3.2.2. Two-sided p-values.
    """
    r = np.asarray(avg_ranks, dtype=float)
    k = r.size
    se = rank_standard_error(k, n_datasets)
    z = np.abs(r[:, None] - r[None, :]) / se
    p = _two_sided_normal(z)
    np.fill_diagonal(z, np.nan)
    np.fill_diagonal(p, np.nan)
    return PairwiseResult(z, p)


def nemenyi_q(k: int, alpha: float) -> float:
    """Demšar's critical value ``q_alpha`` of the Nemenyi test.

    The ``1 - alpha`` quantile of the studentized range of k independent
    standard normals (infinite degrees of freedom) divided by ``sqrt(2)``;
    Demšar (2006) Table 5(a).
    """
    from scipy.stats import studentized_range

    return float(studentized_range.ppf(1.0 - alpha, k, np.inf) / math.sqrt(2.0))


def nemenyi_test(avg_ranks: np.ndarray, n_datasets: int) -> PairwiseResult:
    """The Nemenyi test: the mean-ranks distance judged with the studentized range.

    The statistic is ``z = |R_i - R_j| / SE`` as in the mean-ranks test (so it
    compares directly with Demšar's ``q_alpha``); the p-value is
    ``P(Q_k >= sqrt(2) z)`` for the studentized range ``Q_k`` of k standard
    normals with infinite degrees of freedom. This p-value already accounts for
    all k (k - 1) / 2 comparisons (single-step adjustment), and ``p <= alpha``
    exactly when ``|R_i - R_j| >= CD``.
    """
    from scipy.stats import studentized_range

    res = mean_ranks_test(avg_ranks, n_datasets)
    k = res.statistic.shape[0]
    z = res.statistic
    p = np.full_like(z, np.nan)
    i, j = _pairs(k)
    q = z[i, j] * math.sqrt(2.0)
    pu = np.ones_like(q)
    positive = q > 0
    if positive.any():
        pu[positive] = studentized_range.sf(q[positive], k, np.inf)
    pu = np.clip(pu, 0.0, 1.0)
    p[i, j] = pu
    p[j, i] = pu
    return PairwiseResult(z, p)


# --- Wilcoxon signed-rank test ---------------------------------------------------------


@lru_cache(maxsize=None)
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


def _wilcoxon_chunk(
    d: np.ndarray, zero_method: str, exact: bool | None, continuity: bool
) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """Signed-rank test for each row of ``d`` (pairs x datasets).

    Returns R+ (sum of ranks of positive differences, plus half the zero ranks
    for "zsplit"), R-, the two-sided p-values, and whether an exact test was
    requested but could not be applied (ties or zeros).
    """
    n_pairs, n_cells = d.shape
    is_zero = d == 0
    n_zero = is_zero.sum(axis=1)
    absd = np.abs(d)
    if zero_method == "wilcox":
        # zeros are dropped: put them below every |d|; they take the lowest ranks
        absd = np.where(is_zero, -1.0, absd)
    ranks = rank_rows(absd)
    if zero_method == "wilcox":
        ranks = ranks - n_zero[:, None]
        ranks[is_zero] = 0.0
    pos = d > 0
    neg = d < 0
    r_plus = np.where(pos, ranks, 0.0).sum(axis=1)
    r_minus = np.where(neg, ranks, 0.0).sum(axis=1)
    if zero_method == "zsplit":
        half_zero = np.where(is_zero, ranks, 0.0).sum(axis=1) / 2.0
        r_plus = r_plus + half_zero
        r_minus = r_minus + half_zero
    count = (n_cells - n_zero) if zero_method == "wilcox" else np.full(n_pairs, n_cells)
    count = count.astype(float)

    # tie blocks of |d| (zeros excluded for "wilcox" and "pratt")
    tie_sum, has_ties = _tie_terms(absd, is_zero if zero_method != "zsplit" else None)

    mean = count * (count + 1.0) / 4.0
    var24 = count * (count + 1.0) * (2.0 * count + 1.0)
    if zero_method == "pratt":
        mean = mean - n_zero * (n_zero + 1.0) / 4.0
        var24 = var24 - n_zero * (n_zero + 1.0) * (2.0 * n_zero + 1.0)
    sd = np.sqrt(np.maximum(var24 - tie_sum / 2.0, 0.0) / 24.0)
    diff = r_plus - mean
    if continuity:
        diff = diff - 0.5 * np.sign(diff)
    with np.errstate(divide="ignore", invalid="ignore"):
        z = diff / sd
    p = _two_sided_normal(z)
    # no information at all (every difference zero): the statistic sits at its mean
    p = np.where(sd == 0, 1.0, p)

    if exact is None:  # R's rule
        use_exact = ~has_ties & (n_zero == 0) & (count < EXACT_LIMIT)
    elif exact:
        # dropped zeros ("wilcox") leave an exact problem on the non-zero differences
        use_exact = ~has_ties & ((n_zero == 0) | (zero_method == "wilcox"))
    else:
        use_exact = np.zeros(n_pairs, dtype=bool)
    exact_refused = int((~use_exact).sum()) if exact else 0
    for n in np.unique(count[use_exact]).astype(int):
        rows = use_exact & (count == n)
        v = r_plus[rows]
        # R: p = 2 * (P(V >= v) if v > n(n+1)/4 else P(V <= v)), capped at 1
        upper = 1.0 - signed_rank_cdf(v - 1.0, n)
        lower = signed_rank_cdf(v, n)
        tail = np.where(v > n * (n + 1) / 4.0, upper, lower)
        p[rows] = np.minimum(1.0, 2.0 * tail)
    return r_plus, r_minus, p, exact_refused


def _tie_terms(absd: np.ndarray, exclude: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
    """Per row: ``sum(t^3 - t)`` over tie blocks of ``absd`` and whether any tie exists.

    Cells where ``exclude`` is True (zero differences) form no tie block.
    """
    n_rows, n = absd.shape
    values = absd if exclude is None else np.where(exclude, np.nan, absd)
    ordered = np.sort(values, axis=1)  # NaN (excluded) sort last
    valid = ~np.isnan(ordered)
    same = np.zeros((n_rows, n), dtype=bool)
    same[:, 1:] = (ordered[:, 1:] == ordered[:, :-1]) & valid[:, 1:]
    # block sizes: for each block start, count following "same" flags
    starts = valid & ~same
    block_id = np.cumsum(starts, axis=1) - 1  # per row, 0-based
    block_id = np.where(valid, block_id + (np.arange(n_rows) * n)[:, None], n_rows * n)
    sizes = np.bincount(block_id.ravel(), minlength=n_rows * n + 1)[:-1].reshape(n_rows, n)
    sizes = sizes.astype(float)
    tie_sum = (sizes**3 - sizes).sum(axis=1)
    has_ties = (sizes > 1).any(axis=1)
    return tie_sum, has_ties


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
    whose differences are all zero gets p = 1.
    """
    if zero_method not in ZERO_METHODS:
        raise CdplotInputError(
            f"{zero_method!r} is not a valid value for zero_method; supported values are "
            f"{', '.join(repr(z) for z in ZERO_METHODS)}."
        )
    if exact not in (None, True, False):
        raise CdplotInputError(f"exact must be None, True or False, got {exact!r}.")
    scores = np.asarray(scores, dtype=float)
    n, k = scores.shape
    ii, jj = _pairs(k)
    m = ii.size
    r_plus = np.empty(m)
    r_minus = np.empty(m)
    p = np.empty(m)
    refused = 0
    step = max(1, CHUNK_CELLS // max(n, 1))
    cols = np.ascontiguousarray(scores.T)
    for start in range(0, m, step):
        sl = slice(start, min(m, start + step))
        d = cols[ii[sl]] - cols[jj[sl]]
        rp, rm, pv, ref = _wilcoxon_chunk(d, zero_method, exact, continuity)
        r_plus[sl], r_minus[sl], p[sl] = rp, rm, pv
        refused += ref
    if refused:
        warnings.warn(
            f"exact Wilcoxon p-values are not defined for {refused} pair(s) with tied absolute "
            "differences (or zero differences with zero_method='pratt'/'zsplit'); used the "
            "normal approximation for them, as R's wilcox.test does.",
            CdplotWarning,
            stacklevel=3,
        )
    return PairwiseResult(_to_matrix(k, r_plus, r_minus), _to_matrix(k, p))


# --- sign test ---------------------------------------------------------------------------


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
    """
    if ties not in SIGN_TIES:
        raise CdplotInputError(
            f"{ties!r} is not a valid value for ties; supported values are "
            f"{', '.join(repr(t) for t in SIGN_TIES)}."
        )
    scores = np.asarray(scores, dtype=float)
    n, k = scores.shape
    ii, jj = _pairs(k)
    m = ii.size
    wins = np.empty(m)
    losses = np.empty(m)
    step = max(1, CHUNK_CELLS // max(n, 1))
    cols = np.ascontiguousarray(scores.T)
    for start in range(0, m, step):
        sl = slice(start, min(m, start + step))
        d = cols[ii[sl]] - cols[jj[sl]]
        wins[sl] = (d > 0).sum(axis=1)
        losses[sl] = (d < 0).sum(axis=1)
    n_ties = n - wins - losses
    if ties == "split":
        counted_ties = n_ties - n_ties % 2
        wins = wins + counted_ties / 2
        losses = losses + counted_ties / 2
    total = wins + losses
    smaller = np.minimum(wins, losses)
    p = np.ones(m)
    has = total > 0
    p[has] = np.minimum(
        1.0,
        2.0 * special.bdtr(smaller[has].astype(np.int64), total[has].astype(np.int64), 0.5),
    )
    return PairwiseResult(_to_matrix(k, wins, losses), _to_matrix(k, p))

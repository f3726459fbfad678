"""The pairwise tests and p-value adjustments vectorised over a stack of score tables.

A simulation study runs the same procedure on thousands of simulated N x k tables. These
kernels (each test's ``batch`` kernel in the catalogue, ``_catalogue.CATALOGUE``) take the
tables stacked into one R x N x k array and return, for every table, the same p-values and
adjusted p-values as :func:`cdplot.compare` computes for that table alone (to the last bit:
the counts, rank sums and tie terms are exact integers or half-integers, and the p-values
follow the same floating-point formulas as :mod:`cdplot.stats._pairwise` and
:mod:`cdplot.stats._adjust`). Pairs are in ``numpy.triu_indices(k, 1)`` order.

Bergmann-Hommel has no closed form to vectorise; :func:`batch_adjust_all_pairs` runs the exact
engine of :mod:`cdplot.stats._exhaustive` table by table.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from .._errors import CdplotInputError
from ._adjust import ALL_PAIRS_CORRECTIONS, CONTROL_CORRECTIONS, ROW_CORRECTIONS
from ._catalogue import entry_of
from ._exhaustive import bergmann_hommel
from ._pairwise import (
    SIGN_TIES,
    ZERO_METHODS,
    _signed_rank_pvalues,
    _two_sided_normal,
    check_choice,
    sign_pvalues,
    signed_rank_statistics,
)
from ._ranks import rank_rows
from ._row_corrections import shaffer_rows
from ._studentized import range_sf

__all__ = [
    "batch_adjust_all_pairs",
    "batch_adjust_control",
    "batch_average_ranks",
    "batch_mean_ranks",
    "batch_nemenyi",
    "batch_pvalues",
    "batch_sign",
    "batch_wilcoxon",
]

#: (pair x dataset) cells of pairwise differences processed at once, in work arrays reused
#: from slice to slice (about 70 bytes a cell: 4.5 MB)
CHUNK_CELLS = 1 << 16


def batch_average_ranks(tables: np.ndarray) -> np.ndarray:
    """Average ranks (1 = best, ties averaged) of each R x N x k table: an R x k array."""
    r, n, k = tables.shape
    ranks = rank_rows(-tables.reshape(r * n, k)).reshape(r, n, k)
    return ranks.mean(axis=1)


class _Buffers:
    """Work arrays of one slice of differences, allocated once per call and reused.

    Reusing them keeps the kernels free of large allocations: in dask workers (glibc's
    MALLOC_TRIM_THRESHOLD_=65536) every freed block above 64 kB goes back to the system, and
    reallocating it costs a page fault per 4 kB.
    """

    def __init__(self, rows: int, n: int) -> None:
        self.d = np.empty((rows, n))
        self.a = np.empty((rows, n))
        self.key = np.empty((rows, n), dtype=np.uint64)
        self.flag = np.empty((rows, n), dtype=np.uint64)
        self.start = np.empty((rows, n), dtype=bool)
        self.end = np.empty((rows, n), dtype=bool)
        self.zero = np.empty((rows, n), dtype=bool)
        self.first = np.empty((rows, n), dtype=np.int64)
        self.last = np.empty((rows, n), dtype=np.int64)
        self.tmp = np.empty((rows, n), dtype=np.int64)
        self.idx = np.arange(n, dtype=np.int64)


def _signed_rank_parts(
    d: np.ndarray, buf: _Buffers
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per row of differences: rank sum of the negatives (zeros ranked too), n_neg, n_zero,
    ``sum(t^3 - t)`` over the tie blocks of the non-zero ``|d|``, and whether there are ties.

    The same quantities as ``_pairwise._signed_rank_sums``, with the same sort key: the bits
    of a difference rotated left by one (the bits of ``|d|``, monotone as an unsigned
    integer, then the sign bit), sorted in place. A tie block spanning sorted positions
    ``a..b`` gives each member the rank ``(a + b) / 2 + 1`` and contributes
    ``t^3 - t = sum over its t members of (t^2 - 1)``. All sums are of integers (exact).
    ``d`` must hold no negative zero.
    """
    rows, n = d.shape
    u = d.view(np.uint64)
    key, flag = buf.key[:rows], buf.flag[:rows]
    start, end, zero = buf.start[:rows], buf.end[:rows], buf.zero[:rows]
    first, last, tmp = buf.first[:rows], buf.last[:rows], buf.tmp[:rows]
    np.left_shift(u, 1, out=key)
    np.right_shift(u, 63, out=flag)
    np.bitwise_or(key, flag, out=key)
    key.sort(axis=1)
    np.bitwise_and(key, 1, out=flag)  # 1 for a negative difference, in sorted order
    np.right_shift(key, 1, out=key)  # the bits of |d|
    neg = flag.view(np.int64)
    start[:, 0] = True
    np.not_equal(key[:, 1:], key[:, :-1], out=start[:, 1:])
    end[:, -1] = True
    end[:, :-1] = start[:, 1:]
    np.multiply(start, buf.idx, out=tmp)
    np.maximum.accumulate(tmp, axis=1, out=first)  # first position of each one's block
    np.multiply(end[:, ::-1], buf.idx, out=tmp)
    np.maximum.accumulate(tmp, axis=1, out=last)
    np.subtract(n - 1, last[:, ::-1], out=tmp)  # last position of each one's block
    last[...] = tmp
    np.add(first, last, out=tmp)
    np.multiply(tmp, neg, out=tmp)
    n_neg = neg.sum(axis=1)
    r_all = tmp.sum(axis=1) / 2.0 + n_neg  # ranks (a + b) / 2 + 1 of the negatives
    np.equal(key, 0, out=zero)
    n_zero = zero.sum(axis=1)
    np.subtract(last, first, out=tmp)
    tmp += 1  # the size t of each one's block
    np.multiply(tmp, tmp, out=tmp)
    tmp -= 1
    np.putmask(tmp, zero, 0)  # no tie term for the zeros
    tie_sum = tmp.sum(axis=1).astype(float)
    return r_all, n_neg, n_zero, tie_sum, tie_sum > 0


def _wilcoxon(
    d: np.ndarray, buf: _Buffers, zero_method: str, exact: bool | None, continuity: bool
) -> np.ndarray:
    n = d.shape[1]
    parts = _signed_rank_parts(d, buf)
    r_plus, _, n_zero, tie_sum, has_ties = signed_rank_statistics(*parts, n, zero_method)
    p, _ = _signed_rank_pvalues(
        r_plus, n, n_zero, tie_sum, has_ties, zero_method, exact, continuity
    )
    return p


def _sign(d: np.ndarray, buf: _Buffers, ties: str) -> np.ndarray:
    rows, n = d.shape
    flags = buf.start[:rows]
    wins = np.count_nonzero(np.greater(d, 0.0, out=flags), axis=1).astype(float)
    losses = np.count_nonzero(np.less(d, 0.0, out=flags), axis=1).astype(float)
    return sign_pvalues(wins, losses, n, ties)[2]


def batch_pvalues(
    tables: np.ndarray,
    test: str,
    options: dict[str, Any] | None = None,
    *,
    avg_ranks: np.ndarray | None = None,
) -> np.ndarray:
    """Raw two-sided p-values of every pair in each of R stacked tables.

    Parameters
    ----------
    tables : numpy.ndarray
        R x N x k scores, oriented so that higher is better.
    test : {"wilcoxon", "sign", "mean-ranks", "nemenyi"}
        Canonical name of a test with a batch kernel in the catalogue
        (``_catalogue.CATALOGUE``).
    options : dict, optional
        The test's options (``zero_method``, ``exact``, ``continuity``; ``ties``).
    avg_ranks : numpy.ndarray, optional
        R x k average ranks, when already computed (mean-ranks and Nemenyi).

    Returns
    -------
    numpy.ndarray
        R x m p-values, m = k (k - 1) / 2, pairs in ``numpy.triu_indices(k, 1)`` order;
        row r equals ``compare(tables[r], test=test).pvalues`` read in that order.
    """
    entry = entry_of(test)
    if entry is None or entry.batch is None:
        raise CdplotInputError(f"{test!r} is not a test batch_pvalues knows.")
    return entry.batch.load()(tables, dict(options or {}), avg_ranks)


def _rank_z(tables: np.ndarray, avg_ranks: np.ndarray | None) -> np.ndarray:
    """R x m statistics ``|R_i - R_j| / SE`` of the tests on average ranks."""
    r, n, k = tables.shape
    pairs = np.triu_indices(k, 1)
    avg = batch_average_ranks(tables) if avg_ranks is None else avg_ranks
    # as mean_ranks_test: from the exact integers 2 S_j = 2 N R_j (twice the rank sums),
    # so equal rank-sum differences give bit-identical statistics
    twice = np.rint(2.0 * n * avg)
    scale = math.sqrt(2.0 * n * k * (k + 1) / 3.0)
    return np.abs(twice[:, pairs[0]] - twice[:, pairs[1]]) / scale


def batch_mean_ranks(
    tables: np.ndarray, options: dict[str, Any], avg_ranks: np.ndarray | None
) -> np.ndarray:
    """The mean-ranks test's p-values of R stacked tables (see :func:`batch_pvalues`)."""
    return _two_sided_normal(_rank_z(tables, avg_ranks))


def batch_nemenyi(
    tables: np.ndarray, options: dict[str, Any], avg_ranks: np.ndarray | None
) -> np.ndarray:
    """The Nemenyi test's p-values of R stacked tables (see :func:`batch_pvalues`)."""
    z = _rank_z(tables, avg_ranks)
    r, m = z.shape
    k = tables.shape[2]
    q = (z * np.sqrt(2.0)).ravel()
    p = np.ones_like(q)
    positive = q > 0
    if positive.any():
        distinct, where = np.unique(q[positive], return_inverse=True)
        p[positive] = range_sf(distinct, k)[where]
    return np.clip(p, 0.0, 1.0).reshape(r, m)


def batch_wilcoxon(
    tables: np.ndarray, options: dict[str, Any], avg_ranks: np.ndarray | None
) -> np.ndarray:
    """The Wilcoxon signed-rank test's p-values of R stacked tables (see :func:`batch_pvalues`)."""
    zero_method = check_choice(options.get("zero_method", "wilcox"), "zero_method", ZERO_METHODS)
    exact, continuity = options.get("exact"), options.get("continuity", True)

    def kernel(d: np.ndarray, buf: _Buffers) -> np.ndarray:
        return _wilcoxon(d, buf, zero_method, exact, continuity)

    return _over_differences(tables, kernel)


def batch_sign(
    tables: np.ndarray, options: dict[str, Any], avg_ranks: np.ndarray | None
) -> np.ndarray:
    """The sign test's p-values of R stacked tables (see :func:`batch_pvalues`)."""
    ties = check_choice(options.get("ties", "split"), "ties", SIGN_TIES)

    def kernel(d: np.ndarray, buf: _Buffers) -> np.ndarray:
        return _sign(d, buf, ties)

    return _over_differences(tables, kernel)


def _over_differences(
    tables: np.ndarray, kernel: Callable[[np.ndarray, _Buffers], np.ndarray]
) -> np.ndarray:
    """R x m p-values of a kernel of the pairs' differences (rows of one work array)."""
    r, n, k = tables.shape
    pairs = np.triu_indices(k, 1)
    m = pairs[0].size
    out = np.empty((r, m))
    if r == 0 or m == 0:
        return out
    # a few replicates at a time, in reused work arrays (see CHUNK_CELLS and _Buffers)
    cols = np.add(np.swapaxes(tables, 1, 2), 0.0)  # R x k x N; +0.0 turns -0.0 into +0.0
    step = max(1, min(r, CHUNK_CELLS // max(1, m * n)))
    buf = _Buffers(step * m, n)
    i, j = pairs
    a3 = buf.a.reshape(step, m, n)
    d3 = buf.d.reshape(step, m, n)
    for start in range(0, r, step):
        block = cols[start : start + step]
        s = block.shape[0]
        np.take(block, i, axis=1, out=a3[:s])
        np.take(block, j, axis=1, out=d3[:s])
        np.subtract(a3[:s], d3[:s], out=d3[:s])
        out[start : start + s] = kernel(buf.d[: s * m], buf).reshape(s, m)
    return out


# --- adjustments: the row-wise kernels of _adjust, one family of hypotheses per row --------


def batch_adjust_all_pairs(
    pvalues: np.ndarray, k: int, correction: str, *, bh_max_steps: int | None = None
) -> np.ndarray:
    """APVs of each row of R x m all-pairs p-values (as ``adjust_all_pairs`` row by row).

    ``correction`` is a canonical name of ``ALL_PAIRS_CORRECTIONS``. ``bh_max_steps`` is the
    work budget passed to :func:`~cdplot.stats.bergmann_hommel` (None: its default).
    """
    if correction not in ALL_PAIRS_CORRECTIONS:
        raise CdplotInputError(f"{correction!r} is not an all-pairs correction.")
    p = np.asarray(pvalues, dtype=float)
    if p.shape[1] == 0:
        return p.copy()
    if correction in ROW_CORRECTIONS:
        return ROW_CORRECTIONS[correction](p)
    if correction == "shaffer":
        return shaffer_rows(p, k)
    # bergmann-hommel: the exact engine, table by table
    i, j = np.triu_indices(k, 1)
    out = np.empty_like(p)
    mat = np.full((k, k), np.nan)
    kwargs: dict[str, Any] = {} if bh_max_steps is None else {"max_steps": bh_max_steps}
    for row in range(p.shape[0]):
        mat[i, j] = p[row]
        mat[j, i] = p[row]
        out[row] = bergmann_hommel(mat, progress=False, **kwargs)[i, j]
    return out


def batch_adjust_control(pvalues: np.ndarray, correction: str) -> np.ndarray:
    """APVs of each row of R x (k - 1) p-values against a control (as ``adjust_control``)."""
    if correction not in CONTROL_CORRECTIONS:
        raise CdplotInputError(f"{correction!r} is not a correction against a control.")
    return ROW_CORRECTIONS[correction](np.asarray(pvalues, dtype=float))

"""The vectorised pairwise tests equal straightforward per-pair code, bit for bit.

Verified to the last bit against per-pair implementations written here with the same
maths (ranks from ``scipy.stats.rankdata``, the same normal-approximation formulas and
normal tail ``math.erfc(|z| sqrt(1/2))``, an
exact null distribution counted with Python integers, ``scipy.special.bdtr``,
``scipy.stats.studentized_range.sf`` one pair at a time): the Wilcoxon signed-rank test
(every ``zero_method``, ``exact`` and ``continuity`` setting), the sign test, the
mean-ranks and Nemenyi tests, and the per-dataset ranks. Inputs include ties, zeros,
negative zeros, N on both sides of the exact/normal boundary (49, 50, 51) and chunk
boundaries that split the pairs of one algorithm and tie runs that touch across pairs.
Verified against scipy to 1e-12 (different but equivalent formulas):
``scipy.stats.wilcoxon`` and ``scipy.stats.binomtest``.
"""

from __future__ import annotations

import itertools
import math
import warnings

import numpy as np
import pytest
from scipy import special, stats

import cdplot
import cdplot.stats._pairwise as pw
import cdplot.stats._ranks as rk
import cdplot.stats._tiles as tiles
from cdplot.stats import mean_ranks_test, nemenyi_test, rank_rows, sign_test, wilcoxon_test
from cdplot.stats._studentized import range_sf

# --- per-pair reference implementations ----------------------------------------------------


def exact_cdf(n: int) -> np.ndarray:
    """``P(V <= v)``, v = 0..n(n+1)/2: subsets of {1..n} counted by sum in Python integers."""
    counts = [1] + [0] * (n * (n + 1) // 2)
    for m in range(1, n + 1):
        for total in range(m * (m + 1) // 2, m - 1, -1):
            counts[total] += counts[total - m]
    cumulative = list(itertools.accumulate(counts))
    return np.array([c / 2**n for c in cumulative])


def exact_p(v: float, n: int) -> float:
    """R's two-sided exact p-value of the signed-rank statistic V for n differences."""
    cdf = exact_cdf(n)

    def at(x: float) -> float:
        x = math.floor(x)
        return 0.0 if x < 0 else float(cdf[min(x, cdf.size - 1)])

    tail = 1.0 - at(v - 1.0) if v > n * (n + 1) / 4.0 else at(v)
    return min(1.0, 2.0 * tail)


def wilcoxon_pair(x, y, zero_method, exact, continuity):
    """One pair: (R+, R-, p, exact refused) by the textbook definitions."""
    d = x - y
    zero = d == 0
    n_zero = int(zero.sum())
    kept = d[~zero] if zero_method == "wilcox" else d
    ranks = stats.rankdata(np.abs(kept)) if kept.size else np.zeros(0)
    r_plus = float(ranks[kept > 0].sum())
    r_minus = float(ranks[kept < 0].sum())
    if zero_method == "zsplit":
        r_plus += ranks[kept == 0].sum() / 2.0
        r_minus += ranks[kept == 0].sum() / 2.0
    count = float(kept.size)
    # tie blocks of |d| (the zeros' block only for "zsplit")
    tied_values = np.abs(kept) if zero_method == "zsplit" else np.abs(d[~zero])
    _, t = np.unique(tied_values, return_counts=True)
    t = t.astype(float)
    tie_sum = float((t**3 - t).sum())
    has_ties = bool((t > 1).any())
    mean = count * (count + 1.0) / 4.0
    var24 = count * (count + 1.0) * (2.0 * count + 1.0)
    if zero_method == "pratt":
        mean = mean - n_zero * (n_zero + 1.0) / 4.0
        var24 = var24 - n_zero * (n_zero + 1.0) * (2.0 * n_zero + 1.0)
    sd = np.sqrt(np.maximum(var24 - tie_sum / 2.0, 0.0) / 24.0)
    diff = r_plus - mean
    if continuity:
        diff = diff - 0.5 * np.sign(diff)
    p = 1.0 if sd == 0 else min(1.0, math.erfc(abs(diff / sd) * math.sqrt(0.5)))
    if exact is None:
        use_exact = not has_ties and n_zero == 0 and count < 50
    elif exact:
        use_exact = not has_ties and (n_zero == 0 or zero_method == "wilcox")
    else:
        use_exact = False
    if use_exact:
        p = exact_p(r_plus, int(count))
    return r_plus, r_minus, p, bool(exact and not use_exact)


def all_pairs(x, fn, *args):
    k = x.shape[1]
    stat = np.full((k, k), np.nan)
    p = np.full((k, k), np.nan)
    refused = 0
    for i, j in itertools.combinations(range(k), 2):
        s_ij, s_ji, p_ij, *rest = fn(x[:, i], x[:, j], *args)
        stat[i, j], stat[j, i] = s_ij, s_ji
        p[i, j] = p[j, i] = p_ij
        refused += sum(rest)
    return stat, p, refused


def sign_pair(x, y, ties):
    d = x - y
    wins, losses, n_ties = int((d > 0).sum()), int((d < 0).sum()), int((d == 0).sum())
    if ties == "split":
        wins, losses = wins + n_ties // 2, losses + n_ties // 2
    total = wins + losses
    p = min(1.0, 2.0 * float(special.bdtr(min(wins, losses), total, 0.5))) if total else 1.0
    return float(wins), float(losses), p


# --- inputs ------------------------------------------------------------------------------


def make_scores(rng, n, k, kind):
    """Scores with no ties, few or many ties, few values (ties and zeros), or signed zeros."""
    if kind == "continuous":
        return rng.normal(size=(n, k))
    if kind == "rounded":
        return np.round(rng.normal(size=(n, k)), 1)
    if kind == "few-ties":
        return np.round(rng.normal(size=(n, k)), 3)
    if kind == "few-values":
        return rng.integers(0, 5, size=(n, k)) / 4.0
    x = rng.normal(size=(n, k))  # "signed-zeros": copies, zeros and negative zeros
    x[:, -1] = x[:, 0]
    x[rng.random((n, k)) < 0.3] = 0.0
    x[rng.random((n, k)) < 0.3] *= -1.0
    x[rng.random((n, k)) < 0.2] = -0.0
    return x


KINDS = ["continuous", "few-ties", "rounded", "few-values", "signed-zeros"]


def assert_same_bits(got, expected):
    np.testing.assert_array_equal(got, expected)
    np.testing.assert_array_equal(np.signbit(got), np.signbit(expected))


def run_wilcoxon(x, **options):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", cdplot.CdplotWarning)
        res = wilcoxon_test(x, **options)
    return res, caught


# --- Wilcoxon ----------------------------------------------------------------------------


@pytest.mark.parametrize("kind", KINDS)
# 60: beyond 52 differences (the float64 count table is no longer exact); 120 in the slow run
@pytest.mark.parametrize("n", [1, 2, 7, 49, 50, 51, 60, pytest.param(120, marks=pytest.mark.slow)])
def test_wilcoxon_equals_per_pair_code(rng, kind, n):
    x = make_scores(rng, n, 5, kind)
    for zero_method, exact, continuity in itertools.product(
        ("wilcox", "pratt", "zsplit"), (None, True, False), (True, False)
    ):
        res, caught = run_wilcoxon(x, zero_method=zero_method, exact=exact, continuity=continuity)
        stat, p, refused = all_pairs(x, wilcoxon_pair, zero_method, exact, continuity)
        assert_same_bits(res.statistic, stat)
        if exact and n > 52:
            # beyond 52 differences the subset counts exceed 2**53: the float64 table is
            # no longer the exactly rounded integer count
            np.testing.assert_allclose(res.pvalue, p, rtol=1e-12)
        else:
            assert_same_bits(res.pvalue, p)
        assert len(caught) == (1 if refused else 0)
        if refused:
            assert f"not defined for {refused} pair(s)" in str(caught[0].message)


@pytest.mark.parametrize("n_nonzero", [48, 49, 50, 51])
def test_wilcoxon_exact_boundary_counts_nonzero_differences(rng, n_nonzero):
    # R's rule looks at the non-zero differences; with zeros the normal approximation is
    # used, and with exact=True the zeros are dropped ("wilcox") and the exact test runs
    n = 53
    x = rng.normal(size=(n, 3))
    x[n_nonzero:, 1] = x[n_nonzero:, 0]
    for exact in (None, True):
        res, _ = run_wilcoxon(x, exact=exact)
        stat, p, _ = all_pairs(x, wilcoxon_pair, "wilcox", exact, True)
        assert_same_bits(res.statistic, stat)
        assert_same_bits(res.pvalue, p)


def assert_wilcoxon_per_pair(x):
    """Every zero_method's statistics and p-values equal the per-pair code's, bit for bit."""
    for zero_method in ("wilcox", "pratt", "zsplit"):
        res, _ = run_wilcoxon(x, zero_method=zero_method)
        stat, p, _ = all_pairs(x, wilcoxon_pair, zero_method, None, True)
        assert_same_bits(res.statistic, stat)
        assert_same_bits(res.pvalue, p)


@pytest.mark.parametrize("chunk", [1, 7, 3 * 40, 5 * 40 - 1, 11 * 40 + 3, 1 << 18])
@pytest.mark.parametrize("kind", KINDS)
def test_wilcoxon_chunk_boundaries(rng, monkeypatch, chunk, kind):
    # 40 datasets, 9 algorithms: chunks of 1, 3, 4 and 11 pairs split the 8, 7, ... pairs
    # of one algorithm and straddle two algorithms
    x = make_scores(rng, 40, 9, kind)
    monkeypatch.setattr(pw, "CHUNK_CELLS", chunk)
    assert_wilcoxon_per_pair(x)


@pytest.mark.parametrize(("tile", "chunk"), [(40, 40), (3 * 40, 2 * 40), (4 * 40, 7 * 40)])
@pytest.mark.parametrize("kind", ["continuous", "few-values", "signed-zeros"])
def test_wilcoxon_and_sign_tiles(rng, monkeypatch, tile, chunk, kind):
    # tiles of 1, 3 and 4 of the 10 columns (the last one short), each filled a few rows at
    # a time, and chunks that cut the pairs between two tiles: the pairs are numbered as
    # numpy.triu_indices and every one equals the per-pair definition
    x = make_scores(rng, 40, 10, kind)
    monkeypatch.setattr(tiles, "TILE_VALUES", tile)
    monkeypatch.setattr(tiles, "_GATHER_VALUES", 30)
    monkeypatch.setattr(pw, "CHUNK_CELLS", chunk)
    assert_wilcoxon_per_pair(x)
    res = sign_test(x)
    for i, j in itertools.combinations(range(10), 2):
        wins, losses, p = sign_pair(x[:, i], x[:, j], "split")
        assert res.statistic[i, j] == wins and res.statistic[j, i] == losses
        assert res.pvalue[i, j] == p


def test_columns_in_order_equal_the_reordered_table(rng, monkeypatch):
    # compare() hands the kernels the canonical column order instead of a reordered copy
    x = make_scores(rng, 30, 7, "few-ties")
    order = [4, 0, 6, 2, 5, 1, 3]
    monkeypatch.setattr(tiles, "TILE_VALUES", 2 * 30)  # tiles of 2 columns
    for zero_method in ("wilcox", "pratt", "zsplit"):
        got = pw.wilcoxon_columns(x, order, zero_method=zero_method)
        want = wilcoxon_test(x[:, order], zero_method=zero_method)
        assert_same_bits(got.statistic, want.statistic)
        assert_same_bits(got.pvalue, want.pvalue)
    got, want = pw.sign_columns(x, order), sign_test(x[:, order])
    assert_same_bits(got.statistic, want.statistic)
    assert_same_bits(got.pvalue, want.pvalue)


def test_pair_index_is_triu_order():
    for k in (2, 3, 7):
        rows, cols = np.triu_indices(k, 1)
        got = [tiles.pair_index(int(i), int(j), k) for i, j in zip(rows, cols, strict=True)]
        assert got == list(range(rows.size))


@pytest.mark.parametrize("dense", [0.0, 2.0])  # every chunk walked as dense / as sparse ties
@pytest.mark.parametrize("kind", ["few-ties", "rounded", "few-values", "signed-zeros"])
def test_wilcoxon_both_tie_walks(rng, monkeypatch, dense, kind):
    x = make_scores(rng, 60, 6, kind)
    monkeypatch.setattr(pw, "_DENSE_TIES", dense)
    monkeypatch.setattr(pw, "CHUNK_CELLS", 4 * 60)
    assert_wilcoxon_per_pair(x)


def test_wilcoxon_tie_runs_do_not_cross_pairs(monkeypatch):
    # |x0 - x1| = |x0 - x2| = 1 everywhere and x1 = x2: the sorted rows of pairs (0, 1) and
    # (0, 2) are all 1 and touch in the flattened chunk; (1, 2) is all zeros
    n = 12
    x = np.column_stack([np.zeros(n), np.ones(n), np.ones(n)])
    x[::3, 0] = 2.0  # some differences of the other sign
    monkeypatch.setattr(pw, "CHUNK_CELLS", 3 * n)  # all three pairs in one chunk
    for zero_method, dense in itertools.product(("wilcox", "pratt", "zsplit"), (0.0, 2.0)):
        monkeypatch.setattr(pw, "_DENSE_TIES", dense)
        res, _ = run_wilcoxon(x, zero_method=zero_method)
        stat, p, _ = all_pairs(x, wilcoxon_pair, zero_method, None, True)
        assert_same_bits(res.statistic, stat)
        assert_same_bits(res.pvalue, p)


def test_wilcoxon_negative_zero_is_a_zero():
    # lower-is-better scores are negated: 0.0 becomes -0.0, and -0.0 - 0.0 is -0.0
    x = np.array([[-0.0, 0.0], [-0.0, -0.0], [1.0, -2.0], [3.0, 1.0], [-1.0, 0.5]] * 3)
    assert_wilcoxon_per_pair(x)


@pytest.mark.parametrize("zero_method", ["wilcox", "pratt", "zsplit"])
def test_wilcoxon_matches_scipy(rng, zero_method):
    for n, kind in itertools.product((8, 30, 49, 50, 51, 200), KINDS):
        x = make_scores(rng, n, 3, kind)
        res = wilcoxon_test(x, zero_method=zero_method, exact=False)
        for i, j in itertools.combinations(range(3), 2):
            if not (x[:, i] - x[:, j]).any():
                continue
            ref = stats.wilcoxon(
                x[:, i], x[:, j], zero_method=zero_method, correction=True, method="asymptotic"
            )
            assert res.pvalue[i, j] == pytest.approx(ref.pvalue, rel=1e-12, abs=1e-300)
            assert min(res.statistic[i, j], res.statistic[j, i]) == ref.statistic


def test_exact_table_is_the_integer_count():
    for n in (0, 1, 2, 10, 30, 49):
        table = pw._signed_rank_cdf_table(n)
        assert_same_bits(table, exact_cdf(n))
    assert pw._signed_rank_cdf_table(20) is pw._signed_rank_cdf_table(20)  # computed once


def test_rank_weights_pack_without_overflow():
    for n in (1, 2, 1000, 100_000, 1_500_000, 5_000_000):
        w, shift = pw._rank_weights(n)
        if shift:
            # all flags set: count * 2**shift + n(n+1)/2 must fit in uint64
            assert (n << shift) + n * (n + 1) // 2 < 2**64
            assert n * (n + 1) // 2 < 2**shift
        assert int(w[-1]) - (1 << shift if shift else 0) == n


def test_empty_inputs():
    res = wilcoxon_test(np.zeros((0, 3)))
    assert np.isnan(np.diag(res.pvalue)).all()
    assert (res.pvalue[np.triu_indices(3, 1)] == 1.0).all()
    assert wilcoxon_test(np.zeros((5, 1))).pvalue.shape == (1, 1)
    assert sign_test(np.zeros((0, 2))).pvalue[0, 1] == 1.0


# --- sign test, mean ranks, Nemenyi, ranks ----------------------------------------------------


@pytest.mark.parametrize("chunk", [1, 3 * 33, 1 << 18])
@pytest.mark.parametrize("ties", ["split", "discard"])
@pytest.mark.parametrize("kind", KINDS)
def test_sign_test_equals_per_pair_code(rng, monkeypatch, chunk, ties, kind):
    x = make_scores(rng, 33, 7, kind)  # 33 datasets: rows of 33 bools, padded to 40
    monkeypatch.setattr(pw, "CHUNK_CELLS", chunk)
    res = sign_test(x, ties=ties)
    k = x.shape[1]
    for i, j in itertools.combinations(range(k), 2):
        wins, losses, p = sign_pair(x[:, i], x[:, j], ties)
        assert res.statistic[i, j] == wins and res.statistic[j, i] == losses
        assert res.pvalue[i, j] == p == res.pvalue[j, i]
        total = int(wins + losses)
        expected = stats.binomtest(int(wins), total).pvalue if total else 1.0
        assert p == pytest.approx(expected, rel=1e-12)


def test_mean_ranks_and_nemenyi_equal_per_pair_code(rng):
    for k, n in ((3, 10), (8, 25), (30, 7)):
        ranks = rank_rows(-rng.integers(0, 4, size=(n, k)).astype(float))
        avg = ranks.mean(axis=0)
        se = math.sqrt(k * (k + 1) / (6.0 * n))
        mr = mean_ranks_test(avg, n)
        ne = nemenyi_test(avg, n)
        twice = 2.0 * ranks.sum(axis=0)  # exact integers: twice the rank sums
        for i, j in itertools.permutations(range(k), 2):
            # from the exact rank-sum difference (equal differences, equal bits) ...
            z = abs(twice[i] - twice[j]) / math.sqrt(2.0 * n * k * (k + 1) / 3.0)
            # ... equal to Demšar's |R_i - R_j| / SE up to rounding
            assert z == pytest.approx(abs(avg[i] - avg[j]) / se, rel=1e-14, abs=1e-15)
            assert mr.statistic[i, j] == z == ne.statistic[i, j]
            assert mr.pvalue[i, j] == min(1.0, math.erfc(z * math.sqrt(0.5)))
            assert mr.pvalue[i, j] == pytest.approx(min(1.0, 2.0 * stats.norm.sf(z)), rel=1e-12)
            q = z * math.sqrt(2.0)
            # pair by pair through the same distribution function: the same bits
            p = float(range_sf(q, k)[0]) if q > 0 else 1.0
            assert ne.pvalue[i, j] == p
            # and scipy's studentized range (accurate where 1 - cdf is)
            ref = float(stats.studentized_range.sf(q, k, np.inf)) if q > 0 else 1.0
            assert ne.pvalue[i, j] == pytest.approx(ref, rel=1e-9, abs=1e-13)


@pytest.mark.parametrize("chunk", [1, 5, 64, 1 << 18])
def test_rank_rows_equals_rankdata(rng, monkeypatch, chunk):
    monkeypatch.setattr(rk, "CHUNK_VALUES", chunk)
    for kind, n in itertools.product(KINDS, (1, 2, 9, 40)):
        x = make_scores(rng, 23, n, kind)
        assert_same_bits(rank_rows(x), stats.rankdata(x, axis=1))
    assert rank_rows(np.zeros((3, 0))).shape == (3, 0)
    assert rank_rows(np.zeros((0, 4))).shape == (0, 4)


def test_undefined_exact_p_warning_points_at_the_caller():
    # tied differences: exact=True falls back to the normal approximation, with a warning
    # that names the caller's line, whether it called compare() or wilcoxon_test()
    x = np.round(np.random.default_rng(0).normal(size=(12, 3)), 1)
    for call in (lambda: cdplot.compare(x, exact=True), lambda: wilcoxon_test(x, exact=True)):
        with pytest.warns(cdplot.CdplotWarning, match="exact Wilcoxon p-values") as caught:
            call()
        assert [w.filename for w in caught] == [__file__]

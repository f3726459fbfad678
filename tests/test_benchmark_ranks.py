"""Simultaneous rank intervals of one benchmark (``cdplot.stats.benchmark_rank_intervals``).

Checked for consistency only (no independent implementation exists for these): the
bootstrap-t's per-replicate standard errors, computed from matrix products of the counts,
against the cluster-robust standard errors of the resampled table built unit by unit (the
slow, obvious oracle); the fixed-standard-error statistic against a loop over pairs; the
construction of the intervals from the critical value (Mogstad et al. 2024, Section 3);
P(best) against a direct count over the same replicates. Coverage is simulated in
``tests/test_benchmark_pair_coverage.py``.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from cdplot._errors import CdplotInputError, CdplotWarning
from cdplot.io._benchmark import BenchmarkItems
from cdplot.stats import BenchmarkRankIntervals, benchmark_rank_intervals, pair_statistics
from cdplot.stats._benchmark_pairs import bootstrap_counts, cluster_standard_errors
from cdplot.stats._benchmark_ranks import _bootstrap, _PairMoments


def make_items(scores, clusters=None):
    scores = np.asarray(scores, dtype=float)
    n, k = scores.shape
    extra = {}
    if clusters is not None:
        clusters = np.asarray(clusters, dtype=np.int64)
        extra = {"clusters": clusters, "cluster_ids": tuple(map(str, range(clusters.max() + 1)))}
    binary = bool(np.isin(scores[~np.isnan(scores)], (0.0, 1.0)).all())
    return BenchmarkItems(
        tuple(f"m{i}" for i in range(k)), tuple(map(str, range(n))), scores, binary, **extra
    )


def _oracle_row_max(units, sizes, w, studentize):
    """The largest |delta_i - delta_j| / se_ij of one replicate, the resampled table built
    unit by unit and its standard errors computed from scratch."""
    theta = units.sum(axis=0) / sizes.sum()
    _, se_full = cluster_standard_errors(units, sizes)
    reps = np.repeat(np.arange(units.shape[0]), w.astype(int))
    diff, se = cluster_standard_errors(units[reps], sizes[reps])
    gap = diff - (theta[:, None] - theta[None, :])
    best = 0.0
    k = units.shape[1]
    for i in range(k):
        for j in range(i + 1, k):
            s = se[i, j] if studentize and se[i, j] > 0 else se_full[i, j]
            if se_full[i, j] > 0 and s > 0:
                best = max(best, abs(gap[i, j]) / s)
    return best


@pytest.mark.parametrize("clustered", [False, True])
def test_bootstrap_t_matches_the_resampled_table(clustered):
    rng = np.random.default_rng(4)
    n, k = 36, 5
    x = rng.normal(size=(n, k)) + rng.normal(size=(n, 1))
    if clustered:
        sizes = np.array([2.0, 3, 4, 5, 3, 4, 6, 5, 4])  # 36 items in clusters of 2 to 6
        codes = np.repeat(np.arange(9), sizes.astype(int))
        units = np.zeros((9, k))
        np.add.at(units, codes, x)
    else:
        units, sizes = x, np.ones(n)
    _, se = cluster_standard_errors(units, sizes)
    moments = _PairMoments(units, sizes, se)
    w = bootstrap_counts(np.random.default_rng(0), 7, units.shape[0])
    n_w = w @ sizes
    delta = (w @ units) / n_w[:, None] - units.sum(axis=0) / sizes.sum()
    got = moments.row_max(w, n_w, delta)
    expected = [_oracle_row_max(units, sizes, row, True) for row in w]
    np.testing.assert_allclose(got, expected, rtol=1e-9)


def test_fixed_standard_errors_and_p_best_match_a_loop():
    rng = np.random.default_rng(6)
    x = (rng.random((50, 4)) < [0.7, 0.6, 0.6, 0.3]).astype(float)
    units, sizes = x, np.ones(50)
    _, se = cluster_standard_errors(units, sizes)
    row_max, wins = _bootstrap(units, sizes, se, 300, np.random.default_rng(1), False)
    w = bootstrap_counts(np.random.default_rng(1), 300, 50)  # the same draws (one block)
    expected = [_oracle_row_max(units, sizes, row, False) for row in w]
    np.testing.assert_allclose(row_max, expected, rtol=1e-5)  # float32 kernel
    means = (w @ units) / 50
    top = means == means.max(axis=1, keepdims=True)
    np.testing.assert_allclose(wins, (top / top.sum(axis=1, keepdims=True)).sum(axis=0))


def test_intervals_follow_the_critical_value():
    rng = np.random.default_rng(8)
    x = rng.normal(size=(60, 6)) + [0.0, 0.05, 0.5, 0.55, 1.2, 3.0]
    ri = benchmark_rank_intervals(make_items(x), n_boot=2000, seed=3)
    ps = pair_statistics(make_items(x))
    assert ri.studentized and not ri.clustered and ri.n_units == 60
    c = ri.critical_value
    better = (c * ps.se < ps.difference.T).sum(axis=1)  # [i, j]: j better than i
    worse = (ps.difference > c * ps.se).sum(axis=1)
    np.testing.assert_array_equal(ri.low, 1 + better)
    np.testing.assert_array_equal(ri.high, 6 - worse)
    assert ri.low[5] == ri.high[5] == 1  # far ahead
    assert ri.best_set == ("m5",)
    assert ri.p_best.sum() == pytest.approx(1.0)
    assert isinstance(ri, BenchmarkRankIntervals)
    frame = ri.to_frame()
    assert list(frame.columns) == ["mean", "low", "high", "p_best", "in_best_set"]


def test_lower_is_better_reverses_the_ranks():
    rng = np.random.default_rng(9)
    x = rng.normal(size=(80, 3)) + [0.0, 2.0, 4.0]
    up = benchmark_rank_intervals(make_items(x), n_boot=1000, seed=0)
    down = benchmark_rank_intervals(make_items(x), n_boot=1000, seed=0, higher_is_better=False)
    assert up.low.tolist() == [3, 2, 1] and down.low.tolist() == [1, 2, 3]
    assert up.best_set == ("m2",) and down.best_set == ("m0",)
    assert down.p_best[0] == 1.0


def test_identical_models_share_every_rank_and_split_p_best():
    x = np.random.default_rng(2).normal(size=(40, 1)).repeat(3, axis=1)
    ri = benchmark_rank_intervals(make_items(x), n_boot=500, seed=0)
    assert ri.low.tolist() == [1, 1, 1] and ri.high.tolist() == [3, 3, 3]
    np.testing.assert_allclose(ri.p_best, 1 / 3)


def test_clusters_are_resampled_by_default():
    rng = np.random.default_rng(10)
    g, size = 20, 10
    codes = np.repeat(np.arange(g), size)
    x = rng.normal(size=(g * size, 3)) * 0.3 + rng.normal(size=(g, 3)).repeat(size, axis=0)
    x[:, 2] += 0.35
    items = make_items(x, clusters=codes)
    robust = benchmark_rank_intervals(items, n_boot=2000, seed=0)
    naive = benchmark_rank_intervals(items, n_boot=2000, seed=0, clustered=False)
    assert robust.clustered and robust.n_units == g
    assert not naive.clustered and naive.n_units == g * size
    # the items of a cluster move together: the naive intervals are too narrow
    assert (naive.high - naive.low).sum() < (robust.high - robust.low).sum()


def test_seed_makes_it_reproducible():
    x = (np.random.default_rng(0).random((100, 5)) < 0.5).astype(float)
    a = benchmark_rank_intervals(make_items(x), n_boot=500, seed=7)
    b = benchmark_rank_intervals(make_items(x), n_boot=500, seed=7)
    assert a == b


def test_fixed_standard_errors_warn_with_few_units():
    # 30 items, 1,770 pairs: 15,000 * 1,770 * (30 + 100) = 3.45e9 operations > 3e9
    x = np.random.default_rng(0).normal(size=(30, 60))
    items = make_items(x)
    with pytest.warns(CdplotWarning, match="studentize=True"):
        ri = benchmark_rank_intervals(items, n_boot=15_000, seed=0)
    assert not ri.studentized
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert not benchmark_rank_intervals(items, n_boot=200, seed=0, studentize=False).studentized


@pytest.mark.parametrize(
    ("scores", "kwargs", "match"),
    [
        ([[0.1, np.nan], [0.2, 0.3], [0.5, 0.1]], {}, "missing"),
        ([[0.1, 0.2], [0.2, 0.3]], {"clustered": True}, "cluster=\\.\\.\\."),
        ([[0.1, 0.2]], {}, "at least 2 items"),
        ([[0.1, 0.2], [0.2, 0.3]], {"n_boot": 10}, "n_boot"),
        ([[0.1, 0.2], [0.2, 0.3]], {"n_boot": 1000.0}, "integer"),
    ],
)
def test_bad_input_is_refused(scores, kwargs, match):
    with pytest.raises(CdplotInputError, match=match):
        benchmark_rank_intervals(make_items(scores), **kwargs)

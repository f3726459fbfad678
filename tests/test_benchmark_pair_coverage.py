"""Coverage of the per-pair intervals and rank intervals of one benchmark, and the size of
the per-pair p-values, by seeded simulations whose true values are known.

Every interval states a confidence (0.95 here) and every check allows the Monte Carlo
error of its replicate count (the bound sits two to three standard errors under the
nominal level). Controls show that the checks can fail: the Wald interval of paired
proportions, the paired t that ignores clusters and the rank intervals that resample items
of clustered data all under-cover on the same simulations. The exact coverage of the
paired-proportion interval (summed over every 2 x 2 table of n items) is in the slow part.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from cdplot.io._benchmark import BenchmarkItems
from cdplot.stats import benchmark_rank_intervals, pair_statistics
from cdplot.stats._benchmark_pairs import newcombe_interval, tango_interval

Z95 = stats.norm.isf(0.025)
#: cell probabilities (both solved, only the first, only the second, neither)
CELLS = {
    "middle": (0.30, 0.15, 0.10, 0.45),
    "rare-discordance": (0.40, 0.06, 0.02, 0.52),
    "near-boundary": (0.85, 0.08, 0.02, 0.05),
}


def make_items(scores, clusters=None):
    scores = np.asarray(scores, dtype=float)
    n, k = scores.shape
    extra = {}
    if clusters is not None:
        clusters = np.asarray(clusters, dtype=np.int64)
        extra = {"clusters": clusters, "cluster_ids": tuple(map(str, range(clusters.max() + 1)))}
    binary = bool(np.isin(scores, (0.0, 1.0)).all())
    return BenchmarkItems(
        tuple(f"m{i}" for i in range(k)), tuple(map(str, range(n))), scores, binary, **extra
    )


def _tables(rng, n, cells, reps):
    a, b, c, d = rng.multinomial(n, cells, size=reps).T.astype(float)
    return a, b, c, d, cells[1] - cells[2]


# ----------------------------------------------------------------------------- binary


@pytest.mark.parametrize("n", [15, 50, 300])
@pytest.mark.parametrize("cells", list(CELLS), ids=list(CELLS))
def test_paired_proportion_intervals_cover(n, cells):
    rng = np.random.default_rng(n)
    a, b, c, d, truth = _tables(rng, n, CELLS[cells], 20_000)
    for low, high in (tango_interval(b, c, a + b + c + d, Z95), newcombe_interval(a, b, c, d, Z95)):
        covered = np.mean((low <= truth) & (truth <= high))
        assert covered >= 0.935, (cells, n, covered)  # Monte Carlo se 0.0015


def test_the_wald_interval_under_covers_where_they_do_not():
    # the control: the interval pair_statistics used before, on the same tables
    rng = np.random.default_rng(15)
    a, b, c, d, truth = _tables(rng, 15, CELLS["rare-discordance"], 20_000)
    n = a + b + c + d
    diff = (b - c) / n
    se = np.sqrt(np.maximum((b + c) / n - diff**2, 0) / n)
    assert np.mean((diff - Z95 * se <= truth) & (truth <= diff + Z95 * se)) < 0.80


def test_paired_proportions_cover_through_pair_statistics():
    rng = np.random.default_rng(2)
    cells = CELLS["middle"]
    covered = []
    for _ in range(400):
        draw = rng.choice(4, size=15, p=cells)
        scores = np.stack([np.isin(draw, (0, 1)), np.isin(draw, (0, 2))], axis=1)
        ps = pair_statistics(make_items(scores.astype(float)))
        covered.append(ps.low[0, 1] <= cells[1] - cells[2] <= ps.high[0, 1])
    assert np.mean(covered) >= 0.925  # Monte Carlo se 0.011


@pytest.mark.parametrize("test", ["mcnemar", "mcnemar-asymptotic"])
def test_mcnemar_p_values_keep_their_size(test):
    rng = np.random.default_rng(7)
    rejected = []
    for _ in range(500):  # equal marginals: 10 % of the items solved by each model only
        draw = rng.choice(4, size=50, p=(0.4, 0.1, 0.1, 0.4))
        scores = np.stack([np.isin(draw, (0, 1)), np.isin(draw, (0, 2))], axis=1)
        rejected.append(pair_statistics(make_items(scores.astype(float)), test=test).pvalues[0, 1])
    assert np.mean(np.array(rejected) < 0.05) <= 0.05 + 0.02  # both are conservative


# ----------------------------------------------------------------------------- continuous


def test_paired_t_covers_and_keeps_its_size():
    rng = np.random.default_rng(3)
    covered, rejected = [], []
    for _ in range(800):
        x = rng.normal(size=(12, 1)) + rng.normal(size=(12, 2)) * [1.0, 1.5]
        ps = pair_statistics(make_items(x))
        covered.append(ps.low[0, 1] <= 0 <= ps.high[0, 1])
        rejected.append(ps.pvalues[0, 1] < 0.05)
    assert np.mean(covered) >= 0.93  # Monte Carlo se 0.008
    assert np.mean(rejected) == pytest.approx(1 - np.mean(covered))


def _clustered_draw(rng, g=20, size=10, shift=0.2):
    """Differences that move together within a cluster (a cluster effect on the
    difference), true mean difference ``shift``."""
    codes = np.repeat(np.arange(g), size)
    effect = rng.normal(size=(g, 1)).repeat(size, axis=0)
    first = rng.normal(size=(g * size, 1)) + shift + effect
    second = rng.normal(size=(g * size, 1)) - 0.0 * effect
    return make_items(np.hstack([first, second]), clusters=codes)


def test_clustered_t_covers_where_the_naive_paired_t_does_not():
    rng = np.random.default_rng(4)
    robust, naive = [], []
    for _ in range(500):
        items = _clustered_draw(rng)
        ps = pair_statistics(items)
        assert ps.test == "clustered-t"
        robust.append(ps.low[0, 1] <= 0.2 <= ps.high[0, 1])
        t = pair_statistics(items, test="paired-t")
        naive.append(t.low[0, 1] <= 0.2 <= t.high[0, 1])
    assert np.mean(robust) >= 0.925  # Monte Carlo se 0.01
    assert np.mean(naive) < 0.75  # design effect about 1 + 9 * 0.5 / 1.5 = 4


def test_clustered_p_values_keep_their_size():
    rng = np.random.default_rng(5)
    robust = [pair_statistics(_clustered_draw(rng, shift=0.0)).pvalues[0, 1] for _ in range(500)]
    assert np.mean(np.array(robust) < 0.05) <= 0.05 + 0.025


# ----------------------------------------------------------------------------- ranks


def _true_ranks(means):
    return np.array([1 + np.sum(means > m) for m in means])


def _rank_coverage(draw, means, reps, seed, **kwargs):
    rng = np.random.default_rng(seed)
    truth = _true_ranks(np.asarray(means))
    hits = []
    for r in range(reps):
        ri = benchmark_rank_intervals(draw(rng), seed=r, **kwargs)
        hits.append(np.all((ri.low <= truth) & (truth <= ri.high)))
    return float(np.mean(hits))


def test_rank_intervals_cover_all_ranks_at_once():
    # equal means, the hardest case: every interval must hold 1 to 8 (28 tied pairs);
    # separated means are covered more easily
    for means, bound in ((np.zeros(8), 0.93), (np.array([0.0, 0.0, 0.3, 0.3, 0.6, 1.0]), 0.95)):

        def draw(rng, means=means):
            return make_items(rng.normal(size=(40, len(means))) + means)

        assert _rank_coverage(draw, means, 200, 0, n_boot=1000) >= bound  # se 0.015


def test_rank_intervals_of_binary_scores_cover():
    p = np.array([0.5, 0.5, 0.6, 0.75])

    def draw(rng):
        return make_items((rng.random((100, 4)) < p).astype(float))

    assert _rank_coverage(draw, p, 200, 1, n_boot=1000) >= 0.92


def _clustered_scores(rng, means, g=25, size=8):
    k = len(means)
    codes = np.repeat(np.arange(g), size)
    effect = rng.normal(size=(g, k)).repeat(size, axis=0)
    return make_items(rng.normal(size=(g * size, k)) * 0.5 + effect + means, clusters=codes)


def test_clustered_rank_intervals_cover_where_item_resampling_does_not():
    means = np.zeros(5)  # all tied: every interval must hold 1 to 5
    robust = _rank_coverage(lambda r: _clustered_scores(r, means), means, 150, 2, n_boot=1000)
    naive = _rank_coverage(
        lambda r: _clustered_scores(r, means), means, 150, 2, n_boot=1000, clustered=False
    )
    assert robust >= 0.91  # Monte Carlo se 0.018
    assert naive < 0.6


# ----------------------------------------------------------------------------- slow


def _all_tables(n):
    a, b, c = np.meshgrid(*(np.arange(n + 1),) * 3, indexing="ij")
    keep = a + b + c <= n
    a, b, c = (v[keep].astype(float) for v in (a, b, c))
    return a, b, c, n - a - b - c


@pytest.mark.parametrize("n", [15, 50])
def test_exact_coverage_over_random_tables(n):
    # the probability of every 2 x 2 table of n items, summed where the interval covers,
    # at 60 random cell probabilities (Dirichlet(1, 1, 1, 1))
    a, b, c, d = _all_tables(n)
    intervals = {
        "tango": tango_interval(b, c, np.full(a.shape, float(n)), Z95),
        "newcombe": newcombe_interval(a, b, c, d, Z95),
    }
    diff = (b - c) / n
    se = np.sqrt(np.maximum((b + c) / n - diff**2, 0) / n)
    intervals["wald"] = (diff - Z95 * se, diff + Z95 * se)  # the control
    counts = np.stack([a, b, c, d], axis=1)
    rng = np.random.default_rng(n)
    coverage = {name: [] for name in intervals}
    for cells in rng.dirichlet(np.ones(4), size=60):
        truth = cells[1] - cells[2]
        prob = np.exp(stats.multinomial.logpmf(counts, n, cells))
        for name, (low, high) in intervals.items():
            coverage[name].append(prob[(low <= truth + 1e-12) & (truth - 1e-12 <= high)].sum())
    # n = 15: Tango mean 0.963, min 0.946; Newcombe 0.953, 0.933; Wald 0.908, 0.699
    # n = 50: Tango 0.951, 0.943; Newcombe 0.952, 0.945; Wald 0.940, 0.931
    for name in ("tango", "newcombe"):
        assert np.mean(coverage[name]) >= 0.95
        assert np.min(coverage[name]) >= 0.93
    assert n > 15 or np.min(coverage["wald"]) < 0.8


@pytest.mark.slow
def test_rank_intervals_cover_with_few_items_and_many_tied_pairs():
    # 30 models with equal means on 20 items (435 tied pairs, heavy-tailed scores): the
    # studentized bootstrap covers; the full sample's standard errors (the control) do not
    means = np.zeros(30)

    def draw(rng):
        return make_items(rng.standard_t(5, size=(20, 30)))

    assert _rank_coverage(draw, means, 150, 3, n_boot=1000) >= 0.93  # se 0.02
    assert _rank_coverage(draw, means, 150, 3, n_boot=1000, studentize=False) < 0.75


@pytest.mark.slow
def test_rank_intervals_cover_at_the_default_large_size():
    # 40 models x 500 binary items, equal means: the default uses the full sample's
    # standard errors there (the studentized bootstrap would cost 1.9e10 operations)
    p = np.full(40, 0.5)

    def draw(rng):
        return make_items((rng.random((500, 40)) < p).astype(float))

    ri = benchmark_rank_intervals(draw(np.random.default_rng(0)), n_boot=10_000, seed=0)
    assert not ri.studentized
    assert _rank_coverage(draw, p, 100, 4, n_boot=2000, studentize=False) >= 0.89  # se 0.022

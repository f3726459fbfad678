"""Rank intervals (cdplot.rank_intervals) and the probability of being the best.

Verified against definitions computed here independently of the implementation:
the test-based intervals from ``res.significant``
(``low = 1 + #{j significantly better}``, ``high = k - #{j significantly worse}``), the max-t
bootstrap critical value of Mogstad, Romano, Shaikh & Wilhelm (2024) recomputed with a plain
loop over bootstrap draws, and coverage of the true ranks on ``cdplot.NormalModel``
settings with known means (seeded simulation).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from _helpers import quiet_compare

import cdplot
from cdplot.stats import _intervals

ALL_PAIRS = [
    ("demsar2006", {"test": "wilcoxon", "correction": "holm"}),
    ("demsar2006", {"test": "nemenyi"}),
    ("benavoli2016", {"test": "wilcoxon", "correction": "holm"}),
    ("benavoli2016", {"test": "nemenyi"}),
    ("benavoli2016", {"test": "sign", "correction": "shaffer"}),
    ("benavoli2016", {"test": "mean-ranks", "correction": "bergmann-hommel"}),
    ("benavoli2016", {"test": "paired-t", "correction": "holm"}),
    ("benavoli2016", {"test": "tukey"}),
    ("garcia2008_synthetic", {"test": "mean-ranks", "correction": "holm"}),
]


def run(table, **kwargs):
    """compare() quietly on a table, or on a bundled table by name in its direction."""
    higher = kwargs.pop("higher_is_better", True)
    if isinstance(table, str):
        higher = table != "garcia2008_synthetic"
        table = cdplot.datasets.load(table)
    return quiet_compare(table, higher_is_better=higher, **kwargs)


def formula_intervals(res):
    """``low``/``high`` straight from the definition, on the diagram's axis order."""
    if res.critical_difference_units == "score":
        axis = list(res.mean_scores.index)
    else:
        axis = list(res.average_ranks.index)
    k = len(axis)
    out = {}
    for i, a in enumerate(axis):
        better = sum(bool(res.significant.loc[a, b]) for b in axis[:i])
        worse = sum(bool(res.significant.loc[a, b]) for b in axis[i + 1 :])
        out[a] = (1 + better, k - worse)
    return out


@pytest.mark.parametrize(("name", "options"), ALL_PAIRS)
def test_test_intervals_equal_the_formula(name, options):
    res = run(name, **options)
    ri = cdplot.rank_intervals(res, n_boot=200, random_state=0)
    expected = formula_intervals(res)
    frame = ri.to_frame()
    assert list(frame.index) == list(res.average_ranks.index)
    got = {a: (int(row.low), int(row.high)) for a, row in frame.iterrows()}
    assert got == expected
    assert ri.best_set == tuple(a for a in frame.index if expected[a][0] == 1)
    assert ri.method == "test" and ri.confidence == pytest.approx(1 - res.alpha)


def test_test_intervals_on_benavoli_are_informative():
    # Benavoli et al. (2016) data, Wilcoxon + Holm: some pairs differ, so some interval
    # is shorter than 1..k (the check above would pass trivially otherwise).
    res = run("benavoli2016", test="wilcoxon", correction="holm")
    ri = res.rank_intervals()
    assert res.significant.to_numpy().any()
    assert ((ri.high - ri.low) < res.n_algorithms - 1).any()


def test_method_via_result_method_and_module_function_agree():
    res = run("benavoli2016")
    a = res.rank_intervals("bootstrap", n_boot=500, random_state=3).to_frame()
    b = cdplot.rank_intervals(res, method="bootstrap", n_boot=500, random_state=3).to_frame()
    pd.testing.assert_frame_equal(a, b)


def ranks_in_order(name):
    """The result, its display order and its N x k ranks in that order."""
    res = run(name)
    order = list(res.average_ranks.index)
    return res, order, res.ranks[order].to_numpy(dtype=float)


def check_max_t_intervals(ri, order, values, stats, confidence):
    """The bootstrap quantile ``c`` of ``stats`` (smallest x with F(x) >= confidence), and
    every interval ``1 + #{D_jl - c se_jl > 0}`` .. ``k - #{D_jl + c se_jl < 0}``."""
    n, k = values.shape
    c = np.sort(stats)[int(np.ceil(confidence * len(stats))) - 1]
    for j, a in enumerate(order):
        d = values[:, [j]] - values
        se = d.std(axis=0) / np.sqrt(n)  # population sd: the bootstrap's own variance
        diff = d.mean(axis=0)
        better = int(((diff - c * se) > 0).sum())
        worse = int(((diff + c * se) < 0).sum())
        assert ri.interval(a) == (1 + better, k - worse)
    return c


def test_bootstrap_critical_value_equals_a_plain_loop():
    res, order, values = ranks_in_order("benavoli2016")
    n, k = values.shape
    n_boot, confidence = 300, 0.9
    with pytest.warns(cdplot.CdplotWarning, match="may cover less"):
        ri = cdplot.rank_intervals(
            res,
            method="bootstrap",
            n_boot=n_boot,
            random_state=7,
            confidence=confidence,
            studentize=False,
        )
    # the same draws: the implementation's generator, seeded the same way
    rng = np.random.default_rng(7)
    theta = values.mean(axis=0)
    stats = []
    for _ in range(n_boot):
        idx = rng.integers(0, n, size=n)
        boot = values[idx].mean(axis=0)
        t = 0.0
        for j in range(k):
            for m in range(k):
                d = values[:, j] - values[:, m]
                se = d.std() / np.sqrt(n)  # population sd: the bootstrap's own variance
                if j != m and se > 0:
                    t = max(t, abs((boot[j] - boot[m]) - (theta[j] - theta[m])) / se)
        stats.append(t)
    c = check_max_t_intervals(ri, order, values, stats, confidence)
    assert ri.critical_value[0] == pytest.approx(c, rel=1e-5)


def test_studentized_critical_value_equals_a_plain_loop():
    # bootstrap-t: each bootstrap sample's difference over its own standard error
    res, order, values = ranks_in_order("demsar2006")
    n, k = values.shape
    n_boot, confidence = 200, 0.95
    ri = cdplot.rank_intervals(res, method="bootstrap", n_boot=n_boot, random_state=9)
    rng = np.random.default_rng(9)
    stats = []
    for _ in range(n_boot):
        idx = rng.integers(0, n, size=n)
        t = 0.0
        for j in range(k):
            for m in range(j + 1, k):
                d = values[:, j] - values[:, m]
                if np.ptp(d) == 0:
                    continue
                boot = d[idx]
                gap = abs(boot.mean() - d.mean())
                se = boot.std() / np.sqrt(n)
                t = max(t, gap / se if se > 0 else (np.inf if gap > 0 else 0.0))
        stats.append(t)
    c = check_max_t_intervals(ri, order, values, stats, confidence)
    assert ri.critical_value[0] == pytest.approx(c, rel=1e-9)


def test_marginal_intervals_are_nested_in_simultaneous_ones():
    res = run("benavoli2016")
    sim = cdplot.rank_intervals(res, method="bootstrap", n_boot=1000, random_state=0)
    mar = cdplot.rank_intervals(
        res, method="bootstrap", n_boot=1000, random_state=0, simultaneous=False
    )
    assert mar.critical_value.shape == (res.n_algorithms,)
    assert (mar.critical_value <= sim.critical_value[0] + 1e-9).all()
    assert (mar.low >= sim.low).all() and (mar.high <= sim.high).all()


@pytest.mark.parametrize("method", ["test", "bootstrap"])
@pytest.mark.parametrize("on", ["ranks", "scores"])
def test_p_best_sums_to_one_and_seed_reproduces(method, on):
    res = run("benavoli2016")
    a = cdplot.rank_intervals(res, method=method, n_boot=400, random_state=11, on=on)
    b = cdplot.rank_intervals(res, method=method, n_boot=400, random_state=11, on=on)
    assert a.p_best.sum() == pytest.approx(1.0, abs=1e-12)
    assert (a.p_best >= 0).all()
    pd.testing.assert_frame_equal(a.to_frame(), b.to_frame())
    assert a.to_frame()["in_best_set"].any()


def test_p_best_splits_exact_ties():
    # two identical algorithms that are always best: each is first half of the time
    table = pd.DataFrame({"A": [3.0, 5, 4, 6], "B": [3.0, 5, 4, 6], "C": [1.0, 2, 0, 1]})
    res = run(table)
    ri = cdplot.rank_intervals(res, method="bootstrap", n_boot=200, random_state=0)
    frame = ri.to_frame()
    assert frame.loc["A", "p_best"] == pytest.approx(0.5)
    assert frame.loc["B", "p_best"] == pytest.approx(0.5)
    assert frame.loc["C", "p_best"] == 0.0


@pytest.mark.parametrize("method", ["test", "bootstrap"])
def test_invariant_under_column_order(method):
    table = cdplot.datasets.load("benavoli2016")
    res = run(table)
    shuffled = run(table[list(reversed(table.columns))])
    a = cdplot.rank_intervals(res, method=method, n_boot=500, random_state=5).to_frame()
    b = cdplot.rank_intervals(shuffled, method=method, n_boot=500, random_state=5).to_frame()
    pd.testing.assert_frame_equal(
        a[["average_rank", "low", "high", "in_best_set"]],
        b[["average_rank", "low", "high", "in_best_set"]],
    )
    # p_best: columns permuted, so the Dirichlet draws pair with the same rows; equal
    pd.testing.assert_series_equal(a["p_best"], b["p_best"])


def test_on_scores_adds_mean_score_and_respects_direction():
    res = run("garcia2008_synthetic")  # lower is better
    frame = cdplot.rank_intervals(res, method="bootstrap", on="scores", n_boot=300).to_frame()
    means = res.scores.mean()
    assert frame["mean_score"].to_dict() == pytest.approx(means.to_dict())
    best = frame["p_best"].idxmax()
    assert best == means.idxmin()


def test_refusals_name_the_fix():
    res = run("demsar2006", test="bayes-sign")
    with pytest.raises(cdplot.CdplotInputError, match="family-wise error control.*'bootstrap'"):
        cdplot.rank_intervals(res)
    ok = cdplot.rank_intervals(res, method="bootstrap", n_boot=200, random_state=0)
    assert len(ok.algorithms) == 4
    res = run("demsar2006")
    with pytest.raises(cdplot.CdplotInputError, match="confidence=0.95"):
        cdplot.rank_intervals(res, confidence=0.9)
    with pytest.raises(cdplot.CdplotInputError, match="simultaneous=True"):
        cdplot.rank_intervals(res, simultaneous=False)
    with pytest.raises(cdplot.CdplotInputError, match="n_boot"):
        cdplot.rank_intervals(res, method="bootstrap", n_boot=5)
    with pytest.raises(cdplot.CdplotInputError, match="confidence"):
        cdplot.rank_intervals(res, method="bootstrap", confidence=95)
    with pytest.raises(cdplot.CdplotInputError, match="method"):
        cdplot.rank_intervals(res, method="jackknife")
    bayes = run("demsar2006", test="bayes-signed-rank", random_state=0)
    with pytest.raises(cdplot.CdplotInputError, match="Bayesian"):
        cdplot.rank_intervals(bayes)


def test_bootstrap_refuses_missing_results_but_test_method_works():
    table = cdplot.datasets.load("demsar2006").copy()
    table.iloc[0, 1] = np.nan
    res = run(table, missing="keep")
    with pytest.raises(cdplot.CdplotInputError, match="missing='drop'"):
        cdplot.rank_intervals(res, method="bootstrap", n_boot=200)
    ri = cdplot.rank_intervals(res, n_boot=200, random_state=0)
    assert ri.p_best.sum() == pytest.approx(1.0)


def test_dask_backend_equals_numpy():
    pytest.importorskip("dask")
    res = run("benavoli2016")
    a = cdplot.rank_intervals(res, method="bootstrap", n_boot=300, random_state=2)
    b = cdplot.rank_intervals(res, method="bootstrap", n_boot=300, random_state=2, backend="dask")
    pd.testing.assert_frame_equal(a.to_frame(), b.to_frame())


def _coverage(means, n_datasets, reps, seed, method, options):
    """Share of tables whose intervals all contain the true rank sets (known means)."""
    names = list(means)
    mu = np.array([means[a] for a in names])
    k = len(mu)
    truth = {
        a: (1 + int((mu > mu[j]).sum()), k - int((mu < mu[j]).sum())) for j, a in enumerate(names)
    }
    model = cdplot.NormalModel(means, n_datasets=n_datasets)
    tables = model.draw(np.random.default_rng(seed), reps)
    hits = 0
    for x in tables:
        res = run(pd.DataFrame(x, columns=names), **options)
        ri = cdplot.rank_intervals(res, method=method, n_boot=300, random_state=seed)
        hits += all(
            lo <= truth[a][0] and hi >= truth[a][1]
            for a, lo, hi in zip(ri.algorithms, ri.low, ri.high, strict=True)
        )
    return hits / reps


NEAR_TIES = {"A": 0.0, "B": 0.0, "C": 0.25, "D": 0.5, "E": 1.5}
ALL_EQUAL = {"A": 0.0, "B": 0.0, "C": 0.0, "D": 0.0, "E": 0.0}  # every interval must be 1-5


@pytest.mark.parametrize(
    ("method", "options"),
    [("test", {"test": "wilcoxon", "correction": "holm"}), ("bootstrap", {})],
)
def test_simultaneous_coverage_small(method, options):
    reps = 60
    cover = _coverage(NEAR_TIES, 30, reps, 1, method, options)
    mc = 3 * np.sqrt(0.95 * 0.05 / reps)  # three Monte Carlo standard errors
    assert cover >= 0.95 - mc


@pytest.mark.parametrize("method", ["test", "bootstrap"])
def test_simultaneous_coverage_under_the_complete_null_small(method):
    reps = 60
    cover = _coverage(ALL_EQUAL, 20, reps, 4, method, {"test": "wilcoxon"})
    assert cover >= 0.95 - 3 * np.sqrt(0.95 * 0.05 / reps)


@pytest.mark.slow
@pytest.mark.parametrize("means", [NEAR_TIES, ALL_EQUAL], ids=["near-ties", "all-equal"])
@pytest.mark.parametrize(
    ("method", "options"),
    [
        ("test", {"test": "wilcoxon", "correction": "holm"}),
        ("test", {"test": "nemenyi"}),
        ("bootstrap", {}),
    ],
)
def test_simultaneous_coverage_large(method, options, means):
    reps = 400
    cover = _coverage(means, 20, reps, 2, method, options)
    mc = 3 * np.sqrt(0.95 * 0.05 / reps)
    assert cover >= 0.95 - mc


def test_reweighted_means_chunks_match_one_product(monkeypatch):
    rng = np.random.default_rng(0)
    values = rng.normal(size=(20, 4))
    monkeypatch.setattr(_intervals, "WEIGHT_CHUNK_ELEMENTS", 40)  # chunks of 2 rows
    chunks = list(
        _intervals.reweighted_means(
            values, _intervals.bayesian_weights, 7, np.random.default_rng(1)
        )
    )
    assert [c.shape for c in chunks] == [(2, 4)] * 3 + [(1, 4)]
    weights = _intervals.bayesian_weights(np.random.default_rng(1), 2, 20)
    np.testing.assert_allclose(chunks[0], weights @ values)
    counts = _intervals.multinomial_weights(np.random.default_rng(0), 50, 20) * 20
    assert np.allclose(counts, np.round(counts)) and (counts.sum(axis=1) == 20).all()

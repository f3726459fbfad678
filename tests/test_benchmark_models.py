"""Per-model statistics of one benchmark (``cdplot.stats._benchmark_models``).

Verified against independent implementations (values in
``tests/reference/benchmark/models_r.csv``, made by ``models.R`` from ``models_tables.csv``;
each row names its R call), to 1e-10 relative where the computation is exact:

* Clopper-Pearson: R ``binom.test(x, n, conf.level)$conf.int``; statsmodels
  ``proportion_confint(method="beta")``.
* Wilson: R ``prop.test(x, n, correct = FALSE, conf.level)$conf.int``; statsmodels
  ``proportion_confint(method="wilson")``.
* t: R ``t.test(y, conf.level)$conf.int``.
* cluster-robust standard error: R ``sandwich::vcovCL(lm(score ~ 1), cluster = ~cluster,
  type = "HC0")`` and ``type = "HC1"`` (equal for an intercept-only model: both carry the
  factor G / (G - 1)), ``cadjust = FALSE`` for the factor itself; statsmodels
  ``OLS(y, ones).fit(cov_type="cluster")``; the interval with ``qt(0.975, G - 1)``; the
  design effect ``vcovCL / vcov``.
* variance components: R's ANOVA estimator from ``anova(lm(score ~ factor(item)))`` (exact,
  balanced and unbalanced) and ``lme4::lmer(score ~ 1 + (1 | item), REML = TRUE)`` (to 1e-6:
  lme4 stops its optimiser there), its intercept's standard error.

Checked for consistency only: Miller's (2024) clustered-SE formula written out with its
cross products, the BCa bootstrap against a slow per-replicate oracle fed the same draws
and against ``scipy.stats.bootstrap(method="BCa")`` within Monte Carlo error, and that the
statistics of all models at once equal those of each model alone.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from cdplot._errors import CdplotInputError
from cdplot.io._benchmark import BenchmarkItems
from cdplot.stats._benchmark_models import (
    MODEL_INTERVALS,
    mean_intervals,
    model_statistics,
    variance_components,
)

REFERENCE = Path(__file__).parent / "reference" / "benchmark"
RTOL = 1e-10


@pytest.fixture(scope="module")
def tables() -> pd.DataFrame:
    return pd.read_csv(REFERENCE / "models_tables.csv", comment="#", dtype={"cluster": str})


@pytest.fixture(scope="module")
def r_values() -> pd.DataFrame:
    return pd.read_csv(REFERENCE / "models_r.csv", comment="#")


def _r(r_values: pd.DataFrame, table: str, model: str, quantity: str) -> float:
    row = r_values[
        (r_values.table == table) & (r_values.model == model) & (r_values.quantity == quantity)
    ]
    assert len(row) == 1, (table, model, quantity)
    return float(row.value.iloc[0])


def _items(tables: pd.DataFrame, name: str, binary: bool) -> BenchmarkItems:
    """One table of ``models_tables.csv`` as BenchmarkItems (item means over samples, with
    clusters and samples where the table has them)."""
    d = tables[tables.table == name]
    wide = d.pivot_table(index="item", columns="model", values="score", aggfunc="mean")
    wide = wide.reindex(columns=sorted(d.model.unique()))
    clusters = cluster_ids = None
    if d.cluster.notna().any():
        first = d.groupby("item").cluster.first().reindex(wide.index)
        codes, uniques = pd.factorize(first, sort=True)
        clusters, cluster_ids = codes.astype(np.int64), tuple(uniques)
    n_samples = sample_var = None
    if d["sample"].notna().any():
        group = d.groupby(["item", "model"]).score
        n_samples = group.count().unstack().reindex_like(wide).to_numpy(dtype=np.int64)
        sample_var = group.var(ddof=1).unstack().reindex_like(wide).to_numpy()
    return BenchmarkItems(
        models=tuple(wide.columns),
        items=tuple(wide.index),
        scores=wide.to_numpy(dtype=float),
        binary=binary,
        clusters=clusters,
        cluster_ids=cluster_ids or (),
        n_samples=n_samples,
        sample_var=sample_var,
    )


def _close(actual: float, expected: float, rtol: float = RTOL) -> None:
    assert actual == pytest.approx(expected, rel=rtol, abs=1e-300 if expected else 1e-15)


# --------------------------------------------------------------------------- binary


@pytest.mark.parametrize("name", ["binary10", "binary30", "binary200"])
@pytest.mark.parametrize("confidence", [0.95, 0.9])
@pytest.mark.parametrize(("interval", "prefix"), [("clopper-pearson", "cp"), ("wilson", "wilson")])
def test_binomial_intervals_equal_r(tables, r_values, name, confidence, interval, prefix):
    items = _items(tables, name, binary=True)
    res = model_statistics(items, confidence=confidence, interval=interval)
    for j, model in enumerate(items.models):
        _close(res.low[j], _r(r_values, name, model, f"{prefix}_low_{confidence:g}"))
        _close(res.high[j], _r(r_values, name, model, f"{prefix}_high_{confidence:g}"))


@pytest.mark.parametrize("name", ["binary10", "binary30", "binary200"])
@pytest.mark.parametrize(
    ("interval", "method"), [("clopper-pearson", "beta"), ("wilson", "wilson")]
)
def test_binomial_intervals_equal_statsmodels(tables, name, interval, method):
    from statsmodels.stats.proportion import proportion_confint

    items = _items(tables, name, binary=True)
    res = model_statistics(items, interval=interval)
    x = items.scores.sum(axis=0)
    # statsmodels: proportion_confint(count, nobs, alpha=0.05, method="beta" / "wilson")
    low, high = proportion_confint(x, items.n_items, alpha=0.05, method=method)
    np.testing.assert_allclose(res.low, low, rtol=RTOL, atol=1e-15)
    np.testing.assert_allclose(res.high, high, rtol=RTOL, atol=1e-15)


def test_binary_scores_default_to_clopper_pearson(tables):
    res = model_statistics(_items(tables, "binary10", binary=True))
    assert res.interval == "clopper-pearson"
    assert res.df is None and res.design_effect is None and res.within_variance is None


def test_clopper_pearson_covers_where_wilson_falls_short():
    """The reason for the default, exactly (binomial sums, no simulation): at 10 items and a
    true rate of 0.05, Wilson's 95 % interval covers 91.4 % of the time, Clopper-Pearson's
    98.8 %."""
    from cdplot.stats._benchmark_models import binomial_interval

    x = np.arange(11)
    pmf = stats.binom.pmf(x, 10, 0.05)
    cover = {}
    for method in ("wilson", "clopper-pearson"):
        low, high = binomial_interval(x, np.full(11, 10), 0.95, method)
        cover[method] = pmf[(low <= 0.05) & (high >= 0.05)].sum()
    assert cover["wilson"] == pytest.approx(0.9139, abs=1e-4)
    assert cover["clopper-pearson"] == pytest.approx(0.9885, abs=1e-4)


# --------------------------------------------------------------------------- continuous


@pytest.mark.parametrize("name", ["continuous12", "continuous40"])
@pytest.mark.parametrize("confidence", [0.95, 0.9])
def test_t_interval_equals_r_t_test(tables, r_values, name, confidence):
    items = _items(tables, name, binary=False)
    res = model_statistics(items, confidence=confidence)
    assert res.interval == "t"
    np.testing.assert_array_equal(res.df, items.n_items - 1)
    for j, model in enumerate(items.models):
        _close(res.low[j], _r(r_values, name, model, f"t_low_{confidence:g}"))
        _close(res.high[j], _r(r_values, name, model, f"t_high_{confidence:g}"))


def test_binomial_interval_refused_for_scores_that_are_not_binary(tables):
    items = _items(tables, "continuous12", binary=False)
    with pytest.raises(CdplotInputError, match=r"not binary \(0/1\) scores: use interval='t'"):
        model_statistics(items, interval="clopper-pearson")
    with pytest.raises(CdplotInputError, match="not binary"):
        model_statistics(items, interval="wilson")


def test_binomial_interval_refused_for_item_means_of_binary_samples():
    scores = np.array([[0.5], [1.0], [0.25], [0.0]])
    items = BenchmarkItems(
        ("m",), tuple("abcd"), scores, binary=True, n_samples=np.full((4, 1), 4, dtype=np.int64)
    )
    with pytest.raises(CdplotInputError, match="item means of several 0/1 samples"):
        model_statistics(items, interval="wilson")
    assert model_statistics(items).interval == "t"


# --------------------------------------------------------------------------- clusters


def _miller_se(y: np.ndarray, cluster: np.ndarray) -> float:
    """Miller (2024), the clustered standard error: SE_clustered^2 = SE_CLT^2 + (1/n^2)
    sum_c sum_i sum_{j != i} (s_ic - mean)(s_jc - mean), with SE_CLT^2 = s^2 / n; written
    out with loops."""
    n, mean = len(y), y.mean()
    clt = y.var(ddof=1) / n
    cross = 0.0
    for c in np.unique(cluster):
        e = y[cluster == c] - mean
        cross += sum(e[i] * e[j] for i in range(len(e)) for j in range(len(e)) if i != j)
    return float(np.sqrt(clt + cross / n**2))


def test_cluster_robust_interval_equals_r_vcovcl(tables, r_values):
    items = _items(tables, "clustered", binary=False)
    res = model_statistics(items)
    assert res.interval == "cluster"
    for j, model in enumerate(items.models):
        _close(res.mean[j], _r(r_values, "clustered", model, "mean"))
        # vcovCL's HC0 and HC1 agree on lm(score ~ 1): both multiply by G / (G - 1)
        _close(res.se[j], _r(r_values, "clustered", model, "se_hc1"))
        _close(res.se[j], _r(r_values, "clustered", model, "se_hc0"))
        _close(res.design_effect[j], _r(r_values, "clustered", model, "design_effect"))
        _close(res.low[j], _r(r_values, "clustered", model, "cl_low_0.95"))
        _close(res.high[j], _r(r_values, "clustered", model, "cl_high_0.95"))


def test_cluster_factor_is_g_over_g_minus_1_and_miller_adds_the_diagonal(tables, r_values):
    items = _items(tables, "clustered", binary=False)
    res = model_statistics(items)
    for j, model in enumerate(items.models):
        seen = ~np.isnan(items.scores[:, j])
        g = len(np.unique(items.clusters[seen]))
        cr0 = res.se[j] * np.sqrt((g - 1) / g)
        # sandwich::vcovCL(..., type = "HC0", cadjust = FALSE): no small-sample factor
        _close(cr0, _r(r_values, "clustered", model, "se_cr0"))
        y = items.scores[seen, j]
        n = y.size
        # Miller's form differs from CR0 by sum(e^2) / (n^2 (n - 1)) on the diagonal only
        miller = _miller_se(y, items.clusters[seen])
        diagonal = ((y - y.mean()) ** 2).sum() / (n**2 * (n - 1))
        _close(miller**2, cr0**2 + diagonal)


def test_cluster_robust_se_equals_statsmodels_ols_cluster(tables):
    import statsmodels.api as sm

    items = _items(tables, "clustered", binary=False)
    res = model_statistics(items)
    for j in range(len(items.models)):
        seen = ~np.isnan(items.scores[:, j])
        y = items.scores[seen, j]
        # statsmodels: OLS(y, 1).fit(cov_type="cluster", cov_kwds={"groups": cluster})
        fit = sm.OLS(y, np.ones_like(y)).fit(
            cov_type="cluster", cov_kwds={"groups": items.clusters[seen]}
        )
        _close(res.se[j], float(fit.bse[0]))


def test_one_item_per_cluster_gives_the_t_interval(tables):
    items = _items(tables, "continuous12", binary=False)
    singletons = BenchmarkItems(
        items.models,
        items.items,
        items.scores,
        binary=False,
        clusters=np.arange(items.n_items, dtype=np.int64),
        cluster_ids=items.items,
    )
    plain, clustered = model_statistics(items), model_statistics(singletons)
    np.testing.assert_allclose(clustered.low, plain.low, rtol=1e-12)
    np.testing.assert_allclose(clustered.high, plain.high, rtol=1e-12)
    np.testing.assert_allclose(clustered.design_effect, 1.0, rtol=1e-12)


def test_naive_intervals_stay_available_with_clusters_and_report_the_design_effect(tables):
    items = _items(tables, "clustered", binary=False)
    naive = model_statistics(items, interval="t")
    assert naive.interval == "t" and naive.design_effect is not None
    robust = model_statistics(items)
    np.testing.assert_allclose(robust.se**2 / naive.se**2, naive.design_effect, rtol=1e-12)


def test_cluster_interval_needs_clusters(tables):
    with pytest.raises(CdplotInputError, match="interval='cluster' needs the items' clusters"):
        model_statistics(_items(tables, "continuous12", binary=False), interval="cluster")


def test_a_model_in_one_cluster_is_refused():
    scores = np.array([[1.0, 0.2], [0.0, np.nan], [1.0, np.nan], [0.5, 0.3]])
    items = BenchmarkItems(
        ("a", "b"),
        tuple("pqrs"),
        scores,
        binary=False,
        clusters=np.array([0, 1, 1, 0]),
        cluster_ids=("x", "y"),
    )
    with pytest.raises(CdplotInputError, match=r"1 model\(s\) have scores in fewer than two"):
        model_statistics(items)


# --------------------------------------------------------------------------- samples


def test_variance_components_equal_r_balanced(tables, r_values):
    items = _items(tables, "balanced", binary=False)
    res = model_statistics(items)
    for j, model in enumerate(items.models):
        _close(res.within_variance[j], _r(r_values, "balanced", model, "anova_within"))
        _close(res.between_variance[j], _r(r_values, "balanced", model, "anova_between"))
        # lme4's REML optimum, to its optimiser's tolerance
        _close(res.within_variance[j], _r(r_values, "balanced", model, "within"), 1e-6)
        _close(res.between_variance[j], _r(r_values, "balanced", model, "between"), 1e-6)
        _close(res.se[j], _r(r_values, "balanced", model, "se_intercept"), 1e-6)


def test_variance_components_equal_the_r_anova_estimator_unbalanced(tables, r_values):
    items = _items(tables, "unbalanced", binary=False)
    within, between = variance_components(items)
    for j, model in enumerate(items.models):
        _close(within[j], _r(r_values, "unbalanced", model, "within"))
        _close(between[j], _r(r_values, "unbalanced", model, "between"))
    assert between[items.models.index("tight")] == 0.0  # floored, as R's max(0, ...)


def test_within_variance_is_the_mean_of_sample_variances_when_balanced(tables):
    items = _items(tables, "balanced", binary=False)
    res = model_statistics(items)
    np.testing.assert_allclose(res.within_variance, items.sample_var.mean(axis=0), rtol=1e-12)
    # the mean's standard error is that of the item means
    np.testing.assert_allclose(
        res.se, items.scores.std(axis=0, ddof=1) / np.sqrt(items.n_items), rtol=1e-12
    )


def test_binary_samples_without_variances_use_the_success_counts():
    counts = np.array([[4], [4], [2], [3]], dtype=np.int64)
    successes = np.array([[1], [4], [1], [0]])
    scores = successes / counts
    var = successes * (counts - successes) / (counts * (counts - 1))
    with_var = BenchmarkItems(
        ("m",), tuple("abcd"), scores, binary=True, n_samples=counts, sample_var=var
    )
    without = BenchmarkItems(("m",), tuple("abcd"), scores, binary=True, n_samples=counts)
    np.testing.assert_allclose(variance_components(without), variance_components(with_var))


def test_no_samples_no_variance_components(tables):
    res = model_statistics(_items(tables, "continuous12", binary=False))
    assert res.within_variance is None and res.between_variance is None


# --------------------------------------------------------------------------- bootstrap


def _bca_oracle(y: np.ndarray, draws: np.ndarray, confidence: float) -> tuple[float, float]:
    """BCa written out (Efron 1987; Efron & Tibshirani 1993, ch. 14) for one model, one
    replicate and one left-out item at a time."""
    theta = y.mean()
    boot = np.array([y[d].mean() for d in draws])
    z0 = stats.norm.ppf((np.sum(boot < theta) + 0.5 * np.sum(boot == theta)) / len(boot))
    jack = np.array([np.delete(y, i).mean() for i in range(len(y))])
    d = jack.mean() - jack
    a = np.sum(d**3) / (6 * np.sum(d**2) ** 1.5)
    z = stats.norm.isf((1 - confidence) / 2)
    levels = [stats.norm.cdf(z0 + (z0 + q) / (1 - a * (z0 + q))) for q in (-z, z)]
    return tuple(np.quantile(boot, levels))


def test_bca_bootstrap_equals_the_written_out_oracle(tables):
    items = _items(tables, "continuous12", binary=False)
    res = model_statistics(items, interval="bootstrap", n_boot=500, seed=3)
    draws = np.random.default_rng(3).integers(0, items.n_items, size=(500, items.n_items))
    for j in range(len(items.models)):
        low, high = _bca_oracle(items.scores[:, j], draws, 0.95)
        _close(res.low[j], low, 1e-12)
        _close(res.high[j], high, 1e-12)


def test_bca_bootstrap_agrees_with_scipy_within_monte_carlo_error(tables):
    items = _items(tables, "continuous40", binary=False)
    res = model_statistics(items, interval="bootstrap", n_boot=20000, seed=1)
    for j in range(len(items.models)):
        y = items.scores[:, j]
        # scipy.stats.bootstrap((y,), np.mean, method="BCa", n_resamples=20000)
        ref = stats.bootstrap(
            (y,), np.mean, method="BCa", n_resamples=20000, random_state=np.random.default_rng(2)
        ).confidence_interval
        width = ref.high - ref.low
        assert abs(res.low[j] - ref.low) < 0.03 * width
        assert abs(res.high[j] - ref.high) < 0.03 * width


def test_bootstrap_is_seeded(tables):
    items = _items(tables, "continuous12", binary=False)
    a = model_statistics(items, interval="bootstrap", seed=7)
    b = model_statistics(items, interval="bootstrap", seed=7)
    c = model_statistics(items, interval="bootstrap", seed=8)
    assert a == b
    assert not np.array_equal(a.low, c.low)
    assert a.df is None


def test_bootstrap_with_clusters_resamples_whole_clusters(tables):
    """With every cluster a copy of one item's score, a cluster bootstrap sees G units: its
    interval is the one of the G cluster values, whatever the cluster sizes."""
    values = np.array([0.1, 0.5, 0.2, 0.9, 0.4, 0.7])
    sizes = np.array([3, 1, 4, 2, 5, 1])
    clusters = np.repeat(np.arange(6), sizes)
    scores = np.repeat(values, sizes)[:, None]
    items = BenchmarkItems(
        ("m",),
        tuple(f"i{i}" for i in range(scores.shape[0])),
        scores,
        binary=False,
        clusters=clusters,
        cluster_ids=tuple("abcdef"),
    )
    res = model_statistics(items, interval="bootstrap", n_boot=400, seed=0)
    rng = np.random.default_rng(0)
    draws = rng.integers(0, 6, size=(400, 6))
    boot = np.array([(values[d] * sizes[d]).sum() / sizes[d].sum() for d in draws])
    assert res.se[0] == pytest.approx(boot.std(ddof=1), rel=1e-12)


# --------------------------------------------------------------------------- general


def test_all_models_at_once_equal_each_model_alone(tables):
    items = _items(tables, "clustered", binary=False)
    whole = model_statistics(items)
    for j, model in enumerate(items.models):
        one = BenchmarkItems(
            (model,),
            items.items,
            items.scores[:, [j]],
            binary=False,
            clusters=items.clusters,
            cluster_ids=items.cluster_ids,
        )
        alone = model_statistics(one)
        for field in ("mean", "low", "high", "se", "design_effect"):
            np.testing.assert_allclose(getattr(alone, field), getattr(whole, field)[[j]])


def test_interval_names_are_checked(tables):
    items = _items(tables, "binary10", binary=True)
    with pytest.raises(CdplotInputError, match="not a valid value for interval"):
        model_statistics(items, interval="normal")
    assert model_statistics(items, interval="exact").interval == "clopper-pearson"
    assert set(MODEL_INTERVALS) == {
        "clopper-pearson",
        "wilson",
        "t",
        "cluster",
        "bootstrap",
        "korn-graubard",
    }


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"n_boot": 10}, "n_boot must be an integer >= 100"),
        ({"seed": -1}, "seed must be None, a non-negative integer"),
        ({"confidence": 95}, "confidence must be in"),
    ],
)
def test_bad_options_are_refused(tables, options, message):
    with pytest.raises(CdplotInputError, match=message):
        model_statistics(_items(tables, "continuous12", binary=False), **options)


def test_a_model_with_one_item_is_refused():
    items = BenchmarkItems(
        ("a", "b"), ("p", "q"), np.array([[1.0, 0.0], [0.0, np.nan]]), binary=True
    )
    with pytest.raises(CdplotInputError, match=r"1 model\(s\) have fewer"):
        model_statistics(items)


def test_mean_intervals_clip_bounded_values_to_the_unit_interval():
    values = np.array([[0.0], [0.0], [0.0], [0.1]])
    res = mean_intervals(values, None, n_clusters=None, interval="t", confidence=0.95)
    assert res.low[0] < 0
    clipped = mean_intervals(
        values, None, n_clusters=None, interval="t", confidence=0.95, bounded=True
    )
    assert clipped.low[0] == 0.0 and clipped.high[0] == res.high[0]


# --------------------------------------------------------------------------- Korn-Graubard


def test_korn_graubard_written_out_for_binary_scores(tables):
    """Korn & Graubard (1998): Clopper-Pearson with x = p n*, n* = n_eff (z / t_{n-1})^2,
    n_eff = p (1 - p) / se^2 = n - 1 for 0/1 scores (se^2 = s^2 / n)."""
    items = _items(tables, "binary30", binary=True)
    res = model_statistics(items, interval="korn-graubard")
    p, n = items.scores.mean(axis=0), items.n_items
    n_star = (n - 1) * (stats.norm.isf(0.025) / stats.t.isf(0.025, n - 1)) ** 2
    low = stats.beta.ppf(0.025, p * n_star, n_star - p * n_star + 1)
    high = stats.beta.isf(0.025, p * n_star + 1, n_star - p * n_star)
    np.testing.assert_allclose(res.low, low, rtol=1e-12)
    np.testing.assert_allclose(res.high, high, rtol=1e-12)


def test_korn_graubard_reaches_above_zero_when_every_item_failed():
    items = BenchmarkItems(
        ("m",),
        tuple("abcdef"),
        np.zeros((6, 1)),
        binary=True,
        n_samples=np.full((6, 1), 3, dtype=np.int64),
    )
    t = model_statistics(items, interval="t")
    kg = model_statistics(items, interval="korn-graubard")
    assert t.low[0] == t.high[0] == 0.0
    # n_eff = n = 6 items, shrunk by (z / t_5)^2; upper bound 1 - 0.025^(1 / n*)
    n_star = 6 * (stats.norm.isf(0.025) / stats.t.isf(0.025, 5)) ** 2
    assert kg.low[0] == 0.0
    assert kg.high[0] == pytest.approx(1 - 0.025 ** (1 / n_star), rel=1e-12)


def test_korn_graubard_uses_the_cluster_robust_se_with_clusters(tables):
    items = _items(tables, "clustered", binary=False)
    binary = BenchmarkItems(
        items.models[:1],
        items.items,
        items.scores[:, [items.models.index("binary")]],
        binary=True,
        clusters=items.clusters,
        cluster_ids=items.cluster_ids,
    )
    kg = model_statistics(binary, interval="korn-graubard")
    robust = model_statistics(binary)
    np.testing.assert_allclose(kg.se, robust.se, rtol=1e-15)
    np.testing.assert_array_equal(kg.df, robust.df)


def test_korn_graubard_refused_for_scores_that_are_not_binary(tables):
    with pytest.raises(CdplotInputError, match="interval='korn-graubard' is for means of binary"):
        model_statistics(_items(tables, "continuous12", binary=False), interval="korn-graubard")


@pytest.mark.parametrize("interval", ["cluster", "t", "korn-graubard"])
def test_item_order_does_not_matter_and_model_order_permutes(tables, interval):
    items = _items(tables, "clustered", binary=False)
    scores = items.scores[:, [items.models.index("binary")] * 2]
    scores[:5, 1] = np.nan
    binary = BenchmarkItems(
        ("a", "b"), items.items, scores, True, items.clusters, items.cluster_ids
    )
    rows = np.random.default_rng(0).permutation(items.n_items)
    shuffled = BenchmarkItems(
        ("b", "a"),
        tuple(np.array(items.items)[rows]),
        scores[rows][:, ::-1],
        True,
        items.clusters[rows],
        items.cluster_ids,
    )
    one, other = (
        model_statistics(binary, interval=interval),
        model_statistics(shuffled, interval=interval),
    )
    for field in ("mean", "low", "high", "se", "design_effect"):
        np.testing.assert_allclose(getattr(other, field)[::-1], getattr(one, field), rtol=1e-12)

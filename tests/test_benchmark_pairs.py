"""Per-pair statistics of one benchmark (``cdplot.stats.pair_statistics``).

Verified against R (``tests/reference/benchmark/pairs_r.json``, made by
``tests/reference/benchmark/pairs.R``, R 4.2.2, sandwich 3.0.2): ``binom.test(b, b + c)``
(exact McNemar), ``mcnemar.test`` (chi-square with continuity correction), ``t.test(x, y,
paired = TRUE)``, ``sandwich::vcovCL(lm(d ~ 1), cluster = ~cl)`` on the differences (the
clustered t, ``G - 1`` df), and R transcriptions of Tango's (1998) score interval (its
restricted maximum-likelihood estimate also found numerically with ``optimize()``) and
Newcombe's (1998) method 10 for paired proportions, on worked 2 x 2 examples and every pair
of seeded tables. A published worked example: Cavo et al.'s table in Fagerland, Lydersen &
Laake (2017, chapter 8) with the values their R package contingencytables prints (Tango,
Newcombe square-and-add = method 10, exact and continuity-corrected McNemar). Checked for
consistency only: the wins against a loop over items, the paired bootstrap against the t
interval and the cluster-robust standard error, the missing scores against
``scipy.stats.ttest_rel`` on the common items.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from scipy import stats

from cdplot._errors import CdplotInputError
from cdplot.io._benchmark import BenchmarkItems
from cdplot.stats import PairStatistics, pair_statistics
from cdplot.stats._benchmark_pairs import newcombe_interval, tango_interval

REFERENCE = Path(__file__).parent / "reference" / "benchmark" / "pairs_r.json"
Z95 = stats.norm.isf(0.025)


def make_items(scores, binary=None, clusters=None):
    scores = np.asarray(scores, dtype=float)
    n, k = scores.shape
    if binary is None:
        binary = bool(np.isin(scores[~np.isnan(scores)], (0.0, 1.0)).all())
    extra = {}
    if clusters is not None:
        clusters = np.asarray(clusters, dtype=np.int64)
        extra = {"clusters": clusters, "cluster_ids": tuple(map(str, range(clusters.max() + 1)))}
    return BenchmarkItems(
        tuple(f"m{i}" for i in range(k)), tuple(map(str, range(n))), scores, binary, **extra
    )


@pytest.fixture(scope="module")
def reference():
    return json.loads(REFERENCE.read_text())


def entries(reference, case, quantity=None):
    return [
        e
        for e in reference["entries"]
        if e["case"] == case and (quantity is None or e["quantity"] == quantity)
    ]


# ----------------------------------------------------------------------------- R values


def test_exact_mcnemar_p_values_match_binom_test(reference):
    # R: binom.test(b, b + c)$p.value for every pair of the 40 x 4 binary table
    ps = pair_statistics(make_items(reference["tables"]["binary"]))
    assert ps.test == "mcnemar"
    for e in entries(reference, "binary", "binom_p"):
        assert ps.pvalues[e["i"], e["j"]] == pytest.approx(e["value"], rel=1e-12)
        assert ps.pvalues[e["j"], e["i"]] == pytest.approx(e["value"], rel=1e-12)


def test_asymptotic_mcnemar_matches_mcnemar_test(reference):
    # R: mcnemar.test(x, y) (continuity corrected): statistic and p.value
    ps = pair_statistics(make_items(reference["tables"]["binary"]), test="mcnemar-asymptotic")
    for e in entries(reference, "binary", "mcnemar"):
        i, j = e["i"], e["j"]
        assert ps.statistic[i, j] ** 2 == pytest.approx(e["value"][0], rel=1e-12)
        assert ps.pvalues[i, j] == pytest.approx(e["value"][1], rel=1e-12)
        assert ps.statistic[i, j] == -ps.statistic[j, i]


@pytest.mark.parametrize("interval", ["tango", "newcombe"])
def test_paired_proportion_intervals_match_the_r_transcriptions(reference, interval):
    # R: Tango (1998) score interval / Newcombe (1998) method 10, pairs.R transcriptions
    quantity = {"tango": "tango", "newcombe": "newcombe10"}[interval]
    ps = pair_statistics(make_items(reference["tables"]["binary"]), interval=interval)
    assert ps.interval == interval
    for e in entries(reference, "binary", quantity):
        i, j = e["i"], e["j"]
        assert [ps.low[i, j], ps.high[i, j]] == pytest.approx(e["value"], abs=1e-12)
        # the reversed pair: the interval of the negated difference
        assert [ps.low[j, i], ps.high[j, i]] == pytest.approx(
            [-e["value"][1], -e["value"][0]], abs=1e-12
        )


@pytest.mark.parametrize("case", ["bentur", "cavo", "twelve", "none_discordant", "one_sided"])
def test_worked_two_by_two_tables(reference, case):
    # tables [a, b, c, d]: bentur (Bentur et al. 2009) and cavo (Cavo et al. 2012) are the
    # examples of Fagerland, Lydersen & Laake (2014); R values from pairs.R
    a, b, c, d = entries(reference, case, "tango")[0]["table"]
    n = a + b + c + d
    low, high = tango_interval(np.array(b, float), np.array(c, float), np.array(n, float), Z95)
    for quantity in ("tango", "tango_numeric"):  # closed form; restricted MLE by optimize()
        expected = entries(reference, case, quantity)[0]["value"]
        assert [float(low), float(high)] == pytest.approx(expected, abs=2e-8)
    low, high = newcombe_interval(*(np.array(v, float) for v in (a, b, c, d)), Z95)
    expected = entries(reference, case, "newcombe10")[0]["value"]
    assert [float(low), float(high)] == pytest.approx(expected, abs=1e-12)
    # the same table through pair_statistics (two models on n items)
    rows = [[1, 1]] * a + [[1, 0]] * b + [[0, 1]] * c + [[0, 0]] * d
    ps = pair_statistics(make_items(rows))
    assert [ps.low[0, 1], ps.high[0, 1]] == pytest.approx(
        entries(reference, case, "tango")[0]["value"], abs=1e-12
    )
    if b + c:
        assert ps.pvalues[0, 1] == pytest.approx(
            entries(reference, case, "binom_p")[0]["value"], rel=1e-12
        )
    else:
        assert ps.pvalues[0, 1] == 1.0


def test_cavo_table_matches_the_contingencytables_package():
    # Cavo et al. (2012), n <- rbind(c(59, 6), c(16, 80)), the worked example of Fagerland,
    # Lydersen & Laake, "Statistical Analysis of Contingency Tables" (2017), chapter 8; the
    # values printed by its R package contingencytables (ocbe-uio/contingencytables,
    # tests/testthat, chapter 8), rounded as printed there:
    #   Tango_asymptotic_score_CI_paired_2x2   estimate -0.0621 (95% CI -0.1240 to -0.0054)
    #   Newcombe_square_and_add_CI_paired_2x2  estimate -0.0621 (95% CI -0.1186 to -0.0046)
    #   McNemar_exact_cond_test_paired_2x2     P = 0.052479
    #   McNemar_asymptotic_test_CC_paired_2x2  P = 0.055009, Z = 1.919
    rows = [[1, 1]] * 59 + [[1, 0]] * 6 + [[0, 1]] * 16 + [[0, 0]] * 80
    items = make_items(rows)
    tango = pair_statistics(items)
    newcombe = pair_statistics(items, interval="newcombe")
    asymptotic = pair_statistics(items, test="mcnemar-asymptotic")
    assert round(tango.difference[0, 1], 4) == -0.0621
    assert [round(tango.low[0, 1], 4), round(tango.high[0, 1], 4)] == [-0.1240, -0.0054]
    assert [round(newcombe.low[0, 1], 4), round(newcombe.high[0, 1], 4)] == [-0.1186, -0.0046]
    assert round(tango.pvalues[0, 1], 6) == 0.052479
    assert round(asymptotic.pvalues[0, 1], 6) == 0.055009
    assert round(abs(asymptotic.statistic[0, 1]), 3) == 1.919


def test_paired_t_matches_t_test(reference):
    # R: t.test(x, y, paired = TRUE): estimate, statistic, df, p.value, conf.int
    ps = pair_statistics(make_items(reference["tables"]["continuous"]))
    assert ps.test == "paired-t" and ps.interval == "t"
    for e in entries(reference, "continuous", "t_test"):
        i, j = e["i"], e["j"]
        got = [
            ps.difference[i, j],
            ps.statistic[i, j],
            ps.df[i, j],
            ps.pvalues[i, j],
            ps.low[i, j],
            ps.high[i, j],
        ]
        assert got == pytest.approx(e["value"], rel=1e-10, abs=1e-14)


def test_clustered_t_matches_vcovcl(reference):
    # R: sqrt(sandwich::vcovCL(lm(d ~ 1), cluster = ~cl)[1, 1]) (HC1, G/(G-1)), t with G - 1 df
    tables = reference["tables"]
    items = make_items(tables["clustered"], clusters=tables["clusters"])
    ps = pair_statistics(items)
    assert ps.test == "clustered-t" and ps.n_clusters == 9
    assert np.all(ps.df[~np.eye(3, dtype=bool)] == 8)
    for e in entries(reference, "clustered", "vcovCL"):
        i, j = e["i"], e["j"]
        got = [
            ps.difference[i, j],
            ps.se[i, j],
            ps.statistic[i, j],
            ps.pvalues[i, j],
            ps.low[i, j],
            ps.high[i, j],
        ]
        assert got == pytest.approx(e["value"], rel=1e-10, abs=1e-14)
    # explicitly naive: R's t.test(x, y, paired = TRUE) ignoring the clusters
    naive = pair_statistics(items, test="paired-t")
    for e in entries(reference, "clustered", "t_test_naive"):
        assert naive.pvalues[e["i"], e["j"]] == pytest.approx(e["value"][3], rel=1e-10)


# ----------------------------------------------------------------------------- contract


def test_result_keeps_its_fields_and_gains_defaults():
    names = [f.name for f in PairStatistics.__dataclass_fields__.values()]
    assert names[:11] == [
        "difference",
        "low",
        "high",
        "se",
        "statistic",
        "pvalues",
        "n_items",
        "wins",
        "test",
        "interval",
        "confidence",
    ]
    assert names[11:] == ["higher_is_better", "df", "n_clusters", "n_boot"]


def test_binary_interval_is_no_longer_wald(reference):
    # no item solved by one model only (10 both, 5 neither): the Wald interval collapses to
    # [0, 0]; Tango's score interval is +-0.2039 (pairs.R, case none_discordant)
    rows = [[1, 1]] * 10 + [[0, 0]] * 5
    ps = pair_statistics(make_items(rows))
    assert ps.interval == "tango"
    expected = entries(reference, "none_discordant", "tango")[0]["value"]
    assert [ps.low[0, 1], ps.high[0, 1]] == pytest.approx(expected, abs=1e-12)
    assert ps.high[0, 1] - ps.low[0, 1] > 0.4


def test_missing_scores_use_the_items_both_models_scored():
    rng = np.random.default_rng(3)
    x = rng.normal(size=(30, 3))
    x[rng.random(x.shape) < 0.2] = np.nan
    ps = pair_statistics(make_items(x))
    for i, j in [(0, 1), (0, 2), (1, 2)]:
        both = ~np.isnan(x[:, i]) & ~np.isnan(x[:, j])
        ref = stats.ttest_rel(x[both, i], x[both, j])  # scipy on the common items
        assert ps.n_items[i, j] == both.sum()
        assert ps.statistic[i, j] == pytest.approx(ref.statistic, rel=1e-10)
        assert ps.pvalues[i, j] == pytest.approx(ref.pvalue, rel=1e-10)


def _wins_by_loop(x, higher_is_better=True):
    n, k = x.shape
    out = np.zeros((k, k), dtype=np.int64)
    for t in range(n):
        for i in range(k):
            for j in range(k):
                a, b = x[t, i], x[t, j]
                if np.isnan(a) or np.isnan(b):
                    continue
                out[i, j] += (a > b) if higher_is_better else (a < b)
    return out


@pytest.mark.parametrize("kind", ["binary", "partial", "continuous"])
@pytest.mark.parametrize("higher_is_better", [True, False])
def test_wins_match_a_loop_over_items(kind, higher_is_better):
    rng = np.random.default_rng(5)
    shape = (40, 6)
    x = {
        "binary": (rng.random(shape) < 0.5).astype(float),
        "partial": rng.integers(0, 6, shape) / 5,  # six levels: one product per value
        "continuous": rng.normal(size=shape),  # many values: blocks of models
    }[kind]
    x[rng.random(shape) < 0.1] = np.nan
    ps = pair_statistics(make_items(x), higher_is_better=higher_is_better)
    assert ps.higher_is_better is higher_is_better
    np.testing.assert_array_equal(ps.wins, _wins_by_loop(x, higher_is_better))


def test_direction_does_not_change_the_difference_or_the_test():
    x = (np.random.default_rng(1).random((30, 3)) < [0.8, 0.5, 0.3]).astype(float)
    up = pair_statistics(make_items(x))
    down = pair_statistics(make_items(x), higher_is_better=False)
    assert up.difference[0, 2] > 0
    np.testing.assert_array_equal(up.difference, down.difference)
    np.testing.assert_array_equal(up.pvalues, down.pvalues)
    np.testing.assert_array_equal(up.wins, down.wins.T)


def test_paired_bootstrap_agrees_with_t_and_is_seeded():
    rng = np.random.default_rng(11)
    x = rng.normal(size=(200, 3)) + [0.0, 0.05, 0.4]
    items = make_items(x)
    boot = pair_statistics(items, test="paired-bootstrap", n_boot=4000, seed=2)
    again = pair_statistics(items, test="paired-bootstrap", n_boot=4000, seed=2)
    t = pair_statistics(items)
    assert boot == again
    assert boot.interval == "percentile" and boot.n_boot == 4000
    np.testing.assert_allclose(boot.difference, t.difference, atol=1e-12)
    off = ~np.eye(3, dtype=bool)
    np.testing.assert_allclose(boot.low[off], t.low[off], atol=0.03)
    np.testing.assert_allclose(boot.se[off], t.se[off], rtol=0.1)
    assert boot.pvalues[0, 2] < 0.001 and boot.pvalues[0, 1] > 0.05


def test_paired_bootstrap_resamples_clusters():
    rng = np.random.default_rng(12)
    g, size = 40, 8
    clusters = np.repeat(np.arange(g), size)
    x = rng.normal(size=(g * size, 2)) + rng.normal(size=(g, 2)).repeat(size, axis=0)
    items = make_items(x, clusters=clusters)
    boot = pair_statistics(items, test="paired-bootstrap", n_boot=4000, seed=0)
    robust = pair_statistics(items)  # clustered-t
    naive = pair_statistics(items, test="paired-t")
    assert boot.n_clusters == g
    assert boot.se[0, 1] == pytest.approx(robust.se[0, 1], rel=0.15)
    assert boot.se[0, 1] > 1.5 * naive.se[0, 1]


# ----------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    ("scores", "kwargs", "match"),
    [
        ([[0.5, 1.0], [0.2, 0.0], [1.0, 0.3]], {"test": "mcnemar"}, "not binary.*paired-t"),
        ([[0.5, 1.0], [0.2, 0.0], [1.0, 0.3]], {"test": "clustered-t"}, "cluster=\\.\\.\\."),
        ([[0.5, 1.0], [0.2, 0.0], [1.0, 0.3]], {"interval": "tango"}, "drop interval"),
        ([[1, 0], [0, 1], [1, 1]], {"interval": "wald"}, "not a valid value for interval"),
        ([[1, 0], [0, 1], [1, 1]], {"test": "z"}, "not a valid value for test"),
        ([[0.5, np.nan], [0.2, 0.0], [1.0, 0.3]], {"test": "paired-bootstrap"}, "missing"),
        ([[0.5, 1.0], [0.2, 0.0], [1.0, 0.3]], {"test": "paired-bootstrap", "n_boot": 5}, "n_boot"),
        ([[0.5, 1.0], [0.2, 0.0]], {"confidence": 95}, "not 95"),
    ],
)
def test_bad_input_is_refused(scores, kwargs, match):
    with pytest.raises(CdplotInputError, match=match):
        pair_statistics(make_items(scores), **kwargs)


def test_one_cluster_is_refused():
    x = np.random.default_rng(0).normal(size=(6, 2))
    with pytest.raises(CdplotInputError, match="at least 2 clusters"):
        pair_statistics(make_items(x, clusters=[0] * 6))

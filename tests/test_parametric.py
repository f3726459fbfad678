"""Parametric tests over datasets: paired t, repeated-measures ANOVA, Tukey HSD, checks.

Verified against R 4.2.2:
* parametric_demsar_table6.json (copied from ../shared/reference/r-values/): ``t.test(paired
  = TRUE)`` t and p, ``p.adjust`` Holm and Bonferroni of those p, ``aov(score ~ algorithm +
  Error(dataset/algorithm))`` F and p, ``TukeyHSD(aov(score ~ algorithm + dataset))`` q, p and
  intervals, ``shapiro.test`` on pairwise differences and two-way residuals;
* parametric_r.csv (made by make_parametric_r.R): the same on Benavoli et al.'s 7 x 54 table,
  ``mauchly.test(lm(X ~ 1), X = ~1)`` and the Greenhouse-Geisser corrected p of
  ``anova(lm(X ~ 1), X = ~1, test = "Spherical")``.
Verified against scipy 1.17 (``ttest_rel``, ``shapiro``, ``studentized_range``) and
statsmodels (``AnovaRM``: F, df and p of the repeated-measures ANOVA). statsmodels'
``pairwise_tukeyhsd`` is a one-way Tukey test (it ignores the datasets, like autorank and
scmamp): not comparable with the blocked HSD; the json's ``tukey_one_way`` documents the
difference.
Consistency only: the Tukey groups against the critical difference, degenerate tables.
"""

from __future__ import annotations

import json
import math
import warnings

import numpy as np
import pytest
from _helpers import REFERENCE as REF
from _helpers import demsar_table6 as table6
from _helpers import nan_matrix as matrix
from _helpers import parametric_r_values, quiet_compare
from scipy import stats

import cdplot
from cdplot.stats import (
    check_assumptions,
    paired_t_test,
    rm_anova_test,
    tukey_critical_difference,
    tukey_test,
)

TABLE6 = json.loads((REF / "parametric_demsar_table6.json").read_text())


R = parametric_r_values()


def r_matrix(case: str, quantity: str, k: int) -> np.ndarray:
    out = np.full((k, k), np.nan)
    for (c, q, i, j), v in R.items():
        if c == case and q == quantity:
            out[int(i), int(j)] = out[int(j), int(i)] = v
    return out


# --- paired t over datasets -----------------------------------------------------------------


def test_paired_t_test_matches_r_table6():
    x = table6().to_numpy()
    res = paired_t_test(x)
    ref = TABLE6["paired_t"]
    # R: t.test(X[, i], X[, j], paired=TRUE), i = row, j = column
    np.testing.assert_allclose(res.statistic, matrix(ref["t"]), rtol=1e-12)
    np.testing.assert_allclose(res.pvalue, matrix(ref["p"]), rtol=1e-12)


def test_paired_t_test_matches_r_benavoli(benavoli):
    x = benavoli.to_numpy()
    k = x.shape[1]
    res = paired_t_test(x)
    # R: t.test(X[, i], X[, j], paired=TRUE) (parametric_r.csv)
    np.testing.assert_allclose(res.pvalue, r_matrix("benavoli", "paired_p", k), rtol=1e-11)
    iu = np.triu_indices(k, 1)
    np.testing.assert_allclose(
        res.statistic[iu], r_matrix("benavoli", "paired_t", k)[iu], rtol=1e-12
    )
    for i, j in zip(*iu, strict=True):  # scipy agrees
        assert res.pvalue[i, j] == pytest.approx(stats.ttest_rel(x[:, i], x[:, j]).pvalue, 1e-11)


@pytest.mark.parametrize(
    ("correction", "key"), [("holm", "p_holm"), ("bonferroni", "p_bonferroni")]
)
def test_compare_paired_t_with_corrections_matches_r(correction, key):
    res = cdplot.compare(table6(), test="paired-t", correction=correction)
    # R: p.adjust(p, method="holm" / "bonferroni") of the paired t p-values
    np.testing.assert_allclose(
        res.adjusted_pvalues.to_numpy(), matrix(TABLE6["paired_t"][key]), rtol=1e-12
    )
    assert res.test == "paired-t"
    # mean scores, best first (json "means", R colMeans)
    means = dict(zip(TABLE6["algorithms"], TABLE6["means"], strict=True))
    assert list(res.mean_scores.index) == ["C4.5+m+cf", "C4.5+m", "C4.5+cf", "C4.5"]
    for name, value in res.mean_scores.items():
        assert value == pytest.approx(means[name], rel=1e-14)


def test_compare_paired_t_control_mode():
    res = cdplot.compare(table6(), test="t-test", control="C4.5", correction="holm")
    raw = matrix(TABLE6["paired_t"]["p"])[0, 1:]
    # Holm on the 3 p-values against C4.5 (formula; R p.adjust(p, "holm"))
    order = np.argsort(raw)
    holm = np.maximum.accumulate(np.minimum(1, (3 - np.arange(3)) * raw[order]))
    expected = np.empty(3)
    expected[order] = holm
    np.testing.assert_allclose(res.adjusted_pvalues.to_numpy(), expected, rtol=1e-12)


def test_paired_t_huge_scores(rng):
    x = rng.normal(size=(12, 4))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        big = paired_t_test(x * 1e307)
        anova = rm_anova_test(x * 1e307)
    np.testing.assert_allclose(big.pvalue, paired_t_test(x).pvalue, rtol=1e-12)
    assert anova.statistic == pytest.approx(rm_anova_test(x).statistic, rel=1e-12)
    x[:, 0] = 1.7e308
    x[:, 1] = -1.7e308  # differences of 3.4e308 are not representable
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        res = paired_t_test(x)
    assert res.statistic[0, 1] == math.inf and res.pvalue[0, 1] == 0.0  # constant difference


# --- repeated-measures ANOVA ----------------------------------------------------------------


def test_rm_anova_matches_r_and_statsmodels():
    from statsmodels.stats.anova import AnovaRM

    x = table6()
    res = rm_anova_test(x.to_numpy())
    ref = TABLE6["rm_anova"]
    # R: summary(aov(score ~ algorithm + Error(dataset/algorithm))), stratum dataset:algorithm
    assert res.statistic == pytest.approx(ref["F"], rel=1e-12)
    assert res.pvalue == pytest.approx(ref["p"], rel=1e-11)
    assert res.df == (ref["df1"], ref["df2"])
    f, p = res  # unpacks as (statistic, pvalue)
    long = x.rename_axis("dataset").reset_index().melt("dataset", var_name="algorithm")
    sm = AnovaRM(long, "value", "dataset", within=["algorithm"]).fit().anova_table
    assert f == pytest.approx(sm["F Value"].iloc[0], rel=1e-12)
    assert p == pytest.approx(sm["Pr > F"].iloc[0], rel=1e-11)


def test_rm_anova_matches_r_benavoli(benavoli):
    res = rm_anova_test(benavoli.to_numpy())
    # R: summary(aov(score ~ algorithm + Error(dataset/algorithm))) (parametric_r.csv)
    assert res.statistic == pytest.approx(R[("benavoli", "rm_anova_F", "NA", "NA")], rel=1e-12)
    assert res.pvalue == pytest.approx(R[("benavoli", "rm_anova_p", "NA", "NA")], rel=1e-11)
    assert res.df == (6.0, 6.0 * 53)


def test_compare_omnibus_rm_anova():
    res = cdplot.compare(table6(), omnibus="rm-anova")
    assert res.omnibus.statistic == pytest.approx(TABLE6["rm_anova"]["F"], rel=1e-12)
    assert res.omnibus.name == "repeated-measures ANOVA F"
    assert res.friedman.statistic == pytest.approx(9.857, abs=5e-4)  # still there
    with pytest.raises(cdplot.CdplotInputError, match="valid value for omnibus"):
        cdplot.compare(table6(), omnibus="kruskal")


def test_rm_anova_degenerate():
    x = np.array([[1.0, 2.0, 3.0], [2.0, 3.0, 4.0]])  # additive: residuals vanish
    assert tuple(rm_anova_test(x)) == (math.inf, 0.0)
    assert tuple(rm_anova_test(np.ones((3, 3)))) == (0.0, 1.0)


# --- Tukey HSD ------------------------------------------------------------------------------


def test_tukey_matches_r_table6():
    x = table6().to_numpy()
    res = tukey_test(x)
    ref = TABLE6["tukey_blocked"]
    # R: TukeyHSD(aov(score ~ algorithm + dataset), "algorithm")
    np.testing.assert_allclose(res.statistic, matrix(ref["q"]), rtol=1e-12)
    np.testing.assert_allclose(res.pvalue, matrix(ref["p_adj"]), rtol=1e-6)
    half = (np.array(matrix(ref["upr_95"])) - np.array(matrix(ref["lwr_95"]))) / 2
    cd = tukey_critical_difference(x, 0.05)
    assert cd == pytest.approx(half[0, 1], rel=1e-7)


def test_tukey_matches_r_benavoli(benavoli):
    x = benavoli.to_numpy()
    k = x.shape[1]
    res = tukey_test(x)
    # R: TukeyHSD(aov(score ~ algorithm + dataset), "algorithm")$algorithm[, "p adj"]
    expected = r_matrix("benavoli", "tukey_p", k)
    np.testing.assert_allclose(res.pvalue, expected, rtol=1e-5, atol=1e-9)
    half = r_matrix("benavoli", "tukey_halfwidth", k)
    assert tukey_critical_difference(x, 0.05) == pytest.approx(half[0, 1], rel=1e-7)


def test_compare_tukey_result():
    res = cdplot.compare(table6(), test="tukey", alpha=0.05)
    ref = TABLE6["tukey_blocked"]
    assert res.correction == "tukey"
    assert res.critical_difference_units == "score"
    half = (matrix(ref["upr_95"]) - matrix(ref["lwr_95"])) / 2
    assert res.critical_difference == pytest.approx(half[0, 1], rel=1e-7)
    np.testing.assert_allclose(res.adjusted_pvalues.to_numpy(), matrix(ref["p_adj"]), rtol=1e-6)
    # significant exactly where the mean scores differ by at least the CD
    m = res.mean_scores
    for a in m.index:
        for b in m.index:
            if a != b:
                assert res.significant.loc[a, b] == (abs(m[a] - m[b]) >= res.critical_difference)
    # groups: consecutive runs in mean-score order (best first) with no significant pair
    assert res.groups == (("C4.5+m+cf", "C4.5+m", "C4.5+cf"), ("C4.5+m", "C4.5+cf", "C4.5"))
    assert quiet_compare(table6(), test="nemenyi").critical_difference_units == "rank"


@pytest.mark.parametrize("correction", ["bonferroni", "shaffer"])
def test_tukey_refuses_other_corrections(correction):
    with pytest.raises(cdplot.CdplotInputError, match="own single-step adjustment.*paired-t"):
        cdplot.compare(table6(), test="tukey", correction=correction)


def test_tukey_refuses_control():
    with pytest.raises(cdplot.CdplotInputError, match="Dunnett"):
        cdplot.compare(table6(), test="tukey", control="C4.5")


# --- assumption checks ----------------------------------------------------------------------


def test_check_assumptions_matches_r_table6():
    res = cdplot.compare(table6(), test="tukey", omnibus="rm-anova")
    check = check_assumptions(res)
    ref = TABLE6["normality"]
    w = matrix(ref["shapiro_pairwise_differences_W"])
    p = matrix(ref["shapiro_pairwise_differences_p"])
    names = TABLE6["algorithms"]
    for row in check.pairwise_normality.itertuples():
        i, j = names.index(row.algorithm_1), names.index(row.algorithm_2)
        # R: shapiro.test(X[, i] - X[, j])
        assert pytest.approx(w[i, j], rel=1e-6) == row.W
        assert row.pvalue == pytest.approx(p[i, j], rel=1e-5)
    # R: shapiro.test(residuals(aov(score ~ algorithm + dataset)))
    resid = ref["shapiro_two_way_residuals"]
    assert check.residual_normality.statistic == pytest.approx(resid["W"], rel=1e-6)
    assert check.residual_normality.pvalue == pytest.approx(resid["p"], rel=1e-5)
    # R: mauchly.test(lm(X ~ 1), X = ~1) (parametric_r.csv)
    assert check.sphericity.statistic == pytest.approx(
        R[("demsar", "mauchly_W", "NA", "NA")], 1e-10
    )
    assert check.sphericity.pvalue == pytest.approx(R[("demsar", "mauchly_p", "NA", "NA")], 1e-10)
    # the residuals reject normality at 0.05 (p = 0.033): not defensible, and it says so
    assert check.applies and not check.defensible
    assert "not defensible" in check.verdict and "residuals" in check.verdict
    assert str(check) == check.verdict


def test_greenhouse_geisser_epsilon_reproduces_r(benavoli):
    for case, table in (("demsar", table6()), ("benavoli", benavoli)):
        res = quiet_compare(table, test="tukey")
        check = check_assumptions(res)
        f = rm_anova_test(table.to_numpy())
        df1, df2 = f.df
        # R: anova(lm(X ~ 1), X = ~1, test="Spherical")[1, "G-G Pr"] is
        # pf(F, eps df1, eps df2, lower.tail=FALSE) with R's epsilon
        gg_p = stats.f.sf(f.statistic, check.epsilon * df1, check.epsilon * df2)
        assert gg_p == pytest.approx(R[(case, "gg_pvalue", "NA", "NA")], rel=1e-9)
        assert check.epsilon == pytest.approx(R[(case, "gg_epsilon_printed", "NA", "NA")], abs=5e-5)
        assert check.sphericity.pvalue == pytest.approx(
            R[(case, "mauchly_p", "NA", "NA")], rel=1e-8
        )


def test_check_assumptions_paired_t_defensible_table6():
    # every pairwise Shapiro-Wilk p on Table 6 is above 0.05 (json, smallest 0.0646)
    check = check_assumptions(cdplot.compare(table6(), test="paired-t"))
    assert check.applies and check.defensible
    assert "defensible" in check.verdict and "little power" in check.verdict  # N = 14 < 30


def test_check_assumptions_rank_test_and_errors(demsar):
    check = check_assumptions(cdplot.compare(demsar))
    assert not check.applies and check.defensible
    assert "rank-based" in check.verdict
    with pytest.raises(cdplot.CdplotInputError, match="alpha"):
        check_assumptions(cdplot.compare(demsar), alpha=2)


def test_check_assumptions_rejects_skewed_differences(rng):
    x = rng.normal(size=(40, 3))
    x[:, 0] += rng.exponential(3.0, size=40) ** 2  # heavily skewed differences to column 0
    check = check_assumptions(quiet_compare(x, test="paired-t"))
    assert not check.defensible
    assert "Shapiro-Wilk rejects normal differences" in check.verdict

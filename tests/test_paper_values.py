"""Published numbers that cdplot reproduces (listed in tests/reference/paper-values.md).

Verified against the papers (each literal cites paper and table):
- Demšar (2006): Table 2 (Wilcoxon with split zeros, sign test), Table 3 (sign-test
  critical values), Table 5 (Nemenyi and Bonferroni-Dunn critical values), Table 6
  (average ranks, Friedman, Iman-Davenport, CDs, control comparisons).
- García & Herrera (2008): case study (chi2, F_F, SE, Table 3 z and p, Table 5 APVs for
  Nemenyi/Bonferroni, Holm, Shaffer, Bergmann-Hommel; rejections at 0.05).
- Benavoli, Corani & Mangili (2016): Example 1 (pool dependence) and Example 3 (C2 vs C4).
- Cornuéjols' slides (Japkowicz & Shah's NB vs SVM): Wilcoxon T = 17.
Where a printed input cannot give the printed output, the test says why.
"""

from __future__ import annotations

import functools
import math
import warnings

import numpy as np
import pandas as pd
import pytest
from _helpers import quiet_compare as shared_quiet_compare
from scipy import stats

import cdplot
from cdplot.stats import (
    adjust_all_pairs,
    adjust_control,
    friedman,
    iman_davenport,
    mean_ranks_test,
    nemenyi_q,
    rank_standard_error,
)

# Demšar (2006) Table 6, published average ranks (from unrounded scores)
DEMSAR_PUBLISHED_RANKS = {"C4.5": 3.143, "C4.5+m": 2.000, "C4.5+cf": 2.893, "C4.5+m+cf": 1.964}
# García & Herrera (2008) case study: exact average ranks 63/30, 97.5/30, 66/30, 130/30, 93.5/30
GARCIA_NAMES = ["C4.5", "1-NN", "NaiveBayes", "Kernel", "CN2"]
GARCIA_RANKS = np.array([63.0, 97.5, 66.0, 130.0, 93.5]) / 30.0


#: compare() with only its pool-dependence warnings silenced (the others stay errors)
quiet_compare = functools.partial(shared_quiet_compare, quiet=cdplot.PoolDependenceWarning)


# --- Demšar (2006) ------------------------------------------------------------------------


def test_demsar_table2_wilcoxon_split_zeros(demsar):
    # Demšar (2006) Table 2 / §3.1.3: R+ = 93, R- = 12, T = 12 with zeros split evenly
    res = cdplot.compare(demsar[["C4.5", "C4.5+m"]], test="wilcoxon", zero_method="zsplit")
    assert res.statistics.loc["C4.5+m", "C4.5"] == 93.0
    assert res.statistics.loc["C4.5", "C4.5+m"] == 12.0
    # the exact critical value for N = 14 at 0.05 is T <= 21 (Demšar §3.1.3), so the
    # normal approximation must reject too
    assert res.pvalues.loc["C4.5", "C4.5+m"] < 0.05
    # scipy.stats.wilcoxon(x, y, zero_method="zsplit", correction=True,
    # method="asymptotic") is the same test: statistic T = 12 (tests/reference/paper-values.md)
    ref = stats.wilcoxon(
        demsar["C4.5+m"],
        demsar["C4.5"],
        zero_method="zsplit",
        correction=True,
        method="asymptotic",
    )
    assert ref.statistic == 12.0
    assert res.pvalues.loc["C4.5", "C4.5+m"] == pytest.approx(ref.pvalue, rel=1e-12)


def test_demsar_table2_sign_test(demsar):
    # Demšar (2006) §3.1.4: C4.5+m wins 11 of 14 counting one of the two ties
    res = cdplot.compare(demsar[["C4.5", "C4.5+m"]], test="sign")
    assert res.statistics.loc["C4.5+m", "C4.5"] == 11.0
    assert res.statistics.loc["C4.5", "C4.5+m"] == 3.0
    # cdplot's p is the exact two-sided binomial (scipy.stats.binomtest(11, 14)): 0.0574.
    # Demšar reads 11 >= w_0.05 = 11 from Table 3 and calls it significant: Table 3 is the
    # one-sided binomial tail (see test_demsar_table3_sign_critical_values), so the
    # two-sided exact test does not reject at 0.05.
    assert res.pvalues.loc["C4.5", "C4.5+m"] == pytest.approx(
        stats.binomtest(11, 14).pvalue, rel=1e-12
    )
    assert res.pvalues.loc["C4.5", "C4.5+m"] == pytest.approx(0.0574, abs=5e-5)


def test_demsar_table3_sign_critical_values():
    # Demšar (2006) Table 3, N = 5..25. The printed critical wins w_alpha are the smallest w
    # with a one-sided binomial tail P(B >= w) <= alpha, i.e. a two-sided test at 2 alpha:
    # w is critical exactly when cdplot's two-sided sign-test p at w wins is <= 2 alpha.
    w05 = [5, 6, 7, 7, 8, 9, 9, 10, 10, 11, 12, 12, 13, 13, 14, 15, 15, 16, 17, 18, 18]
    w10 = [5, 6, 6, 7, 7, 8, 9, 9, 10, 10, 11, 12, 12, 13, 13, 14, 14, 15, 16, 16, 17]

    def critical(n: int, level: float) -> int:
        for w in range(n // 2, n + 1):
            scores = np.array([[1.0, 0.0]] * w + [[0.0, 1.0]] * (n - w))
            res = cdplot.compare(scores, test="sign", correction="none")
            if res.pvalues.iloc[0, 1] <= level:
                return w
        raise AssertionError("no critical value")

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cdplot.CdplotWarning)
        assert [critical(n, 0.20) for n in range(5, 26)] == w10
        got05 = [critical(n, 0.10) for n in range(5, 26)]
    # N = 23 and 24 print 17 and 18 where the one-sided rule gives 16 and 17
    # (P(B >= 16 | 23) = 0.047, P(B >= 17 | 24) = 0.032): the table is one higher there.
    diff = [n for n, a, b in zip(range(5, 26), got05, w05, strict=True) if a != b]
    assert diff == [23, 24]


@pytest.mark.parametrize(
    ("alpha", "table"),
    [
        # Demšar (2006) Table 5(a), k = 2..10
        (0.05, [1.960, 2.343, 2.569, 2.728, 2.850, 2.949, 3.031, 3.102, 3.164]),
        (0.10, [1.645, 2.052, 2.291, 2.459, 2.589, 2.693, 2.780, 2.855, 2.920]),
    ],
)
def test_demsar_table5_nemenyi_q(alpha, table):
    # Demšar divided a 3-decimal studentized-range table by sqrt(2) (e.g. k = 3, 0.05:
    # 3.314 / sqrt(2) = 2.3434, printed 2.343; the exact quantile gives 2.3437), so the
    # printed entries may differ from the computed ones by up to one unit in the last digit
    got = [nemenyi_q(k, alpha) for k in range(2, 11)]
    np.testing.assert_allclose(got, table, atol=1e-3)
    # and scipy's studentized range with infinite df is the reference distribution
    ref = stats.studentized_range.ppf(1 - alpha, 4, np.inf) / math.sqrt(2)
    assert nemenyi_q(4, alpha) == pytest.approx(ref, rel=1e-12)


@pytest.mark.parametrize(
    ("alpha", "table"),
    [
        # Demšar (2006) Table 5(b), k = 2..10 (k includes the control). The k = 9,
        # alpha = 0.05 entry is printed 2.724, a typo for 2.734 (conventions.md).
        (0.05, [1.960, 2.241, 2.394, 2.498, 2.576, 2.638, 2.690, 2.734, 2.773]),
        (0.10, [1.645, 1.960, 2.128, 2.241, 2.326, 2.394, 2.450, 2.498, 2.539]),
    ],
)
def test_demsar_table5_bonferroni_dunn_q(alpha, table):
    # the Bonferroni-Dunn CD divided by SE is q = z_{1 - alpha / (2 (k - 1))}
    got = []
    for k in range(2, 11):
        scores = np.tile(np.arange(k, dtype=float), (14, 1))
        scores[::2] = scores[::2, ::-1]  # any table: q does not depend on the data
        res = quiet_compare(
            scores, test="mean-ranks", control="A1", correction="bonferroni-dunn", alpha=alpha
        )
        got.append(round(res.critical_difference / rank_standard_error(k, 14), 3))
    assert got == table


def test_demsar_table6_average_ranks_from_printed_scores(demsar):
    # Demšar (2006) Table 6 prints 3.143, 2.000, 2.893, 1.964 (ranks of unrounded AUCs).
    # From the printed 3-decimal scores "voting" ties C4.5+cf and C4.5+m+cf at 0.975,
    # giving 2.929 and 1.929 instead (tests/reference/paper-values.md): both fit their input.
    res = cdplot.compare(demsar)
    ranks = res.average_ranks.round(3).to_dict()
    assert ranks == {"C4.5": 3.143, "C4.5+m": 2.0, "C4.5+cf": 2.929, "C4.5+m+cf": 1.929}
    # the per-dataset ranks printed in parentheses in Table 6, e.g. iris: 1, 2.5, 4, 2.5
    assert res.ranks.loc["iris"].tolist() == [1.0, 2.5, 4.0, 2.5]
    assert res.ranks.loc["mushroom"].tolist() == [2.5] * 4
    assert res.ranks.loc["voting"].tolist() == [4.0, 1.0, 2.5, 2.5]


def test_demsar_table6_friedman_from_published_ranks():
    # Demšar (2006) §3.2.2: chi2_F = 9.28, F_F = 3.69 with (3, 39) df; F(3, 39) at 0.05 is 2.85
    r = np.array(list(DEMSAR_PUBLISHED_RANKS.values()))
    fr = friedman(r, 14)
    assert round(fr.statistic, 2) == 9.28
    assert fr.df == 3
    im = iman_davenport(fr.statistic, 4, 14)
    assert round(im.statistic, 2) == 3.69
    assert im.df == (3.0, 39.0)
    assert round(stats.f.ppf(0.95, 3, 39), 2) == 2.85
    assert im.pvalue < 0.05


def test_demsar_table6_nemenyi_cd(demsar):
    # Demšar (2006) §3.2.2: CD = 2.569 sqrt(4*5/(6*14)) = 1.25 at 0.05 and 1.12 at 0.10
    res05 = quiet_compare(demsar, test="nemenyi", alpha=0.05)
    res10 = quiet_compare(demsar, test="nemenyi", alpha=0.10)
    assert round(res05.critical_difference, 2) == 1.25
    assert round(res10.critical_difference, 2) == 1.12
    # at 0.05 no pair differs ("the post-hoc test is not powerful enough")
    assert not res05.significant.to_numpy().any()
    # at 0.10 C4.5 is worse than C4.5+m and C4.5+m+cf; C4.5+cf is undecided (Figure 1a)
    sig = res10.significant
    assert sig.loc["C4.5", "C4.5+m"] and sig.loc["C4.5", "C4.5+m+cf"]
    assert not sig.loc["C4.5", "C4.5+cf"]
    assert res10.groups == (("C4.5+m+cf", "C4.5+m", "C4.5+cf"), ("C4.5+cf", "C4.5"))
    # Nemenyi: significant exactly when the rank difference reaches the CD
    diff = np.abs(res10.average_ranks["C4.5"] - res10.average_ranks)
    for name, d in diff.drop("C4.5").items():
        assert sig.loc["C4.5", name] == (d >= res10.critical_difference)


def test_demsar_table6_bonferroni_dunn(demsar):
    # Demšar (2006) §3.2.2: CD = 2.394 sqrt(4.5/(6*14)) = 1.16; with the published ranks
    # C4.5+m+cf is significant (1.179 > 1.16), C4.5+m just short (1.143), C4.5+cf not.
    res = quiet_compare(
        demsar, test="mean-ranks", control="C4.5", correction="bonferroni-dunn", alpha=0.05
    )
    # 2.394 * 0.48795 = 1.168: the paper truncates it to 1.16
    assert math.floor(res.critical_difference * 100) / 100 == 1.16
    r = DEMSAR_PUBLISHED_RANKS
    for name, expect in (("C4.5+m+cf", True), ("C4.5+m", False), ("C4.5+cf", False)):
        assert (r["C4.5"] - r[name] > res.critical_difference) == expect
    # from the printed scores (C4.5+m+cf 1.929): the same three decisions
    assert res.significant.to_dict() == {"C4.5+m": False, "C4.5+cf": False, "C4.5+m+cf": True}


def test_demsar_table6_holm_hochberg_hommel_vs_control():
    # Demšar (2006) §3.2.2, from the published ranks: SE = 0.488, z = 2.416, 2.342, 0.512,
    # p = 0.016, 0.019, 0.607; Holm, Hochberg and Hommel reject C4.5+m+cf and C4.5+m only.
    names = list(DEMSAR_PUBLISHED_RANKS)
    r = np.array(list(DEMSAR_PUBLISHED_RANKS.values()))
    assert round(rank_standard_error(4, 14), 3) == 0.488
    res = mean_ranks_test(r, 14)
    others = [names.index(n) for n in ("C4.5+m+cf", "C4.5+m", "C4.5+cf")]
    z = res.statistic[0, others]
    p = res.pvalue[0, others]
    # the paper divides by the rounded SE 0.488; exact SE = 0.48795 moves z by < 0.002
    np.testing.assert_allclose(z, [2.416, 2.342, 0.512], atol=2e-3)
    # the printed 0.607 is off by 0.0014 (the two-sided normal p of z = 0.512 is 0.6086)
    np.testing.assert_allclose(p, [0.016, 0.019, 0.607], atol=2e-3)
    for method in ("holm", "hochberg", "hommel"):
        apv = adjust_control(p, method)
        assert (apv <= 0.05).tolist() == [True, True, False], method


# --- García & Herrera (2008) --------------------------------------------------------------

# Table 3 of García & Herrera (2008): hypotheses ordered by p, with z and p
GARCIA_TABLE3 = [
    ("C4.5", "Kernel", 5.471, 4.487e-8),
    ("NaiveBayes", "Kernel", 5.226, 1.736e-7),
    ("Kernel", "CN2", 2.98, 0.0029),
    ("C4.5", "1-NN", 2.817, 0.0048),
    ("1-NN", "Kernel", 2.654, 0.008),
    ("1-NN", "NaiveBayes", 2.572, 0.0101),
    ("C4.5", "CN2", 2.49, 0.0128),
    ("NaiveBayes", "CN2", 2.245, 0.0247),
    ("1-NN", "CN2", 0.327, 0.744),
    ("C4.5", "NaiveBayes", 0.245, 0.8065),
]
# Table 5 of García & Herrera (2008): APVs Nemenyi (= Bonferroni) / Holm / Shaffer / B-H
GARCIA_TABLE5 = {
    "bonferroni": [4.487e-7, 1.736e-6, 0.0288, 0.0485, 0.0796, 0.1011, 0.1276, 0.2474, 1, 1],
    "holm": [4.487e-7, 1.563e-6, 0.023, 0.0339, 0.0478, 0.0506, 0.0511, 0.0742, 1, 1],
    "shaffer": [4.487e-7, 1.042e-6, 0.0173, 0.0291, 0.0478, 0.0478, 0.0511, 0.0742, 1, 1],
    "bergmann-hommel": [4.487e-7, 1.042e-6, 0.0115, 0.0291, 0.0319, 0.0319, 0.0383, 0.0383, 1, 1],
}


def _garcia_pairs():
    res = mean_ranks_test(GARCIA_RANKS, 30)
    idx = {n: i for i, n in enumerate(GARCIA_NAMES)}
    iu, ju = np.triu_indices(5, 1)
    p_upper = res.pvalue[iu, ju]
    position = {(int(a), int(b)): h for h, (a, b) in enumerate(zip(iu, ju, strict=True))}
    table_pos = [position[tuple(sorted((idx[a], idx[b])))] for a, b, _, _ in GARCIA_TABLE3]
    return res, p_upper, table_pos, idx


def test_garcia_friedman_and_se():
    # García & Herrera (2008) §3 case study: chi2_F = 39.647, F_F = 14.309, SE = 0.408
    fr = friedman(GARCIA_RANKS, 30)
    assert round(fr.statistic, 3) == 39.647
    assert round(iman_davenport(fr.statistic, 5, 30).statistic, 3) == 14.309
    assert round(rank_standard_error(5, 30), 3) == 0.408


def test_garcia_table3_z_and_p():
    res, _, _, idx = _garcia_pairs()
    for a, b, z, p in GARCIA_TABLE3:
        # the paper prints 4 significant digits (3 decimals for z)
        assert res.statistic[idx[a], idx[b]] == pytest.approx(z, abs=1e-3)
        assert res.pvalue[idx[a], idx[b]] == pytest.approx(p, rel=5e-3, abs=5e-5)


@pytest.mark.parametrize("method", list(GARCIA_TABLE5))
def test_garcia_table5_apvs(method):
    # García & Herrera (2008) Table 5; 4 significant digits printed
    _, p_upper, table_pos, _ = _garcia_pairs()
    apv = adjust_all_pairs(p_upper, 5, method)[table_pos]
    np.testing.assert_allclose(apv, GARCIA_TABLE5[method], rtol=2e-3)


def test_garcia_bergmann_running_maximum():
    # Without the running maximum H6 (1-NN vs NaiveBayes) would be 0.0303; Table 5 prints
    # 0.0319 (tests/reference/paper-values.md), which cdplot reproduces.
    _, p_upper, table_pos, _ = _garcia_pairs()
    apv = adjust_all_pairs(p_upper, 5, "bergmann")[table_pos]
    assert apv[5] == pytest.approx(0.0319, rel=2e-3)
    assert apv[5] == apv[4]


@pytest.mark.parametrize(
    ("method", "rejected"),
    # García & Herrera (2008) §3: at 0.05 Nemenyi rejects H1-H4, Holm H1-H5,
    # Shaffer H1-H6 and Bergmann-Hommel H1-H8
    [("bonferroni", 4), ("holm", 5), ("shaffer", 6), ("bergmann-hommel", 8)],
)
def test_garcia_rejections(method, rejected):
    _, p_upper, table_pos, _ = _garcia_pairs()
    apv = adjust_all_pairs(p_upper, 5, method)[table_pos]
    assert (apv <= 0.05).tolist() == [True] * rejected + [False] * (10 - rejected)


def test_garcia_compare_on_constructed_table():
    # a rank table built to have García & Herrera's average ranks
    # (tests/reference/make_garcia2008_synthetic.py); compare() must give Table 5's B-H APVs
    data = cdplot.datasets.load("garcia2008_synthetic")
    res = quiet_compare(data, higher_is_better=False, test="mean-ranks", correction="bergmann")
    np.testing.assert_allclose(res.average_ranks[GARCIA_NAMES].to_numpy(), GARCIA_RANKS)
    got = [res.adjusted_pvalues.loc[a, b] for a, b, _, _ in GARCIA_TABLE3]
    np.testing.assert_allclose(got, GARCIA_TABLE5["bergmann-hommel"], rtol=2e-3)
    # B-H retains only H9 (1-NN vs CN2) and H10 (C4.5 vs NaiveBayes): three groups
    assert res.groups == (("C4.5", "NaiveBayes"), ("CN2", "1-NN"), ("Kernel",))
    assert res.uncovered_pairs == ()


# --- Benavoli, Corani & Mangili (2016) ----------------------------------------------------


def _benavoli_example1() -> pd.DataFrame:
    # Benavoli et al. (2016) §4.1, Example 1: accuracies of A..E on 20 data sets
    first = {"A": 50, "B": 80, "C": 55, "D": 60, "E": 65}
    second = {"A": 80, "B": 50, "C": 45, "D": 85, "E": 90}
    rows = [first] * 10 + [second] * 10
    return pd.DataFrame(rows, dtype=float)


def test_benavoli_example1_pool_dependence():
    data = _benavoli_example1()
    # A vs B alone: sign test and Wilcoxon give p = 1
    for test in ("sign", "wilcoxon"):
        res = cdplot.compare(data[["A", "B"]], test=test)
        assert res.pvalues.loc["A", "B"] == 1.0
    # in the pool of five: Friedman p ~ 1e-10; mean ranks of A, B are 4 and 2.5 with
    # rank 1 = best (the paper's 2 and 3.5 with higher = better: same distance 1.5)
    with pytest.warns(cdplot.PoolDependenceWarning):
        res = cdplot.compare(data, test="mean-ranks", correction="bonferroni")
    assert 1e-11 < res.friedman.pvalue < 1e-9
    assert res.average_ranks["A"] - res.average_ranks["B"] == 1.5
    # z* = 2.807 (Bonferroni, alpha = 0.05, 10 comparisons) and CD ~ 1.4: A and B differ
    z_star = stats.norm.isf(0.05 / 20)
    assert round(z_star, 3) == 2.807
    assert round(z_star * rank_standard_error(5, 20), 1) == 1.4
    assert res.significant.loc["A", "B"]


def test_benavoli_example3_c2_vs_c4(benavoli):
    # Benavoli et al. (2016) Example 3: Wilcoxon p for C2 vs C4 is about 0.0002, whatever
    # the pool; R: wilcox.test(C2, C4, paired = TRUE) uses the normal approximation here
    # (ties), reproduced by scipy's asymptotic method with continuity correction
    res = cdplot.compare(benavoli, test="wilcoxon", correction="none")
    assert res.pvalues.loc["C2", "C4"] == pytest.approx(0.0002, abs=5e-5)
    ref = stats.wilcoxon(benavoli["C2"], benavoli["C4"], correction=True, method="asymptotic")
    assert res.pvalues.loc["C2", "C4"] == pytest.approx(ref.pvalue, rel=1e-12)
    pool = cdplot.compare(benavoli[["C2", "C4", "C7"]], test="wilcoxon", correction="none")
    assert pool.pvalues.loc["C2", "C4"] == res.pvalues.loc["C2", "C4"]


# --- Cornuéjols' slides (Japkowicz & Shah 2011, p. 235) -------------------------------------


def test_japkowicz_nb_vs_svm():
    nb = [0.9643, 0.7342, 0.7230, 0.7170, 0.7167, 0.7436, 0.7063, 0.8321, 0.9822, 0.6962]
    svm = [0.9944, 0.8134, 0.9151, 0.6616, 0.7167, 0.7708, 0.6221, 0.8063, 0.9358, 0.9990]
    data = pd.DataFrame({"NB": nb, "SVM": svm})
    res = cdplot.compare(data, test="wilcoxon", correction="none")
    # the slide: zero difference removed, W_s1 = 28 (SVM), W_s2 = 17 (NB), T = 17
    assert res.statistics.loc["SVM", "NB"] == 28.0
    assert res.statistics.loc["NB", "SVM"] == 17.0
    # R's default uses the normal approximation because of the zero:
    # z = (17 - 22.5 + 0.5) / sqrt(9 * 10 * 19 / 24), p = 2 Phi(z)
    z = (17 - 22.5 + 0.5) / math.sqrt(9 * 10 * 19 / 24)
    assert res.pvalues.loc["NB", "SVM"] == pytest.approx(2 * stats.norm.cdf(z), rel=1e-12)
    # exact on the 9 non-zero differences: scipy's exact p = 0.570 (tests/reference/paper-values.md)
    exact = cdplot.compare(data, test="wilcoxon", correction="none", exact=True)
    assert round(exact.pvalues.loc["NB", "SVM"], 3) == 0.570

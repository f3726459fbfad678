"""Conover's post-hoc test after Friedman and Page's L test.

References: ``tests/reference/conover_page_r.csv`` from ``make_conover_page_r.R``
(base R 4.2.2; Conover 1999 eq. 5.8.11 and the PMCMRplus ``frdAllPairsConoverTest`` /
``pageTest`` formulas written out in R), and ``scipy.stats.page_trend_test`` (an
independent implementation of Page's test, exact and asymptotic).
"""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pytest
from _helpers import r_cases, run
from scipy import stats

import cdplot
from cdplot.stats._conover import conover_friedman_test
from cdplot.stats._page import page_test

TABLES, VALUES = r_cases("conover_page_r.csv")


@pytest.mark.parametrize("case", sorted(TABLES))
def test_conover_equals_the_book_formula_in_r(case):
    y, ref = TABLES[case], VALUES[case]
    res = conover_friedman_test(y)
    k = y.shape[1]
    for i in range(k):
        for j in range(i + 1, k):
            # R: abs(R_i - R_j) / sqrt(2 (N A1 - sum R^2) / ((N-1)(k-1))); 2 pt(-t, df)
            assert res.statistic[i, j] == pytest.approx(ref["conover_t", i, j], rel=1e-13)
            assert res.pvalue[i, j] == pytest.approx(ref["conover_p", i, j], rel=1e-10)


def test_conover_differs_from_pmcmrplus_only_through_its_t2():
    """PMCMRplus before 1.9.10: T2 from sum(R.sum), different p-values unless the rank sums
    are equal (fixed in 1.9.10; see tests/test_conover_pmcmrplus.py)."""
    y, ref = TABLES[1], VALUES[1]  # Demšar (2006) Table 6
    res = conover_friedman_test(y)
    assert res.pvalue[0, 3] != pytest.approx(ref["pmcmr_p", 0, 3], rel=1e-3)
    # the t statistics are proportional: same ranking of pairs
    ratio = [res.statistic[i, j] / ref["pmcmr_t", i, j] for i, j in [(0, 1), (0, 3), (2, 3)]]
    assert np.allclose(ratio, ratio[0], rtol=1e-12)


def test_conover_through_compare_and_cli(capsys):
    data = cdplot.datasets.load("demsar2006")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cdplot.PoolDependenceWarning)
        res = cdplot.compare(data, test="conover", correction="holm")
        ctl = cdplot.compare(data, test="conover", control="C4.5")
    raw = conover_friedman_test(TABLES[1]).pvalue
    names = res.algorithms
    assert res.pvalues.loc[names[0], names[3]] == pytest.approx(raw[0, 3], rel=1e-14)
    assert ctl.adjusted_pvalues.index.tolist() == names[1:]
    csv_path = Path(cdplot.__file__).parent / "datasets" / "demsar2006.csv"
    code, out, err = run(["compare", csv_path, "--test", "conover", "--correction", "rom"], capsys)
    assert code == 0, err
    assert "Conover test and the Rom correction" in out


@pytest.mark.parametrize("case", sorted(TABLES))
def test_page_normal_approximation_equals_pmcmrplus(case):
    y, ref = TABLES[case], VALUES[case]
    two = page_test(y, alternative="two-sided", method="asymptotic")
    greater = page_test(y, alternative="greater", method="asymptotic")
    assert two.statistic == ref["page_L", -1, -1]  # R: sum(colSums(rank rows) * 1:k)
    assert two.pvalue == pytest.approx(ref["page_p_two", -1, -1], rel=1e-12)
    assert greater.pvalue == pytest.approx(ref["page_p_greater", -1, -1], rel=1e-12)


@pytest.mark.parametrize("seed", range(6))
def test_page_agrees_with_scipy_page_trend_test(seed):
    rng = np.random.default_rng(seed)
    n, k = [(4, 3), (6, 4), (10, 5), (12, 7), (3, 8), (20, 3)][seed]
    y = rng.normal(size=(n, k)) + 0.4 * np.arange(k)
    ref = stats.page_trend_test(y, method="exact")  # scipy, exact null distribution
    res = page_test(y, method="exact")
    assert res.statistic == ref.statistic
    assert res.pvalue == pytest.approx(ref.pvalue, rel=1e-12)
    assert page_test(y).pvalue == res.pvalue  # small tables: exact by default, as scipy
    asym = stats.page_trend_test(y, method="asymptotic")
    assert page_test(y, method="asymptotic", continuity=False).pvalue == pytest.approx(
        asym.pvalue, rel=1e-12
    )
    less = page_test(y[:, ::-1], alternative="less", method="exact")
    assert less.pvalue == pytest.approx(ref.pvalue, rel=1e-12)


def test_page_refuses_bad_input():
    with pytest.raises(cdplot.CdplotInputError, match="asymptotic"):
        page_test(np.array([[1, 1, 2], [1, 2, 3.0]]), method="exact")
    with pytest.raises(cdplot.CdplotInputError, match="k >= 3"):
        page_test(np.ones((4, 2)))

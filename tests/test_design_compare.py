"""Durbin's test (balanced incomplete block designs) and Page's L test from compare() and the CLI.

References (R, not cdplot): ``tests/reference/durbin_r.csv`` from ``make_durbin_r.R``
(PMCMRplus ``durbinTest`` / ``durbinAllPairsTest`` formulas in base R 4.2.2, and
``p.adjust(p, "holm")``), and ``tests/reference/conover_page_r.csv`` from
``make_conover_page_r.R`` (PMCMRplus ``pageTest``, normal approximation with continuity).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from _helpers import quiet_compare, run
from test_conover_page import TABLES as PAGE_TABLES
from test_conover_page import VALUES as PAGE_VALUES
from test_durbin import TABLES as DURBIN_TABLES
from test_durbin import VALUES as DURBIN_VALUES

import cdplot


def _frame(y: np.ndarray) -> pd.DataFrame:
    names = [f"A{j + 1}" for j in range(y.shape[1])]
    return pd.DataFrame(y, columns=names, index=[f"d{i + 1}" for i in range(y.shape[0])])


@pytest.mark.parametrize("case", sorted(DURBIN_TABLES))
def test_durbin_from_compare_equals_r(case):
    y, ref = DURBIN_TABLES[case], DURBIN_VALUES[case]
    data = _frame(y)
    res = quiet_compare(data, omnibus="durbin", test="durbin", correction="holm")
    assert res.omnibus.name == "Durbin chi-square"
    assert res.omnibus.statistic == pytest.approx(ref["T1", -1, -1], rel=1e-12)  # R: T1
    assert res.omnibus.pvalue == pytest.approx(ref["p1", -1, -1], rel=1e-10)  # R: pchisq
    assert res.iman_davenport.statistic == pytest.approx(ref["T2", -1, -1], rel=1e-12)  # R: T2
    assert res.iman_davenport.pvalue == pytest.approx(ref["p2", -1, -1], rel=1e-10)  # R: pf
    assert res.friedman is None
    t = y.shape[1]
    for i in range(t):
        for j in range(i + 1, t):
            a, b = f"A{i + 1}", f"A{j + 1}"
            # R: 2 pt(t, df, lower = FALSE); p.adjust(p, "holm")
            assert res.pvalues.loc[a, b] == pytest.approx(ref["p", i, j], rel=1e-10)
            assert res.adjusted_pvalues.loc[a, b] == pytest.approx(ref["p_holm", i, j], rel=1e-10)
    # test="durbin" alone picks Durbin's omnibus test; the missing results are the design's
    alone = quiet_compare(data, test="durbin", correction="holm")
    assert alone.omnibus == res.omnibus
    assert "balanced incomplete block design" in alone.summary()
    assert "Durbin all-pairs test" in alone.summary()


def test_durbin_against_a_control_and_permuted_columns():
    y, ref = DURBIN_TABLES[3], DURBIN_VALUES[3]  # all triples of 5 algorithms
    data = _frame(y)
    res = quiet_compare(data, test="durbin", control="A1", correction="none")
    for j in range(1, y.shape[1]):
        # R: the raw p of (A1, Aj), unadjusted
        assert res.adjusted_pvalues[f"A{j + 1}"] == pytest.approx(ref["p", 0, j], rel=1e-10)
    full = quiet_compare(data, test="durbin", correction="holm")
    shuffled = quiet_compare(data[data.columns[::-1]], test="durbin", correction="holm")
    names = list(data.columns)
    assert shuffled.omnibus.statistic == full.omnibus.statistic  # canonical order: same bits
    np.testing.assert_array_equal(
        shuffled.adjusted_pvalues.loc[names, names].to_numpy(),
        full.adjusted_pvalues.loc[names, names].to_numpy(),
    )


def test_a_table_that_is_not_a_bibd_is_refused_with_the_fix():
    y = DURBIN_TABLES[1].copy()
    y[0, 0] = np.nan  # dataset 1 now has fewer results than the others
    for kwargs in ({"test": "durbin"}, {"omnibus": "durbin"}):
        with pytest.raises(cdplot.CdplotInputError) as info:
            quiet_compare(_frame(y), **kwargs)
        message = str(info.value)
        assert "balanced incomplete block design" in message
        assert "missing='keep'" in message and "skillings-mack" in message


def test_other_tests_still_refuse_the_incomplete_design():
    with pytest.raises(cdplot.CdplotInputError, match="missing"):
        quiet_compare(_frame(DURBIN_TABLES[1]), test="conover")


#: cases whose p-value compare() takes from the normal approximation (ties, k > 8,
#: N > 12 with k > 3, or N > 20: scipy's rule), the form of PMCMRplus pageTest
PAGE_CASES = [1, 2, 4, 6, 7, 8, 10, 12, 13, 14, 15, 16, 17, 18, 19]


@pytest.mark.parametrize("case", PAGE_CASES)
def test_page_from_compare_equals_pmcmrplus(case):
    y, ref = PAGE_TABLES[case], PAGE_VALUES[case]
    data = _frame(y)
    order = list(data.columns)  # R: pageTest(y): scores expected to increase along y's columns
    res = quiet_compare(data, omnibus="page", order=order)
    assert res.omnibus.statistic == ref["page_L", -1, -1]  # R: L
    assert res.omnibus.pvalue == pytest.approx(ref["page_p_greater", -1, -1], rel=1e-12)
    assert " < ".join(order) in res.omnibus.name
    assert f"of the order {' < '.join(order)}" in " ".join(res.summary().split())


def test_page_order_is_checked():
    data = cdplot.datasets.load("demsar2006")
    names = ["C4.5", "C4.5+m", "C4.5+cf", "C4.5+m+cf"]
    with pytest.raises(cdplot.CdplotInputError, match="expected to perform worst"):
        cdplot.compare(data, omnibus="page")
    with pytest.raises(cdplot.CdplotInputError, match=r"missing \['C4.5\+m\+cf'\]"):
        cdplot.compare(data, omnibus="page", order=names[:3])
    with pytest.raises(cdplot.CdplotInputError, match="add omnibus='page'"):
        cdplot.compare(data, order=names)
    with pytest.raises(cdplot.CdplotInputError, match="list of algorithm names"):
        cdplot.compare(data, omnibus="page", order="C4.5,C4.5+m")
    reverse = cdplot.compare(data, omnibus="page", order=names[::-1])
    # R: pageTest on the reversed columns: L' = N k (k + 1)^2 / 2 - L = 14 * 4 * 25 / 2 - 369
    assert reverse.omnibus.statistic == 700 - 369


def test_cli_durbin_and_page(tmp_path, capsys):
    y = DURBIN_TABLES[1]
    path = tmp_path / "bibd.csv"
    _frame(y).rename_axis("dataset").to_csv(path, na_rep="")
    code, out, err = run(
        ["compare", path, "--test", "durbin", "--omnibus", "durbin", "--correction", "holm"],
        capsys,
    )
    assert code == 0, err
    assert "Durbin chi2(6) = 8.25" in out  # R: T1 = 8.25 (case 1)
    code, _, err = run(["compare", path, "--test", "durbin", "--omnibus", "friedman"], capsys)
    assert code == 2
    assert "--omnibus friedman needs a complete table" in err
    demsar = cdplot.datasets.load("demsar2006")
    src = tmp_path / "demsar.csv"
    demsar.to_csv(src)
    order = "C4.5,C4.5+m,C4.5+cf,C4.5+m+cf"
    code, out, err = run(["compare", src, "--omnibus", "page", "--order", order], capsys)
    assert code == 0, err
    text = " ".join(out.split())
    assert "L = 369" in text  # R: pageTest(demsar) L = 369 (conover_page_r.csv case 1)
    assert "of the order C4.5 < C4.5+m < C4.5+cf < C4.5+m+cf" in text
    code, _, err = run(["compare", src, "--omnibus", "page"], capsys)
    assert code == 2
    assert "--order" in err


def test_the_procedure_and_json_keep_the_design_and_the_order():
    data = cdplot.datasets.load("demsar2006")
    order = ["C4.5", "C4.5+m", "C4.5+cf", "C4.5+m+cf"]
    res = cdplot.compare(data, omnibus="page", order=order)
    assert res.procedure.omnibus == "page" and res.procedure.order == tuple(order)
    back = cdplot.load_result(res.to_json())
    assert back.procedure == res.procedure
    assert back.omnibus.statistic == 369  # R: pageTest L (conover_page_r.csv case 1)
    durbin = quiet_compare(_frame(DURBIN_TABLES[1]), test="durbin")
    assert durbin.procedure.omnibus == "durbin"
    assert cdplot.load_result(durbin.to_json()).iman_davenport.name == "Durbin F"

"""Paper tables (compact ranks-and-groups, floats, sizes), the results table, the seams.

Checked against the paper: Demšar (2006) Table 2's win/tie/loss counts of C4.5+m against
C4.5 (10/2/2) in the results table's W/T/L row. Everything else is checked for
consistency with the result it renders (ranks, groups, significance, wins) and for
structure (booktabs rules, escaping, Markdown/HTML parsing); the LaTeX is compiled for real
in ``test_latex_paper.py``.
"""

from __future__ import annotations

import inspect
import re

import numpy as np
import pandas as pd
import pytest
from _helpers import quiet_compare

import cdplot
import cdplot.report as report
from cdplot.report._model import group_letters
from cdplot.stats._caveats import caveats, min_attainable_pvalue
from cdplot.stats._seams import Seam


def table(k: int, n: int = 30, seed: int = 3, names=None) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    names = names or [f"alg_{i}" for i in range(k)]
    return pd.DataFrame(
        rng.normal(size=(n, k)) * 0.4 + np.linspace(1.0, 0.0, k),
        columns=names,
        index=[f"data_{j}" for j in range(n)],
    )


# --------------------------------------------------------------------------- seams


SEAMS = {
    "to_latex": report.to_latex,
    "to_markdown": report.to_markdown,
    "summary": report.summary,
    "__str__": report.result_text,
    "_repr_html_": report._html.notebook_html,
}


@pytest.mark.parametrize("name", sorted(SEAMS))
def test_seams_share_signature_and_docstring(demsar, name):
    res = cdplot.compare(demsar)
    seam = inspect.getattr_static(cdplot.ComparisonResult, name)
    assert isinstance(seam, Seam)
    target = SEAMS[name]
    method = getattr(res, name)
    params = list(inspect.signature(target).parameters.values())
    assert params[0].name == "result"
    assert list(inspect.signature(method).parameters.values()) == params[1:]
    assert method.__doc__ == target.__doc__
    assert getattr(cdplot.ComparisonResult, name) is target


def test_seams_call_the_report_functions(demsar):
    res = cdplot.compare(demsar)
    assert str(res) == report.result_text(res)
    assert res.to_latex(compact=True, label="x") == report.to_latex(res, compact=True, label="x")
    assert res.to_markdown(mark="star") == report.to_markdown(res, mark="star")
    assert res.summary() == report.summary(res)
    with pytest.raises(TypeError):
        res.to_latex(no_such_option=1)


def test_every_public_method_of_the_result_is_declared_once():
    # the presentation methods are seams, not copies of the report functions' signatures
    src = inspect.getsource(cdplot.ComparisonResult)
    for name in ("to_latex", "to_markdown", "summary", "_repr_html_", "__str__"):
        assert f"def {name}(" not in src


# --------------------------------------------------------------------------- caveats


def test_min_attainable_pvalue():
    # exact null distributions: all N differences of one sign -> two-sided p = 2 / 2**N
    # (scipy.stats.wilcoxon([1, 2, 3, 4, 5, 6]).pvalue == 0.03125 == 2 / 2**6)
    assert min_attainable_pvalue("wilcoxon", 6) == 0.03125
    assert min_attainable_pvalue("sign", 1) == 1.0
    assert min_attainable_pvalue("mean-ranks", 3) is None


def test_caveats_are_decided_in_stats_and_printed_by_every_report(demsar):
    few = quiet_compare(demsar.iloc[:6])  # 2/2^6 = 0.031 > 0.05 / 6
    assert any("alpha / 6" in c for c in few.caveats)
    five = quiet_compare(demsar.iloc[:5])  # 2/2^5 = 0.0625 > 0.05: nothing can be significant
    assert any("no pair can be significant" in c for c in five.caveats)
    assert caveats(few) == few.caveats
    summary = few.summary().replace("\n", " ")
    for c in few.caveats:
        assert "Warning: " + " ".join(c.split()) in " ".join(summary.split())
    assert cdplot.compare(demsar).caveats == ()


def test_omnibus_decision_comes_from_the_result(demsar):
    res = quiet_compare(demsar.iloc[:8, :2] * [1, 1.0001])
    assert res.omnibus_rejects is bool(res.iman_davenport.pvalue <= res.alpha)
    if not res.omnibus_rejects:
        assert "omnibus test did not reject" in res.caveats[0]


# --------------------------------------------------------------------------- compact LaTeX


def test_group_letters_match_the_groups():
    res = quiet_compare(table(8), test="wilcoxon", correction="holm")
    letters = group_letters(res)
    assert set(letters) == set(res.algorithms)
    for a in res.algorithms:
        for b in res.algorithms:
            if a == b:
                continue
            share = bool(set(letters[a]) & set(letters[b]))
            in_group = any(a in g and b in g for g in res.groups)
            assert share == in_group
            if share:  # sharing a letter means: not significantly different
                assert not res.significant.loc[a, b]


def test_compact_latex_fits_three_columns_and_names_uncovered_pairs():
    res = quiet_compare(
        table(8, names=["rf_500", "k-NN & PCA", "Ours #1", "$baseline", "50%", "e", "f", "g"])
    )
    tex = res.to_latex(compact=True, label="tab:c")
    assert r"\begin{tabular}{lrl}" in tex
    letters = group_letters(res)
    rows = re.findall(r"^(.*) & ([0-9.]+) & ([a-zA-Z,]*) \\\\$", tex, flags=re.M)
    assert [r[2] for r in rows] == [letters[a] for a in res.average_ranks.index]
    assert [float(r[1]) for r in rows] == pytest.approx(res.average_ranks.to_numpy(), abs=0.005)
    assert (
        r"rf\_500" in tex and r"k-NN \& PCA" in tex and r"Ours \#1" in tex and r"\$baseline" in tex
    )
    assert "share a letter" in tex and r"\label{tab:c}" in tex
    for a, b in res.uncovered_pairs:
        tail = tex.split("sharing no letter")[1]
        assert f"{report.escape_latex(a)}--{report.escape_latex(b)}" in tail


def test_latex_float_options(demsar):
    res = cdplot.compare(demsar)
    tex = res.to_latex(
        table_environment="table*",
        size="footnotesize",
        resize=True,
        caption="My caption",
        label="t",
    )
    lines = tex.splitlines()
    assert lines[0] == r"\begin{table*}[htbp]" and lines[-1] == r"\end{table*}"
    assert lines[2] == r"\footnotesize"
    assert r"\caption{My caption}" in tex and r"\label{t}" in tex
    assert r"\resizebox{\textwidth}{!}{%" in tex
    assert r"\resizebox{\columnwidth}{!}{%" in res.to_latex(resize=True)
    assert res.to_latex(size=r"\small").splitlines()[2] == r"\small"
    with pytest.raises(cdplot.CdplotInputError, match="not a valid value for table_environment"):
        res.to_latex(table_environment="figure")
    with pytest.raises(cdplot.CdplotInputError, match="not a valid value for size"):
        res.to_latex(size="huge-ish")
    with pytest.raises(cdplot.CdplotInputError, match="not a valid value for mark"):
        res.to_latex(mark="underline")
    # the existing options keep working
    assert r"\begin{tabular}" in res.to_latex(environment=False).splitlines()[0]


def test_compact_against_a_control(demsar):
    res = cdplot.compare(demsar, control="C4.5")
    tex = res.to_latex(compact=True, environment=False)
    assert r"\begin{tabular}{lrr}" in tex and r"\emph{control}" in tex


# --------------------------------------------------------------------------- results table


def test_results_table_demsar(demsar):
    res = cdplot.compare(demsar)
    t = cdplot.results_table(res, control="C4.5")
    frame = t.to_frame()
    # Demšar (2006) Table 2: C4.5+m against C4.5 wins 10, ties 2, loses 2
    assert frame.loc["W/T/L vs C4.5", "C4.5+m"] == "10/2/2"
    assert frame.loc["W/T/L vs C4.5", "C4.5"] == "\N{EN DASH}"
    assert list(frame.index[:-3]) == list(res.datasets)
    assert list(frame.columns.str.rstrip("\N{DAGGER}")) == list(res.algorithms)
    assert frame.loc["Average rank"].tolist() == [
        f"{res.average_ranks[a]:.2f}" for a in res.algorithms
    ]
    # markers: exactly the algorithms significantly different from C4.5
    marked = [c.rstrip("\N{DAGGER}") for c in frame.columns if c.endswith("\N{DAGGER}")]
    assert marked == [a for a in res.algorithms if a != "C4.5" and res.significant.loc["C4.5", a]]


@pytest.mark.parametrize("higher", [True, False])
def test_results_table_bold_and_underline_follow_the_ranks(higher):
    scores = pd.DataFrame(
        {"a": [0.9, 0.5, 0.7], "b": [0.8, 0.5, 0.6], "c": [0.7, 0.4, 0.8]},
        index=["x_1", "y", "z"],
    )
    res = quiet_compare(scores, higher_is_better=higher)
    tex = cdplot.results_table(res).to_latex(environment=False)
    rows = {r.split(" & ")[0]: r.split(" & ")[1:] for r in tex.splitlines() if " & " in r}
    if higher:
        assert rows[r"x\_1"] == [r"\textbf{0.900}", r"\underline{0.800}", "0.700 \\\\"]
        assert rows["y"] == [r"\textbf{0.500}", r"\textbf{0.500}", r"\underline{0.400} \\"]
    else:
        assert rows[r"x\_1"] == ["0.900", r"\underline{0.800}", r"\textbf{0.700} \\"]
        assert rows["y"] == [r"\underline{0.500}", r"\underline{0.500}", r"\textbf{0.400} \\"]
    assert "W/T/L" not in tex  # no control asked, none in the result


def test_results_table_std_markdown_html(demsar):
    from html.parser import HTMLParser

    res = cdplot.compare(demsar)
    std = res.scores * 0 + 0.01
    object.__setattr__(res, "score_std", std)  # as aggregated runs provide
    t = cdplot.results_table(res, control="C4.5+m+cf", decimals=2)
    md = t.to_markdown()
    assert "| adult (sample) | 0.76 ± 0.01 |" in md
    assert "mean ± standard deviation" in md
    assert r"$\pm$" in t.to_latex()
    assert "0.76 ± 0.01" in t.to_frame().iloc[0, 0]
    assert "0.76" in cdplot.results_table(res, std=False).to_frame().iloc[0, 0]
    assert "±" not in cdplot.results_table(res, std=False).to_frame().iloc[0, 0]
    page = t.to_html()
    parser = HTMLParser()
    parser.feed(page)
    assert page.count("<tr>") == len(res.datasets) + 1 + 3
    assert "<strong>" in page and "<u>" in page


def test_results_table_refuses_bad_input(demsar):
    res = cdplot.compare(demsar, control="C4.5")
    with pytest.raises(cdplot.CdplotInputError, match="control='C4.5'"):
        cdplot.results_table(res, control="C4.5+m")
    with pytest.raises(cdplot.CdplotInputError, match="unknown control"):
        cdplot.results_table(res, control="nope")
    with pytest.raises(cdplot.CdplotInputError, match="decimals"):
        cdplot.results_table(res, decimals=-1)
    assert cdplot.results_table(res).control == "C4.5"


def test_results_table_and_report_are_lazy_in_cdplot():
    import importlib

    assert "results_table" in cdplot.__all__ and "results_table" in dir(cdplot)
    assert cdplot.__getattr__("results_table") is cdplot.report._results_table.results_table
    assert cdplot.__getattr__("report") is importlib.import_module("cdplot.report")


# --------------------------------------------------------------------------- speed


def test_renderings_do_not_look_up_pairs_one_by_one(monkeypatch):
    """At k = 100 (4,950 pairs) the renderings index arrays: no per-pair DataFrame.loc."""
    res = quiet_compare(table(100, n=20))
    calls = {"n": 0}
    original = pd.DataFrame.loc.fget

    def counting(self):
        calls["n"] += 1
        return original(self)

    monkeypatch.setattr(pd.DataFrame, "loc", property(counting))
    res.to_frame()
    res.summary()
    str(res)
    res.to_markdown()
    report.to_html(res, diagram=False)
    assert calls["n"] < 100  # was 34,650 scalar lookups for summary() -> to_frame()


# --------------------------------------------------------------------------- other omnibus tests


def test_reports_follow_the_omnibus_test_the_result_carries(demsar):
    """Results whose omnibus test is not Friedman's (e.g. Quade's F, or Skillings-Mack
    without Friedman's for tables with missing results) are reported and judged by it."""
    res = cdplot.compare(demsar)
    assert res.omnibus_rejects and "omnibus test did not reject" not in " ".join(res.caveats)
    quade = cdplot.OmnibusResult(0.5, 0.7, (3.0, 39.0), "Quade F")
    object.__setattr__(res, "omnibus", quade)  # as results with a chosen omnibus test carry
    assert not res.omnibus_rejects  # decided by Quade's p = 0.7, not Iman-Davenport's
    assert "omnibus test did not reject" in res.caveats[0]
    assert "Quade F(3, 39) = 0.500, p = 0.700" in str(res)
    assert "Omnibus test: Quade F(3, 39) = 0.50, p = 0.700; it does not reject" in " ".join(
        res.summary().split()
    )
    sm = cdplot.OmnibusResult(12.0, 0.0074, 3.0, "Skillings-Mack chi-square")
    for name, value in (("friedman", None), ("iman_davenport", None), ("omnibus", sm)):
        object.__setattr__(res, name, value)
    assert res.omnibus_rejects
    assert "Skillings-Mack chi2(3) = 12.000, p = 0.007" in str(res)
    assert "Skillings\N{EN DASH}Mack χ²(3)" in res.to_markdown()
    assert r"Skillings--Mack $\chi^2(3) = 12.00$" in res.to_latex()
    assert "Skillings\N{EN DASH}Mack χ²(3)" in report.to_html(res, diagram=False)
    assert "Omnibus test: Skillings-Mack chi2(3) = 12.00" in res.summary()
    rm = cdplot.OmnibusResult(4.4, 0.009, (3.0, 39.0), "repeated-measures ANOVA F")
    object.__setattr__(res, "omnibus", rm)
    assert r"repeated-measures ANOVA $F(3, 39) = 4.40$" in res.to_latex()


def test_results_table_with_missing_results(demsar):
    """Missing scores (tables analysed with missing results) show a dash and mark nothing."""
    res = cdplot.compare(demsar)
    scores, ranks = res.scores.copy(), res.ranks.copy()
    scores.iloc[0, 1] = np.nan
    ranks.iloc[0, :] = np.nan  # a dataset left out of the ranking
    object.__setattr__(res, "scores", scores)
    object.__setattr__(res, "ranks", ranks)
    t = cdplot.results_table(res)
    assert t.to_frame().iloc[0, 1] == "\N{EN DASH}"
    assert not t.best.iloc[0].any() and not t.second.iloc[0].any()
    assert r"\textbf" not in t.to_latex(environment=False).splitlines()[4]


def test_results_table_shows_display_names_escaped_per_format(demsar):
    res = cdplot.compare(demsar, labels={"C4.5+m+cf": "Tuned & pruned_C4.5"})
    table = cdplot.results_table(res, control="C4.5+m+cf")
    assert list(table.to_frame().columns)[-1].startswith("Tuned & pruned_C4.5")
    assert r"Tuned \& pruned\_C4.5" in table.to_latex(environment=False)
    assert "vs Tuned &amp; pruned_C4.5" in table.to_html()
    assert "C4.5+m+cf" not in table.to_markdown()


def test_env_keyword_is_a_deprecated_alias_of_table_environment():
    # ``environment`` spelled out; ``env=`` warns and means the same
    res = cdplot.compare(cdplot.datasets.load("demsar2006"))
    new = res.to_latex(table_environment="table*")
    with pytest.warns(DeprecationWarning, match=r"env=\.\.\.\) is deprecated"):
        old = res.to_latex(env="table*")
    assert old == new and r"\begin{table*}" in new
    with pytest.raises(cdplot.CdplotInputError, match="pass table_environment= only"):
        res.to_latex(env="table*", table_environment="table")

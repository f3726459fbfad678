"""Rank intervals and effect sizes where users look: summary(), Markdown, LaTeX, HTML,
JSON and the command line (--effect-size, --rank-intervals).

The numbers shown are those of cdplot.rank_intervals / cdplot.effect_sizes (checked against
R and definitions in test_rank_intervals.py and test_effect_sizes.py); here the tests check
that they reach each output, exactly and only when passed (intervals=, effects=).
"""

from __future__ import annotations

import json
import shutil

import numpy as np
import pytest
from _helpers import quiet_compare

import cdplot
from cdplot._json import result_from_json, result_to_json
from cdplot.cli import main
from cdplot.report._intervals import rank_interval_sentence


def fresh(name="benavoli2016", **kwargs):
    return quiet_compare(cdplot.datasets.load(name), **kwargs)


def test_sentence_names_ties_shared_and_single_intervals():
    names = ["A", "B", "C", "D", "E", "F"]
    low = np.array([1, 1, 1, 3, 3, 6])
    high = np.array([3, 3, 3, 6, 6, 6])
    assert rank_interval_sentence(names, low, high) == (
        "ranks 1–3 are statistically tied (A, B, C); ranks of D, E: 3–6; rank of F: 6"
    )
    many = rank_interval_sentence(list("ABCDEFGH"), np.arange(1, 9), np.arange(1, 9), limit=3)
    assert many.endswith("rank of C: 3; and 5 more")


def test_summary_speaks_in_test_intervals_without_asking():
    res = fresh()
    ri = cdplot.rank_intervals(fresh(), n_boot=200)
    text = " ".join(res.summary().split())
    assert "Rank intervals (95 % simultaneous, from the significant pairs)" in text
    for a, lo, hi in zip(ri.algorithms, ri.low, ri.high, strict=True):
        assert f"{a}" in text and (f"{lo}–{hi}" in text or lo == hi)


@pytest.mark.parametrize(
    "options", [{"control": "C1"}, {"correction": "none"}], ids=["control", "no-fwer"]
)
def test_summary_has_no_test_intervals_without_their_guarantee(options):
    assert "Rank intervals" not in fresh(**options).summary()


def test_summary_and_reports_show_what_is_passed():
    res = fresh("demsar2006")
    ri = res.rank_intervals("bootstrap", n_boot=500, random_state=0)
    fr = res.effect_sizes("mean", rope=0.01)
    given = {"intervals": ri, "effects": fr}
    text = " ".join(res.summary(**given).split())
    assert "paired bootstrap over datasets" in text
    first = fr.iloc[0]
    shown = f"{first['estimate']:.3g} [{first['low']:.3g}, {first['high']:.3g}]"
    assert shown in text and f"({first['practical']})" in text
    md = res.to_markdown(**given)
    assert "| Pair | Δ [95 % CI] |" in md and shown in md
    assert f"| {ri.algorithms[0]} | {ri.average_rank[0]:.2f} | " in md
    tex = res.to_latex(**given)
    assert r"$\Delta$ [95\,\% CI]" in tex and r"Rank [95 \% CI]" in tex
    assert tex.count(r"\begin{tabular}") == 3
    page = cdplot.report.to_html(res, diagram=False, **given)
    assert 'id="effect-sizes"' in page and 'id="rank-intervals"' in page


def test_reports_unchanged_when_nothing_is_passed():
    res = fresh("demsar2006")
    res.rank_intervals("bootstrap", n_boot=200, random_state=0)  # computed, not passed
    res.effect_sizes("mean")
    assert "Δ [" not in res.to_markdown()
    assert r"\Delta" not in res.to_latex()
    assert "effect-sizes" not in cdplot.report.to_html(res, diagram=False)
    doc = json.loads(result_to_json(res))
    assert "rank_intervals" not in doc and "effect_sizes" not in doc


def test_json_keys_when_passed():
    res = fresh("demsar2006")
    ri = res.rank_intervals("bootstrap", n_boot=300, random_state=4, simultaneous=False)
    fr = res.effect_sizes("superiority", labels=True)
    doc = json.loads(result_to_json(res, intervals=ri, effects=fr))
    got = doc["rank_intervals"]
    assert got["algorithms"] == list(ri.algorithms)
    assert got["low"] == ri.low.tolist() and got["high"] == ri.high.tolist()
    assert got["p_best"] == pytest.approx(ri.p_best.tolist())
    assert got["simultaneous"] is False and len(got["critical_value"]) == 4
    assert [r["estimate"] for r in doc["effect_sizes"]] == pytest.approx(fr["estimate"].tolist())
    assert doc["effect_sizes"][0]["magnitude"] == fr["magnitude"].iloc[0]
    assert result_from_json(result_to_json(res, intervals=ri, effects=fr)) == res


@pytest.fixture
def demsar_csv(tmp_path):
    path = tmp_path / "demsar.csv"
    shutil.copy(cdplot.datasets.__path__[0] + "/demsar2006.csv", path)
    return path


def test_cli_effect_size_and_rank_intervals(demsar_csv, tmp_path, capsys):
    out = tmp_path / "res.json"
    report = tmp_path / "report.md"
    code = main(
        [
            "compare",
            str(demsar_csv),
            "--effect-size",
            "hodges-lehmann",
            "--rank-intervals",
            "bootstrap",
            "--interval-seed",
            "3",
            "--json",
            str(out),
            "--report",
            str(report),
        ]
    )
    assert code == 0
    printed = " ".join(capsys.readouterr().out.split())
    assert "Effect sizes (Hodges-Lehmann estimate, 95 % CI)" in printed
    doc = json.loads(out.read_text())
    res = fresh("demsar2006")
    expected = res.rank_intervals("bootstrap", random_state=3)
    assert doc["rank_intervals"]["low"] == expected.low.tolist()
    assert doc["rank_intervals"]["p_best"] == pytest.approx(expected.p_best.tolist())
    hl = res.effect_sizes("hodges-lehmann")
    assert [r["high"] for r in doc["effect_sizes"]] == pytest.approx(hl["high"].tolist())
    assert "Δ [95 % CI]" in report.read_text(encoding="utf-8")


def test_cli_refusals_name_the_fix(demsar_csv, capsys):
    assert main(["compare", str(demsar_csv), "--effect-size", "glass"]) != 0
    assert "supported values" in capsys.readouterr().err
    code = main(["compare", str(demsar_csv), "--test", "bayes-sign", "--rank-intervals", "test"])
    assert code != 0
    err = capsys.readouterr().err
    assert "family-wise error control" in err and "--rank-intervals bootstrap" in err


def test_mcm_interval_cells_equal_the_paired_t_intervals():
    import matplotlib.pyplot as plt

    res = fresh("demsar2006")
    ax = cdplot.multi_comparison_matrix(res, interval=True, digits=3)
    texts = [t.get_text() for t in ax.texts if t.get_gid() == "mcm-annotation"]
    frame = cdplot.effect_sizes(res, measure="mean")
    for row in frame.itertuples():  # R: t.test(a, b, paired=TRUE)$conf.int, see test_effect_sizes
        forward = f"[{row.low:+.3f}, {row.high:+.3f}]"
        backward = f"[{-row.high:+.3f}, {-row.low:+.3f}]"
        assert any(forward in t for t in texts) and any(backward in t for t in texts)
    assert all(len(t.splitlines()) == 4 for t in texts)
    plt.close(ax.get_figure())


@pytest.mark.mpl_image_compare(filename="mcm_intervals_demsar.png")
def test_image_mcm_intervals():
    res = fresh("demsar2006")
    return cdplot.multi_comparison_matrix(res, interval=True).get_figure()

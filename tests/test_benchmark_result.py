"""BenchmarkComparison: its attributes, tables, reports and figures.

Consistency only (the numbers are pinned by tests/test_benchmark_compare.py and the tests
of the model and pair statistics): the tables agree with the parts, the procedure rebuilds
from the names, the reports and figures of a board work on the items in score units, and a
CD diagram of a small benchmark is drawn on the mean-score axis (pytest-mpl baseline).
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

import cdplot
from cdplot.io._benchmark import BenchmarkItems
from cdplot.stats import BenchmarkComparison, ComparisonResult, compare_benchmark, compare_runs


def items(n: int = 120, seed: int = 5, k: int = 4) -> BenchmarkItems:
    rng = np.random.default_rng(seed)
    rates = np.linspace(0.35, 0.8, k)
    x = (rng.random((n, k)) < rates).astype(float)
    names = tuple(f"model-{j}" for j in range(k))
    return BenchmarkItems(names, tuple(f"q{i}" for i in range(n)), x, True, task="arith")


@pytest.fixture(scope="module")
def res():
    return compare_benchmark(items())


def test_it_is_a_comparison_result_with_the_items_as_datasets(res):
    assert isinstance(res, ComparisonResult) and isinstance(res, cdplot.Comparison)
    assert cdplot.BenchmarkComparison is BenchmarkComparison
    assert res.datasets == list(items().items) and res.scores.shape == (120, 4)
    assert res.critical_difference is None and res.critical_difference_units == "score"
    assert repr(res).startswith("BenchmarkComparison(mcnemar+holm, k=4, N=120")
    assert res.design == {
        "n_items": 120, "n_clusters": None, "samples_per_item": None, "binary": True,
        "cluster_robust": False, "task": "arith", "item_column": "item",
        "cluster_column": None, "sample_column": None, "confidence": 0.95,
    }  # fmt: skip


def test_model_statistics_and_differences_read_the_parts(res):
    table = res.model_statistics
    assert list(table.index) == list(res.mean_scores.index)  # best mean first
    stats = res._benchmark.model_statistics
    j = list(res.algorithms).index(table.index[0])
    assert table.iloc[0]["mean"] == stats.mean[j] and table.iloc[0]["high"] == stats.high[j]
    np.testing.assert_allclose(table["mean"], items().frame()[table.index].mean())
    diff = res.differences
    assert len(diff) == 6 and list(diff.columns[:4]) == ["model_1", "model_2", "difference", "low"]
    assert (diff["difference"] >= 0).all()  # the better mean first
    assert diff["pvalue"].is_monotonic_increasing
    x = items().frame()
    row = diff.iloc[0]
    a, b = x[row.model_1], x[row.model_2]
    assert row.wins == int(((a == 1) & (b == 0)).sum())  # items only model_1 solved
    assert row.losses == int(((a == 0) & (b == 1)).sum())
    assert row.difference == pytest.approx(a.mean() - b.mean(), abs=1e-15)
    assert row.adjusted_pvalue == res.adjusted_pvalues.loc[row.model_1, row.model_2]


def test_differences_against_a_control():
    res = compare_benchmark(items(), control="model-0")
    diff = res.differences
    assert len(diff) == 3 and set(diff.model_1) | set(diff.model_2) >= {"model-0"}
    for _, row in diff.iterrows():
        other = row.model_1 if row.model_2 == "model-0" else row.model_2
        assert row.adjusted_pvalue == res.adjusted_pvalues[other]


def test_procedure_rebuilds_from_the_names(res):
    assert res.procedure.test == "mcnemar" and res.procedure.correction == "holm"
    bare = dataclasses.replace(res, _pairwise=dataclasses.replace(res._pairwise, procedure=None))
    assert bare.procedure == res.procedure  # rebuilt from the names


def test_reports_in_every_format(res):
    summary = res.summary()
    assert summary.startswith(
        "4 models compared on one benchmark (arith):\n120 items; 0/1 scores.\n"
    )
    assert "Mean scores with 95% intervals" in summary and "items won" in summary
    assert all(len(line) <= 88 for line in summary.splitlines())
    text = str(res)
    assert text.startswith("Comparison of 4 models on one benchmark: 120 items; 0/1 scores")
    for rendered in (res.to_markdown(), res.to_latex(), res.to_html()):
        assert "model-3" in rendered or "model-{-}3" in rendered
    assert "McNemar" in res.to_markdown()


def test_the_summary_of_a_clustered_benchmark_says_so_in_one_line():
    base = items(n=90)
    clustered = dataclasses.replace(
        base, clusters=np.arange(90) // 2, cluster_ids=tuple(map(str, range(45))),
        n_samples=np.full((90, 4), 5), sample_var=np.zeros((90, 4)),
    )  # fmt: skip
    res = compare_benchmark(clustered)
    lines = res.summary().splitlines()
    assert lines[1] == "90 items, 45 clusters, 5 samples per item; cluster-robust."


def test_two_runs_say_the_difference_and_the_items_won():
    ids = tuple(f"q{i}" for i in range(40))
    base = BenchmarkItems(("m",), ids, np.tile([[1.0], [0.0]], (20, 1)), True)
    new = BenchmarkItems(("m",), ids, np.ones((40, 1)), True)
    res = compare_runs([base, new], names=["base", "new"])
    summary = " ".join(res.summary().split())
    # exact McNemar: 20 discordant items all won by new: p = 2 / 2**20 (R binom.test(0, 20))
    assert "Difference new - base: +0.500" in summary
    assert "p < 0.001" in summary and "new won 20, lost 0 and tied 20 of 40" in summary
    assert res._pairwise.pvalues[0, 1] == pytest.approx(2 / 2**20, rel=1e-12)


def test_rank_intervals_effect_sizes_and_wins_work(res):
    intervals = res.rank_intervals(method="test")
    assert list(intervals.to_frame().index)[0] == res.mean_scores.index[0]
    assert res.effect_sizes("mean").shape[0] == 6
    assert int(res.wins.wins.loc["model-3", "model-0"]) == int(
        (items().frame()["model-3"] > items().frame()["model-0"]).sum()
    )


def test_the_figures_draw_it_on_the_mean_score_axis(res):
    from cdplot.plotting._cd import _on_score_axis

    assert _on_score_axis(res)
    ax = cdplot.cd_diagram(res)
    assert "mean score" in ax.get_xlabel() or any("mean score" in t.get_text() for t in ax.texts)
    assert cdplot.rank_plot(res) is not None
    assert cdplot.apv_heatmap(res) is not None


@pytest.mark.mpl_image_compare(filename="cd_benchmark_score_axis.png")
def test_cd_diagram_of_a_benchmark_baseline():
    res = compare_benchmark(items(n=200, seed=11, k=6), correction="bergmann-hommel")
    return cdplot.cd_diagram(res).figure


def test_markdown_latex_and_html_show_the_means_and_differences(res, demsar):
    md = res.to_markdown()
    assert md.startswith("**4 models on 120 items**")
    assert "| Model | Mean | Interval | Letters |" in md
    assert "| Pair | Difference | Interval | p | Adjusted p | Won | Lost |" in md
    row = res.differences.iloc[0]
    assert f"| {row.model_1} - {row.model_2} | +{row.difference:.3f} |" in md
    latex = res.to_latex()
    assert "of 4 models on 120 items." in latex and "Pair & Difference & Interval" in latex
    page = cdplot.report.to_html(res)
    assert '<section id="means">' in page and "Comparison of 4 models on 120 items" in page
    # a board's reports keep their words and have no such sections
    board = cdplot.compare(demsar)
    assert board.to_markdown().startswith("**4 algorithms on 14 datasets**")
    assert "| Model | Mean |" not in board.to_markdown()
    assert "of 4 algorithms on 14 data sets." in board.to_latex()


@pytest.mark.skipif(not __import__("shutil").which("pdflatex"), reason="needs pdflatex")
def test_the_latex_report_compiles(res, tmp_path):
    import subprocess

    doc = (
        "\\documentclass{article}\\usepackage{booktabs}\\usepackage{graphicx}"
        f"\\begin{{document}}{res.to_latex()}\\end{{document}}"
    )
    (tmp_path / "r.tex").write_text(doc)
    done = subprocess.run(
        ["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "r.tex"],
        cwd=tmp_path, capture_output=True, text=True, check=False, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout[-2000:]


def test_the_page_explores_a_few_hundred_items_not_thousands():
    small = cdplot.report.to_html(compare_benchmark(items(n=120)))
    assert 'id="explore"' in small
    large = cdplot.report.to_html(compare_benchmark(items(n=1500)), diagram=False)
    assert 'id="explore"' not in large and '<section id="means">' in large

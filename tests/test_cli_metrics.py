"""``cdplot compare --score-col A --score-col B``: one comparison and one diagram per metric.

The CLI must give the same numbers as ``cdplot.compare_metrics`` on the same file (read
back through the JSON); the per-metric average ranks are also checked against an
independent reading of the log (pandas ``groupby().mean()`` and ``scipy.stats.rankdata``).
Every refusal is pinned: exit status 2, exactly one ``cdplot: error:`` line in CLI terms.
"""

from __future__ import annotations

import io
import json
import sys

import numpy as np
import pandas as pd
import pytest
from _helpers import run
from scipy.stats import rankdata, wilcoxon

import cdplot
from cdplot._json import results_from_json
from cdplot.io import ALGORITHM_NAMES, DATASET_NAMES, REPETITION_NAMES

ALGORITHMS = ["RandomForest (500 trees)", "LogReg", "SVM_rbf", "kNN"]


def make_log(seed: int = 1) -> pd.DataFrame:
    """12 datasets x 4 algorithms x 5 folds, an accuracy and a fit time per run."""
    rng = np.random.default_rng(seed)
    rows = []
    for d in range(12):
        for j, alg in enumerate(ALGORITHMS):
            for fold in range(5):
                acc = 0.7 + 0.02 * j + rng.normal(0, 0.03)
                fit = (4 - j) * 0.5 + rng.gamma(2.0, 0.3)
                rows.append((alg, f"task{d}", fold, acc, fit))
    return pd.DataFrame(rows, columns=["model", "dataset", "fold", "accuracy", "fit_time"])


@pytest.fixture
def log_csv(tmp_path):
    path = tmp_path / "runs.csv"
    make_log().to_csv(path, index=False)
    return path


METRICS = ["--score-col", "accuracy", "--score-col", "fit_time", "--lower-is-better", "fit_time"]


def test_metrics_json_matches_compare_metrics_and_an_independent_reading(log_csv, tmp_path, capsys):
    target = tmp_path / "m.json"
    code, out, err = run(
        ["compare", log_csv, "--aggregate", "mean", *METRICS, "--json", target], capsys
    )
    assert code == 0, err
    assert "== accuracy ==" in out and "== fit_time (lower is better) ==" in out
    assert out.index("== accuracy ==") < out.index("== fit_time (lower is better) ==")
    doc = json.loads(target.read_text())
    assert list(doc) == ["accuracy", "fit_time"]
    assert doc["accuracy"]["settings"]["higher_is_better"] is True
    assert doc["fit_time"]["settings"]["higher_is_better"] is False
    assert doc["fit_time"]["aggregation"]["columns"] == ["fold"]
    assert doc["fit_time"]["input_notes"] == ["scores are means over 5 folds"]
    back = results_from_json(target.read_text())
    ref = cdplot.compare_metrics(
        make_log(), {"accuracy": "higher", "fit_time": "lower"}, aggregate="mean"
    )
    log = make_log()
    for metric, higher in (("accuracy", True), ("fit_time", False)):
        pd.testing.assert_frame_equal(back[metric].adjusted_pvalues, ref[metric].adjusted_pvalues)
        assert back[metric].groups == ref[metric].groups
        # independent: means per cell with pandas, ranks per dataset with scipy
        means = log.pivot_table(index="dataset", columns="model", values=metric, aggfunc="mean")
        ranks = np.vstack([rankdata(-row if higher else row) for row in means.to_numpy()])
        expected = pd.Series(ranks.mean(axis=0), index=means.columns)
        for alg in ALGORITHMS:
            assert back[metric].average_ranks[alg] == pytest.approx(expected[alg], abs=1e-12)
        # one pair against scipy's exact Wilcoxon signed-rank test
        a, b = means["kNN"].to_numpy(), means["LogReg"].to_numpy()
        p = wilcoxon(a, b).pvalue  # scipy.stats.wilcoxon, two-sided, exact for N = 12
        assert back[metric].pvalues.loc["kNN", "LogReg"] == pytest.approx(p, rel=1e-12)


def test_metrics_one_figure_one_diagram_per_metric(log_csv, tmp_path, capsys, monkeypatch):
    import cdplot.plotting

    seen = {}
    original = cdplot.plotting.cd_diagrams

    def spy(results, **kwargs):
        seen["keys"] = list(results)
        seen["higher"] = [r.higher_is_better for r in results.values()]
        fig = original(results, **kwargs)
        seen["axes"] = len(fig.axes)
        return fig

    monkeypatch.setattr(cdplot.plotting, "cd_diagrams", spy)
    target = tmp_path / "m.png"
    code, _, err = run(
        ["compare", log_csv, "--aggregate", "mean", *METRICS, "-o", target, "-q"], capsys
    )
    assert code == 0, err
    assert target.read_bytes().startswith(b"\x89PNG")
    assert seen == {
        "keys": ["accuracy", "fit_time (lower is better)"],
        "higher": [True, False],
        "axes": 2,
    }


def test_metrics_reports(log_csv, tmp_path, capsys):
    md, tex, page = tmp_path / "r.md", tmp_path / "r.tex", tmp_path / "r.html"
    for target in (md, tex, page):
        argv = ["compare", log_csv, "--aggregate", "mean", *METRICS, "--report", target, "-q"]
        code, _, err = run(argv, capsys)
        assert code == 0, err
    text = md.read_text()
    assert text.startswith("## accuracy\n\n**4 algorithms on 12 datasets**")
    assert "\n## fit\\_time (lower is better)\n\n" in text
    assert text.count("Input: scores are means over 5 folds.") == 2
    latex = tex.read_text()
    assert latex.count("\\begin{table}") == 2
    captions = [line for line in latex.splitlines() if line.startswith("\\caption{")]
    assert captions[0].startswith("\\caption{accuracy. Average ranks (1 = best) of 4")
    assert captions[1].startswith("\\caption{fit\\_time (lower is better). Average ranks")
    html = page.read_text()
    assert html.startswith("<!DOCTYPE html>")
    assert html.count('<section class="cdplot-metric"') == 2
    assert "<h2>fit_time (lower is better)</h2>" in html
    assert 'id="m1-ranks"' in html and 'id="m2-ranks"' in html


def test_metrics_from_stdin(log_csv, tmp_path, capsys, monkeypatch):
    target = tmp_path / "m.json"
    monkeypatch.setattr(sys, "stdin", io.StringIO(log_csv.read_text()))
    code, _, err = run(
        ["compare", "-", "--aggregate", "mean", *METRICS, "--json", target, "-q"], capsys
    )
    assert code == 0, err
    assert list(json.loads(target.read_text())) == ["accuracy", "fit_time"]


def test_one_score_col_with_named_or_bare_lower_is_better(log_csv, tmp_path, capsys):
    from cdplot.cli import _compare, _main

    parse = _main.build_parser().parse_args
    for extra in (["--lower-is-better", "fit_time"], ["--lower-is-better"]):
        args = parse(["compare", str(log_csv), "--score-col", "fit_time", *extra])
        assert _compare.compare_options(args) == {"score": "fit_time", "higher_is_better": False}
    args = parse(["compare", str(log_csv), "--score-col", "accuracy"])
    assert _compare.compare_options(args) == {"score": "accuracy"}
    target = tmp_path / "one.json"
    argv = ["compare", log_csv, "--aggregate", "mean", "--score-col", "fit_time"]
    code, _, err = run([*argv, "--lower-is-better", "fit_time", "--json", target, "-q"], capsys)
    assert code == 0, err
    doc = json.loads(target.read_text())
    assert doc["format"] == "cdplot-comparison"  # one comparison: the usual document
    assert doc["settings"]["higher_is_better"] is False


def test_help_states_the_input_rules(capsys):
    code, out, _ = run(["compare", "--help"], capsys)
    assert code == 0
    flat = " ".join(out.split())
    assert (
        "The first column holds the dataset names when its header is a dataset name (numeric "
        "ids included, e.g. task_id), empty, 'Unnamed: 0', 'id' or 'index', or when it is not "
        "numeric; otherwise it is an algorithm."
    ) in flat
    assert "Columns are recognised by name, in any order" in flat
    for names in (DATASET_NAMES, ALGORITHM_NAMES, REPETITION_NAMES):
        assert ", ".join(names) in flat
    for flag in ("--aggregate mean|median", "--missing drop", "--decimals N", "--label OLD=NEW"):
        assert flag in flat, flag
    assert "one object keyed by metric" in flat
    assert "--format png \\\n      > cd.png" in out  # the example's line break is kept


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (
            [*METRICS[:4], "--lower-is-better", "fit_tme"],
            "--lower-is-better 'fit_tme' is not one of the --score-col columns ('accuracy', "
            "'fit_time'); name a metric given with --score-col. Did you mean 'fit_time'?",
        ),
        (
            [*METRICS[:4], "--lower-is-better"],
            "with several --score-col, say which metrics are lower-is-better, e.g. "
            "--lower-is-better fit_time; a bare --lower-is-better would not say which.",
        ),
        (
            ["--lower-is-better", "fit_time"],
            "--lower-is-better fit_time names a score column, but no --score-col is given; "
            "add --score-col fit_time, or write --lower-is-better alone (lower scores are "
            "better).",
        ),
        (
            ["--score-col", "accuracy", "--score-col", "accuracy"],
            "--score-col 'accuracy' is given twice; give each metric once.",
        ),
        (
            [*METRICS, "--heatmap", "{tmp}/h.pdf"],
            "--heatmap draws one comparison, and --score-col accuracy --score-col fit_time "
            "makes 2; run cdplot compare once per metric (one --score-col) for the heatmaps.",
        ),
        (
            [*METRICS, "--name", "a"],
            "--name titles the diagrams of several RESULTS files; with several --score-col "
            "the diagrams are titled by the metrics (use --title for the whole figure).",
        ),
        (
            ["{csv}", *METRICS],
            "--score-col accuracy --score-col fit_time compares several metrics of one "
            "RESULTS file, got 2 files; run cdplot compare once per file.",
        ),
        (
            ["--score-col", "accuracy", "--score-col", "f1"],
            "column 'f1' (given as --score-col) is not in the table; its columns are "
            "'model', 'dataset', 'fold', 'accuracy', 'fit_time'.",
        ),
        (
            [],
            "several columns could hold the scores: 'accuracy', 'fit_time'; pass --score-col "
            "accuracy to compare on one of them, or compare each (one diagram per metric) "
            "with --score-col accuracy --score-col fit_time, adding --lower-is-better COL "
            "for each metric where lower is better. Column 'fit_time' is named like a cost "
            "(run time, tokens, price): pass --cost-col fit_time to keep it apart for the "
            "cost-performance frontier.",
        ),
        (
            [*METRICS, "--decimals", "20"],
            "--decimals must be an integer from 0 to 15 (float64 has about 15 significant "
            "digits), got 20.",
        ),
        (
            [*METRICS, "--control", "knn"],
            "unknown control algorithm 'knn'; the algorithms are 'RandomForest (500 trees)', "
            "'LogReg', 'SVM_rbf', 'kNN'. Did you mean 'kNN'?",
        ),
        (
            [*METRICS, "--highlight", "SVM"],
            "--highlight 'SVM' is not an algorithm of '{csv}'; the algorithms are "
            "'RandomForest (500 trees)', 'LogReg', 'SVM_rbf', 'kNN'. Did you mean 'SVM_rbf'?",
        ),
    ],
)
def test_metric_errors(extra, message, log_csv, tmp_path, capsys):
    argv = [a.format(tmp=tmp_path, csv=log_csv) for a in extra]
    code, out, err = run(["compare", log_csv, *argv, "--aggregate", "mean"], capsys)
    assert code == 2
    (line,) = err.splitlines()
    assert line == "cdplot: error: " + message.format(csv=log_csv)
    assert out == ""
    assert sorted(p.name for p in tmp_path.iterdir()) == ["runs.csv"]


def test_results_file_after_lower_is_better_gets_a_hint(log_csv, capsys):
    code, _, err = run(["compare", "--lower-is-better", log_csv], capsys)
    assert code == 2
    assert err.strip() == (
        "cdplot: error: the following arguments are required: RESULTS (see 'cdplot compare "
        "--help'); --lower-is-better takes an optional column name, so put RESULTS before "
        "--lower-is-better"
    )
    code, _, err = run(
        ["compare", *METRICS[:4], "--lower-is-better", log_csv, log_csv, "--aggregate", "mean"],
        capsys,
    )
    assert code == 2
    assert err.strip().endswith(
        f"name a metric given with --score-col. If '{log_csv}' is a RESULTS file, put it "
        "before --lower-is-better, which takes an optional column name."
    )

"""The cdplot command line: every command, every error case (exit code and message pinned).

Consistency only: the CLI must give the same numbers as ``cdplot.compare`` on the same
input (checked through the JSON output, which round-trips). The error table pins, for each
user-caused condition, exit status 2, exactly one ``cdplot: error:`` line with the message
in command-line terms, no traceback, and no file (final or temporary) left behind. The
output-file rules (links, FIFOs, all-or-nothing, signals, concurrency) are in
``test_output.py``.
"""

from __future__ import annotations

import io
import json
import math
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from _helpers import run, snapshot

import cdplot
from cdplot._json import result_from_json, result_to_json
from cdplot.cli import main

ROOT = str(Path(__file__).resolve().parent.parent)


def run_process(argv, **kwargs):
    env = {**os.environ, "PYTHONPATH": ROOT, "MPLBACKEND": "Agg"}
    return subprocess.run(
        [sys.executable, "-m", "cdplot", *map(str, argv)],
        capture_output=True,
        env=env,
        check=False,
        **kwargs,
    )


def hard_bergmann_table(path: Path) -> Path:
    """30 algorithms whose Wilcoxon p-values need a long exact Bergmann-Hommel search."""
    rng = np.random.default_rng(0)
    x = rng.normal(size=(30, 30)) + np.linspace(0.0, 1.0, 30)
    frame = pd.DataFrame(
        x, index=[f"d{i}" for i in range(30)], columns=[f"a{j}" for j in range(30)]
    )
    frame.rename_axis("dataset").to_csv(path)
    return path


# ---------------------------------------------------------------------------- success
def test_demo_writes_pdf_and_prints_summary(tmp_path, capsys):
    target = tmp_path / "demo.pdf"
    code, out, err = run(["demo", "-o", target], capsys)
    assert code == 0
    assert target.read_bytes().startswith(b"%PDF")
    assert "C4.5+m+cf" in out and "1.118" in out
    # one caution, not two: the demo says why it shows Nemenyi, the summary
    # cautions, and no pool-dependence warning repeats it on stderr
    assert out.startswith("This demo reproduces Demšar (2006), Figure 1a")
    assert out.count("depends on which other") == 1
    assert err == ""


def test_demo_default_output(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    umask = os.umask(0o022)
    try:
        code, _, _ = run(["demo"], capsys)
    finally:
        os.umask(umask)
    assert code == 0
    # written through a temporary file, but with the permissions of a normal new file
    assert (tmp_path / "cd-demo.pdf").stat().st_mode & 0o777 == 0o644
    assert os.listdir(tmp_path) == ["cd-demo.pdf"]


@pytest.mark.parametrize("ext", ["pdf", "svg", "png", "eps"])
def test_compare_figure_formats(results_csv, tmp_path, capsys, ext):
    target = tmp_path / f"cd.{ext}"
    code, out, err = run(["compare", results_csv, "-o", target, "--column", "double"], capsys)
    assert code == 0, err
    assert target.stat().st_size > 500
    assert "wrote" in out
    assert not list(tmp_path.glob(".*"))


def test_format_overrides_missing_extension_and_dpi(results_csv, tmp_path, capsys):
    low, high = tmp_path / "low", tmp_path / "high"
    for path, dpi in ((low, 50), (high, 200)):
        code, _, err = run(
            ["compare", results_csv, "-o", path, "--format", "png", "--dpi", dpi, "-q"], capsys
        )
        assert code == 0, err
        assert path.read_bytes().startswith(b"\x89PNG")

    def png_width(p):  # IHDR: width is bytes 16..20, big-endian
        return int.from_bytes(p.read_bytes()[16:20], "big")

    assert png_width(high) == pytest.approx(4 * png_width(low), rel=0.02)


def test_default_png_dpi_is_300(results_csv, tmp_path, capsys):
    target = tmp_path / "cd.png"
    code, _, err = run(["compare", results_csv, "-o", target, "--width", "3", "-q"], capsys)
    assert code == 0, err
    assert int.from_bytes(target.read_bytes()[16:20], "big") == 900  # 3 in x 300 dpi


def test_title_highlight_and_no_title_reach_the_figure(results_csv, monkeypatch, tmp_path):
    from cdplot import plotting

    seen = []
    real = plotting.cd_diagram

    def spy(result, **kwargs):
        seen.append(kwargs)
        return real(result, **kwargs)

    monkeypatch.setattr(plotting, "cd_diagram", spy)
    out = tmp_path / "cd.svg"
    args = ["compare", str(results_csv), "-o", str(out), "-q"]
    assert main([*args, "--title", "Accuracy", "--highlight", "C3", "C1"]) == 0
    assert main([*args, "--no-title"]) == 0
    assert seen[0]["title"] == "Accuracy" and seen[0]["highlight"] == ["C3", "C1"]
    assert seen[1]["title"] is False


def test_several_results_files_draw_one_aligned_figure(tmp_path, capsys, demsar, monkeypatch):
    from cdplot import plotting

    (tmp_path / "accuracy.csv").write_text(demsar.to_csv())
    (tmp_path / "auc.csv").write_text((1 - demsar).to_csv())
    seen = {}
    real = plotting.cd_diagrams

    def spy(results, **kwargs):
        seen.update(results)
        return real(results, **kwargs)

    monkeypatch.setattr(plotting, "cd_diagrams", spy)
    target = tmp_path / "both.pdf"
    code, out, err = run(
        ["compare", tmp_path / "accuracy.csv", tmp_path / "auc.csv", "-o", target], capsys
    )
    assert code == 0, err
    assert list(seen) == ["accuracy", "auc"]
    assert "== accuracy ==" in out and "== auc ==" in out
    # 1 - x reverses every ranking: the average ranks mirror around (k + 1) / 2
    k = demsar.shape[1]
    for name in demsar.columns:
        assert seen["accuracy"].average_ranks[name] == pytest.approx(
            k + 1 - seen["auc"].average_ranks[name]
        )
    assert target.read_bytes().startswith(b"%PDF")
    code, _, err = run(
        [
            "compare",
            tmp_path / "accuracy.csv",
            tmp_path / "auc.csv",
            "--name",
            "Accuracy",
            "--name",
            "AUC",
            "-o",
            target,
            "-q",
        ],
        capsys,
    )
    assert code == 0, err
    assert list(seen)[-2:] == ["Accuracy", "AUC"]


def test_compare_json_round_trip(results_csv, tmp_path, capsys, benavoli):
    target = tmp_path / "res.json"
    code, _, err = run(
        ["compare", results_csv, "--correction", "bergmann", "--json", target, "-q"], capsys
    )
    assert code == 0, err
    doc = json.loads(target.read_text())
    assert doc["cdplot_version"] == cdplot.__version__
    assert doc["settings"]["correction"] == "bergmann-hommel"
    back = result_from_json(target.read_text())
    direct = cdplot.compare(benavoli, correction="bergmann")
    pd.testing.assert_frame_equal(back.adjusted_pvalues, direct.adjusted_pvalues)
    pd.testing.assert_frame_equal(back.pvalues, direct.pvalues)
    pd.testing.assert_series_equal(back.average_ranks, direct.average_ranks)
    assert back.groups == direct.groups
    assert back.friedman == direct.friedman and back.iman_davenport == direct.iman_davenport
    assert result_to_json(back) == result_to_json(direct)


def test_json_to_stdout(results_csv, capsys, benavoli):
    code, out, err = run(["compare", results_csv, "--json", "-"], capsys)
    assert code == 0, err
    # only the JSON on stdout: no summary, no "wrote"
    back = result_from_json(out)
    assert result_to_json(back) == result_to_json(cdplot.compare(benavoli))


def test_report_to_stdout(results_csv, capsys):
    code, out, err = run(
        ["compare", results_csv, "--report", "-", "--report-format", "latex"], capsys
    )
    assert code == 0, err
    assert out.lstrip().startswith("\\begin{table}")


def test_json_reader_refuses_bad_documents(benavoli):
    from cdplot import CdplotInputError

    text = result_to_json(cdplot.compare(benavoli))
    doc = json.loads(text)
    del doc["ranks"]
    with pytest.raises(CdplotInputError, match="the field 'ranks' is missing"):
        result_from_json(json.dumps(doc))
    newer = text.replace('"format_version": 1', '"format_version": 9')
    with pytest.raises(CdplotInputError, match="format_version 9 is not supported"):
        result_from_json(newer)
    with pytest.raises(CdplotInputError, match="not a valid cdplot JSON result: 'groups'"):
        result_from_json(text.replace('"groups": [', '"groups": 5, "x": ['))
    with pytest.raises(CdplotInputError, match="not a cdplot JSON result"):
        result_from_json("[1, 2]")


def test_json_round_trip_control_mode_and_inf():
    x = np.tile(np.arange(4.0), (8, 1))  # identical rankings: Iman-Davenport F = inf
    res = cdplot.compare(x, control="A1", test="sign")
    back = result_from_json(result_to_json(res))
    assert back.iman_davenport.statistic == np.inf
    pd.testing.assert_series_equal(back.adjusted_pvalues, res.adjusted_pvalues)
    pd.testing.assert_series_equal(back.significant, res.significant)
    assert back.control == "A1" and back.critical_difference is None


def _fold_log() -> pd.DataFrame:
    """6 datasets x 3 algorithms x 4 folds; fold 3 of B on d5 missing (unequal runs)."""
    rng = np.random.default_rng(7)
    rows = [
        (f"d{d}", alg, fold, round(0.6 + 0.1 * j + rng.normal(0, 0.05), 4))
        for d in range(7)
        for j, alg in enumerate("ABC")
        for fold in range(4)
        if not (d == 5 and alg == "B" and fold == 3)
    ]
    log = pd.DataFrame(rows, columns=["dataset", "algorithm", "fold", "acc"])
    log.loc[(log.dataset == "d6") & (log.algorithm == "C"), "acc"] = np.nan  # dropped
    return log


def test_json_records_how_the_table_was_read(tmp_path, capsys):
    path = tmp_path / "log.csv"
    log = _fold_log()
    log.to_csv(path, index=False)
    target = tmp_path / "r.json"
    argv = ["compare", path, "--aggregate", "mean", "--decimals", "3", "--missing", "drop"]
    code, _, err = run([*argv, "--label", "A=a & <b>", "--json", target], capsys)
    assert code == 0, err
    assert "different numbers of runs" in err and "dropped 1 dataset" in err
    doc = json.loads(target.read_text())  # plain JSON: no NaN, no Infinity
    agg = doc["aggregation"]
    assert agg["function"] == "mean" and agg["columns"] == ["fold"]
    assert (agg["min_count"], agg["max_count"]) == (3, 4)
    # independent: runs per cell and their spread from pandas (before the drop)
    sizes = log.groupby(["dataset", "algorithm"]).size()
    assert agg["counts"] == {
        d: {a: int(sizes[d, a]) for a in "ABC"} for d in sorted(log.dataset.unique())
    }
    assert doc["datasets"] == [f"d{d}" for d in range(6)]
    std = log.groupby(["dataset", "algorithm"])["acc"].std(ddof=1).unstack()
    np.testing.assert_allclose(
        np.array(doc["score_std"], dtype=float),
        std.loc[doc["datasets"], ["A", "B", "C"]],
        rtol=1e-12,
    )
    assert doc["decimals"] == 3
    assert doc["n_per_pair"] == [[6] * 3] * 3
    assert doc["labels"] == {"A": "a & <b>"} and doc["algorithms"] == ["A", "B", "C"]
    assert doc["dropped_datasets"] == ["d6"]
    assert doc["input_notes"] == [
        "scores are means over 3\N{EN DASH}4 folds",
        "scores were rounded to 3 decimals before ranking",
        "dropped 1 dataset with missing results: d6",
    ]
    back = result_from_json(target.read_text())
    assert back.input_notes == tuple(doc["input_notes"])
    assert back.decimals == 3 and back.label("A") == "a & <b>"
    assert back.aggregation.counts.loc["d5", "B"] == 3
    np.testing.assert_array_equal(back.score_std.to_numpy(), np.array(doc["score_std"], float))
    assert result_to_json(back) == target.read_text().rstrip("\n")


def test_json_without_aggregation_and_older_files():
    res = cdplot.compare(cdplot.datasets.load("demsar2006"))
    doc = json.loads(result_to_json(res))
    assert doc["aggregation"] is None and doc["score_std"] is None and doc["decimals"] is None
    assert doc["n_per_pair"] == [[14] * 4] * 4
    for key in ("aggregation", "score_std", "decimals", "n_per_pair"):
        del doc[key]  # a file written before these fields existed
    back = result_from_json(json.dumps(doc))
    assert back.aggregation is None and back.score_std is None and back.n_per_pair is None
    assert back.groups == res.groups


def test_results_json_keyed_by_metric():
    from cdplot import CdplotInputError
    from cdplot._json import results_from_json, results_to_json

    res = cdplot.compare(cdplot.datasets.load("demsar2006"))
    text = results_to_json({"accuracy": res, "auc": res})
    assert list(json.loads(text)) == ["accuracy", "auc"]
    assert results_from_json(text)["auc"].groups == res.groups
    with pytest.raises(CdplotInputError, match=r"^results_to_json\(\) takes a non-empty mapping"):
        results_to_json({})
    with pytest.raises(CdplotInputError, match=r"read a single result with result_from_json"):
        results_from_json(result_to_json(res))
    doc = json.loads(text)
    del doc["auc"]["ranks"]
    with pytest.raises(
        CdplotInputError,
        match=r"^entry 'auc': not a complete cdplot JSON result: the field 'ranks' is missing",
    ):
        results_from_json(json.dumps(doc))


def test_compare_long_format_and_stdin(tmp_path, capsys, monkeypatch, benavoli):
    long = benavoli.reset_index().melt(id_vars="dataset", var_name="method", value_name="acc")
    path = tmp_path / "long.tsv"
    long.to_csv(path, sep="\t", index=False)
    argv = ["compare", path, "--dataset-col", "dataset", "--algorithm-col", "method"]
    code, out, err = run([*argv, "--score-col", "acc", "--json", tmp_path / "a.json"], capsys)
    assert code == 0, err
    # detected without column names: three columns, the last alone numeric
    monkeypatch.setattr(sys, "stdin", io.StringIO(long.to_csv(index=False)))
    code, out, err = run(["compare", "-", "--json", tmp_path / "b.json", "-q"], capsys)
    assert code == 0, err
    a = json.loads((tmp_path / "a.json").read_text())
    b = json.loads((tmp_path / "b.json").read_text())
    assert a["pvalues"] == b["pvalues"] and a["groups"] == b["groups"]


def test_compare_options_reach_compare(results_csv, tmp_path, capsys, benavoli):
    target = tmp_path / "r.json"
    code, _, err = run(
        [
            *("compare", results_csv, "--lower-is-better", "--test", "sign"),
            *("--sign-ties", "discard", "--alpha", "0.1", "--control", "C1"),
            *("--correction", "li", "--json", target, "-q"),
        ],
        capsys,
    )
    assert code == 0, err
    back = result_from_json(target.read_text())
    ref = cdplot.compare(
        benavoli,
        higher_is_better=False,
        test="sign",
        ties="discard",
        alpha=0.1,
        control="C1",
        correction="li",
    )
    pd.testing.assert_series_equal(back.adjusted_pvalues, ref.adjusted_pvalues)
    assert back.test_options == {"ties": "discard"}


def test_only_given_options_reach_compare(results_csv):
    """compare()'s defaults are the only defaults: the CLI passes what the user typed."""
    from cdplot.cli import _compare, _main

    args = _main.build_parser().parse_args(["compare", str(results_csv), "--alpha", "0.1"])
    assert _compare.compare_options(args) == {"alpha": 0.1}
    args = _main.build_parser().parse_args(["compare", str(results_csv), "--lower-is-better"])
    assert _compare.compare_options(args) == {"higher_is_better": False}
    # every compare() keyword in the table is a real keyword, spelled by the one table
    import inspect

    params = set(inspect.signature(cdplot.compare).parameters)
    from cdplot.stats._compare import TESTS

    extra = set().union(*TESTS.values())  # **test_options of the pairwise tests
    for flag in _compare.COMPARE_FLAGS:
        assert flag.keyword in params | extra
        assert flag.flag == cdplot._errors.CLI_FLAGS[flag.keyword]


def test_nemenyi_default_correction_and_bh_budget(results_csv, tmp_path, capsys):
    target = tmp_path / "r.json"
    code, _, err = run(["compare", results_csv, "--test", "nemenyi", "--json", target], capsys)
    assert code == 0, err
    assert json.loads(target.read_text())["settings"]["correction"] == "nemenyi"
    code, _, err = run(
        ["compare", results_csv, "--correction", "bergmann", "--bh-budget", "inf", "--json",
         target, "-q"],
        capsys,
    )  # fmt: skip
    assert code == 0, err


def test_report_markdown(results_csv, tmp_path, capsys):
    target = tmp_path / "report.md"
    code, _, err = run(["compare", results_csv, "--report", target, "-q"], capsys)
    assert code == 0, err
    assert "C2" in target.read_text()


# ------------------------------------------------------------------------ warnings, -q
def test_quiet_and_no_warn_silence_warnings(results_csv, capsys):
    # the aligned-ranks summary has no pool caution: the warning says it, one line
    argv = ["compare", results_csv, "--test", "aligned-ranks", "--omnibus", "aligned-ranks"]
    code, out, err = run(argv, capsys)
    assert code == 0 and "PoolDependence" not in err and "depends on which other" in err
    (line,) = err.splitlines()  # one line per warning, with the CLI's way to silence it
    assert line.startswith("cdplot: warning: the aligned-ranks test's decision on a pair")
    assert "--test wilcoxon" in line and line.endswith("(silence with --no-warn or -q)")
    assert "simplefilter" not in line
    assert out
    code, out, err = run([*argv, "--no-warn"], capsys)
    assert code == 0 and err == "" and "Friedman" in out
    code, out, err = run([*argv, "-q"], capsys)
    assert code == 0 and err == "" and out == ""


def test_dropped_datasets_warning_is_one_line(tmp_path, capsys):
    rows = "".join(f"d{i},{i},{'' if i == 2 else i + 1},{i + 2}\n" for i in range(1, 9))
    (tmp_path / "nan.csv").write_text("dataset,A,B,C\n" + rows)
    code, _, err = run(["compare", tmp_path / "nan.csv", "--missing", "drop"], capsys)
    assert code == 0
    (line,) = [w for w in err.splitlines() if "dropped" in w]
    assert line == (
        "cdplot: warning: dropped 1 dataset(s) with missing results: 'd2' "
        "(silence with --no-warn or -q)"
    )


# ------------------------------------------------------------------------ error table
ERRORS = [
    # reading the input
    (["compare", "{missing}"], "cannot read results file"),
    (["compare", "{pipes}"], "cannot find a delimiter in the first line"),
    (["compare", "{empty}"], "is empty"),
    (["compare", "{one}"], "need at least 2 algorithms to compare, got 1 ('A')"),
    (
        ["compare", "{csv}", "--dataset-col", "x", "--algorithm-col", "y", "--score-col", "z"],
        "column 'x' (given as --dataset-col) is not in the table",
    ),
    (["compare", "{csv}", "--dataset-col", "x"], "'x' (given as --dataset-col) is not in"),
    (["compare", "{nan}"], "on dataset 'd2'; fill it in, pass --missing keep to analyse"),
    # statistics options
    (["compare", "{csv}", "--control", "C9"], "unknown control algorithm 'C9'"),
    (["compare", "{csv}", "--test", "z-test"], "'z-test' is not a valid value for --test"),
    (["compare", "{csv}", "--correction", "bh-fdr"], "'bh-fdr' is not a valid value for --corr"),
    (
        ["compare", "{csv}", "--correction", "li"],
        "'li' applies to comparisons with a control; pass --control NAME to use it",
    ),
    (
        ["compare", "{csv}", "--correction", "shaffer", "--control", "C1"],
        "'shaffer' applies to all-pairs comparisons; drop --control to use it",
    ),
    (
        ["compare", "{csv}", "--test", "nemenyi", "--correction", "holm"],
        "--test nemenyi carries its own single-step adjustment, so --correction holm cannot",
    ),
    (
        ["compare", "{csv}", "--test", "nemenyi", "--correction", "none"],
        "so --correction none cannot be applied; drop --correction",
    ),
    (
        ["compare", "{csv}", "--test", "nemenyi", "--control", "C1"],
        "--test nemenyi compares all pairs; to compare with a control on average ranks use "
        "--test mean-ranks with --correction bonferroni-dunn",
    ),
    (
        ["compare", "{csv}", "--zero-method", "pratt", "--test", "sign"],
        "unknown option(s) --zero-method for --test sign; it accepts --sign-ties.",
    ),
    (["compare", "{csv}", "--sign-ties", "split"], "unknown option(s) --sign-ties for --test"),
    (["compare", "{csv}", "--alpha", "2"], "--alpha must be in (0, 1), got 2.0"),
    (["compare", "{csv}", "--alpha", "x"], "argument --alpha: invalid float value: 'x'"),
    (
        ["compare", "{csv}", "--bh-budget", "5"],
        "--bh-budget applies to --correction bergmann-hommel only",
    ),
    (
        ["compare", "{csv}", "--correction", "bergmann", "--bh-budget", "0"],
        "--bh-budget must be a positive number of seconds, got 0.0 (e.g. --bh-budget 60)",
    ),
    (["compare", "{csv}", "--correction", "bergmann", "--bh-budget", "nan"], "--bh-budget must"),
    (
        ["compare", "{hard}", "--correction", "bergmann", "--bh-budget", "0.001"],
        "did not finish within the budget of 0.001 s; these p-values have too little "
        "structure for an exact answer at this k. Use --correction shaffer (or --correction "
        "holm), valid for any k, or raise the budget, e.g. --bh-budget 60.",
    ),
    # sizes
    (["compare", "{csv}", "--width", "1", "-o", "{out}/cd.pdf"], "Pass a larger --width"),
    (
        ["compare", "{csv}", "--width", "1", "--heatmap", "{out}/h.pdf"],
        "is too small for this heatmap",
    ),
    (["compare", "{csv}", "--width", "nan"], "--width must be a positive number of inches"),
    (["compare", "{csv}", "--width", "inf"], "--width must be a positive number of inches"),
    (["compare", "{csv}", "--width", "0"], "--width must be a positive number of inches"),
    (["compare", "{csv}", "--width", "-3"], "--width must be a positive number of inches"),
    (["compare", "{csv}", "--width", "500"], "--width 500 is too large; at most 100 inches"),
    (["compare", "{csv}", "--dpi", "0"], "--dpi must be a positive number of dots per inch"),
    (["compare", "{csv}", "--dpi", "nan"], "--dpi must be a positive number"),
    (["compare", "{csv}", "--width", "3", "--column", "single"], "both set the width"),
    # formats
    (["compare", "{csv}", "-o", "{out}/cd.jpeg"], "cannot tell the figure format"),
    (["compare", "{csv}", "--heatmap", "{out}/h"], "cannot tell the figure format"),
    (["compare", "{csv}", "-o", "{out}/cd.pdf", "--format", "png"], "has the extension .pdf"),
    (["compare", "{csv}", "-o", "-"], "-o - writes the figure to standard output; say which"),
    (["compare", "{csv}", "--format", "png"], "--format applies to figures"),
    (["compare", "{csv}", "--format", "jpeg", "-o", "{out}/x"], "argument --format: invalid"),
    (["compare", "{csv}", "--report", "{out}/r.docx"], "cannot tell the report format"),
    (["compare", "{csv}", "--report", "-"], "say which format with --report-format"),
    (["compare", "{csv}", "--report-format", "html"], "--report-format applies to --report"),
    (
        ["compare", "{csv}", "--report", "{out}/r.md", "--report-format", "html"],
        "has the extension .md but --report-format is html",
    ),
    # labels
    (
        ["compare", "{mathtext}", "-o", "{out}/cd.pdf"],
        "cannot draw the label '$\\foo$': matplotlib reads text between $ signs as "
        "mathematics and rejects it (Unknown symbol: \\foo); change the label",
    ),
    (["compare", "{csv}", "-o", "{out}/cd.pdf", "--title", "$\\frac$"], "cannot draw the label"),
    (["compare", "{csv}", "--highlight", "C9", "-o", "{out}/cd.pdf"], "--highlight 'C9' is not"),
    (["compare", "{csv}", "--highlight", "c3", "-o", "{out}/cd.pdf"], "Did you mean 'C3'?"),
    # outputs
    (["compare", "{csv}", "-o", "{out}/nodir/cd.pdf"], "/nodir' does not exist"),
    (["compare", "{csv}", "--json", "{csv}"], "is the input file"),
    (["compare", "{csv}", "--json", "{out}"], "it is a directory"),
    (
        ["compare", "{csv}", "--json", "{out}/a.md", "--report", "{out}/a.md"],
        "is also given to --json",
    ),
    (
        ["compare", "{csv}", "--json", "{out}/a.md", "--report", "{out}/../out/a.md"],
        "is the same file as --json",
    ),
    (
        ["compare", "{csv}", "--json", "-", "--report", "-", "--report-format", "html"],
        "--json and --report both write to standard output",
    ),
    # several files
    (["compare", "{csv}", "{csv2}", "--json", "{out}/a.json"], "--json takes one RESULTS file"),
    (["compare", "{csv}", "{csv2}", "--heatmap", "{out}/h.pdf"], "--heatmap takes one RESULTS"),
    (["compare", "{csv}", "{csv}"], "are both called 'results'; tell them apart with --name"),
    (["compare", "{csv}", "{csv2}", "--name", "a"], "got 1 --name for 2 RESULTS files"),
    (["compare", "-", "-"], "standard input (-) can be read only once"),
    (["compare", "{csv}", "--name", "A"], "with one file, use --title 'A'"),
    # usage
    (["compare"], "the following arguments are required: RESULTS"),
    (["compare", "--highlight", "C1", "{csv}"], "so put RESULTS before --highlight"),
    (["frobnicate"], "invalid choice: 'frobnicate'"),
    (["compare", "{csv}", "--missing", "skip"], "argument --missing: invalid choice: 'skip'"),
    (["compare", "{csv}", "--title", "x", "--no-title"], "not allowed with argument --title"),
    (["demo", "-o", "{out}/demo.tiff"], "cannot tell the figure format"),
    (["demo", "--highlight", "SVM"], "--highlight 'SVM' is not an algorithm of the demo data"),
]


@pytest.fixture
def error_files(tmp_path, results_csv):
    (tmp_path / "pipes.csv").write_text("dataset|A|B\nd1|1|2\n")
    (tmp_path / "empty.csv").write_text("\n")
    (tmp_path / "one.csv").write_text("dataset,A\nd1,1\nd2,2\n")
    (tmp_path / "nan.csv").write_text(
        "dataset,A,B\n" + "".join(f"d{i},{i},{'' if i == 2 else i}\n" for i in range(1, 9))
    )
    (tmp_path / "second.csv").write_text(results_csv.read_text())
    (tmp_path / "mathtext.csv").write_text(
        "dataset,$\\foo$,B,C\n" + "".join(f"d{i},{i},{i % 3},{i % 4}\n" for i in range(6))
    )
    (tmp_path / "out").mkdir()
    return {
        "missing": tmp_path / "none.csv",
        "pipes": tmp_path / "pipes.csv",
        "empty": tmp_path / "empty.csv",
        "one": tmp_path / "one.csv",
        "csv": results_csv,
        "csv2": tmp_path / "second.csv",
        "mathtext": tmp_path / "mathtext.csv",
        "nan": tmp_path / "nan.csv",
        "hard": hard_bergmann_table(tmp_path / "hard.csv"),
        "out": tmp_path / "out",
    }


@pytest.mark.parametrize(("argv", "message"), ERRORS)
def test_errors_exit_2_with_one_line(argv, message, error_files, tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO("dataset,A,B\nd1,1,2\nd2,2,1\n"))
    monkeypatch.chdir(error_files["out"])
    before = snapshot(tmp_path)
    code, out, err = run([a.format(**error_files) for a in argv], capsys)
    assert code == 2, err
    lines = err.splitlines()
    errors = [line for line in lines if line.startswith("cdplot: error:")]
    assert len(errors) == 1 and message in errors[0], err
    assert all(line.startswith("cdplot: warning:") for line in lines if line not in errors)
    assert "Traceback" not in err and ".part" not in err
    assert snapshot(tmp_path) == before  # nothing written, nothing left behind


def test_error_table_is_large_enough():
    assert len(ERRORS) >= 30


def test_missing_tex_engine_is_refused_before_reading(results_csv, tmp_path, capsys, monkeypatch):
    import shutil

    monkeypatch.setattr(shutil, "which", lambda name, *a, **k: None)
    before = snapshot(tmp_path)
    code, _, err = run(["compare", tmp_path / "absent.csv", "-o", tmp_path / "cd.pgf"], capsys)
    assert code == 2
    assert err.strip() == (
        f"cdplot: error: writing PGF (-o {tmp_path / 'cd.pgf'}) needs a TeX engine (xelatex, "
        "lualatex, pdflatex) on PATH, and none was found; install TeX Live, or write .pdf or "
        ".svg instead."
    )
    assert snapshot(tmp_path) == before


def test_bug_is_exit_1_with_one_line_and_debug_shows_traceback(results_csv, capsys, monkeypatch):
    import cdplot.stats._compare as stats_compare

    def broken(*args, **kwargs):
        raise ZeroDivisionError("oops")

    monkeypatch.setattr(stats_compare, "compare", broken)
    code, _, err = run(["compare", results_csv], capsys)
    assert code == 1
    (line,) = err.splitlines()
    assert line.startswith("cdplot: error: internal error (ZeroDivisionError: oops); this is a bug")
    assert "please report it" in line
    code, _, err = run(["compare", results_csv, "--debug"], capsys)
    assert code == 1 and "Traceback (most recent call last)" in err
    assert err.splitlines()[-1] == line


def test_debug_shows_traceback_of_user_errors_too(results_csv, capsys):
    code, _, err = run(["compare", results_csv, "--alpha", "3", "--debug"], capsys)
    assert code == 2 and "Traceback" in err and "CdplotInputError" in err
    assert err.splitlines()[-1] == "cdplot: error: --alpha must be in (0, 1), got 3.0."


def test_version_and_help(capsys):
    code, out, _ = run(["--version"], capsys)
    assert code == 0 and out.strip() == f"cdplot {cdplot.__version__}"
    for argv in (["--help"], ["demo", "--help"], ["compare", "--help"]):
        code, out, _ = run(argv, capsys)
        assert code == 0 and "usage: cdplot" in out
    _, out, _ = run(["compare", "--help"], capsys)
    for flag in (
        "--lower-is-better", "--bh-budget", "--dpi", "--title", "--no-title", "--highlight",
        "--format", "--debug", "--no-warn", "--name", "--report-format", "exit status",
    ):  # fmt: skip
        assert flag in out, flag
    code, _, err = run([], capsys)
    assert code == 2 and "usage: cdplot" in err


# ------------------------------------------------------------------- real processes
def test_console_script_and_module(tmp_path):
    script = Path(sys.executable).parent / "cdplot"
    cmds = [[sys.executable, "-m", "cdplot"]]
    if script.exists():
        cmds.append([str(script)])
    env = {**os.environ, "PYTHONPATH": ROOT}
    for cmd in cmds:
        done = subprocess.run(
            cmd + ["--version"], capture_output=True, text=True, check=False, env=env
        )
        assert done.returncode == 0 and done.stdout.startswith("cdplot ")
        done = subprocess.run(
            cmd + ["compare", str(tmp_path / "absent.csv")],
            capture_output=True,
            text=True,
            check=False,
            env=env,
        )
        assert done.returncode == 2
        assert done.stderr.strip().startswith("cdplot: error: cannot read results file")


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--width", "1", "-o", "{tmp}/cd.pdf"], "is too small"),
        (["--width", "nan", "-o", "{tmp}/cd.pdf"], "--width must be a positive number"),
        (["--correction", "bergmann", "--bh-budget", "0.001"], "--bh-budget 60"),
    ],
)
def test_process_exit_2_one_line_no_traceback(extra, message, tmp_path, benavoli):
    data = tmp_path / "data.csv"
    if "--correction" in extra:
        hard_bergmann_table(data)
    else:
        benavoli.to_csv(data)
    done = run_process(["compare", data, *(a.format(tmp=tmp_path) for a in extra)], text=True)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and done.stderr.startswith("cdplot: error:")
    assert message in done.stderr
    assert sorted(os.listdir(tmp_path)) == ["data.csv"]


def test_process_figure_to_stdout(tmp_path, benavoli):
    benavoli.to_csv(tmp_path / "r.csv")
    done = run_process(["compare", tmp_path / "r.csv", "-o", "-", "--format", "png"])
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(b"\x89PNG\r\n\x1a\n") and done.stdout.endswith(b"IEND\xaeB`\x82")
    assert sorted(os.listdir(tmp_path)) == ["r.csv"]


def test_cli_import_is_light():
    code = "import sys, cdplot.cli; print('matplotlib' in sys.modules, 'pandas' in sys.modules)"
    env = {**os.environ, "PYTHONPATH": ROOT}
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env
    )
    assert done.stdout.split()[0] == "False"


# ----------------------------------------------------- the same messages in Python terms
def test_python_path_speaks_python(benavoli):
    from cdplot import BergmannHommelLimitError, CdplotInputError

    with pytest.raises(CdplotInputError, match=r"test='nemenyi' carries its own .*"
                       r"correction='holm' cannot be applied; drop correction"):  # fmt: skip
        cdplot.compare(benavoli, test="nemenyi", correction="holm")
    with pytest.raises(CdplotInputError, match=r"pass control='NAME' to use it"):
        cdplot.compare(benavoli, correction="li")
    with pytest.raises(CdplotInputError, match=r"bh_budget applies to correction='bergmann-h"):
        cdplot.compare(benavoli, bh_budget=5)
    with pytest.raises(CdplotInputError, match=r"^alpha must be in \(0, 1\)"):
        cdplot.compare(benavoli, alpha=1.5)
    hard = benavoli.copy()
    hard.iloc[0, 0] = math.nan
    with pytest.raises(CdplotInputError, match=r"missing='keep' to analyse .* missing='drop' to"):
        cdplot.compare(hard)
    rng = np.random.default_rng(0)
    x = rng.normal(size=(30, 30)) + np.linspace(0.0, 1.0, 30)
    with pytest.raises(
        BergmannHommelLimitError,
        match=r"Use correction='shaffer' \(or correction='holm'\), valid for any k, or raise "
        r"the budget, e.g. bh_budget=60\.$",
    ):
        cdplot.compare(x, correction="bergmann", bh_budget=0.001)
    assert issubclass(BergmannHommelLimitError, CdplotInputError)


def test_python_defaults_unchanged(benavoli):
    assert cdplot.compare(benavoli).correction == "holm"
    assert cdplot.compare(benavoli, control="C1").correction == "holm"
    with pytest.warns(cdplot.PoolDependenceWarning, match="Silence with warnings.simplefilter"):
        res = cdplot.compare(benavoli, test="nemenyi")
    assert res.correction == "nemenyi"
    with pytest.warns(cdplot.PoolDependenceWarning):
        same = cdplot.compare(benavoli, test="nemenyi", correction="Nemenyi")
    pd.testing.assert_frame_equal(res.adjusted_pvalues, same.adjusted_pvalues)
    # an explicit budget that suffices changes nothing
    a = cdplot.compare(benavoli, correction="bergmann")
    b = cdplot.compare(benavoli, correction="bergmann", bh_budget=math.inf)
    pd.testing.assert_frame_equal(a.adjusted_pvalues, b.adjusted_pvalues)


def test_binary_figure_to_a_terminal_is_refused(results_csv, tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    code, out, err = run(["compare", results_csv, "-o", "-", "--format", "pdf"], capsys)
    assert code == 2 and out == ""
    assert err == (
        "cdplot: error: -o - --format pdf would write a binary file to the terminal; redirect "
        "it, e.g. -o - --format pdf > figure.pdf.\n"
    )
    code, out, err = run(["compare", results_csv, "-o", "-", "--format", "svg"], capsys)
    assert code == 0 and out.startswith("<?xml")


def test_stdin_not_utf8(capsys, monkeypatch):
    raw = b"dataset,A,B\nd1,1,\xff2\nd2,2,1\n"
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(raw)))
    code, _, err = run(["compare", "-"], capsys)
    assert code == 2
    assert err == (
        "cdplot: error: standard input is not UTF-8 text; convert it, e.g. with iconv -t UTF-8.\n"
    )
    bom = b"\xef\xbb\xbfdataset,A,B\nd1,1,x\nd2,2,1\n"
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(bom)))
    code, _, err = run(["compare", "-"], capsys)  # a BOM is fine; the text cell is the error
    assert code == 2
    assert err.startswith(
        "cdplot: error: cannot tell the roles of the columns 'dataset', 'A', 'B': column 'B' "
        "holds text"
    )


@pytest.mark.parametrize("extra", [[], ["--json", "-"]])
def test_reader_going_away_is_quiet(tmp_path, benavoli, extra):
    benavoli.to_csv(tmp_path / "r.csv")
    env = {**os.environ, "PYTHONPATH": ROOT}
    proc = subprocess.Popen(
        [sys.executable, "-m", "cdplot", "compare", str(tmp_path / "r.csv"), *extra],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )
    proc.stdout.close()  # as `cdplot ... | head -0` would
    err = proc.stderr.read()
    proc.stderr.close()
    assert proc.wait(timeout=120) == 141
    assert err == b""


@pytest.mark.skipif(
    not any(__import__("shutil").which(e) for e in ("xelatex", "lualatex", "pdflatex")),
    reason="needs a TeX engine",
)
def test_tex_special_names_are_escaped_in_pgf(tmp_path, capsys):
    rows = "".join(f"d{i},{i},{(i * 7) % 5},{(i * 3) % 4}\n" for i in range(6))
    (tmp_path / "r.csv").write_text("dataset,c&d,B,C\n" + rows)
    code, _, err = run(["compare", tmp_path / "r.csv", "-o", tmp_path / "cd.pgf", "-q"], capsys)
    assert code == 0, err
    assert r"c\&d" in (tmp_path / "cd.pgf").read_text(encoding="utf-8")
    assert sorted(os.listdir(tmp_path)) == ["cd.pgf", "r.csv"]


def test_matplotlib_log_warnings_become_one_line_warnings(capsys, monkeypatch):
    import logging

    from cdplot.cli import _demo

    def fake_run(args, out):
        logging.getLogger("matplotlib.mathtext").warning("Font 'x' has no glyph for 'y'")

    monkeypatch.setattr(_demo, "run", fake_run)
    code, _, err = run(["demo"], capsys)
    assert code == 0
    assert err == "cdplot: warning: Font 'x' has no glyph for 'y' (silence with --no-warn or -q)\n"
    for flag in ("-q", "--no-warn"):
        code, _, err = run(["demo", flag], capsys)
        assert code == 0 and err == ""
    assert logging.getLogger("matplotlib").propagate  # restored after the run


def test_ctrl_c_during_the_analysis_exits_130(results_csv, tmp_path, capsys, monkeypatch):
    import cdplot.stats._compare as stats_compare

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(stats_compare, "compare", interrupted)
    code, out, err = run(["compare", results_csv, "--json", tmp_path / "r.json"], capsys)
    assert code == 130 and err == "cdplot: interrupted\n"
    assert not (tmp_path / "r.json").exists()


def test_new_statistics_flags_reach_compare(tmp_path, capsys):
    rows = "".join(
        f"d{i},{i % 3},{(i * 7) % 5},{'' if i == 2 else (i * 3) % 4}\n" for i in range(9)
    )
    (tmp_path / "holes.csv").write_text("dataset,A,B,C\n" + rows)
    code, out, err = run(
        ["compare", tmp_path / "holes.csv", "--missing", "keep", "--json", tmp_path / "r.json"],
        capsys,
    )
    assert code == 0, err
    doc = json.loads((tmp_path / "r.json").read_text())
    assert doc["friedman"] is None and doc["omnibus"]["name"].startswith("Skillings")
    assert doc["n_missing"] == 1
    argv = ["compare", tmp_path / "holes.csv", "--missing", "keep", "--omnibus", "quade"]
    code, out, err = run(argv, capsys)
    assert code == 2 and "needs a complete table" in err


def test_bayesian_test_draws_the_bayesian_diagram_and_refuses_a_heatmap(
    results_csv, tmp_path, capsys
):
    figure, heat = tmp_path / "cd.svg", tmp_path / "apv.pdf"
    bayes = ["--test", "bayes-signed-rank", "--rope", "1", "-q"]
    code, _, err = run(["compare", results_csv, *bayes, "-o", figure], capsys)
    assert code == 0, err
    svg = figure.read_text()
    # bayes_cd_diagram, not the ordinary diagram: its dashed equivalence bars (Benavoli's
    # table with rope = 1 has practically equivalent runs)
    assert 'id="bayes-equivalent-bar' in svg
    code, _, err = run(["compare", results_csv, *bayes, "--heatmap", heat], capsys)
    assert code == 2 and not heat.exists()
    assert err == (
        "cdplot: error: --heatmap draws p-values, but --test bayes-signed-rank gives posterior "
        "probabilities; drop --heatmap (-o draws the Bayesian CD diagram, --json and --report "
        "hold every posterior).\n"
    )


def test_bayesian_and_quade_options_reach_compare(results_csv, tmp_path, capsys):
    out = tmp_path / "r.json"
    argv = ["compare", results_csv, "--test", "bayes-sign", "--rope", "0.5", "--threshold"]
    argv += ["0.9", "--nsamples", "2000", "--seed", "3", "--json", out, "-q"]
    code, _, err = run(argv, capsys)
    assert code == 0, err
    settings = json.loads(out.read_text())["settings"]
    assert settings["test_options"] == {
        "rope": 0.5,
        "threshold": 0.9,
        "nsamples": 2000,
        "random_state": 3,
    }
    code, _, err = run(["compare", results_csv, "--quade-method", "conover", "-q"], capsys)
    assert code == 2
    assert err == (
        "cdplot: error: unknown option(s) --quade-method for --test wilcoxon; it accepts "
        "--zero-method.\n"
    )
    code, _, err = run(
        ["compare", results_csv, "--test", "quade", "--quade-method", "conover", "-q"], capsys
    )
    assert code == 0, err

"""The cdplot command line: every command, every error case (exit code and message pinned).

Consistency only: the CLI must give the same numbers as ``cdplot.compare`` on the same
input (checked through the JSON output, which round-trips).
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import cdplot
from cdplot._json import result_from_json, result_to_json
from cdplot.cli import main


@pytest.fixture
def results_csv(tmp_path, benavoli) -> Path:
    path = tmp_path / "results.csv"
    benavoli.to_csv(path)
    return path


def run(argv, capsys):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_demo_writes_pdf_and_prints_summary(tmp_path, capsys):
    target = tmp_path / "demo.pdf"
    code, out, err = run(["demo", "-o", target], capsys)
    assert code == 0
    assert target.read_bytes().startswith(b"%PDF")
    assert "C4.5+m+cf" in out and "1.118" in out
    assert "cdplot: warning: the nemenyi test's decision on a pair depends" in err


def test_demo_default_output(tmp_path, capsys, monkeypatch):
    import os

    monkeypatch.chdir(tmp_path)
    umask = os.umask(0o022)
    try:
        code, _, _ = run(["demo"], capsys)
    finally:
        os.umask(umask)
    assert code == 0
    # written through a temporary file, but with the permissions of a normal new file
    assert (tmp_path / "cd-demo.pdf").stat().st_mode & 0o777 == 0o644


@pytest.mark.parametrize("ext", ["pdf", "svg", "png", "eps"])
def test_compare_figure_formats(results_csv, tmp_path, capsys, ext):
    target = tmp_path / f"cd.{ext}"
    code, out, err = run(["compare", results_csv, "-o", target, "--column", "double"], capsys)
    assert code == 0, err
    assert target.stat().st_size > 500
    assert "wrote" in out
    assert not list(tmp_path.glob("*.part"))


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


def test_json_round_trip_control_mode_and_inf():
    x = np.tile(np.arange(4.0), (8, 1))  # identical rankings: Iman-Davenport F = inf
    res = cdplot.compare(x, control="A1", test="sign")
    back = result_from_json(result_to_json(res))
    assert back.iman_davenport.statistic == np.inf
    pd.testing.assert_series_equal(back.adjusted_pvalues, res.adjusted_pvalues)
    pd.testing.assert_series_equal(back.significant, res.significant)
    assert back.control == "A1" and back.critical_difference is None


def test_compare_long_format_and_stdin(tmp_path, capsys, monkeypatch, benavoli):
    long = benavoli.reset_index().melt(id_vars="dataset", var_name="method", value_name="acc")
    path = tmp_path / "long.tsv"
    long.to_csv(path, sep="\t", index=False)
    code, out, err = run(
        [
            "compare",
            path,
            "--dataset-col",
            "dataset",
            "--algorithm-col",
            "method",
            "--score-col",
            "acc",
            "--json",
            tmp_path / "a.json",
            "-q",
        ],
        capsys,
    )
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
            "compare",
            results_csv,
            "--lower-is-better",
            "--test",
            "sign",
            "--sign-ties",
            "discard",
            "--alpha",
            "0.1",
            "--control",
            "C1",
            "--correction",
            "li",
            "--json",
            target,
            "-q",
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


def test_report_markdown(results_csv, tmp_path, capsys):
    target = tmp_path / "report.md"
    code, _, err = run(["compare", results_csv, "--report", target, "-q"], capsys)
    assert code == 0, err
    assert "C2" in target.read_text()


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["compare", "{missing}"], "cannot read results file"),
        (["compare", "{pipes}"], "cannot find a delimiter in the first line"),
        (
            ["compare", "{csv}", "--dataset-col", "x", "--algorithm-col", "y", "--score-col", "z"],
            "column 'x' (given as dataset=) is not in the table",
        ),
        (["compare", "{nan}"], "missing score (NaN or absent) for algorithm 'B' on dataset 'd2'"),
        (["compare", "{csv}", "--control", "C9"], "unknown control algorithm 'C9'"),
        (["compare", "{csv}", "--test", "z-test"], "'z-test' is not a valid value for test"),
        (["compare", "{csv}", "-o", "{tmp}/cd.jpeg"], "cannot tell the figure format"),
        (["compare", "{csv}", "--report", "{tmp}/r.docx"], "cannot tell the report format"),
        (["compare", "{csv}", "-o", "{tmp}/nodir/cd.pdf"], "does not exist"),
        (
            ["compare", "{csv}", "--zero-method", "pratt", "--test", "sign"],
            "--zero-method applies to --test wilcoxon only",
        ),
        (["compare", "{csv}", "--alpha", "x"], "argument --alpha: invalid float value: 'x'"),
        (["compare"], "the following arguments are required: RESULTS"),
        (["frobnicate"], "invalid choice: 'frobnicate'"),
    ],
)
def test_errors_exit_2_with_one_line(argv, message, tmp_path, results_csv, capsys):
    (tmp_path / "pipes.csv").write_text("dataset|A|B\nd1|1|2\n")
    (tmp_path / "nan.csv").write_text(
        "dataset,A,B\n" + "".join(f"d{i},{i},{'' if i == 2 else i}\n" for i in range(1, 9))
    )
    subs = {
        "missing": tmp_path / "none.csv",
        "pipes": tmp_path / "pipes.csv",
        "csv": results_csv,
        "nan": tmp_path / "nan.csv",
        "tmp": tmp_path,
    }
    argv = [a.format(**subs) for a in argv]
    code, _, err = run(argv, capsys)
    assert code == 2
    errors = [line for line in err.splitlines() if line.startswith("cdplot: error:")]
    assert len(errors) == 1 and message in errors[0]
    assert "Traceback" not in err
    assert not (tmp_path / "cd.jpeg").exists()


def test_no_partial_output_on_failure(results_csv, tmp_path, capsys, monkeypatch):
    import cdplot.cli._main as cli

    target = tmp_path / "cd.pdf"
    target.write_bytes(b"old")

    def boom(fig, fh, **kwargs):
        fh.write(b"partial")
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(
        cli,
        "_save_figure",
        lambda fig, path: cli._atomic_write(path, lambda fh: boom(fig, fh), binary=True),
    )
    code, _, err = run(["compare", results_csv, "-o", target, "-q"], capsys)
    assert code == 2 and "No space left on device" in err
    assert target.read_bytes() == b"old"
    assert not list(tmp_path.glob("*.part"))


def test_version_and_help(capsys):
    code, out, _ = run(["--version"], capsys)
    assert code == 0 and out.strip() == f"cdplot {cdplot.__version__}"
    for argv in (["--help"], ["demo", "--help"], ["compare", "--help"]):
        code, out, _ = run(argv, capsys)
        assert code == 0 and "usage: cdplot" in out
    _, out, _ = run(["compare", "--help"], capsys)
    assert "examples:" in out and "--lower-is-better" in out


def test_console_script_and_module(tmp_path):
    script = Path(sys.executable).parent / "cdplot"
    cmds = [[sys.executable, "-m", "cdplot"]]
    if script.exists():
        cmds.append([str(script)])
    for cmd in cmds:
        done = subprocess.run(cmd + ["--version"], capture_output=True, text=True, check=False)
        assert done.returncode == 0 and done.stdout.startswith("cdplot ")
        done = subprocess.run(
            cmd + ["compare", str(tmp_path / "absent.csv")],
            capture_output=True,
            text=True,
            check=False,
        )
        assert done.returncode == 2
        assert done.stderr.strip().startswith("cdplot: error: cannot read results file")


def test_cli_import_is_light():
    code = "import sys, cdplot.cli; print('matplotlib' in sys.modules, 'pandas' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split()[0] == "False"

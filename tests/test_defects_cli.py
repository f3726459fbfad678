"""The command line: refusals, exit codes and the demo's one error line.

Each test failed on 9c73ebe.
"""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
import weakref

import pytest
from _helpers import run

TABLE = "dataset,A,B,C\nd1,1,2,3\nd2,2,3,1\nd3,3,1,2\nd4,1,3,2\n"


def _table(tmp_path):
    path = tmp_path / "in.csv"
    path.write_text(TABLE)
    return path


# --------------------------------------------------------------------------- standard input
@pytest.mark.parametrize("ending", [b"\r", b"\r\n", b"\n"])
def test_line_endings_on_standard_input_read_as_from_a_file(ending, tmp_path, capsys):
    data = ending.join([b"dataset,A,B,C", b"d1,1,2,3", b"d2,2,3,1", b"d3,3,1,2"]) + ending
    path = tmp_path / "t.csv"
    path.write_bytes(data)
    from_file = run(["compare", path, "--json", "-", "-q"], capsys)
    stdin = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8", newline="")
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(sys, "stdin", stdin)
        from_stdin = run(["compare", "-", "--json", "-", "-q"], capsys)
    assert from_file[0] == from_stdin[0] == 0, from_stdin
    a, b = json.loads(from_file[1]), json.loads(from_stdin[1])
    assert a["average_ranks"] == b["average_ranks"]
    assert a["datasets"] == b["datasets"] == ["d1", "d2", "d3"]


# ----------------------------------------------------------------------- empty output paths
@pytest.mark.parametrize("flag", ["-o", "--json", "--heatmap", "--report"])
def test_empty_output_path_is_refused_naming_the_flag(flag, tmp_path, capsys):
    code, out, err = run(["compare", _table(tmp_path), flag, ""], capsys)
    assert code == 2
    assert f"{flag} got an empty file name" in err
    assert err.count("\n") == 1


@pytest.mark.parametrize("flag", ["-o", "--json", "--csv"])
def test_simulate_empty_output_path(flag, capsys):
    code, _, err = run(["simulate", "--k", "3", "--replicates", "10", flag, ""], capsys)
    assert code == 2 and f"{flag} got an empty file name" in err


# ------------------------------------------------------------------------- output to stdout
@pytest.mark.parametrize("flag", ["--json", "--csv"])
def test_simulate_to_stdout_prints_only_the_output(flag, capsys):
    argv = ["simulate", "--k", "3", "--replicates", "20", "--seed", "1", "--no-progress"]
    code, out, err = run([*argv, flag, "-"], capsys)
    assert code == 0, err
    if flag == "--json":
        assert json.loads(out)  # nothing but the document
    else:
        import pandas as pd

        frame = pd.read_csv(io.StringIO(out))  # nothing but the table
        assert len(frame) >= 1 and "wrote" not in out
    _, summary, _ = run(argv, capsys)
    assert summary.strip() and summary.strip() not in out


# ------------------------------------------------------------------------ read-only outputs
def test_read_only_output_is_refused_even_for_root(tmp_path, capsys):
    target = tmp_path / "res.json"
    target.write_text("keep me")
    target.chmod(0o444)
    code, _, err = run(["compare", _table(tmp_path), "--json", target], capsys)
    assert code == 2
    assert "is read-only" in err and str(target) in err
    assert target.read_text() == "keep me"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.csv", "res.json"]


def test_writable_output_is_replaced_keeping_its_mode(tmp_path, capsys):
    target = tmp_path / "res.json"
    target.write_text("old")
    target.chmod(0o640)
    code, _, err = run(["compare", _table(tmp_path), "--json", target, "-q"], capsys)
    assert code == 0, err
    assert json.loads(target.read_text())["algorithms"] == ["A", "B", "C"]
    assert target.stat().st_mode & 0o777 == 0o640


# --------------------------------------------------------------------------- signals
@pytest.mark.parametrize(("signum", "status"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_signal_swallowed_by_a_weakref_callback_still_stops_the_run(
    signum, status, tmp_path, capsys, monkeypatch
):
    from cdplot.cli import _compare

    original = _compare.run

    class Thing:
        pass

    def run_with_swallowed_signal(args, out):
        thing = Thing()
        # the handler's exception is raised inside the callback, where Python ignores it
        ref = weakref.ref(thing, lambda r: os.kill(os.getpid(), signum))
        del thing
        assert ref() is None
        return original(args, out)

    monkeypatch.setattr(_compare, "run", run_with_swallowed_signal)
    monkeypatch.setattr(sys, "unraisablehook", lambda unraisable: None)
    target = tmp_path / "res.json"
    code, out, err = run(["compare", _table(tmp_path), "--json", target, "-q"], capsys)
    assert code == status
    assert not target.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.csv"]


def test_signal_in_a_real_process_exits_130_with_no_output(tmp_path):
    target = tmp_path / "cd.pdf"
    code = (
        "import os, signal, sys, weakref\n"
        "import cdplot.cli._compare as c\n"
        "orig = c.run\n"
        "class T: pass\n"
        "def run(args, out):\n"
        "    t = T(); r = weakref.ref(t, lambda r: os.kill(os.getpid(), signal.SIGINT)); del t\n"
        "    return orig(args, out)\n"
        "c.run = run\n"
        "from cdplot.cli import main\n"
        f"sys.exit(main(['compare', {str(_table(tmp_path))!r}, '-o', {str(target)!r}, '-q']))\n"
    )
    env = {**os.environ, "MPLBACKEND": "Agg"}
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120
    )
    assert proc.returncode == 130, proc.stderr
    assert "interrupted" in proc.stderr
    assert not target.exists()


# --------------------------------------------------------------------------- messages
def test_demo_unknown_highlight_is_one_error_line(tmp_path, capsys):
    code, out, err = run(["demo", "--highlight", "Z", "-o", tmp_path / "d.pdf"], capsys)
    assert code == 2
    assert err.splitlines() == [
        "cdplot: error: --highlight 'Z' is not an algorithm of the demo data; the algorithms "
        "are 'C4.5', 'C4.5+m', 'C4.5+cf', 'C4.5+m+cf'."
    ]


def test_bayesian_flags_and_seed_messages_speak_the_command_line(tmp_path, capsys):
    code, _, err = run(
        ["compare", _table(tmp_path), "--test", "bayes-sign", "--rope", "-1", "-q"], capsys
    )
    assert code == 2 and "--rope must be" in err and "rope=" not in err
    code, _, err = run(["simulate", "--k", "3", "--replicates", "10", "--seed", "-3"], capsys)
    assert code == 2 and "--seed" in err and "random_state" not in err

"""The command line's start-up and its refusals of empty or repeated names.

A Ctrl-C while the program starts (importing numpy, the statistics, matplotlib) ends it
with one line and exit status 130, never an import traceback: the ``cdplot`` script's
first import loads nothing heavy, and :func:`cdplot.cli.main` catches the interrupt around
the rest.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from _helpers import run

ROOT = str(Path(__file__).resolve().parents[1])

#: The two lines of the ``cdplot`` console script (pip's wrapper of ``cdplot.cli:main``),
#: after a finder that sends SIGINT to the process when ``{module}`` is first imported.
SCRIPT = """\
import importlib.abc, os, signal, sys
class SigintOnImport(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name == {module!r}:
            sys.meta_path.remove(self)
            os.kill(os.getpid(), signal.SIGINT)
        return None
sys.meta_path.insert(0, SigintOnImport())
from cdplot.cli import main
sys.exit(main({argv!r}))
"""


def _start(module: str, argv: list[str], cwd: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": ROOT, "MPLBACKEND": "Agg"}
    code = SCRIPT.format(module=module, argv=argv)
    return subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env=env,
        cwd=cwd,
        timeout=120,
        check=False,
    )


@pytest.mark.skipif(not hasattr(signal, "SIGINT") or os.name == "nt", reason="POSIX signals")
@pytest.mark.parametrize("module", ["numpy", "cdplot.stats", "cdplot.cli._main"])
def test_ctrl_c_during_start_up_is_one_line_and_130(module, tmp_path):
    (tmp_path / "r.csv").write_text("dataset,A,B\nd1,1,2\nd2,2,1\nd3,1,3\n")
    done = _start(module, ["compare", "r.csv", "-q"], tmp_path)
    assert done.returncode == 130, done.stderr
    assert done.stderr == "cdplot: interrupted\n"
    assert done.stdout == ""


def test_the_script_import_loads_nothing_heavy():
    code = (
        "import sys; from cdplot.cli import main\n"
        "print(sorted(m for m in ('numpy', 'cdplot.stats', 'matplotlib', 'pandas', "
        "'cdplot.cli._main') if m in sys.modules))"
    )
    env = {**os.environ, "PYTHONPATH": ROOT}
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
    )
    assert done.stdout.strip() == "[]"


def test_entry_point_catches_an_interrupt_while_importing_the_parser(monkeypatch, capsys):
    import builtins

    import cdplot.cli

    real_import = builtins.__import__

    def interrupted(name, globals=None, locals=None, fromlist=(), level=0):
        if level == 1 and name == "_main":
            raise KeyboardInterrupt
        return real_import(name, globals, locals, fromlist, level)

    monkeypatch.setattr(builtins, "__import__", interrupted)
    assert cdplot.cli.main(["--version"]) == 130
    assert capsys.readouterr().err == "cdplot: interrupted\n"


def test_empty_item_tests_name_is_refused(tmp_path, capsys):
    (tmp_path / "r.csv").write_text("dataset,A,B\nd1,1,2\nd2,2,1\nd3,1,3\n")
    code, out, err = run(["compare", tmp_path / "r.csv", "--item-tests", ""], capsys)
    assert code == 2
    assert err.splitlines() == [
        "cdplot: error: --item-tests got an empty file name (an unset shell variable?); give "
        "a file name, or - for standard output, or leave out --item-tests."
    ]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.csv"]


@pytest.mark.parametrize("names", ["A,A", "A,B,A", "x, x"])
def test_simulate_names_a_repeated_algorithm(names, capsys):
    means = ",".join(["0"] * len(names.split(",")))
    code, out, err = run(["simulate", "--means", means, f"--names={names}"], capsys)
    twice = names.split(",")[0].strip()
    assert code == 2
    assert err.splitlines() == [
        f"cdplot: error: --names gives {twice!r} twice; give every algorithm its own name"
    ]

"""Module boundaries: importing cdplot loads no plotting library, pandas or scipy.special;
the result's tables become pandas objects only when they are read."""

from __future__ import annotations

import os
import subprocess
import sys


def test_import_is_light():
    code = (
        "import sys, cdplot, cdplot.stats\n"
        "heavy = ('matplotlib', 'seaborn', 'scipy.stats', 'scipy.special', 'pandas')\n"
        "heavy = [m for m in heavy if m in sys.modules]\n"
        "print(','.join(heavy))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_compare_with_wilcoxon_does_not_load_matplotlib():
    code = (
        "import sys, cdplot\n"
        "cdplot.compare(cdplot.datasets.load('benavoli2016'))\n"
        "print('matplotlib' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_tables_are_built_into_pandas_only_when_read(tmp_path):
    """compare() on a file, the summary and the groups need no pandas; reading a table does."""
    path = tmp_path / "r.csv"
    path.write_text(
        "dataset,A,B,C\n"
        + "".join(f"d{i},{i % 3},{(i * 7) % 5},{(i * 3) % 4}\n" for i in range(12))
    )
    code = (
        "import sys, cdplot\n"
        f"res = cdplot.compare({str(path)!r})\n"
        "text = res.summary() + str(res.groups)\n"
        "before = 'pandas' in sys.modules\n"
        "ranks = res.average_ranks\n"
        "print(before, type(ranks).__module__.split('.')[0], ranks.name, 'pandas' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "pandas", "average", "rank", "True"]


def test_command_line_run_needs_no_pandas(tmp_path):
    """``cdplot compare FILE -o cd.pdf --json res.json`` (summary printed) never imports pandas."""
    path = tmp_path / "r.csv"
    path.write_text(
        "dataset,A,B,C\n"
        + "".join(f"d{i},{i % 3},{(i * 7) % 5},{(i * 3) % 4}\n" for i in range(12))
    )
    argv = ["cdplot", "compare", str(path), "-o", str(tmp_path / "cd.pdf")]
    argv += ["--json", str(tmp_path / "r.json"), "--control", "A"]
    code = (
        "import runpy, sys\n"
        f"sys.argv = {argv!r}\n"
        "try:\n"
        "    runpy.run_module('cdplot', run_name='__main__')\n"
        "except SystemExit as exc:\n"
        "    assert exc.code in (0, None), exc.code\n"
        "print('PANDAS', 'pandas' in sys.modules)\n"
    )
    env = {**os.environ, "MPLBACKEND": "Agg"}
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env
    )
    assert out.stdout.strip().splitlines()[-1] == "PANDAS False"
    assert (tmp_path / "cd.pdf").read_bytes().startswith(b"%PDF")
    assert '"control": "A"' in (tmp_path / "r.json").read_text()

"""Module boundaries: importing cdplot loads no plotting library, pandas or scipy.special;
the result's tables become pandas objects only when they are read."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest


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


def _cli_then(argv: list[str], then: str) -> str:
    """Run ``cdplot`` with ``argv`` in a fresh process (Agg), then the code ``then``; stdout."""
    code = (
        "import runpy, sys\n"
        f"sys.argv = {argv!r}\n"
        "try:\n"
        "    runpy.run_module('cdplot', run_name='__main__')\n"
        "except SystemExit as exc:\n"
        "    assert exc.code in (0, None), exc.code\n" + then
    )
    env = {**os.environ, "MPLBACKEND": "Agg"}
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env
    )
    return out.stdout


def test_command_line_run_needs_no_pandas(tmp_path):
    """``cdplot compare FILE -o cd.pdf --json res.json`` (summary printed) never imports pandas."""
    path = tmp_path / "r.csv"
    path.write_text(
        "dataset,A,B,C\n"
        + "".join(f"d{i},{i % 3},{(i * 7) % 5},{(i * 3) % 4}\n" for i in range(12))
    )
    argv = ["cdplot", "compare", str(path), "-o", str(tmp_path / "cd.pdf")]
    argv += ["--json", str(tmp_path / "r.json"), "--control", "A"]
    out = _cli_then(argv, "print('PANDAS', 'pandas' in sys.modules)\n")
    assert out.strip().splitlines()[-1] == "PANDAS False"
    assert (tmp_path / "cd.pdf").read_bytes().startswith(b"%PDF")
    assert '"control": "A"' in (tmp_path / "r.json").read_text()


def _continuous_table(path, n: int = 20, k: int = 6) -> None:
    """N x k random scores (no ties, no zero differences: every Wilcoxon pair is exact)."""
    import numpy as np

    x = np.random.default_rng(15).normal(size=(n, k)) + np.linspace(0.0, 1.0, k)
    rows = [f"d{i}," + ",".join(repr(float(v)) for v in row) for i, row in enumerate(x)]
    names = ",".join(f"alg{j}" for j in range(k))
    path.write_text(f"dataset,{names}\n" + "\n".join(rows) + "\n")


@pytest.mark.parametrize("n", [20, 60])  # exact Wilcoxon tests; the normal approximation
@pytest.mark.parametrize("quiet", [True, False])
def test_run_to_pdf_needs_no_scipy_special(tmp_path, n, quiet):
    """``cdplot compare FILE -o cd.pdf`` never imports scipy.special, quiet or with the
    summary printed: the omnibus p-values come from cdplot's chi-square and F tails
    (stats/_tails.py), the normal tail from the C library's erfc. Reading the omnibus
    p-values of a result does not import it either."""
    path = tmp_path / "r.csv"
    _continuous_table(path, n=n)
    argv = ["cdplot", "compare", str(path), "-o", str(tmp_path / "cd.pdf")]
    argv += ["-q"] if quiet else []
    out = _cli_then(
        argv,
        "print('SPECIAL', 'scipy.special' in sys.modules)\n"
        "import cdplot\n"
        f"res = cdplot.compare({str(path)!r})\n"
        "p = res.friedman.pvalue, res.iman_davenport.pvalue\n"
        "print('SPECIAL', 'scipy.special' in sys.modules, 0 < min(p) <= max(p) < 1)\n",
    )
    assert out.split()[-5:] == ["SPECIAL", "False", "SPECIAL", "False", "True"]
    if not quiet:
        assert "Friedman" in out or "Iman" in out
    assert (tmp_path / "cd.pdf").read_bytes().startswith(b"%PDF")


@pytest.mark.parametrize("k", [5, 20])
def test_nemenyi_run_to_pdf_needs_no_scipy_special(tmp_path, k):
    """``cdplot compare FILE --test nemenyi -o cd.pdf`` with its summary does not import
    scipy.special up to k = 24: the studentized range's normal distribution function is the
    C library's erfc there (stats/_studentized.py). Beyond, scipy.special is imported."""
    path = tmp_path / "r.csv"
    _continuous_table(path, n=30, k=k)
    argv = ["cdplot", "compare", str(path), "--test", "nemenyi", "-o", str(tmp_path / "cd.pdf")]
    out = _cli_then(
        argv,
        "print('SPECIAL', 'scipy.special' in sys.modules)\n"
        "import cdplot\n"
        f"res = cdplot.compare({str(path)!r}, test='nemenyi')\n"
        "p = res.adjusted_pvalues.to_numpy()\n"
        "print('SPECIAL', 'scipy.special' in sys.modules, res.critical_difference > 0)\n",
    )
    assert out.split()[-5:] == ["SPECIAL", "False", "SPECIAL", "False", "True"]
    assert "Nemenyi" in out
    assert (tmp_path / "cd.pdf").read_bytes().startswith(b"%PDF")


def test_deferred_omnibus_pvalues_pickle_and_match_scipy(tmp_path):
    """A result pickled before its omnibus p-values are read carries them; the values
    are scipy's (``scipy.stats.friedmanchisquare``; Iman-Davenport from ``scipy.stats.f``)."""
    import pickle

    import numpy as np
    from scipy import stats

    import cdplot

    path = tmp_path / "r.csv"
    _continuous_table(path)
    res = cdplot.compare(str(path))
    # computed with the result (stats/_tails.py: no scipy.special), stored as a plain float
    assert isinstance(vars(res.friedman)["pvalue"], float)
    back = pickle.loads(pickle.dumps(res))
    x = np.loadtxt(path, delimiter=",", skiprows=1, usecols=range(1, 7))
    chi2, p = stats.friedmanchisquare(*x.T)
    n, k = x.shape
    f = (n - 1) * chi2 / (n * (k - 1) - chi2)
    p_f = stats.f.sf(f, k - 1, (k - 1) * (n - 1))
    for r in (back, res):
        assert abs(r.friedman.statistic - chi2) <= 1e-12 * chi2
        assert abs(r.friedman.pvalue - p) <= 1e-12 * p
        assert abs(r.iman_davenport.pvalue - p_f) <= 1e-12 * p_f
    assert back.friedman == res.friedman and back.iman_davenport == res.iman_davenport


def test_object_pickled_before_fields_were_lazy_still_loads():
    """An OmnibusResult pickled by cdplot before its p-value field became lazy holds the
    value under ``pvalue`` in its state (pickle restores ``__dict__`` as it was)."""
    import pickle

    from cdplot import OmnibusResult

    old = OmnibusResult.__new__(OmnibusResult)
    old.__dict__.update({"statistic": 7.5, "pvalue": 0.023, "df": 3.0, "name": "Friedman"})
    back = pickle.loads(pickle.dumps(old))
    assert back.pvalue == 0.023
    assert back == OmnibusResult(7.5, 0.023, 3.0, "Friedman")

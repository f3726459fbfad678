"""The reports guide's LaTeX results-table example fits the page as printed.

The call is read from docs/guide/reports.md, run on a results table of k = 7 algorithms
with mean ± std cells (10 runs per cell, names as in the AutoML Benchmark), and compiled
with pdflatex in a two-column ``article``: any overfull ``\\hbox`` fails. A control check
shows the same table without ``resize=True`` does overflow, so the test can fail. Needs
pdflatex; skipped without it.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from _helpers import quiet_compare, run_tex

import cdplot

pytestmark = pytest.mark.skipif(shutil.which("pdflatex") is None, reason="needs pdflatex")

GUIDE = Path(__file__).resolve().parent.parent / "docs" / "guide" / "reports.md"
#: framework names of the AutoML Benchmark (Gijsbers et al. 2024)
NAMES = [
    "constantpredictor",
    "RandomForest",
    "TunedRandomForest",
    "autogluon",
    "flaml",
    "H2OAutoML",
    "lightautoml",
]
PREAMBLE = r"""\documentclass[twocolumn]{article}
\usepackage[T1]{fontenc}
\usepackage{lmodern}
\usepackage{booktabs,graphicx}
\begin{document}
Short text before the float.
"""


def _table() -> cdplot.report._results_table.ResultsTable:
    rng = np.random.default_rng(7)
    rows = [
        (f"openml_task_{d}", name, fold, 0.7 + 0.02 * i + rng.normal(0, 0.03))
        for d in range(12)
        for fold in range(10)
        for i, name in enumerate(NAMES)
    ]
    log = pd.DataFrame(rows, columns=["dataset", "algorithm", "fold", "accuracy"])
    res = quiet_compare(log, aggregate="mean")
    return cdplot.results_table(res, control="autogluon")


def _printed_call() -> str:
    """The guide's ``t.to_latex(...)`` line, without its comment."""
    calls = re.findall(r"^(t\.to_latex\(.*\))[ \t]*(?:#.*)?$", GUIDE.read_text("utf-8"), re.M)
    assert len(calls) == 1, calls
    return calls[0]


def _overfull(tmp_path: Path, latex: str) -> list[str]:
    (tmp_path / "table.tex").write_text(latex, "utf-8")
    (tmp_path / "paper.tex").write_text(PREAMBLE + "\\input{table.tex}\n\\end{document}\n")
    done = run_tex("pdflatex", "paper.tex", tmp_path, timeout=240)
    errors = [line for line in done.log.splitlines() if line.startswith("!")]
    assert done.returncode == 0 and not errors, errors or done.log[-2000:]
    return re.findall(r"Overfull \\hbox \(([\d.]+)pt too wide\)", done.log)


def test_the_printed_results_table_example_fits_a_two_column_page(tmp_path):
    table = _table()
    assert "$\\pm$" in table.to_latex()  # mean ± std cells: the wide case
    latex = eval(_printed_call(), {"t": table})  # the example exactly as printed
    assert _overfull(tmp_path, latex) == []


def test_the_same_table_without_resize_overflows(tmp_path):
    latex = _table().to_latex(table_environment="table*", size="footnotesize")
    too_wide = _overfull(tmp_path, latex)
    assert too_wide and float(too_wide[0]) > 50

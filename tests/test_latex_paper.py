"""cdplot's output compiled for real in a two-column LaTeX paper.

A two-column ``article`` ``\\input``s the PGF diagram and heatmap (names with
``_ & # $ %``), ``\\includegraphics`` the PDF diagram, and includes the compact
``to_latex()`` table at k = 8 and ``results_table()``. It is compiled with pdflatex and
with xelatex/lualatex where installed; any LaTeX error, any overfull ``\\hbox`` and any
missing glyph fails, and ``pdffonts`` must list no Type 3 font. Needs a TeX installation
(``.ci/run`` installs one); skipped without pdflatex.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from _helpers import quiet_compare, require_tex_engine, run_tex

import cdplot

pytestmark = pytest.mark.skipif(shutil.which("pdflatex") is None, reason="needs pdflatex")

ENGINES = [e for e in ("pdflatex", "xelatex", "lualatex") if shutil.which(e)]
NAMES = ["Ours #1", "rf_500", "k-NN & PCA", "$baseline", "50% data", "SVM", "LDA", "CART"]

PREAMBLE = r"""\documentclass[twocolumn]{article}
\usepackage{iftex}
\ifPDFTeX\usepackage[T1]{fontenc}\usepackage{lmodern}\else\usepackage{fontspec}\fi
\usepackage{booktabs,graphicx,pgf}
\begin{document}
Short text before the floats.
"""


def _result() -> cdplot.ComparisonResult:
    rng = np.random.default_rng(14)
    scores = pd.DataFrame(
        0.8 + rng.normal(0, 0.04, size=(16, 8)) - np.linspace(0, 0.06, 8),
        columns=NAMES,
        index=[f"data_{i:02d}" for i in range(16)],
    )
    return quiet_compare(scores, test="wilcoxon", correction="holm")


def _compile(directory: Path, engine: str) -> str:
    done = run_tex(engine, "paper.tex", directory, timeout=240)
    log = done.log
    errors = [line for line in log.splitlines() if line.startswith("!")]
    assert done.returncode == 0 and not errors, f"{engine}: {errors or log[-3000:]}"
    overfull = re.findall(r"Overfull \\hbox \(([\d.]+)pt too wide\)[^\n]*", log)
    assert not overfull, f"{engine}: overfull boxes {overfull}"
    missing = re.findall(r"Missing character: There is no .*", log)
    assert not missing, f"{engine}: {missing}"
    return log


def _no_type3(pdf: Path) -> None:
    if shutil.which("pdffonts") is None:
        pytest.skip("needs pdffonts (poppler-utils)")
    out = subprocess.run(["pdffonts", str(pdf)], capture_output=True, text=True, check=True)
    fonts = out.stdout.splitlines()[2:]
    assert fonts, "no fonts listed"
    assert not [f for f in fonts if "Type 3" in f], out.stdout


def _tables(directory: Path, result) -> str:
    (directory / "ranks.tex").write_text(result.to_latex(compact=True, label="tab:ranks"), "utf-8")
    table = cdplot.results_table(result, control="Ours #1")
    (directory / "results.tex").write_text(
        table.to_latex(table_environment="table*", size="footnotesize", label="tab:results"),
        "utf-8",
    )
    return "\\input{ranks.tex}\n\\input{results.tex}\n"


@pytest.mark.parametrize("engine", ENGINES)
def test_tables_and_pdf_diagram_compile_in_a_two_column_paper(tmp_path, engine, tmp_path_factory):
    require_tex_engine(engine, tmp_path_factory)
    result = _result()
    ax = cdplot.cd_diagram(result, width=3.15)
    ax.figure.savefig(tmp_path / "diagram.pdf")
    body = _tables(tmp_path, result)
    body += (
        "\\begin{figure}[htbp]\\centering\\includegraphics{diagram.pdf}"
        "\\caption{CD diagram.}\\end{figure}\n"
    )
    (tmp_path / "paper.tex").write_text(PREAMBLE + body + "\\end{document}\n", "utf-8")
    log = _compile(tmp_path, engine)
    assert "ranks.tex" in log and "results.tex" in log
    _no_type3(tmp_path / "paper.pdf")


def test_compact_tables_fit_one_column_up_to_k10(tmp_path):
    rng = np.random.default_rng(10)
    scores = pd.DataFrame(
        rng.normal(size=(20, 10)) + np.linspace(0, 2, 10),
        columns=[f"algorithm_{i} & #{i}" for i in range(10)],
    )
    body = ""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cdplot.CdplotWarning)
        options = [
            dict(),
            dict(test="nemenyi", correction="nemenyi"),
            dict(test="sign", correction="bergmann"),
            dict(control="algorithm_0 & #0"),
        ]
        for i, kwargs in enumerate(options):
            res = cdplot.compare(scores, **kwargs)
            (tmp_path / f"t{i}.tex").write_text(res.to_latex(compact=True), "utf-8")
            body += f"\\input{{t{i}.tex}}\n"
    (tmp_path / "paper.tex").write_text(PREAMBLE + body + "\\end{document}\n", "utf-8")
    log = _compile(tmp_path, "pdflatex")
    assert all(f"t{i}.tex" in log for i in range(len(options)))


def test_compact_table_fits_one_column_at_k8_and_full_matrix_does_not(tmp_path):
    """The check above can fail: the full matrix of p-values at k = 8 overflows a column."""
    result = _result()
    (tmp_path / "full.tex").write_text(result.to_latex(), "utf-8")
    body = "\\input{full.tex}\n"
    (tmp_path / "paper.tex").write_text(PREAMBLE + body + "\\end{document}\n", "utf-8")
    with pytest.raises(AssertionError, match="overfull boxes"):
        _compile(tmp_path, "pdflatex")


@pytest.mark.parametrize("engine", ENGINES)
def test_whole_paper_with_pgf_figures_compiles(tmp_path, engine, tmp_path_factory):
    require_tex_engine(engine, tmp_path_factory)
    result = _result()
    ax = cdplot.cd_diagram(result, width=3.15)
    ax.figure.savefig(tmp_path / "diagram.pgf")
    ax.figure.savefig(tmp_path / "diagram.pdf")
    cdplot.apv_heatmap(result).figure.savefig(tmp_path / "heatmap.pgf")
    body = _tables(tmp_path, result)
    body += (
        "\\begin{figure}[htbp]\\centering\\input{diagram.pgf}\\caption{PGF.}\\end{figure}\n"
        "\\begin{figure}[htbp]\\centering\\includegraphics{diagram.pdf}\\caption{PDF.}"
        "\\end{figure}\n"
        "\\begin{figure}[htbp]\\centering\\resizebox{\\columnwidth}{!}{\\input{heatmap.pgf}}"
        "\\caption{Heatmap.}\\end{figure}\n"
    )
    (tmp_path / "paper.tex").write_text(PREAMBLE + body + "\\end{document}\n", "utf-8")
    _compile(tmp_path, engine)
    _no_type3(tmp_path / "paper.pdf")

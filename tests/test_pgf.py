"""PGF output that ``\\input``s into a LaTeX paper under pdflatex, xelatex and lualatex.

What is checked: LaTeX escaping of figure text (the special characters ``_ & # $ % ~ ^ \\ {
}``, mathtext kept as math exactly when matplotlib parses it as math); the choice of a TeX
engine and the refusal, before anything is written, when none is installed; and, where a
TeX engine is installed, that the default CD diagram and heatmap of algorithms named
``rf_500``, ``k-NN & PCA``, ``Ours #1``, ``$baseline`` and ``50%`` compile in a two-column
article under every installed engine, with every name and the alpha present in the PDF's
text (``pdftotext``) and no missing character in the log.
"""

from __future__ import annotations

import shutil
import subprocess

import matplotlib as mpl
import numpy as np
import pandas as pd
import pytest
from _helpers import quiet_compare, require_tex_engine, run_tex

import cdplot
from cdplot.plotting._pgf import PGF_ENGINES, check_pgf_engine, is_pgf, latex_escape

NAMES = ["rf_500", "k-NN & PCA", "Ours #1", "$baseline", "50%"]


@pytest.mark.parametrize(
    ("text", "latex"),
    [
        ("rf_500", r"rf\_500"),
        ("k-NN & PCA", r"k-NN \& PCA"),
        ("Ours #1", r"Ours \#1"),
        ("$baseline", r"\textdollar{}baseline"),  # one $: not mathtext for matplotlib
        ("50%", r"50\%"),
        ("a~b^c", r"a\textasciitilde{}b\textasciicircum{}c"),
        (r"x{y}\z", r"x\{y\}\textbackslash{}z"),
        ("Bergmann\N{EN DASH}Hommel", "Bergmann--Hommel"),
        (r"Holm, $\alpha$ = 0.05", r"Holm, $\alpha$ = 0.05"),  # mathtext stays math
        # the italic alpha U+1D6FC of cdplot's titles under matplotlib's default font
        ("Holm, \N{MATHEMATICAL ITALIC SMALL ALPHA} = 0.05", r"Holm, $\alpha$ = 0.05"),
        # the heatmap colour bar's rule, thin spaces around the "≤"
        (
            "(\N{THIN SPACE}\N{LESS-THAN OR EQUAL TO}\N{THIN SPACE}"
            "\N{MATHEMATICAL ITALIC SMALL ALPHA}: significant)",
            r"(\,$\leq$\,$\alpha$: significant)",
        ),
        (r"p_1 $x_1$ 5%", r"p\_1 $x_1$ 5\%"),
        (r"cost \$5", r"cost \textdollar{}5"),  # matplotlib shows \$ as $
        ("P \N{GREATER-THAN OR EQUAL TO} 0.95", r"P $\geq$ 0.95"),  # bayes_cd_diagram's title
        (
            "\N{GREEK SMALL LETTER ALPHA} = 0.05 \N{PLUS-MINUS SIGN} 2",
            r"$\alpha$ = 0.05 $\pm$ 2",
        ),  # fmt: skip
    ],
)
def test_latex_escape(text, latex):
    assert latex_escape(text) == latex


@pytest.mark.parametrize(
    ("fname", "kwargs", "expected"),
    [
        ("a.pgf", {}, True),
        ("a.PGF", {}, True),
        ("a.pdf", {}, False),
        ("a.pdf", {"format": "pgf"}, True),
        ("a.pgf", {"format": "png"}, False),
        ("a", {"backend": "pgf"}, True),
    ],
)
def test_is_pgf(fname, kwargs, expected):
    assert is_pgf(fname, kwargs) is expected


def test_no_tex_engine_fails_before_writing(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    with pytest.raises(cdplot.CdplotInputError, match="needs a TeX engine"):
        check_pgf_engine()
    res = cdplot.compare(cdplot.datasets.load("demsar2006"))
    fig = cdplot.cd_diagram(res).figure
    with pytest.raises(cdplot.CdplotInputError, match="xelatex, lualatex or pdflatex"):
        fig.savefig(tmp_path / "cd.pgf")
    assert not (tmp_path / "cd.pgf").exists()
    fig.savefig(tmp_path / "cd.pdf")  # other formats need no TeX


def test_engine_falls_back_to_an_installed_one(tmp_path, monkeypatch):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    fake = bin_dir / "lualatex"
    fake.write_text("#!/bin/sh\n")
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", str(bin_dir))
    with mpl.rc_context({"pgf.texsystem": "xelatex"}):
        assert check_pgf_engine() == "lualatex"
    assert check_pgf_engine("lualatex") == "lualatex"


# --------------------------------------------------------------------------- with LaTeX

ENGINES = [e for e in PGF_ENGINES if shutil.which(e)]
needs_tex = pytest.mark.skipif(not ENGINES, reason="no TeX engine installed")


def _result():
    rng = np.random.default_rng(14)
    data = pd.DataFrame(rng.normal(np.linspace(1, 0, 5), 1, size=(20, 5)), columns=NAMES)
    return quiet_compare(data, correction="bergmann-hommel")


@pytest.fixture(scope="module")
def pgf_files(tmp_path_factory):
    out = tmp_path_factory.mktemp("pgf")
    res = _result()
    cdplot.cd_diagram(res).figure.savefig(out / "cd.pgf")
    cdplot.apv_heatmap(res).figure.savefig(out / "heat.pgf")
    return out


PAPER = r"""\documentclass[twocolumn]{article}
\usepackage[T1]{fontenc}
\usepackage{lmodern}
\usepackage{pgf}
\begin{document}
A paper.
\begin{figure}\input{cd.pgf}\caption{CD diagram}\end{figure}
\begin{figure}\input{heat.pgf}\caption{APVs}\end{figure}
\end{document}
"""


@needs_tex
@pytest.mark.slow
@pytest.mark.parametrize("engine", ENGINES)
def test_default_figures_compile_in_a_paper(pgf_files, engine, tmp_path, tmp_path_factory):
    require_tex_engine(engine, tmp_path_factory)
    assert sorted(p.name for p in pgf_files.iterdir()) == ["cd.pgf", "heat.pgf"]  # no PNG
    for path in pgf_files.iterdir():
        shutil.copy(path, tmp_path / path.name)
    (tmp_path / "paper.tex").write_text(PAPER, encoding="utf-8")
    run = run_tex(engine, "paper.tex", tmp_path)
    log = run.log
    assert run.returncode == 0, log[-3000:]
    assert "Missing character" not in log
    if shutil.which("pdftotext"):
        text = subprocess.run(
            ["pdftotext", str(tmp_path / "paper.pdf"), "-"], capture_output=True, text=True
        ).stdout
        for name in NAMES:
            assert name in text
        assert "\N{GREEK SMALL LETTER ALPHA} = 0.05" in text  # alpha shown, not dropped


@needs_tex
@pytest.mark.slow
def test_pdflatex_as_the_pgf_engine(tmp_path):
    if "pdflatex" not in ENGINES:
        pytest.skip("pdflatex is not installed")
    with mpl.rc_context({"pgf.texsystem": "pdflatex"}):
        cdplot.cd_diagram(_result()).figure.savefig(tmp_path / "cd.pgf")
    source = (tmp_path / "cd.pgf").read_text(encoding="utf-8")
    assert r"rf\_500" in source and r"$\alpha$" in source
    assert "\N{GREEK SMALL LETTER ALPHA}" not in source
    assert "\N{MATHEMATICAL ITALIC SMALL ALPHA}" not in source and "cdplot Sans" not in source


@needs_tex
@pytest.mark.slow
def test_diagram_in_a_figure_of_ones_own_is_escaped_too(tmp_path):
    from matplotlib.figure import Figure

    fig = Figure(figsize=(3.3, 1.8))
    ax = fig.add_subplot()
    cdplot.cd_diagram(_result(), ax=ax)
    fig.savefig(tmp_path / "own.pgf", bbox_inches="tight")  # plain Figure.savefig
    source = (tmp_path / "own.pgf").read_text(encoding="utf-8")
    assert r"\&" in source and r"rf\_500" in source and r"\textdollar{}" in source
    assert [t.get_text() for t in ax.texts if t.get_gid() == "cd-name-rf_500"] == ["rf_500"]
    (tmp_path / "paper.tex").write_text(PAPER.replace("heat.pgf", "own.pgf"), encoding="utf-8")
    shutil.copy(tmp_path / "own.pgf", tmp_path / "cd.pgf")
    run = run_tex(ENGINES[0], "paper.tex", tmp_path)
    assert run.returncode == 0, run.stdout[-3000:]


@needs_tex
@pytest.mark.slow
def test_bayesian_diagram_title_compiles_with_pdflatex(tmp_path):
    """bayes_cd_diagram's title has a Unicode ≥: saved as PGF it typesets under pdflatex."""
    if "pdflatex" not in ENGINES:
        pytest.skip("pdflatex is not installed")
    res = cdplot.compare(
        cdplot.datasets.load("demsar2006"), test="bayes-signed-rank", rope=0.01, random_state=1
    )
    with mpl.rc_context({"pgf.texsystem": "pdflatex"}):
        cdplot.bayes_cd_diagram(res).figure.savefig(tmp_path / "cd.pgf")
    assert r"P $\geq$ 0.95" in (tmp_path / "cd.pgf").read_text(encoding="utf-8")
    paper = PAPER.replace(r"\begin{figure}\input{heat.pgf}\caption{APVs}\end{figure}", "")
    (tmp_path / "paper.tex").write_text(paper, encoding="utf-8")
    run = run_tex("pdflatex", "paper.tex", tmp_path)
    log = run.log
    assert run.returncode == 0, log[-3000:]
    assert "Missing character" not in log

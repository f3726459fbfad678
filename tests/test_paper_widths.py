"""Width presets true to each venue's LaTeX class, checked by compiling a paper.

The presets are the classes' own ``\\columnwidth`` and ``\\textwidth``: article's measured
here with pdflatex (``\\documentclass[twocolumn,10pt]{article}``, letter and A4 paper);
acmart ``sigconf`` (8.5 in paper, inner and outer margins 54 pt, ``columnsep`` 2 pc: acmart.dtx,
CTAN), IEEEtran (``\\textwidth`` 43 pc = 2 x 21 pc + ``\\columnsep`` 1 pc: IEEEtran.cls, CTAN)
and llncs (``\\textwidth`` 12.2 cm: llncs.cls, Springer) from the class files, which are not
installed here. The PGF figures of ``cdplot compare --column ...`` are ``\\input`` into a
two-column article: no "Overfull \\hbox", and each figure is exactly as wide as asked.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from _helpers import run_tex

from cdplot.cli import main
from cdplot.cli._figures import COLUMN_WIDTHS, TEX_POINTS, VENUE_POINTS


def test_presets_are_the_classes_widths_in_points():
    points = {name: round(inches * TEX_POINTS, 4) for name, inches in COLUMN_WIDTHS.items()}
    assert points == {
        "single": 221.0,  # the narrowest column below
        "double": 452.0,  # the narrowest two-column text width below
        "article": 229.5,  # pdflatex: twocolumn,10pt (letter paper) \columnwidth
        "article-double": 469.0,  # ... \textwidth
        "article-a4": 221.0,  # pdflatex: twocolumn,10pt,a4paper \columnwidth
        "article-a4-double": 452.0,  # ... \textwidth
        "acm": 241.1475,  # acmart sigconf: (614.295 - 2 x 54 - 24) / 2
        "acm-double": 506.295,  # 8.5 in - 2 x 54 pt
        "ieee": 252.0,  # IEEEtran: 21 pc
        "ieee-double": 516.0,  # 43 pc
        "lncs": 347.1236,  # llncs: 12.2 cm
    }
    assert COLUMN_WIDTHS["single"] == min(COLUMN_WIDTHS.values())
    assert set(VENUE_POINTS) < set(COLUMN_WIDTHS)


def _latex_widths(tmp_path: Path, paper: str) -> dict[str, float]:
    """pdflatex's own \\columnwidth and \\textwidth of a two-column article on ``paper``."""
    (tmp_path / "w.tex").write_text(
        f"\\documentclass[twocolumn,10pt,{paper}]{{article}}\n\\begin{{document}}\n"
        "\\typeout{COLUMN=\\the\\columnwidth}\\typeout{TEXT=\\the\\textwidth}\nx\n"
        "\\end{document}\n"
    )
    log = _pdflatex(tmp_path, "w.tex")
    return {k: float(v) for k, v in re.findall(r"^(COLUMN|TEXT)=([0-9.]+)pt", log, re.M)}


def _pdflatex(cwd: Path, name: str) -> str:
    proc = run_tex("pdflatex", name, cwd, timeout=120)
    log = proc.log
    assert proc.returncode == 0, log[-2000:]
    return log


needs_pdflatex = pytest.mark.skipif(not shutil.which("pdflatex"), reason="needs pdflatex")


@needs_pdflatex
@pytest.mark.parametrize(("paper", "column"), [("letterpaper", "article"), ("a4paper", "single")])
def test_article_presets_match_pdflatex(tmp_path, paper, column):
    widths = _latex_widths(tmp_path, paper)
    double = "double" if column == "single" else f"{column}-double"
    assert widths["COLUMN"] == pytest.approx(COLUMN_WIDTHS[column] * TEX_POINTS, abs=1e-9)
    assert widths["TEXT"] == pytest.approx(COLUMN_WIDTHS[double] * TEX_POINTS, abs=1e-9)


PAPER = r"""\documentclass[twocolumn,10pt,%(paper)s]{article}
\usepackage{pgf}
\newsavebox\fig
\newcommand\measure[2]{\sbox\fig{\input{#2}}\typeout{WIDTH #1=\the\wd\fig}}
\begin{document}
\measure{cd}{cd.pgf}\measure{heat}{heat.pgf}\measure{wide}{wide.pgf}
\begin{figure}\input{cd.pgf}\caption{Diagram.}\end{figure}
\begin{figure}\input{heat.pgf}\caption{Heatmap.}\end{figure}
\begin{figure*}\input{wide.pgf}\caption{Across both columns.}\end{figure*}
Text.
\end{document}
"""


@needs_pdflatex
@pytest.mark.parametrize(("paper", "column"), [("letterpaper", "article"), ("a4paper", "single")])
def test_pgf_figures_fit_the_column_of_a_two_column_article(tmp_path, benavoli, paper, column):
    benavoli.to_csv(tmp_path / "results.csv")
    double = "double" if column == "single" else f"{column}-double"
    for argv in (
        ["-o", "cd.pgf", "--heatmap", "heat.pgf", "--column", column],
        ["-o", "wide.pgf", "--column", double],
    ):
        paths = [str(tmp_path / a) if a.endswith(".pgf") else a for a in argv]
        assert main(["compare", str(tmp_path / "results.csv"), *paths]) == 0
    (tmp_path / "paper.tex").write_text(PAPER % {"paper": paper})
    log = _pdflatex(tmp_path, "paper.tex")
    assert "Overfull \\hbox" not in log
    got = {k: float(v) for k, v in re.findall(r"^WIDTH (\w+)=([0-9.]+)pt", log, re.M)}
    want = COLUMN_WIDTHS[column] * TEX_POINTS
    assert got["cd"] == pytest.approx(want, abs=0.01)  # as wide as asked, not narrower
    assert got["heat"] <= want + 0.01
    assert got["wide"] == pytest.approx(COLUMN_WIDTHS[double] * TEX_POINTS, abs=0.01)


REPORT_PAPER = r"""\documentclass[twocolumn,10pt]{article}
\usepackage{booktabs,graphicx}
\begin{document}
\input{report.tex}
Text.
\end{document}
"""


@needs_pdflatex
@pytest.mark.parametrize(
    ("flags", "env"),
    [(["--compact"], "table"), (["--table-env", "table*"], "table*"), ([], None)],
)
def test_cli_latex_report_fits_with_compact_or_table_star(tmp_path, benavoli, flags, env):
    benavoli.to_csv(tmp_path / "results.csv")
    report = tmp_path / "report.tex"
    assert (
        main(["compare", str(tmp_path / "results.csv"), "-q", "--report", str(report), *flags]) == 0
    )
    text = report.read_text()
    (tmp_path / "paper.tex").write_text(REPORT_PAPER)
    log = _pdflatex(tmp_path, "paper.tex")
    if env is None:  # the full 7 x 7 p-value table is wider than a column: the reason for both
        assert "Overfull \\hbox" in log
        return
    assert text.startswith(f"\\begin{{{env}}}")
    assert "Overfull \\hbox" not in log
    if flags == ["--compact"]:
        assert "\\begin{tabular}{lrl}" in text  # algorithm, average rank, group letters


def test_compact_and_table_env_need_a_latex_report(tmp_path, benavoli, capsys):
    benavoli.to_csv(tmp_path / "results.csv")
    for flags in (["--compact"], ["--table-env", "table*", "--report", str(tmp_path / "r.md")]):
        assert main(["compare", str(tmp_path / "results.csv"), *flags]) == 2
        err = capsys.readouterr().err
        assert "applies to a LaTeX report; add --report FILE.tex" in err
    assert not (tmp_path / "r.md").exists()


@needs_pdflatex
def test_pgf_with_tight_bbox_never_exceeds_the_width(tmp_path, benavoli):
    """``bbox_inches="tight"`` adds matplotlib's 0.1 in padding; a PGF figure stays within."""
    import cdplot

    width = COLUMN_WIDTHS["single"]
    long_names = ["XGBoost", "RandomForestClassifier", "LogisticRegression", "k-NN", "SVM_rbf",
                  "NaiveBayes", "LightGBM"]  # fmt: skip
    res = cdplot.compare(benavoli.set_axis(long_names, axis=1))
    fig = cdplot.cd_diagram(res, width=width).figure
    fig.savefig(tmp_path / "cd.pgf", bbox_inches="tight")
    box = re.search(
        r"\\pgfpathrectangle\{\\pgfpointorigin\}\{\\pgfqpoint\{([0-9.]+)in\}\{([0-9.]+)in\}",
        (tmp_path / "cd.pgf").read_text(),
    )
    assert box is not None
    assert float(box.group(1)) <= width + 1e-6
    assert float(box.group(2)) <= fig.get_size_inches()[1] + 1e-6

"""
Straight into a LaTeX paper
===========================

A two-column ``article`` with everything cdplot makes for a paper: the CD
diagram and the heatmap as PGF (typeset in the paper's own font, ``\\input``),
the diagram as PDF (``\\includegraphics``), the compact ranks-and-groups table
(one column at k = 8) and the results table (scores per dataset, best in bold,
second underlined, average ranks, W/T/L and markers against the proposed
method). Algorithm names carry LaTeX's special characters ``_ & # $ %``; cdplot
escapes them. The paper is compiled with pdflatex when it is installed. The
scores are simulated.
"""

# %%
import os
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pandas as pd

import cdplot

out = Path(os.environ.get("CDPLOT_GALLERY_OUT", "."))
out.mkdir(parents=True, exist_ok=True)
names = ["Ours #1", "rf_500", "k-NN & PCA", "$baseline", "50% data", "SVM", "LDA", "CART"]
rng = np.random.default_rng(14)
scores = pd.DataFrame(
    np.clip(0.8 + rng.normal(0, 0.04, size=(16, 8)) - np.linspace(0, 0.06, 8), 0, 1),
    columns=names,
    index=[f"data_{i:02d}" for i in range(16)],
)
result = cdplot.compare(scores, test="wilcoxon", correction="holm")

# %%
# Figures: PGF for \input (the text is typeset by LaTeX), PDF for \includegraphics.
# One column of the two-column article class is 3.18 in (229.5 pt) wide.
ax = cdplot.cd_diagram(result, width=3.15)
ax.figure.savefig(out / "diagram.pgf")
ax.figure.savefig(out / "diagram.pdf")
hm = cdplot.apv_heatmap(result)
hm.figure.savefig(out / "heatmap.pgf")

# %%
# Tables: the compact form fits one column; the results table spans both.
(out / "ranks.tex").write_text(result.to_latex(compact=True, label="tab:ranks"), "utf-8")
results = cdplot.results_table(result, control="Ours #1")
(out / "results.tex").write_text(
    results.to_latex(table_environment="table*", size="footnotesize", label="tab:results"), "utf-8"
)

# %%
PAPER = r"""\documentclass[twocolumn]{article}
\usepackage{iftex}
\ifPDFTeX\usepackage[T1]{fontenc}\usepackage{lmodern}\else\usepackage{fontspec}\fi
\usepackage{booktabs,graphicx,pgf}
\title{Straight into a paper}\author{cdplot}\date{}
\begin{document}
\maketitle
\section{Results}
Table~\ref{tab:ranks} gives the average ranks and Fig.~\ref{fig:cd} the
critical difference diagram; Table~\ref{tab:results} the scores. The
diagram, the heatmap and both tables name the algorithms exactly as the
data does, special characters included.
\input{ranks.tex}
\begin{figure}[htbp]\centering\input{diagram.pgf}
\caption{CD diagram (PGF).}\label{fig:cd}\end{figure}
\begin{figure}[htbp]\centering\includegraphics[width=\columnwidth]{diagram.pdf}
\caption{The same diagram as PDF.}\end{figure}
\input{results.tex}
\begin{figure}[htbp]\centering\resizebox{\columnwidth}{!}{\input{heatmap.pgf}}
\caption{Adjusted $p$-values (PGF).}\end{figure}
\end{document}
"""
(out / "paper.tex").write_text(PAPER, "utf-8")
if shutil.which("pdflatex"):
    for _ in range(2):  # twice, for the references
        subprocess.run(
            ["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "paper.tex"],
            cwd=out,
            capture_output=True,
            check=True,
            timeout=120,
        )

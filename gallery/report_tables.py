"""
Tables and text: LaTeX, Markdown, a plain-language summary
==========================================================

A comparison result renders itself for papers (``to_latex``, booktabs),
READMEs (``to_markdown``), terminals (``str``) and notebooks (shown as HTML
with the CD diagram). ``summary()`` explains the result in words, including
what the chosen test and correction mean. Data: Demšar's (2006) four C4.5
variants on 14 data sets.
"""

# %%
import os
from pathlib import Path

import cdplot
from cdplot.report import to_html

out = Path(os.environ.get("CDPLOT_GALLERY_OUT", "."))
out.mkdir(parents=True, exist_ok=True)

res = cdplot.compare(cdplot.datasets.load("demsar2006"), test="wilcoxon", correction="holm")

# %%
# A booktabs table: algorithms by average rank, the lower triangle of Holm's
# APVs, significant values in bold. Needs \usepackage{booktabs}.
latex = res.to_latex(label="tab:c45")
(out / "report_table.tex").write_text(latex, encoding="utf-8")
print(latex)

# %%
# The compact form for one column of a two-column paper: average ranks and
# group letters (algorithms sharing a letter are not significantly different).
print(res.to_latex(compact=True, size="small", label="tab:c45-ranks"))

# %%
# The scores themselves: best per data set in bold, second underlined, average
# ranks, wins/ties/losses and Holm-adjusted p-values against C4.5.
scores = cdplot.results_table(res, control="C4.5")
(out / "results_table.tex").write_text(
    scores.to_latex(table_environment="table*"), encoding="utf-8"
)
print(scores.to_markdown())

# %%
# The same content in Markdown, and as plain text.
(out / "report_table.md").write_text(res.to_markdown(), encoding="utf-8")
print(res)

# %%
# Win/tie/loss counts (row against column), also in ``res.to_frame()``.
print(res.wins)

# %%
# In words, with warnings where the analysis is weak (here: no pair survives
# Holm's correction on 14 data sets although the Friedman test rejects).
print(res.summary())

# %%
# A self-contained HTML page (what a notebook shows, as a file to send round).
(out / "report.html").write_text(to_html(res), encoding="utf-8")

"""
One benchmark, three models: HumanEval
======================================

A public single-benchmark table: the 164 problems of HumanEval (Chen et al. 2021) and
three models, CodeLlama-34b-Instruct, gpt-3.5-turbo and gpt-4. Each model wrote code for
every problem ten times; a cell is the share of the ten runs whose code passed the
problem's unit tests (published per problem by J. Murdza, github.com/jamesmurdza/
humaneval-results, at commit 5eac780; bundled as ``cdplot.datasets.load("humaneval_murdza")``).

The items are the evidence: ``cdplot.compare`` on the item table compares the models on
the problems they share, in score units. Each model's mean pass rate comes with a t
interval; each pair's paired difference with its interval and the paired t-test (the
scores are shares, not 0/1), adjusted by the exact Bergmann-Hommel procedure. The CD
diagram is drawn on the mean-score axis; the rank plot shows the rank positions each model
may hold. The runs themselves are not published, only their share per problem, so the
analysis is on the item means, as it is with ``sample=`` on run-level rows.
"""

# %%
import os
from pathlib import Path

import cdplot

out = Path(os.environ.get("CDPLOT_GALLERY_OUT", "."))
out.mkdir(parents=True, exist_ok=True)

# %%
# 164 problems x 3 models; the row labels are named ``item``, so the table is read as one
# benchmark's items (long rows ``model, item, score`` are read the same way).
passrate = cdplot.datasets.load("humaneval_murdza")
print(passrate.head())
res = cdplot.compare(passrate, correction="bergmann-hommel")
print(res.model_statistics.round(3))
print(res.differences[["model_1", "model_2", "difference", "low", "high", "adjusted_pvalue"]])

# %%
# The CD diagram on the mean-score axis: the groups of models with no significant
# difference inside (here every pair differs).
ax = res.plot(kind="cd", width=6.0)  # room for the names on one line
ax.figure.savefig(out / "one_benchmark_cd.png", dpi=150, bbox_inches="tight")

# %%
# The rank plot: the positions each model may hold, from the tests' decisions.
ax = res.plot(kind="ranks")
ax.figure.savefig(out / "one_benchmark_ranks.png", dpi=150, bbox_inches="tight")

# %%
# The same rank intervals as a table (from the pairs' decisions).
print(res.rank_intervals("test").to_frame())

# %%
print(res.summary())

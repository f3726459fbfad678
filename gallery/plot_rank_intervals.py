"""
Rank intervals and effect sizes
===============================

How sure is the ranking, and how big is each difference? On Benavoli et al.'s 7 x 54
table, the rank intervals say which rank positions each classifier may hold (95 %,
for all classifiers at once), the probability of being the best comes from a Bayesian
bootstrap over the datasets, and the multi-comparison matrix shows every mean difference
with its paired-t interval (R's ``t.test(a, b, paired=TRUE)``).
"""

# %%
import os
from pathlib import Path

import cdplot

out = Path(os.environ.get("CDPLOT_GALLERY_OUT", "."))
out.mkdir(parents=True, exist_ok=True)

# %%
accuracy = cdplot.datasets.load("benavoli2016")
result = cdplot.compare(accuracy)  # Wilcoxon signed-rank tests, Holm's correction

# %%
# From the tests' own decisions (agree with the CD diagram's groups), and from a paired
# bootstrap over the datasets (Mogstad, Romano, Shaikh & Wilhelm 2024).
print(result.rank_intervals("test").to_frame())
intervals = result.rank_intervals("bootstrap", n_boot=5000, random_state=0)
print(intervals.to_frame())
print("confidence set of the best:", intervals.best_set)

# %%
effects = result.effect_sizes("hodges-lehmann", rope=1.0)  # accuracy points
print(effects.head())
# the summary states the intervals and effects it is given
print(result.summary(intervals=intervals, effects=effects).split("\n\n")[-2])

# %%
ax = cdplot.multi_comparison_matrix(result, interval=True)
ax.figure.savefig(out / "rank_intervals_mcm.png", dpi=150)

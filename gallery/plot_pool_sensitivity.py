"""
Pool sensitivity of the mean-ranks test
=======================================

Benavoli, Corani & Mangili (2016) show that the mean-ranks (Nemenyi-type) test
can call two algorithms different in one pool of competitors and not in
another. ``cdplot.pool_sensitivity`` runs the test in every pool of the pair
plus 0..k-2 other algorithms (ranks recomputed in the pool, Bonferroni over the
pool) and counts the pools in which the pair differs. The matrix reproduces
their Table 1: C2 vs C4 differs in 7 of 10 pools of four, 9 of 10 of five and 3
of 5 of six. Pairs named in colour depend on the pool.
"""

# %%
import os
from pathlib import Path

import cdplot

out = Path(os.environ.get("CDPLOT_GALLERY_OUT", "."))
out.mkdir(parents=True, exist_ok=True)

# %%
accuracy = cdplot.datasets.load("benavoli2016")
frame = cdplot.pool_sensitivity(accuracy)
print(frame[frame.depends_on_pool].to_string(index=False))

# %%
ax = cdplot.pool_sensitivity_plot(frame)
ax.figure.savefig(out / "pool_sensitivity.png", dpi=150)

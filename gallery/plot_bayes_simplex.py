"""
The posterior of one pair in the simplex
========================================

Each draw of the Bayesian signed-rank test's posterior is a triple of
probabilities (C5 better, practically equivalent, C7 better) that sums to one,
so it is a point of a triangle (Benavoli et al. 2017, Figure 5). The dashed
lines split the triangle into the regions where one of the three is the
largest; the probability at each vertex is the share of draws in its region.
"""

# %%
import os
from pathlib import Path

import cdplot

out = Path(os.environ.get("CDPLOT_GALLERY_OUT", "."))
out.mkdir(parents=True, exist_ok=True)

# %%
accuracy = cdplot.datasets.load("benavoli2016")  # accuracy in %: a rope of one point
posterior = cdplot.stats.bayes_signed_rank(accuracy["C5"], accuracy["C7"], rope=1.0, random_state=1)
print(posterior)

# %%
ax = cdplot.simplex_plot(posterior, names=("C5", "C7"))
ax.figure.savefig(out / "bayes_simplex.png", dpi=150)

"""
Significance plot: classes of adjusted p-values
===============================================

Instead of a continuous colour scale, the significance plot sorts each pair
into p <= 0.001, p <= 0.01, p <= 0.05 (up to alpha) or not significant (NS).
Here: seven classifiers on 54 UCI data sets (Benavoli, Corani & Mangili
2016), compared pairwise with the Wilcoxon signed-rank test and Holm's
correction, whose decision on a pair does not depend on the other
algorithms.
"""

# %%
import os
from pathlib import Path

import cdplot

out = Path(os.environ.get("CDPLOT_GALLERY_OUT", "."))
out.mkdir(parents=True, exist_ok=True)

data = cdplot.datasets.load("benavoli2016")
res = cdplot.compare(data, test="wilcoxon", correction="holm")

# %%
# The full matrix this time (both triangles), p-values written in the cells.
ax = cdplot.apv_heatmap(res, kind="significance", triangle="full")
ax.figure.savefig(out / "significance.png", dpi=150)

# %%
# Without the numbers: a quick overview of which pairs differ.
ax = cdplot.apv_heatmap(res, kind="significance", annot=False)
ax.figure.savefig(out / "significance_plain.png", dpi=150)

"""
Several diagrams in one figure
==============================

``cd_diagrams`` stacks one diagram per result, e.g. one per metric or per
test, with aligned rank axes; with a palette, an algorithm has the same colour
in every panel. The figure is double-column wide (7 in) by default.
"""

# %%
import os
import warnings
from pathlib import Path

import cdplot

out = Path(os.environ.get("CDPLOT_GALLERY_OUT", "."))
warnings.simplefilter("ignore", cdplot.PoolDependenceWarning)  # see plot_demsar_nemenyi.py

# %%
accuracy = cdplot.datasets.load("benavoli2016")
results = {
    "Wilcoxon-Holm": cdplot.compare(accuracy),
    "Nemenyi": cdplot.compare(accuracy, test="nemenyi"),
}
fig = cdplot.cd_diagrams(results, palette="okabe-ito")
fig.savefig(out / "several_diagrams.pdf")

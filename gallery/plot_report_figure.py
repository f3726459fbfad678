"""
Report figure: CD diagram above, APV heatmap below
==================================================

``cdplot.report_figure`` puts the critical difference diagram and the APV
heatmap of one comparison into one figure, sized to its content. The rank
axis runs as in ``cd_diagram`` (best on the right; ``reverse=True`` for the
best on the left) and the heatmap's columns follow it, so both panels list the
algorithms in the same order: García & Herrera's five classifiers with
Bergmann-Hommel's APVs.
"""

# %%
import os
import warnings
from pathlib import Path

import cdplot

out = Path(os.environ.get("CDPLOT_GALLERY_OUT", "."))
out.mkdir(parents=True, exist_ok=True)

data = cdplot.datasets.load("garcia2008_synthetic")  # ranks: lower is better
with warnings.catch_warnings():
    warnings.simplefilter("ignore", cdplot.PoolDependenceWarning)
    res = cdplot.compare(data, higher_is_better=False, test="mean-ranks", correction="bergmann")

# %%
fig = cdplot.report_figure(res)
fig.savefig(out / "report_figure.png", dpi=150)
fig.savefig(out / "report_figure.pdf")  # TrueType fonts embedded

# %%
# Options of each panel go through ``cd_kws`` and ``heatmap_kws``.
fig = cdplot.report_figure(
    res, cd_kws={"highlight": "Kernel"}, heatmap_kws={"kind": "significance"}
)
fig.savefig(out / "report_figure_significance.png", dpi=150)

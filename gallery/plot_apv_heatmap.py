"""
APV heatmap: the adjusted p-values behind a critical difference diagram
=======================================================================

García & Herrera (2008) compare five classifiers on 30 data sets with the
mean-ranks test and several corrections. With Bergmann-Hommel's procedure eight
of the ten pairs differ at alpha = 0.05. The heatmap shows every adjusted
p-value (APV), best-ranked algorithm first: blues are significant, greys are
not, and the colour bar marks alpha.
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
    # the paper's test; cdplot warns that its decisions depend on the pool
    warnings.simplefilter("ignore", cdplot.PoolDependenceWarning)
    res = cdplot.compare(data, higher_is_better=False, test="mean-ranks", correction="bergmann")

# %%
# One triangle of the symmetric matrix, row against column. Bold values are
# significant (APV <= alpha).
ax = cdplot.apv_heatmap(res)
ax.figure.savefig(out / "apv_heatmap.png", dpi=150)

# %%
# The raw p-values of the same pairs, with stars instead of bold. The marks
# still show the adjusted decision: a raw p below alpha is not enough.
ax = cdplot.apv_heatmap(res, adjusted=False, mark="star")
ax.figure.savefig(out / "apv_heatmap_raw.png", dpi=150)

# %%
# Against a control only (k - 1 hypotheses, so more power): one column.
with warnings.catch_warnings():
    warnings.simplefilter("ignore", cdplot.PoolDependenceWarning)
    res_control = cdplot.compare(
        data, higher_is_better=False, test="mean-ranks", correction="holm", control="Kernel"
    )
ax = cdplot.apv_heatmap(res_control)
ax.figure.savefig(out / "apv_heatmap_control.png", dpi=150)

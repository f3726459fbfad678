"""
Demšar's Figure 1a: all pairs with the Nemenyi test
====================================================

The four C4.5 variants of Demšar (2006), Table 6, compared with the Nemenyi
test at alpha = 0.10. The critical difference (CD = 1.12) is drawn above the
axis; thick bars join the groups of algorithms that are not significantly
different. C4.5+cf belongs to both groups: the data cannot tell where it goes.
"""

# %%
import os
import warnings
from pathlib import Path

import cdplot

out = Path(os.environ.get("CDPLOT_GALLERY_OUT", "."))
# The Nemenyi test's decisions depend on the pool of algorithms (Benavoli et al.
# 2016); cdplot warns about it. Here we reproduce Demšar's figure on purpose.
warnings.simplefilter("ignore", cdplot.PoolDependenceWarning)

# %%
scores = cdplot.datasets.load("demsar2006")
result = cdplot.compare(scores, test="nemenyi", alpha=0.10)
print(result.critical_difference, result.groups)

# %%
ax = cdplot.cd_diagram(result)  # single-column width (3.3 in), height fitted
ax.figure.savefig(out / "demsar_nemenyi.pdf")
ax.figure.savefig(out / "demsar_nemenyi.png", dpi=200)

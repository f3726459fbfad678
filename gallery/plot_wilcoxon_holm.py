"""
Wilcoxon signed-rank tests with Holm's correction
=================================================

cdplot's default analysis: every pair of algorithms is compared with the
Wilcoxon signed-rank test, and the p-values are adjusted with Holm's step-down
procedure. Unlike the mean-ranks (Nemenyi) test, the decision on a pair does not
depend on which other algorithms are in the comparison (Benavoli et al. 2016).
Seven classifiers on 54 data sets.
"""

# %%
import os
from pathlib import Path

import cdplot

out = Path(os.environ.get("CDPLOT_GALLERY_OUT", "."))

# %%
accuracy = cdplot.datasets.load("benavoli2016")
result = cdplot.compare(accuracy)  # test="wilcoxon", correction="holm", alpha=0.05
print(result)

# %%
ax = cdplot.cd_diagram(result)
ax.figure.savefig(out / "wilcoxon_holm.pdf")

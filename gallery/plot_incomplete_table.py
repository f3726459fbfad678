"""
An incomplete table: Skillings-Mack and pairwise tests on common datasets
=========================================================================

Some results are missing (a method crashed or ran out of time). With
``missing="keep"`` cdplot keeps every dataset: the omnibus test is the
Skillings-Mack test, each pair is compared (Wilcoxon, Holm) on the datasets
where both have a result, and the average ranks are computed within each
dataset over the algorithms present, scaled as in Skillings-Mack. Seven
classifiers on 54 data sets, with 14 results removed.
"""

# %%
import os
from pathlib import Path

import numpy as np

import cdplot

out = Path(os.environ.get("CDPLOT_GALLERY_OUT", "."))

# %%
accuracy = cdplot.datasets.load("benavoli2016")
holes = accuracy.copy()
holes.iloc[:8, 0] = np.nan  # the first algorithm timed out on eight datasets
holes.iloc[[3, 17, 29, 41, 50, 52], 4] = np.nan  # another crashed on six
result = cdplot.compare(holes, missing="keep")
print(result.omnibus)  # Skillings-Mack chi-square
print(f"{result.n_missing} missing results; datasets per pair:")
print(result.n_per_pair)

# %%
ax = cdplot.cd_diagram(result)
ax.figure.savefig(out / "incomplete_table.pdf")

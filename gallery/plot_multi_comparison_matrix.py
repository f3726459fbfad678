"""
Multi-comparison matrix
=======================

Ismail-Fawaz et al. (2023) summarise a benchmark in one matrix whose cells
depend only on the two algorithms they compare, so adding or removing an
algorithm changes nothing else: the mean score difference (colour), the
wins/ties/losses and the Wilcoxon signed-rank p-value of every pair, with the
algorithms ordered by mean score. Bold p-values are significant after Holm's
correction.
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
ax = cdplot.multi_comparison_matrix(result)
ax.figure.savefig(out / "multi_comparison_matrix.png", dpi=150)

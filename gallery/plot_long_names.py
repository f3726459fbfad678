"""
Long algorithm names
====================

Names wider than the room beside the axis are wrapped onto up to three lines
(at spaces, punctuation and camelCase boundaries). With
``long_names="truncate"`` they are cut to one line instead, numbered, and
spelled out in footnotes below the diagram.
"""

# %%
import os
from pathlib import Path

import cdplot

out = Path(os.environ.get("CDPLOT_GALLERY_OUT", "."))
accuracy = cdplot.datasets.load("benavoli2016")
accuracy.columns = [
    "NaiveBayes",
    "AveragedOneDependenceEstimators",
    "Hidden naive Bayes",
    "J48 decision tree (pruned)",
    "J48Graft decision tree",
    "Locally weighted learning",
    "Support vector machine, RBF kernel",
]
result = cdplot.compare(accuracy)

# %%
ax = cdplot.cd_diagram(result, width=7.0)
ax.figure.savefig(out / "long_names_wrapped.pdf")

# %%
# Names at most 0.6 in wide leave a longer rank axis in one column.
ax = cdplot.cd_diagram(result, long_names="truncate", max_name_width=0.6)
ax.figure.savefig(out / "long_names_truncated.pdf")

"""
All pairs with Bergmann-Hommel: García & Herrera's five classifiers
===================================================================

García & Herrera (2008) compare C4.5, 1-NN, NaiveBayes, Kernel and CN2 over 30
data sets. Bergmann and Hommel's procedure, the most powerful of their all-pairs
corrections, separates three groups. The bundled table holds ranks whose
averages equal the published ones (lower is better).
"""

# %%
import os
import warnings
from pathlib import Path

import cdplot

out = Path(os.environ.get("CDPLOT_GALLERY_OUT", "."))
warnings.simplefilter("ignore", cdplot.PoolDependenceWarning)  # see plot_demsar_nemenyi.py

# %%
ranks = cdplot.datasets.load("garcia2008_synthetic")
result = cdplot.compare(
    ranks, higher_is_better=False, test="mean-ranks", correction="bergmann-hommel"
)
print(result.groups)

# %%
ax = cdplot.cd_diagram(result)
ax.figure.savefig(out / "bergmann_hommel.pdf")

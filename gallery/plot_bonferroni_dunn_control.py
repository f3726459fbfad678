"""
Demšar's Figure 1b: comparisons with a control (Bonferroni-Dunn)
================================================================

Does tuning C4.5 help? Each variant is compared with plain C4.5 (the control)
with the mean-ranks test and the Bonferroni-Dunn correction. The thick bar
marks one critical difference on both sides of the control's average rank:
algorithms outside it differ significantly from the control (marked with a dot).
"""

# %%
import os
import warnings
from pathlib import Path

import cdplot

out = Path(os.environ.get("CDPLOT_GALLERY_OUT", "."))
warnings.simplefilter("ignore", cdplot.PoolDependenceWarning)  # see plot_demsar_nemenyi.py

# %%
scores = cdplot.datasets.load("demsar2006")
result = cdplot.compare(
    scores, test="mean-ranks", correction="bonferroni-dunn", control="C4.5", alpha=0.05
)
print(result.significant)

# %%
ax = cdplot.cd_diagram(result)
ax.figure.savefig(out / "bonferroni_dunn_control.pdf")

"""
Comparisons with a control: Holm's step-down procedure
======================================================

With a step-down correction there is no single critical difference to draw.
The diagram marks the control (diamond) and every algorithm that differs
significantly from it (dot), and says so in a legend. Here the scores are error
rates, so lower is better: pass ``higher_is_better=False``; rank 1 is still the
best and is still drawn on the right.
"""

# %%
import os
import warnings
from pathlib import Path

import cdplot

out = Path(os.environ.get("CDPLOT_GALLERY_OUT", "."))
warnings.simplefilter("ignore", cdplot.PoolDependenceWarning)  # see plot_demsar_nemenyi.py

# %%
errors = 1.0 - cdplot.datasets.load("demsar2006")  # AUC -> error, lower is better
result = cdplot.compare(
    errors, higher_is_better=False, test="mean-ranks", correction="holm", control="C4.5"
)
print(result.adjusted_pvalues)

# %%
ax = cdplot.cd_diagram(result)
ax.figure.savefig(out / "control_holm.pdf")

"""
Many algorithms
===============

The figure grows with the number of algorithms: one row per name on each
side, tick labels thinned out as the axis fills, lines thinner when they crowd.
No two texts overlap, from 2 up to 100 algorithms, in one column (3.3 in) or
across the page (7 in). The scores here are simulated.
"""

# %%
import os
from pathlib import Path

import numpy as np
import pandas as pd

import cdplot

out = Path(os.environ.get("CDPLOT_GALLERY_OUT", "."))
rng = np.random.default_rng(50)
k, n = 50, 60
scores = pd.DataFrame(
    rng.normal(size=(n, k)) + np.linspace(0.0, 1.5, k),
    columns=[f"model {i:02d}" for i in range(k)],
)
result = cdplot.compare(scores)

# %%
ax = cdplot.cd_diagram(result, width=7.0)
ax.figure.savefig(out / "many_algorithms.pdf")

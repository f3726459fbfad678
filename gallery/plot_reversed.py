"""
Best ranks on the left
======================

Demšar puts the best (lowest) ranks on the right, "since we perceive the
methods on the right side as better". ``reverse=True`` puts them on the left.
The average ranks beside the names can be formatted with ``rank_format``.
"""

# %%
import os
from pathlib import Path

import cdplot

out = Path(os.environ.get("CDPLOT_GALLERY_OUT", "."))
result = cdplot.compare(cdplot.datasets.load("benavoli2016"))

# %%
ax = cdplot.cd_diagram(result, reverse=True, rank_format="{:.1f}")
ax.figure.savefig(out / "reversed.pdf")

"""
Highlighting algorithms and colouring the groups
================================================

``highlight`` draws some algorithms in colour (and their names in bold), e.g.
the method a paper proposes. ``group_colors=True`` colours the group bars with
the colourblind-safe palette colours no algorithm uses; ``palette`` colours
every algorithm.
"""

# %%
import os
from pathlib import Path

import cdplot

out = Path(os.environ.get("CDPLOT_GALLERY_OUT", "."))
result = cdplot.compare(cdplot.datasets.load("benavoli2016"))

# %%
ax = cdplot.cd_diagram(result, highlight=["C3", "C4"], group_colors=True)
ax.figure.savefig(out / "highlight.pdf")

# %%
# Explicit colours, and a bolder line for the algorithms.
ax = cdplot.cd_diagram(result, highlight={"C3": "#0072B2"}, line_kws={"lw": 1.2})
ax.figure.savefig(out / "highlight_explicit.pdf")

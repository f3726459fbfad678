"""
Saving for a paper: PDF, SVG, PNG
=================================

Figures made by cdplot embed TrueType fonts in PDF and EPS (not Type 3), so the
text stays searchable and passes journals' font checks. For SVG files whose
text can still be edited (Inkscape, Illustrator), set ``svg.fonttype`` to
``"none"``. PNG works at any resolution: the layout is computed in inches and
points, not pixels.
"""

# %%
import os
from pathlib import Path

import matplotlib as mpl

import cdplot

out = Path(os.environ.get("CDPLOT_GALLERY_OUT", "."))
ax = cdplot.cd_diagram(cdplot.compare(cdplot.datasets.load("benavoli2016")))
fig = ax.figure

# %%
fig.savefig(out / "diagram.pdf")
with mpl.rc_context({"svg.fonttype": "none"}):
    fig.savefig(out / "diagram.svg")
fig.savefig(out / "diagram.png", dpi=600)

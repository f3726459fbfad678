"""The CD diagram's footnotes stay inside the figure at every resolution it is saved at.

Agg hints glyphs to whole pixels, so a line of text is not equally wide (relative to the
figure) at 100 and at 150 dpi, and vector output uses the font's unhinted widths. A
footnote wrapped with the widths of one resolution ran past the right edge of a 7-inch
diagram saved at another. Measured here with the renderer's window extents at each
resolution, on the pixels of a saved PNG, and on the word boxes of a saved PDF.
"""

from __future__ import annotations

import re
import shutil
import subprocess

import matplotlib as mpl
import numpy as np
import pandas as pd
import pytest

import cdplot
from cdplot.plotting._cd_layout import LayoutParams

#: A bake-off of time-series classifiers (names as in the UCR archive's comparisons).
CLASSIFIERS = [
    "MR-Hydra", "HIVE-COTEv2", "HC2", "InceptionTime", "RDST", "WEASEL-D", "QUANT",
    "RSTSF", "FreshPRINCE", "DrCIF", "TDE", "STC", "ROCKET", "MultiROCKET", "Arsenal",
    "CNN", "ResNet", "ProximityForest", "TS-CHIEF", "ElasticEnsemble",
]  # fmt: skip
#: The blank border every text keeps from the figure's edge (inches); a little is allowed
#: for the rounding of extents to pixels.
MARGIN = LayoutParams().pad - 0.01


@pytest.fixture(scope="module")
def bakeoff():
    """30 datasets, skills falling slowly with unequal spreads (seeded): Wilcoxon-Holm leaves
    pairs that no group bar joins, so the diagram has a long footnote listing them."""
    rng = np.random.default_rng(0)
    k = len(CLASSIFIERS)
    noise = rng.normal(0.0, 0.08, (30, k))
    spread = rng.uniform(0.2, 2.0, k)
    scores = np.linspace(0.9, 0.8, k) + noise * spread
    res = cdplot.compare(pd.DataFrame(scores, columns=CLASSIFIERS), test="wilcoxon")
    assert len(res.uncovered_pairs) >= 4  # the footnote lists three pairs and "N more"
    return res


def _notes(ax):
    return [t for t in ax.texts if t.get_gid() == "cd-note"]


@pytest.mark.parametrize("dpi", [72, 100, 150, 200, 300])
def test_footnote_inside_a_7_inch_diagram_at_every_resolution(bakeoff, dpi):
    ax = cdplot.cd_diagram(bakeoff, width=7)
    fig = ax.get_figure()
    fig.set_dpi(dpi)
    renderer = fig.canvas.get_renderer()
    notes = _notes(ax)
    assert notes and "not joined by a bar" in notes[0].get_text()
    for text in notes:
        box = text.get_window_extent(renderer)
        assert box.x0 >= MARGIN * dpi
        assert box.x1 <= fig.bbox.width - MARGIN * dpi, (dpi, text.get_text())


def test_footnote_inside_the_saved_png(bakeoff, tmp_path):
    ax = cdplot.cd_diagram(bakeoff, width=7)
    ax.get_figure().savefig(tmp_path / "cd.png", dpi=150)
    image = mpl.image.imread(tmp_path / "cd.png")
    ink = np.flatnonzero((image[..., :3] < 0.9).any(axis=(0, 2)))
    assert image.shape[1] == 7 * 150
    assert ink[-1] < image.shape[1] - MARGIN * 150, ink[-1]


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="needs poppler's pdftotext")
def test_footnote_inside_the_saved_pdf(bakeoff, tmp_path):
    ax = cdplot.cd_diagram(bakeoff, width=7)
    ax.get_figure().savefig(tmp_path / "cd.pdf")
    boxes = subprocess.run(
        ["pdftotext", "-bbox", str(tmp_path / "cd.pdf"), "-"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    page_width = float(re.search(r'<page width="([\d.]+)"', boxes).group(1))
    right = max(
        float(x) for x in re.findall(r'<word xMin="[\d.]+" yMin="[\d.]+" xMax="([\d.]+)"', boxes)
    )
    assert page_width == pytest.approx(7 * 72)
    assert right <= page_width - MARGIN * 72, right

"""Text measurement's fixed costs: the resolutions' widening and the renderer.

A CD diagram's notes are widened by the largest ratio of a specimen sentence's width at
the common output resolutions (up to 1,200 dpi) to its width at the figure's. Each
resolution's renderer used to be a whole default-sized Agg canvas (6.4 x 4.8 in: 44
million pixels at 1,200 dpi), 0.4-0.7 s of every command-line run that laid out a CD
diagram; the widths do not depend on the canvas, which is now small. Every TextMeasure
of one resolution now shares one renderer, so matplotlib's per-renderer cache of text
metrics serves a text measured by one layout to the next.
"""

from __future__ import annotations

import matplotlib.backends.backend_agg as backend_agg
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.text import Text

from cdplot.plotting import _text_measure
from cdplot.plotting._text_measure import _SPECIMEN, OUTPUT_DPIS, TextMeasure, _widening


def _widening_on_default_canvas(props: dict, dpi: float) -> float:
    """The widening as measured on matplotlib's default-sized canvas (the former way)."""
    figure = Figure()
    text = Text(0.0, 0.0, _SPECIMEN, **props)
    text.set_figure(figure)

    def width(d: float) -> float:
        figure.set_dpi(d)
        return text.get_window_extent(FigureCanvasAgg(figure).get_renderer()).width / d

    here = width(dpi)
    return max(1.0, *(width(d) / here for d in OUTPUT_DPIS))


@pytest.fixture
def canvas_pixels(monkeypatch):
    """The pixel counts of the Agg renderers made."""
    made = []
    original = backend_agg.RendererAgg.__init__

    def recording(self, width, height, dpi):
        made.append(width * height)
        original(self, width, height, dpi)

    monkeypatch.setattr(backend_agg.RendererAgg, "__init__", recording)
    return made


@pytest.mark.parametrize(
    "props", [{"fontsize": 6.81}, {"fontsize": 8.13, "fontweight": "bold"}, {"fontsize": 5.5}]
)
def test_widening_on_small_canvases_is_the_same(props, canvas_pixels, monkeypatch):
    monkeypatch.setattr(_text_measure, "_WIDENINGS", {})
    widened = _widening(props, 100.0)
    assert len(canvas_pixels) >= len(OUTPUT_DPIS)
    # before: 6.4 x 4.8 in at each resolution, 44,236,800 pixels at 1,200 dpi
    assert max(canvas_pixels) <= 1_000_000
    assert widened == _widening_on_default_canvas(props, 100.0)


def test_measures_of_one_resolution_share_a_renderer():
    first, second = TextMeasure(100.0), TextMeasure(100.0)
    assert first._renderer is second._renderer
    assert TextMeasure(200.0)._renderer is not first._renderer


def test_a_shared_renderer_measures_as_its_own():
    props = {"name": {"fontsize": 8.0}}
    measure = TextMeasure(100.0, props)
    figure = Figure(dpi=100.0)
    text = Text(0.0, 0.0, "Random forest (tuned)", fontsize=8.0)
    text.set_figure(figure)
    box = text.get_window_extent(FigureCanvasAgg(figure).get_renderer())
    assert measure("Random forest (tuned)", "name") == (box.width / 100.0, box.height / 100.0)

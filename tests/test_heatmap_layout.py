"""Geometry of the APV heatmap, tested with numbers (no matplotlib) and against the drawing.

The layout asks for text boxes through a callback; the fake one here is monospaced
(``CHAR`` x font size per character, ``LINE`` x font size per line, anchored as the
style's alignment says), so positions can be checked by hand. The last tests draw real
heatmaps and check that the figure the layout predicted holds exactly what matplotlib
drew: the drawn content's bounding box is the figure less FIGURE_PAD on every side.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from _helpers import quiet_compare

import cdplot
from cdplot.plotting._heatmap_layout import (
    CBAR_GAP,
    CBAR_MAX_HEIGHT,
    CBAR_MIN_HEIGHT,
    CBAR_WIDTH,
    CELL_MAX,
    CELL_MIN,
    CONTROL_COLUMN_WIDTH,
    FIGURE_PAD,
    POINTS_PER_INCH,
    TICK_PAD,
    ColorbarSpec,
    TextStyle,
    cell_size,
    colorbar_boxes,
    grid_boxes,
    heatmap_layout,
    inside_colorbar,
    place,
    pvalue_ticks,
    rotate_columns,
    significance_levels,
    tick_fontsize,
)

CHAR = 0.008  # inches per character per point of font size
LINE = 0.014  # inches per line per point


def fake_measure(text: str, style: TextStyle) -> tuple[float, float, float, float]:
    lines = text.split("\n")
    w = max(len(s) for s in lines) * CHAR * style.fontsize
    h = len(lines) * LINE * style.fontsize
    if style.rotation == 90:
        w, h = h, w
        # rotation_mode "anchor": aligned first, then turned about the anchor
        ha, va = ("left" if style.va == "top" else "right"), style.ha
    else:
        ha, va = style.ha, style.va
    x0 = {"left": 0.0, "right": -w}.get(ha, -w / 2)
    y0 = {"bottom": 0.0, "top": -h}.get(va, -h / 2)
    return (x0, y0, x0 + w, y0 + h)


SPEC = ColorbarSpec(((0.0, "0.0001"), (0.5, "0.01"), (1.0, "1")), "label", 2.0, 1.5,
                    extend_lower=0.05, alpha_line=True)  # fmt: skip


def test_cell_size_shrinks_with_k_within_limits():
    assert cell_size(4, 4, control=False) == (CELL_MAX, CELL_MAX)
    assert cell_size(30, 30, control=False) == pytest.approx((6.3 / 30, 6.3 / 30))
    assert cell_size(99, 99, control=False) == (CELL_MIN, CELL_MIN)
    assert cell_size(40, 1, control=True) == (CONTROL_COLUMN_WIDTH, 8.0 / 40)


def test_tick_font_and_rotation_rules():
    assert tick_fontsize((0.42, 0.42)) == 8.0
    assert tick_fontsize((0.12, 0.12)) == pytest.approx(0.72 * 0.12 * POINTS_PER_INCH)
    assert rotate_columns(0.40, 0.42) is True and rotate_columns(0.39, 0.42) is False


def test_colorbar_ticks():
    # decades, minus those within 0.45 decades of alpha, plus alpha itself
    ticks = pvalue_ticks(0.05, 1e-4, 1.0, "a")
    assert [t for t, _ in ticks] == [1e-4, 1e-3, 1e-2, 0.05, 1.0]
    assert [s for _, s in ticks] == ["0.0001", "0.001", "0.01", "a", "1"]
    assert significance_levels(0.10) == [0.001, 0.01, 0.05, 0.10]


def test_place_tops_level():
    ax, cax = place(2.0, 0.5, cbar=True)
    assert ax == (0.0, 0.0, 2.0, 0.5)
    assert cax == pytest.approx((2.0 + CBAR_GAP, 0.5 - CBAR_MIN_HEIGHT, CBAR_WIDTH,
                                 CBAR_MIN_HEIGHT))  # fmt: skip
    assert place(5.0, 5.0, cbar=True)[1][3] == CBAR_MAX_HEIGHT
    assert place(1.0, 1.0, cbar=False)[1] is None


def test_grid_boxes_labels_left_and_below():
    boxes = grid_boxes(["r1", "r2"], ["c1", "c2"], (0.0, 0.0, 0.84, 0.84), labels_on_top=False,
                       measure=fake_measure)  # fmt: skip
    fs = 8.0
    pad = TICK_PAD / POINTS_PER_INCH
    assert boxes[0] == (0.0, 0.0, 0.84, 0.84)
    # row 0 at the top, right-aligned left of the grid
    assert boxes[1] == pytest.approx((-pad - 2 * CHAR * fs, 0.63 - LINE * fs / 2, -pad,
                                      0.63 + LINE * fs / 2))  # fmt: skip
    # columns below, centred, not rotated (2 chars at 8 pt are narrower than a cell)
    assert boxes[3] == pytest.approx((0.21 - CHAR * fs, -pad - LINE * fs, 0.21 + CHAR * fs, -pad))
    top = grid_boxes(["r"], ["c"], (0.0, 0.0, 0.42, 0.42), labels_on_top=True,
                     measure=fake_measure)  # fmt: skip
    assert top[2][1] == pytest.approx(0.42 + pad)


def test_grid_boxes_rotate_wide_column_labels():
    boxes = grid_boxes(["r"], ["a-long-column-name"], (0.0, 0.0, 0.42, 0.42),
                       labels_on_top=False, measure=fake_measure)  # fmt: skip
    x0, y0, x1, y1 = boxes[2]
    assert y1 - y0 == pytest.approx(18 * CHAR * 8.0)  # the text's length, upright
    assert x1 - x0 == pytest.approx(LINE * 8.0)


def test_colorbar_boxes():
    rect = (1.0, 0.0, 0.1, 2.1)
    boxes = colorbar_boxes(rect, SPEC, fake_measure)
    inner_h = 2.1 / 1.05
    assert boxes[0] == pytest.approx((1.0, 0.0, 1.1, 2.1))  # the outline with its arrow
    assert boxes[1] == pytest.approx((0.99, 0.1, 1.11, 0.1))  # alpha mark, 0.1 w overhang
    fs = SPEC.fontsize
    x_tick = 1.1 + 3.5 / POINTS_PER_INCH
    assert boxes[2][0] == pytest.approx(x_tick)
    assert (boxes[3][1] + boxes[3][3]) / 2 == pytest.approx(2.1 - inner_h / 2)  # "0.01" mid
    right = x_tick + 6 * CHAR * fs  # "0.0001" is the widest tick label
    label = boxes[-1]
    assert label[0] == pytest.approx(right + 4.0 / POINTS_PER_INCH)
    assert label[2] - label[0] == pytest.approx(LINE * fs)


def test_inside_colorbar_fits_or_not():
    # a large lower triangle has room in its empty corner, a small one has not
    big = inside_colorbar((6.42, 4.0, 0.11, 2.3), SPEC, (6.3, 6.3), (0.21, 0.21), fake_measure)
    assert big is not None
    x, y, w, h = big
    assert x + w < 6.3 and y + h == pytest.approx(6.3) and CBAR_MIN_HEIGHT <= h <= CBAR_MAX_HEIGHT
    assert inside_colorbar((1.4, 0.0, 0.11, 1.3), SPEC, (1.26, 1.26), (0.42, 0.42),
                           fake_measure) is None  # fmt: skip


def test_heatmap_layout_holds_everything_with_pad():
    rows, cols = ["b", "c", "d"], ["a", "b", "c"]
    geo = heatmap_layout(rows, cols, measure=fake_measure, colorbar=SPEC)
    boxes = grid_boxes(rows, cols, geo.ax, labels_on_top=False, measure=fake_measure)
    boxes += colorbar_boxes(geo.cax, SPEC, fake_measure)
    assert min(b[0] for b in boxes) == pytest.approx(FIGURE_PAD)
    assert min(b[1] for b in boxes) == pytest.approx(FIGURE_PAD)
    assert max(b[2] for b in boxes) == pytest.approx(geo.width - FIGURE_PAD)
    assert max(b[3] for b in boxes) == pytest.approx(geo.height - FIGURE_PAD)
    assert geo.cell == (CELL_MAX, CELL_MAX)


def test_heatmap_layout_given_width():
    rows, cols = [f"r{i}" for i in range(9)], [f"c{i}" for i in range(9)]
    geo = heatmap_layout(rows, cols, measure=fake_measure, colorbar=SPEC, width=3.3)
    assert geo.width == 3.3
    assert geo.cell[0] < CELL_MAX and geo.cell[0] == geo.cell[1]
    with pytest.raises(cdplot.CdplotInputError, match="too small for this heatmap"):
        heatmap_layout(rows, cols, measure=fake_measure, colorbar=SPEC, width=0.5)


# --------------------------------------------------------------------------- against matplotlib


def _result(k, control=False):
    rng = np.random.default_rng(2008)
    names = [f"algorithm_{i:02d}" for i in range(1, k + 1)]
    data = pd.DataFrame(rng.normal(np.linspace(1.5, 0.0, k), 1.0, size=(30, k)), columns=names)
    return quiet_compare(data, control=names[0] if control else None)


@pytest.mark.parametrize(
    ("k", "control", "kwargs"),
    [
        (3, False, {}),
        (8, False, {"kind": "significance"}),
        (8, False, {"triangle": "upper"}),
        (8, True, {}),
        (20, False, {}),  # colour bar inside the empty triangle
        (20, False, {"width": 7.0}),
        (12, False, {"triangle": "full", "vmin": 1e-6}),
        (50, False, {"cbar": False}),
    ],
)
def test_predicted_figure_holds_exactly_what_is_drawn(k, control, kwargs):
    ax = cdplot.apv_heatmap(_result(k, control), **kwargs)
    fig = ax.get_figure()
    width, height = fig.get_size_inches()
    box = fig.get_tightbbox(fig.canvas.get_renderer())
    assert box.y0 == pytest.approx(FIGURE_PAD, abs=1e-9)
    assert box.y1 == pytest.approx(height - FIGURE_PAD, abs=1e-9)
    if "width" in kwargs:  # centred in the given width
        assert (box.x0 + box.x1) / 2 == pytest.approx(width / 2, abs=1e-9)
    else:
        assert box.x0 == pytest.approx(FIGURE_PAD, abs=1e-9)
        assert box.x1 == pytest.approx(width - FIGURE_PAD, abs=1e-9)


def test_colorbar_options_matplotlib_chooses_still_fit():
    # a user norm: matplotlib picks the ticks, the figure is fitted after drawing
    from matplotlib.colors import Normalize

    ax = cdplot.apv_heatmap(_result(5), norm=Normalize(0, 1), cbar_kws={"label": "p"})
    fig = ax.get_figure()
    width, height = fig.get_size_inches()
    box = fig.get_tightbbox(fig.canvas.get_renderer())
    assert box.x0 == pytest.approx(FIGURE_PAD, abs=1e-6)
    assert box.x1 == pytest.approx(width - FIGURE_PAD, abs=1e-6)
    assert box.y1 == pytest.approx(height - FIGURE_PAD, abs=1e-6)

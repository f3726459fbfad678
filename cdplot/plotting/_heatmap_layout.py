"""Geometry of the APV heatmap (pure: no matplotlib).

Everything is in inches, in matplotlib's convention: x to the right, y *upwards*, the
origin at the lower-left corner of the grid of cells until :func:`heatmap_layout` shifts
everything so that the figure's lower-left corner is the origin.

Text sizes depend on fonts, which only the renderer knows; the layout asks for them
through a ``measure(text, style) -> (x0, y0, x1, y1)`` callback giving the text's box
relative to its anchor point (inches), for a :class:`TextStyle` (font size, weight,
rotation and alignment, as matplotlib applies them). Tests pass a fake measure and
check the geometry with numbers; the drawing module passes matplotlib's own metrics, so
the predicted figure holds exactly what is drawn, and seaborn's heatmap is drawn once.

The figure: the grid of cells, row labels on the left, column labels below (above for
the upper triangle, turned upright when wider than a cell), and the colour bar on the
right with its top level with the grid's, or for the lower triangle in the grid's empty
upper-right corner when it fits there.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .._errors import CdplotInputError, spell

__all__ = [
    "Box",
    "ColorbarSpec",
    "HeatmapGeometry",
    "TextStyle",
    "cell_size",
    "colorbar_boxes",
    "grid_boxes",
    "heatmap_layout",
    "inside_colorbar",
    "place",
    "pvalue_ticks",
    "rotate_columns",
    "significance_levels",
    "tick_fontsize",
]

#: ``(x0, y0, x1, y1)`` in inches.
Box = tuple[float, float, float, float]
#: A rectangle ``(x, y, width, height)`` in inches.
Rect = tuple[float, float, float, float]

POINTS_PER_INCH = 72.0
#: Largest and smallest side of a cell (inches) in a new figure, and the largest side
#: of the grid of cells: cells shrink from CELL_MAX as k grows so the grid stays
#: within GRID_MAX, but never below CELL_MIN.
CELL_MAX = 0.42
CELL_MIN = 0.12
GRID_MAX = 6.3
#: Width of the single column of a comparison with a control (inches), and the largest
#: height of that column (its cells are the annotations' only room, so it may be taller).
CONTROL_COLUMN_WIDTH = 0.62
CONTROL_GRID_MAX = 8.0
#: Tick labels: largest font size (points); they shrink so that their height is at most
#: TICK_FILL of a cell. Gap between a label and the grid (points).
TICK_FONTSIZE = 8.0
TICK_FILL = 0.72
TICK_PAD = 2.0
#: Column labels turn upright when wider than this fraction of a cell.
ROTATE_FILL = 0.95
#: Colour bar: font size, width, gap to the grid, and its height limits (inches).
CBAR_FONTSIZE = 7.0
CBAR_WIDTH = 0.11
CBAR_GAP = 0.12
CBAR_MIN_HEIGHT = 1.3
CBAR_MAX_HEIGHT = 2.6
#: Smallest gap between a colour bar inside the grid's empty triangle and the cells.
CBAR_INSIDE_GAP = 0.08
#: Gap between the colour bar's tick labels and its label (points; matplotlib's
#: ``axes.labelpad`` default).
CBAR_LABEL_PAD = 4.0
#: Length of the alpha mark across the colour bar, as a fraction of its width.
ALPHA_LINE_WIDTH = 1.2
#: Colour-bar ticks closer than this (in decades) to alpha are left out.
CBAR_TICK_CLEARANCE = 0.45
#: Length of the colour bar's arrow for p-values below the floor, as a fraction of the
#: bar's inner length (matplotlib's default ``extendfrac``).
EXTEND_FRAC = 0.05
#: Thresholds of the significance plot (kept if at most alpha; alpha is always one).
SIGNIFICANCE_LEVELS = (0.001, 0.01, 0.05)
#: Fitting a given width: at most this many rounds, done within this many inches, and
#: cells never narrower than CELL_MIN_FIT inches.
WIDTH_ROUNDS = 4
WIDTH_TOLERANCE = 0.01
CELL_MIN_FIT = 0.08
#: Blank border around a new figure (inches).
FIGURE_PAD = 0.06


@dataclass(frozen=True)
class TextStyle:
    """How a text is set: as matplotlib's Text properties of the same names."""

    fontsize: float
    fontweight: str = "normal"
    rotation: float = 0.0
    rotation_mode: str = "default"
    ha: str = "center"
    va: str = "center"


#: ``measure(text, style) -> (x0, y0, x1, y1)``: the text's box relative to its anchor.
Measure = Callable[[str, TextStyle], Box]


@dataclass(frozen=True)
class ColorbarSpec:
    """What the colour bar shows, for measuring it.

    ``ticks`` are ``(fraction, label)`` pairs: the position along the bar's inner
    length (0 = bottom, 1 = top) and the tick label.
    """

    ticks: tuple[tuple[float, str], ...]
    label: str
    #: Tick length and gap to the tick labels (points).
    tick_length: float
    tick_pad: float
    #: Length of the arrow below the bar (fraction of the inner length), or 0.
    extend_lower: float = 0.0
    #: Whether the alpha mark crosses the bar (ALPHA_LINE_WIDTH of its width).
    alpha_line: bool = False
    fontsize: float = CBAR_FONTSIZE


@dataclass(frozen=True)
class HeatmapGeometry:
    """A new figure's size and its Axes' rectangles, in inches from the lower left."""

    width: float
    height: float
    ax: Rect
    cax: Rect | None
    #: Size of a cell (inches).
    cell: tuple[float, float]


# --------------------------------------------------------------------------- pure helpers


def significance_levels(alpha: float) -> list[float]:
    """Upper bounds of the significance plot's classes: 0.001, 0.01, 0.05 up to alpha."""
    levels = [lv for lv in SIGNIFICANCE_LEVELS if lv < alpha]
    return [*levels, alpha]


def pvalue_ticks(
    alpha: float, vmin: float, vmax: float, alpha_text: str
) -> list[tuple[float, str]]:
    """Ticks of the p-value colour bar: every decade not too close to alpha, and alpha.

    ``alpha_text`` is the label of alpha's tick, e.g. ``"$\\alpha$ = 0.05"``.
    """
    ticks: list[tuple[float, str]] = []
    decade = math.ceil(math.log10(vmin) - 1e-9)
    while 10.0**decade <= vmax * (1 + 1e-9):
        value = 10.0**decade
        if abs(math.log10(value) - math.log10(alpha)) >= CBAR_TICK_CLEARANCE:
            ticks.append((value, "1" if value == 1 else f"{value:.{max(-decade, 0)}f}"))
        decade += 1
    ticks.append((alpha, alpha_text))
    return sorted(ticks)


def cell_size(n_rows: int, n_cols: int, control: bool) -> tuple[float, float]:
    """Cell of a new figure: CELL_MAX, shrinking so the grid stays within GRID_MAX."""
    if control:
        return CONTROL_COLUMN_WIDTH, min(CELL_MAX, max(CELL_MIN, CONTROL_GRID_MAX / n_rows))
    side = min(CELL_MAX, max(CELL_MIN, GRID_MAX / max(n_rows, n_cols)))
    return side, side


def tick_fontsize(cell: tuple[float, float]) -> float:
    """Font size (points) of the tick labels: at most TICK_FILL of the smaller side."""
    return min(TICK_FONTSIZE, TICK_FILL * min(cell) * POINTS_PER_INCH)


def rotate_columns(widest: float, cell_width: float) -> bool:
    """Whether column labels turn upright: the widest is wider than ROTATE_FILL of a cell."""
    return widest > ROTATE_FILL * cell_width


def place(grid_w: float, grid_h: float, cbar: bool) -> tuple[Rect, Rect | None]:
    """The grid at the origin and the colour bar beside it, tops level."""
    ax = (0.0, 0.0, grid_w, grid_h)
    if not cbar:
        return ax, None
    cbar_h = min(max(grid_h, CBAR_MIN_HEIGHT), CBAR_MAX_HEIGHT)
    return ax, (grid_w + CBAR_GAP, grid_h - cbar_h, CBAR_WIDTH, cbar_h)


def _shift(box: Box, dx: float, dy: float) -> Box:
    return (box[0] + dx, box[1] + dy, box[2] + dx, box[3] + dy)


def _union(boxes: Sequence[Box]) -> Box:
    return (
        min(b[0] for b in boxes),
        min(b[1] for b in boxes),
        max(b[2] for b in boxes),
        max(b[3] for b in boxes),
    )


# --------------------------------------------------------------------------- boxes


def grid_boxes(
    rows: Sequence[str],
    cols: Sequence[str],
    rect: Rect,
    *,
    labels_on_top: bool,
    measure: Measure,
) -> list[Box]:
    """The grid and its tick labels: rows on the left, columns below (or above).

    The labels' font size and the columns' rotation follow the cell size as the
    drawing module sets them (:func:`tick_fontsize`, :func:`rotate_columns`).
    """
    x, y, w, h = rect
    cell = (w / len(cols), h / len(rows))
    fontsize = tick_fontsize(cell)
    pad = TICK_PAD / POINTS_PER_INCH
    boxes: list[Box] = [(x, y, x + w, y + h)]
    row_style = TextStyle(fontsize, ha="right", va="center")
    for i, text in enumerate(rows):  # row 0 at the top
        yc = y + h - (i + 0.5) * cell[1]
        boxes.append(_shift(measure(str(text), row_style), x - pad, yc))
    widest = max(
        measure(str(c), TextStyle(fontsize))[2] - measure(str(c), TextStyle(fontsize))[0]
        for c in cols
    )
    rotation = 90.0 if rotate_columns(widest, cell[0]) else 0.0
    col_style = TextStyle(fontsize, rotation=rotation, va="bottom" if labels_on_top else "top")
    y_anchor = y + h + pad if labels_on_top else y - pad
    for j, text in enumerate(cols):
        boxes.append(_shift(measure(str(text), col_style), x + (j + 0.5) * cell[0], y_anchor))
    return boxes


def colorbar_boxes(rect: Rect, spec: ColorbarSpec, measure: Measure) -> list[Box]:
    """The colour bar at ``rect``: outline (with its arrow), alpha mark, ticks, label.

    As matplotlib draws it: the arrow takes ``extend_lower`` of the inner length
    from the bottom of ``rect``, tick labels sit ``tick_length + tick_pad`` points
    right of the bar (vertically centred on the baseline's middle), and the label
    is turned upright, centred on the inner bar, CBAR_LABEL_PAD points right of the
    tick labels.
    """
    x, y, w, h = rect
    inner_h = h / (1.0 + spec.extend_lower)
    inner_y = y + h - inner_h
    boxes: list[Box] = [(x, y, x + w, y + h)]
    if spec.alpha_line:
        overhang = (ALPHA_LINE_WIDTH - 1.0) / 2 * w
        boxes.append((x - overhang, inner_y, x + w + overhang, inner_y))
    offset = (spec.tick_length + spec.tick_pad) / POINTS_PER_INCH
    tick_style = TextStyle(spec.fontsize, ha="left", va="center_baseline")
    right = x + w + spec.tick_length / POINTS_PER_INCH  # the spine with its ticks
    for frac, text in spec.ticks:
        box = _shift(measure(text, tick_style), x + w + offset, inner_y + frac * inner_h)
        boxes.append(box)
        right = max(right, box[2])
    if spec.label:
        style = TextStyle(
            spec.fontsize, rotation=90.0, rotation_mode="anchor", ha="center", va="top"
        )
        anchor = (right + CBAR_LABEL_PAD / POINTS_PER_INCH, inner_y + inner_h / 2)
        boxes.append(_shift(measure(spec.label, style), *anchor))
    return boxes


def inside_colorbar(
    rect: Rect,
    spec: ColorbarSpec,
    grid: tuple[float, float],
    cell: tuple[float, float],
    measure: Measure,
) -> Rect | None:
    """Rectangle of the colour bar in the lower triangle's empty upper-right, if it fits.

    The bar's extents beyond its inner rectangle (ticks, labels, arrow, alpha mark),
    measured where the bar is now (``rect``), must stay clear of the cells below the
    diagonal.
    """
    x, y, w, h = rect
    box = _union(colorbar_boxes(rect, spec, measure))
    inner_y = y + h - h / (1.0 + spec.extend_lower)
    left = x - box[0]
    right = box[2] - x
    below = inner_y - box[1]
    grid_w, grid_h = grid
    cell_w, cell_h = cell
    new_x = grid_w - right
    first_column = math.floor((new_x - left) / cell_w)
    if first_column < 1:
        return None
    # in the lower triangle column c's first cell is the c-th row from the top
    room = first_column * cell_h - below - CBAR_INSIDE_GAP
    if room < CBAR_MIN_HEIGHT:
        return None
    height = min(room, CBAR_MAX_HEIGHT)
    return (new_x, grid_h - height, w, height)


# --------------------------------------------------------------------------- layout


def _geometry_for(
    rows: Sequence[str],
    cols: Sequence[str],
    cell: tuple[float, float],
    *,
    triangle: str,
    control: bool,
    colorbar: ColorbarSpec | None,
    measure: Measure,
) -> HeatmapGeometry:
    """Figure size and rectangles for cells of this size, FIGURE_PAD around everything."""
    grid_w, grid_h = len(cols) * cell[0], len(rows) * cell[1]
    ax_rect, cax_rect = place(grid_w, grid_h, colorbar is not None)
    if colorbar is not None and cax_rect is not None and not control and triangle == "lower":
        inside = inside_colorbar(cax_rect, colorbar, (grid_w, grid_h), cell, measure)
        cax_rect = inside if inside is not None else cax_rect
    boxes = grid_boxes(
        rows, cols, ax_rect, labels_on_top=triangle == "upper" and not control, measure=measure
    )
    if colorbar is not None and cax_rect is not None:
        boxes += colorbar_boxes(cax_rect, colorbar, measure)
    x0, y0, x1, y1 = _union(boxes)
    dx, dy = FIGURE_PAD - x0, FIGURE_PAD - y0

    def moved(rect: Rect | None) -> Rect | None:
        return None if rect is None else (rect[0] + dx, rect[1] + dy, rect[2], rect[3])

    width, height = x1 - x0 + 2 * FIGURE_PAD, y1 - y0 + 2 * FIGURE_PAD
    return HeatmapGeometry(width, height, moved(ax_rect), moved(cax_rect), cell)  # type: ignore[arg-type]


def heatmap_layout(
    rows: Sequence[str],
    cols: Sequence[str],
    *,
    measure: Measure,
    triangle: str = "lower",
    control: bool = False,
    colorbar: ColorbarSpec | None = None,
    width: float | None = None,
) -> HeatmapGeometry:
    """Size of a new heatmap figure and where its Axes go.

    Parameters
    ----------
    rows, cols : sequence of str
        Row labels (top to bottom) and column labels (left to right) of the grid.
    measure : callable
        ``measure(text, style)`` returns the box ``(x0, y0, x1, y1)`` in inches of
        ``text`` set in ``style`` (a :class:`TextStyle`), relative to its anchor.
    triangle : {"lower", "upper", "full"}
        Which part of the matrix is drawn; the upper triangle has its column labels
        on top, the lower one may hold the colour bar in its empty corner.
    control : bool
        A single column against a control (cells wider than tall).
    colorbar : ColorbarSpec, optional
        The colour bar, if one is drawn.
    width : float, optional
        Width of the figure (inches). By default the cells get their size from k
        (:func:`cell_size`); given a width, the size that makes the figure that
        wide, found in a few rounds since the labels' room depends on the cells.

    Returns
    -------
    HeatmapGeometry

    Raises
    ------
    CdplotInputError
        If ``width`` is not a positive number or too small for the heatmap.
    """
    cell = cell_size(len(rows), len(cols), control)
    kwargs = {"triangle": triangle, "control": control, "colorbar": colorbar, "measure": measure}
    geometry = _geometry_for(rows, cols, cell, **kwargs)  # type: ignore[arg-type]
    if width is None:
        return geometry
    n_cols = len(cols)
    for _ in range(WIDTH_ROUNDS):
        if abs(geometry.width - width) < WIDTH_TOLERANCE:
            break
        cell_w = (width - (geometry.width - n_cols * cell[0])) / n_cols
        if cell_w < CELL_MIN_FIT:
            break
        cell = (cell_w, cell[1] if control else cell_w)
        geometry = _geometry_for(rows, cols, cell, **kwargs)  # type: ignore[arg-type]
    if geometry.width > width + WIDTH_TOLERANCE:
        raise CdplotInputError(
            f"{spell('width', float(f'{width:g}'))} is too small for this heatmap: it needs at "
            f"least about {geometry.width:.2f} inches. Pass a larger {spell('width')}, or "
            "cbar=False, or shorter "
            "algorithm names."
        )
    shift = (width - geometry.width) / 2

    def moved(rect: Rect | None) -> Rect | None:
        return None if rect is None else (rect[0] + shift, *rect[1:])

    return HeatmapGeometry(
        width,
        geometry.height,
        moved(geometry.ax),  # type: ignore[arg-type]
        moved(geometry.cax),
        geometry.cell,
    )

"""APV heatmaps: the (adjusted) p-values of a comparison drawn with :func:`seaborn.heatmap`."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

import matplotlib as mpl
import numpy as np
from matplotlib.colors import LinearSegmentedColormap, ListedColormap, LogNorm, to_rgb
from matplotlib.figure import Figure
from matplotlib.ticker import FixedFormatter, FixedLocator, NullFormatter, NullLocator

from .._errors import CdplotInputError, check_in_list
from .._labels import format_pvalue, pvalue_label
from . import _style
from ._cd_layout import check_width
from ._figure import new_figure, use_pyplot
from ._heatmap_layout import (
    ALPHA_LINE_WIDTH,
    CBAR_FONTSIZE,
    EXTEND_FRAC,
    TICK_FONTSIZE,
    TICK_PAD,
    ColorbarSpec,
    HeatmapGeometry,
    TextStyle,
    heatmap_layout,
    pvalue_ticks,
    rotate_columns,
    significance_levels,
    tick_fontsize,
)
from ._mathtext import check_mathtext
from ._text_measure import TextMeasure

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd
    from matplotlib.axes import Axes

    from ..stats._results import ComparisonResult

__all__ = ["apv_heatmap", "heatmap_geometry"]

Kind = Literal["pvalue", "significance"]
Triangle = Literal["lower", "upper", "full"]
Mark = Literal["bold", "star", "both", "none"]
_KINDS = ("pvalue", "significance")
_TRIANGLES = ("lower", "upper", "full")
_MARKS = ("bold", "star", "both", "none")

# ----------------------------------------------------------------------------- colours
#: Colours of significant p-values, from the smallest (darkest) up to alpha. Blues only:
#: distinguishable under every common colour-vision deficiency, and dark to mid so
#: that in greyscale print lightness alone orders the cells.
SIGNIFICANT_RAMP: tuple[str, ...] = ("#08214a", "#1b4f8f", "#3b7bbf", "#6ba7dd")
#: Colours of non-significant p-values, from alpha up to 1: light greys. The step in
#: lightness from the end of SIGNIFICANT_RAMP to the start of this ramp is the
#: visible break at alpha (in colour and in greyscale).
NOT_SIGNIFICANT_RAMP: tuple[str, ...] = ("#d2d2d2", "#f4f4f4")
#: Colour of empty cells' text (the control's row) and of the alpha line.
MUTED_INK = "0.35"
INK = "black"
#: Text on a cell is dark or white, whichever contrasts more with the cell (WCAG).
DARK_TEXT = "0.1"
LIGHT_TEXT = "white"
#: Number of colours of the continuous colour map.
N_COLORS = 512
#: p-values below this are drawn in the darkest colour (the colour bar ends here).
P_FLOOR = 1e-4

# ----------------------------------------------------------------------------- sizes
#: Annotations: font size at most/least (points). They shrink until they fill at most
#: these fractions of a cell's width and height; below ANNOT_MIN_FONTSIZE they are off.
ANNOT_MAX_FONTSIZE = 7.5
ANNOT_MIN_FONTSIZE = 5.0
ANNOT_FILL_WIDTH = 0.88
ANNOT_FILL_HEIGHT = 0.62
#: Width of the white lines between cells (points).
CELL_LINE_WIDTH = 0.5
#: Colour-bar ticks: length and gap to their labels (points), for p-values and classes.
PVALUE_TICK_LENGTH, PVALUE_TICK_PAD = 2.0, 1.5
CLASS_TICK_LENGTH, CLASS_TICK_PAD = 0.0, 2.0


class _AlphaLogNorm(LogNorm):
    """A LogNorm whose colour never mixes p <= alpha with p > alpha.

    Values at most ``level`` are kept below the colour map's break and values
    above it at or above the break, so a cell's colour always agrees with the
    bold/star mark of its significance, whatever the colour resolution.
    """

    def __init__(self, vmin: float, vmax: float, level: float, n_colors: int):
        super().__init__(vmin=vmin, vmax=vmax, clip=False)
        self.level = level
        self.n_colors = n_colors
        position = (math.log(level) - math.log(vmin)) / (math.log(vmax) - math.log(vmin))
        self.break_index = min(max(math.ceil(position * n_colors), 1), n_colors - 1)

    def __call__(self, value: Any, clip: bool | None = None) -> Any:
        normed = super().__call__(value, clip)
        below = (self.break_index - 0.5) / self.n_colors
        above = (self.break_index + 0.5) / self.n_colors
        data = np.ma.asarray(value, dtype=float)
        out = np.ma.where(
            data <= self.level, np.ma.minimum(normed, below), np.ma.maximum(normed, above)
        )
        if np.ndim(value) == 0:
            return out[()] if np.ma.is_masked(out) else float(out)
        return out


def _ramp(colors: tuple[str, ...], t: np.ndarray) -> np.ndarray:
    return LinearSegmentedColormap.from_list("ramp", list(colors))(t)


def _pvalue_colormap(norm: _AlphaLogNorm) -> ListedColormap:
    n, b = norm.n_colors, norm.break_index
    colors = np.vstack(
        [
            _ramp(SIGNIFICANT_RAMP, np.linspace(0.0, 1.0, b)),
            _ramp(NOT_SIGNIFICANT_RAMP, np.linspace(0.0, 1.0, n - b)),
        ]
    )
    cmap = ListedColormap(colors, name="cdplot_apv")
    return cmap.with_extremes(under=SIGNIFICANT_RAMP[0], bad=(1.0, 1.0, 1.0, 0.0))


def _significance_colors(n_levels: int) -> list[Any]:
    t = np.linspace(0.0, 1.0, n_levels) if n_levels > 1 else np.array([1.0])
    return [*_ramp(SIGNIFICANT_RAMP, t), to_rgb(NOT_SIGNIFICANT_RAMP[0])]


def _luminance(rgb: Any) -> float:
    r, g, b = (c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _text_color(rgb: Any) -> str:
    lum = _luminance(rgb)
    dark = _luminance(to_rgb(DARK_TEXT))
    on_dark = (lum + 0.05) / (dark + 0.05)  # contrast of dark text
    on_light = 1.05 / (lum + 0.05)  # contrast of white text
    return DARK_TEXT if on_dark >= on_light else LIGHT_TEXT


# ----------------------------------------------------------------------------- figure text
#: Label of alpha's tick on the p-value colour bar; ``alpha`` is :func:`._style.alpha_symbol`
#: (the bundled font's italic alpha under matplotlib's default font, else the mathtext
#: ``$\alpha$``; both typeset as ``$\alpha$`` in PGF output).
ALPHA_TEXT = "{alpha} = {value:g}"


def alpha_text(alpha: float) -> str:
    """Label of alpha's tick on the p-value colour bar, e.g. ``"𝛼 = 0.05"``."""
    return ALPHA_TEXT.format(alpha=_style.alpha_symbol(), value=alpha)


#: The rule at alpha under the colour bar's label. Under matplotlib's default font plain
#: text: the bundled font's italic alpha, and thin spaces (0.2 em) around the "≤" where
#: mathtext puts 0.2 of an "m" (0.195 em) around a relation; else mathtext.
RULE_TEXT = "(\N{THIN SPACE}\N{LESS-THAN OR EQUAL TO}\N{THIN SPACE}{alpha}: significant)"
MATH_RULE_TEXT = r"($\leq\alpha$: significant)"


def pvalue_cbar_label(label: str) -> str:
    """Label of the p-value colour bar: what the values are, and the rule at alpha."""
    alpha = _style.alpha_symbol()
    rule = MATH_RULE_TEXT if alpha == _style.MATH_ALPHA else RULE_TEXT.format(alpha=alpha)
    return label + "\n" + rule


def significance_names(levels: list[float]) -> list[str]:
    """Tick labels of the significance plot's colour bar (mathtext, ASCII source)."""
    return [f"p $\\leq$ {lv:g}" for lv in levels] + ["NS"]


# ----------------------------------------------------------------------------- data


@dataclass(frozen=True)
class _Grid:
    """What to draw: p-values, significance and what to hide, in display order."""

    pvalues: pd.DataFrame
    significant: pd.DataFrame
    hidden: np.ndarray
    control_row: int | None
    label: str


def _grid(result: ComparisonResult, adjusted: bool, triangle: str) -> _Grid:
    import pandas as pd

    order = [str(a) for a in result.average_ranks.index]
    label = pvalue_label(result, adjusted=adjusted)
    label = label[0].upper() + label[1:]
    if result.control is not None:
        control = result.control
        others = [a for a in order if a != control]
        source = result.adjusted_pvalues if adjusted else result.pvalues.loc[control]
        column = f"vs {result.label(control)}"
        values = pd.DataFrame(
            {column: [np.nan if a == control else float(source[a]) for a in order]},
            index=pd.Index(order, dtype=object),
        )
        sig = pd.DataFrame(
            {column: [a in others and bool(result.significant[a]) for a in order]},
            index=values.index,
        )
        hidden = np.array([[a == control] for a in order])
        return _labelled(_Grid(values, sig, hidden, order.index(control), label), result)

    matrix = (result.adjusted_pvalues if adjusted else result.pvalues).loc[order, order]
    sig = result.significant.loc[order, order]
    k = len(order)
    if triangle == "lower":
        rows, cols = order[1:], order[:-1]
        hidden = np.triu(np.ones((k - 1, k - 1), dtype=bool), 1)
    elif triangle == "upper":
        rows, cols = order[:-1], order[1:]
        hidden = np.tril(np.ones((k - 1, k - 1), dtype=bool), -1)
    else:
        rows, cols = order, order
        hidden = np.eye(k, dtype=bool)
    values = matrix.loc[rows, cols].astype(float)
    return _labelled(_Grid(values, sig.loc[rows, cols].astype(bool), hidden, None, label), result)


def _labelled(grid: _Grid, result: ComparisonResult) -> _Grid:
    """The grid with display names (``result.label``) on its rows and columns.

    Labels are unique (``compare(labels=...)`` checks it), so renaming is one-to-one.
    """
    if not result.labels:
        return grid
    names = {a: result.label(a) for a in result.algorithms}
    frames = [f.rename(index=names, columns=names) for f in (grid.pvalues, grid.significant)]
    return _Grid(frames[0], frames[1], grid.hidden, grid.control_row, grid.label)


# ----------------------------------------------------------------------------- text sizes


def _annotation(p: float, significant: bool, mark: str) -> str:
    text = format_pvalue(p)
    if significant and mark in ("star", "both"):
        text += "*"
    return text


def _annotation_fontsize(
    texts: list[tuple[str, bool]], cell: tuple[float, float], dpi: float, mark: str
) -> float | None:
    """Largest font size (points) at which every annotation fits its cell, or None."""
    if not texts:
        return None
    measure = TextMeasure(dpi)
    ref = 10.0
    width = height = 0.0
    for text, significant in texts:
        bold = significant and mark in ("bold", "both")
        w, h = measure.size(text, fontsize=ref, fontweight="bold" if bold else "normal")
        width, height = max(width, w), max(height, h)
    size = min(
        ANNOT_MAX_FONTSIZE,
        ref * ANNOT_FILL_WIDTH * cell[0] / width,
        ref * ANNOT_FILL_HEIGHT * cell[1] / height,
    )
    return size if size >= ANNOT_MIN_FONTSIZE else None


# ----------------------------------------------------------------------------- drawing


@dataclass(frozen=True)
class _Options:
    adjusted: bool
    kind: str
    triangle: str
    annot: bool
    cbar: bool
    mark: str
    annot_kws: Mapping[str, Any]
    kwargs: Mapping[str, Any]


def _draw(result: ComparisonResult, ax: Axes, cax: Axes | None, opts: _Options) -> Axes:
    import pandas as pd
    import seaborn as sns

    grid = _grid(result, opts.adjusted, opts.triangle)
    values = grid.pvalues
    alpha = result.alpha
    kwargs = dict(opts.kwargs)
    user_mask = kwargs.pop("mask", None)
    hidden = grid.hidden | (np.asarray(user_mask, dtype=bool) if user_mask is not None else False)
    cbar_kws = dict(kwargs.pop("cbar_kws", None) or {})
    cbar_ax = cax

    if opts.kind == "pvalue":
        vmin = float(kwargs.pop("vmin", None) or P_FLOOR)
        vmax = float(kwargs.pop("vmax", None) or 1.0)
        norm = kwargs.pop("norm", None) or _AlphaLogNorm(vmin, vmax, alpha, N_COLORS)
        cmap = kwargs.pop("cmap", None) or (
            _pvalue_colormap(norm) if isinstance(norm, _AlphaLogNorm) else None
        )
        data = values.clip(lower=np.finfo(float).tiny)
        cbar_kws.setdefault("extend", "min")
        if isinstance(norm, LogNorm):
            # cdplot labels this colour bar (_style_pvalue_colorbar); meanwhile no labels, so
            # that seaborn's draw does not typeset matplotlib's "10^-4" labels as mathtext
            cbar_kws.setdefault("format", NullFormatter())
    else:
        levels = significance_levels(alpha)
        colors = _significance_colors(len(levels))
        codes = np.searchsorted(np.asarray(levels), values.to_numpy(), side="left")
        data = pd.DataFrame(
            np.where(np.isnan(values.to_numpy()), np.nan, codes.astype(float)),
            index=values.index,
            columns=values.columns,
        )
        cmap = kwargs.pop("cmap", None) or ListedColormap(colors, name="cdplot_significance")
        bounds = np.arange(len(colors) + 1) - 0.5
        norm = kwargs.pop("norm", None) or mpl.colors.BoundaryNorm(bounds, len(colors))
        for key in ("vmin", "vmax"):
            kwargs.pop(key, None)

    kwargs.setdefault("linewidths", CELL_LINE_WIDTH)
    kwargs.setdefault("linecolor", "white")
    sns.heatmap(
        data,
        ax=ax,
        cmap=cmap,
        norm=norm,
        mask=hidden,
        annot=False,
        cbar=opts.cbar,
        cbar_ax=cbar_ax if opts.cbar else None,
        cbar_kws=cbar_kws,
        xticklabels=True,
        yticklabels=True,
        **kwargs,
    )
    ax.apply_aspect()
    fig = ax.get_figure()
    dpi = fig.dpi
    box = ax.get_window_extent()
    n_rows, n_cols = values.shape
    cell = (box.width / dpi / n_cols, box.height / dpi / n_rows)
    _style_ticks(ax, values, cell, opts.triangle if result.control is None else "lower")
    if opts.cbar:
        cb_ax = ax.collections[0].colorbar.ax
        if opts.kind == "pvalue" and isinstance(norm, LogNorm):
            _style_pvalue_colorbar(cb_ax, norm, alpha, grid.label)
        elif opts.kind == "significance":
            _style_significance_colorbar(cb_ax, significance_levels(alpha), grid.label)
    if opts.annot:
        _annotate(ax, grid, hidden, cell, dpi, opts, data)
    if grid.control_row is not None:
        props = {"fontsize": min(TICK_FONTSIZE, tick_fontsize(cell)), **opts.annot_kws}
        ax.text(
            0.5,
            grid.control_row + 0.5,
            "control",
            ha="center",
            va="center",
            color=MUTED_INK,
            fontstyle="italic",
            gid="apv-control",
            **props,
        )
    ax.set_xlabel("")
    ax.set_ylabel("")
    return ax


def _style_ticks(ax: Axes, values: pd.DataFrame, cell: tuple[float, float], triangle: str) -> None:
    fontsize = tick_fontsize(cell)
    measure = TextMeasure(ax.get_figure().dpi)
    widest = max(measure.size(str(c), fontsize=fontsize)[0] for c in values.columns)
    rotate = rotate_columns(widest, cell[0])
    ax.tick_params(axis="both", length=0, pad=TICK_PAD, labelsize=fontsize)
    for label in ax.get_yticklabels():
        label.set_rotation(0)
        label.set_va("center")
    top = triangle == "upper"
    ax.tick_params(axis="x", top=False, bottom=False, labeltop=top, labelbottom=not top)
    for label in ax.get_xticklabels():
        label.set_rotation(90 if rotate else 0)
        label.set_ha("center")
        label.set_va("bottom" if top else "top")
    for i, label in enumerate(ax.get_yticklabels()):
        label.set_gid(f"apv-row-{i}")
    for i, label in enumerate(ax.get_xticklabels()):
        label.set_gid(f"apv-col-{i}")


def _style_pvalue_colorbar(cb_ax: Axes, norm: LogNorm, alpha: float, label: str) -> None:
    text = alpha_text(alpha)
    ticks = pvalue_ticks(alpha, float(norm.vmin), float(norm.vmax), text)
    cb_ax.yaxis.set_major_locator(FixedLocator([t for t, _ in ticks]))
    cb_ax.yaxis.set_major_formatter(FixedFormatter([s for _, s in ticks]))
    cb_ax.yaxis.set_minor_locator(NullLocator())
    font = _style.alpha_font(text).get("fontfamily")
    cb_ax.tick_params(
        labelsize=CBAR_FONTSIZE, length=PVALUE_TICK_LENGTH, width=0.6, pad=PVALUE_TICK_PAD
    )
    if font:  # every tick label: matplotlib re-makes them when drawn
        cb_ax.yaxis.set_tick_params(labelfontfamily=font)
    x0, x1 = cb_ax.get_xlim()
    span = (x1 - x0) * ALPHA_LINE_WIDTH
    middle = (x0 + x1) / 2
    cb_ax.plot(
        [middle - span / 2, middle + span / 2],
        [alpha, alpha],
        color=INK,
        lw=1.0,
        clip_on=False,
        gid="apv-alpha-line",
    )
    cb_ax.set_xlim(x0, x1)
    text = pvalue_cbar_label(label)
    cb_ax.set_ylabel(text, fontsize=CBAR_FONTSIZE, **_style.alpha_font(text))
    cb_ax.set_gid("apv-colorbar")


def _style_significance_colorbar(cb_ax: Axes, levels: list[float], label: str) -> None:
    names = significance_names(levels)
    cb_ax.yaxis.set_major_locator(FixedLocator(list(range(len(names)))))
    cb_ax.yaxis.set_major_formatter(FixedFormatter(names))
    cb_ax.yaxis.set_minor_locator(NullLocator())
    cb_ax.tick_params(labelsize=CBAR_FONTSIZE, length=CLASS_TICK_LENGTH, pad=CLASS_TICK_PAD)
    cb_ax.set_ylabel(label, fontsize=CBAR_FONTSIZE)
    cb_ax.set_gid("apv-colorbar")


def _annotate(
    ax: Axes,
    grid: _Grid,
    hidden: np.ndarray,
    cell: tuple[float, float],
    dpi: float,
    opts: _Options,
    data: pd.DataFrame,
) -> None:
    values = grid.pvalues.to_numpy()
    sig = grid.significant.to_numpy()
    shown = [
        (i, j)
        for i in range(values.shape[0])
        for j in range(values.shape[1])
        if not hidden[i, j] and not np.isnan(values[i, j])
    ]
    texts = [
        (_annotation(values[i, j], bool(sig[i, j]), opts.mark), bool(sig[i, j])) for i, j in shown
    ]
    props = dict(opts.annot_kws)
    if "fontsize" in props or "size" in props:
        fontsize: float | None = float(props.pop("fontsize", props.pop("size", 0.0)))
    else:
        fontsize = _annotation_fontsize(texts, cell, dpi, opts.mark)
    if fontsize is None:
        return
    mesh = ax.collections[0]
    colors = mesh.to_rgba(np.ma.masked_invalid(data.to_numpy(dtype=float)))
    for (i, j), (text, significant) in zip(shown, texts, strict=True):
        bold = significant and opts.mark in ("bold", "both")
        kws = {
            "color": _text_color(colors[i, j]),
            "fontweight": "bold" if bold else "normal",
            "fontsize": fontsize,
            **props,
        }
        ax.text(
            j + 0.5,
            i + 0.5,
            text,
            ha="center",
            va="center",
            gid="apv-annotation",
            **kws,
        )


def _box_measure(dpi: float) -> Callable[[str, TextStyle], tuple[float, float, float, float]]:
    """``measure(text, style) -> (x0, y0, x1, y1)``: a text's box relative to its anchor,
    by matplotlib's own metrics (Agg at ``dpi``), as :mod:`._heatmap_layout` asks."""
    measure = TextMeasure(dpi)

    def box(text: str, style: TextStyle) -> tuple[float, float, float, float]:
        return measure.box(
            text,
            fontsize=style.fontsize,
            fontweight=style.fontweight,
            **_style.alpha_font(text),
            rotation=style.rotation,
            rotation_mode=style.rotation_mode,
            ha=style.ha,
            va=style.va,
        )

    return box


def _colorbar_spec(result: ComparisonResult, grid: _Grid, opts: _Options) -> ColorbarSpec | None:
    """What cdplot's colour bar shows; None when options make matplotlib choose the ticks."""
    kwargs = opts.kwargs
    if "norm" in kwargs or set(kwargs.get("cbar_kws") or {}) - {"extend"}:
        return None
    alpha = result.alpha
    if opts.kind == "pvalue":
        vmin = float(kwargs.get("vmin") or P_FLOOR)
        vmax = float(kwargs.get("vmax") or 1.0)
        span = math.log(vmax) - math.log(vmin)
        ticks = tuple(
            ((math.log(t) - math.log(vmin)) / span, text)
            for t, text in pvalue_ticks(alpha, vmin, vmax, alpha_text(alpha))
        )
        extend = (kwargs.get("cbar_kws") or {}).get("extend", "min")
        return ColorbarSpec(
            ticks,
            pvalue_cbar_label(grid.label),
            PVALUE_TICK_LENGTH,
            PVALUE_TICK_PAD,
            extend_lower=EXTEND_FRAC if extend in ("min", "both") else 0.0,
            alpha_line=True,
        )
    names = significance_names(significance_levels(alpha))
    n = len(names)
    ticks = tuple(((i + 0.5) / n, text) for i, text in enumerate(names))
    return ColorbarSpec(ticks, grid.label, CLASS_TICK_LENGTH, CLASS_TICK_PAD)


def _geometry(result: ComparisonResult, opts: _Options, width: float | None) -> HeatmapGeometry:
    grid = _grid(result, opts.adjusted, opts.triangle)
    spec = _colorbar_spec(result, grid, opts) if opts.cbar else None
    if opts.cbar and spec is None:  # matplotlib's ticks: room for the bar itself only
        spec = ColorbarSpec((), "", 0.0, 0.0)
    control = grid.control_row is not None
    return heatmap_layout(
        [str(r) for r in grid.pvalues.index],
        [str(c) for c in grid.pvalues.columns],
        measure=_box_measure(float(mpl.rcParams["figure.dpi"])),
        triangle=opts.triangle,
        control=control,
        colorbar=spec,
        width=width,
    )


def heatmap_geometry(
    result: ComparisonResult, *, width: float | None = None, **options: Any
) -> HeatmapGeometry:
    """Size of the new figure :func:`apv_heatmap` makes, and where its two Axes go.

    For figure-level functions that place the heatmap among other panels
    (:func:`report_figure`): draw it with ``apv_heatmap(result, ax=..., cbar_ax=...)``
    into Axes at ``geometry.ax`` and ``geometry.cax`` (inches from the lower left),
    as seaborn's ``ClusterGrid`` places :func:`seaborn.heatmap`.

    Parameters
    ----------
    result : ComparisonResult
        The result of :func:`cdplot.compare`.
    width : float, optional
        Width of the figure in inches, as in :func:`apv_heatmap`.
    **options
        The options of :func:`apv_heatmap` (``kind``, ``triangle``, ``cbar``, ...).

    Returns
    -------
    HeatmapGeometry
        ``width``, ``height``, ``ax`` and ``cax`` rectangles ``(x, y, w, h)``, ``cell``.
    """
    check_mathtext([result.label(a) for a in result.algorithms], where="apv_heatmap")
    opts = _make_options(**options)
    return _geometry(result, opts, None if width is None else check_width(width))


def _fractions(rect: tuple, width: float, height: float) -> tuple[float, float, float, float]:
    x, y, w, h = rect
    return (x / width, y / height, w / width, h / height)


def _refit(fig: Figure, axes: list[Axes]) -> None:
    """Resize a new figure to what was drawn (only when matplotlib chose the colour bar's
    ticks, which the layout cannot know): FIGURE_PAD around, the Axes' sizes kept."""
    from ._heatmap_layout import FIGURE_PAD

    renderer = fig.canvas.get_renderer()
    old_w, old_h = fig.get_size_inches()
    rects = [a.get_position(original=True) for a in axes]
    box = fig.get_tightbbox(renderer)
    x0, y0 = box.x0 - FIGURE_PAD, box.y0 - FIGURE_PAD
    width, height = box.width + 2 * FIGURE_PAD, box.height + 2 * FIGURE_PAD
    fig.set_size_inches(width, height)
    for a, r in zip(axes, rects, strict=True):
        rect = (r.x0 * old_w - x0, r.y0 * old_h - y0, r.width * old_w, r.height * old_h)
        a.set_position(_fractions(rect, width, height))


def _make_options(
    *,
    adjusted: bool = True,
    kind: str = "pvalue",
    triangle: str = "lower",
    annot: bool = True,
    cbar: bool = True,
    mark: str | None = "bold",
    annot_kws: Mapping[str, Any] | None = None,
    **kwargs: Any,
) -> _Options:
    mark = "none" if mark is None else mark
    kind = check_in_list(_KINDS, kind=kind)
    triangle = check_in_list(_TRIANGLES, triangle=triangle)
    mark = check_in_list(_MARKS, mark=mark)
    for key, fix in (("fmt", "mark= and annot_kws="), ("data", "the result argument")):
        if key in kwargs:
            raise CdplotInputError(
                f"apv_heatmap() does not take {key}=: it draws the result's p-values and "
                f"their annotations itself; use {fix} instead."
            )
    return _Options(
        adjusted=bool(adjusted),
        kind=kind,
        triangle=triangle,
        annot=bool(annot),
        cbar=bool(cbar),
        mark=mark,
        annot_kws=dict(annot_kws or {}),
        kwargs=kwargs,
    )


def apv_heatmap(
    result: ComparisonResult,
    *,
    ax: Axes | None = None,
    width: float | None = None,
    adjusted: bool = True,
    kind: Kind = "pvalue",
    triangle: Triangle = "lower",
    annot: bool = True,
    cbar: bool = True,
    mark: Mark | None = "bold",
    annot_kws: Mapping[str, Any] | None = None,
    cbar_ax: Axes | None = None,
    **kwargs: Any,
) -> Axes:
    """Draw the matrix of adjusted p-values (APVs) of a comparison as a heatmap.

    The algorithms are in average-rank order (best first). With all pairs
    compared, one triangle of the symmetric matrix is drawn (row against
    column); against a control, a single column of APVs, with the control's
    own row marked. Each cell is annotated with its p-value (``0.032``,
    ``<0.001``) and significant pairs (``result.significant``: APV <= alpha)
    are marked in bold or with a star.

    Colour follows the p-value on a log scale: significant values in blues
    (darker is smaller), non-significant ones in light greys, with a clear
    step in colour and lightness at alpha. The palette reads under colour
    vision deficiencies and in greyscale print. The colour bar shows the scale
    and marks alpha. With ``kind="significance"`` the cells are classed as
    p <= 0.001 / 0.01 / 0.05 (up to alpha) / NS instead.

    The heatmap only reads ``result``; it never recomputes a statistic. This
    is an Axes-level function.

    Parameters
    ----------
    result : ComparisonResult
        The result of :func:`cdplot.compare`.
    ax : matplotlib.axes.Axes, optional
        Draw here (the colour bar takes room from it, as in
        :func:`seaborn.heatmap`). By default a new figure is made and sized
        from k: cells of 0.42 inches, shrinking for large k so the grid stays
        within about 6 inches.
    width : float, optional
        Width of the new figure in inches (e.g. 3.3 for one column of a
        two-column paper, 7 for the full width); the cells are sized to fit
        and the height follows. Only when ``ax`` is None.
    adjusted : bool, default True
        Show the adjusted p-values; False shows the raw p-values. Marks always
        follow ``result.significant``, i.e. the adjusted decision.
    kind : {"pvalue", "significance"}, default "pvalue"
        Continuous colour on a log-p scale, or classes of significance.
    triangle : {"lower", "upper", "full"}, default "lower"
        Which part of the all-pairs matrix to draw. The triangles leave out
        the diagonal (and so the best algorithm's row and the worst's column,
        or the other way round). Ignored against a control.
    annot : bool, default True
        Write the p-values into the cells. They shrink with the cells and are
        left out when the cells get too small to hold them legibly (below
        5 points), unless ``annot_kws`` gives a ``fontsize``.
    cbar : bool, default True
        Draw the colour bar.
    mark : {"bold", "star", "both", "none"}, default "bold"
        How the annotations of significant cells are marked.
    annot_kws : dict, optional
        Properties of the annotation texts (:class:`matplotlib.text.Text`).
    cbar_ax : matplotlib.axes.Axes, optional
        Draw the colour bar here (only with ``ax``), as :func:`seaborn.heatmap`
        does; by default it takes room from ``ax``. Figure-level functions that
        place the heatmap among other panels use it with
        :func:`heatmap_geometry`, as seaborn's ``ClusterGrid`` does.
    **kwargs
        Passed on to :func:`seaborn.heatmap`, e.g. ``linewidths``, ``cmap``,
        ``vmin`` (the smallest p-value of the colour scale, default 1e-4),
        ``cbar_kws`` or ``mask`` (added to the triangle's mask).
        Annotations are drawn by cdplot, so seaborn's ``annot`` and ``fmt``
        are not accepted.

    Returns
    -------
    matplotlib.axes.Axes
        The Axes drawn on. Annotations carry the gid ``apv-annotation``, the
        alpha mark on the colour bar ``apv-alpha-line``.

    Raises
    ------
    CdplotInputError
        For an invalid ``kind``, ``triangle`` or ``mark``, ``width`` given
        together with ``ax``, ``cbar_ax`` without ``ax``, or a width that is
        not a positive number or too small for the heatmap; for a Bayesian
        result, which has posterior probabilities instead of p-values (draw it
        with :func:`posterior_plot` or :func:`bayes_cd_diagram`).

    See Also
    --------
    cd_diagram : the critical difference diagram of the same result.
    report_figure : the diagram above this heatmap, in one figure.

    Notes
    -----
    Cells' colours use the same decision as the marks: a p-value equal to
    alpha is coloured (and marked) as significant. p-values below 1e-4 take
    the darkest colour (the colour bar's arrow).

    References
    ----------
    .. [1] S. García and F. Herrera, "An extension on 'Statistical comparisons
       of classifiers over multiple data sets' for all pairwise comparisons",
       Journal of Machine Learning Research 9, 2677-2694, 2008.

    Examples
    --------
    >>> import warnings
    >>> import cdplot
    >>> data = cdplot.datasets.load("garcia2008_synthetic")
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore", cdplot.PoolDependenceWarning)
    ...     res = cdplot.compare(data, higher_is_better=False, test="mean-ranks",
    ...                          correction="bergmann")
    >>> ax = cdplot.apv_heatmap(res)
    >>> ax.figure.savefig("apv.pdf")  # doctest: +SKIP
    """
    from ._kinds import require

    require(result, "apv_heatmap")
    check_mathtext([result.label(a) for a in result.algorithms], where="apv_heatmap")
    opts = _make_options(
        adjusted=adjusted,
        kind=kind,
        triangle=triangle,
        annot=annot,
        cbar=cbar,
        mark=mark,
        annot_kws=annot_kws,
        **kwargs,
    )
    if ax is not None:
        if width is not None:
            raise CdplotInputError(
                "width applies only to a new figure; it cannot be given with ax. Size the "
                "Axes instead, or drop ax= to get a new figure of that width."
            )
        extra = dict(opts.kwargs)
        extra.setdefault("square", result.control is None)
        return _draw(result, ax, cbar_ax, _replace_kwargs(opts, extra))
    if cbar_ax is not None:
        raise CdplotInputError(
            "cbar_ax applies only to a given ax; it cannot be used with ax=None. Pass both "
            "ax= and cbar_ax=, or neither."
        )
    fig_width = None if width is None else check_width(width)
    pyplot_loaded = use_pyplot()
    geometry = _geometry(result, opts, fig_width)
    fig = new_figure(geometry.width, geometry.height, pyplot=pyplot_loaded)
    new_ax = fig.add_axes(_fractions(geometry.ax, geometry.width, geometry.height))
    cax = (
        fig.add_axes(_fractions(geometry.cax, geometry.width, geometry.height))
        if geometry.cax is not None
        else None
    )
    out = _draw(result, new_ax, cax, opts)
    grid = _grid(result, opts.adjusted, opts.triangle)
    if opts.cbar and _colorbar_spec(result, grid, opts) is None:
        _refit(fig, [new_ax] + ([cax] if cax is not None else []))
    return out


def _replace_kwargs(opts: _Options, kwargs: Mapping[str, Any]) -> _Options:
    return _Options(
        adjusted=opts.adjusted,
        kind=opts.kind,
        triangle=opts.triangle,
        annot=opts.annot,
        cbar=opts.cbar,
        mark=opts.mark,
        annot_kws=opts.annot_kws,
        kwargs=kwargs,
    )

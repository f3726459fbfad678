"""The cost-performance frontier: performance against cost (log axis), the frontier band,
every model labelled without overlaps (up to 100 models and more).

The figure reads a :class:`~cdplot.stats._pareto.ParetoFrontier` and computes nothing: the
points, their intervals, the frontier and its band are the frontier's numbers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
from matplotlib.ticker import FuncFormatter, LogLocator

from .._errors import CdplotInputError
from ..stats._pareto import ParetoFrontier
from . import _style
from ._figure import new_figure
from ._pareto_layout import place_labels
from ._text_measure import TextMeasure

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.axes import Axes

__all__ = ["pareto_plot"]

#: colours (Okabe & Ito): models on the frontier, the others, the band, the interval bars
FRONTIER_COLOR = _style.OKABE_ITO[0]
OTHER_COLOR = "0.45"
BAND_COLOR = "#DCEBF7"
BAR_COLOR = "0.78"
LEADER_COLOR = "0.6"
#: marker size (points) and the gap between a marker and its label (inches)
MARKER_POINTS = 5.0
LABEL_GAP = 0.03
#: figure size (inches): the width, and the height that grows with the number of models
WIDTH, MIN_HEIGHT, HEIGHT_PER_MODEL, MAX_HEIGHT = 6.0, 3.6, 0.07, 8.0
#: margins of the Axes (figure fractions)
AXES_RECT = (0.11, 0.13, 0.86, 0.8)
#: font sizes of the labels: few models, and from :data:`MANY` models on
LABEL_FONTSIZE, SMALL_FONTSIZE, MANY = 7.5, 6.0, 30


def _check(frontier: Any) -> ParetoFrontier:
    if not isinstance(frontier, ParetoFrontier):
        raise CdplotInputError(
            f"pareto_plot draws the result of cdplot.pareto_frontier(...), got "
            f"{type(frontier).__name__}; e.g. pareto_plot(cdplot.pareto_frontier(res, "
            "cost=...))."
        )
    return frontier


def _ylabel(frontier: ParetoFrontier) -> str:
    if frontier.on == "ranks":
        return "average rank (1 = best)"
    return "mean score" + ("" if frontier.higher_is_better else " (lower is better)")


def _draw_band(ax: Axes, frontier: ParetoFrontier) -> None:
    level = f"{frontier.confidence:.0%}"
    ax.fill_between(
        frontier.band_cost,
        frontier.band_low,
        frontier.band_high,
        step="post",
        color=BAND_COLOR,
        linewidth=0,
        label=f"frontier, {level} band",
        gid="frontier-band",
        zorder=1,
    )
    ax.step(
        frontier.band_cost,
        frontier.band,
        where="post",
        color=FRONTIER_COLOR,
        linewidth=1.0,
        gid="frontier-line",
        zorder=2,
    )


def _draw_points(ax: Axes, frontier: ParetoFrontier) -> None:
    x, y = frontier.cost, frontier.performance
    on = frontier.on_frontier
    ax.errorbar(
        x,
        y,
        xerr=[x - frontier.cost_low, frontier.cost_high - x],
        yerr=[np.abs(y - frontier.performance_low), np.abs(frontier.performance_high - y)],
        fmt="none",
        ecolor=BAR_COLOR,
        elinewidth=0.6,
        zorder=3,
        gid="model-intervals",
    )
    ax.plot(
        x[~on],
        y[~on],
        "o",
        markersize=MARKER_POINTS,
        markerfacecolor="white",
        markeredgecolor=OTHER_COLOR,
        linestyle="none",
        label="dominated (estimate)",
        gid="models-dominated",
        zorder=4,
    )
    ax.plot(
        x[on],
        y[on],
        "D",
        markersize=MARKER_POINTS,
        color=FRONTIER_COLOR,
        linestyle="none",
        label="on the frontier (estimate)",
        gid="models-frontier",
        zorder=5,
    )


def _draw_labels(ax: Axes, frontier: ParetoFrontier, fontsize: float) -> int:
    """Label every model that finds room; returns how many did not."""
    fig = ax.figure
    fig.canvas.draw()  # settle the limits and the transform
    dpi = fig.dpi
    xy = ax.transData.transform(np.column_stack([frontier.cost, frontier.performance])) / dpi
    box = ax.get_window_extent()
    area = (box.x0 / dpi, box.y0 / dpi, box.x1 / dpi, box.y1 / dpi)
    measure = TextMeasure(dpi, {"label": {"fontsize": fontsize}})
    texts = [frontier.label(m) for m in frontier.models]
    sizes = [measure(t, "label") for t in texts]
    order = sorted(
        range(len(texts)), key=lambda i: (not frontier.on_frontier[i], -frontier.p_frontier[i])
    )
    radius = MARKER_POINTS / 72 / 2
    legend = ax.get_legend()
    obstacles = []
    if legend is not None:
        lb = legend.get_window_extent()
        obstacles.append((lb.x0 / dpi, lb.y0 / dpi, lb.x1 / dpi, lb.y1 / dpi))
    boxes = place_labels(xy, sizes, order, area, radius=radius, gap=LABEL_GAP, obstacles=obstacles)
    to_data = ax.transData.inverted()
    for b in boxes:
        if b is None:
            continue
        i = b.index
        color = FRONTIER_COLOR if frontier.on_frontier[i] else _style.INK
        at = to_data.transform((b.x * dpi, b.y * dpi))
        ax.text(
            at[0],
            at[1],
            texts[i],
            fontsize=fontsize,
            color=color,
            ha="left",
            va="bottom",
            gid=f"label-{frontier.models[i]}",
            zorder=6,
            bbox={"facecolor": "white", "edgecolor": "none", "alpha": 0.8, "pad": 0.3},
        )
        if b.leader:
            end = to_data.transform(((b.x + b.width / 2) * dpi, (b.y + b.height / 2) * dpi))
            ax.plot(
                [frontier.cost[i], end[0]],
                [frontier.performance[i], end[1]],
                color=LEADER_COLOR,
                linewidth=0.4,
                zorder=2.5,
            )
    return sum(b is None for b in boxes)


def pareto_plot(
    frontier: ParetoFrontier,
    *,
    ax: Axes | None = None,
    labels: bool = True,
    legend: bool = True,
) -> Axes:
    """Draw the cost-performance frontier: performance against cost on a log axis.

    Each model is a point with its marginal bootstrap intervals (grey bars); the models on
    the frontier of the estimates are blue diamonds, the others open grey circles; the
    frontier (the best performance reachable at each cost) is the blue step line, its
    pointwise bootstrap band shaded. Labels are placed beside their points without
    overlapping (the frontier's models first); a label with no room is left out and the
    title says how many. This is an Axes-level function.

    Parameters
    ----------
    frontier : ParetoFrontier
        The result of :func:`cdplot.pareto_frontier`.
    ax : matplotlib.axes.Axes, optional
        Axes to draw into; by default a new figure sized for the number of models.
    labels : bool, default True
        Label the models.
    legend : bool, default True
        Draw the legend.

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> import cdplot
    >>> res = cdplot.compare(cdplot.datasets.load("demsar2006"))
    >>> fr = cdplot.pareto_frontier(res, cost={"C4.5": 1, "C4.5+m": 1.5, "C4.5+cf": 1.2,
    ...                                         "C4.5+m+cf": 2}, random_state=0)
    >>> ax = cdplot.pareto_plot(fr)
    """
    frontier = _check(frontier)
    k = len(frontier.models)
    if ax is None:
        height = min(MAX_HEIGHT, max(MIN_HEIGHT, HEIGHT_PER_MODEL * k))
        ax = new_figure(WIDTH, height).add_axes(AXES_RECT)
    fontsize = SMALL_FONTSIZE if k >= MANY else LABEL_FONTSIZE
    ax.set_xscale("log")
    _draw_band(ax, frontier)
    _draw_points(ax, frontier)
    if frontier.on == "ranks":
        ax.invert_yaxis()  # better is up
    ax.set_xlabel(f"{frontier.cost_name} (log scale; lower is better)", fontsize=8)
    ax.set_ylabel(_ylabel(frontier), fontsize=8)
    ax.tick_params(which="both", labelsize=7)
    plain = FuncFormatter(lambda v, _: f"{v:g}")
    ax.xaxis.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
    ax.xaxis.set_major_formatter(plain)
    ax.xaxis.set_minor_formatter(FuncFormatter(lambda v, _: ""))
    ax.grid(True, which="major", color="0.9", linewidth=0.5, zorder=0)
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)
    if legend:
        ax.legend(fontsize=6.5, frameon=False, loc="best")
    hidden = _draw_labels(ax, frontier, fontsize) if labels else 0
    title = f"Cost-performance frontier ({k} models"
    title += f"; {hidden} labels without room: see the table)" if hidden else ")"
    ax.set_title(title, fontsize=8.5, loc="left")
    return ax

"""Aggregate scores with their intervals, and the probabilities of improvement.

Both figures read a result of :mod:`cdplot.stats` (:class:`~cdplot.RunAggregates`,
:class:`~cdplot.ImprovementProbabilities`) and draw its numbers; they compute none. One
colour carries no meaning here (the names are on the axis), so every interval is drawn in the
palette's blue; a figure stays legible in grey and at 30 algorithms.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._errors import CdplotInputError, check_in_list
from . import _style
from ._figure import new_figure

__all__ = ["aggregate_plot", "improvement_plot"]

#: Height (inches) of one algorithm's row, and the margins above and below the rows.
ROW_HEIGHT = 0.2
MARGIN_HEIGHT = 0.75
#: Height (inches) of the baseline of the label under the panels.
LABEL_FROM_BOTTOM = 0.04
#: Width (inches) of one metric's panel and of the names at the left.
PANEL_WIDTH = 1.6
NAMES_WIDTH = 1.3
#: Side (inches) of one cell of the probability matrix, with its margins.
CELL_SIZE = 0.28
#: Margins (inches) of the matrix: names at the left and below, title above, colour bar right.
MATRIX_MARGINS = (1.4, 1.4, 0.45, 0.8)
#: Gap and width (inches) of the colour bar beside the matrix.
COLORBAR_GAP, COLORBAR_WIDTH = 0.08, 0.12
#: Colour of the intervals and the estimates.
INTERVAL_COLOR = _style.OKABE_ITO[0]
#: Thickness (points) of an interval's bar, and the width of the estimate's tick.
BAR_WIDTH = 5.0
TICK_WIDTH = 1.5
#: Colour map of the probabilities: diverging around 0.5, legible to colour-blind readers.
IMPROVEMENT_CMAP = "PuOr_r"
#: Most algorithms whose matrix cells carry their number.
ANNOTATE_MAX = 10

_TITLES = {
    "median": "Median",
    "iqm": "IQM",
    "mean": "Mean",
    "optimality-gap": "Optimality gap",
}


def _row_order(aggregates: Any) -> np.ndarray:
    """Algorithms top to bottom: best first by the first metric (the gap: smallest first)."""
    first = aggregates.estimate[:, 0]
    key = first if aggregates.metrics[0] == "optimality-gap" else -first
    return np.argsort(key, kind="stable")


def _draw_panel(ax: Any, aggregates: Any, j: int, order: np.ndarray, fontsize: float) -> None:
    y = np.arange(order.size)[::-1]
    low, high = aggregates.low[order, j], aggregates.high[order, j]
    est = aggregates.estimate[order, j]
    ax.hlines(
        y,
        low,
        high,
        colors=INTERVAL_COLOR,
        linewidth=BAR_WIDTH,
        alpha=0.45,
        gid=f"aggregate-interval-{aggregates.metrics[j]}",
    )
    ax.vlines(
        est,
        y - 0.3,
        y + 0.3,
        colors=_style.INK,
        linewidth=TICK_WIDTH,
        gid=f"aggregate-estimate-{aggregates.metrics[j]}",
    )
    ax.set_title(_TITLES[aggregates.metrics[j]], fontsize=fontsize)
    ax.set_ylim(-0.7, order.size - 0.3)
    ax.tick_params(labelsize=fontsize * 0.9)
    ax.tick_params(axis="y", length=0)
    ax.grid(axis="x", color="0.85", linewidth=0.5)
    ax.set_axisbelow(True)
    for side in ("top", "right", "left"):
        ax.spines[side].set_visible(False)


def aggregate_plot(
    aggregates: Any, *, metric: str | None = None, ax: Any = None, xlabel: str | None = None
) -> Any:
    """Draw the aggregate scores of each algorithm with their intervals (rliable's figure).

    This is an Axes-level function when ``metric`` is given; without it, all the result's
    metrics are drawn side by side in a new figure.

    Parameters
    ----------
    aggregates : RunAggregates
        From :func:`cdplot.aggregate_scores`.
    metric : str, optional
        One of the result's metrics; default all of them, one panel each (a new figure).
    ax : matplotlib.axes.Axes, optional
        Where to draw one metric; default a new figure sized for the number of algorithms.
    xlabel : str, optional
        Label under the panels; default "normalised score" for normalised scores, else
        "score".

    Returns
    -------
    matplotlib.axes.Axes
        The panel of ``metric`` (of the first metric when all are drawn; the others are
        ``ax.figure.axes``).

    Raises
    ------
    CdplotInputError
        For a metric the result does not hold, or ``ax`` without ``metric`` for several.

    Examples
    --------
    >>> import numpy as np, cdplot
    >>> rng = np.random.default_rng(0)
    >>> agg = cdplot.aggregate_scores({"A": rng.random((4, 5)), "B": rng.random((4, 5))},
    ...                               n_boot=200, random_state=0)
    >>> ax = cdplot.aggregate_plot(agg)  # one panel per metric
    >>> [a.get_title() for a in ax.figure.axes]
    ['Median', 'IQM', 'Mean', 'Optimality gap']
    """
    names = list(aggregates.metrics)
    if metric is not None:
        metric = check_in_list(names, metric=metric)
    elif ax is not None and len(names) > 1:
        raise CdplotInputError(
            f"ax= draws one metric; pass metric= (one of {', '.join(names)}), or drop ax= "
            "for a figure with every metric."
        )
    chosen = [metric] if metric is not None else names
    order = _row_order(aggregates)
    k = order.size
    if ax is None:
        width = NAMES_WIDTH + PANEL_WIDTH * len(chosen)
        fig = new_figure(width, MARGIN_HEIGHT + ROW_HEIGHT * k)
        axes = fig.subplots(1, len(chosen), sharey=True, squeeze=False)[0]
        fig.subplots_adjust(
            left=NAMES_WIDTH / width,
            right=0.97,
            bottom=0.45 / fig.get_figheight(),
            top=1 - 0.3 / fig.get_figheight(),
            wspace=0.12,
        )
    else:
        axes = [ax]
        width = ax.figure.get_figwidth()
    fontsize = _style.default_fontsize(width)
    for panel, name in zip(axes, chosen, strict=True):
        _draw_panel(panel, aggregates, names.index(name), order, fontsize)
    axes[0].set_yticks(np.arange(k)[::-1], [aggregates.algorithms[i] for i in order])
    axes[0].tick_params(axis="y", length=0, labelsize=fontsize)
    if xlabel is None:
        xlabel = "normalised score" if aggregates.normalised else "score"
    if len(axes) == 1:
        axes[0].set_xlabel(xlabel, fontsize=fontsize)
    else:  # one label centred under the panels
        left, right = axes[0].get_position().x0, axes[-1].get_position().x1
        fig = axes[0].figure
        fig.text(
            (left + right) / 2,
            LABEL_FROM_BOTTOM / fig.get_figheight(),
            xlabel,
            ha="center",
            va="bottom",
            fontsize=fontsize,
            gid="aggregate-xlabel",
        )
    return axes[0]


def _matrix(ax: Any, poi: Any, fontsize: float) -> None:
    k = len(poi.algorithms)
    image = ax.imshow(
        poi.estimate, cmap=IMPROVEMENT_CMAP, vmin=0.0, vmax=1.0, gid="improvement-matrix"
    )
    decided = (poi.low > 0.5) | (poi.high < 0.5)
    if k > ANNOTATE_MAX:
        rows, cols = np.nonzero(decided)
        ax.scatter(
            cols,
            rows,
            s=fontsize * 1.5,
            c=_style.INK,
            marker="o",
            edgecolors="white",
            linewidths=0.5,
            gid="improvement-decided",
        )
    else:
        for i in range(k):
            for j in range(k):
                if i != j:
                    text = f"{poi.estimate[i, j]:.2f}"
                    weight = "bold" if decided[i, j] else "normal"
                    shade = abs(poi.estimate[i, j] - 0.5) > 0.3
                    ax.text(
                        j,
                        i,
                        text,
                        ha="center",
                        va="center",
                        fontsize=fontsize * 0.8,
                        fontweight=weight,
                        color="white" if shade else _style.INK,
                    )
    ax.set_xticks(np.arange(k), poi.algorithms, rotation=90, fontsize=fontsize)
    ax.set_yticks(np.arange(k), poi.algorithms, fontsize=fontsize)
    ax.set_xlabel("Y", fontsize=fontsize)
    ax.set_ylabel("X", fontsize=fontsize)
    ax.tick_params(length=0)
    side = ax.get_position().width * ax.figure.get_figwidth()  # inches
    cax = ax.inset_axes((1.0 + COLORBAR_GAP / side, 0.0, COLORBAR_WIDTH / side, 1.0))
    bar = ax.figure.colorbar(image, cax=cax)
    bar.set_label("P(X > Y)", fontsize=fontsize)
    bar.ax.tick_params(labelsize=fontsize * 0.9)
    note = "bold" if k <= ANNOTATE_MAX else "dot"
    ax.set_title(f"{note}: the {poi.confidence:.0%} interval excludes 0.5", fontsize=fontsize * 0.9)


def _against(ax: Any, poi: Any, control: str, fontsize: float) -> None:
    c = poi.algorithms.index(control)
    others = [i for i in range(len(poi.algorithms)) if i != c]
    order = sorted(others, key=lambda i: -poi.estimate[i, c])
    y = np.arange(len(order))[::-1]
    ax.hlines(
        y,
        poi.low[order, c],
        poi.high[order, c],
        colors=INTERVAL_COLOR,
        linewidth=BAR_WIDTH,
        alpha=0.45,
        gid="improvement-interval",
    )
    ax.vlines(
        poi.estimate[order, c],
        y - 0.3,
        y + 0.3,
        colors=_style.INK,
        linewidth=TICK_WIDTH,
        gid="improvement-estimate",
    )
    ax.axvline(0.5, color="0.4", linestyle="--", linewidth=0.8, gid="improvement-half")
    ax.set_yticks(y, [poi.algorithms[i] for i in order], fontsize=fontsize)
    ax.set_ylim(-0.7, len(order) - 0.3)
    ax.set_xlim(0.0, 1.0)
    ax.set_xlabel(f"P(X > {control})", fontsize=fontsize)
    ax.tick_params(axis="y", length=0)
    ax.tick_params(axis="x", labelsize=fontsize * 0.9)
    for side in ("top", "right", "left"):
        ax.spines[side].set_visible(False)


def improvement_plot(poi: Any, *, control: str | None = None, ax: Any = None) -> Any:
    """Draw the probabilities of improvement: a matrix of every pair, or the intervals
    against one algorithm.

    This is an Axes-level function.

    Parameters
    ----------
    poi : ImprovementProbabilities
        From :func:`cdplot.probability_of_improvement`.
    control : str, optional
        Draw P(X > control) with its interval for every other algorithm X (rliable's
        figure, one row each); default the matrix of every pair, P(row > column), the
        cells whose interval excludes 0.5 in bold (a dot beyond 10 algorithms).
    ax : matplotlib.axes.Axes, optional
        Where to draw; default a new figure sized for the number of algorithms.

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> import numpy as np, cdplot
    >>> rng = np.random.default_rng(0)
    >>> poi = cdplot.probability_of_improvement(
    ...     {"A": rng.random((4, 5)) + 0.5, "B": rng.random((4, 5))}, n_boot=200, random_state=0)
    >>> ax = cdplot.improvement_plot(poi)  # the matrix P(row > column)
    >>> ax = cdplot.improvement_plot(poi, control="B")  # P(X > B) with intervals
    """
    k = len(poi.algorithms)
    if control is not None and control not in poi.algorithms:
        raise CdplotInputError(
            f"control={control!r} is not one of the algorithms: "
            f"{', '.join(map(repr, poi.algorithms))}."
        )
    if ax is None:
        if control is None:
            left, bottom, top, right = MATRIX_MARGINS
            side = CELL_SIZE * k
            width, height = left + side + right, bottom + side + top
            fig = new_figure(width, height)
            ax = fig.add_axes((left / width, bottom / height, side / width, side / height))
        else:
            height = MARGIN_HEIGHT + ROW_HEIGHT * (k - 1)
            fig = new_figure(NAMES_WIDTH + 2.4, height)
            ax = fig.add_axes(
                (
                    NAMES_WIDTH / (NAMES_WIDTH + 2.4),
                    0.5 / height,
                    0.9 - NAMES_WIDTH / (NAMES_WIDTH + 2.4),
                    1 - 0.65 / height,
                )
            )
    fontsize = _style.default_fontsize(ax.figure.get_figwidth())
    if control is None:
        _matrix(ax, poi, fontsize)
    else:
        _against(ax, poi, control, fontsize)
    return ax

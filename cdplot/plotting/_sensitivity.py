"""The aggregation-sensitivity rank matrix: each algorithm's position under each aggregation."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from .._errors import CdplotInputError
from ._figure import new_axes

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.axes import Axes

    from ..stats._sensitivity import AggregationSensitivity

__all__ = ["aggregation_sensitivity_plot"]

#: Cell size and margins of a new figure (inches); the height grows with k (legible to 50).
CELL_WIDTH = 0.62
CELL_HEIGHT = 0.2
LEFT_MARGIN = 1.1
RIGHT_MARGIN = 0.2
TOP_MARGIN = 0.75
BOTTOM_MARGIN = 0.2
FONT_SIZE = 7.0
#: Sequential colour map of the position (1 = best, dark).
CMAP = "viridis"
#: Column titles, in the order of ``AGGREGATIONS``, then the leave-one-out range.
TITLES = (
    "average\nrank",
    "mean\nscore",
    "median\nscore",
    "win rate",
    "IQM",
    "Bradley\N{EN DASH}\nTerry",
    "leave one\ndataset out",
)


def _position_text(value: float) -> str:
    if value != value:  # NaN
        return "\N{EN DASH}"
    return f"{value:g}"


def _annotate(ax: Axes, frame: Any, positions: np.ndarray, cmap_obj: Any, *, annot: bool) -> None:
    """Write the positions into the cells and the leave-one-out ranges into the last column."""
    k, cols = positions.shape
    for i in range(k):
        if annot:
            for j in range(cols):
                value = positions[i, j]
                light = 1.0
                if value == value:
                    rgb = cmap_obj((value - 1.0) / max(k - 1.0, 1.0))[:3]
                    light = 0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2]
                ax.text(
                    j,
                    i,
                    _position_text(value),
                    ha="center",
                    va="center",
                    fontsize=FONT_SIZE - 0.5,
                    color="white" if light < 0.45 else "0.1",
                    gid="sensitivity-annotation",
                )
        low, high = frame["lodo_low"].iloc[i], frame["lodo_high"].iloc[i]
        text = _position_text(low) if low == high else f"{low:g}\N{EN DASH}{high:g}"
        ax.text(
            cols,
            i,
            text,
            ha="center",
            va="center",
            fontsize=FONT_SIZE - 0.5,
            color="0.1",
            fontweight="bold" if low != high else "normal",
            gid="sensitivity-lodo",
        )


def aggregation_sensitivity_plot(
    result: AggregationSensitivity,
    *,
    ax: Axes | None = None,
    annot: bool = True,
    cmap: Any = CMAP,
) -> Axes:
    """Rank matrix: the position of every algorithm under every aggregation.

    Rows are the algorithms, best average rank on top; columns the aggregations
    (average rank, mean score, median score, win rate, interquartile mean,
    Bradley-Terry strength), each cell coloured and labelled by the position
    (1 = best); the last column gives the range of average-rank positions when
    any one dataset is left out. Rows where the aggregations disagree stand out
    as a change of colour along the row. This is an Axes-level function.

    Parameters
    ----------
    result : AggregationSensitivity
        The result of :func:`cdplot.aggregation_sensitivity`.
    ax : matplotlib.axes.Axes, optional
        Draw here; by default a new figure sized for k rows.
    annot : bool, default True
        Write the positions into the cells.
    cmap : str or Colormap, default "viridis"
        Colour map of the position.

    Returns
    -------
    matplotlib.axes.Axes
        The cells are an image with gid ``sensitivity-cells``; the annotations
        carry ``sensitivity-annotation``, the leave-one-out ranges
        ``sensitivity-lodo``.

    Examples
    --------
    >>> import cdplot
    >>> sens = cdplot.aggregation_sensitivity(cdplot.datasets.load("demsar2006"))
    >>> ax = cdplot.aggregation_sensitivity_plot(sens)
    """
    from ..stats._sensitivity import AGGREGATIONS, AggregationSensitivity

    if not isinstance(result, AggregationSensitivity):
        raise CdplotInputError(
            "aggregation_sensitivity_plot draws the result of cdplot.aggregation_sensitivity(...)."
        )
    frame = result.to_frame()
    names = [str(a) for a in frame.index]
    k, cols = len(names), len(AGGREGATIONS)
    positions = frame[list(AGGREGATIONS)].to_numpy(dtype=float)
    new = ax is None
    if new:
        width = LEFT_MARGIN + CELL_WIDTH * (cols + 1) + RIGHT_MARGIN
        height = TOP_MARGIN + CELL_HEIGHT * k + BOTTOM_MARGIN
        ax = new_axes(
            width,
            height,
            (
                LEFT_MARGIN / width,
                BOTTOM_MARGIN / height,
                CELL_WIDTH * (cols + 1) / width,
                CELL_HEIGHT * k / height,
            ),
        )
    grid = np.column_stack([positions, np.full(k, np.nan)])  # last column: text only
    image = ax.imshow(
        np.ma.masked_invalid(grid),
        cmap=cmap,
        vmin=1.0,
        vmax=max(float(k), 2.0),
        aspect="auto",
        interpolation="nearest",
    )
    image.set_gid("sensitivity-cells")
    ax.xaxis.tick_top()
    ax.set_xticks(range(cols + 1), TITLES, fontsize=FONT_SIZE - 0.5)
    ax.set_yticks(range(k), names, fontsize=FONT_SIZE)
    ax.tick_params(length=0)
    ax.set_xticks(np.arange(cols + 2) - 0.5, minor=True)
    ax.set_yticks(np.arange(k + 1) - 0.5, minor=True)
    ax.grid(which="minor", color="white", linewidth=0.8)
    ax.tick_params(which="minor", length=0)
    for spine in ax.spines.values():
        spine.set_visible(False)
    _annotate(ax, frame, positions, image.get_cmap(), annot=annot)
    ax.set_title(
        "Position of each algorithm under each aggregation (1 = best)",
        fontsize=FONT_SIZE,
        loc="left",
        pad=22,
    )
    return ax

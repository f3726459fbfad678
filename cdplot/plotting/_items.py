"""Which models beat which on how many tasks, by the within-task item tests."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from ..stats._items import ItemWins
from ._figure import new_axes

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd
    from matplotlib.axes import Axes

__all__ = ["item_wins_plot"]

#: Cell size and margins of a new figure (inches).
CELL = 0.42
LEFT_MARGIN = 1.1
TOP_MARGIN = 1.0
RIGHT_MARGIN = 0.2
BOTTOM_MARGIN = 0.35
FONT_SIZE = 7.5
CMAP = "Blues"


def item_wins_plot(tests: pd.DataFrame, *, ax: Axes | None = None, cmap: Any = CMAP) -> Axes:
    """Matrix of the number of tasks on which each model is significantly better than another.

    Cell ``(row, column)`` counts the tasks where the row's model is significantly better
    than the column's by the within-task item tests, annotated ``n`` (of all tasks in the
    title); models are ordered by their total number of such wins. This is an Axes-level
    function.

    Parameters
    ----------
    tests : pandas.DataFrame
        The table of :func:`cdplot.stats.item_tests`.
    ax : matplotlib.axes.Axes, optional
        Draw here; by default a new figure sized for the matrix.
    cmap : str or Colormap, default "Blues"
        Colour map of the counts (0 to the number of tasks).

    Returns
    -------
    matplotlib.axes.Axes
        The cells are an image with gid ``item-wins-cells``; the counts carry
        ``item-wins-annotation``.

    Examples
    --------
    >>> import pandas as pd
    >>> tab = pd.DataFrame({"task": ["t1", "t2", "t1", "t2"], "algorithm_1": ["A", "A", "A", "A"],
    ...     "algorithm_2": ["B", "B", "C", "C"], "better": ["A", "", "C", "A"]})
    >>> ax = item_wins_plot(tab)
    """
    wins = ItemWins.of(tests)
    n_tasks = wins.n_tasks
    k = len(wins.models)
    if ax is None:
        width = LEFT_MARGIN + CELL * k + RIGHT_MARGIN
        height = TOP_MARGIN + CELL * k + BOTTOM_MARGIN
        ax = new_axes(
            width,
            height,
            (LEFT_MARGIN / width, BOTTOM_MARGIN / height, CELL * k / width, CELL * k / height),
        )
    values = wins.counts
    shown = values.copy()
    np.fill_diagonal(shown, np.nan)
    image = ax.imshow(shown, cmap=cmap, vmin=0, vmax=max(n_tasks, 1), interpolation="nearest")
    image.set_gid("item-wins-cells")
    names = list(wins.models)
    ax.set_xticks(range(k), names, fontsize=FONT_SIZE, rotation=45, ha="left")
    ax.set_yticks(range(k), names, fontsize=FONT_SIZE)
    ax.xaxis.tick_top()
    ax.xaxis.set_label_position("top")
    ax.set_xlabel(f"worse than the row on n of {n_tasks} tasks", fontsize=FONT_SIZE)
    ax.set_ylabel("better", fontsize=FONT_SIZE)
    ax.tick_params(length=0)
    ax.set_xticks(np.arange(k + 1) - 0.5, minor=True)
    ax.set_yticks(np.arange(k + 1) - 0.5, minor=True)
    ax.grid(which="minor", color="white", linewidth=1.0)
    ax.tick_params(which="minor", length=0)
    for spine in ax.spines.values():
        spine.set_visible(False)
    cmap_obj = image.get_cmap()
    for i in range(k):
        for j in range(k):
            if i == j:
                continue
            dark = cmap_obj(values[i, j] / max(n_tasks, 1))[:3]
            light = sum(dark) / 3 > 0.55
            ax.text(
                j,
                i,
                str(int(values[i, j])),
                ha="center",
                va="center",
                fontsize=FONT_SIZE,
                color="black" if light else "white",
                gid="item-wins-annotation",
            )
    return ax

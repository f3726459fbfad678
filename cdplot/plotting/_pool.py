"""The pool-sensitivity matrix: in how many pools the mean-ranks test separates each pair."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from .._errors import CdplotInputError
from . import _style
from ._figure import new_axes

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd
    from matplotlib.axes import Axes

__all__ = ["pool_sensitivity_plot"]

#: Cell size, margins and colour-bar width of a new figure (inches).
CELL_WIDTH = 0.5
CELL_HEIGHT = 0.24
LEFT_MARGIN = 0.85
RIGHT_MARGIN = 0.75
TOP_MARGIN = 0.55
BOTTOM_MARGIN = 0.5
CBAR_WIDTH = 0.1
CBAR_GAP = 0.12
FONT_SIZE = 7.5
#: Colour map of the significant fraction (0 = never significant, 1 = always).
CMAP = "Blues"
#: Colour of the names of pairs whose decision depends on the pool.
DEPENDS_COLOR = _style.OKABE_ITO[1]
_REQUIRED = ("a", "b", "others", "pools", "significant", "fraction", "depends_on_pool")


def pool_sensitivity_plot(
    frame: pd.DataFrame,
    *,
    ax: Axes | None = None,
    dependent_only: bool = False,
    annot: bool = True,
    cbar: bool = True,
    cmap: Any = CMAP,
) -> Axes:
    """Matrix of the fraction of pools in which the mean-ranks test separates each pair.

    Rows are pairs, columns the number of other algorithms added to the pair;
    each cell is coloured by the fraction of those pools in which the pair is
    significantly different and annotated ``significant/pools``. Pairs whose
    decision depends on the pool are named in colour. This is an Axes-level
    function.

    Parameters
    ----------
    frame : pandas.DataFrame
        The result of :func:`cdplot.pool_sensitivity`.
    ax : matplotlib.axes.Axes, optional
        Draw here; by default a new figure sized for the matrix.
    dependent_only : bool, default False
        Show only the pairs whose decision depends on the pool.
    annot : bool, default True
        Write ``significant/pools`` into the cells.
    cbar : bool, default True
        Draw a colour bar (only for a new figure).
    cmap : str or Colormap, default "Blues"
        Colour map of the fraction.

    Returns
    -------
    matplotlib.axes.Axes
        The cells are an image with gid ``pool-cells``; the annotations carry
        ``pool-annotation``.

    Raises
    ------
    CdplotInputError
        For a frame that is not a pool-sensitivity frame, or nothing to show.

    References
    ----------
    A. Benavoli, G. Corani and F. Mangili, "Should we really use post-hoc tests
    based on mean-ranks?", JMLR 17(5), 2016, Table 1.

    Examples
    --------
    >>> import cdplot
    >>> frame = cdplot.pool_sensitivity(cdplot.datasets.load("benavoli2016"))
    >>> ax = cdplot.pool_sensitivity_plot(frame, dependent_only=True)
    """
    import pandas as pd

    if not isinstance(frame, pd.DataFrame) or not set(_REQUIRED) <= set(frame.columns):
        raise CdplotInputError(
            "pool_sensitivity_plot draws the frame returned by cdplot.pool_sensitivity(...)."
        )
    shown = frame[frame["depends_on_pool"]] if dependent_only else frame
    if shown.empty:
        raise CdplotInputError(
            "no pair's decision depends on the pool, so there is nothing to show with "
            "dependent_only=True; pass dependent_only=False to see every pair."
        )
    pairs = list(dict.fromkeys(zip(shown["a"], shown["b"], strict=True)))
    sizes = sorted(shown["others"].unique())
    fraction = np.full((len(pairs), len(sizes)), np.nan)
    text = [["" for _ in sizes] for _ in pairs]
    row_of = {p: i for i, p in enumerate(pairs)}
    col_of = {c: j for j, c in enumerate(sizes)}
    for row in shown.itertuples(index=False):
        i, j = row_of[(row.a, row.b)], col_of[row.others]
        fraction[i, j] = row.fraction
        text[i][j] = f"{row.significant}/{row.pools}"
    depends = shown.groupby(["a", "b"], sort=False)["depends_on_pool"].first()

    new = ax is None
    if new:
        width = LEFT_MARGIN + CELL_WIDTH * len(sizes) + RIGHT_MARGIN
        height = TOP_MARGIN + CELL_HEIGHT * len(pairs) + BOTTOM_MARGIN
        ax = new_axes(
            width,
            height,
            (
                LEFT_MARGIN / width,
                BOTTOM_MARGIN / height,
                CELL_WIDTH * len(sizes) / width,
                CELL_HEIGHT * len(pairs) / height,
            ),
        )
    image = ax.imshow(
        fraction, cmap=cmap, vmin=0.0, vmax=1.0, aspect="auto", interpolation="nearest"
    )
    image.set_gid("pool-cells")
    ax.set_xticks(range(len(sizes)), [str(c) for c in sizes], fontsize=FONT_SIZE)
    ax.set_yticks(range(len(pairs)), [f"{a} \N{EN DASH} {b}" for a, b in pairs], fontsize=FONT_SIZE)
    for label, pair in zip(ax.get_yticklabels(), pairs, strict=True):
        if bool(depends[pair]):
            label.set_color(DEPENDS_COLOR)
            label.set_fontweight("bold")
    ax.set_xlabel("other algorithms in the pool", fontsize=FONT_SIZE)
    ax.tick_params(length=0)
    ax.set_xticks(np.arange(len(sizes) + 1) - 0.5, minor=True)
    ax.set_yticks(np.arange(len(pairs) + 1) - 0.5, minor=True)
    ax.grid(which="minor", color="white", linewidth=1.0)
    ax.tick_params(which="minor", length=0)
    for spine in ax.spines.values():
        spine.set_visible(False)
    if annot:
        norm_values = np.nan_to_num(fraction)
        cmap_obj = image.get_cmap()
        for i in range(len(pairs)):
            for j in range(len(sizes)):
                if not text[i][j]:
                    continue
                rgb = cmap_obj(norm_values[i, j])[:3]
                light = 0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2]
                ax.text(
                    j,
                    i,
                    text[i][j],
                    ha="center",
                    va="center",
                    fontsize=FONT_SIZE - 1,
                    color="white" if light < 0.45 else "0.1",
                    gid="pool-annotation",
                )
    alpha = frame.attrs.get("alpha")
    title = "Mean-ranks test, Bonferroni per pool"
    if alpha is not None:
        title += f", \N{GREEK SMALL LETTER ALPHA} = {alpha:g}"
    if frame.attrs.get("sampled") or bool(shown.get("sampled", pd.Series([False])).any()):
        title += " (pools sampled)"
    ax.set_title(title, fontsize=FONT_SIZE, loc="left")
    if new and cbar:
        fig = ax.get_figure()
        box = ax.get_position()
        fig_w = fig.get_figwidth()
        cax = fig.add_axes(
            (box.x1 + CBAR_GAP / fig_w, box.y0, CBAR_WIDTH / fig_w, box.height),
        )
        bar = fig.colorbar(image, cax=cax)
        bar.set_label("fraction of pools significant", fontsize=FONT_SIZE)
        bar.ax.tick_params(labelsize=FONT_SIZE - 1)
    return ax

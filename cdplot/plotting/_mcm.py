"""Multi-comparison matrix (Ismail-Fawaz et al. 2023): pool-independent pairwise summary."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
from matplotlib.colors import TwoSlopeNorm

from .._errors import CdplotInputError
from .._labels import TEST_TITLES, correction_title, format_pvalue
from ..stats._comparison_matrix import ComparisonMatrix
from ._figure import new_axes

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.axes import Axes

    from ..stats._results import ComparisonResult

__all__ = ["multi_comparison_matrix"]

#: Cell size and margins of a new figure (inches).
CELL = 0.78
#: Cell size with ``interval=True`` (a fourth line of text).
INTERVAL_CELL = 0.95
LEFT_MARGIN = 0.95
TOP_MARGIN = 0.95
BOTTOM_MARGIN = 0.2
RIGHT_MARGIN = 1.05
CBAR_WIDTH = 0.1
CBAR_GAP = 0.12
FONT_SIZE = 7.5
ANNOT_FONT_SIZE = 6.0
#: Above this many algorithms the cells are not annotated by default.
ANNOT_MAX_K = 12
#: Cells darker than this relative luminance get white text.
DARK_CELL = 0.45
#: Diverging colour map of the mean score difference (row minus column).
CMAP = "PuOr"


def multi_comparison_matrix(
    result: ComparisonResult,
    *,
    ax: Axes | None = None,
    annot: bool | None = None,
    cbar: bool = True,
    cmap: Any = CMAP,
    digits: int = 3,
    interval: bool = False,
    confidence: float = 0.95,
) -> Axes:
    """Multi-comparison matrix: mean difference, wins/ties/losses and p-value of every pair.

    Following Ismail-Fawaz et al. (2023), algorithms are ordered by mean score
    (best first) in rows and columns; cell (row, column) shows the mean score
    difference row minus column (its colour, centred on zero), the row's
    wins/ties/losses against the column and the pairwise p-value of the
    result's test (raw, unadjusted: each cell depends only on its two
    algorithms, so the matrix does not change when algorithms are added or
    removed). Bold p-values are significant after the result's correction (e.g.
    Holm's), and the title says so: the bold marks the adjusted decision while
    the cells show the raw p.
    This is an Axes-level function.

    Parameters
    ----------
    result : ComparisonResult
        The result of :func:`cdplot.compare`; ``test="wilcoxon"`` (the default)
        gives the Wilcoxon p-values of the original matrix.
    ax : matplotlib.axes.Axes, optional
        Draw here; by default a new figure sized from k.
    annot : bool, optional
        Write the three numbers into the cells (default: when k <= 12).
    cbar : bool, default True
        Draw a colour bar (only for a new figure).
    cmap : str or Colormap, default "PuOr"
        Diverging colour map of the mean difference.
    digits : int, default 3
        Decimals of the mean differences and p-values.
    interval : bool, default False
        Add the ``confidence`` interval of the mean difference under it in each cell:
        the paired-t interval of :func:`cdplot.effect_sizes` (``measure="mean"``, R's
        ``t.test(row, column, paired=TRUE)$conf.int``, oriented like the difference).
    confidence : float, default 0.95
        Confidence level of ``interval``.

    Returns
    -------
    matplotlib.axes.Axes
        The cells are an image with gid ``mcm-cells``; annotations carry ``mcm-annotation``.

    Raises
    ------
    CdplotInputError
        For a comparison against a control (the matrix needs all pairs).

    Notes
    -----
    Mean difference of row ``a`` over column ``b``: ``mean_j (x_aj - x_bj)``
    in score units (negated for lower-is-better scores, so positive always
    means the row is better). Counts come from ``result.wins``, p-values from
    ``result.pvalues``.

    References
    ----------
    A. Ismail-Fawaz, A. Dempster, C. W. Tan, M. Herrmann, L. Miller, D. F.
    Schmidt, S. Berretti, J. Weber, M. Devanne, G. Forestier and G. I. Webb,
    "An approach to multiple comparison benchmark evaluations that is stable
    under manipulation of the comparate set", arXiv:2305.11921, 2023.

    Examples
    --------
    >>> import cdplot
    >>> res = cdplot.compare(cdplot.datasets.load("demsar2006"))
    >>> ax = cdplot.multi_comparison_matrix(res)
    """
    from ._kinds import require

    require(result, "multi_comparison_matrix")  # p-values: not a Bayesian comparison
    if result.control is not None:
        raise CdplotInputError(
            "the multi-comparison matrix needs all pairs; run cdplot.compare without control."
        )
    matrix = ComparisonMatrix.of(result, confidence if interval else None)
    order = list(matrix.algorithms)
    k = len(order)
    diff = matrix.difference
    wins, ties, losses = matrix.wins, matrix.ties, matrix.losses
    pvalues, significant, bounds = matrix.pvalues, matrix.significant, matrix.interval

    new = ax is None
    if new:
        cell = INTERVAL_CELL if interval else CELL
        width = LEFT_MARGIN + cell * k + RIGHT_MARGIN
        height = TOP_MARGIN + cell * k + BOTTOM_MARGIN
        ax = new_axes(
            width,
            height,
            (LEFT_MARGIN / width, BOTTOM_MARGIN / height, cell * k / width, cell * k / height),
        )
    span = float(np.nanmax(np.abs(diff))) if k > 1 else 1.0
    span = span if span > 0 else 1.0
    image = ax.imshow(
        diff,
        cmap=cmap,
        norm=TwoSlopeNorm(0.0, -span, span),
        aspect="equal" if new else "auto",
        interpolation="nearest",
    )
    image.set_gid("mcm-cells")
    labels = [f"{a}\n{v:#.{digits}g}" for a, v in zip(order, matrix.mean_score, strict=True)]
    ax.set_xticks(range(k), labels, fontsize=FONT_SIZE)
    ax.set_yticks(range(k), labels, fontsize=FONT_SIZE)
    ax.xaxis.tick_top()
    ax.tick_params(length=0)
    ax.set_xticks(np.arange(k + 1) - 0.5, minor=True)
    ax.set_yticks(np.arange(k + 1) - 0.5, minor=True)
    ax.grid(which="minor", color="white", linewidth=1.2)
    ax.tick_params(which="minor", length=0)
    for spine in ax.spines.values():
        spine.set_visible(False)
    if annot is None:
        annot = k <= ANNOT_MAX_K
    if annot:
        colors = image.cmap(image.norm(np.nan_to_num(diff)))
        for i in range(k):
            for j in range(k):
                if i == j:
                    continue
                p_text = format_pvalue(pvalues[i, j], digits)
                lines = (
                    f"{diff[i, j]:+.{digits}f}\n"
                    + (_interval_text(bounds[i, j], digits) if bounds is not None else "")
                    + f"{wins[i, j]}/{ties[i, j]}/{losses[i, j]}\n"
                    f"p{'' if p_text.startswith('<') else '='}{p_text}"
                )
                r, g, b = colors[i, j][:3]
                dark = 0.2126 * r + 0.7152 * g + 0.0722 * b < DARK_CELL
                ax.text(
                    j,
                    i,
                    lines,
                    ha="center",
                    va="center",
                    fontsize=ANNOT_FONT_SIZE,
                    fontweight="bold" if significant[i, j] else "normal",
                    linespacing=1.15,
                    color="white" if dark else "0.1",
                    gid="mcm-annotation",
                )
    what = f" [{100 * confidence:g} % CI]" if interval else ""
    ax.set_title(
        f"Mean difference (row \N{MINUS SIGN} column){what}, wins/ties/losses,\n"
        f"{_p_legend(result)}",
        fontsize=FONT_SIZE,
        loc="left",
        pad=8,
    )
    if new and cbar:
        fig = ax.get_figure()
        box = ax.get_position()
        fig_w = fig.get_figwidth()
        cax = fig.add_axes((box.x1 + CBAR_GAP / fig_w, box.y0, CBAR_WIDTH / fig_w, box.height))
        bar = fig.colorbar(image, cax=cax)
        bar.set_label("mean score difference", fontsize=FONT_SIZE)
        bar.ax.tick_params(labelsize=FONT_SIZE - 1)
    return ax


def _p_legend(result: ComparisonResult) -> str:
    """What the cells' p-values are and what their bold marks, e.g. raw p, bold by Holm."""
    test = TEST_TITLES.get(result.test, result.test)
    if result.correction == "none":
        return f"{test} p (raw; bold: significant, no correction)"
    if result.correction in ("nemenyi", "tukey"):  # single-step: the p are adjusted already
        return f"{test} p (adjusted; bold: significant)"
    return f"raw {test} p (bold: significant after {correction_title(result)} adjustment)"


def _interval_text(bounds: np.ndarray, digits: int) -> str:
    return f"[{bounds[0]:+.{digits}f}, {bounds[1]:+.{digits}f}]\n"

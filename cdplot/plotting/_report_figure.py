"""The combined figure of a comparison: critical difference diagram above, APV heatmap below."""

from __future__ import annotations

import sys
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from .._errors import CdplotInputError
from ._cd import cd_diagram
from ._cd_layout import check_width
from ._figure import new_figure, use_pyplot
from ._heatmap import apv_heatmap, heatmap_geometry

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.figure import Figure

    from ..stats._results import ComparisonResult

__all__ = ["report_figure"]

#: The figure is at least this wide (inches): one column of a two-column paper.
MIN_WIDTH = 3.3
#: Vertical gap between the diagram and the heatmap (inches).
PANEL_GAP = 0.12


def _diagram_height(result: ComparisonResult, width: float, cd_kws: Mapping[str, Any]) -> float:
    """Height (inches) cd_diagram needs at this width: draw it once and measure."""
    ax = cd_diagram(result, width=width, **cd_kws)
    fig = ax.get_figure()
    height = float(fig.get_size_inches()[1])
    if "matplotlib.pyplot" in sys.modules:  # the scratch figure must not be shown
        sys.modules["matplotlib.pyplot"].close(fig)
    return height


def report_figure(
    result: ComparisonResult,
    *,
    width: float | None = None,
    reverse: bool = False,
    cd_kws: Mapping[str, Any] | None = None,
    heatmap_kws: Mapping[str, Any] | None = None,
) -> Figure:
    """Draw the critical difference diagram above the APV heatmap of a comparison.

    The rank axis runs as in :func:`cd_diagram`, with the same default
    (Demšar's: the best rank on the right; ``reverse=True`` for the best on the
    left), so a paper's figures agree. Both panels show the algorithms in the
    same order left to right: the heatmap's columns follow the diagram (worst
    to best by default, best first with ``reverse=True``); its rows stay best
    first from the top. The figure is sized to its content. This is a
    figure-level function.

    Parameters
    ----------
    result : ComparisonResult
        The result of :func:`cdplot.compare`.
    width : float, optional
        Width of the figure in inches (default: the heatmap's natural width,
        at least 3.3 inches). A narrower width shrinks the heatmap's cells.
    reverse : bool, default False
        The orientation of the rank axis, as :func:`cd_diagram`'s ``reverse``:
        False puts the best rank on the right (Demšar 2006), True on the left.
    cd_kws : dict, optional
        Options of :func:`cd_diagram` (e.g. ``highlight``, ``title``).
    heatmap_kws : dict, optional
        Options of :func:`apv_heatmap` (e.g. ``kind``, ``triangle``, ``mark``).

    Returns
    -------
    matplotlib.figure.Figure
        The figure; ``fig.axes`` holds the diagram's Axes, the heatmap's Axes
        and the colour bar's Axes, in that order.

    Raises
    ------
    CdplotInputError
        If ``cd_kws`` or ``heatmap_kws`` hold ``ax`` or ``width``, if the
        width is too small for the heatmap, or as :func:`cd_diagram` and
        :func:`apv_heatmap`.

    See Also
    --------
    cd_diagram, apv_heatmap : the two panels on their own.

    Examples
    --------
    >>> import cdplot
    >>> res = cdplot.compare(cdplot.datasets.load("benavoli2016"))
    >>> fig = cdplot.report_figure(res)
    >>> fig.savefig("comparison.pdf")  # doctest: +SKIP
    """
    cd_kws = {"reverse": reverse, **dict(cd_kws or {})}
    heatmap_kws = dict(heatmap_kws or {})
    clash = sorted({"ax", "width", "cbar_ax"} & (set(cd_kws) | set(heatmap_kws)))
    if clash:
        raise CdplotInputError(
            f"report_figure makes its own Axes; remove {', '.join(clash)} from cd_kws and "
            "heatmap_kws, and give width to report_figure itself."
        )
    pyplot_loaded = use_pyplot()
    heat = heatmap_geometry(result, **heatmap_kws)
    fig_width = max(heat.width, MIN_WIDTH) if width is None else check_width(width)
    if fig_width < heat.width:  # shrink the heatmap's cells to the width
        heat = heatmap_geometry(result, width=fig_width, **heatmap_kws)
    cd_height = _diagram_height(result, fig_width, cd_kws)
    fig_height = cd_height + PANEL_GAP + heat.height

    fig = new_figure(fig_width, fig_height, pyplot=pyplot_loaded)
    cd_ax = fig.add_axes((0.0, 1.0 - cd_height / fig_height, 1.0, cd_height / fig_height))
    cd_ax.set_gid("report-cd")
    cd_diagram(result, ax=cd_ax, **cd_kws)

    shift = (fig_width - heat.width) / 2

    def placed(rect: tuple) -> tuple[float, float, float, float]:
        x, y, w, h = rect
        return ((x + shift) / fig_width, y / fig_height, w / fig_width, h / fig_height)

    heat_ax = fig.add_axes(placed(heat.ax))
    heat_ax.set_gid("report-heatmap")
    cax = fig.add_axes(placed(heat.cax)) if heat.cax is not None else None
    apv_heatmap(result, ax=heat_ax, cbar_ax=cax, **heatmap_kws)
    if not cd_kws["reverse"]:  # columns in the diagram's order: the best on the right
        heat_ax.invert_xaxis()
    return fig

"""Which figure suits a comparison at a width: the CD diagram while legible, else the ranks."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Literal

import matplotlib as mpl

from .._errors import CdplotInputError, check_in_list, spell
from ._cd_layout import MIN_LINE_SPACING, Legibility, check_width
from ._kinds import figures

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.axes import Axes

    from ..stats._results import Comparison, ComparisonResult

__all__ = ["KINDS", "cd_legibility", "choose_figure", "figure_reason", "plot_result"]

Choice = Literal["cd", "ranks"]

#: Points per inch.
_PT = 72.0


def cd_legibility(result: ComparisonResult, width: float) -> Legibility | None:
    """The legibility of ``result``'s default CD diagram at ``width`` inches.

    None when the axis could not give neighbouring algorithms ``MIN_LINE_SPACING`` points
    even at the full width (no layout is computed: large k stays fast). The layout's
    errors (a width too small for the diagram) propagate.
    """
    from ._cd import _content, _legibility, _options, _result_layout

    k = result.n_algorithms
    if width * _PT / max(k - 1, 1) < MIN_LINE_SPACING:
        return None
    opts = _options(text_kws=None, line_kws=None, bar_kws=None)
    dpi = float(mpl.rcParams["figure.dpi"])
    content = _content(result, opts)
    # the axis and the bars decide; the whole layout only for a diagram that will be drawn
    # (and then drawn from this one: _result_layout keeps it)
    legible = _legibility(content, opts, width, dpi)
    if not legible.legible:
        return legible
    return _result_layout(result, content, opts, width, dpi).legibility


def figure_reason(result: ComparisonResult, width: float) -> tuple[Choice, str]:
    """The choice of :func:`choose_figure` and a one-line reason for it.

    ``"cd"`` where the CD diagram draws and is legible; else ``"ranks"`` where the rank
    plot draws; else neither draws: refused with the width from which the rank plot does.
    Both the legibility (the spacing on the axis grows with the width) and the rank
    plot's room only grow with the width, so the answer never goes back from ``"cd"``.
    The refusal says how to pass the width in the caller's language (``width=`` or
    ``--width``).
    """
    from ._rank_plot import group_display, rank_plot_min_width

    width = check_width(width)
    k = result.n_algorithms
    try:
        measured, refused = cd_legibility(result, width), ""
    except ValueError as exc:  # CdplotInputError: a width too small for any diagram
        measured, refused = None, str(exc).split(": ")[0]
    if measured is not None and measured.legible:
        return "cd", f"the CD diagram of {k} algorithms is legible at {width:g} in"
    if refused:
        why = refused
    elif measured is not None:
        why = measured.reason
    else:
        why = f"{k} algorithms leave under {MIN_LINE_SPACING:g} pt between neighbours"
    need = rank_plot_min_width(result)
    if width < need:
        raise CdplotInputError(
            f"no figure fits in {width:g} in: the CD diagram does not read ({why}) and the "
            f"rank plot of {k} algorithms needs {need:.2f} in. Pass a larger {spell('width')}: "
            f"at least {math.ceil(need * 10) / 10:g} in (e.g. {spell('width', 3.3)} for one "
            "column)."
        )
    groups = "numbered tiers" if group_display(result) == "tier" else "letters"
    return (
        "ranks",
        f"the CD diagram is not legible at {width:.3g} in ({why}): rank plot with {groups}",
    )


def choose_figure(result: ComparisonResult, *, width: float = 3.3) -> Choice:
    """``"cd"`` while the CD diagram is legible at ``width`` inches, else ``"ranks"``.

    The CD diagram (:func:`cdplot.cd_diagram`) is laid out at ``width`` and measured on
    its own geometry: the mean distance on the axis between neighbouring algorithms'
    lines must be at least 6 pt (the smallest text drawn), the clear gap between two
    rows of group bars at least 1.5 pt, and the bars may stack into at most 15 rows
    (:class:`cdplot.plotting._cd_layout.Legibility`). Otherwise the rank-interval plot
    (:func:`cdplot.rank_plot`) is the figure that reads, its groups shown as letters or,
    on boards that would need long or many letters, as numbered tiers. The answer is
    never a figure that refuses the width, and it is monotone in the width: narrower
    widths answer ``"ranks"``, wider ones ``"cd"`` from the width where the diagram reads.
    The command line's ``--figure auto``, ``res.plot(kind="auto")`` and the HTML report
    decide with this function.

    Parameters
    ----------
    result : ComparisonResult
        The result of :func:`cdplot.compare`.
    width : float
        Width of the figure, inches (default 3.3, one column; 7 a page).

    Returns
    -------
    {"cd", "ranks"}
        The figure to draw.

    Raises
    ------
    CdplotInputError
        When neither figure fits in ``width`` (the message gives the width from which the
        rank plot does).

    Examples
    --------
    >>> import cdplot
    >>> res = cdplot.compare(cdplot.datasets.load("demsar2006"))
    >>> cdplot.choose_figure(res, width=3.3)
    'cd'
    """
    return figure_reason(result, width)[0]


#: The figures of ``res.plot(kind=...)`` and ``--figure``: name -> public function.
KINDS = {"cd": "cd_diagram", "ranks": "rank_plot", "mcm": "multi_comparison_matrix"}


def _auto_kind(result: ComparisonResult, kwargs: dict[str, Any]) -> Choice:
    """``kind="auto"``: options only the CD diagram takes ask for it; else the width decides."""
    import inspect

    from ._rank_plot import rank_plot

    if set(kwargs) - set(inspect.signature(rank_plot).parameters):
        return "cd"
    ax = kwargs.get("ax")
    if ax is not None:
        width = ax.get_window_extent().width / ax.get_figure(root=True).dpi
    else:
        width = kwargs.get("width") or 3.3
    return choose_figure(result, width=width)


def plot_result(result: Comparison, kind: str = "auto", **kwargs: Any) -> Axes:
    """Draw ``result`` as the figure ``kind`` (``"auto"``: :func:`choose_figure`).

    Parameters
    ----------
    result : ComparisonResult
        The result of :func:`cdplot.compare`.
    kind : {"auto", "cd", "ranks", "mcm"}
        ``"cd"`` :func:`cdplot.cd_diagram`, ``"ranks"`` :func:`cdplot.rank_plot`,
        ``"mcm"`` :func:`cdplot.multi_comparison_matrix`; ``"auto"`` (default) the CD
        diagram while it is legible at the width (``width=``, the ``ax``'s, or 3.3 in),
        else the rank plot. Options that only the CD diagram takes choose it.
    **kwargs
        Options of the chosen function.

    Returns
    -------
    matplotlib.axes.Axes
        The Axes drawn on.

    Examples
    --------
    >>> import cdplot
    >>> res = cdplot.compare(cdplot.datasets.load("demsar2006"))
    >>> ax = res.plot(kind="ranks")
    >>> ax.texts[0].get_gid()
    'rank-title'
    """
    from .. import plotting

    kind = check_in_list(["auto", *KINDS], kind=kind)
    drawn = figures(result)  # a Bayesian comparison: its own CD diagram
    if kind == "auto":
        kind = drawn.auto or _auto_kind(result, kwargs)
    return getattr(plotting, drawn.function(kind, result))(result, **kwargs)

"""Figures of Bayesian comparisons: the Bayesian CD diagram, pairwise posteriors, the simplex.

They read a :class:`~cdplot.stats.ComparisonResult` of ``compare(test="bayes-signed-rank")``
(or ``"bayes-sign"``), or a :class:`~cdplot.stats.BayesianResult` for the simplex, and never
compute a posterior themselves.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
from matplotlib.lines import Line2D
from matplotlib.patches import Patch

from .._errors import CdplotInputError
from .._labels import TEST_TITLES
from . import _style
from ._cd import cd_diagram
from ._figure import new_axes
from ._kinds import require
from ._mathtext import check_mathtext

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.axes import Axes

    from ..stats._bayes import BayesianResult
    from ..stats._results import ComparisonResult

__all__ = ["bayes_cd_diagram", "equivalence_groups", "posterior_plot", "simplex_plot"]

#: Colours of "A better", "equivalent" and "B better" (Okabe & Ito: blue, grey, vermillion).
OUTCOME_COLORS = (_style.OKABE_ITO[0], "0.72", _style.OKABE_ITO[1])
#: Colour and dash pattern of the bars joining practically equivalent algorithms.
EQUIVALENT_COLOR = _style.OKABE_ITO[2]
EQUIVALENT_DASHES = (0, (1.2, 0.6))
#: Posterior plot: height of one pair's row, margins (inches).
ROW_HEIGHT = 0.2
TOP_MARGIN = 0.55
BOTTOM_MARGIN = 0.45
LEFT_MARGIN_MAX = 2.2
RIGHT_MARGIN = 0.85
POSTERIOR_WIDTH = 5.0
BAR_FILL = 0.72
FONT_SIZE = 8.0
#: Posterior plot: space (points) between the title and the axes, for the legend.
TITLE_PAD = 20.0
#: Simplex plot: default figure size (inches) and hexagon grid size.
SIMPLEX_SIZE = 3.3
SIMPLEX_GRIDSIZE = 40
SQRT3_2 = math.sqrt(3.0) / 2.0
#: Second title line of the Bayesian CD diagram: what its two kinds of bar mean.
KEY = "solid bars: no pair decided different; dashed: all pairs equivalent"


def _check_bayes(result: Any, func: str) -> None:
    require(result, func)


def equivalence_groups(result: ComparisonResult) -> tuple[tuple[str, ...], ...]:
    """Maximal runs, consecutive in average-rank order, whose pairs are all "equivalent".

    Computed in stats (``result.equivalence_groups``); groups of one are left out.
    """
    _check_bayes(result, "equivalence_groups")
    return result.equivalence_groups


def _title(result: ComparisonResult) -> str:
    test = TEST_TITLES.get(result.test, result.test)
    at_least = "\N{GREATER-THAN OR EQUAL TO}"
    return f"{test[0].upper()}{test[1:]}, rope = {result.rope:g}, P {at_least} {result.threshold:g}"


def _bayes_pair_note(threshold: float) -> str:
    """The footnote template on pairs no bar joins, in a Bayesian comparison's words."""
    return (
        "{n} further {pairs_word} not decided different at "
        f"P \N{GREATER-THAN OR EQUAL TO} {threshold:g} but not joined by a bar: {{pairs}}."
    )


def bayes_cd_diagram(
    result: ComparisonResult,
    *,
    ax: Axes | None = None,
    width: float | None = None,
    title: bool | str | None = True,
    equivalent_kws: Mapping[str, Any] | None = None,
    **kwargs: Any,
) -> Axes:
    """Draw a Bayesian critical difference diagram.

    The usual rank axis and names (:func:`cdplot.cd_diagram`); black bars join
    runs of algorithms none of whose pairs is decided different (neither
    direction reaches the posterior threshold), and dashed green bars join runs
    whose pairs are all decided practically equivalent (P(rope) reaches the
    threshold). This is an Axes-level function.

    Parameters
    ----------
    result : ComparisonResult
        Of ``cdplot.compare(data, test="bayes-signed-rank" or "bayes-sign", rope=...)``.
    ax : matplotlib.axes.Axes, optional
        Draw here; by default a new figure.
    width : float, optional
        Width of a new figure in inches (default 3.3).
    title : bool or str, default True
        True: the test, rope and threshold, and a line saying what the two
        kinds of bar mean; a string: that title; False: none.
    equivalent_kws : mapping, optional
        Line properties of the equivalence bars (e.g. ``color``, ``linestyle``).
    **kwargs
        Passed to :func:`cdplot.cd_diagram` (``reverse``, ``highlight``,
        ``palette``, ``text_kws``, ...).

    Returns
    -------
    matplotlib.axes.Axes
        The group bars carry the gid ``cd-group-bar``, the equivalence bars
        ``bayes-equivalent-bar``.

    Raises
    ------
    CdplotInputError
        For a result that is not Bayesian.

    Notes
    -----
    The decisions are ``result.decisions`` at ``result.threshold``: a pair is
    decided different when P(A practically better) or P(B practically better)
    reaches the threshold. A run that is all equivalent is drawn once, as an
    equivalence bar (equivalence implies "not decided different").

    References
    ----------
    A. Benavoli, G. Corani, J. Demšar and M. Zaffalon, "Time for a change: a
    tutorial for comparing multiple classifiers through Bayesian analysis",
    JMLR 18(77), 2017.

    Examples
    --------
    >>> import cdplot
    >>> res = cdplot.compare(cdplot.datasets.load("benavoli2016"), test="bayes-signed-rank",
    ...                      rope=1.0, nsamples=2000, random_state=0)
    >>> ax = cdplot.bayes_cd_diagram(res)
    """
    _check_bayes(result, "bayes_cd_diagram")
    check_mathtext([result.label(a) for a in result.algorithms], where="bayes_cd_diagram")
    equivalent = equivalence_groups(result)
    others = tuple(g for g in result.groups if len(g) >= 2 and tuple(g) not in equivalent)
    shown = dataclasses.replace(result, groups=others + equivalent)
    if title is True:
        title = f"{_title(result)} ({KEY})"
    if kwargs.get("footnote", True) is True:
        kwargs["footnote"] = _bayes_pair_note(result.threshold)
    ax = cd_diagram(shown, ax=ax, width=width, title=title, **kwargs)
    bars = [line for line in ax.lines if line.get_gid() == "cd-group-bar"]
    # cd_diagram draws the bars in the order of the groups: the equivalence bars come last
    style = {"color": EQUIVALENT_COLOR, "linestyle": EQUIVALENT_DASHES, **(equivalent_kws or {})}
    for line in bars[len(bars) - len(equivalent) :]:
        line.set(gid="bayes-equivalent-bar", **style)
    return ax


def _pair_rows(result: ComparisonResult, pairs: Sequence[tuple[str, str]] | None) -> list:
    order = list(result.average_ranks.index)
    if pairs is None:
        pairs = [(a, b) for i, a in enumerate(order) for b in order[i + 1 :]]
    rows = []
    for a, b in pairs:
        for name in (a, b):
            if name not in result.algorithms:
                raise CdplotInputError(
                    f"unknown algorithm {name!r} in pairs; the algorithms are "
                    f"{', '.join(repr(n) for n in result.algorithms)}."
                )
        rows.append(
            (
                a,
                b,
                float(result.posterior_better.loc[a, b]),
                float(result.posterior_equivalent.loc[a, b]),
                float(result.posterior_worse.loc[a, b]),
                str(result.decisions.loc[a, b]),
            )
        )
    return rows


def posterior_plot(
    result: ComparisonResult,
    *,
    ax: Axes | None = None,
    width: float | None = None,
    pairs: Sequence[tuple[str, str]] | None = None,
    colors: Sequence[Any] | None = None,
    decisions: bool = True,
) -> Axes:
    """Stacked bars of the three posterior probabilities of every pair.

    One row per pair "A vs B" (better-ranked algorithm first): P(A practically
    better), P(practically equivalent) and P(B practically better), which sum
    to one. Dashed lines mark the threshold from both ends: a pair is decided
    when a segment crosses its line. This is an Axes-level function.

    Parameters
    ----------
    result : ComparisonResult
        Of ``cdplot.compare(data, test="bayes-signed-rank" or "bayes-sign")``.
    ax : matplotlib.axes.Axes, optional
        Draw here; by default a new figure sized for the number of pairs.
    width : float, optional
        Width of a new figure in inches (default 5).
    pairs : sequence of (str, str), optional
        The pairs to show, in this order (default: all, in average-rank order).
    colors : sequence of three colours, optional
        Colours of "A better", "equivalent" and "B better".
    decisions : bool, default True
        Write each pair's decision at the right.

    Returns
    -------
    matplotlib.axes.Axes
        Segments carry the gids ``posterior-better``, ``posterior-equivalent``
        and ``posterior-worse``.

    Raises
    ------
    CdplotInputError
        For a result that is not Bayesian or an unknown algorithm in ``pairs``.

    Examples
    --------
    >>> import cdplot
    >>> res = cdplot.compare(cdplot.datasets.load("demsar2006"), test="bayes-sign",
    ...                      rope=0.01, nsamples=2000, random_state=0)
    >>> ax = cdplot.posterior_plot(res)
    """
    _check_bayes(result, "posterior_plot")
    rows = _pair_rows(result, pairs)
    palette = list(OUTCOME_COLORS if colors is None else colors)
    if len(palette) != 3:
        raise CdplotInputError(f"colors must give three colours, got {len(palette)}.")
    labels = [f"{a} vs {b}" for a, b, *_ in rows]
    check_mathtext(labels, where="posterior_plot")
    if ax is None:
        longest = max((len(s) for s in labels), default=1)
        left = min(LEFT_MARGIN_MAX, 0.25 + 0.062 * longest)
        fig_width = POSTERIOR_WIDTH if width is None else float(width)
        right = RIGHT_MARGIN if decisions else 0.2
        height = TOP_MARGIN + BOTTOM_MARGIN + ROW_HEIGHT * len(rows)
        ax = new_axes(
            fig_width,
            height,
            (
                left / fig_width,
                BOTTOM_MARGIN / height,
                1 - (left + right) / fig_width,
                1 - (TOP_MARGIN + BOTTOM_MARGIN) / height,
            ),
        )
    elif width is not None:
        raise CdplotInputError("width applies only to a new figure; it cannot be given with ax.")
    y = np.arange(len(rows))
    better = np.array([r[2] for r in rows])
    equal = np.array([r[3] for r in rows])
    worse = np.array([r[4] for r in rows])
    names = ("A better", "equivalent", "B better")
    gids = ("posterior-better", "posterior-equivalent", "posterior-worse")
    starts = (np.zeros_like(better), better, better + equal)
    for values, start, color, name, gid in zip(
        (better, equal, worse), starts, palette, names, gids, strict=True
    ):
        bars = ax.barh(y, values, left=start, height=BAR_FILL, color=color, label=name)
        for patch in bars:
            patch.set_gid(gid)
    threshold = float(result.threshold)
    for x in (threshold, 1.0 - threshold):
        ax.axvline(x, color=_style.INK, lw=0.7, ls=(0, (3, 2)), zorder=3, gid="posterior-threshold")
    ax.set_yticks(y, labels, fontsize=FONT_SIZE)
    ax.set_ylim(len(rows) - 0.5, -0.5)
    ax.set_xlim(0.0, 1.0)
    ax.set_xlabel("posterior probability", fontsize=FONT_SIZE)
    ax.tick_params(axis="x", labelsize=FONT_SIZE)
    ax.tick_params(axis="y", length=0)
    for side in ("top", "right", "left"):
        ax.spines[side].set_visible(False)
    if decisions:
        for yi, row in zip(y, rows, strict=True):
            ax.text(
                1.02,
                yi,
                row[5],
                transform=ax.get_yaxis_transform(),
                va="center",
                ha="left",
                fontsize=FONT_SIZE - 1,
                color=_style.RANK_INK,
                gid="posterior-decision",
                clip_on=False,
            )
    ax.legend(
        handles=[Patch(color=c, label=n) for c, n in zip(palette, names, strict=True)],
        loc="lower left",
        bbox_to_anchor=(0.0, 1.0),
        ncols=3,
        frameon=False,
        fontsize=FONT_SIZE,
        borderaxespad=0.2,
        handlelength=1.2,
    )
    ax.set_title(_title(result), fontsize=FONT_SIZE, loc="left", pad=TITLE_PAD)
    return ax


def _project(samples: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Barycentric (left, rope, right) -> plane: left (0, 0), right (1, 0), rope on top."""
    middle, right = samples[:, 1], samples[:, 2]
    return right + 0.5 * middle, SQRT3_2 * middle


def simplex_plot(
    posterior: BayesianResult,
    *,
    ax: Axes | None = None,
    names: tuple[str, str] = ("x", "y"),
    gridsize: int = SIMPLEX_GRIDSIZE,
    cmap: str = "Blues",
) -> Axes:
    """The posterior samples of one pair in the probability simplex (Benavoli et al. 2017).

    Each posterior draw is a point ``(θ_left, θ_rope, θ_right)`` of the
    triangle, drawn as a density of hexagons; the lines from the centre split
    the triangle into the three regions where one of them is the largest, and
    each vertex shows its posterior probability. This is an Axes-level function.

    Parameters
    ----------
    posterior : BayesianResult
        Of :func:`cdplot.stats.bayes_signed_rank` or :func:`cdplot.stats.bayes_sign`
        (which keep their samples).
    ax : matplotlib.axes.Axes, optional
        Draw here; by default a new 3.3-inch square figure.
    names : (str, str), default ("x", "y")
        Names of the two algorithms, in the order passed to the test (``a``, ``b``): the
        left vertex is "a better" (P(a - b > rope), for higher-is-better scores).
    gridsize : int, default 40
        Hexagons across the triangle.
    cmap : str, default "Blues"
        Colour map of the density (logarithmic counts).

    Returns
    -------
    matplotlib.axes.Axes
        The density carries the gid ``simplex-density``, the triangle ``simplex-edge``.

    Raises
    ------
    CdplotInputError
        For a posterior without samples (the analytic correlated t-test).

    References
    ----------
    A. Benavoli, G. Corani, J. Demšar and M. Zaffalon, "Time for a change",
    JMLR 18(77), 2017, Figure 5.

    Examples
    --------
    >>> import cdplot
    >>> d = cdplot.datasets.load("demsar2006")
    >>> post = cdplot.stats.bayes_signed_rank(d["C4.5"], d["C4.5+m"], rope=0.01, random_state=1)
    >>> ax = cdplot.simplex_plot(post, names=("C4.5", "C4.5+m"))
    """
    samples = getattr(posterior, "samples", None)
    if samples is None:
        raise CdplotInputError(
            "simplex_plot needs posterior samples: pass the result of "
            "cdplot.stats.bayes_signed_rank or bayes_sign (the correlated t-test is analytic)."
        )
    check_mathtext([f"{name} better" for name in names], where="simplex_plot")
    if ax is None:
        ax = new_axes(SIMPLEX_SIZE, SIMPLEX_SIZE * 0.92, (0.02, 0.02, 0.96, 0.96))
    px, py = _project(np.asarray(samples, dtype=float))
    hexes = ax.hexbin(
        px,
        py,
        gridsize=gridsize,
        extent=(0.0, 1.0, 0.0, SQRT3_2),
        mincnt=1,
        bins="log",
        cmap=cmap,
        linewidths=0.0,
        zorder=1,
    )
    hexes.set_gid("simplex-density")
    corners = np.array([[0.0, 0.0], [1.0, 0.0], [0.5, SQRT3_2], [0.0, 0.0]])
    ax.add_line(
        Line2D(corners[:, 0], corners[:, 1], color=_style.INK, lw=0.9, zorder=3, gid="simplex-edge")
    )
    centre = (0.5, SQRT3_2 / 3.0)
    for mx, my in ((0.5, 0.0), (0.25, SQRT3_2 / 2), (0.75, SQRT3_2 / 2)):
        ax.add_line(
            Line2D(
                [centre[0], mx],
                [centre[1], my],
                color=_style.INK,
                lw=0.6,
                ls=(0, (3, 2)),
                zorder=3,
                gid="simplex-region",
            )
        )
    x_name, y_name = (str(n) for n in names)
    text = {"fontsize": FONT_SIZE, "zorder": 4}
    below = {"ha": "center", "va": "top", **text}
    ax.text(0.0, -0.04, f"{x_name} better\nP = {posterior.left:.3f}", **below)
    ax.text(1.0, -0.04, f"{y_name} better\nP = {posterior.right:.3f}", **below)
    ax.text(
        0.5,
        SQRT3_2 + 0.03,
        f"rope (\N{PLUS-MINUS SIGN}{posterior.rope_width:g})\nP = {posterior.rope:.3f}",
        ha="center",
        va="bottom",
        **text,
    )
    ax.set_xlim(-0.18, 1.18)
    ax.set_ylim(-0.2, SQRT3_2 + 0.2)
    ax.set_aspect("equal")
    ax.set_axis_off()
    return ax

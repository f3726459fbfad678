"""Profiles: rliable's score distributions, Dolan-More and More-Wild profiles, with bands.

The figure reads a :class:`~cdplot.Profile` and draws its numbers (the non-linear scaling of
the axis included: the result holds it). Each algorithm gets a colour of the Okabe-Ito
palette and a line style, so that 24 algorithms differ by more than colour and 30 stay
apart with markers.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._errors import CdplotInputError, check_in_list
from . import _style
from ._figure import new_figure

__all__ = ["profile_plot"]

#: Size (inches) of the plotting area, and the legend's column width beside it.
AREA_WIDTH, AREA_HEIGHT = 3.2, 2.2
LEGEND_COLUMN = 1.4
#: Algorithms per legend column.
LEGEND_ROWS = 16
#: Line styles combined with the palette's colours.
LINE_STYLES = ("-", "--", ":", "-.")
#: Markers added beyond colours x styles.
MARKERS = ("o", "s", "^", "D", "v")
#: Opacity of a band.
BAND_ALPHA = 0.18
#: Ticks of the non-linear axis.
SCALED_TICKS = 5

_XLABELS = {
    "runs": "score threshold \N{GREEK SMALL LETTER TAU}",
    "tasks": "score threshold \N{GREEK SMALL LETTER TAU}",
    "performance": "ratio to the best \N{GREEK SMALL LETTER TAU}",
    "data": "budget \N{GREEK SMALL LETTER ALPHA}",
}
_YLABELS = {
    "runs": "fraction of runs with score > \N{GREEK SMALL LETTER TAU}",
    "tasks": "fraction of tasks with mean > \N{GREEK SMALL LETTER TAU}",
    "performance": "fraction of problems",
    "data": "fraction of problems solved",
}


def _style_of(i: int) -> dict[str, Any]:
    colors = _style.OKABE_ITO
    n = len(colors) * len(LINE_STYLES)
    out: dict[str, Any] = {
        "color": colors[i % len(colors)],
        "linestyle": LINE_STYLES[(i // len(colors)) % len(LINE_STYLES)],
    }
    if i >= n:
        out.update(marker=MARKERS[(i // n) % len(MARKERS)], markevery=0.2, markersize=3)
    return out


def _positions(profile: Any, scale: str) -> np.ndarray:
    if scale != "nonlinear":
        return np.asarray(profile.tau, dtype=float)
    if profile.scaled_tau is None:
        raise CdplotInputError(
            f"scale='nonlinear' is rliable's axis of score distributions; a {profile.kind} "
            "profile has none: use scale='linear' (or 'log')."
        )
    return np.asarray(profile.scaled_tau, dtype=float)


def profile_plot(
    profile: Any,
    *,
    scale: str = "linear",
    bands: bool = True,
    ax: Any = None,
    legend: bool = True,
) -> Any:
    """Draw a profile of every algorithm, with its bootstrap band.

    This is an Axes-level function.

    Parameters
    ----------
    profile : Profile
        From :func:`cdplot.score_profile`, :func:`cdplot.performance_profile` or
        :func:`cdplot.data_profile`.
    scale : {"linear", "log", "nonlinear"}, default "linear"
        The x axis: linear, logarithmic (base 2, Dolan & More's choice for ratios), or
        rliable's non-linear scaling of a score distribution (the axis spends its length
        where the runs' scores lie; ticks labelled with the thresholds).
    bands : bool, default True
        Draw the bands (when the profile has them).
    ax : matplotlib.axes.Axes, optional
        Where to draw; default a new figure with the legend beside the plot.
    legend : bool, default True

    Returns
    -------
    matplotlib.axes.Axes

    Raises
    ------
    CdplotInputError
        For ``scale="nonlinear"`` on a profile other than a score distribution.

    Examples
    --------
    >>> import numpy as np, cdplot
    >>> rng = np.random.default_rng(0)
    >>> prof = cdplot.score_profile({"A": rng.random((4, 5)), "B": rng.random((4, 5))},
    ...                             n_boot=200, random_state=0)
    >>> ax = cdplot.profile_plot(prof, scale="nonlinear")
    >>> len(ax.lines)
    2
    """
    scale = check_in_list(("linear", "log", "nonlinear"), scale=scale)
    x = _positions(profile, scale)
    k = len(profile.algorithms)
    columns = -(-k // LEGEND_ROWS) if legend else 0
    if ax is None:
        width = 0.7 + AREA_WIDTH + 0.2 + LEGEND_COLUMN * columns
        height = AREA_HEIGHT + 0.75
        fig = new_figure(width, height)
        ax = fig.add_axes((0.7 / width, 0.55 / height, AREA_WIDTH / width, AREA_HEIGHT / height))
    fontsize = _style.default_fontsize(ax.figure.get_figwidth())
    for i, name in enumerate(profile.algorithms):
        look = _style_of(i)
        ax.plot(
            x,
            profile.profile[i],
            label=name,
            linewidth=1.3,
            drawstyle="steps-post",
            gid=f"profile-{i}",
            **look,
        )
        if bands and profile.low is not None:
            ax.fill_between(
                x,
                profile.low[i],
                profile.high[i],
                color=look["color"],
                alpha=BAND_ALPHA,
                linewidth=0,
                step="post",
                gid=f"profile-band-{i}",
            )
    if scale == "log":
        from matplotlib import ticker

        ax.set_xscale("log", base=2)
        ax.xaxis.set_major_locator(ticker.MaxNLocator(SCALED_TICKS))
        ax.xaxis.set_major_formatter(ticker.ScalarFormatter())
        ax.xaxis.set_minor_formatter(ticker.NullFormatter())
    elif scale == "nonlinear":
        at = np.linspace(x[0], x[-1], SCALED_TICKS)
        ax.set_xticks(at, [f"{t:.3g}" for t in np.interp(at, x, profile.tau)])
    ax.set_ylim(-0.02, 1.02)
    ax.set_xlabel(_XLABELS[profile.kind], fontsize=fontsize)
    ax.set_ylabel(_YLABELS[profile.kind], fontsize=fontsize)
    ax.tick_params(labelsize=fontsize * 0.9)
    ax.grid(color="0.88", linewidth=0.5)
    ax.set_axisbelow(True)
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)
    if legend:
        ax.legend(
            loc="upper left",
            bbox_to_anchor=(1.02, 1.0),
            ncols=max(columns, 1),
            fontsize=fontsize * 0.85,
            frameon=False,
            handlelength=2.4,
        )
    return ax

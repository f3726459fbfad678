"""The figure of a benchmark plan: simulated power against N, the target line, the Monte
Carlo band, and the N the plan recommends.

Reads a :class:`~cdplot.simulation.PlanResult`: the design points its searches simulated
(``result.evaluations``), each with its power and Monte Carlo standard error.
"""

from __future__ import annotations

from typing import Any

from ._style import OKABE_ITO

__all__ = ["plan_plot"]

#: z of the Monte Carlo band: 1.96 gives 95 % pointwise intervals
BAND_Z = 1.96
#: figure size (inches)
FIG_SIZE = (6.4, 4.0)
#: opacity of the Monte Carlo band
BAND_ALPHA = 0.25
TARGET_LINE_KWS: dict[str, Any] = {"color": "0.4", "linestyle": "--", "linewidth": 1.0}
NEEDED_LINE_KWS: dict[str, Any] = {"linestyle": ":", "linewidth": 1.2}
#: the searches drawn, their colour and marker
SERIES = (("n", OKABE_ITO[0], "o"), ("top", OKABE_ITO[1], "s"))


def plan_plot(result: Any, *, ax: Any = None, band: bool = True) -> Any:
    """Simulated power against N, with the target power and the recommended N.

    This is an Axes-level function.

    Parameters
    ----------
    result : PlanResult
        A plan of :func:`cdplot.plan`.
    ax : matplotlib.axes.Axes, optional
        Axes to draw into; a new figure is made when not given.
    band : bool, default True
        Shade the pointwise 95 % Monte Carlo band ``power ± 1.96 se``.

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> import cdplot
    >>> res = cdplot.plan(cdplot.datasets.load("demsar2006"), n_replicates=200, mdd=False)
    >>> ax = res.plot()  # the same as plan_plot(res)
    """
    import matplotlib.pyplot as plt

    if ax is None:
        _, ax = plt.subplots(figsize=FIG_SIZE, layout="constrained")
    a, b = result.pair
    labels = {
        "n": f"{a} vs {b}: difference {result.difference:.3g}",
        "top": f"top {result.top} separated",
    }
    needed = {"n": result.n_needed, "top": result.n_top}
    labelled: set[int] = set()  # an N both searches recommend is labelled once
    for name, color, marker in SERIES:
        points = sorted(result.evaluations.get(name, ()), key=lambda e: e.n)
        if not points:
            continue
        x = [e.n for e in points]
        y = [e.power for e in points]
        if band:
            lo = [max(0.0, e.power - BAND_Z * e.se) for e in points]
            hi = [min(1.0, e.power + BAND_Z * e.se) for e in points]
            ax.fill_between(x, lo, hi, color=color, alpha=BAND_ALPHA, linewidth=0,
                            gid=f"band-{name}")  # fmt: skip
        ax.plot(x, y, color=color, marker=marker, markersize=4, label=labels[name],
                gid=f"power-{name}")  # fmt: skip
        if needed[name] is not None:
            ax.axvline(needed[name], color=color, gid=f"needed-{name}", **NEEDED_LINE_KWS)
            if needed[name] in labelled:
                continue
            labelled.add(needed[name])
            ax.annotate(
                f"N = {needed[name]}",
                (needed[name], 0.02),
                xytext=(3, 0),
                textcoords="offset points",
                color=color,
                fontsize="small",
                gid=f"needed-label-{name}",
            )
    ax.axhline(result.power, gid="target-line", label=f"target {result.power:.0%}",
               **TARGET_LINE_KWS)  # fmt: skip
    ax.set_ylim(-0.02, 1.02)
    ax.set_xlabel(f"{result.unit} (N)")
    ax.set_ylabel(f"power ({result.procedure}, α = {result.alpha:g})")
    # a white box: the lines of the recommended N may run behind the legend
    ax.legend(loc="upper left", fontsize="small", framealpha=0.9, edgecolor="none")
    return ax

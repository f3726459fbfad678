"""The figure of a simulation study: rejection rates, FWER, power and FDR with error bars.

Reads a :class:`~cdplot.simulation.SimulationResult` (one study: a dot per procedure and
measure) or a :class:`~cdplot.simulation.PowerCurveResult` (a grid of effect sizes: one curve
per procedure). Error bars are Monte Carlo intervals, ``estimate ± z * se``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .._errors import CdplotInputError, check_in_list
from ._style import OKABE_ITO

__all__ = ["power_plot"]

#: the Bayesian procedures' decision rates (never called FWER or power)
BAYES_MEASURES = (
    "wrong_better_rate",
    "correct_better_rate",
    "equivalent_rate_equal",
    "equivalent_rate_different",
)
MEASURES = ("fwer", "power_any", "power_all", "power_avg", "fdr", "rejection_rate", *BAYES_MEASURES)
#: axis and legend text of each measure
MEASURE_LABELS = {
    "fwer": "FWER",
    "power_any": "power (any)",
    "power_all": "power (all)",
    "power_avg": "average power",
    "fdr": "FDR",
    "rejection_rate": "rejection rate",
    "wrong_better_rate": "wrong 'better' decisions",
    "correct_better_rate": "correct 'better' decisions",
    "equivalent_rate_equal": "'equivalent' | truly equal",
    "equivalent_rate_different": "'equivalent' | truly different",
}
#: z of the Monte Carlo error bars: 1.96 gives 95 % intervals
ERRORBAR_Z = 1.96
#: vertical spread of the measures' dots within one procedure's row
ROW_SPREAD = 0.5
#: figure size: width, and height per procedure plus a margin (inches)
FIG_WIDTH = 6.4
ROW_HEIGHT = 0.45
FIG_MARGIN = 1.3
CURVE_HEIGHT = 4.0
#: more measures than this (frequentist and Bayesian together) put the legend below the dots
LEGEND_BESIDE_MAX = 5
#: height (inches) added to a figure for a legend below the dots
LEGEND_BELOW_HEIGHT = 1.2
MARKERS = ("o", "s", "D", "^", "v", "P", "X", "*", "h")
#: the palette, then black and grey: up to eight measures (the Bayesian rates) in colours of
#: their own, never one shared with another measure
_COLORS = (*OKABE_ITO, "#000000", "#999999")
ALPHA_LINE_KWS: dict[str, Any] = {"color": "0.4", "linestyle": "--", "linewidth": 1.0}


def _series(result: Any, measure: str, pair: tuple[str, str] | None) -> tuple[Any, Any]:
    """Estimates and standard errors of one measure, indexed by procedure."""
    import pandas as pd

    if measure != "rejection_rate":
        return getattr(result, measure), getattr(result, measure + "_se")
    if pair is None:
        raise CdplotInputError(
            "measure 'rejection_rate' needs pair=(a, b): the two algorithms whose rejection "
            "rate to draw."
        )
    frame = result.to_frame()
    a, b = (str(x) for x in pair)
    hit = ((frame["a"] == a) & (frame["b"] == b)) | ((frame["a"] == b) & (frame["b"] == a))
    rows = frame[hit].set_index("procedure")
    if rows.empty:
        raise CdplotInputError(
            f"no procedure tests the pair ({a!r}, {b!r}); the algorithms are "
            f"{', '.join(repr(x) for x in result.algorithms)}."
        )
    index = pd.Index(result.procedures, name="procedure", dtype=object)
    return rows["rejection_rate"].reindex(index), rows["se"].reindex(index)


def _resolve_measures(
    result: Any, measures: str | Sequence[str] | None, pair: tuple[str, str] | None
) -> list[str]:
    if measures is None:
        if pair is not None or not result.truth_known:
            return ["rejection_rate"]
        shown = ("fwer", "power_any", "power_all", "fdr", *BAYES_MEASURES)
        chosen = [
            m
            for m in shown
            if hasattr(result, m) and not np.isnan(getattr(result, m).to_numpy(dtype=float)).all()
        ]
        return chosen or ["fwer"]
    items = [measures] if isinstance(measures, str) else list(measures)
    names = [m.replace("_", "-") for m in MEASURES]
    return [check_in_list(names, measure=m).replace("-", "_") for m in items]


def power_plot(
    result: Any,
    *,
    measures: str | Sequence[str] | None = None,
    pair: tuple[str, str] | None = None,
    ax: Any = None,
    alpha_line: bool = True,
    errorbar_kws: dict[str, Any] | None = None,
) -> Any:
    """Draw a simulation study's estimates with Monte Carlo error bars.

    This is an Axes-level function.

    Parameters
    ----------
    result : SimulationResult or PowerCurveResult
        From :func:`cdplot.simulate` (a dot per procedure and measure) or
        :func:`cdplot.simulate_grid` (a curve per procedure over the effect sizes).
    measures : str or sequence of str, optional
        Among "fwer", "power_any", "power_all", "power_avg", "fdr", "rejection_rate" and
        the Bayesian procedures' "wrong_better_rate", "correct_better_rate",
        "equivalent_rate_equal", "equivalent_rate_different". Default: for one study, FWER,
        power (any), power (all), FDR and the Bayesian rates that the study has, when the
        model knows the truth, else the rejection rate of ``pair``; for a grid,
        "power_any" (or the rejection rate of ``pair``). A grid draws the first measure
        only.
    pair : tuple of two str, optional
        Draw the rejection rate of this pair of algorithms.
    ax : matplotlib.axes.Axes, optional
        Where to draw; default a new figure sized for the number of procedures.
    alpha_line : bool, default True
        A dashed line at the significance level (none when every procedure is Bayesian).
    errorbar_kws : dict, optional
        Passed to :meth:`matplotlib.axes.Axes.errorbar`.

    Returns
    -------
    matplotlib.axes.Axes

    Notes
    -----
    The error bars are ``estimate ± 1.96 se``: 95 % Monte Carlo intervals of the estimate,
    which say how far the simulation's answer may be from the exact value for this model;
    they are not confidence intervals about real data.

    Examples
    --------
    >>> import cdplot
    >>> sim = cdplot.simulate(cdplot.NormalModel({"A": 0, "B": 1, "C": 0}),
    ...                       procedures=[("wilcoxon", "holm")], n_replicates=200, random_state=0)
    >>> ax = sim.plot()  # the same as power_plot(sim)
    """
    import matplotlib.pyplot as plt

    is_curve = hasattr(result, "effects") and hasattr(result, "results")
    first = next(iter(result.results.values())) if is_curve else result
    chosen = _resolve_measures(first, measures, pair)
    # Bayesian procedures decide by posterior probabilities: no significance level to draw
    bayes_only = all(p in getattr(first, "_bayes", {}) for p in first.procedures)
    alpha_line = alpha_line and not bayes_only
    if is_curve and measures is None and chosen != ["rejection_rate"]:
        chosen = ["correct_better_rate" if bayes_only else "power_any"]
    kws = {"capsize": 3.0, "linewidth": 1.2}
    kws.update(errorbar_kws or {})
    procedures = list(first.procedures)
    count = max(len(procedures), len(chosen))
    colors = [_COLORS[i % len(_COLORS)] for i in range(count)]

    if ax is None:
        height = CURVE_HEIGHT if is_curve else FIG_MARGIN + ROW_HEIGHT * len(procedures)
        _, ax = plt.subplots(figsize=(FIG_WIDTH, height), layout="constrained")

    if is_curve:
        measure = chosen[0]
        x = np.asarray(result.effects, dtype=float)
        order = np.argsort(x, kind="stable")
        for j, proc in enumerate(procedures):
            est, se = [], []
            for effect in result.effects:
                e, s = _series(result.results[effect], measure, pair)
                est.append(float(e[proc]))
                se.append(float(s[proc]))
            y, err = np.asarray(est)[order], ERRORBAR_Z * np.asarray(se)[order]
            ax.errorbar(
                x[order],
                y,
                yerr=err,
                color=colors[j],
                marker=MARKERS[j % len(MARKERS)],
                label=proc,
                gid=f"curve-{proc}",
                **kws,
            )
        ax.set_xlabel("effect size")
        ax.set_ylabel(_ylabel(measure, pair))
        ax.set_ylim(-0.02, 1.02)
        if alpha_line:
            ax.axhline(
                first.alpha, gid="alpha-line", label=f"α = {first.alpha:g}", **ALPHA_LINE_KWS
            )
        ax.legend(frameon=False, fontsize="small")
        ax.grid(True, axis="y", color="0.9")
        ax.set_axisbelow(True)
        return ax

    rows = np.arange(len(procedures))[::-1]
    offsets = (
        np.linspace(-ROW_SPREAD / 2, ROW_SPREAD / 2, len(chosen))
        if len(chosen) > 1
        else np.zeros(1)
    )
    for j, measure in enumerate(chosen):
        est, se = _series(result, measure, pair)
        values = est.reindex(procedures).to_numpy(dtype=float)
        errs = ERRORBAR_Z * se.reindex(procedures).to_numpy(dtype=float)
        ax.errorbar(
            values,
            rows - offsets[j],
            xerr=errs,
            color=colors[j],
            marker=MARKERS[j % len(MARKERS)],
            linestyle="none",
            label=_ylabel(measure, pair),
            gid=f"measure-{measure}",
            **kws,
        )
    ax.set_yticks(rows, procedures)
    ax.set_xlim(-0.02, 1.02)
    ax.set_ylim(-0.7, len(procedures) - 0.3)
    ax.set_xlabel(f"estimate ± {ERRORBAR_Z:g} Monte Carlo s.e. ({first.n_replicates} replicates)")
    if alpha_line:
        ax.axvline(first.alpha, gid="alpha-line", label=f"α = {first.alpha:g}", **ALPHA_LINE_KWS)
    ax.grid(True, axis="x", color="0.9")
    ax.set_axisbelow(True)
    if len(chosen) > LEGEND_BESIDE_MAX:  # frequentist and Bayesian measures: legend below
        ax.legend(
            frameon=False,
            fontsize="small",
            loc="upper right",
            bbox_to_anchor=(1.0, -0.18),
            ncol=2,
        )
        ax.xaxis.set_label_position("bottom")
        ax.set_xlabel(ax.get_xlabel(), loc="right")  # the long label ends with the axis
        ax.figure.set_size_inches(FIG_WIDTH, ax.figure.get_size_inches()[1] + LEGEND_BELOW_HEIGHT)
    else:
        ax.legend(frameon=False, fontsize="small", loc="center left", bbox_to_anchor=(1.0, 0.5))
    return ax


def _ylabel(measure: str, pair: tuple[str, str] | None) -> str:
    if measure == "rejection_rate" and pair is not None:
        return f"rejection rate of {pair[0]} vs {pair[1]}"
    return MEASURE_LABELS[measure]

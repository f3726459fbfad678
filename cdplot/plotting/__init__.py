"""Figures of cdplot: critical difference diagrams and APV heatmaps.

Plotting reads a :class:`~cdplot.stats.ComparisonResult` and never computes
statistics.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    from ._bayes import bayes_cd_diagram, posterior_plot, simplex_plot
    from ._cd import CDFigure, cd_diagram, cd_diagrams
    from ._choose import choose_figure
    from ._heatmap import apv_heatmap
    from ._items import item_wins_plot
    from ._mcm import multi_comparison_matrix
    from ._pareto_plot import pareto_plot
    from ._plan import plan_plot
    from ._pool import pool_sensitivity_plot
    from ._power import power_plot
    from ._rank_plot import rank_plot
    from ._report_figure import report_figure
    from ._sensitivity import aggregation_sensitivity_plot

#: Each public name and its module, imported on first use (drawing a CD diagram does not
#: load the heatmap, the Bayesian figures or seaborn).
_MODULES = {
    "bayes_cd_diagram": "_bayes",
    "posterior_plot": "_bayes",
    "simplex_plot": "_bayes",
    "CDFigure": "_cd",
    "cd_diagram": "_cd",
    "cd_diagrams": "_cd",
    "apv_heatmap": "_heatmap",
    "item_wins_plot": "_items",
    "multi_comparison_matrix": "_mcm",
    "plan_plot": "_plan",
    "pareto_plot": "_pareto_plot",
    "pool_sensitivity_plot": "_pool",
    "power_plot": "_power",
    "rank_plot": "_rank_plot",
    "choose_figure": "_choose",
    "report_figure": "_report_figure",
    "aggregation_sensitivity_plot": "_sensitivity",
    "aggregate_plot": "_aggregates_plot",
    "improvement_plot": "_aggregates_plot",
    "profile_plot": "_profiles",
}

__all__ = [
    "CDFigure",
    "aggregate_plot",
    "aggregation_sensitivity_plot",
    "apv_heatmap",
    "bayes_cd_diagram",
    "cd_diagram",
    "cd_diagrams",
    "improvement_plot",
    "item_wins_plot",
    "multi_comparison_matrix",
    "plan_plot",
    "pareto_plot",
    "pool_sensitivity_plot",
    "posterior_plot",
    "power_plot",
    "profile_plot",
    "rank_plot",
    "choose_figure",
    "report_figure",
    "simplex_plot",
]


def __getattr__(name: str) -> Any:
    module = _MODULES.get(name)
    if module is None:
        raise AttributeError(f"module 'cdplot.plotting' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))

"""cdplot: statistical comparison of several algorithms over several datasets.

``cdplot.compare(scores)`` ranks the algorithms per dataset, runs the Friedman and
Iman-Davenport tests and a pairwise post-hoc test with adjusted p-values, and finds the
groups of algorithms that are not significantly different. The result draws itself as a
critical difference diagram (``result.plot()`` / ``cdplot.cd_diagram(result)``).

The statistics and the figures are imported on first use: ``import cdplot`` loads neither
numpy nor matplotlib, so the command line starts (and a Ctrl-C during its start is handled)
before anything heavy is loaded.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from . import datasets
from ._errors import (
    BergmannHommelLimitError,
    CdplotInputError,
    CdplotWarning,
    PoolDependenceWarning,
)
from ._version import __version__

if TYPE_CHECKING:  # pragma: no cover - loaded by __getattr__ on first use
    from .stats._benchmark_result import BenchmarkComparison
    from .stats._claims import ClaimCheck, check
    from .stats._compare import compare
    from .stats._effects import effect_sizes
    from .stats._intervals import RankIntervals, rank_intervals
    from .stats._metrics import compare_metrics
    from .stats._pareto import ParetoFrontier, pareto_frontier
    from .stats._results import BayesianComparisonResult, Comparison, ComparisonResult
    from .stats._test_results import OmnibusResult

__all__ = [
    "BayesianComparisonResult",
    "BenchmarkComparison",
    "BergmannHommelLimitError",
    "CdplotInputError",
    "GeneratorModel",
    "NormalModel",
    "BenchmarkModel",
    "ResampleModel",
    "CdplotWarning",
    "Comparison",
    "ComparisonResult",
    "OmnibusResult",
    "ParetoFrontier",
    "PoolDependenceWarning",
    "RankIntervals",
    "__version__",
    "aggregation_sensitivity",
    "aggregation_sensitivity_plot",
    "apv_heatmap",
    "bayes_cd_diagram",
    "cd_diagram",
    "cd_diagrams",
    "compare",
    "compare_metrics",
    "datasets",
    "effect_sizes",
    "load_result",
    "multi_comparison_matrix",
    "plan",
    "PlanResult",
    "pareto_frontier",
    "pareto_plot",
    "pool_sensitivity",
    "pool_sensitivity_plot",
    "posterior_plot",
    "power_plot",
    "rank_plot",
    "choose_figure",
    "check",
    "ClaimCheck",
    "rank_intervals",
    "report_figure",
    "results_table",
    "simplex_plot",
    "simulate",
    "simulate_grid",
    # runs of each task: stratified bootstrap, aggregates, profiles
    "ImprovementProbabilities",
    "Profile",
    "RunAggregates",
    "RunBootstrap",
    "aggregate_plot",
    "aggregate_scores",
    "data_profile",
    "improvement_plot",
    "performance_profile",
    "probability_of_improvement",
    "profile_plot",
    "run_bootstrap",
    "run_rank_intervals",
    "score_profile",
]

_PLOTTING = (
    "cd_diagram",
    "cd_diagrams",
    "apv_heatmap",
    "report_figure",
    "bayes_cd_diagram",
    "posterior_plot",
    "simplex_plot",
    "pool_sensitivity_plot",
    "multi_comparison_matrix",
    "power_plot",
    "rank_plot",
    "choose_figure",
    "aggregation_sensitivity_plot",
    "pareto_plot",
    "aggregate_plot",
    "improvement_plot",
    "profile_plot",
)
_SIMULATION = (
    "simulate",
    "simulate_grid",
    "NormalModel",
    "ResampleModel",
    "GeneratorModel",
    "BenchmarkModel",
    "plan",
    "PlanResult",
)
#: Names of the statistics layer: public name -> the module that defines it.
_STATS = {
    "compare": ".stats._compare",
    "check": ".stats._claims",
    "ClaimCheck": ".stats._claims",
    "effect_sizes": ".stats._effects",
    "RankIntervals": ".stats._intervals",
    "rank_intervals": ".stats._intervals",
    "compare_metrics": ".stats._metrics",
    "BayesianComparisonResult": ".stats._results",
    "BenchmarkComparison": ".stats._benchmark_result",
    "Comparison": ".stats._results",
    "ComparisonResult": ".stats._results",
    "OmnibusResult": ".stats._test_results",
    "ParetoFrontier": ".stats._pareto",
    "pareto_frontier": ".stats._pareto",
    "RunAggregates": ".stats._run_aggregates",
    "aggregate_scores": ".stats._run_aggregates",
    "run_rank_intervals": ".stats._run_aggregates",
    "RunBootstrap": ".stats._run_bootstrap",
    "run_bootstrap": ".stats._run_bootstrap",
    "ImprovementProbabilities": ".stats._improvement",
    "probability_of_improvement": ".stats._improvement",
    "Profile": ".stats._profiles",
    "score_profile": ".stats._profiles",
    "performance_profile": ".stats._profiles",
    "data_profile": ".stats._profiles",
}
#: Subpackages reachable as attributes of ``cdplot`` without importing them first, each
#: imported on first access (``cdplot.plotting`` itself loads no matplotlib, its figures do).
_SUBPACKAGES = ("io", "stats", "plotting", "report", "simulation")


def __getattr__(name: str) -> Any:
    if name in _STATS:
        value = getattr(importlib.import_module(_STATS[name], __name__), name)
        globals()[name] = value  # found directly from now on
        return value
    if name in _SUBPACKAGES:  # e.g. cdplot.report.to_html, cdplot.stats.rank_rows
        return importlib.import_module(f".{name}", __name__)
    if name in _PLOTTING:
        from . import plotting

        return getattr(plotting, name)
    if name == "aggregation_sensitivity":  # loaded on first use, like the figures
        from .stats._sensitivity import aggregation_sensitivity

        return aggregation_sensitivity
    if name == "pool_sensitivity":
        from .stats._pool import pool_sensitivity

        return pool_sensitivity
    if name == "results_table":
        from .report._results_table import results_table

        return results_table
    if name == "load_result":
        from ._json_check import load_result

        return load_result
    if name in _SIMULATION:
        from . import simulation

        return getattr(simulation, name)
    raise AttributeError(f"module 'cdplot' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))

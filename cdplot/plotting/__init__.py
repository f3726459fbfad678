"""Figures of cdplot: critical difference diagrams and APV heatmaps.

Plotting reads a :class:`~cdplot.stats.ComparisonResult` and never computes
statistics.
"""

from __future__ import annotations

from ._bayes import bayes_cd_diagram, posterior_plot, simplex_plot
from ._cd import CDFigure, cd_diagram, cd_diagrams
from ._heatmap import apv_heatmap
from ._mcm import multi_comparison_matrix
from ._pool import pool_sensitivity_plot
from ._report_figure import report_figure

__all__ = [
    "CDFigure",
    "apv_heatmap",
    "bayes_cd_diagram",
    "cd_diagram",
    "cd_diagrams",
    "multi_comparison_matrix",
    "pool_sensitivity_plot",
    "posterior_plot",
    "report_figure",
    "simplex_plot",
]

"""Figures of cdplot: critical difference diagrams and APV heatmaps.

Plotting reads a :class:`~cdplot.stats.ComparisonResult` and never computes
statistics.
"""

from __future__ import annotations

from ._cd import CDFigure, cd_diagram, cd_diagrams
from ._heatmap import apv_heatmap
from ._report_figure import report_figure

__all__ = ["CDFigure", "apv_heatmap", "cd_diagram", "cd_diagrams", "report_figure"]

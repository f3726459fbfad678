"""Figures of cdplot: critical difference diagrams.

Plotting reads a :class:`~cdplot.stats.ComparisonResult` and never computes
statistics.
"""

from __future__ import annotations

from ._cd import CDFigure, cd_diagram, cd_diagrams

__all__ = ["CDFigure", "cd_diagram", "cd_diagrams"]

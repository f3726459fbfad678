"""cdplot: statistical comparison of several algorithms over several datasets.

``cdplot.compare(scores)`` ranks the algorithms per dataset, runs the Friedman and
Iman-Davenport tests and a pairwise post-hoc test with adjusted p-values, and finds the
groups of algorithms that are not significantly different. The result draws itself as a
critical difference diagram (``result.plot()`` / ``cdplot.cd_diagram(result)``).

Plotting modules are imported lazily: ``import cdplot`` loads neither matplotlib nor
seaborn.
"""

from __future__ import annotations

from typing import Any

from . import datasets
from ._errors import (
    BergmannHommelLimitError,
    CdplotInputError,
    CdplotWarning,
    PoolDependenceWarning,
)
from ._version import __version__
from .stats._compare import compare
from .stats._results import ComparisonResult, OmnibusResult

__all__ = [
    "BergmannHommelLimitError",
    "CdplotInputError",
    "GeneratorModel",
    "NormalModel",
    "ResampleModel",
    "CdplotWarning",
    "ComparisonResult",
    "OmnibusResult",
    "PoolDependenceWarning",
    "__version__",
    "apv_heatmap",
    "cd_diagram",
    "cd_diagrams",
    "compare",
    "datasets",
    "report_figure",
    "simulate",
    "simulate_grid",
]

_PLOTTING = ("cd_diagram", "cd_diagrams", "apv_heatmap", "report_figure")
_SIMULATE = ("simulate", "simulate_grid", "NormalModel", "ResampleModel", "GeneratorModel")


def __getattr__(name: str) -> Any:
    if name in _PLOTTING:
        from . import plotting

        return getattr(plotting, name)
    if name in _SIMULATE:  # importing the package binds cdplot.simulate: pin the function
        import importlib

        package = importlib.import_module(".simulate", __name__)
        globals()[name] = value = getattr(package, name)
        return value
    raise AttributeError(f"module 'cdplot' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))

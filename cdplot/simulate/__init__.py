"""Simulation studies of the post-hoc procedures: power, FWER and FDR with Monte Carlo errors.

``cdplot.simulate(model, procedures, n_replicates)`` draws score tables from a model
(:class:`NormalModel`, :class:`ResampleModel` for Demšar's resampling of a real table, or
:class:`GeneratorModel` for a user's generator), runs every procedure on the same tables with
the statistics vectorised over replicates, and returns a :class:`SimulationResult`. Work runs
in this process, on local processes (joblib's loky), on a dask.distributed cluster or on Ray;
the result does not depend on where it ran.

``cdplot.simulate`` is both this package and the function: the package is callable, so
``cdplot.simulate(model, ...)`` works whichever was imported first.
"""

from __future__ import annotations

import sys
import types
from typing import Any

from ._models import GeneratorModel, NormalModel, ResampleModel
from ._procedures import Procedure, parse_procedures
from ._result import PowerCurveResult, SimulationResult
from ._runner import BLOCK, simulate, simulate_grid

__all__ = [
    "BLOCK",
    "GeneratorModel",
    "NormalModel",
    "PowerCurveResult",
    "Procedure",
    "ResampleModel",
    "SimulationResult",
    "parse_procedures",
    "simulate",
    "simulate_grid",
]


class _CallableModule(types.ModuleType):
    """The package, callable as :func:`simulate` (``cdplot.simulate`` names both)."""

    def __call__(self, *args: Any, **kwargs: Any) -> SimulationResult:
        return simulate(*args, **kwargs)


sys.modules[__name__].__class__ = _CallableModule

"""Simulation studies of the post-hoc procedures: power, FWER and FDR with Monte Carlo errors.

``cdplot.simulate(model, procedures=..., n_replicates=...)`` draws score tables from a model
(:class:`NormalModel`, :class:`ResampleModel` for Demšar's resampling of a real table, or
:class:`GeneratorModel` for a user's generator, :class:`BenchmarkModel` for one
benchmark's 0/1 item scores), runs every procedure on the same tables with
the statistics vectorised over replicates, and returns a :class:`SimulationResult`. Work runs
in this process, on local processes (joblib's loky), on a dask.distributed cluster or on Ray;
the result does not depend on where it ran.

The public names are re-exported lazily from :mod:`cdplot` (``cdplot.simulate``,
``cdplot.NormalModel``, ...).
"""

from __future__ import annotations

from ._benchmark_model import BenchmarkModel
from ._models import GeneratorModel, NormalModel, ResampleModel
from ._plan import plan
from ._plan_result import PlanResult
from ._procedures import Procedure, parse_procedures
from ._result import PowerCurveResult, SimulationResult
from ._runner import BLOCK, simulate, simulate_grid

__all__ = [
    "BLOCK",
    "BenchmarkModel",
    "GeneratorModel",
    "NormalModel",
    "PlanResult",
    "PowerCurveResult",
    "Procedure",
    "ResampleModel",
    "SimulationResult",
    "parse_procedures",
    "plan",
    "simulate",
    "simulate_grid",
]

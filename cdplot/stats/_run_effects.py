"""Effect sizes of a comparison's pairs with intervals from the stratified bootstrap over runs.

``effect_sizes(result, resample="runs", runs=...)``: the same pairs and orientation as the
dataset-level effect sizes, the tasks fixed and the runs within each task resampled
(rliable's scheme). ``"mean"``: the mean over tasks of the difference of the task means
(equal to the mean paired difference of the result's table when it holds the run means);
``"superiority"``: the run-level probability of improvement of ``a`` over ``b`` (Agarwal et
al. 2021), a probability of superiority of runs rather than of datasets.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from .._errors import CdplotInputError
from ..io._run_scores import read_run_scores
from ._improvement import _pair_matrix
from ._run_aggregates import _task_means
from ._run_bootstrap import percentile_interval, run_bootstrap

__all__ = ["RUN_MEASURES", "run_effect_rows"]

#: Measures with a run-level version.
RUN_MEASURES = ("mean", "superiority")


def run_effect_rows(
    result: Any,
    runs: Any,
    pairs: list[tuple[str, str]],
    measure: str,
    confidence: float,
    n_boot: int,
    random_state: Any,
) -> list[tuple[Any, ...]]:
    """Rows ``(a, b, measure, estimate, low, high, n, confidence)``; ``n`` counts tasks."""
    if measure not in RUN_MEASURES:
        raise CdplotInputError(
            f"effect_sizes(resample='runs') has the measures {', '.join(RUN_MEASURES)}; "
            f"{measure!r} is a dataset-level measure: use resample='datasets'."
        )
    if runs is None:
        raise CdplotInputError(
            "effect_sizes(resample='runs') resamples the runs of each task: pass them, e.g. "
            "runs='runs.csv' (one row per task, algorithm and run)."
        )
    scores = read_run_scores(runs, higher_is_better=result.higher_is_better)
    scores = dataclasses.replace(scores, higher_is_better=bool(result.higher_is_better))
    if sorted(scores.algorithms) != sorted(str(a) for a in result.algorithms):
        raise CdplotInputError(
            "runs= holds other algorithms than the result's; pass the runs the result was "
            "computed from."
        )
    at = {a: i for i, a in enumerate(scores.algorithms)}
    sign = 1.0 if scores.higher_is_better else -1.0

    def statistic(x: np.ndarray) -> np.ndarray:
        if measure == "superiority":
            matrix = _pair_matrix(x, sign)
            return np.stack([matrix[:, at[a], at[b]] for a, b in pairs], axis=1)
        means = sign * _task_means(x).mean(axis=1)
        return np.stack([means[:, at[a]] - means[:, at[b]] for a, b in pairs], axis=1)

    estimate = statistic(scores.values[None])[0]
    boot = run_bootstrap(scores, n_boot=n_boot, random_state=random_state)
    low, high = percentile_interval(boot.replicate(statistic), confidence)
    n_tasks = len(scores.tasks)
    return [
        (a, b, measure, float(estimate[i]), float(low[i]), float(high[i]), n_tasks, confidence)
        for i, (a, b) in enumerate(pairs)
    ]

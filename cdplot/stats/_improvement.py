"""The probability of improvement P(X > Y) over tasks, with stratified-bootstrap intervals.

On each task, ``P(X > Y)`` is the Mann-Whitney probability that a random run of X beats a
random run of Y, ties counting one half (``U / (n_x n_y)``, scipy's ``mannwhitneyu(x, y)``
statistic); the probability of improvement is its mean over tasks (Agarwal et al. 2021;
rliable 1.2.0's ``metrics.probability_of_improvement``). The interval resamples the runs of
X and of Y independently within each task (rliable's ``StratifiedIndependentBootstrap``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ._options import check_confidence
from ._run_aggregates import _bootstrap_for
from ._run_bootstrap import DEFAULT_N_BOOT, RunBootstrap, percentile_interval, runs_input

__all__ = ["ImprovementProbabilities", "probability_of_improvement"]


@dataclass(frozen=True, eq=False)
class ImprovementProbabilities:
    """P(row algorithm > column algorithm), averaged over tasks, with intervals.

    Attributes
    ----------
    algorithms : tuple of str
        In the order of the matrices (best first by mean probability over the others).
    estimate, low, high : numpy.ndarray
        ``(k, k)`` matrices: ``estimate[i, j]`` is P(algorithm i > algorithm j) (the better
        direction of the scores); ``estimate[j, i] = 1 - estimate[i, j]``; NaN diagonal.
    confidence : float
    n_boot : int
    n_tasks : int
    """

    algorithms: tuple[str, ...]
    estimate: np.ndarray = field(repr=False)
    low: np.ndarray = field(repr=False)
    high: np.ndarray = field(repr=False)
    confidence: float
    n_boot: int
    n_tasks: int

    def to_frame(self) -> Any:
        """One row per ordered pair ``x`` above ``y`` in the order: x, y, estimate, low,
        high, and ``decided`` (the interval excludes 0.5)."""
        import pandas as pd

        rows = []
        k = len(self.algorithms)
        for i in range(k):
            for j in range(i + 1, k):
                lo, hi = self.low[i, j], self.high[i, j]
                rows.append(
                    (
                        self.algorithms[i],
                        self.algorithms[j],
                        self.estimate[i, j],
                        lo,
                        hi,
                        bool(lo > 0.5 or hi < 0.5),
                    )
                )
        return pd.DataFrame(rows, columns=["x", "y", "estimate", "low", "high", "decided"])

    def plot(self, **kwargs: Any) -> Any:
        """Draw the probabilities (:func:`cdplot.improvement_plot`)."""
        from ..plotting._aggregates_plot import improvement_plot

        return improvement_plot(self, **kwargs)


def _pair_matrix(x: np.ndarray, sign: float) -> np.ndarray:
    """``(b, k, k)`` mean over tasks of P(run of i beats run of j) for every pair.

    The runs of ``i`` are compared with the runs of every later algorithm at once; a
    comparison with the NaN padding is neither a win nor a tie.
    """
    b, _, k, _ = x.shape
    y = sign * x
    n = (~np.isnan(y)).sum(axis=3).astype(float)  # (b, T, k): the cell's run count
    out = np.empty((b, k, k))
    for i in range(k - 1):
        xi = y[:, :, i, :, None, None]  # (b, T, R, 1, 1)
        rest = y[:, :, None, i + 1 :, :]  # (b, T, 1, k - i - 1, R)
        wins = (xi > rest).sum(axis=(2, 4)) + 0.5 * (xi == rest).sum(axis=(2, 4))
        p = (wins / (n[:, :, i, None] * n[:, :, i + 1 :])).mean(axis=1)
        out[:, i, i + 1 :], out[:, i + 1 :, i] = p, 1.0 - p
    idx = np.arange(k)
    out[:, idx, idx] = np.nan
    return out


def probability_of_improvement(
    data: Any,
    *,
    normalise: Any = None,
    confidence: float = 0.95,
    n_boot: int = DEFAULT_N_BOOT,
    random_state: Any = None,
    bootstrap: RunBootstrap | None = None,
    **read_kws: Any,
) -> ImprovementProbabilities:
    """The probability of improvement of every algorithm over every other, with intervals.

    Parameters
    ----------
    data : RunScores, path, data frame or mapping
        Scores with their runs (see :func:`cdplot.aggregate_scores`).
    normalise : mapping or data frame, optional
        Task -> ``(low, high)``. The probability does not change with a per-task increasing
        transformation; accepted so that one call works on the same input as the others.
    confidence : float, default 0.95
        Level of the percentile intervals (each pair on its own).
    n_boot : int, default 2000
    random_state : None, int or numpy.random.Generator
    bootstrap : RunBootstrap, optional
        A shared bootstrap (:func:`cdplot.run_bootstrap`) of the same scores.

    Returns
    -------
    ImprovementProbabilities

    Raises
    ------
    CdplotInputError
        For a single run per task and algorithm, or a task without normalisation scores.

    Notes
    -----
    ``P(X > Y) = (1 / T) sum_t (1 / (n_x n_y)) sum_i sum_j [x_ti > y_tj] + [x_ti = y_tj] / 2``
    (Agarwal et al. 2021, eq. in Section 4). With scores where lower is better, "X > Y"
    reads "X better than Y". The intervals are stratified-bootstrap percentile intervals,
    each pair on its own (not simultaneous).

    Examples
    --------
    >>> import numpy as np, cdplot
    >>> poi = cdplot.probability_of_improvement(
    ...     {"A": np.array([[3.0, 1.0], [4.0, 2.0]]), "B": np.array([[1.0, 1.0], [2.0, 3.0]])},
    ...     n_boot=200, random_state=0)
    >>> round(float(poi.to_frame().loc[0, "estimate"]), 4)  # (1 + 0.375) / 2
    0.6875
    """
    runs = runs_input(data, normalise, read_kws)
    confidence = check_confidence(confidence)
    boot = _bootstrap_for(runs, bootstrap, n_boot, random_state)
    sign = 1.0 if runs.higher_is_better else -1.0
    estimate = _pair_matrix(runs.values[None], sign)[0]
    reps = boot.replicate(lambda x: _pair_matrix(x, sign))
    low, high = percentile_interval(reps, confidence)
    order = np.argsort(-np.nanmean(estimate, axis=1), kind="stable")
    grid = np.ix_(order, order)
    return ImprovementProbabilities(
        algorithms=tuple(runs.algorithms[i] for i in order),
        estimate=estimate[grid],
        low=low[grid],
        high=high[grid],
        confidence=confidence,
        n_boot=boot.n_boot,
        n_tasks=len(runs.tasks),
    )

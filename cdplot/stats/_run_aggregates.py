"""Aggregate scores over tasks and runs with stratified-bootstrap intervals (rliable).

The four aggregates of Agarwal et al. (2021), each computed exactly as rliable 1.2.0's
``metrics`` module computes it when every cell has the same number of runs:

* ``"mean"``: the mean over tasks of each task's mean over runs;
* ``"median"``: the median over tasks of the task means;
* ``"iqm"``: the interquartile mean of all runs of all tasks pooled (scipy's
  ``trim_mean(scores, 0.25, axis=None)``: the lowest and highest ``int(0.25 n)`` dropped);
* ``"optimality-gap"``: ``gamma - mean(min(score, gamma))``, the mean shortfall below the
  threshold ``gamma`` (the mean over tasks of each task's mean over its runs).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .._errors import CdplotInputError, check_in_list
from ._options import check_confidence
from ._run_bootstrap import (
    DEFAULT_N_BOOT,
    RunBootstrap,
    check_bootstrap,
    percentile_interval,
    run_bootstrap,
    runs_input,
)

__all__ = ["METRICS", "RunAggregates", "aggregate_scores", "run_rank_intervals"]

#: The aggregates, in the order of rliable's figure.
METRICS = ("median", "iqm", "mean", "optimality-gap")
_ALIASES = {"interquartile-mean": "iqm", "og": "optimality-gap", "gap": "optimality-gap"}
#: Share of the runs cut at each end by the interquartile mean.
IQM_CUT = 0.25


@dataclass(frozen=True, eq=False)
class RunAggregates:
    """Aggregate scores of each algorithm with stratified-bootstrap intervals.

    Attributes
    ----------
    algorithms : tuple of str
    metrics : tuple of str
        Among "median", "iqm", "mean", "optimality-gap".
    estimate, low, high : numpy.ndarray
        ``(algorithms, metrics)`` point estimates and interval ends.
    confidence : float
    n_boot : int
    gamma : float
        Threshold of the optimality gap.
    normalised : bool
        Whether the scores were normalised per task.
    n_tasks : int
    runs : numpy.ndarray
        ``(tasks, algorithms)`` number of runs.
    """

    algorithms: tuple[str, ...]
    metrics: tuple[str, ...]
    estimate: np.ndarray = field(repr=False)
    low: np.ndarray = field(repr=False)
    high: np.ndarray = field(repr=False)
    confidence: float
    n_boot: int
    gamma: float
    normalised: bool
    n_tasks: int
    runs: np.ndarray = field(repr=False)

    def to_frame(self) -> Any:
        """One row per algorithm and metric: algorithm, metric, estimate, low, high."""
        import pandas as pd

        rows = [
            (a, m, self.estimate[i, j], self.low[i, j], self.high[i, j])
            for i, a in enumerate(self.algorithms)
            for j, m in enumerate(self.metrics)
        ]
        return pd.DataFrame(rows, columns=["algorithm", "metric", "estimate", "low", "high"])

    def plot(self, **kwargs: Any) -> Any:
        """Draw the intervals (:func:`cdplot.aggregate_plot`)."""
        from ..plotting._aggregates_plot import aggregate_plot

        return aggregate_plot(self, **kwargs)


def _task_means(x: np.ndarray) -> np.ndarray:
    """``(b, tasks, algorithms)`` mean over the runs of each cell (NaN padding skipped)."""
    return np.nansum(x, axis=3) / np.sum(~np.isnan(x), axis=3)


def _iqm(x: np.ndarray) -> np.ndarray:
    """``(b, algorithms)`` interquartile mean of all runs of all tasks pooled."""
    b, _, k, _ = x.shape
    out = np.empty((b, k))
    for a in range(k):
        flat = np.sort(x[:, :, a, :].reshape(b, -1), axis=1)  # NaN padding sorts last
        n = int(np.sum(~np.isnan(flat[0])))
        cut = int(IQM_CUT * n)
        out[:, a] = flat[:, cut : n - cut].mean(axis=1)
    return out


def _statistic(metrics: Sequence[str], gamma: float) -> Any:
    def statistic(x: np.ndarray) -> np.ndarray:
        means = _task_means(x)
        columns = []
        for m in metrics:
            if m == "mean":
                columns.append(means.mean(axis=1))
            elif m == "median":
                columns.append(np.median(means, axis=1))
            elif m == "iqm":
                columns.append(_iqm(x))
            else:
                columns.append(gamma - _task_means(np.minimum(x, gamma)).mean(axis=1))
        return np.stack(columns, axis=-1)

    return statistic


def _check_metrics(metrics: Any) -> tuple[str, ...]:
    names = (metrics,) if isinstance(metrics, str) else tuple(metrics)
    if not names:
        raise CdplotInputError(f"metrics= is empty; choose among {', '.join(METRICS)}.")
    return tuple(check_in_list(METRICS, aliases=_ALIASES, metrics=m) for m in names)


def _bootstrap_for(runs: Any, bootstrap: Any, n_boot: int, random_state: Any) -> RunBootstrap:
    if bootstrap is None:
        return run_bootstrap(runs, n_boot=n_boot, random_state=random_state)
    check_bootstrap(bootstrap, runs)
    return bootstrap


def aggregate_scores(
    data: Any,
    *,
    metrics: str | Sequence[str] = METRICS,
    normalise: Any = None,
    gamma: float = 1.0,
    confidence: float = 0.95,
    n_boot: int = DEFAULT_N_BOOT,
    random_state: Any = None,
    bootstrap: RunBootstrap | None = None,
    **read_kws: Any,
) -> RunAggregates:
    """Mean, median, interquartile mean and optimality gap over tasks and runs, with intervals.

    Parameters
    ----------
    data : RunScores, path, data frame or mapping
        Scores with their runs (anything :func:`cdplot.io.read_run_scores` reads; its
        keyword arguments ``dataset``, ``algorithm``, ``score``, ``run``, ``tasks`` and
        ``higher_is_better`` may be passed here).
    metrics : str or sequence of str, default all four
        Among "median", "iqm", "mean" and "optimality-gap".
    normalise : mapping or data frame, optional
        Task -> ``(low, high)``: the scores become ``(score - low) / (high - low)`` (e.g.
        human-normalised Atari scores with random and human scores). Every task needs one.
    gamma : float, default 1.0
        Threshold of the optimality gap (on the normalised scale).
    confidence : float, default 0.95
        Level of the percentile intervals.
    n_boot : int, default 2000
        Replicates of the stratified bootstrap over runs within each task.
    random_state : None, int or numpy.random.Generator
        Seed.
    bootstrap : RunBootstrap, optional
        A shared bootstrap (:func:`cdplot.run_bootstrap`) of the same (normalised) scores,
        so that several analyses read the same replicates.

    Returns
    -------
    RunAggregates

    Raises
    ------
    CdplotInputError
        For a single run per task and algorithm (nothing to resample), normalisation scores
        missing for a task, or an unknown metric.

    Notes
    -----
    The interval is the percentile interval of the stratified bootstrap: each replicate
    draws, within each task and for each algorithm, as many runs as it has with
    replacement (Agarwal et al. 2021, rliable's ``StratifiedBootstrap`` with
    ``task_bootstrap=False``). It describes the uncertainty of re-running the same tasks
    with new seeds, not that of another choice of tasks.

    References
    ----------
    Agarwal, R., Schwarzer, M., Castro, P. S., Courville, A. & Bellemare, M. G. (2021).
    Deep reinforcement learning at the edge of the statistical precipice. *NeurIPS 34*.

    Examples
    --------
    >>> import numpy as np, cdplot
    >>> rng = np.random.default_rng(0)
    >>> agg = cdplot.aggregate_scores({"A": rng.normal(1, 0.1, (5, 4)),
    ...                                "B": rng.normal(0.8, 0.1, (5, 4))}, random_state=0)
    >>> agg.to_frame().query("metric == 'iqm'")["algorithm"].tolist()
    ['A', 'B']
    """
    runs = runs_input(data, normalise, read_kws)
    names = _check_metrics(metrics)
    confidence = check_confidence(confidence)
    gamma = float(gamma)
    boot = _bootstrap_for(runs, bootstrap, n_boot, random_state)
    statistic = _statistic(names, gamma)
    estimate = statistic(runs.values[None])[0]
    low, high = percentile_interval(boot.replicate(statistic), confidence)
    return RunAggregates(
        algorithms=runs.algorithms,
        metrics=names,
        estimate=estimate,
        low=low,
        high=high,
        confidence=confidence,
        n_boot=boot.n_boot,
        gamma=gamma,
        normalised=runs.normalised,
        n_tasks=len(runs.tasks),
        runs=runs.counts.copy(),
    )


def _average_ranks(x: np.ndarray, sign: float) -> np.ndarray:
    """``(b, algorithms)`` average over tasks of the ranks of the task means (1 = best;
    ties share the mean rank)."""
    means = sign * _task_means(x)  # larger is better
    below = (means[..., :, None] < means[..., None, :]).sum(axis=-1)
    ties = (means[..., :, None] == means[..., None, :]).sum(axis=-1)
    ranks = below + (ties + 1) / 2.0
    return ranks.mean(axis=1)


def run_rank_intervals(
    data: Any,
    *,
    confidence: float = 0.95,
    n_boot: int = DEFAULT_N_BOOT,
    random_state: Any = None,
    bootstrap: RunBootstrap | None = None,
    **read_kws: Any,
) -> Any:
    """Simultaneous rank intervals from the stratified bootstrap over runs.

    The construction of :func:`cdplot.rank_intervals` (``method="bootstrap"``, single-step
    max-t of Mogstad et al. 2024, fixed standard errors) on the average ranks over tasks of
    the run means, where each replicate resamples the runs within each task instead of the
    tasks.

    Parameters
    ----------
    data : RunScores, path, data frame or mapping
        Scores with their runs (see :func:`aggregate_scores`).
    confidence : float, default 0.95
    n_boot : int, default 2000
    random_state : None, int or numpy.random.Generator
    bootstrap : RunBootstrap, optional
        A shared bootstrap of the same scores.

    Returns
    -------
    RankIntervals
        With ``method="runs"``; ``p_best`` is the share of replicates in which each
        algorithm has the best average rank (ties shared).

    Raises
    ------
    CdplotInputError
        For a single run per task and algorithm.

    Examples
    --------
    >>> import numpy as np, cdplot
    >>> rng = np.random.default_rng(0)
    >>> runs = {"A": 3 + rng.normal(0, 0.1, (5, 4)), "B": 1 + rng.normal(0, 0.1, (5, 4))}
    >>> ri = cdplot.run_rank_intervals(runs, n_boot=200, random_state=0)
    >>> ri.low.tolist(), ri.high.tolist()
    ([1, 2], [1, 2])
    """
    from ._intervals import RankIntervals

    runs = runs_input(data, None, read_kws)
    confidence = check_confidence(confidence)
    boot = _bootstrap_for(runs, bootstrap, n_boot, random_state)
    sign = 1.0 if runs.higher_is_better else -1.0
    estimate = _average_ranks(runs.values[None], sign)[0]
    reps = boot.replicate(lambda x: _average_ranks(x, sign))
    order = np.argsort(estimate, kind="stable")
    estimate, reps = estimate[order], reps[:, order]
    diff = estimate[:, None] - estimate[None, :]
    rep_diff = reps[:, :, None] - reps[:, None, :]
    se = rep_diff.std(axis=0)
    safe = np.where(se > 0, se, np.inf)
    stat = np.abs(rep_diff - diff[None]) / safe[None]
    critical = float(np.quantile(stat.reshape(stat.shape[0], -1).max(axis=1), confidence))
    k = estimate.size
    # j's average rank exceeds l's beyond the interval: l confidently better (a pair whose
    # difference never changes over the replicates, se = 0, is decided by its sign)
    better = diff - critical * se > 0
    worse = diff + critical * se < 0
    best = reps == reps.min(axis=1, keepdims=True)
    p_best = (best / best.sum(axis=1, keepdims=True)).mean(axis=0)
    return RankIntervals(
        algorithms=tuple(runs.algorithms[i] for i in order),
        average_rank=estimate,
        estimate=estimate,
        low=1 + better.sum(axis=1),
        high=k - worse.sum(axis=1),
        p_best=p_best,
        method="runs",
        confidence=confidence,
        simultaneous=True,
        on="ranks",
        n_boot=boot.n_boot,
        critical_value=np.array([critical]),
        labels={},
    )

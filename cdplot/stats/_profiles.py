"""Performance profiles: rliable's score distributions, Dolan-More and More-Wild profiles.

* :func:`score_profile` (Agarwal et al. 2021): the fraction of runs (over all tasks) whose
  score exceeds ``tau``, or the fraction of tasks whose mean score does, with
  stratified-bootstrap bands, and the non-linear scaling of ``tau`` of rliable's figure;
* :func:`performance_profile` (Dolan & More 2002): for costs (time, evaluations; lower is
  better, ``inf`` or NaN a failure), the fraction of problems on which a solver's cost is
  within a factor ``tau`` of the best solver's;
* :func:`data_profile` (More & Wild 2009): the fraction of problems a solver solves within a
  budget of ``alpha`` units, a unit being ``n_p + 1`` evaluations of problem ``p`` of
  dimension ``n_p`` (simplex gradients).

Both of the latter take the mean cost over a problem's runs and, with several runs, a band
from the stratified bootstrap over runs; with one run per problem they have no band.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .._errors import CdplotInputError, check_in_list
from ..io._run_scores import RunScores
from ._options import check_confidence
from ._run_aggregates import _bootstrap_for, _task_means
from ._run_bootstrap import DEFAULT_N_BOOT, percentile_interval, run_bootstrap, runs_input

__all__ = ["Profile", "data_profile", "performance_profile", "score_profile"]

#: Points of the default grid of tau.
GRID_POINTS = 101


@dataclass(frozen=True, eq=False)
class Profile:
    """A profile of each algorithm over a grid, with bands where they are defined.

    Attributes
    ----------
    kind : {"runs", "tasks", "performance", "data"}
        rliable's score distribution of runs, of task means, Dolan-More's performance
        profile, More-Wild's data profile.
    algorithms : tuple of str
    tau : numpy.ndarray
        The grid (thresholds, ratios to the best, or budgets).
    profile : numpy.ndarray
        ``(algorithms, grid)`` fractions.
    low, high : numpy.ndarray or None
        The bootstrap band (None without runs to resample).
    confidence : float
    n_boot : int
        Replicates of the band (0 without one).
    scaled_tau : numpy.ndarray or None
        rliable's non-linear scaling of the grid (score distributions only): ``1 -`` the
        mean profile over the algorithms, so that the axis spends its length where the
        runs' scores lie.
    """

    kind: str
    algorithms: tuple[str, ...]
    tau: np.ndarray = field(repr=False)
    profile: np.ndarray = field(repr=False)
    low: np.ndarray | None = field(repr=False)
    high: np.ndarray | None = field(repr=False)
    confidence: float
    n_boot: int
    scaled_tau: np.ndarray | None = field(default=None, repr=False)

    def to_frame(self) -> Any:
        """One row per algorithm and grid point: algorithm, tau, profile, low, high."""
        import pandas as pd

        rows = []
        for i, a in enumerate(self.algorithms):
            for j, t in enumerate(self.tau):
                lo = np.nan if self.low is None else self.low[i, j]
                hi = np.nan if self.high is None else self.high[i, j]
                rows.append((a, t, self.profile[i, j], lo, hi))
        return pd.DataFrame(rows, columns=["algorithm", "tau", "profile", "low", "high"])

    def plot(self, **kwargs: Any) -> Any:
        """Draw the profile (:func:`cdplot.profile_plot`)."""
        from ..plotting._profiles import profile_plot

        return profile_plot(self, **kwargs)


def _grid(tau: Any, values: np.ndarray, name: str) -> np.ndarray:
    if tau is None:
        finite = values[np.isfinite(values)]
        return np.linspace(finite.min(), finite.max(), GRID_POINTS)
    grid = np.asarray(tau, dtype=float).ravel()
    if grid.size == 0 or not np.all(np.isfinite(grid)):
        raise CdplotInputError(f"{name}= must hold finite numbers, got {tau!r}.")
    return grid


def score_profile(
    data: Any,
    *,
    tau: Sequence[float] | None = None,
    of: str = "runs",
    normalise: Any = None,
    confidence: float = 0.95,
    n_boot: int = DEFAULT_N_BOOT,
    random_state: Any = None,
    bootstrap: Any = None,
    **read_kws: Any,
) -> Profile:
    """rliable's score distribution: the fraction of runs scoring above ``tau``, with bands.

    Parameters
    ----------
    data : RunScores, path, data frame or mapping
        Scores with their runs (see :func:`cdplot.aggregate_scores`).
    tau : sequence of float, optional
        Thresholds; default 101 points from the lowest to the highest score.
    of : {"runs", "tasks"}, default "runs"
        ``"runs"``: the mean over tasks of the fraction of each task's runs above ``tau``
        (rliable's ``score_distributions``: all runs pooled, the same with equal run counts).
        ``"tasks"``: the fraction of tasks whose mean score is above ``tau`` (rliable's
        ``average_score_distributions``).
    normalise : mapping or data frame, optional
        Task -> ``(low, high)``.
    confidence, n_boot, random_state, bootstrap
        The stratified-bootstrap band, as in :func:`cdplot.aggregate_scores`.

    Returns
    -------
    Profile

    Raises
    ------
    CdplotInputError
        For a single run per task and algorithm, or a task without normalisation scores.

    Examples
    --------
    >>> import numpy as np, cdplot
    >>> scores = {"A": np.array([[0.2, 0.9], [0.4, 0.7]]), "B": np.array([[0.1, 0.3], [0.5, 0.2]])}
    >>> prof = cdplot.score_profile(scores, tau=[0.25, 0.5], n_boot=200, random_state=0)
    >>> prof.profile.tolist()  # B: 0.5 and 0.3 above 0.25, none above 0.5
    [[0.75, 0.5], [0.5, 0.0]]
    """
    runs = runs_input(data, normalise, read_kws)
    of = check_in_list(("runs", "tasks"), of=of)
    confidence = check_confidence(confidence)
    grid = _grid(tau, runs.values, "tau")
    boot = _bootstrap_for(runs, bootstrap, n_boot, random_state)

    def statistic(x: np.ndarray) -> np.ndarray:
        # one threshold at a time: a (b, T, k, R, grid) array would not fit in memory
        if of == "tasks":
            means = _task_means(x)  # (b, T, k)
            return np.stack([(means > t).mean(axis=1) for t in grid], axis=-1)
        return _share_above(x, grid)

    profile = statistic(runs.values[None])[0]
    low, high = percentile_interval(boot.replicate(statistic), confidence)
    return Profile(
        kind=of,
        algorithms=runs.algorithms,
        tau=grid,
        profile=profile,
        low=low,
        high=high,
        confidence=confidence,
        n_boot=boot.n_boot,
        scaled_tau=1.0 - profile.mean(axis=0),
    )


def _share_above(x: np.ndarray, grid: np.ndarray) -> np.ndarray:
    """``(b, k, grid)`` mean over tasks of the share of each task's runs above each ``tau``.

    Each run weighs ``1 / (n_tk T)``; the runs of one replicate and algorithm are sorted once
    and the weight above each threshold read off the reversed cumulative sums.
    """
    b, n_tasks, k, most = x.shape
    valid = ~np.isnan(x)
    weight = np.where(valid, 1.0 / (valid.sum(axis=3, keepdims=True) * n_tasks), 0.0)
    values = x.transpose(0, 2, 1, 3).reshape(b * k, n_tasks * most)
    weight = weight.transpose(0, 2, 1, 3).reshape(b * k, n_tasks * most)
    order = np.argsort(values, axis=1, kind="stable")  # NaN padding (weight 0) sorts last
    values = np.take_along_axis(values, order, axis=1)
    weight = np.take_along_axis(weight, order, axis=1)
    above = np.zeros((b * k, n_tasks * most + 1))
    above[:, :-1] = np.cumsum(weight[:, ::-1], axis=1)[:, ::-1]  # weight at or after each
    out = np.empty((b * k, grid.size))
    for row in range(b * k):
        first_above = np.searchsorted(values[row], grid, side="right")  # NaN sorts last
        out[row] = above[row, first_above]
    return out.reshape(b, k, grid.size)


def _costs(data: Any, read_kws: dict[str, Any], kind: str) -> RunScores:
    runs = runs_input(data, None, {"higher_is_better": False, "failures": True, **read_kws})
    if runs.higher_is_better:
        if kind == "data":
            raise CdplotInputError(
                "data profiles read costs (lower is better: evaluations to solve a problem); "
                "pass higher_is_better=False or costs."
            )
        if np.any(np.isinf(runs.values)) or np.nanmin(runs.values) < 0:
            raise CdplotInputError(
                "a performance profile of scores (higher is better) divides the best score "
                "of each problem by each solver's; every score must be finite and at least "
                "0 (0 counts as a failure). Pass costs with higher_is_better=False otherwise."
            )
        return runs
    finite = runs.values[np.isfinite(runs.values)]
    if np.any(finite <= 0):
        raise CdplotInputError(
            "performance profiles divide costs by the best cost of each problem; every cost "
            "must be positive (a failure is inf)."
        )
    return runs


def _ratios(mean: np.ndarray, maximise: bool) -> np.ndarray:
    """Dolan-More ratios of ``(..., problems, solvers)`` mean costs or scores: a cost over the
    problem's least cost, or the problem's best score over a score; ``inf`` for a failure."""
    if maximise:  # best / score; a score of 0 is never within a factor of the best
        best = np.broadcast_to(mean.max(axis=-1, keepdims=True), mean.shape)
        return np.divide(best, mean, out=np.full(mean.shape, np.inf), where=mean > 0)
    with np.errstate(invalid="ignore"):  # inf / inf: every solver failed the problem
        value = mean / mean.min(axis=-1, keepdims=True)
    return np.where(np.isfinite(value), value, np.inf)


def _ratio_statistic(grid: np.ndarray, scale: np.ndarray | None, maximise: bool) -> Any:
    """``(b, k, grid)`` fraction of problems with ratio (or cost per unit) at most ``tau``."""

    def statistic(x: np.ndarray) -> np.ndarray:
        cost = np.nanmean(x, axis=3)  # a failed run (inf) fails the cell
        if scale is None:
            value = _ratios(cost, maximise)
        else:
            value = cost / scale[:, None]
            value = np.where(np.isfinite(value), value, np.inf)
        return (value[..., None] <= grid).mean(axis=1)

    return statistic


def _profile_of_costs(
    kind: str,
    runs: RunScores,
    grid: np.ndarray,
    scale: np.ndarray | None,
    confidence: float,
    n_boot: int,
    random_state: Any,
) -> Profile:
    statistic = _ratio_statistic(grid, scale, runs.higher_is_better)
    profile = statistic(runs.values[None])[0]
    low = high = None
    used = 0
    if int(runs.counts.max()) > 1:
        boot = run_bootstrap(runs, n_boot=n_boot, random_state=random_state)
        low, high = percentile_interval(boot.replicate(statistic), confidence)
        used = boot.n_boot
    return Profile(kind, runs.algorithms, grid, profile, low, high, confidence, used)


def performance_profile(
    data: Any,
    *,
    tau: Sequence[float] | None = None,
    confidence: float = 0.95,
    n_boot: int = DEFAULT_N_BOOT,
    random_state: Any = None,
    **read_kws: Any,
) -> Profile:
    """Dolan-More performance profiles of solvers over problems.

    Parameters
    ----------
    data : RunScores, path, data frame or mapping
        Costs (lower is better; ``inf`` or a missing cost a failure) of each solver on each
        problem, with or without runs (read as by :func:`cdplot.io.read_run_scores` with
        ``higher_is_better=False``). Scores of a maximisation (the size of the set found,
        an objective value to maximise) with ``higher_is_better=True`` (or a
        :class:`~cdplot.io.RunScores` read so): finite and at least 0, the ratio is then the
        best score over the solver's, and a score of 0 a failure.
    tau : sequence of float, optional
        Ratios; default 101 points from 1 to the largest finite ratio.
    confidence, n_boot, random_state
        The band of the stratified bootstrap over runs (only with several runs).

    Returns
    -------
    Profile
        ``kind="performance"``; ``profile[s, i]`` is the fraction of problems ``p`` with
        ``t_ps / min_s t_ps <= tau[i]`` (scores: ``max_s f_ps / f_ps <= tau[i]``).

    Raises
    ------
    CdplotInputError
        For a cost that is not positive, or a score that is negative or infinite.

    Notes
    -----
    ``rho_s(tau) = |{p : r_ps <= tau}| / n_p`` with ``r_ps = t_ps / min_s t_ps`` and ``r_ps =
    inf`` for a failure (Dolan & More 2002, eq. 1 and 2); with runs, ``t_ps`` is the mean
    cost over the runs (a failed run fails the problem). For scores ``f_ps`` to maximise,
    ``r_ps = max_s f_ps / f_ps`` (the ratio of costs ``1 / f_ps``), with ``f_ps`` the mean
    score over the runs and ``r_ps = inf`` when it is 0.

    References
    ----------
    Dolan, E. D. & More, J. J. (2002). Benchmarking optimization software with performance
    profiles. *Mathematical Programming* 91, 201-213.

    Examples
    --------
    >>> import numpy as np, cdplot
    >>> costs = {"A": np.array([[1.0, 2.0, 4.0]]), "B": np.array([[2.0, 2.0, np.inf]])}
    >>> p = cdplot.performance_profile(costs, tau=[1, 2])
    >>> p.profile.tolist()  # A best on all 3 problems; B within 2x on 2
    [[1.0, 1.0], [0.3333333333333333, 0.6666666666666666]]
    >>> sizes = {"A": np.array([[10.0, 8.0]]), "B": np.array([[5.0, 8.0]])}  # maximised
    >>> cdplot.performance_profile(sizes, higher_is_better=True, tau=[1, 2]).profile.tolist()
    [[1.0, 1.0], [0.5, 1.0]]
    """
    runs = _costs(data, read_kws, "performance")
    confidence = check_confidence(confidence)
    if tau is None:
        r = _ratios(np.nanmean(runs.values, axis=2), runs.higher_is_better)
        top = float(np.max(r[np.isfinite(r)], initial=1.0))
        grid = np.linspace(1.0, max(top, 1.0) * 1.05, GRID_POINTS)
    else:
        grid = _grid(tau, runs.values, "tau")
    return _profile_of_costs("performance", runs, grid, None, confidence, n_boot, random_state)


def data_profile(
    data: Any,
    *,
    dimensions: Mapping[str, int] | None = None,
    budgets: Sequence[float] | None = None,
    confidence: float = 0.95,
    n_boot: int = DEFAULT_N_BOOT,
    random_state: Any = None,
    **read_kws: Any,
) -> Profile:
    """More-Wild data profiles: the fraction of problems solved within a budget.

    Parameters
    ----------
    data : RunScores, path, data frame or mapping
        The cost (function evaluations) each solver needed to solve each problem to the
        chosen tolerance, ``inf`` or missing when it did not.
    dimensions : mapping of str to int, optional
        Problem -> its number of variables ``n_p``: budgets are then in simplex gradients
        (``n_p + 1`` evaluations). Default: budgets in evaluations.
    budgets : sequence of float, optional
        The budgets ``alpha``; default 101 points from 0 to the largest finite cost per unit.
    confidence, n_boot, random_state
        The band of the stratified bootstrap over runs (only with several runs).

    Returns
    -------
    Profile
        ``kind="data"``; ``profile[s, i]`` is the fraction of problems ``p`` with
        ``t_ps / (n_p + 1) <= budgets[i]``.

    Raises
    ------
    CdplotInputError
        When ``dimensions`` misses a problem.

    References
    ----------
    More, J. J. & Wild, S. M. (2009). Benchmarking derivative-free optimization
    algorithms. *SIAM Journal on Optimization* 20(1), 172-191.

    Examples
    --------
    >>> import numpy as np, cdplot
    >>> evals = {"A": np.array([[10.0, 40.0]]), "B": np.array([[30.0, np.inf]])}
    >>> p = cdplot.data_profile(evals, tasks=["p1", "p2"], dimensions={"p1": 1, "p2": 3},
    ...                         budgets=[5, 10, 15])
    >>> p.profile.tolist()  # per simplex gradient: A 5 and 10, B 15 and failed
    [[0.5, 1.0, 1.0], [0.0, 0.0, 0.5]]
    """
    runs = _costs(data, read_kws, "data")
    confidence = check_confidence(confidence)
    scale = None
    if dimensions is not None:
        missing = [t for t in runs.tasks if t not in dimensions]
        if missing:
            raise CdplotInputError(
                f"dimensions= misses problem(s) {', '.join(missing[:5])}; give the number of "
                "variables of every problem, or drop dimensions= (budgets in evaluations)."
            )
        scale = np.array([float(dimensions[t]) + 1.0 for t in runs.tasks])
    if budgets is None:
        cost = np.nanmean(runs.values, axis=2)
        per = cost if scale is None else cost / scale[:, None]
        top = float(np.max(per[np.isfinite(per)]))
        grid = np.linspace(0.0, top * 1.05, GRID_POINTS)
    else:
        grid = _grid(budgets, runs.values, "budgets")
    one = np.ones(len(runs.tasks)) if scale is None else scale
    return _profile_of_costs("data", runs, grid, one, confidence, n_boot, random_state)

"""Confidence intervals for ranks and the probability of being the best.

Two constructions of the same object (:class:`RankIntervals`):

* ``method="test"`` reads the result's own pairwise decisions (``res.significant``);
* ``method="bootstrap"`` is the confidence set for ranks of Mogstad, Romano, Shaikh &
  Wilhelm (2024): a paired bootstrap over datasets with max-t critical values.

The bootstrap never re-ranks a dataset: a bootstrap table is the original one with its rows
(datasets) reweighted, so every bootstrap estimate is a weighted mean of the rows of one
matrix and a chunk of ``b`` bootstrap samples is the matrix product ``weights @ values``.
The weights come from a *weight generator* (multinomial counts for the paired bootstrap,
Dirichlet weights for the Bayesian bootstrap of ``p_best``); a hierarchical bootstrap over
tasks and items plugs in as another generator (see :func:`reweighted_means`).
"""

from __future__ import annotations

import contextlib
import math
import os
import warnings
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from .._errors import CdplotInputError, CdplotWarning, check_in_list, renamed_keywords, spell
from ._options import check_confidence

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

    from ._results import ComparisonResult

__all__ = [
    "RankIntervals",
    "RankPlotStatistics",
    "WeightGenerator",
    "bayesian_weights",
    "multinomial_weights",
    "rank_intervals",
    "shown_intervals",
    "reweighted_means",
    "decision_bounds",
    "decision_intervals",
]

#: ``generator(rng, n_draws)`` -> an ``(n_draws, N)`` array of weights over the N datasets,
#: each row non-negative and summing to 1.
WeightGenerator = Callable[[np.random.Generator, int], np.ndarray]

METHODS = ("test", "bootstrap", "hierarchical", "runs")
TARGETS = ("ranks", "scores")
BACKENDS = ("numpy", "dask")
#: float32 elements of one block of the pairwise max-t step (1 MB: stays in cache)
PAIR_CHUNK_ELEMENTS = 262_144
#: float64 elements of one chunk of bootstrap weights (16 MB)
WEIGHT_CHUNK_ELEMENTS = 2_000_000
#: threads of the pairwise max-t step
THREADS = 2
#: from this many algorithms the max-t step reads, per draw, the pairs of the EXTREME_SHARE
#: most extreme algorithms on either side in full and bounds every other pair (exact: the
#: rows whose bound does not settle them are read in full)
EXTREME_MIN_K = 96
#: algorithms on each side a draw reads in full: this share of k (at least 4)
EXTREME_SHARE = 1 / 32
#: relative slack of the bound on the pairs not read (float32 rounding is 6e-8)
EXTREME_SLACK = 1e-5
#: the bootstrap-t's work is ``n_boot * k(k-1)/2 * (N + STUDENT_PAIR_COST)`` cells: one draw
#: of one pair costs N products and about as much arithmetic again as 100 datasets' products
STUDENT_PAIR_COST = 100
#: the automatic bootstrap-t runs while its work stays within this many cells (5 to 15 s of
#: CPU, 0.05 to 0.15 ns a cell); beyond it, fixed standard errors with a warning, unless
#: ``studentize=True`` asks for the bootstrap-t whatever it costs
STUDENTIZE_MAX_WORK = 100_000_000_000
#: float64 elements of one block of the bootstrap-t (draws x pairs of one tile: 8 MB)
STUDENT_BLOCK_ELEMENTS = 1_048_576
#: float64 elements of the per-dataset squared differences of one tile of pairs (16 MB)
STUDENT_TILE_ELEMENTS = 2_097_152
#: bootstrap draws of one block of the bootstrap-t
STUDENT_ROWS = 256
#: bytes of the tiles' squared per-dataset differences the bootstrap-t keeps at once: the
#: tiles are made once for all the draws, a group of tiles within this bound at a time (the
#: draws are drawn again, the same, for each further group), not once per block of draws
STUDENT_CACHE_BYTES = 128 * 2**20
DEFAULT_N_BOOT = 10_000
#: relative size of what rounding leaves of a cancelled sum (64 units in the last place)
ROUNDING = 64 * np.finfo(float).eps
#: relative spread of a difference that is constant but for the rounding of its inputs
#: (x + 0.1 - x is 0.1 only to within a unit in the last place of x)
CONSTANT_SPREAD = 4 * np.finfo(float).eps
#: the bootstraps' confidence level when none is given (``method="test"``: ``1 - alpha``)
DEFAULT_CONFIDENCE = 0.95
#: the most bootstrap samples of one call: time and memory (n_boot x k statistics) grow with
#: n_boot, and a 95 % critical value needs far fewer (10,000, the default, is the usual count)
MAX_N_BOOT = 1_000_000


@dataclass(frozen=True)
class RankIntervals:
    """Confidence intervals for the rank of each algorithm, and the set of the best.

    Returned by :func:`cdplot.rank_intervals` (and ``ComparisonResult.rank_intervals``).

    With ``simultaneous=True`` the intervals hold for all algorithms at once: with
    probability at least ``confidence`` every algorithm's true rank lies in its interval
    (for ``method="test"``, whenever the result's correction controls the family-wise
    error rate at ``alpha = 1 - confidence`` - strongly, and for the direction of each
    decision; for ``method="bootstrap"``, asymptotically as the number of datasets grows).
    With ``simultaneous=False`` (bootstrap only) each interval alone covers its
    algorithm's rank with that probability. Algorithms whose true values are tied hold
    every rank of their tie, and an interval then covers all of them.

    Attributes
    ----------
    algorithms : tuple of str
        Algorithms in display order (best average rank first, as ``res.average_ranks``).
    average_rank : numpy.ndarray
        Average rank of each algorithm (over its datasets), in that order.
    estimate : numpy.ndarray
        The value ranked: the average rank (``on="ranks"``) or the mean score
        (``on="scores"``).
    low, high : numpy.ndarray of int
        The interval of rank positions ``low <= rank <= high`` (1 = best).
    p_best : numpy.ndarray
        Probability of being ranked first under a Bayesian bootstrap over datasets
        (Dirichlet(1, ..., 1) weights; an exact tie for first splits its probability).
        Sums to 1.
    method : {"test", "bootstrap"}
        How the intervals were made.
    confidence : float
        Their confidence level.
    simultaneous : bool
        Whether the coverage statement is joint (all algorithms) or per algorithm.
    on : {"ranks", "scores"}
        What was ranked.
    n_boot : int
        Bootstrap samples (of the paired bootstrap, and of the Bayesian bootstrap of
        ``p_best``).
    critical_value : numpy.ndarray or None
        Bootstrap only: the max-t critical value (one value when simultaneous, one per
        algorithm when marginal).
    labels : dict of str to str
        Display names (from the result).
    """

    algorithms: tuple[str, ...]
    average_rank: np.ndarray = field(repr=False)
    estimate: np.ndarray = field(repr=False)
    low: np.ndarray = field(repr=False)
    high: np.ndarray = field(repr=False)
    p_best: np.ndarray = field(repr=False)
    method: str
    confidence: float
    simultaneous: bool
    on: str
    n_boot: int
    critical_value: np.ndarray | None = field(default=None, repr=False)
    labels: dict[str, str] = field(default_factory=dict, repr=False)

    @property
    def best_set(self) -> tuple[str, ...]:
        """The confidence set of the best: the algorithms whose interval contains rank 1."""
        return tuple(a for a, lo in zip(self.algorithms, self.low, strict=True) if lo == 1)

    def interval(self, algorithm: str) -> tuple[int, int]:
        """The interval ``(low, high)`` of one algorithm."""
        if algorithm not in self.algorithms:
            raise CdplotInputError(
                f"{algorithm!r} is not one of the algorithms; pass one of "
                f"{', '.join(self.algorithms)}."
            )
        i = self.algorithms.index(algorithm)
        return int(self.low[i]), int(self.high[i])

    def to_frame(self) -> pd.DataFrame:
        """One row per algorithm (display order).

        Returns
        -------
        pandas.DataFrame
            Index ``algorithm``; columns ``average_rank``, ``mean_score`` (only with
            ``on="scores"``), ``low``, ``high``, ``p_best``, ``in_best_set``.
        """
        import pandas as pd

        columns: dict[str, Any] = {"average_rank": self.average_rank}
        if self.on == "scores":
            columns["mean_score"] = self.estimate
        columns.update(
            low=self.low.astype(int),
            high=self.high.astype(int),
            p_best=self.p_best,
            in_best_set=self.low == 1,
        )
        index = pd.Index(list(self.algorithms), name="algorithm")
        return pd.DataFrame(columns, index=index)


@renamed_keywords(res="result")
def rank_intervals(
    result: ComparisonResult,
    *,
    method: str = "test",
    confidence: float | None = None,
    simultaneous: bool = True,
    n_boot: int = DEFAULT_N_BOOT,
    random_state: Any = None,
    on: str = "ranks",
    backend: str | None = None,
    studentize: bool | None = None,
    runs: Any = None,
) -> RankIntervals:
    """Confidence intervals for the rank of each algorithm, and the set of the best.

    Parameters
    ----------
    result : ComparisonResult
        The result of :func:`cdplot.compare`.
    method : {"test", "bootstrap", "hierarchical"}, default "test"
        ``"test"``: from the result's own pairwise decisions, ``low = 1 + #{j
        significantly better}`` and ``high = k - #{j significantly worse}`` (the intervals
        agree with the groups of the CD diagram by construction; against a control, from
        the k - 1 tests with the control, see Notes). ``"bootstrap"``: the
        confidence sets for ranks of Mogstad et al. (2024), from a paired bootstrap over
        datasets; on the result of one benchmark (:class:`cdplot.stats.BenchmarkComparison`)
        that of :func:`cdplot.stats.benchmark_rank_intervals` on the mean scores, a
        bootstrap over the items - over their clusters when they have clusters - whose
        ``p_best`` is the share of replicates in which each model has the best mean
        (``on`` is then ``"scores"``). ``"hierarchical"`` (item-level input,
        ``result.items``): the same construction on a hierarchical bootstrap that
        resamples the tasks, then the items within each drawn task, and re-ranks (see
        :func:`cdplot.stats._items.hierarchical_bounds`); ``p_best`` is then the share of
        those replicates in which each model ranks first. ``"runs"`` (with ``runs=``, the
        scores of every run): the bootstrap construction on a stratified bootstrap over
        the runs within each task, the tasks fixed (:func:`cdplot.run_rank_intervals`).
    confidence : float, optional
        Confidence level. By default ``1 - result.alpha`` for ``method="test"`` (the only level
        its decisions carry: another one is refused), 0.95 for the bootstraps.
    simultaneous : bool, default True
        Joint coverage of all algorithms' ranks (max-t over all pairs) or, bootstrap only,
        one interval at a time (max-t over the pairs of that algorithm).
    n_boot : int, default 10000
        Bootstrap samples (also those of the Bayesian bootstrap for ``p_best``), from 100
        to ``MAX_N_BOOT`` (1,000,000).
    random_state : None, int or numpy.random.Generator
        Seed; equal seeds give equal results.
    on : {"ranks", "scores"}, default "ranks"
        Rank the average ranks, or the mean scores (bootstrap and ``p_best``; a
        ``"test"`` interval follows the result's tests either way).
    backend : {None, "numpy", "dask"}
        ``"dask"`` computes the bootstrap chunks on the current Dask client.
    studentize : bool, optional
        Bootstrap-t: divide each bootstrap sample's differences by their own standard
        errors (costs ``n_boot * k(k - 1) / 2 * (N + 100)`` cells, 0.05 to 0.15 s of CPU per
        1e9, in blocks of bounded memory). Default: whenever that work is at most
        ``STUDENTIZE_MAX_WORK`` (1e11); beyond it, and with ``studentize=False``, the
        fixed standard errors of the full sample, with a :class:`cdplot.CdplotWarning`:
        their intervals may cover less than ``confidence``, the more so the more pairs
        and the fewer datasets (see Notes).
    runs : RunScores, RunBootstrap, path, data frame or mapping, optional
        For ``method="runs"``: the scores of every run of the result's algorithms on its
        datasets (anything :func:`cdplot.io.read_run_scores` reads), or a shared
        :func:`cdplot.run_bootstrap` of them (the replicates of the aggregates and
        profiles computed from it).

    Returns
    -------
    RankIntervals

    Raises
    ------
    CdplotInputError
        For a Bayesian test with ``method="test"`` (its decisions carry no family-wise
        error control: use ``method="bootstrap"``), a confidence
        that does not match ``result.alpha``, a bootstrap on a table with missing
        results, or ``n_boot`` outside 100 to ``MAX_N_BOOT``.

    Warns
    -----
    CdplotWarning
        When the bootstrap uses fixed standard errors (``studentize=False``, or a default
        bootstrap-t above ``STUDENTIZE_MAX_WORK``).

    Notes
    -----
    *Test method.* The true rank of algorithm ``i`` is ``1 + #{j truly better}`` (a tie
    holds every rank it spans). If no decision is wrong - no true tie declared
    significant and no difference declared in the wrong direction - then every ``j``
    declared better is truly better and every ``j`` declared worse truly worse, so each
    interval contains the true rank. Hence the coverage of all intervals at once is at
    least ``1 - alpha`` whenever the correction controls the family-wise error rate of
    these (directional) errors at ``alpha``: Holm, Shaffer, Bergmann-Hommel, Bonferroni
    and Nemenyi do in the strong sense; the direction of a pair is that of the diagram's
    axis (average ranks, or mean scores for Tukey's HSD). Without FWER control (e.g. no
    correction) the statement does not hold.

    *Test method against a control.* Only the k - 1 pairs with the control are tested, so
    the intervals say what those decisions say: the control's rank lies between ``1 +
    #{significantly better than the control}`` and ``k - #{significantly worse}``; an
    algorithm significantly worse than the control has at least the control above it
    (ranks 2 to k), one significantly better at least the control below it (1 to k - 1),
    and any other algorithm may hold every rank. The same argument gives the coverage
    of all intervals at once, at least ``1 - alpha`` whenever the control correction
    (Holm, Bonferroni-Dunn, ...) controls the family-wise error rate of these k - 1
    directional decisions. The intervals are wide by construction: for a ranking of
    every algorithm compare all pairs, or use ``method="bootstrap"``.

    *Bootstrap method* (Mogstad, Romano, Shaikh & Wilhelm 2024, single-step version).
    With ``theta_j`` the expected rank (or score) of algorithm ``j`` and
    ``D_jl = theta_j - theta_l``, the paired bootstrap over datasets gives the
    ``confidence`` quantile ``c`` of ``max |D*_jl - D_jl| / se_jl`` (over all pairs; over
    the pairs of ``j`` for a marginal interval), ``se_jl`` the bootstrap standard error
    (population standard deviation of the per-dataset differences over ``sqrt(N)``).
    Then ``l`` is confidently better than ``j`` when ``D_jl - c se_jl > 0`` and
    ``low_j = 1 + #{l confidently better}``, ``high_j = k - #{l confidently worse}``.
    By default (``studentize``) the bootstrap statistic divides by each sample's own
    standard error ``se*_jl`` (the bootstrap-t, Hall 1992), which captures the heavier tails of
    a t statistic with few datasets, and in the far tail that a max over many pairs reads:
    in seeded simulations under equal means (normal scores) the simultaneous coverage at
    a nominal 0.95 was 0.97 at k = 5, N = 20 with it and 0.86 without it; with 10,000
    draws, 0.95 and 0.86 at k = 10, N = 30 (1,000 tables; Monte Carlo standard errors
    0.007 and 0.011), and 0.97 and 0.60 at k = 60, N = 30 (1,770 pairs; 200 tables;
    0.012 and 0.035). The coverage of both
    is asymptotic in N; with few datasets ``method="test"`` is exact whenever its tests
    are. Mogstad et al. (and their ``csranks`` package) also offer a stepdown
    refinement; this is the single-step construction.

    References
    ----------
    Mogstad, M., Romano, J. P., Shaikh, A. M. & Wilhelm, D. (2024). Inference for ranks
    with applications to mobility across neighbourhoods and academic achievement across
    countries. *Review of Economic Studies* 91(1), 476-518.

    Examples
    --------
    >>> import cdplot
    >>> res = cdplot.compare(cdplot.datasets.load("demsar2006"))
    >>> ri = cdplot.rank_intervals(res, random_state=0, n_boot=2000)
    >>> ri.to_frame()[["low", "high"]].values.tolist()
    [[1, 4], [1, 4], [1, 4], [1, 4]]
    """
    method = check_in_list(METHODS, method=method)
    on = check_in_list(TARGETS, on=on)
    backend = check_in_list(BACKENDS, backend="numpy" if backend is None else backend)
    if confidence is None:
        confidence = 1.0 - result.alpha if method == "test" else DEFAULT_CONFIDENCE
    confidence = check_confidence(confidence)
    n_boot = _check_n_boot(n_boot)
    rng = np.random.default_rng(random_state)
    if method == "runs":
        return _runs_intervals(result, runs, confidence, simultaneous, n_boot, rng)
    order, average = _display_order(result)
    if method == "bootstrap" and _is_benchmark(result):
        return _benchmark_bootstrap(
            result, order, average, confidence, simultaneous, n_boot, rng, studentize
        )
    values = _loss_matrix(result, order, on)
    critical = None
    if method == "hierarchical":  # items within tasks (cdplot.stats._items)
        from ._items import hierarchical_bounds

        if on != "ranks":
            raise CdplotInputError(
                "rank_intervals(method='hierarchical') resamples the ranks; drop on='scores'."
            )
        low, high, critical, p_best = hierarchical_bounds(
            result, order, confidence, simultaneous, n_boot, rng
        )
    elif method == "test":
        low, high = _test_intervals(result, order, confidence, simultaneous)
    else:
        low, high, critical = _bootstrap_intervals(
            values, confidence, simultaneous, n_boot, rng, backend, studentize
        )
    if method != "hierarchical":
        p_best = probability_best(values, n_boot, rng, backend=backend)
    estimate = average if on == "ranks" else np.nanmean(_scores(result, order), axis=0)
    out = RankIntervals(
        algorithms=tuple(order),
        average_rank=average,
        estimate=estimate,
        low=low,
        high=high,
        p_best=p_best,
        method=method,
        confidence=confidence,
        simultaneous=bool(simultaneous),
        on=on,
        n_boot=n_boot,
        critical_value=critical,
        labels=dict(result.labels),
    )
    return out


def shown_intervals(result: Any, intervals: Any) -> RankIntervals | None:
    """``intervals`` checked as the rank intervals of ``result`` that a report shows.

    None (nothing to show) passes; else a :class:`RankIntervals` over exactly the
    algorithms of ``result`` (from ``cdplot.rank_intervals(result, ...)``).

    Raises
    ------
    CdplotInputError
        For anything else, naming what was given and how to make the intervals.
    """
    if intervals is None:
        return None
    if not isinstance(intervals, RankIntervals):
        raise CdplotInputError(
            f"intervals= takes the rank intervals of the result, got "
            f"{type(intervals).__name__}; e.g. intervals=cdplot.rank_intervals(result)."
        )
    if sorted(intervals.algorithms) != sorted(str(a) for a in result.algorithms):
        raise CdplotInputError(
            "intervals= holds the rank intervals of other algorithms than the result's; "
            "compute them from this result: intervals=cdplot.rank_intervals(result)."
        )
    return intervals


# --------------------------------------------------------------------------- checks


def _is_benchmark(result: Any) -> bool:
    from ._benchmark_result import BenchmarkComparison

    return isinstance(result, BenchmarkComparison)


def _benchmark_bootstrap(
    result: Any,
    order: list[str],
    average: np.ndarray,
    confidence: float,
    simultaneous: bool,
    n_boot: int,
    rng: np.random.Generator,
    studentize: bool | None,
) -> RankIntervals:
    """The bootstrap over one benchmark's items (over its clusters when it has them) of
    :func:`cdplot.stats.benchmark_rank_intervals`, in the display order of ``result``."""
    from ._benchmark_ranks import benchmark_rank_intervals

    if not simultaneous:
        raise CdplotInputError(
            "rank_intervals(method='bootstrap') of one benchmark gives simultaneous intervals "
            "only (all models at once); drop simultaneous=False."
        )
    found = benchmark_rank_intervals(
        result.benchmark_items,
        confidence=confidence,
        n_boot=n_boot,
        seed=rng,
        higher_is_better=result.higher_is_better,
        studentize=studentize,
    )
    at = [found.models.index(a) for a in order]
    return RankIntervals(
        algorithms=tuple(order),
        average_rank=average,
        estimate=np.asarray(found.mean, dtype=float)[at],
        low=np.asarray(found.low, dtype=int)[at],
        high=np.asarray(found.high, dtype=int)[at],
        p_best=np.asarray(found.p_best, dtype=float)[at],
        method="bootstrap",
        confidence=confidence,
        simultaneous=True,
        on="scores",
        n_boot=n_boot,
        critical_value=np.array([found.critical_value]),
        labels=dict(result.labels),
    )


def _runs_intervals(
    result: Any, runs: Any, confidence: float, simultaneous: bool, n_boot: int, rng: Any
) -> RankIntervals:
    """``method="runs"``: the stratified bootstrap over the runs of each task."""
    import dataclasses

    from ..io._run_scores import read_run_scores
    from ._run_aggregates import run_rank_intervals

    if runs is None:
        raise CdplotInputError(
            "rank_intervals(method='runs') resamples the runs of each task: pass them, "
            "e.g. runs='runs.csv' (one row per task, algorithm and run)."
        )
    if not simultaneous:
        raise CdplotInputError(
            "rank_intervals(method='runs') gives simultaneous intervals only; drop "
            "simultaneous=False."
        )
    from ._run_bootstrap import RunBootstrap

    shared = runs if isinstance(runs, RunBootstrap) else None  # one bootstrap for all
    given = shared.runs if shared is not None else runs
    scores = read_run_scores(given, higher_is_better=result.higher_is_better)
    if scores.higher_is_better != bool(result.higher_is_better):
        raise CdplotInputError(
            "runs= and the result disagree on the direction of the scores; read the runs "
            "with the result's higher_is_better."
        )
    if sorted(scores.algorithms) != sorted(str(a) for a in result.algorithms):
        raise CdplotInputError(
            "runs= holds other algorithms than the result's; pass the runs the result was "
            "computed from."
        )
    found = run_rank_intervals(
        scores, confidence=confidence, n_boot=n_boot, random_state=rng, bootstrap=shared
    )
    return dataclasses.replace(found, labels=dict(result.labels))


def _check_n_boot(n_boot: Any) -> int:
    if isinstance(n_boot, bool) or not isinstance(n_boot, (int, np.integer)) or n_boot < 100:
        raise CdplotInputError(
            f"n_boot must be an integer >= 100, got {n_boot!r}; e.g. n_boot=10000."
        )
    if n_boot > MAX_N_BOOT:
        raise CdplotInputError(
            f"n_boot={int(n_boot)} exceeds the bound of {MAX_N_BOOT:,} bootstrap samples: "
            "time and memory grow with n_boot, and a 95 % critical value needs far fewer "
            f"draws; pass n_boot <= {MAX_N_BOOT:,} (the default 10,000 is the usual count)."
        )
    return int(n_boot)


# --------------------------------------------------------------------------- data


def _display_order(res: ComparisonResult) -> tuple[list[str], np.ndarray]:
    """Algorithms best average rank first (ties by name), and their average ranks."""
    ranking = res._ranking  # no pandas: the summary calls this
    return [str(a) for a in ranking.rank_order], np.asarray(ranking.average_ranks, dtype=float)


def _scores(res: ComparisonResult, order: list[str]) -> np.ndarray:
    return np.asarray(res.scores[order].to_numpy(), dtype=float)


def _loss_matrix(res: ComparisonResult, order: list[str], on: str) -> np.ndarray:
    """N x k values in display order, oriented so that lower is better."""
    if on == "ranks":
        values = np.asarray(res.ranks[order].to_numpy(), dtype=float)
    else:
        values = _scores(res, order)
        if res.higher_is_better:
            values = -values
    keep = ~np.all(np.isnan(values), axis=1)  # ignored datasets carry no information
    return values[keep]


# --------------------------------------------------------------------------- test method


def _test_intervals(
    res: ComparisonResult, order: list[str], confidence: float, simultaneous: bool
) -> tuple[np.ndarray, np.ndarray]:
    """``low = 1 + #{significantly better}``, ``high = k - #{significantly worse}``."""
    if not res._pairwise.controls_fwer:  # a Bayesian test's decisions
        raise CdplotInputError(
            f"rank_intervals(method='test') needs tests with family-wise error control; "
            f"the decisions of the Bayesian {res.test!r} test carry no such guarantee. "
            "Use method='bootstrap' (command line: --rank-intervals bootstrap)."
        )
    if not simultaneous:
        raise CdplotInputError(
            "rank_intervals(method='test') gives simultaneous intervals only (from the "
            "corrected decisions); pass simultaneous=True or use method='bootstrap'."
        )
    if abs(confidence - (1.0 - res.alpha)) > 1e-12:
        raise CdplotInputError(
            f"rank_intervals(method='test') has the confidence 1 - alpha = "
            f"{1.0 - res.alpha:g} of the comparison, not {confidence:g}; pass "
            f"confidence={1.0 - res.alpha:g}, or compare with "
            f"{spell('alpha', round(1.0 - confidence, 12))}."
        )
    if res.control is not None:
        return _control_bounds(res, order)
    return _bounds(res, order)


def decision_bounds(res: ComparisonResult) -> tuple[list[str], np.ndarray, np.ndarray] | None:
    """``(order, low, high)`` of ``method="test"`` when they carry the simultaneous coverage
    statement (all pairs, no Bayesian test, a correction with FWER control), else None."""
    if res.control is not None or not res._pairwise.controls_fwer or res.correction == "none":
        return None
    order, _ = _display_order(res)
    low, high = _bounds(res, order)
    return order, low, high


def _control_bounds(res: ComparisonResult, order: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """The rank positions the tests against the control allow, in ``order`` (best first).

    The control's rank lies between ``1 + #{significantly better than the control}`` and
    ``k - #{significantly worse}``; an algorithm significantly worse than the control
    has it above, so ranks 2 to k, one significantly better has it below, 1 to k - 1;
    any other may hold every rank. Better and worse are read along ``order``.
    """
    flags = np.asarray(res._pairwise.significant, dtype=bool)
    control = str(res.control)
    others = [str(a) for a in res.algorithms if str(a) != control]
    differs = dict(zip(others, flags.tolist(), strict=True))
    c = order.index(control)
    better = [i < c and differs.get(a, False) for i, a in enumerate(order)]
    worse = [i > c and differs.get(a, False) for i, a in enumerate(order)]
    k = len(order)
    low = [1 + (sum(better) if i == c else 0) + (1 if worse[i] else 0) for i in range(k)]
    high = [k - (sum(worse) if i == c else 0) - (1 if better[i] else 0) for i in range(k)]
    return np.asarray(low, dtype=int), np.asarray(high, dtype=int)


def _bounds(res: ComparisonResult, order: list[str]) -> tuple[np.ndarray, np.ndarray]:
    axis = _axis_order(res, order)
    where = {str(a): i for i, a in enumerate(res.algorithms)}
    rows = [where[a] for a in axis]
    significant = np.asarray(res._pairwise.significant, dtype=bool)[np.ix_(rows, rows)]
    k = len(axis)
    better = np.triu(significant, 1).sum(axis=0)  # earlier on the axis = better
    worse = np.tril(significant, -1).sum(axis=0)
    low_axis, high_axis = 1 + better, k - worse
    position = {a: i for i, a in enumerate(axis)}
    index = [position[a] for a in order]
    return low_axis[index].astype(int), high_axis[index].astype(int)


def _axis_order(res: ComparisonResult, order: list[str]) -> list[str]:
    """Best-first order of the diagram's axis: mean scores for Tukey's HSD, else ranks."""
    means = res._parametric.mean_order
    if res._pairwise.critical_difference_units == "score" and means is not None:
        return [str(a) for a in means]
    return order


# --------------------------------------------------------------------------- weights


def multinomial_weights(rng: np.random.Generator, n_draws: int, n: int) -> np.ndarray:
    """Paired-bootstrap weights: multinomial counts of ``n`` datasets drawn with
    replacement, divided by ``n`` (an ``(n_draws, n)`` array)."""
    draws = rng.integers(0, n, size=(n_draws, n))
    draws += (np.arange(n_draws) * n)[:, None]
    counts = np.bincount(draws.ravel(), minlength=n_draws * n).reshape(n_draws, n)
    return counts / n


def bayesian_weights(rng: np.random.Generator, n_draws: int, n: int) -> np.ndarray:
    """Bayesian-bootstrap weights: Dirichlet(1, ..., 1) over ``n`` datasets."""
    weights = rng.standard_exponential(size=(n_draws, n))
    weights /= weights.sum(axis=1, keepdims=True)
    return weights


def reweighted_means(
    values: np.ndarray,
    generator: Callable[[np.random.Generator, int, int], np.ndarray],
    n_draws: int,
    rng: np.random.Generator,
) -> Iterator[np.ndarray]:
    """Bootstrap means of the columns of ``values``, in chunks of bounded memory.

    Each chunk is ``weights @ values`` for a chunk of weight rows from ``generator``
    (``generator(rng, rows, n_datasets)``); with missing values (NaN) the weighted mean
    of each column is taken over its present rows. A hierarchical bootstrap (tasks,
    then items inside tasks) is another generator over the same rows.
    """
    n = values.shape[0]
    present = ~np.isnan(values)
    complete = bool(present.all())
    filled = np.where(present, values, 0.0)
    for weights in weight_chunks(generator, n_draws, n, values.shape[1], rng):
        means = weights @ filled
        if not complete:
            means /= weights @ present
        yield means


def weight_chunks(
    generator: Callable[[np.random.Generator, int, int], np.ndarray],
    n_draws: int,
    n: int,
    width: int,
    rng: np.random.Generator,
) -> Iterator[np.ndarray]:
    """``n_draws`` rows of weights over ``n`` datasets from ``generator``, in chunks sized
    so that a chunk of weights, or of its products with ``width`` columns, stays bounded."""
    chunk = max(1, min(n_draws, WEIGHT_CHUNK_ELEMENTS // max(n, width)))
    for start in range(0, n_draws, chunk):
        yield generator(rng, min(chunk, n_draws - start), n)


# --------------------------------------------------------------------------- bootstrap


def _pair_standard_errors(values: np.ndarray) -> np.ndarray:
    """Bootstrap standard error of each difference of column means (k x k): the population
    standard deviation of the per-dataset differences over ``sqrt(N)``, from the differences
    themselves (no cancellation between two large variances), 0 for a difference constant
    over the datasets; computed tile by tile (:func:`_tiles`), on :data:`THREADS` threads
    (each tile on its own: the same values whatever the threads)."""
    n, k = values.shape
    se = np.zeros((k, k))

    def fill(tile_slices: tuple[slice, slice]) -> None:
        rows, cols = tile_slices
        tile = _tile_pairs(values, rows, cols)
        first, second = rows.start + tile["first"], cols.start + tile["second"]
        pair_se = np.where(tile["constant"], 0.0, tile["se"])
        se[first, second] = pair_se
        se[second, first] = pair_se

    tiles = _tiles(n, k)
    threads = max(1, min(THREADS, os.cpu_count() or 1, len(tiles)))
    if threads == 1:
        for tile_slices in tiles:
            fill(tile_slices)
    else:
        with ThreadPoolExecutor(threads) as pool:
            list(pool.map(fill, tiles))
    return se


def _row_max_t(centred: np.ndarray, inv_se: np.ndarray) -> np.ndarray:
    """``max_l |c_j - c_l| * inv_se[j, l]`` for each bootstrap row and algorithm ``j``.

    Cache-sized blocks of rows on up to :data:`THREADS` threads (numpy releases the GIL);
    each block is independent, so the result does not depend on the threads.
    """
    b, k = centred.shape
    out = np.empty((b, k), dtype=np.float32)
    step = max(1, PAIR_CHUNK_ELEMENTS // (k * k))
    c32 = centred.astype(np.float32)
    threads = max(1, min(THREADS, os.cpu_count() or 1, -(-b // step)))
    share = -(-b // threads)

    widest = inv_se.max(axis=1).astype(float)
    # the extremes in full, every other pair bounded (a bound needs finite weights)
    extremes = k >= EXTREME_MIN_K and bool(np.isfinite(widest).all())
    if extremes:
        m = max(4, int(k * EXTREME_SHARE))
        step = max(1, PAIR_CHUNK_ELEMENTS // (2 * m * k))

    def work(first: int) -> None:
        last = min(b, first + share)
        if extremes:
            for start in range(first, last, step):
                stop = min(last, start + step)
                out[start:stop] = _extreme_max_t(c32[start:stop], inv_se, widest, m)
            return
        buffer = np.empty((min(step, last - first), k, k), dtype=np.float32)
        for start in range(first, last, step):
            stop = min(last, start + step)
            buf = buffer[: stop - start]
            np.subtract(c32[start:stop, :, None], c32[start:stop, None, :], out=buf)
            buf *= inv_se
            np.abs(buf, out=buf)
            buf.max(axis=2, out=out[start:stop])

    if threads == 1:
        work(0)
    else:
        with ThreadPoolExecutor(threads) as pool:
            list(pool.map(work, range(0, b, share)))
    return out


def _extreme_max_t(c32: np.ndarray, inv_se: np.ndarray, widest: np.ndarray, m: int) -> np.ndarray:
    """:func:`_row_max_t` of a block of draws (float32 ``c32``, ``b x k``), exact, reading
    in full only the pairs of each draw's ``m`` lowest and ``m`` highest algorithms.

    Every value is ``|(c_j - c_l) * inv_se[j, l]|`` in float32, as in the full step, so a
    max over some of them is the max over all once the others are known to be smaller:
    for ``j`` among the extremes its whole row is read; for another ``j`` the row's max
    over the extremes (``inv_se`` is symmetric) is compared with a bound on its pairs with
    the middle algorithms, ``max(c_j - c_(m), c_(k-m-1) - c_j) * max_l inv_se[j, l]`` (the
    middle spans ``c_(m)`` to ``c_(k-m-1)``), widened by EXTREME_SLACK for the rounding;
    the rows the bound does not settle are read in full.
    """
    b, k = c32.shape
    rows = np.arange(b)[:, None]
    order = np.argsort(c32, axis=1)
    ends = np.concatenate([order[:, :m], order[:, k - m :]], axis=1)  # b x 2m
    vals = c32[rows, ends][:, :, None] - c32[:, None, :]  # b x 2m x k
    vals *= inv_se[ends]
    np.abs(vals, out=vals)
    out = vals.max(axis=1)  # each j's max over its pairs with the extremes
    out[rows, ends] = vals.max(axis=2)  # the extremes' own rows, in full
    c = c32.astype(float)
    low = c[rows[:, 0], order[:, m]][:, None]
    high = c[rows[:, 0], order[:, k - m - 1]][:, None]
    bound = np.maximum(c - low, high - c) * widest * (1.0 + EXTREME_SLACK)
    open_ = bound > out
    open_[rows, ends] = False
    draw, j = np.nonzero(open_)
    step = max(1, PAIR_CHUNK_ELEMENTS // k)
    for start in range(0, draw.size, step):
        d, a = draw[start : start + step], j[start : start + step]
        full = c32[d, a][:, None] - c32[d]
        full *= inv_se[a]
        np.abs(full, out=full)
        out[d, a] = full.max(axis=1)
    return out


def _max_t_statistics(
    values: np.ndarray, n_boot: int, rng: np.random.Generator, backend: str
) -> tuple[np.ndarray, np.ndarray]:
    """Per-bootstrap, per-algorithm max-t (``n_boot x k``) and the standard errors."""
    se = _pair_standard_errors(values)
    with np.errstate(divide="ignore"):
        inv_se = np.where(se > 0, 1.0 / se, 0.0).astype(np.float32)
    theta = values.mean(axis=0)
    chunks = reweighted_means(values, multinomial_weights, n_boot, rng)
    if backend == "dask":
        stats = _on_dask(_row_max_t, [(c - theta, inv_se) for c in chunks])
    else:
        stats = [_row_max_t(c - theta, inv_se) for c in chunks]
    return np.concatenate(stats), se


def _tiles(n: int, k: int, draws: int = STUDENT_ROWS) -> list[tuple[slice, slice]]:
    """Tiles ``(J, L)`` of the pairs ``j < l`` (``J`` before or equal to ``L``), square and
    sized so that one tile's per-dataset differences (``N x pairs``) and one block of
    ``draws`` bootstrap draws of its pairs stay within :data:`STUDENT_TILE_ELEMENTS` and
    :data:`STUDENT_BLOCK_ELEMENTS`."""
    most = min(STUDENT_TILE_ELEMENTS // n, STUDENT_BLOCK_ELEMENTS // max(1, draws))
    side = max(1, min(k, math.isqrt(max(1, most))))
    blocks = [slice(a, min(k, a + side)) for a in range(0, k, side)]
    return [(rows, cols) for i, rows in enumerate(blocks) for cols in blocks[i:]]


def _tile_pairs(values: np.ndarray, rows: slice, cols: slice) -> dict[str, np.ndarray]:
    """The pairs ``(j, l)`` of one tile with ``j < l``: their squared centred per-dataset
    differences (``N x pairs``), where they sit, which are constant over the datasets, and
    the full sample's standard error of each."""
    n = values.shape[0]
    j = np.arange(rows.start, rows.stop)[:, None]
    lo = np.arange(cols.start, cols.stop)[None, :]
    first, second = np.nonzero(j < lo)  # positions inside the tile
    squares = values[:, rows.start + first]
    squares -= values[:, cols.start + second]  # the differences, then in place:
    # constant up to the rounding of the subtraction (x + 0.1 - x is not always 0.1)
    size = np.abs(values).max(axis=0)
    rounding = CONSTANT_SPREAD * (size[rows.start + first] + size[cols.start + second])
    constant = np.ptp(squares, axis=0) <= rounding
    squares -= squares.mean(axis=0)  # centred: the variance of a difference is shift-free
    np.square(squares, out=squares)
    return {
        "first": first,
        "second": second,
        "squares": squares,
        "constant": constant,
        "se": np.sqrt(squares.mean(axis=0) / n),
    }


def _studentized_block(
    weights: np.ndarray,
    values: np.ndarray,
    tiles: list[tuple[slice, slice, dict[str, np.ndarray] | None]],
    simultaneous: bool,
) -> np.ndarray:
    """Bootstrap-t for one chunk of draws: per draw and algorithm ``j``, the max over its
    pairs of ``|D*_jl - D_jl| / se*_jl`` (``b x k``; ``b x 1``, the max over all pairs,
    when ``simultaneous``).

    ``se*_jl`` is the draw's own standard error, ``sqrt(w . e^2 - gap^2) / sqrt(N)`` with
    ``e`` the centred per-dataset differences and ``gap = D*_jl - D_jl`` (so each tile
    costs one matrix product); a draw whose differences do not spread is studentized by
    the full sample's standard error, and a pair constant over the datasets counts 0.
    Each tile comes with its :func:`_tile_pairs` (made here when None).
    """
    n = values.shape[0]
    b, k = weights.shape[0], values.shape[1]
    shifts = weights @ (values - values.mean(axis=0))  # D*_j - D_j for each algorithm
    out = np.zeros((b, 1 if simultaneous else k))
    for rows, cols, made in tiles:
        tile = _tile_pairs(values, rows, cols) if made is None else made
        first, second = tile["first"], tile["second"]
        if first.size == 0:
            continue
        t = np.take(shifts, rows.start + first, axis=1)
        t -= np.take(shifts, cols.start + second, axis=1)  # the gap D*_jl - D_jl
        moment = weights @ tile["squares"]
        sd = moment - np.square(t)
        # no spread in this draw: what is left of w . e^2 - gap^2 is rounding
        flat = sd <= ROUNDING * moment
        sd *= 1.0 / n
        np.sqrt(sd, out=sd, where=~flat)
        np.abs(t, out=t)
        np.divide(t, sd, out=t, where=~flat)
        if flat.any():  # (0 / 0 for a constant pair, set to 0 below)
            draw, pair = np.nonzero(flat)
            with np.errstate(divide="ignore", invalid="ignore"):
                t[draw, pair] /= tile["se"][pair]
        t[:, tile["constant"]] = 0.0
        if simultaneous:
            np.maximum(out[:, 0], t.max(axis=1), out=out[:, 0])
            continue
        shape = (b, rows.stop - rows.start, cols.stop - cols.start)
        if rows.start < cols.start:  # every pair of the tile, in row-major order
            full = t.reshape(shape)
        else:  # a diagonal tile: its pairs j < l
            full = np.zeros(shape)
            full[:, first, second] = t
        np.maximum(out[:, rows], full.max(axis=2), out=out[:, rows])
        np.maximum(out[:, cols], full.max(axis=1), out=out[:, cols])
    return out


def _tile_groups(n: int, tiles: list[tuple[slice, slice]]) -> list[list[tuple[slice, slice]]]:
    """The tiles in order, in groups whose squared differences (``N x pairs`` float64)
    stay within :data:`STUDENT_CACHE_BYTES` (a tile larger than that alone)."""
    groups: list[list[tuple[slice, slice]]] = [[]]
    size = 0
    for rows, cols in tiles:
        nbytes = 8 * n * (rows.stop - rows.start) * (cols.stop - cols.start)
        if groups[-1] and size + nbytes > STUDENT_CACHE_BYTES:
            groups.append([])
            size = 0
        groups[-1].append((rows, cols))
        size += nbytes
    return groups


def _studentized_max_t(
    values: np.ndarray,
    n_boot: int,
    rng: np.random.Generator,
    backend: str,
    simultaneous: bool = False,
) -> np.ndarray:
    """Bootstrap-t: per-bootstrap, per-algorithm max over pairs of
    ``|D*_jl - D_jl| / se*_jl``, each bootstrap sample's differences divided by their own
    standard errors (``n_boot x k``; ``n_boot x 1``, the max over all pairs, when
    ``simultaneous``).

    Work ``n_boot * N * k(k-1)/2``, in blocks of bounded memory: chunks of draws times
    tiles of pairs (:func:`_tiles`); the chunks are independent and run in waves on
    :data:`THREADS` threads (or as Dask tasks), the draws taken in order from ``rng``.
    The tiles' per-dataset differences are made once for all the draws, a group of tiles
    at a time (:func:`_tile_groups`); for each further group the draws are drawn again from
    the same state of ``rng``, so each block sees the same draws and tiles (and ``rng`` ends
    where one pass would leave it). A Dask task makes its own tiles.
    """
    n, k = values.shape
    rows = max(1, min(STUDENT_ROWS, WEIGHT_CHUNK_ELEMENTS // n))
    tiles = _tiles(n, k, rows)
    dask = backend == "dask"
    groups = [tiles] if dask else _tile_groups(n, tiles)
    threads = max(1, min(THREADS, os.cpu_count() or 1))
    wave = 4 * THREADS if dask else threads
    out = np.zeros((n_boot, 1 if simultaneous else k))
    start_state = rng.bit_generator.state
    with ThreadPoolExecutor(threads) as pool, _one_blas_thread():
        for number, group in enumerate(groups):
            if number:  # the same draws again for the next group of tiles
                rng.bit_generator.state = start_state
            if dask:
                made: list[Any] = [(r, c, None) for r, c in group]
            else:
                made = list(pool.map(lambda rc: (*rc, _tile_pairs(values, *rc)), group))

            def block(weights: np.ndarray, made: list[Any] = made) -> np.ndarray:
                return _studentized_block(weights, values, made, simultaneous)

            for start in range(0, n_boot, rows * wave):
                stop = min(n_boot, start + rows * wave)
                chunks = [
                    multinomial_weights(rng, min(rows, stop - first), n)
                    for first in range(start, stop, rows)
                ]
                found = _on_dask(block, [(w,) for w in chunks]) if dask else pool.map(block, chunks)
                for first, maxima in zip(range(start, stop, rows), found, strict=True):
                    part = out[first : first + len(maxima)]
                    np.maximum(part, maxima, out=part)
            del made
    return out


def _one_blas_thread() -> contextlib.AbstractContextManager[Any]:
    """One BLAS thread per block while the blocks run on threads of their own: the thin
    products of the bootstrap-t (inner size N) gain nothing from BLAS threads, and two
    levels of threads oversubscribe the cores. Uses threadpoolctl where it is installed."""
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:  # pragma: no cover - an optional speed-up
        return contextlib.nullcontext()
    return threadpool_limits(limits=1, user_api="blas")


def _studentize(values: np.ndarray, n_boot: int, studentize: bool | None) -> bool:
    """Whether to run the bootstrap-t: as asked; by default whenever its work stays within
    :data:`STUDENTIZE_MAX_WORK`. Fixed standard errors warn that they may under-cover."""
    n, k = values.shape
    work = n_boot * (k * (k - 1) // 2) * (n + STUDENT_PAIR_COST)
    if studentize is None:
        studentize = work <= STUDENTIZE_MAX_WORK
        if not studentize:
            _warn_fixed_se(
                f"the bootstrap-t would take n_boot * k(k-1)/2 * (N + {STUDENT_PAIR_COST}) = "
                f"{work:.3g} cells, above the {STUDENTIZE_MAX_WORK:.3g} run by default, so "
                "fixed standard errors were used",
                "pass studentize=True for the bootstrap-t (0.05 to 0.15 s of CPU per 1e9 "
                "cells), or a smaller n_boot",
            )
        return bool(studentize)
    if not studentize:
        _warn_fixed_se(
            "studentize=False uses fixed standard errors",
            "leave studentize out (the bootstrap-t) unless the approximation is intended",
        )
    return bool(studentize)


def _warn_fixed_se(why: str, fix: str) -> None:
    warnings.warn(
        f"rank_intervals(method='bootstrap'): {why}; such intervals may cover less than their "
        "stated confidence, the more so the more pairs and the fewer datasets (about 0.6 instead "
        f"of 0.95 with 60 algorithms on 30 datasets under equal means): {fix}.",
        CdplotWarning,
        stacklevel=6,  # the caller of rank_intervals (through its keyword wrapper)
    )


def _on_dask(func: Callable[..., np.ndarray], calls: list[tuple[Any, ...]]) -> list[np.ndarray]:
    """``func(*args)`` for each call, as Dask tasks (on the current client, if any)."""
    try:
        import dask
    except ImportError:  # pragma: no cover - dask is in the test extra
        raise CdplotInputError(
            'backend="dask" needs dask: pip install "cdplot[distributed]"; or pass backend=None.'
        ) from None
    return list(dask.compute(*[dask.delayed(func)(*args) for args in calls]))


def _bootstrap_intervals(
    values: np.ndarray,
    confidence: float,
    simultaneous: bool,
    n_boot: int,
    rng: np.random.Generator,
    backend: str,
    studentize: bool | None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    if np.isnan(values).any():
        raise CdplotInputError(
            "rank_intervals(method='bootstrap') needs a complete table, but this one has "
            "missing results; rerun cdplot.compare(..., missing='drop') (drop the "
            "datasets) or missing='drop-algorithms', or use method='test'."
        )
    if values.shape[0] < 2:
        raise CdplotInputError(
            "rank_intervals(method='bootstrap') needs at least 2 datasets; use method='test'."
        )
    if _studentize(values, n_boot, studentize):
        row_max = _studentized_max_t(values, n_boot, rng, backend, simultaneous)
        se = _pair_standard_errors(values)
    else:
        row_max, se = _max_t_statistics(values, n_boot, rng, backend)
    if simultaneous:
        critical = np.atleast_1d(
            np.quantile(row_max.max(axis=1), confidence, method="inverted_cdf")
        ).astype(float)
        c = np.full(values.shape[1], critical[0])
    else:
        critical = np.quantile(row_max, confidence, axis=0, method="inverted_cdf").astype(float)
        c = critical
    theta = values.mean(axis=0)
    diff = theta[:, None] - theta[None, :]  # D_jl > 0: l is better than j
    # a pair whose difference is the same on every dataset (se 0) is known exactly: no margin
    # (also when a studentized critical value is infinite: inf * 0 is not a number)
    with np.errstate(invalid="ignore"):
        margin = np.where(se > 0, c[:, None] * se, 0.0)
    better = ((diff - margin) > 0).sum(axis=1)
    worse = ((diff + margin) < 0).sum(axis=1)
    k = values.shape[1]
    return (1 + better).astype(int), (k - worse).astype(int), critical


# --------------------------------------------------------------------------- the best


def probability_best(
    values: np.ndarray,
    n_draws: int,
    rng: np.random.Generator,
    *,
    backend: str = "numpy",
) -> np.ndarray:
    """P(each column has the lowest mean) under a Bayesian bootstrap over the rows.

    Dirichlet(1, ..., 1) weights over the rows; an exact tie for the lowest mean splits
    its draw evenly. Sums to 1.
    """
    k = values.shape[1]
    total = np.zeros(k)
    for means in reweighted_means(values, bayesian_weights, n_draws, rng):
        best = means.min(axis=1, keepdims=True)
        winners = np.isclose(means, best, rtol=1e-12, atol=1e-12)
        total += (winners / winners.sum(axis=1, keepdims=True)).sum(axis=0)
    return total / n_draws


# --------------------------------------------------------------------------- the rank plot


@dataclass(frozen=True)
class RankPlotStatistics:
    """Every statistic the rank plot (:func:`cdplot.rank_plot`) shows of a comparison.

    Made by :meth:`of`; the figure draws these numbers and computes none. One row per
    algorithm, in the order of the rows (by observed position, ties by name).

    Attributes
    ----------
    algorithms : tuple of str
        The rows, top down.
    average_rank : numpy.ndarray
        Average rank over the datasets.
    low, high : numpy.ndarray
        The interval of rank positions each may hold (1 = best).
    position : numpy.ndarray
        The observed rank position (1 = best) on the estimate the intervals rank.
    in_best_set : numpy.ndarray of bool
        Whether the interval holds rank 1.
    p_best : numpy.ndarray or None
        Probability of ranking first (None when not asked for or not given).
    by_score : bool
        Positions by mean score (Tukey's HSD; intervals ``on="scores"``), else by
        average rank.
    source : {"decisions", "given"}
        Intervals from the result's own decisions (all pairs, or the pairs with the
        control), or those of an intervals object given (or computed for P(best)).
    method, confidence, simultaneous
        How the given intervals were made (None where the object does not say).
    bayesian : bool
        The decisions are a Bayesian test's (decided pairs, not significant ones).
    mean_score, score_sd : numpy.ndarray
        Mean score and its standard deviation (``ddof=1``; NaN with one dataset) over the
        datasets, as the scores were given.
    tiers : tuple of int
        The numbered tiers of :func:`cdplot.stats._letters.tiers` in the rows' order.
    """

    algorithms: tuple[str, ...]
    average_rank: np.ndarray = field(repr=False)
    low: np.ndarray = field(repr=False)
    high: np.ndarray = field(repr=False)
    position: np.ndarray = field(repr=False)
    in_best_set: np.ndarray = field(repr=False)
    p_best: np.ndarray | None = field(repr=False)
    by_score: bool
    source: str
    method: str | None
    confidence: float | None
    simultaneous: bool
    bayesian: bool
    mean_score: np.ndarray = field(repr=False)
    score_sd: np.ndarray = field(repr=False)
    tiers: tuple[int, ...] = field(repr=False)

    @classmethod
    def of(
        cls, result: ComparisonResult, intervals: Any = None, *, p_best: bool = False
    ) -> RankPlotStatistics:
        """The statistics of ``result``'s rank plot.

        Parameters
        ----------
        result : ComparisonResult or BayesianComparisonResult
            The comparison drawn.
        intervals : object, optional
            Rank intervals to draw: the object of ``cdplot.rank_intervals(result, ...)``
            (anything with a ``to_frame()`` holding ``average_rank``, ``low``, ``high``,
            ``in_best_set`` and optionally ``mean_score`` and ``p_best``). By default the
            intervals of the result's own decisions (:func:`decision_intervals`); with
            ``p_best``, those of ``rank_intervals(result, method=method, random_state=0)``
            (``method="test"`` for all-pairs decisions with family-wise error control,
            else ``"bootstrap"``: seeded, so a figure draws the same twice).
        p_best : bool
            Whether the probability of ranking first is shown.

        Raises
        ------
        CdplotInputError
            For ``intervals`` that are not rank intervals of this result.
        """
        if intervals is None and p_best:
            fwer = result.control is None and result._pairwise.controls_fwer
            intervals = rank_intervals(
                result, method="test" if fwer else "bootstrap", random_state=0
            )
        if intervals is None:
            order, average, low, high, by_score = decision_intervals(result)
            position = np.arange(1.0, len(order) + 1)
            rows = {
                a: (average[i], low[i], high[i], None, low[i] == 1, position[i])
                for i, a in enumerate(order)
            }
            how: tuple[str, Any, Any, bool] = ("decisions", "test", None, True)
        else:
            rows, by_score = _given_rows(intervals, result)
            how = (
                "given",
                getattr(intervals, "method", None),
                getattr(intervals, "confidence", None),
                bool(getattr(intervals, "simultaneous", True)),
            )
        names = sorted(rows, key=lambda a: (rows[a][5], a))
        table = np.asarray([rows[a][:3] for a in names], dtype=float).reshape(len(names), 3)
        chances = [rows[a][3] for a in names]
        mean, sd = _score_summary(result, names)
        from ._letters import result_tiers

        tiers = result_tiers(result, names)  # once: k x k pairs in every call

        return cls(
            algorithms=tuple(names),
            average_rank=table[:, 0],
            low=table[:, 1],
            high=table[:, 2],
            position=np.asarray([rows[a][5] for a in names], dtype=float),
            in_best_set=np.asarray([bool(rows[a][4]) for a in names], dtype=bool),
            p_best=None if any(c is None for c in chances) else np.asarray(chances, dtype=float),
            by_score=by_score,
            source=how[0],
            method=how[1],
            confidence=how[2],
            simultaneous=how[3],
            bayesian=not result._pairwise.controls_fwer,
            mean_score=mean,
            score_sd=sd,
            tiers=tuple(tiers[a] for a in names),
        )


def decision_intervals(
    result: ComparisonResult,
) -> tuple[list[str], np.ndarray, np.ndarray, np.ndarray, bool]:
    """The rank positions the result's own decisions allow: ``low = 1 + #{decided
    better}``, ``high = k - #{decided worse}``.

    The intervals of ``rank_intervals(result, method="test")`` (without its P(best)) for
    a frequentist comparison, all pairs or against a control; for a Bayesian one the
    same count over its decided pairs, which carries no coverage statement. The
    algorithms come in the order the decisions are read in, best first (average ranks,
    or mean scores for Tukey's HSD), so each lies in its interval at its place.

    Returns
    -------
    order : list of str
        The algorithms best first; their observed position is their place in it.
    average_rank, low, high : numpy.ndarray
        In that order.
    by_score : bool
        Whether the order is by mean score (Tukey's HSD).
    """
    ranking = result._ranking
    names = [str(a) for a in ranking.rank_order]
    ranks = dict(zip(names, map(float, ranking.average_ranks), strict=True))
    if np.asarray(result._pairwise.significant).ndim == 2:
        order = _axis_order(result, names)
        low, high = _bounds(result, order)
        by_score = result._pairwise.critical_difference_units == "score"
    else:
        order = names
        low, high = _control_bounds(result, order)
        by_score = False
    average = np.asarray([ranks[a] for a in order], dtype=float)
    return order, average, low, high, by_score


def _given_rows(intervals: Any, result: ComparisonResult) -> tuple[dict[str, tuple], bool]:
    """Per algorithm ``(average rank, low, high, p_best, in best set, position)`` of an
    object with ``to_frame()`` (``cdplot.rank_intervals``), and whether the positions are
    by mean score.

    The position of each algorithm is its place by the estimate the intervals rank: the
    mean score (a frame with ``mean_score``, oriented by the result's direction), else the
    average rank; ties keep the frame's order.
    """
    try:
        frame = intervals.to_frame()
        if not frame.index.is_unique:
            raise ValueError("one row per algorithm")
        by_score = "mean_score" in frame.columns
        key = frame["mean_score" if by_score else "average_rank"].to_numpy(dtype=float)
        sign = -1.0 if by_score and result.higher_is_better else 1.0
        placed = sorted(range(len(frame.index)), key=lambda i: sign * key[i])
        names = [str(a) for a in frame.index]
        position = {names[i]: p + 1.0 for p, i in enumerate(placed)}
        columns = [frame[c].to_numpy(dtype=float).tolist() for c in ("average_rank", "low", "high")]
        chances = (
            frame["p_best"].to_numpy(dtype=float).tolist()
            if "p_best" in frame.columns
            else [None] * len(names)
        )
        best = frame["in_best_set"].to_numpy(dtype=bool).tolist()
        rows = {
            a: (*values, chance, flag, position[a])
            for a, *values, chance, flag in zip(names, *columns, chances, best, strict=True)
        }
    except (AttributeError, KeyError, TypeError, ValueError) as exc:
        raise CdplotInputError(
            "intervals must be the object of cdplot.rank_intervals(res) (a to_frame() with "
            f"columns average_rank, low, high, in_best_set), got {type(intervals).__name__}; "
            "pass intervals=cdplot.rank_intervals(res) or leave it out."
        ) from exc
    missing = [str(a) for a in result.algorithms if str(a) not in rows]
    if missing:
        raise CdplotInputError(
            f"intervals has no row for {', '.join(missing[:3])}: it was computed for another "
            "result; pass intervals=cdplot.rank_intervals(res) for this one."
        )
    return rows, by_score


def _score_summary(result: ComparisonResult, names: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """Mean score and standard deviation (``ddof=1``, NaN below two datasets) over the
    datasets of the algorithms ``names``."""
    values = np.asarray(result._input.scores, dtype=float)
    counts = np.sum(~np.isnan(values), axis=0)
    means = np.nanmean(values, axis=0)
    # each column's nanstd, as one reduction along rows of the transposed copy: the same
    # pairwise sums, so the same values bit for bit as column by column
    columns = np.ascontiguousarray(values.T)
    sds = np.full(values.shape[1], np.nan)
    several = counts > 1
    if several.any():
        sds[several] = np.nanstd(columns[several], axis=1, ddof=1)
    where = {str(a): j for j, a in enumerate(result.algorithms)}
    index = [where[a] for a in names]
    return means[index], sds[index]

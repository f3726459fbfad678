"""Simultaneous confidence intervals for the ranks of the models of one benchmark.

:func:`benchmark_rank_intervals` is the confidence set for ranks of Mogstad, Romano, Shaikh &
Wilhelm (2024) on the mean scores of one benchmark: a bootstrap over the items (over the
clusters when the items have clusters) of the largest studentized pairwise difference.
A bootstrap replicate is a row of multinomial counts over the ``G`` units (items or
clusters), so a block of ``b`` replicates is one matrix product ``(b x G) @ (G x k)``; the
pair differences come from those ``b x k`` means, in blocks of bounded memory.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from .._errors import CdplotInputError, CdplotWarning
from ..io._benchmark import BenchmarkItems
from ._benchmark_pairs import (
    _check_n_boot,
    bootstrap_counts,
    cluster_standard_errors,
    cluster_sums,
)
from ._options import check_confidence
from ._values import ValueEquality

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

__all__ = ["BenchmarkRankIntervals", "benchmark_rank_intervals"]

DEFAULT_N_BOOT = 10_000
#: the studentized bootstrap (each replicate's own standard errors) costs ``n_boot * pairs
#: * (G + STUDENT_PAIR_COST)`` operations: G multiply-adds of the products and about 100
#: of elementwise work per pair and replicate
STUDENT_PAIR_COST = 100
#: by default the studentized bootstrap runs while its work stays within this budget (about
#: a second of CPU); beyond it the full sample's standard errors studentize every replicate
STUDENTIZE_MAX_WORK = 3_000_000_000
#: with fewer units than this, fixed standard errors chosen by default warn that the
#: intervals may cover less than their confidence
FEW_UNITS = 100
#: float64 elements of one block of replicates x pairs (1 MB: small blocks stay in cache
#: and reuse freed memory, where large temporaries cost a page fault per 4 kB)
BLOCK_ELEMENTS = 131_072
#: the most replicates of one block
BLOCK_ROWS = 256
#: float64 elements of the replicates' mean differences handed at once to the threaded
#: kernel of the fixed standard errors (8 MB)
WAVE_ELEMENTS = 1_048_576
#: relative size of what rounding leaves of a cancelled sum of squares
ROUNDING = 1e-10


@dataclass(frozen=True, eq=False)
class BenchmarkRankIntervals(ValueEquality):
    """Simultaneous confidence intervals for the rank of each model, and the set of the best.

    With probability at least ``confidence`` (asymptotically in the number of items, or
    of clusters), every model's true rank (1 + the number of models with a truly better
    mean score) lies in its interval at once.

    Attributes
    ----------
    models : tuple of str
        Model names, in input order (the order of every array).
    mean : numpy.ndarray
        Each model's mean score.
    low, high : numpy.ndarray
        The rank interval ``low <= rank <= high`` (int64; 1 = best).
    p_best : numpy.ndarray
        Share of the bootstrap replicates in which each model has the best mean (a tie for
        the best splits its replicate evenly); sums to 1.
    confidence : float
        The joint confidence level.
    n_boot : int
        Bootstrap replicates.
    critical_value : float
        The ``confidence`` quantile of the replicates' largest studentized pairwise
        difference.
    studentized : bool
        Whether each replicate's differences were divided by that replicate's own standard
        errors (the bootstrap-t) or by the full sample's.
    n_units : int
        Units resampled: the clusters, or the items.
    clustered : bool
        Whether the clusters were resampled (and the standard errors cluster-robust).
    higher_is_better : bool
        The direction of "better".
    """

    models: tuple[str, ...]
    mean: np.ndarray = field(repr=False)
    low: np.ndarray = field(repr=False)
    high: np.ndarray = field(repr=False)
    p_best: np.ndarray = field(repr=False)
    confidence: float
    n_boot: int
    critical_value: float
    studentized: bool
    n_units: int
    clustered: bool
    higher_is_better: bool = True

    @property
    def best_set(self) -> tuple[str, ...]:
        """The models whose interval contains rank 1 (best mean first)."""
        sign = 1.0 if self.higher_is_better else -1.0
        order = np.argsort(-sign * self.mean, kind="stable")
        return tuple(self.models[i] for i in order if self.low[i] == 1)

    def to_frame(self) -> pd.DataFrame:
        """One row per model (input order): ``mean``, ``low``, ``high``, ``p_best``,
        ``in_best_set``."""
        import pandas as pd

        return pd.DataFrame(
            {
                "mean": self.mean,
                "low": self.low,
                "high": self.high,
                "p_best": self.p_best,
                "in_best_set": self.low == 1,
            },
            index=pd.Index(list(self.models), name="model"),
        )


def benchmark_rank_intervals(
    items: BenchmarkItems,
    *,
    confidence: float = 0.95,
    n_boot: int = DEFAULT_N_BOOT,
    seed: Any = None,
    higher_is_better: bool = True,
    studentize: bool | None = None,
    clustered: bool | None = None,
) -> BenchmarkRankIntervals:
    """Simultaneous confidence intervals for the ranks of the models' mean scores.

    Parameters
    ----------
    items : BenchmarkItems
        The benchmark's item scores, every model scored on every item.
    confidence : float, default 0.95
        Joint coverage of all intervals.
    n_boot : int, default 10000
        Bootstrap replicates (100 to 1,000,000).
    seed : None, int or numpy.random.Generator
        Seed; equal seeds give equal results.
    higher_is_better : bool, default True
        Rank 1 is the highest mean score (False: the lowest).
    studentize : bool, optional
        Divide each replicate's pair differences by that replicate's own standard errors
        (the bootstrap-t; ``n_boot * k(k - 1)/2 * (G + 100)`` operations), or by the full
        sample's (``False``). Default: the bootstrap-t while that work is at most
        ``STUDENTIZE_MAX_WORK`` (3e9, about a second), else the full sample's - with a
        :class:`cdplot.CdplotWarning` when there are fewer than 100 units (items or
        clusters), where fixed standard errors may under-cover.
    clustered : bool, optional
        Resample the clusters and use cluster-robust standard errors. Default: whenever
        the items have clusters.

    Returns
    -------
    BenchmarkRankIntervals

    Raises
    ------
    CdplotInputError
        Missing scores, fewer than two items (or clusters), ``clustered=True`` without
        clusters, a bad ``n_boot``.

    Warns
    -----
    CdplotWarning
        When the default falls back to fixed standard errors with fewer than 100 units.

    Notes
    -----
    With ``theta_i`` the mean score of model i, ``d_ij = theta_i - theta_j`` and ``se_ij``
    its standard error (``s / sqrt(n)`` of the per-item differences, ``ddof=1``; with
    clusters the CR1 sandwich ``sqrt(G / (G - 1) * sum_g E_g^2) / n``, ``E_g`` the pair's
    residual total in cluster g - the standard errors of
    :func:`cdplot.stats.pair_statistics`), the critical value ``c`` is the ``confidence``
    quantile over the bootstrap replicates of ``max_ij |d*_ij - d_ij| / se*_ij``. Model j
    is significantly better than i when ``(d_ji) / se_ij > c``, and ``low_i = 1 + #{j
    significantly better}``, ``high_i = k - #{j significantly worse}`` (the single-step
    construction of Mogstad et al. 2024, Section 3). A pair whose difference is the same
    in every unit (``se = 0``) is known exactly. In a replicate whose draw leaves a pair no
    spread, the full sample's standard error stands in.

    The studentized bootstrap keeps the joint coverage with few items and many pairs,
    where fixed standard errors do not; with hundreds of items the two agree. Seeded
    simulations at a nominal 0.95 (``tests/test_benchmark_pair_coverage.py``; all means
    equal, the hardest case): 30 models on 20 items (t-distributed scores, 150 tables)
    0.993 studentized, 0.567 with fixed standard errors; 40 models on 500 binary items
    (100 tables) 0.94 with fixed standard errors. Cost: 135 models x 500 items x 10,000
    replicates (fixed standard errors, the default there) take about 0.35 s of CPU.

    References
    ----------
    Mogstad, M., Romano, J. P., Shaikh, A. M. & Wilhelm, D. (2024). Inference for ranks
    with applications to mobility across neighbourhoods and academic achievement across
    countries. *Review of Economic Studies* 91(1), 476-518.

    Examples
    --------
    >>> import numpy as np
    >>> from cdplot.io._benchmark import BenchmarkItems
    >>> from cdplot.stats import benchmark_rank_intervals
    >>> rng = np.random.default_rng(0)
    >>> scores = (rng.random((300, 3)) < [0.9, 0.5, 0.45]).astype(float)
    >>> items = BenchmarkItems(("a", "b", "c"), tuple(map(str, range(300))), scores, True)
    >>> ri = benchmark_rank_intervals(items, n_boot=2000, seed=1)
    >>> ri.low.tolist(), ri.high.tolist(), ri.best_set
    ([1, 2, 2], [1, 3, 3], ('a',))
    """
    confidence = check_confidence(confidence)
    n_boot = _check_n_boot(n_boot)
    rng = np.random.default_rng(seed)
    units, sizes, clustered = _units(items, clustered)
    g, k = units.shape
    n_pairs = k * (k - 1) // 2
    if studentize is None:
        work = n_boot * n_pairs * (g + STUDENT_PAIR_COST)
        studentize = work <= STUDENTIZE_MAX_WORK
        if not studentize and g < FEW_UNITS:
            warnings.warn(
                f"benchmark_rank_intervals: the studentized bootstrap would take {work:.3g} "
                f"operations (above the {STUDENTIZE_MAX_WORK:.3g} run by default), so the full "
                f"sample's standard errors were used; with {g} "
                f"{'clusters' if clustered else 'items'} and {n_pairs} pairs such intervals "
                "may cover less than their confidence: pass studentize=True (slower), or a "
                "smaller n_boot.",
                CdplotWarning,
                stacklevel=2,
            )
    sign = 1.0 if higher_is_better else -1.0
    diff, se = cluster_standard_errors(sign * units, sizes)
    row_max, wins = _bootstrap(sign * units, sizes, se, n_boot, rng, bool(studentize))
    critical = float(np.quantile(row_max, confidence, method="inverted_cdf"))
    with np.errstate(invalid="ignore"):
        margin = np.where(se > 0, critical * se, 0.0)
    # diff[i, j] = theta_i - theta_j in the direction of "better": j better when < -margin
    better = (diff < -margin).sum(axis=1)
    worse = (diff > margin).sum(axis=1)
    mean = units.sum(axis=0) / sizes.sum()
    return BenchmarkRankIntervals(
        models=tuple(items.models),
        mean=mean,
        low=(1 + better).astype(np.int64),
        high=(k - worse).astype(np.int64),
        p_best=wins / n_boot,
        confidence=confidence,
        n_boot=n_boot,
        critical_value=critical,
        studentized=bool(studentize),
        n_units=g,
        clustered=clustered,
        higher_is_better=bool(higher_is_better),
    )


def _units(items: BenchmarkItems, clustered: bool | None) -> tuple[np.ndarray, np.ndarray, bool]:
    """The units' score sums (``G x k``), sizes, and whether they are clusters."""
    scores = items.scores
    if np.isnan(scores).any():
        raise CdplotInputError(
            "benchmark_rank_intervals needs every model scored on every item, but some "
            "scores are missing; drop the items or models with missing scores "
            "(missing='drop')."
        )
    if clustered and items.clusters is None:
        raise CdplotInputError(
            "clustered=True needs the items' clusters; name the cluster column (cluster=...), "
            "or leave clustered out."
        )
    clustered = items.clusters is not None if clustered is None else bool(clustered)
    if clustered:
        assert items.clusters is not None  # checked above
        units, sizes = cluster_sums(scores, items.clusters, len(items.cluster_ids))
        keep = sizes > 0
        units, sizes = units[keep], sizes[keep]
    else:
        units, sizes = np.asarray(scores, dtype=float), np.ones(scores.shape[0])
    if units.shape[0] < 2:
        what = "clusters" if clustered else "items"
        raise CdplotInputError(
            f"benchmark_rank_intervals needs at least 2 {what}, got {units.shape[0]}."
        )
    return units, sizes, clustered


def _bootstrap(
    units: np.ndarray,
    sizes: np.ndarray,
    se: np.ndarray,
    n_boot: int,
    rng: np.random.Generator,
    studentize: bool,
) -> tuple[np.ndarray, np.ndarray]:
    """Per replicate the largest studentized pair difference (``n_boot``), and per model
    the (tie-split) number of replicates in which it has the best mean.

    Blocks of replicates: counts ``w`` (``b x G``), means ``(w @ units) / (w @ sizes)``,
    ``delta = theta* - theta``; with the full sample's standard errors the largest
    ``|delta_i - delta_j| / se_ij`` comes from the threaded float32 kernel of the rank
    intervals (:func:`cdplot.stats._intervals._row_max_t`, over a wave of blocks at
    once), else from :class:`_PairMoments`. One BLAS thread: the products are thin.
    """
    from ._intervals import _one_blas_thread, _row_max_t

    g, k = units.shape
    theta = units.sum(axis=0) / sizes.sum()
    with np.errstate(divide="ignore"):
        inv_se = np.where(se > 0, 1.0 / se, 0.0).astype(np.float32)
    pairs = _PairMoments(units, sizes, se) if studentize else None
    width = pairs.first.size if pairs is not None else k
    step = max(1, min(BLOCK_ROWS, BLOCK_ELEMENTS // max(1, width, g)))
    wave = step * max(1, WAVE_ELEMENTS // (step * k))
    row_max = np.empty(n_boot)
    wins = np.zeros(k)
    with _one_blas_thread():
        for first in range(0, n_boot, wave):
            last = min(n_boot, first + wave)
            deltas = np.empty((last - first, k))
            for start in range(first, last, step):
                rows = slice(start - first, min(last, start + step) - first)
                w = bootstrap_counts(rng, rows.stop - rows.start, g)
                n_w = w @ sizes
                means = (w @ units) / n_w[:, None]
                best = means.max(axis=1, keepdims=True)
                top = means >= best - ROUNDING * np.abs(best)
                wins += (top / top.sum(axis=1, keepdims=True)).sum(axis=0)
                deltas[rows] = means - theta
                if pairs is not None:
                    row_max[start : start + rows.stop - rows.start] = pairs.row_max(
                        w, n_w, deltas[rows]
                    )
            if pairs is None:
                row_max[first:last] = _row_max_t(deltas, inv_se).max(axis=1)
    return row_max, wins


class _PairMoments:
    """The bootstrap-t's per-pair products: with ``e`` the units' residual sums (``units -
    sizes * theta``), a replicate with counts ``w`` has ``gap_ij = delta_i - delta_j`` and
    ``sum_g w_g (e_gi - e_gj - sizes_g gap_ij)^2 = w.e_i^2 + w.e_j^2 - 2 w.(e_i e_j) -
    2 gap_ij (w.(sizes e_i) - w.(sizes e_j)) + gap_ij^2 w.sizes^2``: matrix products of the
    counts with ``e^2``, ``sizes * e``, ``sizes^2`` and the pairs' products ``e_i e_j``
    (pairs x G), then ``se*_ij = sqrt(G / (G - 1) * that) / (w @ sizes)``. Arrays are laid
    out pairs (or models) by replicates, so taking a pair's rows copies contiguous memory.
    """

    def __init__(self, units: np.ndarray, sizes: np.ndarray, se: np.ndarray) -> None:
        g, k = units.shape
        resid = units - sizes[:, None] * (units.sum(axis=0) / sizes.sum())
        self.first, self.second = np.triu_indices(k, 1)
        self.products = np.ascontiguousarray((resid[:, self.first] * resid[:, self.second]).T)
        self.squares = np.ascontiguousarray((resid * resid).T)
        self.weighted = np.ascontiguousarray((sizes[:, None] * resid).T)
        self.sizes2 = sizes * sizes
        self.pair_se = se[self.first, self.second][:, None]
        self.constant = self.pair_se[:, 0] == 0
        self.factor = g / (g - 1)

    def row_max(self, w: np.ndarray, n_w: np.ndarray, delta: np.ndarray) -> np.ndarray:
        first, second = self.first, self.second
        wt = np.ascontiguousarray(w.T)  # G x b
        d = np.ascontiguousarray(delta.T)  # k x b
        gap = d[first]
        gap -= d[second]
        moment = self.squares @ wt  # k x b
        scale = moment[first]
        scale += moment[second]
        var = self.products @ wt
        var *= -2.0
        var += scale
        spread = self.weighted @ wt
        cross = spread[first]
        cross -= spread[second]
        cross *= gap
        cross *= 2.0
        var -= cross
        np.multiply(gap, gap, out=cross)
        cross *= self.sizes2 @ wt
        var += cross
        # a replicate that leaves the pair no spread: the full sample's standard error
        flat = var <= ROUNDING * scale
        np.maximum(var, 0.0, out=var)
        np.sqrt(var, out=var)
        var *= np.sqrt(self.factor) / n_w
        np.copyto(var, self.pair_se, where=flat)
        np.abs(gap, out=gap)
        spread_zero = var <= 0
        np.divide(gap, var, out=gap, where=~spread_zero)
        gap[spread_zero] = 0.0
        gap[self.constant] = 0.0
        return gap.max(axis=0) if gap.shape[0] else np.zeros(gap.shape[1])

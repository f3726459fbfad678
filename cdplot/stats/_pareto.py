"""The cost-performance Pareto frontier with uncertainty.

A model is on the frontier when no other model is at most as costly and at least as good,
and strictly better on one of the two. :func:`pareto_frontier` estimates each model's mean
cost and performance (mean score, or average rank) and resamples them with the paired
bootstrap of the rank intervals (:func:`cdplot.rank_intervals`, ``method="bootstrap"``):
multinomial counts over the datasets, or over the items (their clusters when they have
clusters) of one benchmark. A replicate reweights the units' performance and cost together,
so the two stay paired.

From the replicates come each model's probability of lying on the frontier, the frontier
band, and the pairwise decisions "dominates" and "cheaper and non-inferior", taken from one
simultaneous max-t confidence set over every pairwise difference of performance and of cost
(Mogstad et al. 2024, single step), so that all decisions together are wrong with
probability at most ``1 - confidence`` (asymptotically).
"""

from __future__ import annotations

import dataclasses
import math
import numbers
import warnings
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from .._errors import CdplotInputError, CdplotWarning, check_in_list, spell, suggest
from ._benchmark_pairs import bootstrap_counts, cluster_sums
from ._intervals import _one_blas_thread
from ._options import check_confidence
from ._values import ValueEquality

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

__all__ = ["ParetoFrontier", "compare_with_costs", "non_dominated", "pareto_frontier"]

DEFAULT_N_BOOT = 2_000
#: bootstrap replicates of one block (``rows x G`` counts)
BLOCK_ROWS = 256
#: booleans of one block of the frontier test (``rows x k x k``)
DOMINANCE_ELEMENTS = 4_000_000
#: float64 elements of one block of the replicates' pairwise standard errors
PAIR_ELEMENTS = 1_000_000
#: the bootstrap-t (each replicate's own standard errors) costs ``n_boot * G * k(k-1)/2``
#: multiply-adds per measure (one matrix product per block of replicates); beyond this
#: work (some seconds), or a table of the units' squared pair differences (``G x
#: k(k-1)/2``) beyond PAIR_TABLE_ELEMENTS (160 MB), fixed standard errors
STUDENTIZE_MAX_WORK = 20_000_000_000
PAIR_TABLE_ELEMENTS = 20_000_000
#: points of the cost grid the frontier band is given on
BAND_POINTS = 200
#: a difference whose bootstrap standard error is below this share of the spread of the
#: estimates is the same in every replicate: known exactly, no margin
EXACT = 1e-12
TARGETS = ("scores", "ranks")


@dataclass(frozen=True, eq=False)
class ParetoFrontier(ValueEquality):
    """The cost-performance Pareto frontier of a comparison, with its uncertainty.

    Returned by :func:`cdplot.pareto_frontier`. Models are listed cheapest first.

    Attributes
    ----------
    models : tuple of str
        The models (algorithms), by estimated cost, cheapest first (ties by name).
    cost, cost_low, cost_high : numpy.ndarray
        Mean cost of each model and its marginal bootstrap percentile interval (equal to
        the cost when the costs are given per model: then they are known exactly).
    performance, performance_low, performance_high : numpy.ndarray
        Mean score (``on="scores"``) or average rank (``on="ranks"``) and its marginal
        bootstrap percentile interval.
    higher_is_better : bool
        Direction of ``performance`` (False for average ranks).
    on_frontier : numpy.ndarray
        Whether each model is on the frontier of the estimates.
    p_frontier : numpy.ndarray
        Share of the bootstrap replicates in which each model is on the frontier.
    dominates : numpy.ndarray
        ``k x k`` booleans, ``[i, j]``: model i is confidently better than model j on one
        of cost and performance and confidently (or exactly) at least as good on the other.
    noninferior : numpy.ndarray or None
        ``k x k`` booleans, ``[i, j]``: model i is confidently cheaper than model j and its
        performance confidently no more than ``margin`` worse; None without a margin.
    margin : float or None
        The non-inferiority margin, in the units of ``performance``.
    band_cost : numpy.ndarray
        The cost grid (log-spaced) of the frontier band.
    band, band_low, band_high : numpy.ndarray
        The best performance reachable at each cost of the grid (the frontier as a step
        function) and its pointwise bootstrap percentile band (NaN where no model is so
        cheap).
    on : {"scores", "ranks"}
        What performance is.
    confidence : float
        Level of the intervals, the band and the decisions.
    critical_value : float
        The max-t critical value of the decisions.
    n_boot : int
        Bootstrap replicates.
    resampled : {"datasets", "items", "clusters"}
        The units the bootstrap draws.
    cost_varies : bool
        Whether the cost was given per unit (resampled) or per model (fixed).
    cost_name : str
        What the cost is (the cost column's name, or ``"cost"``).
    labels : dict
        Display names of the models.
    """

    models: tuple[str, ...]
    cost: np.ndarray
    cost_low: np.ndarray
    cost_high: np.ndarray
    performance: np.ndarray
    performance_low: np.ndarray
    performance_high: np.ndarray
    higher_is_better: bool
    on_frontier: np.ndarray
    p_frontier: np.ndarray
    dominates: np.ndarray
    noninferior: np.ndarray | None
    margin: float | None
    band_cost: np.ndarray
    band: np.ndarray
    band_low: np.ndarray
    band_high: np.ndarray
    on: str
    confidence: float
    critical_value: float
    n_boot: int
    resampled: str
    cost_varies: bool
    cost_name: str = "cost"
    labels: dict[str, str] = field(default_factory=dict)

    @property
    def frontier(self) -> tuple[str, ...]:
        """The models on the frontier of the estimates, cheapest first."""
        return tuple(m for m, on in zip(self.models, self.on_frontier, strict=True) if on)

    def label(self, model: str) -> str:
        """The display name of ``model``."""
        return self.labels.get(model, model)

    def dominated_by(self, model: str) -> tuple[str, ...]:
        """The models that confidently dominate ``model``."""
        j = self._position(model)
        return tuple(m for m, d in zip(self.models, self.dominates[:, j], strict=True) if d)

    def cheaper_noninferior_to(self, model: str) -> tuple[str, ...]:
        """The models ``model`` is confidently cheaper than and non-inferior to (within
        ``margin``); empty without a margin."""
        if self.noninferior is None:
            return ()
        i = self._position(model)
        return tuple(m for m, d in zip(self.models, self.noninferior[i], strict=True) if d)

    def _position(self, model: str) -> int:
        if model not in self.models:
            raise CdplotInputError(
                f"{model!r} is not a model of this frontier; its models are "
                f"{', '.join(map(repr, self.models))}." + suggest(model, self.models)
            )
        return self.models.index(model)

    def to_frame(self) -> pd.DataFrame:
        """One row per model (cheapest first): cost and performance with their intervals,
        on the frontier, P(on the frontier), and the models that confidently dominate it."""
        import pandas as pd

        index = pd.Index(list(self.models), name="model")
        return pd.DataFrame(
            {
                "cost": self.cost,
                "cost_low": self.cost_low,
                "cost_high": self.cost_high,
                "performance": self.performance,
                "performance_low": self.performance_low,
                "performance_high": self.performance_high,
                "on_frontier": self.on_frontier,
                "p_frontier": self.p_frontier,
                "dominated_by": [", ".join(self.dominated_by(m)) for m in self.models],
            },
            index=index,
        )

    def pairs_frame(self) -> pd.DataFrame:
        """One row per ordered pair (model, other): the differences of cost and performance
        (model minus other) and the decisions ``dominates`` and ``cheaper_noninferior``."""
        import pandas as pd

        k = len(self.models)
        i, j = np.nonzero(~np.eye(k, dtype=bool))
        non = self.noninferior if self.noninferior is not None else np.zeros((k, k), bool)
        return pd.DataFrame(
            {
                "model": [self.models[a] for a in i],
                "other": [self.models[b] for b in j],
                "cost_difference": self.cost[i] - self.cost[j],
                "performance_difference": self.performance[i] - self.performance[j],
                "dominates": self.dominates[i, j],
                "cheaper_noninferior": non[i, j],
            }
        )

    def to_dict(self) -> dict[str, Any]:
        """The frontier as plain JSON values (lists, numbers, strings; NaN as None)."""

        def plain(a: np.ndarray) -> list[Any]:
            return [None if isinstance(v, float) and math.isnan(v) else v for v in a.tolist()]

        k = len(self.models)
        pairs = [
            [self.models[i], self.models[j]]
            for i in range(k)
            for j in range(k)
            if self.dominates[i, j]
        ]
        non = (
            None
            if self.noninferior is None
            else [
                [self.models[i], self.models[j]]
                for i in range(k)
                for j in range(k)
                if self.noninferior[i, j]
            ]
        )
        return {
            "models": list(self.models),
            "cost_name": self.cost_name,
            "on": self.on,
            "higher_is_better": self.higher_is_better,
            "confidence": self.confidence,
            "n_boot": self.n_boot,
            "resampled": self.resampled,
            "cost_varies": self.cost_varies,
            "critical_value": self.critical_value,
            "margin": self.margin,
            "cost": plain(self.cost),
            "cost_low": plain(self.cost_low),
            "cost_high": plain(self.cost_high),
            "performance": plain(self.performance),
            "performance_low": plain(self.performance_low),
            "performance_high": plain(self.performance_high),
            "on_frontier": self.on_frontier.tolist(),
            "p_frontier": plain(self.p_frontier),
            "dominates": pairs,
            "cheaper_noninferior": non,
        }

    def plot(self, **kwargs: Any) -> Any:
        """Draw the frontier (:func:`cdplot.pareto_plot`); returns the Axes."""
        from ..plotting._pareto_plot import pareto_plot

        return pareto_plot(self, **kwargs)


# --------------------------------------------------------------------------- frontier


def non_dominated(loss: np.ndarray, cost: np.ndarray) -> np.ndarray:
    """Which columns lie on the frontier, row by row (lower loss and cost are better).

    ``loss`` and ``cost`` are ``... x k``; a column is dominated when another is at most as
    costly and at most as bad, and strictly better on one. Equal models are both kept.
    """
    c_i, c_j = cost[..., :, None], cost[..., None, :]
    l_i, l_j = loss[..., :, None], loss[..., None, :]
    beaten = (c_j <= c_i) & (l_j <= l_i) & ((c_j < c_i) | (l_j < l_i))
    return np.asarray(~beaten.any(axis=-1))


def _frontier_share(loss: np.ndarray, cost: np.ndarray) -> np.ndarray:
    """Share of the rows (replicates) in which each column is on the frontier."""
    n, k = loss.shape
    rows = max(1, DOMINANCE_ELEMENTS // (k * k))
    total = np.zeros(k)
    for start in range(0, n, rows):
        total += non_dominated(loss[start : start + rows], cost[start : start + rows]).sum(0)
    return total / n


def _step_frontier(loss: np.ndarray, cost: np.ndarray, grid: np.ndarray) -> np.ndarray:
    """The lowest loss among the models at most as costly as each grid point (inf where
    none is), for one row of estimates."""
    order = np.argsort(cost, kind="stable")
    best = np.minimum.accumulate(loss[order])
    reach = np.searchsorted(cost[order], grid, side="right")
    return np.where(reach > 0, best[np.maximum(reach - 1, 0)], np.inf)


# --------------------------------------------------------------------------- inputs


@dataclass(frozen=True)
class _Units:
    """What the bootstrap resamples: the units' sums of loss (and of cost), their sizes."""

    loss: np.ndarray
    cost: np.ndarray | None
    fixed_cost: np.ndarray | None
    sizes: np.ndarray
    resampled: str


def _is_result(data: Any) -> bool:
    from ._results import Comparison

    return isinstance(data, Comparison)


def _is_benchmark(result: Any) -> bool:
    from ._benchmark_result import BenchmarkComparison

    return isinstance(result, BenchmarkComparison)


def _model_costs(cost: Mapping[Any, Any], models: list[str]) -> np.ndarray:
    """A mapping {model: cost} as a cost vector in the order of ``models``."""
    given = {str(m): v for m, v in cost.items()}
    extra = [m for m in given if m not in models]
    if extra:
        raise CdplotInputError(
            f"cost= names {extra[0]!r}, which is not a model of the comparison; its models "
            f"are {', '.join(map(repr, models))}." + suggest(extra[0], models)
        )
    absent = [m for m in models if m not in given]
    if absent:
        raise CdplotInputError(
            f"missing cost for {absent[0]!r}: cost= must give a cost for every model "
            f"({len(absent)} of {len(models)} have none)."
        )
    values = []
    for m in models:
        v = given[m]
        if isinstance(v, bool) or not isinstance(v, numbers.Real):
            raise CdplotInputError(
                f"cost of {m!r} must be a number >= 0, got {type(v).__name__} ({v!r})."
            )
        values.append(float(v))
    from ..io._cost import check_costs

    return check_costs(np.array(values), lambda pos: f"model {models[pos]!r}")


def _unit_costs(cost: Any, result: Any) -> np.ndarray:
    """Costs per dataset (or item) and model as an ``N x k`` array in the result's order."""
    from ..io._cost import check_costs

    models = [str(a) for a in result.algorithms]
    rows = [str(d) for d in result.datasets]
    if hasattr(cost, "columns") and hasattr(cost, "index"):  # a pandas DataFrame
        columns = [str(c) for c in cost.columns]
        index = [str(i) for i in cost.index]
        for names, have, what in ((models, columns, "model"), (rows, index, "dataset")):
            absent = [n for n in names if n not in have]
            if absent:
                raise CdplotInputError(
                    f"the cost table has no {what} {absent[0]!r}; cost= as a table needs "
                    f"one row per dataset and one column per model, like the scores."
                    + suggest(absent[0], have)
                )
        values = np.asarray(cost.to_numpy(dtype=float))
        values = values[np.ix_([index.index(r) for r in rows], [columns.index(m) for m in models])]
    else:
        values = np.asarray(cost, dtype=float)
        if values.shape != (len(rows), len(models)):
            raise CdplotInputError(
                f"cost= as an array must be shaped like the scores, {len(rows)} x "
                f"{len(models)} (datasets x models), got {values.shape}; or pass a mapping "
                "{model: cost}."
            )
    k = len(models)
    return check_costs(values, lambda pos: f"model {models[pos % k]!r} on {rows[pos // k]!r}")


def with_costs(result: Any, table: Any) -> Any:
    """``result`` with the costs of a :class:`~cdplot.io._cost.CostTable` on its input
    part (``res.costs``, ``res.cost_name``), in the order of its datasets and algorithms."""
    d_at = {d: i for i, d in enumerate(table.datasets)}
    a_at = {a: j for j, a in enumerate(table.algorithms)}
    values = table.costs[
        np.ix_(
            [d_at[str(d)] for d in result.datasets],
            [a_at[str(a)] for a in result.algorithms],
        )
    ]
    part = dataclasses.replace(result._input, costs=values, cost_name=table.column)
    return dataclasses.replace(result, _input=part)


def compare_with_costs(
    data: Any, *, cost: str | None = None, **compare_kwargs: Any
) -> tuple[Any, np.ndarray, str]:
    """Compare a long table with a cost column: the result, its costs and the column.

    The cost column (``cost``, or the one column named like a cost) is read and left out
    of the table :func:`cdplot.compare` sees; the costs come back as an ``N x k`` array in
    the order of the result's datasets and algorithms (repeated runs: their mean cost),
    and on the result (``res.costs``).

    Returns
    -------
    (ComparisonResult, numpy.ndarray, str)
        The result, its costs, the cost column's name.
    """
    from ..io._cost import read_costs
    from ._compare import compare

    names = {k: compare_kwargs.get(k) for k in ("dataset", "algorithm", "score")}
    table = read_costs(data, cost=cost, **names)
    result = with_costs(compare(table.scores, **compare_kwargs), table)
    return result, result._input.costs, table.column


def _units(result: Any, cost: Any, on: str) -> _Units:
    """The bootstrap's units of ``result`` with the given costs (per model or per unit)."""
    models = [str(a) for a in result.algorithms]
    fixed = _model_costs(cost, models) if isinstance(cost, Mapping) else None
    per_unit = None if fixed is not None else _unit_costs(cost, result)
    if _is_benchmark(result):
        items = result.benchmark_items
        loss = np.asarray(items.scores, dtype=float)
        if np.isnan(loss).any():
            raise CdplotInputError(
                "the frontier needs every model scored on every item; drop the items or "
                "models with missing scores (missing='drop')."
            )
        loss = -loss if result.higher_is_better else loss
        if items.clusters is not None:
            g = len(items.cluster_ids)
            loss, sizes = cluster_sums(loss, items.clusters, g)
            if per_unit is not None:
                per_unit, _ = cluster_sums(per_unit, items.clusters, g)
            keep = sizes > 0
            loss, sizes = loss[keep], sizes[keep]
            per_unit = None if per_unit is None else per_unit[keep]
            return _Units(loss, per_unit, fixed, sizes, "clusters")
        return _Units(loss, per_unit, fixed, np.ones(loss.shape[0]), "items")
    if on == "ranks":
        loss = np.asarray(result._ranking.rank_values(), dtype=float)
    else:
        loss = np.asarray(result._input.scores, dtype=float)
        loss = -loss if result.higher_is_better else loss
    if np.isnan(loss).any():
        raise CdplotInputError(
            "the frontier needs a complete table, but this one has missing results; rerun "
            "cdplot.compare(..., missing='drop') or missing='drop-algorithms'."
        )
    return _Units(loss, per_unit, fixed, np.ones(loss.shape[0]), "datasets")


# --------------------------------------------------------------------------- bootstrap


def _pair_errors(
    units: np.ndarray,
    sizes: np.ndarray,
    w: np.ndarray,
    pairs: tuple[np.ndarray, np.ndarray, np.ndarray],
) -> tuple[np.ndarray, np.ndarray]:
    """Per row of weights ``w`` (``b x G``): the weighted means (``b x k``) and the standard
    errors of the differences of means of the pairs ``(i, j)`` (``b x pairs``).

    With ``u_gij`` unit g's sum of model i minus model j, ``s_g`` its size and ``D_ij``
    the difference of means, ``se_ij^2 = sum_g w_g (u_gij - s_g D_ij)^2 / (sum_g w_g
    s_g)^2`` (the linearised standard error of a difference of ratio means; over datasets,
    the population standard deviation of the per-dataset differences over sqrt(N), as for
    the rank intervals). ``pairs`` holds ``i``, ``j`` and the units' squared differences
    ``u_gij^2`` (``G x pairs``), so that the sums of squares are one matrix product.
    """
    i, j, squared = pairs
    n_w = w @ sizes
    means = (w @ units) / n_w[:, None]
    b_sum = (w * sizes) @ units  # sum_g w_g s_g U_gi
    c_sum = (w * sizes) @ sizes  # sum_g w_g s_g^2
    d = means[:, i] - means[:, j]
    squares = w @ squared  # sum_g w_g u_gij^2
    squares -= 2 * d * (b_sum[:, i] - b_sum[:, j])
    squares += d * d * c_sum[:, None]
    np.maximum(squares, 0.0, out=squares)
    return means, np.sqrt(squares, out=squares) / n_w[:, None]


@dataclass(frozen=True)
class _Measure:
    """One measure's units (centred), its estimates and full-sample standard errors
    (``k x k``), and the pairs ``(i, j)``, ``i < j``, whose difference varies, with the
    units' squared differences of those pairs."""

    units: np.ndarray
    centre: np.ndarray
    se: np.ndarray
    pairs: tuple[np.ndarray, np.ndarray, np.ndarray]


def _squared_pairs(
    units: np.ndarray, i: np.ndarray, j: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    diff = units[:, i] - units[:, j]
    return i, j, diff * diff


def _measure(units: np.ndarray, sizes: np.ndarray) -> _Measure:
    """Centre the units on the full-sample means (no cancellation in the squares) and
    find the pairs whose difference varies (se > 0); the others are known exactly."""
    k = units.shape[1]
    centre = units.sum(axis=0) / sizes.sum()
    centred = units - sizes[:, None] * centre
    i, j = np.triu_indices(k, 1)
    pairs = _squared_pairs(centred, i, j)
    _, pair_se = _pair_errors(centred, sizes, np.ones((1, units.shape[0])), pairs)
    scale = float(np.abs(units).max(initial=0.0)) / max(float(sizes.min()), 1.0)
    pair_se = np.where(pair_se[0] > EXACT * max(scale, 1.0), pair_se[0], 0.0)
    se = np.zeros((k, k))
    se[i, j] = se[j, i] = pair_se
    live = pair_se > 0
    return _Measure(centred, centre, se, (i[live], j[live], pairs[2][:, live]))


def _largest_t(
    m: _Measure, sizes: np.ndarray, w: np.ndarray, studentize: bool
) -> tuple[np.ndarray, np.ndarray]:
    """Replicates' means (``b x k``, uncentred) and largest ``|D*_ij - D_ij| / se_ij``
    over the live pairs, with each replicate's own standard errors (``studentize``) or the
    full sample's."""
    if studentize:
        means, se = _pair_errors(m.units, sizes, w, m.pairs)
    else:
        means = (w @ m.units) / (w @ sizes)[:, None]
        se = np.broadcast_to(m.se[m.pairs[0], m.pairs[1]], (w.shape[0], m.pairs[0].size))
    i, j, _ = m.pairs
    if i.size == 0:
        return means + m.centre, np.zeros(w.shape[0])
    dev = np.abs(means[:, i] - means[:, j])
    with np.errstate(divide="ignore", invalid="ignore"):
        t = np.where(se > 0, dev / se, np.where(dev > EXACT * (1 + dev.max()), np.inf, 0.0))
    return means + m.centre, t.max(axis=1)


def _replicates(
    units: _Units, n_boot: int, rng: np.random.Generator, studentize: bool
) -> tuple[np.ndarray, np.ndarray, np.ndarray, _Measure, _Measure | None]:
    """Bootstrap means of loss and cost per model (``n_boot x k`` each; fixed costs
    repeated) and each replicate's largest studentized deviation over every pair of both
    measures (the max-t statistic), from the same draws."""
    g, k = units.loss.shape
    loss_m = _measure(units.loss, units.sizes)
    cost_m = None if units.cost is None else _measure(units.cost, units.sizes)
    loss = np.empty((n_boot, k))
    cost = np.empty((n_boot, k))
    largest = np.empty(n_boot)
    rows = max(1, min(BLOCK_ROWS, PAIR_ELEMENTS // (k * k)))
    with _one_blas_thread():  # thin products: BLAS threads only oversubscribe the cores
        for start in range(0, n_boot, rows):
            w = bootstrap_counts(rng, min(rows, n_boot - start), g)
            stop = start + w.shape[0]
            loss[start:stop], largest[start:stop] = _largest_t(loss_m, units.sizes, w, studentize)
            if cost_m is None:
                cost[start:stop] = units.fixed_cost
            else:
                cost[start:stop], t_cost = _largest_t(cost_m, units.sizes, w, studentize)
                np.maximum(largest[start:stop], t_cost, out=largest[start:stop])
    return loss, cost, largest, loss_m, cost_m


def _studentize(units: _Units, n_boot: int, studentize: bool | None) -> bool:
    """Whether each replicate gets its own standard errors (the bootstrap-t); by default
    while its work and the units' squared pair differences stay within
    :data:`STUDENTIZE_MAX_WORK` and :data:`PAIR_TABLE_ELEMENTS`, else fixed ones, warned."""
    g, k = units.loss.shape
    measures = 1 if units.cost is None else 2
    table = g * k * (k - 1) // 2
    work = n_boot * table * measures
    if studentize is None:
        studentize = work <= STUDENTIZE_MAX_WORK and table <= PAIR_TABLE_ELEMENTS
        if not studentize:
            warnings.warn(
                f"the frontier's decisions use the full sample's standard errors: the "
                f"bootstrap-t would take n_boot * units * k(k-1)/2 = {work:.2g} operations "
                f"on a table of {table:.2g} squared differences; with few units their "
                "family-wise error may exceed 1 - confidence. Pass studentize=True to run "
                "it anyway, or a smaller n_boot.",
                CdplotWarning,
                stacklevel=4,
            )
    return bool(studentize)


def _decisions(
    loss: np.ndarray,
    cost: np.ndarray,
    se_loss: np.ndarray,
    se_cost: np.ndarray,
    c: float,
    margin: float | None,
) -> tuple[np.ndarray, np.ndarray | None]:
    """``dominates`` and ``noninferior`` (``[i, j]``: i over j) from the simultaneous
    confidence set ``|D_ij - D^_ij| <= c se_ij`` of every difference."""
    gain = loss[None, :] - loss[:, None]  # [i, j] > 0: i performs better than j
    saving = cost[None, :] - cost[:, None]  # [i, j] > 0: i is cheaper than j
    better = gain - c * se_loss > 0
    cheaper = saving - c * se_cost > 0
    as_good = better | ((se_loss == 0) & (gain >= 0))
    as_cheap = cheaper | ((se_cost == 0) & (saving >= 0))
    dominates = (better & as_cheap) | (cheaper & as_good)
    np.fill_diagonal(dominates, False)
    if margin is None:
        return dominates, None
    within = gain + margin - c * se_loss > 0
    noninferior = cheaper & within
    np.fill_diagonal(noninferior, False)
    return dominates, noninferior


def _band(
    loss_draws: np.ndarray,
    cost_draws: np.ndarray,
    loss: np.ndarray,
    cost: np.ndarray,
    confidence: float,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The frontier step function on a log grid of costs and its pointwise band (loss)."""
    low = min(float(cost_draws.min()), float(cost.min()))
    high = max(float(cost_draws.max()), float(cost.max()))
    grid = np.geomspace(low, high * (1 + 1e-9), BAND_POINTS)
    curves = np.stack(
        [_step_frontier(a, b, grid) for a, b in zip(loss_draws, cost_draws, strict=True)]
    )
    tail = (1.0 - confidence) / 2
    band_low = np.quantile(curves, tail, axis=0, method="inverted_cdf")
    band_high = np.quantile(curves, 1 - tail, axis=0, method="inverted_cdf")
    return grid, _step_frontier(loss, cost, grid), band_low, band_high


def _check_margin(margin: Any) -> float | None:
    if margin is None:
        return None
    if isinstance(margin, bool) or not isinstance(margin, numbers.Real):
        raise CdplotInputError(
            f"margin must be a number >= 0 (in the units of the performance), got "
            f"{type(margin).__name__} ({margin!r}); e.g. margin=0.01."
        )
    value = float(margin)
    if not math.isfinite(value) or value < 0:
        raise CdplotInputError(
            f"margin must be >= 0: it is how much worse the cheaper model may be, got "
            f"{margin!r}; e.g. margin={abs(value) if math.isfinite(value) else 0.01!r}."
        )
    return value


# --------------------------------------------------------------------------- driver


def pareto_frontier(
    data: Any,
    *,
    cost: Any = None,
    on: str | None = None,
    confidence: float | None = None,
    margin: float | None = None,
    n_boot: int = DEFAULT_N_BOOT,
    random_state: Any = None,
    cost_name: str | None = None,
    studentize: bool | None = None,
    **compare_kwargs: Any,
) -> ParetoFrontier:
    """The cost-performance Pareto frontier with bootstrap uncertainty.

    Parameters
    ----------
    data : Comparison, DataFrame, str or os.PathLike
        A result of :func:`cdplot.compare` (then ``cost`` gives the costs), or a long table
        (one row per dataset, algorithm and run) with a cost column, which is compared
        with ``compare(data, **compare_kwargs)``.
    cost : str, mapping, array or DataFrame, optional
        The cost column of a long table (by default the one column named like a cost:
        ``cost``, ``price``, ``tokens``, ``runtime``, ... see
        :data:`cdplot.io.COST_NAMES`); a mapping ``{model: cost}`` (one fixed cost per
        model); or a datasets (items) x models table of costs like the scores. Lower is
        better; every cost must be a number >= 0 and each model's mean cost > 0 (the
        figure's cost axis is logarithmic).
    on : {"scores", "ranks"}, optional
        Performance is the mean score or the average rank. Default ``"ranks"`` over
        datasets, ``"scores"`` for one benchmark's items.
    confidence : float, optional
        Level of the intervals, the band and the decisions; default ``1 - alpha`` of the
        result.
    margin : float, optional
        Non-inferiority margin (>= 0, in the units of the performance) of the decision
        "cheaper and non-inferior"; without it that decision is not made.
    n_boot : int, default 2000
        Bootstrap replicates (100 to 1,000,000).
    random_state : None, int or numpy.random.Generator
        Seed; equal seeds give equal results.
    cost_name : str, optional
        What the cost is, for the figure and the reports (e.g. ``"USD per 1k items"``);
        default the cost column's name, else ``"cost"``.
    studentize : bool, optional
        Bootstrap-t: each replicate's differences divided by their own standard errors
        (costs ``n_boot * G * k(k - 1) / 2`` multiply-adds per measure, G datasets, items
        or clusters). Default: whenever that work is at most ``STUDENTIZE_MAX_WORK`` (2e10);
        beyond it, and with ``studentize=False``, the full sample's standard errors, with
        a :class:`cdplot.CdplotWarning` (their decisions may err more often than ``1 -
        confidence`` with few units).
    **compare_kwargs
        Passed to :func:`cdplot.compare` for a table (``dataset=``, ``algorithm=``,
        ``score=``, ``higher_is_better=``, ``aggregate=``, ...).

    Returns
    -------
    ParetoFrontier

    Raises
    ------
    CdplotInputError
        For no cost, an ambiguous cost column, a negative, missing or infinite cost, a
        model without a cost, a negative margin, missing results.

    Notes
    -----
    *Resampling.* The paired bootstrap of the rank intervals: a replicate draws the
    datasets (for one benchmark: the items, or their clusters) with replacement, and each
    model's mean performance and mean cost are the replicate's weighted means (costs
    given per model are fixed). ``p_frontier`` is the share of replicates in which the
    model is not dominated; the band is the pointwise percentile interval of the
    replicates' frontiers (the best performance reachable at each cost).

    *Decisions.* With ``D_ij`` every pairwise difference of mean performance and (when the
    costs vary by dataset) of mean cost, ``se_ij`` its standard error (the population
    standard deviation of the per-unit differences over sqrt(G); for clusters, the
    linearised standard error of a ratio of means) and ``c`` the ``confidence`` quantile
    of the replicates' largest ``|D*_ij - D_ij| / se*_ij`` over all pairs and both
    measures, ``se*_ij`` each replicate's own standard error (the bootstrap-t form of the
    single-step max-t of Mogstad et al. 2024, the construction of
    ``rank_intervals(method="bootstrap")``), a difference is confidently positive when
    ``D_ij - c se_ij > 0``. Model i *dominates* j when it is confidently better on one
    measure and confidently (or exactly) at least as good on the other; i is *cheaper
    and non-inferior* to j when it is confidently cheaper and ``D_ij + margin - c se_ij >
    0`` on performance. Every decision follows from the one simultaneous confidence set,
    so the probability that any of them is wrong is at most ``1 - confidence``
    (asymptotically in the number of units): the family-wise error of all the decisions
    together, as for the simultaneous rank intervals. In seeded simulations with equal
    performance and distinct fixed costs (every "dominates" wrong; 300 tables each, Monte
    Carlo standard error 0.013) the rate of any wrong decision at a nominal 0.05 was 0.03
    (k = 3, N = 10), 0.01 (k = 5, N = 30) and 0.02 (k = 8, N = 20) with the bootstrap-t,
    and 0.08, 0.04 and 0.11 with the full sample's standard errors.

    References
    ----------
    Mogstad, M., Romano, J. P., Shaikh, A. M. & Wilhelm, D. (2024). Inference for ranks
    with applications to mobility across neighbourhoods and academic achievement across
    countries. *Review of Economic Studies* 91(1), 476-518.

    Examples
    --------
    >>> import cdplot
    >>> res = cdplot.compare(cdplot.datasets.load("demsar2006"))
    >>> cost = {"C4.5": 1.0, "C4.5+m": 1.5, "C4.5+cf": 1.2, "C4.5+m+cf": 2.0}
    >>> fr = cdplot.pareto_frontier(res, cost=cost, random_state=0)
    >>> fr.frontier
    ('C4.5', 'C4.5+cf', 'C4.5+m', 'C4.5+m+cf')
    """
    from ._benchmark_pairs import _check_n_boot

    n_boot = _check_n_boot(n_boot)
    margin = _check_margin(margin)
    if _is_result(data):
        if compare_kwargs:
            raise CdplotInputError(
                f"{', '.join(compare_kwargs)} are options of cdplot.compare(); with a result "
                "they are already decided: drop them."
            )
        column = "cost"
        if cost is None and data._input.costs is not None:  # compare(..., cost=COLUMN)
            cost, column = data._input.costs, data._input.cost_name or "cost"
        elif cost is None or isinstance(cost, str):
            raise CdplotInputError(
                "a result carries no costs: pass cost= a mapping {model: cost} or a table of "
                "costs shaped like the scores, or pass the table itself with its cost "
                f"column ({spell('cost', 'COLUMN')})."
            )
        result = data
    elif cost is not None and not isinstance(cost, str):  # costs given beside a table
        from ._compare import compare

        result, column = compare(data, **compare_kwargs), "cost"
    else:
        result, cost, column = compare_with_costs(data, cost=cost, **compare_kwargs)
    cost_name = column if cost_name is None else str(cost_name)
    if len(result.algorithms) < 2:
        raise CdplotInputError("the frontier needs at least 2 models.")
    benchmark = _is_benchmark(result)
    on = check_in_list(TARGETS, on=("scores" if benchmark else "ranks") if on is None else on)
    if benchmark and on == "ranks":
        raise CdplotInputError(
            "one benchmark's models are compared on their mean scores: drop on='ranks'."
        )
    confidence = check_confidence(1.0 - result.alpha if confidence is None else confidence)
    units = _units(result, cost, on)
    student = _studentize(units, n_boot, studentize)
    return _estimate(
        result, units, on, confidence, margin, n_boot, random_state, cost_name, student
    )


def _estimate(
    result: Any,
    units: _Units,
    on: str,
    confidence: float,
    margin: float | None,
    n_boot: int,
    random_state: Any,
    cost_name: str,
    studentize: bool,
) -> ParetoFrontier:
    """Estimates, replicates, decisions and band; the models sorted cheapest first."""
    models = [str(a) for a in result.algorithms]
    rng = np.random.default_rng(random_state)
    loss = units.loss.sum(axis=0) / units.sizes.sum()
    if units.cost is not None:
        cost = units.cost.sum(axis=0) / units.sizes.sum()
    else:
        assert units.fixed_cost is not None  # one of the two is given
        cost = units.fixed_cost
    free = [m for m, c in zip(models, cost, strict=True) if c <= 0]
    if free:
        raise CdplotInputError(
            f"the mean cost of {free[0]!r} is 0; the frontier's cost axis is logarithmic, "
            "so every model needs a positive mean cost."
        )
    loss_draws, cost_draws, largest, loss_m, cost_m = _replicates(units, n_boot, rng, studentize)
    se_loss = loss_m.se
    se_cost = np.zeros((len(models), len(models))) if cost_m is None else cost_m.se
    c = float(np.quantile(largest, confidence, method="inverted_cdf"))
    dominates, noninferior = _decisions(loss, cost, se_loss, se_cost, c, margin)
    tail = (1.0 - confidence) / 2
    q = np.quantile(loss_draws, [tail, 1 - tail], axis=0, method="inverted_cdf")
    qc = np.quantile(cost_draws, [tail, 1 - tail], axis=0, method="inverted_cdf")
    p_frontier = _frontier_share(loss_draws, cost_draws)
    grid, band, b_low, b_high = _band(loss_draws, cost_draws, loss, cost, confidence)
    flip = on == "scores" and result.higher_is_better
    sign = -1.0 if flip else 1.0
    perf, low, high = sign * loss, sign * q[0], sign * q[1]
    if flip:
        low, high = high, low
        b_low, b_high = b_high, b_low

    def shown(a: np.ndarray) -> np.ndarray:
        return np.where(np.isinf(a), np.nan, sign * a)

    order = sorted(range(len(models)), key=lambda i: (cost[i], models[i]))
    ix = np.ix_(order, order)
    return ParetoFrontier(
        models=tuple(models[i] for i in order),
        cost=np.asarray(cost, dtype=float)[order],
        cost_low=qc[0][order],
        cost_high=qc[1][order],
        performance=perf[order],
        performance_low=low[order],
        performance_high=high[order],
        higher_is_better=bool(flip),
        on_frontier=non_dominated(loss, cost)[order],
        p_frontier=p_frontier[order],
        dominates=dominates[ix],
        noninferior=None if noninferior is None else noninferior[ix],
        margin=margin,
        band_cost=grid,
        band=shown(band),
        band_low=shown(b_low),
        band_high=shown(b_high),
        on=on,
        confidence=confidence,
        critical_value=c,
        n_boot=n_boot,
        resampled=units.resampled,
        cost_varies=units.cost is not None,
        cost_name=cost_name,
        labels={m: str(v) for m, v in dict(result.labels).items() if m in models},
    )

"""The private parts a comparison result is made of, and its constructor from flat names.

A result is a few frozen parts (:class:`Input`, :class:`Ranking`, :class:`Omnibus`,
:class:`Posthoc`, :class:`Groups`, :class:`Parametric` for a frequentist comparison;
:class:`Input`, :class:`Ranking`, :class:`Omnibus`, :class:`Posterior`, :class:`Groups` for a
Bayesian one). The parts hold numpy arrays; the result's public tables (``scores``,
``pvalues``, ...) are pandas objects built from them on first access, so a run that only draws
never imports pandas. Internal code that needs numbers reads the parts.

Every field of a part is the public flat name of the result it stands for (``scores`` in
:class:`Input` is ``result.scores``), except the labels of the rank-ordered Series
(``rank_order``/``rank_name``, ``mean_order``), which the pandas objects carry in their index,
``twice_ranks``, the compact form of ``ranks``, and ``procedure`` in the pairwise parts, the
:class:`~cdplot.stats.Procedure` that was run (read as ``result.procedure``).
A new result field goes in the part of the step that computes it, under its public name,
and in ``cdplot._json_fields.FIELDS`` (ARCHITECTURE.md, "The centre").
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from .._errors import CdplotInputError
from ._values import ValueEquality

if TYPE_CHECKING:  # pragma: no cover
    from ._procedure import Procedure

__all__ = [
    "Benchmark",
    "Groups",
    "Input",
    "Omnibus",
    "Parametric",
    "Posterior",
    "Posthoc",
    "Ranking",
    "build_parts",
    "compact_ranks",
    "flat_names",
]


@dataclass(frozen=True, eq=False)
class Input(ValueEquality):
    """The table as analysed and how it was read (``scores`` and ``score_std``: N x k)."""

    algorithms: list[str]
    datasets: list[str]
    scores: np.ndarray
    higher_is_better: bool
    n_missing: int = 0
    ignored_datasets: tuple[str, ...] = ()
    aggregation: Any = None
    score_std: np.ndarray | None = None
    dropped_datasets: tuple[str, ...] = ()
    dropped_algorithms: tuple[str, ...] = ()
    labels: dict[str, str] = field(default_factory=dict)
    decimals: int | None = None
    items: Any = field(default=None, compare=False)
    source_note: str | None = None
    costs: np.ndarray | None = None  # N x k: compare(cost=...), for pareto_frontier()
    cost_name: str | None = None


#: twice a rank stored in this type: exact for every half-integer rank up to 32,767.5
TWICE_RANK = np.uint16
#: rows of a rank table checked or converted at once (bounds the temporaries)
_CHUNK_ROWS_VALUES = 1 << 16


def compact_ranks(ranks: np.ndarray) -> np.ndarray | None:
    """Twice the ranks as :data:`TWICE_RANK` integers when that is exact, else None.

    Ranks within a dataset (Friedman's, ties averaged) are half-integers, so twice a rank
    is a small integer: a quarter of the memory of float64, and ``twice / 2`` gives back
    every rank bit for bit. Checked and converted a block of rows at a time.
    """
    values = np.asarray(ranks)
    if values.ndim != 2 or values.size == 0 or values.dtype.kind not in "fiu":
        return None
    out = np.empty(values.shape, dtype=TWICE_RANK)
    rows = max(1, _CHUNK_ROWS_VALUES // values.shape[1])
    top = np.iinfo(TWICE_RANK).max
    for start in range(0, values.shape[0], rows):
        twice = 2.0 * np.asarray(values[start : start + rows], dtype=float)
        if not (np.all(twice >= 0.0) and np.all(twice <= top)):  # NaN fails both
            return None
        if not np.array_equal(twice, np.floor(twice)):
            return None
        out[start : start + rows] = twice
    return out


@dataclass(frozen=True, eq=False)
class Ranking(ValueEquality):
    """Per-dataset ranks (N x k, input order) and the average ranks, best first.

    Half-integer ranks (every ranking within datasets of a complete table) are kept as
    ``twice_ranks`` (:func:`compact_ranks`; ``ranks`` is then None); others (Skillings-Mack's
    scaled ranks, Quade's weighted ranks) as float ``ranks``. :meth:`rank_values` gives the
    float ranks either way.
    """

    ranks: np.ndarray | None
    average_ranks: np.ndarray
    rank_order: tuple[str, ...]
    rank_name: str | None = "average rank"
    twice_ranks: np.ndarray | None = None

    def __post_init__(self) -> None:
        if self.ranks is None:
            return
        twice = compact_ranks(self.ranks)
        if twice is not None:
            object.__setattr__(self, "twice_ranks", twice)
            object.__setattr__(self, "ranks", None)
        else:
            object.__setattr__(self, "twice_ranks", None)

    def rank_values(self) -> np.ndarray:
        """The N x k ranks as float64 (built from ``twice_ranks`` when stored so)."""
        if self.twice_ranks is not None:
            return self.twice_ranks / 2.0
        return np.asarray(self.ranks, dtype=float)


@dataclass(frozen=True, eq=False)
class Omnibus(ValueEquality):
    """Friedman's and Iman-Davenport's tests (complete tables) and the chosen omnibus test."""

    friedman: Any
    iman_davenport: Any
    omnibus: Any = None


@dataclass(frozen=True, eq=False)
class Posthoc(ValueEquality):
    """The pairwise tests: procedure, statistics, p-values, APVs, decisions, CD.

    ``adjusted_pvalues`` and ``significant`` are k x k, or against a control a vector over
    the other algorithms in input order.
    """

    test: str
    correction: str
    alpha: float
    control: str | None
    statistics: np.ndarray
    pvalues: np.ndarray
    adjusted_pvalues: np.ndarray
    significant: np.ndarray
    critical_difference: float | None = None
    test_options: dict[str, Any] = field(default_factory=dict)
    n_per_pair: np.ndarray | None = None
    critical_difference_units: str = "rank"
    #: the Procedure that was run (None: rebuilt from the names); not compared
    procedure: Procedure | None = field(default=None, compare=False)

    #: the decisions control the family-wise error (rank intervals from them are valid)
    controls_fwer: ClassVar[bool] = True

    def evidence(self, first: np.ndarray, second: np.ndarray) -> tuple[np.ndarray, ...]:
        """Statistic, raw and adjusted p-value of the pairs ``(first[i], second[i])``."""
        adjusted = np.asarray(self.adjusted_pvalues, dtype=float)
        return (
            np.asarray(self.statistics)[first, second],
            np.asarray(self.pvalues)[first, second],
            adjusted[first, second] if adjusted.ndim == 2 else adjusted,
        )


@dataclass(frozen=True, eq=False)
class Posterior(ValueEquality):
    """The Bayesian pairwise step: procedure, posteriors (k x k, input order), decisions.

    ``posterior_better[a, b]`` is P(a practically better than b); ``significant`` marks the
    pairs decided different (k x k, or against a control a vector over the others).
    ``diagnostics`` is the convergence of a test sampled by MCMC (``3 x k x k``: split R-hat,
    bulk effective sample size and divergent transitions of each pair's fit, symmetric,
    NaN where no model was fitted); None for a test without a sampler.
    """

    test: str
    correction: str
    alpha: float
    control: str | None
    rope: float
    threshold: float
    posterior_better: np.ndarray
    posterior_equivalent: np.ndarray
    decisions: np.ndarray
    significant: np.ndarray
    test_options: dict[str, Any] = field(default_factory=dict)
    n_per_pair: np.ndarray | None = None
    diagnostics: np.ndarray | None = None
    #: the Procedure that was run (None: rebuilt from the names); not compared
    procedure: Procedure | None = field(default=None, compare=False)

    #: no critical difference (internal code reads the pairs part of either kind alike)
    critical_difference: ClassVar[None] = None
    critical_difference_units: ClassVar[str] = "rank"
    #: decisions at a posterior threshold carry no family-wise error guarantee
    controls_fwer: ClassVar[bool] = False

    def evidence(self, first: np.ndarray, second: np.ndarray) -> tuple[np.ndarray, ...]:
        """P(first practically better than second) as the statistic; no p-values (NaN)."""
        nan = np.full(len(first), np.nan)
        return np.asarray(self.posterior_better, dtype=float)[first, second], nan, nan


@dataclass(frozen=True, eq=False)
class Groups(ValueEquality):
    """Maximal groups with no pair separated, and the non-separated pairs no group covers."""

    groups: tuple[tuple[str, ...], ...]
    uncovered_pairs: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True, eq=False)
class Parametric(ValueEquality):
    """Mean scores, best first, of the parametric analyses (None otherwise)."""

    mean_scores: np.ndarray | None = None
    mean_order: tuple[str, ...] | None = None


@dataclass(frozen=True, eq=False)
class Benchmark(ValueEquality):
    """One benchmark's design and its statistics in score units (a
    :class:`~cdplot.stats.BenchmarkComparison`'s own part).

    ``model_statistics`` and ``pair_statistics`` are the
    :class:`~cdplot.stats._benchmark_models.ModelStatistics` and
    :class:`~cdplot.stats._benchmark_pairs.PairStatistics` of the items (raw score units,
    models in input order; ``[i, j]`` is model i minus model j); the result reads them as
    the tables ``model_statistics`` and ``differences``.
    """

    n_items: int
    binary: bool
    cluster_robust: bool
    confidence: float
    model_statistics: Any
    pair_statistics: Any
    n_clusters: int | None = None
    samples_per_item: float | None = None
    task: str | None = None
    item_column: str = "item"
    cluster_column: str | None = None
    sample_column: str | None = None
    #: each item's cluster (int64 codes into ``cluster_ids``), None without clusters
    clusters: np.ndarray | None = None
    cluster_ids: tuple[str, ...] = ()


#: flat names a pandas Series carries the order of: name -> (order field, name field)
_SERIES_LABELS = {
    "average_ranks": ("rank_order", "rank_name"),
    "mean_scores": ("mean_order", None),
}


def flat_names(parts: dict[str, type]) -> tuple[str, ...]:
    """The public flat names of a result made of ``parts`` (fields of the parts)."""
    private = {"rank_order", "rank_name", "mean_order", "twice_ranks"}
    return tuple(f.name for p in parts.values() for f in fields(p) if f.name not in private)


def _numbers(name: str, value: Any, into: dict[str, Any]) -> Any:
    """The numpy array of a table given as pandas (its labels kept as in ``into``)."""
    if not (type(value).__module__.startswith("pandas") and hasattr(value, "to_numpy")):
        return value
    if name in _SERIES_LABELS:
        order, label = _SERIES_LABELS[name]
        into[order] = tuple(value.index.tolist())
        if label is not None:
            into[label] = value.name
    return value.to_numpy()


def build_parts(
    kind: str, parts: dict[str, type], values: dict[str, Any]
) -> tuple[dict[str, Any], dict[str, Any]]:
    """The parts of a result of type ``kind`` from flat keyword ``values`` (or whole parts).

    A part given whole (``_input=...``, as :func:`dataclasses.replace` passes it) is the
    base its flat names change. Returns the parts and the pandas objects given for public
    tables (kept as they are, as the result's tables).
    """
    values = dict(values)
    values.pop("posterior_worse", None)  # the transpose of posterior_better
    given = {
        n: v
        for n, v in values.items()
        if type(v).__module__.startswith("pandas") and hasattr(v, "to_numpy")
    }
    built: dict[str, Any] = {}
    for attr, part in parts.items():
        base = values.pop(attr, None)
        kwargs: dict[str, Any] = {}
        for f in fields(part):
            if f.name in values:
                kwargs[f.name] = _numbers(f.name, values.pop(f.name), kwargs)
        try:
            if base is None:
                built[attr] = part(**kwargs)
            else:  # a part no keyword changes is kept as it is
                built[attr] = replace(base, **kwargs) if kwargs else base
        except TypeError as exc:
            raise TypeError(f"{kind}: {exc}") from None
    if values:
        unknown = ", ".join(sorted(values))
        hint = (
            " (a Bayesian comparison has posterior probabilities, no p-values)"
            if kind == "BayesianComparisonResult"
            else ""
        )
        raise CdplotInputError(f"{kind} has no field(s) {unknown}{hint}; leave them out.")
    return built, given

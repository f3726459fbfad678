"""The result of the single-benchmark analysis: models compared on one benchmark's items.

:class:`BenchmarkComparison` is a :class:`~cdplot.stats.ComparisonResult` whose datasets are
the benchmark's items, with one more part, :class:`~cdplot.stats._parts.Benchmark`: the
design (items, clusters, samples per item, binary or not, cluster-robust or not) and every
model's mean score and every pair's paired difference with their intervals, in score units.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from ._parts import Benchmark
from ._results import ComparisonResult, _Flat, _index
from ._seams import Seam

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

__all__ = ["BenchmarkComparison"]


@dataclass(frozen=True, eq=False, init=False, repr=False)
class BenchmarkComparison(ComparisonResult):
    """Models compared on the items of one benchmark (:func:`cdplot.compare` on an item table
    with one task, or :func:`cdplot.stats.compare_benchmark`).

    A :class:`ComparisonResult` whose ``datasets`` are the item ids and ``scores`` the items
    x models matrix (the mean over an item's samples), so wins, letters, rank intervals,
    effect sizes, the figures and the reports work as for a board; its pairwise test is a
    test of paired item scores (``"mcnemar"``, ``"paired-t"`` or ``"cluster-t"``), its
    p-values adjusted by any correction :func:`cdplot.compare` offers, its groups runs in
    mean-score order, and the CD diagram is drawn on the mean-score axis
    (``critical_difference_units`` is ``"score"``, ``critical_difference`` None). The
    ranks are those of the models on each item (for 0/1 scores an average rank over the
    items is a decreasing affine function of the mean score, so both orders agree).

    Attributes
    ----------
    model_statistics : pandas.DataFrame
        One row per model, best mean first: ``mean``, ``low``, ``high`` (its interval at
        ``confidence``), ``se``, ``n_items``, and where computed ``design_effect``,
        ``within_variance``, ``between_variance``.
    differences : pandas.DataFrame
        One row per pair (``model_1`` the better mean): ``difference`` (mean of
        ``model_1`` minus ``model_2`` over the items both scored, raw score units),
        ``low``, ``high``, ``se``, ``statistic``, ``pvalue``, ``adjusted_pvalue``,
        ``significant``, ``wins`` and ``losses`` (items on which ``model_1`` scored better
        or worse, as ``higher_is_better`` says), ``n_items``.
    design : dict
        ``n_items``, ``n_clusters``, ``samples_per_item``, ``binary``, ``cluster_robust``,
        ``task``, ``item_column``, ``cluster_column``, ``sample_column``, ``confidence``.
    confidence : float
        The confidence level of the intervals.
    mean_scores : pandas.Series
        Mean score of each model, best first.

    Examples
    --------
    >>> import numpy as np
    >>> from cdplot.io._benchmark import BenchmarkItems
    >>> from cdplot.stats import compare_benchmark
    >>> rng = np.random.default_rng(0)
    >>> scores = (rng.random((200, 3)) < [0.5, 0.6, 0.8]).astype(float)
    >>> items = BenchmarkItems(("a", "b", "c"), tuple(map(str, range(200))), scores, True)
    >>> res = compare_benchmark(items)
    >>> type(res).__name__, res.test, res.mean_scores.index[0]
    ('BenchmarkComparison', 'mcnemar', 'c')
    """

    _benchmark: Benchmark

    _PARTS: ClassVar[dict[str, type]] = {**ComparisonResult._PARTS, "_benchmark": Benchmark}

    n_items = _Flat("_benchmark")
    n_clusters = _Flat("_benchmark")
    samples_per_item = _Flat("_benchmark")
    binary = _Flat("_benchmark")
    cluster_robust = _Flat("_benchmark")
    confidence = _Flat("_benchmark")
    task = _Flat("_benchmark")

    # the benchmark's own plain-language summary and text report (score units)
    summary = Seam("cdplot.report._benchmark", "benchmark_summary")
    __str__ = Seam("cdplot.report._benchmark", "benchmark_text")

    @property
    def benchmark_items(self) -> Any:
        """The items as :class:`~cdplot.io._benchmark.BenchmarkItems` (item scores, clusters;
        not the samples' counts and variances), for the statistics of one benchmark."""
        from ..io._benchmark import BenchmarkItems

        part = self._benchmark
        return BenchmarkItems(
            tuple(self.algorithms),
            tuple(self.datasets),
            np.asarray(self._input.scores, dtype=float),
            part.binary,
            clusters=part.clusters,
            cluster_ids=part.cluster_ids,
            task=part.task,
            item_column=part.item_column,
            cluster_column=part.cluster_column,
            sample_column=part.sample_column,
            note=self.source_note,
        )

    def rank_intervals(self, method: str = "test", **kwargs: Any) -> Any:
        """Confidence intervals for the ranks; see :func:`cdplot.rank_intervals`.

        ``method="test"`` reads the pairs' decisions; ``method="bootstrap"`` is
        :func:`cdplot.stats.benchmark_rank_intervals` on the mean scores, a bootstrap over
        the items (over their clusters when they have clusters).
        """
        return super().rank_intervals(method, **kwargs)

    @property
    def design(self) -> dict[str, Any]:
        """The design facts: items, clusters, samples per item, binary, cluster-robust, ..."""
        part = self._benchmark
        names = (
            "n_items", "n_clusters", "samples_per_item", "binary", "cluster_robust", "task",
            "item_column", "cluster_column", "sample_column", "confidence",
        )  # fmt: skip
        return {name: getattr(part, name) for name in names}

    @cached_property
    def model_statistics(self) -> pd.DataFrame:
        """Each model's mean score with its interval, best mean first (see the class)."""
        import pandas as pd

        stats = self._benchmark.model_statistics
        columns = {
            "mean": stats.mean,
            "low": stats.low,
            "high": stats.high,
            "se": stats.se,
            "n_items": stats.n_items,
        }
        for extra in ("design_effect", "within_variance", "between_variance"):
            values = getattr(stats, extra, None)
            if values is not None:
                columns[extra] = values
        frame = pd.DataFrame(columns, index=_index(self.algorithms, "model"))
        frame = frame.loc[list(self._parametric.mean_order or ())]
        frame.attrs.update(interval=stats.interval, confidence=stats.confidence)
        return frame

    @cached_property
    def differences(self) -> pd.DataFrame:
        """Every pair's paired difference with its interval, p-values and wins (see the class)."""
        import pandas as pd

        pairs = self._benchmark.pair_statistics
        names = list(self.algorithms)
        position = {a: i for i, a in enumerate(names)}
        order = [position[a] for a in self._parametric.mean_order or ()]
        rank = np.empty(len(names), dtype=int)
        rank[order] = np.arange(len(names))
        first, second = self._procedure_pairs()
        swap = rank[first] > rank[second]  # the better mean first
        a = np.where(swap, second, first)
        b = np.where(swap, first, second)
        wins = np.asarray(pairs.wins)
        if not self.higher_is_better:
            wins = wins.T  # a lower score wins
        adjusted, significant = self._adjusted_of(a, b)
        frame = pd.DataFrame(
            {
                "model_1": [names[i] for i in a],
                "model_2": [names[j] for j in b],
                "difference": pairs.difference[a, b],
                "low": pairs.low[a, b],
                "high": pairs.high[a, b],
                "se": pairs.se[a, b],
                "statistic": pairs.statistic[a, b],
                "pvalue": pairs.pvalues[a, b],
                "adjusted_pvalue": adjusted,
                "significant": significant,
                "wins": wins[a, b],
                "losses": wins[b, a],
                "n_items": pairs.n_items[a, b],
            }
        )
        frame = frame.sort_values(["pvalue", "model_1", "model_2"], kind="stable")
        frame.attrs.update(test=pairs.test, interval=pairs.interval, confidence=pairs.confidence)
        return frame.reset_index(drop=True)

    def _procedure_pairs(self) -> tuple[np.ndarray, np.ndarray]:
        """The tested pairs (all, or the control with each other model)."""
        k = self.n_algorithms
        if self.control is None:
            return np.triu_indices(k, 1)
        c = list(self.algorithms).index(self.control)
        others = np.array([j for j in range(k) if j != c], dtype=np.intp)
        return np.full(others.size, c, dtype=np.intp), others

    def _adjusted_of(self, a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        adjusted = np.asarray(self._pairwise.adjusted_pvalues, dtype=float)
        significant = np.asarray(self._pairwise.significant, dtype=bool)
        if adjusted.ndim == 2:
            return adjusted[a, b], significant[a, b]
        c = list(self.algorithms).index(self.control)
        slot = {j: n for n, j in enumerate(j for j in range(self.n_algorithms) if j != c)}
        other = [int(j) if int(i) == c else int(i) for i, j in zip(a, b, strict=True)]
        index = [slot[j] for j in other]
        return adjusted[index], significant[index]

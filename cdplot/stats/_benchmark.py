"""The single-benchmark analysis: many models on the same items of one benchmark.

:func:`compare_benchmark` is what :func:`cdplot.compare` runs on an item table with one
task: a short driver over named steps -- the procedure, each model's mean score
(``model_statistics``), each pair's paired difference (``pair_statistics``), the p-values
adjusted by the procedure's correction (every correction of :func:`cdplot.compare`, exact
Bergmann-Hommel included), significance, groups in mean-score order, the ranks of the models
on each item and the omnibus test, and the :class:`BenchmarkComparison`. The kernels of the
pairwise tests it runs (``mcnemar_pairs``, ``cluster_t_pairs``) are the catalogue's, on an
items x models table without clusters.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any, cast

import numpy as np

from .._errors import CdplotInputError, check_bool, spell
from ..io._benchmark import BenchmarkItems
from ..io._table import count_missing
from . import _parts
from ._adjust import adjust_control
from ._benchmark_models import model_statistics
from ._benchmark_pairs import pair_statistics
from ._benchmark_result import BenchmarkComparison
from ._catalogue import CATALOGUE
from ._fdr import FDR_CORRECTIONS
from ._omnibus import friedman, iman_davenport, tie_correction_factor
from ._options import check_confidence, check_labels
from ._posthoc import Oriented, _all_pairs_apv, named_groups
from ._procedure import Procedure
from ._test_results import PairwiseResult

__all__ = [
    "BENCHMARK_TESTS",
    "benchmark_test",
    "cluster_t_pairs",
    "compare_benchmark",
    "compare_runs",
    "join_runs",
    "mcnemar_pairs",
    "refuse_board_options",
]

#: the tests of paired item scores (catalogue entries that run on one benchmark's items)
BENCHMARK_TESTS = tuple(name for name, entry in CATALOGUE.items() if entry.on_items)


def benchmark_test(items: BenchmarkItems) -> str:
    """The default test of a benchmark: "cluster-t" with clusters, "mcnemar" for 0/1 scores,
    else "paired-t"."""
    if items.clusters is not None:
        return "cluster-t"
    return "mcnemar" if items.binary else "paired-t"


def _items_of(table: np.ndarray, binary: bool) -> BenchmarkItems:
    """An items x models table as :class:`BenchmarkItems` (no clusters, one sample a cell)."""
    table = np.asarray(table, dtype=float)
    n, k = table.shape
    return BenchmarkItems(
        tuple(f"m{j}" for j in range(k)), tuple(str(i) for i in range(n)), table, binary
    )


def _is_binary(table: np.ndarray) -> bool:
    seen = table[~np.isnan(table)]
    return bool(np.all((seen == 0.0) | (seen == 1.0)))


def mcnemar_pairs(table: np.ndarray) -> PairwiseResult:
    """The exact McNemar test of every pair of columns of an items x models 0/1 table.

    ``statistic[i, j]`` is the number of items i solved and j did not minus the reverse
    (positive: i better when higher is better); the p-value is the exact two-sided binomial
    test of the discordant items (R's ``binom.test(b, b + c)``; ``mcnemar.test`` is its
    chi-square approximation), from :func:`~cdplot.stats._benchmark_pairs.pair_statistics`.

    Examples
    --------
    >>> import numpy as np
    >>> from cdplot.stats._benchmark import mcnemar_pairs
    >>> x = np.array([[1, 0]] * 9 + [[0, 1]] * 1 + [[1, 1]] * 5, dtype=float)
    >>> res = mcnemar_pairs(x)  # R binom.test(9, 10): reference/benchmark/driver_examples.R
    >>> float(res.statistic[0, 1]), round(float(res.pvalue[0, 1]), 8)
    (8.0, 0.02148438)
    """
    table = np.asarray(table, dtype=float)
    if not _is_binary(table):
        raise CdplotInputError(
            f"{spell('test', 'mcnemar')} compares 0/1 item scores (solved or not), and these "
            f"are not all 0 or 1; use {spell('test', 'paired-t')} for partial credit or "
            "continuous scores."
        )
    pairs = pair_statistics(_items_of(table, True), test="mcnemar")
    return PairwiseResult(pairs.statistic, pairs.pvalues)


def cluster_t_pairs(table: np.ndarray) -> PairwiseResult:
    """The cluster-robust paired t-test of every pair of columns, each item its own cluster.

    Without clusters the cluster-robust standard error of a mean difference (the variance of
    the clusters' totals, ``G / (G - 1)`` times their mean square over ``n^2``, with ``G - 1``
    df) is the paired t-test's (R's ``t.test(x, y, paired = TRUE)``), so this kernel is the
    paired t-test on the items x models table; :func:`compare_benchmark` runs it with the
    benchmark's clusters.

    Examples
    --------
    >>> import numpy as np
    >>> from cdplot.stats._benchmark import cluster_t_pairs
    >>> x = np.array([[0.2, 0.1], [0.5, 0.1], [0.9, 0.4], [0.4, 0.5]])
    >>> res = cluster_t_pairs(x)  # R t.test(paired = TRUE): reference/benchmark/driver_examples.R
    >>> round(float(res.statistic[0, 1]), 4)
    1.6341
    """
    table = np.asarray(table, dtype=float)
    pairs = pair_statistics(_items_of(table, _is_binary(table)), test="paired-t")
    return PairwiseResult(pairs.statistic, pairs.pvalues)


def refuse_board_options(**given: Any) -> None:
    """Refuse options about boards of datasets given for one benchmark's items.

    ``given``: ``aggregate``, ``decimals``, ``tie_correction``, ``omnibus``, ``order``
    and ``test_options`` (the options of a board's tests), as the user gave them.
    """
    for name, value in given.items():
        if value is None or value is False or (name == "test_options" and not value):
            continue
        what = (
            f"the option(s) {', '.join(map(repr, value))} of a board's tests apply"
            if name == "test_options"
            else f"{spell(name)} applies"
        )
        raise CdplotInputError(
            f"{what} to a board of datasets, and this is one benchmark's items (an item "
            "table with one task); drop it (repeated scores of an item are samples: name "
            f"their column with {spell('sample')})."
        )


def _procedure(
    items: BenchmarkItems,
    test: str | None,
    correction: str | None,
    control: str | None,
    alpha: float,
    bh_budget: float | None,
) -> Procedure:
    """Step 1: the procedure, its test one of paired item scores that suits the items."""
    proc = Procedure.resolve(
        benchmark_test(items) if test is None else test,
        correction,
        control,
        alpha=alpha,
        bh_budget=bh_budget,
        algorithms=items.models,
    )
    if not proc.entry.on_items:
        raise CdplotInputError(
            f"{spell('test', proc.test)} compares algorithms over datasets; one benchmark's "
            f"items are compared with {spell('test', 'mcnemar')} (0/1 scores), 'paired-t' or "
            f"'cluster-t' (items in clusters); leave {spell('test')} out for the default."
        )
    if proc.entry.binary_scores and not items.binary:
        raise CdplotInputError(
            f"{spell('test', proc.test)} compares 0/1 item scores, and these are not all 0 "
            f"or 1; use {spell('test', 'paired-t')} (the default for these scores)."
        )
    if items.clusters is not None and not proc.entry.clustered:
        raise CdplotInputError(
            f"the items come in {items.n_clusters} clusters ({items.cluster_column!r}), whose "
            f"items are not independent, and {spell('test', proc.test)} treats them as "
            f"independent; use {spell('test', 'cluster-t')} (the default with clusters), or "
            f"leave {spell('cluster')} out to ignore the clusters."
        )
    if len(items.models) < 2:
        raise CdplotInputError(
            f"need at least 2 models to compare, got {len(items.models)}"
            + (f" ({items.models[0]!r})" if items.models else "")
            + "; add the other models' item scores."
        )
    return proc


def _pair_test(proc: Procedure) -> str | None:
    """The ``pair_statistics`` test of the procedure (None: its clustered default)."""
    return None if proc.entry.clustered else proc.test


def _adjusted(
    proc: Procedure, pvalues: np.ndarray, names: list[str]
) -> tuple[np.ndarray, np.ndarray]:
    """Step 4: adjusted p-values (k x k, or over the others against a control) and
    significance at alpha."""
    k = len(names)
    p = np.asarray(pvalues, dtype=float)
    if proc.control is None:
        apv = _all_pairs_apv(p, k, proc, None)
    else:
        c = names.index(proc.control)
        apv = adjust_control(p[c, [j for j in range(k) if j != c]], proc.correction)
    return apv, np.asarray(apv <= proc.alpha, dtype=bool)  # False on the NaN diagonal


def _mean_order(means: np.ndarray, names: list[str], higher_is_better: bool) -> list[int]:
    """Models best mean first (ties by name)."""
    sign = 1.0 if higher_is_better else -1.0
    return sorted(range(len(names)), key=lambda j: (-sign * means[j], names[j]))


def _ranks_and_omnibus(
    items: BenchmarkItems, higher_is_better: bool
) -> tuple[Any, list[int], tuple[Any, Any, Any]]:
    """Step 5: the models' ranks on each item (1 = best), best average rank first, and the
    omnibus test: Friedman's chi-square with the tie correction over the items (Cochran's
    Q for 0/1 scores), Skillings-Mack's when some items were not scored by every model."""
    from ._compare import _omnibus, _rank  # the board's steps, on the items

    names = list(items.models)
    oriented = Oriented(items.scores, higher_is_better)
    ranked = _rank(oriented, names)
    order = sorted(range(len(names)), key=lambda j: (ranked.average[j], names[j]))
    if ranked.canon is None:  # incomplete: Skillings-Mack (the board's step)
        table = _ItemTable(names, list(items.items))
        proc = Procedure("paired-t", "holm", omnibus="skillings-mack")
        return ranked, order, _omnibus(oriented, ranked, proc, cast(Any, table), False)
    n = items.n_items
    factor = tie_correction_factor(ranked.values())
    fried = friedman(ranked.average[ranked.canon], n, tie_factor=factor if factor > 0 else 1.0)
    return ranked, order, (fried, iman_davenport(fried.statistic, len(names), n), fried)


@dataclasses.dataclass(frozen=True)
class _ItemTable:
    """The names the board's omnibus step reads of its table."""

    algorithms: list[str]
    datasets: list[str]


def compare_benchmark(
    items: BenchmarkItems,
    *,
    test: str | None = None,
    correction: str | None = None,
    alpha: float = 0.05,
    control: str | None = None,
    higher_is_better: bool = True,
    confidence: float = 0.95,
    labels: Mapping[str, str] | None = None,
    bh_budget: float | None = None,
    fdr_groups: bool = False,
) -> BenchmarkComparison:
    """Compare models on the items of one benchmark: means, paired differences, groups.

    What :func:`cdplot.compare` runs on an item table with one task (or no task column);
    call it directly on :class:`~cdplot.io._benchmark.BenchmarkItems` (e.g. two runs
    joined by :func:`join_runs`).

    Parameters
    ----------
    items : BenchmarkItems
        The items x models scores (item means over samples), with clusters and samples.
    test : {"mcnemar", "paired-t", "cluster-t"}, optional
        The test of each pair's paired item scores. Default: "cluster-t" (the
        cluster-robust paired t-test) when the items come in clusters, "mcnemar" (exact)
        for 0/1 scores, else "paired-t". With clusters only "cluster-t" is accepted.
    correction : str, optional
        Any correction of :func:`cdplot.compare` (all pairs: "holm" (default), "shaffer",
        "bergmann-hommel", "hochberg", "hommel", "finner", "holland", "rom", "fdr-bh", ...;
        against a control also "bonferroni-dunn" and "li").
    alpha : float, default 0.05
        Significance level of ``significant`` and ``groups``.
    control : str, optional
        Compare every model with this one only.
    higher_is_better : bool, default True
        Whether a higher score is better (wins, order, groups); means and differences
        stay in raw score units.
    confidence : float, default 0.95
        The confidence level of the intervals of the means and of the differences.
    labels : mapping of str to str, optional
        Display names of the models.
    bh_budget : float, optional
        Time budget of ``correction="bergmann-hommel"`` (seconds).
    fdr_groups : bool, default False
        Form groups after a false-discovery-rate correction anyway.

    Returns
    -------
    BenchmarkComparison

    Raises
    ------
    CdplotInputError
        Fewer than two models, a test that does not suit the scores or the clusters, or a
        bad option (the message names the fix).

    Examples
    --------
    >>> import numpy as np
    >>> from cdplot.io._benchmark import BenchmarkItems
    >>> from cdplot.stats import compare_benchmark
    >>> rng = np.random.default_rng(1)
    >>> scores = (rng.random((300, 3)) < [0.4, 0.5, 0.7]).astype(float)
    >>> items = BenchmarkItems(("a", "b", "c"), tuple(map(str, range(300))), scores, True)
    >>> res = compare_benchmark(items, correction="bergmann-hommel")
    >>> res.test, res.correction, list(res.mean_scores.index)
    ('mcnemar', 'bergmann-hommel', ['c', 'b', 'a'])
    """
    proc = _procedure(items, test, correction, control, alpha, bh_budget)
    higher_is_better = check_bool(higher_is_better, "higher_is_better")
    confidence = check_confidence(confidence)
    fdr_groups = check_bool(fdr_groups, "fdr_groups")
    names = list(items.models)
    display = check_labels(labels, names)
    models = model_statistics(items, confidence=confidence)
    pairs = pair_statistics(items, test=_pair_test(proc), confidence=confidence)
    sign = 1.0 if higher_is_better else -1.0  # statistics oriented: positive, row better
    apv, significant = _adjusted(proc, pairs.pvalues, names)
    by_mean = _mean_order(np.asarray(models.mean, dtype=float), names, higher_is_better)
    groups: tuple = ()
    uncovered: tuple = ()
    if proc.control is None and (proc.correction not in FDR_CORRECTIONS or fdr_groups):
        groups, uncovered = named_groups(by_mean, significant, names)
    ranked, by_rank, omnibus = _ranks_and_omnibus(items, higher_is_better)
    return BenchmarkComparison(
        _input=_parts.Input(
            algorithms=names,
            datasets=list(items.items),
            scores=items.scores,
            higher_is_better=bool(higher_is_better),
            n_missing=count_missing(items.scores),
            labels=display,
            source_note=items.note,
        ),
        _ranking=_parts.Ranking(
            ranked.ranks,
            ranked.average[by_rank],
            tuple(names[j] for j in by_rank),
            "average rank",
            ranked.twice,
        ),
        _omnibus=_parts.Omnibus(*omnibus),
        _pairwise=_parts.Posthoc(
            proc.test,
            proc.correction,
            proc.alpha,
            proc.control,
            statistics=sign * np.asarray(pairs.statistic, dtype=float),
            pvalues=np.asarray(pairs.pvalues, dtype=float),
            adjusted_pvalues=apv,
            significant=significant,
            critical_difference=None,
            test_options=dict(proc.options),
            n_per_pair=np.asarray(pairs.n_items, dtype=np.int64),
            critical_difference_units="score",
            procedure=proc,
        ),
        _groups=_parts.Groups(groups, uncovered),
        _parametric=_parts.Parametric(
            np.asarray(models.mean, dtype=float)[by_mean], tuple(names[j] for j in by_mean)
        ),
        _benchmark=_design(items, proc, confidence, models, pairs),
    )


def _design(
    items: BenchmarkItems, proc: Procedure, confidence: float, models: Any, pairs: Any
) -> _parts.Benchmark:
    """Step 6: the design facts and the statistics in score units."""
    per_item = None
    if items.n_samples is not None:
        counts = np.asarray(items.n_samples)
        scored = counts[counts > 0]
        per_item = float(scored.mean()) if scored.size else None
    return _parts.Benchmark(
        n_items=items.n_items,
        binary=bool(items.binary),
        cluster_robust=proc.entry.clustered and items.clusters is not None,
        confidence=confidence,
        model_statistics=models,
        pair_statistics=pairs,
        n_clusters=items.n_clusters,
        samples_per_item=per_item,
        task=items.task,
        item_column=items.item_column,
        cluster_column=items.cluster_column,
        sample_column=items.sample_column,
        clusters=None if items.clusters is None else np.asarray(items.clusters, dtype=np.int64),
        cluster_ids=tuple(items.cluster_ids),
    )


def join_runs(runs: Sequence[BenchmarkItems], names: Sequence[str] | None = None) -> BenchmarkItems:
    """The models of several runs of one benchmark side by side, on their common items.

    Each run is one benchmark's items (one model each, e.g. a log file of a base and of a
    new model); the runs must score the same set of items (in any order) and may not both
    hold a model of the same name unless ``names`` renames them.

    Parameters
    ----------
    runs : sequence of BenchmarkItems
        Two or more runs of the same benchmark.
    names : sequence of str, optional
        One name per run for its model (runs of one model each), e.g. the files' stems.

    Returns
    -------
    BenchmarkItems
        The items in the first run's order, the models of every run.

    Raises
    ------
    CdplotInputError
        Runs of different item sets (naming how many items differ), a run of several
        models with ``names``, or a model name twice.

    Examples
    --------
    >>> import numpy as np
    >>> from cdplot.io._benchmark import BenchmarkItems
    >>> from cdplot.stats._benchmark import join_runs
    >>> base = BenchmarkItems(("m",), ("q1", "q2"), np.array([[1.0], [0.0]]), True)
    >>> new = BenchmarkItems(("m",), ("q2", "q1"), np.array([[1.0], [1.0]]), True)
    >>> joined = join_runs([base, new], names=["base", "new"])
    >>> joined.models, joined.scores.tolist()
    (('base', 'new'), [[1.0, 1.0], [0.0, 1.0]])
    """
    runs = list(runs)
    if names is not None:
        if len(names) != len(runs) or any(len(r.models) != 1 for r in runs):
            raise CdplotInputError(
                "names= gives one name per run, and each run must hold one model; "
                f"got {len(names)} names for {len(runs)} runs of "
                f"{[len(r.models) for r in runs]} models."
            )
        runs = [dataclasses.replace(r, models=(str(n),)) for r, n in zip(runs, names, strict=True)]
    first = runs[0]
    order = {item: i for i, item in enumerate(first.items)}
    models: list[str] = []
    for run in runs:
        _check_same_items(order, run)
        twice = set(models) & set(run.models)
        if twice:
            raise CdplotInputError(
                f"the model {sorted(twice)[0]!r} is in two runs; name the runs' models apart "
                "(the command line names them by their files)."
            )
        models += list(run.models)
    places = [np.array([order[item] for item in run.items]) for run in runs]
    clustered = _same_clusters(runs, places)
    return BenchmarkItems(
        tuple(models),
        first.items,
        np.hstack(
            [_in_order(run.scores, where, np.nan) for run, where in zip(runs, places, strict=True)]
        ),
        all(r.binary for r in runs),
        clusters=None if clustered is None else clustered.clusters,
        cluster_ids=() if clustered is None else clustered.cluster_ids,
        n_samples=_joined_samples(runs, places, "n_samples"),
        sample_var=_joined_samples(runs, places, "sample_var"),
        task=first.task,
        item_column=first.item_column,
        cluster_column=None if clustered is None else clustered.cluster_column,
        sample_column=next((r.sample_column for r in runs if r.sample_column), None),
        note=first.note,
    )


def _check_same_items(order: Mapping[str, int], run: BenchmarkItems) -> None:
    """A run scores the first run's items, and puts each in the same cluster."""
    only_here = set(run.items) - set(order)
    only_first = set(order) - set(run.items)
    if only_here or only_first:
        example = sorted(only_here or only_first)[0]
        raise CdplotInputError(
            f"the runs score different items ({len(only_first)} of the first run's "
            f"{len(order)} items are missing from a run, which has {len(only_here)} "
            f"items the first does not, e.g. {example!r}): they are not runs of the "
            "same benchmark; compare runs of the same item set."
        )


def _same_clusters(runs: list[BenchmarkItems], places: list[np.ndarray]) -> Any:
    """The first run with clusters, its cluster codes in the first run's item order; every
    run with clusters must put each item in the cluster of the same name."""
    with_clusters = [(r, w) for r, w in zip(runs, places, strict=True) if r.clusters is not None]
    if not with_clusters:
        return None
    named = []
    for run, where in with_clusters:
        names = np.empty(len(where), dtype=object)
        names[where] = np.asarray(run.cluster_ids, dtype=object)[run.clusters]
        named.append(names)
    for names in named[1:]:
        differ = np.flatnonzero(names != named[0])
        if differ.size:
            item = runs[0].items[int(differ[0])]
            raise CdplotInputError(
                f"the runs put {differ.size} items in different clusters (e.g. {item!r}: "
                f"{named[0][differ[0]]!r} and {names[differ[0]]!r}); give every run the same "
                "cluster column, or leave the clusters out."
            )
    run, where = with_clusters[0]
    codes = np.empty(len(where), dtype=np.int64)
    codes[where] = cast(np.ndarray, run.clusters)
    return dataclasses.replace(run, clusters=codes, items=runs[0].items)


def _in_order(values: np.ndarray, where: np.ndarray, fill: float) -> np.ndarray:
    """A run's items x models values in the first run's item order."""
    out = np.full((len(where), values.shape[1]), fill, dtype=values.dtype if fill == 0 else float)
    out[where] = values
    return out


def _joined_samples(runs: list[BenchmarkItems], places: list[np.ndarray], name: str) -> Any:
    """The runs' sample counts (one sample a scored cell of a run without samples) or sample
    variances side by side; None when no run has samples."""
    if all(getattr(r, name) is None for r in runs):
        return None
    parts = []
    for run, where in zip(runs, places, strict=True):
        value = getattr(run, name)
        if value is None and name == "n_samples":
            value = (~np.isnan(run.scores)).astype(np.int64)
        elif value is None:
            value = np.full(run.scores.shape, np.nan)
        parts.append(_in_order(np.asarray(value), where, 0 if name == "n_samples" else np.nan))
    return np.hstack(parts)


def compare_runs(
    runs: Sequence[BenchmarkItems], names: Sequence[str] | None = None, **options: Any
) -> BenchmarkComparison:
    """Compare runs of one benchmark (e.g. a base and a new model's logs) on their items.

    :func:`join_runs` then :func:`compare_benchmark`: with two runs, the paired difference
    of their mean scores with its interval and p-value and the items each won
    (``res.differences``; ``res.summary()`` says it in words). This is what
    ``cdplot compare base.jsonl new.jsonl`` runs.

    Parameters
    ----------
    runs : sequence of BenchmarkItems
        Runs of the same benchmark (the same set of items).
    names : sequence of str, optional
        One name per run of one model (e.g. ``["base", "new"]``).
    **options
        Keywords of :func:`compare_benchmark` (``test``, ``correction``, ``alpha``,
        ``confidence``, ``higher_is_better``, ...).

    Returns
    -------
    BenchmarkComparison

    Examples
    --------
    >>> import numpy as np
    >>> from cdplot.io._benchmark import BenchmarkItems
    >>> from cdplot.stats import compare_runs
    >>> ids = tuple(f"q{i}" for i in range(40))
    >>> base = BenchmarkItems(("m",), ids, np.tile([[1.0], [0.0]], (20, 1)), True)
    >>> new = BenchmarkItems(("m",), ids, np.ones((40, 1)), True)
    >>> row = compare_runs([base, new], names=["base", "new"]).differences.iloc[0]
    >>> row.model_1, float(row.difference), int(row.wins), int(row.losses)
    ('new', 0.5, 20, 0)
    """
    return compare_benchmark(join_runs(runs, names), **options)

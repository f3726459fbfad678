"""Item tests and paired differences from sufficient statistics computed in an engine.

:class:`cdplot.io.EngineStatistics` holds, per task, the k x k matrices (items both scored,
cross products, sums over common items, wins) that the in-memory tests compute from the
items x models matrices; here they become the same tests: :func:`engine_item_tests` (the
table of :func:`cdplot.stats.item_tests`) and :func:`engine_pair_statistics` (the
:class:`~cdplot.stats.PairStatistics` of one benchmark's task). 0/1 scores give the same
numbers bit for bit (every count is an integer); the paired t of continuous scores comes
from sums instead of the differences, equal to about 1e-12 relative.
"""

from __future__ import annotations

import itertools
import math
from typing import Any

import numpy as np

from .._errors import CdplotInputError, check_in_list
from ..io._engine_stats import EngineStatistics
from ._benchmark_pairs import (
    PAIR_INTERVALS,
    PairStatistics,
    _clustered_t,
    mcnemar_counts,
    paired_t_sums,
)
from ._options import check_alpha, check_confidence

__all__ = ["engine_item_tests", "engine_pair_statistics"]

#: a paired t's sum of squared differences below this share of the squares is zero (the
#: differences are constant), as ``np.all(d == d[0])`` decides in memory
CONSTANT_SHARE = 1e-12
#: the tests :func:`engine_pair_statistics` runs from sufficient statistics
ENGINE_PAIR_TESTS = ("mcnemar", "mcnemar-asymptotic", "paired-t", "clustered-t")


def _task_index(stats: EngineStatistics, task: str | None) -> int:
    if task is None:
        if len(stats.tasks) != 1:
            raise CdplotInputError(
                f"the statistics hold {len(stats.tasks)} tasks; name one with task=... "
                f"(one of {', '.join(map(repr, stats.tasks[:5]))}"
                f"{', ...' if len(stats.tasks) > 5 else ''})."
            )
        return 0
    if task not in stats.tasks:
        raise CdplotInputError(
            f"no task {task!r}; the tasks are {', '.join(map(repr, stats.tasks[:5]))}"
            f"{', ...' if len(stats.tasks) > 5 else ''}."
        )
    return stats.tasks.index(task)


def _paired_t_row(
    n: float, hi: float, hj: float, si: float, sj: float, cross: float
) -> tuple[str, float, float]:
    """The paired t of one pair (R's ``t.test(x, y, paired = TRUE)``) from its sums."""
    from scipy import stats

    diff = (hi - hj) / n
    ss = si + sj - 2.0 * cross - n * diff * diff
    if ss <= CONSTANT_SHARE * max(si + sj, 1e-300):
        return "paired t (constant differences)", math.nan, 1.0 if diff == 0 else 0.0
    t = diff / math.sqrt(ss / (n - 1) / n)
    return "paired t", float(t), float(2 * stats.t.sf(abs(t), n - 1))


def engine_item_tests(
    stats: EngineStatistics,
    *,
    method: str = "auto",
    correction: str = "holm",
    alpha: float = 0.05,
    exact_below: int = 25,
    higher_is_better: bool = True,
) -> Any:
    """Paired tests of every pair of models within every task, from engine statistics.

    The table of :func:`cdplot.stats.item_tests` (McNemar's test on a 0/1 task, the paired
    t-test otherwise), computed from :class:`cdplot.io.EngineStatistics` instead of the
    items: the rows never reach the client.

    Parameters
    ----------
    stats : EngineStatistics
        Of :func:`cdplot.io.engine_statistics`.
    method : {"auto", "paired-t"}
        As for :func:`cdplot.stats.item_tests`; its "permutation" needs the items' rows.
    correction, alpha, exact_below
        As for :func:`cdplot.stats.item_tests`.
    higher_is_better : bool, default True
        The direction of ``better``.

    Returns
    -------
    pandas.DataFrame
        The columns of :func:`cdplot.stats.item_tests`.

    Raises
    ------
    CdplotInputError
        ``method="permutation"`` (it needs the rows) or a bad option.

    Examples
    --------
    >>> import polars as pl
    >>> from cdplot.io import engine_statistics
    >>> rows = pl.LazyFrame({"task": ["t"] * 60, "model": ["A", "B"] * 30,
    ...     "item": [i // 2 for i in range(60)], "acc": [1, 0] * 20 + [1, 1] * 10})
    >>> tab = engine_item_tests(engine_statistics(rows, score="acc"))
    >>> tab.loc[0, ["test", "better"]].tolist()
    ['McNemar exact', 'A']
    """
    from ._items import _FAMILY_CORRECTIONS, _mcnemar_columns, _row_columns, _tests_frame

    if method == "permutation":
        raise CdplotInputError(
            "method='permutation' flips the signs of each item's difference, which needs the "
            "rows; use method='auto' or 'paired-t' (from the engine's sums), or collect the "
            "rows and call item_tests."
        )
    method = check_in_list(("auto", "paired-t"), method=method)
    correction = check_in_list(_FAMILY_CORRECTIONS, correction=correction)
    alpha = check_alpha(alpha)
    models = stats.models
    parts: list[dict[str, np.ndarray]] = []
    for t, task in enumerate(stats.tasks):
        both, hits, cross, sq = stats.both[t], stats.hits[t], stats.cross[t], stats.hit_squares[t]
        if method != "paired-t" and bool(stats.binary[t]):  # McNemar, every pair at once
            b = (hits - cross).astype(np.int64)
            parts.append(_mcnemar_columns(task, models, b, both, hits, exact_below))
            continue
        rows: list[tuple] = []
        for i, j in itertools.combinations(range(len(models)), 2):
            n = int(both[i, j])
            if n < 2:
                nan = math.nan
                rows.append(
                    (task, models[i], models[j], n, nan, nan, "too few common items", nan, nan)
                )
                continue
            pair = (hits[i, j], hits[j, i], sq[i, j], sq[j, i], cross[i, j])
            name, stat, p = _paired_t_row(n, *pair)
            rows.append(
                (task, models[i], models[j], n, hits[i, j] / n, hits[j, i] / n, name, stat, p)
            )
        parts.append(_row_columns(rows))
    return _tests_frame(parts, correction, alpha, bool(higher_is_better))


def engine_pair_statistics(
    stats: EngineStatistics,
    task: str | None = None,
    *,
    test: str | None = None,
    confidence: float = 0.95,
    interval: str | None = None,
    higher_is_better: bool = True,
) -> PairStatistics:
    """Every pair's paired difference on one task (one benchmark), from engine statistics.

    :func:`cdplot.stats.pair_statistics` of the task's items, without the items.

    Parameters
    ----------
    stats : EngineStatistics
        Of :func:`cdplot.io.engine_statistics` (with ``cluster=`` for "clustered-t").
    task : str, optional
        The task; needed when the statistics hold several.
    test : {"mcnemar", "mcnemar-asymptotic", "paired-t", "clustered-t"}, optional
        As for :func:`cdplot.stats.pair_statistics` (its default likewise); the paired
        bootstrap is :func:`cdplot.io.engine_bootstrap`'s hashed replicates.
    confidence, interval, higher_is_better
        As for :func:`cdplot.stats.pair_statistics`.

    Returns
    -------
    PairStatistics

    Raises
    ------
    CdplotInputError
        An unknown task, a McNemar test of scores other than 0/1, "clustered-t" without
        clusters, fewer than two clusters or with missing scores.

    Examples
    --------
    >>> import duckdb, pandas as pd
    >>> from cdplot.io import engine_statistics
    >>> scores = pd.DataFrame({"task": "t", "model": ["a", "b"] * 6,
    ...     "item": [i // 2 for i in range(12)],
    ...     "score": [1, 0, 1, 1, 1, 0, 0, 0, 1, 0, 1, 1]})
    >>> ps = engine_pair_statistics(engine_statistics(duckdb.from_df(scores)))
    >>> int(ps.wins[0, 1]), round(float(ps.pvalues[0, 1]), 4)
    (3, 0.25)
    """
    t = _task_index(stats, task)
    confidence = check_confidence(confidence)
    binary = bool(stats.binary[t])
    default = (
        "clustered-t" if stats.cluster_sums is not None else "mcnemar" if binary else "paired-t"
    )
    test = check_in_list(ENGINE_PAIR_TESTS, test=test or default)
    if test.startswith("mcnemar") and not binary:
        raise CdplotInputError(
            f"test={test!r} is for binary (0/1) scores; these are not binary: use test='paired-t'."
        )
    if interval is not None:
        interval = check_in_list(PAIR_INTERVALS, interval=interval)
    both, hits, cross = stats.both[t], stats.hits[t], stats.cross[t]
    wins = np.rint(stats.wins[t]).astype(np.int64)
    if not higher_is_better:
        wins = wins.T.copy()
    if test.startswith("mcnemar"):
        out = mcnemar_counts(both, cross, hits - cross, test, confidence, interval)
    elif test == "paired-t":
        out = paired_t_sums(both, hits, cross, stats.hit_squares[t], confidence)
    else:
        out = _clustered(stats, t, confidence)
    for name in ("difference", "low", "high", "se", "statistic", "pvalues"):
        np.fill_diagonal(out[name], np.nan)
    return PairStatistics(
        wins=wins,
        test=test,
        confidence=confidence,
        higher_is_better=bool(higher_is_better),
        **out,
    )


def _clustered(stats: EngineStatistics, t: int, confidence: float) -> dict[str, Any]:
    """The cluster-robust paired t from the task's per-cluster sums."""
    if stats.cluster_sums is None or stats.cluster_sizes is None:
        raise CdplotInputError(
            "test='clustered-t' needs the items' clusters; compute the statistics with "
            "engine_statistics(..., cluster=COLUMN), or use test='paired-t'."
        )
    if (stats.n[t] != stats.n_items[t]).any():
        raise CdplotInputError(
            "test='clustered-t' needs every model scored on every item, but some scores are "
            "missing; drop those items or models, or use test='paired-t'."
        )
    units, sizes = stats.cluster_sums[t], stats.cluster_sizes[t]
    if units.shape[0] < 2:
        raise CdplotInputError(
            f"test='clustered-t' needs at least 2 clusters of items, got {units.shape[0]}; "
            "check the cluster column, or use test='paired-t'."
        )
    out = _clustered_t(units, sizes, confidence)
    out["n_clusters"] = units.shape[0]
    return out

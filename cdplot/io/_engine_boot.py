"""Bootstrap replicates as weighted group-bys in the frame's engine, with hashed Poisson weights.

Each replicate weighs every item (or cluster) by a Poisson(1) count drawn from a hash of
(task, item id, replicate, seed): the Poisson bootstrap, whose replicate is the same in every
engine and every partitioning because the weight is a function of the row's ids, not of the
order the rows are met. The hash is integer arithmetic modulo the prime ``P = 2^31 - 1``
(every product below ``2^62``, so no engine overflows or wraps), written once in numpy
(:mod:`cdplot.io._engine_hash`) and once as Narwhals expressions; the weight is the inverse
Poisson(1) CDF of the hash, by integer comparison with the thresholds ``ceil(F(k) P)``.
Each block of replicates is one grouped pass (per task and model: weighted score sums and
weighted counts), except for 0/1 scores in DuckDB (:mod:`cdplot.io._engine_bitboot`: one
pass for all replicates); the hierarchical bootstrap (tasks, then items) adds a second
hashed weight per task and replicate, applied on the client to the ``T x k`` sums.
"""

from __future__ import annotations

import dataclasses
import functools
import operator
import time
import uuid
from typing import Any

import numpy as np

from .._errors import CdplotInputError, check_in_list
from ._engine import check_engine_columns, engine_failure, engine_frame, engine_name, narwhals
from ._engine_bitboot import bitset_replicates
from ._engine_dask import dask_replicates
from ._engine_hash import _M, TASKS, P, _constants, hashed_poisson, poisson_thresholds, unit_ids
from ._engine_stats import EngineStatistics

__all__ = [
    "BOOTSTRAP_LEVELS",
    "BootstrapReplicates",
    "engine_bootstrap",
    "hashed_poisson",
    "poisson_thresholds",
    "unit_ids",
]

#: replicates of one grouped pass
BLOCK = 32
#: values of ``engine_bootstrap(level=...)``
BOOTSTRAP_LEVELS = ("item", "cluster", "hierarchical", "task")


def _hashed_weights(frame: Any, reps: range, seed: int, barrier: Any = None) -> Any:
    """Columns ``_w{r}``: :func:`hashed_poisson` of the Int64 column ``_id``, one round of
    the hash per ``with_columns`` (a round reads the previous one's column, so no engine
    expands a shared sub-expression). ``barrier`` (a frame to frame function) is applied
    after each round that reads its input more than once: an engine that inlines the rounds
    into one expression (DuckDB) would otherwise repeat the earlier rounds 15 x 12 times."""
    nw = narwhals()
    barrier = barrier or (lambda f: f)
    consts = {r: _constants(int(r), int(seed)) for r in reps}

    def step(make: Any) -> Any:
        return [make(nw.col(f"_h{r}"), *consts[r]).alias(f"_h{r}") for r in reps]

    first = (nw.col("_id") % P + P) % P * _M[0] % P
    frame = frame.with_columns(*[((first + consts[r][0]) % P).alias(f"_h{r}") for r in reps])
    frame = barrier(frame.with_columns(*step(lambda h, c1, c2: (h * h % P + _M[1]) % P)))
    frame = frame.with_columns(*step(lambda h, c1, c2: (h * _M[2] % P + c2) % P))
    frame = barrier(frame.with_columns(*step(lambda h, c1, c2: (h * h % P + h) % P)))
    frame = frame.with_columns(*step(lambda h, c1, c2: (h * _M[3] % P + c1) % P))
    frame = barrier(frame.with_columns(*step(lambda h, c1, c2: (h * h % P + _M[4]) % P)))
    # [h >= T] as a comparison cast to an integer (a floor division is written with
    # branches for negative operands by some engines' translations, several times slower)
    limits = [int(t) for t in poisson_thresholds()]
    return frame.with_columns(
        *[
            functools.reduce(
                operator.add, [(nw.col(f"_h{r}") >= lim).cast(nw.Int64) for lim in limits]
            ).alias(f"_w{r}")
            for r in reps
        ]
    )


def _weighted_partition(part: Any, reps: range, seed: int, t: str, m: str) -> Any:
    """One pandas partition's weighted scores and counts, by the numpy hash (row-wise: the
    same for every partitioning)."""
    import pandas as pd

    ids = part["_id"].to_numpy(dtype=np.int64)
    x, seen = part["_x"].to_numpy(dtype=float), part["_s"].to_numpy(dtype=float)
    out = {t: part[t].to_numpy(), m: part[m].to_numpy()}
    for r in reps:
        w = hashed_poisson(ids, r, seed).astype(float)
        out[f"_ws{r}"], out[f"_wn{r}"] = w * x, w * seen
    return pd.DataFrame(out, index=part.index)


def _weighted_rows(base: Any, reps: range, seed: int, t: str, m: str) -> Any:
    """Columns ``_ws{r}``, ``_wn{r}`` of weighted scores and counts: pandas-like engines
    (pandas, Dask) run the numpy hash on each partition, the others its expressions."""
    nw = narwhals()
    name = engine_name(base)
    if name in ("pandas", "dask"):
        native = base.to_native()
        if name == "dask":
            meta = _weighted_partition(native._meta, reps, seed, t, m)
            native = native.map_partitions(_weighted_partition, reps, seed, t, m, meta=meta)
        else:
            native = _weighted_partition(native, reps, seed, t, m)
        return engine_frame(native)
    base = _hashed_weights(base, reps, seed)
    made = []
    for r in reps:
        w = nw.col(f"_w{r}")
        made += [(w * nw.col("_x")).alias(f"_ws{r}"), (w * nw.col("_s")).alias(f"_wn{r}")]
    return base.select(t, m, *made)


class _TempTables:
    """DuckDB temporary tables that hold a frame's rows between hash rounds (a frame to
    frame function), dropped on exit; other engines pass frames through unchanged."""

    def __init__(self, source: Any) -> None:
        self.native = narwhals().to_native(source) if engine_name(source) == "duckdb" else None
        self.names: list[str] = []

    def __call__(self, frame: Any) -> Any:
        if self.native is None:
            return frame
        name = f"cdplot_hash_{uuid.uuid4().hex}"
        narwhals().to_native(frame).query(
            "cdplot_rows", f"CREATE TEMP TABLE {name} AS SELECT * FROM cdplot_rows"
        )
        self.names.append(name)
        return engine_frame(self.native.query("cdplot_rows", f"SELECT * FROM {name}"))

    def __enter__(self) -> _TempTables:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.native is None:
            return
        for name in self.names:
            self.native.query("cdplot_rows", f"DROP TABLE IF EXISTS {name}")


def _weighted_units(
    source: Any,
    unit: str,
    ident: Any,
    reps: range,
    seed: int,
    cols: dict[str, str | None],
    barrier: Any,
) -> Any:
    """Columns ``_ws{r}``, ``_wn{r}`` for the engines of expressions: the weights hashed once
    per distinct (task, unit), not per row (a unit's rows share its weight, and the hash's
    integer divisions cost more than a join), then joined to the rows on (task, unit)."""
    nw = narwhals()
    t, m, x = str(cols["task"]), str(cols["model"]), nw.col("_x")
    # a grouped count, not unique(): some engines find distinct rows by a window over all rows
    units = source.group_by(t, unit).agg(nw.len().alias("_rows")).select(t, unit)
    units = units.with_columns(ident.alias("_id"))
    units = _hashed_weights(units, reps, seed, barrier)
    units = units.select(t, unit, *[f"_w{r}" for r in reps])
    score = nw.col(str(cols["score"])).cast(nw.Float64)
    rows = source.select(
        nw.col(t),
        nw.col(m),
        nw.col(unit),
        score.fill_null(0.0).alias("_x"),
        (~score.is_null()).cast(nw.Int64).alias("_s"),
    )
    joined = rows.join(units, on=[t, unit], how="inner")
    made = []
    for r in reps:
        w = nw.col(f"_w{r}")
        made += [(w * x).alias(f"_ws{r}"), (w * nw.col("_s")).alias(f"_wn{r}")]
    return joined.select(t, m, *made)


def _task_code(column: str, tasks: tuple[str, ...]) -> Any:
    """Each row's task as its index in the sorted task names (an Int64 expression)."""
    nw = narwhals()
    code = nw.lit(0, dtype=nw.Int64)
    for t, name in enumerate(tasks[1:], start=1):
        code = nw.when(nw.col(column) == name).then(t).otherwise(code)
    return code.cast(nw.Int64)


@dataclasses.dataclass(frozen=True, eq=False)
class BootstrapReplicates:
    """Weighted sums of every replicate: what rank intervals and P(best) are made from.

    Attributes
    ----------
    tasks, models : tuple of str
        As in the :class:`EngineStatistics` they were made with.
    sums, weights : numpy.ndarray
        ``B x T x k``: per replicate, task and model the weighted score sum and the summed
        weights of the scored items (the replicate's task mean is their ratio).
    task_weights : numpy.ndarray
        ``B x T``: the tasks' weights (hashed Poisson(1) of the task, "hierarchical" and
        "task"; ones otherwise).
    level : str
        "item", "cluster", "hierarchical" (tasks, then items) or "task".
    seed : int
        The seed of the hashed weights.
    engine : str
        The engine that computed them.
    seconds : float
        Wall time spent in the engine.
    """

    tasks: tuple[str, ...]
    models: tuple[str, ...]
    sums: np.ndarray
    weights: np.ndarray
    task_weights: np.ndarray
    level: str
    seed: int
    engine: str
    seconds: float

    @property
    def n_boot(self) -> int:
        """Replicates."""
        return int(self.sums.shape[0])

    @property
    def means(self) -> np.ndarray:
        """``B x T x k`` replicate task means (NaN where a replicate weighs no item)."""
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(self.weights > 0, self.sums / self.weights, np.nan)


def _check_seed(seed: Any) -> int:
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise CdplotInputError(
            f"seed must be a non-negative integer (hashed weights need one), got {seed!r}."
        )
    return int(seed)


def _check_options(stats: EngineStatistics, n_boot: Any, level: str) -> str:
    level = check_in_list(BOOTSTRAP_LEVELS, level=level)
    if isinstance(n_boot, bool) or not isinstance(n_boot, (int, np.integer)):
        raise CdplotInputError(f"n_boot must be an integer, got {n_boot!r}; e.g. n_boot=1000.")
    if not 1 <= n_boot <= 100_000:
        raise CdplotInputError(f"n_boot must be from 1 to 100,000, got {n_boot}.")
    if level == "cluster" and stats.columns["cluster"] is None:
        raise CdplotInputError(
            "level='cluster' resamples the clusters; compute the statistics with "
            "engine_statistics(..., cluster=COLUMN), or use level='item'."
        )
    if stats.source is None:
        raise CdplotInputError(
            "these statistics keep no frame to resample; compute them with "
            "engine_statistics(frame, ...) first."
        )
    return level


def engine_bootstrap(
    stats: EngineStatistics,
    *,
    n_boot: int = 1000,
    seed: int = 0,
    level: str = "hierarchical",
    progress: bool = False,
) -> BootstrapReplicates:
    """Poisson bootstrap replicates computed in the engine, the same in every engine.

    Parameters
    ----------
    stats : EngineStatistics
        Of :func:`cdplot.io.engine_statistics` (its frame is read again, once per
        :data:`BLOCK` replicates; 0/1 scores in DuckDB or Dask resampled by items are read
        once, as item bitsets, and all replicates made by matrix products, on the client or,
        on Dask, one cluster task per task); the item (or cluster) ids must be integers.
    n_boot : int, default 1000
        Replicates (1 to 100,000).
    seed : int, default 0
        The seed of the hashed weights: one seed gives one set of replicates everywhere.
    level : {"hierarchical", "item", "cluster", "task"}
        What is resampled: "item" the items within each task; "cluster" the clusters
        within each task (``cluster=`` given to ``engine_statistics``); "hierarchical" the
        tasks, then the items within each task (two hashed weights); "task" the tasks only.
    progress : bool, default False
        Show a progress bar over the blocks of replicates (or, from item bitsets, the
        tasks; tqdm).

    Returns
    -------
    BootstrapReplicates

    Raises
    ------
    CdplotInputError
        A bad option, ids that are not integers, "cluster" without clusters, or the engine
        failing (nothing is written).

    Examples
    --------
    >>> import polars as pl
    >>> from cdplot.io import engine_statistics
    >>> rows = pl.LazyFrame({"task": ["t"] * 6, "model": ["A", "B"] * 3,
    ...     "item": [0, 0, 1, 1, 2, 2], "score": [1.0, 0.0, 1.0, 1.0, 0.0, 1.0]})
    >>> boot = engine_bootstrap(engine_statistics(rows), n_boot=4, seed=1, level="item")
    >>> boot.weights[:, 0, 0].tolist()  # the Poisson weights of the 3 items, summed
    [4.0, 3.0, 5.0, 4.0]
    """
    seed = _check_seed(seed)
    level = _check_options(stats, n_boot, level)
    cols = stats.columns
    unit = str(cols["cluster"] if level == "cluster" else cols["item"])
    shape = (n_boot, len(stats.tasks), len(stats.models))
    task_weights = np.ones(shape[:2])
    if level in ("hierarchical", "task"):
        codes = np.arange(len(stats.tasks))
        task_weights = np.array(
            [hashed_poisson(codes, r, seed + 1) for r in range(n_boot)], dtype=float
        )
    if level == "task":  # the tasks' weights on the observed task means
        sums = np.broadcast_to(stats.sums, shape).copy()
        counts = np.broadcast_to(stats.n.astype(float), shape).copy()
        return BootstrapReplicates(
            stats.tasks, stats.models, sums, counts, task_weights, level, seed, stats.engine, 0.0
        )
    check_engine_columns(stats.source, text={}, numeric={}, integer={"item id": unit})
    start = time.perf_counter()
    try:
        made = _from_bitsets(stats, level, n_boot, seed, progress)
        sums, weights = made or _grouped_passes(stats, unit, n_boot, seed, progress)
    except (CdplotInputError, AttributeError, NameError, KeyError, IndexError):
        raise
    except Exception as exc:  # noqa: BLE001 - the engine's own failure
        raise engine_failure(exc, "resampling") from exc
    return BootstrapReplicates(
        stats.tasks,
        stats.models,
        sums,
        weights,
        task_weights,
        level,
        seed,
        engine_name(stats.source),
        time.perf_counter() - start,
    )


def _from_bitsets(
    stats: EngineStatistics, level: str, n_boot: int, seed: int, progress: bool
) -> tuple[np.ndarray, np.ndarray] | None:
    """The replicates of 0/1 scores in DuckDB or Dask by item bitsets (one pass for all
    replicates; :mod:`cdplot.io._engine_bitboot`, :mod:`cdplot.io._engine_dask`), or
    ``None`` where the grouped passes are needed."""
    name = engine_name(stats.source)
    if level not in ("item", "hierarchical") or name not in ("duckdb", "dask"):
        return None
    if not bool(np.all(stats.binary)):
        return None
    if name == "dask":
        native = narwhals().to_native(stats.source)
        return dask_replicates(
            native, stats.columns, stats.tasks, stats.models, n_boot, seed, progress
        )
    return bitset_replicates(stats, n_boot, seed, progress)


def _grouped_passes(
    stats: EngineStatistics, unit: str, n_boot: int, seed: int, progress: bool
) -> tuple[np.ndarray, np.ndarray]:
    """The replicates by grouped passes in the engine, one per :data:`BLOCK` replicates."""
    from tqdm.auto import tqdm

    shape = (n_boot, len(stats.tasks), len(stats.models))
    sums, weights = np.zeros(shape), np.zeros(shape)
    for first in tqdm(range(0, n_boot, BLOCK), desc="bootstrap", disable=not progress, leave=False):
        _block(stats, unit, range(first, min(n_boot, first + BLOCK)), seed, sums, weights)
    return sums, weights


def _block(
    stats: EngineStatistics,
    unit: str,
    reps: range,
    seed: int,
    sums: np.ndarray,
    weights: np.ndarray,
) -> None:
    """One grouped pass: per task and model, each replicate's weighted sums and counts."""
    nw = narwhals()
    cols = stats.columns
    t, m = str(cols["task"]), str(cols["model"])
    x = nw.col(str(cols["score"])).cast(nw.Float64)
    ident = (nw.col(unit).cast(nw.Int64) % P) * TASKS + _task_code(t, stats.tasks)
    base = stats.source.select(
        nw.col(t),
        nw.col(m),
        x.fill_null(0.0).alias("_x"),
        (~x.is_null()).cast(nw.Int64).alias("_s"),
        ident.alias("_id"),
    )
    aggs = [nw.col(f"_w{kind}{r}").sum() for r in reps for kind in ("s", "n")]
    with _TempTables(stats.source) as barrier:
        if engine_name(stats.source) in ("pandas", "dask"):
            weighted = _weighted_rows(base, reps, seed, t, m)
        else:
            weighted = _weighted_units(stats.source, unit, ident, reps, seed, cols, barrier)
        frame = weighted.group_by(t, m).agg(*aggs).collect()
    where_t = {name: i for i, name in enumerate(stats.tasks)}
    where_m = {name: i for i, name in enumerate(stats.models)}
    ti = np.array([where_t[str(v)] for v in frame.get_column(t).to_list()], dtype=np.int64)
    mi = np.array([where_m[str(v)] for v in frame.get_column(m).to_list()], dtype=np.int64)
    for r in reps:
        sums[r, ti, mi] = np.nan_to_num(frame.get_column(f"_ws{r}").to_numpy().astype(float))
        weights[r, ti, mi] = np.nan_to_num(frame.get_column(f"_wn{r}").to_numpy().astype(float))

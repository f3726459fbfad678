"""Sufficient statistics of item scores, computed in the frame's own engine.

:func:`engine_statistics` runs three grouped passes written once as Narwhals expressions
(:mod:`cdplot.io._engine`), so Polars, DuckDB, Dask, PySpark and pandas run the same
statistics where the rows live; the client receives ``O(k^2 * tasks)`` numbers, never the
rows:

1. per task and model: rows, scores, their sums and sums of squares, scores other than 0/1
   (the task x model table, and the engine's plain group-by);
2. per task and item: each model's score in a column of its own (the items x models pivot,
   kept in the engine);
3. per task: for every pair of models the items both scored, the cross products
   ``sum x_i x_j`` (co-success counts of 0/1 scores), ``sum x_i [j scored]``, ``sum x_i^2 [j
   scored]`` and, for scores other than 0/1, the items on which ``x_i > x_j``; with clusters,
   per task and cluster each model's score sums and the cluster's items.

Item tests, paired differences, the one-benchmark pairs and the task-level analysis follow
from these (:mod:`cdplot.stats._engine`).
"""

from __future__ import annotations

import dataclasses
import time
from typing import Any

import numpy as np

from .._errors import CdplotInputError
from ._engine import check_engine_columns, engine_failure, engine_frame, engine_name, narwhals

__all__ = ["EngineStatistics", "engine_statistics"]

#: pair expressions of one grouped pass (bounded width of one engine query)
PAIR_BLOCK = 2_000


@dataclasses.dataclass(frozen=True, eq=False)
class EngineStatistics:
    """Per-task sufficient statistics of item scores, computed where the rows live.

    Attributes
    ----------
    tasks, models : tuple of str
        Task and model names, sorted (so every engine gives the same order).
    n, sums, squares : numpy.ndarray
        ``T x k``: scored items, score sums and sums of squares of each task and model.
    n_items : numpy.ndarray
        ``T``: items of each task (scored by at least one model).
    binary : numpy.ndarray
        ``T`` booleans: every score of the task is 0 or 1.
    both, cross, hits, hit_squares : numpy.ndarray
        ``T x k x k``: items both models scored, ``sum x_i x_j``, ``sum x_i [j scored]`` and
        ``sum x_i^2 [j scored]`` over the task's items (a missing score counts 0).
    wins : numpy.ndarray
        ``T x k x k``: items both scored on which ``x_i > x_j`` (binary tasks: ``hits -
        cross``).
    columns : dict
        The roles' columns: ``task``, ``model``, ``item``, ``score`` and ``cluster``.
    cluster_ids : tuple of tuple, optional
        Each task's clusters (sorted), with clusters.
    cluster_sums, cluster_sizes : tuple of numpy.ndarray, optional
        Each task's ``G x k`` score sums per cluster and ``G`` items per cluster.
    engine : str
        The engine that computed them ("duckdb", "polars", "dask", ...).
    seconds : float
        Wall time spent in the engine.
    rows : int
        Rows read.
    source : Any
        The Narwhals frame they were computed from (for :meth:`extend` and the bootstrap).
    """

    tasks: tuple[str, ...]
    models: tuple[str, ...]
    n: np.ndarray
    sums: np.ndarray
    squares: np.ndarray
    n_items: np.ndarray
    binary: np.ndarray
    both: np.ndarray
    cross: np.ndarray
    hits: np.ndarray
    hit_squares: np.ndarray
    wins: np.ndarray
    columns: dict[str, str | None]
    engine: str
    seconds: float
    rows: int
    cluster_ids: tuple[tuple[Any, ...], ...] | None = None
    cluster_sums: tuple[np.ndarray, ...] | None = None
    cluster_sizes: tuple[np.ndarray, ...] | None = None
    source: Any = dataclasses.field(default=None, repr=False)

    @property
    def means(self) -> np.ndarray:
        """``T x k`` mean scores (NaN where a model scored no item of the task)."""
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(self.n > 0, self.sums / np.maximum(self.n, 1), np.nan)

    def task_frame(self) -> Any:
        """The long task x model table of mean scores (pandas), the board's input."""
        import pandas as pd

        t, m = np.nonzero(self.n > 0)
        return pd.DataFrame(
            {
                self.columns["task"]: np.asarray(self.tasks, dtype=object)[t],
                self.columns["model"]: np.asarray(self.models, dtype=object)[m],
                self.columns["score"]: self.means[t, m],
            }
        )

    def extend(self, new_rows: Any, *, progress: bool = False) -> EngineStatistics:
        """The statistics with the models of ``new_rows`` added, at the new models' cost.

        Only the pairs with a new model are computed (one pass over the joined rows); the
        old pairs are kept. Equals :func:`engine_statistics` of the old and new rows.

        Parameters
        ----------
        new_rows : frame
            Rows of new models only, with the same columns, in the same engine.
        progress : bool, default False
            Show a progress bar (tqdm).

        Returns
        -------
        EngineStatistics

        Raises
        ------
        CdplotInputError
            A model of ``new_rows`` that is already there, or different columns.
        """
        if self.source is None:
            raise CdplotInputError(
                "these statistics keep no frame to extend; compute them with "
                "engine_statistics(frame, ...) first."
            )
        new = engine_frame(new_rows)
        nw = narwhals()
        cols = self.columns
        clash = set(_distinct(new, str(cols["model"]))) & set(self.models)
        if clash:
            raise CdplotInputError(
                f"model(s) {', '.join(map(repr, sorted(clash)))} are already in the "
                "statistics; extend() adds new models only (recompute to replace one)."
            )
        keep = [c for c in cols.values() if c is not None]
        try:
            both = nw.concat([self.source.select(keep), new.select(keep)], how="vertical")
        except Exception as exc:  # noqa: BLE001 - different columns or engines
            raise CdplotInputError(
                f"cannot add rows with columns {list(new.collect_schema())} to a frame with "
                f"{keep} in the same engine ({exc}); pass rows of the same columns and engine."
            ) from exc
        return _compute(both, cols, progress, old=self)


def _distinct(frame: Any, column: str) -> list[Any]:
    out = frame.select(column).unique().collect()
    return out.get_column(column).to_list()


def engine_statistics(
    data: Any,
    *,
    task: str = "task",
    model: str = "model",
    item: str = "item",
    score: str = "score",
    cluster: str | None = None,
    progress: bool = False,
) -> EngineStatistics:
    """Sufficient statistics of item scores, computed in the frame's own engine.

    Parameters
    ----------
    data : frame
        Long rows (task, model, item, score; one row per model and item of a task) in a
        Polars ``LazyFrame`` or ``DataFrame``, a DuckDB relation (a Parquet folder through
        :func:`cdplot.io.read_parquet_duckdb`), a Dask DataFrame (on a ``distributed``
        cluster or not), a PySpark DataFrame, or a pandas DataFrame.
    task, model, item, score : str
        The columns. ``score`` must be numeric (or boolean).
    cluster : str, optional
        The column of each item's cluster (the per-cluster sums of the cluster-robust tests).
    progress : bool, default False
        Show a progress bar over the engine's passes (tqdm).

    Returns
    -------
    EngineStatistics

    Raises
    ------
    CdplotInputError
        A missing column or one of the wrong type, a model scored twice on an item, fewer
        than two models, narwhals not installed (the message names ``cdplot[engines]``),
        or the engine failing (a cluster gone: nothing is written).

    Examples
    --------
    >>> import polars as pl
    >>> rows = pl.LazyFrame({"task": ["t"] * 4, "model": ["A", "B"] * 2,
    ...     "item": [0, 0, 1, 1], "score": [1.0, 0.0, 1.0, 1.0]})
    >>> st = engine_statistics(rows)
    >>> st.engine, st.cross[0].tolist(), st.wins[0].tolist()
    ('polars', [[2.0, 1.0], [1.0, 1.0]], [[0.0, 1.0], [0.0, 0.0]])
    """
    frame = engine_frame(data)
    cols = {"task": task, "model": model, "item": item, "score": score, "cluster": cluster}
    text = {"task": task, "model": model, "item": item}
    if cluster is not None:
        text["cluster"] = cluster
    check_engine_columns(frame, text=text, numeric={"score": score}, integer={})
    return _compute(frame, cols, progress, old=None)


def _compute(
    frame: Any, cols: dict[str, str | None], progress: bool, old: EngineStatistics | None
) -> EngineStatistics:
    """The three passes (and the cluster pass), timed, behind one progress bar."""
    from tqdm.auto import tqdm

    start = time.perf_counter()
    with tqdm(total=3, desc="engine statistics", disable=not progress, leave=False) as bar:
        try:
            cells = _cells(frame, cols)
            bar.update()
            tasks, models = cells["tasks"], cells["models"]
            wide = _pivot(frame, cols, tasks, models)
            bar.update()
            pairs = _pairs(wide, cols, tasks, models, cells["binary"], old)
            clusters = _clusters(wide, cols, tasks, models) if cols["cluster"] else None
            bar.update()
        except (CdplotInputError, AttributeError, NameError, KeyError, IndexError):
            raise
        except Exception as exc:  # noqa: BLE001 - the engine's own failure
            raise engine_failure(exc, "computing the statistics") from exc
    return EngineStatistics(
        tasks=tasks,
        models=models,
        n=cells["n"],
        sums=cells["sums"],
        squares=cells["squares"],
        binary=cells["binary"],
        n_items=pairs.pop("n_items"),
        **pairs,
        columns=dict(cols),
        engine=engine_name(frame),
        seconds=time.perf_counter() - start,
        rows=cells["rows"],
        cluster_ids=None if clusters is None else clusters[0],
        cluster_sums=None if clusters is None else clusters[1],
        cluster_sizes=None if clusters is None else clusters[2],
        source=frame,
    )


def _index(values: list[Any], names: tuple[str, ...]) -> np.ndarray:
    where = {name: i for i, name in enumerate(names)}
    return np.array([where[str(v)] for v in values], dtype=np.int64)


def _cells(frame: Any, cols: dict[str, str | None]) -> dict[str, Any]:
    """Pass 1: the task x model group-by (rows, scores, sums, squares, non-0/1 scores)."""
    nw = narwhals()
    t, m, s = cols["task"], cols["model"], cols["score"]
    x = nw.col(s).cast(nw.Float64)
    out = (
        frame.with_columns(
            _x=x,
            _q=x * x,
            _odd=nw.when(x.is_null() | (x == 0.0) | (x == 1.0)).then(0).otherwise(1),
        )
        .group_by(t, m)
        .agg(
            nw.len().alias("_rows"),
            nw.col("_x").count().alias("_n"),
            nw.col("_x").sum().alias("_s"),
            nw.col("_q").sum().alias("_q"),
            nw.col("_odd").sum().alias("_odd"),
        )
        .collect()
    )
    task_v, model_v = out.get_column(t).to_list(), out.get_column(m).to_list()
    for column, values, what in ((t, task_v, "task"), (m, model_v, "model")):
        if any(v is None for v in values):
            raise CdplotInputError(
                f"the {what} column {column!r} is empty in some rows; every row needs a "
                f"{what} name (fill them in, or filter those rows out)."
            )
    tasks = tuple(sorted({str(v) for v in task_v}))
    models = tuple(sorted({str(v) for v in model_v}))
    if len(models) < 2:
        raise CdplotInputError(
            f"need at least 2 models to compare, got {len(models)}; add the other models' rows."
        )
    ti, mi = _index(task_v, tasks), _index(model_v, models)
    shape = (len(tasks), len(models))
    arrays = {}
    for key, column in (("n", "_n"), ("sums", "_s"), ("squares", "_q"), ("odd", "_odd")):
        values = np.nan_to_num(out.get_column(column).to_numpy().astype(float))
        arrays[key] = np.zeros(shape)
        arrays[key][ti, mi] = values
    rows = int(np.asarray(out.get_column("_rows").to_numpy(), dtype=np.int64).sum())
    return {
        "tasks": tasks,
        "models": models,
        "n": arrays["n"].astype(np.int64),
        "sums": arrays["sums"],
        "squares": arrays["squares"],
        "binary": arrays["odd"].sum(axis=1) == 0,
        "rows": rows,
    }


def _pivot(frame: Any, cols: dict[str, str | None], tasks: Any, models: Any) -> Any:
    """Pass 2 (lazy): one row per task and item, a score and a count column per model."""
    nw = narwhals()
    m, s = cols["model"], cols["score"]
    x = nw.col(s).cast(nw.Float64)
    made = []
    for j, name in enumerate(models):
        here = nw.col(m) == name
        made.append(nw.when(here).then(x).otherwise(None).alias(f"_x{j}"))
        made.append(nw.when(here & ~x.is_null()).then(1).otherwise(0).alias(f"_c{j}"))
    keys = [cols["task"], cols["item"]] + ([cols["cluster"]] if cols["cluster"] else [])
    aggs = []
    for j in range(len(models)):
        aggs.append(nw.col(f"_x{j}").sum().alias(f"_x{j}"))
        aggs.append(nw.col(f"_c{j}").sum().alias(f"_c{j}"))
    wide = frame.select(*keys, *made).group_by(*keys).agg(*aggs)
    return wide.with_columns(
        *(nw.col(f"_x{j}").fill_null(0.0) for j in range(len(models))),
        *(nw.col(f"_c{j}").cast(nw.Int64) for j in range(len(models))),
    )


def _pair_expressions(
    k: int, continuous: bool, new: set[int] | None
) -> list[tuple[str, str, int, int, Any]]:
    """(kind, name, i, j, expression) of every pair statistic to compute.

    With ``new`` (the new models of :meth:`EngineStatistics.extend`), only pairs with one.
    """
    nw = narwhals()
    out = []
    for i in range(k):
        xi, ci = nw.col(f"_x{i}"), nw.col(f"_c{i}")
        for j in range(k):
            if new is not None and i not in new and j not in new:
                continue
            xj, cj = nw.col(f"_x{j}"), nw.col(f"_c{j}")
            if i <= j:
                out.append(("cross", f"_a{i}_{j}", i, j, xi * xj))
                out.append(("both", f"_b{i}_{j}", i, j, ci * cj))
            out.append(("hits", f"_h{i}_{j}", i, j, xi * cj))
            out.append(("hit_squares", f"_s{i}_{j}", i, j, xi * xi * cj))
            if continuous and i != j:
                win = nw.when((ci * cj > 0) & (xi > xj)).then(1).otherwise(0)
                out.append(("wins", f"_w{i}_{j}", i, j, win))
    return out


def _pairs(
    wide: Any,
    cols: dict[str, str | None],
    tasks: tuple[str, ...],
    models: tuple[str, ...],
    binary: np.ndarray,
    old: EngineStatistics | None,
) -> dict[str, np.ndarray]:
    """Pass 3: per task, every pair's statistics, in blocks of :data:`PAIR_BLOCK` sums."""
    nw = narwhals()
    t = cols["task"]
    k, n_tasks = len(models), len(tasks)
    new = None
    out = {key: np.zeros((n_tasks, k, k)) for key in ("cross", "both", "hits", "hit_squares")}
    out["wins"] = np.zeros((n_tasks, k, k))
    if old is not None:
        place = _index(list(old.models), models)
        new = [j for j in range(k) if models[j] not in set(old.models)]
        for key in out:
            out[key][np.ix_(_index(list(old.tasks), tasks), place, place)] = getattr(old, key)
    exprs = _pair_expressions(k, not bool(binary.all()), None if new is None else set(new))
    exprs.append(("n_items", "_len", 0, 0, None))
    n_items = np.zeros(n_tasks, dtype=np.int64)
    for start in range(0, len(exprs), PAIR_BLOCK):
        block = exprs[start : start + PAIR_BLOCK]
        made = [e.alias(name) for _, name, _, _, e in block if e is not None]
        aggs = [nw.col(name).sum().alias(name) for _, name, _, _, e in block if e is not None]
        extra = []
        if start == 0:
            # a model's most scores of one item (more than 1: duplicates)
            extra = [nw.len().alias("_len")]
            extra += [nw.col(f"_c{j}").max().alias(f"_m{j}") for j in range(k)]
        counts = [nw.col(f"_c{j}") for j in range(k)] if start == 0 else []
        frame = wide.select(t, *counts, *made).group_by(t).agg(*aggs, *extra).collect()
        ti = _index(frame.get_column(t).to_list(), tasks)
        if start == 0:
            most = [frame.get_column(f"_m{j}").to_numpy().astype(float) for j in range(k)]
            _refuse_duplicates(np.column_stack(most), cols)
            n_items[ti] = frame.get_column("_len").to_numpy()
        for kind, name, i, j, e in block:
            if e is None:
                continue
            values = np.nan_to_num(frame.get_column(name).to_numpy().astype(float))
            out[kind][ti, i, j] = values
            if kind in ("cross", "both"):
                out[kind][ti, j, i] = values
    binary_tasks = binary[:, None, None]
    out["wins"] = np.where(binary_tasks, out["hits"] - out["cross"], out["wins"])
    for i in range(k):
        out["wins"][:, i, i] = 0.0
    return {**out, "n_items": n_items}


def _refuse_duplicates(dup: np.ndarray, cols: dict[str, str | None]) -> None:
    if dup.size and np.nanmax(dup.astype(float)) > 1:
        raise CdplotInputError(
            f"a model has up to {int(np.nanmax(dup.astype(float)))} scores of one item of a "
            f"task (column {cols['item']!r}); keep one row per model and item (average the "
            "samples first, e.g. a group-by mean over the sample column)."
        )


def _clusters(
    wide: Any, cols: dict[str, str | None], tasks: tuple[str, ...], models: tuple[str, ...]
) -> tuple[tuple[tuple[Any, ...], ...], tuple[np.ndarray, ...], tuple[np.ndarray, ...]]:
    """Per task and cluster: each model's score sum and the cluster's items."""
    nw = narwhals()
    t, c = cols["task"], cols["cluster"]
    k = len(models)
    aggs = [nw.col(f"_x{j}").sum().alias(f"_x{j}") for j in range(k)]
    frame = wide.group_by(t, c).agg(*aggs, nw.len().alias("_len")).collect()
    task_v = frame.get_column(t).to_list()
    cluster_v = frame.get_column(c).to_list()
    x = np.column_stack([frame.get_column(f"_x{j}").to_numpy().astype(float) for j in range(k)])
    size = frame.get_column("_len").to_numpy().astype(float)
    ids, sums, sizes = [], [], []
    for name in tasks:
        rows = [r for r, v in enumerate(task_v) if str(v) == name]
        order = sorted(rows, key=lambda r: str(cluster_v[r]))
        ids.append(tuple(cluster_v[r] for r in order))
        sums.append(x[order])
        sizes.append(size[order])
    return tuple(ids), tuple(sums), tuple(sizes)

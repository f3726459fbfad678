"""Sufficient statistics of item scores, computed in the frame's own engine.

:func:`engine_statistics` runs grouped passes written once as Narwhals expressions
(:mod:`cdplot.io._engine`), so Polars, DuckDB, Dask, PySpark and pandas run the same
statistics where the rows live; the client receives ``O(k^2 * tasks)`` numbers, never the
rows:

1. per task and model: rows, scores, their sums and sums of squares, scores other than 0/1
   (the task x model table, and the engine's plain group-by);
2. per task and ordered pair of models (for 0/1 scores in DuckDB, by counting the common bits
   of per-model item bitsets, :mod:`cdplot.io._engine_bits`; otherwise) by one join of the
   item cells on (task, item) and one group-by (a handful of expressions for any number of
   models): the items both scored, the cross products ``sum x_i x_j`` (co-success counts
   of 0/1 scores), ``sum x_i [j scored]``, ``sum x_i^2 [j scored]`` and, for scores other
   than 0/1, the items on which ``x_i > x_j``; and the items of each task;
3. with clusters, per task and cluster each model's score sums and the cluster's items.

On Dask, pass 1 and (for 0/1 scores) pass 2 are map-reduces over the partitions instead
(:mod:`cdplot.io._engine_dask`): Dask's group-by would shuffle the rows, and its join
multiply them.

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
from ._engine_bits import duckdb_binary_pairs
from ._engine_dask import dask_binary_pairs, dask_cells

__all__ = ["EngineStatistics", "engine_statistics"]


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
            scored = cells["rows"] == int(cells["n"].sum())  # no row without a score
            pairs = _pairs(frame, cols, tasks, models, cells["binary"], old, scored, cells["span"])
            _refuse_duplicates(cells["n"], pairs["both"], cols)
            bar.update()
            clusters = _clusters(frame, cols, tasks, models) if cols["cluster"] else None
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
    t, m = str(cols["task"]), str(cols["model"])
    span = None
    if engine_name(frame) == "dask":  # a map-reduce: Dask's group-by would shuffle the rows
        table, span = dask_cells(nw.to_native(frame), cols)
        out = nw.from_native(table, eager_only=True)
    else:
        out = _cell_table(frame, cols)
    task_v, model_v = out.get_column(t).to_list(), out.get_column(m).to_list()
    for column, values, what in ((t, task_v, "task"), (m, model_v, "model")):
        if any(v is None for v in values):
            raise CdplotInputError(
                f"the {what} column {column!r} is empty in some rows; every row needs a "
                f"{what} name (fill them in, or filter those rows out)."
            )
    no_id = int(np.nan_to_num(out.get_column("_noid").to_numpy().astype(float)).sum())
    if no_id:
        raise CdplotInputError(
            f"the item column {cols['item']!r} is empty in {no_id} row(s); every row needs the "
            "id of its item, which pairs the models' scores (fill them in, or filter those "
            "rows out)."
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
        "span": span,
    }


def _cell_table(frame: Any, cols: dict[str, str | None]) -> Any:
    """The task x model group-by, written once for every engine."""
    nw = narwhals()
    t, m, s = cols["task"], cols["model"], cols["score"]
    x = nw.col(s).cast(nw.Float64)
    return (
        frame.with_columns(
            _x=x,
            _q=x * x,
            _odd=nw.when(x.is_null() | (x == 0.0) | (x == 1.0)).then(0).otherwise(1),
            _noid=nw.col(str(cols["item"])).is_null().cast(nw.Int64),
        )
        .group_by(t, m)
        .agg(
            nw.len().alias("_rows"),
            nw.col("_x").count().alias("_n"),
            nw.col("_x").sum().alias("_s"),
            nw.col("_q").sum().alias("_q"),
            nw.col("_odd").sum().alias("_odd"),
            nw.col("_noid").sum().alias("_noid"),
        )
        .collect()
    )


def _item_cells(frame: Any, cols: dict[str, str | None]) -> Any:
    """Lazy: the rows as item cells: task, item, the model as ``_m``, the score ``_x`` (0 if
    missing) and ``_c`` (1 if scored). No group-by: a model with two rows of an item makes
    the join's ``sum c_i c_i`` exceed its scores, which :func:`_refuse_duplicates` reads."""
    nw = narwhals()
    x = nw.col(str(cols["score"])).cast(nw.Float64)
    return frame.select(
        str(cols["task"]),
        str(cols["item"]),
        nw.col(str(cols["model"])).alias("_m"),
        x.fill_null(0.0).alias("_x"),
        (~x.is_null()).cast(nw.Int64).alias("_c"),
    )


def _pair_join(left: Any, right: Any, cols: dict[str, str | None], continuous: bool) -> Any:
    """Per task and ordered pair of models (``_m``, ``_n``), the pair sums: one join of the
    item cells on (task, item) and one group-by, a handful of expressions for any k."""
    nw = narwhals()
    t, i = str(cols["task"]), str(cols["item"])
    # the right side's columns take the join's suffix (a rename before the join trips Dask's
    # optimizer after a shuffled group-by)
    x, y, c, d = nw.col("_x"), nw.col("_x_r"), nw.col("_c"), nw.col("_c_r")
    made = [
        (x * y).alias("cross"),
        (c * d).alias("both"),
        (x * d).alias("hits"),
        (x * x * d).alias("hit_squares"),
    ]
    if continuous:
        made.append(nw.when((c * d > 0) & (x > y)).then(1).otherwise(0).alias("wins"))
    names = ["cross", "both", "hits", "hit_squares", "wins"][: len(made)]
    joined = left.join(right, on=[t, i], how="inner", suffix="_r")
    return (
        joined.select(t, "_m", nw.col("_m_r").alias("_n"), *made)
        .group_by(t, "_m", "_n")
        .agg(*(nw.col(n).sum() for n in names))
        .collect()
    )


def _pairs(
    frame: Any,
    cols: dict[str, str | None],
    tasks: tuple[str, ...],
    models: tuple[str, ...],
    binary: np.ndarray,
    old: EngineStatistics | None,
    scored: bool = False,
    span: tuple[int, int] | None = None,
) -> dict[str, np.ndarray]:
    """Pass 2: per task, every pair's statistics (only pairs with a new model when
    extending ``old``), and the items of each task (``scored``: every row has a score;
    ``span``: the smallest and largest integer item id, where the first pass found it)."""
    nw = narwhals()
    t = str(cols["task"])
    k, n_tasks = len(models), len(tasks)
    keys = ("cross", "both", "hits", "hit_squares", "wins")
    out = {key: np.zeros((n_tasks, k, k)) for key in keys}
    continuous = not bool(binary.all())
    counted = None
    if old is None and not continuous and engine_name(frame) == "duckdb":
        counted = duckdb_binary_pairs(nw.to_native(frame), cols, tasks, models, scored)
    elif old is None and not continuous and engine_name(frame) == "dask":
        counted = dask_binary_pairs(nw.to_native(frame), cols, tasks, models, span)
    if counted is not None:
        out.update(counted)
        out["hit_squares"] = out["hits"].copy()
        return _finish(out, binary, counted["n_items"])
    cells = _item_cells(frame, cols)
    if old is None:
        results = [_pair_join(cells, cells, cols, continuous)]
    else:
        place = _index(list(old.models), models)
        for key in keys:
            out[key][np.ix_(_index(list(old.tasks), tasks), place, place)] = getattr(old, key)
        new = [name for name in models if name not in set(old.models)]
        fresh = cells.filter(nw.col("_m").is_in(new))
        results = [
            _pair_join(fresh, cells, cols, continuous),
            _pair_join(cells, fresh, cols, continuous),
        ]
    for res in results:
        ti = _index(res.get_column(t).to_list(), tasks)
        mi = _index(res.get_column("_m").to_list(), models)
        ni = _index(res.get_column("_n").to_list(), models)
        for key in keys:
            if key in res.columns:
                out[key][ti, mi, ni] = np.nan_to_num(res.get_column(key).to_numpy().astype(float))
    # grouped counts, not unique(): some engines find distinct rows by a window over all rows
    items = frame.group_by(t, str(cols["item"])).agg(nw.len().alias("_rows"))
    items = items.group_by(t).agg(nw.len().alias("_len"))
    items = items.collect()
    n_items = np.zeros(n_tasks, dtype=np.int64)
    n_items[_index(items.get_column(t).to_list(), tasks)] = items.get_column("_len").to_numpy()
    return _finish(out, binary, n_items)


def _finish(
    out: dict[str, np.ndarray], binary: np.ndarray, n_items: np.ndarray
) -> dict[str, np.ndarray]:
    """Symmetric pair sums averaged over both orders; wins of 0/1 tasks from the counts."""
    for key in ("cross", "both"):  # symmetric: the two orders of a join sum alike
        out[key] = (out[key] + out[key].transpose(0, 2, 1)) / 2
    out["wins"] = np.where(binary[:, None, None], out["hits"] - out["cross"], out["wins"])
    for j in range(out["wins"].shape[1]):
        out["wins"][:, j, j] = 0.0
    return {**out, "n_items": n_items}


def _refuse_duplicates(n: np.ndarray, both: np.ndarray, cols: dict[str, str | None]) -> None:
    """A model scored twice on an item makes ``sum c^2`` (the diagonal) differ from ``sum c``
    (the join counts the item's rows squared, the bitsets count it once)."""
    diagonal = np.diagonal(both, axis1=1, axis2=2)
    if (diagonal != n).any():
        raise CdplotInputError(
            f"a model has two or more scores of one item of a task (column "
            f"{cols['item']!r}); keep one row per model and item (average the samples first, "
            "e.g. a group-by mean over the sample column)."
        )


def _clusters(
    frame: Any, cols: dict[str, str | None], tasks: tuple[str, ...], models: tuple[str, ...]
) -> tuple[tuple[tuple[Any, ...], ...], tuple[np.ndarray, ...], tuple[np.ndarray, ...]]:
    """Per task and cluster: each model's score sum and the cluster's items."""
    nw = narwhals()
    t, c, m = str(cols["task"]), str(cols["cluster"]), str(cols["model"])
    x = nw.col(str(cols["score"])).cast(nw.Float64).fill_null(0.0)
    sums = frame.select(t, c, m, x.alias("_x")).group_by(t, c, m).agg(nw.col("_x").sum())
    sums = sums.collect()
    sizes = frame.group_by(t, c, str(cols["item"])).agg(nw.len().alias("_rows"))
    sizes = sizes.group_by(t, c).agg(nw.len().alias("_len"))
    sizes = sizes.collect()
    ids, out_sums, out_sizes = [], [], []
    task_s, cl_s = sizes.get_column(t).to_list(), sizes.get_column(c).to_list()
    task_x, cl_x = sums.get_column(t).to_list(), sums.get_column(c).to_list()
    model_x = _index(sums.get_column(m).to_list(), models)
    x_values = np.nan_to_num(sums.get_column("_x").to_numpy().astype(float))
    size_values = sizes.get_column("_len").to_numpy().astype(float)
    for name in tasks:
        here = sorted({cl_s[r] for r in range(len(cl_s)) if str(task_s[r]) == name}, key=str)
        where = {v: g for g, v in enumerate(here)}
        block, size = np.zeros((len(here), len(models))), np.zeros(len(here))
        for r in range(len(cl_s)):
            if str(task_s[r]) == name:
                size[where[cl_s[r]]] = size_values[r]
        for r in range(len(cl_x)):
            if str(task_x[r]) == name:
                block[where[cl_x[r]], model_x[r]] = x_values[r]
        ids.append(tuple(here))
        out_sums.append(block)
        out_sizes.append(size)
    return tuple(ids), tuple(out_sums), tuple(out_sizes)

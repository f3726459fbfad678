"""What :func:`cdplot.compare` does before parsing: recognise a source, keep the items.

:func:`prepare_input` recognises, by content, the files and frames a benchmark writes
(Parquet, JSON Lines, lm-evaluation-harness output, MLflow, W&B and OpenML exports) and reads
them with their reader; turns an item-level table into per-task item matrices and the table
of task scores (:mod:`cdplot.io._items`); and aggregates a Dask DataFrame on its cluster so
that only the small table of cell scores comes back. Everything else passes through untouched.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from .._errors import CdplotInputError, spell
from ._aggregate import Aggregation, check_aggregate
from ._benchmark import BenchmarkColumns, BenchmarkItems, read_benchmark
from ._columns import ColumnTable
from ._items import (
    ItemScores,
    find_cluster_column,
    find_item_column,
    find_sample_column,
    item_scores,
)
from ._roles import column_key, resolve_roles

__all__ = ["Prepared", "prepare_input", "read_source"]


@dataclass(frozen=True)
class Prepared:
    """The input as :func:`parse_scores` takes it, with what was learnt on the way."""

    data: Any
    dataset: Any
    algorithm: Any
    score: Any
    aggregate: Any
    items: ItemScores | None = None
    aggregation: Aggregation | None = None
    note: str | None = None
    higher_is_better: bool | None = None
    benchmark: BenchmarkItems | None = None


def _header(path: Path) -> list[str]:
    """The column names of a CSV/TSV file's first line ([] if it cannot be read)."""
    try:
        with path.open(encoding="utf-8-sig") as fh:
            first = fh.readline()
    except (OSError, UnicodeDecodeError):
        return []
    sep = max(("\t", ",", ";"), key=first.count)
    return [c.strip().strip('"') for c in first.rstrip("\r\n").split(sep)]


def _tracker(columns: list[str]) -> str | None:
    from ._trackers import is_mlflow, is_openml, is_wandb

    for name, test in (("mlflow", is_mlflow), ("openml", is_openml), ("wandb", is_wandb)):
        if test(columns):
            return name
    return None


def read_source(
    data: Any,
    *,
    dataset: Any = None,
    algorithm: Any = None,
    score: Any = None,
    item: str | None = None,
) -> tuple[Any, Any, Any, Any, str | None]:
    """Read a recognised source; ``(data, dataset, algorithm, score, note)``.

    ``item`` names the item column of a Parquet file (else one named as items is looked
    for): such a file is read in compact batches.

    ``note`` is None (and everything is returned as given) for input that is no such source
    (the ``attrs["cdplot_note"]`` of a data frame one of cdplot's readers returned).
    """
    from . import _lmeval, _parquet, _trackers

    kind, frame = None, None
    if isinstance(data, (str, os.PathLike)):
        path = Path(data)
        suffix = path.suffix.lower()
        frame = _item_logs(path, score)
        if frame is not None:
            return frame, dataset, algorithm, frame.columns[-1], frame.attrs["cdplot_note"]
        if _lmeval.is_lm_eval(path) and (path.is_dir() or suffix in (".json", ".jsonl")):
            frame = _lmeval.read_lm_eval(path, score=score)
            score = frame.columns[-1]
            return frame, dataset, algorithm, score, frame.attrs["cdplot_note"]
        if suffix == ".parquet" or (path.is_dir() and any(path.rglob("*.parquet"))):
            frame, kind = _parquet.read_parquet_items(path, item), "Parquet"
        elif suffix in (".jsonl", ".ndjson") or (path.is_dir() and any(path.rglob("*.jsonl"))):
            frame, kind = _parquet.read_jsonl(path), "JSON Lines"
        elif path.is_file():
            kind = _tracker(_header(path))
        if frame is not None:
            rows = f"{len(frame):,} rows"
            return frame, dataset, algorithm, score, f"read {str(path)!r} as {kind} ({rows})"
    elif hasattr(data, "columns") and not hasattr(data, "compute"):
        kind = _tracker([str(c) for c in data.columns])
    if kind == "mlflow":
        frame = _trackers.read_mlflow(data, dataset=dataset, algorithm=algorithm, score=score)
        return frame, "dataset", "algorithm", frame.columns[2], frame.attrs["cdplot_note"]
    if kind == "openml":
        frame = _trackers.read_openml(data, score=score)
        return frame, "dataset", "algorithm", frame.columns[2], frame.attrs["cdplot_note"]
    if kind == "wandb":
        frame = _trackers.read_wandb(data)
        return frame, dataset, algorithm, score, frame.attrs["cdplot_note"]
    # a frame one of cdplot's readers made (read_swebench(..., items=...)) keeps its note
    attrs = getattr(data, "attrs", None)
    note = attrs.get("cdplot_note") if isinstance(attrs, dict) else None
    return data, dataset, algorithm, score, note if isinstance(note, str) else None


def _refuse_one_lm_eval_task(table: ColumnTable) -> None:
    """lm-evaluation-harness scores of one task (no samples files): one number per model,
    nothing to compare; the items of that one benchmark are in the samples files."""
    if table.attrs.get("cdplot_lm_eval_level") != "task" or "task" not in table.columns:
        return
    tasks = _distinct(table["task"])
    if len(tasks) == 1:
        raise CdplotInputError(
            f"{str(table.attrs.get('cdplot_source'))!r} holds one task ({str(tasks[0])!r}) "
            f"and no samples files: one score per model, nothing to compare them on; to "
            f"compare the models on this benchmark's items, run lm_eval with --log_samples "
            f"and pass the folder with its samples_*.jsonl files."
        )


def _item_logs(path: Path, score: Any) -> Any:
    """An evaluation harness's item-level logs (Inspect AI, HELM, SWE-bench), read; or None."""
    from . import _helm, _inspect, _swebench

    if _inspect.is_inspect_log(path):
        return _inspect.read_inspect(path, score=score)
    if _swebench.is_swebench(path):
        return _swebench.read_swebench(path)
    if _helm.is_helm(path):
        return _helm.read_helm(path, score=score)
    return None


def _is_dask(data: Any) -> bool:
    return type(data).__module__.split(".")[0] == "dask" and hasattr(data, "compute")


def prepare_input(
    data: Any,
    *,
    dataset: Any = None,
    algorithm: Any = None,
    score: Any = None,
    item: str | None = None,
    aggregate: Any = None,
    missing: str = "raise",
    cluster: str | None = None,
    sample: str | None = None,
) -> Prepared:
    """Recognise the source of ``data`` and keep its items (what :func:`cdplot.compare` does
    before :func:`parse_scores`).

    An item-level table of ONE benchmark (long rows ``model, item, score`` with one task or
    no task column, or a wide items x models matrix whose first column is named as items or
    given as ``item``) gives ``benchmark``, a :class:`BenchmarkItems`; a table of several
    tasks gives per-task item matrices (``items``) and the table of task scores.

    Parameters
    ----------
    data : any input of :func:`cdplot.compare`
        Also a :class:`BenchmarkItems` (e.g. of :func:`cdplot.io.read_runs`), passed on as
        ``benchmark``; a Parquet / JSON Lines file or folder, lm-evaluation-harness output,
        Inspect AI logs (``.eval``), HELM run folders, SWE-bench results, an MLflow, W&B or
        OpenML export, a Dask DataFrame.
    dataset, algorithm, score, item, aggregate, missing
        As for :func:`cdplot.compare`.
    cluster : str, optional
        The column of each item's cluster (a passage, a repository, a scenario) in a table
        of one benchmark; found by name (``cluster``, ``passage``, ``repo``, ... see
        :data:`cdplot.io.CLUSTER_NAMES`) when not given.
    sample : str, optional
        The column numbering several scores of one model on one item (epochs, attempts) in
        a table of one benchmark; found by name (``sample``, ``epoch``, ``attempt``,
        ``seed``, ``run``, ... see :data:`cdplot.io.SAMPLE_NAMES`) when not given.

    Returns
    -------
    Prepared
        ``data``, ``dataset``, ``algorithm``, ``score`` and ``aggregate`` to pass on to
        :func:`parse_scores`; ``items`` (:class:`ItemScores` or None), ``aggregation`` (of
        the items, or of a Dask DataFrame's rows), ``note`` (how a source was read) and
        ``benchmark`` (:class:`BenchmarkItems` of one benchmark, or None).

    Raises
    ------
    CdplotInputError
        For one benchmark: one model, a model scored twice on an item without a sample
        column, a cluster that changes within an item, items scored by some models only
        (with ``missing="raise"``), scores that are not numbers, several columns named as
        clusters or samples; ``cluster``/``sample`` given for a table of several tasks.

    Examples
    --------
    >>> import pandas as pd
    >>> rows = pd.DataFrame({"task": ["t1"] * 4 + ["t2"] * 4, "model": ["A", "B"] * 4,
    ...     "item_id": [0, 0, 1, 1] * 2, "acc": [1.0, 0.0, 1.0, 1.0, 0.0, 0.0, 1.0, 0.0]})
    >>> prepared = prepare_input(rows)
    >>> prepared.items.n_items.tolist(), prepared.aggregation.describe()
    ([2, 2], 'scores are means over 2 item_ids')
    >>> one = prepare_input(rows[rows.task == "t1"]).benchmark
    >>> one.models, one.scores.tolist()
    (('A', 'B'), [[1.0, 0.0], [1.0, 1.0]])
    """
    from ._frames import _is_polars

    if isinstance(data, BenchmarkItems):  # e.g. read_runs(["base.jsonl", "new.jsonl"])
        return _benchmark_prepared(data, ("task", "model", "score"), aggregate, data.note, None, {})
    if _is_dask(data):
        return _dask_cells(data, dataset, algorithm, score, item, aggregate)
    from ._engine import is_engine_frame

    if is_engine_frame(data):  # Polars lazy, DuckDB, PySpark: statistics in the engine
        from ._engine_input import engine_input

        done, data = engine_input(
            data,
            dataset=dataset,
            algorithm=algorithm,
            score=score,
            item=item,
            aggregate=aggregate,
            missing=missing,
        )
        if done is not None:
            return done
    data, dataset, algorithm, score, note = read_source(
        data, dataset=dataset, algorithm=algorithm, score=score, item=item
    )
    from ._parse import _as_table

    if _is_polars(data, "DataFrame"):
        from ._parquet import polars_to_pandas

        data = polars_to_pandas(data)
    direction = dict(getattr(data, "attrs", None) or {}).get("cdplot_higher_is_better")
    plain = Prepared(data, dataset, algorithm, score, aggregate, note=note)
    if isinstance(data, np.ndarray) or not (
        isinstance(data, (str, os.PathLike, ColumnTable))
        or hasattr(data, "read")
        or hasattr(data, "columns")
    ):
        if item is not None:
            raise CdplotInputError(
                f"{spell('item')} names a column, but the scores are a "
                f"{type(data).__name__} without columns; pass a long table."
            )
        return plain
    table = _as_table(data)
    if table is None:  # columns, but no data frame cdplot can convert
        raise CdplotInputError(
            f"cannot read a {type(data).__module__.split('.')[0]}.{type(data).__name__} as a "
            f"table; pass a pandas or polars DataFrame, a 2-D array or the path of a file."
        )
    item_col = find_item_column(table.columns, item)
    if item_col is None:
        wide = _wide_by_index(table, item, cluster, sample)
        if wide is not None:
            return _benchmark_input(wide, table, missing, aggregate, note, direction)
        _refuse_one_lm_eval_task(table)
        for given, option in ((cluster, "cluster"), (sample, "sample")):
            if given is not None:
                raise CdplotInputError(
                    f"{spell(option)} applies to a table of one benchmark's items, but no "
                    f"column names the items; name it with {spell('item', 'COLUMN')}."
                )
        return Prepared(
            table, dataset, algorithm, score, aggregate, note=note, higher_is_better=direction
        )
    found = _benchmark_rows(
        table, item_col, item is not None, dataset, algorithm, score, cluster, sample
    )
    if found is not None:
        return _benchmark_input(found, table, missing, aggregate, note, direction)
    return _task_items(
        table, item_col, dataset, algorithm, score, aggregate, missing, note, direction
    )


def _task_items(
    table: ColumnTable,
    item_col: str,
    dataset: Any,
    algorithm: Any,
    score: Any,
    aggregate: Any,
    missing: str,
    note: str | None,
    direction: bool | None,
) -> Prepared:
    """Several tasks: per-task item matrices and the table of task scores."""
    from ._parse import table_roles

    rest = ColumnTable(
        {c: table[c] for c in table.columns if c != item_col}, table.nrows, attrs=table.attrs
    )
    _, roles = table_roles(rest, dataset=dataset, algorithm=algorithm, score=score)
    if roles.kind != "long":
        raise CdplotInputError(
            f"column {item_col!r} names items, so the table must be long (one row per task, "
            f"model and item), but no column holds the model names; name it with "
            f"{spell('algorithm', 'COLUMN')}."
        )
    if roles.repetitions:
        reps = ", ".join(repr(str(c)) for c in roles.repetitions)
        raise CdplotInputError(
            f"the table has items ({item_col!r}) and repeated runs ({reps}); average the runs "
            f"of each item first, or keep one run (filter on {reps})."
        )
    (score_col,) = roles.scores
    items, long, aggregation = item_scores(
        table,
        item=item_col,
        dataset=roles.dataset,
        algorithm=roles.algorithm,
        score=score_col,
        agg=check_aggregate(aggregate),
        missing=missing,
    )
    return Prepared(
        long, roles.dataset, roles.algorithm, score_col, None, items, aggregation, note, direction
    )


def _dask_cells(
    ddf: Any, dataset: Any, algorithm: Any, score: Any, item: Any, aggregate: Any
) -> Prepared:
    """Cell means computed on the cluster: only the (task, model) table comes back."""
    import pandas as pd

    columns = [str(c) for c in ddf.columns]
    item_col = find_item_column(columns, item)
    dtypes = {str(c): t for c, t in ddf.dtypes.items()}
    shown = ColumnTable({c: np.empty(0) for c in columns if c != item_col}, 0)
    roles = resolve_roles(
        shown,
        dataset=dataset,
        algorithm=algorithm,
        score=score,
        numeric=lambda c: getattr(dtypes[c], "kind", "O") in "iuf",
        index_names_datasets=False,
    )
    if roles.kind != "long":
        raise CdplotInputError(
            "a Dask DataFrame must be a long table (dataset, algorithm and score columns, one "
            f"row per run or item); name the columns with {spell('dataset', 'COLUMN')} and "
            f"{spell('algorithm', 'COLUMN')}."
        )
    agg = check_aggregate(aggregate)
    if agg is not None and agg[0] != "mean":
        raise CdplotInputError(
            f"a Dask DataFrame is aggregated on the cluster by its mean; drop "
            f"{spell('aggregate')} (or pass {spell('aggregate', 'mean')}), or compute the "
            f"{agg[0]} yourself."
        )
    d, a, (s,) = roles.dataset, roles.algorithm, roles.scores
    # dropna=False: a row without a dataset or algorithm name is refused, as in pandas,
    # not left out by the group-by
    grouped = ddf.groupby([d, a], observed=True, dropna=False)[s].agg(["sum", "count", "size"])
    grouped = grouped.compute().reset_index()
    _refuse_missing_names(grouped, d, a)
    if item_col is None and agg is None and len(grouped) and grouped["size"].max() > 1:
        raise CdplotInputError(
            f"up to {int(grouped['size'].max())} rows per dataset and algorithm: these look "
            f"like repeated runs; pass {spell('aggregate', 'mean')} to average them, or name "
            f"the item column with {spell('item', 'COLUMN')}."
        )
    cells = grouped[[d, a]].astype(str)
    n = grouped["count"].to_numpy(dtype=np.int64)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = np.where(n > 0, grouped["sum"].to_numpy(dtype=float) / np.maximum(n, 1), np.nan)
    long = pd.DataFrame({d: cells[d].to_numpy(), a: cells[a].to_numpy(), s: mean})
    datasets = list(dict.fromkeys(long[d]))
    algorithms = list(dict.fromkeys(long[a]))
    counts = np.zeros((len(datasets), len(algorithms)), dtype=np.int64)
    counts[pd.Index(datasets).get_indexer(long[d]), pd.Index(algorithms).get_indexer(long[a])] = n
    aggregation = None
    if n.max(initial=0) > 1:
        unit = (item_col,) if item_col else tuple(map(str, roles.repetitions))
        present = n[n > 0]
        aggregation = Aggregation(
            "mean",
            unit,
            counts,
            int(present.min()),
            int(present.max()),
            datasets=datasets,
            algorithms=algorithms,
        )
    note = f"aggregated a Dask DataFrame on its cluster ({int(n.sum()):,} rows)"
    return Prepared(long, d, a, s, None, None, aggregation, note)


def _refuse_missing_names(grouped: Any, d: str, a: str) -> None:
    """Refuse the cells of a Dask DataFrame whose dataset or algorithm name is missing."""
    for column, what, needs in ((d, "dataset", "a"), (a, "algorithm", "an")):
        empty = grouped[column].isna().to_numpy()
        if empty.any():
            rows = int(grouped.loc[empty, "size"].sum())
            raise CdplotInputError(
                f"the {what} column {column!r} of the Dask DataFrame is empty in {rows:,} "
                f"row{'s' if rows != 1 else ''}; every row needs {needs} {what} name "
                f"(fill them in, or drop those rows with ddf.dropna(subset=[{column!r}]))."
            )


def _distinct(values: Any, limit: int = 2) -> list[Any]:
    """Up to ``limit`` distinct values of a column, in order of first appearance,
    column-wise (no per-row Python) in chunks: it stops at the chunk where it has them."""
    import pandas as pd

    found: list[Any] = []
    rows = getattr(values, "iloc", values)
    for start in range(0, len(values), _DISTINCT_CHUNK):
        _, uniques = pd.factorize(rows[start : start + _DISTINCT_CHUNK], use_na_sentinel=True)
        found += [u for u in uniques[: limit + len(found)] if u not in found]
        if len(found) >= limit:
            break
    return found[:limit]


#: rows of one chunk of :func:`_distinct`
_DISTINCT_CHUNK = 1 << 20


def _roles_found(
    table: ColumnTable, cluster: Any, sample: Any, taken: set[str]
) -> tuple[str | None, str | None, set[str], CdplotInputError | None]:
    """The cluster and sample columns, and the columns to leave out of the other roles.

    Several columns named as clusters (or samples) are an ambiguity, kept to be raised for
    a table of one benchmark only (a table of several tasks is read as per-task item
    matrices, where they play no part): all of them are left out meanwhile.
    """
    from ._items import _CLUSTER, _SAMPLE

    try:
        cluster_col = find_cluster_column(table.columns, cluster, taken)
        sample_col = find_sample_column(table.columns, sample, taken | {cluster_col})
    except CdplotInputError as exc:
        if cluster is not None or sample is not None:
            raise
        named = {c for c in table.columns if column_key(c) in _CLUSTER | _SAMPLE} - taken
        return None, None, named, exc
    return cluster_col, sample_col, {c for c in (cluster_col, sample_col) if c is not None}, None


def _benchmark_rows(
    table: ColumnTable,
    item_col: str,
    item_given: bool,
    dataset: Any,
    algorithm: Any,
    score: Any,
    cluster: Any,
    sample: Any,
) -> BenchmarkColumns | None:
    """The columns of one benchmark's items; None for a table of several tasks (or a wide
    table whose first column is not the item column), read as per-task item matrices."""
    from ._parse import table_roles
    from ._roles import _DATASET

    cluster_col, sample_col, out, ambiguous = _roles_found(table, cluster, sample, {item_col})
    taken = {item_col} | out
    kept = [c for c in table.columns if c not in taken]
    columns = {c: table[c] for c in kept}
    named_task = dataset is not None or any(column_key(c) in _DATASET for c in kept)
    if not named_task:  # one benchmark: a constant task column for the roles
        columns["task"] = np.zeros(table.nrows, dtype=np.int8)
    rest = ColumnTable(columns, table.nrows, attrs=table.attrs)
    _, roles = table_roles(rest, dataset=dataset, algorithm=algorithm, score=score)
    task_col = roles.dataset if named_task else None
    tasks = [] if task_col is None else _distinct(table[task_col])
    if len(tasks) > 1:
        for given, option in ((cluster, "cluster"), (sample, "sample")):
            if given is not None:
                raise CdplotInputError(
                    f"{spell(option)} applies to one benchmark's items, but column "
                    f"{task_col!r} holds several tasks; keep the rows of one task, or pass "
                    f"{spell('cluster', task_col)} to read the tasks as clusters of one "
                    f"benchmark."
                )
        return None
    if roles.kind == "wide":
        if not (item_given or table.columns[0] == item_col):
            return None  # items named, but not a matrix of them: refused by the task path
        if ambiguous is not None:
            raise ambiguous
        models = tuple(c for c in kept if c != task_col)
        return BenchmarkColumns(
            item_col, models, None, task_col, cluster_col, sample_col, item_name=item_col
        )
    if ambiguous is not None:
        raise ambiguous
    if roles.repetitions:
        reps = [str(c) for c in roles.repetitions]
        raise CdplotInputError(
            f"the table has items ({item_col!r}) and repeated runs ({', '.join(map(repr, reps))}); "
            f"if {reps[0]!r} numbers several scores of a model on one item (samples: epochs, "
            f"attempts), pass {spell('sample', reps[0])}; else average the runs of each item "
            f"first, or keep one run."
        )
    (score_col,) = roles.scores
    return BenchmarkColumns(
        item_col, roles.algorithm, score_col, task_col, cluster_col, sample_col, item_col
    )


def _wide_by_index(
    table: ColumnTable, item: Any, cluster: Any, sample: Any
) -> BenchmarkColumns | None:
    """A data frame whose index is named as items: an items x models matrix."""
    name = getattr(table.labels, "name", None)
    if not table.index_names_datasets or name is None:
        return None
    if find_item_column([str(name)], item if item == str(name) else None) is None:
        return None
    from ._roles import _ALGORITHM, _DATASET

    if any(column_key(c) in _ALGORITHM | _DATASET for c in table.columns):
        return None  # model or task columns: a long table, not a matrix
    cluster_col, sample_col, _, ambiguous = _roles_found(table, cluster, sample, set())
    if ambiguous is not None:
        raise ambiguous
    models = tuple(c for c in table.columns if c not in (cluster_col, sample_col))
    return BenchmarkColumns(None, models, None, None, cluster_col, sample_col, str(name))


def _benchmark_input(
    found: BenchmarkColumns,
    table: ColumnTable,
    missing: str,
    aggregate: Any,
    note: str | None,
    direction: bool | None,
) -> Prepared:
    """One benchmark read from a table by the columns ``found``."""
    bench = read_benchmark(table, found, missing=missing, note=note)
    names = (
        found.task or "task",
        "model" if found.wide else str(found.models),
        found.score or "score",
    )
    attrs = {key: v for key, v in table.attrs.items() if key != "cdplot_decimal"}
    return _benchmark_prepared(bench, names, aggregate, note, direction, attrs)


def _benchmark_prepared(
    bench: BenchmarkItems,
    names: tuple[str, str, str],
    aggregate: Any,
    note: str | None,
    direction: bool | None,
    attrs: dict[str, Any],
) -> Prepared:
    """The :class:`Prepared` of one benchmark: its :class:`BenchmarkItems`, and for the
    table-level path its one task's item matrix and the task score of each model."""
    from ._items import _task_scores

    how, func = check_aggregate(aggregate) or ("mean", None)
    task_scores, counts = _task_scores([bench.scores], how, func)
    task = bench.task or "benchmark"
    task_col, model_col, score_col = names
    k = len(bench.models)
    long = ColumnTable(
        {
            task_col: np.array([task] * k, dtype=object),
            model_col: np.array(bench.models, dtype=object),
            score_col: task_scores[0],
        },
        k,
        attrs=attrs,
    )
    ids = np.empty(bench.n_items, dtype=object)
    ids[:] = bench.items
    items = ItemScores((task,), bench.models, bench.item_column, (bench.scores,), (ids,), how)
    present = counts[counts > 0]
    aggregation = Aggregation(
        how,
        (bench.item_column,),
        counts,
        int(present.min()) if present.size else 0,
        int(present.max()) if present.size else 0,
        datasets=(task,),
        algorithms=bench.models,
    )
    return Prepared(
        long,
        task_col,
        model_col,
        score_col,
        None,
        items,
        aggregation,
        note,
        direction,
        benchmark=bench,
    )

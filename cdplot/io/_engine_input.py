"""``compare()`` on a lazy or distributed frame of item scores: the statistics stay in the engine.

A Polars ``LazyFrame`` or a DuckDB relation (a PySpark DataFrame likewise) with a column of
items and several tasks is read by :func:`cdplot.io.engine_statistics`: only the task x
model table of mean scores (and the pair statistics, ``O(k^2 * tasks)`` numbers) comes back;
the note records the engine, the rows and the time spent. A frame of one task is one
benchmark's items, collected for the one-benchmark analysis (its items x models matrix).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._errors import CdplotInputError, spell
from ._aggregate import Aggregation, check_aggregate
from ._columns import ColumnTable
from ._engine import engine_failure, engine_frame, narwhals
from ._items import find_item_column
from ._roles import resolve_roles

__all__ = ["engine_input"]


def _roles(frame: Any, dataset: Any, algorithm: Any, score: Any, item_col: str) -> Any:
    schema = dict(frame.collect_schema())
    numeric = {c: (t.is_numeric() or t == narwhals().Boolean) for c, t in schema.items()}
    shown = ColumnTable({c: np.empty(0) for c in schema if c != item_col}, 0)
    return resolve_roles(
        shown,
        dataset=dataset,
        algorithm=algorithm,
        score=score,
        numeric=lambda c: numeric[c],
        index_names_datasets=False,
    )


def engine_input(
    data: Any,
    *,
    dataset: Any,
    algorithm: Any,
    score: Any,
    item: str | None,
    aggregate: Any,
    missing: str,
    progress: bool = False,
) -> tuple[Any, Any]:
    """``(prepared, None)`` for a frame of several tasks' items; ``(None, collected)`` (a
    pandas DataFrame for the in-memory path) for a frame of one task or without items."""
    from ._engine_stats import engine_statistics
    from ._sources import Prepared

    frame = engine_frame(data)
    columns = list(frame.collect_schema())
    item_col = find_item_column(columns, item)
    if item_col is not None:
        roles = _roles(frame, dataset, algorithm, score, item_col)
        if roles.kind == "long" and roles.dataset is not None and len(roles.scores) == 1:
            try:
                n_tasks = len(frame.select(roles.dataset).unique().collect())
            except Exception as exc:  # noqa: BLE001 - the engine's own failure
                raise engine_failure(exc, "reading the tasks") from exc
            if n_tasks > 1:
                agg = check_aggregate(aggregate)
                if agg is not None and agg[0] != "mean":
                    raise CdplotInputError(
                        f"a lazy frame's items are averaged in its engine; drop "
                        f"{spell('aggregate')} (or pass {spell('aggregate', 'mean')})."
                    )
                stats = engine_statistics(
                    frame,
                    task=roles.dataset,
                    model=roles.algorithm,
                    item=item_col,
                    score=roles.scores[0],
                    progress=progress,
                )
                return _prepared(stats, missing, Prepared), None
    try:
        collected = frame.collect()
        native = collected.to_native()
        return None, native if type(native).__module__.startswith(
            "polars"
        ) else collected.to_pandas()
    except Exception as exc:  # noqa: BLE001 - the engine's own failure
        raise engine_failure(exc, "collecting the rows") from exc


def _prepared(stats: Any, missing: str, prepared: Any) -> Any:
    """The task x model table of means, its aggregation and the engine's note."""
    counts = stats.n.copy()
    has = counts > 0  # models run on the task
    partial = has & (counts < stats.n_items[:, None])
    if partial.any() and missing == "raise":
        t, m = np.argwhere(partial)[0]
        raise CdplotInputError(
            f"model {stats.models[m]!r} has scores on {int(counts[t, m])} of the "
            f"{int(stats.n_items[t])} items of task {stats.tasks[t]!r}; pass "
            f"{spell('missing', 'keep')} to average each model over its own items, or "
            f"{spell('missing', 'drop-algorithms')} to drop such models (items not scored by "
            "every model are dropped in memory only: filter them in the engine first)."
        )
    if partial.any() and missing == "drop":
        raise CdplotInputError(
            f"{spell('missing', 'drop')} drops the items some model did not score, which a "
            f"lazy frame's engine does not do here; pass {spell('missing', 'keep')} or "
            f"{spell('missing', 'drop-algorithms')}, or filter those items in the engine first."
        )
    if missing == "drop-algorithms":
        counts[partial] = 0
    present = counts[counts > 0]
    aggregation = Aggregation(
        "mean",
        (str(stats.columns["item"]),),
        counts,
        int(present.min()),
        int(present.max()),
        datasets=list(stats.tasks),
        algorithms=list(stats.models),
    )
    note = f"statistics computed in {stats.engine} ({stats.rows:,} rows, {stats.seconds:.2f} s)"
    cols = stats.columns
    table = stats.task_frame()
    if missing == "drop-algorithms" and partial.any():
        t, m = np.nonzero(stats.n > 0)
        table = table[~partial[t, m]].reset_index(drop=True)
    return prepared(
        table,
        cols["task"],
        cols["model"],
        cols["score"],
        None,
        None,
        aggregation,
        note,
    )

"""Item-level results: one row per task, model and item -> per-task item matrices and task scores.

A long table with an item column (``item``, ``item_id``, ``doc_id``, ``question_id``,
``instance_id``, ``example_id``, ``sample_id``; ``item=`` wins) is turned, column-wise with
no per-row Python, into one items x models matrix per task (:class:`ItemScores`) and the
task score of each model: the mean over the items by default (``aggregate=`` as for runs).

Missing items (a model without a score on some items of a task it was run on) follow
``missing=``: "raise" refuses them; "drop" drops the items not scored by every model of the
task (so that every model's task score covers the same items); "drop-algorithms" makes such a
task score missing (the table-level policy then drops the model); "keep" averages each model
over the items it has (the paired tests use the items both models have). A model with no item
of a task is a missing task score, as in any table.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .._errors import CdplotInputError, spell
from ._aggregate import Aggregation
from ._columns import ColumnTable
from ._item_matrix import item_matrix
from ._roles import _by_name, _find, column_key

__all__ = [
    "CLUSTER_NAMES",
    "ITEM_NAMES",
    "SAMPLE_NAMES",
    "ItemScores",
    "find_cluster_column",
    "find_item_column",
    "find_sample_column",
    "item_scores",
]

#: Column names read as the item column (one row per task, model and item).
ITEM_NAMES = (
    "item",
    "item_id",
    "doc_id",
    "question_id",
    "instance_id",
    "example_id",
    "sample_id",
)
_ITEM = {column_key(n) for n in ITEM_NAMES}
#: Column names read as the cluster of an item (questions on one passage, tasks in one
#: repository) in a table of one benchmark's items; ``cluster=`` wins.
CLUSTER_NAMES = (
    "cluster",
    "cluster_id",
    "passage",
    "passage_id",
    "context_id",
    "repo",
    "repository",
    "scenario",
    "group_id",
)
#: Column names read as the sample of an item (several scores of one model on one item:
#: epochs, attempts, generations) in a table with an item column; ``sample=`` wins. With
#: an item column, ``seed``, ``run`` and ``repeat`` number samples, not repeated runs.
SAMPLE_NAMES = (
    "sample",
    "sample_index",
    "epoch",
    "attempt",
    "generation",
    "seed",
    "run",
    "repeat",
    "trial",
)
_CLUSTER = {column_key(n) for n in CLUSTER_NAMES}
_SAMPLE = {column_key(n) for n in SAMPLE_NAMES}


#: the code of a missing score in a compact (``uint8``) item matrix of 0/1 scores
MISSING_CODE = 255


def _as_float(matrix: np.ndarray) -> np.ndarray:
    """A stored item matrix as read-only float64 (a compact 0/1 matrix expanded, NaN where
    missing; a float matrix as it is)."""
    if matrix.dtype != np.uint8:
        return matrix
    out = matrix.astype(float)
    out[matrix == MISSING_CODE] = np.nan
    out.flags.writeable = False
    return out


@dataclass(frozen=True, eq=False, init=False)
class ItemScores:
    """Per-task item-level scores kept beside the aggregated table.

    Attributes
    ----------
    tasks, models : tuple of str
        Task (dataset) and model (algorithm) names, in input order.
    item : str
        The item column's name.
    matrices : tuple of numpy.ndarray
        One read-only ``n_items x k`` float array per task (rows in item order, columns in
        ``models`` order), NaN where a model has no score on the item. Scores that are all 0
        or 1 are kept in one byte each and expanded to float64 when read (each read makes
        new arrays: to go through the tasks in bounded memory, read them one at a time
        with :meth:`matrix`).
    item_ids : tuple of numpy.ndarray
        The item labels of each matrix's rows.
    function : str
        How the items became the task score ("mean", "median" or a function's name).

    Examples
    --------
    >>> import pandas as pd, cdplot
    >>> rows = pd.DataFrame({"task": ["t1"] * 4 + ["t2"] * 4, "model": ["A", "B"] * 4,
    ...     "doc_id": [0, 0, 1, 1] * 2, "acc": [1, 0, 1, 1, 0, 0, 1, 0]})
    >>> items = cdplot.io.prepare_input(rows).items  # compare(rows).items holds the same
    >>> items.frame("t1")
    model      A    B
    doc_id
    0        1.0  0.0
    1        1.0  1.0
    """

    tasks: tuple[str, ...]
    models: tuple[str, ...]
    item: str
    item_ids: tuple[np.ndarray, ...]
    function: str
    _stored: tuple[np.ndarray, ...] = field(repr=False)

    def __init__(
        self,
        tasks: tuple[str, ...],
        models: tuple[str, ...],
        item: str,
        matrices: tuple[np.ndarray, ...],
        item_ids: tuple[np.ndarray, ...],
        function: str = "mean",
    ) -> None:
        for name, value in (
            ("tasks", tasks),
            ("models", models),
            ("item", item),
            ("item_ids", item_ids),
            ("function", function),
            ("_stored", tuple(matrices)),
        ):
            object.__setattr__(self, name, value)

    def __setstate__(self, state: dict) -> None:
        """Unpickle, also an object pickled when the matrices were a plain field."""
        state = dict(state)
        if "matrices" in state:
            state["_stored"] = tuple(state.pop("matrices"))
        state.setdefault("function", "mean")
        self.__dict__.update(state)

    @property
    def matrices(self) -> tuple[np.ndarray, ...]:
        """Every task's ``n_items x k`` float matrix (see the class docstring)."""
        return tuple(_as_float(m) for m in self._stored)

    def matrix(self, task: int | str, models: list[str] | None = None) -> np.ndarray:
        """The ``n_items x k`` float matrix of one task (its name or position), read-only;
        with ``models``, its columns in that order."""
        stored = self._stored[self._position(task)]
        if models is not None and list(models) != list(self.models):
            stored = stored[:, [self.models.index(m) for m in models]]
        return _as_float(stored)

    def _position(self, task: int | str) -> int:
        if isinstance(task, (int, np.integer)) and not isinstance(task, bool):
            return int(task)
        if task not in self.tasks:
            raise CdplotInputError(
                f"no task {task!r}; the tasks are {', '.join(map(repr, self.tasks))}."
            )
        return self.tasks.index(task)

    def frame(self, task: str) -> Any:
        """The items x models matrix of ``task`` as a pandas DataFrame."""
        import pandas as pd

        if task not in self.tasks:
            raise CdplotInputError(
                f"no task {task!r}; the tasks are {', '.join(map(repr, self.tasks))}."
            )
        t = self.tasks.index(task)
        return pd.DataFrame(
            self.matrix(t),
            index=pd.Index(self.item_ids[t], name=self.item),
            columns=pd.Index(list(self.models), name="model"),
        )

    @property
    def n_items(self) -> np.ndarray:
        """Number of rows (items) of each task's matrix."""
        return np.array([m.shape[0] for m in self._stored], dtype=np.int64)

    def __repr__(self) -> str:
        n = self.n_items
        return (
            f"ItemScores({len(self.tasks)} tasks x {len(self.models)} models, "
            f"{int(n.sum())} items ({int(n.min()) if n.size else 0}-"
            f"{int(n.max()) if n.size else 0} per task), item column {self.item!r})"
        )


def find_item_column(columns: list[str], item: str | None) -> str | None:
    """The item column: ``item=`` if given (must exist), else the one column named as items."""
    if item is not None:
        return str(_find(columns, item, "item"))
    return _by_name(columns, _ITEM, "item", "item")


def find_cluster_column(columns: list[str], cluster: str | None, taken: set) -> str | None:
    """The cluster column: ``cluster=`` if given (must exist), else the one column named as
    clusters among those not ``taken`` (several: refused, naming ``cluster=``)."""
    if cluster is not None:
        return str(_find(columns, cluster, "cluster"))
    return _by_name([c for c in columns if c not in taken], _CLUSTER, "cluster", "cluster")


def find_sample_column(columns: list[str], sample: str | None, taken: set) -> str | None:
    """The sample column: ``sample=`` if given (must exist), else the one column named as
    samples among those not ``taken`` (several: refused, naming ``sample=``)."""
    if sample is not None:
        return str(_find(columns, sample, "sample"))
    return _by_name([c for c in columns if c not in taken], _SAMPLE, "sample", "sample")


def _codes(values: Any, column: str, what: str) -> tuple[np.ndarray, list[Any]]:
    """Integer codes (first appearance order, int32 unless there are 2**31 values or more)
    and the distinct values of a column."""
    import pandas as pd

    from ._item_matrix import categorical_codes

    ready = categorical_codes(values)
    if ready is not None:
        return ready[0].astype(np.int32), ready[1]
    codes, uniques = pd.factorize(values, use_na_sentinel=True)
    if (codes < 0).any():
        pos = int(np.flatnonzero(codes < 0)[0])
        raise CdplotInputError(
            f"the {what} column {column!r} is empty in row {pos}; every row needs a {what}."
        )
    small = np.int32 if len(uniques) < 2**31 else np.int64
    return codes.astype(small), list(uniques)


def _compact_codes(values: Any, column: str, what: str) -> tuple[np.ndarray, list[Any]]:
    """:func:`_codes`, but a ``Categorical`` column's own codes (one or two bytes a row, no
    copy) when its categories are in order of first appearance: for :func:`item_matrix`,
    which widens them chunk by chunk."""
    from ._item_matrix import categorical_codes

    ready = categorical_codes(values)
    return ready if ready is not None else _codes(values, column, what)


def _score_values(values: Any, column: str) -> np.ndarray:
    from ._values import to_scores

    if isinstance(values, np.ndarray) and values.dtype == np.uint8 and values.max(initial=0) <= 1:
        return values  # 0/1 scores in one byte each (read_parquet_items)
    if isinstance(values, np.ndarray) and values.dtype.kind in "iuf":
        return values.astype(float, copy=False)
    if getattr(values, "dtype", None) is not None and getattr(values.dtype, "kind", "") in "iuf":
        return np.asarray(values, dtype=float)
    return to_scores(values, column, lambda pos: f"row {pos}")


def _refuse_duplicates(
    counts: np.ndarray, k: int, row_task: np.ndarray, row_item: np.ndarray, names: dict
) -> None:
    """Refuse two rows of one model on one item of one task (``counts``: rows per cell)."""
    dup = np.flatnonzero(counts > 1)
    r, m = divmod(int(dup[0]), k)
    raise CdplotInputError(
        f"model {names['model'][m]!r} has {int(counts[dup[0]])} rows for item "
        f"{names['item'][row_item[r]]!r} of task {names['task'][row_task[r]]!r}"
        f"{names['where']} ({dup.size} duplicated items in all); keep one row per task, "
        f"model and item (filter on the column that tells them apart, or average them first)."
    )


def _apply_missing(
    matrix: np.ndarray, bounds: np.ndarray, missing: str, names: dict
) -> tuple[np.ndarray, np.ndarray]:
    """Rows kept and the task x model cells made missing, by the item-level policy."""
    from ._item_matrix import present

    keep = np.ones(matrix.shape[0], dtype=bool)
    blank = np.zeros((len(bounds) - 1, matrix.shape[1]), dtype=bool)
    for t in range(len(bounds) - 1):
        block = present(matrix[bounds[t] : bounds[t + 1]])
        has = block.any(axis=0)  # models run on the task
        partial = has.copy()
        partial[has] = ~block[:, has].all(axis=0)
        if not partial.any():
            continue
        if missing == "raise":
            m = int(np.flatnonzero(partial)[0])
            raise CdplotInputError(
                f"model {names['model'][m]!r} has scores on {int(block[:, m].sum())} of the "
                f"{block.shape[0]} items of task {names['task'][t]!r}{names['where']}; pass "
                f"{spell('missing', 'drop')} to drop the items not scored by every model, "
                f"{spell('missing', 'keep')} to average each model over its own items, or "
                f"{spell('missing', 'drop-algorithms')} to drop such models."
            )
        if missing == "drop":
            keep[bounds[t] : bounds[t + 1]] = block[:, has].all(axis=1)
        elif missing == "drop-algorithms":
            blank[t] = partial
    return keep, blank


def _task_scores(matrices: list[np.ndarray], how: str, func: Any) -> tuple[np.ndarray, np.ndarray]:
    """Task x model scores and item counts from the per-task matrices."""
    k = matrices[0].shape[1] if matrices else 0
    scores = np.full((len(matrices), k), np.nan)
    counts = np.zeros((len(matrices), k), dtype=np.int64)
    for t, stored in enumerate(matrices):
        mat = _as_float(stored)  # one task at a time
        present = ~np.isnan(mat)
        n = present.sum(axis=0)
        counts[t] = n
        if how == "mean":
            total = np.where(present, mat, 0.0).sum(axis=0)
            with np.errstate(invalid="ignore", divide="ignore"):
                scores[t] = np.where(n > 0, total / np.maximum(n, 1), np.nan)
            continue
        for j in np.flatnonzero(n):
            col = mat[present[:, j], j]
            if how == "median":
                scores[t, j] = float(np.median(col))
            else:
                from ._aggregate import _call

                scores[t, j] = _call(func, col, how)
    return scores, counts


def item_scores(
    table: ColumnTable,
    *,
    item: str,
    dataset: str,
    algorithm: str,
    score: str,
    agg: tuple[str, Any] | None,
    missing: str,
) -> tuple[ItemScores, ColumnTable, Aggregation]:
    """Per-task item matrices, the aggregated long table (one row per task and model).

    ``dataset``, ``algorithm`` and ``score`` are the resolved columns of ``table``; ``agg``
    is :func:`~cdplot.io._aggregate.check_aggregate`'s answer (None: the mean).
    """
    how, func = agg if agg is not None else ("mean", None)
    task, tasks = _compact_codes(table[dataset], dataset, "dataset")
    model, models = _compact_codes(table[algorithm], algorithm, "algorithm")
    item_code, items = _compact_codes(table[item], item, "item")
    values = _score_values(table[score], score)
    if values.dtype.kind == "f" and np.isinf(values).any():
        pos = int(np.flatnonzero(np.isinf(values))[0])
        raise CdplotInputError(f"infinite score ({values[pos]}) in row {pos} of column {score!r}.")
    source = table.attrs.get("cdplot_source")
    where = f" in {str(source)!r}" if source else ""
    names = {"task": tasks, "model": models, "item": items, "where": where}
    k = len(models)
    row_task, row_item, matrix = item_matrix(
        (task, model, item_code),
        len(items),
        k,
        values,
        lambda counts, rows, ids: _refuse_duplicates(counts, k, rows, ids, names),
    )
    del task, model, item_code, values
    bounds = np.r_[0, np.flatnonzero(np.diff(row_task)) + 1, row_task.size]
    keep, blank = _apply_missing(matrix, bounds, missing, names)
    matrices, ids = [], []
    items_arr = np.empty(len(items), dtype=object)
    items_arr[:] = items
    for t in range(len(tasks)):
        rows = np.arange(bounds[t], bounds[t + 1])
        if keep[rows].all():  # every item kept: a view of the rows, no copy
            mat = matrix[bounds[t] : bounds[t + 1]]
        else:
            rows = rows[keep[rows]]
            mat = np.ascontiguousarray(matrix[rows])
        mat.flags.writeable = False
        matrices.append(mat)
        ids.append(items_arr[row_item[rows]])
    task_scores, n = _task_scores(matrices, how, func)
    task_scores[blank] = np.nan
    result = ItemScores(
        tuple(map(str, tasks)), tuple(map(str, models)), item, tuple(matrices), tuple(ids), how
    )
    cells = np.argwhere(n > 0)
    long = ColumnTable(
        {
            dataset: np.array([result.tasks[i] for i in cells[:, 0]], dtype=object),
            algorithm: np.array([result.models[j] for j in cells[:, 1]], dtype=object),
            score: task_scores[cells[:, 0], cells[:, 1]],
        },
        len(cells),
        attrs={k_: v for k_, v in table.attrs.items() if k_ != "cdplot_decimal"},
    )
    present = n[n > 0]
    aggregation = Aggregation(
        how,
        (item,),
        n,
        int(present.min()) if present.size else 0,
        int(present.max()) if present.size else 0,
        datasets=result.tasks,
        algorithms=result.models,
    )
    return result, long, aggregation

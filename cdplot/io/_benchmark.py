"""One benchmark's item-level scores: many models on the same items, with clusters and samples.

:class:`BenchmarkItems` is what the readers of a single benchmark hand to the statistics: one
items x models matrix of item scores (the mean over an item's samples when a model was
sampled several times on it), the cluster of each item (a passage, a repository, a scenario)
and, with samples, how many samples each cell has and their variance.

Below the dataclass, its builders: :func:`benchmark_items` from the rows' integer codes
(column-wise: ``np.bincount`` over cell codes, never a loop over rows, items or models),
:func:`read_benchmark` from a table whose columns :class:`BenchmarkColumns` names (long
rows, or a wide items x models matrix read column by column).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, cast

import numpy as np

from .._errors import CdplotInputError, spell

__all__ = ["BenchmarkColumns", "BenchmarkItems", "benchmark_items", "read_benchmark"]


class OneModelError(CdplotInputError):
    """An item table that holds one model: a run of a benchmark, not a comparison.

    Two or more such logs of the same benchmark compare as runs
    (:func:`cdplot.io.read_runs`, ``cdplot compare base.jsonl new.jsonl``).
    """


@dataclass(frozen=True, eq=False)
class BenchmarkItems:
    """The item-level scores of one benchmark.

    Attributes
    ----------
    models : tuple of str
        Model names, in input order (the columns of ``scores``).
    items : tuple of str
        Item ids, in input order (the rows of ``scores``).
    scores : numpy.ndarray
        ``n_items x k`` float array: each model's score on each item (the mean over the
        item's samples), NaN where a model has no score on the item. Read-only.
    binary : bool
        Every raw score (every sample) is 0 or 1.
    clusters : numpy.ndarray or None
        ``n_items`` int64 codes ``0 .. G - 1`` of each item's cluster; None without clusters.
    cluster_ids : tuple of str
        The ``G`` cluster names (code order); empty without clusters.
    n_samples : numpy.ndarray or None
        ``n_items x k`` int64: the number of samples of each cell (0 where not scored);
        None when every cell has one sample (no sample column).
    sample_var : numpy.ndarray or None
        ``n_items x k`` float: the variance of each cell's samples (``ddof=1``; NaN with
        fewer than two); None without samples.
    task : str or None
        The benchmark's name (the one task of the table), if the table names it.
    item_column, cluster_column, sample_column : str or None
        The columns read as items, clusters and samples.
    note : str or None
        How the input was read (a reader's note), for the summary.
    """

    models: tuple[str, ...]
    items: tuple[str, ...]
    scores: np.ndarray
    binary: bool
    clusters: np.ndarray | None = None
    cluster_ids: tuple[str, ...] = ()
    n_samples: np.ndarray | None = None
    sample_var: np.ndarray | None = None
    task: str | None = None
    item_column: str = "item"
    cluster_column: str | None = None
    sample_column: str | None = None
    note: str | None = None

    def __post_init__(self) -> None:
        n, k = len(self.items), len(self.models)
        if self.scores.shape != (n, k):
            raise CdplotInputError(
                f"item scores of shape {self.scores.shape} for {n} items and {k} models."
            )
        if self.clusters is not None and self.clusters.shape != (n,):
            raise CdplotInputError(f"{self.clusters.shape[0]} cluster codes for {n} items.")

    @property
    def n_items(self) -> int:
        """Number of items (rows)."""
        return len(self.items)

    @property
    def n_clusters(self) -> int | None:
        """Number of clusters, or None without clusters."""
        return None if self.clusters is None else len(self.cluster_ids)

    def frame(self) -> Any:
        """The items x models scores as a pandas DataFrame."""
        import pandas as pd

        return pd.DataFrame(
            self.scores,
            index=pd.Index(list(self.items), name=self.item_column),
            columns=pd.Index(list(self.models), name="model"),
        )

    def __repr__(self) -> str:
        parts = [f"{self.n_items} items x {len(self.models)} models"]
        if self.clusters is not None:
            parts.append(f"{self.n_clusters} clusters")
        if self.n_samples is not None:
            parts.append(f"{int(self.n_samples.max(initial=0))} samples per item at most")
        kind = "binary" if self.binary else "continuous"
        return f"BenchmarkItems({', '.join(parts)}; {kind} scores)"


def _raise_duplicates(cell: np.ndarray, sample: np.ndarray | None, names: dict) -> None:
    """Refuse two rows of one model on one item (and one sample, with samples)."""
    k = len(names["models"])
    width = 1 if sample is None else int(sample.max(initial=0)) + 1
    key = cell if sample is None else cell * width + sample
    written = np.zeros(len(names["items"]) * k * width, dtype=bool)
    written[key] = True
    if int(np.count_nonzero(written)) == key.size:
        return
    first = int(np.flatnonzero(np.bincount(key, minlength=written.size) > 1)[0])
    n_dup = int(np.count_nonzero(key == first))
    first //= width
    i, m = divmod(first, k)
    model, item = names["models"][m], names["items"][i]
    if sample is None:
        raise CdplotInputError(
            f"model {str(model)!r} has {n_dup} rows for item {str(item)!r}{names['where']} and "
            f"no column numbers them; if they are samples of the item (epochs, attempts, "
            f"seeds), name the column that tells them apart with "
            f"{spell('sample', 'COLUMN')}; else keep one row per model and item."
        )
    raise CdplotInputError(
        f"model {str(model)!r} has {n_dup} rows for one sample of item {str(item)!r} "
        f"(sample column {names['sample']!r}){names['where']}; keep one row per model, item "
        f"and sample."
    )


def _item_clusters(item: np.ndarray, cluster: np.ndarray, n_items: int, names: dict) -> np.ndarray:
    """Each item's cluster code; refuses an item whose rows name two clusters."""
    per_item = np.full(n_items, -1, dtype=np.int64)
    per_item[item[::-1]] = cluster[::-1]  # the last write wins: each item's first row
    bad = per_item[item] != cluster
    if bad.any():
        row = int(np.flatnonzero(bad)[0])
        ids = names["cluster_ids"]
        raise CdplotInputError(
            f"item {str(names['items'][item[row]])!r} is in cluster "
            f"{str(ids[per_item[item[row]]])!r} and in cluster {str(ids[cluster[row]])!r} "
            f"(column {names['cluster']!r}){names['where']}; an item belongs to one cluster: "
            f"correct the column, or name the right one with {spell('cluster', 'COLUMN')}."
        )
    return per_item


def _cells(
    cell: np.ndarray, values: np.ndarray, size: int, with_samples: bool
) -> tuple[np.ndarray, np.ndarray | None, np.ndarray | None]:
    """Cell means (NaN where no score), sample counts and sample variances (ddof=1)."""
    if not with_samples:
        means = np.full(size, np.nan)
        means[cell] = values
        return means, None, None
    valid = ~np.isnan(values)
    c, v = (cell, values) if valid.all() else (cell[valid], values[valid])
    del valid
    n = np.bincount(c, minlength=size)
    with np.errstate(invalid="ignore", divide="ignore"):
        means = np.bincount(c, weights=v, minlength=size) / n
        deviation = v - means[c]  # two passes: no cancellation for large scores
        deviation *= deviation
        squares = np.bincount(c, weights=deviation, minlength=size)
        del deviation
        var = np.where(n > 1, squares / np.maximum(n - 1, 1), np.nan)
    means[n == 0] = np.nan
    return means, n.astype(np.int64), var


def _missing_policy(
    matrix: np.ndarray, missing: str, names: dict
) -> tuple[np.ndarray, np.ndarray, str | None]:
    """Items and models kept by ``missing=``, and a note on what was dropped."""
    present = ~np.isnan(matrix)
    rows = np.ones(matrix.shape[0], dtype=bool)
    cols = np.ones(matrix.shape[1], dtype=bool)
    if present.all():
        return rows, cols, None
    count = present.sum(axis=0)
    m = int(np.argmin(count))
    if missing == "raise":
        raise CdplotInputError(
            f"model {str(names['models'][m])!r} has scores on {int(count[m])} of the "
            f"{matrix.shape[0]} items{names['where']}; pass {spell('missing', 'drop')} to drop "
            f"the items not scored by every model, {spell('missing', 'keep')} to keep them "
            f"(each model over its own items, each pair over the items both have), or "
            f"{spell('missing', 'drop-algorithms')} to drop the models without every item."
        )
    if missing == "drop":
        rows = present.all(axis=1)
        n = int((~rows).sum())
        note = f"dropped {n} item{'s' if n != 1 else ''} not scored by every model"
        if not rows.any():
            raise CdplotInputError(
                f"no item is scored by every model{names['where']}, so "
                f"{spell('missing', 'drop')} leaves none; pass {spell('missing', 'keep')}."
            )
        return rows, cols, note
    if missing == "drop-algorithms":
        cols = present.all(axis=0)
        dropped = [str(names["models"][j]) for j in np.flatnonzero(~cols)]
        return rows, cols, f"dropped models without every item: {', '.join(dropped)}"
    return rows, cols, None


def _recode(codes: np.ndarray, ids: tuple[str, ...]) -> tuple[np.ndarray, tuple[str, ...]]:
    """Cluster codes renumbered 0 .. G - 1 over the clusters still present (order kept)."""
    used = np.zeros(len(ids), dtype=bool)
    used[codes] = True
    remap = np.cumsum(used) - 1
    return remap[codes].astype(np.int64), tuple(ids[g] for g in np.flatnonzero(used))


def _frozen(array: np.ndarray | None) -> np.ndarray | None:
    if array is not None:
        array = np.ascontiguousarray(array)
        array.flags.writeable = False
    return array


def benchmark_items(
    model: np.ndarray,
    models: list[Any],
    item: np.ndarray,
    items: list[Any],
    values: np.ndarray,
    *,
    cluster: np.ndarray | None = None,
    cluster_ids: list[Any] | None = None,
    sample: np.ndarray | None = None,
    missing: str = "raise",
    task: str | None = None,
    columns: tuple[str, str | None, str | None] = ("item", None, None),
    note: str | None = None,
    where: str = "",
) -> BenchmarkItems:
    """One benchmark's :class:`BenchmarkItems` from its rows, column-wise.

    Parameters
    ----------
    model, item : numpy.ndarray
        Integer codes of each row's model and item (``0 .. len(models) - 1``, first
        appearance order), as :func:`pandas.factorize` gives them.
    models, items : list
        The names of the codes.
    values : numpy.ndarray
        Each row's score (float; NaN: no score).
    cluster, cluster_ids : optional
        Each row's cluster code and the cluster names; an item's rows must agree.
    sample : numpy.ndarray, optional
        Each row's sample code (epoch, attempt): a model may then score an item several
        times, once per sample; the item score is the mean over its samples.
    missing : {"raise", "drop", "drop-algorithms", "keep"}
        Items not scored by every model: refused, dropped, their models dropped, or kept
        (NaN).
    task : str, optional
        The benchmark's name.
    columns : tuple
        The item, cluster and sample columns' names.
    note : str, optional
        How the input was read.
    where : str
        `` in 'FILE'`` for messages.

    Returns
    -------
    BenchmarkItems

    Raises
    ------
    CdplotInputError
        For one model, a model scored twice on an item (or on one sample of it), an item in
        two clusters, items not scored by every model under ``missing="raise"``.

    Examples
    --------
    >>> import numpy as np
    >>> b = benchmark_items(np.array([0, 1, 0, 1]), ["A", "B"], np.array([0, 0, 1, 1]),
    ...     ["q1", "q2"], np.array([1.0, 0.0, 1.0, 1.0]))
    >>> b.scores.tolist(), b.binary
    ([[1.0, 0.0], [1.0, 1.0]], True)
    """
    k, n_items = len(models), len(items)
    names = {
        "models": models,
        "items": items,
        "cluster_ids": cluster_ids or [],
        "cluster": columns[1],
        "sample": columns[2],
        "where": where,
    }
    if k < 2:
        only = f" ({str(models[0])!r})" if models else ""
        raise OneModelError(
            f"the benchmark has {k} model{only}{where}; a comparison needs at least 2 "
            f"models scored on the same items (one column, or one value of the model "
            f"column, per model)."
        )
    cell = item.astype(np.int64)
    cell *= k
    cell += model
    _raise_duplicates(cell, None if sample is None else sample.astype(np.int64), names)
    valid = values[~np.isnan(values)]
    binary = bool(valid.size) and bool(np.all((valid == 0.0) | (valid == 1.0)))
    means, counts, var = _cells(cell, values, n_items * k, sample is not None)
    matrix = np.asarray(means).reshape(n_items, k)
    per_item = None
    if cluster is not None:
        per_item = _item_clusters(item, cluster.astype(np.int64), n_items, names)
    rows, cols, dropped = _missing_policy(matrix, missing, names)
    if cols.sum() < 2:
        raise CdplotInputError(
            f"{spell('missing', 'drop-algorithms')} leaves {int(cols.sum())} model{where} "
            f"(only that one has every item); pass {spell('missing', 'drop')} or "
            f"{spell('missing', 'keep')}."
        )
    keep = np.ix_(rows, cols)
    clusters: np.ndarray | None = None
    ids: tuple[str, ...] = ()
    if per_item is not None:
        clusters, ids = _recode(per_item[rows], tuple(map(str, cluster_ids or [])))
    notes = "; ".join(n for n in (note, dropped) if n)
    return BenchmarkItems(
        models=tuple(str(models[j]) for j in np.flatnonzero(cols)),
        items=tuple(str(items[i]) for i in np.flatnonzero(rows)),
        scores=cast(np.ndarray, _frozen(matrix[keep])),
        binary=binary,
        clusters=_frozen(clusters),
        cluster_ids=ids,
        n_samples=None if counts is None else _frozen(counts.reshape(n_items, k)[keep]),
        sample_var=None if var is None else _frozen(var.reshape(n_items, k)[keep]),
        task=task,
        item_column=columns[0],
        cluster_column=columns[1],
        sample_column=columns[2],
        note=notes or None,
    )


# ------------------------------------------------------------------ tables of one benchmark
@dataclass(frozen=True)
class BenchmarkColumns:
    """Where one benchmark's items, models, scores, clusters and samples are in a table.

    ``models`` is the model column of a long table, or the tuple of model columns of a
    wide items x models matrix (``score`` None); ``item`` None with ``wide``: the table's
    row labels name the items. ``task`` is the task column (one value) or None.
    """

    item: str | None
    models: Any
    score: str | None
    task: str | None = None
    cluster: str | None = None
    sample: str | None = None
    item_name: str = "item"

    @property
    def wide(self) -> bool:
        """Whether the table is an items x models matrix."""
        return isinstance(self.models, tuple)


_NOT_A_SCORE = (
    "An item score is a number (1/0 for pass/fail, partial credit in [0, 1], or any real "
    "number): map text grades to numbers first (e.g. 'C'/'I' to 1/0), or name the score "
    "column with {score}."
)


def _bool_or_scores(values: Any, column: str) -> np.ndarray:
    """A score column as float; a boolean column (pass/fail) as 0/1; else refused, naming
    the first cell that is not a number and the fix."""
    from ._values import to_scores

    kind = getattr(getattr(values, "dtype", None), "kind", "")
    if kind == "b":
        return np.asarray(values, dtype=float)
    if kind in "iuf":
        return np.asarray(values, dtype=float)
    hint = _NOT_A_SCORE.format(score=spell("score", "COLUMN"))
    return to_scores(values, column, lambda pos: f"row {pos}", hint=hint)


def _rows_of(table: Any, found: BenchmarkColumns) -> dict[str, Any]:
    """Codes and scores of every row (a wide matrix read column by column)."""
    from ._items import _codes

    out: dict[str, Any] = {}
    n = table.nrows
    if found.wide:
        k = len(found.models)
        labels = table[found.item] if found.item is not None else np.asarray(table.labels)
        item, items = _codes(labels, found.item_name, "item")
        out["item"], out["items"] = np.tile(item, k), items
        out["model"] = np.repeat(np.arange(k, dtype=np.int32), n)
        out["models"] = [str(m) for m in found.models]
        out["values"] = np.concatenate([_bool_or_scores(table[m], m) for m in found.models])
        reps = k
    else:
        out["item"], out["items"] = _codes(table[found.item], str(found.item), "item")
        out["model"], out["models"] = _codes(table[found.models], str(found.models), "model")
        out["values"] = _bool_or_scores(table[found.score], str(found.score))
        reps = 1
    for role in ("cluster", "sample"):
        column = getattr(found, role)
        codes, ids = (None, None) if column is None else _codes(table[column], column, role)
        out[role] = None if codes is None or reps == 1 else np.tile(codes, reps)
        if codes is not None and reps == 1:
            out[role] = codes
        out[role + "_ids"] = ids
    bad = np.isinf(out["values"])
    if bad.any():
        pos = int(np.flatnonzero(bad)[0])
        raise CdplotInputError(
            f"infinite score ({out['values'][pos]}) in row {pos % max(n, 1)}; a score is a "
            f"finite number (NaN or an empty cell: no score)."
        )
    return out


def read_benchmark(
    table: Any,
    found: BenchmarkColumns,
    *,
    missing: str = "raise",
    note: str | None = None,
) -> BenchmarkItems:
    """The :class:`BenchmarkItems` of a table whose columns ``found`` names.

    Parameters
    ----------
    table : ColumnTable
        The table (:func:`cdplot.io._parse._as_table` of the input).
    found : BenchmarkColumns
        Its item, model, score, task, cluster and sample columns.
    missing : {"raise", "drop", "drop-algorithms", "keep"}
        As for :func:`benchmark_items`.
    note : str, optional
        How the input was read.

    Returns
    -------
    BenchmarkItems
    """
    rows = _rows_of(table, found)
    task = None
    if found.task is not None:
        values = table[found.task]
        first = values.iloc[0] if hasattr(values, "iloc") else values[0]
        task = None if first is None else str(first)
    source = table.attrs.get("cdplot_source")
    return benchmark_items(
        rows["model"],
        rows["models"],
        rows["item"],
        rows["items"],
        rows["values"],
        cluster=rows["cluster"],
        cluster_ids=rows["cluster_ids"],
        sample=rows["sample"],
        missing=missing,
        task=task or table.attrs.get("cdplot_task"),
        columns=(found.item_name, found.cluster, found.sample),
        note=note,
        where=f" in {str(source)!r}" if source else "",
    )

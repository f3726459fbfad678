"""Item statistics on Dask by map-reduce over the partitions, without a shuffle.

Dask's own group-by of many (task, model) groups shuffles the rows between the workers, and
its self-join on (task, item) makes ``k^2 * items`` joined rows; the statistics need neither.
Every partition (a pandas frame on a worker) reduces its rows to small arrays, a tree of
cluster tasks merges them, and the client receives the merged result:

1. the task x model cells (rows, scores, sums, squares, scores other than 0/1, rows without
   an item id) and the smallest and largest item id: per partition ``bincount`` over the
   factorised names, merged by name (:func:`dask_cells`);
2. for 0/1 scores, per task and model the bitset of the items scored 0 and scored 1, and per
   task the bitset of the items with a row (the layout of
   :class:`~cdplot.io._engine_bits.ItemBitsets`), set per partition and merged by bitwise
   OR; items are placed by their offset from the smallest integer id when that span fits,
   else by their rank within the task (one more map-reduce, of the distinct items);
3. one cluster task per task on the merged bitsets: the pair counts (products of the task's
   ``k x L`` 0/1 matrices, :func:`dask_binary_pairs`) or every bootstrap replicate's sums
   (:func:`~cdplot.io._engine_bitboot.task_replicates`, :func:`dask_replicates`).

The client receives ``O(k^2 * tasks)`` numbers (and ``O(B * k * tasks)`` replicate sums),
never rows or bitsets. The counts are the self-join's integers, so the statistics equal the
other engines' exactly; a model scored twice on an item counts it once, which the caller's
check of the diagonal refuses.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable
from typing import Any

import numpy as np

from ._engine_bitboot import task_replicates
from ._engine_bits import BITSET_BYTES, unpack_scores

__all__ = ["dask_binary_pairs", "dask_cells", "dask_replicates"]

#: partial results merged by one cluster task (a worker holds them all at once: rows in
#: random order make every partition's bitsets as large as the merged ones)
FAN_IN = 4
#: positions of one matrix product of the pair counts (float32 counts stay exact)
_CHUNK = 1 << 16
#: the cells' sums per (task, model), in this order
_CELL_SUMS = ("_rows", "_n", "_s", "_q", "_odd", "_noid")


def _tree(parts: list[Any], merge: Callable[[Any, Any], Any]) -> Any:
    """One delayed result: ``parts`` merged in a tree, :data:`FAN_IN` at a time per cluster task."""
    import dask

    level = list(parts)
    while len(level) > 1:
        level = [
            dask.delayed(_merge_all, pure=True)(merge, level[i : i + FAN_IN])
            for i in range(0, len(level), FAN_IN)
        ]
    return level[0]


def _merge_all(merge: Callable[[Any, Any], Any], parts: list[Any]) -> Any:
    return functools.reduce(merge, parts)


def _partitions(ddf: Any, columns: list[str]) -> list[Any]:
    """The frame's partitions (pandas frames of ``columns``) as delayed objects."""
    return list(ddf[columns].to_delayed())


def _floats(values: Any) -> np.ndarray:
    """A pandas column as float64 with NaN where missing (through Arrow: decimals, nullable
    integers and booleans convert without a Python loop)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    array = pa.array(values, from_pandas=True)
    if isinstance(array, pa.ChunkedArray):
        array = array.combine_chunks()
    if pa.types.is_decimal(array.type):
        return _decimal_floats(array)
    return np.asarray(pc.cast(array, pa.float64()).to_numpy(zero_copy_only=False), dtype=float)


def _decimal_floats(array: Any) -> np.ndarray:
    """Decimals as the nearest doubles, the numbers ``float`` gives each ``Decimal`` (Arrow's
    own cast to double is not correctly rounded). An unscaled value within 2^53 over a power
    of ten up to 10^22, both exact doubles, is one correctly rounded division; other
    decimals are written as text and parsed (correctly rounded, slower)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    scale = int(array.type.scale)
    if pa.types.is_decimal128(array.type) and 0 <= scale <= 22:
        start = 2 * array.offset
        words = np.frombuffer(array.buffers()[1], dtype=np.int64)[start : start + 2 * len(array)]
        low, high = words[0::2], words[1::2]  # little-endian 128-bit unscaled values
        valid = ~np.asarray(array.is_null().to_numpy(zero_copy_only=False), dtype=bool)
        fits = (high == (low >> 63)) & (low >= -(2**53)) & (low <= 2**53)
        if bool(np.all(fits | ~valid)):
            out = low.astype(float) / float(10**scale)
            out[~valid] = np.nan
            return out
    text = pc.cast(array, pa.string())
    return np.asarray(pc.cast(text, pa.float64()).to_numpy(zero_copy_only=False), dtype=float)


def _integer_ids(values: Any) -> bool:
    import pandas as pd

    return bool(pd.api.types.is_integer_dtype(values.dtype))


# --- pass 1: the task x model cells ---------------------------------------------------------


@dataclasses.dataclass
class _Cells:
    """Sums per (task, model) name, and the item ids' range when they are integers."""

    sums: dict[tuple[Any, Any], np.ndarray]
    low: int | None
    high: int | None
    integer: bool


def _cells_partial(part: Any, t: str, m: str, i: str, s: str) -> _Cells:
    import pandas as pd

    task_codes, task_names = pd.factorize(part[t], use_na_sentinel=False)
    model_codes, model_names = pd.factorize(part[m], use_na_sentinel=False)
    key = task_codes.astype(np.int64) * len(model_names) + model_codes
    x = _floats(part[s])
    seen = ~np.isnan(x)
    x0 = np.where(seen, x, 0.0)
    size = len(task_names) * len(model_names)
    weights = (
        None,
        seen,
        x0,
        x0 * x0,
        seen & (x0 != 0.0) & (x0 != 1.0),
        part[i].isna().to_numpy(),
    )
    table = np.stack(
        [np.bincount(key, weights=w, minlength=size).astype(float) for w in weights], axis=1
    )
    names = [(_name(a), _name(b)) for a in task_names for b in model_names]
    sums = {names[j]: table[j] for j in np.flatnonzero(table[:, 0] > 0)}
    integer = _integer_ids(part[i])
    ids = part[i].dropna()
    low = int(ids.min()) if integer and len(ids) else None
    high = int(ids.max()) if integer and len(ids) else None
    return _Cells(sums, low, high, integer)


def _name(value: Any) -> Any:
    import pandas as pd

    return None if pd.isna(value) else value


def _merge_cells(a: _Cells, b: _Cells) -> _Cells:
    sums = dict(a.sums)
    for key, values in b.sums.items():
        sums[key] = sums[key] + values if key in sums else values
    lows = [v for v in (a.low, b.low) if v is not None]
    highs = [v for v in (a.high, b.high) if v is not None]
    return _Cells(
        sums,
        min(lows) if lows else None,
        max(highs) if highs else None,
        a.integer and b.integer,
    )


def dask_cells(ddf: Any, cols: dict[str, str | None]) -> tuple[Any, tuple[int, int] | None]:
    """Per task and model the rows, scores, sums, squares, scores other than 0/1 and rows
    without an item id (one map-reduce, no shuffle).

    Parameters
    ----------
    ddf : dask.dataframe.DataFrame
        The rows.
    cols : dict
        The roles' columns (``task``, ``model``, ``item``, ``score``).

    Returns
    -------
    tuple
        A pandas frame with the task and model columns and ``_rows``, ``_n``, ``_s``,
        ``_q``, ``_odd``, ``_noid`` (as the other engines' group-by gives them), and the
        smallest and largest item id when the ids are integers (else ``None``).
    """
    import dask
    import pandas as pd

    t, m, i, s = (str(cols[key]) for key in ("task", "model", "item", "score"))
    parts = [
        dask.delayed(_cells_partial, pure=True)(p, t, m, i, s)
        for p in _partitions(ddf, list(dict.fromkeys([t, m, i, s])))
    ]
    (merged,) = dask.compute(_tree(parts, _merge_cells))
    keys = list(merged.sums)
    values = np.array([merged.sums[k] for k in keys]).reshape(len(keys), len(_CELL_SUMS))
    table = pd.DataFrame(
        {t: [k[0] for k in keys], m: [k[1] for k in keys]}
        | {name: values[:, j] for j, name in enumerate(_CELL_SUMS)}
    )
    span = None
    if merged.integer and merged.low is not None and merged.high is not None:
        span = (merged.low, merged.high)
    return table, span


# --- the item positions ---------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class _Placement:
    """Position ``p`` of a task is the item ``low + p``, or ``ranked[task][p]``."""

    length: int
    low: int | None = None
    ranked: tuple[np.ndarray, ...] | None = None

    def positions(self, task: int, ids: np.ndarray) -> np.ndarray:
        if self.ranked is None:
            return ids.astype(np.int64) - np.int64(self.low or 0)
        return np.searchsorted(self.ranked[task], ids).astype(np.int64)

    def ids(self, task: int) -> np.ndarray:
        """The item id at every position of the task (int64)."""
        if self.ranked is None:
            return np.int64(self.low or 0) + np.arange(self.length, dtype=np.int64)
        out = np.zeros(self.length, dtype=np.int64)
        out[: len(self.ranked[task])] = self.ranked[task]
        return out


def _codes(values: Any, names: tuple[str, ...], what: str) -> np.ndarray:
    """Each value's index in the sorted ``names``; a name the first pass did not see means
    the rows changed between the passes."""
    import pandas as pd

    codes, distinct = pd.factorize(values, use_na_sentinel=False)
    where = {name: j for j, name in enumerate(names)}
    found = [where.get(str(v), -1) for v in distinct]
    if -1 in found:
        raise ValueError(
            f"the {what} {distinct[found.index(-1)]!r} was not there when the statistics' "
            "first pass read the rows: the data changed while it was read"
        )
    return np.asarray(found, dtype=np.int64)[codes] if len(found) else codes.astype(np.int64)


def _items_partial(part: Any, t: str, i: str, tasks: tuple[str, ...]) -> dict[int, np.ndarray]:
    codes = _codes(part[t], tasks, "task")
    ids = part[i].to_numpy()
    return {int(c): np.unique(ids[codes == c]) for c in np.unique(codes)}


def _merge_items(a: dict[int, np.ndarray], b: dict[int, np.ndarray]) -> dict[int, np.ndarray]:
    out = dict(a)
    for code, ids in b.items():
        out[code] = np.union1d(out[code], ids) if code in out else ids
    return out


def _placement(
    ddf: Any,
    cols: dict[str, str | None],
    tasks: tuple[str, ...],
    span: tuple[int, int] | None,
    budget: int,
) -> _Placement | None:
    """Integer ids by offset when their span fits ``budget`` bits, else by rank (a
    map-reduce of each task's distinct items); ``None`` when neither fits."""
    import dask

    if span is not None and span[1] - span[0] + 1 <= budget:
        return _Placement(-(-(span[1] - span[0] + 1) // 8) * 8, low=span[0])
    t, i = str(cols["task"]), str(cols["item"])
    parts = [
        dask.delayed(_items_partial, pure=True)(p, t, i, tasks)
        for p in _partitions(ddf, list(dict.fromkeys([t, i])))
    ]
    (found,) = dask.compute(_tree(parts, _merge_items))
    longest = max((len(v) for v in found.values()), default=0)
    if not longest or longest > budget:
        return None
    empty = np.zeros(0, dtype=np.int64)
    ranked = tuple(found.get(code, empty) for code in range(len(tasks)))
    return _Placement(-(-longest // 8) * 8, ranked=ranked)


def _span(ddf: Any, item: str) -> tuple[int, int] | None:
    """The smallest and largest item id (integer ids; else ``None``)."""
    import dask

    column = ddf[item]
    if not _integer_ids(column._meta):
        return None
    low, high = dask.compute(column.min(), column.max())
    if low is None or high is None or bool(np.isnan(float(low))):
        return None
    return int(low), int(high)


# --- pass 2: the item bitsets ---------------------------------------------------------------


@dataclasses.dataclass
class _Bits:
    """Bitsets of the tasks ``codes`` (sorted): ``bits`` is ``len(codes) x k x 2 L / 8``
    (the items scored 0, then those scored 1, most significant bit first), ``rows`` is
    ``len(codes) x L / 8`` (the items with a row)."""

    codes: np.ndarray
    bits: np.ndarray
    rows: np.ndarray


def _bits_partial(
    part: Any,
    names: tuple[str, str, str, str],
    tasks: tuple[str, ...],
    models: tuple[str, ...],
    placed: _Placement,
) -> _Bits:
    t, m, i, s = names
    k, length = len(models), placed.length
    task = _codes(part[t], tasks, "task")
    model = _codes(part[m], models, "model")
    codes = np.unique(task)
    local = np.searchsorted(codes, task)
    ids = part[i].to_numpy()
    where = np.zeros(len(part), dtype=np.int64)
    for j, code in enumerate(codes):
        here = local == j
        where[here] = placed.positions(int(code), ids[here])
    x = _floats(part[s])
    seen = ~np.isnan(x)
    bits = np.zeros((len(codes), k, 2 * length // 8), dtype=np.uint8)
    at = ((local * k + model) * 2 + (x == 1.0)) * length + where
    _set_bits(bits, at[seen])
    rows = np.zeros((len(codes), length // 8), dtype=np.uint8)
    _set_bits(rows, local * length + where)
    return _Bits(codes, bits, rows)


def _set_bits(packed: np.ndarray, at: np.ndarray) -> None:
    """Set bit ``at`` (most significant first) of the flat bytes of ``packed``."""
    flat = packed.reshape(-1)
    np.bitwise_or.at(flat, at >> 3, (np.uint8(128) >> (at & 7).astype(np.uint8)))


def _merge_bits(a: _Bits, b: _Bits) -> _Bits:
    # in place when both hold the same tasks: an OR is idempotent, so a merge that a worker
    # retries on its already merged input gives the same bits
    if np.array_equal(a.codes, b.codes):
        a.bits |= b.bits
        a.rows |= b.rows
        return a
    codes = np.union1d(a.codes, b.codes)
    bits = np.zeros((len(codes), *a.bits.shape[1:]), dtype=np.uint8)
    rows = np.zeros((len(codes), *a.rows.shape[1:]), dtype=np.uint8)
    for part in (a, b):
        at = np.searchsorted(codes, part.codes)
        bits[at] |= part.bits
        rows[at] |= part.rows
    return _Bits(codes, bits, rows)


def _bitsets(
    ddf: Any,
    cols: dict[str, str | None],
    tasks: tuple[str, ...],
    models: tuple[str, ...],
    span: tuple[int, int] | None,
) -> tuple[Any, _Placement] | None:
    """The merged bitsets, as one delayed result on the cluster, and the placement."""
    import dask

    budget = 8 * BITSET_BYTES // (len(tasks) * (2 * len(models) + 1)) - 64
    placed = _placement(ddf, cols, tasks, span, budget)
    if placed is None:
        return None
    names = tuple(str(cols[key]) for key in ("task", "model", "item", "score"))
    shared = dask.delayed(placed, pure=True)
    parts = [
        dask.delayed(_bits_partial, pure=True)(p, names, tasks, models, shared)
        for p in _partitions(ddf, list(dict.fromkeys(names)))
    ]
    return _tree(parts, _merge_bits), placed


def _task_scores(merged: _Bits, task: int, length: int) -> tuple[np.ndarray, np.ndarray]:
    """The task's ``k x L`` booleans: the items each model got right, and scored."""
    row = _task_row(merged, task)
    if row is None:
        empty = np.zeros((merged.bits.shape[1], length), dtype=bool)
        return empty, empty
    return unpack_scores(merged.bits[row])


def _task_row(merged: _Bits, task: int) -> int | None:
    """Where the task's bitsets are in ``merged`` (``None``: it has no rows)."""
    hit = np.flatnonzero(merged.codes == task)
    return int(hit[0]) if len(hit) else None


def _task_jobs(
    ddf: Any,
    cols: dict[str, str | None],
    tasks: tuple[str, ...],
    models: tuple[str, ...],
    span: tuple[int, int] | None,
    job: Callable[..., Any],
    *args: Any,
) -> list[Any] | None:
    """One delayed ``job(merged, task, placement, *args)`` per task, on the bitsets merged on
    the cluster; ``None`` when they would not fit."""
    import dask

    made = _bitsets(ddf, cols, tasks, models, span)
    if made is None:
        return None
    merged, placed = made
    return [dask.delayed(job, pure=True)(merged, t, placed, *args) for t in range(len(tasks))]


# --- per task, on the cluster ---------------------------------------------------------------


def _task_pairs(merged: _Bits, task: int, placed: _Placement) -> tuple[np.ndarray, int]:
    """The task's ``cross``, ``both`` and ``hits`` (``3 x k x k``) and its items."""
    length = placed.length
    right, scored = _task_scores(merged, task, length)
    k = right.shape[0]
    out = np.zeros((3, k, k))
    for first in range(0, length, _CHUNK):
        x = right[:, first : first + _CHUNK].astype(np.float32)
        c = scored[:, first : first + _CHUNK].astype(np.float32)
        out[0] += x @ x.T
        out[1] += c @ c.T
        out[2] += x @ c.T
    row = _task_row(merged, task)
    items = 0 if row is None else int(np.bitwise_count(merged.rows[row]).sum())
    return out, items


def dask_binary_pairs(
    ddf: Any,
    cols: dict[str, str | None],
    tasks: tuple[str, ...],
    models: tuple[str, ...],
    span: tuple[int, int] | None,
) -> dict[str, np.ndarray] | None:
    """Per task and ordered pair of models, the pair counts of 0/1 scores, from bitsets.

    Parameters
    ----------
    ddf : dask.dataframe.DataFrame
        The rows (every score 0, 1 or missing).
    cols : dict
        The roles' columns (``task``, ``model``, ``item``, ``score``).
    tasks, models : tuple of str
        The sorted names the arrays are indexed by.
    span : tuple of int, optional
        The smallest and largest item id (integer ids), from :func:`dask_cells`.

    Returns
    -------
    dict or None
        ``cross``, ``both`` and ``hits`` (``T x k x k``) and ``n_items`` (``T``); ``None``
        when the bitsets would exceed :data:`~cdplot.io._engine_bits.BITSET_BYTES`.
    """
    import dask

    jobs = _task_jobs(ddf, cols, tasks, models, span, _task_pairs)
    if jobs is None:
        return None
    found = dask.compute(*jobs)
    counts = np.stack([f[0] for f in found], axis=1)
    n_items = np.array([f[1] for f in found], dtype=np.int64)
    return {"cross": counts[0], "both": counts[1], "hits": counts[2], "n_items": n_items}


def _task_boot(
    merged: _Bits, task: int, placed: _Placement, n_boot: int, seed: int
) -> tuple[np.ndarray, np.ndarray] | None:
    right, scored = _task_scores(merged, task, placed.length)
    return task_replicates(right, scored, placed.ids(task), task, n_boot, seed, workers=1)


def dask_replicates(
    ddf: Any,
    cols: dict[str, str | None],
    tasks: tuple[str, ...],
    models: tuple[str, ...],
    n_boot: int,
    seed: int,
    progress: bool = False,
) -> tuple[np.ndarray, np.ndarray] | None:
    """Per replicate, task and model the weighted score sums and weights (``B x T x k``)
    of 0/1 scores with integer item ids: one pass builds the bitsets on the cluster, then
    one cluster task per task makes every replicate of it.

    Returns ``None`` when the bitsets would not fit (the caller makes grouped passes)."""
    from tqdm.auto import tqdm

    span = _span(ddf, str(cols["item"]))
    jobs = _task_jobs(ddf, cols, tasks, models, span, _task_boot, n_boot, seed)
    if jobs is None:
        return None
    shape = (n_boot, len(tasks), len(models))
    sums, weights = np.zeros(shape), np.zeros(shape)
    with tqdm(total=len(jobs), desc="bootstrap", disable=not progress, leave=False) as bar:
        for task, found in _as_done(jobs):
            if found is not None:
                sums[:, task, :], weights[:, task, :] = found
            bar.update()
    return sums, weights


def _as_done(jobs: list[Any]) -> Any:
    """``(index, result)`` of delayed jobs as they finish on a ``distributed`` client, or
    all at once on Dask's local scheduler."""
    import dask

    try:
        from distributed import as_completed, get_client

        client = get_client()
    except (ImportError, ValueError):
        yield from enumerate(dask.compute(*jobs))
        return
    futures = client.compute(jobs)
    index = {future.key: j for j, future in enumerate(futures)}
    for future in as_completed(futures):
        yield index[future.key], future.result()

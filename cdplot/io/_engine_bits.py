"""Pair counts of 0/1 item scores as bitsets, in DuckDB.

For 0/1 scores every pair statistic is a count of items: the co-successes ``sum x_i x_j``,
the items both models scored ``sum c_i c_j`` and ``sum x_i c_j``. DuckDB builds, in one
grouped pass over the rows, up to three bitsets per task and model (the items it got right,
the items it scored and, unless every row has a score, the items it has a row for; bit ``p``
is the task's ``p``-th item) and counts each pair's common bits (``bit_count(a & b)``) over
the small task x model table; in a task where every model scored every item once, only the
co-successes need a bitwise AND (the other counts follow from each model's). The work of the
pairs is at most ``k^2 * items / 64`` word operations instead of the self-join's
``k^2 * items`` joined rows, and DuckDB holds ``5 * tasks * k * items`` bits at most instead
of a join's hash table: the same integers, so the results equal the self-join's exactly.

The bootstrap's bitsets (:func:`duckdb_item_bitsets`) are one per task and model, of the
items scored 0 and scored 1 (one aggregate per row), fetched to the client.

Items are placed by their integer id minus the smallest id when the ids are integers and
that span fits, else by their rank within the task (a window over the distinct items). When
the bitsets would not fit :data:`BITSET_BYTES` the caller falls back to the self-join.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

__all__ = [
    "BITSET_BYTES",
    "ItemBitsets",
    "duckdb_binary_pairs",
    "duckdb_item_bitsets",
    "unpack_scores",
]

#: the most bytes the bitsets of one computation may take (else the self-join is used)
BITSET_BYTES = 2**30


def _quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


@dataclasses.dataclass(frozen=True)
class _Placement:
    """Where each item's bit is: SQL of the rows with a ``_p`` column, the bits per bitset,
    and how a position reads back as an id (``low + p``, or the ``ranks`` query's ``_i``)."""

    rows: str
    length: int
    low: int | None = None
    ranks: str | None = None


def _positions(relation: Any, task: str, item: str, budget: int) -> _Placement | None:
    """The item positions, and the bitset length.

    Integer ids are placed by ``id - min(id)`` when that span fits the ``budget`` bits of
    one bitset (the minimum and maximum come from the Parquet statistics: no pass over the
    rows); other ids by their rank within the task. ``None`` when there are no items or
    the ranks would not fit either."""
    t, i = _quote(task), _quote(item)
    dtype = str(relation.query("cdplot_rows", f"SELECT {i} FROM cdplot_rows").types[0])
    if dtype in {"TINYINT", "SMALLINT", "INTEGER", "BIGINT", "UTINYINT", "USMALLINT", "UINTEGER"}:
        low, high = relation.query(
            "cdplot_rows", f"SELECT min({i})::BIGINT, max({i})::BIGINT FROM cdplot_rows"
        ).fetchall()[0]
        if low is None:
            return None
        span = int(high) - int(low) + 1
        if span <= budget:
            rows = f"SELECT *, ({i}::BIGINT - ({int(low)})) AS _p FROM cdplot_rows"
            return _Placement(rows, span, low=int(low))
    per_task = relation.query(
        "cdplot_rows",
        f"SELECT max(n) FROM (SELECT count(DISTINCT {i}) AS n FROM cdplot_rows GROUP BY {t})",
    ).fetchall()[0][0]
    if not per_task or int(per_task) > budget:
        return None
    ranks = (
        f"SELECT {t} AS _t, {i} AS _i, (row_number() OVER (PARTITION BY {t} ORDER BY {i}) - 1)"
        f"::BIGINT AS _p FROM (SELECT DISTINCT {t}, {i} FROM cdplot_rows)"
    )
    rows = (
        f"SELECT r.*, q._p FROM cdplot_rows r JOIN ({ranks}) q "
        f"ON r.{t} IS NOT DISTINCT FROM q._t AND r.{i} IS NOT DISTINCT FROM q._i"
    )
    return _Placement(rows, int(per_task), ranks=ranks)


def duckdb_binary_pairs(
    relation: Any,
    cols: dict[str, str | None],
    tasks: tuple[str, ...],
    models: tuple[str, ...],
    scored: bool = False,
) -> dict[str, np.ndarray] | None:
    """Per task and ordered pair of models, the pair counts of 0/1 scores, from bitsets.

    Parameters
    ----------
    relation : duckdb.DuckDBPyRelation
        The rows (every score 0, 1 or missing).
    cols : dict
        The roles' columns (``task``, ``model``, ``item``, ``score``).
    tasks, models : tuple of str
        The sorted names the arrays are indexed by.
    scored : bool, default False
        Every row has a score: the items a model scored are the items it has a row for,
        and the third bitset is not built (a third less memory).

    Returns
    -------
    dict or None
        ``cross``, ``both`` and ``hits`` (``T x k x k``) and ``n_items`` (``T``); ``None``
        when the bitsets would exceed :data:`BITSET_BYTES`. A model scored twice on an item
        counts it once, so the diagonal of ``both`` falls below its scores.
    """
    task, model, score = str(cols["task"]), str(cols["model"]), str(cols["score"])
    # bits held per task and model: the items right and the items scored, a copy of both in
    # the pairs' join and, unless every row has a score, the items with a row
    per_length = 4 if scored else 5
    bits = 8 * BITSET_BYTES // (per_length * len(tasks) * len(models))  # the longest L
    placed = _positions(relation, task, str(cols["item"]), bits - 64)
    if placed is None:
        return None
    length = placed.length
    t, m, x = _quote(task), _quote(model), f"{_quote(score)}::DOUBLE"
    agg = f"bitstring_agg(_p, 0, {length - 1})"
    rows = f", {agg} AS _r" if not scored else ""
    rows_items = ", bit_count(bit_or(_r)) AS _rows_items" if not scored else ""
    # A task where every model scored every item of the task once ("_full") needs one
    # bitwise AND per pair (the co-successes): the items both scored are all the task's,
    # and each model's right items are its hits against any other.
    sql = f"""
        WITH raw AS MATERIALIZED (
            SELECT g.*, coalesce(bit_count(g._x), 0) AS _nx, coalesce(bit_count(g._c), 0) AS _nc
            FROM (
                SELECT {t} AS _t, {m} AS _m,
                    {agg} FILTER (WHERE {x} = 1) AS _x,
                    {agg} FILTER (WHERE {x} IS NOT NULL) AS _c,
                    count({x}) AS _n{rows}
                FROM ({placed.rows}) GROUP BY {t}, {m}
            ) g
        ),
        per_task AS MATERIALIZED (
            SELECT _t, coalesce(bit_count(bit_or(_c)), 0) AS _union,
                bool_and(_nc = _n) AS _once, min(_nc) AS _least{rows_items}
            FROM raw GROUP BY _t
        ),
        counted AS (
            SELECT r._t, r._m, r._x, r._nx, i._once AND i._least = i._union AS _full,
                i._union, {"i._union" if scored else "i._rows_items"} AS _items,
                CASE WHEN NOT (i._once AND i._least = i._union) THEN r._c END AS _c
            FROM raw r JOIN per_task i ON r._t IS NOT DISTINCT FROM i._t
        )
        SELECT a._t AS _t, a._m AS _a, b._m AS _b,
            coalesce(bit_count(a._x & b._x), 0) AS _cross,
            CASE WHEN a._full THEN a._union
                ELSE coalesce(bit_count(a._c & b._c), 0) END AS _both,
            CASE WHEN a._full THEN a._nx
                ELSE coalesce(bit_count(a._x & b._c), 0) END AS _hits_ab,
            CASE WHEN a._full THEN b._nx
                ELSE coalesce(bit_count(b._x & a._c), 0) END AS _hits_ba,
            a._items AS _items
        FROM counted a JOIN counted b ON a._t IS NOT DISTINCT FROM b._t AND a._m <= b._m
    """
    table = relation.query("cdplot_rows", sql).to_arrow_table()
    found = {name: table.column(name) for name in table.column_names}
    try:  # names as the task x model pass read them (Arrow values, Python's str)
        ti = _codes(found["_t"].to_pylist(), tasks)
        ai, bi = _codes(found["_a"].to_pylist(), models), _codes(found["_b"].to_pylist(), models)
    except KeyError:  # a value whose text differs between the passes: use the join
        return None
    shape = (len(tasks), len(models), len(models))
    out = {key: np.zeros(shape) for key in ("cross", "both", "hits")}
    for key, column in (("cross", "_cross"), ("both", "_both")):
        values = found[column].to_numpy().astype(float)
        out[key][ti, ai, bi] = values
        out[key][ti, bi, ai] = values
    out["hits"][ti, ai, bi] = found["_hits_ab"].to_numpy().astype(float)
    out["hits"][ti, bi, ai] = found["_hits_ba"].to_numpy().astype(float)
    n_items = np.zeros(len(tasks), dtype=np.int64)
    n_items[ti] = found["_items"].to_numpy().astype(np.int64)
    return {**out, "n_items": n_items}


@dataclasses.dataclass(frozen=True, eq=False)
class ItemBitsets:
    """Each task's and model's 0/1 scores as one bitset in the client.

    Attributes
    ----------
    data : numpy.ndarray
        The bytes of the bitsets as DuckDB sent them (read in place, not copied).
    starts : numpy.ndarray
        ``T x k``: where each task's and model's ``2 L / 8`` bytes start in ``data`` (-1
        where it scored nothing); bit ``p`` (most significant first) set when the model
        scored the task's ``p``-th item 0, bit ``L + p`` when it scored it 1.
    length : int
        ``L``, the positions per task (a multiple of 8).
    low : int, optional
        Position ``p`` is the item ``low + p`` (integer ids placed by offset).
    ranked : tuple of numpy.ndarray, optional
        Else each task's item ids in position order.
    """

    data: np.ndarray
    starts: np.ndarray
    length: int
    low: int | None
    ranked: tuple[np.ndarray, ...] | None

    def scores(self, task: int) -> tuple[np.ndarray, np.ndarray]:
        """The task's ``k x L`` booleans: the items each model got right, and scored."""
        half = self.length // 8
        packed = np.zeros((self.starts.shape[1], 2 * half), dtype=np.uint8)
        for model, start in enumerate(self.starts[task]):
            if start >= 0:
                packed[model] = self.data[start : start + 2 * half]
        return unpack_scores(packed)

    def ids(self, task: int, positions: np.ndarray) -> np.ndarray:
        """The item ids at ``positions`` of the task (int64)."""
        if self.ranked is None:
            return np.int64(self.low or 0) + positions.astype(np.int64)
        return self.ranked[task][positions]


def unpack_scores(packed: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``k x L`` booleans (the items right, the items scored) of ``k`` bitsets of ``2 L``
    bits (bytes ``k x 2 L / 8``: the items scored 0, then those scored 1, most significant
    bit first)."""
    half = packed.shape[1] // 2
    right = np.unpackbits(packed[:, half:], axis=1).astype(bool)
    wrong = np.unpackbits(packed[:, :half], axis=1).astype(bool)
    return right, right | wrong


def duckdb_item_bitsets(
    relation: Any,
    cols: dict[str, str | None],
    tasks: tuple[str, ...],
    models: tuple[str, ...],
) -> ItemBitsets | None:
    """Per task and model, the items scored 0 and scored 1 as one bitset, fetched to the client.

    One grouped pass with one aggregate per row (``bitstring_agg`` of ``p + L * score``).
    The item ids must be integers (the hashed bootstrap weights read them).

    Parameters
    ----------
    relation : duckdb.DuckDBPyRelation
        The rows (every score 0, 1 or missing).
    cols : dict
        The roles' columns (``task``, ``model``, ``item``, ``score``).
    tasks, models : tuple of str
        The sorted names the arrays are indexed by.

    Returns
    -------
    ItemBitsets or None
        ``None`` when the bitsets would exceed :data:`BITSET_BYTES`, a name reads
        differently from the task x model pass, or an id does not fit 64 bits.
    """
    import pyarrow as pa

    task, model, score = str(cols["task"]), str(cols["model"]), str(cols["score"])
    bits = 4 * BITSET_BYTES // (len(tasks) * len(models))  # the longest half allowed
    placed = _positions(relation, task, str(cols["item"]), bits - 64)
    if placed is None:
        return None
    length = -(-placed.length // 8) * 8
    t, m, x = _quote(task), _quote(model), f"{_quote(score)}::DOUBLE"
    sql = f"""
        SELECT {t} AS _t, {m} AS _m,
            bitstring_agg(_p + {length} * CAST({x} AS BIGINT), 0, {2 * length - 1})
                FILTER (WHERE {x} IS NOT NULL) AS _b
        FROM ({placed.rows}) GROUP BY {t}, {m}
    """
    table = relation.query("cdplot_rows", sql).to_arrow_table()
    try:
        ti = _codes(table.column("_t").to_pylist(), tasks)
        mi = _codes(table.column("_m").to_pylist(), models)
    except KeyError:
        return None
    found = table.column("_b").combine_chunks()
    _validity, offsets, data = found.buffers()
    where = np.frombuffer(offsets, dtype=np.int32)[found.offset : found.offset + len(found)]
    raw = np.frombuffer(data, dtype=np.uint8) if data is not None else np.zeros(0, np.uint8)
    starts = np.full((len(tasks), len(models)), -1, dtype=np.int64)
    valid = ~np.asarray(found.is_null())  # a value is a padding-count byte, then the bits
    starts[ti[valid], mi[valid]] = where[valid].astype(np.int64) + 1
    ranked = None
    if placed.ranks is not None:
        order = relation.query("cdplot_rows", f"SELECT _t, _i, _p FROM ({placed.ranks})")
        fetched = order.to_arrow_table()
        try:
            where = _codes(fetched.column("_t").to_pylist(), tasks)
            ids = fetched.column("_i").cast(pa.int64()).to_numpy()
        except (KeyError, pa.ArrowInvalid):
            return None
        places = fetched.column("_p").to_numpy()
        per_task = [np.zeros(length, dtype=np.int64) for _ in tasks]
        for code in range(len(tasks)):
            here = where == code
            per_task[code][places[here]] = ids[here]
        ranked = tuple(per_task)
    return ItemBitsets(raw, starts, length, placed.low, ranked)


def _codes(values: list[Any], names: tuple[str, ...]) -> np.ndarray:
    """Each value's index in the sorted ``names`` (``KeyError`` for a value not there)."""
    where = {name: i for i, name in enumerate(names)}
    text = np.array([str(v) for v in values], dtype=object)
    distinct, inverse = np.unique(text, return_inverse=True)
    return np.array([where[v] for v in distinct], dtype=np.int64)[inverse]

"""The per-task item matrices of a long table of item scores, built in bounded chunks.

:func:`cdplot.io._items.item_scores` reads its columns through these helpers: codes in order
of first appearance (a ``Categorical`` column whose categories are already in that order is
used as it is, without a copy), and the items x models matrix written chunk by chunk of
:data:`CHUNK_ROWS` rows, so the working arrays (int64 keys and cells) are those of one chunk,
not of the whole table. Scores that are all 0 or 1 are written into a ``uint8`` matrix
(:data:`~cdplot.io._items.MISSING_CODE` where a model has no score): one byte a cell
instead of eight, the same numbers when read as floats.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

__all__ = ["CHUNK_ROWS", "categorical_codes", "is_binary", "item_matrix", "present"]

#: rows of one chunk: its int64 keys and cells take 32 MB each
CHUNK_ROWS = 1 << 22
_MISSING = 255  # cdplot.io._items.MISSING_CODE (this module sits below it)


def present(block: np.ndarray) -> np.ndarray:
    """Where a block of an item matrix (float or compact ``uint8``) has a score."""
    return block != _MISSING if block.dtype == np.uint8 else ~np.isnan(block)


def _first_appearance(codes: np.ndarray, n: int) -> bool:
    """Whether codes 0..n-1 all occur, each first after every smaller one: the running
    maximum (sorted) takes every value from 0 up, none skipped."""
    top = -1
    for start in range(0, codes.size, CHUNK_ROWS):
        run = np.maximum.accumulate(codes[start : start + CHUNK_ROWS])
        low, high = int(run[0]), int(run[-1])
        if low > top + 1:
            return False
        wanted = np.arange(max(low, top + 1), high + 1)
        if wanted.size and (run[np.searchsorted(run, wanted)] != wanted).any():
            return False
        top = max(top, high)
    return top == n - 1


def categorical_codes(values: Any) -> tuple[np.ndarray, list[Any]] | None:
    """The codes and labels of a ``Categorical`` column whose categories are all used and in
    order of first appearance (what ``pd.factorize`` would give: the same codes, the same
    labels), without a copy; None for any other column."""
    import pandas as pd

    cat = getattr(values, "array", values)
    if not isinstance(cat, pd.Categorical):
        return None
    codes = cat.codes
    if not codes.size or codes.min() < 0 or not _first_appearance(codes, len(cat.categories)):
        return None
    return codes, list(cat.categories.to_numpy())


def is_binary(values: np.ndarray) -> bool:
    """All scores 0.0 or 1.0 (no NaN, no negative zero), so a ``uint8`` holds them exactly."""
    if values.dtype == np.uint8:
        return bool(values.size) and int(values.max(initial=0)) <= 1
    if values.dtype.kind != "f" or not values.size:
        return False
    for start in range(0, values.size, CHUNK_ROWS):
        chunk = values[start : start + CHUNK_ROWS]
        if not ((chunk == 0.0) | (chunk == 1.0)).all() or np.signbit(chunk).any():
            return False
    return True


def _keys(task: np.ndarray, item: np.ndarray, n_items: int, start: int) -> np.ndarray:
    return (
        task[start : start + CHUNK_ROWS].astype(np.int64) * n_items
        + item[start : start + CHUNK_ROWS]
    )


def _rows(task: np.ndarray, item: np.ndarray, n_items: int) -> tuple[np.ndarray, Any]:
    """The distinct (task, item) keys, sorted, and a function from a chunk's keys to their
    positions among them."""
    n_tasks = int(task.max()) + 1 if task.size else 0
    if n_tasks * n_items <= 4 * task.size + 1024:  # a dense lookup beats sorting
        seen = np.zeros(n_tasks * n_items, dtype=bool)
        for start in range(0, task.size, CHUNK_ROWS):
            seen[_keys(task, item, n_items, start)] = True
        keys = np.flatnonzero(seen)
        lookup = np.cumsum(seen, dtype=np.int64) - 1
        del seen
        return keys, lambda key: lookup[key]
    keys = np.unique(
        np.concatenate(
            [np.unique(_keys(task, item, n_items, s)) for s in range(0, task.size, CHUNK_ROWS)]
        )
    )
    return keys, lambda key: np.searchsorted(keys, key)


def item_matrix(
    columns: tuple[np.ndarray, np.ndarray, np.ndarray],
    n_items: int,
    k: int,
    score: np.ndarray,
    duplicate: Callable[[np.ndarray, np.ndarray, np.ndarray], None],
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The (task, item) rows sorted by task: their task and item codes and the items x
    models matrix (``uint8`` when the scores are all 0 or 1, else float64 with NaN).

    ``columns`` are the task, model and item codes of the rows. Two rows on one cell call
    ``duplicate(counts, row_task, row_item)`` (``counts`` of the rows on each cell), which
    raises.
    """
    task, model, item = columns
    keys, position = _rows(task, item, n_items)
    binary = is_binary(score)
    matrix = np.full((keys.size, k), _MISSING if binary else np.nan, np.uint8 if binary else float)
    flat = matrix.reshape(-1)
    written = np.zeros(flat.size, dtype=bool)
    for start in range(0, task.size, CHUNK_ROWS):
        cell = position(_keys(task, item, n_items, start))
        cell *= k
        cell += model[start : start + CHUNK_ROWS]
        part = score[start : start + CHUNK_ROWS]
        flat[cell] = part if binary else part.astype(float, copy=False)
        written[cell] = True
    row_task, row_item = keys // n_items, keys % n_items
    if int(np.count_nonzero(written)) != task.size:
        counts = np.zeros(flat.size, dtype=np.int64)
        for start in range(0, task.size, CHUNK_ROWS):
            cell = position(_keys(task, item, n_items, start)) * k
            cell += model[start : start + CHUNK_ROWS]
            counts += np.bincount(cell, minlength=flat.size)
        duplicate(counts, row_task, row_item)
    return row_task, row_item, matrix

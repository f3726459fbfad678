"""Bootstrap replicates of 0/1 scores in DuckDB from item bitsets, by matrix products.

For 0/1 scores a replicate's weighted sums are ``S[m] = sum_i w_i x_mi`` and ``N[m] = sum_i
w_i c_mi`` over a task's items, with ``x`` the items a model got right and ``c`` those it
scored: for all replicates at once, the products ``X W`` and ``C W`` of the task's ``k x n``
0/1 matrices with the ``n x R`` hashed weights. DuckDB makes one grouped pass (one bitset of
``2 n`` bits per task and model, :func:`~cdplot.io._engine_bits.duckdb_item_bitsets`); the
client hashes the weights once per item and replicate
(:func:`~cdplot.io._engine_hash.hashed_poisson_matrix`) and multiplies. The sums are
integers below ``2^24`` (``float32``, exact) or else computed in ``float64``, so they equal
the grouped passes' sums exactly. Models that scored every item of a task get the weights'
column sums; the product ``C W`` is made only for the others. :func:`task_replicates` is
one task's share, which Dask runs on its workers (:mod:`cdplot.io._engine_dask`).
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

import numpy as np

from ._engine import narwhals
from ._engine_bits import duckdb_item_bitsets
from ._engine_hash import K_MAX, hashed_poisson_matrix, unit_ids

if TYPE_CHECKING:
    from ._engine_stats import EngineStatistics

__all__ = ["bitset_replicates", "task_replicates"]

#: bytes of one matrix of weights (items x replicates) at a time
WEIGHT_BYTES = 64 * 2**20


def _dtype(items: int) -> Any:
    """float32 while every sum of weights is an integer it holds exactly (below 2^24)."""
    return np.float32 if K_MAX * items < 2**24 else np.float64


def bitset_replicates(
    stats: EngineStatistics, n_boot: int, seed: int, progress: bool = False
) -> tuple[np.ndarray, np.ndarray] | None:
    """Per replicate, task and model the weighted score sums and weights (``B x T x k``).

    Parameters
    ----------
    stats : EngineStatistics
        Of a DuckDB relation of 0/1 scores with integer item ids.
    n_boot, seed : int
        Replicates ``0 .. n_boot - 1`` of the hashed item weights of ``seed``.
    progress : bool, default False
        Show a progress bar over the tasks (tqdm).

    Returns
    -------
    tuple of numpy.ndarray or None
        ``(sums, weights)``, or ``None`` when the bitsets would not fit (the caller then
        makes the grouped passes).
    """
    from tqdm.auto import tqdm

    found = duckdb_item_bitsets(
        narwhals().to_native(stats.source), stats.columns, stats.tasks, stats.models
    )
    if found is None:
        return None
    shape = (n_boot, len(stats.tasks), len(stats.models))
    sums, weights = np.zeros(shape), np.zeros(shape)
    workers = max(1, min(4, os.cpu_count() or 1))
    every = np.arange(found.length)
    for t in tqdm(range(len(stats.tasks)), desc="bootstrap", disable=not progress, leave=False):
        right, scored = found.scores(t)
        made = task_replicates(right, scored, found.ids(t, every), t, n_boot, seed, workers)
        if made is not None:
            sums[:, t, :], weights[:, t, :] = made
    return sums, weights


def task_replicates(
    right: np.ndarray,
    scored: np.ndarray,
    ids: np.ndarray,
    task: int,
    n_boot: int,
    seed: int,
    workers: int = 1,
) -> tuple[np.ndarray, np.ndarray] | None:
    """One task's replicate sums and weights (``B x k``) from its 0/1 scores.

    Parameters
    ----------
    right, scored : numpy.ndarray
        ``k x L`` booleans: the items each model got right, and scored (position ``p`` is
        the item ``ids[p]``).
    ids : numpy.ndarray
        The item id at each position (int64).
    task : int
        The task's index (the hashed weights read it).
    n_boot, seed : int
        Replicates ``0 .. n_boot - 1`` of the hashed item weights of ``seed``.
    workers : int, default 1
        Threads of the hash.

    Returns
    -------
    tuple of numpy.ndarray or None
        ``(sums, weights)``, or ``None`` when no model scored an item of the task.
    """
    present = np.flatnonzero(scored.any(axis=0))
    if not len(present):
        return None
    units = unit_ids(ids[present], task)
    dtype = _dtype(len(present))
    x = right[:, present].astype(dtype)
    scored = scored[:, present]
    full = scored.all(axis=1)
    partial = np.flatnonzero(~full & scored.any(axis=1))
    c = scored[partial].astype(dtype)
    k = scored.shape[0]
    sums, weights = np.zeros((n_boot, k)), np.zeros((n_boot, k))
    step = max(1, WEIGHT_BYTES // (len(present) * np.dtype(dtype).itemsize))
    for first in range(0, n_boot, step):
        reps = range(first, min(n_boot, first + step))
        w = hashed_poisson_matrix(units, reps, seed, dtype=dtype, workers=workers)
        sums[reps.start : reps.stop] = (x @ w).T
        total = w.sum(axis=0, dtype=np.float64)
        weights[reps.start : reps.stop] = np.where(full, total[:, None], 0.0)
        if len(partial):
            weights[reps.start : reps.stop, partial] = (c @ w).T
    return sums, weights

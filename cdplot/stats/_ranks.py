"""Per-dataset ranks (1 = best, ties get the average rank) and average ranks."""

from __future__ import annotations

import numpy as np

__all__ = ["average_ranks", "rank_rows"]


def rank_rows(values: np.ndarray) -> np.ndarray:
    """Rank each row of a 2-D array in increasing order, ties getting the average rank.

    Parameters
    ----------
    values : numpy.ndarray
        Array of shape (n_rows, n); no NaN.

    Returns
    -------
    numpy.ndarray
        float64 array of the same shape: rank 1 for the smallest value of each
        row; tied values share the mean of the ranks they span (as
        ``scipy.stats.rankdata(method="average")``).
    """
    values = np.asarray(values)
    n_rows, n = values.shape
    if n == 0:
        return np.empty((n_rows, 0))
    order = np.argsort(values, axis=1, kind="stable")
    ordered = np.take_along_axis(values, order, axis=1)
    positions = np.broadcast_to(np.arange(n), (n_rows, n))
    new_block = np.ones((n_rows, n), dtype=bool)
    new_block[:, 1:] = ordered[:, 1:] != ordered[:, :-1]
    # first and last sorted position of the tie block of every position
    first = np.maximum.accumulate(np.where(new_block, positions, 0), axis=1)
    ends_block = np.ones((n_rows, n), dtype=bool)
    ends_block[:, :-1] = new_block[:, 1:]
    last = np.minimum.accumulate(np.where(ends_block, positions, n - 1)[:, ::-1], axis=1)[:, ::-1]
    block_rank = (first + last) / 2.0 + 1.0
    ranks = np.empty((n_rows, n))
    np.put_along_axis(ranks, order, block_rank, axis=1)
    return ranks


def average_ranks(ranks: np.ndarray) -> np.ndarray:
    """Mean rank of each column of an (N, k) rank matrix."""
    return np.asarray(ranks, dtype=float).mean(axis=0)

"""Per-dataset ranks (1 = best, ties get the average rank) and average ranks."""

from __future__ import annotations

import numpy as np

__all__ = ["average_ranks", "rank_rows"]

#: Number of values ranked at once: bounds the working memory of :func:`rank_rows` (about
#: 40 bytes a value) and keeps a chunk in the processor's cache.
CHUNK_VALUES = 1 << 15


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

    Notes
    -----
    Rows are sorted (``numpy.argsort``, not stable: the order inside a block of equal
    values does not change the block's average rank) in chunks of at most
    :data:`CHUNK_VALUES` values. A tie block spanning 0-based sorted positions ``a..b``
    gets the rank ``(a + b) / 2 + 1``, an exact half-integer.

    Examples
    --------
    >>> import numpy as np
    >>> from cdplot.stats import rank_rows
    >>> rank_rows(np.array([[0.3, 0.1, 0.3], [2.0, 1.0, 0.0]]))
    array([[2.5, 1. , 2.5],
           [3. , 2. , 1. ]])
    """
    values = np.ascontiguousarray(values)
    n_rows, n = values.shape
    ranks = np.empty((n_rows, n))
    if n == 0 or n_rows == 0:
        return ranks
    rows = max(1, min(n_rows, CHUNK_VALUES // n))
    position_ranks = np.tile(np.arange(1.0, n + 1.0), rows)
    offsets = np.arange(0, rows * n, n)[:, None]
    for start in range(0, n_rows, rows):
        stop = min(n_rows, start + rows)
        _rank_chunk(values[start:stop], ranks[start:stop], position_ranks, offsets)
    return ranks


def _rank_chunk(
    values: np.ndarray, out: np.ndarray, position_ranks: np.ndarray, offsets: np.ndarray
) -> None:
    """Rank the rows of ``values`` into ``out`` (both C-contiguous, r x n)."""
    r, n = values.shape
    size = r * n
    order = np.argsort(values, axis=1)
    order += offsets[:r]  # flat index, in the chunk, of the value at each sorted position
    where = order.ravel()
    ordered = values.ravel()[where]
    flat_out = out.reshape(size)  # a view: out is contiguous
    starts = np.empty(size, dtype=bool)
    np.not_equal(ordered[1:], ordered[:-1], out=starts[1:])
    starts[::n] = True  # every row starts a block
    if starts.all():  # no ties: the rank is the sorted position + 1
        flat_out[where] = position_ranks[:size]
        return
    # tie blocks: first and last flat sorted position of each (rows start and end blocks)
    first = np.flatnonzero(starts)
    last = np.empty_like(first)
    last[:-1] = first[1:] - 1
    last[-1] = size - 1
    block_rank = (first + last) / 2.0 - (first - first % n) + 1.0
    flat_out[where] = np.repeat(block_rank, last - first + 1)


def average_ranks(ranks: np.ndarray) -> np.ndarray:
    """Mean rank of each column of an (N, k) rank matrix."""
    return np.asarray(ranks, dtype=float).mean(axis=0)

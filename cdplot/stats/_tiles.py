"""Every pair of columns of a score table, in bounded memory: the all-pairs kernels' loop.

The Wilcoxon and sign tests compare every pair of algorithms dataset by dataset, and want
each algorithm's N scores contiguous. Transposing the whole N x k table would double the
working memory of a large table (and reordering its columns first, to the canonical order,
would triple it). :func:`pair_chunks` instead transposes one tile of at most
:data:`TILE_VALUES` scores at a time (a few columns of a long table; the whole table when it
is small), visits the pairs within a tile and between two tiles, and hands them to the
kernel in chunks of at most ``rows`` pairs together with their indices in
``numpy.triu_indices(k, 1)`` order. What a kernel computes for a pair depends only on that
pair's two columns, so the tiling changes no bit of any result.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import numpy as np

__all__ = ["TILE_VALUES", "pair_chunks", "pair_index"]

#: Scores held per transposed tile (two tiles live at once: 2 x 4 MiB at most).
TILE_VALUES = 1 << 19
#: Rows of the table gathered at once while a tile is filled (bounds the gather's copy).
_GATHER_VALUES = 1 << 16

#: One chunk: the pairs' indices, and segments ``(x, ys, row)``: chunk rows
#: ``row .. row + len(ys) - 1`` are the pairs of column ``x`` with the columns ``ys``.
Chunk = tuple[np.ndarray, list[tuple[np.ndarray, np.ndarray, int]]]


def pair_index(i: int, j: int, k: int) -> int:
    """Index of the pair (i, j), i < j, in ``numpy.triu_indices(k, 1)`` order."""
    return i * (2 * k - i - 1) // 2 + (j - i - 1)


def pair_chunks(
    scores: np.ndarray,
    order: Sequence[int] | None,
    rows: int,
    *,
    halve: bool = False,
    negate: bool = False,
) -> Iterator[Chunk]:
    """Chunks of at most ``rows`` pairs of columns of ``scores``, in transposed tiles.

    Parameters
    ----------
    scores : numpy.ndarray
        N x k float64 table (any memory layout; never copied whole).
    order : sequence of int, optional
        The columns in the order the pairs are numbered in (default: as they are).
    rows : int
        The most pairs in one chunk.
    halve : bool
        Multiply every score by 0.5 in the tiles (exact for normal numbers).
    negate : bool
        Negate every score in the tiles (``0.0 - x``: the bits of ``(-x) + 0.0``), so that
        lower-is-better scores need no negated copy of the table.

    Yields
    ------
    (pairs, segments)
        ``pairs`` are the chunk's pair indices (``pair_index`` of the ordered columns);
        in a segment ``(x, ys, row)``, ``x`` is one column's N scores and ``ys`` the
        scores of a run of columns (rows of a tile), each plus 0.0, which turns -0.0
        into +0.0 and leaves every other value as it is.
    """
    n, k = scores.shape
    cols = list(range(k)) if order is None else list(order)
    width = max(1, min(k, TILE_VALUES // max(1, n)))
    first = np.empty((width, n))
    second = np.empty((width, n)) if width < k else first
    for i0 in range(0, k, width):
        a = _fill(first, scores, cols[i0 : i0 + width], halve, negate)
        for j0 in range(i0, k, width):
            b = a if j0 == i0 else _fill(second, scores, cols[j0 : j0 + width], halve, negate)
            yield from _tile_chunks(a, b, i0, j0, k, rows)


def _fill(
    tile: np.ndarray, scores: np.ndarray, cols: list[int], halve: bool, negate: bool = False
) -> np.ndarray:
    """The columns ``cols`` of ``scores``, transposed into the first rows of ``tile``."""
    out = tile[: len(cols)]
    n = scores.shape[0]
    step = max(1, _GATHER_VALUES // len(cols))
    for r0 in range(0, n, step):
        if negate:
            np.subtract(0.0, scores[r0 : r0 + step, cols].T, out=out[:, r0 : r0 + step])
        else:
            np.add(scores[r0 : r0 + step, cols].T, 0.0, out=out[:, r0 : r0 + step])
    if halve:
        out *= 0.5
    return out


def _tile_chunks(
    a: np.ndarray, b: np.ndarray, i0: int, j0: int, k: int, rows: int
) -> Iterator[Chunk]:
    """The pairs (i, j), i < j, of tile rows ``a`` (columns i0..) and ``b`` (columns j0..)."""
    pairs: list[np.ndarray] = []
    segments: list[tuple[np.ndarray, np.ndarray, int]] = []
    filled = 0
    for li in range(a.shape[0]):
        i = i0 + li
        lj = max(0, i + 1 - j0)  # the first column of b paired with i
        while lj < b.shape[0]:
            take = min(b.shape[0] - lj, rows - filled)
            start = pair_index(i, j0 + lj, k)
            pairs.append(np.arange(start, start + take))
            segments.append((a[li], b[lj : lj + take], filled))
            filled += take
            lj += take
            if filled == rows:
                yield np.concatenate(pairs), segments
                pairs, segments, filled = [], [], 0
    if filled:
        yield np.concatenate(pairs), segments

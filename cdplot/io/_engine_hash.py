"""Hashed Poisson(1) weights: a function of (id, replicate, seed), the same in every engine.

The hash is integer arithmetic modulo the prime ``P = 2^31 - 1`` (every product below
``2^62``, so no engine overflows or wraps); the weight is the inverse Poisson(1) CDF of the
hash, by integer comparison with the thresholds ``ceil(F(k) P)``. :func:`hashed_poisson` is
the reference, written as plainly as the engines' expressions; :func:`hashed_poisson_matrix`
gives the same integers for many ids and replicates at once, reducing modulo ``P`` by folding
the high bits onto the low ones (``2^31 = 1 mod P``) instead of dividing, on blocks that stay
in the processor's cache.
"""

from __future__ import annotations

import math
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np

__all__ = [
    "K_MAX",
    "P",
    "TASKS",
    "hashed_poisson",
    "hashed_poisson_matrix",
    "poisson_thresholds",
    "unit_ids",
]

#: the hash's modulus, the Mersenne prime 2^31 - 1
P = 2_147_483_647
#: the hash's multipliers (below P)
_M = (1_103_515_245, 1_664_525, 22_695_477, 69_069, 134_775_813)
#: largest Poisson(1) weight (P(X > 15) < 1e-13, below the hash's resolution 1 / P)
K_MAX = 15
#: a row's hashed id is ``(id mod P) * TASKS + task index``: up to this many tasks
TASKS = 1 << 20
#: hash values per block of :func:`hashed_poisson_matrix` (four int64 buffers of it fit a
#: typical 2 MiB cache)
_BLOCK_VALUES = 1 << 16
#: the lookup of the weight by the hash's top bits: ``h >> _SHIFT`` (2,048 buckets)
_SHIFT = 20


def poisson_thresholds() -> np.ndarray:
    """``ceil(F(k) P)`` for ``k = 0 .. K_MAX - 1``: the weight is how many a hash reaches."""
    cdf, term = [], math.exp(-1.0)
    total = 0.0
    for k in range(K_MAX):
        total += term
        cdf.append(total)
        term /= k + 1
    return np.array([math.ceil(c * P) for c in cdf], dtype=np.int64)


def unit_ids(ids: Any, task_codes: Any) -> np.ndarray:
    """The hashed ids of items (or clusters) of tasks: ``(id mod P) * TASKS + task``."""
    return (np.asarray(ids, dtype=np.int64) % P) * TASKS + np.asarray(task_codes, np.int64)


def _constants(replicate: int, seed: int) -> tuple[int, int]:
    return (
        (replicate * 2_654_435_761 + seed * 40_503 + 12_345) % P,
        (replicate * 97 + seed * 2_246_822_519 + 6_789) % P,
    )


def hashed_poisson(ids: Any, replicate: int, seed: int) -> np.ndarray:
    """Poisson(1) weights of integer ``ids`` in one replicate (numpy; equal to the engine's).

    Parameters
    ----------
    ids : array of int
        Item (or cluster, or task) ids; equal ids get equal weights.
    replicate, seed : int
        The replicate and the bootstrap's seed.

    Returns
    -------
    numpy.ndarray
        int64 weights.

    Examples
    --------
    >>> hashed_poisson([0, 1, 2, 3, 4], replicate=0, seed=1).tolist()
    [1, 2, 0, 0, 2]
    """
    c1, c2 = _constants(int(replicate), int(seed))
    x = np.asarray(ids, dtype=np.int64)
    h = ((x % P) + P) % P
    h = (h * _M[0] % P + c1) % P
    h = (h * h % P + _M[1]) % P
    h = (h * _M[2] % P + c2) % P
    h = (h * h % P + h) % P
    h = (h * _M[3] % P + c1) % P
    h = (h * h % P + _M[4]) % P
    return (h[..., None] >= poisson_thresholds()).sum(axis=-1).astype(np.int64)


def _weight_lookup() -> tuple[np.ndarray, np.ndarray]:
    """Per bucket of hashes ``[b 2^_SHIFT, (b + 1) 2^_SHIFT)``: the weight of its hashes and
    whether a threshold falls inside it (those few buckets are resolved one by one)."""
    thresholds = poisson_thresholds()
    low = np.arange((P >> _SHIFT) + 1, dtype=np.int64) << _SHIFT
    high = low + (1 << _SHIFT) - 1
    weight = np.searchsorted(thresholds, low, side="right")
    split = np.searchsorted(thresholds, high, side="right") != weight
    return weight, split


class _Hasher:
    """The buffers of one thread of :func:`hashed_poisson_matrix`."""

    def __init__(self, rows: int, cols: int) -> None:
        self.h = np.empty((rows, cols), dtype=np.int64)
        self.tmp = np.empty_like(self.h)
        self.index = np.empty_like(self.h)
        self.thresholds = poisson_thresholds()
        self.lookup, self.split = _weight_lookup()

    def _fold(self, h: np.ndarray, tmp: np.ndarray) -> None:
        """``h`` (below 2^63) to a congruent value below ``2^32 + 1``."""
        np.bitwise_and(h, P, out=tmp)
        np.right_shift(h, 31, out=h)
        h += tmp

    def _canonical(self, h: np.ndarray, tmp: np.ndarray) -> None:
        """``h`` (below ``2 P``) to ``h mod P``."""
        h -= P
        np.right_shift(h, 63, out=tmp)  # -1 where h went negative
        tmp &= P
        h += tmp

    def run(self, start: np.ndarray, c1: np.ndarray, c2: np.ndarray, out: np.ndarray) -> None:
        """Weights of units with first rounds ``start`` (``n``) in replicates with constants
        ``c1``, ``c2`` (``R``) into ``out`` (``n x R``)."""
        n = len(start)
        rows = self.h.shape[0]
        weight = self.lookup.astype(out.dtype)
        for s in range(0, n, rows):
            e = min(n, s + rows)
            h, tmp, index = self.h[: e - s], self.tmp[: e - s], self.index[: e - s]
            np.add(start[s:e, None], c1[None, :], out=h)  # first round: below 2P
            self._canonical(h, tmp)
            # the bounds after each fold keep the next product below 2^63 (the multipliers
            # of rounds 3 and 5 are below 2^25 and 2^17); the last round is reduced fully
            np.multiply(h, h, out=h)
            h += _M[1]
            self._fold(h, tmp)
            h *= _M[2]
            h += c2
            self._fold(h, tmp)
            np.multiply(h, h, out=tmp)
            h += tmp
            self._fold(h, tmp)
            h *= _M[3]
            h += c1
            self._fold(h, tmp)
            np.multiply(h, h, out=h)
            h += _M[4]
            self._fold(h, tmp)
            self._fold(h, tmp)
            self._canonical(h, tmp)
            np.right_shift(h, _SHIFT, out=index)
            block = out[s:e]
            np.take(weight, index, out=block, mode="clip")
            odd = np.take(self.split, index)
            if odd.any():
                where = np.nonzero(odd)
                block[where] = np.searchsorted(self.thresholds, h[where], side="right")


def hashed_poisson_matrix(
    ids: Any, replicates: Any, seed: int, dtype: Any = np.float64, workers: int = 1
) -> np.ndarray:
    """:func:`hashed_poisson` of every id in every replicate: an ``n x R`` matrix.

    Parameters
    ----------
    ids : array of int
        ``n`` ids.
    replicates : sequence of int
        ``R`` replicates.
    seed : int
        The bootstrap's seed.
    dtype : numpy dtype, default float64
        Of the matrix (the weights are small integers: exact in any float type).
    workers : int, default 1
        Threads sharing the rows (numpy releases the interpreter's lock in its loops).

    Returns
    -------
    numpy.ndarray
        ``W[i, r]`` equal to ``hashed_poisson(ids, replicates[r], seed)[i]``.

    Examples
    --------
    >>> hashed_poisson_matrix([0, 1, 2, 3, 4], [0], seed=1, dtype=int).ravel().tolist()
    [1, 2, 0, 0, 2]
    """
    reps = [int(r) for r in replicates]
    x = np.asarray(ids, dtype=np.int64).ravel()
    consts = np.array([_constants(r, int(seed)) for r in reps], dtype=np.int64).reshape(-1, 2)
    out = np.empty((len(x), len(reps)), dtype=dtype)
    if not len(x) or not reps:
        return out
    start = ((x % P) + P) % P * _M[0] % P
    rows = max(1, _BLOCK_VALUES // len(reps))
    c1, c2 = consts[:, 0].copy(), consts[:, 1].copy()
    parts = np.array_split(np.arange(len(x)), max(1, min(int(workers), len(x) // rows)))
    if len(parts) == 1:
        _Hasher(rows, len(reps)).run(start, c1, c2, out)
        return out

    def one(part: np.ndarray) -> None:
        lo, hi = int(part[0]), int(part[-1]) + 1
        _Hasher(rows, len(reps)).run(start[lo:hi], c1, c2, out[lo:hi])

    with ThreadPoolExecutor(max_workers=len(parts)) as pool:
        list(pool.map(one, parts))
    return out

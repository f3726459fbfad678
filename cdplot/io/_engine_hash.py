"""Hashed Poisson(1) weights: a function of (id, replicate, seed), the same in every engine.

The hash is integer arithmetic modulo the prime ``P = 2^31 - 1`` (every product below
``2^62``, so no engine overflows or wraps); the weight is the inverse Poisson(1) CDF of the
hash, by integer comparison with the thresholds ``ceil(F(k) P)``. :func:`hashed_poisson` is
the reference, written as plainly as the engines' expressions; :func:`hashed_poisson_matrix`
gives the same integers for many ids and replicates at once, reducing modulo ``P`` by folding
the high bits onto the low ones (``2^31 = 1 mod P``) instead of dividing, and reading the
weight from a table of the last value's top bits, on blocks that stay in the processor's
cache.
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
#: hash values per block of :func:`hashed_poisson_matrix` (four 8-byte buffers of it fit a
#: typical 2 MiB cache)
_BLOCK_VALUES = 1 << 16
#: the lookup of the weight by the hash's top bits: ``h >> _SHIFT``
_SHIFT = 20
#: the blocked hash's last value is below ``2^_TOP`` (congruent to the hash modulo P)
_TOP = 33


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
    """Per bucket of values ``[b 2^_SHIFT, (b + 1) 2^_SHIFT)`` below ``2^_TOP``: the weight
    of the hashes they are congruent to (modulo P), and whether that differs within the
    bucket (a threshold or a multiple of P inside it: those few are resolved one by one)."""
    thresholds = poisson_thresholds()
    low = np.arange(1 << (_TOP - _SHIFT), dtype=np.int64) << _SHIFT
    high = low + (1 << _SHIFT) - 1
    weight = np.searchsorted(thresholds, low % P, side="right")
    split = (np.searchsorted(thresholds, high % P, side="right") != weight) | (
        low // P != high // P
    )
    return weight, split


class _Hasher:
    """The buffers of one thread of :func:`hashed_poisson_matrix`.

    The rounds run on unsigned 64-bit integers kept congruent to the plain hash's values but
    not reduced below P: after a product each value is folded once (``(h & P) + (h >> 31)``,
    as ``2^31 = 1 mod P``), which keeps every next product below ``2^64`` (the multipliers of
    rounds 3 and 5 are below ``2^25`` and ``2^17``); the last value, below ``2^_TOP``, is
    mapped to its weight by a lookup of its top bits that knows the thresholds modulo P."""

    def __init__(self, rows: int, cols: int) -> None:
        self.h = np.empty((rows, cols), dtype=np.uint64)
        self.tmp = np.empty_like(self.h)
        self.index = np.empty_like(self.h)
        self.thresholds = poisson_thresholds().astype(np.uint64)
        self.lookup, self.split = _weight_lookup()

    def _fold(self, h: np.ndarray, tmp: np.ndarray) -> None:
        np.bitwise_and(h, np.uint64(P), out=tmp)
        np.right_shift(h, np.uint64(31), out=h)
        h += tmp

    def run(self, start: np.ndarray, c1: np.ndarray, c2: np.ndarray, out: np.ndarray) -> None:
        """Weights of units with first rounds ``start`` (``n``, below P) in replicates with
        constants ``c1``, ``c2`` (``R``, below P) into ``out`` (``n x R``)."""
        n = len(start)
        rows = self.h.shape[0]
        weight = self.lookup.astype(out.dtype)
        m1, m2, m3, m4 = (np.uint64(v) for v in _M[1:])
        for s in range(0, n, rows):
            e = min(n, s + rows)
            h, tmp, index = self.h[: e - s], self.tmp[: e - s], self.index[: e - s]
            np.add(start[s:e, None], c1[None, :], out=h)  # below 2P: its square below 2^64
            np.multiply(h, h, out=h)
            h += m1
            self._fold(h, tmp)
            h *= m2
            h += c2
            self._fold(h, tmp)
            np.multiply(h, h, out=tmp)
            h += tmp
            self._fold(h, tmp)
            h *= m3
            h += c1
            self._fold(h, tmp)
            np.multiply(h, h, out=h)
            h += m4
            self._fold(h, tmp)
            np.right_shift(h, np.uint64(_SHIFT), out=index)
            block = out[s:e]
            np.take(weight, index, out=block, mode="clip")
            odd = np.take(self.split, index)
            if odd.any():
                where = np.nonzero(odd)
                block[where] = np.searchsorted(self.thresholds, h[where] % np.uint64(P), "right")


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
    start = (((x % P) + P) % P * _M[0] % P).astype(np.uint64)
    rows = max(1, _BLOCK_VALUES // len(reps))
    c1, c2 = consts[:, 0].astype(np.uint64), consts[:, 1].astype(np.uint64)
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

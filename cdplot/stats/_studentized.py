"""The studentized range of k standard normals with infinite degrees of freedom.

This is the reference distribution of the Nemenyi test (Demšar 2006). It is computed here
with numpy, vectorised over many ranges at once, so that the Nemenyi test neither pays for
importing ``scipy.stats`` nor loops over pairs. The normal distribution function comes from
the standard library's ``math.erfc`` for up to :data:`LIBM_MAX_K` variables (a few hundred
thousand evaluations at most: cheaper than importing ``scipy.special``, which a small
command-line run would otherwise pay for) and from ``scipy.special.ndtr`` beyond. The choice
depends on k alone, so a range always gets the same bits for a given k.
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np

from ._special import special

__all__ = ["range_ppf", "range_sf"]

#: Gauss-Legendre nodes per unit-width panel of the quadrature.
_NODES_PER_PANEL = 24
#: The integrand is negligible beyond this many units from its bulk (exp(-HALF_WIDTH^2)).
_HALF_WIDTH = 11.0
_SQRT_2PI = np.sqrt(2.0 * np.pi)
#: Ranges at least this large have a tail probability that underflows to 0.
_ZERO_BEYOND = 80.0
#: (range x quadrature node) cells evaluated at once, bounding memory.
_CHUNK_CELLS = 1 << 20
#: Up to this k the normal distribution function is the standard library's (see above).
LIBM_MAX_K = 24

_erfc: np.ufunc = np.frompyfunc(math.erfc, 1, 1)
_SQRT_HALF = math.sqrt(0.5)


def _libm_ndtr(x: np.ndarray) -> np.ndarray:
    """Phi(x) = erfc(-x / sqrt 2) / 2 with ``math.erfc`` (as cephes' ndtr, accurate in
    both tails)."""
    return 0.5 * _erfc(-x * _SQRT_HALF).astype(float)


def _libm_log_ndtr(x: np.ndarray) -> np.ndarray:
    """log Phi(x): the log of Phi below 0, log1p of the upper tail above (no cancellation).

    Used on the quadrature grid only (x >= -11, where Phi(x) > 1e-28 is a normal number)."""
    upper = 0.5 * _erfc(np.abs(x) * _SQRT_HALF).astype(float)
    out = np.log1p(-upper)
    below = x < 0
    out[below] = np.log(upper[below])
    return out


def _normal(n: int) -> tuple:
    """(ndtr, log_ndtr) for the range of ``n + 1`` variables."""
    if n + 1 <= LIBM_MAX_K:
        return _libm_ndtr, _libm_log_ndtr
    return special.ndtr, special.log_ndtr


@lru_cache(maxsize=1)
def _unit_rule() -> tuple[np.ndarray, np.ndarray]:
    x, w = np.polynomial.legendre.leggauss(_NODES_PER_PANEL)
    return (x + 1.0) / 2.0, w / 2.0


def _grid(lo: float, hi: float) -> tuple[np.ndarray, np.ndarray]:
    x, w = _unit_rule()
    starts = np.arange(np.floor(lo), np.ceil(hi))
    z = (starts[:, None] + x[None, :]).ravel()
    weights = np.tile(w, starts.size)
    return z, weights


def range_sf(q: np.ndarray | float, k: int) -> np.ndarray:
    """``P(W >= q)`` for the range W of k independent standard normal variables.

    Parameters
    ----------
    q : array_like
        Non-negative ranges.
    k : int
        Number of normal variables (k >= 2).

    Returns
    -------
    numpy.ndarray
        Upper-tail probabilities, as ``scipy.stats.studentized_range.sf(q, k, np.inf)``.

    Notes
    -----
    ``P(W >= q) = k * integral phi(z) [Phi(z)^(k-1) - (Phi(z) - Phi(z - q))^(k-1)] dz``,
    with the bracket written as ``-a^n expm1(n log1p(-b / a))`` (``a = Phi(z)``,
    ``b = Phi(z - q)``, ``n = k - 1``) so that small tail probabilities keep their
    relative precision. The integral is taken by composite Gauss-Legendre quadrature
    over unit panels covering the integrand's bulk (around 0 and around ``q / 2``).
    """
    q = np.atleast_1d(np.asarray(q, dtype=float))
    out = np.ones_like(q)
    n = k - 1
    positive = q > 0
    if not positive.any():
        return out
    # beyond this the tail is below k^2 Phi(-q / sqrt 2) < 1e-600: exactly 0 in float64
    huge = q >= _ZERO_BEYOND
    out[huge] = 0.0
    positive &= ~huge
    qs = q[positive]
    if qs.size == 0:
        return out
    result = np.empty_like(qs)
    # the grid depends on q alone (on ceil(q / 2)), and each row is summed by itself,
    # so a range gets the same bits whatever else is computed with it
    reach = np.ceil(qs / 2.0)
    for top in np.unique(reach):
        rows = np.flatnonzero(reach == top)
        z, w = _grid(-_HALF_WIDTH, max(_HALF_WIDTH, top + _HALF_WIDTH))
        step = max(1, _CHUNK_CELLS // z.size)
        for start in range(0, rows.size, step):
            idx = rows[start : start + step]
            result[idx] = _sf_rows(qs[idx], n, z, w)
    out[positive] = np.clip(k * result, 0.0, 1.0)
    return out


def _sf_rows(qs: np.ndarray, n: int, z: np.ndarray, w: np.ndarray) -> np.ndarray:
    """``P(W >= q) / k`` for positive ranges ``qs`` on the quadrature grid ``(z, w)``."""
    phi_w = np.exp(-0.5 * z * z) / _SQRT_2PI * w
    ndtr, log_ndtr = _normal(n)
    a = ndtr(z)
    log_a = log_ndtr(z)
    b = ndtr(z[None, :] - qs[:, None])
    with np.errstate(divide="ignore", invalid="ignore", under="ignore"):
        ratio = np.where(a > 0, b / a, 1.0)
        bracket = -np.exp(n * log_a)[None, :] * np.expm1(n * np.log1p(-np.minimum(ratio, 1.0)))
    bracket = np.where(np.isfinite(bracket), bracket, 0.0)
    return np.sum(bracket * phi_w[None, :], axis=1)


def range_ppf(p: float, k: int) -> float:
    """The range q with ``P(W >= q) = p`` (the ``1 - p`` quantile), by bisection.

    As ``scipy.stats.studentized_range.ppf(1 - p, k, np.inf)``.
    """
    if not 0.0 < p < 1.0:
        raise ValueError(f"p must be in (0, 1), got {p!r}")
    lo, hi = 0.0, 1.0
    while range_sf(hi, k)[0] > p:
        lo, hi = hi, 2.0 * hi
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if mid in (lo, hi):
            break
        if range_sf(mid, k)[0] > p:
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)

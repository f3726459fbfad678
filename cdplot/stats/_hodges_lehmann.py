"""The Hodges-Lehmann estimate of paired differences with the interval of R's ``wilcox.test``.

R's ``wilcox.test(a, b, paired=TRUE, conf.int=TRUE)`` (R 4.2) has two constructions, and this
module reproduces both, step for step:

* **exact** (fewer than 50 non-zero differences, no tied ``|d|``, no zero ``d``): the Walsh
  averages ``(d_i + d_j) / 2, i <= j``, sorted; the estimate is their median and the interval
  ``[w_(q), w_(M - q + 1)]`` with ``q = qsignrank(alpha / 2, n)`` (at least 1) and
  ``M = n (n + 1) / 2``;
* **normal approximation** otherwise: the interval ends are the roots in ``d`` of
  ``z(d) = +-z_(alpha/2)``, ``z(d)`` the continuity-corrected, tie-corrected signed-rank
  statistic of ``d_i - d`` (zeros dropped); the roots are found by Brent's method with R's
  ``uniroot`` tolerance ``1e-4``. When ``z(min d)`` or ``z(max d)`` does not reach the
  quantile, R doubles ``alpha`` until it does (a wider-than-asked ``alpha``, i.e. a narrower
  interval, with R's warning "requested conf.level not achievable"). The estimate is the root
  of the statistic *without* continuity correction.

Zero differences are dropped first in both branches (R's rule).

``z`` is a step function, so where Brent's iterations stop depends on every bit of the
numbers they start from: a normal quantile one unit in the last place away from R's moves an
end of the interval by up to ``tol = 1e-4`` (1e-7 to 1e-4 on two-decimal scores spread
over a unit). The quantiles are therefore R's own: :func:`qnorm` is Wichura's AS 241, the
algorithm of R's ``qnorm`` (R's coefficients and order of operations), not scipy's
``ndtri``; the statistic, the ranks and the root search repeat R's operations in R's order.
On the reference cases (``tests/reference/effect_sizes_r.csv``, R 4.2.2) every estimate and
end equals R's to the last bit. The arithmetic is IEEE double throughout; a platform whose
``log`` differs from the C library R was built with could differ in the last bit of a
quantile, and then (rarely) by up to ``1e-4`` in an end, as two R builds would.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from ._pairwise import signed_rank_cdf

__all__ = ["hodges_lehmann", "qnorm"]

#: R's ``wilcox.test`` uses the exact branch below this many non-zero differences
EXACT_BELOW = 50
#: ``uniroot``'s ``tol`` in R's ``wilcox.test`` (its ``tol.root``)
TOL_ROOT = 1e-4
#: R's ``uniroot`` iteration limit
MAX_ITER = 1000
DBL_EPSILON = float(np.finfo(float).eps)


def hodges_lehmann(d: np.ndarray, confidence: float) -> tuple[float, float, float, str]:
    """``(estimate, low, high, branch)`` for paired differences ``d`` (two-sided).

    ``branch`` is ``"exact"`` or ``"normal"``; NaNs for fewer than one non-zero difference.
    """
    d = np.asarray(d, dtype=float)
    zeros = bool((d == 0).any())
    d = d[d != 0]
    n = d.size
    if n == 0:
        return float("nan"), float("nan"), float("nan"), "normal"
    ties = np.unique(np.abs(d)).size != n
    if n < EXACT_BELOW and not ties and not zeros:
        return (*_exact(d, 1.0 - confidence), "exact")
    return (*_normal(d, 1.0 - confidence), "normal")


# Wichura (1988), Algorithm AS 241 (PPND16), as R's qnorm evaluates it: the rational
# functions' coefficients, highest power first, numerator then denominator
_CENTRAL = (
    (2509.0809287301226727, 33430.575583588128105, 67265.770927008700853,
     45921.953931549871457, 13731.693765509461125, 1971.5909503065514427,
     133.14166789178437745, 3.387132872796366608),
    (5226.495278852545925, 28729.085735721942674, 39307.89580009271061,
     21213.794301586595867, 5394.1960214247511077, 687.1870074920579083,
     42.313330701600911252, 1.0),
)  # fmt: skip
_INTERMEDIATE = (
    (7.7454501427834140764e-4, 0.0227238449892691845833, 0.24178072517745061177,
     1.27045825245236838258, 3.64784832476320460504, 5.7694972214606914055,
     4.6303378461565452959, 1.42343711074968357734),
    (1.05075007164441684324e-9, 5.475938084995344946e-4, 0.0151986665636164571966,
     0.14810397642748007459, 0.68976733498510000455, 1.6763848301838038494,
     2.05319162663775882187, 1.0),
)  # fmt: skip
_TAIL = (
    (2.01033439929228813265e-7, 2.71155556874348757815e-5, 0.0012426609473880784386,
     0.026532189526576123093, 0.29656057182850489123, 1.7848265399172913358,
     5.4637849111641143699, 6.6579046435011037772),
    (2.04426310338993978564e-15, 1.4215117583164458887e-7, 1.8463183175100546818e-5,
     7.868691311456132591e-4, 0.0148753612908506148525, 0.13692988092273580531,
     0.59983220655588793769, 1.0),
)  # fmt: skip


def _horner(coefficients: tuple[float, ...], r: float) -> float:
    """``((c0 r + c1) r + c2) r + ...``: the nesting (and rounding) of R's ``qnorm``."""
    value = coefficients[0]
    for c in coefficients[1:]:
        value = value * r + c
    return value


def qnorm(p: float, lower_tail: bool = True) -> float:
    """R's ``qnorm(p, lower.tail = lower_tail)``, to the last bit (Wichura's AS 241).

    scipy's ``ndtri`` is as accurate but rounds differently: at ``p = 0.025`` the two
    differ by one unit in the last place, and the Hodges-Lehmann root search (a step
    function) can then stop elsewhere. Upper-tail probabilities are turned into lower ones
    as R does (``0.5 - p + 0.5``), so ``qnorm(p, False)`` is not always ``-qnorm(p)``.

    >>> qnorm(0.975), qnorm(0.025, lower_tail=False)  # scipy: 1.959963984540054 for both
    (1.9599639845400536, 1.9599639845400538)
    """
    p = float(p)
    if math.isnan(p) or not 0.0 <= p <= 1.0:
        return math.nan
    if p in (0.0, 1.0):
        return -math.inf if (p == 0.0) == lower_tail else math.inf
    lower = p if lower_tail else 0.5 - p + 0.5
    q = lower - 0.5
    if abs(q) <= 0.425:
        r = 0.180625 - q * q
        return q * _horner(_CENTRAL[0], r) / _horner(_CENTRAL[1], r)
    tail = lower if q < 0 else (0.5 - p + 0.5 if lower_tail else p)  # min(p, 1 - p)
    r = math.sqrt(-math.log(tail))
    num, den = _INTERMEDIATE if r <= 5.0 else _TAIL
    r -= 1.6 if r <= 5.0 else 5.0
    value = _horner(num, r) / _horner(den, r)
    return -value if q < 0 else value


def _exact(d: np.ndarray, alpha: float) -> tuple[float, float, float]:
    n = d.size
    i, j = np.triu_indices(n)
    walsh = np.sort(d[i] + d[j]) / 2.0
    q = max(_qsignrank(alpha / 2.0, n), 1)
    m = n * (n + 1) // 2
    return float(np.median(walsh)), float(walsh[q - 1]), float(walsh[m - q])


def _qsignrank(p: float, n: int) -> int:
    """R's ``qsignrank(p, n)`` for ``p <= 0.5``: least ``q`` with ``P(V <= q) >= p``."""
    cdf = signed_rank_cdf(np.arange(n * (n + 1) // 2 + 1), n)
    return int(np.argmax(cdf >= p - 10 * DBL_EPSILON))


def _signed_rank_z(d: np.ndarray, shift: float, correct: bool) -> float:
    """R's ``W(d)`` of ``wilcox.test``: the standardised signed-rank sum of ``d - shift``."""
    from scipy.stats import rankdata

    x = d - shift
    x = x[x != 0]
    n = float(x.size)
    ranks = rankdata(np.abs(x))
    z = ranks[x > 0].sum() - n * (n + 1) / 4
    _, counts = np.unique(ranks, return_counts=True)
    counts = counts.astype(float)
    sigma = np.sqrt(n * (n + 1) * (2 * n + 1) / 24 - (counts**3 - counts).sum() / 48)
    correction = np.sign(z) * 0.5 if correct else 0.0
    with np.errstate(divide="ignore", invalid="ignore"):
        return float((z - correction) / sigma)


def _normal(d: np.ndarray, alpha: float) -> tuple[float, float, float]:
    lo, hi = float(d.min()), float(d.max())
    z_lo, z_hi = _signed_rank_z(d, lo, True), _signed_rank_z(d, hi, True)
    if not (np.isfinite(z_lo) and np.isfinite(z_hi)):
        return (lo + hi) / 2, float("nan"), float("nan")
    while z_lo - qnorm(alpha / 2, False) < 0 or z_hi - qnorm(alpha / 2) > 0:
        alpha *= 2  # R: "requested conf.level not achievable"
    if alpha < 1:
        low = _root(d, True, lo, hi, z_lo, z_hi, qnorm(alpha / 2, False))
        high = _root(d, True, lo, hi, z_lo, z_hi, qnorm(alpha / 2))
    else:
        low = high = float(np.median(d))
    z0_lo, z0_hi = _signed_rank_z(d, lo, False), _signed_rank_z(d, hi, False)
    estimate = _root(d, False, lo, hi, z0_lo, z0_hi, 0.0)
    return estimate, low, high


def _root(
    d: np.ndarray, correct: bool, lo: float, hi: float, z_lo: float, z_hi: float, target: float
) -> float:
    """R's ``uniroot(W(.) - target, c(lo, hi), tol = 1e-4)$root``."""
    return brent_root(
        lambda s: _signed_rank_z(d, s, correct) - target,
        lo,
        hi,
        z_lo - target,
        z_hi - target,
        TOL_ROOT,
    )


def brent_root(
    f: Callable[[float], float], a: float, b: float, fa: float, fb: float, tol: float
) -> float:
    """A root of ``f`` in ``[a, b]`` by Brent's (1973) method, as R's ``uniroot`` runs it.

    Brent's algorithm (bisection, secant and inverse quadratic interpolation), with the
    stopping rule ``|c - b| / 2 <= 2 eps |b| + tol / 2`` and R's ``maxiter = 1000``.
    """
    if fa == 0.0:
        return a
    if fb == 0.0:
        return b
    c, fc = a, fa
    for _ in range(MAX_ITER + 1):
        previous = b - a
        if abs(fc) < abs(fb):
            a, b, c = b, c, b
            fa, fb, fc = fb, fc, fb
        tol_act = 2 * DBL_EPSILON * abs(b) + tol / 2
        step = (c - b) / 2
        if abs(step) <= tol_act or fb == 0.0:
            return b
        if abs(previous) >= tol_act and abs(fa) > abs(fb):
            step = _interpolation_step(a, b, c, fa, fb, fc, step, previous, tol_act)
        if abs(step) < tol_act:
            step = tol_act if step > 0 else -tol_act
        a, fa = b, fb
        b += step
        fb = f(b)
        if (fb > 0 and fc > 0) or (fb < 0 and fc < 0):
            c, fc = a, fa
    return b


def _interpolation_step(
    a: float,
    b: float,
    c: float,
    fa: float,
    fb: float,
    fc: float,
    bisect: float,
    previous: float,
    tol_act: float,
) -> float:
    """Secant (two points) or inverse quadratic step, if it stays inside; else bisection."""
    cb = c - b
    if a == c:
        t1 = fb / fa
        p = cb * t1
        q = 1.0 - t1
    else:
        q = fa / fc
        t1 = fb / fc
        t2 = fb / fa
        p = t2 * (cb * q * (q - t1) - (b - a) * (t1 - 1.0))
        q = (q - 1.0) * (t1 - 1.0) * (t2 - 1.0)
    if p > 0:
        q = -q
    else:
        p = -p
    if p < (0.75 * cb * q - abs(tol_act * q) / 2) and p < abs(previous * q / 2):
        return p / q
    return bisect

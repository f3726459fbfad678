"""Upper tails of the chi-square and F distributions with integer degrees of freedom.

The omnibus p-values printed by the summary (Friedman's chi-square, the Iman-Davenport F)
need only these two tails, at integer degrees of freedom. ``scipy.special`` costs more
to import than a whole small comparison, so they are computed here with the standard
library alone:

* chi-square, ``df = 2m`` even: ``Q = exp(-y) sum_{j<m} y^j / j!`` with ``y = x / 2`` (a
  Poisson distribution function); ``df = 2m + 1`` odd:
  ``Q = erfc(sqrt(y)) + exp(-y) sum_{j<m} y^(j + 1/2) / Gamma(j + 3/2)``
  (Abramowitz & Stegun 26.4.4 and 26.4.5). Every term is positive, so the relative error
  stays near the rounding of ``exp`` even for the smallest p-values.
* F: ``Q = I_x(a, b)`` with ``x = d2 / (d2 + d1 F)``, ``a = d2 / 2``, ``b = d1 / 2``
  (A&S 26.6.2). For even d1 the finite sum ``x^a sum_{j < b} (a)_j / j! (1 - x)^j``
  (A&S 26.6.4), every term positive; otherwise the continued fraction of the regularised
  incomplete beta function (DLMF 8.17.22) below the mean of Beta(a, b), and
  ``1 - I_{1-x}(b, a)`` above it, where Q is not small. ``1 / B(a, b)`` is a finite
  product times ``Gamma(a + 1/2) / Gamma(a)`` (``math.gamma`` or, for large a, its
  asymptotic series), so no difference of large log-gammas costs digits.

Measured against mpmath (40 digits) in ``tests/test_tails.py``, p from 1 down to 1e-300:
chi-square within ``4 eps max(1, x)`` relative (the rounding of ``exp(-x/2)``); F within
3e-14 for even d1, and for odd d1 within 2e-14 up to d2 = 100, growing to 5e-12 at
d2 = 100,000 (the continued fraction loses about sqrt(d1 + d2) ulps near the centre of the
distribution; ``scipy.stats.f.sf`` is off by 2.4e-12 on the same grid).
"""

from __future__ import annotations

import math

__all__ = ["chi2_sf", "f_sf"]

#: log(2^600): the series rescale their partial sums by this factor to avoid overflow
_LOG_SCALE = 600.0 * math.log(2.0)
_SCALE = 2.0**600
_LN2 = math.log(2.0)
#: above this many degrees of freedom (halved) on both sides, 1 / B(a, b) from log-gammas
_MAX_STEPS = 20_000.0


def _check_df(*dfs: float) -> tuple[int, ...]:
    out = []
    for df in dfs:
        if not (df >= 1 and float(df).is_integer()):
            raise ValueError(f"degrees of freedom must be positive integers, got {df!r}")
        out.append(int(df))
    return tuple(out)


def _edge(x: float) -> float:
    """An upper tail at x outside (0, inf): NaN for NaN, 1 at or below 0, 0 at infinity."""
    if math.isnan(x):
        return math.nan
    return 1.0 if x <= 0.0 else 0.0


def chi2_sf(df: float, x: float) -> float:
    """``P(X >= x)`` for X chi-square with an integer number ``df`` of degrees of freedom.

    Equals ``scipy.stats.chi2.sf(x, df)`` and R's ``pchisq(x, df, lower.tail = FALSE)``
    to about 1e-14 relative. NaN for NaN ``x``; 1 for ``x <= 0``.

    Examples
    --------
    >>> round(chi2_sf(2, 2.0), 12)  # exp(-1)
    0.367879441171
    """
    (n,) = _check_df(df)
    if not 0.0 < x < math.inf:
        return _edge(x)
    y = 0.5 * x
    m, odd = divmod(n, 2)
    if odd:
        head = math.erfc(math.sqrt(y))
        term, start = math.sqrt(y) / math.gamma(1.5), 1.5  # y^(1/2) / Gamma(3/2)
    else:
        head = 0.0
        term, start = 1.0, 1.0  # y^0 / 0!
    # sum_{j < m} term_j, term_{j+1} = term_j * y / (start + j), rescaled against overflow
    total, shift = 0.0, 0.0
    for j in range(m):
        total += term
        term *= y / (start + j)
        if term > _SCALE:
            term /= _SCALE
            total /= _SCALE
            shift += _LOG_SCALE
    if total == 0.0:
        return head
    if shift or y > 700.0:  # exp(-y) alone would underflow
        return head + math.exp(shift - y + math.log(total))
    return head + math.exp(-y) * total


def _gamma_ratio_half(a: float) -> float:
    """``Gamma(a + 1/2) / Gamma(a)`` for a > 0."""
    if a < 160.0:
        return math.gamma(a + 0.5) / math.gamma(a)
    # asymptotic series in 1/a (the ratio of gamma functions, DLMF 5.11.13); terms past
    # a^-6 are below 1e-17 relative for a >= 160
    z = 1.0 / a
    series = 1.0 + z * (
        -1.0 / 8
        + z
        * (
            1.0 / 128
            + z * (5.0 / 1024 + z * (-21.0 / 32768 + z * (-399.0 / 262144 + z * 869.0 / 4194304)))
        )
    )
    return math.sqrt(a) * series


def _inv_gamma(a: float) -> tuple[float, int]:
    """``1 / Gamma(a)`` as ``(mantissa, exponent)``, a > 0 a half-integer."""
    if a < 170.0:
        return 1.0 / math.gamma(a), 0
    base = a - int(a - 100.0)  # in [100, 101): Gamma(a) = Gamma(base) prod (base + i)
    mantissa, exponent = math.frexp(1.0 / math.gamma(base))
    for i in range(int(a - base)):
        mantissa, e = math.frexp(mantissa / (base + i))
        exponent += e
    return mantissa, exponent


def _inv_beta(a: float, b: float) -> tuple[float, int]:
    """``1 / B(a, b) = Gamma(a + b) / (Gamma(a) Gamma(b))`` for half-integers a, b > 0, as
    ``(mantissa, exponent)`` with value ``mantissa * 2**exponent`` (it can overflow)."""
    small, large = (a, b) if a <= b else (b, a)
    if small + large < 170.0:
        return math.gamma(small + large) / (math.gamma(small) * math.gamma(large)), 0
    if small > _MAX_STEPS:  # both huge degrees of freedom: log-gammas (about 1e-11)
        log_value = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
        exponent = int(log_value / _LN2)
        return math.exp(log_value - exponent * _LN2), exponent
    mantissa, exponent = _inv_gamma(small)
    # Gamma(large + small) / Gamma(large) as a product of small steps
    step, rest = large, small
    if (2.0 * small) % 2.0 == 1.0:  # small is a half-integer: one half step first
        mantissa *= _gamma_ratio_half(large)
        step, rest = large + 0.5, small - 0.5
    for i in range(int(rest)):
        mantissa, e = math.frexp(mantissa * (step + i))
        exponent += e
    return mantissa, exponent


def _even_d1(a: float, b: int, y: float, log_x: float) -> float:
    """``I_x(a, b)`` for an integer b: ``x^a sum_{j < b} (a)_j / j! y^j`` (A&S 26.6.4),
    every term positive; ``y = 1 - x``, ``log_x = log x``."""
    total, term, shift = 0.0, 1.0, 0.0
    for j in range(b):
        total += term
        term *= (a + j) / (j + 1) * y
        if term > _SCALE:
            term /= _SCALE
            total /= _SCALE
            shift += _LOG_SCALE
    log_scale = a * log_x + shift
    if -700.0 < log_scale < 700.0:
        return math.exp(log_scale) * total
    return math.exp(log_scale + math.log(total))


def _beta_fraction(x: float, a: float, b: float, log_front: float) -> float:
    """``I_x(a, b)`` for ``x < (a + 1) / (a + b + 2)`` by its continued fraction (DLMF
    8.17.22), ``log_front`` being ``a log x + b log(1 - x)``.

    ``I_x(a, b) = x^a (1 - x)^b / (a B(a, b)) / (1 + d_1 / (1 + d_2 / (1 + ...)))`` with
    ``d_{2m+1} = -(a + m)(a + b + m) x / ((a + 2m)(a + 2m + 1))`` and
    ``d_{2m} = m (b - m) x / ((a + 2m - 1)(a + 2m))``, evaluated forwards by the modified
    Lentz method; below the mean of Beta(a, b) it converges in O(sqrt(a + b)) terms.
    """
    tiny = 1e-300
    value, c, d = 1.0, 1.0, 0.0
    m = 0
    while True:
        for step in (0, 1):
            if step == 0:  # d_{2m+1}
                coef = -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))
            else:  # d_{2m+2}
                m += 1
                coef = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m))
            d = 1.0 + coef * d
            d = 1.0 / (d if d != 0.0 else tiny)
            c = 1.0 + coef / c
            if c == 0.0:
                c = tiny
            value *= c * d
        if abs(c * d - 1.0) < 1e-16 or m > 100_000:
            break
    mantissa, exponent = _inv_beta(a, b)
    log_scale = log_front + exponent * _LN2
    rest = mantissa / (a * value)
    if -700.0 < log_scale < 700.0:
        return math.exp(log_scale) * rest
    return math.exp(log_scale + math.log(rest))


def f_sf(df1: float, df2: float, x: float) -> float:
    """``P(F >= x)`` for F with integer degrees of freedom ``(df1, df2)``.

    Equals ``scipy.stats.f.sf(x, df1, df2)`` and R's ``pf(x, df1, df2, lower.tail =
    FALSE)`` to about 1e-14 relative. NaN for NaN ``x``; 1 for ``x <= 0``.

    Examples
    --------
    >>> round(f_sf(2, 2, 1.0), 12)  # 1 / (1 + x) for (2, 2) degrees of freedom
    0.5
    """
    d1, d2 = _check_df(df1, df2)
    if not 0.0 < x < math.inf:
        return _edge(x)
    a, b = 0.5 * d2, 0.5 * d1
    # x_beta = d2 / (d2 + d1 x), 1 - x_beta = d1 x / (d2 + d1 x), without cancellation
    s = d1 * x
    log_xb = -math.log1p(s / d2)
    log_yb = math.log(s) - math.log(d2 + s) if s < d2 else -math.log1p(d2 / s)
    xb = d2 / (d2 + s)
    yb = s / (d2 + s)
    log_front = a * log_xb + b * log_yb
    if d1 % 2 == 0 and d1 <= _MAX_STEPS:
        return min(1.0, _even_d1(a, d1 // 2, yb, log_xb))
    if xb < (a + 1.0) / (a + b + 2.0):
        return min(1.0, _beta_fraction(xb, a, b, log_front))
    return max(0.0, 1.0 - _beta_fraction(yb, b, a, log_front))

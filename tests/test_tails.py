"""Chi-square and F upper tails with integer degrees of freedom (cdplot/stats/_tails.py),
against scipy (``scipy.stats.chi2.sf``, ``scipy.stats.f.sf``), mpmath's arbitrary-precision
regularised incomplete gamma and beta functions (``mpmath.gammainc``, ``mpmath.betainc``,
40 digits) and closed forms, down to p-values of 1e-300."""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest
from scipy import stats

from cdplot.stats._tails import chi2_sf, f_sf

EPS = np.finfo(float).eps
QS = [0.999, 0.9, 0.5, 0.1, 1e-3, 1e-8, 1e-20, 1e-50, 1e-100, 1e-200, 1e-300]


def _chi2_mp(df: int, x: float):
    with mpmath.workdps(40):
        return mpmath.gammainc(mpmath.mpf(df) / 2, mpmath.mpf(x) / 2, mpmath.inf, regularized=True)


def _f_mp(d1: int, d2: int, x: float):
    with mpmath.workdps(40):
        xb = d2 / (d2 + d1 * mpmath.mpf(x))
        return mpmath.betainc(mpmath.mpf(d2) / 2, mpmath.mpf(d1) / 2, 0, xb, regularized=True)


@pytest.mark.parametrize("df", [*range(1, 41), 99, 100, 199, 200, 399, 400])
def test_chi2_sf_matches_scipy_and_mpmath(df):
    """Relative error within 4 eps max(1, x) (the rounding of exp(-x/2) at large x) of
    scipy.stats.chi2.sf and of mpmath, at x = scipy.stats.chi2.isf(q, df)."""
    for q in QS:
        x = float(stats.chi2.isf(q, df))
        got = chi2_sf(df, x)
        tol = 4 * EPS * max(1.0, x)
        ref = float(stats.chi2.sf(x, df))
        assert abs(got - ref) <= tol * ref, (df, q, got, ref)
        exact = _chi2_mp(df, x)
        assert abs(got / exact - 1) <= tol, (df, q, got, exact)


def _f_tolerance(d1: int, d2: int) -> float:
    """Measured bound of the continued fraction's error (odd d1: about sqrt(d1 + d2) eps);
    even d1 uses a finite sum of positive terms (a few eps)."""
    if d1 % 2 == 0:
        return 3e-14
    return 2e-14 if d2 <= 100 else 1e-13 if d2 <= 1000 else 5e-13 if d2 <= 10_000 else 5e-12


@pytest.mark.parametrize("d1", [1, 2, 3, 4, 5, 9, 10, 19, 49, 99, 100, 199])
def test_f_sf_matches_mpmath(d1):
    """Against mpmath.betainc at x = scipy.stats.f.isf(q, d1, d2), q from 0.999 to 1e-300;
    and against scipy.stats.f.sf for small d2, where scipy is itself accurate."""
    for d2 in [1, 2, 3, 5, 8, 29, 30, 99, 100, 999, 1000, 9999, 99_999, 100_000]:
        for q in QS:
            x = float(stats.f.isf(q, d1, d2))
            if not math.isfinite(x) or x <= 0:
                continue
            exact = _f_mp(d1, d2, x)
            if exact < 1e-300:
                continue
            got = f_sf(d1, d2, x)
            assert abs(got / exact - 1) <= _f_tolerance(d1, d2), (d1, d2, q, got, exact)
            if d2 <= 30:
                ref = float(stats.f.sf(x, d1, d2))
                assert abs(got / ref - 1) <= 1e-13, (d1, d2, q, got, ref)


def test_closed_forms():
    """chi-square with 2 df: exp(-x/2); F(2, 2): 1 / (1 + x); F(1, 1): 1 - (2/pi) atan(sqrt x)
    (A&S 26.6.4 and 26.6.8), including tiny x where scipy.stats.f.sf(x, 1, 1) loses
    digits (0.9999990000084 instead of 0.999999 at x = 2.47e-12)."""
    for x in [1e-300, 1e-12, 0.5, 3.0, 100.0, 1400.0]:
        assert chi2_sf(2, x) == pytest.approx(math.exp(-x / 2), rel=4 * EPS * max(1.0, x))
        assert f_sf(2, 2, x) == pytest.approx(1 / (1 + x), rel=4 * EPS)
        exact = 1 - 2 / math.pi * math.atan(math.sqrt(x))
        assert f_sf(1, 1, x) == pytest.approx(exact, rel=1e-14)
    x = 2.4674011004183018e-12
    assert abs(f_sf(1, 1, x) - 0.999999) <= 2 * EPS
    assert abs(stats.f.sf(x, 1, 1) - 0.999999) > 1e-12  # scipy's rounding, for the record


def test_edges_and_bad_degrees_of_freedom():
    for tail in (lambda x: chi2_sf(3, x), lambda x: f_sf(3, 7, x)):
        assert tail(0.0) == 1.0 and tail(-1.0) == 1.0
        assert tail(math.inf) == 0.0
        assert math.isnan(tail(math.nan))
    assert chi2_sf(4, 1e6) == 0.0 and f_sf(4, 10, 1e300) == 0.0
    for bad in (0, 2.5, -1, math.nan):
        with pytest.raises(ValueError, match="positive integers"):
            chi2_sf(bad, 1.0)
        with pytest.raises(ValueError, match="positive integers"):
            f_sf(3, bad, 1.0)

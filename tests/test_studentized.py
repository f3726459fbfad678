"""The studentized range with infinite df (cdplot.stats._studentized).

Verified against: the closed form for k = 2 (W = sqrt(2)|Z|, so P(W >= q) = 2 Phi(-q/sqrt 2));
``scipy.stats.studentized_range`` (df = inf) in the bulk, where scipy's 1 - cdf is accurate;
its ppf; Demšar (2006) Table 5(a) through the Nemenyi q (tests/test_paper_values.py).
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy import special, stats

from cdplot.stats._studentized import range_ppf, range_sf


def test_k2_closed_form_to_the_last_digits():
    q = np.linspace(0.0, 14.0, 57)
    expected = np.minimum(1.0, 2.0 * special.ndtr(-q / np.sqrt(2.0)))
    np.testing.assert_allclose(range_sf(q, 2), expected, rtol=1e-12, atol=0)


@pytest.mark.parametrize("k", [3, 4, 7, 10, 25, 60, 100, 200])
def test_sf_matches_scipy_in_the_bulk(k):
    q = np.linspace(0.05, 7.0, 40)
    ref = stats.studentized_range.sf(q, k, np.inf)
    got = range_sf(q, k)
    bulk = ref > 1e-6  # scipy computes 1 - cdf: its relative error grows in the far tail
    np.testing.assert_allclose(got[bulk], ref[bulk], rtol=1e-9)
    np.testing.assert_allclose(got, ref, atol=1e-12)


@pytest.mark.parametrize("k", [2, 3, 5, 10, 30, 100])
@pytest.mark.parametrize("alpha", [0.01, 0.05, 0.1, 0.5])
def test_ppf_matches_scipy(k, alpha):
    ref = stats.studentized_range.ppf(1 - alpha, k, np.inf)
    assert range_ppf(alpha, k) == pytest.approx(ref, rel=1e-12)


def test_sf_edges():
    assert range_sf(0.0, 5)[0] == 1.0
    assert range_sf(60.0, 5)[0] == 0.0
    assert np.all(np.diff(range_sf(np.linspace(0, 10, 50), 8)) <= 0)
    with pytest.raises(ValueError, match="p must be in"):
        range_ppf(0.0, 3)


@pytest.mark.parametrize("k", [2, 5, 24])
def test_libm_normal_cdf_equals_scipy_special_in_both_tails(k, monkeypatch):
    """Up to k = 24 the normal distribution function is math.erfc's; the same quadrature with
    scipy.special.ndtr / log_ndtr (the path for larger k) gives the same tail probabilities
    to a few ulps, far into the tail (p down to 1e-40), where scipy.stats is not accurate."""
    import cdplot.stats._studentized as studentized

    q = np.linspace(0.01, 20.0, 300)
    libm = range_sf(q, k)
    monkeypatch.setattr(studentized, "LIBM_MAX_K", 0)
    reference = range_sf(q, k)
    assert reference.min() < 1e-35
    np.testing.assert_allclose(libm, reference, rtol=5e-15, atol=0)

"""Durbin's test and post-hoc test for balanced incomplete block designs.

Reference: ``tests/reference/durbin_r.csv`` from ``make_durbin_r.R`` (base R 4.2.2 with the
PMCMRplus ``durbinTest`` / ``durbinAllPairsTest`` formulas written out; Conover 1999 §5.8),
on the Fano plane (t = b = 7, k = 3), all pairs of 4 and all triples of 5 algorithms.
"""

from __future__ import annotations

import numpy as np
import pytest
from _helpers import r_cases

import cdplot
from cdplot.stats import durbin_posthoc, durbin_test

TABLES, VALUES = r_cases("durbin_r.csv", ("b", "t"))


@pytest.mark.parametrize("case", sorted(TABLES))
def test_durbin_equals_the_formulas_in_r(case):
    y, ref = TABLES[case], VALUES[case]
    chi2, f = durbin_test(y)
    assert chi2.statistic == pytest.approx(ref["T1", -1, -1], rel=1e-12)  # R: T1
    assert chi2.pvalue == pytest.approx(ref["p1", -1, -1], rel=1e-10)  # pchisq(T1, t - 1)
    assert f.statistic == pytest.approx(ref["T2", -1, -1], rel=1e-12)  # R: T2
    assert f.pvalue == pytest.approx(ref["p2", -1, -1], rel=1e-10)  # pf(T2, t - 1, df)
    post = durbin_posthoc(y)
    t = y.shape[1]
    for i in range(t):
        for j in range(i + 1, t):
            assert post.statistic[i, j] == pytest.approx(ref["t", i, j], rel=1e-12)
            assert post.pvalue[i, j] == pytest.approx(ref["p", i, j], rel=1e-10)


def test_orientation_does_not_matter():
    y = TABLES[1]
    assert durbin_test(-y)[0].statistic == pytest.approx(durbin_test(y)[0].statistic)
    np.testing.assert_allclose(durbin_posthoc(-y).pvalue, durbin_posthoc(y).pvalue)


def test_refuses_an_unbalanced_design():
    y = TABLES[1].copy()
    y[0, 0] = np.nan
    with pytest.raises(cdplot.CdplotInputError, match="balanced incomplete block"):
        durbin_test(y)

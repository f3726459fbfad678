"""The Hodges-Lehmann and superiority intervals equal R's to the last bit.

Verified against R 4.2.2 (``tests/reference/effect_sizes_r.csv``, made by
``tests/reference/make_effect_sizes_r.R`` from ``effect_sizes_vectors.csv``): every estimate and
interval end of ``wilcox.test(a, b, paired=TRUE, conf.int=TRUE, conf.level=)`` and of
``prop.test(sum(a > b) + sum(a == b) / 2, length(a), conf.level=)``, compared with ``==``.
The Wilcoxon interval's ends are where Brent's method stops on a step function, so a normal
quantile one unit in the last place away from R's ``qnorm`` (scipy's ``ndtri``) moves them
by up to 1e-4; the quantile is R's algorithm (Wichura's AS 241), checked here against
mpmath's quantile (within AS 241's stated accuracy) and through the R values above.
R's ``qsignrank`` (the exact branch) is checked against its summation written out here.
"""

from __future__ import annotations

import math

import mpmath
import pandas as pd
import pytest
from _helpers import REFERENCE, case_differences

from cdplot.stats import _effects
from cdplot.stats._hodges_lehmann import _qsignrank, hodges_lehmann, qnorm

# the numbers as R printed them (sprintf("%.17g")): read as text, then parsed exactly
R_VALUES = pd.read_csv(
    REFERENCE / "effect_sizes_r.csv",
    comment="#",
    dtype={"estimate": str, "low": str, "high": str},
)
ROWS = [
    tuple(r)
    for r in R_VALUES[["case", "measure", "conf_level"]].itertuples(index=False)
    if r[1] in ("hodges-lehmann", "superiority")
]


@pytest.mark.parametrize(("case", "measure", "conf"), ROWS)
def test_interval_equals_r_to_the_last_bit(case, measure, conf):
    ref = R_VALUES[
        (R_VALUES["case"] == case)
        & (R_VALUES["measure"] == measure)
        & (R_VALUES["conf_level"] == conf)
    ].iloc[0]
    got = _effects.MEASURES[measure](case_differences(case), conf)
    # R: ref["call"] on the vectors of effect_sizes_vectors.csv
    assert got == tuple(float(ref[c]) for c in ("estimate", "low", "high"))


def test_two_decimal_ties_case_uses_the_normal_branch():
    # the cases above that exercise the root search (ties and zeros: R's normal branch)
    for case in ("ties_n15", "zeros_n20", "ties_zeros_n80", "demsar_m_vs_c45"):
        assert hodges_lehmann(case_differences(case), 0.95)[3] == "normal"


@pytest.mark.parametrize("p", [1e-300, 1e-20, 1e-5, 0.0005, 0.005, 0.025, 0.05, 0.1, 0.3, 0.5])
@pytest.mark.parametrize("lower_tail", [True, False])
def test_qnorm_within_its_stated_accuracy(p, lower_tail):
    # Wichura (1988): AS 241 is accurate to about 1 part in 1e16 (here: 3 units in the last
    # place); the true quantile from mpmath at 50 digits, by symmetry for the upper tail
    got = qnorm(p, lower_tail)
    with mpmath.workdps(50):
        start = got if lower_tail else -got
        lower = mpmath.findroot(lambda x: mpmath.ncdf(x) - mpmath.mpf(p), start)
        exact = float(lower if lower_tail else -lower)
    if p == 0.5:
        assert got == exact == 0.0
    else:
        assert abs(got - exact) <= 3 * math.ulp(exact)


def test_qnorm_edges_as_r():
    # R: qnorm(0) = -Inf, qnorm(1) = Inf, qnorm(0, lower.tail = FALSE) = Inf, qnorm(2) = NaN
    assert qnorm(0.0) == -math.inf and qnorm(1.0) == math.inf
    assert qnorm(0.0, False) == math.inf and qnorm(1.0, False) == -math.inf
    assert math.isnan(qnorm(2.0)) and math.isnan(qnorm(math.nan))
    assert qnorm(0.5) == 0.0


def _r_qsignrank(p: float, n: int) -> int:
    """R's qsignrank(p, n) for p <= 0.5 as its C code sums: counts times exp(-n log 2)."""
    top = n * (n + 1) // 2
    counts = [1] + [0] * top
    for k in range(1, n + 1):
        for s in range(top, k - 1, -1):
            counts[s] += counts[s - k]
    f = math.exp(-n * 0.6931471805599453)
    total, q = 0.0, 0
    p -= 10 * 2.220446049250313e-16
    while True:
        total += counts[q] * f
        if total >= p:
            return q
        q += 1


@pytest.mark.parametrize("n", [1, 2, 5, 6, 12, 30, 49])
def test_qsignrank_equals_r_summation(n):
    for p in (0.0005, 0.005, 0.025, 0.05, 0.1, 0.25, 0.5):
        assert _qsignrank(p, n) == _r_qsignrank(p, n)

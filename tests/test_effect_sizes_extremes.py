"""Effect sizes of scores near the largest float (1e308): computed, not a Python error.

Scores beyond 2**400 are divided by a power of two before their differences are taken, an
exact division: every measure is then computed on the same numbers in other units. Checked
for consistency (no external reference): the effect sizes of a table of such scores equal,
to the last bit, those of the same table divided by 2**600 (ordinary magnitudes, exact),
multiplied back for the measures in score units; Cohen's d and the probability of
superiority are unit-free. The Hodges-Lehmann case uses the exact branch (no ties, R's
Walsh averages), whose ends scale exactly; the normal branch stops R's root search at an
absolute tolerance, which does not scale.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pandas as pd
import pytest

import cdplot

SHIFT = 600  # the table divided by 2**600 has ordinary magnitudes


def _compare(table):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cdplot.CdplotWarning)
        return cdplot.compare(table)


@pytest.fixture(scope="module")
def huge():
    rng = np.random.default_rng(11)
    base = pd.DataFrame(rng.uniform(-1.0, 0.7, size=(12, 3)), columns=["A", "B", "C"])
    base["A"] += 0.3  # A better than the others on most datasets
    return base * 1.7e308  # up to 1.7e308: A - B overflows on some datasets


def test_cohen_d_at_the_largest_floats_is_computed(huge):
    with np.errstate(over="ignore"):
        assert np.isinf(huge["A"].to_numpy() - huge["B"].to_numpy()).any()
    frame = cdplot.effect_sizes(_compare(huge), measure="cohen-d")  # scipy's ValueError before
    assert np.isfinite(frame[["estimate", "low", "high"]].to_numpy()).all()


@pytest.mark.parametrize("measure", ["cohen-d", "superiority", "mean", "hodges-lehmann"])
def test_measures_equal_those_of_the_table_scaled_down(huge, measure):
    small = huge / 2.0**SHIFT  # exact: a power of two, no subnormal result
    got = cdplot.effect_sizes(_compare(huge), measure=measure)
    want = cdplot.effect_sizes(_compare(small), measure=measure)
    assert got[["a", "b"]].equals(want[["a", "b"]])
    factor = 2.0**SHIFT if measure in ("mean", "hodges-lehmann") else 1.0
    for column in ("estimate", "low", "high"):
        expected = [v * factor for v in want[column]]  # inf where beyond the largest float
        assert got[column].tolist() == expected, column


def test_hodges_lehmann_case_is_the_exact_branch(huge):
    from cdplot.stats._hodges_lehmann import hodges_lehmann

    d = (huge["A"] / 2.0**SHIFT - huge["B"] / 2.0**SHIFT).to_numpy()
    assert hodges_lehmann(d, 0.95)[3] == "exact"


def test_ordinary_scores_are_not_rescaled():
    from cdplot.stats._effects import SAFE_MAGNITUDE, scaled_differences

    res = _compare(cdplot.datasets.load("demsar2006"))
    d, scale = scaled_differences(res, "C4.5", "C4.5+m")
    assert scale == 1.0
    assert math.ldexp(1.0, 400) == SAFE_MAGNITUDE
    x, y = res.scores["C4.5"].to_numpy(), res.scores["C4.5+m"].to_numpy()
    np.testing.assert_array_equal(d, x - y)

"""Naming: ``*_test`` marks a test run on a scores table (datasets x algorithms).

``rm_anova`` and ``skillings_mack`` became ``rm_anova_test`` and ``skillings_mack_test``;
the old names still work for one release, warn, and give the same numbers (the numbers
themselves are pinned against Demšar 2006 Table 6 / R in test_parametric.py and
test_skillings_mack.py).
"""

from __future__ import annotations

import numpy as np
import pytest

import cdplot
from cdplot import stats

RENAMED = [("rm_anova", "rm_anova_test"), ("skillings_mack", "skillings_mack_test")]


@pytest.mark.parametrize(("old", "new"), RENAMED)
def test_old_name_warns_and_gives_same_result(old, new):
    x = cdplot.datasets.load("demsar2006").to_numpy()
    expected = getattr(stats, new)(x)
    with pytest.warns(DeprecationWarning, match=f"{old} is deprecated; use {new}"):
        got = getattr(stats, old)(x)
    assert (got.statistic, got.pvalue) == (expected.statistic, expected.pvalue)
    assert np.isfinite(got.statistic)


@pytest.mark.parametrize(("old", "new"), RENAMED)
def test_new_name_is_public_and_old_name_is_not(old, new):
    assert new in stats.__all__ and old not in stats.__all__

"""Cohen's d of differences equal up to the rounding of the scores is undefined (NaN), not 1e16.

``0.2 - 0.0`` and ``0.3 - 0.1`` differ by one unit in the last place, so their standard
deviation is about 1e-17 and ``mean / sd`` about 1e16, beyond what the noncentral t
distribution computes (scipy's root search then raised ``ValueError``). Equal differences
have no spread: the documented answer is NaN, as for differences that are exactly equal.
"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

import cdplot


def test_differences_equal_up_to_rounding_give_nan_not_an_error():
    table = pd.DataFrame({"A": [0.2, 0.3, 0.5], "B": [0.0, 0.1, 0.3]}, index=["d0", "d1", "d2"])
    d = (table["A"] - table["B"]).to_numpy()
    assert 0 < d.std(ddof=1) < 1e-15  # the rounding noise this is about
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cdplot.CdplotWarning)
        res = cdplot.compare(table)
    row = cdplot.effect_sizes(res, measure="cohen-d").iloc[0]
    assert np.isnan(row["estimate"]) and np.isnan(row["low"]) and np.isnan(row["high"])


def test_a_real_spread_still_gives_an_interval():
    table = pd.DataFrame({"A": [0.2, 0.35, 0.5], "B": [0.0, 0.1, 0.3]}, index=["d0", "d1", "d2"])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cdplot.CdplotWarning)
        res = cdplot.compare(table)
    row = cdplot.effect_sizes(res, measure="cohen-d").iloc[0]
    d = (table["A"] - table["B"]).to_numpy()
    assert row["estimate"] == pytest.approx(d.mean() / d.std(ddof=1), rel=1e-12)  # d_z
    assert row["low"] < row["estimate"] < row["high"]

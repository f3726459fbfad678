"""Properties of the analyses computed from a result (hypothesis).

Any generated complete table (2-6 algorithms, 2-9 datasets, integer scores with many ties)
either gives numbers that satisfy the properties below or raises CdplotInputError; no other
exception and no warning other than CdplotWarning.

- effect sizes: every interval holds its estimate (Hodges-Lehmann: its ends are ordered;
  R's own interval may miss its estimate where the level is not achievable); the mean
  difference equals
  ``numpy.mean(a - b)`` and the probability of superiority ``(wins + ties / 2) / N``
  (computed here from the table, independently of cdplot);
- bootstrap rank intervals (Mogstad et al. 2024): ``1 <= low <= high <= k``, the set of the
  best is the algorithms whose interval starts at 1 and is not empty, and every interval
  holds the positions its average rank allows (an algorithm cannot be significantly better
  than one with a better estimate): ``low <= 1 + #{strictly better}`` and
  ``high >= k - #{strictly worse}``, with the average ranks from ``scipy.stats.rankdata``;
- aggregation sensitivity: the positions under the mean score are those of the exact means
  of the floats rounded once (``float(Fraction)``; equal means share the mean position,
  whatever the order of the datasets), Kendall's tau has a unit diagonal.
120 examples in all.
"""

from __future__ import annotations

import warnings
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

import cdplot
from cdplot import CdplotInputError


@st.composite
def complete_tables(draw):
    n = draw(st.integers(2, 9))
    k = draw(st.integers(2, 6))
    values = draw(st.lists(st.integers(0, 5), min_size=n * k, max_size=n * k))
    table = np.asarray(values, dtype=float).reshape(n, k) / 10
    return pd.DataFrame(
        table, index=[f"d{i}" for i in range(n)], columns=[f"alg{j}" for j in range(k)]
    )


def quietly(func, *args, **kwargs):
    """Call with CdplotWarning silenced and every other warning an error."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        warnings.simplefilter("ignore", cdplot.CdplotWarning)
        return func(*args, **kwargs)


def compared(frame):
    try:
        return quietly(cdplot.compare, frame)
    except CdplotInputError:
        return None


@settings(max_examples=40)
@given(complete_tables(), st.sampled_from(["mean", "hodges-lehmann", "superiority", "cohen-d"]))
def test_effect_sizes_hold_their_estimates(frame, measure):
    res = compared(frame)
    if res is None:
        return
    fr = quietly(cdplot.effect_sizes, res, measure=measure)
    for row in fr.itertuples():
        if np.isfinite(row.estimate) and not (np.isnan(row.low) or np.isnan(row.high)):
            assert row.low <= row.high  # NaN ends: no interval (R's too)
            if measure != "hodges-lehmann":
                assert row.low <= row.estimate <= row.high
            # R's wilcox.test, where its level is not achievable (conf.level 0), returns the
            # median of the differences as both ends and its root as the estimate:
            # c(0, 0, 0.2) - c(0, 0.1, 0) gives 0.050090532322570776 and [0.05, 0.05]
        d = frame[row.a].to_numpy() - frame[row.b].to_numpy()
        assert row.n == d.size
        if measure == "mean":
            assert row.estimate == pytest.approx(float(np.mean(d)), abs=1e-12)
        elif measure == "superiority":
            share = (np.sum(d > 0) + np.sum(d == 0) / 2) / d.size
            assert row.estimate == pytest.approx(share, abs=1e-12)


@settings(max_examples=40)
@given(complete_tables(), st.integers(0, 2**31 - 1))
def test_bootstrap_rank_intervals_hold_the_estimated_positions(frame, seed):
    res = compared(frame)
    if res is None:
        return
    ri = quietly(cdplot.rank_intervals, res, method="bootstrap", n_boot=200, random_state=seed)
    k = frame.shape[1]
    avg = np.vstack([stats.rankdata(-row) for row in frame.to_numpy()]).mean(axis=0)
    fr = ri.to_frame().reindex(list(frame.columns))
    low, high = fr["low"].to_numpy(), fr["high"].to_numpy()
    assert ((low >= 1) & (low <= high) & (high <= k)).all()
    for j in range(k):
        better = int(np.sum(avg < avg[j] - 1e-12))
        worse = int(np.sum(avg > avg[j] + 1e-12))
        assert low[j] <= 1 + better
        assert high[j] >= k - worse
    assert set(ri.best_set) == {a for a, lo in zip(frame.columns, low, strict=True) if lo == 1}
    assert ri.best_set


@settings(max_examples=40)
@given(complete_tables())
def test_aggregation_positions_follow_the_means(frame):
    try:
        sens = quietly(cdplot.aggregation_sensitivity, frame)
    except CdplotInputError:
        return
    positions = sens.to_frame()["mean"].reindex(list(frame.columns)).to_numpy()
    means = [float(sum(map(Fraction, frame[c].tolist())) / len(frame)) for c in frame.columns]
    expected = [
        1 + sum(m > mj for m in means) + (sum(m == mj for m in means) - 1) / 2 for mj in means
    ]
    np.testing.assert_array_equal(positions, expected)
    tau = sens.kendall_tau.to_numpy()
    np.testing.assert_array_equal(np.diag(tau), np.ones(len(tau)))

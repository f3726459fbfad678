"""Property tests (hypothesis): invariances and orderings that must hold for any input.

Consistency only: these compare cdplot with itself under transformations that must not
change the statistics (dataset order, algorithm order and names, strictly increasing
transforms of a dataset's scores for rank-based tests), and check raw p <= APV <= 1.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from _helpers import quiet_compare
from hypothesis import given
from hypothesis import strategies as st

TESTS = ["wilcoxon", "sign", "mean-ranks", "nemenyi"]
CORRECTIONS = ["none", "bonferroni", "holm", "hochberg", "hommel", "finner", "shaffer", "bergmann"]


@st.composite
def score_tables(draw, min_k=2, max_k=6):
    n = draw(st.integers(6, 25))
    k = draw(st.integers(min_k, max_k))
    values = draw(st.lists(st.integers(0, 6), min_size=n * k, max_size=n * k))
    x = np.array(values, dtype=float).reshape(n, k) / 4.0
    return pd.DataFrame(
        x, columns=[f"alg{j}" for j in range(k)], index=[f"ds{i}" for i in range(n)]
    )


def same_result(a, b, names):
    """Compare two results after mapping a's algorithm names through ``names``."""
    pa = a.pvalues.rename(index=names, columns=names).loc[b.algorithms, b.algorithms]
    np.testing.assert_array_equal(pa.to_numpy(), b.pvalues.to_numpy())
    aa = a.adjusted_pvalues.rename(index=names, columns=names).loc[b.algorithms, b.algorithms]
    np.testing.assert_allclose(aa.to_numpy(), b.adjusted_pvalues.to_numpy(), rtol=1e-12)
    ra = a.average_ranks.rename(index=names)
    np.testing.assert_allclose(ra[b.algorithms].to_numpy(), b.average_ranks[b.algorithms])
    assert a.friedman.statistic == b.friedman.statistic or np.isclose(
        a.friedman.statistic, b.friedman.statistic, rtol=1e-12
    )


@given(score_tables(), st.sampled_from(TESTS), st.randoms(use_true_random=False))
def test_dataset_order_invariance(data, test, rnd):
    rows = list(data.index)
    rnd.shuffle(rows)
    a = quiet_compare(data, test=test)
    b = quiet_compare(data.loc[rows], test=test)
    same_result(a, b, {n: n for n in data.columns})


@given(score_tables(min_k=3), st.sampled_from(TESTS), st.randoms(use_true_random=False))
def test_algorithm_order_and_renaming(data, test, rnd):
    cols = list(data.columns)
    rnd.shuffle(cols)
    names = {c: f"new_{c}" for c in data.columns}
    correction = None if test == "nemenyi" else "bergmann"
    a = quiet_compare(data, test=test, correction=correction)
    b = quiet_compare(data[cols].rename(columns=names), test=test, correction=correction)
    same_result(a, b, names)
    # groups are the same sets of (renamed) algorithms
    ga = {frozenset(names[x] for x in g) for g in a.groups}
    assert ga == {frozenset(g) for g in b.groups}


@given(score_tables(), st.sampled_from(["sign", "mean-ranks", "nemenyi"]))
def test_monotone_transform_invariance(data, test):
    # rank-based tests only see each dataset's order: a strictly increasing transform
    # of one dataset's scores (here exp(3x) + 7 on every row) changes nothing
    a = quiet_compare(data, test=test)
    b = quiet_compare(np.exp(3 * data) + 7, test=test)
    same_result(a, b, {n: n for n in data.columns})


@given(
    score_tables(),
    st.sampled_from(["wilcoxon", "sign", "mean-ranks"]),
    st.sampled_from(CORRECTIONS),
)
def test_apv_bounds(data, test, correction):
    res = quiet_compare(data, test=test, correction=correction)
    p = res.pvalues.to_numpy()
    apv = res.adjusted_pvalues.to_numpy()
    off = ~np.eye(len(res.algorithms), dtype=bool)
    assert np.all(p[off] <= apv[off] + 1e-15)
    assert np.all(apv[off] <= 1.0)
    assert np.all(np.isnan(np.diag(apv)))
    np.testing.assert_array_equal(apv, apv.T)


@given(score_tables())
def test_ranks_sum_per_dataset(data):
    res = quiet_compare(data)
    k = len(res.algorithms)
    np.testing.assert_allclose(res.ranks.sum(axis=1), k * (k + 1) / 2)
    assert res.average_ranks.is_monotonic_increasing


@given(score_tables(min_k=3))
def test_correction_ordering_on_data(data):
    apvs = [
        quiet_compare(data, test="mean-ranks", correction=c).adjusted_pvalues.to_numpy()
        for c in ("bonferroni", "holm", "shaffer", "bergmann")
    ]
    off = ~np.eye(apvs[0].shape[0], dtype=bool)
    for hi, lo in zip(apvs, apvs[1:], strict=False):
        assert np.all(lo[off] <= hi[off] + 1e-15)

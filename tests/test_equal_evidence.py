"""Equal evidence, equal answers: property tests with hypothesis.

Consistency only (no external reference): tables built with tied rank-sum differences,
tied Wilcoxon statistics, tied average ranks and scores near +-1e308 must give
* bit-identical raw p-values to pairs with the same evidence,
* equal adjusted p-values to equal raw p-values, under every correction,
* the same result, groups included, under any permutation of the algorithms,
* no overflow (and no numpy RuntimeWarning) for huge scores: the same p-values as the
  same table scaled down by a power of two.
"""

from __future__ import annotations

import itertools
import warnings

import numpy as np
import pandas as pd
import pytest
from _helpers import quiet_compare
from hypothesis import given, settings
from hypothesis import strategies as st

import cdplot
from cdplot.stats import ALL_PAIRS_CORRECTIONS, CONTROL_CORRECTIONS

NAMES = list("ABCDEFG")
RANK_TESTS = ("wilcoxon", "sign", "mean-ranks")


@st.composite
def integer_tables(draw, min_k=3, max_k=6, max_value=3):
    """Small integer tables: many ties within datasets and in average rank."""
    k = draw(st.integers(min_k, max_k))
    n = draw(st.integers(4, 12))
    values = draw(
        st.lists(st.integers(0, max_value), min_size=n * k, max_size=n * k).map(
            lambda v: np.array(v, dtype=float).reshape(n, k)
        )
    )
    return pd.DataFrame(values, columns=NAMES[:k], index=[f"d{i}" for i in range(n)])


def assert_equal_p_equal_apv(res: cdplot.ComparisonResult) -> None:
    if res.control is None:
        iu = np.triu_indices(res.n_algorithms, 1)
        raw = res.pvalues.to_numpy()[iu]
        apv = res.adjusted_pvalues.to_numpy()[iu]
    else:
        raw = res.pvalues.loc[res.control, res.adjusted_pvalues.index].to_numpy()
        apv = res.adjusted_pvalues.to_numpy()
    for value in np.unique(raw):
        tied = apv[raw == value]
        assert np.all(tied == tied[0]), (res.correction, value, tied)
    assert np.all(apv >= raw) and np.all(apv <= 1.0)


@given(integer_tables())
def test_tied_rank_sum_differences_give_identical_mean_ranks_p(table):
    ranks = cdplot.stats.rank_rows(-table.to_numpy())
    twice = 2 * ranks.sum(axis=0)  # exact integers
    for correction in ALL_PAIRS_CORRECTIONS:
        res = quiet_compare(table, test="mean-ranks", correction=correction)
        p = res.pvalues.to_numpy()
        by_diff: dict[float, float] = {}
        for i, j in itertools.combinations(range(table.shape[1]), 2):
            d = abs(twice[i] - twice[j])
            assert by_diff.setdefault(d, p[i, j]) == p[i, j]  # same bits
        assert_equal_p_equal_apv(res)


@st.composite
def tied_wilcoxon_tables(draw):
    """Columns A..D with D = C - (A - B) in another row order: (A, B) and (C, D) have the
    same multiset of differences, hence the same Wilcoxon statistic and p-value."""
    n = draw(st.integers(5, 14))
    ints = st.lists(st.integers(-6, 6), min_size=n, max_size=n).map(np.array)
    a, b, c = draw(ints), draw(ints), draw(ints)
    perm = draw(st.permutations(range(n)))
    d = c - (a - b)[list(perm)]
    extra = draw(st.lists(ints, max_size=2))
    cols = [a, b, c, d, *extra]
    return pd.DataFrame(np.column_stack(cols).astype(float), columns=NAMES[: len(cols)])


@given(tied_wilcoxon_tables(), st.sampled_from(["wilcox", "pratt", "zsplit"]))
def test_tied_wilcoxon_statistics_give_identical_p_and_apvs(table, zero_method):
    for correction in ALL_PAIRS_CORRECTIONS:
        res = quiet_compare(table, test="wilcoxon", correction=correction, zero_method=zero_method)
        assert res.pvalues.loc["A", "B"] == res.pvalues.loc["C", "D"]
        assert res.adjusted_pvalues.loc["A", "B"] == res.adjusted_pvalues.loc["C", "D"]
        assert_equal_p_equal_apv(res)
    for correction in CONTROL_CORRECTIONS:
        assert_equal_p_equal_apv(
            quiet_compare(table, test="wilcoxon", correction=correction, control="A")
        )


def assert_same_result(a: cdplot.ComparisonResult, b: cdplot.ComparisonResult) -> None:
    """b was computed on permuted columns: everything but the input order is identical."""
    names = a.algorithms
    assert list(a.average_ranks.index) == list(b.average_ranks.index)
    assert a.average_ranks.equals(b.average_ranks)
    assert a.groups == b.groups
    assert a.uncovered_pairs == b.uncovered_pairs
    assert a.critical_difference == b.critical_difference
    assert tuple(a.friedman) == tuple(b.friedman)
    assert tuple(a.iman_davenport) == tuple(b.iman_davenport)
    for field in ("pvalues", "statistics", "adjusted_pvalues", "significant"):
        x, y = getattr(a, field), getattr(b, field)
        y = y.loc[names, names] if isinstance(x, pd.DataFrame) else y.loc[x.index]
        np.testing.assert_array_equal(x.to_numpy(), y.to_numpy(), err_msg=field)
    if a.mean_scores is not None:
        assert a.mean_scores.equals(b.mean_scores)
    if a.omnibus is not None:
        assert tuple(a.omnibus) == tuple(b.omnibus)


@settings(max_examples=3)  # about 300 comparisons an example; 12 more in the whole suite
@given(integer_tables(max_value=2), st.randoms(use_true_random=False))
def test_permuting_algorithms_permutes_the_result(table, random):
    check_permuted_algorithms(table, random)


@pytest.mark.slow
@settings(max_examples=12)
@given(integer_tables(max_value=2), st.randoms(use_true_random=False))
def test_permuting_algorithms_permutes_the_result_more_tables(table, random):
    check_permuted_algorithms(table, random)


def check_permuted_algorithms(table, random) -> None:
    """Every test and correction on ``table`` and on its columns shuffled: the same bits."""
    cols = list(table.columns)
    random.shuffle(cols)
    permuted = table[cols]
    for test in (*RANK_TESTS, "paired-t"):
        for correction in ALL_PAIRS_CORRECTIONS:
            a = quiet_compare(table, test=test, correction=correction)
            b = quiet_compare(permuted, test=test, correction=correction)
            assert_same_result(a, b)
            assert_equal_p_equal_apv(a)
        for correction in CONTROL_CORRECTIONS:
            a = quiet_compare(table, test=test, correction=correction, control="A")
            b = quiet_compare(permuted, test=test, correction=correction, control="A")
            assert_same_result(a, b)
            assert_equal_p_equal_apv(a)
    for test in ("nemenyi", "tukey"):
        a = quiet_compare(table, test=test, omnibus="rm-anova")
        assert_same_result(a, quiet_compare(permuted, test=test, omnibus="rm-anova"))


def test_tied_average_ranks_are_ordered_by_name():
    # B and A tie on average rank (1.5 each on both datasets); C is last
    table = pd.DataFrame({"B": [2.0, 2.0], "C": [0.0, 0.0], "A": [2.0, 2.0]})
    res = quiet_compare(table, test="mean-ranks")
    assert list(res.average_ranks.index) == ["A", "B", "C"]


@given(integer_tables(max_value=15))
def test_huge_scores_do_not_overflow(table):
    scale = 2.0**1020  # up to 15 * 2**1020 = 1.7e308: differences reach 3.4e308
    huge = table * scale
    centred = huge - 8 * scale  # scores of both signs near -+1e308
    for data in (huge, centred):
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # no RuntimeWarning (overflow) leaks
            warnings.simplefilter("ignore", cdplot.CdplotWarning)
            for test in RANK_TESTS:
                res = cdplot.compare(data, test=test, correction="bergmann")
                ref = quiet_compare(
                    table if data is huge else table - 8, test=test, correction="bergmann"
                )
                # exactly the same evidence: the same bits
                np.testing.assert_array_equal(res.pvalues.to_numpy(), ref.pvalues.to_numpy())
                np.testing.assert_array_equal(
                    res.adjusted_pvalues.to_numpy(), ref.adjusted_pvalues.to_numpy()
                )
                assert res.groups == ref.groups
            res = cdplot.compare(data, test="paired-t", omnibus="rm-anova")
            ref = quiet_compare(
                table if data is huge else table - 8, test="paired-t", omnibus="rm-anova"
            )
            np.testing.assert_allclose(
                res.pvalues.to_numpy(), ref.pvalues.to_numpy(), rtol=1e-9, atol=1e-300
            )
            assert list(res.mean_scores.index) == list(ref.mean_scores.index)

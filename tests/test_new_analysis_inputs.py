"""Bad parameters of aggregation_sensitivity, item_tests, hierarchical_rank_intervals and
effect_sizes are refused as compare() refuses its own: a CdplotInputError naming the
parameter, never a silent reinterpretation ("False" read as True) or a Python error.
The permutation test and the hierarchical bootstrap are bounded before they run, and the
permutation test draws its signs in chunks (the same p-values as drawn at once).
No statistics are verified here (see tests/test_items.py, tests/test_effect_sizes.py).
"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

import cdplot
from cdplot.io import prepare_input
from cdplot.stats import _items
from cdplot.stats._items import hierarchical_rank_intervals, item_tests


@pytest.fixture(scope="module")
def table():
    return cdplot.datasets.load("demsar2006")


@pytest.fixture(scope="module")
def result(table):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cdplot.CdplotWarning)
        return cdplot.compare(table)


def _continuous_items(n_items: int, seed: int = 0) -> cdplot.io.ItemScores:
    rng = np.random.default_rng(seed)
    rows = pd.DataFrame(
        {
            "task": ["t"] * (3 * n_items),
            "model": ["A", "B", "C"] * n_items,
            "doc_id": np.repeat(np.arange(n_items), 3),
            "score": rng.normal(size=3 * n_items).round(3),
        }
    )
    return prepare_input(rows).items


# --- aggregation_sensitivity -------------------------------------------------------------


@pytest.mark.parametrize("value", ["False", "True", 0, 1.0, np.array([False])])
def test_sensitivity_refuses_a_direction_that_is_not_a_bool(table, value):
    with pytest.raises(cdplot.CdplotInputError, match="higher_is_better must be True or False"):
        cdplot.aggregation_sensitivity(table, higher_is_better=value)


def test_sensitivity_direction_false_still_reverses_the_ranking(table):
    up = cdplot.aggregation_sensitivity(table)
    down = cdplot.aggregation_sensitivity(-table, higher_is_better=np.bool_(False))
    assert down.higher_is_better is False
    np.testing.assert_array_equal(up.ranks["mean"], down.ranks["mean"])


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("0.9", r"confidence must be a number in \(0, 1\), got '0.9'"),
        (True, r"confidence must be a number in \(0, 1\), got True"),
        ([0.9], r"confidence must be a number in \(0, 1\), got <class 'list'>"),
        (95, r"confidence must be in \(0, 1\), got 95"),
        (float("nan"), r"confidence must be in \(0, 1\)"),
    ],
)
def test_sensitivity_refuses_a_bad_confidence(table, value, message):
    with pytest.raises(cdplot.CdplotInputError, match=message):
        cdplot.aggregation_sensitivity(table, confidence=value)


def test_sensitivity_names_bad_column_and_aggregate_options(table):
    with pytest.raises(cdplot.CdplotInputError, match="aggregate must be a string"):
        cdplot.aggregation_sensitivity(table, aggregate=5)
    with pytest.raises(cdplot.CdplotInputError, match=r"given as dataset="):
        cdplot.aggregation_sensitivity(table, dataset=5)


# --- effect_sizes ---------------------------------------------------------------------------


@pytest.mark.parametrize("value", ["False", 1, None])
def test_effect_sizes_refuses_labels_that_are_not_a_bool(result, value):
    with pytest.raises(cdplot.CdplotInputError, match="labels must be True or False"):
        cdplot.effect_sizes(result, measure="cohen-d", labels=value)


@pytest.mark.parametrize("value", ["0.1", True, [0.1]])
def test_effect_sizes_refuses_a_rope_that_is_not_a_number(result, value):
    with pytest.raises(cdplot.CdplotInputError, match="rope must be a non-negative number"):
        cdplot.effect_sizes(result, measure="mean", rope=value)


def test_effect_sizes_needs_a_result(table):
    with pytest.raises(cdplot.CdplotInputError, match="needs the result of cdplot.compare"):
        cdplot.effect_sizes(table, measure="mean")


# --- item_tests and hierarchical_rank_intervals --------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"alpha": "0.05"}, r"alpha must be a number in \(0, 1\)"),
        ({"alpha": 5}, r"alpha must be in \(0, 1\)"),
        ({"exact_below": 2.5}, "exact_below must be an integer >= 0"),
        ({"exact_below": "25"}, "exact_below must be an integer >= 0"),
        ({"n_resamples": 0}, "n_resamples must be an integer >= 1"),
        ({"n_resamples": "9999"}, "n_resamples must be an integer >= 1"),
        ({"n_resamples": 99.5}, "n_resamples must be an integer >= 1"),
        ({"random_state": "seed"}, "random_state must be None, a non-negative integer"),
        ({"random_state": -1}, "random_state must be >= 0"),
        ({"method": "bootstrap"}, "not a valid value for method"),
    ],
)
def test_item_tests_names_the_bad_parameter(kwargs, message):
    with pytest.raises(cdplot.CdplotInputError, match=message):
        item_tests(_continuous_items(30), **kwargs)


def test_item_tests_refuses_a_billion_resamples_with_the_bound_and_why():
    with pytest.raises(
        cdplot.CdplotInputError,
        match=r"n_resamples=1,000,000,000 exceeds the bound of 10,000,000: a permutation "
        r"p-value resolves",
    ):
        item_tests(_continuous_items(30), method="permutation", n_resamples=10**9)


def test_item_tests_refuses_a_pair_that_would_draw_too_many_signs():
    items = _continuous_items(300)
    with pytest.raises(
        cdplot.CdplotInputError,
        match=r"3,000,000,000 random signs for one pair, beyond the bound of 2,000,000,000",
    ):
        item_tests(items, method="permutation", n_resamples=_items.MAX_RESAMPLES)
    # the same size with a paired t-test needs no signs
    assert len(item_tests(items, method="paired-t", n_resamples=_items.MAX_RESAMPLES)) == 3


def test_sign_flips_in_chunks_equal_the_signs_drawn_at_once(monkeypatch):
    items = _continuous_items(120, seed=3)
    whole = item_tests(items, method="permutation", n_resamples=4000, random_state=7)
    monkeypatch.setattr(_items, "_FLIP_CHUNK_CELLS", 1000)  # 8 rows of 120 signs a chunk
    chunked = item_tests(items, method="permutation", n_resamples=4000, random_state=7)
    assert whole["test"].eq("sign-flip permutation").all()
    pd.testing.assert_frame_equal(whole, chunked)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"confidence": "0.9"}, r"confidence must be a number in \(0, 1\)"),
        ({"confidence": 95}, r"confidence must be in \(0, 1\)"),
        ({"n_boot": 0}, "n_boot must be an integer >= 1"),
        ({"n_boot": 10**9}, "n_boot=1,000,000,000 exceeds the bound of 10,000,000"),
        ({"random_state": 1.5}, "random_state must be None, a non-negative integer"),
    ],
)
def test_hierarchical_intervals_name_the_bad_parameter(kwargs, message):
    with pytest.raises(cdplot.CdplotInputError, match=message):
        hierarchical_rank_intervals(_continuous_items(30), **kwargs)


def test_hierarchical_bootstrap_refuses_arrays_beyond_the_bound():
    items = _continuous_items(2000)
    with pytest.raises(cdplot.CdplotInputError, match=r"bound of 30,000,000 \(about 1 GB\)"):
        hierarchical_rank_intervals(items, n_boot=_items.MAX_RESAMPLES)


@pytest.mark.parametrize("value", [pd.DataFrame({"a": [1]}), "tests", None])
def test_item_wins_needs_the_table_of_item_tests(value):
    with pytest.raises(cdplot.CdplotInputError, match="item_wins counts the table of item_tests"):
        _items.item_wins(value)

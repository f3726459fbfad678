"""One vocabulary for the functions that read a comparison result (STYLE §3).

- ``effect_sizes`` and ``rank_intervals`` take the result first, as ``result`` (``res=``
  still works, with a DeprecationWarning, for one release), and every option by keyword;
  the result's own methods keep ``res.effect_sizes(measure)`` and
  ``res.rank_intervals(method)``;
- ``choose_figure`` takes ``width`` by keyword;
- every interval level is ``confidence``: ``aggregation_sensitivity(level=)``,
  ``bradley_terry(level=)`` and ``AggregationSensitivity.level`` warn;
- ``aggregation_sensitivity``'s ``higher_is_better`` defaults to None, as in ``compare()``.
"""

from __future__ import annotations

import inspect
import warnings

import numpy as np
import pandas as pd
import pytest

import cdplot
from cdplot.stats._sensitivity import bradley_terry


@pytest.fixture(scope="module")
def result():
    return cdplot.compare(cdplot.datasets.load("demsar2006"))


# ------------------------------------------------------------ the result first, options by keyword


@pytest.mark.parametrize(
    ("func", "option"),
    [
        (cdplot.effect_sizes, "hodges-lehmann"),
        (cdplot.rank_intervals, "bootstrap"),
        (cdplot.choose_figure, 7.0),
    ],
)
def test_options_by_position_are_refused(result, func, option):
    with pytest.raises(TypeError, match="positional argument"):
        func(result, option)


def test_the_first_parameter_is_result_and_the_rest_keyword_only():
    for func in (cdplot.effect_sizes, cdplot.rank_intervals, cdplot.choose_figure):
        params = list(inspect.signature(func).parameters.values())
        assert params[0].name == "result", func.__name__
        assert all(p.kind is inspect.Parameter.KEYWORD_ONLY for p in params[1:]), func.__name__


def test_effect_sizes_res_is_a_deprecated_alias(result):
    new = cdplot.effect_sizes(result, measure="hodges-lehmann")
    with pytest.warns(DeprecationWarning, match=r"effect_sizes\(res=\.\.\.\) is deprecated"):
        old = cdplot.effect_sizes(res=result, measure="hodges-lehmann")
    pd.testing.assert_frame_equal(old, new)
    # the result's own method keeps its measure first
    pd.testing.assert_frame_equal(result.effect_sizes("hodges-lehmann"), new)


def test_rank_intervals_res_is_a_deprecated_alias(result):
    options = {"method": "bootstrap", "n_boot": 200, "random_state": 1}
    new = cdplot.rank_intervals(result, **options)
    with pytest.warns(DeprecationWarning, match=r"rank_intervals\(res=\.\.\.\) is deprecated"):
        old = cdplot.rank_intervals(res=result, **options)
    pd.testing.assert_frame_equal(old.to_frame(), new.to_frame())
    pd.testing.assert_frame_equal(
        result.rank_intervals("bootstrap", n_boot=200, random_state=1).to_frame(),
        new.to_frame(),
    )


def test_res_and_result_together_are_refused(result):
    with pytest.raises(cdplot.CdplotInputError, match="pass result= only"):
        cdplot.effect_sizes(result, res=result)


def test_choose_figure_takes_width_by_keyword(result):
    assert cdplot.choose_figure(result, width=7.0) == "cd"


# ------------------------------------------------------------ confidence for every interval level


def test_aggregation_sensitivity_level_is_a_deprecated_alias_of_confidence(result):
    data = cdplot.datasets.load("demsar2006")
    new = cdplot.aggregation_sensitivity(data, confidence=0.9)
    with pytest.warns(
        DeprecationWarning, match=r"aggregation_sensitivity\(level=\.\.\.\) is deprecated"
    ):
        old = cdplot.aggregation_sensitivity(data, level=0.9)
    pd.testing.assert_frame_equal(old.bradley_terry, new.bradley_terry)
    assert new.confidence == 0.9
    wider = cdplot.aggregation_sensitivity(data, confidence=0.99).bradley_terry
    assert (
        wider["high"] - wider["low"] > new.bradley_terry["high"] - new.bradley_terry["low"]
    ).all()
    with pytest.warns(DeprecationWarning, match=r"\.level is deprecated; read \.confidence"):
        assert new.level == 0.9


def test_bradley_terry_level_is_a_deprecated_alias_of_confidence():
    wins = np.array([[0, 3, 4], [1, 0, 2], [1, 2, 0.0]])
    new = bradley_terry(wins, confidence=0.8)
    with pytest.warns(DeprecationWarning, match=r"bradley_terry\(level=\.\.\.\) is deprecated"):
        old = bradley_terry(wins, level=0.8)
    for a, b in zip(old, new, strict=True):
        np.testing.assert_array_equal(a, b)
    # Wald interval: s +- z se with z = scipy.stats.norm.ppf(0.9) = 1.2815515655446004
    np.testing.assert_allclose(new[2] - new[0], 1.2815515655446004 * new[3], rtol=1e-12)


# ------------------------------------------------------------ higher_is_better, as in compare()

# A has the smallest error on average, but every algorithm wins somewhere (the
# Bradley-Terry strengths exist)
ERRORS = pd.DataFrame(
    {
        "dataset": [f"d{i}" for i in range(8) for _ in range(3)],
        "algorithm": ["A", "B", "C"] * 8,
        "error": (
            np.tile([0.2, 0.25, 0.3], 8) + np.random.default_rng(0).normal(0, 0.05, 24)
        ).round(3),
    }
)


def test_aggregation_sensitivity_direction_defaults_to_none():
    default = inspect.signature(cdplot.aggregation_sensitivity).parameters["higher_is_better"]
    assert default.default is None


def test_aggregation_sensitivity_warns_on_an_error_column_as_compare_does():
    with pytest.warns(cdplot.CdplotWarning, match="higher_is_better=False") as seen:
        sens = cdplot.aggregation_sensitivity(ERRORS)
    with pytest.warns(cdplot.CdplotWarning, match="higher_is_better=False") as said:
        cdplot.compare(ERRORS)
    direction = [str(w.message) for w in seen if "higher_is_better=False" in str(w.message)]
    assert direction == [str(w.message) for w in said if "higher_is_better=False" in str(w.message)]
    assert sens.higher_is_better is True  # not given: higher is better, as in compare()
    with warnings.catch_warnings():
        warnings.simplefilter("error", cdplot.CdplotWarning)
        down = cdplot.aggregation_sensitivity(ERRORS, higher_is_better=False)
    assert down.to_frame().index[0] == "A"  # the smallest error is the best


def test_aggregation_sensitivity_of_a_result_keeps_its_direction():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cdplot.CdplotWarning)
        res = cdplot.compare(ERRORS, higher_is_better=False)
    assert cdplot.aggregation_sensitivity(res).higher_is_better is False
    with pytest.raises(cdplot.CdplotInputError, match="computed with higher_is_better=False"):
        cdplot.aggregation_sensitivity(res, higher_is_better=True)

"""A comparison result keeps the procedure that was run, in memory and in its JSON.

The Bergmann-Hommel budget and the omnibus test are part of the procedure but not of the
result's names (``test``, ``correction``, ...): a result rebuilt its procedure from those
names and reported the default budget of 10 s whatever was run.
"""

from __future__ import annotations

import dataclasses
import inspect
import json
import typing

import pytest

import cdplot
from cdplot._json import result_from_json, result_to_json
from cdplot.stats import Procedure


@pytest.fixture(scope="module")
def demsar():
    return cdplot.datasets.load("demsar2006")


@pytest.mark.parametrize(("budget", "kept"), [(3, 3.0), (float("inf"), None)])
def test_the_result_keeps_its_bergmann_hommel_budget(demsar, budget, kept):
    res = cdplot.compare(demsar, correction="bergmann-hommel", bh_budget=budget)
    assert res.procedure.bh_budget == kept
    assert res.procedure == Procedure.resolve(correction="bergmann-hommel", bh_budget=budget)
    back = result_from_json(result_to_json(res))
    assert back.procedure.bh_budget == kept and back.procedure == res.procedure
    assert cdplot.load_result(res.to_json()).procedure.bh_budget == kept


def test_the_json_holds_the_procedure_beside_the_settings(demsar):
    res = cdplot.compare(demsar, test="sign", ties="split", alpha=0.1)
    doc = json.loads(res.to_json())
    keys = list(doc)
    assert keys[keys.index("settings") + 1] == "procedure"
    assert doc["procedure"] == {
        "test": "sign",
        "correction": "holm",
        "control": None,
        "options": {"ties": "split"},
        "alpha": 0.1,
        "bh_budget": None if res.procedure.bh_budget is None else res.procedure.bh_budget,
        "omnibus": "friedman",
        "order": None,
    }


def test_an_older_document_rebuilds_the_procedure_from_its_names(demsar):
    res = cdplot.compare(demsar, correction="bergmann-hommel", bh_budget=3)
    doc = json.loads(res.to_json())
    del doc["procedure"]  # written before the result kept its procedure
    old = cdplot.load_result(doc)
    assert old == res  # the procedure is how the result was run, not what it found
    assert old.procedure.correction == "bergmann-hommel"
    assert old.procedure.bh_budget == Procedure.resolve().bh_budget  # the default


def test_a_procedure_disagreeing_with_the_settings_is_refused(demsar):
    doc = json.loads(cdplot.compare(demsar).to_json())
    doc["procedure"]["test"] = "sign"
    with pytest.raises(cdplot.CdplotInputError, match="'procedure' must agree with 'settings'"):
        cdplot.load_result(doc)
    doc["procedure"] = {"test": "wilcoxon"}
    with pytest.raises(cdplot.CdplotInputError, match="'procedure' must be null or an object"):
        cdplot.load_result(doc)


def test_changed_names_win_over_the_stored_procedure(demsar):
    res = cdplot.compare(demsar, correction="bergmann-hommel", bh_budget=3)
    moved = dataclasses.replace(res, alpha=0.1)
    assert moved.procedure.alpha == 0.1 and moved.procedure.bh_budget == 3.0
    assert res.procedure.alpha == 0.05


def test_both_kinds_share_a_public_base_type(demsar):
    bayes = cdplot.compare(demsar, test="bayes-sign", rope=0.01, nsamples=500, random_state=1)
    assert issubclass(cdplot.ComparisonResult, cdplot.Comparison)
    assert issubclass(cdplot.BayesianComparisonResult, cdplot.Comparison)
    assert isinstance(bayes, cdplot.Comparison) and bayes.procedure.bayesian
    assert "Comparison" in cdplot.__all__ and "Comparison" in cdplot.stats.__all__
    assert cdplot.stats.Comparison is cdplot.Comparison


def test_compare_is_annotated_with_what_it_returns():
    assert typing.get_type_hints(cdplot.compare)["return"] is cdplot.Comparison
    assert typing.get_type_hints(cdplot.compare_metrics)["return"] == dict[str, cdplot.Comparison]
    assert inspect.signature(cdplot.load_result).return_annotation == "Comparison"

"""Damaged JSON documents are refused up front, never crash later.

Failed on 9c73ebe: a duplicated algorithm was accepted and ``str(res)`` raised KeyError;
deep nesting raised RecursionError.
"""

from __future__ import annotations

import copy
import json

import pytest

import cdplot
from cdplot import CdplotInputError
from cdplot._json import result_from_json, result_to_json, results_from_json

pytestmark = pytest.mark.filterwarnings("ignore::cdplot.CdplotWarning")


def _docs() -> dict[str, dict]:
    import warnings

    data = cdplot.datasets.load("demsar2006")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cdplot.CdplotWarning)  # nemenyi's caution
        return _documents(data)


def _documents(data) -> dict[str, dict]:
    results = {
        "holm": cdplot.compare(data),
        "control": cdplot.compare(data, control="C4.5"),
        "nemenyi": cdplot.compare(data, test="nemenyi"),
        "bayes": cdplot.compare(data, test="bayes-sign", rope=0.01, nsamples=2000, random_state=1),
    }
    return {name: json.loads(result_to_json(res)) for name, res in results.items()}


DOCS = _docs()
WRONG = [None, 1, -1, 0.5, "x", True, [], {}, [1], ["x"], [[1]], {"a": 1}, [None]]


def _use(res) -> None:
    """Everything a reader does with a loaded result."""
    str(res)
    repr(res)
    res.to_frame()
    res.summary()


def _loads_or_refuses(doc) -> str:
    try:
        res = result_from_json(json.dumps(doc))
    except CdplotInputError:
        return "refused"
    _use(res)  # must not raise: an accepted document is a working result
    return "accepted"


def test_duplicate_algorithm_is_refused():
    doc = copy.deepcopy(DOCS["holm"])
    doc["algorithms"][1] = doc["algorithms"][0]
    with pytest.raises(CdplotInputError, match=r"'algorithms' has a name twice"):
        result_from_json(json.dumps(doc))


@pytest.mark.parametrize("kind", sorted(DOCS))
def test_every_type_damage_of_every_field_is_refused_or_harmless(kind):
    base = DOCS[kind]
    outcomes = []
    for field in base:
        for wrong in WRONG:
            doc = copy.deepcopy(base)
            doc[field] = wrong
            outcomes.append(_loads_or_refuses(doc))
        doc = copy.deepcopy(base)
        del doc[field]
        outcomes.append(_loads_or_refuses(doc))
    for field in ("test", "correction", "alpha", "control", "higher_is_better"):
        for wrong in WRONG:
            doc = copy.deepcopy(base)
            doc["settings"][field] = wrong
            outcomes.append(_loads_or_refuses(doc))
    assert "refused" in outcomes and "accepted" in outcomes


@pytest.mark.parametrize("kind", sorted(DOCS))
def test_shape_damages_are_refused(kind):
    base = DOCS[kind]
    matrices = [f for f, v in base.items() if isinstance(v, list) and v and isinstance(v[0], list)]
    assert {"scores", "ranks"} <= set(matrices)
    for field in matrices:
        for damage in ("drop row", "drop cell", "cell type"):
            doc = copy.deepcopy(base)
            if damage == "drop row":
                doc[field].pop()
            elif damage == "drop cell":
                doc[field][0].pop()
            else:
                doc[field][0][0] = {"x": 1}
            if field == "groups" or field == "uncovered_pairs":
                continue
            with pytest.raises(CdplotInputError, match=repr(field)):
                result_from_json(json.dumps(doc))
    doc = copy.deepcopy(base)
    doc["datasets"].pop()
    with pytest.raises(CdplotInputError, match="'scores' must be a"):
        result_from_json(json.dumps(doc))
    doc = copy.deepcopy(base)
    doc["groups"] = [["not an algorithm"]]
    with pytest.raises(CdplotInputError, match="'groups'"):
        result_from_json(json.dumps(doc))


@pytest.mark.parametrize("depth", [40, 100_000])
def test_deep_nesting_is_refused_not_a_recursion_error(depth):
    text = "[" * depth + "]" * depth
    with pytest.raises(CdplotInputError, match="nests deeper"):
        result_from_json(text)
    with pytest.raises(CdplotInputError):
        results_from_json('{"a": ' + text + "}")


def test_load_result_reads_a_path_text_a_dict_and_a_file(tmp_path):
    data = cdplot.datasets.load("demsar2006")
    res = cdplot.compare(data)
    text = result_to_json(res)
    path = tmp_path / "res.json"
    path.write_text(text)
    for source in (path, str(path), text, json.loads(text)):
        back = cdplot.load_result(source)
        assert back.groups == res.groups
        assert back.average_ranks.equals(res.average_ranks)
    with open(path) as fh:
        assert cdplot.load_result(fh).algorithms == res.algorithms
    with pytest.raises(CdplotInputError, match="cannot read the JSON result"):
        cdplot.load_result(tmp_path / "missing.json")
    with pytest.raises(CdplotInputError, match="takes a path"):
        cdplot.load_result(3)

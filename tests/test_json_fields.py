"""One description of the JSON document's fields writes, checks and reads it.

Every field of every part of a result is written by one entry of
``cdplot._json_fields.FIELDS`` (or named here as not written, with why), every key written
comes from an entry, and a document damaged in any described key is refused naming it.
"""

from __future__ import annotations

import dataclasses
import json

import pytest

import cdplot
from cdplot._json_fields import FIELDS
from cdplot.stats._results import BayesianComparisonResult, ComparisonResult

#: part fields the document does not hold as such, and why
NOT_WRITTEN = {
    "items": "item matrices stay in memory (documented)",
    "twice_ranks": "written as the ranks",
    "rank_name": "the label of the average ranks, from the test",
}
#: keys written outside the parts
HEADER = ("format", "format_version", "cdplot_version")


@pytest.mark.parametrize("kind", [ComparisonResult, BayesianComparisonResult])
def test_every_part_field_has_a_json_field(kind):
    described = {(f.part, name) for f in FIELDS for name in f.names}
    for attr, part in kind._PARTS.items():
        for field in dataclasses.fields(part):
            if field.name in NOT_WRITTEN:
                continue
            assert (attr, field.name) in described, f"{part.__name__}.{field.name}"


@pytest.mark.filterwarnings("ignore::cdplot.PoolDependenceWarning")
@pytest.mark.parametrize(
    "options",
    [{}, {"test": "nemenyi"}, {"test": "mean-ranks", "control": "C4.5"},
     {"test": "bayes-sign", "rope": 0.01, "nsamples": 500, "random_state": 1}],
)  # fmt: skip
def test_the_document_is_the_description_in_order(options):
    res = cdplot.compare(cdplot.datasets.load("demsar2006"), **options)
    doc = json.loads(res.to_json())
    top = [f.key for f in FIELDS if "." not in f.key]
    assert list(doc) == [*HEADER, *top]
    assert list(doc["settings"]) == [f.key.split(".")[1] for f in FIELDS if "." in f.key]
    assert cdplot.load_result(doc) == res


def _damaged(value):
    """A value of another JSON type than ``value``."""
    return "text" if not isinstance(value, str) else [[1.0]]


@pytest.mark.filterwarnings("ignore::cdplot.PoolDependenceWarning")
@pytest.mark.parametrize(
    "options",
    [{}, {"test": "mean-ranks", "control": "C4.5"},
     {"test": "bayes-sign", "rope": 0.01, "nsamples": 500, "random_state": 1}],
)  # fmt: skip
def test_a_damaged_described_key_is_refused_naming_it(options):
    doc = json.loads(cdplot.compare(cdplot.datasets.load("demsar2006"), **options).to_json())
    damaged = 0
    for field in FIELDS:
        broken = json.loads(json.dumps(doc))
        owner, last = field.place(broken)
        if owner.get(last) is None:
            continue  # null: a key of the other kind, or an optional one
        owner[last] = _damaged(owner.get(last))
        with pytest.raises(cdplot.CdplotInputError) as refused:
            cdplot.load_result(broken)
        assert repr(field.key) in str(refused.value), field.key
        damaged += 1
    assert damaged >= 25  # every key this kind of result writes


def test_the_procedure_keys_are_the_procedures_fields():
    from cdplot._json_fields import PROCEDURE_KEYS
    from cdplot.stats import Procedure

    assert tuple(f.name for f in dataclasses.fields(Procedure)) == PROCEDURE_KEYS

"""load_result() on numbers JSON can write but a float cannot hold: refused, naming the field.

JSON puts no bound on an integer; Python parses ``10**400`` exactly, and converting it to a
float raises ``OverflowError`` (past 4,300 digits the parser itself raises ``ValueError``).
Either is a :class:`~cdplot.CdplotInputError` naming the field, never another exception.
"""

from __future__ import annotations

import json

import pytest

import cdplot
from cdplot import CdplotInputError

BIG = "1" + "0" * 400  # 10**400 > 1.8e308, the largest float


@pytest.fixture(scope="module")
def saved() -> str:
    return cdplot.compare(cdplot.datasets.load("demsar2006")).to_json()


def test_an_integer_beyond_a_float_is_refused_naming_the_field(saved):
    text = saved.replace('"alpha": 0.05', f'"alpha": {BIG}', 1)
    assert text != saved
    with pytest.raises(
        CdplotInputError, match=r"'settings\.alpha' is an integer beyond the range of a float"
    ):
        cdplot.load_result(text)


def test_a_huge_integer_in_a_parsed_or_dumped_document_is_refused(saved):
    doc = json.loads(saved)
    row = doc["scores"][2]
    row[1] = -(10**400)
    with pytest.raises(CdplotInputError, match=r"'scores\[2\]\[1\]' is an integer beyond"):
        cdplot.load_result(doc)  # a parsed document
    with pytest.raises(CdplotInputError, match=r"'scores\[2\]\[1\]' is an integer beyond"):
        cdplot.load_result(json.dumps(doc))


def test_an_integer_longer_than_python_parses_is_refused(saved, tmp_path):
    path = tmp_path / "result.json"
    path.write_text(saved.replace('"alpha": 0.05', '"alpha": 1' + "0" * 5000, 1))
    with pytest.raises(CdplotInputError, match=r"not a cdplot JSON result: Exceeds the limit"):
        cdplot.load_result(path)


def test_a_result_with_ordinary_integers_still_loads(saved):
    assert cdplot.load_result(saved) == cdplot.compare(cdplot.datasets.load("demsar2006"))

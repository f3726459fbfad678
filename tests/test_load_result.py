"""The public JSON round trip: ``res.to_json()`` and ``cdplot.load_result`` give back a result
equal to the original (value semantics), for every kind of result, from text, a dict, a file."""

from __future__ import annotations

import json
import warnings

import pytest

import cdplot

SETTINGS = [
    {},
    {"test": "nemenyi", "alpha": 0.1},
    {"control": "C4.5"},
    {"test": "tukey"},
    {"test": "sign", "correction": "fdr-bh"},
    {"test": "bayes-signed-rank", "rope": 0.01, "random_state": 0, "nsamples": 2000},
]


@pytest.mark.parametrize("kwargs", SETTINGS, ids=lambda kw: "-".join(map(str, kw.values())))
def test_round_trip_gives_an_equal_result(kwargs, tmp_path):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cdplot.CdplotWarning)
        res = cdplot.compare(cdplot.datasets.load("demsar2006"), **kwargs)
    text = res.to_json()
    path = tmp_path / "res.json"
    path.write_text(text, encoding="utf-8")
    for source in (text, json.loads(text), path, str(path)):
        back = cdplot.load_result(source)
        assert back == res and hash(back) == hash(res)
        assert type(back) is type(res)
        assert str(back) == str(res)


def test_load_result_refuses_what_is_not_a_result(tmp_path):
    with pytest.raises(cdplot.CdplotInputError, match="cannot read"):
        cdplot.load_result(tmp_path / "missing.json")
    with pytest.raises(cdplot.CdplotInputError, match="takes a path"):
        cdplot.load_result(3.5)

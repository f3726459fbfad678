"""The JSON document is written piece by piece, and is exactly what :func:`json.dumps` writes."""

from __future__ import annotations

import io
import json
import tracemalloc

import numpy as np
import pytest
from _helpers import quiet_compare

import cdplot
from cdplot._json import json_chunks, result_from_json, result_to_json, results_to_json, write_json


def _results():
    demsar = cdplot.datasets.load("demsar2006")
    holes = demsar.copy()
    holes.iloc[0, 1] = np.nan
    return {  # every warning silenced
        "all pairs": quiet_compare(demsar, quiet=Warning),
        "control": quiet_compare(demsar, control="C4.5", quiet=Warning),
        "missing": quiet_compare(holes, missing="keep", quiet=Warning),
        "tukey, labels": quiet_compare(
            demsar, test="tukey", labels={"C4.5": "C4.5 (ünïcode & <tags>)"}, quiet=Warning
        ),
    }


@pytest.mark.parametrize("indent", [2, None, 0, 4])
def test_text_is_what_json_dumps_writes(indent):
    """Parsing the text and writing it again with the json module gives the same bytes."""
    for name, res in _results().items():
        text = result_to_json(res, indent=indent)
        assert text == json.dumps(json.loads(text), indent=indent, ensure_ascii=False), name
        assert b"".join(json_chunks(res, indent=indent)).decode("utf-8") == text, name
        buffer = io.StringIO()
        write_json(res, buffer, indent=indent)
        assert buffer.getvalue() == text, name
    several = results_to_json(_results(), indent=indent)
    assert several == json.dumps(json.loads(several), indent=indent, ensure_ascii=False)


def test_nan_and_infinite_values_are_written_as_documented():
    res = _results()["missing"]
    doc = json.loads(result_to_json(res))
    assert doc["scores"][0][1] is None  # the missing result
    assert doc["pvalues"][0][0] is None  # NaN diagonal
    assert result_from_json(result_to_json(res)).n_missing == 1


@pytest.mark.slow  # a 10 MB document traced by tracemalloc (seconds)
def test_large_result_is_streamed_in_chunks_without_a_second_copy():
    """A result whose JSON is ~10 MB is written in 256 KiB pieces: the peak memory of writing
    it is a few pieces, not the text (nor nested lists of the scores, ~15 MB here)."""
    rng = np.random.default_rng(1)
    scores = rng.normal(size=(30_000, 8))
    res = cdplot.compare(scores)
    tracemalloc.start()
    total = 0
    pieces = 0
    for chunk in json_chunks(res):
        total += len(chunk)
        pieces += 1
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert total > 9_000_000 and pieces >= 36
    assert peak < 4 * 2**20, (peak, total)


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"control": "C4.5"},
        {"test": "tukey"},
        {"test": "bayes-signed-rank", "rope": 0.01, "random_state": 1},
    ],
    ids=["wilcoxon", "control", "tukey", "bayes"],
)
def test_result_read_back_reports_the_same(options):
    """What the JSON holds is enough for every report: the text, the summary and the tables
    of the result read back are those of the original (omnibus test printed once, Tukey's
    mean scores, a Bayesian test's posteriors and decisions)."""
    res = cdplot.compare(cdplot.datasets.load("demsar2006"), **options)
    back = result_from_json(result_to_json(res))
    assert str(back) == str(res)
    assert back.summary() == res.summary()
    assert back.to_markdown() == res.to_markdown()
    assert result_to_json(back) == result_to_json(res)
    assert back.critical_difference_units == res.critical_difference_units
    if isinstance(res, cdplot.BayesianComparisonResult):
        for name in ("posterior_better", "posterior_equivalent", "posterior_worse", "decisions"):
            assert getattr(back, name).equals(getattr(res, name)), name

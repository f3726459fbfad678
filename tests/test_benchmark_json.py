"""The JSON document of a BenchmarkComparison: its ``benchmark`` object and the round trip.

Consistency only: every field of the Benchmark part is written by the ``benchmark`` field of
``cdplot._json_fields.FIELDS``; a result read back equals the one written (every part,
the model and pair statistics included); other results write ``benchmark: null`` and
documents written before the key existed still load; a damaged object is refused naming it.
"""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pytest

import cdplot
from cdplot._json_fields import FIELDS
from cdplot.io._benchmark import BenchmarkItems
from cdplot.stats import BenchmarkComparison, compare_benchmark


def items(binary: bool = True, n: int = 50) -> BenchmarkItems:
    rng = np.random.default_rng(2)
    if binary:
        x = (rng.random((n, 3)) < [0.4, 0.6, 0.7]).astype(float)
    else:
        x = rng.normal(size=(n, 3)) + [0.0, 0.3, 0.5]
    return BenchmarkItems(("a", "b", "c"), tuple(f"q{i}" for i in range(n)), x, binary)


def test_every_benchmark_field_has_a_json_field():
    described = {(f.part, name) for f in FIELDS for name in f.names}
    for attr, part in BenchmarkComparison._PARTS.items():
        for field in dataclasses.fields(part):
            if field.name in ("items", "twice_ranks", "rank_name"):  # as test_json_fields
                continue
            assert (attr, field.name) in described, f"{part.__name__}.{field.name}"


@pytest.mark.parametrize(
    "options",
    [{}, {"correction": "bergmann-hommel"}, {"control": "b", "correction": "li"},
     {"binary": False}, {"higher_is_better": False, "confidence": 0.9}],
)  # fmt: skip
def test_round_trip_is_equal(options):
    options = dict(options)
    res = compare_benchmark(items(options.pop("binary", True)), **options)
    text = res.to_json()
    back = cdplot.load_result(text)
    assert type(back) is BenchmarkComparison
    assert back == res
    for attr in BenchmarkComparison._PARTS:
        assert getattr(back, attr) == getattr(res, attr), attr
    assert back._benchmark.pair_statistics.wins.dtype == np.int64
    assert back.differences.equals(res.differences)
    assert back.procedure == res.procedure
    assert back.to_json() == text


def test_other_results_write_null_and_older_documents_load(demsar):
    res = cdplot.compare(demsar)
    doc = json.loads(res.to_json())
    assert list(doc)[-1] == "benchmark" and doc["benchmark"] is None
    del doc["benchmark"]  # written before the key existed
    assert cdplot.load_result(json.dumps(doc)) == res


def test_the_benchmark_object_holds_the_design_and_the_statistics():
    doc = json.loads(compare_benchmark(items()).to_json())
    bench = doc["benchmark"]
    assert bench["n_items"] == 50 and bench["binary"] is True and bench["n_clusters"] is None
    assert bench["model_statistics"]["n_items"] == [50, 50, 50]
    assert bench["pair_statistics"]["test"] == "mcnemar"
    assert bench["pair_statistics"]["difference"][0][0] is None  # NaN diagonal: null


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (lambda b: "text", r"'benchmark' must be null or an object"),
        (lambda b: {**b, "n_items": 7}, r"n_items equal to the number of 'datasets'"),
        (lambda b: {**b, "binary": "yes"}, r"true or false binary"),
        (
            lambda b: {**b, "pair_statistics": {**b["pair_statistics"], "pvalues": [[1]]}},
            r"'benchmark.pair_statistics.pvalues' must have the shape \(3, 3\)",
        ),
    ],
)
def test_a_damaged_benchmark_object_is_refused_naming_it(damage, message):
    doc = json.loads(compare_benchmark(items()).to_json())
    doc["benchmark"] = damage(doc["benchmark"])
    with pytest.raises(cdplot.CdplotInputError, match=message):
        cdplot.load_result(json.dumps(doc))


def test_the_clusters_travel_with_the_result():
    base = items(n=40)
    clustered = dataclasses.replace(
        base, clusters=np.arange(40) // 8, cluster_ids=tuple("abcde"), cluster_column="passage"
    )
    res = compare_benchmark(clustered)
    back = cdplot.load_result(res.to_json())
    assert back == res and back.n_clusters == 5
    again = back.benchmark_items
    np.testing.assert_array_equal(again.clusters, clustered.clusters)
    assert again.cluster_ids == tuple("abcde") and again.cluster_column == "passage"
    np.testing.assert_array_equal(again.scores, clustered.scores)

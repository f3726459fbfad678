"""The JSON document of a large result: written in about a second, the same text as before.

Consistency only: the text is compared with what :func:`json.dumps` writes for the same
values (``tests/test_json_stream.py`` checks the layout on the bundled tables); here the
matrices are large, with many repeated values, signed zeros, NaN and infinities.
"""

from __future__ import annotations

import json
import time
import warnings

import numpy as np

import cdplot
from cdplot._json import result_to_json
from cdplot._json_fields import Rows


def _quiet_compare(table: np.ndarray, **options) -> cdplot.Comparison:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return cdplot.compare(table, **options)


def test_json_of_a_1000_model_result_is_written_in_seconds():
    """k = 1,000 on 40 datasets: four k x k matrices (78 MB of text). Each value was
    written by its own call of the json module (7 s here); now each distinct value of a
    block of rows is written once and a row is one join."""
    rng = np.random.default_rng(0)
    res = _quiet_compare(rng.normal(size=(40, 1000)) + np.linspace(0.0, 1.0, 1000))
    start = time.perf_counter()
    text = result_to_json(res)
    assert time.perf_counter() - start < 3.0  # about 0.4 s on an idle core
    head = text[: text.index('"pvalues"')]
    assert len(text) > 70_000_000 and '"scores": [\n    [\n      ' in head
    row = [None if np.isnan(v) else v for v in res.adjusted_pvalues.to_numpy()[0].tolist()]
    expected = json.dumps(row, indent=2).replace("\n", "\n    ")  # at depth 2
    assert f'"adjusted_pvalues": [\n    {expected},\n    [' in text


def _as_json(values: np.ndarray) -> list[list[object]]:
    """The values as json writes them: NaN null, infinities as strings."""
    return [
        [None if np.isnan(v) else ("inf" if v > 0 else "-inf") if np.isinf(v) else v for v in row]
        for row in values.tolist()
    ]


def test_repeated_values_signed_zeros_and_infinities_are_written_as_json_writes_them():
    rng = np.random.default_rng(3)
    values = rng.choice([0.0, -0.0, 0.5, 1.0, np.nan, np.inf, -np.inf, 1e-300], size=(700, 9))
    values[::7] = rng.normal(size=(100, 9))  # distinct values too
    # more distinct values than are kept from block to block, and repeated ones
    many = np.where(rng.random((300, 100)) < 0.5, rng.normal(size=(300, 100)), -0.0)
    for indent in (2, None, 0):
        document = cdplot._json._Object(
            {"m": Rows(values), "half": Rows(values, 0.5), "many": Rows(many)}
        )
        text = "".join(cdplot._json._chunks(document, indent))
        expected = {"m": _as_json(values), "half": _as_json(values * 0.5), "many": _as_json(many)}
        assert text == json.dumps(expected, indent=indent)
        for key, matrix in (("m", values), ("many", many)):
            signs = np.signbit(np.array(json.loads(text)[key], dtype=float))
            assert np.array_equal(signs, np.signbit(matrix) & ~np.isnan(matrix))

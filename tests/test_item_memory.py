"""The compact in-memory item-level path gives the very same numbers as before.

The expected values were computed once by the code before the path was made compact, with
``tests/reference/make_item_analysis_fixed_seed.py`` (its docstring names the calls and the
commit); this test runs the same script's tables and calls on today's code and compares every
float bit for bit (``float.hex``).
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

pytest.importorskip("polars")

REFERENCE = Path(__file__).parent / "reference"
EXPECTED = json.loads((REFERENCE / "item_analysis_fixed_seed.json").read_text())


def _script():
    spec = importlib.util.spec_from_file_location(
        "make_item_analysis_fixed_seed", REFERENCE / "make_item_analysis_fixed_seed.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


SCRIPT = _script()
TABLES = SCRIPT.tables()


@pytest.mark.parametrize("how", ["pandas", "parquet"])
@pytest.mark.parametrize("name", sorted(TABLES))
def test_item_analysis_is_bit_identical_to_the_recorded_values(name, how, tmp_path):
    columns, missing, permutation = TABLES[name]
    source = SCRIPT.sources(columns, tmp_path, name)[how]
    got = SCRIPT.analyse(source, missing, permutation)
    expected = EXPECTED[f"{name}/{how}"]
    assert sorted(got) == sorted(expected)
    for key in expected:
        assert got[key] == expected[key], key

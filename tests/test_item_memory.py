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
#: the hierarchical bootstrap now counts uniform integer draws of the items where the
#: recorded code drew multinomial counts (the same distribution, other numbers for a seed):
#: of these only the model order is compared with the record, and the values are compared
#: between the two ways of passing a table (the same item matrices give the same draws)
REDRAWN = ("hierarchical_rank_intervals", "rank_intervals_hierarchical")


@pytest.mark.parametrize("how", ["pandas", "parquet"])
@pytest.mark.parametrize("name", sorted(TABLES))
def test_item_analysis_is_bit_identical_to_the_recorded_values(name, how, tmp_path):
    columns, missing, permutation = TABLES[name]
    source = SCRIPT.sources(columns, tmp_path, name)[how]
    got = SCRIPT.analyse(source, missing, permutation)
    expected = EXPECTED[f"{name}/{how}"]
    assert sorted(got) == sorted(expected)
    for key in expected:
        if key in REDRAWN:
            assert got[key]["index"] == expected[key]["index"], key
        else:
            assert got[key] == expected[key], key


@pytest.mark.parametrize("name", sorted(TABLES))
def test_hierarchical_intervals_are_the_same_from_pandas_and_parquet(name, tmp_path):
    columns, missing, permutation = TABLES[name]
    sources = SCRIPT.sources(columns, tmp_path, name)
    got = {how: SCRIPT.analyse(sources[how], missing, permutation) for how in sources}
    for key in REDRAWN:
        assert got["pandas"][key] == got["parquet"][key], key


def _parquet_items(path, models=40, tasks=10, items=500, seed=0):
    import numpy as np
    import polars as pl

    rng = np.random.default_rng(seed)
    n = models * tasks * items
    pl.DataFrame(
        {
            "task": np.repeat([f"t{t}" for t in range(tasks)], models * items),
            "model": np.tile(np.repeat([f"m{m}" for m in range(models)], items), tasks),
            "doc_id": np.tile(np.arange(items), models * tasks),
            "acc": (rng.random(n) < 0.6).astype(float),
        }
    ).write_parquet(path)
    return n


def test_item_level_parquet_is_read_in_bounded_memory(tmp_path, monkeypatch):
    """Reading 0/1 item scores from Parquet into per-task matrices holds about 10 bytes a
    row at its peak (numpy's buffers, as tracemalloc counts them), in chunks of 16,384 rows
    here so that the chunks' working arrays are small beside the table; the read through
    one wide pandas frame with int64 keys and float64 matrices held about 39."""
    import contextlib
    import importlib
    import tracemalloc

    from cdplot.io import prepare_input

    for module, name in (
        ("cdplot.io._parquet_compact", "BATCH_ROWS"),
        ("cdplot.io._item_matrix", "CHUNK_ROWS"),
        ("cdplot.io._parse", "_COUNT_CHUNK"),
        ("cdplot.io._sources", "_DISTINCT_CHUNK"),
    ):
        with contextlib.suppress(ImportError):  # a reader without that module reads otherwise
            monkeypatch.setattr(importlib.import_module(module), name, 1 << 14, raising=False)
    path = tmp_path / "items.parquet"
    n = _parquet_items(path)
    prepare_input(path)  # imports and caches first
    tracemalloc.start()
    try:
        prepared = prepare_input(path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert prepared.items.n_items.tolist() == [500] * 10
    assert peak / n < 16, f"{peak / n:.1f} bytes per row"


def test_binary_item_matrices_read_as_float_with_nan(tmp_path):
    """0/1 scores are kept compact but read as the float64 matrices they were, NaN where a
    model has no score (missing="keep"); the columns in another order on request."""
    import numpy as np
    import pandas as pd

    import cdplot

    rows = pd.DataFrame(
        {
            "task": ["t1"] * 6 + ["t2"] * 4,
            "model": ["A", "B", "A", "B", "A", "B", "A", "B", "A", "B"],
            "doc_id": [0, 0, 1, 1, 2, 2, 0, 0, 1, 1],
            "acc": [1.0, 0.0, 1.0, 1.0, 0.0, 1.0, 1.0, 0.0, 0.0, 0.0],
        }
    ).drop(index=[5])
    items = cdplot.io.prepare_input(rows, missing="keep").items
    first = items.matrix("t1")
    assert first.dtype == np.float64 and not first.flags.writeable
    np.testing.assert_array_equal(first, [[1.0, 0.0], [1.0, 1.0], [0.0, np.nan]])
    np.testing.assert_array_equal(items.matrix(0, ["B", "A"]), first[:, ::-1])
    np.testing.assert_array_equal(items.matrices[1], [[1.0, 0.0], [0.0, 0.0]])
    assert items.frame("t1").iloc[2].isna().tolist() == [False, True]


def test_scores_like_counts_whole_numbers_without_sorting_the_same_way():
    """Whether some value occurs once, by chunked counts, against numpy's sort-based
    ``np.unique(..., return_counts=True)`` on the finite values as floats."""
    import numpy as np

    from cdplot.io._parse import _scores_like

    rng = np.random.default_rng(3)
    cases = [
        np.array([0, 1, 1, 0], np.uint8),
        np.array([0, 1, 2, 2, 1, 0]),
        np.array([0.0, 1.0, np.nan, 1.0, 0.0]),
        np.array([0.5, 0.5]),
        np.array([0.0, -0.0, 1.0, 1.0]),
        np.array([np.inf, 1.0, 1.0]),
        np.array([], float),
        np.array([np.nan]),
        np.array([3, 3, 10**15, 10**15]),
        np.array([-5, -5, -4]),
        np.array([2**62, 2**62 + 1, 2**62 + 1]),
        rng.integers(0, 50, 1000).astype(float),
        rng.integers(0, 5000, 1000),
        rng.random(100),
    ]
    for values in cases:
        floats = values.astype(float)
        _, counts = np.unique(floats[np.isfinite(floats)], return_counts=True)
        assert _scores_like(values) == bool((counts == 1).any()), values


def test_item_scores_pickle_and_read_an_object_pickled_with_plain_matrices():
    """A pickled ItemScores reads back with the same matrices; so does the state of one
    pickled when ``matrices`` was a plain field (its float arrays kept as they are)."""
    import pickle

    import numpy as np
    import pandas as pd

    import cdplot
    from cdplot.io import ItemScores

    rows = pd.DataFrame(
        {
            "task": ["t1"] * 4 + ["t2"] * 4,
            "model": ["A", "B"] * 4,
            "doc_id": [0, 0, 1, 1] * 2,
            "acc": [1.0, 0.0, 1.0, 1.0, 0.0, 0.0, 1.0, 0.0],
        }
    )
    items = cdplot.io.prepare_input(rows).items
    again = pickle.loads(pickle.dumps(items))
    for a, b in zip(items.matrices, again.matrices, strict=True):
        np.testing.assert_array_equal(a, b)
    old = ItemScores.__new__(ItemScores)
    old.__setstate__(
        {
            "tasks": ("t1",),
            "models": ("A", "B"),
            "item": "doc_id",
            "matrices": (np.array([[0.25, np.nan]]),),
            "item_ids": (np.array([7], dtype=object),),
            "function": "mean",
        }
    )
    np.testing.assert_array_equal(old.matrix("t1"), [[0.25, np.nan]])
    assert old.n_items.tolist() == [1]


@pytest.mark.parametrize("item_kind", ["int", "int-negative-late", "text"])
def test_batched_parquet_read_gives_the_values_of_the_whole_read(tmp_path, monkeypatch, item_kind):
    """Read in batches of 64 rows, with names and items first seen in later batches, a
    missing model name and non-binary scores in one batch only: the same codes, labels and
    values as read_parquet's one-piece read."""
    import numpy as np
    import polars as pl

    import cdplot.io._parquet_compact as parquet_compact
    from cdplot.io import read_parquet
    from cdplot.io._parquet import read_parquet_items

    monkeypatch.setattr(parquet_compact, "BATCH_ROWS", 64)
    rng = np.random.default_rng(8)
    n = 1000
    items = rng.integers(0, 300, n) * 3 + np.arange(n) // 200
    if item_kind == "int-negative-late":  # labels no lookup table holds, from row 600 on
        items[600:] -= 500
    acc = (rng.random(n) < 0.5).astype(float)
    model = [f"m{(i // 150) + (i % 4)}" for i in range(n)]
    model[500] = None
    path = tmp_path / "items.parquet"
    pl.DataFrame(
        {
            "task": [f"t{i // 333}" for i in range(n)],
            "model": model,
            "doc_id": [f"q{v}" for v in items] if item_kind == "text" else items,
            "acc": acc,
        }
    ).write_parquet(path, row_group_size=100)
    whole = read_parquet(path)
    batched = read_parquet_items(path)
    assert list(batched.columns) == list(whole.columns)
    assert batched["acc"].dtype == np.uint8
    np.testing.assert_array_equal(batched["acc"].to_numpy(), whole["acc"].to_numpy())
    for col in ("task", "model", "doc_id"):
        a, b = pd_factorize(batched[col]), pd_factorize(whole[col])
        np.testing.assert_array_equal(a[0], b[0])
        assert list(a[1]) == list(b[1])
    acc[700] = 0.5  # one batch not 0/1: the whole column stays float
    pl.DataFrame({"task": ["t"] * n, "model": model, "doc_id": items, "acc": acc}).write_parquet(
        path
    )
    batched = read_parquet_items(path)
    assert batched["acc"].dtype == np.float64
    np.testing.assert_array_equal(batched["acc"].to_numpy(), acc)


def pd_factorize(values):
    import pandas as pd

    return pd.factorize(values, use_na_sentinel=True)


@pytest.mark.parametrize("shape", [(1, 3), (63, 5), (64, 5), (65, 5), (1001, 37)])
def test_mcnemar_counts_from_packed_bits_equal_the_float64_products(shape, monkeypatch):
    """b, both and hits of a complete 0/1 task, from bits counted a few models at a time,
    against the three float64 products ``right.T @ (1 - right)``, ``1.T @ 1``,
    ``right.T @ 1``; and with one score missing, through the products."""
    import numpy as np

    from cdplot.stats import _items

    monkeypatch.setattr(_items, "_BIT_WORDS", 40)
    rng = np.random.default_rng(shape[0])
    right = (rng.random(shape) < 0.6).astype(float)
    ones = np.ones_like(right)
    b, both, hits = _items._binary_counts(right)
    np.testing.assert_array_equal(b, right.T @ (ones - right))
    np.testing.assert_array_equal(both, ones.T @ ones)
    np.testing.assert_array_equal(hits, right.T @ ones)
    right[0, 0] = np.nan
    present = ~np.isnan(right)
    scored = np.where(present, right, 0.0)
    b, both, hits = _items._binary_counts(right)
    np.testing.assert_array_equal(b, scored.T @ (present - scored))
    np.testing.assert_array_equal(both, present.T.astype(float) @ present)


def test_one_benchmark_from_compact_parquet_equals_the_data_frame(tmp_path):
    """One benchmark (no task column) of 50 models x 2,000 items read from Parquet in
    compact columns (int16 item codes: items x models beyond int16) gives the result of
    the same rows passed as a pandas DataFrame."""
    import numpy as np
    import pandas as pd
    import polars

    import cdplot

    rng = np.random.default_rng(4)
    items, k = 2000, 50
    rows = pd.DataFrame(
        {
            "model": np.repeat([f"m{j}" for j in range(k)], items),
            "item_id": np.tile(np.arange(items) * 5, k),
            "correct": (rng.random(items * k) < np.repeat(np.linspace(0.5, 0.7, k), items)).astype(
                float
            ),
        }
    )
    path = tmp_path / "one.parquet"
    polars.from_pandas(rows).write_parquet(path)
    a, b = cdplot.compare(path), cdplot.compare(rows)
    np.testing.assert_array_equal(a.average_ranks.to_numpy(), b.average_ranks.to_numpy())
    assert list(a.average_ranks.index) == list(b.average_ranks.index)
    np.testing.assert_array_equal(a.pvalues.to_numpy(), b.pvalues.to_numpy())

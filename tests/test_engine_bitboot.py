"""Bootstrap replicates of 0/1 scores in DuckDB from item bitsets and matrix products.

DuckDB makes one pass for all replicates (each task's and model's items scored 0 and 1 as
one bitset); the client hashes the weights of every item and replicate and multiplies. The
replicates must equal, integer for integer, those of the grouped passes of another engine
(Polars, one pass per block of replicates), and the fast hash must equal the plain numpy
hash (which the engine tests compare with every engine's expressions).
"""

from __future__ import annotations

import numpy as np
import pytest
from test_engine_bits import binary_rows

from cdplot.io import (
    _engine_bitboot,
    _engine_bits,
    _engine_boot,
    _engine_hash,
    engine_bootstrap,
    engine_statistics,
)
from cdplot.io._engine_hash import P, hashed_poisson, hashed_poisson_matrix

pl = pytest.importorskip("polars")
duckdb = pytest.importorskip("duckdb")
pytest.importorskip("narwhals")


@pytest.mark.parametrize("workers", [1, 3])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int64])
def test_the_fast_hash_equals_the_plain_one(dtype, workers):
    rng = np.random.default_rng(5)
    edges = [0, 1, -1, P - 1, P, P + 1, 2**31, -P, 2**62, 2**63 - 1, -(2**63), -(2**40)]
    ids = np.concatenate([rng.integers(-(2**62), 2**62, 4_000), np.array(edges)])
    reps = list(range(0, 700, 7))  # 400,000 weights: about 3,000 in the buckets a threshold splits
    expected = np.stack([hashed_poisson(ids, r, 123) for r in reps], axis=1)
    got = hashed_poisson_matrix(ids, reps, 123, dtype=dtype, workers=workers)
    assert got.dtype == np.dtype(dtype) and got.shape == (ids.size, len(reps))
    np.testing.assert_array_equal(got.astype(np.int64), expected)
    assert expected.max() >= 6  # the tail of the lookup was reached


def test_the_weight_lookup_splits_exactly_the_buckets_where_the_weight_changes():
    # the blocked hash ends with a value congruent to the hash modulo P, below 2^_TOP; the
    # weight of v is how many thresholds (v mod P) reaches, so it changes at j P + T_k (a
    # threshold reached) and at j P (back to 0): a bucket with such a point inside is split
    weight, split = _engine_hash._weight_lookup()
    size, top = 1 << _engine_hash._SHIFT, 1 << _engine_hash._TOP
    thresholds = _engine_hash.poisson_thresholds()
    changes = [j * P + int(t) for j in range(top // P + 1) for t in [0, *thresholds]]
    inside = {c // size for c in changes if 0 < c < top and c % size}
    assert set(np.flatnonzero(split).tolist()) == inside
    lows = np.arange(weight.size, dtype=np.int64) * size
    np.testing.assert_array_equal(weight, ((lows % P)[:, None] >= thresholds).sum(axis=1))


def _polars_replicates(df, level, n_boot, seed):
    return engine_bootstrap(
        engine_statistics(pl.from_pandas(df).lazy()), n_boot=n_boot, seed=seed, level=level
    )


def _assert_same(got, expected) -> None:
    np.testing.assert_array_equal(got.sums, expected.sums)
    np.testing.assert_array_equal(got.weights, expected.weights)


def _no_grouped_pass(*args, **kwargs):
    raise AssertionError("a grouped pass was made")


@pytest.mark.parametrize("level", ["item", "hierarchical"])
@pytest.mark.parametrize("ids", ["dense", "sparse"])
def test_bitset_replicates_equal_the_grouped_passes(ids, level, monkeypatch):
    df = binary_rows(3, ids)  # rows dropped, scores missing, an item no model scored
    expected = _polars_replicates(df, level, 70, 8)
    stats = engine_statistics(duckdb.from_df(df))
    monkeypatch.setattr(_engine_boot, "_block", _no_grouped_pass)
    if ids == "sparse":  # too sparse for placement by id at this budget: placed by rank
        monkeypatch.setattr(_engine_bits, "BITSET_BYTES", 2_000)
    monkeypatch.setattr(_engine_bitboot, "WEIGHT_BYTES", 4_000)  # many chunks of replicates
    fetched = []
    fetch = _engine_bitboot.duckdb_item_bitsets
    monkeypatch.setattr(
        _engine_bitboot, "duckdb_item_bitsets", lambda *a: fetched.append(fetch(*a)) or fetched[0]
    )
    got = engine_bootstrap(stats, n_boot=70, seed=8, level=level)
    assert (fetched[0].ranked is not None) == (ids == "sparse")
    assert got.engine == "duckdb" and got.n_boot == 70
    _assert_same(got, expected)
    np.testing.assert_array_equal(got.task_weights, expected.task_weights)


def test_sums_too_large_for_float32_are_made_in_float64(monkeypatch):
    df = binary_rows(4, "dense")
    expected = _polars_replicates(df, "item", 9, 2)
    stats = engine_statistics(duckdb.from_df(df))
    monkeypatch.setattr(_engine_boot, "_block", _no_grouped_pass)
    assert _engine_bitboot._dtype(1_118_481) is np.float32  # 15 x items below 2^24
    assert _engine_bitboot._dtype(1_118_482) is np.float64
    monkeypatch.setattr(_engine_bitboot, "_dtype", lambda items: np.float64)
    _assert_same(engine_bootstrap(stats, n_boot=9, seed=2, level="item"), expected)


def test_over_the_budget_the_grouped_passes_are_made(monkeypatch):
    df = binary_rows(6, "dense")
    expected = _polars_replicates(df, "item", 5, 1)
    stats = engine_statistics(duckdb.from_df(df))
    monkeypatch.setattr(_engine_bits, "BITSET_BYTES", 10)
    passes = []
    block = _engine_boot._block
    monkeypatch.setattr(_engine_boot, "_block", lambda *a, **k: passes.append(1) or block(*a, **k))
    got = engine_bootstrap(stats, n_boot=5, seed=1, level="item")
    assert passes == [1]
    _assert_same(got, expected)


def test_scores_other_than_0_and_1_are_resampled_by_grouped_passes(monkeypatch):
    df = binary_rows(7, "dense")
    df.loc[df.index[:5], "score"] = 0.5
    expected = _polars_replicates(df, "item", 4, 3)
    stats = engine_statistics(duckdb.from_df(df))
    monkeypatch.setattr(_engine_bitboot, "bitset_replicates", _no_grouped_pass)
    _assert_same(engine_bootstrap(stats, n_boot=4, seed=3, level="item"), expected)

"""DuckDB's bitset counts of 0/1 scores equal the self-join's pair sums, integer for integer.

The reference is the same statistics computed by Polars (the join of the item cells on task
and item, grouped by model pair) on the same rows; the bitsets must give identical arrays for
string item ids (placed by rank), dense and sparse integer ids, missing rows, missing
scores and items no model scored.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import cdplot
from cdplot.io import _engine_bits, engine_statistics

pl = pytest.importorskip("polars")
duckdb = pytest.importorskip("duckdb")
pytest.importorskip("narwhals")

ARRAYS = ("n", "sums", "squares", "n_items", "both", "cross", "hits", "hit_squares", "wins")


def binary_rows(seed: int, ids: str) -> pd.DataFrame:
    """Four tasks x five models x 60 items, with rows dropped and scores missing."""
    rng = np.random.default_rng(seed)
    rows = []
    for t in ("a", "b", "c", "d"):
        for i in range(60 if t != "d" else 7):
            item = {"text": f"q{i:02d}-{t}", "dense": i + 5, "sparse": i * 1_000 - 30_000}[ids]
            for j, m in enumerate(("m1", "m2", "m3", "m4", "m5")):
                score = float(rng.random() < 0.2 + 0.15 * j)
                rows.append((t, m, item, score if rng.random() > 0.05 else np.nan))
    df = pd.DataFrame(rows, columns=["task", "model", "item", "score"])
    keep = rng.random(len(df)) > 0.1
    df = df[keep].reset_index(drop=True)
    # an item every model left unscored still counts as an item of its task
    df.loc[(df.task == "b") & (df["item"] == df["item"].iloc[0]), "score"] = np.nan
    return df


def assert_same(got, expected) -> None:
    assert got.tasks == expected.tasks and got.models == expected.models
    for key in ARRAYS:
        np.testing.assert_array_equal(getattr(got, key), getattr(expected, key), err_msg=key)


@pytest.mark.parametrize("ids", ["text", "dense", "sparse"])
def test_bitset_counts_equal_the_join(ids):
    df = binary_rows(7, ids)
    got = engine_statistics(duckdb.from_df(df))
    expected = engine_statistics(pl.from_pandas(df).lazy())
    assert got.engine == "duckdb" and expected.engine == "polars"
    assert_same(got, expected)


def complete_rows(seed: int) -> pd.DataFrame:
    """Three tasks x four models, every model scoring every item of its task once, except
    in task "c" (a model left one item without a row)."""
    rng = np.random.default_rng(seed)
    rows = [
        (t, m, i, float(rng.random() < 0.3 + 0.1 * j))
        for t, n in (("a", 40), ("b", 9), ("c", 25))
        for i in range(n)
        for j, m in enumerate(("m1", "m2", "m3", "m4"))
    ]
    df = pd.DataFrame(rows, columns=["task", "model", "item", "score"])
    return df.drop(df.index[(df.task == "c") & (df.model == "m2") & (df["item"] == 3)])


def test_tasks_every_model_scored_fully_equal_the_join():
    # tasks "a" and "b" take the one-AND-per-pair path, "c" the general one
    df = complete_rows(1)
    got = engine_statistics(duckdb.from_df(df))
    assert_same(got, engine_statistics(pl.from_pandas(df).lazy()))
    missing = complete_rows(1).assign(score=lambda d: d.score.where(d.index != 5))
    got = engine_statistics(duckdb.from_df(missing))  # a missing score: not full
    assert_same(got, engine_statistics(pl.from_pandas(missing).lazy()))


def test_a_model_scored_twice_is_refused_where_the_counts_look_full():
    # m3 scored item 0 of task "a" twice and item 1 not at all: its 40 scores equal the
    # task's 40 items, but it scored 39 distinct items
    df = complete_rows(2)
    twice = df.copy()
    twice.loc[(df.task == "a") & (df.model == "m3") & (df["item"] == 1), "item"] = 0
    with pytest.raises(cdplot.CdplotInputError, match="two or more scores of one item"):
        engine_statistics(duckdb.from_df(twice))


def test_item_tests_through_the_bitsets_equal_the_in_memory_tests():
    df = binary_rows(11, "text")
    in_order = df.sort_values("model", kind="stable")  # models first seen in sorted order
    items = cdplot.io.prepare_input(in_order, item="item", missing="keep").items
    expected = cdplot.stats.item_tests(items)
    got = cdplot.stats.engine_item_tests(engine_statistics(duckdb.from_df(df)))
    pd.testing.assert_frame_equal(got, expected, check_exact=True)


def test_boolean_scores_count_as_zero_and_one():
    df = binary_rows(5, "dense")
    flags = df.dropna(subset=["score"]).assign(score=lambda d: d.score == 1.0)
    got = engine_statistics(duckdb.from_df(flags))
    assert_same(got, engine_statistics(pl.from_pandas(flags).lazy()))


def test_bitsets_over_the_budget_fall_back_to_the_join(monkeypatch):
    df = binary_rows(3, "text")
    relation = duckdb.from_df(df)
    columns = {"task": "task", "model": "model", "item": "item", "score": "score"}
    tasks, models = ("a", "b", "c", "d"), ("m1", "m2", "m3", "m4", "m5")
    assert _engine_bits.duckdb_binary_pairs(relation, columns, tasks, models) is not None
    monkeypatch.setattr(_engine_bits, "BITSET_BYTES", 100)
    assert _engine_bits.duckdb_binary_pairs(relation, columns, tasks, models) is None
    assert_same(engine_statistics(relation), engine_statistics(pl.from_pandas(df).lazy()))


@pytest.mark.parametrize("ids", ["text", "dense"])
def test_a_model_scored_twice_on_an_item_is_refused(ids):
    df = binary_rows(2, ids).dropna(subset=["score"])
    twice = pd.concat([df, df.iloc[[3]]], ignore_index=True)
    with pytest.raises(cdplot.CdplotInputError, match="two or more scores of one item"):
        engine_statistics(duckdb.from_df(twice))


def test_integer_ids_too_sparse_for_the_budget_are_placed_by_rank(monkeypatch):
    df = binary_rows(13, "sparse")  # ids 1,000 apart: a span of 59,001 bits for 60 items
    relation = duckdb.from_df(df)
    by_id = _engine_bits._positions(relation, "task", "item", 100_000)
    by_rank = _engine_bits._positions(relation, "task", "item", 1_000)
    assert by_id is not None and by_id.length == 59_001 and "row_number" not in by_id.rows
    assert by_id.low == -30_000 and by_id.ranks is None
    assert by_rank is not None and by_rank.length == 60 and "row_number" in by_rank.rows
    assert by_rank.low is None and by_rank.ranks is not None
    monkeypatch.setattr(_engine_bits, "BITSET_BYTES", 7_500)  # 936 bits per bitset
    assert_same(engine_statistics(relation), engine_statistics(pl.from_pandas(df).lazy()))

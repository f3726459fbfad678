"""Item statistics and bootstrap replicates on Dask, by map-reduce over the partitions.

Each partition is reduced to task x model cells and item bitsets, merged by name and by
bitwise OR: no shuffle and no self-join. The counts must equal Polars' self-join integer for
integer, and the replicates Polars' grouped passes (and so the numpy hash), for any
partitioning and any order of the rows.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from test_engine_bitboot import _assert_same, _no_grouped_pass, _polars_replicates
from test_engine_bits import assert_same, binary_rows

import cdplot
from cdplot.io import (
    _engine_bitboot,
    _engine_boot,
    _engine_dask,
    _engine_stats,
    engine_bootstrap,
    engine_statistics,
)

pl = pytest.importorskip("polars")
dd = pytest.importorskip("dask.dataframe")
pytest.importorskip("narwhals")


def _no_join(*args, **kwargs):
    raise AssertionError("the self-join was made")


def _shuffled(df: pd.DataFrame, partitions: int, order: str = "shuffled"):
    """The rows in random order (every partition holds rows of every task), or in task
    order (partitions hold different tasks, some several)."""
    if order == "shuffled":
        df = df.sample(frac=1.0, random_state=3).reset_index(drop=True)
    return dd.from_pandas(df, npartitions=partitions)


def _spy_placement(monkeypatch) -> list:
    made: list = []
    place = _engine_dask._placement
    monkeypatch.setattr(_engine_dask, "_placement", lambda *a: made.append(place(*a)) or made[-1])
    return made


@pytest.mark.parametrize(("partitions", "order"), [(1, "by task"), (5, "by task"), (5, "shuffled")])
@pytest.mark.parametrize("ids", ["text", "dense", "sparse"])
def test_bitset_counts_equal_the_join(ids, partitions, order, monkeypatch):
    df = binary_rows(7, ids)  # rows dropped, scores missing, an item no model scored
    expected = engine_statistics(pl.from_pandas(df).lazy())
    monkeypatch.setattr(_engine_stats, "_pair_join", _no_join)
    if ids == "sparse":  # ids 1,000 apart: too sparse for placement by id at this budget
        monkeypatch.setattr(_engine_dask, "BITSET_BYTES", 2_000)
    made = _spy_placement(monkeypatch)
    got = engine_statistics(_shuffled(df, partitions, order))
    assert got.engine == "dask" and expected.engine == "polars"
    assert (made[0].ranked is None) == (ids == "dense")
    assert_same(got, expected)
    np.testing.assert_array_equal(got.sums, expected.sums)
    assert got.rows == expected.rows == len(df)


def test_continuous_cells_equal_the_other_engines():
    df = binary_rows(2, "dense")
    df["score"] = np.where(df["score"].isna(), np.nan, df["score"] * 0.37 + 0.11)
    expected = engine_statistics(pl.from_pandas(df).lazy())
    got = engine_statistics(_shuffled(df, 4))
    assert not got.binary.any()
    np.testing.assert_array_equal(got.n, expected.n)
    np.testing.assert_allclose(got.sums, expected.sums, rtol=1e-14)
    np.testing.assert_allclose(got.squares, expected.squares, rtol=1e-14)
    np.testing.assert_allclose(got.cross, expected.cross, rtol=1e-14)  # by the join


def test_a_model_scored_twice_on_an_item_is_refused():
    df = binary_rows(4, "dense")
    twice = pd.concat([df, df.iloc[[10]]], ignore_index=True)  # same row, another partition
    with pytest.raises(cdplot.CdplotInputError, match="two or more scores of one item"):
        engine_statistics(dd.from_pandas(twice, npartitions=3))


def test_over_the_budget_the_join_is_made_and_agrees(monkeypatch):
    df = binary_rows(6, "dense")
    expected = engine_statistics(pl.from_pandas(df).lazy())
    monkeypatch.setattr(_engine_dask, "BITSET_BYTES", 10)
    joins = []
    join = _engine_stats._pair_join
    monkeypatch.setattr(_engine_stats, "_pair_join", lambda *a: joins.append(1) or join(*a))
    got = engine_statistics(_shuffled(df, 3))
    assert joins == [1]
    assert_same(got, expected)


def test_a_name_the_first_pass_did_not_see_is_an_error():
    with pytest.raises(ValueError, match=r"the task 'z' was not there.*changed"):
        _engine_dask._codes(pd.Series(["a", "z", "a"]), ("a", "b"), "task")
    got = _engine_dask._codes(pd.Series(["b", "a", "b"]), ("a", "b"), "task")
    np.testing.assert_array_equal(got, [1, 0, 1])


@pytest.mark.parametrize("level", ["item", "hierarchical"])
@pytest.mark.parametrize("ids", ["dense", "sparse"])
def test_bitset_replicates_equal_the_grouped_passes(ids, level, monkeypatch):
    df = binary_rows(3, ids)
    expected = _polars_replicates(df, level, 70, 8)
    stats = engine_statistics(_shuffled(df, 4))
    monkeypatch.setattr(_engine_boot, "_block", _no_grouped_pass)
    if ids == "sparse":
        monkeypatch.setattr(_engine_dask, "BITSET_BYTES", 2_000)
    monkeypatch.setattr(_engine_bitboot, "WEIGHT_BYTES", 4_000)  # many chunks of replicates
    made = _spy_placement(monkeypatch)
    got = engine_bootstrap(stats, n_boot=70, seed=8, level=level)
    assert (made[0].ranked is not None) == (ids == "sparse")
    assert got.engine == "dask" and got.n_boot == 70
    _assert_same(got, expected)
    np.testing.assert_array_equal(got.task_weights, expected.task_weights)


def test_on_a_distributed_cluster_the_tasks_report_as_they_finish(capsys):
    distributed = pytest.importorskip("distributed")
    df = binary_rows(5, "dense")
    expected_stats = engine_statistics(pl.from_pandas(df).lazy())
    expected = _polars_replicates(df, "hierarchical", 12, 4)
    cluster = distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=False, dashboard_address=":0"
    )
    try:
        with distributed.Client(cluster):
            stats = engine_statistics(_shuffled(df, 6))
            got = engine_bootstrap(stats, n_boot=12, seed=4, progress=True)
    finally:
        cluster.close()
    assert "bootstrap" in capsys.readouterr().err
    assert_same(stats, expected_stats)
    _assert_same(got, expected)


@pytest.mark.parametrize(
    ("precision", "scale"),
    [(10, 3), (38, 1), (38, 30)],  # by division, by division, as text
)
def test_decimal_scores_are_the_nearest_doubles(precision, scale):
    import decimal

    pa = pytest.importorskip("pyarrow")
    rng = np.random.default_rng(precision + scale)
    digits = min(precision - 1, 17)
    written = [
        decimal.Decimal(int(v)).scaleb(-scale)
        for v in rng.integers(-(10**digits), 10**digits, 2_000)
    ] + [
        decimal.Decimal(1).scaleb(-scale) * 3,
        decimal.Decimal(10 ** (precision - 1) - 1).scaleb(-scale),
        None,
    ]
    values = pd.Series(written, dtype=pd.ArrowDtype(pa.decimal128(precision, scale)))
    got = _engine_dask._floats(values.iloc[1:])  # an offset into the Arrow buffer
    expected = [np.nan if d is None else float(d) for d in written[1:]]
    np.testing.assert_array_equal(got, expected)  # Python's correctly rounded conversion

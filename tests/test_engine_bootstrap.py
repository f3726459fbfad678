"""Hashed Poisson(1) bootstrap weights: the same replicate in every engine and partitioning.

The weight of an item in a replicate is a function of (task, item id, replicate, seed), so
pandas, Polars, DuckDB and Dask (one or four partitions) give identical replicate sums; the
numpy hash is the reference. Coverage is checked by a seeded simulation.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

import cdplot
from cdplot.io import engine_bootstrap, engine_statistics, hashed_poisson
from cdplot.io._engine_boot import unit_ids
from cdplot.stats import engine_mean_intervals, engine_rank_intervals

pl = pytest.importorskip("polars")
duckdb = pytest.importorskip("duckdb")
pytest.importorskip("narwhals")


def rows(n_tasks: int = 3, n_items: int = 30, k: int = 3, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    t = np.repeat(np.arange(n_tasks), n_items * k)
    i = np.tile(np.repeat(np.arange(n_items), k), n_tasks)
    m = np.tile(np.arange(k), n_tasks * n_items)
    return pd.DataFrame(
        {
            "task": [f"t{x}" for x in t],
            "model": [f"m{x}" for x in m],
            "item": i * 7 + 3,  # ids that are not row numbers
            "score": (rng.random(t.size) < 0.4 + 0.1 * m).astype(float),
            "passage": i // 5,
        }
    )


def test_hashed_weights_are_poisson_one_and_independent():
    ids = np.arange(200_000)
    w = hashed_poisson(ids, 0, 11)
    pmf = [math.exp(-1) / math.factorial(j) for j in range(6)]
    freq = np.bincount(w, minlength=6)[:6] / w.size
    np.testing.assert_allclose(freq, pmf, atol=0.004)  # Poisson(1) probabilities
    assert abs(w.mean() - 1) < 0.01 and abs(w.var() - 1) < 0.02
    other = hashed_poisson(ids, 1, 11)
    assert abs(np.corrcoef(w, other)[0, 1]) < 0.01  # replicates
    assert abs(np.corrcoef(w, hashed_poisson(ids, 0, 12))[0, 1]) < 0.01  # seeds
    assert abs(np.corrcoef(w[:-1], w[1:])[0, 1]) < 0.01  # neighbouring ids
    np.testing.assert_array_equal(hashed_poisson(ids[::-1], 0, 11), w[::-1])  # row order


def frames(df: pd.DataFrame) -> dict:
    import dask.dataframe as dd

    return {
        "pandas": df,
        "polars-lazy": pl.from_pandas(df).lazy(),
        "duckdb": duckdb.from_df(df),
        "dask-1": dd.from_pandas(df, npartitions=1),
        "dask-4": dd.from_pandas(df.sample(frac=1.0, random_state=2), npartitions=4),
    }


@pytest.mark.parametrize("level", ["item", "cluster"])
def test_every_engine_and_partitioning_gives_the_same_replicates(level):
    df = rows()
    got = {
        name: engine_bootstrap(
            engine_statistics(frame, cluster="passage"), n_boot=6, seed=9, level=level
        )
        for name, frame in frames(df).items()
    }
    # the numpy reference: each task's rows weighted by the hash of (unit id, task)
    unit = df["passage"] if level == "cluster" else df["item"]
    codes = df["task"].str[1:].astype(int)
    expected = np.zeros((6, 3, 3))
    for r in range(6):
        w = hashed_poisson(unit_ids(unit, codes), r, 9)
        cell = df.assign(w=w * df["score"]).groupby(["task", "model"])["w"].sum()
        expected[r] = cell.unstack().to_numpy()
    for name, boot in got.items():
        np.testing.assert_array_equal(boot.sums, expected, err_msg=name)
        np.testing.assert_array_equal(boot.weights, got["pandas"].weights, err_msg=name)
        assert boot.engine == name.split("-")[0]


def test_hierarchical_replicates_weigh_tasks_then_items():
    df = rows(n_tasks=4)
    st = engine_statistics(pl.from_pandas(df).lazy())
    hier = engine_bootstrap(st, n_boot=5, seed=4, level="hierarchical")
    items = engine_bootstrap(st, n_boot=5, seed=4, level="item")
    np.testing.assert_array_equal(hier.sums, items.sums)  # the same item weights
    for r in range(5):  # the tasks' weight: the hash of the task's index, seed + 1
        np.testing.assert_array_equal(hier.task_weights[r], hashed_poisson(np.arange(4), r, 5))
    assert (items.task_weights == 1).all()


def test_bootstrap_needs_integer_ids_and_a_seed():
    df = rows().assign(item=lambda d: "q" + d["item"].astype(str))
    st = engine_statistics(pl.from_pandas(df).lazy())
    with pytest.raises(cdplot.CdplotInputError, match="need integer ids"):
        engine_bootstrap(st, n_boot=2, level="item")
    with pytest.raises(cdplot.CdplotInputError, match="non-negative integer"):
        engine_bootstrap(st, n_boot=2, seed=None)
    with pytest.raises(cdplot.CdplotInputError, match="resamples the clusters"):
        engine_bootstrap(st, n_boot=2, level="cluster")


def test_percentile_intervals_of_the_means_cover_at_their_level():
    # 120 simulated benchmarks as the tasks of one frame, 120 items each, P(right) 0.3:
    # the item bootstrap's 90% interval of each mean covers 0.3 in about 90% of them
    rng = np.random.default_rng(20240611)
    n_tasks, n_items = 120, 120
    t = np.repeat(np.arange(n_tasks), n_items * 2)
    i = np.tile(np.repeat(np.arange(n_items), 2), n_tasks)
    m = np.tile(np.arange(2), n_tasks * n_items)
    frame = pl.LazyFrame(
        {
            "task": [f"t{x:03d}" for x in t],
            "model": [f"m{x}" for x in m],
            "item": i,
            "score": (rng.random(t.size) < 0.3).astype(float),
        }
    )
    boot = engine_bootstrap(engine_statistics(frame), n_boot=200, seed=1, level="item")
    low, high = engine_mean_intervals(boot, confidence=0.9)
    covered = ((low <= 0.3) & (high >= 0.3)).mean()
    # binomial sd of the rate over 240 intervals (correlated in pairs): about 0.02-0.03
    assert 0.83 <= covered <= 0.96, covered


def test_rank_intervals_and_p_best_from_replicates():
    df = rows(n_tasks=5, n_items=200, k=3, seed=1)
    st = engine_statistics(duckdb.from_df(df))
    boot = engine_bootstrap(st, n_boot=40, seed=2, level="hierarchical")
    ri = engine_rank_intervals(st, boot, confidence=0.9)
    frame = ri.to_frame()
    assert list(frame.index) == ["m2", "m1", "m0"]  # P(right) 0.6, 0.5, 0.4
    assert (ri.low <= ri.rank).all() and (ri.rank <= ri.high).all()
    assert ri.p_best[2] > 0.8 and ri.p_best[0] == 0.0
    with pytest.raises(cdplot.CdplotInputError, match="other statistics"):
        engine_rank_intervals(engine_statistics(duckdb.from_df(df[df.model != "m0"])), boot)

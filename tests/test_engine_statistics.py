"""Sufficient statistics computed in the frame's own engine equal the in-memory analysis.

The same small item tables (0/1 and continuous scores, missing scores, clusters) go through
pandas, Polars eager and lazy, DuckDB and Dask on a real ``distributed`` LocalCluster
(in-process workers, ``processes=False``: the tasks still go through the distributed
scheduler); PySpark runs the same tables in ``test_engine_spark.py``. The in-memory references are
cdplot's own ``item_tests`` / ``pair_statistics`` / ``compare`` on the same rows.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import cdplot
from cdplot.io import engine_statistics
from cdplot.stats import engine_item_tests, engine_pair_statistics, item_tests, pair_statistics

pl = pytest.importorskip("polars")
duckdb = pytest.importorskip("duckdb")
pytest.importorskip("narwhals")

ARRAYS = ("n", "sums", "squares", "n_items", "both", "cross", "hits", "hit_squares", "wins")


def item_rows(binary: bool, seed: int = 3, missing: int = 0) -> pd.DataFrame:
    """Tasks t1..t3, models A..D, 40 items in 6 clusters (names sorted as engines sort)."""
    rng = np.random.default_rng(seed)
    rows = []
    for t in ("t1", "t2", "t3"):
        for i in range(40):
            for j, m in enumerate("ABCD"):
                x = float(rng.random() < 0.4 + 0.1 * j) if binary else round(rng.normal(j), 3)
                rows.append((t, m, i, x, f"c{i % 6}"))
    df = pd.DataFrame(rows, columns=["task", "model", "item", "score", "passage"])
    if missing:
        df = df.drop(index=rng.choice(len(df), missing, replace=False)).reset_index(drop=True)
    return df


@pytest.fixture(scope="module")
def dask_client():
    distributed = pytest.importorskip("distributed")
    cluster = distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=False, dashboard_address=":0"
    )
    client = distributed.Client(cluster)
    yield client
    client.close()
    cluster.close()


def engines(df: pd.DataFrame, client=None) -> dict:
    import dask.dataframe as dd

    out = {
        "pandas": df,
        "polars": pl.from_pandas(df),
        "polars-lazy": pl.from_pandas(df).lazy(),
        "duckdb": duckdb.from_df(df),
    }
    if client is not None:
        out["dask"] = dd.from_pandas(df, npartitions=3)
    return out


@pytest.mark.parametrize("binary", [True, False])
def test_every_engine_gives_the_same_statistics(binary, dask_client):
    df = item_rows(binary, missing=25)
    results = {
        name: engine_statistics(frame, cluster="passage")
        for name, frame in engines(df, dask_client).items()
    }
    first = results["pandas"]
    for name, st in results.items():
        assert st.models == ("A", "B", "C", "D") and st.tasks == ("t1", "t2", "t3")
        assert st.rows == len(df) and st.seconds > 0
        for key in ARRAYS:
            if binary:  # integer counts: identical
                np.testing.assert_array_equal(getattr(st, key), getattr(first, key), err_msg=name)
            else:  # sums of floats in the engine's order: to rounding
                np.testing.assert_allclose(getattr(st, key), getattr(first, key), rtol=1e-12)
    assert {st.engine for st in results.values()} == {"pandas", "polars", "duckdb", "dask"}


def _in_memory_items(df: pd.DataFrame):
    return cdplot.io.prepare_input(df.drop(columns="passage"), item="item", missing="keep").items


def test_item_tests_of_binary_scores_are_bit_identical_in_every_engine(dask_client):
    df = item_rows(True, missing=25)
    expected = item_tests(_in_memory_items(df))
    for name, frame in engines(df, dask_client).items():
        got = engine_item_tests(engine_statistics(frame))
        pd.testing.assert_frame_equal(got, expected, check_exact=True, obj=name)


def test_item_tests_of_continuous_scores_equal_scipy_to_rounding():
    df = item_rows(False, missing=25)
    expected = item_tests(_in_memory_items(df))  # scipy.stats.ttest_rel on each pair
    got = engine_item_tests(engine_statistics(duckdb.from_df(df)))
    assert (got["test"] == expected["test"]).all()
    for column in ("n_items", "significant", "better"):
        assert (got[column] == expected[column]).all()
    for column in ("mean_1", "mean_2", "statistic", "pvalue", "adjusted_pvalue"):
        np.testing.assert_allclose(got[column], expected[column], rtol=1e-10)


def test_permutation_item_tests_need_the_rows():
    st = engine_statistics(pl.from_pandas(item_rows(False)).lazy())
    with pytest.raises(cdplot.CdplotInputError, match="needs the rows"):
        engine_item_tests(st, method="permutation")


@pytest.mark.parametrize("test", ["mcnemar", "mcnemar-asymptotic", "paired-t", "clustered-t"])
def test_one_benchmark_pairs_equal_pair_statistics(test):
    binary = test.startswith("mcnemar")
    df = item_rows(binary or test == "clustered-t")
    one = df[df.task == "t2"]
    items = cdplot.io.prepare_input(one, item="item", cluster="passage").benchmark
    expected = pair_statistics(items, test=test)
    st = engine_statistics(duckdb.from_df(one), cluster="passage")
    got = engine_pair_statistics(st, test=test)
    if test != "paired-t":  # 0/1 scores: every count, difference and interval bit-identical
        assert got == expected
    else:
        for field in ("difference", "low", "high", "se", "statistic", "pvalues"):
            np.testing.assert_allclose(
                getattr(got, field), getattr(expected, field), rtol=1e-12, atol=1e-15
            )
        np.testing.assert_array_equal(got.wins, expected.wins)


def test_continuous_wins_and_clustered_t_of_continuous_scores():
    df = item_rows(False)
    one = df[df.task == "t1"]
    items = cdplot.io.prepare_input(one, item="item", cluster="passage").benchmark
    expected = pair_statistics(items, test="clustered-t")
    got = engine_pair_statistics(engine_statistics(pl.from_pandas(one).lazy(), cluster="passage"))
    assert got.test == "clustered-t" and got.n_clusters == expected.n_clusters == 6
    np.testing.assert_array_equal(got.wins, expected.wins)
    np.testing.assert_allclose(got.pvalues, expected.pvalues, rtol=1e-10)


@pytest.mark.filterwarnings("ignore::cdplot.CdplotWarning")  # 3 tasks: Wilcoxon's floor
@pytest.mark.parametrize("engine", ["polars-lazy", "duckdb", "dask"])
def test_compare_runs_the_task_level_analysis_in_the_engine(engine, dask_client):
    df = item_rows(True).drop(columns="passage")
    expected = cdplot.compare(df, correction="holm")
    frame = engines(df, dask_client)[engine]
    got = cdplot.compare(frame, correction="holm")
    pd.testing.assert_frame_equal(got.scores, expected.scores, check_exact=True)
    pd.testing.assert_frame_equal(got.pvalues, expected.pvalues, check_exact=True)
    assert got.groups == expected.groups
    if engine != "dask":  # Dask DataFrames keep their own group-by on the cluster
        assert got._input.source_note.startswith(f"statistics computed in {engine.split('-')[0]}")


@pytest.mark.filterwarnings("ignore::cdplot.CdplotWarning")
def test_compare_of_a_lazy_frame_with_missing_scores_names_the_options():
    df = item_rows(True, missing=5).drop(columns="passage")
    with pytest.raises(cdplot.CdplotInputError, match=r"missing='keep'"):
        cdplot.compare(pl.from_pandas(df).lazy())
    kept = cdplot.compare(pl.from_pandas(df).lazy(), missing="keep")
    expected = cdplot.compare(df, missing="keep")
    np.testing.assert_allclose(kept.scores.to_numpy(), expected.scores.to_numpy(), rtol=1e-15)


def test_a_dask_frame_of_many_partitions_gives_the_same_statistics(dask_client):
    # many partitions make Dask shuffle its group-bys, a path of its own
    import dask.dataframe as dd

    df = item_rows(True, missing=25)
    expected = engine_statistics(df)
    got = engine_statistics(dd.from_pandas(df, npartitions=16))
    for key in ARRAYS:
        np.testing.assert_array_equal(getattr(got, key), getattr(expected, key), err_msg=key)

"""PySpark in local mode gives the same statistics, item tests and replicates as in memory.

One ``SparkSession`` (``local[2]``, no web UI) for the module; the tables are the ones the
other engine tests use, handed to Spark with ``createDataFrame``. Skipped when PySpark or a
Java runtime is missing (CI installs both: the test extra and ``.ci/run``).
"""

from __future__ import annotations

import shutil
import warnings

import numpy as np
import pandas as pd
import pytest
from test_engine_statistics import ARRAYS
from test_engine_statistics import item_rows as shared_item_rows

import cdplot
from cdplot.io import engine_bootstrap, engine_statistics, hashed_poisson
from cdplot.io._engine_boot import unit_ids
from cdplot.stats import engine_item_tests, item_tests

pytest.importorskip("narwhals")
pyspark_sql = pytest.importorskip("pyspark.sql")
if shutil.which("java") is None:
    pytest.skip("PySpark needs a Java runtime (java is not on PATH)", allow_module_level=True)

# PySpark 4 warns that it does not yet fully support pandas 3 when it converts a pandas
# frame; the conversions these tests make are of plain numbers and strings.
pytestmark = pytest.mark.filterwarnings("ignore:PySpark does not yet fully support pandas")


@pytest.fixture(scope="module")
def spark():
    builder = (
        pyspark_sql.SparkSession.builder.master("local[2]")
        .appName("cdplot-tests")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "4")
        .config("spark.sql.session.timeZone", "UTC")
    )
    with warnings.catch_warnings():
        # PySpark starts its JVM with fork and exec; when JAX was imported by an earlier
        # test, JAX's fork hook warns of threads, which do not matter to a child that execs
        warnings.filterwarnings("ignore", r"os\.fork\(\) was called", RuntimeWarning)
        session = builder.getOrCreate()
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


def item_rows(binary: bool, missing: int = 0) -> pd.DataFrame:
    """The other engine tests' table (tasks t1..t3, models A..D, 40 items, some scores
    missing) with integer cluster ids, which the cluster bootstrap needs."""
    df = shared_item_rows(binary, missing=missing)
    return df.assign(passage=df["passage"].str[1:].astype(int))


@pytest.mark.parametrize("binary", [True, False])
def test_spark_gives_the_statistics_of_pandas(spark, binary):
    df = item_rows(binary, missing=25)
    got = engine_statistics(spark.createDataFrame(df), cluster="passage")
    expected = engine_statistics(df, cluster="passage")
    assert got.engine == "pyspark" and expected.engine == "pandas"
    assert got.models == ("A", "B", "C", "D") and got.tasks == ("t1", "t2", "t3")
    assert got.rows == len(df)
    for key in ARRAYS:
        if binary:  # integer counts: identical
            np.testing.assert_array_equal(getattr(got, key), getattr(expected, key), key)
        else:  # float sums in the engine's order: to rounding
            np.testing.assert_allclose(getattr(got, key), getattr(expected, key), rtol=1e-12)


def test_spark_item_tests_of_binary_scores_are_bit_identical(spark):
    df = item_rows(True, missing=25)
    memory = cdplot.io.prepare_input(df.drop(columns="passage"), item="item", missing="keep")
    expected = item_tests(memory.items)  # McNemar on each pair, Holm, in memory
    got = engine_item_tests(engine_statistics(spark.createDataFrame(df)))
    pd.testing.assert_frame_equal(got, expected, check_exact=True)


@pytest.mark.parametrize("level", ["item", "cluster"])
def test_spark_replicates_equal_the_numpy_hash(spark, level):
    df = item_rows(True)
    boot = engine_bootstrap(
        engine_statistics(spark.createDataFrame(df), cluster="passage"),
        n_boot=4,
        seed=9,
        level=level,
    )
    # the reference: each task's rows weighted by the numpy hash of (unit id, task index)
    unit = df["passage"] if level == "cluster" else df["item"]
    codes = df["task"].str[1:].astype(int) - 1
    for r in range(4):
        w = hashed_poisson(unit_ids(unit, codes), r, 9)
        cell = df.assign(w=w * df["score"]).groupby(["task", "model"])["w"].sum()
        np.testing.assert_array_equal(boot.sums[r], cell.unstack().to_numpy(), err_msg=str(r))
    assert boot.engine == "pyspark"


@pytest.mark.filterwarnings("ignore::cdplot.PoolDependenceWarning")
def test_compare_takes_a_spark_frame_and_says_so(spark):
    df = item_rows(True).drop(columns="passage")
    got = cdplot.compare(spark.createDataFrame(df), item="item", test="nemenyi")
    expected = cdplot.compare(df, item="item", test="nemenyi")
    assert "statistics computed in pyspark (480 rows" in got.summary()
    pd.testing.assert_frame_equal(got.scores, expected.scores, check_exact=True)
    pd.testing.assert_frame_equal(got.to_frame(), expected.to_frame(), check_exact=True)

"""Bad lazy input: missing or wrong-typed columns, a cluster gone mid-run, no front end."""

from __future__ import annotations

import sys

import numpy as np
import pandas as pd
import pytest

import cdplot
from cdplot.io import engine_bootstrap, engine_statistics

pl = pytest.importorskip("polars")
pytest.importorskip("narwhals")


def rows() -> pd.DataFrame:
    rng = np.random.default_rng(0)
    n = 3 * 20 * 2
    return pd.DataFrame(
        {
            "task": np.repeat(["t1", "t2", "t3"], 40),
            "model": np.tile(["A", "B"], n // 2),
            "item": np.tile(np.repeat(np.arange(20), 2), 3),
            "score": (rng.random(n) < 0.5).astype(float),
        }
    )


def test_a_missing_column_is_named_with_the_columns_there():
    lazy = pl.from_pandas(rows()).lazy().drop("item")
    with pytest.raises(
        cdplot.CdplotInputError, match=r"the item column 'item' is not in the frame"
    ):
        engine_statistics(lazy)


def test_a_score_column_of_text_is_refused():
    lazy = pl.from_pandas(rows()).lazy().with_columns(pl.col("score").cast(pl.String))
    with pytest.raises(cdplot.CdplotInputError, match=r"'score' holds String, not numbers"):
        engine_statistics(lazy)


def test_a_model_scored_twice_on_an_item_is_refused():
    df = rows()
    lazy = pl.from_pandas(pd.concat([df, df.iloc[:1]])).lazy()
    with pytest.raises(cdplot.CdplotInputError, match=r"two or more scores of one item"):
        engine_statistics(lazy)


@pytest.mark.parametrize("engine", ["polars", "duckdb", "pandas"])
def test_rows_without_an_item_id_are_refused_by_count(engine):
    df = rows().astype({"item": "Int64"})
    df.loc[[4, 5, 9], "item"] = pd.NA
    frame = {
        "polars": lambda: pl.from_pandas(df).lazy(),
        "duckdb": lambda: pytest.importorskip("duckdb").from_df(df),
        "pandas": lambda: df,
    }[engine]()
    with pytest.raises(cdplot.CdplotInputError, match=r"'item' is empty in 3 row\(s\)"):
        engine_statistics(frame)


def test_an_engine_without_its_front_end_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "narwhals", None)  # import narwhals fails
    with pytest.raises(cdplot.CdplotInputError, match=r"pip install 'cdplot\[engines\]'"):
        engine_statistics(pl.from_pandas(rows()).lazy())
    with pytest.raises(cdplot.CdplotInputError, match=r"cdplot\[engines\]"):
        cdplot.compare(pl.from_pandas(rows()).lazy())


def test_a_cluster_that_goes_away_mid_run_is_a_clear_error():
    distributed = pytest.importorskip("distributed")
    import dask.dataframe as dd

    cluster = distributed.LocalCluster(
        n_workers=1, threads_per_worker=1, processes=False, dashboard_address=":0"
    )
    client = distributed.Client(cluster)
    try:
        ddf = client.persist(dd.from_pandas(rows(), npartitions=2))  # data on the workers
        stats = engine_statistics(ddf)
    finally:
        client.close()
        cluster.close()
    with pytest.raises(cdplot.CdplotInputError, match=r"engine failed while resampling.*nothing"):
        engine_bootstrap(stats, n_boot=2, level="item")


def test_progress_bars_and_the_engine_and_time_are_recorded(capsys):
    stats = engine_statistics(pl.from_pandas(rows()).lazy(), progress=True)
    engine_bootstrap(stats, n_boot=40, level="item", progress=True)
    err = capsys.readouterr().err
    assert "engine statistics" in err and "bootstrap" in err
    assert stats.engine == "polars" and stats.seconds > 0 and stats.rows == 120

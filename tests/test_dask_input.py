"""compare() on a Dask DataFrame: the grouped means run on the cluster, the numbers equal
the in-memory analysis of the same rows (0/1 item scores and one-run cells: the sums are
exact, so the means are identical to the last bit)."""

from __future__ import annotations

import dask.dataframe as dd
import distributed
import numpy as np
import pandas as pd
import pytest

import cdplot
from cdplot import CdplotInputError


@pytest.fixture(scope="module")
def client():
    cluster = distributed.LocalCluster(
        processes=False, n_workers=1, threads_per_worker=1, dashboard_address=":0"
    )
    with distributed.Client(cluster) as c:
        yield c
    cluster.close()


def _items(seed=2) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    rows = []
    for t in range(8):
        for m, model in enumerate(["m1", "m2", "m3", "m4"]):
            hits = rng.random(50) < 0.4 + 0.1 * m
            rows += [(f"task{t}", model, i, float(h)) for i, h in enumerate(hits)]
    return pd.DataFrame(rows, columns=["task", "model", "doc_id", "acc"])


def _same(a, b) -> None:
    names = sorted(a.algorithms)
    assert a.scores.loc[sorted(a.datasets), names].equals(b.scores.loc[sorted(a.datasets), names])
    assert a.average_ranks.to_dict() == b.average_ranks.to_dict()
    assert a.pvalues.loc[names, names].equals(b.pvalues.loc[names, names])
    assert a.adjusted_pvalues.loc[names, names].equals(b.adjusted_pvalues.loc[names, names])
    assert a.friedman.statistic == b.friedman.statistic


def test_dask_item_rows_equal_the_in_memory_result(client):
    rows = _items()
    ddf = dd.from_pandas(rows, npartitions=4)
    on_cluster = cdplot.compare(ddf)
    in_memory = cdplot.compare(rows)
    _same(on_cluster, in_memory)
    assert on_cluster.input_notes[0] == "aggregated a Dask DataFrame on its cluster (1,600 rows)"
    assert on_cluster.aggregation.describe() == "scores are means over 50 doc_ids"
    assert on_cluster.items is None


def test_dask_one_row_per_cell(client):
    rows = _items().groupby(["task", "model"], as_index=False)["acc"].mean()
    _same(cdplot.compare(dd.from_pandas(rows, npartitions=3)), cdplot.compare(rows))


def test_dask_median_is_refused(client):
    ddf = dd.from_pandas(_items(), npartitions=2)
    with pytest.raises(CdplotInputError, match=r"aggregated on the cluster by its mean"):
        cdplot.compare(ddf, aggregate="median")

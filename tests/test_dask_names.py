"""A Dask DataFrame is read as the same table in pandas is: rows without a dataset or an
algorithm name are refused, not left out by the cluster's group-by (which drops missing
keys by default). Dask's local scheduler is enough: no ``distributed`` cluster is started."""

from __future__ import annotations

import dask.dataframe as dd
import numpy as np
import pandas as pd
import pytest

import cdplot
from cdplot import CdplotInputError


def _rows() -> pd.DataFrame:
    rows = [
        (f"d{d}", model, 0.5 + 0.1 * m + 0.01 * d)
        for d in range(8)
        for m, model in enumerate(["A", "B", "C"])
    ]
    return pd.DataFrame(rows, columns=["dataset", "algorithm", "acc"])


@pytest.mark.parametrize(
    ("column", "what"), [("dataset", "a dataset"), ("algorithm", "an algorithm")]
)
def test_a_row_without_a_name_is_refused_as_in_pandas(column, what):
    rows = _rows()
    rows[column] = rows[column].astype(object)
    rows.loc[[4, 7], column] = None
    with pytest.raises(
        CdplotInputError, match=rf"the {column} column '{column}' is empty in row 4"
    ):
        cdplot.compare(rows)
    with pytest.raises(
        CdplotInputError,
        match=rf"the {column} column '{column}' of the Dask DataFrame is empty in 2 rows; "
        rf"every row needs {what} name .*ddf.dropna\(subset=\['{column}'\]\)",
    ):
        cdplot.compare(dd.from_pandas(rows, npartitions=2))


def test_a_row_without_a_name_is_refused_with_aggregate_too():
    rows = pd.concat([_rows(), _rows()], ignore_index=True)
    rows.loc[3, "algorithm"] = np.nan
    with pytest.raises(CdplotInputError, match=r"of the Dask DataFrame is empty in 1 row;"):
        cdplot.compare(dd.from_pandas(rows, npartitions=3), aggregate="mean")


def test_named_rows_are_compared_as_in_pandas():
    rows = _rows()
    on_dask = cdplot.compare(dd.from_pandas(rows, npartitions=2))
    in_memory = cdplot.compare(rows)
    assert on_dask.average_ranks.to_dict() == in_memory.average_ranks.to_dict()
    assert on_dask.scores.loc[in_memory.datasets, in_memory.algorithms].equals(in_memory.scores)

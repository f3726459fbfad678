"""A DuckDB relation passed to compare() is run into a data frame (DuckDB's own ``df()``)
and compared as the same rows in pandas are; an object with columns that no converter
knows is refused, naming its type and what to pass."""

from __future__ import annotations

import duckdb
import pandas as pd
import pytest

import cdplot
from cdplot import CdplotInputError


def _rows() -> pd.DataFrame:
    rows = [
        (f"d{d}", model, 0.5 + 0.1 * m + 0.01 * ((d * (m + 1)) % 7))
        for d in range(8)
        for m, model in enumerate(["A", "B", "C"])
    ]
    return pd.DataFrame(rows, columns=["dataset", "algorithm", "acc"])


def test_a_duckdb_relation_is_compared_as_its_rows_in_pandas():
    rows = _rows()
    con = duckdb.connect()
    con.register("rows", rows)
    relation = con.sql("select * from rows")
    res = cdplot.compare(relation, test="sign")
    want = cdplot.compare(rows, test="sign")
    assert res == want
    aggregated = con.sql("select dataset, algorithm, acc, 1 as fold from rows")
    assert cdplot.compare(aggregated, aggregate="mean", test="sign").scores.equals(want.scores)


def test_an_object_with_columns_but_no_converter_is_refused():
    class Columns:
        columns = ["dataset", "algorithm", "acc"]

    with pytest.raises(
        CdplotInputError, match=r"cannot read a .*Columns as a table; pass a pandas or polars"
    ):
        cdplot.compare(Columns())

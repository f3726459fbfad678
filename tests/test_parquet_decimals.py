"""Decimal scores in item-level Parquet (DuckDB writes ``1.0`` as ``DECIMAL(2,1)``).

The compact reader reads them as the nearest doubles, the numbers ``float(Decimal)`` gives
(the reference here: Python's correctly rounded conversion of each written decimal), instead
of one Python ``Decimal`` per row through the general reader; both readers agree.
"""

from __future__ import annotations

import decimal

import numpy as np
import pytest

import cdplot
from cdplot.io import _parquet_compact

pl = pytest.importorskip("polars")


def _rows(binary: bool) -> tuple[dict, list[decimal.Decimal]]:
    rng = np.random.default_rng(4)
    tasks, models, items = 8, 4, 40
    n = tasks * models * items
    if binary:
        written = [
            decimal.Decimal("1.0") if v else decimal.Decimal("0.0") for v in rng.random(n) < 0.6
        ]
    else:  # three decimals: many have no exact double (0.3, 2.675, ...)
        written = [decimal.Decimal(int(v)).scaleb(-3) for v in rng.integers(0, 5_000, n)]
    columns = {
        "task": np.repeat([f"t{t}" for t in range(tasks)], models * items).tolist(),
        "model": np.tile(np.repeat([f"m{m}" for m in range(models)], items), tasks).tolist(),
        "doc_id": np.tile(np.arange(items), models * tasks).tolist(),
    }
    return columns, written


@pytest.mark.parametrize("binary", [True, False])
def test_decimal_scores_are_read_compactly_as_the_nearest_doubles(binary, tmp_path, monkeypatch):
    columns, written = _rows(binary)
    scale = 1 if binary else 3
    decimals = tmp_path / "decimals.parquet"
    pl.DataFrame({**columns, "acc": pl.Series(written, dtype=pl.Decimal(10, scale))}).write_parquet(
        decimals
    )
    floats = tmp_path / "floats.parquet"
    pl.DataFrame({**columns, "acc": [float(d) for d in written]}).write_parquet(floats)

    compact = _parquet_compact.read_item_parquet([decimals], "doc_id")
    assert compact["acc"].dtype == (np.uint8 if binary else np.float64)  # not Decimal objects
    got = cdplot.compare(decimals)
    expected = cdplot.compare(floats)
    np.testing.assert_array_equal(got.scores.to_numpy(), expected.scores.to_numpy())
    for task in expected.items.tasks:
        np.testing.assert_array_equal(
            got.items.frame(task).to_numpy(), expected.items.frame(task).to_numpy()
        )
    monkeypatch.setattr(_parquet_compact, "read_item_parquet", lambda *a: None)
    general = cdplot.compare(decimals)  # the general reader: one Decimal per row
    np.testing.assert_array_equal(general.scores.to_numpy(), expected.scores.to_numpy())

"""Adding a model to engine statistics costs its pairs only and equals a fresh computation."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import cdplot
from cdplot.io import _engine_stats, engine_statistics

pl = pytest.importorskip("polars")
duckdb = pytest.importorskip("duckdb")
pytest.importorskip("narwhals")

FIELDS = ("n", "sums", "squares", "n_items", "binary", "both", "cross", "hits", "hit_squares")


def board(binary: bool) -> pd.DataFrame:
    rng = np.random.default_rng(5)
    rows = [
        (t, m, i, float(rng.random() < 0.5) if binary else rng.normal())
        for t in ("t1", "t2")
        for i in range(25)
        for m in ("A", "B", "C", "D")
    ]
    return pd.DataFrame(rows, columns=["task", "model", "item", "score"])


@pytest.mark.parametrize("binary", [True, False])
def test_extend_equals_a_fresh_computation(binary, monkeypatch):
    df = board(binary)
    old, new = df[df.model != "B"], df[df.model == "B"]
    before = engine_statistics(duckdb.from_df(old))
    seen = []
    original = _engine_stats._pair_join

    def spy(left, right, cols, continuous):
        out = original(left, right, cols, continuous)
        pairs = zip(out.get_column("_m").to_list(), out.get_column("_n").to_list(), strict=True)
        seen.extend(pairs)
        return out

    monkeypatch.setattr(_engine_stats, "_pair_join", spy)
    grown = before.extend(duckdb.from_df(new))
    assert grown.models == ("A", "B", "C", "D")
    assert seen and all("B" in pair for pair in seen)  # only the pairs of the new model "B"
    monkeypatch.undo()
    fresh = engine_statistics(duckdb.from_df(df))
    for field in (*FIELDS, "wins"):
        if binary:  # integer counts: identical
            np.testing.assert_array_equal(getattr(grown, field), getattr(fresh, field), field)
        else:  # float sums in the join's order: to rounding
            np.testing.assert_allclose(getattr(grown, field), getattr(fresh, field), rtol=1e-13)


def test_extend_refuses_a_model_already_there():
    df = board(True)
    st = engine_statistics(pl.from_pandas(df).lazy())
    with pytest.raises(cdplot.CdplotInputError, match=r"'A' are already in the statistics"):
        st.extend(pl.from_pandas(df[df.model == "A"]).lazy())

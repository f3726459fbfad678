"""A column of scores with a blank name ('' or ' ') is an algorithm with a blank name:
compared, with a warning naming the column; a blank-named column of distinct whole numbers
(a row counter, as pandas writes its index) is still refused as a row identifier."""

from __future__ import annotations

import io

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import cdplot
from cdplot import CdplotInputError

SCORES = np.array(  # 6 datasets x 3 algorithms, no ties within a dataset
    [
        [0.1, 0.2, 0.3],
        [0.5, 0.4, 0.2],
        [0.3, 0.35, 0.1],
        [0.9, 0.8, 0.7],
        [0.2, 0.1, 0.6],
        [0.4, 0.5, 0.3],
    ]
)
DATASETS = [f"d{i}" for i in range(6)]


@pytest.mark.parametrize("blank", ["", " "])
def test_a_blank_named_column_of_scores_is_compared_with_a_warning(blank):
    frame = pd.DataFrame(SCORES, index=DATASETS, columns=["A", blank, "B"])
    with pytest.warns(
        cdplot.CdplotWarning,
        match=rf"the scores in column '{blank}' are compared as an algorithm with a blank name",
    ):
        res = cdplot.compare(frame, test="sign", correction="none")
    assert res.algorithms == ["A", blank, "B"]
    # average ranks: scipy.stats.rankdata of each row, higher is better
    ranks = np.vstack([stats.rankdata(-row) for row in SCORES]).mean(axis=0)
    np.testing.assert_allclose(res.average_ranks[["A", blank, "B"]].to_numpy(), ranks)


def test_a_blank_header_in_a_file_is_compared_with_a_warning():
    lines = [
        "dataset,A,,B",
        *(f"{d},{a},{b},{c}" for d, (a, b, c) in zip(DATASETS, SCORES, strict=True)),
    ]
    with pytest.warns(cdplot.CdplotWarning, match=r"column '' are compared as an algorithm"):
        res = cdplot.compare(io.StringIO("\n".join(lines) + "\n"), test="sign")
    assert res.algorithms == ["A", "", "B"]


def test_a_blank_named_row_counter_is_still_refused():
    frame = pd.DataFrame(SCORES, index=DATASETS, columns=["A", "B", "C"])
    frame.insert(1, "", range(6))
    with pytest.raises(CdplotInputError, match=r"column '' looks like a row identifier"):
        cdplot.compare(frame)

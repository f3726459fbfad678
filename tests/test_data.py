"""Input parsing (cdplot.io via compare): every accepted form and every rejected input.

Consistency only (no external reference): all input forms give the same analysis, and each
bad input raises a CdplotInputError (a ValueError) whose message is pinned here.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import cdplot
from cdplot import CdplotInputError


@pytest.fixture
def wide() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "A": [0.9, 0.8, 0.7, 0.6, 0.91, 0.75, 0.66, 0.8],
            "B": [0.85, 0.82, 0.6, 0.5, 0.93, 0.7, 0.7, 0.71],
            "C": [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8],
        },
        index=pd.Index([f"d{i}" for i in range(1, 9)], name="dataset"),
    )


def to_long(frame: pd.DataFrame) -> pd.DataFrame:
    return frame.reset_index().melt(id_vars="dataset", var_name="method", value_name="acc")


def test_all_input_forms_agree(wide, tmp_path):
    ref = cdplot.compare(wide)
    long = to_long(wide)
    forms = {
        "long": cdplot.compare(long, dataset="dataset", algorithm="method", score="acc"),
        "array": cdplot.compare(
            wide.to_numpy(), algorithm=list(wide.columns), dataset=list(wide.index)
        ),
    }
    wide.to_csv(tmp_path / "wide.csv")
    forms["wide csv"] = cdplot.compare(tmp_path / "wide.csv")
    long.to_csv(tmp_path / "long.csv", index=False)
    forms["long csv"] = cdplot.compare(
        str(tmp_path / "long.csv"), dataset="dataset", algorithm="method", score="acc"
    )
    wide.to_csv(tmp_path / "wide.tsv", sep="\t")
    forms["tsv"] = cdplot.compare(tmp_path / "wide.tsv")
    auto = long.rename(columns={"method": "Algorithm", "acc": "score"})
    forms["long auto"] = cdplot.compare(auto)
    for name, res in forms.items():
        assert res.algorithms == ["A", "B", "C"], name
        assert res.datasets == [f"d{i}" for i in range(1, 9)], name
        pd.testing.assert_series_equal(res.average_ranks, ref.average_ranks, obj=name)
        np.testing.assert_array_equal(res.pvalues.to_numpy(), ref.pvalues.to_numpy())


def test_array_default_names():
    res = cdplot.compare(np.arange(18.0).reshape(6, 3) % 5)
    assert res.algorithms == ["A1", "A2", "A3"]
    assert res.datasets == ["D1", "D2", "D3", "D4", "D5", "D6"]


def test_lower_is_better_reverses_ranks(wide):
    hi = cdplot.compare(wide)
    lo = cdplot.compare(-wide, higher_is_better=False)
    pd.testing.assert_frame_equal(hi.ranks, lo.ranks)
    errors = cdplot.compare(1 - wide, higher_is_better=False)
    assert errors.average_ranks.index[0] == "A"
    assert errors.ranks.loc["d1", "A"] == 1.0


@pytest.mark.parametrize(
    ("mutate", "match"),
    [
        (
            lambda w: w.assign(B=[0.1, np.nan, 0.2, 0.3, 0.1, 0.1, 0.1, 0.1]),
            r"missing score \(NaN or absent\) for algorithm 'B' on dataset 'd2'.*missing='drop'",
        ),
        (
            lambda w: w.assign(C=[0.1, 0.2, np.inf, 0.3, 0.1, 0.1, 0.1, 0.1]),
            r"infinite score \(inf\) for algorithm 'C' on dataset 'd3'",
        ),
        (
            lambda w: w.assign(C=[0.1, 0.2, "x", 0.3, 1, 1, 1, 1]),
            r"non-numeric score 'x' in column 'C' \(dataset 'd3'\): it is not a number\. "
            r"If this column names the datasets, pass dataset='C'",
        ),
        (
            lambda w: w.assign(C=["0.1", "0.2", "x", "0.3", "1", "1", "1", "1"]),
            r"non-numeric score '0.1' in column 'C' \(dataset 'd1'\): it is text, not a "
            r"number; convert the column first \(df\['C'\] = pd.to_numeric\(df\['C'\]\)\)",
        ),
        (
            lambda w: w.assign(C=[True, False] * 4),
            r"column 'C' holds booleans, not scores; scores must be real numbers",
        ),
        (lambda w: w[["A"]], r"need at least 2 algorithms to compare, got 1 \('A'\)"),
        (lambda w: w.iloc[:1], r"need at least 2 datasets \(rows\) to compare algorithms, got 1"),
        (
            lambda w: w.set_axis(["A", "B", "A"], axis=1),
            r"duplicate column name\(s\): 'A'; every column needs a unique name",
        ),
        (
            lambda w: w.set_axis(["d1", "d1"] + [f"d{i}" for i in range(3, 9)], axis=0),
            r"duplicate dataset name\(s\): 'd1'",
        ),
        (
            lambda w: w.reset_index().set_axis(["name", "A", "B", "C"], axis=1).set_index("A"),
            r"cannot tell the roles of the columns 'name', 'B', 'C': column 'name' holds text, "
            r"so this is not a wide table",
        ),
    ],
)
def test_bad_wide_input(wide, mutate, match):
    with pytest.raises(CdplotInputError, match=match):
        cdplot.compare(mutate(wide))


def test_errors_are_value_errors(wide):
    with pytest.raises(ValueError):
        cdplot.compare(wide[["A"]])


def test_missing_drop_warns_and_names_datasets(wide):
    data = wide.copy()
    data.loc["d2", "B"] = np.nan
    data.loc["d4", "C"] = np.nan
    with pytest.warns(
        cdplot.CdplotWarning, match=r"dropped 2 dataset\(s\) with missing results: 'd2', 'd4'"
    ):
        res = cdplot.compare(data, missing="drop")
    assert res.datasets == ["d1", "d3", "d5", "d6", "d7", "d8"]
    with pytest.raises(CdplotInputError, match="'ignore' is not a valid value for missing"):
        cdplot.compare(data, missing="ignore")


def test_missing_drop_too_few_left(wide):
    data = wide.assign(B=[np.nan] * 7 + [0.3])
    with (
        pytest.warns(cdplot.CdplotWarning),
        pytest.raises(CdplotInputError, match="got 1 after dropping those with missing results"),
    ):
        cdplot.compare(data, missing="drop")


def test_long_duplicates_and_missing_cells(wide):
    long = to_long(wide)
    dup = pd.concat([long, long.iloc[[8]]])
    with pytest.raises(
        CdplotInputError,
        match=r"duplicate results: algorithm 'B' on dataset 'd1' appears more than once",
    ):
        cdplot.compare(dup, dataset="dataset", algorithm="method", score="acc")
    absent = long.drop(index=9)  # B on d2
    with pytest.raises(CdplotInputError, match="for algorithm 'B' on dataset 'd2'"):
        cdplot.compare(absent, dataset="dataset", algorithm="method", score="acc")
    bad = long.assign(acc=long["acc"].astype(object))
    bad.loc[2, "acc"] = "n/a"
    with pytest.raises(
        CdplotInputError,
        match=r"non-numeric score 'n/a' in column 'acc' \(algorithm 'A' on dataset 'd3'\): it is "
        r"not a number\.$",
    ):
        cdplot.compare(bad, dataset="dataset", algorithm="method", score="acc")


def test_long_column_errors(wide):
    long = to_long(wide)
    two = long.assign(f1=long["acc"] / 2)
    with pytest.raises(
        CdplotInputError,
        match=r"several columns could hold the scores: 'acc', 'f1'; pass score='acc' to compare "
        r"on one of them, or compare each with cdplot.compare_metrics\(data, "
        r"metrics=\{'acc': 'higher', \.\.\.\}\)",
    ):
        cdplot.compare(two, dataset="dataset", algorithm="method")
    with pytest.raises(
        CdplotInputError,
        match=r"column 'Acc' \(given as score=\) is not in the table; its columns are "
        r"'dataset', 'method', 'acc'\. Did you mean 'acc'\?",
    ):
        cdplot.compare(long, dataset="dataset", algorithm="method", score="Acc")


def test_file_errors(tmp_path):
    with pytest.raises(CdplotInputError, match="cannot read results file"):
        cdplot.compare(tmp_path / "nope.csv")
    (tmp_path / "empty.csv").write_text("")
    with pytest.raises(CdplotInputError, match="is empty"):
        cdplot.compare(tmp_path / "empty.csv")
    (tmp_path / "one.csv").write_text("a b c\n1 2 3\n")
    with pytest.raises(CdplotInputError, match="cannot find a delimiter"):
        cdplot.compare(tmp_path / "one.csv")


def test_array_errors():
    with pytest.raises(CdplotInputError, match="must be 2-D"):
        cdplot.compare(np.arange(5.0))
    with pytest.raises(CdplotInputError, match="got 2 algorithm names for an array with 3 columns"):
        cdplot.compare(np.ones((3, 3)), algorithm=["a", "b"])
    with pytest.raises(CdplotInputError, match="pass a DataFrame with one column per algorithm"):
        cdplot.compare(pd.Series([1.0, 2.0]))


def test_option_errors(wide):
    with pytest.raises(
        CdplotInputError,
        match=r"'dunnett' is not a valid value for test; supported values are 'wilcoxon', "
        r"'sign', 'mean-ranks', 'nemenyi', 'aligned-ranks', 'quade', 'exact-rank-sum', "
        r"'paired-t', 'tukey'",
    ):
        cdplot.compare(wide, test="dunnett")
    with pytest.raises(
        CdplotInputError,
        match=r"'bh-fdr' is not a valid value for correction in all-pairs comparisons; "
        r"supported values are 'none', 'bonferroni', 'holm'",
    ):
        cdplot.compare(wide, correction="bh-fdr")
    with pytest.raises(CdplotInputError, match=r"'li' applies to comparisons with a control"):
        cdplot.compare(wide, correction="li")
    with pytest.raises(CdplotInputError, match=r"'shaffer' applies to all-pairs comparisons"):
        cdplot.compare(wide, correction="shaffer", control="A")
    with pytest.raises(
        CdplotInputError, match=r"unknown control algorithm 'Z'; the algorithms are 'A', 'B', 'C'"
    ):
        cdplot.compare(wide, control="Z")
    with pytest.raises(
        CdplotInputError, match=r"unknown option\(s\) 'zero_method' for test='sign'"
    ):
        cdplot.compare(wide, test="sign", zero_method="pratt")
    with pytest.raises(CdplotInputError, match="'half' is not a valid value for zero_method"):
        cdplot.compare(wide, zero_method="half")
    with pytest.raises(CdplotInputError, match="'keep' is not a valid value for ties"):
        cdplot.compare(wide, test="sign", ties="keep")
    with pytest.raises(CdplotInputError, match=r"alpha must be in \(0, 1\), got 5"):
        cdplot.compare(wide, alpha=5)
    with pytest.raises(CdplotInputError, match="carries its own single-step adjustment"):
        cdplot.compare(wide, test="nemenyi", correction="shaffer")
    with pytest.raises(CdplotInputError, match="test='nemenyi' compares all pairs"):
        cdplot.compare(wide, test="nemenyi", control="A")


def test_aliases(wide):
    a = cdplot.compare(wide, correction="Bergmann")
    b = cdplot.compare(wide, correction="bergmann-hommel")
    assert a.correction == b.correction == "bergmann-hommel"
    c = cdplot.compare(wide, control="A", correction="bonferroni")
    assert c.correction == "bonferroni-dunn"


def test_too_few_datasets_for_significance_warns(wide):
    with pytest.warns(
        cdplot.CdplotWarning,
        match=r"with 4 datasets the wilcoxon test cannot reach p <= 0.05 .*at least 6 datasets",
    ):
        cdplot.compare(wide.iloc[:4], test="wilcoxon", alpha=0.05)

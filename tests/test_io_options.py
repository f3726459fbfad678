"""compare()'s input options: strict booleans, names with suggestions, labels, missing=.

Consistency only; every refusal's message is pinned.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import cdplot
from cdplot import CdplotInputError
from cdplot._errors import check_bool


@pytest.fixture
def wide() -> pd.DataFrame:
    rng = np.random.default_rng(3)
    return pd.DataFrame(
        rng.random((8, 3)),
        index=pd.Index([f"d{i}" for i in range(8)], name="dataset"),
        columns=["LogReg", "SVM", "RandomForest (500 trees)"],
    )


@pytest.mark.parametrize("option", ["higher_is_better", "tie_correction"])
@pytest.mark.parametrize("value", ["False", "True", 0, 1, None, np.array([True]), pd.NA])
def test_boolean_options_must_be_bools(wide, option, value):
    if option == "higher_is_better" and value is None:
        pytest.skip("higher_is_better=None means 'not given' (the default)")
    shown = repr(value) if isinstance(value, (str, int)) else type(value).__name__
    with pytest.raises(
        CdplotInputError,
        match=rf"^{option} must be True or False, got {shown}; pass a bool, e\.g\. "
        rf"{option}=False, not a string or a number\.$",
    ):
        cdplot.compare(wide, **{option: value})


def test_numpy_bools_are_bools(wide):
    a = cdplot.compare(wide, higher_is_better=np.False_, tie_correction=np.True_)
    b = cdplot.compare(wide, higher_is_better=False, tie_correction=True)
    pd.testing.assert_series_equal(a.average_ranks, b.average_ranks)
    assert a.higher_is_better is False
    assert check_bool(np.bool_(True), "x") is True


def test_test_option_booleans(wide):
    with pytest.raises(CdplotInputError, match=r"^continuity must be True or False, got 'yes'"):
        cdplot.compare(wide, continuity="yes")
    with pytest.raises(CdplotInputError, match=r"^exact must be True or False, got 'False'"):
        cdplot.compare(wide, exact="False")
    cdplot.compare(wide, exact=None, continuity=np.False_)


def test_friedman_is_not_a_pairwise_test(wide):
    with pytest.raises(
        CdplotInputError,
        match=r"^'Friedman' is not a valid value for test: the Friedman test is an omnibus test "
        r"\(omnibus='friedman', the default; res\.omnibus\), not a pairwise post-hoc test; for "
        r"the post-hoc test on Friedman's average ranks pass test='mean-ranks' \(or "
        r"test='nemenyi'\)\.$",
    ):
        cdplot.compare(wide, test="Friedman")


def test_alpha_values(wide):
    for bad, shown in ((np.array([0.05]), "ndarray"), (pd.NA, "NAType"), ("0.05", "'0.05'")):
        with pytest.raises(
            CdplotInputError,
            match=rf"^alpha must be a number in \(0, 1\), got {shown}; e\.g\. alpha=0\.05\.$",
        ):
            cdplot.compare(wide, alpha=bad)
    with pytest.raises(CdplotInputError, match=r"^alpha must be a number in \(0, 1\), got True"):
        cdplot.compare(wide, alpha=True)
    assert cdplot.compare(wide, alpha=np.float32(0.1)).alpha == pytest.approx(0.1)


def test_control_names_suggested(wide):
    with pytest.raises(
        CdplotInputError,
        match=r"^unknown control algorithm 'logreg'; the algorithms are 'LogReg', 'SVM', "
        r"'RandomForest \(500 trees\)'\. Did you mean 'LogReg'\?$",
    ):
        cdplot.compare(wide, control="logreg")
    with pytest.raises(
        CdplotInputError,
        match=r"^control must be the name of an algorithm \(a string\), got ndarray",
    ):
        cdplot.compare(wide, control=np.array(["SVM"]))


def test_labels(wide):
    res = cdplot.compare(wide, labels={"RandomForest (500 trees)": "RF"})
    assert res.labels == {"RandomForest (500 trees)": "RF"}
    assert res.algorithms == list(wide.columns)  # the data keeps its names
    assert res.label("RandomForest (500 trees)") == "RF" and res.label("SVM") == "SVM"
    with pytest.raises(
        CdplotInputError,
        match=r"^unknown algorithm 'Logreg' in labels; the algorithms are 'LogReg', 'SVM', "
        r"'RandomForest \(500 trees\)'\. Did you mean 'LogReg'\?$",
    ):
        cdplot.compare(wide, labels={"Logreg": "LR"})
    with pytest.raises(
        CdplotInputError,
        match=r"^algorithms 'LogReg' and 'SVM' would both be shown as 'M'; give every "
        r"algorithm its own label\.$",
    ):
        cdplot.compare(wide, labels={"LogReg": "M", "SVM": "M"})
    with pytest.raises(
        CdplotInputError,
        match=r"^algorithms 'LogReg' and 'SVM' would both be shown as 'SVM'",
    ):
        cdplot.compare(wide, labels={"LogReg": "SVM"})
    with pytest.raises(CdplotInputError, match=r"^the label of 'SVM' must be a non-empty string"):
        cdplot.compare(wide, labels={"SVM": ""})
    with pytest.raises(CdplotInputError, match=r"^labels must be a mapping of algorithm name"):
        cdplot.compare(wide, labels=["RF"])


def test_missing_options(wide):
    data = wide.copy()
    data.loc["d1", "SVM"] = np.nan
    with pytest.raises(
        CdplotInputError,
        match=r"^missing score \(NaN or absent\) for algorithm 'SVM' on dataset 'd1'; fill it "
        r"in, pass missing='keep' to analyse the incomplete table \(Skillings-Mack test\), "
        r"missing='drop' to drop the incomplete datasets or missing='drop-algorithms' to drop "
        r"the algorithms with missing results\.$",
    ):
        cdplot.compare(data)
    with pytest.warns(
        cdplot.CdplotWarning, match=r"^dropped 1 algorithm\(s\) with missing results: 'SVM'$"
    ):
        res = cdplot.compare(data, missing="drop-algorithms", labels={"SVM": "S"})
    assert res.algorithms == ["LogReg", "RandomForest (500 trees)"]
    assert res.dropped_algorithms == ("SVM",) and res.dropped_datasets == ()
    assert res.labels == {}
    assert res.input_notes == ("dropped 1 algorithm with missing results: SVM",)
    ref = cdplot.compare(wide.drop(columns="SVM"))
    pd.testing.assert_series_equal(res.average_ranks, ref.average_ranks)
    with pytest.warns(cdplot.CdplotWarning):
        res = cdplot.compare(data, missing="drop")
    assert res.dropped_datasets == ("d1",)
    assert res.input_notes == ("dropped 1 dataset with missing results: d1",)
    with pytest.raises(
        CdplotInputError,
        match=r"^'ignore' is not a valid value for missing; supported values are 'raise', "
        r"'drop', 'drop-algorithms', 'keep'\.$",
    ):
        cdplot.compare(data, missing="ignore")


def test_score_values_must_be_real_numbers(wide):
    from decimal import Decimal
    from fractions import Fraction

    exotic = wide.astype(object)
    exotic["LogReg"] = [Decimal(str(v)) for v in wide["LogReg"]]
    exotic["SVM"] = [Fraction(v) for v in wide["SVM"]]
    a, b = cdplot.compare(exotic), cdplot.compare(wide)
    pd.testing.assert_series_equal(a.average_ranks, b.average_ranks)
    bad = {
        "complex": (wide["SVM"] + 1j, r"column 'SVM' holds complex numbers, not scores"),
        "timedelta": (
            pd.to_timedelta(wide["SVM"], unit="s"),
            r"column 'SVM' holds timedelta64\[ns\] values \(dates or durations\), not scores",
        ),
        "object bools": (
            pd.Series([True, False] * 4, index=wide.index, dtype=object),
            r"non-numeric score True in column 'SVM' \(dataset 'd0'\): it is a boolean\.",
        ),
        "huge int": (
            pd.Series([10**400] + [1] * 7, index=wide.index, dtype=object),
            r"in column 'SVM' \(dataset 'd0'\): it cannot be represented as a float\.",
        ),
        "list": (
            pd.Series([[1]] + [1] * 7, index=wide.index, dtype=object),
            r"non-numeric score \[1\] in column 'SVM' \(dataset 'd0'\): it is a list, not a real",
        ),
    }
    for name, (column, match) in bad.items():
        with pytest.raises(CdplotInputError, match=match):
            cdplot.compare(wide.assign(SVM=column))
        assert name


def test_nullable_and_masked_values(wide):
    nullable = wide.astype("Float64")
    nullable.loc["d2", "SVM"] = pd.NA
    with pytest.raises(CdplotInputError, match=r"for algorithm 'SVM' on dataset 'd2'"):
        cdplot.compare(nullable)
    masked = np.ma.masked_array(wide.to_numpy(), mask=wide.to_numpy() > 0.9)
    with pytest.raises(CdplotInputError, match=r"^missing score \(NaN or absent\)"):
        cdplot.compare(masked)


OPTION_VALUES = [
    np.array([1]),
    np.array(["holm"]),
    pd.NA,
    "False",
    1.5,
    float("nan"),
    [1],
    object(),
]
OPTIONS = [
    "dataset",
    "algorithm",
    "score",
    "higher_is_better",
    "test",
    "correction",
    "alpha",
    "control",
    "missing",
    "tie_correction",
    "aggregate",
    "decimals",
    "labels",
    "zero_method",
    "exact",
    "continuity",
    "ties",
]


@pytest.mark.parametrize("option", OPTIONS)
def test_odd_option_values_raise_only_input_errors(wide, option):
    for value in OPTION_VALUES:
        kwargs = {option: value, "test": "sign"} if option == "ties" else {option: value}
        with pytest.raises(CdplotInputError):
            cdplot.compare(wide, **kwargs)


@pytest.mark.parametrize("form", ["wide", "long", "array", "runs"])
def test_warnings_point_at_the_callers_line(wide, form):
    data = wide.copy()
    data.loc["d1", "SVM"] = np.nan
    if form == "long":
        data = data.reset_index().melt(id_vars="dataset", var_name="model", value_name="acc")
    elif form == "array":
        data = data.to_numpy()
    elif form == "runs":
        long = data.reset_index().melt(id_vars="dataset", var_name="model", value_name="acc")
        data = pd.concat([long.assign(fold=f) for f in range(2)])
    options = {"aggregate": "mean"} if form == "runs" else {}
    with pytest.warns(cdplot.CdplotWarning, match="dropped 1 dataset") as caught:
        cdplot.compare(data, missing="drop", **options)
    assert {w.filename for w in caught if "dropped" in str(w.message)} == {__file__}

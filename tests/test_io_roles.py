"""Column roles by name (cdplot.io._roles): any order, synonyms, and pinned refusals.

Consistency only: each reading is compared with the same table handed over as a plain
wide DataFrame.
"""

from __future__ import annotations

import itertools
import warnings

import numpy as np
import pandas as pd
import pytest

import cdplot
from cdplot import CdplotInputError
from cdplot._errors import cli_spelling
from cdplot.io import ALGORITHM_NAMES, DATASET_NAMES, REPETITION_NAMES, parse_scores


@pytest.fixture
def wide() -> pd.DataFrame:
    rng = np.random.default_rng(7)
    return pd.DataFrame(
        rng.random((6, 3)),
        index=pd.Index([f"d{i}" for i in range(6)], name="dataset"),
        columns=["A", "B", "C"],
    )


def long_of(wide: pd.DataFrame, d: str = "dataset", a: str = "algorithm", s: str = "score"):
    return wide.rename_axis(d).reset_index().melt(id_vars=d, var_name=a, value_name=s)


def same_table(table, wide):
    frame = table.to_frame().loc[list(wide.index), list(wide.columns)]
    np.testing.assert_array_equal(frame.to_numpy(), wide.to_numpy())


@pytest.mark.parametrize("order", list(itertools.permutations(range(3))))
def test_any_column_order(wide, order):
    long = long_of(wide, s="accuracy")
    same_table(parse_scores(long.iloc[:, list(order)]), wide)


@pytest.mark.parametrize("d", DATASET_NAMES)
def test_dataset_synonyms(wide, d):
    same_table(parse_scores(long_of(wide, d=d.upper().replace("_", " "))), wide)


@pytest.mark.parametrize("a", ALGORITHM_NAMES)
def test_algorithm_synonyms(wide, a):
    same_table(parse_scores(long_of(wide, a=a.capitalize())), wide)


@pytest.mark.parametrize("r", REPETITION_NAMES)
def test_repetition_synonyms(wide, r):
    long = pd.concat([long_of(wide).assign(**{r: i}) for i in range(2)])
    table = parse_scores(long, aggregate="mean")
    assert table.aggregation.columns == (r,)
    same_table(table, wide)


def test_explicit_names_win(wide):
    # "model" would be the algorithm column by name; explicit arguments say otherwise
    long = long_of(wide, d="model", a="who", s="value")
    same_table(parse_scores(long, dataset="model", algorithm="who"), wide)


def test_wide_first_column_rules(wide):
    values = wide.reset_index(drop=True)
    for header in ("", "Unnamed: 0", "id", "Task ID", "name"):
        frame = values.copy()
        frame.insert(0, header, list(wide.index) if header == "name" else range(10, 16))
        table = parse_scores(frame)
        assert table.algorithms == ["A", "B", "C"], header
    # a numeric first column with another name is an algorithm
    table = parse_scores(values.assign(D=range(6)).iloc[:, [3, 0, 1, 2]])
    assert table.algorithms == ["D", "A", "B", "C"]
    assert table.datasets == [str(i) for i in range(6)]


ROLE_ERRORS = [
    (
        lambda w: long_of(w).assign(task=1),
        r"^several columns could hold the datasets: 'dataset', 'task'; say which one, e\.g\. "
        r"dataset='dataset'\.$",
        r"datasets: 'dataset', 'task'; say which one, e\.g\. --dataset-col dataset\.$",
    ),
    (
        lambda w: long_of(w).assign(method="x"),
        r"^several columns could hold the algorithms: 'algorithm', 'method'; say which one, "
        r"e\.g\. algorithm='algorithm'\.$",
        r"e\.g\. --algorithm-col algorithm\.$",
    ),
    (
        lambda w: long_of(w, d="where"),
        r"^found the algorithm column 'algorithm' but no dataset column among 'where', "
        r"'algorithm', 'score'; name it with dataset='COLUMN'",
        r"name it with --dataset-col COLUMN",
    ),
    (
        lambda w: long_of(w).assign(score="x"),
        r"^no score column: the columns are 'dataset', 'algorithm', 'score' and none besides "
        r"'dataset' and 'algorithm' holds numbers; name it with score='COLUMN'\.$",
        r"name it with --score-col COLUMN\.$",
    ),
    (
        lambda w: long_of(w).assign(time=1.0),
        r"^several columns could hold the scores: 'score', 'time'; pass score='score' to "
        r"compare on one of them",
        r"pass --score-col score to compare",
    ),
    (
        lambda w: long_of(w, d="x", a="y", s="z"),
        r"^cannot tell the roles of the columns 'x', 'y', 'z': column 'y' holds text, so this "
        r"is not a wide table \(one numeric column per algorithm\) and no column is recognised "
        r"as the algorithm column; if it is a long table \(one row per dataset and algorithm\), "
        r"name its columns, e\.g\. dataset='x', algorithm='y', score='z'\.$",
        r"e\.g\. --dataset-col x, --algorithm-col y, --score-col z\.$",
    ),
    (
        lambda w: w.reset_index().assign(id=range(6)),
        r"^column 'id' looks like a row identifier, not an algorithm; remove it from the table, "
        r"or, if it names the datasets, pass dataset='id'\.$",
        r"pass --dataset-col id\.$",
    ),
    (
        lambda w: w.rename_axis("name").assign(dataset=range(6)),
        r"^both the index and column 'dataset' could name the datasets; drop the column or "
        r"reset the index \(df\.reset_index\(drop=True\)\)\.$",
        None,
    ),
]


@pytest.mark.parametrize(("mutate", "match", "cli"), ROLE_ERRORS)
def test_role_refusals(wide, mutate, match, cli):
    data = mutate(wide)
    with pytest.raises(CdplotInputError, match=match):
        cdplot.compare(data)
    if cli is not None:
        with cli_spelling(), pytest.raises(CdplotInputError, match=cli):
            cdplot.compare(data)


def test_explicit_names_are_checked(wide):
    with pytest.raises(
        CdplotInputError,
        match=r"^column 'Dataset' \(given as dataset=\) is not in the table; its columns are "
        r"'dataset', 'algorithm', 'score'\. Did you mean 'dataset'\?$",
    ):
        cdplot.compare(long_of(wide), dataset="Dataset")
    with pytest.raises(
        CdplotInputError, match=r"^dataset= must name one column of the table, got list"
    ):
        cdplot.compare(long_of(wide), dataset=["dataset"])
    with pytest.raises(
        CdplotInputError,
        match=r"^score= names the score column of a long table, but no column holds the "
        r"algorithm names",
    ):
        cdplot.compare(wide, score="A")


def test_non_string_column_names(wide):
    frame = wide.set_axis([1, 2.5, ("x", 1)], axis=1)
    table = parse_scores(frame)
    assert table.algorithms == ["1", "2.5", "('x', 1)"]
    with pytest.raises(CdplotInputError, match=r"^duplicate column name\(s\): '1'"):
        parse_scores(wide.set_axis([1, "1", "C"], axis=1))


def test_index_forms(wide):
    # a named index of a long table becomes a column; a MultiIndex (dataset, fold) too
    long = long_of(wide)
    same_table(parse_scores(long.set_index("dataset")), wide)
    runs = pd.concat([long.assign(fold=f) for f in range(3)]).set_index(["dataset", "fold"])
    same_table(parse_scores(runs, aggregate="mean"), wide)
    with pytest.raises(CdplotInputError, match=r"^the table has an unnamed level"):
        parse_scores(wide.set_index(pd.MultiIndex.from_arrays([wide.index, range(6)])))
    with pytest.raises(CdplotInputError, match=r"several header rows \(MultiIndex columns\)"):
        parse_scores(pd.concat({"acc": wide}, axis=1))


def test_foreign_frames(wide):
    class ToPandas:
        def to_pandas(self):
            return wide

    same_table(parse_scores(ToPandas()), wide)

    class Broken:
        def to_pandas(self):
            raise RuntimeError("no backend")

    with pytest.raises(
        CdplotInputError,
        match=r"^cannot convert the Broken to a pandas DataFrame \(RuntimeError: no backend\)",
    ):
        parse_scores(Broken())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        interchange = wide.reset_index().__dataframe__()

    class Interchange:
        def __dataframe__(self, *args, **kwargs):
            return interchange

    same_table(parse_scores(Interchange()), wide)


def test_remaining_refusals_are_pinned(wide):
    long = long_of(wide)
    cases = [
        (
            lambda: parse_scores(long.assign(dataset=[None] + ["d"] * (len(long) - 1))),
            r"^the dataset column 'dataset' is empty in row 0; every row needs a dataset name\.$",
        ),
        (
            lambda: parse_scores(long.set_index("dataset").assign(dataset=1)),
            r"^the index and a column are both called 'dataset'; drop one of them or rename it\.$",
        ),
        (
            lambda: parse_scores(wide["A"]),
            r"^got a pandas Series; pass a DataFrame with one column per algorithm",
        ),
        (
            lambda: parse_scores(np.ones((3, 3)), dataset="dataset"),
            r"^dataset='dataset' names a column, but an array has no column names; pass a list "
            r"of dataset names, or a DataFrame\.$",
        ),
        (
            lambda: parse_scores(np.array([["a", "b"], ["c", "d"]])),
            r"^non-numeric score 'a' in column 'A1' \(dataset 'D1'\): it is not a number\.$",
        ),
        (
            lambda: parse_scores(np.ones((3, 2)), algorithm=["a", None]),
            r"^an algorithm name is missing \(None\); every algorithm needs a name\.$",
        ),
        (
            lambda: parse_scores(np.ones((3, 2)), dataset=["x", "x", "y"]),
            r"^duplicate dataset name\(s\): 'x'; every dataset must have a unique name \(rename "
            r"the duplicates, or, if they are repeated runs, pass aggregate='mean'\)\.$",
        ),
        (
            lambda: parse_scores(long.assign(score=np.inf)),
            r"^infinite score \(inf\) for algorithm 'A' on dataset 'd0'; scores must be finite",
        ),
        (
            lambda: parse_scores({"A": [1, 2]}),
            r"^cannot read scores from a dict; pass a DataFrame, a 2-D array or the path of a "
            r"CSV file\.$",
        ),
        (
            lambda: cdplot.compare_metrics(long, {"score": "higher"}, score="score"),
            r"^score= is set per metric by compare_metrics\(\); give each metric's direction in "
            r"metrics= instead",
        ),
        (
            lambda: cdplot.compare_metrics(long, {"score": "up"}),
            r"^'up' is not a valid value for metrics\['score'\]; supported values are 'higher', "
            r"'lower'\.$",
        ),
        (
            lambda: cdplot.compare_metrics(long, ["score"]),
            r"^metrics must be a non-empty mapping of score column -> 'higher' or 'lower', got "
            r"list",
        ),
        (
            lambda: cdplot.compare_metrics(long, {"f1": "higher"}),
            r"^column 'f1' \(given as score=\) is not in the table",
        ),
        (
            lambda: cdplot.compare_metrics(wide, {"A": "higher"}),
            r"^score= names the score column of a long table, but no column holds the algorithm",
        ),
        (
            lambda: cdplot.compare_metrics(np.ones((3, 3)), {"A": "higher"}),
            r"^compare_metrics\(\) needs a table with one column per metric \(a DataFrame or a "
            r"CSV file\), got a ndarray\.$",
        ),
    ]
    for call, match in cases:
        with pytest.raises(CdplotInputError, match=match):
            call()

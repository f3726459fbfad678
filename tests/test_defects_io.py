"""The input layer: exact values, names and shapes of the tables it reads.

Each test failed on 9c73ebe. Oracles: the same numbers given in another shape (a DataFrame
with text names, a renamed column), and scipy.stats.rankdata for exact integer ranks.
"""

from __future__ import annotations

import io
import warnings

import numpy as np
import pandas as pd
import pytest

import cdplot
from cdplot import CdplotInputError, CdplotWarning
from cdplot.io import parse_scores

pytestmark = pytest.mark.filterwarnings("ignore:with \\d+ datasets the")

SCORES = {"A": [0.9, 0.8, 0.7, 0.6], "B": [0.8, 0.9, 0.6, 0.7], "C": [0.7, 0.6, 0.9, 0.8]}


def _csv(text: str) -> io.StringIO:
    return io.StringIO(text)


# ----------------------------------------------------------- columns named like repetitions
@pytest.mark.parametrize("name", ["RUN", "Fold", "seed", "Split", "TRIAL"])
def test_algorithm_named_like_a_repetition_is_compared(name):
    frame = pd.DataFrame({"dataset": ["d1", "d2", "d3", "d4"], "A": SCORES["A"]})
    frame["B"], frame[name] = SCORES["B"], SCORES["C"]
    res = cdplot.compare(frame, higher_is_better=True)
    assert res.algorithms == ["A", "B", name]
    # oracle: the same numbers with a plain name
    ref = cdplot.compare(frame.rename(columns={name: "C"}), higher_is_better=True)
    assert res.average_ranks.to_numpy().tolist() == ref.average_ranks.to_numpy().tolist()
    text = frame.to_csv(index=False)
    assert parse_scores(_csv(text)).algorithms == ["A", "B", name]


def test_whole_number_repetition_column_with_one_row_per_dataset_is_refused():
    frame = pd.DataFrame({"dataset": ["d1", "d2", "d3"], "seed": [0, 0, 0], "A": [1.0, 2, 3]})
    frame["B"] = [2.0, 1, 3]
    with pytest.raises(CdplotInputError, match=r"column 'seed' is named like a repetition"):
        parse_scores(frame)


def test_fold_ids_as_first_column_are_refused_not_renumbered():
    text = "fold,A,B,C\n1,0.9,0.8,0.7\n2,0.8,0.9,0.6\n3,0.7,0.6,0.9\n"
    with pytest.raises(CdplotInputError, match=r"column 'fold' is named like a repetition"):
        parse_scores(_csv(text))


@pytest.mark.parametrize("name", ["Model", "System", "Task"])
def test_algorithm_named_model_system_or_task_in_a_wide_table(name):
    frame = pd.DataFrame({"dataset": ["d1", "d2", "d3", "d4"], "A": SCORES["A"]})
    frame["B"], frame[name] = SCORES["B"], SCORES["C"]
    assert parse_scores(frame).algorithms == ["A", "B", name]


def test_per_fold_tables_still_aggregate():
    text = "dataset,fold,A,B\nd1,1,0.9,0.8\nd1,2,0.7,0.8\nd2,1,0.5,0.6\nd2,2,0.5,0.4\n"
    table = parse_scores(_csv(text), aggregate="mean")
    assert table.algorithms == ["A", "B"] and table.datasets == ["d1", "d2"]
    assert table.scores.tolist() == [[0.8, 0.8], [0.5, 0.5]]


# -------------------------------------------------------------------- names kept as written
def test_dataset_names_are_kept_exactly_as_written():
    names = ["001", "1.10", "1e5", "+1"]
    text = "dataset,A,B\n" + "".join(
        f"{n},{a},{b}\n" for n, a, b in zip(names, SCORES["A"], SCORES["B"], strict=True)
    )
    assert parse_scores(_csv(text)).datasets == names
    assert parse_scores(cdplot.io.read_table(_csv(text))).datasets == names
    as_text = pd.DataFrame({"dataset": names, "A": SCORES["A"], "B": SCORES["B"]})
    assert parse_scores(as_text).datasets == names  # oracle: the names given as text


def test_versions_1_1_and_1_10_stay_two_algorithms():
    rows = [("d1", "1.1", 0.9), ("d1", "1.10", 0.5), ("d2", "1.1", 0.8), ("d2", "1.10", 0.6)]
    text = "dataset,algorithm,fold,acc\n" + "".join(
        f"{d},{a},{f},{s}\n" for d, a, s in rows for f in (1, 2)
    )
    with pytest.raises(CdplotInputError, match=r"pass algorithm='algorithm'"):
        parse_scores(_csv(text), aggregate="mean")  # numbers as names: said, not guessed
    table = parse_scores(_csv(text), aggregate="mean", algorithm="algorithm")
    assert table.algorithms == ["1.1", "1.10"]
    assert table.scores.tolist() == [[0.9, 0.5], [0.8, 0.6]]


@pytest.mark.parametrize("token", ["NA", "None", "nan", "NULL"])
def test_a_dataset_named_like_a_missing_token_is_a_name(token):
    text = f"dataset,A,B\nd1,0.9,0.8\n{token},0.7,0.75\nd3,0.5,0.6\n"
    assert parse_scores(_csv(text)).datasets == ["d1", token, "d3"]


def test_an_empty_name_cell_is_refused_saying_what_missing_means():
    with pytest.raises(CdplotInputError, match=r"only an empty cell is a missing name"):
        parse_scores(_csv("dataset,A,B\nd1,0.9,0.8\n,0.7,0.75\n"))


def test_quoted_header_names_keep_their_spaces():
    text = 'dataset," spaced ",B\nd1,0.9,0.8\nd2,0.7,0.75\n'
    assert parse_scores(_csv(text)).algorithms == [" spaced ", "B"]
    assert parse_scores(_csv("dataset, plain ,B\nd1,0.9,0.8\nd2,0.7,0.75\n")).algorithms == [
        "plain",
        "B",
    ]


def test_names_from_a_changed_read_table_frame_are_its_values():
    text = "dataset,A,B\n001,0.9,0.8\n002,0.7,0.75\n003,0.5,0.6\n"
    frame = cdplot.io.read_table(_csv(text))
    assert parse_scores(frame).datasets == ["001", "002", "003"]
    frame["dataset"] = [7, 8, 9]  # the user's own values win over the file's spelling
    assert parse_scores(frame).datasets == ["7", "8", "9"]


# --------------------------------------------------------------- booleans and huge integers
def test_boolean_first_column_is_refused():
    frame = pd.DataFrame({"A": [True, False], "B": [0.5, 0.6], "C": [0.7, 0.1]})
    with pytest.raises(CdplotInputError, match=r"first column 'A' holds booleans"):
        cdplot.compare(frame)


def test_integers_beyond_2_53_are_refused_not_tied():
    big = 2**53
    frame = pd.DataFrame({"dataset": ["d1", "d2", "d3"], "A": [big, 1, 2], "B": [big + 1, 2, 1]})
    with pytest.raises(CdplotInputError, match=r"beyond 2\*\*53"):
        cdplot.compare(frame)
    text = frame.to_csv(index=False)
    with pytest.raises(CdplotInputError, match=r"beyond 2\*\*53"):
        parse_scores(_csv(text))
    long = frame.melt(id_vars="dataset", var_name="algorithm", value_name="score")
    with pytest.raises(CdplotInputError, match=r"beyond 2\*\*53"):
        parse_scores(long)
    with pytest.raises(CdplotInputError, match=r"beyond 2\*\*53"):
        parse_scores(np.array([[big + 1, 1], [1, 2]], dtype=np.int64))
    with pytest.raises(CdplotInputError, match=r"beyond 2\*\*53"):
        parse_scores(np.array([[2**63, 1], [1, 2]], dtype=np.uint64))
    # at 2**53 itself integers are exact
    ok = frame.assign(A=[big, 1, 2], B=[big - 1, 2, 1])
    assert parse_scores(ok).scores[0].tolist() == [float(big), float(big - 1)]


# --------------------------------------------------------------------------- reading tables
@pytest.mark.parametrize(
    ("text", "kwargs", "word"),
    [
        ("dataset,algorithm,rmse\nd1,A,1\nd1,B,2\nd2,A,1\nd2,B,3\n", {}, "rmse"),
        ("dataset,algorithm,fit_time\nd1,A,1\nd1,B,2\nd2,A,1\nd2,B,3\n", {}, "time"),
        ("dataset,algorithm,logLoss\nd1,A,1\nd1,B,2\nd2,A,1\nd2,B,3\n", {}, "loss"),
    ],
)
def test_lower_is_better_names_warn_once_when_no_direction_given(text, kwargs, word):
    with pytest.warns(CdplotWarning, match=rf"says '{word}'.*higher_is_better=False") as got:
        res = cdplot.compare(_csv(text), test="sign", **kwargs)
    assert len([w for w in got if "usually lower" in str(w.message)]) == 1
    assert res.higher_is_better is True  # never changed silently
    with warnings.catch_warnings():
        warnings.filterwarnings("error", message=".*usually lower")
        cdplot.compare(_csv(text), test="sign", higher_is_better=True)
        cdplot.compare(_csv(text), test="sign", higher_is_better=False)


def test_lower_is_better_file_name_warns(tmp_path):
    path = tmp_path / "error.csv"
    path.write_text("dataset,A,B\nd1,1,2\nd2,1,3\nd3,2,3\n")
    with pytest.warns(CdplotWarning, match=r"file 'error.csv' says 'error'"):
        cdplot.compare(path, test="sign")
    accuracy = tmp_path / "accuracy.csv"
    accuracy.write_text(path.read_text())
    with warnings.catch_warnings():
        warnings.filterwarnings("error", message=".*usually lower")
        cdplot.compare(accuracy, test="sign")


def test_lower_is_better_warning_on_the_command_line(tmp_path, capsys):
    from _helpers import run

    path = tmp_path / "latency.csv"
    path.write_text("dataset,A,B\nd1,1,2\nd2,1,3\nd3,2,3\n")
    code, _, err = run(["compare", path, "--test", "sign"], capsys)
    lines = [line for line in err.splitlines() if "usually lower" in line]
    assert code == 0 and len(lines) == 1 and "--lower-is-better" in lines[0]
    code, _, err = run(["compare", path, "--test", "sign", "--lower-is-better"], capsys)
    assert "usually lower" not in err


@pytest.mark.parametrize("row", ["Average", "Mean", "Avg", "Rank", "Avg. rank", "Total", "Wins"])
def test_summary_row_at_the_foot_is_refused(row):
    text = f"dataset,A,B\nd1,0.9,0.8\nd2,0.7,0.75\nd3,0.5,0.6\n{row},0.7,0.72\n"
    with pytest.raises(CdplotInputError, match=rf"\('{row}' in column 'dataset'\).*summary"):
        parse_scores(_csv(text))
    frame = pd.read_csv(_csv(text))
    fixed = frame[~frame["dataset"].isin([row])]
    assert parse_scores(fixed).datasets == ["d1", "d2", "d3"]


def test_a_dataset_named_mean_in_the_middle_is_a_dataset():
    text = "dataset,A,B\nd1,0.9,0.8\nMedian,0.7,0.75\nd3,0.5,0.6\n"
    assert parse_scores(_csv(text)).datasets == ["d1", "Median", "d3"]


@pytest.mark.parametrize("name", ["did", "tid", "data_id", "openml_id", "OpenML ID"])
def test_openml_ids_name_the_datasets(name):
    text = f"{name},A,B\n31,0.9,0.8\n37,0.7,0.75\n44,0.5,0.6\n"
    table = parse_scores(_csv(text))
    assert table.datasets == ["31", "37", "44"] and table.algorithms == ["A", "B"]


def test_an_integer_id_column_is_refused_as_an_algorithm():
    text = "flow_id,A,B\n31,0.9,0.8\n37,0.7,0.75\n44,0.5,0.6\n"
    with pytest.raises(CdplotInputError, match=r"first column 'flow_id' holds distinct whole"):
        parse_scores(_csv(text))
    assert parse_scores(_csv(text), dataset="flow_id").datasets == ["31", "37", "44"]


def test_plus_minus_cells_get_their_own_message():
    text = "dataset,A,B\nd1,0.862 ± 0.01,0.8\nd2,0.7 +/- 0.02,0.75\n"
    with pytest.raises(CdplotInputError, match=r"keep the mean in one column \(and the std"):
        parse_scores(_csv(text))


@pytest.mark.parametrize("name", ["algo", "clf"])
def test_algo_and_clf_are_algorithm_columns(name):
    text = f"dataset,{name},acc\nd1,A,0.9\nd1,B,0.8\nd2,A,0.7\nd2,B,0.75\n"
    table = parse_scores(_csv(text))
    assert table.algorithms == ["A", "B"] and table.scores.tolist() == [[0.9, 0.8], [0.7, 0.75]]


def test_exact_integer_scores_rank_as_scipy():
    from scipy.stats import rankdata

    big = 2**53
    frame = pd.DataFrame({"A": [big, 3, 5], "B": [big - 1, 4, 5], "C": [7, 9, 5]})
    frame.index = pd.Index(["d1", "d2", "d3"], name="dataset")
    res = cdplot.compare(frame, test="sign", higher_is_better=True)
    # scipy.stats.rankdata on the negated Python ints (rank 1 = best), averaged over rows
    ranks = np.array([rankdata([-int(v) for v in row]) for row in frame.to_numpy()])
    assert res.average_ranks.loc[["A", "B", "C"]].tolist() == ranks.mean(axis=0).tolist()


def test_found_by_fuzzing_per_fold_log_keeps_an_algorithm_named_run():
    # tests/test_fuzz_input.py found it: RUN (scores) was taken as a second run id
    text = "dataset,fold,A,B2,RUN\nA,1,-0.5,-0.5,-0.5\nA,2,0.5,0.5,0.5\nB2,1,0.1,0.2,0.25\n"
    text += "B2,2,0.3,0.4,0.75\n"
    table = parse_scores(_csv(text), aggregate="mean")
    assert table.algorithms == ["A", "B2", "RUN"] and table.datasets == ["A", "B2"]
    assert table.scores.tolist() == [[0.0, 0.0, 0.0], [0.2, 0.30000000000000004, 0.5]]
    assert table.aggregation.columns == ("fold",)


def test_model_with_whole_scores_in_a_two_algorithm_wide_table():
    frame = pd.DataFrame({"dataset": ["d1", "d2", "d3"], "A": [1, 2, 3], "Model": [3, 1, 2]})
    table = parse_scores(frame)
    assert table.algorithms == ["A", "Model"] and table.scores.tolist() == [[1, 3], [2, 1], [3, 2]]


def test_found_by_fuzzing_per_fold_log_with_an_algorithm_named_model():
    # tests/test_fuzz_input.py (slow profile) found it: 'Model' (scores -0.5 and 0.5, each
    # twice) was read as the algorithm column of a long table
    text = "dataset,fold,A,Model\nA,1,-0.5,-0.5\nA,2,0.5,0.5\nB2,1,-0.5,-0.5\nB2,2,0.5,0.5\n"
    with pytest.raises(CdplotInputError, match=r"column 'Model' is named like the algorithm"):
        parse_scores(_csv(text), aggregate="mean")


def test_message_a_plain_number_as_text_is_not_a_thousands_separator():
    frame = pd.DataFrame({"dataset": ["d1", "d2"], "A": ["0.875", "0.5"], "B": [0.1, 0.2]})
    with pytest.raises(CdplotInputError, match=r"'0.875' .* is text, not a number; convert"):
        parse_scores(frame)
    frame["A"] = ["1,234", "0.5"]
    with pytest.raises(CdplotInputError, match=r"thousands separator"):
        parse_scores(frame)


def test_found_by_fuzzing_run_ids_beside_fold_are_named_in_the_note():
    # a column RUN holding 1, 2 beside fold 1, 2 reads as run ids: the note must name it
    text = "dataset,fold,A,RUN,B2\nA,1,-0.5,1.0,-0.5\nA,2,0.5,2.0,0.5\n"
    text += "B2,1,-0.5,1.0,-0.5\nB2,2,0.5,2.0,0.5\n"
    table = parse_scores(_csv(text), aggregate="mean")
    assert table.algorithms == ["A", "B2"]
    assert "RUN" in table.aggregation.columns and "RUN" in table.aggregation.describe()

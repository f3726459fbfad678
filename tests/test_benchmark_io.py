"""One benchmark's item-level table read by ``prepare_input`` into ``BenchmarkItems``.

Every expected number is computed by hand from the small tables written out in each test
(item means, sample counts, sample variances with ``ddof=1``, cluster codes in order of
first appearance); nothing is compared against another library.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from cdplot import CdplotInputError
from cdplot.io import prepare_input


def _long(**extra):
    """Three models on four items, binary scores, no task column."""
    rows = pd.DataFrame(
        {
            "model": ["A", "B", "C"] * 4,
            "item_id": ["q1"] * 3 + ["q2"] * 3 + ["q3"] * 3 + ["q4"] * 3,
            "correct": [1, 0, 1, 1, 1, 0, 0, 0, 1, 1, 0, 0],
        }
    )
    for name, values in extra.items():
        rows[name] = values
    return rows


def test_long_rows_without_a_task_column_are_one_benchmark():
    bench = prepare_input(_long()).benchmark
    assert bench.models == ("A", "B", "C")
    assert bench.items == ("q1", "q2", "q3", "q4")
    # rows of the table above, item by item
    assert bench.scores.tolist() == [[1, 0, 1], [1, 1, 0], [0, 0, 1], [1, 0, 0]]
    assert bench.binary is True
    assert bench.clusters is None and bench.n_samples is None and bench.sample_var is None
    assert bench.item_column == "item_id" and bench.task is None
    assert not bench.scores.flags.writeable


def test_one_task_names_the_benchmark_and_keeps_the_table_level_path():
    prepared = prepare_input(_long(task="gpqa"))
    assert prepared.benchmark.task == "gpqa"
    # the one task's item matrix and the mean of each model over the 4 items
    assert prepared.items.tasks == ("gpqa",)
    assert prepared.items.matrices[0].tolist() == prepared.benchmark.scores.tolist()
    assert prepared.data["correct"].tolist() == [3 / 4, 1 / 4, 2 / 4]
    assert prepared.aggregation.describe() == "scores are means over 4 item_ids"


def test_several_tasks_keep_the_two_level_path():
    rows = pd.concat([_long(task="t1"), _long(task="t2")])
    prepared = prepare_input(rows)
    assert prepared.benchmark is None
    assert prepared.items.tasks == ("t1", "t2")


def test_partial_credit_is_not_binary():
    rows = _long()
    rows["correct"] = rows["correct"].astype(float)
    rows.loc[0, "correct"] = 0.5
    bench = prepare_input(rows).benchmark
    assert bench.binary is False
    assert bench.scores[0, 0] == 0.5


def test_samples_give_item_means_counts_and_variances():
    rows = pd.DataFrame(
        {
            "model": ["A", "B"] * 6,
            "item": ["i1", "i1", "i2", "i2"] * 3,
            "epoch": [1] * 4 + [2] * 4 + [3] * 4,
            "score": [1, 0, 1, 1, 0, 0, 1, 0, 1, 1, 1, np.nan],
        }
    )
    bench = prepare_input(rows).benchmark
    assert bench.sample_column == "epoch"
    # A on i1: 1, 0, 1 -> mean 2/3, var ((1/3)^2 * 2 + (2/3)^2) / 2 = 1/3
    # B on i1: 0, 0, 1 -> mean 1/3, var 1/3
    # A on i2: 1, 1, 1 -> mean 1, var 0; B on i2: 1, 0, (no score) -> mean 1/2, var 1/2
    np.testing.assert_allclose(bench.scores, [[2 / 3, 1 / 3], [1, 1 / 2]])
    assert bench.n_samples.tolist() == [[3, 3], [3, 2]]
    np.testing.assert_allclose(bench.sample_var, [[1 / 3, 1 / 3], [0, 1 / 2]])
    assert bench.binary is True


def test_a_sample_with_one_score_has_no_variance():
    rows = pd.DataFrame(
        {"model": ["A", "B", "A"], "item_id": [1, 1, 1], "attempt": [1, 1, 2], "s": [0.5, 1, 1]}
    )
    bench = prepare_input(rows).benchmark
    assert bench.n_samples.tolist() == [[2, 1]]
    assert bench.sample_var[0, 0] == pytest.approx(0.125)  # (0.25^2 * 2) / 1
    assert np.isnan(bench.sample_var[0, 1])
    assert bench.binary is False


@pytest.mark.parametrize("name", ["seed", "run", "repeat"])
def test_a_repetition_name_numbers_samples_when_items_are_given(name):
    rows = pd.concat([_long(**{name: 0}), _long(**{name: 1})])
    bench = prepare_input(rows).benchmark
    assert bench.sample_column == name
    assert bench.n_samples.tolist() == [[2, 2, 2]] * 4


def test_sample_keyword_names_a_column_of_any_name():
    rows = pd.concat([_long(draw="d0"), _long(draw="d1")])
    with pytest.raises(CdplotInputError, match=r"model 'A' has 2 rows for item 'q1'.*sample="):
        prepare_input(rows)
    bench = prepare_input(rows, sample="draw").benchmark
    assert bench.sample_column == "draw"
    assert bench.scores.tolist() == [[1, 0, 1], [1, 1, 0], [0, 0, 1], [1, 0, 0]]


def test_two_sample_columns_are_refused_naming_the_keyword():
    rows = _long(epoch=1, attempt=1)
    with pytest.raises(
        CdplotInputError, match=r"several columns could hold the samples: 'epoch', 'attempt'; "
    ):
        prepare_input(rows)


def test_another_repetition_column_asks_whether_it_numbers_samples():
    with pytest.raises(CdplotInputError, match=r"repeated runs \('fold'\).*sample='fold'"):
        prepare_input(_long(fold=1))


def test_a_passage_column_gives_cluster_codes_in_order_of_appearance():
    passage = ["p2"] * 3 + ["p1"] * 3 + ["p2"] * 3 + ["p3"] * 3
    bench = prepare_input(_long(passage=passage)).benchmark
    assert bench.cluster_column == "passage"
    assert bench.cluster_ids == ("p2", "p1", "p3")
    assert bench.clusters.tolist() == [0, 1, 0, 2]
    assert bench.n_clusters == 3


def test_cluster_keyword_wins_over_ambiguous_names():
    rows = _long(repo=["r1"] * 6 + ["r2"] * 6, scenario="s")
    with pytest.raises(
        CdplotInputError,
        match=r"several columns could hold the clusters: 'repo', 'scenario'; say which one, "
        r"e.g. cluster='repo'",
    ):
        prepare_input(rows)
    bench = prepare_input(rows, cluster="repo").benchmark
    assert bench.cluster_ids == ("r1", "r2") and bench.clusters.tolist() == [0, 0, 1, 1]


def test_tasks_named_as_clusters_make_one_benchmark():
    rows = pd.concat([_long(task="t1"), _long(task="t2")])
    rows["item_id"] = rows["task"] + rows["item_id"]
    bench = prepare_input(rows, cluster="task").benchmark
    assert bench.n_items == 8 and bench.cluster_ids == ("t1", "t2")
    assert bench.clusters.tolist() == [0] * 4 + [1] * 4


def test_cluster_keyword_with_several_tasks_is_refused():
    rows = pd.concat([_long(task="t1", passage="p"), _long(task="t2", passage="p")])
    with pytest.raises(
        CdplotInputError, match=r"cluster applies to one benchmark's items, but column 'task'"
    ):
        prepare_input(rows, cluster="passage")


def test_a_cluster_that_changes_within_an_item_is_refused():
    passage = ["p1"] * 3 + ["p1", "p2", "p1"] + ["p2"] * 6
    with pytest.raises(
        CdplotInputError,
        match=r"item 'q2' is in cluster 'p1' and in cluster 'p2' \(column 'passage'\).*cluster=",
    ):
        prepare_input(_long(passage=passage))


def test_one_model_is_refused():
    rows = _long()
    with pytest.raises(CdplotInputError, match=r"the benchmark has 1 model \('A'\); .*at least 2"):
        prepare_input(rows[rows.model == "A"])


def test_a_model_scored_twice_without_samples_is_refused_naming_sample():
    rows = pd.concat([_long(), _long().iloc[:1]])
    with pytest.raises(
        CdplotInputError, match=r"model 'A' has 2 rows for item 'q1' .*sample='COLUMN'"
    ):
        prepare_input(rows)


def test_a_model_scored_twice_on_one_sample_is_refused():
    rows = pd.concat([_long(epoch=1), _long(epoch=1).iloc[:1]])
    with pytest.raises(CdplotInputError, match=r"2 rows for one sample of item 'q1'"):
        prepare_input(rows)


def _partial():
    rows = _long(passage=["p1"] * 6 + ["p2"] * 3 + ["p3"] * 3)
    return rows.drop(index=[7])  # B has no score on q3


def test_items_scored_by_some_models_only_follow_missing():
    rows = _partial()
    with pytest.raises(
        CdplotInputError,
        match=r"model 'B' has scores on 3 of the 4 items; pass missing='drop' .*missing='keep'",
    ):
        prepare_input(rows)
    dropped = prepare_input(rows, missing="drop").benchmark
    assert dropped.items == ("q1", "q2", "q4")
    # q3 (cluster p2) is gone: the clusters are renumbered over those left
    assert dropped.cluster_ids == ("p1", "p3") and dropped.clusters.tolist() == [0, 0, 1]
    assert "dropped 1 item not scored by every model" in dropped.note
    kept = prepare_input(rows, missing="keep").benchmark
    assert kept.n_items == 4 and np.isnan(kept.scores[2, 1])
    assert kept.scores[2, 2] == 1
    models = prepare_input(rows, missing="drop-algorithms").benchmark
    assert models.models == ("A", "C")


def test_scores_that_are_not_numbers_are_refused_naming_the_fix():
    rows = _long()
    rows["correct"] = rows["correct"].map({1: "C", 0: "I"})
    with pytest.raises(CdplotInputError, match=r"no score column: .*score='COLUMN'"):
        prepare_input(rows)
    with pytest.raises(
        CdplotInputError,
        match=r"non-numeric score 'C' in column 'correct' \(row 0\).*map text grades",
    ):
        prepare_input(rows, score="correct")


def test_boolean_scores_are_pass_fail():
    rows = _long()
    rows["correct"] = rows["correct"].astype(bool)
    bench = prepare_input(rows, score="correct").benchmark
    assert bench.binary and bench.scores.tolist()[0] == [1, 0, 1]


# ----------------------------------------------------------------------------- wide matrices
def _wide():
    return pd.DataFrame({"item_id": ["a", "b", "c"], "M1": [1, 0, 1], "M2": [0, 0, 1]})


def test_a_wide_matrix_whose_first_column_names_items_is_one_benchmark():
    bench = prepare_input(_wide()).benchmark
    assert bench.models == ("M1", "M2") and bench.items == ("a", "b", "c")
    assert bench.scores.tolist() == [[1, 0], [0, 0], [1, 1]]


def test_item_keyword_names_the_first_column_of_a_wide_matrix():
    wide = _wide().rename(columns={"item_id": "question"})
    assert prepare_input(wide).benchmark is None  # a dataset x algorithm table
    bench = prepare_input(wide, item="question").benchmark
    assert bench.item_column == "question" and bench.n_items == 3


def test_a_wide_table_named_by_datasets_stays_a_dataset_table():
    wide = _wide().rename(columns={"item_id": "dataset"})
    prepared = prepare_input(wide)
    assert prepared.benchmark is None and prepared.items is None


def test_a_wide_matrix_with_clusters_and_an_index_named_as_items():
    wide = _wide().assign(passage=["p", "p", "q"])
    bench = prepare_input(wide).benchmark
    assert bench.models == ("M1", "M2") and bench.clusters.tolist() == [0, 0, 1]
    by_index = prepare_input(_wide().set_index("item_id")).benchmark
    assert by_index.items == ("a", "b", "c") and by_index.scores.tolist()[2] == [1, 1]


def test_a_wide_matrix_with_a_repeated_item_is_refused():
    wide = pd.concat([_wide(), _wide().iloc[:1]])
    with pytest.raises(CdplotInputError, match=r"model 'M1' has 2 rows for item 'a'"):
        prepare_input(wide)


def test_a_csv_file_of_long_rows(tmp_path):
    path = tmp_path / "items.csv"
    _long(passage=["p1"] * 6 + ["p2"] * 6).to_csv(path, index=False)
    bench = prepare_input(path).benchmark
    assert bench.scores.tolist() == [[1, 0, 1], [1, 1, 0], [0, 0, 1], [1, 0, 0]]
    assert bench.cluster_ids == ("p1", "p2")


def test_parquet_and_polars_long_rows_with_clusters_and_samples(tmp_path):
    import polars as pl

    rows = pd.concat([_long(epoch=1), _long(epoch=2)])
    rows["correct"] = rows["correct"].astype(float)
    rows.iloc[12, rows.columns.get_loc("correct")] = 0.0  # A on q1, epoch 2
    rows["context_id"] = np.where(rows["item_id"].isin(["q1", "q2"]), "c1", "c2")
    path = tmp_path / "items.parquet"
    pl.from_pandas(rows).write_parquet(path)
    for source in (path, pl.from_pandas(rows)):
        bench = prepare_input(source).benchmark
        # A on q1: 1 then 0 -> 1/2 with variance 1/2; every other cell twice the same
        assert bench.scores[0].tolist() == [0.5, 0, 1]
        assert bench.sample_var[0, 0] == 0.5 and bench.sample_var[1:].max() == 0
        assert bench.cluster_column == "context_id" and bench.clusters.tolist() == [0, 0, 1, 1]


def test_messages_name_the_command_line_options():
    from cdplot._errors import cli_spelling

    with cli_spelling(), pytest.raises(CdplotInputError, match=r"e.g. --cluster-col repo"):
        prepare_input(_long(repo="r", scenario="s"))
    with cli_spelling(), pytest.raises(CdplotInputError, match=r"--sample-col COLUMN"):
        prepare_input(pd.concat([_long(), _long()]))


def test_benchmark_items_pass_through_prepare_input():
    bench = prepare_input(_long()).benchmark
    again = prepare_input(bench)
    assert again.benchmark is bench
    assert again.data["score"].tolist() == [3 / 4, 1 / 4, 2 / 4]  # each model's mean


def test_a_long_table_indexed_by_items_is_no_matrix():
    rows = _long().set_index("item_id")
    assert prepare_input(rows.reset_index()).benchmark is not None
    # a model column beside an index of items: read as before (the index names the rows),
    # not as a matrix whose "model" column would be a model's scores
    assert prepare_input(rows).benchmark is None

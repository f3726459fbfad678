"""Experiment trackers' exports: which runs are compared, and damaged listings refused.

Layouts as in ``tests/test_io_sources.py``: MLflow's ``mlflow.search_runs()`` frame (its
``status`` is one of ``RUNNING``, ``SCHEDULED``, ``FINISHED``, ``FAILED``, ``KILLED``: the
``RunStatus`` of the MLflow documentation), the W&B runs table's CSV export (``State``:
``finished``, ``crashed``, ``failed``, ``killed``, ``running``) and OpenML's
``list_evaluations(..., output_format="dataframe")``. Both trackers keep their finished
runs only, say in the input note how many others were dropped, and refuse a table in which
no run finished.
"""

from __future__ import annotations

import pandas as pd
import pytest
from test_io_sources import _mlflow_runs, _openml_listing

import cdplot
from cdplot import CdplotInputError
from cdplot.io import read_openml, read_wandb

pytestmark = [
    pytest.mark.filterwarnings("ignore::cdplot.PoolDependenceWarning"),
    pytest.mark.filterwarnings("ignore:with .* datasets the:cdplot.CdplotWarning"),
]


def _wandb(states: list[str]) -> pd.DataFrame:
    """Two models on six datasets, one run each, then one extra run per state given."""
    rows = [
        {
            "Name": f"r{d}{m}",
            "State": "finished",
            "Created": "2024-05-01",
            "Runtime": 60,
            "dataset": f"ds{d}",
            "model": model,
            "accuracy": 0.8 + 0.02 * m + 0.01 * d,
        }
        for d in range(6)
        for m, model in enumerate(["bert", "roberta"])
    ]
    rows += [
        {
            "Name": f"x{i}",
            "State": state,
            "Created": "2024-05-01",
            "Runtime": 3,
            "dataset": "ds0",
            "model": "bert",
            "accuracy": 0.1,
        }
        for i, state in enumerate(states)
    ]
    return pd.DataFrame(rows)


# --------------------------------------------------------------------------- finished runs
def test_mlflow_failed_runs_are_dropped_and_counted():
    runs = _mlflow_runs()
    failed = runs.iloc[:2].assign(status="FAILED", **{"metrics.accuracy": 0.0})
    killed = runs.iloc[:1].assign(status="KILLED", **{"metrics.accuracy": 0.0})
    res = cdplot.compare(
        pd.concat([runs, failed, killed]), score="metrics.accuracy", aggregate="mean"
    )
    assert res.input_notes[0].endswith("; dropped 3 runs not finished: 2 FAILED, 1 KILLED")
    # the failed runs' zeros are not averaged in: two seeds per cell, as before
    assert res.aggregation.min_count == res.aggregation.max_count == 2
    assert res.scores.loc["iris", "rf"] == pytest.approx((0.9 + 0.901) / 2, abs=1e-15)


def test_wandb_and_mlflow_refuse_a_table_in_which_no_run_finished():
    with pytest.raises(
        CdplotInputError,
        match=r"no run in .* finished \(State: 12 crashed, 1 running\); cdplot compares "
        r"finished runs only: .* or drop the 'State' column",
    ):
        cdplot.compare(_wandb(["running"]).assign(State=["crashed"] * 12 + ["running"]))
    runs = _mlflow_runs().assign(status="RUNNING")
    with pytest.raises(CdplotInputError, match=r"no run in .* finished \(status: 36 RUNNING\)"):
        cdplot.compare(runs, score="metrics.accuracy", aggregate="mean")


def test_wandb_note_counts_the_dropped_runs_and_claims_finished_only_when_read():
    table = read_wandb(_wandb(["crashed", "failed", "crashed"]))
    assert table.attrs["cdplot_note"] == (
        "read a Weights & Biases runs table (finished runs; dropped 3 runs not finished: "
        "2 crashed, 1 failed)"
    )
    assert len(table) == 12
    assert read_wandb(_wandb([])).attrs["cdplot_note"] == (
        "read a Weights & Biases runs table (finished runs)"
    )


# --------------------------------------------------------------------------- OpenML
def test_openml_listing_without_a_column_is_refused_naming_it():
    with pytest.raises(
        CdplotInputError,
        match=r"no OpenML evaluations listing: it has no "
        r"column 'function'",
    ):
        read_openml(_openml_listing().drop(columns="function"))


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("abc", r"column 'value' .*run_id 101"),
        (10**400, r"run_id 101 .*cannot be represented as a float"),
        (True, r"run_id 101"),
    ],
    ids=["text", "10**400", "boolean"],
)
def test_openml_value_that_is_no_score_is_refused_naming_the_run(value, message):
    listing = _openml_listing()
    listing["value"] = listing["value"].astype(object)
    listing.loc[0, "value"] = value  # run 101: predictive_accuracy of SVC on iris
    with pytest.raises(CdplotInputError, match=message) as info:
        read_openml(listing, score="predictive_accuracy")
    assert "<function" not in str(info.value)  # the listing is named, not a helper's repr


def test_openml_missing_name_is_refused_naming_the_run():
    listing = _openml_listing()
    listing.loc[0, "flow_name"] = None
    with pytest.raises(CdplotInputError, match=r"flow_name of run_id 101 .* is missing"):
        read_openml(listing, score="predictive_accuracy")


def test_the_command_line_refuses_a_wandb_export_without_finished_runs(tmp_path, capsys):
    from _helpers import run

    path = tmp_path / "wandb_export.csv"
    _wandb([]).assign(State="crashed").to_csv(path, index=False)
    code, _, err = run(["compare", path], capsys)
    assert code == 2
    assert len(err.strip().splitlines()) == 1, err
    assert "no run in" in err and "finished (State: 12 crashed)" in err

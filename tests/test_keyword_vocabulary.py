"""One vocabulary for the keywords of the public functions (STYLE §3).

- every reader takes its input as ``source`` (``path=``/``data=`` still work, with a
  DeprecationWarning, for one release); ``read_lm_eval``'s ``level=`` is ``granularity=``;
- ``simulate``, ``simulate_grid`` and ``pool_sensitivity`` take the data first and every
  option by keyword;
- the Bergmann-Hommel budget is ``bh_budget``, in seconds, everywhere
  (``simulate(bh_max_steps=)`` and ``bergmann_hommel(max_steps=)`` warn);
- ``higher_is_better`` defaults to None (not given: higher is better, with a warning on
  error-like score names) in every function that ranks raw scores;
- a misspelt keyword of ``compare()`` is named with the nearest parameter.
"""

from __future__ import annotations

import inspect
import io
import json
import math

import numpy as np
import pandas as pd
import pytest

import cdplot
from cdplot.io import (
    read_jsonl,
    read_lm_eval,
    read_mlflow,
    read_openml,
    read_parquet,
    read_table,
    read_wandb,
)
from cdplot.stats import bergmann_hommel
from cdplot.stats._wins import win_tie_loss

# --------------------------------------------------------------------------- readers: source=


def _lm_eval_folder(root):
    doc = {
        "results": {"arc_easy": {"alias": "arc_easy", "acc,none": 0.5}},
        "config": {"model": "hf", "model_args": "pretrained=EleutherAI/pythia-160m"},
        "model_name": "EleutherAI/pythia-160m",
    }
    out = root / "EleutherAI__pythia-160m"
    out.mkdir()
    (out / "results_2024-05-01T10-00-00.json").write_text(json.dumps(doc))
    return root


def _mlflow_runs():
    return pd.DataFrame(
        {
            "run_id": ["a1", "b2"],
            "metrics.acc": [0.9, 0.8],
            "params.dataset": ["iris", "iris"],
            "params.model": ["svm", "knn"],
        }
    )


def _wandb_csv():
    return io.StringIO(
        "Name,State,Created,Runtime,dataset,model,accuracy\nr1,finished,2024-01-01,12,iris,svm,0.9\n"
    )


def _openml_listing():
    return pd.DataFrame(
        {
            "run_id": [1, 2],
            "task_id": [59, 59],
            "setup_id": [7, 8],
            "flow_id": [10, 11],
            "flow_name": ["svm", "knn"],
            "data_id": [61, 61],
            "data_name": ["iris", "iris"],
            "function": ["predictive_accuracy"] * 2,
            "value": [0.95, 0.93],
        }
    )


def _files(tmp_path):
    pl = pytest.importorskip("polars")
    rows = pl.DataFrame({"task": ["t1", "t1"], "model": ["A", "B"], "acc": [0.5, 0.75]})
    parquet = tmp_path / "runs.parquet"
    rows.write_parquet(parquet)
    jsonl = tmp_path / "runs.jsonl"
    jsonl.write_text('{"task": "t1", "model": "A", "acc": 0.5}\n')
    return parquet, jsonl


def test_every_reader_takes_source(tmp_path):
    parquet, jsonl = _files(tmp_path)
    csv = tmp_path / "scores.csv"
    csv.write_text("dataset,A,B\nd1,0.5,0.6\n")
    (tmp_path / "lm").mkdir()
    calls = [
        (read_lm_eval, _lm_eval_folder(tmp_path / "lm")),
        (read_parquet, parquet),
        (read_jsonl, jsonl),
        (read_mlflow, _mlflow_runs()),
        (read_wandb, _wandb_csv()),
        (read_openml, _openml_listing()),
        (read_table, csv),
    ]
    for reader, source in calls:
        assert next(iter(inspect.signature(reader).parameters)) == "source"
        frame = reader(source=source)
        assert len(frame) >= 1, reader.__name__


@pytest.mark.parametrize(
    ("reader", "old", "make"),
    [
        (read_parquet, "path", lambda tmp: _files(tmp)[0]),
        (read_jsonl, "path", lambda tmp: _files(tmp)[1]),
        (read_mlflow, "data", lambda tmp: _mlflow_runs()),
        (read_wandb, "data", lambda tmp: _wandb_csv()),
        (read_openml, "data", lambda tmp: _openml_listing()),
    ],
)
def test_old_input_keyword_warns_and_reads_the_same(tmp_path, reader, old, make):
    expected = reader(make(tmp_path))
    with pytest.warns(
        DeprecationWarning, match=rf"{reader.__name__}\({old}=\.\.\.\) is deprecated"
    ):
        got = reader(**{old: make(tmp_path)})
    pd.testing.assert_frame_equal(got, expected)


def test_read_lm_eval_granularity_and_its_old_name(tmp_path):
    root = _lm_eval_folder(tmp_path)
    tasks = read_lm_eval(root, granularity="task")
    assert tasks.values.tolist() == [["arc_easy", "EleutherAI/pythia-160m", 0.5]]
    with pytest.warns(DeprecationWarning, match=r"read_lm_eval\(level=\.\.\.\) is deprecated"):
        old = read_lm_eval(source=root, level="task")
    pd.testing.assert_frame_equal(old, tasks)
    with pytest.raises(cdplot.CdplotInputError, match="granularity='task'"):
        read_lm_eval(root, granularity="item")  # no samples file: the message names the fix
    with pytest.raises(cdplot.CdplotInputError, match="pass granularity= only"):
        read_lm_eval(root, level="task", granularity="task")


# ------------------------------------------------------------------ data first, options by keyword


def _model():
    return cdplot.NormalModel({"A": 0.0, "B": 1.0, "C": 0.0}, n_datasets=10)


def test_simulate_refuses_options_by_position():
    with pytest.raises(TypeError, match="positional argument"):
        cdplot.simulate(_model(), [("sign", "none")], 10)
    sim = cdplot.simulate(_model(), procedures=[("sign", "none")], n_replicates=10, random_state=0)
    assert sim.n_replicates == 10


def test_simulate_grid_refuses_options_by_position():
    grid = {d: cdplot.NormalModel({"A": 0.0, "B": d}, n_datasets=10) for d in (0.0, 1.0)}
    with pytest.raises(TypeError, match="positional argument"):
        cdplot.simulate_grid(grid, [("sign", "none")])


def test_pool_sensitivity_refuses_alpha_by_position():
    data = cdplot.datasets.load("demsar2006")
    with pytest.raises(TypeError, match="positional argument"):
        cdplot.pool_sensitivity(data, 0.1)
    frame = cdplot.pool_sensitivity(data, alpha=0.1, others=[0])
    assert frame.attrs["alpha"] == 0.1


# ------------------------------------------------------------------ the Bergmann-Hommel budget

BH = [("wilcoxon", "bergmann-hommel")]


def test_simulate_budget_is_bh_budget_in_seconds():
    default = cdplot.simulate(_model(), procedures=BH, n_replicates=20, random_state=3)
    roomy = cdplot.simulate(
        _model(), procedures=BH, n_replicates=20, random_state=3, bh_budget=math.inf
    )
    pd.testing.assert_frame_equal(default.to_frame(), roomy.to_frame())
    with pytest.raises(cdplot.CdplotInputError, match="bh_budget must be a positive number"):
        cdplot.simulate(_model(), procedures=BH, n_replicates=20, bh_budget=-1)
    with pytest.raises(cdplot.CdplotInputError, match="no procedure uses it"):
        cdplot.simulate(_model(), procedures=[("sign", "holm")], n_replicates=20, bh_budget=5)


def test_simulate_budget_reaches_every_table():
    # 20 algorithms with equal means: the exact search needs thousands of steps per table,
    # far more than a nanosecond allows (the clock is read every 2048 steps)
    model = cdplot.NormalModel({f"A{i}": 0.0 for i in range(20)}, n_datasets=15)
    with pytest.raises(cdplot.BergmannHommelLimitError, match="bh_budget"):
        cdplot.simulate(model, procedures=BH, n_replicates=5, random_state=0, bh_budget=1e-9)


def test_simulate_bh_max_steps_is_deprecated_but_honoured():
    with pytest.warns(
        DeprecationWarning, match=r"bh_max_steps=\.\.\.\) is deprecated; pass bh_budget"
    ):
        old = cdplot.simulate(
            _model(), procedures=BH, n_replicates=20, random_state=3, bh_max_steps=10**6
        )
    new = cdplot.simulate(_model(), procedures=BH, n_replicates=20, random_state=3)
    pd.testing.assert_frame_equal(old.to_frame(), new.to_frame())


def test_bergmann_hommel_max_steps_is_deprecated():
    p = np.array([[np.nan, 0.01, 0.04], [0.01, np.nan, 0.5], [0.04, 0.5, np.nan]])
    with pytest.warns(DeprecationWarning, match=r"max_steps=\.\.\.\) is deprecated"):
        old = bergmann_hommel(p, max_steps=10**6)
    np.testing.assert_array_equal(old, bergmann_hommel(p))


def test_bergmann_hommel_bad_matrix_is_an_input_error():
    with pytest.raises(cdplot.CdplotInputError, match="symmetric"):
        bergmann_hommel(np.array([[np.nan, 0.1], [0.2, np.nan]]))


# ------------------------------------------------------------------ higher_is_better

ERRORS = pd.DataFrame(
    {
        "dataset": [f"d{i}" for i in range(6) for _ in range(3)],
        "algorithm": ["A", "B", "C"] * 6,
        "error": np.tile([0.1, 0.2, 0.3], 6) + np.repeat(np.arange(6) / 100, 3),
    }
)


def test_higher_is_better_has_one_default():
    from cdplot.simulation import ResampleModel

    for func in (cdplot.compare, cdplot.pool_sensitivity, win_tie_loss, ResampleModel):
        default = inspect.signature(func).parameters["higher_is_better"].default
        assert default is None, func.__name__


def test_pool_sensitivity_warns_on_an_error_column_when_direction_not_given():
    with pytest.warns(cdplot.CdplotWarning, match="higher_is_better=False"):
        cdplot.pool_sensitivity(ERRORS, others=[0])
    up = cdplot.pool_sensitivity(ERRORS, others=[1], higher_is_better=True)
    assert (
        up["significant"].tolist()
        == cdplot.pool_sensitivity(
            ERRORS.assign(error=-ERRORS["error"]), others=[1], higher_is_better=False
        )["significant"].tolist()
    )


def test_pool_sensitivity_refuses_a_direction_that_contradicts_the_result():
    res = cdplot.compare(cdplot.datasets.load("demsar2006"))
    with pytest.raises(cdplot.CdplotInputError, match="computed with higher_is_better=True"):
        cdplot.pool_sensitivity(res, higher_is_better=False)
    frame = cdplot.pool_sensitivity(res, higher_is_better=True, others=[0])
    assert len(frame) == 6


def test_resample_model_warns_on_an_error_column_when_direction_not_given():
    from cdplot.simulation import ResampleModel

    with pytest.warns(cdplot.CdplotWarning, match="higher_is_better=False"):
        ResampleModel(ERRORS)


def test_win_tie_loss_refuses_a_string_direction():
    scores = pd.DataFrame({"A": [0.9, 0.8, 0.7], "B": [0.8, 0.8, 0.9]})
    with pytest.raises(cdplot.CdplotInputError, match="must be True or False"):
        win_tie_loss(scores, higher_is_better="False")
    assert win_tie_loss(scores) == win_tie_loss(scores, higher_is_better=True)


# ------------------------------------------------------------------ a misspelt keyword


@pytest.mark.parametrize(
    ("typo", "meant"),
    [("alpah", "alpha"), ("higher_is_beter", "higher_is_better"), ("corection", "correction")],
)
def test_misspelt_keyword_names_the_nearest_parameter(typo, meant):
    data = cdplot.datasets.load("demsar2006")
    with pytest.raises(
        cdplot.CdplotInputError, match=rf"^unknown keyword '{typo}'; did you mean '{meant}'\?$"
    ):
        cdplot.compare(data, **{typo: 0.1})


def test_an_option_of_another_test_is_still_reported_for_the_test():
    data = cdplot.datasets.load("demsar2006")
    with pytest.raises(
        cdplot.CdplotInputError, match=r"unknown option\(s\) 'rope' for test='sign'"
    ):
        cdplot.compare(data, test="sign", rope=0.1)


def test_cli_simulate_takes_bh_budget_in_seconds(capsys):
    from cdplot.cli import main

    study = ["simulate", "--means", "0,0,1", "--replicates", "20", "--seed", "1", "--quiet"]
    assert main([*study, "--procedures", "wilcoxon:bergmann-hommel", "--bh-budget", "30"]) == 0
    capsys.readouterr()
    assert main([*study, "--procedures", "sign:holm", "--bh-budget", "30"]) == 2
    err = capsys.readouterr().err
    assert "--bh-budget applies to --correction bergmann-hommel only" in err
    assert len(err.strip().splitlines()) == 1

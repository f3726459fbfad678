"""Column names of public benchmark tables are recognised by name.

- The AutoML Benchmark's ``results.csv`` (amlb ``amlb/results.py``: ``id``, ``task``,
  ``framework``, ``constraint``, ``fold``, ``type``, ``result``, ``metric``, ``mode``,
  ``version``, ``params``, ``app_version``, ``utc``, ``duration``, ``training_duration``,
  ``predict_duration``, ``models_count``, ``seed``, ``info``, then one column per metric):
  ``framework`` is the algorithm, ``fold`` the run.
- The tsml / UCR bake-off's long results (one row per dataset, classifier and
  ``resample``): ``resample`` is the run, never a score.

A column named like a run number (``resample_no``, ``fold_id``) is never the score cdplot
proposes when several numeric columns could be.
"""

from __future__ import annotations

import pandas as pd
import pytest
from _helpers import run

import cdplot
from cdplot import CdplotInputError

pytestmark = pytest.mark.filterwarnings("ignore::cdplot.PoolDependenceWarning")

DATASETS = [f"ds{d}" for d in range(6)]
METHODS = ["constantpredictor", "RandomForest", "TunedRandomForest"]


def _value(d: int, m: int, r: int) -> float:
    return round(0.5 + 0.1 * m + 0.01 * d + 0.001 * r, 4)


def _amlb() -> pd.DataFrame:
    rows = [
        {
            "id": f"openml.org/t/{d}",
            "task": name,
            "framework": method,
            "constraint": "1h8c",
            "fold": fold,
            "type": "binary",
            "result": _value(d, m, fold),
            "metric": "auc",
            "mode": "aws",
            "version": "stable",
            "params": "",
            "app_version": "2.1.0",
            "utc": "2023-01-01T00:00:00",
            "duration": 60.0 + fold,
            "training_duration": 50.0,
            "predict_duration": 1.5 + m,
            "models_count": 10 + m,
            "seed": 1234,
            "info": "",
            "auc": _value(d, m, fold),
            "logloss": 0.3 + 0.01 * fold,
        }
        for d, name in enumerate(DATASETS)
        for m, method in enumerate(METHODS)
        for fold in range(3)
    ]
    return pd.DataFrame(rows)


def test_amlb_framework_is_the_algorithm_and_fold_the_run():
    res = cdplot.compare(_amlb(), score="result", aggregate="mean", test="sign")
    assert res.algorithms == METHODS
    assert res.datasets == DATASETS
    assert res.aggregation.columns == ("fold",)
    # statistics.fmean of the three folds, rounded as written
    want = (_value(2, 1, 0) + _value(2, 1, 1) + _value(2, 1, 2)) / 3
    assert res.scores.loc["ds2", "RandomForest"] == pytest.approx(want, abs=1e-15)
    with pytest.raises(
        CdplotInputError,
        match=r"several columns could hold the scores: 'result'"
        r".*; pass score='result' to compare",
    ):
        cdplot.compare(_amlb(), aggregate="mean")


def _bake_off(run_column: str = "resample") -> pd.DataFrame:
    rows = [
        (name, method, r, _value(d, m, r))
        for d, name in enumerate(DATASETS)
        for m, method in enumerate(METHODS)
        for r in range(3)
    ]
    return pd.DataFrame(rows, columns=["dataset", "classifier", run_column, "accuracy"])


def test_bake_off_resample_is_the_run_not_the_score(tmp_path, capsys):
    path = tmp_path / "bakeoff.csv"
    _bake_off().to_csv(path, index=False)
    code, _, err = run(["compare", path], capsys)
    assert code == 2
    assert "told apart by column 'resample': these look like repeated runs" in err
    assert "--score-col resample" not in err
    code, out, err = run(["compare", path, "--aggregate", "mean", "--test", "sign"], capsys)
    assert code == 0, err
    assert "scores are means over 3 resamples" in " ".join(out.split())


@pytest.mark.parametrize("run_column", ["resample_no", "fold_id", "Seed Index", "rep_nr"])
def test_a_run_number_is_never_proposed_as_the_score(tmp_path, capsys, run_column):
    table = _bake_off(run_column).assign(auc=lambda t: t["accuracy"] / 2)
    with pytest.raises(CdplotInputError, match=r"; pass score='accuracy' to compare") as info:
        cdplot.compare(table)
    assert f"score={run_column!r}" not in str(info.value)
    path = tmp_path / "runs.csv"
    table.to_csv(path, index=False)
    code, _, err = run(["compare", path], capsys)
    assert code == 2
    assert "pass --score-col accuracy to compare" in err
    assert "--score-col accuracy --score-col auc, adding" in " ".join(err.split())
    assert f"--score-col {run_column}" not in err

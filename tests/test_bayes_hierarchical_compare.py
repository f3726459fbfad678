"""compare(test="bayes-hierarchical"), its figures, JSON and the command line."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from _helpers import run

import cdplot
from cdplot._errors import CdplotInputError
from cdplot.io._folds import read_folds

pytest.importorskip("numpyro")

SHORT_FIT = pytest.mark.filterwarnings("ignore:the hierarchical model's sampler did not")
FAST = {"nsamples": 400, "warmup": 200, "random_state": 1}


def _long_table(seed: int = 0) -> pd.DataFrame:
    """Three algorithms on six datasets, five folds each; A is 0.05 better than B and C."""
    rng = np.random.default_rng(seed)
    rows = []
    for d in range(6):
        base = rng.normal(0.8, 0.05)
        for fold in range(5):
            split = rng.normal(0.0, 0.02)  # the fold's split, shared by the algorithms
            for name, shift in (("A", 0.05), ("B", 0.0), ("C", 0.002)):
                score = base + shift + split + rng.normal(0.0, 0.01)
                rows.append((f"d{d}", name, fold, score))
    return pd.DataFrame(rows, columns=["dataset", "algorithm", "fold", "accuracy"])


@pytest.fixture(scope="module")
def result():
    import warnings

    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", "the hierarchical model's sampler did not")
        return cdplot.compare(_long_table(), test="bayes-hierarchical", rope=0.01, **FAST)


def test_the_folds_are_kept_and_paired_by_their_label():
    table = _long_table()
    folds = read_folds(table.sample(frac=1.0, random_state=3))  # rows in any order
    assert folds.scores.shape == (6, 3, 5)
    expected = table[(table.dataset == "d2") & (table.algorithm == "B")].sort_values("fold")
    row = folds.select(["d2"], ["B"])[0, 0]
    np.testing.assert_array_equal(row[np.argsort([int(f) for f in folds.folds])],
                                  expected.accuracy.to_numpy())  # fmt: skip


def test_compare_gives_a_bayesian_result_of_the_folds(result):
    assert isinstance(result, cdplot.stats.BayesianComparisonResult)
    assert result.test == "bayes-hierarchical"
    better = result.posterior_better
    assert better.loc["A", "B"] > 0.95 and better.loc["A", "C"] > 0.95
    assert result.decisions.loc["A", "B"] == "A better"
    eq = result.posterior_equivalent
    total = better.loc["B", "C"] + better.loc["C", "B"] + eq.loc["B", "C"]
    assert total == pytest.approx(1.0)
    assert result.groups[0] == ("A",)
    assert "Bayesian hierarchical test" in result.summary()


def test_its_json_and_figures(result, tmp_path):
    doc = json.loads(result.to_json())
    again = cdplot.load_result(doc)
    assert again.test == "bayes-hierarchical"
    np.testing.assert_allclose(again.posterior_better, result.posterior_better)
    ax = result.plot()  # the Bayesian CD diagram
    ax.figure.savefig(tmp_path / "cd.png")
    assert (tmp_path / "cd.png").stat().st_size > 0


def test_a_table_without_folds_is_refused_by_name():
    means = _long_table().groupby(["dataset", "algorithm"], as_index=False).accuracy.mean()
    with pytest.raises(CdplotInputError, match="at least two folds"):
        cdplot.compare(means, test="bayes-hierarchical", **FAST)


def test_unequal_folds_are_refused_by_name():
    table = _long_table()
    table = table.drop(index=table.index[(table.dataset == "d1") & (table.fold == 4)][:1])
    # the means' reader warns about unequal run counts before the folds are refused
    with pytest.warns(UserWarning), pytest.raises(CdplotInputError, match="same folds"):
        cdplot.compare(table, test="bayes-hierarchical", **FAST)


def test_bad_options_are_refused_by_name():
    table = _long_table()
    with pytest.raises(CdplotInputError, match="rope"):
        cdplot.compare(table, test="bayes-hierarchical", rope=-1)
    with pytest.raises(CdplotInputError, match="test_train_ratio"):
        cdplot.compare(table, test="bayes-hierarchical", test_train_ratio=0)
    with pytest.raises(CdplotInputError, match="warmup"):
        cdplot.compare(table, test="bayes-hierarchical", warmup=0)


@SHORT_FIT
def test_the_command_line_runs_it(tmp_path, capsys):
    path = tmp_path / "folds.csv"
    _long_table().query("algorithm != 'C'").to_csv(path, index=False)
    argv = ["compare", path, "--test", "bayes-hierarchical", "--rope", "0.01", "--seed", "1",
            "--nsamples", "400", "--warmup", "200"]  # fmt: skip
    code, out, err = run(argv, capsys)
    assert code == 0, err
    assert "Bayesian hierarchical test" in out
    code, out, err = run([*argv[:4], "--warmup", "0"], capsys)
    assert code == 2 and "--warmup must be a positive integer" in err

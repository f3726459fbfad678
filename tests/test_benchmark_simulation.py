"""Simulation studies of one benchmark's items: BenchmarkModel and simulate()'s item tests.

The bounds below are the nominal level plus three Monte Carlo standard errors of a rate
(sqrt(alpha (1 - alpha) / R)); the seeds are fixed, so each test gives one answer.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import cdplot
from cdplot import CdplotInputError
from cdplot.simulation import BenchmarkModel, simulate

ALPHA = 0.05


def _bound(n_replicates: int) -> float:
    return ALPHA + 3 * math.sqrt(ALPHA * (1 - ALPHA) / n_replicates)


def test_accuracies_are_the_models_solve_rates():
    model = BenchmarkModel({"a": 0.3, "b": 0.8}, n_items=400, difficulty=0.4)
    tables = model.draw(np.random.default_rng(0), 50)
    rates = tables.mean(axis=(0, 1))  # 20,000 draws a model: standard error about 0.003
    np.testing.assert_allclose(rates, [0.3, 0.8], atol=0.015)


def test_public_and_described():
    model = cdplot.BenchmarkModel([0.5, 0.5, 0.6], n_items=30, n_clusters=5, icc=0.2)
    assert model.algorithms == ("M1", "M2", "M3")
    assert model.describe()["n_clusters"] == 5
    assert model.true_null.tolist()[0] == [True, True, False]
    assert np.bincount(model.clusters).tolist() == [6] * 5


def test_complete_null_fwer_holm_and_shaffer_within_alpha():
    model = BenchmarkModel([0.6] * 4, n_items=60)
    n = 600
    sim = simulate(
        model,
        procedures=[("mcnemar", "holm"), ("mcnemar", "shaffer"), ("paired-t", "holm")],
        n_replicates=n,
        random_state=1,
    )
    assert (sim.fwer <= _bound(n)).all(), sim.fwer
    # Shaffer's correction rejects at least what Holm's does on the same tables
    assert sim.fwer["mcnemar+shaffer"] >= sim.fwer["mcnemar+holm"]


@pytest.mark.slow
def test_complete_null_fwer_larger_design():
    model = BenchmarkModel([0.7] * 6, n_items=300, difficulty=0.3)
    n = 2000
    sim = simulate(
        model,
        procedures=[("mcnemar", "holm"), ("mcnemar", "shaffer"), ("mcnemar", "bergmann-hommel")],
        n_replicates=n,
        random_state=3,
    )
    assert (sim.fwer <= _bound(n)).all(), sim.fwer


def test_power_increases_with_the_gap():
    rates = []
    for gap in (0.0, 0.1, 0.2):
        model = BenchmarkModel({"a": 0.5, "b": 0.5, "c": 0.5 + gap}, n_items=120)
        sim = simulate(model, procedures=[("mcnemar", "holm")], n_replicates=300, random_state=2)
        frame = sim.to_frame().set_index(["a", "b"])
        rates.append(float(frame.loc[("a", "c"), "rejection_rate"]))
    assert rates[0] <= _bound(300)  # the gap 0 is a true null
    assert rates[0] < rates[1] < rates[2]
    assert rates[2] > 0.6  # measured 0.79 (seed 2)


def test_clustered_null_naive_over_rejects_cluster_robust_does_not():
    model = BenchmarkModel([0.5] * 3, n_items=100, n_clusters=10, icc=0.3)
    n = 400
    sim = simulate(
        model,
        procedures=[("mcnemar", "holm"), ("paired-t", "holm"), ("cluster-t", "holm")],
        n_replicates=n,
        random_state=4,
    )
    assert sim.fwer["mcnemar+holm"] > 2 * ALPHA
    assert sim.fwer["paired-t+holm"] > 2 * ALPHA
    assert sim.fwer["cluster-t+holm"] <= _bound(n)


def test_cluster_robust_pvalues_equal_compare_with_the_cluster_column():
    import pandas as pd

    from cdplot.simulation._benchmark_run import clustered_pvalues

    model = BenchmarkModel({"a": 0.5, "b": 0.6, "c": 0.7}, n_items=40, n_clusters=8, icc=0.2)
    table = model.draw(np.random.default_rng(5), 1)
    rows = [
        {"model": m, "item": f"i{i}", "cluster": f"c{model.clusters[i]}", "score": table[0, i, j]}
        for i in range(40)
        for j, m in enumerate(model.algorithms)
    ]
    result = cdplot.compare(pd.DataFrame(rows), cluster="cluster", correction="none")
    expected = result.pvalues.loc[["a", "a", "b"], ["b", "c", "c"]].to_numpy()
    got = clustered_pvalues(table, model.clusters)[0]
    np.testing.assert_allclose(got, np.diag(expected), rtol=1e-12)


def test_default_procedure_is_compares_default():
    sim = simulate(BenchmarkModel([0.5, 0.6], n_items=20), n_replicates=50, random_state=0)
    assert sim.procedures == ("mcnemar+holm",)
    clustered = BenchmarkModel([0.5, 0.6], n_items=20, n_clusters=4)
    sim = simulate(clustered, n_replicates=50, random_state=0)
    assert sim.procedures == ("cluster-t+holm",)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"accuracies": [0.5]}, "at least two models"),
        ({"accuracies": [0.5, 1.0]}, "strictly between 0 and 1"),
        ({"accuracies": "ab"}, "mapping"),
        ({"accuracies": [0.5, 0.6], "icc": 0.2}, "icc needs n_clusters"),
        ({"accuracies": [0.5, 0.6], "difficulty": 1.2}, r"difficulty must be in \[0, 1\)"),
        ({"accuracies": [0.5, 0.6], "difficulty": 0.6, "n_clusters": 3, "icc": 0.5}, "below 1"),
        ({"accuracies": [0.5, 0.6], "n_items": 5, "n_clusters": 6}, "exceeds n_items"),
        ({"accuracies": [0.5, 0.6], "n_items": 1}, "n_items must be an integer >= 2"),
    ],
)
def test_bad_settings_are_refused(kwargs, match):
    with pytest.raises(CdplotInputError, match=match):
        BenchmarkModel(**kwargs)


def test_board_test_refused_on_items():
    with pytest.raises(CdplotInputError, match="draws one benchmark's items.*'mcnemar'"):
        simulate(
            BenchmarkModel([0.5, 0.6], n_items=20),
            procedures=[("wilcoxon", "holm")],
            n_replicates=10,
        )


def test_options_are_keyword_only():
    with pytest.raises(TypeError):
        BenchmarkModel([0.5, 0.6], 20)  # type: ignore[misc]

"""Run-level aggregates, probability of improvement and score distributions.

Verified against rliable 1.2.0 (tests/reference/runs/rliable_reference.json, made by
tests/reference/runs/make_rliable_reference.py on seeded inputs stored in the file):

* point estimates equal: ``metrics.aggregate_median``, ``aggregate_iqm``,
  ``aggregate_mean``, ``aggregate_optimality_gap(x, 1.0)``,
  ``metrics.probability_of_improvement`` and ``library.create_performance_profile``
  (score distributions and average score distributions);
* intervals within Monte Carlo error of ``library.get_interval_estimates`` (20,000
  replicates of rliable's stratified bootstrap, percentile method): the same scheme drawn
  from another generator, so the ends agree up to the Monte Carlo error of a quantile.

Checked for consistency only: the normalisation, the shared bootstrap, the rank intervals
over runs and the reading of long tables with a run column.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import cdplot
from cdplot import CdplotInputError
from cdplot.io import read_run_scores

REFERENCE = json.loads(
    (Path(__file__).parent / "reference" / "runs" / "rliable_reference.json").read_text()
)
INPUTS = {k: np.array(v) for k, v in REFERENCE["inputs"].items()}
#: Monte Carlo tolerance of an interval end: with 20,000 replicates on each side the
#: standard error of a 2.5 % quantile of these statistics is below 0.004 (its spread over
#: seeds of our bootstrap), so 0.015 is about four standard errors of the difference.
END_TOLERANCE = 0.015


@pytest.fixture(scope="module")
def aggregates():
    return cdplot.aggregate_scores(INPUTS, n_boot=20000, random_state=0)


def test_aggregate_points_equal_rliable(aggregates):
    assert aggregates.metrics == tuple(REFERENCE["metrics"])
    for i, name in enumerate(aggregates.algorithms):
        # rliable 1.2.0: metrics.aggregate_median / _iqm / _mean / _optimality_gap(x, 1.0)
        np.testing.assert_allclose(
            aggregates.estimate[i], REFERENCE["aggregates"][name], rtol=1e-12
        )


def test_aggregate_intervals_within_monte_carlo_error_of_rliable(aggregates):
    for i, name in enumerate(aggregates.algorithms):
        low, high = np.array(REFERENCE["aggregate_intervals"][name])  # get_interval_estimates
        np.testing.assert_allclose(aggregates.low[i], low, atol=END_TOLERANCE)
        np.testing.assert_allclose(aggregates.high[i], high, atol=END_TOLERANCE)


def test_probability_of_improvement_equals_rliable():
    poi = cdplot.probability_of_improvement(INPUTS, n_boot=20000, random_state=1)
    at = {a: i for i, a in enumerate(poi.algorithms)}
    for pair, value in REFERENCE["improvement"].items():
        x, y = pair.split(",")
        # rliable 1.2.0: metrics.probability_of_improvement(scores_x, scores_y)
        assert poi.estimate[at[x], at[y]] == pytest.approx(value, rel=1e-12)
        assert poi.estimate[at[y], at[x]] == pytest.approx(1 - value, rel=1e-12)
        low, high = REFERENCE["improvement_intervals"][pair]
        # the interval ends are multiples of 1 / (n_x n_y T): a quantile may land one step
        # away from rliable's, 1 / 90 for C (3 runs) against 5 runs on 6 tasks
        assert poi.low[at[x], at[y]] == pytest.approx(low, abs=1 / 90 + 1e-9)
        assert poi.high[at[x], at[y]] == pytest.approx(high, abs=1 / 90 + 1e-9)
    frame = poi.to_frame()
    assert list(frame.columns) == ["x", "y", "estimate", "low", "high", "decided"]
    assert len(frame) == 3


def test_score_distributions_equal_rliable():
    taus = REFERENCE["taus"]
    runs = cdplot.score_profile(INPUTS, tau=taus, n_boot=20000, random_state=2)
    tasks = cdplot.score_profile(INPUTS, tau=taus, of="tasks", n_boot=200, random_state=3)
    for i, name in enumerate(runs.algorithms):
        # rliable 1.2.0: library.create_performance_profile(data, taus)
        np.testing.assert_allclose(runs.profile[i], REFERENCE["score_distributions"][name])
        np.testing.assert_allclose(tasks.profile[i], REFERENCE["average_score_distributions"][name])
        low, high = np.array(REFERENCE["score_distribution_intervals"][name])
        np.testing.assert_allclose(runs.low[i], low, atol=1 / 30 + 1e-9)  # one run in 30
        np.testing.assert_allclose(runs.high[i], high, atol=1 / 30 + 1e-9)
    assert runs.scaled_tau == pytest.approx(1 - runs.profile.mean(axis=0))


def test_normalisation_per_task():
    bounds = {f"task {t + 1}": (0.5 * t, 0.5 * t + 2.0) for t in range(6)}
    agg = cdplot.aggregate_scores(INPUTS, normalise=bounds, metrics="mean", n_boot=100)
    by_hand = {k: (v - 0.5 * np.arange(6)) / 2.0 for k, v in INPUTS.items()}
    expected = [by_hand[a].mean(axis=0).mean() for a in agg.algorithms]
    np.testing.assert_allclose(agg.estimate[:, 0], expected, rtol=1e-12)
    assert agg.normalised


def test_missing_normalisation_is_refused():
    bounds = {"task 1": (0.0, 1.0)}
    with pytest.raises(CdplotInputError, match=r"normalisation scores are missing for 5 task"):
        cdplot.aggregate_scores(INPUTS, normalise=bounds)
    with pytest.raises(CdplotInputError, match=r"equal or non-finite low and high"):
        cdplot.aggregate_scores(INPUTS, normalise={f"task {t}": (1, 1) for t in range(1, 7)})


def test_single_run_per_task_is_refused():
    one = {k: v[:1] for k, v in INPUTS.items()}
    with pytest.raises(CdplotInputError, match=r"needs at least two runs .* single run"):
        cdplot.aggregate_scores(one)
    with pytest.raises(CdplotInputError, match=r"at least two runs"):
        cdplot.run_rank_intervals(one)


def test_unknown_metric_and_bad_n_boot():
    with pytest.raises(CdplotInputError, match=r"not a valid value for metrics"):
        cdplot.aggregate_scores(INPUTS, metrics="mode")
    with pytest.raises(CdplotInputError, match=r"n_boot must be between 100"):
        cdplot.aggregate_scores(INPUTS, n_boot=10)


def test_one_bootstrap_shared_by_every_analysis():
    runs = read_run_scores(INPUTS)
    boot = cdplot.run_bootstrap(runs, n_boot=300, random_state=5)
    first = cdplot.aggregate_scores(runs, bootstrap=boot)
    again = cdplot.aggregate_scores(runs, bootstrap=boot)
    assert np.array_equal(first.low, again.low) and np.array_equal(first.high, again.high)
    seeded = cdplot.aggregate_scores(runs, n_boot=300, random_state=5)
    assert np.array_equal(first.low, seeded.low)
    normalised = {f"task {t}": (0.0, 2.0) for t in range(1, 7)}
    with pytest.raises(CdplotInputError, match=r"resamples other scores"):
        cdplot.aggregate_scores(runs, normalise=normalised, bootstrap=boot)


def test_stratified_bootstrap_keeps_each_cell_within_its_runs():
    runs = read_run_scores({"A": [[1.0, 10.0], [2.0, 20.0], [np.nan, 30.0]]})
    boot = cdplot.run_bootstrap(runs, n_boot=200, random_state=0)
    (chunk,) = list(boot.chunks())
    task1, task2 = chunk[:, 0, 0, :], chunk[:, 1, 0, :]
    assert set(np.unique(task1[:, :2])) <= {1.0, 2.0} and np.isnan(task1[:, 2]).all()
    assert set(np.unique(task2)) <= {10.0, 20.0, 30.0}


def test_rank_intervals_over_runs():
    rng = np.random.default_rng(3)
    data = {name: mu + rng.normal(0, 0.05, (10, 4)) for name, mu in (("A", 3), ("B", 2), ("C", 1))}
    ri = cdplot.run_rank_intervals(data, n_boot=500, random_state=0)
    assert ri.method == "runs"
    assert ri.algorithms == ("A", "B", "C")
    assert ri.low.tolist() == [1, 2, 3] and ri.high.tolist() == [1, 2, 3]
    assert ri.p_best[0] == 1.0
    close = {"A": data["A"], "B": data["A"] + rng.normal(0, 0.05, (10, 4))}
    loose = cdplot.run_rank_intervals(close, n_boot=500, random_state=0)
    assert loose.low.tolist() == [1, 1] and loose.high.tolist() == [2, 2]


def test_long_table_with_a_seed_column(tmp_path):
    rows = ["task,algorithm,seed,score"]
    for name, arr in INPUTS.items():
        for r in range(arr.shape[0]):
            rows += [f"game{t},{name},{r},{arr[r, t]}" for t in range(arr.shape[1])]
    path = tmp_path / "runs.csv"
    path.write_text("\n".join(rows) + "\n")
    runs = read_run_scores(path)
    assert runs.tasks == tuple(f"game{t}" for t in range(6))
    assert runs.counts[:, runs.algorithms.index("C")].tolist() == [3] * 6
    from_file = cdplot.aggregate_scores(path, metrics="iqm", n_boot=100)
    assert from_file.estimate[:, 0] == pytest.approx(
        [REFERENCE["aggregates"][a][1] for a in from_file.algorithms], rel=1e-12
    )


def test_table_without_run_column_is_refused(tmp_path):
    path = tmp_path / "means.csv"
    path.write_text("task,algorithm,score\nt1,A,1\nt1,B,2\n")
    with pytest.raises(CdplotInputError, match=r"no run column .* run="):
        read_run_scores(path)


def test_rank_intervals_of_a_comparison_resample_the_runs(tmp_path):
    rows = ["task,algorithm,seed,score"]
    for name, arr in INPUTS.items():
        for r in range(arr.shape[0]):
            rows += [f"t{t},{name},{r},{arr[r, t]}" for t in range(arr.shape[1])]
    path = tmp_path / "runs.csv"
    path.write_text("\n".join(rows) + "\n")
    with pytest.warns(cdplot.CdplotWarning, match="different numbers of runs"):  # C: 3 runs
        res = cdplot.compare(path, aggregate="mean")  # the runs averaged per task
    ri = cdplot.rank_intervals(res, method="runs", runs=path, n_boot=300, random_state=0)
    direct = cdplot.run_rank_intervals(path, n_boot=300, random_state=0)
    assert ri.method == "runs" and ri.algorithms == direct.algorithms
    np.testing.assert_allclose(ri.average_rank, [res.average_ranks[a] for a in ri.algorithms])
    boot = cdplot.run_bootstrap(read_run_scores(path), n_boot=300, random_state=4)
    shared = cdplot.rank_intervals(res, method="runs", runs=boot)
    np.testing.assert_array_equal(
        shared.p_best, cdplot.run_rank_intervals(boot.runs, bootstrap=boot).p_best
    )
    with pytest.raises(CdplotInputError, match=r"method='runs'\) resamples the runs"):
        cdplot.rank_intervals(res, method="runs")
    with pytest.raises(CdplotInputError, match=r"runs= holds other algorithms"):
        cdplot.rank_intervals(res, method="runs", runs={"A": np.ones((2, 6))})


def test_effect_sizes_of_a_comparison_resample_the_runs(tmp_path):
    rows = ["task,algorithm,seed,score"]
    for name, arr in INPUTS.items():
        for r in range(arr.shape[0]):
            rows += [f"t{t},{name},{r},{arr[r, t]}" for t in range(arr.shape[1])]
    path = tmp_path / "runs.csv"
    path.write_text("\n".join(rows) + "\n")
    with pytest.warns(cdplot.CdplotWarning, match="different numbers of runs"):
        res = cdplot.compare(path, aggregate="mean")
    by_datasets = cdplot.effect_sizes(res, measure="mean")
    by_runs = cdplot.effect_sizes(
        res, measure="mean", resample="runs", runs=path, n_boot=500, random_state=0
    )
    # the same pairs and estimates (mean paired difference of the task means) ...
    assert by_runs[["a", "b"]].values.tolist() == by_datasets[["a", "b"]].values.tolist()
    np.testing.assert_allclose(by_runs["estimate"], by_datasets["estimate"], rtol=1e-9)
    # ... with the intervals of new seeds on the same tasks (other ends than over datasets)
    assert (by_runs["low"] <= by_runs["estimate"]).all()
    assert (by_runs["estimate"] <= by_runs["high"]).all()
    assert not np.allclose(by_runs["low"], by_datasets["low"])
    assert (by_runs["n"] == 6).all()
    sup = cdplot.effect_sizes(
        res, measure="superiority", resample="runs", runs=path, n_boot=200, random_state=0
    )
    row = sup.set_index(["a", "b"]).loc[("A", "B")]
    assert row["estimate"] == pytest.approx(REFERENCE["improvement"]["A,B"], rel=1e-12)
    with pytest.raises(CdplotInputError, match=r"resample='runs'\) has the measures"):
        cdplot.effect_sizes(res, measure="cohen-d", resample="runs", runs=path)
    with pytest.raises(CdplotInputError, match=r"resample='runs'\) resamples the runs"):
        cdplot.effect_sizes(res, resample="runs")


def test_score_profile_weighs_tasks_equally_with_unequal_runs():
    runs = read_run_scores({"A": [[0.1, 0.9], [0.6, np.nan], [0.8, np.nan]]})
    prof = cdplot.score_profile(runs, tau=[0.0, 0.5, 0.85], n_boot=100, random_state=0)
    # task 1 runs 0.1, 0.6, 0.8 and task 2 run 0.9: the mean over tasks of each task's share
    expected = [(1 + 1) / 2, (2 / 3 + 1) / 2, (0 + 1) / 2]
    np.testing.assert_allclose(prof.profile[0], expected, rtol=1e-12)


def test_wide_table_with_a_run_column_and_lower_is_better(tmp_path):
    path = tmp_path / "wide.csv"
    path.write_text("task,run,fast,slow\nt1,1,1.0,3.0\nt1,2,2.0,4.0\nt2,1,5.0,5.0\nt2,2,6.0,7.0\n")
    runs = read_run_scores(path, higher_is_better=False)
    assert runs.algorithms == ("fast", "slow") and runs.counts.tolist() == [[2, 2], [2, 2]]
    poi = cdplot.probability_of_improvement(runs, n_boot=100, random_state=0)
    # lower is better: on t1 every run of fast beats slow (1); on t2 fast 5, 6 against slow
    # 5, 7: wins 6 < 7, 5 < 7, tie 5 = 5, loss 6 > 5 -> (2 + 0.5) / 4
    assert poi.algorithms[0] == "fast"
    assert poi.estimate[0, 1] == pytest.approx((1 + 2.5 / 4) / 2, rel=1e-12)


def test_task_bootstrap_draws_tasks_then_runs():
    runs = read_run_scores({"A": [[1.0, 10.0, 100.0], [2.0, 11.0, 101.0]]})
    boot = cdplot.run_bootstrap(runs, n_boot=300, random_state=0, tasks=True)
    (chunk,) = list(boot.chunks())
    # each drawn task keeps its own runs: a cell holds 1-2, 10-11 or 100-101, never a mix
    cells = chunk[:, :, 0, :].reshape(-1, 2)
    assert all(
        set(c) <= {1.0, 2.0} or set(c) <= {10.0, 11.0} or set(c) <= {100.0, 101.0}
        for c in cells.tolist()
    )
    drawn = [{int(np.log10(row[0])) for row in rep} for rep in chunk[:, :, 0, :].tolist()]
    assert any(len(d) < 3 for d in drawn)  # some replicates draw a task twice
    wide = cdplot.aggregate_scores(runs, metrics="mean", bootstrap=boot)
    narrow = cdplot.aggregate_scores(runs, metrics="mean", n_boot=300, random_state=0)
    assert wide.high[0, 0] - wide.low[0, 0] > 10 * (narrow.high[0, 0] - narrow.low[0, 0])

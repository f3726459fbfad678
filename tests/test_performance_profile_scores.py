"""Dolan-More performance profiles of scores to maximise (``higher_is_better=True``).

The ratio of solver s on problem p is ``max_s f_ps / f_ps`` (the ratio of the costs
``1 / f_ps``), a score of 0 a failure (never within any factor). Values checked by hand
below; the profile of the scores equals the profile of the costs ``1 / f_ps`` (Dolan & More
2002, eq. 1 and 2, with ``t_ps = 1 / f_ps``).
"""

from __future__ import annotations

import json

import numpy as np
import pytest

import cdplot
from cdplot._errors import CdplotInputError
from cdplot.cli import main
from cdplot.io import read_run_scores

# three problems: A finds 10, 8, 0; B finds 5, 8, 6
SCORES = {"A": np.array([[10.0, 8.0, 0.0]]), "B": np.array([[5.0, 8.0, 6.0]])}


def test_the_ratio_is_the_best_score_over_the_solvers():
    p = cdplot.performance_profile(SCORES, higher_is_better=True, tau=[1.0, 1.9, 2.0, 4.0])
    # A: ratios 1, 1, inf (its 0); B: ratios 2, 1, 1
    assert p.profile.tolist() == [[2 / 3, 2 / 3, 2 / 3, 2 / 3], [2 / 3, 2 / 3, 1.0, 1.0]]
    assert p.low is None  # one run per problem: no band


def test_scores_and_their_reciprocal_costs_give_one_profile():
    rng = np.random.default_rng(3)
    scores = {a: rng.integers(1, 60, (1, 40)).astype(float) for a in "ABC"}
    costs = {a: 1.0 / v for a, v in scores.items()}
    tau = np.array([1.0, 1.1, 1.37, 2.0, 3.3])
    by_score = cdplot.performance_profile(scores, higher_is_better=True, tau=tau)
    by_cost = cdplot.performance_profile(costs, tau=tau)
    np.testing.assert_allclose(by_score.profile, by_cost.profile)


def test_runs_are_averaged_before_the_ratio_and_give_a_band():
    # A: runs 10 and 20 (mean 15); B: 12 and 12; on one problem B's ratio is 15 / 12 = 1.25
    runs = read_run_scores({"A": np.array([[10.0], [20.0]]), "B": np.array([[12.0], [12.0]])})
    assert runs.higher_is_better
    p = cdplot.performance_profile(runs, tau=[1.2, 1.25, 1.3], n_boot=200, random_state=0)
    assert p.profile.tolist() == [[1.0, 1.0, 1.0], [0.0, 1.0, 1.0]]
    assert p.low is not None and p.n_boot == 200


def test_the_default_grid_reaches_the_largest_finite_ratio():
    p = cdplot.performance_profile(SCORES, higher_is_better=True)
    assert p.tau[0] == 1.0 and p.tau[-1] == pytest.approx(2.0 * 1.05)
    assert p.profile[:, -1].tolist() == [2 / 3, 1.0]


@pytest.mark.parametrize("bad", [-1.0, np.inf])
def test_a_negative_or_infinite_score_is_refused(bad):
    scores = {"A": np.array([[1.0, bad]]), "B": np.array([[2.0, 3.0]])}
    with pytest.raises(CdplotInputError, match="every score must be finite and at least 0"):
        cdplot.performance_profile(scores, higher_is_better=True)


def test_a_data_profile_of_scores_is_refused():
    with pytest.raises(CdplotInputError, match="data profiles read costs"):
        cdplot.data_profile(SCORES, higher_is_better=True)


def test_the_command_line_profiles_scores_without_lower_is_better(tmp_path, capsys):
    path = tmp_path / "sizes.csv"
    path.write_text("problem,solver,seed,size\np1,A,1,10\np1,B,1,5\np2,A,1,8\np2,B,1,8\n")
    out = tmp_path / "dm.json"
    assert main(["runs", str(path), "--profile", "performance", "--json", str(out)]) == 0
    assert "Dolan-More performance profile" in capsys.readouterr().out
    doc = json.loads(out.read_text())["profile"]
    # B: ratios 10 / 5 = 2 on p1 and 1 on p2; A best on both
    assert doc["profile"][0][0] == 1.0 and doc["profile"][1][0] == 0.5


@pytest.mark.mpl_image_compare(filename="runs_performance_profile_blum2015.png")
def test_image_performance_profile_of_the_bundled_independent_sets():
    # the 900 graphs of blum2015 as problems, maximised set sizes, Dolan and More's log axis
    sizes = cdplot.datasets.load("blum2015")
    per_graph = {
        alg: group["score"].to_numpy(dtype=float)[None, :]
        for alg, group in sizes.groupby("algorithm", sort=False)
    }
    tau = np.geomspace(1.0, 2.0, 101)
    profile = cdplot.performance_profile(per_graph, higher_is_better=True, tau=tau)
    return cdplot.profile_plot(profile, scale="log").figure

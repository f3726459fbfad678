"""Dolan-More performance profiles and More-Wild data profiles.

Verified against a table checked by hand (Dolan & More 2002, eq. 1-2: ``r_ps = t_ps /
min_s t_ps``, ``rho_s(tau) = |{p : r_ps <= tau}| / n_p``; More & Wild 2009, eq. 2.5:
``d_s(alpha) = |{p : t_ps / (n_p + 1) <= alpha}| / n_p``). The published example of
Dolan & More (their COPS results) is not bundled; the hand table below covers ties,
failures (``inf``) and a problem every solver but one fails.

Checked for consistency: the bands of the stratified bootstrap over runs contain the profile
and collapse when the runs agree.
"""

from __future__ import annotations

import numpy as np
import pytest

import cdplot
from cdplot import CdplotInputError

INF = np.inf
#: cost of solvers A, B, C (columns) on problems P1..P4 (rows); inf = failure
COSTS = np.array(
    [
        [1.0, 2.0, 4.0],  # ratios 1, 2, 4
        [3.0, 3.0, INF],  # ratios 1, 1, inf (a tie for the best)
        [10.0, 5.0, 20.0],  # ratios 2, 1, 4
        [2.0, INF, 1.0],  # ratios 2, inf, 1
    ]
)
DATA = {name: COSTS[:, j][None, :] for j, name in enumerate("ABC")}
TASKS = ["P1", "P2", "P3", "P4"]


def test_performance_profile_hand_table():
    prof = cdplot.performance_profile(DATA, tasks=TASKS, tau=[1.0, 2.0, 3.99, 4.0])
    assert prof.kind == "performance" and prof.low is None and prof.n_boot == 0
    # by hand from the ratios above: fraction of the 4 problems with ratio <= tau
    expected = [
        [0.5, 1.0, 1.0, 1.0],  # A: P1, P2 at 1; P3, P4 at 2
        [0.5, 0.75, 0.75, 0.75],  # B: P2, P3 at 1; P1 at 2; P4 failed
        [0.25, 0.25, 0.25, 0.75],  # C: P4 at 1; P1, P3 at 4; P2 failed
    ]
    np.testing.assert_array_equal(prof.profile, expected)


def test_data_profile_hand_table():
    dims = {"P1": 1, "P2": 3, "P3": 4, "P4": 1}  # simplex gradients of 2, 4, 5, 2 evaluations
    prof = cdplot.data_profile(DATA, tasks=TASKS, dimensions=dims, budgets=[0.5, 1.0, 2.0])
    # cost per simplex gradient: A 0.5, 0.75, 2, 1; B 1, 0.75, 1, inf; C 2, inf, 4, 0.5
    expected = [[0.25, 0.75, 1.0], [0.0, 0.75, 0.75], [0.25, 0.25, 0.5]]
    np.testing.assert_array_equal(prof.profile, expected)
    with pytest.raises(CdplotInputError, match=r"dimensions= misses problem\(s\) P4"):
        cdplot.data_profile(DATA, tasks=TASKS, dimensions={"P1": 1, "P2": 3, "P3": 4})


def test_bands_from_runs():
    rng = np.random.default_rng(0)
    runs = {k: v * rng.uniform(0.8, 1.25, (6, 4)) for k, v in DATA.items()}
    prof = cdplot.performance_profile(runs, tasks=TASKS, n_boot=300, random_state=0)
    assert prof.n_boot == 300
    assert np.all(prof.low <= prof.profile + 1e-12) and np.all(prof.profile <= prof.high + 1e-12)
    same = {k: np.repeat(v, 3, axis=0) for k, v in DATA.items()}  # three equal runs
    flat = cdplot.performance_profile(same, tasks=TASKS, n_boot=200, random_state=0)
    np.testing.assert_array_equal(flat.low, flat.profile)
    np.testing.assert_array_equal(flat.high, flat.profile)


def test_costs_must_be_positive():
    with pytest.raises(CdplotInputError, match=r"every cost must be positive"):
        cdplot.performance_profile({"A": [[0.0, 1.0]], "B": [[1.0, 1.0]]})


def test_profile_frame():
    prof = cdplot.performance_profile(DATA, tasks=TASKS, tau=[1.0, 2.0])
    frame = prof.to_frame()
    assert list(frame.columns) == ["algorithm", "tau", "profile", "low", "high"]
    assert frame.shape == (6, 5)

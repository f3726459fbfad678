"""Figures of the run-level analyses: aggregates, probabilities of improvement, profiles.

The artists are checked by their gids against the result's numbers; three pytest-mpl
baselines show the figures at 30, 12 and 8 algorithms.
"""

from __future__ import annotations

import numpy as np
import pytest

import cdplot
from cdplot import CdplotInputError


def _runs(k: int, seed: int = 0) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    task_shift = rng.normal(0, 0.3, 8)
    return {
        f"agent {i:02d}": 0.5 + 0.04 * i + task_shift + rng.normal(0, 0.25, (5, 8))
        for i in range(k)
    }


@pytest.fixture(scope="module")
def small():
    data = _runs(4)
    return (
        cdplot.aggregate_scores(data, n_boot=200, random_state=0),
        cdplot.probability_of_improvement(data, n_boot=200, random_state=0),
        cdplot.score_profile(data, n_boot=200, random_state=0),
    )


def test_aggregate_plot_draws_the_intervals(small):
    agg = small[0]
    ax = cdplot.aggregate_plot(agg)
    assert len(ax.figure.axes) == 4
    (bars,) = [c for c in ax.collections if c.get_gid() == "aggregate-interval-median"]
    segments = bars.get_segments()
    ends = sorted((s[0][0], s[1][0]) for s in segments)
    assert ends == sorted(zip(agg.low[:, 0], agg.high[:, 0], strict=True))
    one = cdplot.aggregate_plot(agg, metric="iqm")
    assert len(one.figure.axes) == 1 and one.get_title() == "IQM"
    with pytest.raises(CdplotInputError, match=r"ax= draws one metric; pass metric="):
        cdplot.aggregate_plot(agg, ax=one)


def test_improvement_plot_matrix_and_control(small):
    poi = small[1]
    ax = cdplot.improvement_plot(poi)
    (image,) = ax.images
    np.testing.assert_array_equal(image.get_array(), poi.estimate)
    ax = cdplot.improvement_plot(poi, control=poi.algorithms[-1])
    (bars,) = [c for c in ax.collections if c.get_gid() == "improvement-interval"]
    assert len(bars.get_segments()) == len(poi.algorithms) - 1
    with pytest.raises(CdplotInputError, match=r"control='nobody' is not one of"):
        cdplot.improvement_plot(poi, control="nobody")


def test_profile_plot_lines_and_scales(small):
    prof = small[2]
    ax = cdplot.profile_plot(prof, scale="nonlinear")
    lines = [ln for ln in ax.lines if str(ln.get_gid()).startswith("profile-")]
    assert len(lines) == 4
    np.testing.assert_allclose(lines[0].get_xdata(), prof.scaled_tau)
    dm = cdplot.performance_profile({"A": [[1.0, 2.0]], "B": [[2.0, 1.0]]}, tau=[1, 2])
    with pytest.raises(CdplotInputError, match=r"scale='nonlinear' is rliable's axis"):
        cdplot.profile_plot(dm, scale="nonlinear")
    assert cdplot.profile_plot(dm, scale="log").get_xscale() == "log"


@pytest.mark.mpl_image_compare(filename="runs_aggregates_k30.png")
def test_image_aggregates_k30():
    agg = cdplot.aggregate_scores(_runs(30, seed=1), n_boot=300, random_state=0)
    return cdplot.aggregate_plot(agg).figure


@pytest.mark.mpl_image_compare(filename="runs_improvement_k12.png")
def test_image_improvement_k12():
    poi = cdplot.probability_of_improvement(_runs(12, seed=2), n_boot=300, random_state=0)
    return cdplot.improvement_plot(poi).figure


@pytest.mark.mpl_image_compare(filename="runs_score_profile_k8.png")
def test_image_score_profile_k8():
    prof = cdplot.score_profile(_runs(8, seed=3), n_boot=300, random_state=0)
    return cdplot.profile_plot(prof, scale="nonlinear").figure

"""The statistics figures show are computed in stats/; the figures only draw them.

Verified for consistency only (no external reference): the rank plot's intervals are those
of ``rank_intervals(method="test")``, also against a control, whose intervals are the
counts of the k - 1 decisions with the control, checked here by hand on bundled tables.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import cdplot
from cdplot.stats._intervals import RankPlotStatistics


def quiet(name, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cdplot.CdplotWarning)
        data = cdplot.datasets.load(name)
        return cdplot.compare(data, higher_is_better=name != "garcia2008_synthetic", **kwargs)


def test_rank_intervals_against_a_control_count_the_control_decisions():
    """demsar2006 against C4.5 (Wilcoxon, Holm): C4.5+m and C4.5+m+cf are significantly
    better than C4.5 (adjusted p = 0.036 each, the summary), C4.5+cf is not: C4.5 holds
    ranks 3 to 4, the two better ones 1 to 3, C4.5+cf every rank."""
    res = quiet("demsar2006", control="C4.5")
    ri = cdplot.rank_intervals(res, n_boot=100, random_state=0)
    got = {a: ri.interval(a) for a in ri.algorithms}
    assert got == {"C4.5": (3, 4), "C4.5+m": (1, 3), "C4.5+m+cf": (1, 3), "C4.5+cf": (1, 4)}
    assert ri.method == "test" and ri.confidence == pytest.approx(0.95)


def test_rank_plot_against_a_control_draws_rank_intervals_test_method():
    res = quiet("garcia2008_synthetic", control="Kernel")
    stats = RankPlotStatistics.of(res)
    frame = cdplot.rank_intervals(res, n_boot=100, random_state=0).to_frame()
    for i, a in enumerate(stats.algorithms):
        assert (stats.low[i], stats.high[i]) == (frame.loc[a, "low"], frame.loc[a, "high"])
    assert stats.source == "decisions" and not stats.bayesian


def test_rank_plot_statistics_hold_the_score_summary_and_tiers():
    res = quiet("demsar2006", test="nemenyi")
    stats = RankPlotStatistics.of(res)
    scores = res.scores[list(stats.algorithms)]
    assert stats.mean_score == pytest.approx(scores.mean().to_numpy())
    assert stats.score_sd == pytest.approx(scores.std(ddof=1).to_numpy())
    assert stats.tiers[0] == 1 and list(stats.tiers) == sorted(stats.tiers)
    assert np.all(np.diff(stats.position) > 0)


def test_given_intervals_of_another_object_are_refused():
    res = quiet("demsar2006")
    with pytest.raises(cdplot.CdplotInputError, match="intervals must be the object"):
        RankPlotStatistics.of(res, intervals=object())

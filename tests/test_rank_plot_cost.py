"""What the rank plot computes once: the tiers, each text's clip, the score summary."""

from __future__ import annotations

from types import SimpleNamespace

import matplotlib.text
import numpy as np
import pytest
from _helpers import leaderboard

import cdplot
from cdplot.stats import _letters
from cdplot.stats._intervals import RankPlotStatistics, _score_summary


@pytest.fixture(scope="module")
def board40():
    return leaderboard(40)


def test_tiers_are_found_once_for_all_rows(board40, monkeypatch):
    calls = []
    original = _letters.result_tiers

    def counted(*args, **kwargs):
        calls.append(1)
        return original(*args, **kwargs)

    monkeypatch.setattr(_letters, "result_tiers", counted)
    stats = RankPlotStatistics.of(board40)
    assert len(calls) == 1  # not once per algorithm: each call visits all k x k pairs
    ranked, sep = _letters.separated_pairs(board40)
    position = {a: i for i, a in enumerate(ranked)}
    assert list(stats.tiers) == _letters.tiers(sep, [position[a] for a in stats.algorithms])


def test_each_text_is_clipped_to_the_axes_once(board40, monkeypatch):
    calls = []
    original = matplotlib.text.Text.set_clip_path

    def counted(self, *args, **kwargs):
        calls.append(self)
        return original(self, *args, **kwargs)

    monkeypatch.setattr(matplotlib.text.Text, "set_clip_path", counted)
    ax = cdplot.rank_plot(board40, width=7)
    assert len(calls) == len(ax.texts)
    assert all(t.get_clip_box() is not None and t.get_clip_on() for t in ax.texts)
    box = ax.get_window_extent()
    assert all(np.allclose(t.get_clip_box().extents, box.extents) for t in ax.texts)


def test_score_summary_equals_each_columns_nanstd():
    rng = np.random.default_rng(3)
    values = rng.normal(size=(9, 5)) * [1.0, 10.0, 1e3, 0.1, 1.0] + 1e3
    values[rng.random(values.shape) < 0.3] = np.nan
    values[1:, 4] = np.nan  # one dataset: no standard deviation
    names = [f"a{j}" for j in range(5)]
    result = SimpleNamespace(_input=SimpleNamespace(scores=values), algorithms=names)
    mean, sd = _score_summary(result, names[::-1])
    for i, j in enumerate(range(4, -1, -1)):
        column = values[:, j]
        several = np.sum(~np.isnan(column)) > 1
        assert mean[i] == np.nanmean(values, axis=0)[j]
        expected = float(np.nanstd(column, ddof=1)) if several else np.nan
        assert np.array_equal(sd[i], expected, equal_nan=True)  # bit for bit

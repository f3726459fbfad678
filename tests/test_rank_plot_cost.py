"""What the rank plot computes once: the tiers, each text's clip, the score summary."""

from __future__ import annotations

from types import SimpleNamespace

import matplotlib.text
import numpy as np
import pytest
from _helpers import leaderboard

import cdplot
from cdplot.stats import _letters
from cdplot.stats._intervals import RankPlotStatistics, _given_rows, _score_summary


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


@pytest.mark.parametrize("on", ["ranks", "scores"])
def test_given_intervals_are_read_column_by_column_as_row_by_row(board40, on):
    ri = cdplot.rank_intervals(board40, method="bootstrap", on=on, n_boot=200, random_state=1)
    rows, by_score = _given_rows(ri, board40)
    frame = ri.to_frame()
    assert by_score == (on == "scores")
    key = frame["mean_score"] if by_score else frame["average_rank"]
    placed = sorted(frame.index, key=lambda a: -float(key[a]) if by_score else float(key[a]))
    assert list(rows) == [str(a) for a in frame.index]
    for a in frame.index:
        want = (
            float(frame.loc[a, "average_rank"]), float(frame.loc[a, "low"]),
            float(frame.loc[a, "high"]), float(frame.loc[a, "p_best"]),
            bool(frame.loc[a, "in_best_set"]), placed.index(a) + 1.0,
        )  # fmt: skip
        assert rows[a] == want
        assert [type(v) for v in rows[a]] == [float, float, float, float, bool, float]


def test_given_intervals_with_a_repeated_algorithm_are_refused(board40):
    ri = cdplot.rank_intervals(board40, method="test")
    frame = ri.to_frame()
    twice = SimpleNamespace(to_frame=lambda: frame.iloc[[0, 0, *range(1, len(frame))]])
    with pytest.raises(cdplot.CdplotInputError, match="intervals must be the object"):
        _given_rows(twice, board40)


def test_names_are_measured_in_one_layout_per_font_not_one_per_label(monkeypatch):
    from cdplot.plotting import _text_measure

    board = leaderboard(120)
    calls = []
    original = _text_measure.TextMeasure.__call__

    def counted(self, text, role):
        calls.append(text)
        return original(self, text, role)

    monkeypatch.setattr(_text_measure.TextMeasure, "__call__", counted)
    ax = cdplot.rank_plot(board, width=7)
    names = [t.get_text() for t in ax.texts if (t.get_gid() or "").startswith("rank-name-")]
    assert len(names) == 120 and not any("\u2026" in n for n in names)
    assert len([c for c in calls if c.startswith("model_")]) <= 2  # was one per name


def test_widest_line_is_the_widest_of_the_texts_one_by_one():
    from cdplot.plotting._text_measure import CachedMeasure, TextMeasure

    props = {"row": {"fontsize": 6.0}, "bold": {"fontsize": 7.0, "fontweight": "bold"}}
    measure = TextMeasure(100.0, props)
    texts = ["model_0001", "Wide name ÄÖ", "iiiii", "WW.WW", " lead", "trail ", "a  b"]
    for role in props:
        assert measure.widest_line(texts, role) == max(measure(t, role)[0] for t in texts)
        cached = CachedMeasure(measure)
        assert cached.all_fit(texts, max(measure(t, role)[0] for t in texts), role)
        assert not cached.all_fit(texts, 0.99 * measure("Wide name ÄÖ", role)[0], role)
        assert not cached.all_fit(["$x^2$", "a"], 10.0, role)  # mathematics: one by one

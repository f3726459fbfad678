"""The rank plot's marks: one quantity per axis (the observed rank position with its interval
of positions, the average rank beside as text), each panel's own shading, and a groups
column that stays readable (letters, or numbered tiers) and is never cut."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest
from _helpers import by_gid, leaderboard, only
from matplotlib.collections import PolyCollection

import cdplot
from cdplot.plotting._rank_plot import GROUPS_NOTE, OUTSIDE_NOTE, group_display


def bakeoff(k: int = 40, n: int = 112, seed: int = 40):
    """A bake-off-like board: 40 classifiers' accuracies on 112 datasets, close together,
    with a shared per-dataset difficulty (Wilcoxon signed-rank tests, Holm)."""
    rng = np.random.default_rng(seed)
    skill = np.linspace(0.9, 0.7, k)
    difficulty = rng.normal(0, 0.08, size=(n, 1))
    scores = np.clip(skill + difficulty + rng.normal(0, 0.04, size=(n, k)), 0, 1)
    data = pd.DataFrame(scores, columns=[f"clf{i:02d}" for i in range(k)])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cdplot.CdplotWarning)
        return cdplot.compare(data, test="wilcoxon", correction="holm")


def quiet(name, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cdplot.CdplotWarning)
        return cdplot.compare(cdplot.datasets.load(name), **kwargs)


def marks(ax):
    """Per row (in drawing order): the point's x and the bar's ends (filled points only)."""
    (bars,) = by_gid(ax, "rank-interval")
    points = only(ax, "rank-point")
    ends = [(s[0][0], s[1][0]) for s in bars.get_segments()]
    return np.asarray(points.get_xdata(), dtype=float), np.asarray(ends)


BOARDS = {
    "bakeoff-wilcoxon-holm": lambda: (bakeoff(), {}),
    "k50-nemenyi": lambda: (leaderboard(50), {}),
    "k12-wilcoxon": lambda: (leaderboard(12, seed=3, test="wilcoxon"), {}),
    "garcia-tukey": lambda: (quiet("garcia2008_synthetic", test="tukey"), {}),
    "garcia-control": lambda: (quiet("garcia2008_synthetic", control="Kernel"), {}),
    "demsar-bootstrap": lambda: (quiet("demsar2006"), {"method": "bootstrap"}),
    "bakeoff-bootstrap-scores": lambda: (bakeoff(k=15), {"method": "bootstrap", "on": "scores"}),
}


@pytest.mark.parametrize("name", list(BOARDS))
def test_every_point_lies_within_its_own_bar(name):
    res, given = BOARDS[name]()
    intervals = None
    if given:
        intervals = cdplot.rank_intervals(res, n_boot=300, random_state=1, **given)
    ax = cdplot.rank_plot(res, width=7, intervals=intervals)
    xs, ends = marks(ax)
    assert len(xs) == len(ends) == res.n_algorithms  # no point drawn open (outside)
    assert not by_gid(ax, "rank-point-outside")
    tol = 1e-9
    assert np.all(ends[:, 0] - tol <= xs) and np.all(xs <= ends[:, 1] + tol), name
    # the points are the rank positions 1, 2, ..., k: evenly spaced, best first
    steps = np.diff(xs)
    assert np.allclose(steps, steps[0]) and steps[0] > 0
    # the average rank is printed beside each row
    avg = res.average_ranks
    for a in res.algorithms:
        assert only(ax, f"rank-average-{a}").get_text() == f"{avg[a]:.2f}"


def test_bakeoff_best_model_is_at_position_one_inside_its_bar():
    """The shape that showed the point (average rank 5.1) far right of its bar (1 to 4)."""
    res = bakeoff()
    ax = cdplot.rank_plot(res, width=7)
    xs, ends = marks(ax)
    first = res.average_ranks.index[0]
    assert res.average_ranks.iloc[0] > 4  # the average rank is not a position
    assert ends[0, 0] == pytest.approx(xs[0])  # the best: position 1, its bar starts at 1
    assert only(ax, f"rank-average-{first}").get_text() == f"{res.average_ranks.iloc[0]:.2f}"


@pytest.mark.parametrize(
    ("name", "kwargs", "words"),
    [
        ("demsar2006", {}, ["by average rank; 1 = best", "(from the significant pairs)"]),
        ("garcia2008_synthetic", {"test": "tukey"}, ["by mean score; 1 = best"]),
    ],
)
def test_caption_says_what_each_mark_is(name, kwargs, words):
    ax = cdplot.rank_plot(quiet(name, **kwargs), width=7)
    note = only(ax, "rank-note").get_text().replace("\n", " ")
    assert note.startswith("Point: observed rank position (")
    assert "bar: the rank positions it may hold" in note
    assert "shaded: may rank first" in note and "avg. rank: its mean rank over the datasets" in note
    assert GROUPS_NOTE["letters"] in note
    for w in words:
        assert w in note
    assert only(ax, "rank-axis-head").get_text() == "rank position"
    assert "avg. rank" in [t.get_text() for t in ax.texts]


def test_caption_names_bootstrap_intervals():
    res = quiet("demsar2006")
    ri = cdplot.rank_intervals(res, method="bootstrap", n_boot=300, random_state=0)
    note = only(cdplot.rank_plot(res, intervals=ri), "rank-note").get_text()
    assert "(bootstrap, 95% simultaneous)" in note.replace("\n", " ")


def test_note_lines_fit_the_figure():
    from _helpers import text_problems

    ax = cdplot.rank_plot(leaderboard(7, seed=7, test="wilcoxon"), width=3.3)
    assert text_problems(ax.get_figure(root=True)) == []


def test_a_point_outside_given_intervals_is_drawn_open_and_explained():
    res = leaderboard(8, seed=3)

    class Frame:  # intervals of another quantity: every interval is position 1 only
        def to_frame(self):
            avg = res.average_ranks
            return pd.DataFrame(
                {"average_rank": avg, "low": 1.0, "high": 1.0, "in_best_set": True},
                index=avg.index,
            )

    ax = cdplot.rank_plot(res, intervals=Frame())
    inside, outside = only(ax, "rank-point"), only(ax, "rank-point-outside")
    assert len(inside.get_xdata()) == 1 and len(outside.get_xdata()) == 7
    assert outside.get_markerfacecolor() == "white"
    assert OUTSIDE_NOTE in only(ax, "rank-note").get_text().replace("\n", " ")


# --------------------------------------------------------------------------- panels


def band_panels(ax):
    """Per shaded band: (the x where its panel's names end, the band's y centre)."""
    (bands,) = [c for c in ax.collections if isinstance(c, PolyCollection)]
    names = by_gid(ax, "rank-name-")
    name_xs = sorted({round(t.get_position()[0], 9) for t in names})
    out = []
    for path in bands.get_paths():
        v = path.vertices
        x0, y = v[:, 0].min(), (v[:, 1].min() + v[:, 1].max()) / 2
        out.append((max(x for x in name_xs if x < x0), round(y, 9)))
    return sorted(out)


def row_places(ax, names):
    """(x where the row's name ends, y) of each algorithm in ``names``."""
    places = []
    for a in names:
        x, y = only(ax, f"rank-name-{a}").get_position()
        places.append((round(x, 9), round(y, 9)))
    return sorted(places)


@pytest.mark.parametrize("columns", [2, 3])
def test_each_panel_shades_only_its_own_best_rows(columns):
    res = leaderboard(60, seed=5, test="wilcoxon")
    best = cdplot.rank_intervals(res).best_set
    ax = cdplot.rank_plot(res, width=7, columns=columns)
    assert band_panels(ax) == row_places(ax, best)


def test_shading_follows_given_best_rows_in_every_panel():
    res = leaderboard(30, seed=2)
    avg = res.average_ranks
    chosen = [avg.index[i] for i in (0, 12, 25)]  # one row in each of three panels

    class Frame:
        def to_frame(self):
            return pd.DataFrame(
                {"average_rank": avg, "low": 1.0, "high": float(len(avg)),
                 "in_best_set": [a in chosen for a in avg.index]},
                index=avg.index,
            )  # fmt: skip

    ax = cdplot.rank_plot(res, intervals=Frame(), width=7, columns=3)
    assert band_panels(ax) == row_places(ax, chosen)


# --------------------------------------------------------------------------- groups


def groups(ax, res):
    return [only(ax, f"rank-letters-{a}").get_text() for a in res.average_ranks.index]


def test_short_letter_displays_stay_letters():
    res = leaderboard(12, seed=3, test="wilcoxon")
    assert group_display(res) == "letters"
    ax = cdplot.rank_plot(res)
    assert "letters" in [t.get_text() for t in ax.texts]


def test_long_letter_displays_become_numbered_tiers():
    """k = 100, Wilcoxon: 52 letters, up to 18 characters a row: numbered tiers instead."""
    res = leaderboard(100, test="wilcoxon")
    assert group_display(res) == "tier"
    ax = cdplot.rank_plot(res, width=7, columns=2)
    texts = groups(ax, res)
    tiers = [int(t) for t in texts]  # a number per row, never R's dotted letters
    assert tiers[0] == 1 and all(b - a in (0, 1) for a, b in zip(tiers, tiers[1:], strict=False))
    assert "tier" in [t.get_text() for t in ax.texts]
    assert GROUPS_NOTE["tier"] in only(ax, "rank-note").get_text().replace("\n", " ")
    # each row is not significantly different from its tier's first row; each tier's first
    # row is significantly different from the previous tier's first row
    order = list(res.average_ranks.index)
    sig = res.significant
    first = {}
    for a, t in zip(order, tiers, strict=True):
        first.setdefault(t, a)
        assert a == first[t] or not sig.loc[a, first[t]]
    for t in range(2, max(tiers) + 1):
        assert sig.loc[first[t], first[t - 1]]


def test_groups_column_is_never_cut():
    """Ten-character letter displays in three panels of a 7-in figure: drawn whole."""
    from _helpers import text_problems

    res = leaderboard(50, test="wilcoxon")
    assert group_display(res) == "letters"
    ax = cdplot.rank_plot(res, width=7, columns=3)
    texts = groups(ax, res)
    assert max(map(len, texts)) >= 8
    assert not any("\u2026" in t for t in texts)
    assert [p for p in text_problems(ax.get_figure(root=True)) if p[0] == "outside"] == []


def test_heads_do_not_touch_on_a_narrow_axis():
    """One column with scores: the axis is narrow, its head is the short "rank"."""
    from _helpers import text_problems

    ax = cdplot.rank_plot(leaderboard(10, seed=10, test="wilcoxon"), show_scores=True)
    assert text_problems(ax.get_figure(root=True)) == []
    assert only(ax, "rank-axis-head").get_text() == "rank"
    assert not any("\u2026" in t.get_text() for t in by_gid(ax, "rank-name-"))


def test_a_name_with_bad_mathematics_is_refused_naming_it():
    rng = np.random.default_rng(3)
    names = ["plain", "A$\\frac{$B", "other"]
    data = pd.DataFrame(rng.normal(size=(12, 3)), columns=names)
    res = cdplot.compare(data, test="wilcoxon")
    with pytest.raises(cdplot.CdplotInputError, match=r"rank_plot cannot draw the name 'A\$"):
        cdplot.rank_plot(res)
    with pytest.raises(cdplot.CdplotInputError, match=r"cannot draw the name 'A\$"):
        cdplot.choose_figure(res, width=1.0)  # the CD diagram does not fit: the rank plot


def test_bayesian_key_speaks_of_decisions():
    res = quiet("demsar2006", test="bayes-sign")
    note = only(cdplot.rank_plot(res), "rank-note").get_text().replace("\n", " ")
    assert "(from the decided pairs)" in note and "significant" not in note
    assert "share a letter are not decided different" in note

"""The rank-interval plot: legible from k = 10 to 1,000, letters, intervals."""

from __future__ import annotations

import shutil
import warnings

import matplotlib as mpl
import numpy as np
import pandas as pd
import pytest
from _helpers import by_gid, leaderboard, run_tex

import cdplot
from cdplot.plotting._rank_layout import MIN_FONTSIZE, compact_letter_runs
from cdplot.stats._letters import letter_names


@pytest.fixture(scope="module")
def board50():
    return leaderboard(50)


@pytest.fixture(scope="module")
def board300():
    return leaderboard(300)


def text_boxes(ax):
    """Window extents (pixels) of every non-empty text drawn in ax's figure."""
    fig = ax.get_figure(root=True)
    renderer = fig.canvas.get_renderer()
    fig.draw(renderer)
    texts = [t for t in fig.findobj(mpl.text.Text) if t.get_text().strip() and t.get_visible()]
    return texts, np.array([t.get_window_extent(renderer).extents for t in texts])


def assert_no_overlap(ax):
    texts, boxes = text_boxes(ax)
    x0, y0, x1, y1 = boxes.T
    overlap = (
        (x0[:, None] < x1[None, :]) & (x0[None, :] < x1[:, None])
        & (y0[:, None] < y1[None, :]) & (y0[None, :] < y1[:, None])
    )  # fmt: skip
    np.fill_diagonal(overlap, False)
    pairs = np.argwhere(np.triu(overlap))
    assert not len(pairs), [(texts[i].get_text(), texts[j].get_text()) for i, j in pairs[:5]]
    sizes = [t.get_fontsize() for t in texts]
    assert min(sizes) >= MIN_FONTSIZE
    return texts


@pytest.mark.parametrize("k", [10, 50, 300])
def test_no_two_texts_overlap_at_7_inches(k, board50, board300):
    res = {50: board50, 300: board300}.get(k) or leaderboard(k)
    ax = cdplot.rank_plot(res, width=7)
    texts = assert_no_overlap(ax)
    assert len(by_gid(ax, "rank-name-")) == k
    height = ax.get_figure(root=True).get_size_inches()[1]
    if k >= 50:  # about 0.1 in per row
        assert 0.09 * k < height < 0.1 * k + 1.0
    assert len(texts) >= 2 * k


@pytest.mark.slow
def test_no_two_texts_overlap_at_k_1000():
    ax = cdplot.rank_plot(leaderboard(1000, n=40), width=7)
    assert_no_overlap(ax)


@pytest.mark.parametrize("columns", [2, 3])
def test_long_boards_wrap_into_panels(board300, columns):
    one = cdplot.rank_plot(board300, width=7).get_figure(root=True).get_size_inches()[1]
    ax = cdplot.rank_plot(board300, width=7, columns=columns, show_scores=True)
    assert_no_overlap(ax)
    height = ax.get_figure(root=True).get_size_inches()[1]
    assert height == pytest.approx(one / columns, rel=0.1)
    assert len(by_gid(ax, "rank-score-")) == 300


def test_one_column_is_legible_at_k_50(board50):
    assert_no_overlap(cdplot.rank_plot(board50, width=3.3, show_scores=True))


def test_intervals_are_the_test_based_ones(board50):
    """low = 1 + #significantly better, high = k - #significantly worse (from .significant)."""
    res = board50
    ax = cdplot.rank_plot(res, width=7, show_letters=False)
    (bars,) = by_gid(ax, "rank-interval")
    segments = bars.get_segments()
    (point_line,) = by_gid(ax, "rank-point")
    xs = point_line.get_xdata()
    # map the axis back to rank positions: the points are the positions 1..k in row order
    avg = res.average_ranks.to_numpy()
    b, a = np.polyfit(np.arange(1, len(avg) + 1), xs, 1)
    sig = res.significant.loc[res.average_ranks.index, res.average_ranks.index].to_numpy()
    k = len(avg)
    for i, seg in enumerate(segments):
        better = int(np.sum(sig[i] & (avg < avg[i])))
        worse = int(np.sum(sig[i] & (avg > avg[i])))
        low, high = (seg[0][0] - a) / b, (seg[1][0] - a) / b
        assert low == pytest.approx(1 + better, abs=1e-6)
        assert high == pytest.approx(k - worse, abs=1e-6)


def test_letters_column_shows_res_letters():
    res = leaderboard(12, seed=3, test="wilcoxon")
    ax = cdplot.rank_plot(res)
    alphabet = letter_names(60)
    for name, letters in res.letters.items():
        (text,) = by_gid(ax, f"rank-letters-{name}")
        assert text.get_text() == compact_letter_runs(letters, alphabet)
    assert compact_letter_runs("bcdefk", alphabet) == "b\u2013fk"
    assert compact_letter_runs("abc", alphabet) == "abc"


def test_best_set_is_highlighted(board50):
    ax = cdplot.rank_plot(board50, width=7)
    (best,) = by_gid(ax, "rank-best-interval")
    sig = board50.significant
    first = board50.average_ranks.index[0]
    # the best set: nothing significantly better (interval reaches rank 1)
    expected = [
        a for a in board50.average_ranks.index
        if not any(sig.loc[a, b] for b in board50.average_ranks.index
                   if board50.average_ranks[b] < board50.average_ranks[a])
    ]  # fmt: skip
    assert first in expected
    assert len(best.get_segments()) == len(expected)


def test_given_intervals_object_is_used(board50):
    class Frame:
        def to_frame(self):
            avg = board50.average_ranks
            return pd.DataFrame(
                {"average_rank": avg, "low": 1.0, "high": 2.0, "p_best": 1 / len(avg),
                 "in_best_set": [True] + [False] * (len(avg) - 1)},
                index=avg.index,
            )  # fmt: skip

    ax = cdplot.rank_plot(board50, intervals=Frame(), show_p_best=True, width=7)
    (bars,) = by_gid(ax, "rank-interval")
    lengths = {round(s[1][0] - s[0][0], 9) for s in bars.get_segments()}
    assert len(lengths) == 1
    assert [t.get_text() for t in by_gid(ax, "rank-p-best-")][:1] == ["0.02"]


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"columns": 0}, "columns must be a whole number"),
        ({"columns": 2.5}, "columns must be a whole number"),
        ({"width": 0.8}, "no room for the names"),
        ({"intervals": object()}, "rank_intervals"),
    ],
)
def test_bad_options_are_refused(board50, kwargs, match):
    with pytest.raises(cdplot.CdplotInputError, match=match):
        cdplot.rank_plot(board50, **kwargs)


def test_width_with_ax_is_refused(board50):
    ax = cdplot.rank_plot(board50)
    with pytest.raises(cdplot.CdplotInputError, match="width applies only"):
        cdplot.rank_plot(board50, ax=ax, width=3)


def test_draws_into_a_given_axes(board50):
    from cdplot.plotting._figure import new_figure

    ax = new_figure(7, 6).add_subplot(1, 1, 1)
    assert cdplot.rank_plot(board50, ax=ax, columns=2) is ax
    assert len(by_gid(ax, "rank-name-")) == 50


@pytest.mark.parametrize("fmt", ["pdf", "svg", "png"])
def test_saves(board50, tmp_path, fmt):
    ax = cdplot.rank_plot(board50, width=7)
    path = tmp_path / f"r.{fmt}"
    ax.get_figure(root=True).savefig(path)
    assert path.stat().st_size > 1000


@pytest.mark.skipif(not shutil.which("pdflatex"), reason="pdflatex is not installed")
def test_pgf_compiles_under_pdflatex_with_names_escaped(tmp_path):
    rng = np.random.default_rng(5)
    names = ["a_b", "R&D", "50%", "x^2 #1", "{c}", "d$"]
    data = pd.DataFrame(rng.normal(np.linspace(1, 0, 6), 1, size=(15, 6)), columns=names)
    res = cdplot.compare(data, test="wilcoxon")
    with mpl.rc_context({"pgf.texsystem": "pdflatex"}):
        cdplot.rank_plot(res, show_scores=True).get_figure(root=True).savefig(tmp_path / "r.pgf")
    (tmp_path / "paper.tex").write_text(
        "\\documentclass{article}\\usepackage[T1]{fontenc}\\usepackage{pgf}\\begin{document}"
        "\\input{r.pgf}\\end{document}\n",
        encoding="utf-8",
    )
    run = run_tex("pdflatex", "paper.tex", tmp_path)
    assert run.returncode == 0, run.stdout[-3000:]


# --------------------------------------------------------------------------- baselines


@pytest.mark.mpl_image_compare(filename="rank_plot_k10.png")
def test_image_k10():
    return cdplot.rank_plot(leaderboard(10, seed=10, test="wilcoxon"), show_scores=True).figure


@pytest.mark.mpl_image_compare(filename="rank_plot_k50.png")
def test_image_k50(board50):
    return cdplot.rank_plot(board50, width=7).figure


@pytest.mark.mpl_image_compare(filename="rank_plot_k300.png")
def test_image_k300(board300):
    return cdplot.rank_plot(board300, width=7, columns=3).figure


@pytest.mark.parametrize("test", ["nemenyi", "wilcoxon", "tukey"])
def test_default_intervals_equal_rank_intervals_test_method(test):
    """The figure's default intervals are those of cdplot.rank_intervals(method="test")."""
    from cdplot.stats._intervals import RankPlotStatistics

    for name in ("benavoli2016", "garcia2008_synthetic", "demsar2006"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", cdplot.CdplotWarning)
            res = cdplot.compare(cdplot.datasets.load(name), test=test)
        frame = cdplot.rank_intervals(res, n_boot=100, random_state=1).to_frame()
        stats = RankPlotStatistics.of(res)
        for i, a in enumerate(stats.algorithms):
            assert (stats.low[i], stats.high[i]) == (frame.loc[a, "low"], frame.loc[a, "high"])
            assert stats.in_best_set[i] == bool(frame.loc[a, "in_best_set"])


def test_p_best_column_from_rank_intervals(board50):
    ax = cdplot.rank_plot(board50, show_p_best=True, width=7)
    shown = [float(t.get_text()) for t in by_gid(ax, "rank-p-best-")]
    frame = cdplot.rank_intervals(board50, random_state=0).to_frame()
    assert shown == [round(float(p), 2) for p in frame["p_best"]]


def test_intervals_against_a_control():
    """Only pairs with the control are tested: the control's interval counts them."""
    res = cdplot.compare(cdplot.datasets.load("garcia2008_synthetic"), control="Kernel")
    ax = cdplot.rank_plot(res)
    (bars,) = by_gid(ax, "rank-interval")
    (points,) = by_gid(ax, "rank-point")
    avg = res.average_ranks
    b, a = np.polyfit(np.arange(1.0, len(avg) + 1), points.get_xdata(), 1)
    spans = {
        name: (round((s[0][0] - a) / b, 6), round((s[1][0] - a) / b, 6))
        for name, s in zip(avg.index, bars.get_segments(), strict=True)
    }
    worse = [n for n in avg.index if n != "Kernel" and res.significant[n]]
    assert avg.index[0] == "Kernel" and len(worse) == 4  # Kernel beats all four
    assert spans["Kernel"] == (1, 5 - len(worse))
    for n in worse:
        assert spans[n] == (2, 5)

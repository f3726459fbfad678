"""Tukey's HSD on the critical difference diagram: a mean-score axis in score units.

Tukey's critical difference is a difference of mean scores, so ``cd_diagram`` draws
a Tukey result on a mean-score axis. Checked against R 4.2.2, through the drawn
figure (the axis' units are read off its tick labels, never from cdplot):

* ``parametric_demsar_table6.json`` (copied from ../shared/reference/r-values/): the
  mean scores (``colMeans(X)``), the critical difference as the half-width of
  ``TukeyHSD(aov(score ~ algorithm + dataset), "algorithm")``'s 95% intervals
  (0.018534...) and its adjusted p-values, from which the groups are derived here;
* ``parametric_r.csv`` (made by make_parametric_r.R): the same half-width on
  Benavoli et al.'s 7 x 54 table, whose mean scores are numpy column means.

Geometry checked with numbers through the layout (fake font): the CD bar is
``CD`` axis units long, every line starts at its mean score, ticks are round
numbers at their values, best at the right (the end of rank 1 on the rank axis),
lower-is-better flips the axis, equal mean scores do not break the axis, and no two
texts overlap. The pytest-mpl baselines picture Table 6 (checked by eye: the CD
bar spans 0.800 to 0.8185 on a 0.80-0.83 axis, the bars join C4.5+m+cf..C4.5+cf
and C4.5+m..C4.5).
"""

from __future__ import annotations

import json
import math

import numpy as np
import pandas as pd
import pytest
from _helpers import (
    FAKE_CHAR,
    FAKE_SCALES,
    REFERENCE,
    assert_clean,
    by_gid,
    demsar_table6,
    fake_measure,
    nan_matrix,
    only,
    parametric_r_values,
    text_problems,
)
from _helpers import quiet_compare as quiet
from hypothesis import given
from hypothesis import strategies as st
from matplotlib.colors import to_rgba

from cdplot import CdplotInputError
from cdplot.plotting import cd_diagram, cd_diagrams
from cdplot.plotting._cd_layout import (
    CDLayout,
    LayoutParams,
    compute_layout,
    nice_ticks,
    score_decimals,
    score_scale,
)

TABLE6 = json.loads((REFERENCE / "parametric_demsar_table6.json").read_text())
BASELINE = {"savefig_kwargs": {"dpi": 150}, "style": "default", "tolerance": 2}

# R: colMeans(X) on demsar_table6.csv, in the json's algorithm order
R_MEANS = dict(zip(TABLE6["algorithms"], TABLE6["means"], strict=True))


# R: TukeyHSD(aov(score ~ algorithm + dataset), "algorithm"): half-width of the 95% interval
R_CD = float(
    (nan_matrix(TABLE6["tukey_blocked"]["upr_95"]) - nan_matrix(TABLE6["tukey_blocked"]["lwr_95"]))[
        0, 1
    ]
    / 2
)
# R: TukeyHSD(...)$algorithm[, "p adj"]
R_PADJ = nan_matrix(TABLE6["tukey_blocked"]["p_adj"])


def r_groups(alpha: float = 0.05) -> list[set[str]]:
    """Maximal runs, in R's mean-score order, with no pair R calls significant."""
    names = TABLE6["algorithms"]
    order = sorted(names, key=lambda n: -R_MEANS[n])

    def significant(a: str, b: str) -> bool:
        return R_PADJ[names.index(a), names.index(b)] <= alpha

    runs: list[set[str]] = []
    for i in range(len(order)):
        j = i
        while j + 1 < len(order) and not any(
            significant(a, order[j + 1]) for a in order[i : j + 1]
        ):
            j += 1
        run = set(order[i : j + 1])
        if len(run) > 1 and not any(run <= r for r in runs):
            runs.append(run)
    return runs


# ---------------------------------------------------------------- figure helpers


def tick_texts(ax) -> list[str]:
    """The tick labels, left to right."""
    labels = sorted(by_gid(ax, "cd-tick-label"), key=lambda t: t.get_position()[0])
    return [t.get_text() for t in labels]


def axis_units(ax) -> tuple[float, float]:
    """``(x_of_zero, inches_per_unit)`` read off the drawn tick labels (value -> x is linear)."""
    ticks = [(float(t.get_text()), t.get_position()[0]) for t in by_gid(ax, "cd-tick-label")]
    (v0, x0), (v1, x1) = ticks[0], ticks[-1]
    per_unit = (x1 - x0) / (v1 - v0)
    for v, x in ticks:  # every tick label sits at its value
        assert x == pytest.approx(x0 + (v - v0) * per_unit, abs=1e-9)
    return x0 - v0 * per_unit, per_unit


# ---------------------------------------------------------------- layout helpers


def score_layout(names, means, **kwargs) -> CDLayout:
    kwargs.setdefault("width", 3.3)
    return compute_layout(names, means, measure=fake_measure, score_axis=True, **kwargs)


# R's mean scores of Table 6, best first, and R's groups at 0.05
R_ORDER = sorted(R_MEANS, key=lambda n: -R_MEANS[n])


# ---------------------------------------------------------------- the figure against R


@pytest.fixture
def tukey6():
    return quiet(demsar_table6(), test="tukey", alpha=0.05)


def test_lines_start_at_rs_mean_scores(tukey6):
    ax = cd_diagram(tukey6)
    x_zero, per_unit = axis_units(ax)
    y_axis = only(ax, "cd-axis").get_ydata()[0]
    for name, mean in R_MEANS.items():
        xs, ys = only(ax, f"cd-line-{name}").get_data()
        assert (xs[0] - x_zero) / per_unit == pytest.approx(mean, rel=1e-9)
        assert ys[0] == pytest.approx(y_axis)
        # the number beside the name is the mean score, 3 significant digits of the CD
        assert only(ax, f"cd-rank-{name}").get_text() == f"{mean:.4f}"
    # the axis spans the round numbers around the means: 0.80 to 0.83
    x0, x1 = only(ax, "cd-axis").get_xdata()
    assert (x0 - x_zero) / per_unit == pytest.approx(0.80)
    assert (x1 - x_zero) / per_unit == pytest.approx(0.83)


def test_cd_bar_is_rs_tukey_critical_difference_long(tukey6):
    ax = cd_diagram(tukey6)
    _, per_unit = axis_units(ax)
    bar = only(ax, "cd-cd-bar")
    assert pytest.approx(0.0185342678579, rel=1e-9) == R_CD
    assert np.ptp(bar.get_xdata()) / per_unit == pytest.approx(R_CD, rel=1e-9)
    assert only(ax, "cd-cd-label").get_text() == "CD = 0.0185"


def test_group_bars_are_rs_groups(tukey6):
    ax = cd_diagram(tukey6)
    x_zero, per_unit = axis_units(ax)
    bars = by_gid(ax, "cd-group-bar")
    expected = r_groups()
    # R: C4.5 vs C4.5+m+cf is the only pair with p adj <= 0.05 (0.0130); C4.5+cf vs
    # C4.5+m+cf (0.0518) is not, so both groups have three members
    assert expected == [{"C4.5+m+cf", "C4.5+m", "C4.5+cf"}, {"C4.5+m", "C4.5+cf", "C4.5"}]
    assert [set(b.get_label()[1:].split(" | ")) for b in bars] == expected
    overhang = LayoutParams().bar_overhang
    for bar, group in zip(bars, expected, strict=True):
        xs = [x_zero + R_MEANS[m] * per_unit for m in group]
        assert sorted(bar.get_xdata()) == pytest.approx([min(xs) - overhang, max(xs) + overhang])
        # no bar is as long as the CD: its members differ by less than Tukey's CD
        assert (max(xs) - min(xs)) / per_unit < R_CD
    # and R's significant pair is at least one CD apart on the axis
    xa, xb = (only(ax, f"cd-line-{n}").get_xdata()[0] for n in ("C4.5", "C4.5+m+cf"))
    assert abs(xa - xb) / per_unit >= R_CD


def test_benavoli_cd_and_means_against_r(benavoli):
    res = quiet(benavoli, test="tukey")
    ax = cd_diagram(res, width=7.0)
    x_zero, per_unit = axis_units(ax)
    # R: TukeyHSD(aov(score ~ algorithm + dataset)) half-width (parametric_r.csv, case benavoli)
    half = parametric_r_values()[("benavoli", "tukey_halfwidth", "0", "1")]
    # rel 1e-7 as in test_parametric.py (R's qtukey is accurate to about 1e-8)
    assert np.ptp(only(ax, "cd-cd-bar").get_xdata()) / per_unit == pytest.approx(half, 1e-7)
    means = benavoli.to_numpy().mean(axis=0)  # numpy column means of the 7 x 54 table
    for name, mean in zip(benavoli.columns, means, strict=True):
        x = only(ax, f"cd-line-{name}").get_xdata()[0]
        assert (x - x_zero) / per_unit == pytest.approx(mean, rel=1e-9)
    assert text_problems(ax.figure) == []


def test_best_mean_score_on_the_right_like_rank_one(tukey6):
    ax = cd_diagram(tukey6)
    xs = {n: only(ax, f"cd-line-{n}").get_xdata()[0] for n in R_MEANS}
    assert sorted(xs, key=xs.get) == R_ORDER[::-1]  # C4.5+m+cf (best mean) rightmost
    rank_ax = cd_diagram(quiet(demsar_table6(), test="nemenyi"))
    rank_xs = {n: only(rank_ax, f"cd-line-{n}").get_xdata()[0] for n in R_MEANS}
    assert max(rank_xs, key=rank_xs.get) == max(xs, key=xs.get) == "C4.5+m+cf"
    # reverse puts the best on the left, as on the rank axis
    rev = cd_diagram(tukey6, reverse=True)
    rev_xs = {n: only(rev, f"cd-line-{n}").get_xdata()[0] for n in R_MEANS}
    assert min(rev_xs, key=rev_xs.get) == "C4.5+m+cf"


def test_axis_is_captioned_and_the_old_note_is_gone(tukey6):
    ax = cd_diagram(tukey6)
    texts = " ".join(t.get_text() for t in ax.texts)
    assert only(ax, "cd-axis-caption").get_text() == "mean score (higher is better)"
    assert "rank axis" not in texts and "score units" not in texts
    assert tick_texts(ax) == ["0.80", "0.81", "0.82", "0.83"]
    assert (
        only(ax, "cd-title").get_text()
        == "Tukey HSD test, \N{MATHEMATICAL ITALIC SMALL ALPHA} = 0.05"
    )


def test_lower_is_better_flips_the_axis(tukey6):
    # error rates 1 - accuracy: the same Tukey CD (R's, shift-invariant), best = lowest
    errors = quiet(1 - demsar_table6(), test="tukey", higher_is_better=False)
    ax, ax_acc = cd_diagram(errors), cd_diagram(tukey6)
    assert only(ax, "cd-axis-caption").get_text() == "mean score (lower is better)"
    x_zero, per_unit = axis_units(ax)
    assert per_unit < 0  # values decrease to the right, towards the best
    assert tick_texts(ax) == ["0.20", "0.19", "0.18", "0.17"]
    for name, mean in R_MEANS.items():
        x = only(ax, f"cd-line-{name}").get_xdata()[0]
        assert (x - x_zero) / per_unit == pytest.approx(1 - mean, rel=1e-9)
        # the mirror image of the accuracy axis: every line at the same x
        assert x == pytest.approx(only(ax_acc, f"cd-line-{name}").get_xdata()[0], abs=1e-9)
    assert np.ptp(only(ax, "cd-cd-bar").get_xdata()) / abs(per_unit) == pytest.approx(R_CD, 1e-9)
    assert [set(b.get_label()[1:].split(" | ")) for b in by_gid(ax, "cd-group-bar")] == r_groups()


def test_highlight_still_works(tukey6):
    ax = cd_diagram(tukey6, highlight={"C4.5": "red"})
    assert to_rgba(only(ax, "cd-name-C4.5").get_color()) == to_rgba("red")
    assert to_rgba(only(ax, "cd-line-C4.5").get_color()) == to_rgba("red")
    assert only(ax, "cd-name-C4.5").get_fontweight() == "bold"
    assert to_rgba(only(ax, "cd-name-C4.5+m").get_color()) == to_rgba("black")
    with pytest.raises(CdplotInputError, match="Did you mean 'C4.5'"):
        cd_diagram(tukey6, highlight="c4.5 ")


def test_rank_format_formats_the_mean_scores(tukey6):
    ax = cd_diagram(tukey6, rank_format="{:.1%}")
    assert only(ax, "cd-rank-C4.5").get_text() == f"{R_MEANS['C4.5']:.1%}"


@pytest.mark.parametrize(
    "rows",
    [
        # every algorithm has mean 2 and Tukey's CD is positive (residuals are not 0)
        [[1.0, 2.0, 3.0], [2.0, 3.0, 1.0], [3.0, 1.0, 2.0]],
        # identical columns: equal means, zero residual variance, CD = 0
        [[1.0, 1.0, 1.0], [2.0, 2.0, 2.0], [3.0, 3.0, 3.0]],
        [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0]],
    ],
)
def test_equal_mean_scores_do_not_break_the_axis(rows):
    res = quiet(pd.DataFrame(rows, columns=["a", "b", "c"]), test="tukey")
    ax = cd_diagram(res)
    x_zero, per_unit = axis_units(ax)
    assert math.isfinite(per_unit) and per_unit > 0
    mean = float(np.mean(rows))
    for name in "abc":
        assert (only(ax, f"cd-line-{name}").get_xdata()[0] - x_zero) / per_unit == pytest.approx(
            mean, abs=1e-9
        )
    x0, x1 = only(ax, "cd-axis").get_xdata()
    assert x1 > x0 and (x0 - x_zero) / per_unit < mean < (x1 - x_zero) / per_unit
    assert np.ptp(only(ax, "cd-cd-bar").get_xdata()) / per_unit == pytest.approx(
        res.critical_difference, abs=1e-9
    )
    assert text_problems(ax.figure) == []


@pytest.mark.filterwarnings("ignore:the CD diagram of .* is not legible")
@pytest.mark.parametrize("k", [2, 5, 12, 30])
@pytest.mark.parametrize("width", [3.3, 7.0])
def test_no_text_overlaps_on_score_axes(k, width, rng):
    scores = rng.normal(size=(20, k)) * 0.05 + np.linspace(0.6, 0.7, k)
    table = pd.DataFrame(scores, columns=[f"algorithm {i}" for i in range(k)])
    fig = cd_diagram(quiet(table, test="tukey"), width=width).figure
    assert text_problems(fig) == []


def test_cd_diagrams_mixes_rank_and_score_axes(tukey6):
    fig = cd_diagrams({"Nemenyi": quiet(demsar_table6(), test="nemenyi"), "Tukey": tukey6})
    nemenyi_ax, tukey_ax = fig.axes
    assert by_gid(nemenyi_ax, "cd-axis-caption") == []
    assert only(tukey_ax, "cd-axis-caption").get_text() == "mean score (higher is better)"
    # the axes are aligned, whatever they measure
    assert list(only(nemenyi_ax, "cd-axis").get_xdata()) == pytest.approx(
        list(only(tukey_ax, "cd-axis").get_xdata())
    )
    _, per_unit = axis_units(tukey_ax)
    assert np.ptp(only(tukey_ax, "cd-cd-bar").get_xdata()) / per_unit == pytest.approx(R_CD, 1e-9)
    assert text_problems(fig) == []


def test_paired_t_stays_on_the_rank_axis():
    # only Tukey's CD is in score units; the paired t-test's groups follow the ranks
    ax = cd_diagram(quiet(demsar_table6(), test="paired-t"))
    assert by_gid(ax, "cd-axis-caption") == []
    assert tick_texts(ax) == ["4", "3", "2", "1"]


# ---------------------------------------------------------------- the layout with numbers


def test_layout_cd_bar_length_in_axis_units():
    lay = score_layout(R_ORDER, [R_MEANS[n] for n in R_ORDER], critical_difference=R_CD)
    assert lay.units == "score" and lay.value_ends == pytest.approx((0.83, 0.80))
    bar = lay.cd_bar
    assert (bar.x1 - bar.x0) / lay.x_per_unit == pytest.approx(R_CD, rel=1e-12)
    assert bar.x0 == pytest.approx(lay.x_axis[0])
    for label in lay.labels:
        assert label.x_rank == pytest.approx(lay.value_to_x(R_MEANS[label.algorithm]))
        assert label.rank_text.text == f"{R_MEANS[label.algorithm]:.4f}"
    for block in lay.tick_labels:
        assert block.x == pytest.approx(lay.value_to_x(float(block.text)))
    assert lay.axis_caption is not None and lay.axis_caption.y < lay.tick_labels[0].bbox[1]
    assert_clean(lay)


def test_layout_axis_is_at_least_one_cd_long():
    # means 0.5 and 0.51, CD 0.3: the axis widens evenly to cover 0.355..0.655 at least
    lay = score_layout(["a", "b"], [0.51, 0.5], critical_difference=0.3)
    lo, hi = sorted(lay.value_ends)
    assert hi - lo >= 0.3 and lo <= 0.355 and hi >= 0.655
    bar = lay.cd_bar
    assert (bar.x1 - bar.x0) / lay.x_per_unit == pytest.approx(0.3)
    assert_clean(lay)


def test_layout_lower_is_better_puts_the_lowest_score_right():
    lay = score_layout(["a", "b", "c"], [0.1, 0.2, 0.4], higher_is_better=False)
    assert lay.value_to_x(0.1) > lay.value_to_x(0.4)
    assert lay.value_ends[0] < lay.value_ends[1]
    assert lay.axis_caption.text == "mean score (lower is better)"
    assert {lab.algorithm: lab.side for lab in lay.labels}["a"] == "right"
    rev = score_layout(["a", "b", "c"], [0.1, 0.2, 0.4], higher_is_better=False, reverse=True)
    assert rev.value_to_x(0.1) < rev.value_to_x(0.4)


def test_layout_refuses_non_finite_scores():
    with pytest.raises(CdplotInputError, match="finite"):
        score_layout(["a", "b"], [0.5, math.nan])


@pytest.mark.parametrize("k", [2, 3, 10, 40])
@pytest.mark.parametrize("width", [3.3, 7.0])
def test_layout_score_axes_are_clean(k, width):
    means = [0.9 - 0.003 * i for i in range(k)]
    lay = score_layout([f"alg{i}" for i in range(k)], means, critical_difference=0.02, width=width)
    assert_clean(lay)


def test_score_decimals():
    assert score_decimals([0.8, 0.82], 0.018534) == 4  # 0.0185
    assert score_decimals([80.0, 82.0], 1.8534) == 2  # 1.85
    assert score_decimals([800.0, 820.0], 18.534) == 1  # 18.5
    assert score_decimals([0.8, 0.82], None) == 4  # 3 digits of the spread, 0.0200
    assert score_decimals([2.0, 2.0], 0.0) == 2  # 3 digits of the size, 2.00
    assert score_decimals([0.0, 0.0], None) == 2


def test_score_scale_zero_span():
    size = lambda t, r: fake_measure(t, r)  # noqa: E731
    s = score_scale([2.0, 2.0], None, length=2.0, higher_is_better=True, size=size,
                    params=LayoutParams())  # fmt: skip
    assert s.ends[0] > 2.0 > s.ends[1]
    s = score_scale([0.0, 0.0], 0.0, length=2.0, higher_is_better=False, size=size,
                    params=LayoutParams())  # fmt: skip
    # lower is better: the lowest end is the best; a nominal span of 1 around 0
    assert s.ends[0] <= -0.5 and s.ends[1] >= 0.5


def _width(text: str) -> float:
    return len(text) * FAKE_CHAR * FAKE_SCALES["tick"]


@given(
    lo=st.floats(-1e6, 1e6, allow_nan=False),
    span=st.floats(1e-6, 1e6),
    length=st.floats(0.5, 8.0),
)
def test_nice_ticks_cover_the_range_with_round_steps(lo, span, length):
    hi = lo + span
    if not hi - lo > 0 or span < abs(lo) * 1e-9:  # below float resolution at this size
        return
    ticks, decimals = nice_ticks(lo, hi, length=length, width=_width, spacing=0.06)
    step = ticks[1] - ticks[0]
    assert ticks[0] <= lo + 1e-9 * step and ticks[-1] >= hi - 1e-9 * step
    assert 2 <= len(ticks) <= 11
    # the step is 1, 2, 2.5 or 5 times a power of ten
    mantissa = step / 10 ** math.floor(math.log10(step))
    assert min(abs(mantissa - m) for m in (1, 2, 2.5, 5, 10)) < 1e-6
    # labels print the ticks exactly and differ from each other
    texts = [f"{t:.{decimals}f}" for t in ticks]
    assert len(set(texts)) == len(texts)
    for t, text in zip(ticks, texts, strict=True):
        assert float(text) == pytest.approx(t, abs=step * 1e-6)
    # labels never collide unless even the coarsest step cannot separate them
    per_unit = length / (ticks[-1] - ticks[0])
    if length >= 1.5:  # room for two labels of up to 8 characters on each half
        assert max(map(_width, texts)) + 0.06 <= step * per_unit + 1e-12


# ---------------------------------------------------------------- baseline images


@pytest.mark.mpl_image_compare(**BASELINE)
def test_baseline_tukey_demsar_table6(tukey6):
    return cd_diagram(tukey6).figure


@pytest.mark.mpl_image_compare(**BASELINE)
def test_baseline_tukey_lower_is_better_double_column(benavoli):
    # Benavoli et al.'s table as error rates in percent: best (lowest) on the right
    errors = quiet(100 - benavoli, test="tukey", higher_is_better=False)
    return cd_diagram(errors, width=7.0, highlight="C4").figure


@given(
    means=st.lists(st.floats(-1e4, 1e4, allow_nan=False), min_size=2, max_size=12),
    cd=st.one_of(st.none(), st.floats(0.0, 1e3)),
    higher=st.booleans(),
    width=st.sampled_from([3.3, 7.0]),
)
def test_layout_any_mean_scores(means, cd, higher, width):
    means = sorted(means, reverse=higher)  # best first
    names = [f"alg{i}" for i in range(len(means))]
    lay = score_layout(names, means, critical_difference=cd, higher_is_better=higher, width=width)
    lo, hi = sorted(lay.value_ends)
    slack = 1e-9 * (hi - lo)  # ticks snap to values within float noise of a round number
    assert lo <= min(means) + slack and max(means) - slack <= hi and hi > lo
    x0, x1 = lay.x_axis
    for label in lay.labels:
        assert x0 - 1e-9 <= label.x_rank <= x1 + 1e-9
    best_x = lay.value_to_x(means[0])
    assert best_x == pytest.approx(max(lab.x_rank for lab in lay.labels))
    if cd is not None and cd > 0:
        assert hi - lo >= cd * (1 - 1e-9)
        bar = lay.cd_bar
        assert (bar.x1 - bar.x0) / lay.x_per_unit == pytest.approx(cd, rel=1e-9)
    assert_clean(lay)


def test_score_cd_without_mean_scores_is_not_drawn_on_ranks(tukey6):
    # a hand-built result with Tukey's CD but no mean scores: the rank axis, no CD bar
    import dataclasses

    bare = dataclasses.replace(tukey6, mean_scores=None)
    ax = cd_diagram(bare)
    assert by_gid(ax, "cd-cd-bar") == [] and by_gid(ax, "cd-axis-caption") == []
    assert "0.01853, is in score units: not drawn" in " ".join(t.get_text() for t in ax.texts)

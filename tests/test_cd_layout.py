"""Geometry of the critical difference diagram, tested with numbers (no matplotlib).

The layout asks for text sizes through a callback; these tests pass a fake,
monospaced one (``FAKE_CHAR`` inches per character, ``FAKE_LINE`` inches per line), so
every position can be checked by hand. What is checked: the rank-to-x mapping
(Demšar 2006, Figure 1: best ranks on the right, axis spanning 1..k), sides and
rows of the names, group bars spanning exactly their members and packed into
the fewest rows, the CD bar and the interval around the control, tick thinning,
wrapping and truncation of long names, and that no two texts overlap and
nothing leaves the drawing for k = 2..100.
"""

from __future__ import annotations

import itertools
import math

import pytest
from _helpers import FAKE_CHAR, FAKE_LINE, FAKE_SCALES, SLOW_K, assert_clean, fake_measure
from hypothesis import example, given
from hypothesis import strategies as st

from cdplot import CdplotInputError
from cdplot.plotting._cd_layout import (
    ELLIPSIS,
    CDLayout,
    Columns,
    FittedNames,
    Frame,
    LayoutParams,
    axis_band,
    bars_band,
    cached_measure,
    cd_bar_band,
    columns,
    compute_layout,
    fit_names,
    frame,
    label_rows_band,
    notes_band,
    pack_intervals,
    sides,
    tick_positions,
    title_band,
    wrap_text,
)


def layout(names, ranks, **kwargs) -> CDLayout:
    kwargs.setdefault("width", 3.3)
    return compute_layout(names, ranks, measure=fake_measure, **kwargs)


# Demšar (2006) Table 6, average ranks as published, best first
DEMSAR = (["C4.5+m+cf", "C4.5+m", "C4.5+cf", "C4.5"], [1.964, 2.000, 2.893, 3.143])
# Demšar (2006) Figure 1a: the groups at alpha = 0.10 and CD = 1.12
DEMSAR_GROUPS = (("C4.5+m+cf", "C4.5+m", "C4.5+cf"), ("C4.5+cf", "C4.5"))


def test_axis_spans_one_to_k_best_on_the_right():
    lay = layout(*DEMSAR)
    x0, x1 = lay.x_axis
    assert lay.rank_to_x(1) == pytest.approx(x1)
    assert lay.rank_to_x(4) == pytest.approx(x0)
    assert [t.text for t in lay.tick_labels] == ["1", "2", "3", "4"]
    assert [t.x for t in lay.tick_labels] == pytest.approx([lay.rank_to_x(r) for r in (1, 2, 3, 4)])
    for label in lay.labels:
        assert label.x_rank == pytest.approx(lay.rank_to_x(label.rank))


def test_reverse_puts_best_on_the_left():
    lay = layout(*DEMSAR, reverse=True)
    assert lay.rank_to_x(1) == pytest.approx(lay.x_axis[0])
    sides = {lab.algorithm: lab.side for lab in lay.labels}
    assert sides == {"C4.5+m+cf": "left", "C4.5+m": "left", "C4.5+cf": "right", "C4.5": "right"}


def test_sides_and_rows_follow_rank_order():
    lay = layout(*DEMSAR)
    by_name = {lab.algorithm: lab for lab in lay.labels}
    # best half on the right, the outermost algorithm on the top row of its side
    assert (by_name["C4.5+m+cf"].side, by_name["C4.5+m+cf"].row) == ("right", 0)
    assert (by_name["C4.5+m"].side, by_name["C4.5+m"].row) == ("right", 1)
    assert (by_name["C4.5"].side, by_name["C4.5"].row) == ("left", 0)
    assert (by_name["C4.5+cf"].side, by_name["C4.5+cf"].row) == ("left", 1)
    for label in lay.labels:
        assert label.y > lay.y_axis
        outward = (
            label.x_end > lay.x_axis[1] if label.side == "right" else label.x_end < (lay.x_axis[0])
        )
        assert outward
        # the name is further out than the rank
        if label.side == "right":
            assert label.name_text.bbox[0] >= label.rank_text.bbox[2]
        else:
            assert label.name_text.bbox[2] <= label.rank_text.bbox[0]
    assert by_name["C4.5+m"].y > by_name["C4.5+m+cf"].y


@pytest.mark.parametrize("k", [2, 3, 5, 8])
def test_best_half_on_the_best_side(k):
    names = [f"a{i}" for i in range(k)]
    lay = layout(names, [1 + i * 0.7 for i in range(k)])
    right = [lab.algorithm for lab in lay.labels if lab.side == "right"]
    assert right == names[: math.ceil(k / 2)]


def test_lines_do_not_cross():
    # an elbow line (vertical, then horizontal out) of one algorithm never crosses another's
    k = 12
    lay = layout([f"a{i}" for i in range(k)], [1 + 10 * (i / (k - 1)) ** 2 for i in range(k)])
    for side in ("left", "right"):
        labs = sorted((lab for lab in lay.labels if lab.side == side), key=lambda lab: lab.row)
        for upper, lower in itertools.pairwise(labs):
            # the lower row's line starts further inside than the upper row's
            if side == "right":
                assert lower.x_rank <= upper.x_rank
            else:
                assert lower.x_rank >= upper.x_rank
            assert lower.y > upper.y


def test_group_bars_span_exactly_their_members():
    p = LayoutParams()
    lay = layout(*DEMSAR, groups=DEMSAR_GROUPS, critical_difference=1.12)
    assert [b.members for b in lay.bars] == list(DEMSAR_GROUPS)
    rank = dict(zip(*DEMSAR, strict=True))
    for bar in lay.bars:
        xs = [lay.rank_to_x(rank[m]) for m in bar.members]
        assert bar.x0 == pytest.approx(min(xs) - p.bar_overhang)
        assert bar.x1 == pytest.approx(max(xs) + p.bar_overhang)
        assert lay.y_axis < bar.y < min(lab.y for lab in lay.labels)
    # the two groups share C4.5+cf, so they need two rows (as in Demšar's Figure 1a)
    assert sorted(b.row for b in lay.bars) == [0, 1]


def test_singleton_groups_are_not_drawn():
    names = ["a", "b", "c"]
    lay = layout(names, [1.0, 1.5, 2.9], groups=(("a", "b"), ("c",)))
    assert [b.members for b in lay.bars] == [("a", "b")]


def test_disjoint_groups_share_a_row():
    names = [f"a{i}" for i in range(6)]
    ranks = [1.0, 1.2, 3.0, 3.2, 5.8, 6.0]
    lay = layout(names, ranks, groups=(("a0", "a1"), ("a2", "a3"), ("a4", "a5")), width=7)
    assert [b.row for b in lay.bars] == [0, 0, 0]


def test_no_bars_gives_a_compact_figure():
    with_bars = layout(*DEMSAR, groups=DEMSAR_GROUPS)
    without = layout(*DEMSAR)
    assert without.height < with_bars.height
    assert without.bars == ()


def test_cd_bar_has_the_critical_difference_as_length():
    lay = layout(*DEMSAR, critical_difference=1.12)
    scale = (lay.x_axis[1] - lay.x_axis[0]) / 3
    assert lay.cd_bar.x0 == pytest.approx(lay.x_axis[0])
    assert lay.cd_bar.x1 - lay.cd_bar.x0 == pytest.approx(1.12 * scale)
    assert lay.cd_bar.y < lay.y_axis
    assert lay.cd_label.text == "CD = 1.12"
    assert lay.cd_label.bbox[3] <= lay.cd_bar.y
    assert layout(*DEMSAR).cd_bar is None


def test_cd_longer_than_the_axis_is_cut_at_the_axis_end():
    lay = layout(*DEMSAR, critical_difference=5.0)
    assert lay.cd_bar.x1 == pytest.approx(lay.x_axis[1])
    assert lay.cd_label.text == "CD = 5.00"


def test_interval_around_the_control():
    # Demšar (2006) Figure 1b: one CD (1.16) on both sides of the control C4.5 (3.143)
    lay = layout(*DEMSAR, critical_difference=1.16, control="C4.5", interval=True)
    lo, hi = sorted((lay.rank_to_x(3.143 - 1.16), lay.rank_to_x(4.0)))  # cut at rank k = 4
    assert (lay.interval.x0, lay.interval.x1) == pytest.approx((lo, hi))
    assert lay.interval.members == ("C4.5",)
    assert lay.bars == ()
    assert layout(*DEMSAR, critical_difference=1.16, control="C4.5").interval is None


def test_markers_reserve_room_and_are_passed_through():
    markers = {"C4.5": "control", "C4.5+m+cf": "significant"}
    lay = layout(*DEMSAR, markers=markers, control="C4.5")
    plain = layout(*DEMSAR)
    assert lay.markers == markers
    p = LayoutParams()
    for with_m, without in zip(lay.labels, plain.labels, strict=True):
        gap = abs(with_m.rank_text.x - with_m.x_end)
        assert gap == pytest.approx(p.marker_space + p.text_gap)
        assert abs(without.rank_text.x - without.x_end) == pytest.approx(p.text_gap)


def test_rank_format():
    lay = layout(*DEMSAR, rank_format="{:.3f}")
    assert {lab.rank_text.text for lab in lay.labels} == {"1.964", "2.000", "2.893", "3.143"}
    lay = layout(*DEMSAR, rank_format=lambda r: f"<{r:.1f}>")
    assert lay.labels[0].rank_text.text == "<2.0>"
    # never "10" for 10.47
    big = layout([f"a{i}" for i in range(12)], [1.0 + i * 0.95 for i in range(12)])
    assert big.labels[-1].rank_text.text == "11.45"


def test_equal_ranks_get_their_own_rows():
    names = ["a", "b", "c", "d", "e"]
    lay = layout(names, [2.0, 2.0, 2.0, 4.5, 4.5])
    assert_clean(lay)
    rows = {(lab.side, lab.row) for lab in lay.labels}
    assert len(rows) == 5
    assert len({lab.y for lab in lay.labels if lab.side == "right"}) == 3


@pytest.mark.parametrize("k", [2, 4, 10, 20, *SLOW_K])
@pytest.mark.parametrize("width", [3.3, 7.0])
@pytest.mark.parametrize("long", [False, True])
def test_no_overlap_and_nothing_outside(k, width, long):
    names = [
        f"GradientBoostingClassifier learning_rate={i / 100} depth {i}" if long else f"alg{i}"
        for i in range(k)
    ]
    ranks = [1 + (k - 1) * (i / (k - 1)) ** 1.5 for i in range(k)]
    groups = [tuple(names[i : i + 3]) for i in range(0, k - 2, 2)]
    lay = layout(
        names, ranks, width=width, groups=groups, critical_difference=0.4 * k, title="A title",
        notes=["A footnote that is long enough to need wrapping at a narrow width, surely."],
        legend=[("significant", "significantly different from alg0")],
    )  # fmt: skip
    assert_clean(lay)
    labelled = [int(t.text) for t in lay.tick_labels]
    assert labelled[0] == 1 and labelled[-1] == k
    assert lay.x_axis[1] - lay.x_axis[0] >= LayoutParams().min_axis_fraction * width - 1e-9


def test_height_grows_with_k_and_width_is_kept():
    heights = [layout([f"a{i}" for i in range(k)], list(range(1, k + 1))).height for k in (2, 10)]
    assert heights[0] < heights[1]
    assert layout(*DEMSAR, width=5.0).width == 5.0


def test_long_names_wrap_within_the_column():
    names = ["a long algorithm name in two lines", "b", "c", "short"]
    lay = layout(names, [1, 2, 3, 4], max_name_width=1.0, width=7.0)
    first = lay.labels[0]
    lines = first.name_text.text.split("\n")
    assert len(lines) > 1
    assert all(len(line) * FAKE_CHAR <= 1.0 + 1e-9 for line in lines)
    assert first.footnote is None
    assert lay.notes == ()
    assert_clean(lay)


def test_truncated_names_get_numbered_footnotes():
    names = ["b", "an extremely long algorithm name number one", "c",
             "an extremely long algorithm name number two"]  # fmt: skip
    lay = layout(names, [1, 2, 3, 4], long_names="truncate", max_name_width=1.2)
    by_name = {lab.algorithm: lab for lab in lay.labels}
    one = by_name["an extremely long algorithm name number one"]
    two = by_name["an extremely long algorithm name number two"]
    assert one.footnote == 1 and two.footnote == 2  # numbered in rank order
    assert one.name_text.text.endswith(f"{ELLIPSIS} [1]")
    assert "\n" not in one.name_text.text
    assert [n.text for n in lay.notes] == [
        "[1] an extremely long algorithm name number one",
        "[2] an extremely long algorithm name number two",
    ]
    assert by_name["b"].name_text.text == "b"
    assert_clean(lay)


def test_bold_names_are_measured_bold():
    plain = layout(*DEMSAR)
    bold = layout(*DEMSAR, bold={"C4.5"})
    lab = next(x for x in bold.labels if x.algorithm == "C4.5")
    assert lab.name_text.role == "name_bold"
    ref = next(x for x in plain.labels if x.algorithm == "C4.5")
    assert lab.name_text.width == pytest.approx(ref.name_text.width * FAKE_SCALES["name_bold"])


def test_min_margins_align_axes():
    lay = layout(*DEMSAR, min_margins=(1.5, 1.2))
    assert lay.x_axis == pytest.approx((1.5, 3.3 - 1.2))
    assert lay.margins == pytest.approx((1.5, 1.2))


def test_title_notes_and_legend_are_stacked():
    lay = layout(
        *DEMSAR, title="Nemenyi test, alpha = 0.1", notes=["note"],
        legend=[("control", "control: C4.5"), ("significant", "significant")],
    )  # fmt: skip
    assert lay.title.bbox[3] < lay.y_axis
    bottom = max(lab.name_text.bbox[3] for lab in lay.labels)
    assert lay.notes[0].bbox[1] > bottom
    assert lay.legend[0].text.bbox[1] > lay.notes[0].bbox[3]
    assert lay.legend[1].text.bbox[1] > lay.legend[0].text.bbox[3]
    assert [e.kind for e in lay.legend] == ["control", "significant"]
    assert lay.height == pytest.approx(lay.legend[-1].text.bbox[3] + LayoutParams().pad)
    assert_clean(lay)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"names": ["a"], "ranks": [1.0]}, "at least two algorithms"),
        ({"names": ["a", "b"], "ranks": [1.0]}, "2 names but 1 average ranks"),
        ({"long_names": "cut"}, "'cut' is not a valid value for long_names"),
        ({"width": 0.5}, "too small"),
        ({"width": 0.0}, "finite, positive number of inches"),
        ({"width": float("nan")}, "finite, positive number of inches"),
        ({"width": float("inf")}, "finite, positive number of inches"),
        ({"width": "wide"}, "width must be a number of inches"),
    ],
)
def test_errors(kwargs, match):
    args = {"names": DEMSAR[0], "ranks": DEMSAR[1], **kwargs}
    with pytest.raises(CdplotInputError, match=match):
        layout(args.pop("names"), args.pop("ranks"), **args)


# ---------------------------------------------------------------- helpers


def test_tick_positions_thin_out():
    major, minor = tick_positions(10, 0.2, 0.1, 0.05, 0.03)
    assert major == list(range(1, 11)) and minor == []
    major, minor = tick_positions(100, 0.016, 0.13, 0.06, 0.03)
    assert major == [1, 25, 50, 75, 100] and minor == []
    major, minor = tick_positions(20, 0.085, 0.1, 0.06, 0.03)
    assert major == [1, 5, 10, 15, 20]
    assert minor == [r for r in range(1, 21) if r not in major]


@given(st.integers(2, 300), st.floats(0.002, 1.0), st.floats(0.01, 0.3))
def test_tick_labels_never_collide(k, scale, label_width):
    major, minor = tick_positions(k, scale, label_width, 0.05, 0.03)
    assert major[0] == 1 and major[-1] == k
    gaps = [(b - a) * scale for a, b in itertools.pairwise(major)]
    assert all(g >= label_width + 0.05 - 1e-12 for g in gaps) or len(major) <= 2
    assert not set(major) & set(minor)


intervals = st.lists(
    st.tuples(st.floats(0, 10), st.floats(0, 3)).map(lambda t: (t[0], t[0] + t[1])),
    max_size=25,
)


@given(intervals, st.floats(0, 0.5))
@example([(0.0, 2.0), (1.0, 1.0)], 0.0)  # a point inside a span: two rows
@example([(0.0, 0.0), (0.0, 1.0)], 0.0)  # a point where a span starts: one row
def test_pack_intervals_fewest_rows_no_overlap(spans, gap):
    rows = pack_intervals(spans, gap)
    for r in set(rows):
        on_row = sorted(s for s, row in zip(spans, rows, strict=True) if row == r)
        for a, b in itertools.pairwise(on_row):
            assert b[0] - a[1] >= gap
    # fewest rows: the largest clique of conflicting spans. In start order a span
    # conflicts with an earlier one that ends less than gap before it starts; the spans
    # before s (s included) that end after s[0] - gap conflict pairwise (a zero-length
    # span with gap 0 conflicts with a span around it, not with one starting where it is)
    order = sorted(range(len(spans)), key=lambda i: (spans[i][0], spans[i][1], i))
    depth = max(
        (
            1 + sum(1 for j in order[:at] if spans[i][0] - spans[j][1] < gap)
            for at, i in enumerate(order)
        ),
        default=0,
    )
    assert max(rows, default=-1) + 1 == depth


def test_pack_intervals_staircase():
    # Demšar-style overlapping groups need one row each; disjoint ones share
    assert pack_intervals([(0, 2), (1, 3), (2.5, 4), (5, 6)], 0.1) == [0, 1, 0, 0]


@given(st.text(alphabet="abcXYZ _-.+4=", min_size=1, max_size=60), st.integers(3, 20))
def test_wrap_text_keeps_the_text(text, max_chars):
    lines, truncated = wrap_text(text, max_chars, len)
    assert not truncated
    # a line is wider only when it is one word (or formula): words are never cut
    assert all(len(line) <= max_chars or len(wrap_text(line, 1, len)[0]) == 1 for line in lines)
    assert "".join(lines).replace(" ", "") == text.replace(" ", "")


@given(st.text(alphabet="abcXYZ _-.+4", min_size=1, max_size=80), st.integers(6, 20),
       st.integers(1, 3))  # fmt: skip
def test_wrap_text_truncates_to_max_lines(text, max_chars, max_lines):
    lines, truncated = wrap_text(text, max_chars, len, max_lines=max_lines, truncate_suffix=" [9]")
    assert len(lines) <= max_lines
    assert all(len(line) <= max_chars for line in lines)
    if truncated:
        assert lines[-1].endswith(ELLIPSIS + " [9]")


def test_wrap_text_breaks_at_words_camel_case_hyphens_and_underscores():
    assert wrap_text("RandomForestClassifier", 12, len)[0] == ["RandomForest", "Classifier"]
    assert wrap_text("C4.5+m+cf", 6, len)[0] == ["C4.5+m+cf"]  # no break inside a word
    assert wrap_text("naive bayes kernel", 11, len)[0] == ["naive bayes", "kernel"]
    assert wrap_text("abcdefghij", 4, len)[0] == ["abcdefghij"]  # too wide: never cut
    assert wrap_text("SVM_rbf-2", 4, len)[0] == ["SVM_", "rbf-2"]
    # never inside mathtext, which matplotlib parses line by line
    assert wrap_text("$a_b c$-SVM", 3, len)[0] == ["$a_b c$-", "SVM"]
    assert wrap_text("cost$ per unit", 8, len)[0] == ["cost$", "per unit"]


# ---------------------------------------------------------------- the bands, one by one

P = LayoutParams()
SIZE = cached_measure(fake_measure)
# a 3-inch axis from x = 1 to x = 4 for k = 4: one rank is one inch
FRAME = Frame(1.0, 4.0, 4, False, (1.0, 1.0))


def test_cached_measure_measures_each_text_once():
    calls = []

    def counting(text, role):
        calls.append((text, role))
        return fake_measure(text, role)

    size = cached_measure(counting)
    assert size("ab", "name") == size("ab", "name") == (2 * FAKE_CHAR, FAKE_LINE)
    assert calls == [("ab", "name")]


def test_columns_band():
    cols = columns(["1.00", "12.50"], width=7.0, has_markers=True, max_name_width=None,
                   size=SIZE, params=P)  # fmt: skip
    assert cols.rank_col == pytest.approx(5 * FAKE_CHAR * FAKE_SCALES["rank"])  # "12.50"
    assert cols.marker_col == P.marker_space
    fixed = P.line_stub + P.marker_space + 2 * P.text_gap + cols.rank_col + P.pad
    assert cols.fixed == pytest.approx(fixed)
    assert cols.name_limit == pytest.approx((7.0 * (1 - P.min_axis_fraction)) / 2 - fixed)
    capped = columns(["1.00"], width=7.0, has_markers=False, max_name_width=0.5, size=SIZE,
                     params=P)  # fmt: skip
    assert capped.marker_col == 0.0 and capped.name_limit == 0.5
    with pytest.raises(CdplotInputError, match="too small for this diagram"):
        columns(["1.00"], width=0.4, has_markers=False, max_name_width=None, size=SIZE, params=P)


def test_fit_names_band():
    fitted = fit_names(
        ["short", "a name of many words"],
        limit=8 * FAKE_CHAR,
        role_of=lambda n: "name",
        long_names="wrap",
        size=SIZE,
        params=P,
    )
    assert fitted.display["short"] == "short"
    assert fitted.display["a name of many words"] == "a name\nof many\nwords"
    assert fitted.sizes["a name of many words"] == SIZE(fitted.display["a name of many words"],
                                                         "name")  # fmt: skip
    assert fitted.footnotes == {}
    cut = fit_names(["a name of many words"], limit=8 * FAKE_CHAR, role_of=lambda n: "name",
                    long_names="truncate", size=SIZE, params=P)  # fmt: skip
    assert cut.footnotes == {"a name of many words": 1}
    assert cut.display["a name of many words"].endswith(ELLIPSIS + " [1]")


def test_sides_band():
    assert sides(["a", "b", "c"], reverse=False) == {"a": "right", "b": "right", "c": "left"}
    assert sides(["a", "b", "c", "d"], reverse=True) == {
        "a": "left", "b": "left", "c": "right", "d": "right"}  # fmt: skip


def test_frame_band():
    names = ["a", "bbbb"]
    sizes = {"a": (FAKE_CHAR, FAKE_LINE), "bbbb": (4 * FAKE_CHAR, FAKE_LINE)}
    fitted = FittedNames({"a": "a", "bbbb": "bbbb"}, sizes, {})
    cols = Columns(0.2, 0.0, 0.5, 1.0)
    fr = frame(names, {"a": "right", "bbbb": "left"}, fitted, cols, width=3.0, reverse=False,
               min_margins=(0.0, 0.9))  # fmt: skip
    assert fr.margins == pytest.approx((0.5 + 4 * FAKE_CHAR, 0.9))
    assert (fr.x0, fr.x1) == pytest.approx((0.74, 2.1))
    assert fr.x(1.0) == pytest.approx(2.1) and fr.x(2.0) == pytest.approx(0.74)
    with pytest.raises(CdplotInputError, match="too small for these margins"):
        frame(names, {"a": "right", "bbbb": "left"}, fitted, cols, width=1.0, reverse=False,
              min_margins=(0.0, 0.0))  # fmt: skip


def test_title_band():
    block, y = title_band("Title", 0.05, width=3.0, size=SIZE, params=P)
    assert (block.x, block.y, block.ha, block.va) == (1.5, 0.05, "center", "top")
    assert y == pytest.approx(0.05 + FAKE_LINE + P.band_gap)
    assert title_band(None, 0.05, width=3.0, size=SIZE, params=P) == (None, 0.05)
    wrapped, _ = title_band("word " * 20, 0.0, width=1.0, size=SIZE, params=P)
    assert wrapped.width <= 1.0 - 2 * P.pad


def test_cd_bar_band():
    bar, label, y = cd_bar_band(1.5, 0.1, fr=FRAME, width=5.0, cd_format="CD = {:.2f}",
                                size=SIZE, params=P)  # fmt: skip
    assert (bar.x0, bar.x1) == pytest.approx((1.0, 2.5))  # 1.5 ranks of an inch each
    assert label.text == "CD = 1.50" and label.x == pytest.approx(1.75)
    assert bar.y == pytest.approx(
        0.1 + FAKE_LINE * FAKE_SCALES["cd"] + P.small_gap + P.cap_half_height
    )
    assert y == pytest.approx(bar.y + P.cap_half_height + P.band_gap)
    assert cd_bar_band(None, 0.1, fr=FRAME, width=5.0, cd_format="", size=SIZE,
                       params=P) == (None, None, 0.1)  # fmt: skip


def test_axis_band():
    axis = axis_band(0.2, fr=FRAME, size=SIZE, params=P)
    assert axis.y == pytest.approx(
        0.2 + FAKE_LINE * FAKE_SCALES["tick"] + P.tick_label_gap + P.tick_length
    )
    assert [t.text for t in axis.labels] == ["1", "2", "3", "4"]
    assert [t.x for t in axis.labels] == pytest.approx([4.0, 3.0, 2.0, 1.0])
    assert all(major for _, major in axis.ticks)


def test_bars_band():
    rank_of = {"a": 1.0, "b": 2.0, "c": 3.0, "d": 4.0}
    interval, bars, y = bars_band([("a", "b"), ("b", "c"), ("d",)], rank_of, 1.0, fr=FRAME,
                                  interval_around=None, critical_difference=None,
                                  params=P)  # fmt: skip
    assert interval is None
    assert [b.members for b in bars] == [("a", "b"), ("b", "c")]
    assert (bars[0].x0, bars[0].x1) == pytest.approx((3.0 - P.bar_overhang, 4.0 + P.bar_overhang))
    assert [b.row for b in bars] == [1, 0]  # ("b", "c") starts further left
    assert y == pytest.approx(1.0 + P.bar_offset + P.bar_pitch + P.rows_offset)
    interval, bars, y = bars_band([], rank_of, 1.0, fr=FRAME, interval_around="c",
                                  critical_difference=0.5, params=P)  # fmt: skip
    assert (interval.x0, interval.x1) == pytest.approx((1.5, 2.5))
    assert bars == () and y == pytest.approx(1.0 + P.bar_offset + P.rows_offset)


def test_label_rows_band():
    names = ["a", "b", "c"]
    rank_of = {"a": 1.0, "b": 2.0, "c": 4.0}
    fitted = FittedNames({n: n for n in names}, {n: (FAKE_CHAR, FAKE_LINE) for n in names}, {})
    cols = Columns(0.3, 0.0, 0.6, 1.0)
    labels, bottom = label_rows_band(
        names, {n: f"{r:.2f}" for n, r in rank_of.items()}, rank_of, sides(names, False),
        fitted, 2.0, fr=FRAME, cols=cols, role_of=lambda n: "name", size=SIZE, params=P,
    )  # fmt: skip
    assert [lab.algorithm for lab in labels] == names
    a, b, c = labels
    block = max(FAKE_LINE, FAKE_LINE * FAKE_SCALES["rank"])
    assert (a.side, a.row, b.row, c.side, c.row) == ("right", 0, 1, "left", 0)
    assert a.y == pytest.approx(2.0 + block / 2) and b.y == pytest.approx(a.y + block + P.row_gap)
    assert a.x_end == pytest.approx(4.0 + P.line_stub)
    assert c.x_end == pytest.approx(1.0 - P.line_stub)
    assert a.name_text.x == pytest.approx(a.x_end + P.text_gap + 0.3 + P.text_gap)
    assert bottom == pytest.approx(2.0 + 2 * block + P.row_gap)


def test_notes_band():
    notes, legend, height = notes_band(["a note"], [("control", "control: X")], {"long": 1},
                                       1.0, width=3.0, size=SIZE, params=P)  # fmt: skip
    assert [n.text for n in notes] == ["a note", "[1] long"]
    assert notes[0].y == pytest.approx(1.0 + P.band_gap)
    assert legend[0].text.x == pytest.approx(P.pad + P.legend_handle_width + P.legend_handle_gap)
    assert height == pytest.approx(legend[0].text.bbox[3] + P.pad)
    _, _, bare = notes_band([], [], {}, 1.0, width=3.0, size=SIZE, params=P)
    assert bare == pytest.approx(1.0 + P.pad)


def test_driver_equals_its_bands():
    # compute_layout is only the bands in sequence: recompute a diagram by hand
    names, ranks = DEMSAR
    lay = layout(names, ranks, title="T", critical_difference=1.12, groups=DEMSAR_GROUPS)
    title, y = title_band("T", P.pad, width=3.3, size=SIZE, params=P)
    assert lay.title == title
    bar, _, y = cd_bar_band(1.12, y, fr=Frame(*lay.x_axis, 4, False, lay.margins), width=3.3,
                            cd_format="CD = {:.2f}", size=SIZE, params=P)  # fmt: skip
    assert lay.cd_bar == bar
    axis = axis_band(y, fr=Frame(*lay.x_axis, 4, False, lay.margins), size=SIZE, params=P)
    assert (lay.y_axis, lay.ticks, lay.tick_labels) == (axis.y, axis.ticks, axis.labels)

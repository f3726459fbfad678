"""Legibility of the CD diagram, measured on its layout, and the automatic choice (issue 28)."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest
from _helpers import by_gid

import cdplot
from cdplot.plotting._cd_layout import (
    MAX_BAR_ROWS,
    MIN_BAR_GAP,
    MIN_LINE_SPACING,
    LayoutParams,
    bar_width,
    compute_layout,
)
from cdplot.plotting._choose import cd_legibility, figure_reason


def board(k: int, n: int = 30, seed: int = 1, test: str = "nemenyi"):
    rng = np.random.default_rng(seed)
    names = [f"model-{i:03d}" for i in range(k)]
    data = pd.DataFrame(rng.normal(np.linspace(3.0, 0.0, k), 1.0, size=(n, k)), columns=names)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cdplot.CdplotWarning)
        return cdplot.compare(data, test=test)


@pytest.mark.parametrize(("k", "expected"), [(10, "cd"), (30, "ranks"), (60, "ranks")])
@pytest.mark.parametrize("test", ["nemenyi", "wilcoxon"])
def test_choice_in_one_column(k, expected, test):
    assert cdplot.choose_figure(board(k, test=test), width=3.3) == expected


def test_choice_on_a_page_and_bundled_tables():
    assert cdplot.choose_figure(board(30), width=7) == "cd"
    assert cdplot.choose_figure(board(300), width=7) == "ranks"
    for name in ("demsar2006", "benavoli2016", "garcia2008_synthetic"):
        assert cdplot.choose_figure(cdplot.compare(cdplot.datasets.load(name))) == "cd"
    choice, reason = figure_reason(board(30), 3.3)
    assert choice == "ranks" and "not legible at 3.3 in" in reason and "pt apart" in reason


def _measure(text, role):
    lines = text.split("\n")
    return 0.06 * max(len(s) for s in lines), 0.12 * len(lines)


def test_legibility_is_measured_on_the_layout():
    names = [f"a{i}" for i in range(12)]
    ranks = list(np.linspace(1.5, 11.5, 12))
    groups = [tuple(names[i : i + 4]) for i in range(0, 9)]
    for width in (2.0, 3.3, 7.0):
        layout = compute_layout(names, ranks, width=width, measure=_measure, groups=groups)
        leg = layout.legibility
        x0, x1 = layout.x_axis
        assert leg.line_spacing == pytest.approx(abs(x1 - x0) * 72 / 11)
        rows = {b.row for b in layout.bars}
        assert leg.bar_rows == len(rows)
        assert leg.bar_width == bar_width(len(rows))
        assert leg.bar_gap == pytest.approx(LayoutParams().bar_pitch * 72 - leg.bar_width)
        assert leg.bar_gap >= MIN_BAR_GAP  # the thickness leaves a clear gap
        expected = leg.line_spacing >= MIN_LINE_SPACING and leg.bar_rows <= MAX_BAR_ROWS
        assert leg.legible == expected
        assert (leg.reason == "") == leg.legible
    # narrow: too little room between neighbours; wide: legible
    narrow = compute_layout(names, ranks, width=1.6, measure=_measure, groups=groups)
    wide = compute_layout(names, ranks, width=7.0, measure=_measure, groups=groups)
    assert not narrow.legibility.legible and "pt apart on the axis" in narrow.legibility.reason
    assert wide.legibility.legible


def test_bars_thin_when_many_rows_stack():
    res = board(30)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cdplot.CdplotWarning)
        ax = cdplot.cd_diagram(res, width=3.3)
    bars = by_gid(ax, "cd-group-bar")
    leg = cd_legibility(res, 3.3)
    assert leg.bar_rows > 4
    assert {b.get_linewidth() for b in bars} == {leg.bar_width} == {1.5}
    # a few rows keep the thick bars
    few = cdplot.cd_diagram(cdplot.compare(cdplot.datasets.load("garcia2008_synthetic")))
    assert {b.get_linewidth() for b in by_gid(few, "cd-group-bar")} == {2.5}


def test_illegible_diagram_warns_and_offers_the_rank_plot():
    with pytest.warns(cdplot.CdplotWarning, match=r"not legible at 3.3 in.*rank_plot"):
        cdplot.cd_diagram(board(30), width=3.3)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        cdplot.cd_diagram(board(10), width=3.3)


def test_plot_kinds():
    small, large = board(10), board(40)
    assert by_gid(small.plot(), "cd-name-")
    assert by_gid(large.plot(), "rank-name-")  # auto, one column: the rank plot
    assert by_gid(large.plot(width=7), "cd-name-")  # auto, a page: the CD diagram
    assert by_gid(small.plot(kind="ranks"), "rank-name-")
    assert by_gid(small.plot(kind="cd"), "cd-name-")
    assert small.plot(kind="mcm").get_figure(root=True) is not None
    with pytest.warns(cdplot.CdplotWarning, match="not legible"):
        ax = large.plot(reverse=True)  # an option of the CD diagram only: the CD diagram
    assert by_gid(ax, "cd-name-")
    with pytest.raises(cdplot.CdplotInputError, match="kind"):
        small.plot(kind="forest")

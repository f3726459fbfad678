"""Legibility of the CD diagram, measured on its layout, and the automatic choice."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest
from _helpers import by_gid, leaderboard

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


def board(k: int, seed: int = 1, test: str = "nemenyi"):
    return leaderboard(k, seed=seed, test=test, prefix="model-")


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
    narrow = compute_layout(names, ranks, width=2.0, measure=_measure, groups=groups)
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


# --------------------------------------------------------------------------- CLI and HTML


@pytest.fixture
def k40_csv(tmp_path):
    rng = np.random.default_rng(40)
    data = pd.DataFrame(
        rng.normal(np.linspace(1, 0, 40), 1, size=(30, 40)), columns=[f"m{i}" for i in range(40)]
    )
    path = tmp_path / "k40.csv"
    data.to_csv(path, index_label="dataset")
    return path


def test_cli_figure_auto_says_which_and_why(k40_csv, tmp_path, capsys):
    from _helpers import run

    out = tmp_path / "fig.svg"
    code, stdout, _ = run(["compare", k40_csv, "-o", out], capsys)
    assert code == 0
    (note,) = [line for line in stdout.splitlines() if line.startswith("figure:")]
    assert "not legible at 3.3 in" in note and "rank plot" in note
    assert 'id="rank-name-m0"' in out.read_text(encoding="utf-8")
    code, stdout, _ = run(["compare", k40_csv, "-o", out, "--width", "7"], capsys)
    assert code == 0 and "figure: the CD diagram of 40 algorithms is legible at 7 in" in stdout
    assert 'id="cd-name-m0"' in out.read_text(encoding="utf-8")


@pytest.mark.parametrize(("kind", "gid"), [("ranks", "rank-name-m0"), ("cd", "cd-name-m0")])
def test_cli_figure_chosen(k40_csv, tmp_path, capsys, kind, gid):
    from _helpers import run

    out = tmp_path / "fig.svg"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cdplot.CdplotWarning)  # the CD diagram at 3.3 in
        code, stdout, _ = run(["compare", k40_csv, "-o", out, "--figure", kind], capsys)
    assert code == 0 and "figure:" not in stdout
    assert f'id="{gid}"' in out.read_text(encoding="utf-8")


def test_cli_figure_mcm_and_refusals(k40_csv, tmp_path, capsys):
    from _helpers import run

    small = tmp_path / "small.csv"
    cdplot.datasets.load("demsar2006").to_csv(small)
    out = tmp_path / "fig.png"
    assert run(["compare", small, "-o", out, "--figure", "mcm", "-q"], capsys)[0] == 0
    assert out.stat().st_size > 1000
    argv = ["compare", small, small, "--name", "a", "--name", "b", "-o", out, "--figure", "ranks"]
    code, _, err = run(argv, capsys)
    assert code == 2 and "--figure ranks draws one comparison" in err


def test_html_report_draws_for_a_screen():
    from cdplot.report import to_html

    large = board(120)  # not legible at 7 in either
    page = to_html(large)
    assert "Rank intervals" in page and 'id="rank-name-model-0000"' in page
    small = to_html(cdplot.compare(cdplot.datasets.load("demsar2006")))
    assert 'id="cd-name-C4.5"' in small
    # notebook display: the same body
    assert 'id="rank-name-model-0000"' in large._repr_html_()
    # 40 algorithms: the CD diagram drawn 7 in wide, not the 3.3-in one scaled up
    assert 'id="cd-name-model-0000"' in to_html(board(40))


# --------------------------------------------------------------------------- narrow widths

#: widths from below any figure's minimum to a wide page (inches)
WIDTHS = [0.5, 1.0, 1.5, 1.75, 2.0, 2.25, 2.5, 3.0, 3.3, 4.0, 5.0, 6.0, 7.0, 10.0]


@pytest.mark.parametrize(
    ("k", "test"), [(3, "nemenyi"), (10, "nemenyi"), (10, "wilcoxon"), (30, "nemenyi")]
)
def test_choice_is_monotone_in_the_width_and_never_refused(k, test):
    """Narrow widths refuse (no figure fits) or answer "ranks", wider ones "cd"; the
    answered figure always draws at that width."""
    import matplotlib.pyplot as plt

    res = board(k, test=test)
    answers = []
    for width in WIDTHS:
        try:
            kind = cdplot.choose_figure(res, width=width)
        except cdplot.CdplotInputError as exc:
            assert "no figure fits" in str(exc) and "Pass a larger width: at least" in str(exc)
            answers.append(0)
            continue
        draw = cdplot.cd_diagram if kind == "cd" else cdplot.rank_plot
        with warnings.catch_warnings():
            warnings.simplefilter("error", cdplot.CdplotWarning)  # chosen: legible
            draw(res, width=width)
        plt.close("all")
        answers.append({"ranks": 1, "cd": 2}[kind])
    assert answers == sorted(answers), dict(zip(WIDTHS, answers, strict=True))
    assert answers[-1] == 2 and answers[0] == 0


def test_plot_auto_where_no_figure_fits_names_the_width_that_does():
    import re

    res = cdplot.compare(cdplot.datasets.load("demsar2006"))
    with pytest.raises(cdplot.CdplotInputError, match=r"no figure fits in 1 in") as info:
        res.plot(kind="auto", width=1)
    assert "rank plot of 4 algorithms needs" in str(info.value)
    need = float(re.search(r"Pass a larger width: at least ([\d.]+) in", str(info.value))[1])
    assert cdplot.choose_figure(res, width=need) in ("cd", "ranks")
    assert res.plot(kind="auto", width=need).get_figure(root=True) is not None


def test_reason_names_the_groups_display():
    assert figure_reason(board(30), 3.3)[1].endswith("rank plot with letters")
    large = board(100, test="wilcoxon")
    assert figure_reason(large, 7)[1].endswith("rank plot with numbered tiers")

"""The critical difference diagram as drawn by matplotlib.

Artists are found by gid and compared with the result they draw (every name once,
bars exactly the result's groups, a CD bar only when the result has a CD, markers
only in control mode). Legibility is checked with the renderer's own text extents
(no two texts overlap, nothing leaves the figure) for k in {2, 4, 10, 20, 50, 100}
at 3.3 and 7 inches, with short and long names. Output formats: TrueType fonts in
PDF, text kept as text in SVG when asked, PNG at any dpi, PGF when LaTeX is there.

The pytest-mpl baselines (``pytest --mpl``) are pictures of real results:
Demšar (2006) Figure 1a and 1b from Table 6, García & Herrera (2008)'s five
classifiers with Bergmann-Hommel, Benavoli et al. (2016)'s 7 x 54 table with
Wilcoxon-Holm, and one picture per option. They check that the picture does not
change; that it is right was checked by eye against Demšar's Figure 1.
"""

from __future__ import annotations

import shutil
import subprocess
import sys

import matplotlib as mpl
import numpy as np
import pandas as pd
import pytest
from _helpers import SLOW_K, by_gid, only, pdf_fonts, seeded_scores, text_problems
from matplotlib.colors import to_rgba
from matplotlib.figure import Figure
from matplotlib.testing.decorators import check_figures_equal

import cdplot
from cdplot.plotting import CDFigure, cd_diagram, cd_diagrams
from cdplot.plotting._cd_layout import LayoutParams
from cdplot.plotting._style import OKABE_ITO
from cdplot.stats._results import ComparisonResult, OmnibusResult

# The mean-ranks and Nemenyi tests warn that their decisions depend on the pool of
# algorithms (Benavoli et al. 2016); these tests draw such results on purpose.
pytestmark = pytest.mark.filterwarnings("ignore::cdplot.PoolDependenceWarning")

BASELINE = {"savefig_kwargs": {"dpi": 150}, "style": "default", "tolerance": 2}


# ---------------------------------------------------------------- helpers


def make_result(
    ranks: dict[str, float],
    *,
    groups=(),
    uncovered=(),
    cd=None,
    control=None,
    significant=(),
    test="wilcoxon",
    correction="holm",
    alpha=0.05,
) -> ComparisonResult:
    """A hand-built result: only what the diagram reads is meaningful."""
    names = list(ranks)
    k = len(names)
    average = pd.Series(ranks, name="average rank").sort_values(kind="stable")
    square = pd.DataFrame(np.full((k, k), np.nan), index=names, columns=names)
    if control is None:
        sig = pd.DataFrame(False, index=names, columns=names)
        apv = square
    else:
        others = [n for n in names if n != control]
        sig = pd.Series([n in significant for n in others], index=others)
        apv = pd.Series(np.where(sig, 0.01, 0.5), index=others)
    omnibus = OmnibusResult(statistic=1.0, pvalue=0.01, df=k - 1.0)
    return ComparisonResult(
        algorithms=names,
        datasets=["d1"],
        scores=pd.DataFrame([np.arange(k)], columns=names),
        ranks=pd.DataFrame([np.arange(1.0, k + 1)], columns=names),
        average_ranks=average,
        friedman=omnibus,
        iman_davenport=omnibus,
        test=test,
        correction=correction,
        alpha=alpha,
        control=control,
        higher_is_better=True,
        statistics=square,
        pvalues=square,
        adjusted_pvalues=apv,
        significant=sig,
        groups=tuple(tuple(g) for g in groups),
        uncovered_pairs=tuple(uncovered),
        critical_difference=cd,
    )


def synthetic(k: int, n: int = 30, seed: int = 0, names=None) -> pd.DataFrame:
    """Scores of k algorithms on n datasets with steadily increasing skill (seeded)."""
    columns = names if names is not None else [f"alg{i:02d}" for i in range(k)]
    return seeded_scores(columns, n, seed, (0.0, 1.5), [f"data{i}" for i in range(n)])


@pytest.fixture
def fig1a(demsar) -> ComparisonResult:
    # Demšar (2006) Figure 1a: Table 6, Nemenyi, alpha = 0.10, CD = 1.12
    return cdplot.compare(demsar, test="nemenyi", alpha=0.10)


@pytest.fixture
def fig1b(demsar) -> ComparisonResult:
    # Demšar (2006) Figure 1b: Bonferroni-Dunn vs C4.5, alpha = 0.05, CD = 1.16
    return cdplot.compare(
        demsar, test="mean-ranks", correction="bonferroni-dunn", control="C4.5", alpha=0.05
    )


# ---------------------------------------------------------------- artists


def test_every_name_and_rank_drawn_once(fig1a):
    ax = cd_diagram(fig1a)
    for name, rank in fig1a.average_ranks.items():
        assert only(ax, f"cd-name-{name}").get_text() == name
        assert only(ax, f"cd-rank-{name}").get_text() == f"{rank:.2f}"
        only(ax, f"cd-line-{name}")
    assert len(by_gid(ax, "cd-name-")) == fig1a.n_algorithms


def test_lines_start_at_the_average_rank_on_the_axis(fig1a):
    ax = cd_diagram(fig1a)
    axis = only(ax, "cd-axis")
    (x0, x1), (y_axis, _) = axis.get_xdata(), axis.get_ydata()
    k = fig1a.n_algorithms
    for name, rank in fig1a.average_ranks.items():
        xs, ys = only(ax, f"cd-line-{name}").get_data()
        # best (rank 1) on the right, as in Demšar's Figure 1
        assert xs[0] == pytest.approx(x1 - (rank - 1) / (k - 1) * (x1 - x0))
        assert ys[0] == pytest.approx(y_axis)
    ticks = [t.get_text() for t in by_gid(ax, "cd-tick-label")]
    assert ticks == ["1", "2", "3", "4"]


def test_bars_match_groups_exactly(fig1a):
    # Demšar (2006) Figure 1a: {C4.5+m+cf, C4.5+m, C4.5+cf} and {C4.5+cf, C4.5}
    ax = cd_diagram(fig1a)
    axis = only(ax, "cd-axis")
    x0, x1 = axis.get_xdata()
    k = fig1a.n_algorithms
    bars = by_gid(ax, "cd-group-bar")
    assert len(bars) == len(fig1a.groups) == 2
    overhang = LayoutParams().bar_overhang
    for bar, group in zip(bars, fig1a.groups, strict=True):
        xs = [x1 - (fig1a.average_ranks[m] - 1) / (k - 1) * (x1 - x0) for m in group]
        assert sorted(bar.get_xdata()) == pytest.approx([min(xs) - overhang, max(xs) + overhang])
        assert bar.get_label() == "_" + " | ".join(group)
    assert by_gid(ax, "cd-interval") == []
    assert by_gid(ax, "cd-marker-") == []


def test_cd_bar_only_with_a_critical_difference(fig1a, demsar):
    ax = cd_diagram(fig1a)
    bar = only(ax, "cd-cd-bar")
    x0, x1 = only(ax, "cd-axis").get_xdata()
    scale = (x1 - x0) / (fig1a.n_algorithms - 1)
    assert np.ptp(bar.get_xdata()) == pytest.approx(fig1a.critical_difference * scale)
    assert only(ax, "cd-cd-label").get_text() == "CD = 1.12"  # Demšar (2006): CD = 1.12
    wilcoxon = cdplot.compare(demsar)
    assert wilcoxon.critical_difference is None
    ax = cd_diagram(wilcoxon)
    assert by_gid(ax, "cd-cd-") == []


def test_bonferroni_dunn_interval_around_the_control(fig1b):
    ax = cd_diagram(fig1b)
    x0, x1 = only(ax, "cd-axis").get_xdata()
    k = fig1b.n_algorithms
    rc = fig1b.average_ranks["C4.5"]
    cd = fig1b.critical_difference

    def to_x(r):
        return x1 - (r - 1) / (k - 1) * (x1 - x0)

    interval = only(ax, "cd-interval")
    expected = sorted([to_x(max(1, rc - cd)), to_x(min(k, rc + cd))])
    assert sorted(interval.get_xdata()) == pytest.approx(expected)
    assert by_gid(ax, "cd-group-bar") == []
    only(ax, "cd-cd-bar")
    # C4.5+m+cf is significantly better than C4.5 (1.179 > 1.16), C4.5+m is not
    assert only(ax, "cd-marker-C4.5").get_marker() == "D"
    assert only(ax, "cd-marker-C4.5+m+cf").get_marker() == "o"
    assert not any(a.get_gid() == "cd-marker-C4.5+m" for a in ax.lines)
    assert only(ax, "cd-name-C4.5").get_fontweight() == "bold"
    assert {t.get_gid() for t in by_gid(ax, "cd-legend-text")} == {
        "cd-legend-text-control",
        "cd-legend-text-interval",
        "cd-legend-text-significant",
    }


def test_control_holm_marks_significant_algorithms(demsar):
    # Demšar (2006) section 3.2.2: Holm vs C4.5 rejects C4.5+m+cf and C4.5+m
    res = cdplot.compare(demsar, test="mean-ranks", correction="holm", control="C4.5")
    ax = cd_diagram(res)
    marked = {a.get_gid()[len("cd-marker-") :] for a in by_gid(ax, "cd-marker-")}
    expected = {n for n, s in res.significant.items() if s} | {"C4.5"}
    assert marked == expected
    assert by_gid(ax, "cd-interval") == [] and by_gid(ax, "cd-cd-bar") == []
    legend = only(ax, "cd-legend-text-significant")
    assert legend.get_text() == "significantly different from C4.5"
    assert (
        only(ax, "cd-title").get_text()
        == "Mean-ranks test vs C4.5, Holm, \N{MATHEMATICAL ITALIC SMALL ALPHA} = 0.05"
    )


def test_control_without_significant_differences_says_so():
    res = make_result({"a": 1.5, "b": 2.0, "c": 2.5}, control="a", test="sign")
    ax = cd_diagram(res)
    assert only(ax, "cd-note").get_text() == "No algorithm is significantly different from a."
    assert by_gid(ax, "cd-legend-text-significant") == []


def test_uncovered_pairs_get_a_footnote_not_a_bar():
    # a-b and b-c are not significant, but a-c is: no bar may join a and c
    res = make_result(
        {"a": 1.0, "b": 2.0, "c": 3.0, "d": 4.0},
        groups=[("a", "b"), ("c", "d")],
        uncovered=[("b", "c")],
    )
    ax = cd_diagram(res)
    assert len(by_gid(ax, "cd-group-bar")) == 2
    note = only(ax, "cd-note").get_text().replace("\n", " ")
    assert note == "1 further pair is not significantly different but not joined by a bar: b vs c."
    assert cd_diagram(make_result({"a": 1.0, "b": 2.0})).texts  # no note without pairs
    many = make_result(
        {n: float(i) for i, n in enumerate("abcdef", 1)},
        uncovered=[("a", "c"), ("b", "d"), ("c", "e"), ("d", "f"), ("a", "e")],
    )
    note = only(cd_diagram(many), "cd-note").get_text().replace("\n", " ")
    assert note.startswith("5 further pairs are not significantly different but not joined")
    assert note.endswith("a vs c, b vs d, c vs e and 2 more.")
    assert "uncovered_pairs" not in note  # no attribute names in a paper's figure
    # turned off, or reworded
    assert by_gid(cd_diagram(many, footnote=False), "cd-note") == []
    reworded = only(cd_diagram(many, footnote="{n} pairs unjoined: {pairs}"), "cd-note")
    assert reworded.get_text().replace("\n", " ").startswith("5 pairs unjoined: a vs c")
    fig = cd_diagrams({"x": many}, footnote=False)
    assert by_gid(fig.axes[0], "cd-note") == []
    with pytest.raises(cdplot.CdplotInputError, match="not a valid template"):
        cd_diagram(many, footnote="{count} pairs")


@pytest.mark.parametrize(
    ("kwargs", "title"),
    [
        (
            {"test": "nemenyi", "correction": "nemenyi", "alpha": 0.1},
            "Nemenyi test, \N{MATHEMATICAL ITALIC SMALL ALPHA} = 0.1",
        ),
        (
            {"test": "wilcoxon", "correction": "holm"},
            "Wilcoxon signed-rank test, Holm, \N{MATHEMATICAL ITALIC SMALL ALPHA} = 0.05",
        ),
        (
            {"test": "sign", "correction": "none"},
            "Sign test, no correction, \N{MATHEMATICAL ITALIC SMALL ALPHA} = 0.05",
        ),
        (
            {"test": "mean-ranks", "correction": "bergmann-hommel"},
            "Mean-ranks test, Bergmann–Hommel, \N{MATHEMATICAL ITALIC SMALL ALPHA} = 0.05",
        ),
    ],
)
def test_title_names_test_correction_and_alpha(kwargs, title):
    res = make_result({"a": 1.0, "b": 2.0}, **kwargs)
    assert only(cd_diagram(res), "cd-title").get_text() == title


def test_title_off_or_custom(fig1a):
    assert by_gid(cd_diagram(fig1a, title=False), "cd-title") == []
    assert only(cd_diagram(fig1a, title="Figure 1a"), "cd-title").get_text() == "Figure 1a"
    with_title = cd_diagram(fig1a).figure.get_figheight()
    assert cd_diagram(fig1a, title=False).figure.get_figheight() < with_title


def test_highlight_colours_names_and_lines(fig1a):
    ax = cd_diagram(fig1a, highlight={"C4.5": "red"})
    assert to_rgba(only(ax, "cd-name-C4.5").get_color()) == to_rgba("red")
    assert to_rgba(only(ax, "cd-line-C4.5").get_color()) == to_rgba("red")
    assert only(ax, "cd-name-C4.5").get_fontweight() == "bold"
    assert to_rgba(only(ax, "cd-name-C4.5+m").get_color()) == to_rgba("black")
    ax = cd_diagram(fig1a, highlight=["C4.5", "C4.5+m"])  # palette colours in order
    assert to_rgba(only(ax, "cd-name-C4.5").get_color()) == to_rgba(OKABE_ITO[0])
    assert to_rgba(only(ax, "cd-name-C4.5+m").get_color()) == to_rgba(OKABE_ITO[1])


def test_palette_and_group_colors(fig1a, benavoli):
    ax = cd_diagram(fig1a, palette="colorblind", group_colors=True)
    for i, name in enumerate(fig1a.algorithms):
        assert to_rgba(only(ax, f"cd-line-{name}").get_color()) == to_rgba(OKABE_ITO[i])
    # the bars take the palette colours that no algorithm uses
    colours = [to_rgba(b.get_color()) for b in by_gid(ax, "cd-group-bar")]
    assert colours == [to_rgba(c) for c in OKABE_ITO[4:6]]
    ax = cd_diagram(fig1a, group_colors=True)
    colours = [to_rgba(b.get_color()) for b in by_gid(ax, "cd-group-bar")]
    assert colours == [to_rgba(c) for c in OKABE_ITO[:2]]
    # seven classifiers, seven distinct colours (Okabe & Ito with black)
    ax = cd_diagram(cdplot.compare(benavoli), palette="okabe-ito")
    colours = {to_rgba(only(ax, f"cd-line-{n}").get_color()) for n in benavoli.columns}
    assert len(colours) == 7
    # k >= 7: every palette colour is an algorithm's, so the bars are grey, never reusing one
    ax = cd_diagram(cdplot.compare(benavoli), palette="okabe-ito", group_colors=True)
    bars = {to_rgba(b.get_color()) for b in by_gid(ax, "cd-group-bar")}
    assert bars and not bars & colours
    assert all(r == g == b for r, g, b, _ in bars)
    ax = cd_diagram(fig1a, group_colors=["red", "blue"], bar_kws={"lw": 4})
    assert [b.get_linewidth() for b in by_gid(ax, "cd-group-bar")] == [4, 4]


def test_kws_reach_their_artists(fig1a):
    ax = cd_diagram(
        fig1a, text_kws={"fontstyle": "italic"}, line_kws={"linestyle": "--"}, fontsize=7
    )
    assert only(ax, "cd-name-C4.5").get_fontstyle() == "italic"
    assert only(ax, "cd-name-C4.5").get_fontsize() == 7
    assert only(ax, "cd-line-C4.5").get_linestyle() == "--"


def test_rank_format_and_reverse(fig1a):
    ax = cd_diagram(fig1a, rank_format="{:.3f}", reverse=True)
    assert only(ax, "cd-rank-C4.5").get_text() == "3.143"
    x0, x1 = only(ax, "cd-axis").get_xdata()
    best = fig1a.average_ranks.index[0]
    assert only(ax, f"cd-line-{best}").get_xdata()[0] < (x0 + x1) / 2


def test_invalid_options(fig1a):
    err = cdplot.CdplotInputError
    with pytest.raises(err, match="'nope' is not a valid value for highlight"):
        cd_diagram(fig1a, highlight="nope")
    with pytest.raises(err, match="'rainbow' is not a valid value for palette"):
        cd_diagram(fig1a, palette="rainbow")
    with pytest.raises(err, match="palette must hold at least one colour"):
        cd_diagram(fig1a, palette=[])
    with pytest.raises(err, match="'x' is not a valid value for long_names"):
        cd_diagram(fig1a, long_names="x")
    with pytest.raises(err, match="group_colors must be True, False or a non-empty"):
        cd_diagram(fig1a, group_colors=[])
    fig = Figure()
    with pytest.raises(err, match="width applies only to a new figure"):
        cd_diagram(fig1a, ax=fig.add_subplot(), width=3.0)
    with pytest.raises(err, match="at least one comparison result"):
        cd_diagrams({})
    for width in (0.8, 0.0, -1.0, float("nan"), float("inf")):
        with pytest.raises(err, match="width"):
            cd_diagram(fig1a, width=width)
    with pytest.raises(err, match="finite, positive"):
        cd_diagrams({"a": fig1a}, width=float("nan"))


# ---------------------------------------------------------------- figures and axes


def test_new_figure_fits_the_content(fig1a):
    ax = cd_diagram(fig1a)
    fig = ax.figure
    assert isinstance(fig, CDFigure)
    assert fig.get_figwidth() == pytest.approx(3.3)
    assert ax.get_position().bounds == pytest.approx((0, 0, 1, 1))
    assert cd_diagram(fig1a, width=7).figure.get_figwidth() == pytest.approx(7)
    # more algorithms, taller figure
    big = cdplot.compare(synthetic(20), test="nemenyi")
    assert cd_diagram(big).figure.get_figheight() > fig.get_figheight()


def test_given_axes_are_not_resized(fig1a):
    fig = Figure(figsize=(6, 4))
    ax = fig.add_subplot(2, 1, 1)
    position = ax.get_position().bounds
    assert cd_diagram(fig1a, ax=ax) is ax
    assert tuple(fig.get_size_inches()) == (6, 4)
    assert ax.get_position().bounds == position
    assert not ax.axison


@check_figures_equal(extensions=["png"])
def test_plot_method_is_cd_diagram(fig_test, fig_ref, fig1a):
    for fig in (fig_test, fig_ref):
        fig.set_size_inches(3.3, 2.0)
    fig1a.plot(ax=fig_test.add_axes((0, 0, 1, 1)), highlight="C4.5")
    cd_diagram(fig1a, ax=fig_ref.add_axes((0, 0, 1, 1)), highlight="C4.5")


@check_figures_equal(extensions=["png"])
def test_highlight_list_is_highlight_dict_with_palette_colours(fig_test, fig_ref, fig1a):
    for fig in (fig_test, fig_ref):
        fig.set_size_inches(3.3, 2.0)
    cd_diagram(fig1a, ax=fig_test.add_axes((0, 0, 1, 1)), highlight=["C4.5", "C4.5+m"])
    colours = {"C4.5": OKABE_ITO[0], "C4.5+m": OKABE_ITO[1]}
    cd_diagram(fig1a, ax=fig_ref.add_axes((0, 0, 1, 1)), highlight=colours)


def test_cd_diagrams_align_axes_and_share_colours(demsar, benavoli):
    results = {
        "Nemenyi": cdplot.compare(demsar, test="nemenyi", alpha=0.10),
        "Wilcoxon": cdplot.compare(demsar),
    }
    fig = cd_diagrams(results, highlight=["C4.5+m"], palette=None)
    assert isinstance(fig, CDFigure) and len(fig.axes) == 2
    assert fig.get_figwidth() == pytest.approx(7.0)
    axes = [tuple(only(ax, "cd-axis").get_xdata()) for ax in fig.axes]
    assert axes[0] == pytest.approx(axes[1])
    colours = {to_rgba(only(ax, "cd-name-C4.5+m").get_color()) for ax in fig.axes}
    assert colours == {to_rgba(OKABE_ITO[0])}
    titles = [only(ax, "cd-title").get_text() for ax in fig.axes]
    assert titles == [
        "Nemenyi: Nemenyi test, \N{MATHEMATICAL ITALIC SMALL ALPHA} = 0.1",
        "Wilcoxon: Wilcoxon signed-rank test, Holm, \N{MATHEMATICAL ITALIC SMALL ALPHA} = 0.05",
    ]
    assert sum(ax.get_position().height for ax in fig.axes) == pytest.approx(1.0)
    # same colour for the same algorithm even when the panels hold different algorithms
    two = cdplot.compare(benavoli[["C1", "C2", "C3"]])
    three = cdplot.compare(benavoli[["C3", "C2", "C4"]])
    fig = cd_diagrams({"A": two, "B": three}, palette="okabe-ito", title=False)
    for name in ("C2", "C3"):
        colours = {to_rgba(only(ax, f"cd-line-{name}").get_color()) for ax in fig.axes}
        assert len(colours) == 1
    assert [only(ax, "cd-title").get_text() for ax in fig.axes] == ["A", "B"]
    fig = cd_diagrams({"A": two, "B": three}, title="Accuracy")
    assert [t.get_text() for t in fig.texts] == ["Accuracy"]
    assert text_problems(fig) == []


def test_no_pyplot_import_without_pyplot(tmp_path):
    code = (
        "import sys, warnings; warnings.simplefilter('ignore'); import cdplot\n"
        "res = cdplot.compare(cdplot.datasets.load('demsar2006'), test='nemenyi')\n"
        "ax = cdplot.cd_diagram(res); ax.figure.savefig(sys.argv[1])\n"
        "assert 'matplotlib.pyplot' not in sys.modules\n"
    )
    out = tmp_path / "cd-no-pyplot-test.png"
    subprocess.run([sys.executable, "-c", code, str(out)], check=True)
    assert out.stat().st_size > 0


# ---------------------------------------------------------------- legibility


LONG = "GradientBoostingClassifier(learning_rate={:.2f}, max_depth={})"


@pytest.mark.filterwarnings("ignore:the CD diagram of .* is not legible")
@pytest.mark.parametrize("k", [2, 4, 10, 20, *SLOW_K])
@pytest.mark.parametrize("width", [3.3, 7.0])
@pytest.mark.parametrize("long_names", [False, True])
def test_no_text_overlaps_and_nothing_clipped(k, width, long_names):
    names = [LONG.format(i / 100, i) for i in range(k)] if long_names else None
    res = cdplot.compare(synthetic(k, names=names), test="nemenyi")
    ax = cd_diagram(res, width=width)
    assert text_problems(ax.figure) == []
    # every line stays inside the figure
    x0, x1 = ax.get_xlim()
    y1, y0 = ax.get_ylim()
    for line in ax.lines:
        xs, ys = line.get_data()
        assert x0 <= min(xs) and max(xs) <= x1 and y0 <= min(ys) and max(ys) <= y1


@pytest.mark.parametrize("dpi", [50, 300])
def test_legible_at_any_dpi(dpi, benavoli):
    res = cdplot.compare(benavoli, control="C1")
    with mpl.rc_context({"figure.dpi": dpi}):
        ax = cd_diagram(res, long_names="truncate", highlight="C3")
    assert ax.figure.dpi == dpi
    assert text_problems(ax.figure) == []


def test_truncated_names_are_spelled_out_in_footnotes():
    names = [LONG.format(i / 10, i) for i in range(5)]
    res = cdplot.compare(synthetic(5, names=names))
    ax = cd_diagram(res, long_names="truncate")
    notes = [t.get_text() for t in by_gid(ax, "cd-note")]
    assert len(notes) == 5
    for name in names:
        shown = only(ax, f"cd-name-{name}").get_text()
        assert "\n" not in shown and shown.endswith("]")
        number = shown.rsplit("[", 1)[1].rstrip("]")
        note = next(n for n in notes if n.startswith(f"[{number}] "))
        assert note.replace("\n", "").replace(" ", "") == f"[{number}]{name}".replace(" ", "") or (
            " ".join(note.split()) == f"[{number}] {name}"
        )
    assert text_problems(ax.figure) == []


# ---------------------------------------------------------------- file formats


def test_pdf_embeds_truetype_fonts(fig1a, tmp_path):
    path = tmp_path / "cd.pdf"
    cd_diagram(fig1a).figure.savefig(path)
    data = path.read_bytes()
    assert b"/FontFile2" in data  # an embedded TrueType font program
    assert b"/Type3" not in data
    assert mpl.rcParams["pdf.fonttype"] == 3  # the user's settings are left alone


def test_svg_keeps_text_as_text_when_asked(fig1a, tmp_path):
    path = tmp_path / "cd.svg"
    fig = cd_diagram(fig1a).figure
    with mpl.rc_context({"svg.fonttype": "none"}):
        fig.savefig(path)
    svg = path.read_text(encoding="utf-8")
    assert "<text" in svg and "C4.5+m+cf" in svg
    fig.savefig(tmp_path / "paths.svg")  # default: glyphs as paths
    assert "<text" not in (tmp_path / "paths.svg").read_text(encoding="utf-8")


@pytest.mark.parametrize("dpi", [72, 300])
def test_png_at_any_dpi(fig1a, tmp_path, dpi):
    from PIL import Image

    fig = cd_diagram(fig1a).figure
    fig.savefig(tmp_path / "cd.png", dpi=dpi)
    with Image.open(tmp_path / "cd.png") as image:
        assert abs(image.size[0] - 3.3 * dpi) <= 1


@pytest.mark.skipif(
    shutil.which(mpl.rcParams["pgf.texsystem"]) is None, reason="PGF output needs LaTeX"
)
def test_pgf_output(fig1a, tmp_path):
    path = tmp_path / "cd.pgf"
    cd_diagram(fig1a).figure.savefig(path)
    assert "C4.5+m+cf" in path.read_text(encoding="utf-8")


# ---------------------------------------------------------------- baseline images


@pytest.mark.mpl_image_compare(**BASELINE)
def test_baseline_demsar_figure_1a(fig1a):
    return cd_diagram(fig1a).figure


@pytest.mark.mpl_image_compare(**BASELINE)
def test_baseline_demsar_figure_1b(fig1b):
    return cd_diagram(fig1b).figure


@pytest.mark.mpl_image_compare(**BASELINE)
def test_baseline_garcia_bergmann_hommel():
    # García & Herrera (2008) case study: average ranks 2.100, 3.250, 2.200, 4.333, 3.117;
    # Bergmann-Hommel at 0.05 keeps only C4.5-NaiveBayes and 1-NN-CN2 (Table 5)
    table = cdplot.datasets.load("garcia2008_synthetic")
    res = cdplot.compare(table, higher_is_better=False, test="mean-ranks", correction="bergmann")
    return cd_diagram(res).figure


@pytest.mark.mpl_image_compare(**BASELINE)
def test_baseline_benavoli_wilcoxon_holm(benavoli):
    return cd_diagram(cdplot.compare(benavoli, test="wilcoxon", correction="holm")).figure


@pytest.mark.mpl_image_compare(**BASELINE)
def test_baseline_synthetic_k20():
    return cd_diagram(cdplot.compare(synthetic(20, seed=20))).figure


@pytest.mark.mpl_image_compare(**BASELINE)
def test_baseline_synthetic_k50_double_column():
    res = cdplot.compare(synthetic(50, n=60, seed=50), test="nemenyi")
    return cd_diagram(res, width=7.0).figure


@pytest.mark.mpl_image_compare(**BASELINE)
def test_baseline_lower_is_better_control_holm(demsar):
    # error rates (1 - AUC of Demšar's Table 6): same ranks, lower is better
    errors = 1.0 - demsar
    res = cdplot.compare(
        errors, higher_is_better=False, test="mean-ranks", correction="holm", control="C4.5"
    )
    return cd_diagram(res).figure


@pytest.mark.mpl_image_compare(**BASELINE)
def test_baseline_reversed(fig1a):
    return cd_diagram(fig1a, reverse=True).figure


@pytest.mark.mpl_image_compare(**BASELINE)
def test_baseline_highlighted(benavoli):
    res = cdplot.compare(benavoli)
    return cd_diagram(res, highlight=["C3", "C4"], group_colors=True).figure


@pytest.mark.mpl_image_compare(**BASELINE)
def test_baseline_multiple_diagrams(demsar):
    results = {
        "AUC, Nemenyi": cdplot.compare(demsar, test="nemenyi", alpha=0.10),
        "AUC, Wilcoxon": cdplot.compare(demsar, test="wilcoxon", correction="holm"),
    }
    return cd_diagrams(results, palette="okabe-ito", width=7.0)


LONG_NAMES = [
    "Random forest (500 trees)",
    "Gradient boosting, learning rate 0.1",
    "k-nearest neighbours, k = 10",
    "NaiveBayes",
    "SupportVectorMachineWithRadialBasisKernel",
    "Logistic regression (L2)",
]


@pytest.mark.mpl_image_compare(**BASELINE)
def test_baseline_long_names_wrapped():
    res = cdplot.compare(synthetic(6, seed=6, names=LONG_NAMES))
    return cd_diagram(res).figure


@pytest.mark.mpl_image_compare(**BASELINE)
def test_baseline_long_names_truncated():
    res = cdplot.compare(synthetic(6, seed=6, names=LONG_NAMES))
    return cd_diagram(res, long_names="truncate", max_name_width=0.6).figure


# ---------------------------------------------------------------- the bundled font


def test_pdf_embeds_the_bundled_cut_of_dejavu_sans(fig1a, tmp_path):
    from cdplot.plotting._style import FONT_DIR

    path = tmp_path / "cd.pdf"
    cd_diagram(fig1a, highlight="C4.5").figure.savefig(path)
    data = path.read_bytes()
    assert b"/FontFile2" in data and b"/Type3" not in data  # TrueType, never Type 3
    assert b"cdplotSans" in data and b"DejaVuSans" not in data
    # the title's alpha is the regular face's italic alpha U+1D6FC: no oblique face
    assert b"cdplotSans-Bold" in data and b"Oblique" not in data
    assert (FONT_DIR / "LICENSE_DEJAVU").read_text(encoding="utf-8").startswith("Fonts are (c)")
    assert mpl.rcParams["font.sans-serif"][0] == "DejaVu Sans"  # the user's settings untouched


def test_bundled_font_only_when_it_holds_every_character(tmp_path):
    # Cyrillic is in DejaVu Sans but not in the cut: the whole figure keeps DejaVu Sans,
    # except the title's italic alpha, which only the bundled font holds
    res = make_result({"\N{CYRILLIC CAPITAL LETTER ZHE}-net": 1.0, "b": 2.0})
    cd_diagram(res).figure.savefig(tmp_path / "cyrillic.pdf")
    data = (tmp_path / "cyrillic.pdf").read_bytes()
    assert b"DejaVuSans" in data and b"Oblique" not in data
    assert pdf_fonts(data) == {"DejaVuSans", "cdplotSans"}
    # a user's own font choice is left alone
    with mpl.rc_context({"font.sans-serif": ["DejaVu Sans Mono"]}):
        cd_diagram(make_result({"a": 1.0, "b": 2.0})).figure.savefig(tmp_path / "mono.pdf")
    assert b"cdplotSans" not in (tmp_path / "mono.pdf").read_bytes()
    # user mathtext beyond cdplot's own keeps matplotlib's math fonts, text still bundled
    res = make_result({"$x_1$": 1.0, "b": 2.0})
    cd_diagram(res).figure.savefig(tmp_path / "math.pdf")
    data = (tmp_path / "math.pdf").read_bytes()
    assert b"cdplotSans" in data and b"DejaVuSans-Oblique" in data

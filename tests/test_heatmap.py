"""APV heatmaps and the combined report figure.

What is verified: cells, annotations, marks and order are read from the result (no
statistics recomputed); colours agree with ``result.significant`` and are ordered in
lightness (greyscale) with a step at alpha; no two texts overlap for k = 3..50; options
and errors. The pytest-mpl baselines (run with ``--mpl``) are one per visual feature:
García & Herrera's case study with Bergmann-Hommel, k = 20, control mode, the
significance plot and the combined figure.

Data: ``garcia2008_synthetic`` reproduces García & Herrera (2008)'s average ranks, so
with the mean-ranks test and Bergmann-Hommel it gives their Table 5 APVs (see
tests/test_paper_values.py); the k = 20 and k = 50 tables are seeded random scores.
"""

from __future__ import annotations

import itertools
import subprocess
import sys

import matplotlib as mpl
import numpy as np
import pandas as pd
import pytest
from _helpers import SLOW_K, quiet_compare, seeded_scores
from matplotlib.figure import Figure
from matplotlib.text import Text

import cdplot
from cdplot.plotting._heatmap import (
    N_COLORS,
    NOT_SIGNIFICANT_RAMP,
    P_FLOOR,
    SIGNIFICANT_RAMP,
    _AlphaLogNorm,
    _pvalue_colormap,
    apv_heatmap,
    significance_levels,
)
from cdplot.plotting._report_figure import report_figure
from cdplot.report import format_pvalue


def synthetic(k: int, n: int = 30, seed: int = 2008, prefix: str = "alg-") -> pd.DataFrame:
    """Seeded scores with means spread over 1.5 standard deviations (higher is better)."""
    names = [f"{prefix}{i:02d}" for i in range(1, k + 1)]
    return seeded_scores(names, n, seed, (1.5, 0.0), [f"d{i}" for i in range(n)])


@pytest.fixture
def demsar_control(demsar):
    with pytest.warns(cdplot.PoolDependenceWarning):
        return cdplot.compare(demsar, test="mean-ranks", control="C4.5", correction="holm")


def annotations(ax):
    return [t for t in ax.texts if t.get_gid() == "apv-annotation"]


def text_overlaps(fig: Figure, tolerance: float = 0.5) -> list[tuple[str, str]]:
    """Pairs of visible, non-empty texts whose rendered extents overlap (pixels)."""
    renderer = fig.canvas.get_renderer()
    fig.draw(renderer)
    boxes = [
        (t.get_text(), t.get_window_extent(renderer))
        for t in fig.findobj(Text)
        if t.get_visible() and t.get_text().strip()
    ]
    bad = []
    for (a, box_a), (b, box_b) in itertools.combinations(boxes, 2):
        width = min(box_a.x1, box_b.x1) - max(box_a.x0, box_b.x0)
        height = min(box_a.y1, box_b.y1) - max(box_a.y0, box_b.y0)
        if width > tolerance and height > tolerance:
            bad.append((a, b))
    return bad


def lightness(rgb) -> float:
    """CIE L* (0 = black, 100 = white) of an sRGB colour."""
    lin = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb[:3]]
    y = 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]
    return 116 * y ** (1 / 3) - 16 if y > 216 / 24389 else 24389 / 27 * y


# --------------------------------------------------------------------------- content


def test_cells_follow_rank_order_lower_triangle(garcia):
    ax = apv_heatmap(garcia)
    order = list(garcia.average_ranks.index)
    assert [t.get_text() for t in ax.get_yticklabels()] == order[1:]
    assert [t.get_text() for t in ax.get_xticklabels()] == order[:-1]
    texts = annotations(ax)
    assert len(texts) == 10  # k(k - 1)/2 for k = 5
    for text in texts:
        x, y = text.get_position()
        row, col = order[1:][int(y)], order[:-1][int(x)]
        apv = garcia.adjusted_pvalues.loc[row, col]
        assert text.get_text() == format_pvalue(apv)
        significant = bool(garcia.significant.loc[row, col])
        assert (text.get_fontweight() == "bold") is significant


def test_tick_labels_are_display_names(demsar):
    labels = {"C4.5+m+cf": "pruned & tuned_x", "C4.5": "<base>"}
    res = cdplot.compare(demsar, labels=labels)
    plain = cdplot.compare(demsar)
    ax = apv_heatmap(res)
    order = [labels.get(a, a) for a in res.average_ranks.index]
    assert [t.get_text() for t in ax.get_yticklabels()] == order[1:]
    assert [t.get_text() for t in ax.get_xticklabels()] == order[:-1]
    # the same cells as without labels: only the names changed
    assert [t.get_text() for t in annotations(ax)] == [
        t.get_text() for t in annotations(apv_heatmap(plain))
    ]
    with pytest.warns(cdplot.PoolDependenceWarning):
        ctrl = cdplot.compare(demsar, test="mean-ranks", control="C4.5", labels=labels)
    ax = apv_heatmap(ctrl)
    assert [t.get_text() for t in ax.get_xticklabels()] == ["vs <base>"]
    assert [t.get_text() for t in ax.get_yticklabels()] == [
        labels.get(a, a) for a in ctrl.average_ranks.index
    ]


def test_garcia_bergmann_annotations(garcia):
    # García & Herrera (2008) Table 5, Bergmann-Hommel column: H1-H8 rejected at 0.05,
    # e.g. Kernel vs CN2 0.0115 and C4.5 vs NaiveBayes 1 (not significant).
    ax = apv_heatmap(garcia)
    cells = {
        (
            ax.get_yticklabels()[int(t.get_position()[1])].get_text(),
            ax.get_xticklabels()[int(t.get_position()[0])].get_text(),
        ): t.get_text()
        for t in annotations(ax)
    }
    assert cells[("Kernel", "CN2")] == "0.012"
    assert cells[("NaiveBayes", "C4.5")] == "1"
    assert cells[("Kernel", "C4.5")] == "<0.001"
    assert sum(t.get_fontweight() == "bold" for t in annotations(ax)) == 8


@pytest.mark.parametrize(("triangle", "n_cells"), [("lower", 6), ("upper", 6), ("full", 12)])
def test_triangles(triangle, n_cells, demsar):
    res = quiet_compare(demsar, test="nemenyi", alpha=0.10)
    order = list(res.average_ranks.index)
    ax = apv_heatmap(res, triangle=triangle)
    assert len(annotations(ax)) == n_cells
    rows = [t.get_text() for t in ax.get_yticklabels()]
    cols = [t.get_text() for t in ax.get_xticklabels()]
    expected = {"lower": (order[1:], order[:-1]), "upper": (order[:-1], order[1:])}
    assert (rows, cols) == expected.get(triangle, (order, order))
    for text in annotations(ax):
        x, y = text.get_position()
        assert rows[int(y)] != cols[int(x)]


def test_star_mark_and_raw_pvalues(garcia):
    ax = apv_heatmap(garcia, adjusted=False, mark="star")
    texts = annotations(ax)
    starred = [t for t in texts if t.get_text().endswith("*")]
    assert len(starred) == int(garcia.significant.to_numpy().sum() // 2)
    assert all(t.get_fontweight() == "normal" for t in texts)
    # raw p: Kernel vs CN2 is 0.0029 (García & Herrera Table 3), not its APV 0.0115
    values = {t.get_text().rstrip("*") for t in texts}
    assert "0.003" in values and "0.012" not in values
    label = ax.collections[0].colorbar.ax.get_ylabel()
    assert label.startswith("Unadjusted p-value")


def test_control_mode_single_column(demsar_control):
    res = demsar_control
    ax = apv_heatmap(res)
    order = list(res.average_ranks.index)
    assert [t.get_text() for t in ax.get_yticklabels()] == order
    assert [t.get_text() for t in ax.get_xticklabels()] == ["vs C4.5"]
    texts = annotations(ax)
    assert len(texts) == 3
    for text in texts:
        name = order[int(text.get_position()[1])]
        assert text.get_text() == format_pvalue(res.adjusted_pvalues[name])
        assert (text.get_fontweight() == "bold") is bool(res.significant[name])
    (control,) = [t for t in ax.texts if t.get_gid() == "apv-control"]
    assert order[int(control.get_position()[1])] == "C4.5"


def test_significance_kind(garcia):
    ax = apv_heatmap(garcia, kind="significance")
    cbar = ax.collections[0].colorbar
    labels = [t.get_text() for t in cbar.ax.get_yticklabels()]
    assert labels == [r"p $\leq$ 0.001", r"p $\leq$ 0.01", r"p $\leq$ 0.05", "NS"]
    colors = {tuple(np.round(c, 4)) for c in ax.collections[0].get_facecolors()}
    assert len(colors) <= 4
    assert significance_levels(0.05) == [0.001, 0.01, 0.05]
    assert significance_levels(0.10) == [0.001, 0.01, 0.05, 0.10]
    assert significance_levels(0.01) == [0.001, 0.01]


def test_colours_agree_with_significance(garcia):
    ax = apv_heatmap(garcia)
    mesh = ax.collections[0]
    values = np.ma.getdata(mesh.get_array()).ravel()
    shown = ~np.ma.getmaskarray(mesh.get_array()).ravel()
    faces = mesh.get_facecolors()[shown]
    assert len(faces) == 10
    for rgba, p in zip(faces, values[shown], strict=True):
        grey = np.allclose(rgba[0], rgba[1:3], atol=1e-6)
        assert grey is bool(p > garcia.alpha)  # greys exactly for non-significant cells


def test_alpha_break_is_exact():
    alpha = 0.05
    norm = _AlphaLogNorm(P_FLOOR, 1.0, alpha, N_COLORS)
    cmap = _pvalue_colormap(norm)
    below, above = cmap(norm(alpha)), cmap(norm(np.nextafter(alpha, 1.0)))
    assert not np.allclose(below[0], below[1:3])  # a blue: significant
    assert np.allclose(above[0], above[1:3])  # a grey: not significant
    assert cmap(norm(1e-9)) == cmap(norm(P_FLOOR))  # clipped to the darkest colour


@pytest.mark.parametrize("alpha", [0.01, 0.05, 0.10])
def test_lightness_ordered_with_a_step_at_alpha(alpha):
    # Greyscale print: lightness never decreases as p grows, and jumps at alpha.
    norm = _AlphaLogNorm(P_FLOOR, 1.0, alpha, N_COLORS)
    cmap = _pvalue_colormap(norm)
    grid = np.geomspace(P_FLOOR, 1.0, 2000)
    light = np.array([lightness(cmap(norm(p))) for p in grid])
    assert np.all(np.diff(light) >= -1e-9)
    step = lightness(cmap(norm(np.nextafter(alpha, 1.0)))) - lightness(cmap(norm(alpha)))
    assert step > 15.0  # L* units
    assert lightness(mpl.colors.to_rgb(SIGNIFICANT_RAMP[0])) < 20
    assert lightness(mpl.colors.to_rgb(NOT_SIGNIFICANT_RAMP[-1])) > 90


def test_colourbar_marks_alpha(garcia):
    ax = apv_heatmap(garcia)
    cbar_ax = ax.collections[0].colorbar.ax
    labels = [t.get_text() for t in cbar_ax.get_yticklabels()]
    assert "\N{MATHEMATICAL ITALIC SMALL ALPHA} = 0.05" in labels
    (line,) = [ln for ln in cbar_ax.lines if ln.get_gid() == "apv-alpha-line"]
    assert set(line.get_ydata()) == {0.05}
    assert "Bergmann\N{EN DASH}Hommel-adjusted p-value" in cbar_ax.get_ylabel()


# --------------------------------------------------------------------------- legibility


@pytest.mark.parametrize("k", [3, 8, 20, 35, SLOW_K[0]])
@pytest.mark.parametrize("kind", ["pvalue", "significance"])
def test_no_text_overlaps(k, kind):
    res = quiet_compare(synthetic(k, prefix="algorithm_"))
    ax = apv_heatmap(res, kind=kind, mark="both")
    assert text_overlaps(ax.get_figure()) == []


@pytest.mark.parametrize("triangle", ["upper", "full"])
@pytest.mark.parametrize("k", [4, 12])
def test_no_text_overlaps_other_triangles(k, triangle):
    res = quiet_compare(synthetic(k, prefix="algorithm "))
    ax = apv_heatmap(res, triangle=triangle)
    assert text_overlaps(ax.get_figure()) == []


@pytest.mark.parametrize("k", [3, 20, SLOW_K[0]])
def test_no_text_overlaps_control(k):
    res = quiet_compare(synthetic(k), control="alg-01")
    ax = apv_heatmap(res)
    assert text_overlaps(ax.get_figure()) == []
    assert len(annotations(ax)) == k - 1


def test_annotations_shrink_then_switch_off():
    sizes = {}
    for k in (5, 20, 50):
        ax = apv_heatmap(quiet_compare(synthetic(k)))
        texts = annotations(ax)
        sizes[k] = texts[0].get_fontsize() if texts else None
    assert sizes[20] < sizes[5]
    assert sizes[20] >= 5.0
    assert sizes[50] is None
    # an explicit font size keeps them on
    ax = apv_heatmap(quiet_compare(synthetic(50)), annot_kws={"fontsize": 3})
    assert len(annotations(ax)) == 50 * 49 // 2
    assert not annotations(apv_heatmap(quiet_compare(synthetic(5)), annot=False))


def test_figure_sized_from_k():
    widths = [
        apv_heatmap(quiet_compare(synthetic(k))).get_figure().get_size_inches()[0]
        for k in (3, 10, 50)
    ]
    assert widths[0] < widths[1] < 9.0
    assert widths[2] < 9.0


# --------------------------------------------------------------------------- API


def test_explicit_axes_and_kwargs(garcia):
    fig = Figure(figsize=(5, 4))
    ax = fig.add_subplot()
    out = apv_heatmap(garcia, ax=ax, linewidths=0, cmap="viridis", cbar=False)
    assert out is ax
    assert len(fig.axes) == 1  # no colour bar
    mesh = ax.collections[0]
    assert mesh.cmap.name == "viridis"
    assert np.all(mesh.get_linewidths() == 0)
    # a user mask is added to the triangle's
    mask = np.zeros((4, 4), dtype=bool)
    mask[3, 0] = True
    ax2 = apv_heatmap(garcia, ax=Figure().add_subplot(), mask=mask)
    assert len(annotations(ax2)) == 9


@pytest.mark.parametrize(
    ("option", "value", "match"),
    [
        ("kind", "heat", "'heat' is not a valid value for kind; supported values are"),
        ("triangle", "left", "'left' is not a valid value for triangle"),
        ("mark", "underline", "'underline' is not a valid value for mark"),
    ],
)
def test_invalid_options(garcia, option, value, match):
    with pytest.raises(cdplot.CdplotInputError, match=match):
        apv_heatmap(garcia, **{option: value})


def test_seaborn_annot_is_refused(garcia):
    with pytest.raises(cdplot.CdplotInputError, match="does not take fmt="):
        apv_heatmap(garcia, fmt=".2f")
    with pytest.raises(cdplot.CdplotInputError, match="cbar_ax applies only to a given ax"):
        apv_heatmap(garcia, cbar_ax=Figure().add_subplot())


def test_cbar_ax_draws_the_colour_bar_there(garcia):
    fig = Figure(figsize=(5, 4))
    ax, cax = fig.add_axes((0.1, 0.1, 0.6, 0.8)), fig.add_axes((0.8, 0.1, 0.05, 0.8))
    assert apv_heatmap(garcia, ax=ax, cbar_ax=cax) is ax
    assert ax.collections[0].colorbar.ax is cax
    assert len(fig.axes) == 2


def test_report_figure_uses_only_public_heatmap_names():
    import ast
    import inspect

    from cdplot.plotting import _report_figure

    tree = ast.parse(inspect.getsource(_report_figure))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "_heatmap":
            assert all(not alias.name.startswith("_") for alias in node.names)


@pytest.mark.parametrize("width", [0, -2.0, float("nan"), float("inf")])
def test_width_must_be_finite_and_positive(garcia, width):
    with pytest.raises(cdplot.CdplotInputError, match="finite, positive"):
        apv_heatmap(garcia, width=width)
    with pytest.raises(cdplot.CdplotInputError, match="finite, positive"):
        report_figure(garcia, width=width)


def test_public_names():
    assert cdplot.apv_heatmap is apv_heatmap
    assert cdplot.report_figure is report_figure


def test_new_figure_without_pyplot_is_not_managed_by_pyplot():
    code = (
        "import sys, warnings\n"
        "import cdplot\n"
        "res = cdplot.compare(cdplot.datasets.load('demsar2006'))\n"
        "print('seaborn' in sys.modules)\n"
        "ax = cdplot.apv_heatmap(res)\n"
        "import matplotlib.pyplot as plt\n"
        "print(type(ax.get_figure()).__name__, plt.get_fignums())\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split("\n")[:2] == ["False", "CDFigure []"]


# --------------------------------------------------------------------------- report figure


@pytest.mark.parametrize("reverse", [False, True])
def test_report_figure_same_order(garcia, reverse):
    """One orientation with cd_diagram, and the heatmap's columns follow it."""
    fig = report_figure(garcia, reverse=reverse)
    cd_ax, heat_ax = fig.axes[0], fig.axes[1]
    assert (cd_ax.get_gid(), heat_ax.get_gid()) == ("report-cd", "report-heatmap")

    def left_to_right(ax):
        lines = {
            ln.get_gid()[len("cd-line-") :]: ln.get_xdata()[0]
            for ln in ax.lines
            if (ln.get_gid() or "").startswith("cd-line-")
        }
        return sorted(lines, key=lambda n: ax.transData.transform((lines[n], 0))[0])

    order = left_to_right(cd_ax)
    alone = cdplot.cd_diagram(garcia) if not reverse else cdplot.cd_diagram(garcia, reverse=True)
    assert order == left_to_right(alone)  # the same orientation as the diagram on its own
    best_first = list(garcia.average_ranks.index)
    assert order == (best_first if reverse else best_first[::-1])
    ticks = heat_ax.get_xticklabels()
    x = dict(zip((t.get_text() for t in ticks), heat_ax.get_xticks(), strict=True))
    columns = sorted(x, key=lambda n: heat_ax.transData.transform((x[n], 0))[0])
    assert columns == [n for n in order if n in x]
    assert text_overlaps(fig) == []


def test_report_figure_width(garcia):
    fig = report_figure(garcia, width=6.0, heatmap_kws={"kind": "significance"})
    assert fig.get_size_inches()[0] == pytest.approx(6.0)
    fig = report_figure(garcia, width=3.0)  # narrower than the heatmap: cells shrink
    assert fig.get_size_inches()[0] == pytest.approx(3.0)
    assert text_overlaps(fig) == []
    with pytest.raises(cdplot.CdplotInputError, match="too small"):
        report_figure(garcia, width=1.0)
    with pytest.raises(cdplot.CdplotInputError, match="makes its own Axes"):
        report_figure(garcia, heatmap_kws={"ax": None})


@pytest.mark.parametrize("width", [3.3, 7.0])
@pytest.mark.parametrize("k", [5, 20])
def test_given_width(width, k):
    ax = apv_heatmap(quiet_compare(synthetic(k)), width=width)
    fig = ax.get_figure()
    assert fig.get_size_inches()[0] == pytest.approx(width)
    assert fig.get_tightbbox().x1 <= width + 1e-6
    assert text_overlaps(fig) == []
    with pytest.raises(cdplot.CdplotInputError, match="width applies only to a new figure"):
        apv_heatmap(quiet_compare(synthetic(k)), ax=Figure().add_subplot(), width=width)


# --------------------------------------------------------------------------- baselines


@pytest.mark.mpl_image_compare(filename="heatmap_garcia_bergmann_hommel.png")
def test_image_garcia_bergmann(garcia):
    return apv_heatmap(garcia).get_figure()


@pytest.mark.mpl_image_compare(filename="heatmap_k20.png")
def test_image_k20():
    res = quiet_compare(synthetic(20))
    return apv_heatmap(res).get_figure()


@pytest.mark.mpl_image_compare(filename="heatmap_control.png")
def test_image_control(demsar_control):
    return apv_heatmap(demsar_control).get_figure()


@pytest.mark.mpl_image_compare(filename="heatmap_significance.png")
def test_image_significance(garcia):
    return apv_heatmap(garcia, kind="significance", mark="star").get_figure()


@pytest.mark.mpl_image_compare(filename="report_figure_garcia.png")
def test_image_report_figure(garcia):
    return report_figure(garcia)

"""Display names (``compare(labels=...)``) in the critical difference diagram.

The diagram draws ``res.label(name)`` for every algorithm, in names, footnotes,
titles, legends and notes, on the rank axis, on Tukey's mean-score axis and in
``cd_diagrams``; the artists keep the algorithm names in their gids. ``highlight``
and ``palette`` accept an algorithm by its name or by its label; a string that is
one algorithm's name and another's label is refused with the arguments that are
not ambiguous. Consistency only (the statistics are those of the unlabelled result).
"""

from __future__ import annotations

import dataclasses

import pytest
from _helpers import only
from _helpers import quiet_compare as quiet
from matplotlib.colors import to_rgba

from cdplot import CdplotInputError
from cdplot.plotting import cd_diagram, cd_diagrams
from cdplot.plotting._cd_layout import compute_layout
from cdplot.plotting._style import OKABE_ITO

BASELINE = {"savefig_kwargs": {"dpi": 150}, "style": "default", "tolerance": 2}

# Demšar (2006) Table 6's algorithms, renamed for display
LABELS = {"C4.5+m+cf": "C4.5 (m, cf)", "C4.5+m": "C4.5 (m)", "C4.5": "plain C4.5"}


def shown_names(ax, algorithms) -> dict[str, str]:
    return {a: only(ax, f"cd-name-{a}").get_text() for a in algorithms}


def all_text(ax) -> str:
    return " ".join(" ".join(t.get_text().split()) for t in ax.texts)


def expected(algorithms) -> dict[str, str]:
    return {a: LABELS.get(a, a) for a in algorithms}


# ---------------------------------------------------------------- layout


def fake_measure(text: str, role: str) -> tuple[float, float]:
    lines = text.split("\n")
    return max(len(s) for s in lines) * 0.06, len(lines) * 0.12


def test_layout_draws_display_names_keyed_by_algorithm():
    names, ranks = ["a", "b", "c"], [1.2, 2.0, 2.8]
    lay = compute_layout(
        names, ranks, width=3.3, measure=fake_measure, display_names={"a": "Alpha", "c": "Gamma"}
    )
    assert {lab.algorithm: lab.name_text.text for lab in lay.labels} == {
        "a": "Alpha",
        "b": "b",
        "c": "Gamma",
    }
    # the width reserved beside the axis is that of the label, not of the name
    wide = compute_layout(names, ranks, width=3.3, measure=fake_measure,
                          display_names={"a": "A much longer label"})  # fmt: skip
    assert wide.margins[1] > lay.margins[1]


def test_layout_footnote_spells_out_the_truncated_label():
    label = "RandomForest with 500 trees and balanced class weights"
    lay = compute_layout(["rf", "lr"], [1.0, 2.0], width=3.3, measure=fake_measure,
                         long_names="truncate", display_names={"rf": label})  # fmt: skip
    rf = next(lab for lab in lay.labels if lab.algorithm == "rf")
    assert rf.footnote == 1 and rf.name_text.text.startswith("RandomF")
    assert [n.text.replace("\n", " ") for n in lay.notes] == [f"[1] {label}"]


# ---------------------------------------------------------------- diagrams


def test_rank_diagram_shows_labels(demsar):
    res = quiet(demsar, test="nemenyi", alpha=0.10, labels=LABELS)
    ax = cd_diagram(res)
    assert shown_names(ax, res.algorithms) == expected(res.algorithms)
    for name in res.algorithms:  # gids keep the algorithm names
        only(ax, f"cd-line-{name}")
    assert "plain C4.5" in all_text(ax)


def test_tukey_diagram_shows_labels(demsar):
    res = quiet(demsar, test="tukey", labels=LABELS)
    ax = cd_diagram(res)
    assert shown_names(ax, res.algorithms) == expected(res.algorithms)
    assert only(ax, "cd-axis-caption").get_text() == "mean score (higher is better)"


def test_control_title_legend_and_notes_use_labels(demsar):
    res = quiet(demsar, test="mean-ranks", correction="bonferroni-dunn", control="C4.5",
                labels=LABELS)  # fmt: skip
    ax = cd_diagram(res)
    text = all_text(ax)
    assert "vs plain C4.5" in only(ax, "cd-title").get_text()
    assert only(ax, "cd-legend-text-control").get_text() == "control: plain C4.5"
    assert "one CD on both sides of plain C4.5" in text
    assert "control: C4.5 " not in text + " "
    # Wilcoxon-Holm against C4.5+m+cf: no algorithm differs significantly at 0.05. Raw p from
    # scipy.stats.wilcoxon(x, y, method="approx", correction=True) on Demšar's Table 6:
    # vs C4.5 0.01746, vs C4.5+cf 0.02800, vs C4.5+m 0.3503; Holm: 3 x 0.01746 = 0.0524 and
    # 2 x 0.02800 = 0.0560, both > 0.05. Against C4.5+m, C4.5 differs: 3 x 0.01203 = 0.0361.
    nothing = quiet(demsar, control="C4.5+m+cf", labels=LABELS)
    assert not nothing.significant.any()
    assert "No algorithm is significantly different from C4.5 (m, cf)." in all_text(
        cd_diagram(nothing)
    )
    assert "significantly different from C4.5 (m)" in all_text(
        cd_diagram(quiet(demsar, control="C4.5+m", labels=LABELS))
    )


def test_uncovered_pair_footnote_uses_labels(demsar):
    # the footnote only formats result.uncovered_pairs: give the result one to draw
    res = quiet(demsar, test="nemenyi", alpha=0.10, labels=LABELS)
    res = dataclasses.replace(res, uncovered_pairs=(("C4.5+m+cf", "C4.5"),))
    text = all_text(cd_diagram(res))
    assert "1 further pair is not significantly different but not joined by a bar: " in text
    assert "C4.5 (m, cf) vs plain C4.5." in text


def test_cd_diagrams_show_labels_and_highlight_by_label(demsar):
    results = {
        "Nemenyi": quiet(demsar, test="nemenyi", labels=LABELS),
        "Tukey": quiet(demsar, test="tukey", labels=LABELS),
    }
    fig = cd_diagrams(results, highlight="C4.5 (m)")
    for ax, res in zip(fig.axes, results.values(), strict=True):
        assert shown_names(ax, res.algorithms) == expected(res.algorithms)
        assert to_rgba(only(ax, "cd-name-C4.5+m").get_color()) == to_rgba(OKABE_ITO[0])
        assert only(ax, "cd-name-C4.5+m").get_fontweight() == "bold"


# ---------------------------------------------------------------- highlight by name or label


@pytest.mark.parametrize("how", ["C4.5+m", "C4.5 (m)", ["C4.5 (m)"], {"C4.5 (m)": "red"}])
def test_highlight_by_name_or_by_label(demsar, how):
    res = quiet(demsar, labels=LABELS)
    ax = cd_diagram(res, highlight=how)
    color = "red" if isinstance(how, dict) else OKABE_ITO[0]
    assert to_rgba(only(ax, "cd-name-C4.5+m").get_color()) == to_rgba(color)
    assert to_rgba(only(ax, "cd-line-C4.5+m").get_color()) == to_rgba(color)
    assert to_rgba(only(ax, "cd-name-C4.5").get_color()) == to_rgba("black")


def test_palette_mapping_by_label(demsar):
    res = quiet(demsar, labels=LABELS)
    ax = cd_diagram(res, palette={"plain C4.5": "red", "C4.5+cf": "blue"})
    assert to_rgba(only(ax, "cd-line-C4.5").get_color()) == to_rgba("red")
    assert to_rgba(only(ax, "cd-line-C4.5+cf").get_color()) == to_rgba("blue")


def test_unknown_highlight_suggests_names_and_labels(demsar):
    res = quiet(demsar, labels=LABELS)
    with pytest.raises(
        CdplotInputError, match=r"nor one of their labels .*Did you mean 'plain C4.5'"
    ):
        cd_diagram(res, highlight="plain c4.5x")
    with pytest.raises(CdplotInputError, match="not a valid value for highlight"):
        cd_diagram(res, highlight="C4.6")


def test_ambiguous_highlight_is_refused_with_the_unambiguous_spellings(demsar):
    # 'C4.5+m' is an algorithm, and also the label given to the algorithm 'C4.5'
    res = quiet(demsar, labels={"C4.5": "C4.5+m", "C4.5+m": "m"})
    message = (
        "highlight='C4.5+m' is ambiguous: the label of 'C4.5' and the algorithm 'C4.5+m' are "
        "both called 'C4.5+m'; pass highlight='C4.5' for the algorithm 'C4.5' or "
        "highlight='m' for the algorithm 'C4.5+m'."
    )
    with pytest.raises(CdplotInputError) as err:
        cd_diagram(res, highlight="C4.5+m")
    assert str(err.value) == message
    # the spellings it offers work
    ax = cd_diagram(res, highlight={"m": "red", "C4.5": "blue"})
    assert to_rgba(only(ax, "cd-line-C4.5+m").get_color()) == to_rgba("red")
    assert to_rgba(only(ax, "cd-line-C4.5").get_color()) == to_rgba("blue")
    assert only(ax, "cd-name-C4.5").get_text() == "C4.5+m"


def test_labels_that_swap_names_cannot_be_told_apart(demsar):
    res = quiet(demsar, labels={"C4.5": "C4.5+m", "C4.5+m": "C4.5"})
    with pytest.raises(CdplotInputError, match="give labels that are not also the names"):
        cd_diagram(res, highlight="C4.5")


def test_naming_one_algorithm_twice_is_refused(demsar):
    res = quiet(demsar, labels=LABELS)
    with pytest.raises(CdplotInputError, match="names the algorithm 'C4.5' twice"):
        cd_diagram(res, highlight={"C4.5": "red", "plain C4.5": "blue"})


@pytest.mark.mpl_image_compare(**BASELINE)
def test_baseline_labels_demsar_figure_1a(demsar):
    res = quiet(demsar, test="nemenyi", alpha=0.10, labels=LABELS)
    return cd_diagram(res, highlight="C4.5 (m)").figure

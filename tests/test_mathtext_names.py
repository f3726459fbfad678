"""Names with ``$...$`` mathematics: parsed before drawing, refused with a clear error."""

from __future__ import annotations

import re

import matplotlib as mpl
import pytest

import cdplot
from cdplot import CdplotInputError
from cdplot.plotting._mathtext import check_mathtext, is_mathtext

BAD = "A$\\frac{$B"


def test_bad_mathematics_is_refused_naming_the_label_and_the_fix():
    with pytest.raises(CdplotInputError, match=r"cd_diagram cannot draw the name 'A\$") as info:
        check_mathtext(["fine", BAD], where="cd_diagram")
    assert "Escape the dollar signs as \\$" in str(info.value)
    # matplotlib's reason, without pyparsing's class name and position
    assert "(Expected \\frac{num}{den})." in str(info.value)


@pytest.mark.parametrize(
    "label",
    ["plain", "$\\alpha$-SVM", "$x^2$ and $y_1$", "costs \\$5", "odd $ count $ here $", 3.5],
)
def test_valid_or_plain_labels_pass(label):
    check_mathtext([label], where="cd_diagram")


def test_only_unescaped_pairs_are_mathtext():
    assert is_mathtext("$x$")
    assert not is_mathtext("a $ b")  # one dollar: matplotlib draws it as written
    assert not is_mathtext("\\$5 and \\$6")  # escaped dollars
    with mpl.rc_context({"text.parse_math": False}):
        assert not is_mathtext("$x$")
        check_mathtext([BAD], where="cd_diagram")  # drawn as written: nothing to parse


# ------------------------------------------------------------------ the figures that draw names

GOOD = "$\\alpha$-SVM"


@pytest.fixture(scope="module")
def demsar():
    return cdplot.datasets.load("demsar2006")


def _named(data, name):
    """The table with its first algorithm renamed to ``name``."""
    return data.rename(columns={data.columns[0]: name})


@pytest.fixture(scope="module")
def bad_result(demsar):
    return cdplot.compare(_named(demsar, BAD))


@pytest.fixture(scope="module")
def bad_bayes(demsar):
    data = _named(demsar, BAD).iloc[:, :4]
    return cdplot.compare(data, test="bayes-signed-rank", rope=0.01, nsamples=500, random_state=0)


FIGURES = {
    "cd_diagram": lambda res: cdplot.cd_diagram(res),
    "cd_diagrams": lambda res: cdplot.plotting.cd_diagrams({"a": res}),
    "apv_heatmap": lambda res: cdplot.apv_heatmap(res),
    "report_figure": lambda res: cdplot.plotting.report_figure(res),
}


@pytest.mark.parametrize("figure", list(FIGURES))
def test_figures_refuse_a_name_with_bad_mathematics(bad_result, figure):
    where = "apv_heatmap" if figure == "report_figure" else figure  # sized first
    with pytest.raises(CdplotInputError, match=re.escape(f"{where} cannot draw the name {BAD!r}")):
        FIGURES[figure](bad_result)


def test_a_label_with_bad_mathematics_is_refused_too(demsar):
    res = cdplot.compare(demsar, labels={demsar.columns[1]: BAD})
    with pytest.raises(CdplotInputError, match="escape the dollar signs|Escape the dollar signs"):
        cdplot.cd_diagram(res)


@pytest.mark.parametrize("figure", ["bayes_cd_diagram", "posterior_plot"])
def test_bayesian_figures_refuse_a_name_with_bad_mathematics(bad_bayes, figure):
    with pytest.raises(CdplotInputError, match=rf"{figure} cannot draw the name"):
        getattr(cdplot.plotting, figure)(bad_bayes)


def test_simplex_plot_refuses_a_name_with_bad_mathematics(demsar):
    post = cdplot.stats.bayes_signed_rank(demsar.iloc[:, 0], demsar.iloc[:, 1], rope=0.01,
                                          random_state=1)  # fmt: skip
    with pytest.raises(CdplotInputError, match="simplex_plot cannot draw the name"):
        cdplot.simplex_plot(post, names=(BAD, "B"))


@pytest.mark.parametrize("figure", list(FIGURES))
def test_valid_mathematics_still_draws(demsar, figure):
    res = cdplot.compare(_named(demsar, GOOD))
    ax = FIGURES[figure](res)
    fig = ax.get_figure(root=True)
    fig.canvas.draw()  # matplotlib parses the mathtext here
    texts = [t.get_text() for a in fig.axes for t in a.texts]
    texts += [t.get_text() for a in fig.axes for t in a.get_yticklabels() + a.get_xticklabels()]
    assert any(GOOD in t for t in texts)

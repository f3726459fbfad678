"""Issue 26: what a new user trips over (wording of figures, refusals of the stats layer).

Consistency and wording only: no statistic is computed here except the refusal of
``rm_anova`` on an incomplete table, which must match ``compare()``'s refusal (R's ``aov``
silently drops the incomplete dataset's whole stratum; cdplot asks the user instead).
"""

from __future__ import annotations

import numpy as np
import pytest

import cdplot


@pytest.fixture(scope="module")
def bayes_benavoli():
    ben = cdplot.datasets.load("benavoli2016")  # accuracies in percent: rope of one point
    return cdplot.compare(ben, test="bayes-signed-rank", rope=1.0, nsamples=5000, random_state=0)


def _notes(ax):
    """The diagram's footnotes, their wrapped lines joined again."""
    return " ".join(t.get_text().replace("\n", " ") for t in ax.texts if t.get_gid() == "cd-note")


def test_bayes_cd_footnote_speaks_of_decisions_not_significance(bayes_benavoli):
    assert bayes_benavoli.uncovered_pairs  # five pairs no bar joins
    note = _notes(cdplot.bayes_cd_diagram(bayes_benavoli))
    assert "not decided different at P \N{GREATER-THAN OR EQUAL TO} 0.95" in note
    assert "significant" not in note
    # an explicit template is still the user's
    ax = cdplot.bayes_cd_diagram(bayes_benavoli, footnote="{n} pairs are not joined: {pairs}")
    assert _notes(ax).startswith("5 pairs are not joined: ")


def test_frequentist_cd_footnote_keeps_significance_wording(benavoli):
    res = cdplot.compare(benavoli, test="sign")
    assert res.uncovered_pairs
    assert "1 further pair is not significantly different" in _notes(cdplot.cd_diagram(res))


@pytest.mark.parametrize(
    ("kwargs", "legend"),
    [
        ({}, "raw Wilcoxon signed-rank test p (bold: significant after Holm adjustment)"),
        (
            {"correction": "bergmann-hommel"},
            "raw Wilcoxon signed-rank test p (bold: significant after "
            "Bergmann\N{EN DASH}Hommel adjustment)",
        ),
        ({"correction": "none"}, "Wilcoxon signed-rank test p (raw; bold: significant, no "),
    ],
)
def test_mcm_legend_says_bold_is_the_adjusted_decision(demsar, kwargs, legend):
    ax = cdplot.multi_comparison_matrix(cdplot.compare(demsar, **kwargs))
    title = ax.get_title(loc="left")
    assert title.split("\n")[1].startswith(legend)
    assert "(bold: significant)" not in title


def test_rm_anova_refuses_a_missing_cell_as_compare_does(demsar):
    x = demsar.to_numpy(dtype=float).copy()
    x[3, 2] = np.nan
    table = demsar.astype(float)
    table.iloc[3, 2] = np.nan
    with pytest.raises(cdplot.CdplotInputError, match="omnibus='rm-anova' needs a complete"):
        cdplot.compare(table, omnibus="rm-anova", missing="keep")
    with pytest.raises(
        cdplot.CdplotInputError,
        match=r"rm_anova needs a score for every algorithm on every dataset, but 1 cell\(s\) "
        r"are missing or not finite \(the first at row 3, column 2\); drop the incomplete "
        r"datasets .*missing='keep'",
    ):
        cdplot.stats.rm_anova(x)
    x[3, 2] = np.inf
    with pytest.raises(cdplot.CdplotInputError, match="missing or not finite"):
        cdplot.stats.rm_anova(x)
    with pytest.raises(cdplot.CdplotInputError, match=r"got shape \(14,\)"):
        cdplot.stats.rm_anova(x[:, 0])

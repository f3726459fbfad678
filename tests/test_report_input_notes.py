"""Every report says how the table was read (res.input_notes) and shows display names.

The notes themselves are made (and checked against the table) in ``cdplot.io``; here each
format must print them, escaped for its markup, and show ``res.label(name)`` wherever an
algorithm is named (rows, column heads, the control, pairs, groups), never the raw name.
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest

import cdplot
from cdplot.report._latex import escape_latex

LABELS = {"RF & co": "R&F_1", "A<b>": "<A>"}


def _log(n_datasets: int = 9, columns: tuple[str, ...] = ("fold",)) -> pd.DataFrame:
    """A per-run log: 3 runs per cell (3 folds, or 3 folds with their seeds), one run missing."""
    rng = np.random.default_rng(3)
    rows = []
    for d in range(n_datasets):
        for shift, alg in enumerate(["RF & co", "svm_lin", "A<b>"]):
            for f in range(3):
                keys = [f] * len(columns)
                rows.append((f"data_{d}", alg, *keys, rng.random() + 0.4 * shift))
    frame = pd.DataFrame(rows, columns=["dataset", "algorithm", *columns, "acc"])
    frame.loc[0, "acc"] = np.nan  # data_0 / RF & co: its cell is missing -> dropped
    return frame


@pytest.fixture(scope="module")
def result():
    with pytest.warns(cdplot.CdplotWarning, match="dropped 1 dataset"):
        return cdplot.compare(_log(), aggregate="mean", decimals=3, missing="drop", labels=LABELS)


NOTES = (
    "Input: scores are means over 3 folds; scores were rounded to 3 decimals before "
    "ranking; dropped 1 dataset with missing results: data_0."
)


def test_notes_are_the_results(result):
    assert "Input: " + "; ".join(result.input_notes) + "." == NOTES


def test_text_report(result):
    text = str(result)
    assert " ".join(text.split()).count(NOTES) == 1
    lines = text.splitlines()
    assert lines[1].startswith("Input: scores are means over 3 folds;")
    start = lines.index("Average ranks (1 = best) and adjusted p-values:")
    header, *rows = lines[start + 1 : start + 5]
    shown = [result.label(a) for a in result.average_ranks.index]
    assert shown == ["<A>", "svm_lin", "R&F_1"]  # A<b> has the largest scores
    assert header.split() == ["Algorithm", "Avg.", "rank", *shown[:-1]]
    assert [row.split()[0] for row in rows] == shown
    assert "RF & co" not in text and "A<b>" not in text


def test_markdown_report(result):
    md = result.to_markdown()
    assert md.count("Input: scores are means over 3 folds;") == 1
    assert "data\\_0." in md  # a dataset name is escaped in the note
    assert "| R&F\\_1 |" in md and "| \\<A\\> |" in md
    assert "RF & co" not in md and "A<b>" not in md


def test_latex_report(result):
    tex = result.to_latex()
    caption = re.search(r"\\caption\{(.*)\}\n", tex).group(1)
    assert caption.endswith(
        "Input: scores are means over 3 folds; scores were rounded to 3 decimals before "
        "ranking; dropped 1 dataset with missing results: data\\_0."
    )
    assert "R\\&F\\_1 & " in tex and "\\textless{}A\\textgreater{} & " in tex
    assert "RF & co" not in tex and "A<b>" not in tex and "<A>" not in tex
    compact = result.to_latex(compact=True)
    assert "data\\_0.}" in compact and "\\textless{}A\\textgreater{} & " in compact
    # a caption of one's own is used as given
    assert "Input:" not in result.to_latex(caption="Mine.")


def test_latex_escapes_dashes_and_times():
    log = _log(columns=("fold", "seed"))
    log.loc[0, "acc"] = 0.5
    log = log.drop(index=1)  # data_0 / RF & co now has 2 runs, the others 3
    with pytest.warns(cdplot.CdplotWarning, match="different numbers of runs"):
        res = cdplot.compare(log, aggregate="mean")
    (note,) = res.input_notes
    assert note == "scores are means over 2\N{EN DASH}3 runs (fold \N{MULTIPLICATION SIGN} seed)"
    assert "Input: scores are means over 2--3 runs (fold $\\times$ seed).}" in res.to_latex()


def test_html_report_and_notebook(result):
    page = cdplot.report.to_html(result, diagram=False)
    para = re.findall(r'<p class="cdplot-input">(.*?)</p>', page)
    assert para == [NOTES]
    head = re.search(r"<thead>(.*?)</thead>", page).group(1)
    assert '<th class="num">&lt;A&gt;</th>' in head
    assert "<td>R&amp;F_1</td>" in page and "<td>&lt;A&gt;</td>" in page
    assert "RF &amp; co" not in page and "A&lt;b&gt;" not in page
    notebook = result._repr_html_()
    assert re.findall(r'<p class="cdplot-input">(.*?)</p>', notebook) == [NOTES]


def test_control_is_shown_by_its_label():
    res = cdplot.compare(_log().fillna(0.5), aggregate="mean", control="A<b>", labels=LABELS)
    assert "vs <A>" in str(res)
    assert "| vs \\<A\\> |" in res.to_markdown()
    assert "vs \\textless{}A\\textgreater{}" in res.to_latex()
    assert "against the control \\textless{}A\\textgreater{}" in res.to_latex()
    page = cdplot.report.to_html(res, diagram=False)
    assert "<th>Control</th><td>&lt;A&gt;</td>" in page


def test_no_notes_no_input_line(demsar):
    res = cdplot.compare(demsar)
    assert res.input_notes == ()
    for text in (str(res), res.to_markdown(), res.to_latex()):
        assert "Input:" not in text
    assert "cdplot-input" not in cdplot.report.to_html(res, diagram=False)


def test_escape_latex_of_labels_is_the_reports():
    assert escape_latex("R&F_1") == "R\\&F\\_1"


def test_summary_shows_labels(result):
    text = " ".join(result.summary().split())
    assert "Best average ranks: <A> (" in text
    assert "R&F_1" in text and "RF & co" not in text and "A<b>" not in text
    assert "Input: scores are means over 3 folds;" in text

"""Names with line breaks and pipes in the Markdown outputs: every table row stays one line.

Checked for structure only (a GitHub-flavoured Markdown pipe table: one line per row, the
same number of unescaped ``|`` on every line of the table); no statistics are computed here
beyond what ``compare()`` already verifies elsewhere.
"""

from __future__ import annotations

import re

import pytest

import cdplot
from cdplot.report._markdown import escape_markdown

#: names that end a Markdown table row unless escaped: newline, CRLF, CR, Unicode separator
NAMES = {
    "C4.5": "C4.5\nbaseline",
    "C4.5+m": "a|b\r\nc",
    "C4.5+cf": "cf\rpruned",
    "C4.5+m+cf": "both\u2028kept",
}


def _tables(markdown: str) -> list[list[str]]:
    """The pipe tables of ``markdown``: runs of consecutive lines that start with ``|``."""
    tables, current = [], []
    for line in markdown.split("\n"):
        if line.startswith("|"):
            current.append(line)
        elif current:
            tables.append(current)
            current = []
    if current:
        tables.append(current)
    return tables


def _cells(line: str) -> int:
    """Unescaped pipes of one table line."""
    return len(re.findall(r"(?<!\\)\|", line))


@pytest.fixture
def renamed(demsar):
    return cdplot.compare(demsar.rename(columns=NAMES))


def test_escape_markdown_turns_every_line_break_into_br():
    assert escape_markdown("a\nb") == "a<br>b"
    assert escape_markdown("a\r\nb") == "a<br>b"  # one break, not two
    assert escape_markdown("a\rb\u2028c") == "a<br>b<br>c"
    assert escape_markdown("A\n") == "A<br>"  # "A\n" stays distinct from "A"
    assert escape_markdown("x|y\n<b>") == r"x\|y<br>\<b\>"  # the tag in a name stays text


def test_report_rows_stay_whole_with_line_breaks_and_pipes_in_names(renamed):
    text = renamed.to_markdown()
    assert "\r" not in text and "\u2028" not in text
    (table,) = _tables(text)
    assert len(table) == 2 + renamed.n_algorithms  # header, rule, one line per algorithm
    assert len({_cells(line) for line in table}) == 1
    assert r"| a\|b<br>c |" in text
    assert "| C4.5<br>baseline |" in text
    # the groups line (prose) keeps the name on one line too
    groups = next(line for line in text.split("\n") if line.startswith("Groups"))
    assert "C4.5<br>baseline" in groups


def test_results_table_rows_stay_whole_with_line_breaks_in_names(demsar):
    data = demsar.rename(columns=NAMES, index={demsar.index[0]: "adult\n(sample)"})
    res = cdplot.compare(data)
    text = cdplot.results_table(res).to_markdown()
    (table,) = _tables(text)
    assert len(table) == 2 + res.n_datasets + 1  # header, rule, datasets, average rank
    assert len({_cells(line) for line in table}) == 1
    assert "| adult<br>(sample) |" in text

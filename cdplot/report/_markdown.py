"""Markdown report: a GitHub-flavoured pipe table with the tests, pairs and groups."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from .._labels import TEST_TITLES
from ._evidence import evidence
from ._intervals import intervals_markdown, shown
from ._model import (
    MAX_PAIRS_LISTED,
    CellStyle,
    Mark,
    PFormat,
    RankFormat,
    build_table,
    check_mark,
    check_pvalues,
    display_name,
    input_line,
    legend,
    omnibus_line,
    pvalue_formatter,
    rank_formatter,
    walk_rows,
)
from ._runs import runs_markdown

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

    from ..stats._intervals import RankIntervals
    from ..stats._results import ComparisonResult

__all__ = ["escape_markdown", "to_markdown"]

_MARKDOWN_SPECIAL = set("\\`*_|[]>#")
#: A ``<`` that may open an HTML tag, comment or autolink (CommonMark: a letter, ``/``,
#: ``!`` or ``?`` follows); any other ``<``, as in ``p < 0.001`` or ``<0.001``, is literal.
_TAG_OPEN = re.compile(r"<(?=[A-Za-z/!?])")
#: What a line break inside a cell becomes: GitHub-flavoured Markdown renders the HTML tag
#: as a line break and keeps the table row whole (a raw newline would end the row)
_LINE_BREAK = "<br>"
#: the separators of :meth:`str.splitlines` (``\r\n`` counts once); a trailing one is kept
_LINE_SEPARATORS = re.compile("\r\n|[\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")


def escape_markdown(text: str) -> str:
    r"""Backslash-escape the characters that Markdown tables and emphasis interpret.

    One rule for ``<`` everywhere (tables, list items, prose): it is escaped only
    where it could open an HTML tag or autolink, so p-values read ``p < 0.001``
    and ``<0.001`` in every part of a report. A line break inside a name (``\n``,
    ``\r\n``, ``\r`` or any other of :meth:`str.splitlines`'s separators) would end
    a table row or a list item: it becomes ``<br>``, which GitHub-flavoured Markdown
    renders as a line break inside the cell, so the row stays whole.

    Examples
    --------
    >>> print(escape_markdown("rf_500 | *best* <b>"))
    rf\_500 \| \*best\* \<b\>
    >>> print(escape_markdown("<0.001"))
    <0.001
    >>> print(escape_markdown("forest\n(500 trees)"))
    forest<br>(500 trees)
    """
    lines = _LINE_SEPARATORS.split(str(text))
    return _LINE_BREAK.join(
        "".join(
            "\\" + ch if ch in _MARKDOWN_SPECIAL or (ch == "<" and _TAG_OPEN.match(line, i)) else ch
            for i, ch in enumerate(line)
        )
        for line in lines
    )


def _style(mark: str) -> CellStyle:
    def significant(text: str) -> str:
        if mark in ("star", "both"):
            text += r"\*"
        if mark in ("bold", "both"):
            text = f"**{text}**"
        return text

    return CellStyle(
        name=escape_markdown, number=escape_markdown, significant=significant, control="*control*"
    )


def _method(result: ComparisonResult) -> str:
    test = TEST_TITLES.get(result.test, result.test)
    method = f"{test[0].upper()}{test[1:]}"
    if result.control is not None:
        method += f" against the control {escape_markdown(display_name(result, result.control))}"
    return method + evidence(result).markdown_method()


def to_markdown(
    result: ComparisonResult,
    *,
    adjusted: bool = True,
    mark: Mark | None = "bold",
    rank_format: RankFormat = "{:.2f}",
    pvalue_format: PFormat = None,
    pvalues: bool | None = None,
    intervals: RankIntervals | None = None,
    effects: pd.DataFrame | None = None,
    frontier: Any = None,
    runs: Any = None,
) -> str:
    """Markdown report: the table of ranks and adjusted p-values, the tests, pairs and groups.

    The same content as ``str(result)``, as a GitHub-flavoured Markdown pipe
    table with a heading line before and the groups after it. Under the heading,
    a line says how the table was read (``result.input_notes``, e.g. "Input:
    scores are means over 10 folds."), when there is anything to say; algorithms
    are shown by their display names (``result.label``).

    Parameters
    ----------
    result : ComparisonResult
        The result of :func:`cdplot.compare`.
    adjusted : bool, default True
        Show adjusted p-values (APVs); False shows the raw p-values.
        Significance marks always follow ``result.significant`` (APV <= alpha).
    mark : {"bold", "star", "both", "none"}, default "bold"
        How significant values are marked.
    rank_format : str or callable, default ``"{:.2f}"``
        Format of the average ranks.
    pvalue_format : str or callable, optional
        Format of the p-values; default compact (``0.032``, ``<0.001``).
    pvalues : bool, optional
        Include the matrix of p-values (default: for up to 12 algorithms; the
        column against a control is always included).
    intervals, effects : RankIntervals and pandas.DataFrame, optional
        Tables "Rank [95 % CI]" and "Δ [95 % CI]" of the objects of
        ``cdplot.rank_intervals(result, ...)`` and ``cdplot.effect_sizes(result, ...)``;
        default none (a result remembers nothing computed from it).
    frontier : ParetoFrontier, optional
        A section "Cost-performance frontier" (method and table) of what
        ``cdplot.pareto_frontier(result, cost=...)`` computed.
    runs : RunAggregates, ImprovementProbabilities or a sequence of them, optional
        A section "Runs" with the aggregate scores and the probabilities of improvement
        (:func:`cdplot.aggregate_scores`, :func:`cdplot.probability_of_improvement`).

    Returns
    -------
    str

    Raises
    ------
    CdplotInputError
        An unknown ``mark``, or ``intervals`` or ``effects`` of other algorithms.

    Examples
    --------
    >>> import cdplot
    >>> res = cdplot.compare(cdplot.datasets.load("demsar2006"))
    >>> print(res.to_markdown().splitlines()[4])
    | Algorithm | Avg. rank | C4.5+m+cf | C4.5+m | C4.5+cf |
    """
    mark = check_mark(mark)
    pvalues = check_pvalues(pvalues)
    intervals, effects = shown(result, intervals, effects)
    fmt_p = pvalue_formatter(pvalue_format)
    fmt_r = rank_formatter(rank_format)
    table = build_table(result, adjusted=adjusted, pvalues=pvalues)
    k, n = result.n_algorithms, result.n_datasets
    ev = evidence(result)
    lines = [
        f"**{k} {ev.subjects[0]} on {n} {ev.subjects[1]}** \N{EM DASH} "
        f"{_method(result)}{ev.level('markdown')}",
        "",
    ]
    if input_line(result):
        lines += [escape_markdown(input_line(result)), ""]
    lines += ev.score_sections("markdown")  # one benchmark's means and differences
    lines += [
        omnibus_line(result, "markdown")
        + (
            f". Critical difference: {ev.critical_difference:.3f}."
            if ev.critical_difference is not None
            else "."
        ),
        "",
    ]
    header = ["Algorithm", "Avg. rank", *(escape_markdown(c) for c in table.column_labels)]
    if result.control is not None:
        header[2] = f"vs {escape_markdown(display_name(result, result.control))}"
    lines.append("| " + " | ".join(header) + " |")
    lines.append("|" + "|".join([":---"] + ["---:"] * (len(header) - 1)) + "|")
    for row in walk_rows(table, _style(mark), fmt_rank=fmt_r, fmt_p=fmt_p):
        lines.append("| " + " | ".join(row) + " |")
    text = legend(result, table, mark, markup="markdown", escape=escape_markdown)
    if text:
        lines += ["", text]
    name = lambda a: escape_markdown(display_name(result, a))  # noqa: E731
    pairs = ev.pair_list(name, "markdown", MAX_PAIRS_LISTED)
    lines += ["", pairs.heading]
    if pairs.heading.endswith(":"):  # a list follows
        lines += ["", *(f"- {line}" for line in pairs.items)]
    if pairs.more > 0:
        lines.append(f"- … and {pairs.more} more")
    if result.control is None and any(len(g) > 1 for g in result.groups):
        groups = ", ".join("[" + ", ".join(name(a) for a in g) + "]" for g in result.groups)
        lines += ["", f"Groups {ev.groups_words}: {groups}."]
    if result.control is None and result.uncovered_pairs:
        pairs_text = "; ".join(
            f"{name(a)} \N{EN DASH} {name(b)}" for a, b in result.uncovered_pairs
        )
        lines += ["", f"Not significantly different but in no common group: {pairs_text}."]
    lines += intervals_markdown(result, escape_markdown, intervals, effects)  # when given
    if frontier is not None:  # cdplot.pareto_frontier(result, cost=...)
        from ._frontier import frontier_markdown

        lines += ["", frontier_markdown(frontier, heading="###").rstrip("\n")]
    lines += runs_markdown(runs)  # when given
    return "\n".join(lines) + "\n"

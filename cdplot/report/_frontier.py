"""The cost-performance frontier in the reports: Markdown, LaTeX and HTML sections.

Each section is the frontier's table (cost and performance with their intervals, on the
frontier, P(on the frontier), dominated by) under one method sentence; the HTML section
also embeds the figure (:func:`cdplot.pareto_plot`) as inline SVG. The sections read a
:class:`~cdplot.stats._pareto.ParetoFrontier` and compute nothing.
"""

from __future__ import annotations

import html
from typing import Any

__all__ = [
    "frontier_html",
    "frontier_latex",
    "frontier_markdown",
    "frontier_method",
    "frontier_text",
]


def _number(value: float) -> str:
    return f"{value:.3g}" if abs(value) < 1000 else f"{value:,.0f}"


def _performance_words(frontier: Any) -> str:
    if frontier.on == "ranks":
        return "average rank (1 = best)"
    return "mean score" + ("" if frontier.higher_is_better else " (lower is better)")


def frontier_method(frontier: Any) -> str:
    """One paragraph saying what the frontier's numbers are and how they were decided."""
    level = f"{frontier.confidence:.0%}"
    cost = (
        f"{frontier.cost_name}, the mean over the {frontier.resampled} (resampled with them)"
        if frontier.cost_varies
        else f"{frontier.cost_name}, one fixed value per model"
    )
    noninferior = (
        f" and non-inferiority (confidently cheaper, at most {frontier.margin:g} worse)"
        if frontier.margin is not None
        else ""
    )
    differences = "performance and of cost" if frontier.cost_varies else "performance"
    return (
        f"Cost: {cost}, lower is better; performance: {_performance_words(frontier)}. "
        f"Intervals, band and P(frontier) from a paired bootstrap over the "
        f"{frontier.resampled} ({frontier.n_boot:,} replicates; intervals {level}, "
        f"percentile). Dominance{noninferior} decisions come from one simultaneous "
        f"studentized max-t confidence set over every pairwise difference of {differences} "
        f"(critical value {frontier.critical_value:.2f}), so all these decisions together "
        f"are wrong with probability at most {1 - frontier.confidence:.0%}."
    )


def _rows(frontier: Any) -> list[list[str]]:
    rows = []
    for i, m in enumerate(frontier.models):
        cost = _number(frontier.cost[i])
        if frontier.cost_varies:
            cost += f" [{_number(frontier.cost_low[i])}, {_number(frontier.cost_high[i])}]"
        rows.append(
            [
                frontier.label(m),
                cost,
                f"{_number(frontier.performance[i])} [{_number(frontier.performance_low[i])}, "
                f"{_number(frontier.performance_high[i])}]",
                "yes" if frontier.on_frontier[i] else "",
                f"{frontier.p_frontier[i]:.2f}",
                ", ".join(frontier.label(d) for d in frontier.dominated_by(m)),
            ]
        )
        if frontier.noninferior is not None:
            over = [frontier.label(o) for o in frontier.cheaper_noninferior_to(m)]
            rows[-1].append(", ".join(over))
    return rows


HEADER = ("model", "cost", "performance", "on frontier", "P(frontier)", "dominated by")
#: the column of the decision "cheaper and non-inferior" (with a margin)
NONINFERIOR = "cheaper, non-inferior to"


def _header(frontier: Any) -> tuple[str, ...]:
    return HEADER if frontier.noninferior is None else (*HEADER, NONINFERIOR)


def frontier_text(frontier: Any, width: int = 88) -> str:
    """The frontier as plain text (the command line's summary): method and table."""
    import textwrap

    header = _header(frontier)
    rows = [list(header), *_rows(frontier)]
    widths = [max(len(r[c]) for r in rows) for c in range(len(header))]
    lines = ["Cost-performance frontier", "", textwrap.fill(frontier_method(frontier), width)]
    lines.append("")
    for r in rows:
        lines.append("  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip())
    return "\n".join(lines) + "\n"


def frontier_markdown(frontier: Any, heading: str = "##") -> str:
    """The frontier as a Markdown section (heading, method, table).

    Examples
    --------
    >>> import cdplot
    >>> res = cdplot.compare(cdplot.datasets.load("demsar2006"))
    >>> fr = cdplot.pareto_frontier(res, cost={"C4.5": 1, "C4.5+m": 1.5, "C4.5+cf": 1.2,
    ...                                         "C4.5+m+cf": 2}, random_state=0)
    >>> print(frontier_markdown(fr).splitlines()[0])
    ## Cost-performance frontier
    """
    from ._markdown import escape_markdown

    lines = [f"{heading} Cost-performance frontier", "", frontier_method(frontier), ""]
    header = _header(frontier)
    lines.append("| " + " | ".join(header) + " |")
    lines.append("| --- | ---: | ---: | :---: | ---: | --- |" + " --- |" * (len(header) - 6))
    for row in _rows(frontier):
        lines.append("| " + " | ".join(escape_markdown(c) for c in row) + " |")
    return "\n".join(lines) + "\n"


def frontier_latex(frontier: Any, environment: bool = True) -> str:
    """The frontier as a LaTeX table (booktabs) with the method as its caption; the
    tabular alone with ``environment=False``."""
    from ._latex import escape_latex

    caption = r"\caption{Cost-performance frontier. " + escape_latex(frontier_method(frontier))
    head = [r"\begin{table}[t]", r"\centering", caption + "}"] if environment else []
    body = [
        *head,
        r"\begin{tabular}{lrrcrl" + "l" * (len(_header(frontier)) - 6) + "}",
        r"\toprule",
        " & ".join(escape_latex(h) for h in _header(frontier)) + r" \\",
        r"\midrule",
    ]
    for row in _rows(frontier):
        body.append(" & ".join(escape_latex(c) for c in row) + r" \\")
    body += [r"\bottomrule", r"\end{tabular}"] + ([r"\end{table}"] if environment else [])
    return "\n".join(body) + "\n"


def frontier_table_html(frontier: Any) -> str:
    """The frontier's table as an HTML ``<table>`` (each row ``data-model``)."""
    head = "".join(f"<th>{html.escape(h)}</th>" for h in _header(frontier))
    rows = []
    for m, row in zip(frontier.models, _rows(frontier), strict=True):
        cells = "".join(f"<td>{html.escape(c)}</td>" for c in row)
        rows.append(f'<tr data-model="{html.escape(m)}">{cells}</tr>')
    return (
        '<table class="cdplot-frontier-table">\n<thead><tr>'
        + head
        + "</tr></thead>\n<tbody>\n"
        + "\n".join(rows)
        + "\n</tbody>\n</table>"
    )


def frontier_svg(frontier: Any) -> str:
    """The frontier figure as an inline ``<svg>`` (through its seam ``frontier.plot()``);
    empty without matplotlib."""
    from ._html import _figure_svg

    try:
        return _figure_svg(frontier.plot)
    except ImportError:  # pragma: no cover - matplotlib is a dependency
        return ""


def frontier_html(frontier: Any, h: str = "h2", figure: bool = True) -> str:
    """The frontier as an HTML ``<section>``: heading, method, figure (inline SVG), table."""
    svg = frontier_svg(frontier) if figure else ""
    fig = f'<figure class="cdplot-frontier">{svg}</figure>\n' if svg else ""
    return (
        '<section class="cdplot-frontier" id="cdplot-frontier">\n'
        f"<{h}>Cost-performance frontier</{h}>\n"
        f"<p>{html.escape(frontier_method(frontier))}</p>\n"
        f"{fig}{frontier_table_html(frontier)}\n</section>"
    )

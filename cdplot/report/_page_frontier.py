"""The frontier's section of the HTML page: the figure as inline SVG and its table.

Self-contained (its own few CSS rules, no script), appended to the page by
:func:`cdplot.report.to_html` when a frontier is passed (``frontier=``).
"""

from __future__ import annotations

import html
from typing import Any

from ._frontier import frontier_html

__all__ = ["FRONTIER_CSS", "page_frontier_section"]

#: the section's own style: the figure scales to the page, the table's numbers align right
FRONTIER_CSS = (
    ".cdplot-frontier figure svg { width: 100%; max-width: 46rem; height: auto; }\n"
    ".cdplot-frontier-table td:nth-child(2), .cdplot-frontier-table td:nth-child(3), "
    ".cdplot-frontier-table td:nth-child(5) { text-align: right; }\n"
    ".cdplot-frontier-table td:nth-child(n+6) { text-align: left; }\n"
    ".cdplot-frontier-table tr[data-on-frontier] td:first-child { font-weight: bold; }\n"
)


def page_frontier_section(frontier: Any, h: str = "h2") -> str:
    """The frontier section of the page (``<section id="cdplot-frontier">``).

    Parameters
    ----------
    frontier : ParetoFrontier
        The result of :func:`cdplot.pareto_frontier`.
    h : str, default "h2"
        The heading's tag.

    Returns
    -------
    str
        HTML: a ``<style>`` element and the section (figure, method, table).
    """
    section = frontier_html(frontier, h=h, figure=True)
    for i, m in enumerate(frontier.models):
        if frontier.on_frontier[i]:
            row = f'<tr data-model="{html.escape(m)}">'
            section = section.replace(row, row[:-1] + " data-on-frontier>", 1)
    return f"<style>{FRONTIER_CSS}</style>\n{section}"

"""HTML report: a self-contained page to send to a co-author, and the notebook display.

One body serves both: :func:`to_html` wraps it in a page (``<title>``, CSS, the cdplot
version), :func:`notebook_html` (``result._repr_html_()``) returns it as a ``<div>``.
Figures are inline SVG (no files beside the page). Matplotlib is imported only to draw
them, and only when it is available.
"""

from __future__ import annotations

import html
import io
import math
import re
import sys
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from .._labels import TEST_TITLES, format_pvalue
from .._version import __version__
from ..stats._catalogue import RANKS, entry_of
from ._evidence import evidence
from ._intervals import by_name, intervals_html, shown
from ._model import (
    MAX_PAIRS_LISTED,
    CellStyle,
    build_table,
    display_name,
    input_line,
    legend,
    omnibus_line,
    omnibus_tests,
    walk_rows,
)
from ._page import page_css
from ._runs import runs_html

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

    from ..stats._intervals import RankIntervals
    from ..stats._results import ComparisonResult

__all__ = ["notebook_html", "to_html", "to_html_sections"]

#: The page lists at most this many significant pairs (the notebook display 20).
PAGE_PAIRS_LISTED = 200

CSS = """
.cdplot-result { font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue",
  Arial, sans-serif; line-height: 1.45; color: #1b1b1b; max-width: 60rem; }
.cdplot-result h1 { font-size: 1.5rem; margin: 0 0 .3rem; }
.cdplot-result h2 { font-size: 1.15rem; margin: 1.6rem 0 .5rem; border-bottom: 1px solid #ccc;
  padding-bottom: .15rem; }
.cdplot-result table { border-collapse: collapse; margin: .4rem 0; font-size: .95rem;
  border-top: 2px solid #333; border-bottom: 2px solid #333; }
.cdplot-result thead th { border-bottom: 1px solid #333; }
.cdplot-result th, .cdplot-result td { padding: .2rem .7rem; text-align: left;
  vertical-align: top; }
.cdplot-result .num { text-align: right; font-variant-numeric: tabular-nums; }
.cdplot-result tbody tr:nth-child(even) { background: #f6f6f6; }
.cdplot-result .sig { font-weight: 700; }
.cdplot-result .caveat { background: #fff4e0; border-left: 4px solid #e69f00;
  padding: .4rem .7rem; margin: .6rem 0; }
.cdplot-result figure { margin: .5rem 0; overflow-x: auto; }
.cdplot-result figure svg { width: 100%; max-width: 42rem; height: auto; }
.cdplot-result figure.cdplot-heatmap svg { max-width: 30rem; }
.cdplot-result .legend, .cdplot-result footer { font-size: .85rem; color: #555; }
.cdplot-result footer { margin-top: 2rem; border-top: 1px solid #ccc; padding-top: .4rem; }
"""

_STYLE = CellStyle(
    name=html.escape,
    number=html.escape,
    significant=lambda t: f'<td class="num sig">{t}</td>',
    plain=lambda t: f'<td class="num">{t}</td>',
    control='<td class="num"><em>control</em></td>',
    empty="<td></td>",
)


#: Width (inches) of the diagram in a report or a notebook: a screen, not a paper column.
SCREEN_WIDTH = 7.0
#: The smallest text of a figure is shown at least this large (CSS px): on a narrow screen
#: the figure keeps the width this needs and scrolls sideways instead of shrinking.
READABLE_TEXT_PX = 9.0
#: CSS px per point (96 px per inch, 72 points per inch).
PX_PER_PT = 96.0 / 72.0


def _smallest_text(fig: Any) -> float | None:
    """The font size (points) of the figure's smallest visible text, or None."""
    from matplotlib.text import Text

    sizes = [
        t.get_fontsize() for t in fig.findobj(Text) if t.get_visible() and t.get_text().strip()
    ]
    return min(sizes) if sizes else None


def _readable_svg(svg: str, smallest: float | None) -> str:
    """``svg`` with a ``min-width`` at which its smallest text renders readably."""
    width = re.match(r'<svg[^>]*?\swidth="([0-9.]+)pt"', svg)
    if smallest is None or width is None:
        return svg
    natural = float(width.group(1)) * PX_PER_PT  # CSS px of the SVG at its own size
    min_width = math.ceil(natural * READABLE_TEXT_PX / (smallest * PX_PER_PT))
    return f'<svg style="min-width: {min_width}px"' + svg[len("<svg") :]


def _figure_svg(draw: Any) -> str:
    """``draw()`` returns an Axes; its figure as an inline ``<svg>`` element.

    The element keeps a ``min-width`` at which its smallest text renders at
    :data:`READABLE_TEXT_PX` or larger (its ``<figure>`` scrolls sideways below it).
    """
    import matplotlib  # noqa: F401  (ImportError here means: render text only)

    ax = draw()
    fig = ax.figure
    buffer = io.StringIO()
    try:
        fig.savefig(buffer, format="svg")
        smallest = _smallest_text(fig)
    finally:
        if "matplotlib.pyplot" in sys.modules:  # don't leave a figure for pyplot to show
            sys.modules["matplotlib.pyplot"].close(fig)
    svg = buffer.getvalue()
    return _readable_svg(svg[svg.index("<svg") :], smallest)


def _figure(result: ComparisonResult, which: str, h: str, prefix: str = "") -> str:
    from importlib import import_module

    ev = evidence(result)
    title = {"diagram": "Critical difference diagram", "heatmap": ev.table_words.capitalize()}
    title = title[which]
    try:
        plotting = import_module("cdplot.plotting")
        # drawn for a screen: the figure that reads at its width (the kind's own figures)
        title, func = ev.figures(plotting, which, SCREEN_WIDTH)
        svg = _figure_svg(lambda: func(result))
    except ImportError:
        body = f"<p><em>(Install matplotlib to see the {title.lower()}.)</em></p>"
    except Exception as exc:  # a report must not fail on a figure: keep the text
        body = f"<p><em>({html.escape(title)} not drawn: {html.escape(str(exc))})</em></p>"
    else:
        body = f'<figure class="cdplot-{which}">{svg}</figure>'
    return f'<section id="{prefix}{which}"><{h}>{title}</{h}>{body}</section>'


def _settings(result: ComparisonResult) -> str:
    esc = html.escape
    direction = (
        "higher scores are better" if result.higher_is_better else ("lower scores are better")
    )
    rows = [
        ("Algorithms (k)", str(result.n_algorithms)),
        ("Datasets (N)", str(result.n_datasets)),
        ("Scores", direction + " (rank 1 = best)"),
        ("Pairwise test", TEST_TITLES.get(result.test, result.test)),
        *evidence(result).settings_rows(),
        (
            "Control",
            display_name(result, result.control)
            if result.control is not None
            else "none (all pairs)",
        ),
    ]
    for what in ("datasets", "algorithms"):  # recorded by results that drop incomplete rows
        dropped = getattr(result, f"dropped_{what}", None)
        if dropped is not None:
            listed = ", ".join(map(str, dropped)) if len(dropped) else "none"
            rows.append((f"Dropped {what}", listed))
    cells = "".join(f"<tr><th>{esc(a)}</th><td>{esc(b)}</td></tr>" for a, b in rows)
    return f'<table class="cdplot-settings"><tbody>{cells}</tbody></table>'


def _omnibus(result: ComparisonResult) -> str:
    esc = html.escape
    verdict = "rejects" if result.omnibus_rejects else "does not reject"
    text = esc(omnibus_line(result, "html"))
    if omnibus_tests(result):
        text += (
            f": the omnibus test {verdict} the hypothesis that all algorithms perform alike "
            f"at α = {result.alpha:g}."
        )
    cd = evidence(result).critical_difference
    if cd is not None:
        text += f" Critical difference: {cd:.3f}."
    return f"<p>{text}</p>"


def _ranks_table(result: ComparisonResult) -> str:
    esc = html.escape
    table = build_table(result, adjusted=True, pvalues=None)
    heads = ["<th>Algorithm</th>", '<th class="num">Avg. rank</th>']
    if result.control is not None:
        heads.append(f'<th class="num">vs {esc(display_name(result, result.control))}</th>')
    else:
        heads += [f'<th class="num">{esc(c)}</th>' for c in table.column_labels]
    out = ['<table class="cdplot-table">', "<thead><tr>", *heads, "</tr></thead><tbody>"]
    for row in walk_rows(table, _STYLE, fmt_rank="{:.2f}".format, fmt_p=format_pvalue):
        name, rank, *cells = row
        out.append(f'<tr><td>{name}</td><td class="num">{rank}</td>{"".join(cells)}</tr>')
    out.append("</tbody></table>")
    text = legend(result, table, "bold", markup="html")  # escaped as a whole below
    if text:
        out.append(f'<p class="legend">{html.escape(text)}</p>')
    return "".join(out)


def _pairs(result: ComparisonResult, limit: int) -> str:
    esc = html.escape
    name = lambda a: f"<strong>{esc(display_name(result, a))}</strong>"  # noqa: E731
    pairs = evidence(result).pair_list(name, "html", limit)
    out = [f"<p>{pairs.heading}</p>"]
    if pairs.heading.endswith(":"):  # a list follows
        out.append("<ul>" + "".join(f"<li>{line}</li>" for line in pairs.items) + "</ul>")
    if pairs.more > 0:
        out.append(f"<p>… and {pairs.more} more (<code>result.to_frame()</code>).</p>")
    return "".join(out)


def _groups(result: ComparisonResult) -> str:
    esc = html.escape
    if result.control is not None:
        return ""
    name = lambda a: display_name(result, a)  # noqa: E731
    what = evidence(result).inside_groups
    if any(len(g) > 1 for g in result.groups):
        items = "".join(f"<li>{esc(', '.join(map(name, g)))}</li>" for g in result.groups)
        out = [
            f"<p>Groups of algorithms with {what} inside (best first):</p>"
            f'<ol class="cdplot-groups">{items}</ol>'
        ]
    else:
        out = ["<p>No group of two or more algorithms without a significant pair.</p>"]
    if result.uncovered_pairs:
        pairs = "; ".join(f"{name(a)} \N{EN DASH} {name(b)}" for a, b in result.uncovered_pairs)
        out.append(
            "<p>Not significantly different, but in no common group (non-significance is "
            f"not transitive): {esc(pairs)}.</p>"
        )
    return "".join(out)


def _body(
    result: ComparisonResult,
    *,
    diagram: bool,
    heatmap: bool,
    scores: bool,
    title: str | None,
    page: bool,
    headings: tuple[str, str] | None = None,
    prefix: str = "",
    interactive: bool = False,
    intervals: RankIntervals | None = None,
    effects: pd.DataFrame | None = None,
) -> list[str]:
    esc = html.escape
    h1, h2 = headings or (("h1", "h2") if page else ("h3", "h4"))
    k, n = result.n_algorithms, result.n_datasets
    who, where = evidence(result).subjects
    heading = title or f"Comparison of {k} {who} on {n} {where}"
    parts = [f"<{h1}>{esc(heading)}</{h1}>"]
    if input_line(result):
        parts.append(f'<p class="cdplot-input">{esc(input_line(result))}</p>')
    parts += evidence(result).score_sections("html", h2)  # one benchmark's, in score units
    if interactive and evidence(result).explorer():  # (not for a benchmark's many items)
        from ._page import explorer_html

        parts.append(explorer_html(result, h2))
    parts += [
        f'<section id="{prefix}settings"><{h2}>Settings</{h2}>{_settings(result)}'
        f"{_omnibus(result)}</section>",
    ]
    if result.caveats:
        parts.append(
            "".join(
                f'<p class="caveat"><strong>Caveat:</strong> {esc(c)}</p>' for c in result.caveats
            )
        )
    if diagram:
        parts.append(_figure(result, "diagram", h2, prefix))
    ev = evidence(result)
    parts.append(
        f'<section id="{prefix}ranks"><{h2}>Average ranks and {ev.table_words}</{h2}>'
        f"{_ranks_table(result)}</section>"
    )
    limit = PAGE_PAIRS_LISTED if page else MAX_PAIRS_LISTED
    parts.append(
        f'<section id="{prefix}pairs"><{h2}>{ev.pairs_heading}</{h2}>'
        f"{_pairs(result, limit)}</section>"
    )
    groups = _groups(result)
    if groups:
        parts.append(f'<section id="{prefix}groups"><{h2}>Groups</{h2}>{groups}</section>')
    parts += [s for s in [intervals_html(result, h2, prefix, intervals, effects)] if s]
    if heatmap:
        parts.append(_figure(result, "heatmap", h2, prefix))
    if scores:
        from ._results_table import results_table

        parts.append(
            f'<section id="{prefix}scores"><{h2}>Scores per dataset</{h2}>'
            f"{results_table(result).to_html()}</section>"
        )
    entry = entry_of(result.test)
    if entry is not None and entry.reads == RANKS:  # a test on the average ranks alone
        parts.append(
            f'<p class="legend">Note: the {esc(TEST_TITLES[result.test])}\'s decision on a pair '
            "depends on which other algorithms are compared (Benavoli, Corani &amp; Mangili "
            "2016). The Wilcoxon signed-rank and sign tests decide each pair on its own "
            'scores (<code>test="wilcoxon"</code> or <code>"sign"</code>; '
            "<code>--test wilcoxon</code> on the command line).</p>"
        )
    parts.append(f"<footer>Made with cdplot {esc(__version__)}.</footer>")
    return parts


def to_html(
    result: ComparisonResult,
    *,
    diagram: bool = True,
    heatmap: bool = False,
    scores: bool = False,
    title: str | None = None,
    page: bool = True,
    interactive: bool = True,
    intervals: RankIntervals | None = None,
    effects: pd.DataFrame | None = None,
    frontier: Any = None,
    runs: Any = None,
) -> str:
    """HTML report: a self-contained page with the settings, figures, ranks, pairs and groups.

    The page has a ``<title>``, its own CSS (numbers right-aligned, booktabs-like
    rules) and everything inline (figures as SVG), so it can be sent as one
    file: how the table was read (``result.input_notes``: "Input: scores are
    means over 10 folds; ..."), the settings (test, correction, alpha,
    control, the direction of the scores, dropped datasets), the omnibus test, the caveats
    (``result.caveats``), the critical difference diagram, the average ranks
    with the adjusted p-values, the significant pairs written "A better than B
    (adjusted p = …)", the groups, optionally the heatmap of adjusted
    p-values, and the cdplot version. Algorithms are shown by their display
    names (``result.label``), escaped. Without matplotlib (or if drawing fails)
    the report stays text-only and says so.

    Parameters
    ----------
    result : ComparisonResult
        The result of :func:`cdplot.compare`.
    diagram : bool, default True
        Embed the critical difference diagram.
    heatmap : bool, default False
        Embed the heatmap of adjusted p-values (:func:`cdplot.apv_heatmap`).
    scores : bool, default False
        Include the table of scores per dataset (:func:`cdplot.results_table`,
        against the result's control if it has one).
    title : str, optional
        Title of the page (default "Comparison of k algorithms on N datasets").
    page : bool, default True
        A whole page (``<!DOCTYPE html>`` ...); False returns the ``<div>``
        that ``result._repr_html_()`` shows in notebooks.
    interactive : bool, default True
        Add the section that recomputes the comparison in the browser on the
        datasets the reader ticks (average ranks, Friedman and Iman-Davenport,
        the mean-ranks, Nemenyi, sign or Wilcoxon test with its correction, the
        groups and the figure): one inline script, no network access. The
        element ``id="cdplot-result"`` carries ``data-friedman-p``,
        ``data-critical-difference`` and ``data-groups``; each row of the live
        table ``data-algorithm`` and ``data-average-rank``. Left out for a table
        with missing results.
    intervals, effects : RankIntervals and pandas.DataFrame, optional
        Sections "Rank intervals" and "Effect sizes" of what ``cdplot.rank_intervals``
        and ``cdplot.effect_sizes`` computed from ``result``; default none (a result
        remembers nothing computed from it). Those of other algorithms are refused
        (CdplotInputError).
    frontier : ParetoFrontier, optional
        A section "Cost-performance frontier" (its figure as inline SVG and its table)
        of what ``cdplot.pareto_frontier(result, cost=...)`` computed.
    runs : RunAggregates, ImprovementProbabilities or a sequence of them, optional
        A section "Runs" with the aggregate scores and the probabilities of improvement.

    Returns
    -------
    str
        The HTML source (UTF-8 text).

    Examples
    --------
    >>> import cdplot
    >>> res = cdplot.compare(cdplot.datasets.load("demsar2006"))
    >>> page = cdplot.report.to_html(res, diagram=False)
    >>> page.startswith("<!DOCTYPE html>"), "<title>" in page
    (True, True)
    """
    intervals, effects = shown(result, intervals, effects)
    parts = _body(
        result,
        diagram=diagram,
        heatmap=heatmap,
        scores=scores,
        title=title,
        page=page,
        interactive=interactive,
        intervals=intervals,
        effects=effects,
    )
    if frontier is not None:  # cdplot.pareto_frontier(result, cost=...): figure and table
        from ._page_frontier import page_frontier_section

        parts.append(page_frontier_section(frontier))
    parts += runs_html(runs)  # when given
    div = '<div class="cdplot-result">\n' + "\n".join(parts) + "\n</div>"
    if not page:
        extra = page_css() if interactive else ""
        return f"<style>{CSS}{extra}</style>\n{div}"
    k, n = result.n_algorithms, result.n_datasets
    who, where = evidence(result).subjects
    return _page(div, title or f"cdplot: {k} {who} on {n} {where}")


def _page(body: str, title: str) -> str:
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f'<meta name="generator" content="cdplot {html.escape(__version__)}">\n'
        f"<title>{html.escape(title)}</title>\n<style>\nbody {{ margin: 2rem auto; "
        f"padding: 0 1rem; max-width: 62rem; }}{CSS}{page_css()}</style>\n</head>\n<body>\n{body}\n"
        "</body>\n</html>\n"
    )


def to_html_sections(
    results: Mapping[str, ComparisonResult],
    *,
    diagram: bool = True,
    title: str | None = None,
    intervals: Mapping[str, RankIntervals] | None = None,
    effects: Mapping[str, pd.DataFrame] | None = None,
) -> str:
    """One HTML page with one section per result (e.g. per metric), each a full report.

    Every section is what :func:`to_html` shows for that result, under a heading with
    its key; element ids are prefixed with the section's number (``m1-ranks``, ...), so
    they stay unique. ``cdplot compare --score-col a --score-col b --report r.html``
    writes this page.

    Parameters
    ----------
    results : mapping of str to ComparisonResult
        Section heading -> result, in order.
    diagram : bool, default True
        Embed each result's critical difference diagram.
    title : str, optional
        Title of the page (default "cdplot: k metrics").
    intervals, effects : mapping of str to RankIntervals or pandas.DataFrame, optional
        Section heading -> the rank intervals or effect sizes of that section's result
        to show (as :func:`to_html`'s ``intervals`` and ``effects``); a section not
        named shows none.

    Returns
    -------
    str
        The HTML source of the page.

    Raises
    ------
    CdplotInputError
        For a heading in ``intervals`` or ``effects`` that is not one of ``results``, or
        intervals or effects of other algorithms than that section's result.

    Examples
    --------
    >>> import cdplot
    >>> res = cdplot.compare(cdplot.datasets.load("demsar2006"))
    >>> page = to_html_sections({"accuracy": res, "AUC": res}, diagram=False)
    >>> page.count('<section class="cdplot-metric"'), 'id="m2-ranks"' in page
    (2, True)
    """
    intervals, effects = (
        by_name(results, intervals, "intervals"),
        by_name(results, effects, "effects"),
    )
    sections = []
    for i, (name, result) in enumerate(results.items(), start=1):
        shown_ri, shown_es = shown(result, intervals.get(name), effects.get(name))
        parts = _body(
            result,
            diagram=diagram,
            heatmap=False,
            scores=False,
            title=str(name),
            page=True,
            headings=("h2", "h3"),
            prefix=f"m{i}-",
            intervals=shown_ri,
            effects=shown_es,
        )
        sections.append(
            f'<section class="cdplot-metric" id="m{i}">\n' + "\n".join(parts) + "\n</section>"
        )
    heading = title or f"cdplot: {len(sections)} metrics"
    div = (
        f'<div class="cdplot-result">\n<h1>{html.escape(heading)}</h1>\n'
        + "\n".join(sections)
        + "\n</div>"
    )
    return _page(div, heading)


def notebook_html(result: ComparisonResult) -> str:
    """The notebook display of a result: the HTML report as a ``<div>`` with the diagram.

    Returns
    -------
    str
        ``to_html(result, page=False)``.
    """
    return to_html(result, page=False)

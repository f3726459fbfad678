"""Text, Markdown, LaTeX and HTML renderings of a comparison result.

Everything here reads a :class:`~cdplot.stats.ComparisonResult` and formats it;
no statistic is computed. Matplotlib is imported only to draw the critical
difference diagram of the HTML rendering, and only when it is available.

The tables share one layout: the algorithms in average-rank order (best first)
with their average ranks and, for all pairs, the lower triangle of the matrix
of adjusted p-values (row against column, each column an algorithm ranked
better than the row), or, against a control, one column of adjusted p-values.
"""

from __future__ import annotations

import html
import io
import math
import re
import sys
import textwrap
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from .._labels import CORRECTION_TITLES, TEST_TITLES, correction_title, format_pvalue, pvalue_label

if TYPE_CHECKING:  # pragma: no cover
    from ..stats._results import ComparisonResult

__all__ = [
    "CORRECTION_TITLES",
    "TEST_TITLES",
    "describe_method",
    "escape_latex",
    "escape_markdown",
    "format_pvalue",
    "result_text",
    "summary",
    "to_html",
    "to_latex",
    "to_markdown",
]

#: Tables show the matrix of p-values only up to this many algorithms unless asked.
MATRIX_MAX_ALGORITHMS = 12
#: Lists of significant pairs stop after this many entries.
MAX_PAIRS_LISTED = 20
#: Width at which the plain-language summary is wrapped.
SUMMARY_WIDTH = 88
#: Below this many datasets the normal and chi-square approximations behind the
#: Friedman, mean-ranks and Nemenyi tests are rough (Demšar 2006, §3.2.2: "as a rule
#: of a thumb, N > 10 and k > 5").
MIN_DATASETS_APPROXIMATION = 11

Mark = Literal["bold", "star", "both", "none"]
_MARKS = ("bold", "star", "both", "none")
PFormat = str | Callable[[float], str] | None
RankFormat = str | Callable[[float], str]

_LATEX_SPECIAL = {
    "\\": r"\textbackslash{}",
    "_": r"\_",
    "%": r"\%",
    "&": r"\&",
    "#": r"\#",
    "$": r"\$",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
    # not special, but typeset as other glyphs in LaTeX's default (OT1) font encoding
    "<": r"\textless{}",
    ">": r"\textgreater{}",
    "|": r"\textbar{}",
}
_MARKDOWN_SPECIAL = set("\\`*_|[]<>#")


# --------------------------------------------------------------------------- small helpers


def escape_latex(text: str) -> str:
    r"""Escape LaTeX's special characters ``\ _ % & # $ { } ~ ^`` (and ``< > |``) in ``text``."""
    return "".join(_LATEX_SPECIAL.get(ch, ch) for ch in str(text))


def escape_markdown(text: str) -> str:
    """Backslash-escape the characters that Markdown tables and emphasis interpret."""
    return "".join("\\" + ch if ch in _MARKDOWN_SPECIAL else ch for ch in str(text))


def _fill(text: str, *, indent: str = "") -> str:
    """Wrap ``text`` at :data:`SUMMARY_WIDTH` without breaking ``x = 1`` or ``p < 0.05``."""
    glue = "\x00"
    for op in ("=", "<", "<="):
        text = text.replace(f" {op} ", f"{glue}{op}{glue}")
    wrapped = textwrap.fill(
        text,
        SUMMARY_WIDTH,
        initial_indent=indent,
        subsequent_indent=indent,
        break_on_hyphens=False,
        break_long_words=False,
    )
    return wrapped.replace(glue, " ")


def _p_clause(label: str, p: float) -> str:
    text = format_pvalue(p)
    return f"{label} < {text[1:]}" if text.startswith("<") else f"{label} = {text}"


def _pvalue_formatter(pvalue_format: PFormat) -> Callable[[float], str]:
    if pvalue_format is None:
        return format_pvalue
    if callable(pvalue_format):
        return pvalue_format
    fmt = str(pvalue_format)
    return lambda p: "-" if p != p else fmt.format(p)


def _rank_formatter(rank_format: RankFormat) -> Callable[[float], str]:
    if callable(rank_format):
        return rank_format
    fmt = str(rank_format)
    return fmt.format


def _check_mark(mark: str | None) -> str:
    mark = "none" if mark is None else mark
    if mark not in _MARKS:
        raise ValueError(
            f"{mark!r} is not a valid value for mark; supported values are "
            + ", ".join(repr(m) for m in _MARKS)
        )
    return mark


def describe_method(result: ComparisonResult) -> str:
    """One line naming the test, the correction and alpha."""
    test = TEST_TITLES.get(result.test, result.test)
    if result.correction == "nemenyi":
        how = "single-step (studentized range)"
    elif result.correction == "none":
        how = "no correction"
    else:
        how = f"{correction_title(result)} correction"
    vs = f", vs control {result.control!r}" if result.control is not None else ""
    return f"{test}, {how}{vs}, alpha = {result.alpha:g}"


def _omnibus_line(result: ComparisonResult) -> str:
    fr, im = result.friedman, result.iman_davenport
    return (
        f"Friedman chi2({fr.df:g}) = {fr.statistic:.3f}, {_p_clause('p', fr.pvalue)}; "
        f"Iman-Davenport F({im.df[0]:g}, {im.df[1]:g}) = {im.statistic:.3f}, "
        f"{_p_clause('p', im.pvalue)}"
    )


def _omnibus_rejects(result: ComparisonResult) -> bool:
    # Iman-Davenport's F is the omnibus test Demšar (2006, §3.2.2) recommends
    # (Friedman's chi-square is undesirably conservative).
    return bool(result.iman_davenport.pvalue <= result.alpha)


# --------------------------------------------------------------------------- table model


@dataclass(frozen=True)
class _Cell:
    pvalue: float
    significant: bool
    control: bool = False


@dataclass(frozen=True)
class _Table:
    """Rows in average-rank order; one column per better-ranked algorithm or the control."""

    names: list[str]
    ranks: list[float]
    columns: list[str]
    cells: list[list[_Cell | None]]
    label: str


def _table(result: ComparisonResult, *, adjusted: bool, pvalues: bool | None) -> _Table:
    order = [str(a) for a in result.average_ranks.index]
    ranks = [float(r) for r in result.average_ranks.to_numpy()]
    label = pvalue_label(result, adjusted=adjusted)
    if pvalues is False:
        return _Table(order, ranks, [], [[] for _ in order], label)
    if result.control is not None:
        control = result.control
        cells: list[list[_Cell | None]] = []
        for name in order:
            if name == control:
                cells.append([_Cell(math.nan, False, control=True)])
                continue
            p = result.adjusted_pvalues[name] if adjusted else result.pvalues.loc[control, name]
            cells.append([_Cell(float(p), bool(result.significant[name]))])
        return _Table(order, ranks, [control], cells, label)
    if pvalues is None and len(order) > MATRIX_MAX_ALGORITHMS:
        return _Table(order, ranks, [], [[] for _ in order], label)
    matrix = result.adjusted_pvalues if adjusted else result.pvalues
    cells = [
        [
            _Cell(float(matrix.loc[row, col]), bool(result.significant.loc[row, col]))
            if j < i
            else None
            for j, col in enumerate(order[:-1])
        ]
        for i, row in enumerate(order)
    ]
    return _Table(order, ranks, order[:-1], cells, label)


def _legend(result: ComparisonResult, table: _Table, mark: str, *, markup: str) -> str:
    """Sentence saying what the p-value columns hold and how significance is marked."""
    if not table.columns:
        return ""
    latex = markup == "latex"
    alpha = (r"$\alpha = %g$" if latex else "alpha = %g" if markup == "text" else "α = %g") % (
        result.alpha
    )
    test = TEST_TITLES.get(result.test, result.test)
    what = table.label
    if latex:
        what = what.replace("\N{EN DASH}", "--").replace("p-value", "$p$-value")
    if result.control is not None:
        control = result.control
        if latex:
            control = escape_latex(control)
        elif markup == "markdown":
            control = escape_markdown(control)
        where = f"{what}s of the {test} against the control {control}"
    elif result.correction == "nemenyi":
        where = f"{what}s (row against column)"
    else:
        where = f"{what}s of the {test} (row against column)"
    where = where[0].upper() + where[1:]
    bold = {"markdown": "in **bold**", "html": "in bold", "latex": "in bold"}.get(markup)
    star = {"latex": "marked $^{*}$", "markdown": "marked \\*"}.get(markup, "marked *")
    how = {
        "bold": bold or star,
        "star": star,
        "both": f"{bold} and {star}" if bold else star,
        "none": "",
    }[mark]
    if not how:
        return f"{where}."
    return f"{where}; values {how} are significant at {alpha}."


# --------------------------------------------------------------------------- plain text


def _text_table(result: ComparisonResult, table: _Table, fmt_p: Callable[[float], str]) -> str:
    header = ["Algorithm", "Avg. rank", *table.columns]
    if result.control is not None:
        header[2] = f"vs {result.control}"
    rows = []
    for name, rank, cells in zip(table.names, table.ranks, table.cells, strict=True):
        row = [name, f"{rank:.3f}"]
        for cell in cells:
            if cell is None:
                row.append("")
            elif cell.control:
                row.append("control")
            else:
                row.append(fmt_p(cell.pvalue) + ("*" if cell.significant else " "))
        rows.append(row + [""] * (len(header) - len(row)))
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    lines = []
    for row in [header, *rows]:
        parts = [row[0].ljust(widths[0])] + [
            c.rjust(w) for c, w in zip(row[1:], widths[1:], strict=True)
        ]
        lines.append("  " + "  ".join(parts).rstrip())
    return "\n".join(lines)


def _significant_lines(
    result: ComparisonResult, fmt: Callable[[str, str, float, float], str]
) -> tuple[list[str], int]:
    frame = result.to_frame()
    sig = frame[frame["significant"]]
    lines = [
        fmt(row.algorithm_1, row.algorithm_2, row.pvalue, row.adjusted_pvalue)
        for row in sig.head(MAX_PAIRS_LISTED).itertuples(index=False)
    ]
    more = len(sig) - MAX_PAIRS_LISTED
    return lines, more


def result_text(result: ComparisonResult, *, pvalues: bool | None = None) -> str:
    """Plain-text report: ranks and adjusted p-values, omnibus tests, significant pairs, groups.

    This is ``str(result)``.

    Parameters
    ----------
    result : ComparisonResult
        The result of :func:`cdplot.compare`.
    pvalues : bool, optional
        Show the matrix of adjusted p-values beside the ranks (default: for up
        to 12 algorithms; a comparison with a control always shows its column).

    Returns
    -------
    str
    """
    k, n = result.n_algorithms, result.n_datasets
    lines = [f"Comparison of {k} algorithms on {n} datasets ({describe_method(result)})", ""]
    lines.append(_omnibus_line(result))
    if result.critical_difference is not None:
        lines.append(f"Critical difference: {result.critical_difference:.3f}")
    table = _table(result, adjusted=True, pvalues=pvalues)
    lines.append("")
    if table.columns:
        lines.append("Average ranks (1 = best) and adjusted p-values:")
    else:
        lines.append("Average ranks (1 = best):")
    lines.append(_text_table(result, table, format_pvalue))
    legend = _legend(result, table, "star", markup="text")
    if legend:
        lines.append(_fill(legend, indent="  "))
    else:
        lines.append("  (adjusted p-values: result.adjusted_pvalues or result.to_frame())")

    pairs, more = _significant_lines(
        result,
        lambda a, b, p, apv: f"  {a} vs {b}: {_p_clause('p', p)}, {_p_clause('adjusted p', apv)}",
    )
    lines.append("")
    if not pairs:
        lines.append(f"No significant differences at alpha = {result.alpha:g}.")
    else:
        lines.append(f"Significant differences (adjusted p <= {result.alpha:g}):")
        lines += pairs
        if more > 0:
            lines.append(f"  ... and {more} more (see result.to_frame())")
    if result.control is None:
        lines.append("")
        if any(len(g) > 1 for g in result.groups):
            lines.append("Groups not significantly different:")
            for group in result.groups:
                lines.append("  [" + ", ".join(group) + "]")
        else:
            lines.append("No group of two or more algorithms without a significant pair.")
        if result.uncovered_pairs:
            pairs_text = "; ".join(f"{a} - {b}" for a, b in result.uncovered_pairs)
            lines.append(f"Not significantly different but in no common group: {pairs_text}")
    return "\n".join(lines)


# --------------------------------------------------------------------------- Markdown


def _markdown_cell(text: str, significant: bool, mark: str) -> str:
    text = escape_markdown(text)
    if significant and mark in ("star", "both"):
        text += r"\*"
    if significant and mark in ("bold", "both"):
        text = f"**{text}**"
    return text


def to_markdown(
    result: ComparisonResult,
    *,
    adjusted: bool = True,
    mark: Mark | None = "bold",
    rank_format: RankFormat = "{:.2f}",
    pvalue_format: PFormat = None,
    pvalues: bool | None = None,
) -> str:
    """Markdown report: the table of ranks and adjusted p-values, the tests, pairs and groups.

    The same content as ``str(result)``, as a GitHub-flavoured Markdown pipe
    table with a heading line before and the groups after it.

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

    Returns
    -------
    str
    """
    mark = _check_mark(mark)
    fmt_p = _pvalue_formatter(pvalue_format)
    fmt_r = _rank_formatter(rank_format)
    table = _table(result, adjusted=adjusted, pvalues=pvalues)
    k, n = result.n_algorithms, result.n_datasets
    test = TEST_TITLES.get(result.test, result.test)
    method = f"{test[0].upper()}{test[1:]}"
    if result.control is not None:
        method += f" against the control {escape_markdown(result.control)}"
    if result.correction == "nemenyi":
        method += " (single-step)"
    else:
        method += f", {correction_title(result)}"
        if result.correction != "none":
            method += " correction"
    fr, im = result.friedman, result.iman_davenport
    lines = [
        f"**{k} algorithms on {n} datasets** \N{EM DASH} {method}, α = {result.alpha:g}",
        "",
        f"Friedman χ²({fr.df:g}) = {fr.statistic:.3f}, {_p_clause('p', fr.pvalue)}; "
        f"Iman\N{EN DASH}Davenport F({im.df[0]:g}, {im.df[1]:g}) = {im.statistic:.3f}, "
        f"{_p_clause('p', im.pvalue)}"
        + (
            f". Critical difference: {result.critical_difference:.3f}."
            if result.critical_difference is not None
            else "."
        ),
        "",
    ]
    header = ["Algorithm", "Avg. rank", *(escape_markdown(c) for c in table.columns)]
    if result.control is not None:
        header[2] = f"vs {escape_markdown(result.control)}"
    lines.append("| " + " | ".join(header) + " |")
    lines.append("|" + "|".join([":---"] + ["---:"] * (len(header) - 1)) + "|")
    for name, rank, cells in zip(table.names, table.ranks, table.cells, strict=True):
        row = [escape_markdown(name), escape_markdown(fmt_r(rank))]
        for cell in cells:
            if cell is None:
                row.append("")
            elif cell.control:
                row.append("*control*")
            else:
                row.append(_markdown_cell(fmt_p(cell.pvalue), cell.significant, mark))
        lines.append("| " + " | ".join(row) + " |")
    legend = _legend(result, table, mark, markup="markdown")
    if legend:
        lines += ["", legend]
    pairs, more = _significant_lines(
        result,
        lambda a, b, p, apv: (
            f"- {escape_markdown(a)} vs {escape_markdown(b)}: "
            f"{_p_clause('p', p)}, {_p_clause('adjusted p', apv)}".replace("<", "\\<")
        ),
    )
    lines.append("")
    if pairs:
        lines.append(f"Significant differences (adjusted p ≤ {result.alpha:g}):")
        lines.append("")
        lines += pairs
        if more > 0:
            lines.append(f"- … and {more} more")
    else:
        lines.append(f"No significant differences at α = {result.alpha:g}.")
    if result.control is None and any(len(g) > 1 for g in result.groups):
        groups = ", ".join(
            "[" + ", ".join(escape_markdown(a) for a in g) + "]" for g in result.groups
        )
        lines += ["", f"Groups not significantly different: {groups}."]
    if result.control is None and result.uncovered_pairs:
        pairs_text = "; ".join(
            f"{escape_markdown(a)} \N{EN DASH} {escape_markdown(b)}"
            for a, b in result.uncovered_pairs
        )
        lines += ["", f"Not significantly different but in no common group: {pairs_text}."]
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------- LaTeX


def _latex_number(text: str) -> str:
    """Escape a formatted number; ``<`` and ``>`` (as in ``<0.001``) go to math mode."""
    parts = re.split(r"([<>])", text)
    return "".join(f"${p}$" if p in ("<", ">") else escape_latex(p) for p in parts)


def _latex_cell(text: str, significant: bool, mark: str) -> str:
    text = _latex_number(text)
    if significant and mark in ("star", "both"):
        text += "$^{*}$"
    if significant and mark in ("bold", "both"):
        text = rf"\textbf{{{text}}}"
    return text


def to_latex(
    result: ComparisonResult,
    *,
    caption: str | bool | None = True,
    label: str | None = None,
    adjusted: bool = True,
    mark: Mark | None = "bold",
    rank_format: RankFormat = "{:.2f}",
    pvalue_format: PFormat = None,
    column_labels: Literal["names", "numbers"] = "names",
    pvalues: bool | None = True,
    environment: bool = True,
    position: str = "htbp",
) -> str:
    r"""LaTeX table (booktabs) of the average ranks and the adjusted p-values.

    The algorithms are listed in average-rank order (best first) with their
    average ranks; for all pairs the lower triangle of the matrix of adjusted
    p-values follows (row against column), against a control one column.
    Significant values (``result.significant``) are marked. Needs
    ``\usepackage{booktabs}`` in the preamble.

    Parameters
    ----------
    result : ComparisonResult
        The result of :func:`cdplot.compare`.
    caption : str or bool, default True
        True: a caption naming the test, the correction, alpha and the omnibus
        test. A string: that caption (used as LaTeX, not escaped). False or
        None: no caption.
    label : str, optional
        ``\label`` of the table.
    adjusted : bool, default True
        Show adjusted p-values (APVs); False shows the raw p-values.
        Significance marks always follow ``result.significant``.
    mark : {"bold", "star", "both", "none"}, default "bold"
        How significant values are marked (``\textbf``, a superscript star).
    rank_format : str or callable, default ``"{:.2f}"``
        Format of the average ranks.
    pvalue_format : str or callable, optional
        Format of the p-values, e.g. ``"{:.4f}"``; default compact
        (``0.032``, ``$<$0.001``).
    column_labels : {"names", "numbers"}, default "names"
        Head the p-value columns with the algorithms' names, or with their
        positions in the ranking (rows are then numbered too).
    pvalues : bool or None, default True
        Include the p-values (None: only for up to 12 algorithms).
    environment : bool, default True
        Wrap the ``tabular`` in a ``table`` float with caption and label;
        False returns the ``tabular`` only.
    position : str, default "htbp"
        Placement of the ``table`` float.

    Returns
    -------
    str
        The LaTeX source.

    Notes
    -----
    The characters ``\ _ % & # $ { } ~ ^`` in algorithm names are escaped.
    """
    mark = _check_mark(mark)
    if column_labels not in ("names", "numbers"):
        raise ValueError(
            f"{column_labels!r} is not a valid value for column_labels; supported values are "
            "'names', 'numbers'"
        )
    fmt_p = _pvalue_formatter(pvalue_format)
    fmt_r = _rank_formatter(rank_format)
    table = _table(result, adjusted=adjusted, pvalues=pvalues)
    numbered = column_labels == "numbers"
    m = len(table.columns)
    lead = ["r"] if numbered else []
    spec = "".join(lead + ["l", "r"] + ["r"] * m)
    first = 1 + len(lead) + 2  # first p-value column, 1-based
    what = table.label.replace("\N{EN DASH}", "--").replace("p-value", "$p$-value")
    what = what[0].upper() + what[1:]

    body = [rf"\begin{{tabular}}{{{spec}}}", r"\toprule"]
    if m and result.control is None:
        blanks = "& " * (first - 1)
        body.append(rf"{blanks}\multicolumn{{{m}}}{{c}}{{{what}}} \\")
        body.append(rf"\cmidrule(l){{{first}-{first + m - 1}}}")
    if result.control is not None:
        col_heads = [f"{what} vs {escape_latex(result.control)}"]
    elif numbered:
        col_heads = [f"({j + 1})" for j in range(m)]
    else:
        col_heads = [escape_latex(c) for c in table.columns]
    heads = (["\\#"] if numbered else []) + ["Algorithm", "Avg.\\ rank", *col_heads]
    body.append(" & ".join(heads) + r" \\")
    body.append(r"\midrule")
    for i, (name, rank, cells) in enumerate(
        zip(table.names, table.ranks, table.cells, strict=True)
    ):
        row = ([f"({i + 1})"] if numbered else []) + [
            escape_latex(name),
            _latex_number(fmt_r(rank)),
        ]
        for cell in cells:
            if cell is None:
                row.append("")
            elif cell.control:
                row.append(r"\emph{control}")
            else:
                row.append(_latex_cell(fmt_p(cell.pvalue), cell.significant, mark))
        body.append(" & ".join(row) + r" \\")
    body += [r"\bottomrule", r"\end{tabular}"]
    if not environment:
        return "\n".join(body) + "\n"

    out = [rf"\begin{{table}}[{position}]", r"\centering"]
    if caption is True:
        out.append(rf"\caption{{{_latex_caption(result, table, mark)}}}")
    elif caption:
        out.append(rf"\caption{{{caption}}}")
    if label:
        out.append(rf"\label{{{label}}}")
    out += body
    out.append(r"\end{table}")
    return "\n".join(out) + "\n"


def _latex_caption(result: ComparisonResult, table: _Table, mark: str) -> str:
    k, n = result.n_algorithms, result.n_datasets
    fr, im = result.friedman, result.iman_davenport
    text = f"Average ranks (1 = best) of {k} algorithms on {n} data sets. "
    legend = _legend(result, table, mark, markup="latex")
    if legend:
        text += legend + " "
    text += (
        rf"Friedman's test: $\chi^2({fr.df:g}) = {fr.statistic:.2f}$, "
        f"${_p_clause('p', fr.pvalue)}$; "
        rf"Iman--Davenport $F({im.df[0]:g}, {im.df[1]:g}) = {im.statistic:.2f}$, "
        f"${_p_clause('p', im.pvalue)}$."
    )
    if result.critical_difference is not None:
        text += f" Critical difference: {result.critical_difference:.3f}."
    return text


# --------------------------------------------------------------------------- summary


_TEST_WHY = {
    "wilcoxon": (
        "The Wilcoxon signed-rank test compares each pair on its own scores, so its decision "
        "on a pair does not depend on which other algorithms are in the comparison; it "
        "assumes the differences between the two algorithms are distributed symmetrically "
        "(Demšar 2006; Benavoli, Corani & Mangili 2016)."
    ),
    "sign": (
        "The sign test counts the datasets each algorithm of a pair wins, so its decision on "
        "a pair does not depend on the other algorithms; it assumes little but has less "
        "power than the Wilcoxon signed-rank test (Demšar 2006)."
    ),
    "mean-ranks": (
        "Caution: the mean-ranks test compares average ranks computed over all "
        "algorithms, so its decision on a pair depends on which other algorithms are in "
        "the comparison: adding or removing an algorithm can make a difference appear or "
        "vanish (Benavoli, Corani & Mangili 2016). They recommend the Wilcoxon signed-rank "
        "or the sign test instead (test='wilcoxon' or 'sign'), whose decision on a pair "
        "depends only on those two algorithms."
    ),
    "nemenyi": (
        "Caution: the Nemenyi test compares average ranks computed over all algorithms, so "
        "its decision on a pair (and the critical difference) depends on which other "
        "algorithms are in the comparison: adding or removing an algorithm can make a "
        "difference appear or vanish (Benavoli, Corani & Mangili 2016). They recommend the "
        "Wilcoxon signed-rank or the sign test instead (test='wilcoxon' or 'sign'), whose "
        "decision on a pair depends only on those two algorithms."
    ),
}

_CORRECTION_WHY = {
    "none": (
        "No correction for multiple testing was applied: with {m} tests the chance of at "
        "least one false positive can be far above alpha."
    ),
    "bonferroni": (
        "Bonferroni's correction controls the family-wise error rate over the {m} tests, "
        "but is the most conservative of the usual procedures."
    ),
    "bonferroni-dunn": (
        "The Bonferroni-Dunn correction controls the family-wise error rate over the {m} "
        "comparisons with the control, conservatively (Demšar 2006)."
    ),
    "holm": (
        "Holm's step-down procedure controls the family-wise error rate over the {m} tests "
        "and is uniformly more powerful than Bonferroni's (Demšar 2006)."
    ),
    "hochberg": (
        "Hochberg's step-up procedure controls the family-wise error rate over the {m} tests "
        "when the Simes inequality holds (e.g. independent tests); it rejects at least as "
        "much as Holm's."
    ),
    "hommel": (
        "Hommel's procedure controls the family-wise error rate over the {m} tests when the "
        "Simes inequality holds; it rejects at least as much as Hochberg's."
    ),
    "finner": (
        "Finner's step-down procedure controls the family-wise error rate over the {m} tests "
        "with more power than Holm's."
    ),
    "li": (
        "Li's two-step procedure controls the family-wise error rate over the {m} "
        "comparisons with the control."
    ),
    "shaffer": (
        "Shaffer's static procedure controls the family-wise error rate over the {m} pairs "
        "and uses the logical relations between them (not all can be true at once), so it "
        "is more powerful than Holm's (García & Herrera 2008)."
    ),
    "bergmann-hommel": (
        "The Bergmann-Hommel procedure controls the family-wise error rate over the {m} "
        "pairs using every logically possible set of true hypotheses; it is the most "
        "powerful of the procedures García & Herrera (2008) compare."
    ),
    "nemenyi": (
        "The Nemenyi test adjusts all {m} pairs in one step (studentized range), which "
        "controls the family-wise error rate but is conservative (García & Herrera 2008)."
    ),
}


def _n_hypotheses(result: ComparisonResult) -> int:
    k = result.n_algorithms
    return k - 1 if result.control is not None else k * (k - 1) // 2


def _small_sample_note(result: ComparisonResult) -> str | None:
    n, k = result.n_datasets, result.n_algorithms
    if result.test in ("mean-ranks", "nemenyi"):
        if n < MIN_DATASETS_APPROXIMATION:
            return (
                f"only {n} datasets: the {TEST_TITLES[result.test]} and Friedman's test use "
                "normal and chi-square approximations that are rough below about 10 "
                "datasets (Demšar 2006: N > 10 and k > 5 as a rule of thumb); treat the "
                "p-values as approximate."
            )
        return None
    # Wilcoxon and sign tests: the smallest two-sided p-value on n datasets is 2 / 2**n.
    smallest = 2.0 / 2.0**n if n < 1100 else 0.0
    m = _n_hypotheses(result)
    if result.correction == "none":
        threshold, what = result.alpha, f"alpha = {result.alpha:g}"
    else:
        threshold = result.alpha / m
        what = f"alpha / {m} = {threshold:.2g}"
    if smallest > threshold:
        return (
            f"only {n} datasets: the smallest p-value the {TEST_TITLES[result.test]} can give "
            f"is 2/2^{n} = {smallest:.2g}, above {what}, so the correction may leave no pair "
            "significant however large the differences; more datasets are needed."
        )
    if n < MIN_DATASETS_APPROXIMATION and k > 2:
        return (
            f"only {n} datasets: Friedman's chi-square approximation is rough below about 10 "
            "datasets (Demšar 2006); treat the omnibus p-values as approximate."
        )
    return None


def summary(result: ComparisonResult) -> str:
    """Short plain-language report of a comparison.

    Says whether the omnibus test rejects, which pairwise test and correction
    were used and why that matters, which groups and significant pairs were
    found, and warns when the post-hoc results are read although the omnibus
    test did not reject, or when there are few datasets for the chosen test.

    Parameters
    ----------
    result : ComparisonResult
        The result of :func:`cdplot.compare`.

    Returns
    -------
    str
        Paragraphs separated by blank lines, wrapped at 88 characters.

    Notes
    -----
    The omnibus decision is the Iman-Davenport F test's at ``result.alpha``
    (Demšar 2006 recommends it over Friedman's conservative chi-square).
    "Few datasets" means: fewer than 11 for the approximations behind
    Friedman's, the mean-ranks and the Nemenyi tests (Demšar's rule of thumb
    N > 10); for the Wilcoxon and sign tests, too few for their smallest
    attainable p-value, ``2 / 2**N``, to pass the first step of the correction
    (``alpha / m`` for m hypotheses).
    """
    k, n, alpha = result.n_algorithms, result.n_datasets, result.alpha
    direction = "higher" if result.higher_is_better else "lower"
    fr, im = result.friedman, result.iman_davenport
    rejects = _omnibus_rejects(result)
    paragraphs: list[str] = []

    best = ", ".join(f"{name} ({rank:.2f})" for name, rank in result.average_ranks.head(3).items())
    paragraphs.append(
        f"{k} algorithms were compared on {n} datasets ({direction} scores are better; "
        f"rank 1 is the best). Best average ranks: {best}."
    )
    verdict = (
        "rejects the hypothesis that all algorithms perform alike"
        if rejects
        else "does not reject the hypothesis that all algorithms perform alike"
    )
    paragraphs.append(
        f"Omnibus test: the Friedman test (Iman-Davenport F({im.df[0]:g}, {im.df[1]:g}) = "
        f"{im.statistic:.2f}, {_p_clause('p', im.pvalue)}; chi2({fr.df:g}) = "
        f"{fr.statistic:.2f}, {_p_clause('p', fr.pvalue)}) {verdict} at alpha = {alpha:g}."
    )

    m = _n_hypotheses(result)
    scope = (
        f"every algorithm against the control {result.control}"
        if result.control is not None
        else "all pairs of algorithms"
    )
    paragraphs.append(
        f"Post-hoc tests: {scope} with the {TEST_TITLES.get(result.test, result.test)} and "
        f"{_correction_phrase(result)} at alpha = {alpha:g}. "
        + _CORRECTION_WHY.get(result.correction, "").format(m=m)
    )
    if result.critical_difference is not None:
        who = "from the control" if result.control is not None else "from each other"
        paragraphs[-1] += (
            f" Critical difference: {result.critical_difference:.3f}; algorithms whose "
            f"average ranks differ by at least this much differ significantly {who}."
        )
    paragraphs.append(_TEST_WHY.get(result.test, ""))

    warnings_: list[str] = []
    if not rejects:
        warnings_.append(
            "Warning: the omnibus test did not reject, yet post-hoc results are reported "
            "below. The usual procedure (Demšar 2006; García & Herrera 2008) reads the "
            "post-hoc tests only after the omnibus test rejects; treat any difference below "
            "as unconfirmed."
        )
    small = _small_sample_note(result)
    if small:
        warnings_.append("Warning: " + small)
    paragraphs += warnings_

    frame = result.to_frame()
    sig = frame[frame["significant"]]
    if sig.empty and rejects:
        paragraphs.append(
            f"No pair is significantly different at alpha = {alpha:g}, although the omnibus "
            "test rejects: the post-hoc tests have less power, and all one can conclude is "
            "that some algorithms differ (Demšar 2006, §3.2.2)."
        )
    elif sig.empty:
        paragraphs.append(f"No pair is significantly different at alpha = {alpha:g}.")
    else:
        items = [
            f"{row.algorithm_1} ranks better than {row.algorithm_2} "
            f"({_p_clause('adjusted p', row.adjusted_pvalue)})"
            for row in sig.head(MAX_PAIRS_LISTED).itertuples(index=False)
        ]
        more = len(sig) - MAX_PAIRS_LISTED
        text = f"Significant differences ({len(sig)} of {m}): " + "; ".join(items)
        text += f"; and {more} more." if more > 0 else "."
        paragraphs.append(text)
    if result.control is None:
        groups = [g for g in result.groups if len(g) > 1]
        if groups:
            listed = "; ".join("{" + ", ".join(g) + "}" for g in result.groups)
            paragraphs.append(
                "Groups of algorithms with no significant difference inside (best first): "
                f"{listed}."
            )
        else:
            paragraphs.append("Every pair of neighbours in the ranking differs significantly.")
        if result.uncovered_pairs:
            pairs = "; ".join(f"{a} - {b}" for a, b in result.uncovered_pairs)
            paragraphs.append(
                "Not significantly different, but in no common group (non-significance is "
                f"not transitive): {pairs}."
            )
    return "\n\n".join(_fill(p) for p in paragraphs if p)


def _correction_phrase(result: ComparisonResult) -> str:
    if result.correction == "none":
        return "no correction for multiple testing"
    if result.correction == "nemenyi":
        return "its own single-step adjustment"
    title = correction_title(result).replace("\N{EN DASH}", "-")
    return f"the {title} correction"


# --------------------------------------------------------------------------- HTML


def _diagram_svg(result: ComparisonResult) -> str:
    """The CD diagram as an inline ``<svg>`` element; raises ImportError without matplotlib."""
    import matplotlib  # noqa: F401  (ImportError here means: render text only)

    from ..plotting import cd_diagram

    ax = cd_diagram(result)
    fig = ax.figure
    buffer = io.StringIO()
    try:
        fig.savefig(buffer, format="svg")
    finally:
        if "matplotlib.pyplot" in sys.modules:  # don't leave a figure for pyplot to show
            sys.modules["matplotlib.pyplot"].close(fig)
    svg = buffer.getvalue()
    return svg[svg.index("<svg") :]


def _html_table(result: ComparisonResult, table: _Table) -> str:
    esc = html.escape
    heads = ["Algorithm", "Avg. rank"]
    if result.control is not None:
        heads.append(f"vs {esc(result.control)}")
    else:
        heads += [esc(c) for c in table.columns]
    out = ['<table class="cdplot-table">', "<thead><tr>"]
    out += [
        f'<th style="text-align:{"left" if i == 0 else "right"}">{h}</th>'
        for i, h in enumerate(heads)
    ]
    out.append("</tr></thead><tbody>")
    for name, rank, cells in zip(table.names, table.ranks, table.cells, strict=True):
        row = [f'<td style="text-align:left">{esc(name)}</td>', f"<td>{rank:.2f}</td>"]
        for cell in cells:
            if cell is None:
                row.append("<td></td>")
            elif cell.control:
                row.append("<td><em>control</em></td>")
            else:
                text = esc(format_pvalue(cell.pvalue))
                row.append(
                    f"<td><strong>{text}</strong></td>" if cell.significant else f"<td>{text}</td>"
                )
        out.append("<tr>" + "".join(row) + "</tr>")
    out.append("</tbody></table>")
    return "".join(out)


def _html_pairs(result: ComparisonResult) -> str:
    esc = html.escape
    frame = result.to_frame()
    sig = frame[frame["significant"]]
    if sig.empty:
        return f"<p>No significant differences at α = {result.alpha:g}.</p>"
    out = [
        '<table class="cdplot-pairs"><thead><tr><th>Algorithm 1</th><th>Algorithm 2</th>'
        "<th>p</th><th>Adjusted p</th></tr></thead><tbody>"
    ]
    for row in sig.head(MAX_PAIRS_LISTED).itertuples(index=False):
        out.append(
            f"<tr><td>{esc(row.algorithm_1)}</td><td>{esc(row.algorithm_2)}</td>"
            f"<td>{esc(format_pvalue(row.pvalue))}</td>"
            f"<td><strong>{esc(format_pvalue(row.adjusted_pvalue))}</strong></td></tr>"
        )
    out.append("</tbody></table>")
    more = len(sig) - MAX_PAIRS_LISTED
    if more > 0:
        out.append(f"<p>… and {more} more significant pairs (<code>result.to_frame()</code>).</p>")
    return "".join(out)


def to_html(result: ComparisonResult, *, diagram: bool = True) -> str:
    """HTML rendering for notebooks: ranks, omnibus test, groups, CD diagram, APV table.

    This is ``result._repr_html_()``, which Jupyter displays. The critical
    difference diagram is embedded as inline SVG; without matplotlib (or if
    drawing fails) the report stays text-only and says so.

    Parameters
    ----------
    result : ComparisonResult
        The result of :func:`cdplot.compare`.
    diagram : bool, default True
        Embed the critical difference diagram.

    Returns
    -------
    str
        An HTML fragment (a ``<div>``).
    """
    esc = html.escape
    k, n = result.n_algorithms, result.n_datasets
    table = _table(result, adjusted=True, pvalues=None)
    fr, im = result.friedman, result.iman_davenport
    verdict = "rejects" if _omnibus_rejects(result) else "does not reject"
    parts = [
        '<div class="cdplot-result">',
        f"<p><strong>{k} algorithms on {n} datasets</strong> \N{EM DASH} "
        f"{esc(describe_method(result)).replace('alpha =', 'α =')}</p>",
        f"<p>Friedman χ²({fr.df:g}) = {fr.statistic:.3f}, {esc(_p_clause('p', fr.pvalue))}; "
        f"Iman\N{EN DASH}Davenport F({im.df[0]:g}, {im.df[1]:g}) = {im.statistic:.3f}, "
        f"{esc(_p_clause('p', im.pvalue))}: the omnibus test {verdict} at "
        f"α = {result.alpha:g}."
        + (
            f" Critical difference: {result.critical_difference:.3f}."
            if result.critical_difference is not None
            else ""
        )
        + "</p>",
    ]
    if diagram:
        try:
            parts.append(f'<div class="cdplot-diagram">{_diagram_svg(result)}</div>')
        except ImportError:
            parts.append("<p><em>(Install matplotlib to see the CD diagram.)</em></p>")
        except Exception as exc:  # a display hook must not fail: show the text report
            parts.append(f"<p><em>(CD diagram not drawn: {esc(str(exc))})</em></p>")
    parts.append(_html_table(result, table))
    legend = _legend(result, table, "bold", markup="html")
    if legend:
        parts.append(f"<p><small>{esc(legend)}</small></p>")
    if not table.columns:
        parts.append(_html_pairs(result))
    if result.test in ("mean-ranks", "nemenyi"):
        parts.append(
            f"<p><small>Note: the {esc(TEST_TITLES[result.test])}'s decision on a pair depends "
            "on which other algorithms are compared (Benavoli, Corani &amp; Mangili 2016); "
            "see <code>result.summary()</code>.</small></p>"
        )
    if result.control is None:
        if any(len(g) > 1 for g in result.groups):
            items = "".join(f"<li>{esc(', '.join(g))}</li>" for g in result.groups)
            parts.append(f"<p>Groups not significantly different:</p><ol>{items}</ol>")
        else:
            parts.append("<p>No group of two or more algorithms without a significant pair.</p>")
        if result.uncovered_pairs:
            pairs = "; ".join(f"{a} \N{EN DASH} {b}" for a, b in result.uncovered_pairs)
            parts.append(
                f"<p>Not significantly different but in no common group: {esc(pairs)}.</p>"
            )
    parts.append("</div>")
    return "\n".join(parts)

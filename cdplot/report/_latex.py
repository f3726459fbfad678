"""LaTeX tables (booktabs): the ranks with the matrix or column of p-values, or compact."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Literal

from .._errors import check_in_list, renamed_keywords
from .._labels import TEST_TITLES, correction_title
from ._evidence import evidence
from ._intervals import intervals_latex, shown
from ._model import (
    CellStyle,
    Mark,
    PFormat,
    RankFormat,
    Table,
    build_table,
    check_mark,
    check_pvalues,
    display_name,
    group_letters,
    input_line,
    legend,
    omnibus_tests,
    omnibus_text,
    pvalue_formatter,
    rank_formatter,
    walk_rows,
)

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

    from ..stats._intervals import RankIntervals
    from ..stats._results import ComparisonResult

__all__ = ["LATEX_SIZES", "escape_latex", "to_latex", "wrap_float"]

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

#: The font-size commands ``size=`` accepts, smallest first.
LATEX_SIZES = ("tiny", "scriptsize", "footnotesize", "small", "normalsize")
#: Float environments: one column wide, or across both columns of a two-column paper.
LATEX_ENVS = ("table", "table*")


def escape_latex(text: str) -> str:
    r"""Escape LaTeX's special characters ``\ _ % & # $ { } ~ ^`` (and ``< > |``) in ``text``.

    Examples
    --------
    >>> print(escape_latex("rf_500 & 50% #1"))
    rf\_500 \& 50\% \#1
    """
    return "".join(_LATEX_SPECIAL.get(ch, ch) for ch in str(text))


def latex_text(text: str) -> str:
    """Escape prose for LaTeX: special characters, en dashes and multiplication signs."""
    return (
        escape_latex(text)
        .replace("\N{EN DASH}", "--")
        .replace("\N{MULTIPLICATION SIGN}", r"$\times$")
    )


def latex_number(text: str) -> str:
    """Escape a formatted number; ``<`` and ``>`` (as in ``<0.001``) go to math mode."""
    parts = re.split(r"([<>])", text)
    return "".join(f"${p}$" if p in ("<", ">") else escape_latex(p) for p in parts)


def _style(mark: str) -> CellStyle:
    def significant(text: str) -> str:
        if mark in ("star", "both"):
            text += "$^{*}$"
        if mark in ("bold", "both"):
            text = rf"\textbf{{{text}}}"
        return text

    return CellStyle(
        name=escape_latex, number=latex_number, significant=significant, control=r"\emph{control}"
    )


def wrap_float(
    tabular: list[str],
    *,
    env: str,
    position: str,
    caption: str | None,
    label: str | None,
    size: str | None,
    resize: bool,
) -> str:
    r"""Put ``tabular`` lines into a ``table``/``table*`` float with size, caption, label."""
    out = [rf"\begin{{{env}}}[{position}]", r"\centering"]
    if size:
        out.append(f"\\{size}")
    if caption:
        out.append(rf"\caption{{{caption}}}")
    if label:
        out.append(rf"\label{{{label}}}")
    if resize:
        width = r"\textwidth" if env == "table*" else r"\columnwidth"
        out.append(rf"\resizebox{{{width}}}{{!}}{{%")
        out += tabular
        out.append("}")
    else:
        out += tabular
    out.append(rf"\end{{{env}}}")
    return "\n".join(out) + "\n"


def check_float_options(env: str, size: str | None) -> tuple[str, str | None]:
    """Canonical ``env`` and ``size`` options (an unknown value raises CdplotInputError)."""
    env = check_in_list(LATEX_ENVS, table_environment=env)
    if size is not None:
        size = check_in_list(LATEX_SIZES, size=str(size).lstrip("\\"))
    return env, size


@renamed_keywords(env="table_environment")
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
    compact: bool = False,
    table_environment: Literal["table", "table*"] = "table",
    size: str | None = None,
    resize: bool = False,
    intervals: RankIntervals | None = None,
    effects: pd.DataFrame | None = None,
    frontier: Any = None,
) -> str:
    r"""LaTeX table (booktabs) of the average ranks and the adjusted p-values.

    The algorithms are listed in average-rank order (best first) with their
    average ranks; for all pairs the lower triangle of the matrix of adjusted
    p-values follows (row against column), against a control one column.
    Significant values (``result.significant``) are marked. With
    ``compact=True`` the table has three columns that fit one column of a
    two-column paper: the algorithm, its average rank and its group letters
    (algorithms sharing a letter are not significantly different), or against
    a control its adjusted p-value. Needs ``\usepackage{booktabs}`` (and
    ``graphicx`` for ``resize=True``) in the preamble.

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
        Wrap the ``tabular`` in a float with caption and label; False returns
        the ``tabular`` only.
    position : str, default "htbp"
        Placement of the float.
    compact : bool, default False
        Ranks and group letters (all pairs) or ranks and the p-value column
        (against a control) instead of the matrix of p-values.
    table_environment : {"table", "table*"}, default "table"
        The float: one column wide, or ``table*`` across both columns of a
        two-column paper.
    size : {"tiny", "scriptsize", "footnotesize", "small", "normalsize"}, optional
        Font size of the table (a size command inside the float).
    resize : bool, default False
        Scale the tabular to the column width (``\resizebox{\columnwidth}{!}``;
        ``\textwidth`` in ``table*``). Scaling changes the font size; prefer
        ``compact`` or ``size`` where they suffice.
    intervals, effects : RankIntervals and pandas.DataFrame, optional
        Tabulars after the main one of what ``cdplot.rank_intervals(result, ...)`` and
        ``cdplot.effect_sizes(result, ...)`` returned; default none (a result remembers
        nothing computed from it).
    frontier : ParetoFrontier, optional
        A second table, "Cost-performance frontier", of what
        ``cdplot.pareto_frontier(result, cost=...)`` computed (a tabular alone with
        ``environment=False``).

    Returns
    -------
    str
        The LaTeX source.

    Raises
    ------
    CdplotInputError
        An unknown ``mark``, ``column_labels``, ``table_environment`` or ``size``, or
        ``intervals`` or ``effects`` of other algorithms than ``result``'s.

    Notes
    -----
    The characters ``\ _ % & # $ { } ~ ^`` in algorithm names are escaped. Algorithms
    are shown by their display names (``result.label``, set with ``labels=``). The default
    caption ends with how the table was read (``result.input_notes``: "Input: scores are
    means over 10 folds; ..."); a caption of your own, or ``environment=False``, leaves
    that to you.
    The group letters are a compact letter display of ``result.groups``: the
    i-th group (best first) gets the i-th letter (a, b, ...). Two algorithms
    that share no letter may still be not significantly different when the
    groups do not cover their pair (``result.uncovered_pairs``, named in the
    caption).

    References
    ----------
    J. Demšar (2006). Statistical comparisons of classifiers over multiple data
    sets. JMLR 7, 1-30.
    H.-P. Piepho (2004). An algorithm for a letter-based representation of
    all-pairwise comparisons. J. Comput. Graph. Stat. 13(2), 456-466 (the
    letter display).

    Examples
    --------
    >>> import cdplot
    >>> res = cdplot.compare(cdplot.datasets.load("demsar2006"))
    >>> print(res.to_latex(compact=True, caption=False, environment=False))
    \begin{tabular}{lrl}
    \toprule
    Algorithm & Avg.\ rank & Group \\
    \midrule
    C4.5+m+cf & 1.93 & a \\
    C4.5+m & 2.00 & a \\
    C4.5+cf & 2.93 & a \\
    C4.5 & 3.14 & a \\
    \bottomrule
    \end{tabular}
    <BLANKLINE>
    """
    mark = check_mark(mark)
    pvalues = check_pvalues(pvalues)
    column_labels = check_in_list(("names", "numbers"), column_labels=column_labels)
    env, size = check_float_options(table_environment, size)
    intervals, effects = shown(result, intervals, effects)
    fmt_p = pvalue_formatter(pvalue_format)
    fmt_r = rank_formatter(rank_format)
    if compact and result.control is None:
        table = build_table(result, adjusted=adjusted, pvalues=False)
        body = _compact_tabular(result, table, fmt_r)
    else:
        table = build_table(result, adjusted=adjusted, pvalues=True if compact else pvalues)
        body = _tabular(result, table, mark, column_labels, fmt_r, fmt_p, compact=compact)
    body += intervals_latex(result, escape_latex, intervals, effects)  # when given
    body += evidence(result).score_sections("latex")  # one benchmark's, in score units
    after = ""
    if frontier is not None:  # cdplot.pareto_frontier(result, cost=...): its own table
        from ._frontier import frontier_latex

        after = "\n" + frontier_latex(frontier, environment=environment)
    if not environment:
        return "\n".join(body) + "\n" + after
    if caption is True:
        text = (
            _compact_caption(result) if compact and result.control is None else None
        ) or _caption(result, table, mark)
    else:
        text = caption or None
    return (
        wrap_float(
            body, env=env, position=position, caption=text, label=label, size=size, resize=resize
        )
        + after
    )


def _subjects(result: ComparisonResult) -> str:
    """``"algorithms on 14 data sets"`` (``"models on 500 items"`` for one benchmark)."""
    who, where = evidence(result).subjects
    return f"{who} on {result.n_datasets} {'data sets' if where == 'datasets' else where}"


def _tabular(
    result: ComparisonResult,
    table: Table,
    mark: str,
    column_labels: str,
    fmt_r: Callable[[float], str],
    fmt_p: Callable[[float], str],
    *,
    compact: bool,
) -> list[str]:
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
        control = escape_latex(display_name(result, result.control))
        col_heads = ["$p$" if compact else f"{what} vs {control}"]
    elif numbered:
        col_heads = [f"({j + 1})" for j in range(m)]
    else:
        col_heads = [escape_latex(c) for c in table.column_labels]
    heads = (["\\#"] if numbered else []) + ["Algorithm", "Avg.\\ rank", *col_heads]
    body.append(" & ".join(heads) + r" \\")
    body.append(r"\midrule")
    rows = walk_rows(table, _style(mark), fmt_rank=fmt_r, fmt_p=fmt_p)
    for i, row in enumerate(rows):
        body.append(" & ".join(([f"({i + 1})"] if numbered else []) + row) + r" \\")
    body += [r"\bottomrule", r"\end{tabular}"]
    return body


def _compact_tabular(
    result: ComparisonResult, table: Table, fmt_r: Callable[[float], str]
) -> list[str]:
    letters = group_letters(result)
    style = _style("none")
    body = [r"\begin{tabular}{lrl}", r"\toprule", r"Algorithm & Avg.\ rank & Group \\"]
    body.append(r"\midrule")
    rows = walk_rows(table, style, fmt_rank=fmt_r, fmt_p=str)
    for name, row in zip(table.names, rows, strict=True):
        body.append(" & ".join([*row, letters[name]]) + r" \\")
    body += [r"\bottomrule", r"\end{tabular}"]
    return body


def _method_tex(result: ComparisonResult) -> str:
    test = TEST_TITLES.get(result.test, result.test)
    if result.correction == "nemenyi":
        return f"{test}"
    corr = correction_title(result).replace("\N{EN DASH}", "--")
    return f"{test}, {corr} correction" if result.correction != "none" else f"{test}"


def _omnibus_tex(result: ComparisonResult) -> str:
    tests = omnibus_tests(result)
    if not tests:
        return ""
    parts = [omnibus_text(t, "latex", digits=2) for t in tests]
    parts[0] = parts[0].replace("Friedman $", "Friedman's test: $", 1)
    return "; ".join(parts) + "."


def _compact_caption(result: ComparisonResult) -> str:
    k = result.n_algorithms
    text = (
        f"Average ranks (1 = best) of {k} {_subjects(result)}. Algorithms that "
        f"share a letter {evidence(result).letters_caption(_method_tex(result))}"
    )
    if result.uncovered_pairs:
        pairs = "; ".join(
            f"{escape_latex(display_name(result, a))}--{escape_latex(display_name(result, b))}"
            for a, b in result.uncovered_pairs
        )
        text += f" Not significantly different either, though sharing no letter: {pairs}."
    text += " " + _omnibus_tex(result)
    cd = evidence(result).critical_difference
    if cd is not None:
        text += f" Critical difference: {cd:.3f}."
    return text + _input_tex(result)


def _input_tex(result: ComparisonResult) -> str:
    """How the table was read (``result.input_notes``), as a sentence for the caption."""
    line = input_line(result)
    return " " + latex_text(line) if line else ""


def _caption(result: ComparisonResult, table: Table, mark: str) -> str:
    k = result.n_algorithms
    text = f"Average ranks (1 = best) of {k} {_subjects(result)}. "
    extra = legend(result, table, mark, markup="latex", escape=escape_latex)
    if extra:
        text += extra + " "
    text += _omnibus_tex(result)
    cd = evidence(result).critical_difference
    if cd is not None:
        text += f" Critical difference: {cd:.3f}."
    return text + _input_tex(result)

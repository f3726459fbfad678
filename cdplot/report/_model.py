"""The table model every report format renders, and the one walker over its rows.

The model holds arrays, not formatted text: the algorithms in average-rank order (best
first) with their average ranks and, for all pairs, the lower triangle of the matrix of
(adjusted) p-values (row against column, each column an algorithm ranked better than the
row), or, against a control, one column. A format supplies a :class:`CellStyle` (how to
escape a name, mark a significant value, show the control) and :func:`walk_rows` returns
the rows as lists of strings. The significant pairs and the method line are shared too.
No statistic is computed here: judgements come from the result (``result.caveats``,
``result.omnibus_rejects``).
"""

from __future__ import annotations

import math
import textwrap
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

import numpy as np

from .._errors import CdplotInputError, check_in_list
from .._labels import (
    format_pvalue,
    pvalue_label,
    statistic_text,
)
from ..stats._frames import pair_arrays

if TYPE_CHECKING:  # pragma: no cover
    from ..stats._results import ComparisonResult, OmnibusResult

#: Tables show the matrix of p-values only up to this many algorithms unless asked.
MATRIX_MAX_ALGORITHMS = 12
#: Lists of significant pairs stop after this many entries.
MAX_PAIRS_LISTED = 20
#: Width at which the plain-language summary is wrapped.
SUMMARY_WIDTH = 88

Mark = Literal["bold", "star", "both", "none"]
MARKS = ("bold", "star", "both", "none")
PFormat = str | Callable[[float], str] | None
RankFormat = str | Callable[[float], str]


# --------------------------------------------------------------------------- formatting


def fill(text: str, *, indent: str = "") -> str:
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


def p_clause(label: str, p: float) -> str:
    """``"p = 0.032"`` or ``"p < 0.001"``."""
    text = format_pvalue(p)
    return f"{label} < {text[1:]}" if text.startswith("<") else f"{label} = {text}"


def pvalue_formatter(pvalue_format: PFormat) -> Callable[[float], str]:
    """A function formatting one p-value from a format string, a callable or None."""
    if pvalue_format is None:
        return format_pvalue
    if callable(pvalue_format):
        return pvalue_format
    fmt = str(pvalue_format)
    return lambda p: "-" if p != p else fmt.format(p)


def rank_formatter(rank_format: RankFormat) -> Callable[[float], str]:
    """A function formatting one average rank."""
    if callable(rank_format):
        return rank_format
    return str(rank_format).format


def check_mark(mark: str | None) -> str:
    """The canonical ``mark`` option (None means ``"none"``)."""
    return "none" if mark is None else check_in_list(MARKS, mark=mark)


def check_pvalues(pvalues: object) -> bool | None:
    """``pvalues`` must be True, False or None."""
    if pvalues is None or isinstance(pvalues, bool | np.bool_):
        return None if pvalues is None else bool(pvalues)
    raise CdplotInputError(f"pvalues must be True, False or None (automatic), got {pvalues!r}.")


def display_name(result: ComparisonResult, name: str) -> str:
    """The name reports show for an algorithm: its label (``labels=``), else its name."""
    return str(result.label(name))


def input_line(result: ComparisonResult) -> str:
    """``"Input: scores are means over 10 folds; dropped 1 dataset ...: d3."`` or ``""``.

    How the table was read (``result.input_notes``), in the words every report prints.
    """
    notes = result.input_notes
    return "Input: " + "; ".join(notes) + "." if notes else ""


def describe_method(result: ComparisonResult) -> str:
    """One line naming the test, the correction and alpha (a Bayesian test: rope, threshold).

    Examples
    --------
    >>> import cdplot
    >>> from cdplot.report import describe_method
    >>> res = cdplot.compare(cdplot.datasets.load('demsar2006'))
    >>> describe_method(res)
    'Wilcoxon signed-rank test, Holm correction, alpha = 0.05'
    """
    from ._evidence import evidence

    return evidence(result).method()


def omnibus_tests(result: ComparisonResult) -> list[OmnibusResult]:
    """The omnibus tests to print: Friedman's and Iman-Davenport's, and the chosen one.

    Results without Friedman's test (e.g. tables with missing results) print only the
    omnibus test they carry (``result.omnibus``).
    """
    tests = [getattr(result, a, None) for a in ("friedman", "iman_davenport", "omnibus")]
    out: list[OmnibusResult] = []
    for test in tests:
        if test is not None and all(test is not t for t in out):
            out.append(test)
    return out


_NAME_PAIRS = (("Iman", "Davenport"), ("Skillings", "Mack"))
_SYMBOLS = {
    "text": ("chi2", "F", "-"),
    "markdown": ("χ²", "F", "\N{EN DASH}"),
    "html": ("χ²", "F", "\N{EN DASH}"),
}


def omnibus_text(test: OmnibusResult, markup: str = "text", digits: int = 3) -> str:
    """``"Friedman chi2(3) = 9.280, p = 0.026"`` in ``markup`` (text, markdown, html, latex).

    A scalar ``df`` reads as a chi-square statistic, a pair as an F statistic; the
    name's own trailing "chi-square" or "F" is replaced by the symbol.
    """
    name = test.name or "omnibus test"
    if name.startswith("Page's L"):  # L is neither a chi-square nor an F statistic
        clause = p_clause("p", test.pvalue)
        if markup == "latex":
            return f"{name}: $L = {test.statistic:g}$, ${clause}$"
        return f"{name}: L = {test.statistic:g}, {clause}"
    for suffix in (" chi-square", " F"):
        if name.endswith(suffix):
            name = name[: -len(suffix)]
    if isinstance(test.df, tuple):
        df = ", ".join(f"{d:g}" for d in test.df)
        index = 1
    else:
        df = f"{test.df:g}"
        index = 0
    clause = p_clause("p", test.pvalue)
    dash = "--" if markup == "latex" else _SYMBOLS[markup][2]
    for first, second in _NAME_PAIRS:  # two people's names take an en dash
        name = name.replace(f"{first}-{second}", f"{first}{dash}{second}")
    if markup == "latex":
        symbol = ("\\chi^2", "F")[index]
        if math.isinf(test.statistic):  # in words: "$F(4, 44)$ is infinite (...)"
            stat = statistic_text(f"${symbol}({df})$", test.statistic, digits, test.name or "")
            return f"{name} {stat}, ${clause}$"
        return f"{name} ${symbol}({df}) = {test.statistic:.{digits}f}$, ${clause}$"
    symbol = _SYMBOLS[markup][index]
    stat = statistic_text(f"{symbol}({df})", test.statistic, digits, test.name or "")
    return f"{name} {stat}, {clause}"


def omnibus_line(result: ComparisonResult, markup: str = "text", digits: int = 3) -> str:
    """The omnibus tests of ``result`` joined with ``"; "``."""
    return "; ".join(omnibus_text(t, markup, digits) for t in omnibus_tests(result))


# --------------------------------------------------------------------------- table model


@dataclass(frozen=True)
class Table:
    """Rows in average-rank order; one column per better-ranked algorithm or the control.

    Attributes
    ----------
    names : list of str
        Algorithms, best average rank first (the data's names).
    ranks : numpy.ndarray
        Their average ranks.
    columns : list of str
        Heads of the p-value columns: ``names[:-1]`` (all pairs), ``[control]``, or
        empty when no p-values are shown.
    pvalues, significant : numpy.ndarray
        ``len(names) x len(columns)`` p-values and significance marks.
    shown : numpy.ndarray
        Which cells hold a value (the lower triangle; in control mode every row but the
        control's own).
    control_row : int or None
        Row of the control algorithm.
    label : str
        What the p-values are, e.g. ``"Holm-adjusted p-value"``.
    labels, column_labels : list of str
        What the rows and the p-value columns show: the display names
        (``result.label``) of ``names`` and ``columns``.
    """

    names: list[str]
    ranks: np.ndarray
    columns: list[str]
    pvalues: np.ndarray
    significant: np.ndarray
    shown: np.ndarray
    control_row: int | None
    label: str
    labels: list[str]
    column_labels: list[str]


def build_table(result: ComparisonResult, *, adjusted: bool, pvalues: bool | None) -> Table:
    """The table model of ``result`` (array indexing only; see :class:`Table`)."""
    order = [str(a) for a in result.average_ranks.index]
    ranks = result.average_ranks.to_numpy(dtype=float)
    label = pvalue_label(result, adjusted=adjusted)
    k = len(order)
    shown_as = [display_name(result, a) for a in order]
    empty = np.zeros((k, 0))
    if pvalues is False or (
        result.control is None and pvalues is None and k > MATRIX_MAX_ALGORITHMS
    ):
        return Table(
            order, ranks, [], empty, empty.astype(bool), empty.astype(bool), None, label,
            shown_as, [],
        )  # fmt: skip
    from ._evidence import evidence

    return evidence(result).table(order, ranks, shown_as, label, adjusted)


@dataclass(frozen=True)
class CellStyle:
    """How one format writes the cells of a :class:`Table`.

    Attributes
    ----------
    name : callable
        Escapes an algorithm's name.
    number : callable
        Escapes a formatted number.
    significant : callable
        Marks an (escaped) significant value.
    plain : callable
        Writes an (escaped) value that is not significant.
    control : str
        The control's own cell.
    empty : str
        A cell without value (upper triangle).
    """

    name: Callable[[str], str]
    number: Callable[[str], str]
    significant: Callable[[str], str]
    plain: Callable[[str], str] = str
    control: str = "control"
    empty: str = ""


def walk_rows(
    table: Table,
    style: CellStyle,
    *,
    fmt_rank: Callable[[float], str],
    fmt_p: Callable[[float], str],
) -> list[list[str]]:
    """The rows of ``table`` as lists of cell strings: name, average rank, p-values."""
    rows = []
    for i, (name, rank) in enumerate(zip(table.labels, table.ranks, strict=True)):
        row = [style.name(name), style.number(fmt_rank(float(rank)))]
        for j in range(len(table.columns)):
            if i == table.control_row:
                row.append(style.control)
            elif not table.shown[i, j]:
                row.append(style.empty)
            else:
                text = style.number(fmt_p(float(table.pvalues[i, j])))
                mark = style.significant if table.significant[i, j] else style.plain
                row.append(mark(text))
        rows.append(row)
    return rows


def legend(
    result: ComparisonResult,
    table: Table,
    mark: str,
    *,
    markup: str,
    escape: Callable[[str], str] = str,
) -> str:
    """Sentence saying what the p-value columns hold and how significance is marked."""
    if not table.columns:
        return ""
    from ._evidence import evidence

    return evidence(result).legend(table.label, mark, markup, escape)


def marked(mark: str, markup: str) -> str:
    """How marked cells are described: ``"in **bold**"``, ``"marked *"``, ... (or "")."""
    bold = {"markdown": "in **bold**", "html": "in bold", "latex": "in bold"}.get(markup)
    star = {"latex": "marked $^{*}$", "markdown": "marked \\*"}.get(markup, "marked *")
    return {
        "bold": bold or star,
        "star": star,
        "both": f"{bold} and {star}" if bold else star,
        "none": "",
    }[mark]


def decided_lines(result: ComparisonResult, name: Callable[[str], str]) -> list[str]:
    """One plain sentence per decided pair (names already escaped by ``name``)."""
    from ..stats._bayes import decided_pairs

    d = decided_pairs(result)
    out = [f"{name(a)} practically better than {name(b)} (P = {p:.3f})" for a, b, p in d.better]
    out += [
        f"{name(a)} and {name(b)} practically equivalent (P = {p:.3f})" for a, b, p in d.equivalent
    ]
    if d.undecided:
        out.append(f"{d.undecided} pair{'s' if d.undecided != 1 else ''} undecided")
    return out


# --------------------------------------------------------------------------- pairs


@dataclass(frozen=True)
class SignificantPairs:
    """The significant pairs, best-ranked algorithm first, sorted by raw p-value.

    ``listed`` holds at most :data:`MAX_PAIRS_LISTED` tuples
    ``(better, worse, pvalue, adjusted_pvalue)``; ``total`` counts all of them.
    """

    listed: list[tuple[str, str, float, float]]
    total: int

    @property
    def more(self) -> int:
        """How many significant pairs are not listed."""
        return self.total - len(self.listed)


def significant_pairs(result: ComparisonResult, limit: int = MAX_PAIRS_LISTED) -> SignificantPairs:
    """The significant pairs of ``result`` (see :class:`SignificantPairs`)."""
    pairs = pair_arrays(result)
    hit = np.flatnonzero(pairs.significant)
    top = hit[:limit]
    listed = [
        (str(a), str(b), float(p), float(q))
        for a, b, p, q in zip(
            pairs.names[pairs.first[top]],
            pairs.names[pairs.second[top]],
            pairs.pvalue[top],
            pairs.adjusted_pvalue[top],
            strict=True,
        )
    ]
    return SignificantPairs(listed, int(hit.size))


# --------------------------------------------------------------------------- group letters


def letter(i: int) -> str:
    """The i-th group letter: ``a`` ... ``z``, then ``A`` ... ``Z``, then ``g53``, ..."""
    if i < 26:
        return chr(ord("a") + i)
    if i < 52:
        return chr(ord("A") + i - 26)
    return f"g{i + 1}"


def group_letters(result: ComparisonResult) -> dict[str, str]:
    """Compact letter display of ``result.groups``: each algorithm's group letters.

    Group i (best first) gets letter i; an algorithm gets the letters of every
    group it belongs to, so two algorithms sharing a letter are not
    significantly different. Empty in control mode (no groups).
    """
    letters: dict[str, str] = {name: "" for name in result.average_ranks.index}
    for i, group in enumerate(result.groups):
        for name in group:
            letters[name] += letter(i) if i < 52 or not letters[name] else "," + letter(i)
    return letters

"""Plain-text report: ``str(result)``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._labels import format_pvalue
from ._evidence import evidence
from ._model import (
    MAX_PAIRS_LISTED,
    CellStyle,
    Table,
    build_table,
    check_pvalues,
    describe_method,
    display_name,
    fill,
    input_line,
    legend,
    omnibus_line,
    walk_rows,
)

if TYPE_CHECKING:  # pragma: no cover
    from ..stats._results import ComparisonResult

__all__ = ["result_text"]

_STYLE = CellStyle(name=str, number=str, significant=lambda t: t + "*", plain=lambda t: t + " ")


def _text_table(result: ComparisonResult, table: Table) -> str:
    header = ["Algorithm", "Avg. rank", *table.column_labels]
    if result.control is not None:
        header[2] = f"vs {display_name(result, result.control)}"
    rows = walk_rows(table, _STYLE, fmt_rank="{:.3f}".format, fmt_p=format_pvalue)
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    lines = []
    for row in [header, *rows]:
        parts = [row[0].ljust(widths[0])] + [
            c.rjust(w) for c, w in zip(row[1:], widths[1:], strict=True)
        ]
        lines.append("  " + "  ".join(parts).rstrip())
    return "\n".join(lines)


def result_text(result: ComparisonResult, *, pvalues: bool | None = None) -> str:
    """Plain-text report: ranks and adjusted p-values, omnibus tests, significant pairs, groups.

    This is ``str(result)``. A line under the heading says how the table was read
    (``result.input_notes``), when there is anything to say; algorithms are shown by
    their display names (``result.label``).

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

    Examples
    --------
    >>> import cdplot
    >>> res = cdplot.compare(cdplot.datasets.load("demsar2006"))
    >>> print(str(res).splitlines()[0])
    Comparison of 4 algorithms on 14 datasets (Wilcoxon signed-rank test, Holm correction, alpha = 0.05)
    """  # noqa: E501
    pvalues = check_pvalues(pvalues)
    k, n = result.n_algorithms, result.n_datasets
    lines = [f"Comparison of {k} algorithms on {n} datasets ({describe_method(result)})"]
    if input_line(result):
        lines.append(fill(input_line(result)))
    lines.append("")
    lines.append(omnibus_line(result))
    ev = evidence(result)
    if ev.critical_difference is not None:
        lines.append(f"Critical difference: {ev.critical_difference:.3f}")
    table = build_table(result, adjusted=True, pvalues=pvalues)
    lines.append("")
    if table.columns:
        lines.append(f"Average ranks (1 = best) and {ev.table_words}:")
    else:
        lines.append("Average ranks (1 = best):")
    lines.append(_text_table(result, table))
    text = legend(result, table, "star", markup="text")
    if text:
        lines.append(fill(text, indent="  "))
    else:
        lines.append("  (adjusted p-values: result.adjusted_pvalues or result.to_frame())")

    lines.append("")
    name = lambda a: display_name(result, a)  # noqa: E731
    pairs = ev.pair_list(name, "text", MAX_PAIRS_LISTED)
    lines.append(pairs.heading)
    lines += [f"  {line}" for line in pairs.items]
    if pairs.more > 0:
        lines.append(f"  ... and {pairs.more} more (see result.to_frame())")
    if result.control is None:
        lines.append("")
        if any(len(g) > 1 for g in result.groups):
            lines.append(f"Groups {ev.groups_words}:")
            for group in result.groups:
                lines.append("  [" + ", ".join(map(name, group)) + "]")
        else:
            lines.append("No group of two or more algorithms without a significant pair.")
        if result.uncovered_pairs:
            pairs_text = "; ".join(f"{name(a)} - {name(b)}" for a, b in result.uncovered_pairs)
            lines.append(f"Not significantly different but in no common group: {pairs_text}")
    return "\n".join(lines)

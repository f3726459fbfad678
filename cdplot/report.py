"""Text renderings of a ComparisonResult; reads the result only, computes no statistics."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from .stats._results import ComparisonResult

__all__ = ["format_pvalue", "result_text"]

_TEST_TITLES = {
    "wilcoxon": "Wilcoxon signed-rank test",
    "sign": "sign test",
    "mean-ranks": "mean-ranks test",
    "nemenyi": "Nemenyi test",
}


def format_pvalue(p: float, digits: int = 3) -> str:
    """Compact p-value: ``0.032``, ``<0.001``, ``1``."""
    if p != p:  # NaN
        return "-"
    floor = 10.0**-digits
    if p < floor:
        return f"<{floor:.{digits}f}"
    if p >= 1.0:
        return "1"
    return f"{p:.{digits}f}"


def _p_clause(label: str, p: float) -> str:
    text = format_pvalue(p)
    return f"{label} {text}" if text.startswith("<") else f"{label} = {text}"


def describe_method(result: ComparisonResult) -> str:
    """One line naming the test, the correction and alpha."""
    test = _TEST_TITLES.get(result.test, result.test)
    if result.correction == "nemenyi":
        how = "single-step (studentized range)"
    else:
        how = f"{result.correction} correction"
    vs = f", vs control {result.control!r}" if result.control is not None else ""
    return f"{test}, {how}{vs}, alpha = {result.alpha:g}"


def result_text(result: ComparisonResult) -> str:
    """Plain-text summary: average ranks, omnibus tests, significant pairs and groups."""
    k, n = result.n_algorithms, result.n_datasets
    lines = [f"Comparison of {k} algorithms on {n} datasets ({describe_method(result)})", ""]
    width = max(len(a) for a in result.algorithms)
    lines.append("Average ranks (1 = best):")
    for name, rank in result.average_ranks.items():
        lines.append(f"  {name:<{width}}  {rank:.3f}")
    fr, im = result.friedman, result.iman_davenport
    lines.append("")
    lines.append(
        f"Friedman chi2({fr.df:g}) = {fr.statistic:.3f}, {_p_clause('p', fr.pvalue)}; "
        f"Iman-Davenport F({im.df[0]:g}, {im.df[1]:g}) = {im.statistic:.3f}, "
        f"{_p_clause('p', im.pvalue)}"
    )
    if result.critical_difference is not None:
        lines.append(f"Critical difference: {result.critical_difference:.3f}")
    frame = result.to_frame()
    sig = frame[frame["significant"]]
    lines.append("")
    if sig.empty:
        lines.append(f"No significant differences at alpha = {result.alpha:g}.")
    else:
        lines.append(f"Significant differences (adjusted p <= {result.alpha:g}):")
        for row in sig.itertuples(index=False):
            lines.append(
                f"  {row.algorithm_1} vs {row.algorithm_2}: "
                f"{_p_clause('p', row.pvalue)}, {_p_clause('adjusted p', row.adjusted_pvalue)}"
            )
    if result.control is None:
        lines.append("")
        if result.groups:
            lines.append("Groups not significantly different:")
            for group in result.groups:
                lines.append("  [" + ", ".join(group) + "]")
        else:
            lines.append("No group of two or more algorithms without a significant pair.")
        if result.uncovered_pairs:
            pairs = "; ".join(f"{a} - {b}" for a, b in result.uncovered_pairs)
            lines.append(f"Not significantly different but in no common group: {pairs}")
    return "\n".join(lines)

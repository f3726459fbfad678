"""Vocabulary shared by figures and reports: display names of tests and corrections, p-value text.

Pure strings (no pandas, no matplotlib). Layer: above ``stats`` and below ``plotting`` and
``report``, which both import it; see ARCHITECTURE.md.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from .stats._results import ComparisonResult

__all__ = ["CORRECTION_TITLES", "TEST_TITLES", "correction_title", "format_pvalue", "pvalue_label"]

#: Display names of the pairwise tests.
TEST_TITLES = {
    "wilcoxon": "Wilcoxon signed-rank test",
    "sign": "sign test",
    "mean-ranks": "mean-ranks test",
    "nemenyi": "Nemenyi test",
    "bayes-signed-rank": "Bayesian signed-rank test",
    "bayes-sign": "Bayesian sign test",
    "aligned-ranks": "aligned-ranks test",
    "quade": "Quade post-hoc test",
    "exact-rank-sum": "exact rank-sum test",
    "paired-t": "paired t-test",
    "tukey": "Tukey HSD test",
    "conover": "Conover test",
}

#: Display names of the p-value adjustments.
CORRECTION_TITLES = {
    "none": "no correction",
    "bonferroni": "Bonferroni",
    "bonferroni-dunn": "Bonferroni\N{EN DASH}Dunn",
    "holm": "Holm",
    "hochberg": "Hochberg",
    "hommel": "Hommel",
    "finner": "Finner",
    "li": "Li",
    "shaffer": "Shaffer",
    "bergmann-hommel": "Bergmann\N{EN DASH}Hommel",
    "nemenyi": "Nemenyi",
    "tukey": "Tukey",
    "holland": "Holland",
    "rom": "Rom",
    "fdr-bh": "Benjamini\N{EN DASH}Hochberg (FDR)",
    "fdr-by": "Benjamini\N{EN DASH}Yekutieli (FDR)",
}


def format_pvalue(p: float, digits: int = 3) -> str:
    """Compact p-value: ``0.032``, ``<0.001``, ``1``; ``-`` for NaN.

    Parameters
    ----------
    p : float
        The p-value.
    digits : int, default 3
        Number of decimals; values below ``10**-digits`` print as ``<0.001``.

    Returns
    -------
    str
    """
    if p != p:  # NaN
        return "-"
    floor = 10.0**-digits
    if p < floor:
        return f"<{floor:.{digits}f}"
    if p >= 1.0:
        return "1"
    return f"{p:.{digits}f}"


def correction_title(result: ComparisonResult) -> str:
    """Display name of the result's p-value adjustment, e.g. ``"Bergmann–Hommel"``."""
    return CORRECTION_TITLES.get(result.correction, result.correction)


def pvalue_label(result: ComparisonResult, *, adjusted: bool = True) -> str:
    """What the p-values of a table or heatmap are, e.g. ``"Holm-adjusted p-value"``."""
    if result.correction == "nemenyi":  # its p-values are single-step adjusted already
        return "Nemenyi p-value"
    if not adjusted or result.correction == "none":
        return "unadjusted p-value"
    return f"{correction_title(result)}-adjusted p-value"

"""Vocabulary shared by figures and reports: display names of tests and corrections, p-value text.

Pure strings (no pandas, no matplotlib). Layer: above ``stats`` and below ``plotting`` and
``report``, which both import it; see ARCHITECTURE.md.
"""

from __future__ import annotations

import math
from types import MappingProxyType
from typing import TYPE_CHECKING

from .stats._catalogue import CATALOGUE

if TYPE_CHECKING:  # pragma: no cover
    from .stats._results import ComparisonResult

__all__ = [
    "CORRECTION_TITLES",
    "TEST_TITLES",
    "correction_title",
    "format_pvalue",
    "infinite_reason",
    "pvalue_label",
    "statistic_text",
]

#: Display names of the pairwise tests (read-only; the titles of the catalogue's entries).
TEST_TITLES = MappingProxyType({name: test.title for name, test in CATALOGUE.items()})

#: Display names of the p-value adjustments (read-only).
CORRECTION_TITLES = MappingProxyType(
    {
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
)


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

    Examples
    --------
    >>> from cdplot.report import format_pvalue
    >>> format_pvalue(0.01234), format_pvalue(0.00001)
    ('0.012', '<0.001')
    """
    if p != p:  # NaN
        return "-"
    floor = 10.0**-digits
    if p < floor:
        return f"<{floor:.{digits}f}"
    if p >= 1.0:
        return "1"
    return f"{p:.{digits}f}"


#: Why an omnibus statistic is infinite, by a word of the test's name. Iman-Davenport's F
#: (and Quade's) is infinite exactly when Friedman's statistic reaches its maximum
#: N(k - 1): every dataset ranks the algorithms in the same order (Demšar 2006, §3.2.2);
#: the repeated-measures ANOVA's when its residuals vanish.
INFINITE_REASONS = {
    "Iman": "every dataset ranks the algorithms alike",
    "Quade": "every dataset ranks the algorithms alike",
    "ANOVA": "every dataset shows the same differences between the algorithms",
}


def infinite_reason(test_name: str) -> str:
    """Why the statistic of the test ``test_name`` is infinite, in words."""
    for word, reason in INFINITE_REASONS.items():
        if word in test_name:
            return reason
    return "its denominator is zero"


def statistic_text(lhs: str, value: float, digits: int, test_name: str = "") -> str:
    """``"F(4, 44) = 3.16"``, or in words when the statistic is infinite.

    Examples
    --------
    >>> statistic_text("F(4, 44)", float("inf"), 2, "Iman-Davenport F")
    'F(4, 44) is infinite (every dataset ranks the algorithms alike)'
    >>> statistic_text("F(3, 39)", 3.9886, 2)
    'F(3, 39) = 3.99'
    """
    if math.isinf(value):
        return f"{lhs} is infinite ({infinite_reason(test_name)})"
    return f"{lhs} = {value:.{digits}f}"


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

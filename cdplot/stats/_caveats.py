"""Plain-language caveats about a comparison: the statistical judgements reports print.

The rules live here, in the statistics layer, so that every report (text, Markdown, HTML,
the summary) and every caller reads the same judgement from the result
(:attr:`ComparisonResult.caveats`, :attr:`ComparisonResult.omnibus_rejects`) instead of
re-deciding it with a threshold of its own.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from ._results import ComparisonResult

__all__ = [
    "MIN_DATASETS_APPROXIMATION",
    "caveats",
    "min_attainable_pvalue",
    "n_hypotheses",
    "omnibus_rejects",
]

#: Below this many datasets the normal and chi-square approximations behind the Friedman,
#: mean-ranks and Nemenyi tests are rough (Demšar 2006, §3.2.2: "as a rule of a thumb,
#: N > 10 and k > 5").
MIN_DATASETS_APPROXIMATION = 11

_TITLES = {
    "wilcoxon": "Wilcoxon signed-rank test",
    "sign": "sign test",
    "mean-ranks": "mean-ranks test",
    "nemenyi": "Nemenyi test",
}


def min_attainable_pvalue(test: str, n: int) -> float | None:
    """Smallest two-sided p-value a per-pair test can give on ``n`` datasets.

    For the Wilcoxon signed-rank and the sign test it is ``2 / 2**n`` (all
    differences of one sign; exact null distribution), capped at 1. The tests on
    average ranks have no such floor (None).
    """
    if test not in ("wilcoxon", "sign"):
        return None
    return min(1.0, 2.0 ** (1 - n)) if n < 1100 else 0.0


def n_hypotheses(result: ComparisonResult) -> int:
    """Number m of tested hypotheses: ``k - 1`` against a control, else ``k (k - 1) / 2``."""
    k = result.n_algorithms
    return k - 1 if result.control is not None else k * (k - 1) // 2


def omnibus_rejects(result: ComparisonResult) -> bool:
    """Whether the omnibus test rejects at ``result.alpha``.

    The decision is the Iman-Davenport F test's, which Demšar (2006, §3.2.2)
    recommends over Friedman's undesirably conservative chi-square.
    """
    p = result.iman_davenport.pvalue
    return bool(p == p and p <= result.alpha)


def caveats(result: ComparisonResult) -> tuple[str, ...]:
    """The caveats a reader of ``result`` must know, as plain-language sentences.

    Rules (one judgement, used by every report):

    * the omnibus test does not reject (:func:`omnibus_rejects`): post-hoc
      results are then unconfirmed (Demšar 2006; García & Herrera 2008);
    * Wilcoxon and sign tests: the smallest attainable p-value ``2 / 2**N``
      (:func:`min_attainable_pvalue`) is above ``alpha`` (no pair can be
      significant), or above ``alpha / m``, the first step of every
      family-wise correction over m hypotheses (the correction may leave no
      pair significant);
    * fewer than :data:`MIN_DATASETS_APPROXIMATION` datasets: the chi-square
      and normal approximations of Friedman's, the mean-ranks and the Nemenyi
      tests are rough (Demšar 2006's rule of thumb N > 10).
    """
    out: list[str] = []
    n, k, alpha = result.n_datasets, result.n_algorithms, result.alpha
    if not omnibus_rejects(result):
        out.append(
            "the omnibus test did not reject, yet post-hoc results are reported. The usual "
            "procedure (Demšar 2006; García & Herrera 2008) reads the post-hoc tests only "
            "after the omnibus test rejects; treat any difference as unconfirmed."
        )
    title = _TITLES.get(result.test, result.test)
    smallest = min_attainable_pvalue(result.test, n)
    if smallest is None:
        if n < MIN_DATASETS_APPROXIMATION:
            out.append(
                f"only {n} datasets: the {title} and Friedman's test use normal and "
                "chi-square approximations that are rough below about 10 datasets "
                "(Demšar 2006: N > 10 and k > 5 as a rule of thumb); treat the p-values as "
                "approximate."
            )
        return tuple(out)
    m = n_hypotheses(result)
    if smallest > alpha:
        need = math.ceil(math.log2(2.0 / alpha) + 1e-12)
        out.append(
            f"only {n} datasets: the smallest p-value the {title} can give is 2/2^{n} = "
            f"{smallest:.2g}, above alpha = {alpha:g}, so no pair can be significant however "
            f"large the differences; at least {need} datasets are needed."
        )
    elif result.correction not in ("none",) and m > 1 and smallest > alpha / m:
        out.append(
            f"only {n} datasets: the smallest p-value the {title} can give is 2/2^{n} = "
            f"{smallest:.2g}, above alpha / {m} = {alpha / m:.2g}, so the correction may "
            "leave no pair significant however large the differences; more datasets are "
            "needed."
        )
    elif n < MIN_DATASETS_APPROXIMATION and k > 2:
        out.append(
            f"only {n} datasets: Friedman's chi-square approximation is rough below about "
            "10 datasets (Demšar 2006); treat the omnibus p-values as approximate."
        )
    return tuple(out)

"""Plain-language caveats about a comparison: the statistical judgements reports print.

The rules live here, in the statistics layer, so that every report (text, Markdown, HTML,
the summary) and every caller reads the same judgement from the result
(:attr:`ComparisonResult.caveats`, :attr:`ComparisonResult.omnibus_rejects`) instead of
re-deciding it with a threshold of its own.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from ._lazy import labelled

if TYPE_CHECKING:  # pragma: no cover
    from ._results import ComparisonResult, OmnibusResult

__all__ = [
    "MIN_DATASETS_APPROXIMATION",
    "caveats",
    "datasets_needed",
    "deciding_omnibus",
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


def datasets_needed(alpha: float) -> int:
    """Fewest datasets on which the Wilcoxon or sign test can reach ``alpha``: 2/2**n <= alpha."""
    return math.ceil(math.log2(2.0 / alpha) + 1e-12)


def n_hypotheses(result: ComparisonResult) -> int:
    """Number m of tested hypotheses: ``k - 1`` against a control, else ``k (k - 1) / 2``."""
    k = result.n_algorithms
    return k - 1 if result.control is not None else k * (k - 1) // 2


def deciding_omnibus(result: ComparisonResult) -> OmnibusResult | None:
    """The omnibus test whose p-value decides, or None if the result has none.

    Iman-Davenport's F when Friedman's test was run (Demšar 2006, §3.2.2, recommends it
    over Friedman's undesirably conservative chi-square); otherwise the omnibus test
    chosen for the comparison (``result.omnibus``, where results carry one: e.g. Quade's
    F, Friedman's aligned ranks, Skillings-Mack).
    """
    friedman = getattr(result, "friedman", None)
    chosen = getattr(result, "omnibus", None)
    if chosen is not None and chosen is not friedman and chosen.name != "Friedman chi-square":
        return chosen
    iman = getattr(result, "iman_davenport", None)
    return iman if iman is not None else (friedman if friedman is not None else chosen)


def omnibus_rejects(result: ComparisonResult) -> bool:
    """Whether the omnibus test rejects at ``result.alpha`` (see :func:`deciding_omnibus`).

    False when the result carries no omnibus test.
    """
    test = deciding_omnibus(result)
    if test is None:
        return False
    p = test.pvalue
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
    if deciding_omnibus(result) is not None and not omnibus_rejects(result):
        out.append(
            "the omnibus test did not reject, yet post-hoc results are reported. The usual "
            "procedure (Demšar 2006; García & Herrera 2008) reads the post-hoc tests only "
            "after the omnibus test rejects; treat any difference as unconfirmed."
        )
    title = _TITLES.get(result.test, result.test)
    friedman_used = getattr(result, "friedman", None) is not None
    per_pair = labelled(result, "n_per_pair")  # datasets per pair, with missing results
    if per_pair is not None and k > 1:
        counts = np.asarray(per_pair.values, dtype=float)
        n_pair = int(counts[~np.eye(k, dtype=bool)].min())
    else:
        n_pair = n
    smallest = min_attainable_pvalue(result.test, n_pair)
    if smallest is None:
        if result.test in ("mean-ranks", "nemenyi") and n < MIN_DATASETS_APPROXIMATION:
            out.append(
                f"only {n} datasets: the {title} and Friedman's test use normal and "
                "chi-square approximations that are rough below about 10 datasets "
                "(Demšar 2006: N > 10 and k > 5 as a rule of thumb); treat the p-values as "
                "approximate."
            )
        elif friedman_used and n < MIN_DATASETS_APPROXIMATION and k > 2:
            out.append(_FRIEDMAN_ROUGH.format(n=n))
        return tuple(out)
    m = n_hypotheses(result)
    few = f"only {n_pair} datasets" + (" for some pairs" if n_pair < n else "")
    if smallest > alpha:
        need = datasets_needed(alpha)
        out.append(
            f"{few}: the smallest p-value the {title} can give is 2/2^{n_pair} = "
            f"{smallest:.2g}, above alpha = {alpha:g}, so no pair can be significant however "
            f"large the differences; at least {need} datasets are needed."
        )
    elif result.correction not in ("none",) and m > 1 and smallest > alpha / m:
        out.append(
            f"{few}: the smallest p-value the {title} can give is 2/2^{n_pair} = "
            f"{smallest:.2g}, above alpha / {m} = {alpha / m:.2g}, so the correction may "
            "leave no pair significant however large the differences; more datasets are "
            "needed."
        )
    elif friedman_used and n < MIN_DATASETS_APPROXIMATION and k > 2:
        out.append(_FRIEDMAN_ROUGH.format(n=n))
    return tuple(out)


_FRIEDMAN_ROUGH = (
    "only {n} datasets: Friedman's chi-square approximation is rough below about 10 "
    "datasets (Demšar 2006); treat the omnibus p-values as approximate."
)

"""Plain-language caveats about a comparison: the statistical judgements reports print.

The rules live here, in the statistics layer, so that every report (text, Markdown, HTML,
the summary) and every caller reads the same judgement from the result
(:attr:`ComparisonResult.caveats`, :attr:`ComparisonResult.omnibus_rejects`) instead of
re-deciding it with a threshold of its own.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from ._catalogue import RANKS, entry_of

if TYPE_CHECKING:  # pragma: no cover
    from ._results import Comparison, ComparisonResult, OmnibusResult

__all__ = [
    "MIN_DATASETS_APPROXIMATION",
    "Caveat",
    "caveat_facts",
    "datasets_needed",
    "deciding_omnibus",
    "min_attainable_pvalue",
    "n_hypotheses",
    "no_pair_can_be_significant",
    "omnibus_rejects",
    "smallest_attainable_pvalues",
]

#: Below this many datasets the normal and chi-square approximations behind the Friedman,
#: mean-ranks and Nemenyi tests are rough (Demšar 2006, §3.2.2: "as a rule of a thumb,
#: N > 10 and k > 5").
MIN_DATASETS_APPROXIMATION = 11


def min_attainable_pvalue(test: str, n: int) -> float | None:
    """Smallest two-sided p-value a per-pair test can give on ``n`` datasets.

    For the Wilcoxon signed-rank and the sign test it is ``2 / 2**n`` (all
    differences of one sign; exact null distribution), capped at 1. The tests on
    average ranks have no such floor (None).
    """
    entry = entry_of(test)
    if entry is None or not entry.sign_floor:
        return None
    return min(1.0, 2.0 ** (1 - n)) if n < 1100 else 0.0


#: corrections whose first step compares the smallest p-value with alpha / m (Bonferroni,
#: Holm; Shaffer's and Bergmann-Hommel's first multiplier is m, the set of all m hypotheses
#: being logically possible): no pair is significant when every p-value exceeds alpha / m
_FIRST_STEP_ALPHA_OVER_M = ("bonferroni", "bonferroni-dunn", "holm", "shaffer", "bergmann-hommel")


def smallest_attainable_pvalues(result: ComparisonResult) -> np.ndarray | None:
    """The smallest p-value each tested pair can give (:func:`min_attainable_pvalue` on the
    datasets the pair shares), in the order of the tested hypotheses; None for a test
    without such a floor."""
    k, n = result.n_algorithms, result.n_datasets
    if min_attainable_pvalue(result.test, n) is None:
        return None
    per_pair = result._pairwise.n_per_pair
    counts = np.full((k, k), n) if per_pair is None else np.asarray(per_pair, dtype=float)
    if result.control is not None:
        c = list(result.algorithms).index(result.control)
        shared = np.delete(counts[c], c)
    else:
        shared = counts[np.triu_indices(k, 1)]
    return np.array([min_attainable_pvalue(result.test, int(s)) for s in shared], dtype=float)


def no_pair_can_be_significant(result: ComparisonResult) -> bool:
    """Whether the correction leaves no pair significant however large the differences.

    Every correction cdplot offers is monotone: lowering a p-value never removes a
    rejection. So no data can make a pair significant exactly when the most favourable
    p-values, each pair's smallest attainable one (:func:`smallest_attainable_pvalues`),
    leave none at or below ``alpha``. For the corrections whose first step is ``alpha / m``
    that is ``m * min p > alpha``; the others (Hochberg's, Hommel's and Rom's step-up,
    Finner's, Holland's, Li's, the false-discovery-rate procedures) are run on those
    p-values. False for a test without a floor on its p-values.
    """
    floors = smallest_attainable_pvalues(result)
    if floors is None or not floors.size:
        return False
    alpha, m = result.alpha, floors.size
    if result.correction in _FIRST_STEP_ALPHA_OVER_M:
        return bool(m * floors.min() > alpha)
    from ._adjust import ROW_CORRECTIONS

    kernel = ROW_CORRECTIONS.get(result.correction)
    if kernel is None:  # a procedure without a row-wise kernel: not certain
        return False
    return bool(np.all(kernel(floors[None, :])[0] > alpha))


def datasets_needed(alpha: float) -> int:
    """Fewest datasets on which the Wilcoxon or sign test can reach ``alpha``: 2/2**n <= alpha."""
    return math.ceil(math.log2(2.0 / alpha) + 1e-12)


def n_hypotheses(result: ComparisonResult) -> int:
    """Number m of tested hypotheses: ``k - 1`` against a control, else ``k (k - 1) / 2``."""
    k = result.n_algorithms
    return k - 1 if result.control is not None else k * (k - 1) // 2


def deciding_omnibus(result: Comparison) -> OmnibusResult | None:
    """The omnibus test whose p-value decides, or None if the result has none.

    Iman-Davenport's F when Friedman's test was run (Demšar 2006, §3.2.2, recommends it
    over Friedman's undesirably conservative chi-square); otherwise the omnibus test
    chosen for the comparison (``result.omnibus``, where results carry one: e.g. Quade's
    F, Friedman's aligned ranks, Skillings-Mack).
    """
    friedman = result.friedman
    chosen = result.omnibus
    if chosen is not None and chosen is not friedman and chosen.name != "Friedman chi-square":
        return chosen
    iman = result.iman_davenport
    return iman if iman is not None else (friedman if friedman is not None else chosen)


def omnibus_rejects(result: Comparison) -> bool:
    """Whether the omnibus test rejects at ``result.alpha`` (see :func:`deciding_omnibus`).

    False when the result carries no omnibus test.
    """
    test = deciding_omnibus(result)
    if test is None:
        return False
    p = test.pvalue
    return bool(p == p and p <= result.alpha)


@dataclass(frozen=True)
class Caveat:
    """One fact a reader of a comparison must know; ``report/`` words it.

    Attributes
    ----------
    kind : str
        ``"omnibus-not-rejected"``; ``"unreachable-alpha"`` (the Wilcoxon or sign test
        cannot reach ``alpha`` on ``n`` datasets); ``"unreachable-first-step"`` (nor
        ``alpha / m``, the first step of the correction); ``"rough-rank-tests"`` (the
        mean-ranks or Nemenyi test and Friedman's on few datasets); ``"rough-friedman"``.
    test : str
        The pairwise test concerned (canonical name), or "".
    n : int
        The number of datasets concerned (the fewest any pair shares).
    some_pairs : bool
        Whether ``n`` is for some pairs only (missing results).
    smallest : float or None
        The smallest attainable p-value on ``n`` datasets.
    level : float or None
        The level it does not reach: ``alpha``, or ``alpha / m``.
    m : int
        The number of hypotheses (``"unreachable-first-step"``).
    needed : int or None
        Datasets needed to reach ``alpha`` (``"unreachable-alpha"``).
    certain : bool
        ``"unreachable-first-step"``: whether no pair can be significant whatever the data
        (:func:`no_pair_can_be_significant`); False when the correction could still reject
        (a step-up or false-discovery-rate procedure on small p-values, or pairs with more
        datasets than ``n``). ``"unreachable-alpha"``: whether every pair is that short of
        data (False: only the pairs with ``n`` datasets cannot be significant). True for the
        other kinds.
    """

    kind: str
    test: str = ""
    n: int = 0
    some_pairs: bool = False
    smallest: float | None = None
    level: float | None = None
    m: int = 0
    needed: int | None = None
    certain: bool = True


def caveat_facts(result: ComparisonResult) -> tuple[Caveat, ...]:
    """The caveats a reader of ``result`` must know, as facts (:class:`Caveat`).

    Rules (one judgement, used by every report):

    * the omnibus test does not reject (:func:`omnibus_rejects`): post-hoc
      results are then unconfirmed (Demšar 2006; García & Herrera 2008);
    * Wilcoxon and sign tests: the smallest attainable p-value ``2 / 2**N``
      (:func:`min_attainable_pvalue`) is above ``alpha`` (no pair can be
      significant), or above ``alpha / m``, the first step of every
      family-wise correction over m hypotheses: the correction then leaves no pair
      significant (certain for a step-down procedure such as Holm's) or may leave none
      (a step-up or false-discovery-rate procedure, or pairs with more datasets), decided
      by :func:`no_pair_can_be_significant`;
    * fewer than :data:`MIN_DATASETS_APPROXIMATION` datasets: the chi-square
      and normal approximations of Friedman's, the mean-ranks and the Nemenyi
      tests are rough (Demšar 2006's rule of thumb N > 10).
    """
    out: list[Caveat] = []
    n, k, alpha = result.n_datasets, result.n_algorithms, result.alpha
    if deciding_omnibus(result) is not None and not omnibus_rejects(result):
        out.append(Caveat("omnibus-not-rejected"))
    friedman_used = result.friedman is not None
    rough_friedman = friedman_used and n < MIN_DATASETS_APPROXIMATION and k > 2
    per_pair = result._pairwise.n_per_pair  # datasets per pair, with missing results
    if per_pair is not None and k > 1:
        counts = np.asarray(per_pair, dtype=float)
        n_pair = int(counts[~np.eye(k, dtype=bool)].min())
    else:
        n_pair = n
    smallest = min_attainable_pvalue(result.test, n_pair)
    if smallest is None:
        entry = entry_of(result.test)
        on_ranks = entry is not None and entry.reads == RANKS  # normal approximations
        if on_ranks and n < MIN_DATASETS_APPROXIMATION:
            out.append(Caveat("rough-rank-tests", result.test, n))
        elif rough_friedman:
            out.append(Caveat("rough-friedman", n=n))
        return tuple(out)
    m = n_hypotheses(result)
    few = {"test": result.test, "n": n_pair, "some_pairs": n_pair < n, "smallest": smallest}
    if smallest > alpha:
        floors = smallest_attainable_pvalues(result)
        certain = floors is not None and bool(np.all(floors > alpha))  # no pair has more data
        needed = datasets_needed(alpha)
        out.append(Caveat("unreachable-alpha", level=alpha, needed=needed, certain=certain, **few))
    elif result.correction not in ("none",) and m > 1 and smallest > alpha / m:
        certain = no_pair_can_be_significant(result)
        out.append(Caveat("unreachable-first-step", level=alpha / m, m=m, certain=certain, **few))
    elif rough_friedman:
        out.append(Caveat("rough-friedman", n=n))
    return tuple(out)


def __getattr__(name: str) -> Any:
    # the sentences moved to the report layer (facts in stats, words in report)
    if name == "caveats":
        from ..report._notes import caveats

        return caveats
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

"""The post-hoc step of :func:`cdplot.compare`: pairwise tests, adjusted p-values, groups.

The frequentist tests' kernels are their entries of the catalogue
(``_catalogue.CATALOGUE``); :func:`run_posthoc` is a short driver over named steps: raw
tests, the warning on questionable settings, the critical difference, the adjusted p-values
and the groups. The Bayesian tests have their own step (``_bayes_step``).
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, cast

import numpy as np

from .._errors import CdplotInputError, CdplotWarning, PoolDependenceWarning, silence_hint, spell
from ._adjust import adjust_all_pairs, adjust_control
from ._catalogue import DESIGN, RANKS
from ._caveats import datasets_needed, min_attainable_pvalue
from ._groups import find_groups
from ._pairwise import rank_standard_error
from ._parametric import column_means
from ._procedure import Procedure
from ._skillings_mack import pairs_on_common_datasets
from ._test_results import PairwiseResult

__all__ = ["Oriented", "Posthoc", "Ranked", "best_first_means", "named_groups", "run_posthoc"]


class Oriented:
    """The scores oriented so that higher is better, negated only when a step needs it.

    ``scores`` is the table as analysed; with ``higher`` False the oriented table is
    ``-scores``. The steps that read ``scores`` with the direction (the ranking, the
    all-pairs Wilcoxon and sign kernels, the tests on average ranks) never build that
    negated copy of the table; the others read :attr:`array`, made once.
    """

    def __init__(self, scores: np.ndarray, higher: bool) -> None:
        self.scores = scores
        self.higher = higher

    @property
    def shape(self) -> tuple[int, ...]:
        """The table's shape."""
        return self.scores.shape

    @cached_property
    def array(self) -> np.ndarray:
        """The oriented table (``scores``, or ``-scores`` when lower is better)."""
        return self.scores if self.higher else -self.scores


@dataclass(frozen=True)
class Ranked:
    """The ranking step's output: per-dataset ranks and average ranks (input order).

    ``canon`` is the canonical (by name) order of the algorithms in which every statistic
    of a complete table is computed, so that permuting the input columns permutes the
    result and changes no bit of it; None for an incomplete table.
    """

    ranks: np.ndarray | None
    average: np.ndarray
    canon: list[int] | None
    #: a complete table's ranks as twice their value (exact integers; ``ranks`` is None)
    twice: np.ndarray | None = None

    def values(self) -> np.ndarray:
        """The N x k ranks as float64."""
        return self.twice / 2.0 if self.twice is not None else cast(np.ndarray, self.ranks)

    @cached_property
    def back(self) -> Any:
        """Index that maps a canonical-order k x k matrix back to input order."""
        inverse = np.argsort(cast(list[int], self.canon))  # a complete table's
        return np.ix_(inverse, inverse)


@dataclass(frozen=True)
class Posthoc:
    """The post-hoc step's output (input order)."""

    statistics: np.ndarray
    pvalues: np.ndarray
    n_per_pair: np.ndarray
    adjusted: np.ndarray
    significant: np.ndarray
    groups: tuple[tuple[str, ...], ...]
    uncovered: tuple[tuple[str, str], ...]
    critical_difference: float | None
    mean_scores: tuple[np.ndarray, tuple[str, ...]] | None
    bayes: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class _Raw:
    """Raw pairwise results: input order, canonical order (complete tables), decisions."""

    pairwise: PairwiseResult
    canonical: PairwiseResult | None
    n_pair: np.ndarray
    n_smallest: int


def _raw_tests(
    proc: Procedure, oriented: Oriented, ranked: Ranked, names: list[str], datasets: list[str]
) -> _Raw:
    """Step 1: the pairwise test on every pair."""
    n, k = oriented.shape
    entry = proc.entry
    if ranked.canon is None and entry.incomplete == DESIGN:  # a balanced incomplete design
        return _design_raw(proc, oriented.array, names)
    if ranked.canon is None:  # incomplete table: each pair on the datasets both have
        if entry.common_datasets is None:  # Procedure refuses such a test on such a table
            raise CdplotInputError(f"the {proc.test} test needs a complete table.")
        pairwise, n_pair = pairs_on_common_datasets(
            entry.common_datasets.load(), oriented.array, algorithms=names, **proc.options
        )
        shared = n_pair[~np.eye(k, dtype=bool)]
        return _Raw(pairwise, None, n_pair, int(shared[shared > 0].min()))
    n_pair = np.full((k, k), n, dtype=np.int64)
    canon, back = ranked.canon, ranked.back
    if entry.ordered is not None:  # it reads the columns in canonical order itself
        test = entry.ordered.load()
        result_c = test(oriented.scores, canon, negate=not oriented.higher, **proc.options)
    else:
        # the columns in canonical order: a copy of the table, made only for tests that read
        # it (the tests on average ranks ignore the table they are given)
        ranks_only = entry.reads == RANKS
        table = oriented.scores if ranks_only else oriented.array[:, canon]
        result_c = entry.run_all_pairs(table, ranked.average[canon], n, proc.options, datasets)
    pairwise = PairwiseResult(result_c.statistic[back], result_c.pvalue[back])
    return _Raw(pairwise, result_c, n_pair, n)


def _design_raw(proc: Procedure, oriented: np.ndarray, names: list[str]) -> _Raw:
    """A design test's all-pairs tests on a BIBD, computed in canonical (name) order."""
    canon = sorted(range(len(names)), key=lambda j: names[j])
    back = np.argsort(canon)
    result_c = proc.entry.run_all_pairs(oriented[:, canon], None, 0, proc.options, [])
    pairwise = PairwiseResult(
        result_c.statistic[np.ix_(back, back)], result_c.pvalue[np.ix_(back, back)]
    )
    present = (~np.isnan(oriented)).astype(np.int64)
    n_pair = present.T @ present  # datasets each pair meets on
    k = len(names)
    return _Raw(pairwise, None, n_pair, int(n_pair[~np.eye(k, dtype=bool)].min()))


def _warn_questionable(proc: Procedure, n: int, *, incomplete: bool) -> None:
    """Step 2: warn on pool dependence, or when the test cannot reach alpha on n datasets."""
    if proc.pool_dependent:
        warnings.warn(
            f"the {proc.test} test's decision on a pair depends on which other algorithms are "
            f"in the comparison (Benavoli, Corani & Mangili 2016); consider "
            f"{spell('test', 'wilcoxon')} or 'sign'." + silence_hint("PoolDependenceWarning"),
            PoolDependenceWarning,
            stacklevel=4,
        )
        return
    smallest = min_attainable_pvalue(proc.test, n)
    if smallest is not None and smallest > proc.alpha:
        need = datasets_needed(proc.alpha)
        where = f"a pair with only {n} common datasets" if incomplete else f"{n} datasets"
        warnings.warn(
            f"with {where} the {proc.test} test cannot reach p <= {proc.alpha:g} (its smallest "
            f"two-sided p-value is {smallest:.3g}); at least {need} datasets are needed.",
            CdplotWarning,
            stacklevel=4,
        )


def best_first_means(
    proc: Procedure, scores: np.ndarray, names: list[str], higher_is_better: bool
) -> tuple[tuple[np.ndarray, tuple[str, ...]] | None, list[int] | None]:
    """Step 3: mean scores (best first) for the parametric analyses, and Tukey's group order."""
    if not proc.entry.mean_scores and proc.omnibus != "rm-anova":
        return None, None
    means = column_means(scores)
    sign = 1.0 if higher_is_better else -1.0
    by_mean = sorted(range(len(names)), key=lambda j: (-sign * means[j], names[j]))
    best_first = (means[by_mean], tuple(names[j] for j in by_mean))
    return best_first, (by_mean if proc.entry.groups_by_mean else None)


def _all_pairs_apv(
    pvalue: np.ndarray, k: int, proc: Procedure, hint: list[int] | None
) -> np.ndarray:
    """k x k matrix of adjusted p-values (NaN diagonal) from the k x k raw p-values."""
    iu, ju = np.triu_indices(k, 1)
    raw = pvalue[iu, ju]
    if proc.single_step:  # the p-values are adjusted already
        apv = raw.copy()
    else:
        apv = adjust_all_pairs(raw, k, proc.correction, bh_budget=proc.bh_budget, order=hint)
    apv_mat = np.full((k, k), np.nan)
    apv_mat[iu, ju] = apv
    apv_mat[ju, iu] = apv
    return apv_mat


def _all_pairs(
    proc: Procedure,
    raw: _Raw,
    ranked: Ranked,
    names: list[str],
    scores: np.ndarray,
    order: list[int],
) -> tuple[np.ndarray, np.ndarray, tuple, tuple, float | None]:
    """Step 4a: all pairs -- APVs, significance, groups and the critical difference."""
    k = scores.shape[1]
    cd = None
    entry = proc.entry
    if raw.canonical is None:  # incomplete table
        apv = _all_pairs_apv(raw.pairwise.pvalue, k, proc, None)
    else:
        canon = ranked.canon
        if entry.critical_difference is not None:
            table = scores if entry.reads == RANKS else scores[:, canon]
            cd = entry.critical_difference.load()(table, proc.alpha)
        # mean-ranks p-values form a Robinson matrix in average-rank order: a hint for the
        # exact Bergmann-Hommel engine when p-values underflow to 0 (verified)
        avg_c = ranked.average[canon]
        hint = sorted(range(k), key=lambda a: (avg_c[a], a))
        use = hint if entry.robinson_order else None
        apv = _all_pairs_apv(raw.canonical.pvalue, k, proc, use)[ranked.back]
    sig = apv <= proc.alpha  # False on the NaN diagonal
    groups, uncovered = named_groups(order, sig, names)
    return apv, sig, groups, uncovered, cd


def named_groups(
    order: list[int], significant: np.ndarray, names: list[str]
) -> tuple[tuple[tuple[str, ...], ...], tuple[tuple[str, str], ...]]:
    """The groups (runs in ``order`` with no significant pair) and the uncovered pairs, by name."""
    group_idx, uncovered_idx = find_groups(order, significant)
    groups = tuple(tuple(names[j] for j in g) for g in group_idx)
    uncovered = tuple((names[a], names[b]) for a, b in uncovered_idx)
    return groups, uncovered


def _against_control(
    proc: Procedure, raw: _Raw, names: list[str], n: int
) -> tuple[np.ndarray, np.ndarray, float | None]:
    """Step 4b: against a control -- the k - 1 APVs and the Bonferroni-Dunn critical difference."""
    k = len(names)
    c = names.index(cast(str, proc.control))  # the control step runs with a control
    others = [j for j in range(k) if j != c]
    apv = adjust_control(raw.pairwise.pvalue[c, others], proc.correction)
    significant = np.asarray(apv <= proc.alpha, dtype=bool)  # over the others, input order
    cd = None
    if proc.correction == proc.entry.control_critical_difference:
        cd = bonferroni_dunn_quantile(k, proc.alpha) * rank_standard_error(k, n)
    return apv, significant, cd


def bonferroni_dunn_quantile(k: int, alpha: float) -> float:
    """Bonferroni-Dunn's critical value ``z_{1 - alpha / (2 (k - 1))}`` (Demšar 2006, Table 5b)."""
    from ._special import special

    return float(special.ndtri(1.0 - alpha / (2.0 * (k - 1))))


def run_posthoc(
    proc: Procedure,
    scores: np.ndarray,
    oriented: Oriented,
    ranked: Ranked,
    names: list[str],
    datasets: list[str],
    *,
    higher_is_better: bool,
    order: list[int],
) -> Posthoc:
    """The frequentist post-hoc step: raw tests, warnings, APVs, significance, groups, CD
    (input order).

    ``order`` is the best-first order of the algorithms (by average rank, ties by name);
    groups are runs in it (in mean-score order for Tukey's test).
    """
    raw = _raw_tests(proc, oriented, ranked, names, datasets)
    _warn_questionable(proc, raw.n_smallest, incomplete=ranked.canon is None)
    means, by_mean = None, None
    if ranked.canon is not None:
        means, by_mean = best_first_means(proc, scores, names, higher_is_better)
    if proc.control is None:
        adjusted, significant, groups, uncovered, cd = _all_pairs(
            proc, raw, ranked, names, scores, by_mean or order
        )
    else:
        adjusted, significant, cd = _against_control(proc, raw, names, scores.shape[0])
        groups, uncovered = (), ()
    return Posthoc(
        statistics=raw.pairwise.statistic,
        pvalues=raw.pairwise.pvalue,
        n_per_pair=raw.n_pair,
        adjusted=adjusted,
        significant=significant,
        groups=groups,
        uncovered=uncovered,
        critical_difference=cd,
        mean_scores=means,
    )

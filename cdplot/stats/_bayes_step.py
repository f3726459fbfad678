"""The Bayesian step of :func:`cdplot.compare`: posteriors of every pair, decisions, groups.

The step :func:`cdplot.compare` runs in place of the frequentist post-hoc step
(``_posthoc.run_posthoc``) for a Bayesian test of the catalogue: the test's all-pairs kernel
gives P(row practically better), the pairs decided different at the posterior threshold and
the fields of the result's ``Posterior`` part. There are no p-values to adjust and no
critical difference; the groups are runs of the best-first order with no pair decided
different.
"""

from __future__ import annotations

import numpy as np

from ._adjust import adjust_control
from ._posthoc import Oriented, Posthoc, Ranked, best_first_means, named_groups
from ._procedure import Procedure

__all__ = ["run_bayes"]


def run_bayes(
    proc: Procedure,
    scores: np.ndarray,
    oriented: Oriented,
    ranked: Ranked,
    names: list[str],
    datasets: list[str],
    *,
    higher_is_better: bool,
    order: list[int],
    folds: np.ndarray | None = None,
) -> Posthoc:
    """The Bayesian step on a complete table (input order), with the arguments of
    :func:`~cdplot.stats._posthoc.run_posthoc`; ``datasets`` is not read. A test of folds
    reads ``folds`` (``datasets x algorithms x folds``, oriented: higher is better)."""
    n, k = oriented.shape
    kernel = proc.entry.all_pairs.load()
    data = oriented.array if folds is None else folds
    better, decided, fields = kernel(proc.test, data, names, proc.options)
    no_pvalues = np.full((k, k), np.nan)
    means, by_mean = best_first_means(proc, scores, names, higher_is_better)
    if proc.control is None:
        adjusted = np.full((k, k), np.nan)
        significant = np.asarray(decided, dtype=bool) & ~np.eye(k, dtype=bool)
        groups, uncovered = named_groups(by_mean or order, significant, names)
    else:
        c = names.index(proc.control)
        others = [j for j in range(k) if j != c]
        adjusted = adjust_control(no_pvalues[c, others], proc.correction)
        significant = np.asarray(decided[c, others], dtype=bool)
        groups, uncovered = (), ()
    return Posthoc(
        statistics=better,
        pvalues=no_pvalues,
        n_per_pair=np.full((k, k), n, dtype=np.int64),
        adjusted=adjusted,
        significant=significant,
        groups=groups,
        uncovered=uncovered,
        critical_difference=None,
        mean_scores=means,
        bayes=fields,
    )

"""The Bayesian procedures of a simulation: decisions per table, scored against the truth.

A Bayesian test decides each pair "A better", "equivalent", "B better" or "undecided"
(:func:`cdplot.compare`'s ``decisions``). The truth is the model's, as for the frequentist
FWER and power: a pair is *truly equivalent* when ``model.true_null`` says so (equal means
of a :class:`NormalModel`), else *truly different*, and then the algorithm with the larger
``model.true_effects`` (the means; a :class:`ResampleModel`'s mean scores over the table it
resamples) is *truly better*. The rope plays no part in the truth: a pair whose means differ
by less than the rope is truly different.

Each seed block of replicates draws its posterior samples from one seed derived from the
block's :class:`numpy.random.SeedSequence` (:func:`posterior_seed`), so every table's
posterior equals ``compare(table, test=..., random_state=posterior_seed(block))``'s, and the
study does not depend on how the blocks are cut into chunks. A procedure that names
``random_state`` uses that seed for every table.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..stats._batch_bayes import (
    A_BETTER,
    B_BETTER,
    EQUIVALENT,
    SIMULATION_NSAMPLES,
    BayesSettings,
    batch_decisions,
    batch_posteriors,
)
from ..stats._procedure import Procedure

__all__ = ["BAYES_COUNTS", "bayes_counts", "check_bayes", "posterior_seed"]

#: per-replicate counts returned for a Bayesian procedure, in this order
BAYES_COUNTS = ("wrong_better", "correct_better", "equivalent_equal", "equivalent_different")


def posterior_seed(block: np.random.SeedSequence) -> int:
    """The posterior seed of a seed block: a child stream of it, apart from its tables'."""
    child = np.random.SeedSequence(block.entropy, spawn_key=(*block.spawn_key, 0))
    return int(child.generate_state(1)[0])


def check_bayes(proc: Procedure) -> BayesSettings:
    """The procedure's Bayesian options, checked as compare() checks them (nsamples default
    :data:`~cdplot.stats._batch_bayes.SIMULATION_NSAMPLES`)."""
    return BayesSettings(proc.test, dict(proc.options), SIMULATION_NSAMPLES)


def _decisions(
    tables: np.ndarray,
    settings: BayesSettings,
    seeds: Sequence[np.random.SeedSequence],
    blocks: Sequence[tuple[int, int]],
) -> np.ndarray:
    """R x m decision codes of every table's pairs (``triu_indices`` order), block by block."""
    out = []
    for seed, (lo, hi) in zip(seeds, blocks, strict=True):
        chosen = posterior_seed(seed) if settings.seed is None else settings.seed
        probs = batch_posteriors(tables[lo:hi], settings, chosen)
        out.append(batch_decisions(probs, settings.threshold))
    return np.concatenate(out)


def bayes_counts(
    tables: np.ndarray,
    procs: Sequence[Procedure],
    seeds: Sequence[np.random.SeedSequence],
    blocks: Sequence[tuple[int, int]],
    truth: np.ndarray | None,
    effects: np.ndarray | None,
    algorithms: Sequence[str],
) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """``{label: (decision counts, per-replicate counts)}`` of each Bayesian procedure.

    The decision counts are 3 x m (``a`` better, equivalent, ``b`` better, per tested pair
    (a, b)); the per-replicate counts are 4 x R, in :data:`BAYES_COUNTS` order (zeros
    where the truth needed is unknown).
    """
    r, _, k = tables.shape
    lookup = np.zeros((k, k), dtype=np.intp)
    iu, ju = np.triu_indices(k, 1)
    lookup[iu, ju] = lookup[ju, iu] = np.arange(iu.size)
    cache: dict[Any, np.ndarray] = {}
    out = {}
    for proc in procs:
        key = proc.test_key()
        if key not in cache:
            cache[key] = _decisions(tables, check_bayes(proc), seeds, blocks)
        a, b = proc.hypotheses(k, algorithms)
        codes = cache[key][:, lookup[a, b]]
        flipped = a > b  # the pair is stored as (b, a): swap the two "better" codes
        a_better = np.where(flipped, codes == B_BETTER, codes == A_BETTER)
        b_better = np.where(flipped, codes == A_BETTER, codes == B_BETTER)
        equivalent = codes == EQUIVALENT
        counts = np.stack([a_better.sum(axis=0), equivalent.sum(axis=0), b_better.sum(axis=0)])
        per_rep = np.zeros((len(BAYES_COUNTS), r), dtype=np.int32)
        if truth is not None:
            null = truth[a, b]
            per_rep[2] = equivalent[:, null].sum(axis=1)
            per_rep[3] = equivalent[:, ~null].sum(axis=1)
            if effects is not None:
                a_truly = ~null & (effects[a] > effects[b])
                b_truly = ~null & (effects[b] > effects[a])
                per_rep[0] = (a_better & ~a_truly).sum(axis=1) + (b_better & ~b_truly).sum(axis=1)
                per_rep[1] = (a_better & a_truly).sum(axis=1) + (b_better & b_truly).sum(axis=1)
        out[proc.label] = (counts.astype(np.int64), per_rep)
    return out

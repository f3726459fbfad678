"""The Bayesian sign and signed-rank tests vectorised over a stack of score tables.

A simulation study runs a Bayesian procedure on thousands of simulated N x k tables. For
tables that share one posterior seed, :func:`batch_posteriors` returns, table by table, the
posterior probabilities :func:`cdplot.compare` gives for that table alone with
``random_state=seed`` (to the last bit): compare() draws every pair's posterior from one
stream of Dirichlet weights (:func:`cdplot.stats._bayes.all_pairs_posteriors`), so the pairs
of all the tables are stacked as rows of one call of the same kernel, whose rows are
computed independently of each other. The sign test's posterior depends on a pair's
differences only through the counts (left, rope, right); draws are shared between the rows
(of any table) with equal counts.

Cost: the signed-rank posterior of one pair is O(nsamples x N) (the Walsh-sum indicator is
a staircase; see :class:`cdplot.stats._bayes._Staircase`), so a table of k algorithms costs
O(k^2 N nsamples).
"""

from __future__ import annotations

import numpy as np

from ._bayes import (
    DECISIONS,
    BayesSettings,
    _finish,
    _sign_alpha,
    _sign_counts,
    _signed_rank_counts,
    decision_codes,
)

__all__ = ["SIMULATION_NSAMPLES", "BayesSettings", "batch_decisions", "batch_posteriors"]

#: posterior samples per pair in a simulation when the procedure names no ``nsamples``:
#: 50,000 (compare()'s default) costs about ten times as much for a Monte Carlo error of
#: a posterior probability near 0.95 of 0.003 instead of 0.001
SIMULATION_NSAMPLES = 5_000
#: decision codes of :func:`batch_decisions`: indices of ``_bayes.DECISIONS``
A_BETTER, EQUIVALENT, B_BETTER, UNDECIDED = (
    DECISIONS.index(d) for d in ("A better", "equivalent", "B better", "undecided")
)


def batch_posteriors(tables: np.ndarray, settings: BayesSettings, seed: int) -> np.ndarray:
    """R x m x 3 posterior probabilities (left, rope, right) of every table's pairs.

    ``tables`` is R x N x k, higher = better, the algorithms in compare()'s input order;
    pairs are in ``numpy.triu_indices(k, 1)`` order and pair (i, j) is the difference
    ``column i - column j`` (so "right" means i practically better), as compare() does.
    Row r equals ``compare(tables[r], test=..., random_state=seed)``'s posteriors.
    """
    r, n, k = tables.shape
    iu, ju = np.triu_indices(k, 1)
    m = iu.size
    # rows = (table, pair), each the N differences column i - column j
    diffs = (tables[:, :, iu] - tables[:, :, ju]).transpose(0, 2, 1).reshape(r * m, n)
    nsamples, rope = settings.nsamples, settings.rope
    probs = np.empty((r * m, 3))
    if settings.test == "bayes-sign":
        strength, place = settings.prior
        cache: dict[tuple[float, ...], tuple[float, float, float]] = {}
        for row, alpha in enumerate(_sign_alpha(diffs, rope, strength, int(place))):
            key = tuple(alpha.tolist())
            if key not in cache:
                counts, _ = _sign_counts(alpha, nsamples, seed)
                cache[key] = _finish(counts, nsamples, rope)
            probs[row] = cache[key]
    else:
        counts, _ = _signed_rank_counts(diffs, rope, nsamples, seed, prior=settings.prior)
        for row in range(r * m):
            probs[row] = _finish(counts[row], nsamples, rope)
    return probs.reshape(r, m, 3)


def batch_decisions(probs: np.ndarray, threshold: float) -> np.ndarray:
    """R x m decision codes at ``threshold``, as compare()'s ``decisions`` (pair (i, j)).

    :data:`A_BETTER` (i practically better: P(right) >= threshold), :data:`B_BETTER`,
    :data:`EQUIVALENT` or :data:`UNDECIDED`; at most one region reaches a threshold > 0.5.
    """
    # pair (i, j): "right" is P(i practically better), "left" P(j practically better)
    return decision_codes(probs[..., 2], probs[..., 1], probs[..., 0], threshold)

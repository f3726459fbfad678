"""Bayesian comparisons: the Bayesian sign and signed-rank tests and the correlated t-test.

Paired differences are ``d = a - b``, as everywhere in cdplot (``paired_t``,
``effect_sizes``). For two samples ``a``, ``b`` (scores where higher is better):

- ``left``  = P(a - b > rope)    (``a`` practically better),
- ``rope``  = P(|a - b| <= rope) (practically equivalent),
- ``right`` = P(a - b < -rope)   (``b`` practically better).

These are baycomp's (Benavoli, Corani, Demšar & Zaffalon 2017) three probabilities, in its
order, for ``signed_rank(x, y)``, ``sign(x, y)`` and ``CorrelatedTTest(x, y)`` with
``x = a``, ``y = b``, so its numbers are reproduced exactly.

The sign and signed-rank tests are Monte Carlo estimates from a Dirichlet-process posterior
(Benavoli et al. 2014, 2017): ``nsamples`` draws of the posterior probabilities of the
three regions, and each probability above is the fraction of draws in which that region is
the most probable one. The correlated t-test (Corani & Benavoli 2015) is analytic.

All-pairs versions (used by :func:`cdplot.compare`) share one stream of Dirichlet weights
between the pairs (common random numbers: every pair's estimate is that of the two-sample
function with the same seed) and work in chunks of samples and pairs, so memory stays
bounded for any k, N and ``nsamples``.
"""

from __future__ import annotations

import math
import numbers
import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .._errors import CdplotInputError, check_in_list, renamed_keywords, spell
from ._values import ValueEquality

__all__ = [
    "BayesianResult",
    "bayes_comparison",
    "bayes_frame",
    "Decided",
    "decided_pairs",
    "DECISIONS",
    "all_pairs_posteriors",
    "bayes_correlated_t",
    "bayes_sign",
    "bayes_signed_rank",
    "decide",
]

#: Decision labels of a pair (A, B) at a posterior threshold.
DECISIONS = ("A better", "equivalent", "B better", "undecided")
#: Prior strength of the pseudo-observation at 0 of the signed-rank test (baycomp's default).
SIGNED_RANK_PRIOR = 0.5
#: Prior strength put on the rope region by the sign test (baycomp's default).
SIGN_PRIOR = 1.0
#: Added to each Dirichlet parameter of the sign test so that none is zero (as baycomp).
SIGN_EPSILON = 1e-4
#: Working-set size (float64 values) of one chunk of the all-pairs signed-rank kernel.
CHUNK_VALUES = 1 << 18
#: Samples per chunk the all-pairs signed-rank kernel aims at (pairs fill the rest).
PAIR_CHUNK_SAMPLES = 256
#: Threads of the all-pairs signed-rank kernel.
THREADS = max(1, min(2, os.cpu_count() or 1))
#: With rope = 0, signed-rank draws whose left and right probabilities differ by at most
#: this much are ties (counted one half to each side).
TIE_TOLERANCE = 1e-12
#: Default number of posterior samples.
NSAMPLES = 50_000


@dataclass(frozen=True, eq=False)
class BayesianResult(ValueEquality):
    """Posterior probabilities of a Bayesian comparison of two sets of scores.

    Paired differences are ``a - b`` (``a``, ``b`` the two samples, higher is better).

    Attributes
    ----------
    left : float
        P(a - b > rope): ``a`` practically better (baycomp's first probability).
    rope : float
        ``P(|a - b| <= rope)``: practically equivalent. Zero when ``rope_width`` is 0.
    right : float
        P(a - b < -rope): ``b`` practically better (baycomp's last probability).
    rope_width : float
        Half-width of the region of practical equivalence, in score units.
    test : str
        ``"bayes-sign"``, ``"bayes-signed-rank"`` or ``"bayes-correlated-t"``.
    nsamples : int or None
        Monte Carlo sample size (None for the analytic correlated t-test).
    samples : numpy.ndarray or None
        ``nsamples x 3`` posterior draws of the probabilities of the (left,
        rope, right) regions (rows sum to 1), for the simplex plot; None for
        the correlated t-test.
    mean, scale, df : float or None
        Location, scale and degrees of freedom of the Student posterior of the
        correlated t-test; None otherwise. ``mean`` is baycomp's: the location of the mean
        of ``b - a``, the negative of that of ``a - b``.
    """

    left: float
    rope: float
    right: float
    rope_width: float
    test: str
    nsamples: int | None = None
    samples: np.ndarray | None = field(default=None, repr=False, compare=False)
    mean: float | None = None
    scale: float | None = None
    df: float | None = None

    def decision(self, threshold: float = 0.95) -> str:
        """``"left"``, ``"rope"`` or ``"right"`` if its probability reaches ``threshold``.

        Returns ``"undecided"`` otherwise.
        """
        for name in ("left", "right", "rope"):
            if getattr(self, name) >= threshold:
                return name
        return "undecided"


# --------------------------------------------------------------------------- validation


def _check_pair(x: Any, y: Any) -> tuple[np.ndarray, np.ndarray]:
    try:
        xa = np.asarray(x, dtype=float)
        ya = np.asarray(y, dtype=float)
    except (TypeError, ValueError):
        raise CdplotInputError("x and y must be sequences of numbers (scores).") from None
    if xa.ndim != 1 or ya.ndim != 1:
        raise CdplotInputError(
            f"x and y must be one-dimensional (one score per dataset or fold); got shapes "
            f"{xa.shape} and {ya.shape}."
        )
    if len(xa) != len(ya) or len(xa) == 0:
        raise CdplotInputError(
            f"x and y must be paired scores of the same non-zero length; got {len(xa)} and "
            f"{len(ya)}."
        )
    if not (np.isfinite(xa).all() and np.isfinite(ya).all()):
        raise CdplotInputError("x and y must be finite numbers; remove or fill missing scores.")
    return xa, ya


def check_real(value: Any, option: str, meaning: str) -> float:
    """``value`` as a float: a real number, never a bool or a string (``"0.1"``, ``True``).

    The message names the option as the user spells it (``rope=`` or ``--rope``) and says
    what it means (``meaning``).
    """
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        shown = repr(value) if isinstance(value, (str, bool, np.bool_)) else type(value).__name__
        raise CdplotInputError(
            f"{spell(option)} must be {meaning}, got {shown}; pass a number, not a string or "
            f"a bool."
        )
    return float(value)


def check_rope(rope: Any) -> float:
    """A valid rope half-width (a finite number >= 0), or a :class:`CdplotInputError`."""
    meaning = "a number >= 0 (half-width of the region of practical equivalence, in score units)"
    value = check_real(rope, "rope", meaning)
    if not (math.isfinite(value) and value >= 0.0):
        raise CdplotInputError(f"{spell('rope')} must be a finite number >= 0, got {rope!r}.")
    return value


def check_ratio(test_train_ratio: Any) -> float:
    """A valid ``test_train_ratio`` (a finite number > 0), or a :class:`CdplotInputError`."""
    meaning = (
        "a positive number (n_test / n_train of a fold, e.g. 1/9 for 10-fold cross-validation)"
    )
    ratio = check_real(test_train_ratio, "test_train_ratio", meaning)
    if not (math.isfinite(ratio) and ratio > 0.0):
        raise CdplotInputError(
            f"{spell('test_train_ratio')} must be {meaning}, got {test_train_ratio!r}."
        )
    return ratio


#: places of the sign test's pseudo-observation (baycomp's SignTest.LEFT/ROPE/RIGHT)
SIGN_PLACES = ("left", "rope", "right")


def check_prior(test: str, prior: Any, place: Any) -> tuple[float, float]:
    """``(strength, place)`` of the prior pseudo-observation; None gives the default.

    The sign test's place is a region (returned as 0, 1, 2 for left, rope, right), the
    signed-rank test's a difference in score units.
    """
    sign = test == "bayes-sign"
    strength = (SIGN_PRIOR if sign else SIGNED_RANK_PRIOR) if prior is None else prior
    try:
        value = float(strength)
    except (TypeError, ValueError):
        value = float("nan")
    if isinstance(strength, bool) or not (value > 0 and math.isfinite(value)):
        raise CdplotInputError(
            f"{spell('prior')} is the strength of the prior pseudo-observation, a positive "
            f"number, got {strength!r} (e.g. {spell('prior', 1.0 if sign else 0.5)}, the "
            "default of Benavoli et al. 2017)."
        )
    if sign:
        where = check_in_list(SIGN_PLACES, prior_place="rope" if place is None else place)
        return value, float(SIGN_PLACES.index(where))
    z0 = 0.0 if place is None else place
    try:
        z = float(z0)
    except (TypeError, ValueError):
        z = float("nan")
    if isinstance(z0, bool) or not math.isfinite(z):
        raise CdplotInputError(
            f"{spell('prior_place')} of the signed-rank test is the value of the prior "
            f"pseudo-observation (a score difference), a finite number, got {z0!r} "
            f"(e.g. {spell('prior_place', 0.0)}, the default)."
        )
    return value, z


def check_nsamples(nsamples: Any) -> int:
    """A valid Monte Carlo sample size, or a :class:`CdplotInputError`."""
    if isinstance(nsamples, bool) or not isinstance(nsamples, (int, np.integer)) or nsamples < 1:
        raise CdplotInputError(f"{spell('nsamples')} must be a positive integer, got {nsamples!r}.")
    return int(nsamples)


def check_threshold(threshold: Any) -> float:
    """A valid posterior threshold in (0.5, 1], or a :class:`CdplotInputError`."""
    value = check_real(threshold, "threshold", "a posterior probability in (0.5, 1]")
    if not 0.5 < value <= 1.0:
        raise CdplotInputError(
            f"{spell('threshold')} must be in (0.5, 1] so that at most one decision reaches "
            f"it, got {threshold!r}."
        )
    return value


def seed_of(random_state: Any) -> int:
    """An integer seed for :class:`numpy.random.RandomState` from ``random_state``.

    An integer is used as it is (so results equal baycomp's with the same
    ``random_state``); a :class:`numpy.random.Generator` gives one draw; None
    takes fresh entropy.
    """
    if random_state is None:
        return int(np.random.SeedSequence().generate_state(1)[0])
    if isinstance(random_state, np.random.Generator):
        return int(random_state.integers(2**32))
    if isinstance(random_state, (int, np.integer)) and not isinstance(random_state, bool):
        if not 0 <= random_state < 2**32:
            raise CdplotInputError(
                f"{spell('random_state')} must be an integer in [0, 2**32) "
                f"(0 to 4294967295), got {random_state!r}."
            )
        return int(random_state)
    raise CdplotInputError(
        f"{spell('random_state')} must be None, an integer seed or a numpy.random.Generator, "
        f"got {type(random_state).__name__}."
    )


# --------------------------------------------------------------------------- kernels


def _winner_fractions(samples: np.ndarray) -> np.ndarray:
    """Fractions of rows in which column 0, 1, 2 is the largest (first index on ties)."""
    winners = np.argmax(samples, axis=1)
    return np.bincount(winners, minlength=3).astype(float)


def _finish(counts: np.ndarray, nsamples: int, rope: float) -> tuple[float, float, float]:
    pl, pe, pr = (counts / nsamples).tolist()
    if rope > 0.0:
        return pl, pe, pr
    # rope = 0: no equivalence region; the probabilities of the two directions are
    # renormalised over the draws that pick one of them (baycomp's two-value answer)
    total = pl + pr
    if total == 0.0:
        return 0.5, 0.0, 0.5
    return pl / total, 0.0, pr / total


def _sign_alpha(
    diffs: np.ndarray, rope: float, prior: float = SIGN_PRIOR, place: int = 1
) -> np.ndarray:
    """Dirichlet parameters (left, rope, right) of the sign test, per row of ``diffs``.

    ``prior`` is the strength of the pseudo-observation, ``place`` its region (0 left,
    1 rope, 2 right; baycomp's ``prior=(place, strength)``).
    """
    nleft = np.count_nonzero(diffs < -rope, axis=-1)
    nright = np.count_nonzero(diffs > rope, axis=-1)
    nrope = diffs.shape[-1] - nleft - nright
    alpha = np.stack([nleft, nrope, nright], axis=-1).astype(float) + SIGN_EPSILON
    alpha[..., place] += prior
    return alpha


def _sign_counts(
    alpha: np.ndarray, nsamples: int, seed: int, keep: bool = False
) -> tuple[np.ndarray, np.ndarray | None]:
    rs = np.random.RandomState(seed)
    counts = np.zeros(3)
    chunk = max(1, CHUNK_VALUES // 3)
    kept = []
    for start in range(0, nsamples, chunk):
        draws = rs.dirichlet(alpha, min(chunk, nsamples - start))
        counts += _winner_fractions(draws)
        if keep:
            kept.append(draws)
    return counts, (np.concatenate(kept) if keep else None)


@dataclass(frozen=True)
class _Staircase:
    """Per pair, sorted order of ``[0, d]`` and where each Walsh-sum indicator switches.

    For the sorted values ``s`` (pseudo-observation 0 included), row ``i`` of the
    indicator ``s_i + s_j > 2 rope`` (as computed in floating point: rounding is
    monotone, so the row is monotone in ``j``) is a suffix of ``j`` starting at
    ``gt``; ``>=`` starts at ``ge``; ``-(s_i + s_j) > 2 rope`` is a prefix ending
    before ``lt``, ``>=`` before ``le``. These four are stored per *original*
    column (the value of row ``i`` at the column whose sorted position is ``i``).
    """

    order: np.ndarray
    gt: np.ndarray
    ge: np.ndarray
    lt: np.ndarray
    le: np.ndarray
    ties: bool

    def rows(self, a: int, b: int) -> _Staircase:
        return _Staircase(
            self.order[a:b], self.gt[a:b], self.ge[a:b], self.lt[a:b], self.le[a:b], self.ties
        )


def _staircase(diffs: np.ndarray, rope: float, z0: float = 0.0) -> _Staircase:
    p, n = diffs.shape
    values = np.concatenate([np.full((p, 1), z0), diffs], axis=1)
    order = np.argsort(values, axis=1, kind="stable")
    s = np.take_along_axis(values, order, axis=1)
    size = n + 1
    gt = np.empty((p, size), dtype=np.intp)
    ge = np.empty_like(gt)
    lt = np.empty_like(gt)
    le = np.empty_like(gt)
    twice = 2.0 * rope
    rows = max(1, CHUNK_VALUES // (size * size))
    for a in range(0, p, rows):
        b = min(p, a + rows)
        sums = s[a:b, :, None] + s[a:b, None, :]  # Walsh sums, as floating point gives them
        neg = -sums
        gt[a:b] = size - np.count_nonzero(sums > twice, axis=2)
        ge[a:b] = size - np.count_nonzero(sums >= twice, axis=2)
        lt[a:b] = np.count_nonzero(neg > twice, axis=2)
        le[a:b] = np.count_nonzero(neg >= twice, axis=2)
    ties = bool((gt != ge).any() or (lt != le).any())
    rank = np.empty_like(order)
    np.put_along_axis(rank, order, np.arange(size)[None, :], axis=1)
    gt, ge, lt, le = (np.take_along_axis(m, rank, axis=1) for m in (gt, ge, lt, le))
    return _Staircase(order, gt, ge, lt, le, ties)


def _dirichlet_chunks(
    seed: int, n: int, nsamples: int, rows: int, prior: float = SIGNED_RANK_PRIOR
) -> Iterator[np.ndarray]:
    """Dirichlet(prior, 1, ..., 1) weights of the pseudo-observation and N datasets, in chunks.

    Chunks are consecutive draws of one :class:`numpy.random.RandomState` stream, so their
    concatenation equals one call with ``size=nsamples`` (baycomp's draw).
    """
    rs = np.random.RandomState(seed)
    weights = np.ones(n + 1)
    weights[0] = prior
    for start in range(0, nsamples, rows):
        yield rs.dirichlet(weights, min(rows, nsamples - start))


def _signed_rank_regions(
    wt: np.ndarray, stair: _Staircase, rope: float
) -> tuple[np.ndarray, np.ndarray]:
    """Posterior probabilities of the left and right regions, shape (pairs, samples).

    ``wt`` holds the Dirichlet weights transposed, (N + 1) x samples.
    ``below = sum_ij w_i w_j H(-(s_i + s_j), 2 rope)`` and ``above`` likewise, with
    ``H(a, t) = [a > t] + [a = t] / 2``; each row sum over ``j`` is a prefix or suffix
    sum of the sorted weights, read off their cumulative sums. Samples are the last
    (contiguous) axis, so every step is a copy or an addition of whole rows.
    """
    p, size = stair.order.shape
    cum = np.empty((p, size + 1, wt.shape[1]))
    cum[:, 0] = 0.0
    for i in range(size):  # cumulative sums of each pair's sorted weights (row additions)
        np.add(cum[:, i], wt[stair.order[:, i]], out=cum[:, i + 1])
    rows = np.arange(p)[:, None]

    def weighted(strict: np.ndarray, loose: np.ndarray) -> np.ndarray:
        # sum_j w_j (cum[strict_j] + cum[loose_j]) / 2 over the original columns j: a
        # gather of whole rows, plus a sparse correction where a Walsh sum sits exactly on
        # the rope's edge (strict != loose, where H = 1/2)
        out = np.einsum("pns,ns->ps", cum[rows, strict], wt)
        if stair.ties:
            pp, jj = np.nonzero(strict != loose)
            if len(pp):
                edge = cum[pp, loose[pp, jj]] - cum[pp, strict[pp, jj]]
                edge *= wt[jj]
                starts = np.flatnonzero(np.r_[True, pp[1:] != pp[:-1]])
                out[pp[starts]] += 0.5 * np.add.reduceat(edge, starts, axis=0)
        return out

    total = cum[:, -1]
    above = total * total - weighted(stair.gt, stair.ge)
    below = weighted(stair.lt, stair.le) if rope > 0.0 else 1.0 - above
    return below, above


def _signed_rank_batch(
    wt: np.ndarray, stair: _Staircase, rope: float, keep: bool
) -> tuple[np.ndarray, np.ndarray | None]:
    """Winner counts (pairs x 3) of one chunk of samples, and the first pair's draws."""
    below, above = _signed_rank_regions(wt, stair, rope)
    if rope > 0.0:
        middle = 1.0 - below - above
        # np.argmax order: left wins ties with rope and right, rope wins ties with right
        left_wins = (below >= middle) & (below >= above)
        rope_wins = ~left_wins & (middle >= above)
        right_wins = ~left_wins & ~rope_wins
        counts = np.stack(
            [left_wins.sum(axis=1), rope_wins.sum(axis=1), right_wins.sum(axis=1)], axis=1
        ).astype(float)
    else:
        # left against right only; a draw where they are equal up to rounding (e.g. all
        # differences zero) counts one half to each side rather than to the rounding's pick
        middle = np.zeros_like(above)
        tie = np.abs(above - below) <= TIE_TOLERANCE
        half = 0.5 * tie.sum(axis=1)
        counts = np.stack(
            [
                (~tie & (below > above)).sum(axis=1) + half,
                0.0 * half,
                (~tie & (above > below)).sum(axis=1) + half,
            ],
            axis=1,
        )
    draws = np.stack([below[0], middle[0], above[0]], axis=1) if keep else None
    return counts, draws


def _signed_rank_counts(
    diffs: np.ndarray,
    rope: float,
    nsamples: int,
    seed: int,
    keep: bool = False,
    prior: tuple[float, float] = (SIGNED_RANK_PRIOR, 0.0),
) -> tuple[np.ndarray, np.ndarray | None]:
    """Winner counts (pairs x 3) of the signed-rank posterior; all pairs share the weights.

    Work is split into chunks of at most about :data:`CHUNK_VALUES` values (pairs x
    (N + 2) x samples), run on :data:`THREADS` threads (numpy releases the GIL).
    """
    p, n = diffs.shape
    size = n + 1
    stair = _staircase(diffs, rope, prior[1])
    counts = np.zeros((p, 3))
    pair_rows = max(1, min(p, CHUNK_VALUES // (PAIR_CHUNK_SAMPLES * (size + 1))))
    sample_rows = max(64, CHUNK_VALUES // (pair_rows * (size + 1)))
    batches = [(a, stair.rows(a, a + pair_rows)) for a in range(0, p, pair_rows)]
    kept = []
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=THREADS) as pool:
        for w in _dirichlet_chunks(seed, n, nsamples, sample_rows, prior[0]):
            wt = np.ascontiguousarray(w.T)
            jobs = [
                (a, pool.submit(_signed_rank_batch, wt, batch, rope, keep and a == 0))
                for a, batch in batches
            ]
            for a, job in jobs:
                chunk_counts, draws = job.result()
                counts[a : a + len(chunk_counts)] += chunk_counts
                if draws is not None:
                    kept.append(draws)
    return counts, (np.concatenate(kept) if keep else None)


# --------------------------------------------------------------------------- public tests


@renamed_keywords(x="a", y="b")
def bayes_sign(
    a: Any,
    b: Any,
    rope: float = 0.0,
    *,
    nsamples: int = NSAMPLES,
    random_state: int | np.random.Generator | None = None,
    prior: float = SIGN_PRIOR,
    prior_place: str = "rope",
) -> BayesianResult:
    """Bayesian sign test (Benavoli et al. 2014, 2017) of paired scores over datasets.

    Parameters
    ----------
    a, b : array_like
        Scores of two algorithms, one per dataset (paired), higher is better. Paired
        differences are ``a - b``: ``left`` favours ``a``, ``right`` favours ``b`` (as
        baycomp's ``x``, ``y``). The keywords ``x=``/``y=`` are deprecated aliases of
        ``a=``/``b=``.
    rope : float, default 0.0
        Half-width of the region of practical equivalence, in score units
        (e.g. 0.01 for one point of accuracy on a 0-1 scale).
    nsamples : int, default 50000
        Number of posterior samples.
    random_state : int, numpy.random.Generator or None
        Seed. An integer gives the same draws as baycomp's ``random_state``.
    prior : float, default 1.0
        Strength of the Dirichlet-process prior's pseudo-observation (baycomp's
        ``prior``; Benavoli et al. 2017).
    prior_place : {"rope", "left", "right"}, default "rope"
        Region of the pseudo-observation (baycomp's ``prior=(place, strength)``): "left"
        favours ``a``, "right" ``b``.

    Returns
    -------
    BayesianResult
        ``left`` = P(a - b > rope), ``rope`` = P(\\|a - b\\| <= rope), ``right`` =
        P(a - b < -rope), and the posterior ``samples``.

    Raises
    ------
    CdplotInputError
        For unpaired or non-finite scores, a negative rope, a bad sample size or seed.

    Notes
    -----
    Each difference ``d = a - b`` falls in one of three regions: left (``d > rope``,
    ``a`` better), rope (``|d| <= rope``) or right (``d < -rope``, ``b`` better), with
    counts ``n_l, n_e, n_r``.
    Under a Dirichlet-process prior whose pseudo-observation (strength 1) lies
    in the rope, the posterior of the regions' probabilities is
    ``Dirichlet(n_l + eps, n_e + 1 + eps, n_r + eps)`` with ``eps = 1e-4``
    (baycomp's choices). Each reported probability is the fraction of the
    ``nsamples`` draws in which that region is the most probable. With
    ``rope = 0`` there is no equivalence region: ``rope`` is 0 and ``left``,
    ``right`` are renormalised over the draws won by one of them (as
    baycomp's two-value answer; the Monte Carlo error is that of a binomial
    proportion, ``sqrt(p(1 - p)/nsamples)``).

    References
    ----------
    A. Benavoli, G. Corani, F. Mangili, M. Zaffalon and F. Ruggeri, "A Bayesian
    Wilcoxon signed-rank test based on the Dirichlet process", ICML 2014.
    A. Benavoli, G. Corani, J. Demšar and M. Zaffalon, "Time for a change: a
    tutorial for comparing multiple classifiers through Bayesian analysis",
    JMLR 18(77), 2017.

    Examples
    --------
    >>> import cdplot
    >>> d = cdplot.datasets.load("demsar2006")
    >>> res = cdplot.stats.bayes_sign(d["C4.5"], d["C4.5+m"], rope=0.01, random_state=1)
    >>> round(res.rope, 2), round(res.right, 2)
    (0.79, 0.21)
    """
    xa, ya = _check_pair(a, b)
    rope = check_rope(rope)
    nsamples = check_nsamples(nsamples)
    strength, place = check_prior("bayes-sign", prior, prior_place)
    alpha = _sign_alpha(ya - xa, rope, strength, int(place))
    counts, samples = _sign_counts(alpha, nsamples, seed_of(random_state), keep=True)
    left, middle, right = _finish(counts, nsamples, rope)
    return BayesianResult(left, middle, right, rope, "bayes-sign", nsamples, samples)


@renamed_keywords(x="a", y="b")
def bayes_signed_rank(
    a: Any,
    b: Any,
    rope: float = 0.0,
    *,
    nsamples: int = NSAMPLES,
    random_state: int | np.random.Generator | None = None,
    prior: float = SIGNED_RANK_PRIOR,
    prior_place: float = 0.0,
) -> BayesianResult:
    """Bayesian signed-rank test (Benavoli et al. 2014, 2017) of paired scores over datasets.

    Parameters
    ----------
    a, b : array_like
        Scores of two algorithms, one per dataset (paired), higher is better. Paired
        differences are ``a - b``: ``left`` favours ``a``, ``right`` favours ``b`` (as
        baycomp's ``x``, ``y``). The keywords ``x=``/``y=`` are deprecated aliases of
        ``a=``/``b=``.
    rope : float, default 0.0
        Half-width of the region of practical equivalence, in score units.
    nsamples : int, default 50000
        Number of posterior samples.
    random_state : int, numpy.random.Generator or None
        Seed. An integer gives the same draws as baycomp's ``random_state``.
    prior : float, default 0.5
        Strength of the prior pseudo-observation (baycomp's ``prior``).
    prior_place : float, default 0.0
        Value of the pseudo-observation ``d_0`` in score units (Benavoli et al. 2014 put
        it at 0, as baycomp does). It is a value of ``b - a`` (baycomp's ``y - x``): a
        positive ``prior_place`` favours ``b``.

    Returns
    -------
    BayesianResult
        ``left`` = P(a - b > rope), ``rope`` = P(\\|a - b\\| <= rope), ``right`` =
        P(a - b < -rope), and the posterior ``samples``.

    Raises
    ------
    CdplotInputError
        For unpaired or non-finite scores, a negative rope, a bad sample size or seed.

    Notes
    -----
    The differences ``d_i = a_i - b_i`` (``i = 1..N``) and a prior pseudo-observation
    ``d_0 = 0`` of strength 0.5 get Dirichlet weights ``w ~ Dirichlet(0.5, 1, ..., 1)``;
    one posterior draw of the three regions' probabilities is (Walsh averages)

    .. math:: \\theta_{left} = \\sum_{i,j=0}^{N} w_i w_j H(d_i + d_j - 2r),\\quad
              \\theta_{right} = \\sum_{i,j} w_i w_j H(-d_i - d_j - 2r),

    ``theta_rope = 1 - theta_left - theta_right``, with ``H`` the Heaviside
    step (1/2 at 0) and ``r`` the rope. Each reported probability is the
    fraction of draws in which its region is the largest; with ``rope = 0``
    only left and right compete (``rope`` is 0; a draw in which they are equal
    to within 1e-12, e.g. when all differences are zero, counts one half to
    each, where baycomp gives it to whichever side rounding favours). The double sum is evaluated
    in O(N) per draw: for sorted ``d`` each row of the indicator is a prefix or
    suffix, so it is a difference of cumulative weight sums.

    References
    ----------
    A. Benavoli, G. Corani, F. Mangili, M. Zaffalon and F. Ruggeri, "A Bayesian
    Wilcoxon signed-rank test based on the Dirichlet process", ICML 2014.
    A. Benavoli, G. Corani, J. Demšar and M. Zaffalon, "Time for a change",
    JMLR 18(77), 2017.

    Examples
    --------
    >>> import cdplot
    >>> d = cdplot.datasets.load("demsar2006")
    >>> res = cdplot.stats.bayes_signed_rank(d["C4.5"], d["C4.5+m"], rope=0.01, random_state=1)
    >>> round(res.left, 3), round(res.rope, 3), round(res.right, 3)
    (0.0, 0.331, 0.669)
    """
    xa, ya = _check_pair(a, b)
    rope = check_rope(rope)
    nsamples = check_nsamples(nsamples)
    counts, samples = _signed_rank_counts(
        (ya - xa)[None, :],
        rope,
        nsamples,
        seed_of(random_state),
        keep=True,
        prior=check_prior("bayes-signed-rank", prior, prior_place),
    )
    left, middle, right = _finish(counts[0], nsamples, rope)
    return BayesianResult(left, middle, right, rope, "bayes-signed-rank", nsamples, samples)


@renamed_keywords(x="a", y="b")
def bayes_correlated_t(
    a: Any, b: Any, rope: float = 0.0, *, test_train_ratio: float
) -> BayesianResult:
    """Bayesian correlated t-test of two classifiers' cross-validation scores on one dataset.

    Parameters
    ----------
    a, b : array_like
        Scores of the two classifiers on the same folds (all runs of a repeated
        cross-validation, concatenated), higher is better. Paired differences are
        ``a - b``: ``left`` favours ``a``, ``right`` favours ``b`` (as baycomp's ``x``,
        ``y``). The keywords ``x=``/``y=`` are deprecated aliases of ``a=``/``b=``.
    rope : float, default 0.0
        Half-width of the region of practical equivalence, in score units.
    test_train_ratio : float
        ``n_test / n_train`` of one fold, e.g. ``1/9`` for 10-fold cross-validation.

    Returns
    -------
    BayesianResult
        ``left``, ``rope``, ``right`` and the Student posterior's ``mean``,
        ``scale`` and ``df``.

    Raises
    ------
    CdplotInputError
        For unpaired or non-finite scores, fewer than two folds, a negative rope or a
        ``test_train_ratio`` that is not a positive number.

    Notes
    -----
    The n fold differences are correlated with ``rho = n_test / n_total``
    (overlapping training sets). With a non-informative prior the posterior of
    the mean difference ``mu`` (of ``b - a``, baycomp's sign: ``mean``) is Student
    (Corani & Benavoli 2015)

    .. math:: \\mu \\sim t_{n-1}\\left(\\bar d,\\;
              \\left(\\frac{1}{n} + \\frac{\\rho}{1-\\rho}\\right) s^2\\right),

    ``s^2`` the sample variance of the differences; ``rho / (1 - rho)`` is
    ``test_train_ratio`` (Nadeau and Bengio's correction). With ``T`` its distribution
    function, ``left = T(-rope)`` = P(mean ``a - b`` > rope), ``right = 1 - T(rope)``,
    ``rope = 1 - left - right``. With
    ``rope = 0``, ``rope`` is 0. When all differences are equal, the
    posterior is a point mass at their value (baycomp's convention; 1/2 each
    side for a zero difference and ``rope = 0``). Equals baycomp's
    ``CorrelatedTTest(x, y, rope, runs)`` when ``test_train_ratio = 1 / (n /
    runs - 1)``.

    References
    ----------
    G. Corani and A. Benavoli, "A Bayesian approach for comparing
    cross-validated algorithms on multiple data sets", Machine Learning
    100(2-3), 2015. C. Nadeau and Y. Bengio, "Inference for the
    generalization error", Machine Learning 52(3), 2003.

    Examples
    --------
    >>> from cdplot.stats import bayes_correlated_t
    >>> a = [0.80, 0.82, 0.79, 0.81, 0.83, 0.80, 0.78, 0.82, 0.81, 0.80]
    >>> b = [0.83, 0.84, 0.80, 0.84, 0.85, 0.82, 0.80, 0.85, 0.82, 0.83]
    >>> res = bayes_correlated_t(a, b, rope=0.01, test_train_ratio=1 / 9)
    >>> res.right > 0.9
    True
    """
    xa, ya = _check_pair(a, b)
    rope = check_rope(rope)
    n = len(xa)
    if n < 2:
        raise CdplotInputError("the correlated t-test needs at least two folds (got one).")
    ratio = check_ratio(test_train_ratio)
    # the posterior is invariant to scaling scores and rope by one power of two (exact):
    # scores near +-1e308 are brought below 1 so that differences and variances stay finite
    top = max(float(np.max(np.abs(xa))), float(np.max(np.abs(ya))))
    e = math.frexp(top)[1] if top > 0 else 0
    d = np.ldexp(ya, -e) - np.ldexp(xa, -e)
    mean = float(np.mean(d))
    var = float(np.var(d, ddof=1)) * (1.0 / n + ratio)
    df = float(n - 1)
    scale = math.sqrt(var)
    rope_scaled = math.ldexp(rope, -e)
    posterior = _correlated_t_regions(mean, var, scale, df, rope_scaled)
    with np.errstate(over="ignore"):
        mean, scale = float(np.ldexp(mean, e)), float(np.ldexp(scale, e))
    return BayesianResult(*posterior, rope, "bayes-correlated-t", None, None, mean, scale, df)


def _correlated_t_regions(
    mean: float, var: float, scale: float, df: float, rope: float
) -> tuple[float, float, float]:
    """(left, rope, right) of the Student t posterior of the mean difference."""
    from scipy import stats  # scipy.stats is heavy: loaded only when needed

    if var == 0.0:
        if rope == 0.0:
            right = float(mean > 0) + 0.5 * float(mean == 0)
            left, middle = 1.0 - right, 0.0
        else:
            left, right = float(mean < -rope), float(mean > rope)
            middle = 1.0 - left - right
    else:
        left = float(stats.t.cdf(-rope, df, loc=mean, scale=scale))
        right = float(stats.t.sf(rope, df, loc=mean, scale=scale))
        middle = 0.0 if rope == 0.0 else 1.0 - left - right
        if rope == 0.0:
            left = 1.0 - right
    return left, middle, right


# --------------------------------------------------------------------------- all pairs


def all_pairs_posteriors(
    oriented: np.ndarray,
    test: str,
    rope: float,
    nsamples: int,
    random_state: Any,
    prior: tuple[float, float] | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """P(row practically better than column) and P(equivalent), k x k, for all pairs.

    ``oriented`` is N x k with higher = better. Pair (i, j), i < j, is the two-sample
    test with ``x`` = column j and ``y`` = column i and the same seed, so entry
    ``[i, j]`` of the first matrix is its ``right``, ``[j, i]`` its ``left``.
    """
    n, k = oriented.shape
    iu, ju = np.triu_indices(k, 1)
    seed = seed_of(random_state)
    better = np.full((k, k), np.nan)
    equivalent = np.full((k, k), np.nan)
    if len(iu) == 0:
        return better, equivalent
    if prior is None:
        prior = check_prior(test, None, None)
    probs = np.empty((len(iu), 3))
    # pair by pair diffs, in chunks so that pairs x N stays bounded
    rows = max(1, CHUNK_VALUES // max(n, 1))
    if test == "bayes-sign":
        cache: dict[tuple[float, float, float], tuple[float, float, float]] = {}
        for a in range(0, len(iu), rows):
            diffs = oriented[:, iu[a : a + rows]].T - oriented[:, ju[a : a + rows]].T
            for r, alpha in enumerate(_sign_alpha(diffs, rope, prior[0], int(prior[1]))):
                key = tuple(alpha.tolist())
                if key not in cache:
                    counts, _ = _sign_counts(alpha, nsamples, seed)
                    cache[key] = _finish(counts, nsamples, rope)
                probs[a + r] = cache[key]
    else:
        for a in range(0, len(iu), rows):
            diffs = oriented[:, iu[a : a + rows]].T - oriented[:, ju[a : a + rows]].T
            counts, _ = _signed_rank_counts(diffs, rope, nsamples, seed, prior=prior)
            for r in range(len(counts)):
                probs[a + r] = _finish(counts[r], nsamples, rope)
    better[iu, ju] = probs[:, 2]
    better[ju, iu] = probs[:, 0]
    equivalent[iu, ju] = probs[:, 1]
    equivalent[ju, iu] = probs[:, 1]
    return better, equivalent


def decision_codes(
    a_better: np.ndarray, equivalent: np.ndarray, b_better: np.ndarray, threshold: float
) -> np.ndarray:
    """The decision on each pair at the posterior ``threshold``, as indices of
    :data:`DECISIONS`: "A better" when P(a practically better) reaches it, else "B better",
    else "equivalent", else "undecided" (above 0.5 at most one region reaches it)."""
    out = np.full(np.shape(a_better), 3, dtype=np.int8)
    out[np.asarray(equivalent) >= threshold] = 1
    out[np.asarray(b_better) >= threshold] = 2
    out[np.asarray(a_better) >= threshold] = 0
    return out


def decide(better: np.ndarray, equivalent: np.ndarray, threshold: float) -> np.ndarray:
    """Decision matrix: entry [a, b] is "A better" (a = row), "B better", "equivalent" or
    "undecided" at the posterior ``threshold``; empty strings on the diagonal."""
    codes = decision_codes(better, equivalent, better.T, threshold)
    out = np.asarray(DECISIONS, dtype=object)[codes]
    np.fill_diagonal(out, "")
    return out


class BayesSettings:
    """The checked options of a Bayesian procedure: rope, threshold, nsamples, prior, seed.

    ``seed`` is None unless the procedure names ``random_state`` (then every table uses it).
    """

    def __init__(
        self, test: str, options: dict[str, Any], default_nsamples: int = NSAMPLES
    ) -> None:
        self.test = test
        self.rope = check_rope(options.get("rope", 0.0))
        self.nsamples = check_nsamples(options.get("nsamples", default_nsamples))
        self.threshold = check_threshold(options.get("threshold", 0.95))
        given = options.get("random_state")
        self.seed = None if given is None else seed_of(given)  # a Generator: one draw
        # one prior for every pair (a place of its own would depend on the pair's order)
        self.prior = check_prior(test, options.get("prior"), None)


def bayes_comparison(
    test: str, oriented: np.ndarray, names: list[str], options: dict[str, Any]
) -> tuple[np.ndarray, np.ndarray, dict[str, Any]]:
    """The Bayesian step of :func:`cdplot.compare`.

    Returns the k x k statistic matrix (P(row practically better)), the k x k boolean
    matrix of pairs decided different, and the fields ``rope``, ``threshold``,
    ``posterior_better``, ``posterior_equivalent`` and ``decisions`` (numpy arrays, input
    order) of the result's :class:`~cdplot.stats._parts.Posterior` part.
    """
    settings = BayesSettings(test, options)
    rope, threshold = settings.rope, settings.threshold
    # one seed: every pair draws from it (fresh entropy without random_state)
    seed = seed_of(None) if settings.seed is None else settings.seed
    better, equivalent = all_pairs_posteriors(
        oriented, test, rope, settings.nsamples, seed, settings.prior
    )
    decisions = decide(better, equivalent, threshold)
    worse = better.T
    different = (better >= threshold) | (worse >= threshold)
    np.fill_diagonal(different, False)
    fields = {
        "rope": rope,
        "threshold": threshold,
        "posterior_better": better,
        "posterior_equivalent": equivalent,
        "decisions": decisions,
    }
    return better, different, fields


def bayes_frame(result: Any) -> Any:
    """Tidy table of a Bayesian comparison: one row per pair, better-ranked first.

    Columns ``algorithm_1``, ``algorithm_2``, ``p_better`` (P(algorithm_1 practically
    better)), ``p_equivalent``, ``p_worse``, ``decision`` ("A better" means algorithm_1),
    ``significant`` (decided different), ``wins``, ``ties`` and ``losses``; no p-values.
    """
    import pandas as pd

    from ._frames import matrix, pair_arrays

    pairs = pair_arrays(result)
    part, wtl, names = result._pairwise, result.wins, result.algorithms
    f, s = pairs.first, pairs.second
    better = np.asarray(part.posterior_better, dtype=float)
    data = {
        "algorithm_1": pairs.names[f],
        "algorithm_2": pairs.names[s],
        "p_better": better[f, s],
        "p_equivalent": np.asarray(part.posterior_equivalent, dtype=float)[f, s],
        "p_worse": better[s, f],
        "decision": [str(v) for v in np.asarray(part.decisions, dtype=object)[f, s]],
        "significant": pairs.significant.astype(bool),
        "wins": matrix(wtl.wins, names)[f, s].astype(int),
        "ties": matrix(wtl.ties, names)[f, s].astype(int),
        "losses": matrix(wtl.losses, names)[f, s].astype(int),
    }
    return pd.DataFrame(data)


@dataclass(frozen=True)
class Decided:
    """A Bayesian comparison's decisions, best-ranked algorithm first within a pair.

    ``better`` holds ``(winner, loser, P(winner practically better))``, ``equivalent``
    ``(a, b, P(rope))``; ``undecided`` counts the other pairs.
    """

    better: list[tuple[str, str, float]]
    equivalent: list[tuple[str, str, float]]
    undecided: int


def decided_pairs(result: Any, frame: Any = None) -> Decided:
    """The pairs a Bayesian ``result`` decided, with their posterior probabilities.

    ``frame`` is :func:`bayes_frame` of the result, if the caller has it already.
    """
    frame = bayes_frame(result) if frame is None else frame
    better, equivalent = [], []
    for row in frame.itertuples(index=False):
        a, b = str(row.algorithm_1), str(row.algorithm_2)
        if row.decision == "A better":
            better.append((a, b, float(row.p_better)))
        elif row.decision == "B better":
            better.append((b, a, float(row.p_worse)))
        elif row.decision == "equivalent":
            equivalent.append((a, b, float(row.p_equivalent)))
    undecided = int((frame["decision"] == "undecided").sum())
    return Decided(better, equivalent, undecided)


def __getattr__(name: str) -> Any:
    # the sentences moved to the report layer (facts in stats, words in report)
    if name == "bayes_note":
        from ..report._notes import bayes_note

        return bayes_note
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

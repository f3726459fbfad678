"""Exact Bergmann-Hommel adjusted p-values over the exhaustive sets of pairwise hypotheses.

When k algorithms are compared pairwise, the m = k(k-1)/2 null hypotheses
"algorithm i performs like algorithm j" are logically related: a set of them can
be true together exactly when "performs like" is an equivalence relation on the
algorithms, i.e. when the true hypotheses are all the within-group pairs of a
partition of the algorithms into groups. Such an index set is *exhaustive*
(García & Herrera 2008, Definition 1); there is one for every set partition except
the all-singletons one, Bell(k) - 1 in all.

This module is the driver of an exact, fast engine for Bergmann-Hommel adjusted
p-values that never lists the exhaustive sets (notation and proofs below; the polynomial
cases in ``_bh_staircase.py``, the general case in ``_bh_general.py``, the search budget
in ``_bh_budget.py``). Shaffer's static procedure, which uses only the possible numbers
of true hypotheses, is in ``_shaffer.py``.
"""

from __future__ import annotations

import math
import sys
import time
import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np

from .._errors import CdplotInputError
from ._bh_budget import BH_DEFAULT_BUDGET, _Budget
from ._bh_general import _GeneralEngine
from ._bh_staircase import _is_robinson, _robinson_order, _RobinsonEngine, _seriation
from ._shaffer import count_exhaustive_sets, shaffer_counts, shaffer_multipliers

__all__ = [
    "bergmann_hommel",
    "count_exhaustive_sets",
    "shaffer_counts",
    "shaffer_multipliers",
]

#: marks a keyword that was not passed (the deprecated ``budget_seconds``)
_RENAMED: Any = object()

#: default time budget of :func:`bergmann_hommel`, in seconds (one constant: _adjust's)
DEFAULT_BUDGET_S = BH_DEFAULT_BUDGET

#: a progress bar appears only after this many seconds (and only on a terminal)
_PROGRESS_DELAY_S = 2.0


# ---------------------------------------------------------------------------
# Bergmann-Hommel
#
# Notation. p_e is the raw p-value of pair e; a partition P of the algorithms has
# within-group pairs I(P) (an exhaustive set), size s(P) = |I(P)| and minimum
# m(P) = min_{e in I(P)} p_e. The definition is
#     APV*_e = max_{P : e in I(P)} s(P) m(P),   APV_e = min(1, max_{f : p_f <= p_e} APV*_f).
#
# Step 1 (one problem per distinct p-value, not per hypothesis). The union over f
# with p_f <= x of {P : f in I(P)} is {P : m(P) <= x}, so
#     APV_e = min(1, D(p_e)),   D(x) = max_{P : m(P) <= x} s(P) m(P).
# Let t_1 < ... < t_L be the distinct p-values ("levels") and
#     c(t) = max{s(P) : m(P) = t}   (0 if there is no such P).
# Then D(t_l) = max(D(t_{l-1}), t_l c(t_l)): one number per level, in increasing order.
#
# Step 2 (thresholds and cliques). Let G_t be the graph on the algorithms whose edges
# are the pairs with p >= t. m(P) >= t iff every group of P is a clique of G_t, and
# m(P) = t iff moreover some group contains a "level-t" edge (p = t). So c(t) is a
# cluster-deletion problem (maximise sum_groups C(|g|, 2) over partitions into cliques)
# with the side condition that a level-t edge is used. g(t) denotes the same maximum
# without the side condition; c(t) <= g(t) <= |E(G_t)|.
#
# Step 3 (pruning, exact in floating point). Only t c(t) > D(t_{l-1}) changes D. As
# s -> t*s is non-decreasing in floating point, t*U <= D for an upper bound U of c(t)
# proves the level changes nothing; and max_s t*s = t*max_s, so the value computed is
# the very float t_l * c(t_l) a brute-force enumeration gets. Once D >= 1 every later
# APV is 1 and the search stops.
#
# Two exact engines compute c(t):
# * _RobinsonEngine, when the p-value matrix is a Robinson matrix in some order of the
#   algorithms (non-increasing away from the diagonal, in every row and column). P-values
#   of the mean-ranks test are: p is a decreasing function of |R_i - R_j|, so ordering by
#   average rank works. Then every G_t is a unit interval graph, a set is a clique iff
#   its first and last member (in the order) are adjacent, and optimal partitions can be
#   taken contiguous (proof at _optima). This engine is polynomial.
# * _GeneralEngine, for any matrix, level by level, in three exact ways (proofs in the
#   docstrings):
#   - if G_t is a unit interval graph (recognised by three LexBFS sweeps and verified),
#     the programmes of the Robinson engine (class _Staircase) run on its unit interval
#     order: polynomial. The order is kept while the removed edges are corners of its
#     staircase. Wilcoxon p-values at large N give such graphs at most levels;
#   - otherwise a branching on edges of induced paths a - x - b (cut x - a, or keep x and
#     a together) down to unit interval graphs, bounded by the unit interval closure of
#     each graph; it gives up after a fixed number of graphs;
#   - then an exact dynamic programme over vertex sets with bit masks, split into
#     connected components, memoised across levels, with bounds (edge counts, greedy
#     colourings) and a dominance rule that cut the clique choices.


def _validate(pvalues: np.ndarray) -> np.ndarray:
    p = np.asarray(pvalues, dtype=float)
    if p.ndim != 2 or p.shape[0] != p.shape[1]:
        raise CdplotInputError(
            f"pvalues must be a square k x k matrix, got shape {p.shape}; pass the full "
            f"symmetric matrix of the pairwise p-values."
        )
    k = p.shape[0]
    iu = np.triu_indices(k, 1)
    upper, lower = p[iu], p.T[iu]
    if np.isnan(upper).any() or np.isnan(lower).any():
        raise CdplotInputError(
            "pvalues has NaN outside the diagonal; every pair needs a p-value (only the "
            "diagonal may be NaN)."
        )
    if not np.array_equal(upper, lower):
        raise CdplotInputError(
            "pvalues must be symmetric (p[i, j] == p[j, i]); pass one p-value per pair, mirrored."
        )
    if upper.size and (upper.min() < 0.0 or upper.max() > 1.0):
        raise CdplotInputError("pvalues must lie in [0, 1]; pass p-values, not statistics.")
    return p


def bergmann_hommel(
    pvalues: np.ndarray,
    *,
    bh_budget: float | None = DEFAULT_BUDGET_S,
    progress: bool | None = None,
    order: Sequence[int] | None = None,
    budget_seconds: Any = _RENAMED,
    max_steps: int | None = None,
) -> np.ndarray:
    """Bergmann-Hommel adjusted p-values for all pairwise comparisons, exact for any k.

    Parameters
    ----------
    pvalues : array_like, shape (k, k)
        Symmetric matrix of raw pairwise p-values in [0, 1]; the diagonal is ignored
        (it may be NaN).
    bh_budget : float or None, default 10
        Time budget in seconds (wall clock, from the call). The search stops with
        :class:`BergmannHommelLimitError` once it is exceeded, so a request that
        cannot finish fails instead of hanging; the clock is read every few
        milliseconds of work, so the budget is kept to well within 20 %. None means
        no limit. :func:`cdplot.compare` passes its ``bh_budget`` (the same name).
    progress : bool or None, optional
        Show a tqdm progress bar over the distinct p-values. None (default) shows
        it only when standard error is a terminal and the run has already taken
        more than two seconds.
    order : sequence of int, optional
        A hint: an order of the algorithms in which ``pvalues`` is expected to be a
        Robinson matrix (non-increasing away from the diagonal), e.g. by average rank
        for mean-ranks p-values, whose p is a decreasing function of the rank
        distance. It is verified exactly, so a wrong hint costs nothing but speed.
        Needed when many p-values underflow to 0, since the order can then not
        always be recovered from the p-values alone; :func:`cdplot.compare` passes
        it for ``test="mean-ranks"``.
    budget_seconds : float or None, optional
        Deprecated old name of ``bh_budget`` (DeprecationWarning).
    max_steps : int or None, optional
        Deprecated (DeprecationWarning): a budget in search steps (about a million a
        second) as well as ``bh_budget``; the budget is given in seconds, by ``bh_budget``.

    Returns
    -------
    numpy.ndarray, shape (k, k)
        Symmetric matrix of adjusted p-values with a NaN diagonal.

    Raises
    ------
    CdplotInputError
        If ``pvalues`` is not a square symmetric matrix of numbers in [0, 1], or
        ``bh_budget`` is not a positive number of seconds.
    BergmannHommelLimitError
        If the exact computation exceeds ``bh_budget``; the
        message suggests ``correction="shaffer"`` or ``"holm"`` and a larger budget.

    See Also
    --------
    shaffer_multipliers : Shaffer's static procedure, a cheaper, less powerful bound.
    exhaustive_sets : the exhaustive sets, listed (small k only).

    Notes
    -----
    With ``p_e`` the raw p-value of pair e and I ranging over the exhaustive sets
    (the within-group pairs of each partition of the algorithms other than all
    singletons; García & Herrera 2008, §2.1),

    .. math:: APV^*_e = \\min\\bigl(1, \\max_{I \\ni e} |I| \\min_{f \\in I} p_f\\bigr),
              \\qquad APV_e = \\max_{f : p_f \\le p_e} APV^*_f .

    The running maximum is taken over every hypothesis whose raw p-value is not
    larger, so hypotheses with equal raw p-values get equal APVs (an order-based
    running maximum, as in R scmamp, can give tied hypotheses different APVs). This
    reproduces García & Herrera's Table 5 (without the running maximum, H6 would be
    0.0303 instead of 0.0319).

    The exhaustive sets are never listed. Since the union over f with p_f <= x of
    the sets containing f is the set of partitions whose smallest within-group
    p-value is at most x, one maximisation per distinct p-value t suffices:
    the largest number of within-group pairs of a partition whose groups are cliques
    of the graph of pairs with p >= t and which uses a pair with p = t (a cluster
    deletion problem). P-values ordered like a Robinson matrix (as those of the
    mean-ranks test are, in average-rank order) are solved by polynomial dynamic
    programmes; any other matrix by an exact branch-and-bound over clique partitions
    with memoisation. Levels whose bound cannot raise the running maximum are
    skipped, and the search stops once it reaches 1. The result is identical, to
    the last bit, to enumerating every partition. See the module source for the
    proofs.

    References
    ----------
    .. [1] G. Bergmann and G. Hommel, "Improvements of general multiple test
       procedures for redundant systems of hypotheses", in Multiple Hypotheses
       Testing, Springer, 1988, pp. 100-115.
    .. [2] S. García and F. Herrera, "An extension on 'Statistical comparisons of
       classifiers over multiple data sets' for all pairwise comparisons", JMLR
       9:2677-2694, 2008.

    Examples
    --------
    >>> import numpy as np
    >>> p = np.array([[np.nan, 0.01, 0.04], [0.01, np.nan, 0.5], [0.04, 0.5, np.nan]])
    >>> bergmann_hommel(p).round(3)
    array([[ nan, 0.03, 0.04],
           [0.03,  nan, 0.5 ],
           [0.04, 0.5 ,  nan]])
    """
    if budget_seconds is not _RENAMED:
        warnings.warn(
            "bergmann_hommel(budget_seconds=...) is renamed bh_budget=, as in compare(); "
            "budget_seconds will be removed in the next release.",
            DeprecationWarning,
            stacklevel=2,
        )
        bh_budget = budget_seconds
    if max_steps is not None:
        warnings.warn(
            "bergmann_hommel(max_steps=...) is deprecated; the budget is bh_budget= in "
            "seconds, as in compare(). max_steps will be removed in the next release.",
            DeprecationWarning,
            stacklevel=2,
        )
    budget_seconds = bh_budget
    if budget_seconds is not None:
        try:
            seconds = float(budget_seconds)
        except (TypeError, ValueError):
            seconds = math.nan
        if not seconds > 0:  # also NaN
            raise CdplotInputError(
                f"the Bergmann-Hommel time budget must be a positive number of seconds "
                f"(or None for no limit), got {budget_seconds!r}."
            )
        budget_seconds = seconds
    return _bergmann_hommel(
        _validate(pvalues),
        max_steps=max_steps,
        progress=progress,
        hint=order,
        budget_seconds=budget_seconds,
    )


def _bergmann_hommel(
    p: np.ndarray,
    *,
    max_steps: int | None = None,
    progress: bool | None = None,
    engine: str = "auto",
    hint: Sequence[int] | None = None,
    budget_seconds: float | None = None,
) -> np.ndarray:
    """bergmann_hommel on a validated matrix; ``engine`` ("auto", "robinson" or
    "general") lets the tests run each engine on the same input."""
    if engine not in ("auto", "robinson", "general"):
        raise CdplotInputError(
            f"{engine!r} is not a valid engine; use 'auto', 'robinson' or 'general'."
        )
    k = p.shape[0]
    out = np.full((k, k), np.nan)
    if k < 2:
        return out
    rows, cols = np.triu_indices(k, 1)
    levels, level_of = np.unique(p[rows, cols], return_inverse=True)
    budget = _Budget(max_steps, k, budget_seconds)
    order = None
    if engine != "general":
        if hint is not None and _is_robinson(p, [int(v) for v in hint]):
            order = [int(v) for v in hint]
        else:
            order = _robinson_order(p)
    solver: _RobinsonEngine | _GeneralEngine
    if order is not None:
        solver = _RobinsonEngine(p[np.ix_(order, order)], levels, budget)
    elif engine == "robinson":
        raise CdplotInputError(
            "pvalues is not a Robinson matrix in any order this search finds; use "
            "engine='general' or 'auto'."
        )
    else:
        level_matrix = np.zeros((k, k), dtype=np.int64)
        level_matrix[rows, cols] = level_of
        level_matrix[cols, rows] = level_of
        solver = _GeneralEngine(level_matrix, len(levels), budget, _seriation(p))

    if progress is None:
        isatty = getattr(sys.stderr, "isatty", None)
        show = bool(isatty and isatty())
    else:
        show = progress
    values = np.ones(len(levels))  # levels after the maximum reaches 1 stay at 1
    d = 0.0
    bar = None
    try:
        for lev, t in enumerate(levels.tolist()):
            if d >= 1.0:
                break
            if (
                show
                and bar is None
                and (progress or time.perf_counter() - budget.start > _PROGRESS_DELAY_S)
            ):
                from tqdm import tqdm

                bar = tqdm(
                    total=len(levels),
                    initial=lev,
                    desc=f"Bergmann-Hommel (k={k})",
                    unit="level",
                    file=sys.stderr,
                    leave=False,
                )
            count = solver.level_count(lev, t, d)
            if t * count > d:
                d = t * count
            values[lev] = min(1.0, d)
            if bar is not None:
                bar.update(1)
    finally:
        if bar is not None:
            bar.close()
    apv = values[level_of]
    out[rows, cols] = apv
    out[cols, rows] = apv
    return out

"""Exhaustive sets of pairwise hypotheses: Shaffer's static multipliers and Bergmann-Hommel.

When k algorithms are compared pairwise, the m = k(k-1)/2 null hypotheses
"algorithm i performs like algorithm j" are logically related: a set of them can
be true together exactly when "performs like" is an equivalence relation on the
algorithms, i.e. when the true hypotheses are all the within-group pairs of a
partition of the algorithms into groups. Such an index set is *exhaustive*
(García & Herrera 2008, Definition 1); there is one for every set partition except
the all-singletons one, Bell(k) - 1 in all.

This module holds the combinatorics behind the two procedures that use this
structure: the possible numbers of true hypotheses (Shaffer's static procedure)
and an exact, fast engine for Bergmann-Hommel adjusted p-values that never lists
the exhaustive sets.
"""

from __future__ import annotations

import bisect
import math
import sys
import time
import warnings
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np

from .._errors import BergmannHommelLimitError, CdplotInputError, spell
from ._adjust import BH_DEFAULT_BUDGET

__all__ = [
    "bergmann_hommel",
    "count_exhaustive_sets",
    "exhaustive_sets",
    "shaffer_counts",
    "shaffer_multipliers",
]

#: marks a keyword that was not passed (the deprecated ``budget_seconds``)
_RENAMED: Any = object()

#: default time budget of :func:`bergmann_hommel`, in seconds (one constant: _adjust's)
DEFAULT_BUDGET_S = BH_DEFAULT_BUDGET

#: the clock is read every this many search steps (a few milliseconds of work at most),
#: so a budget is honoured to within milliseconds
_CHECK_EVERY = 2048

#: a progress bar appears only after this many seconds (and only on a terminal)
_PROGRESS_DELAY_S = 2.0

#: candidate extreme pairs tried when looking for a Robinson order
_ROBINSON_TRIES = 4


# ---------------------------------------------------------------------------
# Shaffer's S(k) and multipliers


_shaffer_masks: list[int] = [1, 1]  # bit x of entry k is set iff x is in S(k); S(0) = S(1) = {0}


def _shaffer_mask(k: int) -> int:
    """S(k) as a bit mask (bit x set iff x in S(k)), cached for every k' <= k."""
    masks = _shaffer_masks
    while len(masks) <= k:
        n = len(masks)
        mask = 0
        for j in range(1, n + 1):
            mask |= masks[n - j] << (j * (j - 1) // 2)
        masks.append(mask)
    return masks[k]


def _check_k(k: int) -> int:
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)):
        raise TypeError(f"k must be an integer, not {type(k).__name__}")
    if k < 0:
        raise ValueError(f"k must be non-negative, got {k}")
    return int(k)


def shaffer_counts(k: int) -> tuple[int, ...]:
    """Possible numbers of true hypotheses among all pairwise comparisons of k algorithms.

    Parameters
    ----------
    k : int
        Number of algorithms, ``k >= 0``.

    Returns
    -------
    tuple of int
        The set S(k), sorted increasingly. It always contains 0 and, for
        ``k >= 2``, ``m = k(k-1)/2``.

    Notes
    -----
    The true hypotheses are the within-group pairs of a partition of the k
    algorithms, so their number is a sum of ``C(j, 2)`` over the group sizes j.
    Splitting off the group of size j that contains the last algorithm gives
    Shaffer's recursion (García & Herrera 2008, §2.1)

    .. math:: S(k) = \\bigcup_{j=1}^{k} \\{\\tbinom{j}{2} + x : x \\in S(k-j)\\},
              \\qquad S(0) = S(1) = \\{0\\}.

    The sets are kept as bit masks and cached, so k in the hundreds is cheap.

    References
    ----------
    .. [1] J. P. Shaffer, "Modified sequentially rejective multiple test
       procedures", JASA 81(395):826-831, 1986.
    .. [2] S. García and F. Herrera, "An extension on 'Statistical comparisons of
       classifiers over multiple data sets' for all pairwise comparisons", JMLR
       9:2677-2694, 2008.

    Examples
    --------
    >>> shaffer_counts(4)
    (0, 1, 2, 3, 6)
    """
    mask = _shaffer_mask(_check_k(k))
    return tuple(x for x in range(mask.bit_length()) if mask >> x & 1)


def shaffer_multipliers(k: int) -> np.ndarray:
    """Multipliers t_1, ..., t_m of Shaffer's static procedure for k algorithms.

    Parameters
    ----------
    k : int
        Number of algorithms, ``k >= 0``.

    Returns
    -------
    numpy.ndarray of int, shape (m,)
        ``t_i = max{s in S(k) : s <= m - i + 1}``, the largest number of
        hypotheses that can be true once i - 1 of them are false; t_i multiplies
        the i-th smallest p-value. ``m = k(k-1)/2``.

    See Also
    --------
    shaffer_counts : the set S(k).

    Notes
    -----
    Shaffer's adjusted p-values are ``APV_(i) = min(1, max_{j <= i} t_j p_(j))``
    (García & Herrera 2008, §3); Holm's use ``m - i + 1`` instead of ``t_i``.

    Examples
    --------
    >>> shaffer_multipliers(5).tolist()
    [10, 6, 6, 6, 6, 4, 4, 3, 2, 1]
    """
    k = _check_k(k)
    m = k * (k - 1) // 2
    counts = np.asarray(shaffer_counts(k), dtype=np.int64)
    bound = m - np.arange(m, dtype=np.int64)  # m - i + 1 for i = 1..m
    return counts[np.searchsorted(counts, bound, side="right") - 1]


# ---------------------------------------------------------------------------
# Exhaustive sets (small k only)


def _bell(k: int) -> int:
    """Bell number B(k) from the Bell triangle."""
    row = [1]
    for _ in range(k):
        nxt = [row[-1]]
        for x in row:
            nxt.append(nxt[-1] + x)
        row = nxt
    return row[0]


def count_exhaustive_sets(k: int) -> int:
    """Number of exhaustive sets of pairwise hypotheses for k algorithms: Bell(k) - 1.

    Parameters
    ----------
    k : int
        Number of algorithms, ``k >= 0``.

    Returns
    -------
    int
        ``Bell(k) - 1`` (0 for k < 2): one exhaustive set per partition of the
        algorithms into groups, except the all-singletons partition, whose set
        of within-group pairs is empty.

    Examples
    --------
    >>> [count_exhaustive_sets(k) for k in range(4, 10)]
    [14, 51, 202, 876, 4139, 21146]
    """
    return _bell(_check_k(k)) - 1


def _set_partitions(k: int) -> Iterator[list[int]]:
    """Every set partition of range(k) as a restricted growth string (group labels)."""
    labels = [0] * k
    if k == 0:
        yield []
        return

    def extend(i: int, top: int) -> Iterator[list[int]]:
        if i == k:
            yield labels
            return
        for g in range(top + 2):
            labels[i] = g
            yield from extend(i + 1, max(top, g))

    yield from extend(1, 0)


def exhaustive_sets(k: int) -> Iterator[frozenset[tuple[int, int]]]:
    """Generate every exhaustive set of pairwise hypotheses for k algorithms.

    Each set is a frozenset of pairs ``(i, j)``, ``0 <= i < j < k``: the
    within-group pairs of one partition of the algorithms into groups. All
    ``Bell(k) - 1`` of them are yielded (the all-singletons partition gives the
    empty set and is skipped), each once. This grows faster than exponentially
    (21146 sets for k = 9, 10^9 for k = 15) and is meant for documentation, tests
    and small k only; :func:`bergmann_hommel` never lists the sets.

    Parameters
    ----------
    k : int
        Number of algorithms.

    Yields
    ------
    frozenset of tuple of int
        One exhaustive set.

    See Also
    --------
    count_exhaustive_sets : their number, without listing them.

    Examples
    --------
    >>> sorted(sorted(s) for s in exhaustive_sets(3))
    [[(0, 1)], [(0, 1), (0, 2), (1, 2)], [(0, 2)], [(1, 2)]]
    """
    k = _check_k(k)
    for labels in _set_partitions(k):
        pairs = frozenset(
            (i, j) for i in range(k) for j in range(i + 1, k) if labels[i] == labels[j]
        )
        if pairs:
            yield pairs


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


class _Budget:
    """Counts search steps and watches the clock; raises BergmannHommelLimitError.

    ``limit`` is a number of search steps (None: no limit), ``seconds`` a wall-clock
    budget from the creation of the budget (None: no limit). The step limit is checked
    at every step, the clock every :data:`_CHECK_EVERY` steps.
    """

    __slots__ = ("limit", "steps", "k", "start", "seconds", "deadline", "next_check")

    def __init__(self, limit: int | None, k: int, seconds: float | None = None) -> None:
        self.limit = limit
        self.steps = 0
        self.k = k
        self.start = time.perf_counter()
        self.seconds = seconds
        self.deadline = math.inf if seconds is None else self.start + seconds
        self.next_check = _CHECK_EVERY

    def spend(self, n: int = 1) -> None:
        self.steps += n
        if self.limit is not None and self.steps > self.limit:
            self._fail(f"the work limit of max_steps={self.limit} search steps")
        if self.steps >= self.next_check:
            self.next_check = self.steps + _CHECK_EVERY
            if time.perf_counter() > self.deadline:
                self._fail(f"the time budget of {self.seconds:g} s")

    def _fail(self, what: str) -> None:
        elapsed = time.perf_counter() - self.start
        raise BergmannHommelLimitError(
            f"exact Bergmann-Hommel adjusted p-values for k = {self.k} algorithms "
            f"exceeded {what} (stopped after {elapsed:.1f} s); these p-values have too "
            f"little structure for an exact answer at this k in that time. Use "
            f"{spell('correction', 'shaffer')} (or 'holm'), which is valid for any k, or "
            f"allow more time with {spell('bh_budget')} (in seconds)."
        )


def _comb2(n: int) -> int:
    return n * (n - 1) // 2


def _robinson_order(p: np.ndarray) -> list[int] | None:
    """An order in which ``p`` is a Robinson matrix, or None if this search finds none.

    A Robinson matrix is non-increasing away from the diagonal along every row and
    column. If mean-ranks p-values come from average ranks R, sorting by R is such an
    order, and it is recovered from p alone: a pair (a, b) with the smallest p-value
    are the two extremes, and the others are sorted by decreasing p to a (ties by
    increasing p to b). A few pairs with the smallest p-value are tried and each
    candidate is verified exactly, so a wrong guess only costs the fast path, never
    correctness.
    """
    k = p.shape[0]
    q = p.copy()
    np.fill_diagonal(q, np.inf)
    rows, cols = np.triu_indices(k, 1)
    pu = q[rows, cols]
    candidates = np.flatnonzero(pu == pu.min())[:_ROBINSON_TRIES]
    for idx in candidates:
        a, b = int(rows[idx]), int(cols[idx])
        order = sorted(range(k), key=lambda v, a=a, b=b: (-q[a, v], q[b, v]))
        if _is_robinson(p, order):
            return order
    # Underflow (many p-values exactly 0) leaves the two extremes unable to order the
    # middle: grow a chain from an extreme instead, each step taking the remaining
    # vertex closest to the last placed ones (see _chain_order).
    # Every vertex may start the chain; an extreme has neighbours on one side only, so
    # small row sums first.
    sums = np.sum(np.where(np.isinf(q), 0.0, q), axis=1)
    for a in np.argsort(sums, kind="stable").tolist():
        order = _chain_order(q, a)
        if _is_robinson(p, order):
            return order
    return None


def _chain_order(q: np.ndarray, first: int) -> list[int]:
    """A candidate Robinson order grown from ``first`` (``q``: p with an inf diagonal).

    Next comes the remaining vertex with the largest p to the last placed vertex; ties
    are broken by the p to the vertex placed before it, and so on back. Vertices that
    tie with every placed vertex (their p-values to all of them underflowed to 0) are
    a separate block whose order is free: the block's own extreme comes first, guessed
    as the one with the smallest sum of p to the others. Only a candidate: the caller
    verifies it.
    """
    k = q.shape[0]
    p = np.where(np.isinf(q), -1.0, q)
    order = [first]
    remaining = np.ones(k, dtype=bool)
    remaining[first] = False
    while remaining.any():
        cand = np.flatnonzero(remaining)
        for pivot in reversed(order):
            values = p[pivot, cand]
            cand = cand[values == values.max()]
            if cand.size == 1:
                break
        if cand.size > 1:
            # a block cut off from everything placed: start it at its own extreme, the
            # candidate with the smallest sum of p to the remaining vertices
            rest = np.flatnonzero(remaining)
            sub = p[np.ix_(cand, rest)]
            cand = cand[[int(np.argmin(np.where(sub < 0, 0.0, sub).sum(axis=1)))]]
        v = int(cand[0])
        order.append(v)
        remaining[v] = False
    return order


def _seriation(p: np.ndarray) -> list[int]:
    """An approximate line order of the algorithms from their p-values (a heuristic).

    Classical scaling in one dimension of the distances ``sqrt(-log p)`` (for a normal
    statistic, -log p grows like z^2 / 2, so the root grows like the distance z): the
    order of the first principal coordinate.
    """
    k = p.shape[0]
    q = np.where(np.eye(k, dtype=bool), 1.0, p)
    d2 = -np.log(np.maximum(q, np.finfo(float).tiny))
    centre = np.eye(k) - 1.0 / k
    b = -0.5 * centre @ d2 @ centre
    _, vectors = np.linalg.eigh(b)
    return np.argsort(vectors[:, -1], kind="stable").tolist()


def _is_robinson(p: np.ndarray, order: list[int]) -> bool:
    """Whether ``p`` in this order is non-increasing away from the diagonal."""
    k = p.shape[0]
    if sorted(order) != list(range(k)):
        return False
    r = p[np.ix_(order, order)]
    upper = np.where(np.triu(np.ones((k, k), dtype=bool), 1), r, np.nan)
    with np.errstate(invalid="ignore"):
        # rows non-increasing to the right, columns non-decreasing downwards
        return not (np.any(np.diff(upper, axis=1) > 0) or np.any(np.diff(upper, axis=0) < 0))


class _Staircase:
    """Clique partitions of a unit interval graph, by dynamic programmes over its order.

    Positions 0..n-1 are an order in which the graph is a unit (proper) interval graph:
    the neighbours of position i with larger positions are i+1..reach[i], and reach is
    non-decreasing (its adjacency matrix with a unit diagonal is a Robinson matrix). A
    set is then a clique iff its first and last positions are adjacent, and optimal
    partitions can be taken contiguous (proof at _optima). Subclasses keep ``reach`` up
    to date and mark the optima that an edge removal invalidates (``fwd_from``,
    ``bwd_from``).
    """

    def __init__(self, n: int, budget: _Budget, reach: list[int] | None = None) -> None:
        self.n = n
        # C(m, 2) for m = 0..n + 1 (int64: exact)
        m = np.arange(n + 2, dtype=np.int64)
        self.c2 = m * (m - 1) // 2
        # prefix and suffix optima (see _optima), all out of date at first
        self.F = np.zeros(n + 1, dtype=np.int64)
        self.B = np.zeros(n + 1, dtype=np.int64)
        self.fwd_from = 0
        self.bwd_from = n - 1
        self.reach = [n - 1] * n if reach is None else reach
        self.budget = budget

    def _optima(self) -> None:
        """Bring the prefix optima F and suffix optima B up to date with ``reach``.

        ``F[i]`` is the best contiguous partition of positions 0..i-1, ``B[i]`` that of
        i..n-1. Contiguous partitions suffice. Take an optimal partition and its group A
        with the smallest first position. If a in A and b in another group B have b < a
        and min A < b, swapping them keeps every group a clique: A - a + b lies within
        A's span, and B - b + a lies within B's span or within [min A, max A] (its first
        position exceeds min A, its last is max B or a <= max A). Sizes, hence the
        objective, are unchanged; repeating makes A an initial segment, and induction on
        the rest (again a Robinson matrix) gives a contiguous optimum.

        Removing the edge (a, b), a < b, only changes blocks holding both a and b, so
        ``F[i]`` for i <= b and ``B[i]`` for i > a keep their values: only the rest is
        recomputed (``fwd_from`` and ``bwd_from`` collect the smallest b and the largest
        a since the last update).
        """
        n, reach, c2 = self.n, self.reach, self.c2
        F, B = self.F, self.B
        start = self.fwd_from
        if start < n:
            lo = bisect.bisect_left(reach, start)  # first position adjacent to ``start``
            for i in range(start, n):
                while reach[lo] < i:
                    lo += 1
                b = F[i]  # i alone
                if lo < i:  # blocks j..i, j = lo..i-1: C(i - j + 1, 2) pairs
                    top = (F[lo:i] + c2[i - lo + 1 : 1 : -1]).max()
                    if top > b:
                        b = top
                F[i + 1] = b
            self.budget.spend(n - start)
            self.fwd_from = n
        stop = self.bwd_from
        if stop >= 0:
            for i in range(stop, -1, -1):
                hi = reach[i]
                b = B[i + 1]
                if hi > i:  # blocks i..m, m = i+1..hi
                    top = (c2[2 : hi - i + 2] + B[i + 2 : hi + 2]).max()
                    if top > b:
                        b = top
                B[i] = b
            self.budget.spend(stop + 1)
            self.bwd_from = -1

    def _prefix_optima(self, seq: list[int], init: np.ndarray | None = None) -> np.ndarray:
        """Best contiguous partition of ``seq[:i]`` for every i.

        ``seq`` is a strictly increasing or strictly decreasing list of positions; as
        a sub-matrix of a Robinson matrix it is Robinson in that order, so contiguous
        partitions are optimal among all clique partitions of ``seq[:i]``. ``init``, if
        given, holds the already known optima of ``seq[:i]`` for i < len(init).
        """
        reach, c2 = self.reach, self.c2
        best = np.zeros(len(seq) + 1, dtype=np.int64)
        first = 0
        if init is not None:
            first = len(init) - 1
            best[: first + 1] = init
        lo = 0
        for i in range(first, len(seq)):
            x = seq[i]
            # first index whose block to x is a clique; it never moves back
            while True:
                y = seq[lo]
                if (reach[y] >= x) if y <= x else (reach[x] >= y):
                    break
                lo += 1
            b = best[i]
            if lo < i:
                top = (best[lo:i] + c2[i - lo + 1 : 1 : -1]).max()
                if top > b:
                    b = top
            best[i + 1] = b
        self.budget.spend(len(seq) - first)
        return best

    def _constrained(
        self, left: int, right: int, a: int | None = None, b: int | None = None
    ) -> int:
        """Best partition with a group A whose first/last positions are ``left``/``right``.

        A must also hold the positions ``a`` and ``b`` if given (both in [left, right]).
        Such a group is a clique (its ends are adjacent: (left, right) must be an edge)
        and lies in [left, right]. Let I be the interior positions (left, right) other
        than a and b. Given A, the rest is Robinson in the induced order, so its best
        partition is contiguous there (see _optima). In an optimal solution:

        * no rest block lies inside (left, right): merging it into A stays a clique and
          adds |A| |block| > 0 pairs;
        * so the interior positions not in A belong to at most one block B_L that also
          has positions < left, one block B_R with positions > right, or one block B_X
          with both (in a Robinson matrix, only with tied p-values); blocks are
          consecutive in the rest order, which rules out anything else;
        * B_L's x interior members can be taken to be the first x positions of I: its
          span keeps its first position and its last shrinks to the x-th of I, which is
          at most its old last position; likewise B_R's y interior members are the last
          y of I, and B_X's members anywhere (its span is fixed by its outer members).
          A keeps its ends, a and b, so it stays a clique of the same size.

        Hence, with W = |I|, s = |{left, right, a, b}|, L(x) the best partition of the
        positions < left followed by the first x of I, R(y) that of the last y of I
        followed by the positions > right, and X(x) that of the positions < left, the
        first x of I and the positions > right, the optimum is the larger of
        max_{x+y<=W} C(W-x-y+s, 2) + L(x) + R(y) and max_x C(W-x+s, 2) + X(x), every
        term being the value of a feasible partition with such a group A.
        """
        n, reach = self.n, self.reach
        must = {left, right}
        if a is not None:
            must.add(a)
        if b is not None:
            must.add(b)
        inner = [i for i in range(left + 1, right) if i not in must]
        width = len(inner)
        size = len(must)
        # the DPs start from the known optima of the positions < left (F) and > right (B)
        lefts = self._prefix_optima(list(range(left)) + inner, self.F[: left + 1])[left:]
        rights = self._prefix_optima(
            list(range(n - 1, right, -1)) + inner[::-1], self.B[right + 1 :][::-1]
        )[n - 1 - right :]
        # all (x, y) with x + y <= W at once: C(W - x - y + s, 2) + L(x) + R(y)
        xs = np.arange(width + 1)
        group = width - xs[:, None] - xs[None, :] + size
        values = self.c2[np.maximum(group, 0)] + lefts[:, None] + rights[None, :]
        best = int(values[group >= size].max())
        self.budget.spend((width + 1) * (width + 2) // 2)
        if left > 0 and reach[left - 1] > right:  # a block can hold both sides
            outer = list(range(right + 1, n))
            for x in range(width + 1):
                m = width - x + size
                v = (
                    m * (m - 1) // 2
                    + self._prefix_optima(list(range(left)) + inner[:x] + outer)[-1]
                )
                if v > best:
                    best = v
        return best


class _RobinsonEngine(_Staircase):
    """c(t) for a Robinson matrix, by dynamic programmes over the Robinson order.

    In the order, the neighbours of position i in G_t with larger index form the
    interval (i, reach[i]], and reach is non-decreasing; a set is a clique of G_t iff
    its first and last positions are adjacent. Per level the work is O(k w) for g(t)
    and O(k w + W^2) for each level-t pair, w being the widest neighbourhood and W the
    pair's span: polynomial, with no search.
    """

    def __init__(self, q: np.ndarray, levels: np.ndarray, budget: _Budget) -> None:
        n = q.shape[0]
        super().__init__(n, budget)  # G_t is complete below the smallest level
        self.q: list[list[float]] = q.tolist()
        self.g_prev: int | None = None  # g of the previous level: g never increases
        # level-t edges (i, j), i < j, as positions in the order, for each level
        self.special: list[list[tuple[int, int]]] = [[] for _ in range(len(levels))]
        rows, cols = np.triu_indices(n, 1)
        for i, j, lev in zip(
            rows.tolist(),
            cols.tolist(),
            np.searchsorted(levels, q[rows, cols]).tolist(),
            strict=True,
        ):
            self.special[lev].append((i, j))

    def _update_reach(self, t: float) -> int:
        """Drop the edges with p < t; mark the prefix/suffix optima they invalidate."""
        q, reach = self.q, self.reach
        edges = 0
        for i in range(self.n):
            r = reach[i]
            if r > i and q[i][r] < t:
                while r > i and q[i][r] < t:
                    r -= 1
                reach[i] = r
                # the removed edges (i, r + 1..): blocks holding both ends are gone
                if r + 1 < self.fwd_from:
                    self.fwd_from = r + 1
                if i > self.bwd_from:
                    self.bwd_from = i
            edges += r - i
        return edges

    def level_count(self, lev: int, t: float, d: float) -> int:
        """c(t) for the lev-th level if t * c(t) > d, else 0 (or s with t * s <= d)."""
        special = self.special[lev]
        edges = self._update_reach(t)
        if t * edges <= d:
            return 0
        # g(t) <= g of any lower level (G_t only loses edges as t rises)
        if self.g_prev is not None and t * self.g_prev <= d:
            return 0
        self._optima()
        g = int(self.F[self.n])
        self.g_prev = g
        if t * g <= d:
            return 0
        # an optimal contiguous partition uses a level-t edge iff some level-t pair (l, r)
        # is a block of one: F[l] + C(r - l + 1, 2) + B[r + 1] = g (in a Robinson matrix
        # a block holds a level-t edge iff its end points do)
        F, B, c2 = self.F, self.B, self.c2
        for left, right in special:
            if F[left] + c2[right - left + 1] + B[right + 1] == g:
                return g
        floor = _count_floor(t, d, g)
        best = floor
        for left, right in special:
            best = max(best, self._constrained(left, right))
            if best >= g:
                break
        return best if best > floor else 0


def _lexbfs(adj: list[int], start: list[int]) -> list[int]:
    """A lexicographic breadth-first search order of the graph ``adj`` (bit masks).

    Partition refinement: the next vertex is the first of the first class, and every
    class is split into its members adjacent and not adjacent to it (in that order).
    Ties are broken by the order of ``start``, so ``start`` = a previous order reversed
    gives the LBFS+ sweep of Corneil (2004).
    """
    classes = [list(start)]
    out = []
    while classes:
        first = classes[0]
        v = first.pop(0)
        if not first:
            classes.pop(0)
        out.append(v)
        nb = adj[v]
        split = []
        for members in classes:
            inside = [w for w in members if nb >> w & 1]
            if inside and len(inside) < len(members):
                split.append(inside)
                split.append([w for w in members if not nb >> w & 1])
            else:
                split.append(members)
        classes = split
    return out


class _IntervalView(_Staircase):
    """G_t seen as a unit interval graph: its order, staircase and positions.

    Built by :func:`_interval_view` when G_t is a unit interval graph; then g(t) and
    c(t) come from the polynomial dynamic programmes of :class:`_Staircase`, with no
    search. Removing an edge keeps the order valid exactly when the edge is a corner of
    the staircase (see remove_edge).
    """

    def __init__(self, order: list[int], reach: list[int], lo: list[int], budget: _Budget):
        super().__init__(len(order), budget, reach)
        self.order = order
        self.pos = [0] * len(order)
        for i, v in enumerate(order):
            self.pos[v] = i
        self.lo = lo  # lo[i]: first position adjacent to i (i itself if none before)

    def remove_edge(self, p: int, q: int) -> bool:
        """Remove the edge between positions p < q; False if the order stops being valid.

        Position p's neighbours after it are p+1..reach[p] and q's before it lo[q]..q-1.
        Without (p, q) both stay intervals iff q = reach[p] and p = lo[q]; then reach
        stays non-decreasing (reach[p - 1] = q would make p - 1 adjacent to q, so
        lo[q] < p) and lo too. Otherwise a neighbourhood gets a hole: not a unit
        interval order any more.
        """
        if self.reach[p] != q or self.lo[q] != p:
            return False
        self.reach[p] = q - 1
        self.lo[q] = p + 1
        # prefix optima up to q and suffix optima from p + 1 keep their values
        if q < self.fwd_from:
            self.fwd_from = q
        if p > self.bwd_from:
            self.bwd_from = p
        return True

    def groups(self) -> list[int]:
        """An optimal partition (vertex bit masks), read back from the prefix optima."""
        F, c2, lo, order = self.F, self.c2, self.lo, self.order
        groups = []
        i = self.n
        while i > 0:
            target = F[i]
            j = i - 1  # i - 1 alone
            if F[i - 1] != target:
                j = next(j for j in range(lo[i - 1], i - 1) if F[j] + c2[i - j] == target)
            mask = 0
            for at in range(j, i):
                mask |= 1 << order[at]
            groups.append(mask)
            i = j
        return groups

    def together(self, pairs: Sequence[tuple[int, int]], floor: int, cap: int) -> int:
        """Best partition holding one of ``pairs`` (vertices) in a group; needs _optima.

        Returns the value if it exceeds ``floor``, else ``floor``; stops once it reaches
        ``cap``, an upper bound (g, say). A group holding the pair at positions a < b
        has ends l <= a and r >= b with (l, r) an edge; every such (l, r) is tried with
        _constrained(l, r, a, b). First, cheaply: if an optimal contiguous partition
        has a block l..r, the answer is g.
        """
        reach, pos = self.reach, self.pos
        F, B, c2 = self.F, self.B, self.c2
        g = int(F[self.n])
        spans = []
        for i, j in pairs:
            a, b = sorted((pos[i], pos[j]))
            left = a
            while left >= 0 and reach[left] >= b:
                for right in range(b, reach[left] + 1):
                    if F[left] + c2[right - left + 1] + B[right + 1] == g:
                        return max(g, floor)
                    spans.append((left, right, a, b))
                left -= 1
        best = floor
        for left, right, a, b in spans:
            best = max(best, self._constrained(left, right, a, b))
            if best >= cap:
                break
        return best

    def level_count(self, special: Sequence[tuple[int, int]], t: float, d: float) -> int:
        """c(t) if t * c(t) > d, else 0 (or s with t * s <= d); ``special``: vertex pairs."""
        self._optima()
        g = int(self.F[self.n])
        if t * g <= d:
            return 0
        floor = _count_floor(t, d, g)
        best = self.together(special, floor, g)
        return best if best > floor else 0


def _interval_view(
    adj: list[int], budget: _Budget, sweeps: list[int] | None = None
) -> _IntervalView | None:
    """G as a unit interval graph, or None if this search finds no unit interval order.

    Three sweeps of lexicographic breadth-first search, the last two LBFS+ (Corneil,
    "A simple 3-sweep LBFS algorithm for the recognition of unit interval graphs",
    Discrete Applied Mathematics 138, 2004), give a unit interval order iff G is a
    unit interval graph. The order is verified here exactly (every closed
    neighbourhood an interval of positions, both ends non-decreasing), so a wrong
    order can only cost speed, never correctness. ``sweeps``, if given, receives the
    last LexBFS order (used by _p3 and _closure_view when G is not a unit interval
    graph).
    """
    k = len(adj)
    budget.spend(k)
    order = _lexbfs(adj, list(range(k)))
    order = _lexbfs(adj, order[::-1])
    order = _lexbfs(adj, order[::-1])
    if sweeps is not None:
        sweeps[:] = order
    pos = [0] * k
    for i, v in enumerate(order):
        pos[v] = i
    reach = [0] * k
    lo = [0] * k
    last_lo = last_hi = 0
    for i, v in enumerate(order):
        x = adj[v] | 1 << v
        mask = 0
        while x:
            low = x & -x
            mask |= 1 << pos[low.bit_length() - 1]
            x ^= low
        first = (mask & -mask).bit_length() - 1
        top = mask.bit_length() - 1
        if mask >> first != (1 << (top - first + 1)) - 1 or first < last_lo or top < last_hi:
            return None
        reach[i], lo[i] = top, first
        last_lo, last_hi = first, top
    return _IntervalView(order, reach, lo, budget)


def _closure_view(adj: list[int], order: list[int], budget: _Budget) -> _IntervalView:
    """The smallest supergraph of G that is a unit interval graph in ``order``.

    Positions p < q are adjacent iff some edge (p', q') of G has p' <= p and q' >= q:
    reach[p] = max of the last neighbour of p' over p' <= p. Every edge of G is kept,
    so every partition of G into cliques is one of the supergraph: its g and c bound
    those of G from above, and they are exact, polynomial (the staircase programmes),
    and tight when G is close to a unit interval graph in this order.
    """
    k = len(order)
    budget.spend(k)
    pos = [0] * k
    for i, v in enumerate(order):
        pos[v] = i
    reach = [0] * k
    top = 0
    for i, v in enumerate(order):
        x = adj[v]
        while x:
            low = x & -x
            x ^= low
            q = pos[low.bit_length() - 1]
            if q > top:
                top = q
        if i > top:
            top = i
        reach[i] = top
    lo = [0] * k
    p = 0
    for q in range(k):
        while reach[p] < q:
            p += 1
        lo[q] = p
    return _IntervalView(list(order), reach, lo, budget)


def _p3(adj: list[int], order: list[int]) -> tuple[int, int, int] | None:
    """An induced path a - x - b (a, b not adjacent) of a graph that is not a cluster graph.

    Preferably one in an obstruction to unit interval graphs (Roberts 1969: a graph is
    a unit interval graph iff it has no induced claw, net, tent or hole), so that
    cutting either of its edges destroys that obstruction: first a non-adjacent pair of
    earlier neighbours of a vertex in the LexBFS ``order`` (it exists iff G is not
    chordal, and lies on a hole), then a claw, then any such path.
    """
    seen = 0
    for v in order:
        earlier = adj[v] & seen
        x = earlier
        while x:
            low = x & -x
            x ^= low
            others = earlier & ~adj[low.bit_length() - 1] & ~low
            if others:
                return low.bit_length() - 1, v, (others & -others).bit_length() - 1
        seen |= 1 << v
    anyone = None
    for v in order:
        nb = adj[v]
        x = nb
        while x:
            low = x & -x
            x ^= low
            apart = nb & ~adj[low.bit_length() - 1] & ~low  # neighbours of v not of a
            if not apart:
                continue
            a, b = low.bit_length() - 1, (apart & -apart).bit_length() - 1
            if anyone is None:
                anyone = (a, v, b)
            y = apart
            while y:
                lb = y & -y
                y ^= lb
                if apart & ~adj[lb.bit_length() - 1] & ~lb:  # a claw at v
                    return a, v, lb.bit_length() - 1
    return anyone  # None only for a cluster graph, which is a unit interval graph


def _bits(x: int) -> list[int]:
    """The positions of the set bits of x, increasing."""
    out = []
    while x:
        low = x & -x
        out.append(low.bit_length() - 1)
        x ^= low
    return out


class _GiveUp(Exception):
    """The edge-branching search visited too many graphs (see _GeneralEngine._branch)."""


def _colour_bound(adj: list[int], u: int) -> int:
    """Upper bound on the cluster-deletion optimum of G[U] from a greedy colouring.

    Colour classes are independent sets of G, so a clique meets each class at most
    once. With class sizes a_1, ..., a_c, the group sizes n_1 >= n_2 >= ... of any
    clique partition are majorised by the conjugate a*_j = #{i : a_i >= j} (the
    incidence matrix of groups and classes is 0-1 with these margins: Gale-Ryser),
    and sum C(n_j, 2) = (sum n_j^2 - |U|) / 2 is Schur-convex, so
    f(U) <= sum_j C(a*_j, 2).
    """
    counts = [0] * (u.bit_count() + 1)  # counts[s]: classes of size s
    rest = u
    while rest:
        cand = rest
        size = 0
        while cand:
            low = cand & -cand
            cand &= ~adj[low.bit_length() - 1]
            cand ^= low
            rest ^= low
            size += 1
        counts[size] += 1
    bound = 0
    at_least = 0  # classes of size >= s
    for s in range(len(counts) - 1, 0, -1):
        at_least += counts[s]
        bound += at_least * (at_least - 1) // 2
    return bound


class _GeneralEngine:
    """c(t) for any symmetric p-value matrix: exact search over clique partitions.

    level_count first tries G_t as a unit interval graph (_IntervalView: polynomial),
    then the edge branching (_branch), then the search over cliques described here.

    ``f(U)`` is the cluster-deletion optimum of the induced graph G[U] (U a bit mask).
    Largest-group rule: the largest group L of an optimal partition is a maximal clique
    of G[U] (a vertex w adjacent to all of L, in a group B with |B| <= |L|, could move
    into L for a gain of |L| - (|B| - 1) >= 1). So f(U) = max over the maximal cliques L
    of G[U] of C(|L|, 2) + f(U - L), a dynamic programme over vertex sets whose choices
    are the maximal cliques (Bron-Kerbosch with pivoting), far fewer than all cliques:
    on the dense graphs of low thresholds they are the maximal independent sets of a
    sparse complement. c(t) (a level-t pair a, b in one group) follows the same rule:
    the largest group either holds a and b and is maximal, or holds neither and is
    maximal in G[U - a - b] (see _pair_by_largest_group). Refinements, all exact:

    * f is additive over the connected components of G[U]; a clique U gives C(|U|, 2);
      c(t) is the pair's component's value plus f of the rest.
    * Memo key: U and G[U]'s adjacency packed into one int, so values stay valid while
      the threshold rises, whenever the induced graph did not change.
    * Bounds: f(W) <= |E(G[W])|, and f(W) <= sum_j C(a*_j, 2) from a greedy colouring
      of G[W] (see _colour_bound; far tighter on the dense graphs of low thresholds).
      Maximal cliques are tried largest first; C(|L|, 2) + bound(U - L) <= best-so-far
      skips the recursion into U - L, and the colouring bound of f(U) stops f's own
      search as soon as it is reached.
    * Reuse across levels: an optimal partition of G_t that uses no level-t edge is
      also optimal for the next level (G shrinks, its value cannot rise), so g is only
      recomputed when the previous optimum used a removed edge.
    """

    #: memo entries kept before the memos are emptied: bounds memory to a few hundred MB
    MEMO_LIMIT = 1_000_000

    #: graphs the edge-branching search (_branch) may visit for g before the search over
    #: cliques takes over. It pays off when G is close to a unit interval graph (Wilcoxon
    #: p-values at large N); far from one (small N) it mostly gives up, so the allowance
    #: is kept short (a few milliseconds)
    BRANCH_NODES = 32
    #: the same for c (a pair forced into one group: weaker bounds; the successful
    #: searches seldom need more than a few graphs)
    BRANCH_NODES_PAIR = 4

    def __init__(
        self, level: np.ndarray, n_levels: int, budget: _Budget, line: list[int] | None = None
    ) -> None:
        k = level.shape[0]
        self.line = list(range(k)) if line is None else list(line)
        self.line_pos = [0] * k
        for at, v in enumerate(self.line):
            self.line_pos[v] = at
        self.k = k
        self.budget = budget
        self.memo: dict[int, int] = {}
        self.choice: dict[int, int] = {}
        self.full = (1 << k) - 1
        self.edges_at: list[list[tuple[int, int]]] = [[] for _ in range(n_levels)]
        rows, cols = np.triu_indices(k, 1)
        for i, j, lev in zip(rows.tolist(), cols.tolist(), level[rows, cols].tolist(), strict=True):
            self.edges_at[lev].append((i, j))
        self.adj = [self.full & ~(1 << i) for i in range(k)]  # G below the first level
        self.adj_level = 0
        self.opt_groups: list[int] | None = None  # optimal partition of the current G
        self.opt_value = 0  # its value, g; an upper bound of g at later levels
        self.g_known = False
        self.view: _IntervalView | None = None  # G as a unit interval graph, if it is one
        self.level: list[list[int]] = level.tolist()
        self._branch_left = 0
        self._branch_floor = 0

    # -- exact cluster deletion -------------------------------------------------------

    def _key(self, u: int) -> int:
        adj, k = self.adj, self.k
        key = u
        x = u
        while x:
            low = x & -x
            v = low.bit_length() - 1
            key |= (adj[v] & u) << (k * (v + 1))
            x ^= low
        return key

    def _colour_bound(self, u: int) -> int:
        """Upper bound on f(U) from a greedy colouring of G[U] (see _colour_bound)."""
        return _colour_bound(self.adj, u)

    def _component(self, u: int, start: int = 0) -> int:
        """Connected component of G[U] holding ``start`` (a bit; default U's lowest)."""
        adj = self.adj
        comp = start or u & -u
        frontier = comp
        while frontier:
            nb = 0
            while frontier:
                low = frontier & -frontier
                nb |= adj[low.bit_length() - 1]
                frontier ^= low
            frontier = nb & u & ~comp
            comp |= frontier
        return comp

    def _contiguous_lower_bounds(self, special: Sequence[tuple[int, int]]) -> tuple[int, int]:
        """Values of feasible partitions: the best one and the best using a special pair.

        Partitions into blocks that are contiguous in ``self.line`` (an approximate
        seriation of the p-values, see _seriation) and cliques of G, found by dynamic
        programmes over prefixes and suffixes in O(k^2). Both are achieved by actual
        partitions, so they are lower bounds of g(t) and c(t): they raise the floors of
        the exact searches, and settle the level outright when they meet the upper bound.
        """
        line, adj, k = self.line, self.adj, self.k
        # reach[l]: last r such that line[l..r] is a clique of G
        reach = [0] * k
        for left in range(k):
            block = 1 << line[left]
            r = left
            while r + 1 < k and adj[line[r + 1]] & block == block:
                r += 1
                block |= 1 << line[r]
            reach[left] = r
        pre = [0] * (k + 1)  # pre[i]: best partition of line[:i]
        for i in range(k):
            b = pre[i]
            for left in range(i):
                if reach[left] >= i:
                    v = pre[left] + (i - left + 1) * (i - left) // 2
                    if v > b:
                        b = v
            pre[i + 1] = b
        suf = [0] * (k + 1)  # suf[i]: best partition of line[i:]
        for i in range(k - 1, -1, -1):
            b = suf[i + 1]
            for r in range(i + 1, reach[i] + 1):
                v = (r - i + 1) * (r - i) // 2 + suf[r + 1]
                if v > b:
                    b = v
            suf[i] = b
        pos = self.line_pos
        best_c = 0
        for a, b in special:
            # a clique holding the pair: the pair alone, or grown greedily with common
            # neighbours nearest to it on the line; the rest in contiguous blocks
            mid = pos[a] + pos[b]
            common = adj[a] & adj[b]
            near = sorted(
                (v for v in range(k) if common >> v & 1), key=lambda v: abs(2 * pos[v] - mid)
            )
            grown = (1 << a) | (1 << b)
            for v in near:
                if adj[v] & grown == grown:
                    grown |= 1 << v
            for group in {(1 << a) | (1 << b), grown}:
                size = group.bit_count()
                rest = [v for v in line if not group >> v & 1]
                value = size * (size - 1) // 2 + self._line_value(rest)
                if value > best_c:
                    best_c = value
        self.budget.spend(k)
        return pre[k], best_c

    def _line_value(self, seq: list[int]) -> int:
        """Best partition of ``seq`` into contiguous blocks that are cliques of G."""
        adj = self.adj
        pre = [0] * (len(seq) + 1)
        for i, w in enumerate(seq):
            b = pre[i]
            block = 1 << w
            for left in range(i - 1, -1, -1):
                v = seq[left]
                if adj[v] & block != block:
                    break
                block |= 1 << v
                value = pre[left] + (i - left + 1) * (i - left) // 2
                if value > b:
                    b = value
            pre[i + 1] = b
        return pre[-1]

    def f(self, u: int, floor: int = -1) -> int:
        """Maximum of sum C(|g|, 2) over partitions of U into cliques of G.

        ``floor``: a value below f(U) known to be exceeded (a feasible partition's value
        minus one), which prunes the search; the result stays exact.
        """
        if u & (u - 1) == 0:
            return 0
        key = self._key(u)
        hit = self.memo.get(key)
        if hit is not None:
            return hit
        self.budget.spend(4)
        comp = self._component(u)
        group = 0
        if comp != u:
            value = self.f(comp) + self.f(u & ~comp)
        else:
            adj = self.adj
            edges = sum((adj[v] & u).bit_count() for v in _bits(u)) // 2
            n = u.bit_count()
            if edges == n * (n - 1) // 2:
                value = edges
            else:
                cap = min(edges, self._colour_bound(u))
                value, group = self._by_largest_group(u, floor, cap)
        if len(self.memo) >= self.MEMO_LIMIT:
            self.memo.clear()
            self.choice.clear()
        # stored together, so a memoised connected non-clique always has its choice
        self.memo[key] = value
        if group:
            self.choice[key] = group
        return value

    def _by_largest_group(self, u: int, floor: int, cap: int) -> tuple[int, int]:
        """f(U) on a dense G[U]: the largest group of an optimal partition is a maximal
        clique (a vertex adjacent to all of it, in a group B, could move in for a gain
        of |L| - (|B| - 1) >= 1), so f(U) = max of C(|L|, 2) + f(U - L) over the maximal
        cliques L of G[U], few on a dense graph.
        Returns (value, L) if the value exceeds ``floor``, else (floor, 0); stops at ``cap``."""
        cliques = _maximal_cliques(self.budget, self.adj, 0, u)
        return self._over_cliques(u, cliques, lambda rest, base, best: self.f(rest), floor, cap)

    def _over_cliques(
        self,
        u: int,
        cliques: list[int],
        rest_value: Callable[[int, int, int], int],
        floor: int,
        cap: int,
    ) -> tuple[int, int]:
        """max of C(|L|, 2) + rest_value(U - L, C(|L|, 2), best so far) over ``cliques``,
        largest first, each skipped when the colouring bound of U - L cannot beat the best.
        Returns (value, L) if the value exceeds ``floor``, else (floor, 0); stops at ``cap``."""
        best, best_c = floor, 0
        for clique in sorted(cliques, key=int.bit_count, reverse=True):
            size = clique.bit_count()
            base = size * (size - 1) // 2
            rest = u & ~clique
            self.budget.spend(4)
            if base + self._colour_bound(rest) <= best:
                continue
            value = base + rest_value(rest, base, best)
            if value > best:
                best, best_c = value, clique
                if best >= cap:
                    break
        return best, best_c

    def _partition(self, u: int) -> list[int]:
        """An optimal partition of G[U] (group masks), rebuilt from the memo."""
        groups = []
        stack = [u]
        while stack:
            w = stack.pop()
            if w & (w - 1) == 0:
                if w:
                    groups.append(w)
                continue
            key = self._key(w)
            if key not in self.memo:
                self.f(w)
            c = self.choice.get(key)
            if c is not None:
                groups.append(c)
                stack.append(w & ~c)
                continue
            comp = self._component(w)
            if comp == w:
                groups.append(w)  # a clique
            else:
                stack.extend((comp, w & ~comp))
        return groups

    # -- edge branching towards unit interval graphs ----------------------------------

    def _branch_search(
        self, pairs: list[tuple[int, int]] | None, floor: int, cap: int
    ) -> tuple[int, list[int] | None] | None:
        """g (``pairs`` None) or c (the best partition holding one of ``pairs`` in a
        group) of the current G by _branch, if it is above ``floor``, else ``floor``.

        Returns (value, an optimal partition for g or None), or None if the search
        gave up after :attr:`BRANCH_NODES` graphs (:attr:`BRANCH_NODES_PAIR` for c);
        ``_branch_floor`` then holds the best value found (a feasible partition's, or
        ``floor``) for the clique search.
        """
        self._branch_left = self.BRANCH_NODES if pairs is None else self.BRANCH_NODES_PAIR
        self._branch_floor = floor
        try:
            return self._branch(list(self.adj), pairs, floor, cap, set())
        except _GiveUp:
            return None

    def _branch(
        self,
        adj: list[int],
        pairs: list[tuple[int, int]] | None,
        floor: int,
        cap: int,
        seen: set[tuple[int, ...]],
    ) -> tuple[int, list[int] | None]:
        """Best partition of the graph ``adj`` (holding one of ``pairs`` in a group).

        Returns (value, groups) if the value exceeds ``floor`` (groups only for
        ``pairs`` None), else (floor, None); stops once a value reaches ``cap``.

        If the graph is a unit interval graph, the staircase programmes give the answer.
        Otherwise the same problem on the unit interval closure of G (_closure_view, in
        the LexBFS order) bounds the answer from above and prunes a graph that cannot
        beat the floor. Else take an induced path a - x - b (_p3) and its weaker edge
        x - y: every partition either cuts x - y, or keeps x and y in one group, and then
        uses no edge from x to a vertex not adjacent to y (nor from y to one not
        adjacent to x); the best partition of G is the better of the two branches (a
        branch that cuts one of ``pairs`` loses that pair). Each branch has at least one
        edge fewer. A graph met twice is skipped the second time: the floor only rises,
        so its value has already been counted.
        """
        key = tuple(adj)
        if key in seen:
            return floor, None
        seen.add(key)
        self._branch_left -= 1
        if self._branch_left < 0:
            raise _GiveUp
        order: list[int] = []
        view = _interval_view(adj, self.budget, order)
        if view is not None:
            view._optima()
            g = int(view.F[view.n])
            if pairs is None:
                return (g, view.groups()) if g > floor else (floor, None)
            if g <= floor:
                return floor, None
            value = view.together(pairs, floor, min(cap, g))
            return (value, None) if value > floor else (floor, None)
        # an upper bound: the same problem on the unit interval closure of G in the
        # LexBFS order (G is often one edge or two away from a unit interval graph)
        closure = _closure_view(adj, order, self.budget)
        closure._optima()
        bound = int(closure.F[closure.n])
        if pairs is not None and bound > floor:
            bound = closure.together(pairs, floor, min(cap, bound))
        if bound <= floor:
            return floor, None
        path = _p3(adj, order)
        if path is None:  # cannot happen (a cluster graph has a unit interval order)
            raise _GiveUp
        a, x, b = path
        # the weaker edge of the path (smaller p-value): x, y = its ends
        x, y = (x, a) if self.level[x][a] <= self.level[x][b] else (x, b)
        # cut x - y, or keep x and y together: then no edge from x to a vertex not
        # adjacent to y (or from y to one not adjacent to x) can be used
        cut = [(x, y)]
        merged = [(x, w) for w in _bits(adj[x] & ~adj[y] & ~(1 << y))]
        merged += [(y, w) for w in _bits(adj[y] & ~adj[x] & ~(1 << x))]
        best_groups = None
        for edges in (cut, merged):
            rest = pairs
            if pairs is not None:
                rest = [e for e in pairs if (e[0], e[1]) not in edges and (e[1], e[0]) not in edges]
                if not rest:
                    continue
            sub = list(adj)
            for i, j in edges:
                sub[i] &= ~(1 << j)
                sub[j] &= ~(1 << i)
            value, groups = self._branch(sub, rest, floor, cap, seen)
            if value > floor:
                floor, best_groups = value, groups
                self._branch_floor = floor
                if floor >= cap:
                    break
        return floor, best_groups

    # -- levels ------------------------------------------------------------------------

    def _advance(self, lev: int) -> None:
        """Remove the edges of the levels below ``lev`` from G."""
        adj = self.adj
        while self.adj_level < lev:
            removed = self.edges_at[self.adj_level]
            for i, j in removed:
                adj[i] &= ~(1 << j)
                adj[j] &= ~(1 << i)
            if self.opt_groups is not None and _uses(self.opt_groups, removed):
                self.opt_groups = None
            view = self.view
            if view is not None:
                # the longest pairs first: a shorter one may become a corner after them
                spans = sorted(
                    (sorted((view.pos[i], view.pos[j])) for i, j in removed),
                    key=lambda e: e[0] - e[1],
                )
                for p, q in spans:
                    if not view.remove_edge(p, q):
                        self.view = None
                        break
            self.adj_level += 1

    def level_count(self, lev: int, t: float, d: float) -> int:
        """c(t) for the lev-th level if t * c(t) > d, else 0 (or s with t * s <= d)."""
        self._advance(lev)
        adj = self.adj
        edges = sum(a.bit_count() for a in adj) // 2
        if t * edges <= d:
            return 0
        # g only falls as the threshold rises: the last computed g bounds it
        if self.g_known and t * self.opt_value <= d:
            return 0
        special = self.edges_at[lev]
        if self.view is None:
            self.view = _interval_view(adj, self.budget)
            if self.view is not None:  # a good line for the lower bounds at later levels
                self.line = list(self.view.order)
                self.line_pos = list(self.view.pos)
        if self.view is not None:
            count = self.view.level_count(special, t, d)
            self.opt_value = int(self.view.F[self.k])
            self.opt_groups = self.view.groups()
            self.g_known = True
            return count
        lower_g, lower_c = self._contiguous_lower_bounds(special)
        if self.g_known and lower_c >= self.opt_value:
            return lower_c  # c(t) <= g(t) <= last g <= a feasible value of c(t)
        if self.opt_groups is None:
            found = self._branch_search(
                None, max(lower_g, lower_c) - 1, self._colour_bound(self.full)
            )
            if found is not None and found[1] is not None:
                self.opt_value, self.opt_groups = found
            else:  # too far from a unit interval graph: the search over cliques
                # f's floor must lie below f: a feasible value minus one
                self.opt_value = self.f(self.full, self._branch_floor - 1)
                self.opt_groups = self._partition(self.full)
            self.g_known = True
        g = self.opt_value
        if t * g <= d:
            return 0
        groups = self.opt_groups
        if _uses(groups, special) or lower_c >= g:
            return g
        floor = _count_floor(t, d, g)
        # a known partition using a special edge: move one end into the other's group
        # (when adjacent to all of it), or take the pair out as a group of its own
        known = 0
        group_of = {}
        for grp in groups:
            x = grp
            while x:
                low = x & -x
                group_of[low.bit_length() - 1] = grp
                x ^= low
        for a, b in special:
            ga, gb = group_of[a], group_of[b]
            na, nb = ga.bit_count(), gb.bit_count()
            base = g - na * (na - 1) // 2 - nb * (nb - 1) // 2
            options = [base + 1 + (na - 1) * (na - 2) // 2 + (nb - 1) * (nb - 2) // 2]
            if ga & ~adj[b] == 0:
                options.append(base + (na + 1) * na // 2 + (nb - 1) * (nb - 2) // 2)
            if gb & ~adj[a] == 0:
                options.append(base + (nb + 1) * nb // 2 + (na - 1) * (na - 2) // 2)
            known = max(known, *options)
        best = max(floor, known, lower_c)
        if best < g:
            found = self._branch_search(special, best, g)
            if found is not None:
                return found[0] if found[0] > floor else 0
            best = self._branch_floor
        if best < g:
            best = self._best_with_pair(special, best, g)
        return best if best > floor else 0

    def _best_with_pair(self, special: Sequence[tuple[int, int]], best: int, cap: int) -> int:
        """c(t) by the search over cliques, if above ``best``: the best partition of G
        with some pair of ``special`` inside one group; stops once ``cap`` is reached."""
        for a, b in special:
            best = max(best, self._pair_value(self.full, a, b, best, cap))
            if best >= cap:
                break
        return best

    def _pair_value(self, u: int, a: int, b: int, floor: int, cap: int) -> int:
        """Best partition of G[U] with a and b in one group, if above ``floor`` (else
        ``floor``); stops once ``cap`` is reached. a and b are adjacent.

        Groups are cliques, so a partition splits along the connected components of
        G[U]: the value is the best partition of a's component K holding a and b
        together (_pair_by_largest_group), plus f(U - K) (memoised, split into
        components by f).
        """
        comp = self._component(u, 1 << a)
        others = self.f(u & ~comp) if u != comp else 0
        value = self._pair_by_largest_group(comp, a, b, floor - others, cap - others)
        return max(floor, value + others)

    def _pair_by_largest_group(self, u: int, a: int, b: int, floor: int, cap: int) -> int:
        """_pair_value on a dense G[U], by the largest group of an optimal partition.

        Let L be the largest group of an optimal partition with a and b together. A
        vertex w outside L adjacent to all of L, in group B, could move into L for a
        gain of |L| - (|B| - 1) >= 1 without separating a and b, unless w is a or b
        and L holds neither. So either L holds a and b and is a maximal clique of G[U],
        worth C(|L|, 2) + f(U - L); or L holds neither and is a maximal clique of
        G[U - a - b], worth C(|L|, 2) + (the same problem on U - L). Every such L gives
        a feasible partition, so the maximum over both families is exact. On a dense
        graph the maximal cliques (the maximal independent sets of the sparse
        complement) are few, while the cliques holding a and b are exponentially many.
        """
        adj = self.adj
        pair = (1 << a) | (1 << b)
        common = u & adj[a] & adj[b]
        holding = _maximal_cliques(self.budget, adj, pair, common)
        best, _ = self._over_cliques(u, holding, lambda rest, base, best: self.f(rest), floor, cap)
        if best >= cap:
            return best
        avoiding = _maximal_cliques(self.budget, adj, 0, u & ~pair)
        best, _ = self._over_cliques(
            u,
            avoiding,
            lambda rest, base, best: self._pair_value(rest, a, b, best - base, cap - base),
            best,
            cap,
        )
        return best


def _maximal_cliques(budget: _Budget, adj: list[int], r: int, p: int) -> list[int]:
    """Every maximal clique of G[R + P] that contains R (R a clique, P its common
    neighbours), by Bron-Kerbosch with a pivot of most neighbours in P."""
    out = []
    stack = [(r, p, 0)]
    while stack:
        r, p, x = stack.pop()
        budget.spend()
        if not p:
            if not x:
                out.append(r)
            continue
        cand = p | x
        pivot, most = -1, -1
        while cand:
            low = cand & -cand
            v = low.bit_length() - 1
            count = (adj[v] & p).bit_count()
            if count > most:
                pivot, most = v, count
            cand ^= low
        for v in _bits(p & ~adj[pivot]):
            bit = 1 << v
            stack.append((r | bit, p & adj[v], x & adj[v]))
            p &= ~bit
            x |= bit
    return out


def _uses(groups: list[int], pairs: Sequence[tuple[int, int]]) -> bool:
    """Whether some group (bit mask) contains both ends of one of ``pairs``."""
    for grp in groups:
        for i, j in pairs:
            if grp >> i & 1 and grp >> j & 1:
                return True
    return False


def _count_floor(t: float, d: float, cap: int) -> int:
    """Largest s <= cap with t * s <= d (floating point, as the APVs are computed)."""
    s = cap if t <= 0 or d / t >= cap else int(d / t)
    while s < cap and t * (s + 1) <= d:
        s += 1
    while s > 0 and t * s > d:
        s -= 1
    return s


def _validate(pvalues: np.ndarray) -> np.ndarray:
    p = np.asarray(pvalues, dtype=float)
    if p.ndim != 2 or p.shape[0] != p.shape[1]:
        raise ValueError(f"pvalues must be a square k x k matrix, got shape {p.shape}")
    k = p.shape[0]
    iu = np.triu_indices(k, 1)
    upper, lower = p[iu], p.T[iu]
    if np.isnan(upper).any() or np.isnan(lower).any():
        raise ValueError("pvalues has NaN outside the diagonal")
    if not np.array_equal(upper, lower):
        raise ValueError("pvalues must be symmetric (p[i, j] == p[j, i])")
    if upper.size and (upper.min() < 0.0 or upper.max() > 1.0):
        raise ValueError("pvalues must lie in [0, 1]")
    return p


def bergmann_hommel(
    pvalues: np.ndarray,
    *,
    bh_budget: float | None = DEFAULT_BUDGET_S,
    max_steps: int | None = None,
    progress: bool | None = None,
    order: Sequence[int] | None = None,
    budget_seconds: Any = _RENAMED,
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
    max_steps : int or None, optional
        A budget in search steps instead of (or as well as) seconds, machine
        independent (about a million steps a second); None (default) means no limit.
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

    Returns
    -------
    numpy.ndarray, shape (k, k)
        Symmetric matrix of adjusted p-values with a NaN diagonal.

    Raises
    ------
    ValueError
        If ``pvalues`` is not a square symmetric matrix of numbers in [0, 1]
        (:class:`CdplotInputError` for a bad ``budget_seconds``).
    BergmannHommelLimitError
        If the exact computation exceeds ``budget_seconds`` or ``max_steps``; the
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
        raise ValueError(f"{engine!r} is not a valid engine; use 'auto', 'robinson' or 'general'")
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
        raise ValueError("pvalues is not a Robinson matrix in any order this search finds")
    else:
        lev = np.zeros((k, k), dtype=np.int64)
        lev[rows, cols] = level_of
        lev[cols, rows] = level_of
        solver = _GeneralEngine(lev, len(levels), budget, _seriation(p))

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

"""Bergmann-Hommel, polynomial cases: Robinson orders and unit interval graphs.

The exact engine of :mod:`cdplot.stats._exhaustive` (notation there) computes, at each
p-value level t, the largest number of within-group pairs of a partition into cliques
of G_t that uses a level-t edge. When the p-values form a Robinson matrix in some order
(``_RobinsonEngine``), or when G_t is a unit interval graph (``_IntervalView``), the
staircase programmes of ``_Staircase`` solve it in polynomial time. Also the LexBFS
recognition of unit interval graphs, their closure, and induced paths a - x - b.
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence

import numpy as np

from ._bh_budget import _Budget

#: candidate extreme pairs tried when looking for a Robinson order
_ROBINSON_TRIES = 4


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
        keys = list(zip(-q[a], q[b], strict=True))  # decreasing p to a, then increasing p to b
        order = sorted(range(k), key=keys.__getitem__)
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


def _count_floor(t: float, d: float, cap: int) -> int:
    """Largest s <= cap with t * s <= d (floating point, as the APVs are computed)."""
    s = cap if t <= 0 or d / t >= cap else int(d / t)
    while s < cap and t * (s + 1) <= d:
        s += 1
    while s > 0 and t * s > d:
        s -= 1
    return s

"""Bergmann-Hommel, the general case: branching and a bit-mask dynamic programme.

For a p-value matrix that is not Robinson, :class:`_GeneralEngine` computes c(t) level by
level (notation in :mod:`cdplot.stats._exhaustive`): on unit interval graphs with the
staircase programmes, else by branching on induced paths, else by an exact dynamic
programme over vertex sets, with bounds and a dominance rule.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from ._bh_budget import _Budget, _GiveUp
from ._bh_staircase import _closure_view, _count_floor, _interval_view, _IntervalView, _p3


def _bits(x: int) -> list[int]:
    """The positions of the set bits of x, increasing."""
    out = []
    while x:
        low = x & -x
        out.append(low.bit_length() - 1)
        x ^= low
    return out


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
        assert groups is not None  # set just above when it was not known
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

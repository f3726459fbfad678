"""Groups of algorithms that are not significantly different (the bars of a CD diagram)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

__all__ = ["find_groups"]


def find_groups(
    order: Sequence[int], significant: np.ndarray
) -> tuple[list[list[int]], list[tuple[int, int]]]:
    """Maximal runs, consecutive in rank order, with no significant pair inside.

    Parameters
    ----------
    order : sequence of int
        Algorithm indices sorted best (lowest average rank) first.
    significant : numpy.ndarray
        k x k symmetric boolean matrix, True where a pair differs significantly.

    Returns
    -------
    groups : list of list of int
        Maximal runs as index lists in rank order, best run first. A run is
        maximal when no longer run contains it; an algorithm that differs
        significantly from both neighbours forms a group of its own.
    uncovered : list of (int, int)
        Non-significant pairs that lie in no group (the better-ranked first):
        non-significance is not transitive, so a bar cannot show them.

    Notes
    -----
    For position ``s`` in the order, ``end[s]`` is the last position such that
    the run ``s..end[s]`` has no significant pair; ``end`` never decreases, so
    the maximal runs are those with ``end[s] > end[s - 1]``. With the Nemenyi
    test this gives the runs whose rank range is below the critical difference.

    Examples
    --------
    >>> import numpy as np
    >>> from cdplot.stats import find_groups
    >>> significant = np.zeros((4, 4), dtype=bool)
    >>> significant[0, 3] = significant[3, 0] = True
    >>> find_groups([0, 1, 2, 3], significant)
    ([[0, 1, 2], [1, 2, 3]], [])
    """
    order = list(order)
    k = len(order)
    sig = np.asarray(significant, dtype=bool)[np.ix_(order, order)]
    end = np.empty(k, dtype=int)
    stop = 0
    for s in range(k):
        stop = max(stop, s)
        while stop + 1 < k and not sig[s : stop + 1, stop + 1].any():
            stop += 1
        end[s] = stop
    runs = [(s, int(end[s])) for s in range(k) if s == 0 or end[s] > end[s - 1]]
    groups = [[order[t] for t in range(a, b + 1)] for a, b in runs]
    covered = np.zeros((k, k), dtype=bool)
    for a, b in runs:
        covered[a : b + 1, a : b + 1] = True
    uncovered = [
        (order[a], order[b])
        for a in range(k)
        for b in range(a + 1, k)
        if not sig[a, b] and not covered[a, b]
    ]
    return groups, uncovered

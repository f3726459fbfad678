"""Shaffer's static procedure: the possible numbers of true pairwise hypotheses.

When k algorithms are compared pairwise, a set of the m = k(k-1)/2 null hypotheses
"algorithm i performs like algorithm j" can be true together exactly when the true
hypotheses are the within-group pairs of a partition of the algorithms (an *exhaustive*
set; García & Herrera 2008, Definition 1). Shaffer's S(k) is the set of their possible
sizes; his multipliers t_i are the largest of them at each step. Also the number of
exhaustive sets, Bell(k) - 1.
"""

from __future__ import annotations

import numpy as np

from .._errors import CdplotInputError

__all__ = ["count_exhaustive_sets", "shaffer_counts", "shaffer_multipliers"]

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
        raise CdplotInputError(
            f"k must be an integer (the number of algorithms), not {type(k).__name__}."
        )
    if k < 0:
        raise CdplotInputError(f"k must be non-negative (the number of algorithms), got {k}.")
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

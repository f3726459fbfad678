"""Pool sensitivity of the mean-ranks post-hoc test (Benavoli, Corani & Mangili 2016).

The mean-ranks test compares two algorithms through their average ranks, which are computed
against *all* algorithms in the comparison; so the decision on a pair (a, b) can change when
other algorithms are added or removed. :func:`pool_sensitivity` shows it: for every pair and
every number of other algorithms added to it, in how many of those pools the test declares
a and b significantly different.
"""

from __future__ import annotations

import itertools
import math
from typing import TYPE_CHECKING, Any

import numpy as np

from .._errors import CdplotInputError, check_bool
from ..io import parse_scores
from ._options import check_alpha, check_direction_of_result
from ._special import special

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

__all__ = ["depending_pairs", "pool_sensitivity"]

#: Columns of the frame returned by :func:`pool_sensitivity`.
COLUMNS = [
    "a",
    "b",
    "others",
    "pool_size",
    "pools",
    "significant",
    "fraction",
    "sampled",
    "depends_on_pool",
]


def _pool_threshold(m: int, n: int, alpha: float) -> float:
    """Smallest |R_a - R_b| the Bonferroni mean-ranks test calls significant in a pool of m."""
    z_star = -special.ndtri(alpha / (m * (m - 1)))  # upper alpha/(m(m-1)) normal quantile
    return float(z_star * math.sqrt(m * (m + 1) / (6.0 * n)))


def _half_losses(oriented: np.ndarray) -> np.ndarray:
    """``H[a, s] = 2 * #(s beats a) + #(ties of a and s)``, an integer k x k matrix.

    A pool's average rank of ``a`` is ``1 + sum_{s in pool, s != a} H[a, s] / (2N)``.
    """
    k = oriented.shape[1]
    h = np.zeros((k, k), dtype=np.int64)
    for a in range(k):
        col = oriented[:, a : a + 1]
        h[a] = 2 * (oriented > col).sum(axis=0) + (oriented == col).sum(axis=0)
    np.fill_diagonal(h, 0)
    return h


def _subsets(
    n_items: int, size: int, max_pools: int, rng: np.random.Generator
) -> tuple[np.ndarray, bool]:
    """All ``size``-subsets of ``range(n_items)`` as rows, or ``max_pools`` random ones."""
    total = math.comb(n_items, size)
    if total <= max_pools:
        combos = list(itertools.combinations(range(n_items), size))
        return np.array(combos, dtype=np.intp).reshape(total, size), False
    # random subsets, drawn independently (a subset may repeat; negligible when total >> max_pools)
    keys = rng.random((max_pools, n_items))
    return np.argsort(keys, axis=1)[:, :size], True


def pool_sensitivity(
    data_or_result: Any,
    *,
    alpha: float = 0.05,
    others: int | list[int] | None = None,
    max_pools: int = 1000,
    random_state: int | np.random.Generator | None = 0,
    higher_is_better: bool | None = None,
) -> pd.DataFrame:
    """How the mean-ranks test's decision on each pair depends on the other algorithms.

    For every pair ``(a, b)`` and every number ``c`` of other algorithms added to
    it ("Card" in Benavoli et al.'s Table 1), the mean-ranks test is run in each
    pool ``{a, b} + c others``: ranks are recomputed within the pool and the
    Bonferroni-corrected threshold of the pool's size is used. The frame counts
    the pools in which ``a`` and ``b`` are declared significantly different.

    Parameters
    ----------
    data_or_result : ComparisonResult, DataFrame, array or path
        A result of :func:`cdplot.compare` (its scores and ``higher_is_better``
        are used; the result is not changed: ``result.summary(pool=frame)``
        reports the frame), or
        scores in any form :func:`cdplot.compare` accepts (wide or long table).
    alpha : float, default 0.05
        Family-wise significance level of each pool's test.
    others : int or list of int, optional
        The numbers of other algorithms to add (each in ``0 .. k - 2``).
        Default: all of them, ``0`` (the pair alone) to ``k - 2`` (the whole
        comparison).
    max_pools : int, default 1000
        Pools evaluated per pair and size at most. When a size has more pools
        than this (large k), ``max_pools`` random pools are drawn (seeded by
        ``random_state``) and the rows say ``sampled=True``.
    random_state : int, numpy.random.Generator or None, default 0
        Seed of the pool sampling (only used when pools are sampled).
    higher_is_better : bool, optional
        For raw scores: False for error rates, losses or run times. Not given: higher is
        better, with a warning when the score column is named like an error, loss or time,
        as in :func:`cdplot.compare`. For a result: its own direction; a different value is
        refused.

    Returns
    -------
    pandas.DataFrame
        One row per pair (in input order, ``a`` before ``b``) and number of
        others, with columns ``a``, ``b``, ``others`` (c), ``pool_size``
        (m = c + 2), ``pools`` (pools evaluated), ``significant`` (pools in
        which the pair is significantly different), ``fraction``
        (``significant / pools``), ``sampled`` (pools were sampled, not
        enumerated) and ``depends_on_pool`` (per pair: the decision is not the
        same in every evaluated pool, of any size). ``frame.attrs`` holds
        ``alpha``, ``max_pools``, ``random_state``, ``sampled`` (any row
        sampled) and ``algorithms``.

    Raises
    ------
    CdplotInputError
        For unusable scores, fewer than three algorithms, an ``alpha`` outside
        (0, 1), an invalid ``others`` or ``max_pools``.

    Notes
    -----
    In a pool of m algorithms over N datasets the mean-ranks test declares a
    and b different when (Benavoli et al. 2016, eq. 4)

    .. math:: |\\bar R_a - \\bar R_b| \\ge z^* \\sqrt{m(m+1)/(6N)},\\qquad
              z^* = \\Phi^{-1}\\left(1 - \\frac{\\alpha}{m(m-1)}\\right),

    Bonferroni over the pool's m(m - 1)/2 two-sided comparisons. The rank of a
    within a pool is one plus the number of pool members that beat it (ties
    count one half), so the pool's average-rank difference is
    ``(H[a,b] - H[b,a] + sum_{s in others} (H[a,s] - H[b,s])) / (2N)`` with
    ``H[a, s] = 2 #(s beats a) + #(ties)``: exact integers, no re-ranking.

    References
    ----------
    A. Benavoli, G. Corani and F. Mangili, "Should we really use post-hoc tests
    based on mean-ranks?", JMLR 17(5), 1-10, 2016 (Section 4.3, Table 1).

    Examples
    --------
    >>> import cdplot
    >>> frame = cdplot.pool_sensitivity(cdplot.datasets.load("benavoli2016"), others=[2, 3, 4])
    >>> row = frame[(frame.a == "C2") & (frame.b == "C4")]
    >>> [f"{s}/{p}" for s, p in zip(row.significant, row.pools)]
    ['7/10', '9/10', '3/5']
    """
    from ._results import is_comparison

    result = data_or_result if is_comparison(data_or_result) else None
    if result is not None:
        scores = np.asarray(result._input.scores, dtype=float)  # no table is built
        names = [str(a) for a in result.algorithms]
        better_high = check_direction_of_result(higher_is_better, result.higher_is_better)
    else:
        table = parse_scores(data_or_result, warn_direction=higher_is_better is None)
        scores, names = table.scores, [str(a) for a in table.algorithms]
        better_high = (
            True if higher_is_better is None else check_bool(higher_is_better, "higher_is_better")
        )
    alpha = check_alpha(alpha)
    n, k = scores.shape
    if k < 3:
        raise CdplotInputError(
            f"pool sensitivity needs at least three algorithms (got {k}); with two there is "
            "no other algorithm to add to the pool."
        )
    sizes = _check_others(others, k)
    if isinstance(max_pools, bool) or not isinstance(max_pools, (int, np.integer)):
        raise CdplotInputError(f"max_pools must be a positive integer, got {max_pools!r}.")
    if max_pools < 1:
        raise CdplotInputError(f"max_pools must be a positive integer, got {max_pools!r}.")
    rng = np.random.default_rng(random_state)

    oriented = scores if better_high else -scores
    h = _half_losses(oriented)
    thresholds = {c: _pool_threshold(c + 2, n, alpha) * 2 * n for c in sizes}
    subsets = {c: _subsets(k - 2, c, int(max_pools), rng) for c in sizes}

    rows: list[list[Any]] = []
    for a, b in itertools.combinations(range(k), 2):
        rest = np.array([s for s in range(k) if s not in (a, b)], dtype=np.intp)
        base = int(h[a, b] - h[b, a])
        gain = (h[a, rest] - h[b, rest]).astype(np.int64)
        pair_rows = []
        for c in sizes:
            combos, sampled = subsets[c]
            diffs = base + gain[combos].sum(axis=1) if c else np.array([base])
            sig = int(np.count_nonzero(np.abs(diffs) >= thresholds[c]))
            pools = len(diffs)
            pair_rows.append([names[a], names[b], c, c + 2, pools, sig, sig / pools, sampled])
        fractions = {row[6] for row in pair_rows}
        depends = len(fractions) > 1 or not fractions <= {0.0, 1.0}
        rows.extend(row + [depends] for row in pair_rows)

    import pandas as pd

    frame = pd.DataFrame(rows, columns=COLUMNS)
    frame.attrs.update(
        alpha=alpha,
        max_pools=int(max_pools),
        random_state=random_state if isinstance(random_state, (int, type(None))) else "Generator",
        sampled=bool(frame["sampled"].any()),
        algorithms=list(names),
    )
    return frame


def _check_others(others: Any, k: int) -> list[int]:
    if others is None:
        return list(range(k - 1))
    values = [others] if isinstance(others, (int, np.integer)) else others
    try:
        sizes = sorted({int(c) for c in values})
    except (TypeError, ValueError):
        raise CdplotInputError(
            f"others must be an integer or a list of integers in 0..{k - 2}, got {others!r}."
        ) from None
    if not sizes or sizes[0] < 0 or sizes[-1] > k - 2:
        raise CdplotInputError(
            f"others must be in 0..{k - 2} (the number of other algorithms to add to a pair "
            f"of the {k}), got {others!r}."
        )
    return sizes


def depending_pairs(frame: pd.DataFrame) -> list[tuple[str, str]]:
    """The pairs whose decision depends on the pool, from a :func:`pool_sensitivity` frame.

    Parameters
    ----------
    frame : pandas.DataFrame
        The frame returned by :func:`pool_sensitivity`.

    Returns
    -------
    list of tuple of str
        ``(a, b)`` pairs flagged ``depends_on_pool``, in the frame's order.

    Examples
    --------
    >>> import cdplot
    >>> frame = cdplot.pool_sensitivity(cdplot.datasets.load("benavoli2016"), others=[2, 3, 4])
    >>> depending_pairs(frame)[:2]
    [('C2', 'C4'), ('C2', 'C7')]
    """
    flagged = frame.loc[frame["depends_on_pool"], ["a", "b"]].drop_duplicates()
    return [(str(a), str(b)) for a, b in flagged.itertuples(index=False)]


def __getattr__(name: str) -> Any:
    # the sentence moved to the report layer (facts in stats, words in report)
    if name == "pool_sensitivity_note":
        from ..report._notes import pool_sensitivity_note

        return pool_sensitivity_note
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

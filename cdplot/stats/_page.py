"""Page's L test for an ordered alternative (Page 1963).

The algorithms are expected in a known order (e.g. model sizes): Page's
``L = sum_j j R_j`` sums the rank sums ``R_j`` (ranks ascending within each dataset, 1 =
smallest score) weighted by the predicted rank ``j``. Under the null every ranking of a
dataset is equally likely, ``E L = N k (k + 1)^2 / 4`` and
``Var L = N k^2 (k + 1)(k^2 - 1) / 144``.

The exact p-value convolves the null distribution of one dataset's ``sum_j j r_j`` over
the k! rankings N times (valid without ties); it is used for small tables, with scipy's
rule (``k <= 8``, and ``N <= 12`` or ``k <= 3``, and ``N <= 20``). Otherwise the normal
approximation of PMCMRplus ``pageTest``: ``z = (L - E L - 1/2) / sqrt(Var L)``, upper
tail for "greater", lower for "less", ``2 min(P(Z > |z|), 1/2)`` two-sided (with
``continuity=False`` the half is dropped, which is scipy's asymptotic form).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .._errors import CdplotInputError, check_in_list, spell
from ._ranks import rank_rows
from ._test_results import OmnibusResult

__all__ = ["PAGE_ALTERNATIVES", "PAGE_METHODS", "page_test"]

PAGE_ALTERNATIVES = ("greater", "less", "two-sided")
PAGE_METHODS = ("auto", "exact", "asymptotic")


def _one_block_pmf(k: int) -> np.ndarray:
    """P(sum_j j pi_j = v) over the k! permutations, indexed by v (dynamic programming).

    State: the set of ranks used so far (a bitmask); position ``j`` takes one free rank.
    """
    top = k * (k + 1) * (2 * k + 1) // 6
    table = np.zeros((1 << k, top + 1))
    table[0, 0] = 1.0
    for mask in range(1 << k):
        row = table[mask]
        if not row.any():
            continue
        pos = bin(mask).count("1") + 1
        for rank in range(1, k + 1):
            bit = 1 << (rank - 1)
            if not mask & bit:
                shift = pos * rank
                table[mask | bit, shift:] += row[: top + 1 - shift]
    return table[-1] / math.factorial(k)


def _exact_upper(stat: int, n: int, k: int) -> tuple[float, float]:
    """``P(L >= stat)`` and ``P(L <= stat)`` under the null, by convolution."""
    block = _one_block_pmf(k)
    dist = np.ones(1)
    for _ in range(n):
        dist = np.convolve(dist, block)
    upper = float(min(1.0, dist[stat:].sum()))
    lower = float(min(1.0, dist[: stat + 1].sum()))
    return upper, lower


def _choose_method(n: int, k: int) -> str:
    return "asymptotic" if k > 8 or (n > 12 and k > 3) or n > 20 else "exact"


def page_test(
    scores: Any,
    *,
    alternative: str = "greater",
    method: str = "auto",
    continuity: bool = True,
) -> OmnibusResult:
    """Page's L test that the algorithms' scores increase in the order of the columns.

    Parameters
    ----------
    scores : array_like
        N x k scores, rows = datasets, columns = algorithms in the predicted order
        (the first expected to score lowest under ``alternative="greater"``).
    alternative : {"greater", "less", "two-sided"}, default "greater"
        "greater": scores increase along the columns (scipy's
        ``page_trend_test``); "less": they decrease; "two-sided": either.
    method : {"auto", "exact", "asymptotic"}, default "auto"
        "exact" convolves the null distribution (tables without ties within a
        dataset); "auto" uses it for small tables (scipy's rule).
    continuity : bool, default True
        Continuity correction of the normal approximation (PMCMRplus
        ``pageTest``); False gives scipy's asymptotic p-value.

    Returns
    -------
    OmnibusResult
        ``statistic`` is L, ``pvalue`` the p-value, ``df`` the number of datasets,
        ``name`` says which p-value (exact or normal approximation).

    Examples
    --------
    >>> import numpy as np
    >>> res = page_test(np.array([[1, 2, 3], [1, 3, 2], [1, 2, 3], [2, 1, 3.0]]))
    >>> res.statistic, round(res.pvalue, 4)
    (54.0, 0.0255)
    """
    from ._special import special

    x = np.asarray(scores, dtype=float)
    if x.ndim != 2 or x.shape[1] < 3 or x.shape[0] < 2 or not np.isfinite(x).all():
        raise CdplotInputError(
            f"Page's test needs a complete N x k table of finite scores with k >= 3 "
            f"algorithms and N >= 2 datasets, got shape {x.shape}; drop incomplete datasets "
            "first (e.g. cdplot.compare(..., missing='drop') reads the table)."
        )
    alternative = check_in_list(PAGE_ALTERNATIVES, alternative=alternative)
    method = check_in_list(PAGE_METHODS, method=method)
    n, k = x.shape
    ranks = rank_rows(x)  # ascending: 1 = smallest score
    stat = float((ranks.sum(axis=0) * np.arange(1, k + 1)).sum())
    tied = bool((np.sort(ranks, axis=1) != np.arange(1, k + 1)).any())
    if method == "auto":
        method = "asymptotic" if tied else _choose_method(n, k)
    if method == "exact":
        if tied:
            raise CdplotInputError(
                f"the exact null distribution of Page's L assumes no ties within a dataset; "
                f"this table has ties: use {spell('method', 'asymptotic')} (or 'auto')."
            )
        upper, lower = _exact_upper(round(stat), n, k)
        name = "Page's L test (exact)"
    else:
        mean = n * k * (k + 1) ** 2 / 4.0
        sd = math.sqrt(n * k**2 * (k + 1) * (k**2 - 1) / 144.0)
        # PMCMRplus: one z with the half subtracted, whatever the direction
        z = (stat - mean - (0.5 if continuity else 0.0)) / sd
        upper, lower = float(special.ndtr(-z)), float(special.ndtr(z))
        if alternative == "two-sided":
            return OmnibusResult(
                stat,
                2.0 * min(float(special.ndtr(-abs(z))), 0.5),
                float(n),
                "Page's L test (normal approximation)",
            )
        name = "Page's L test (normal approximation)"
    if alternative == "greater":
        p = upper
    elif alternative == "less":
        p = lower
    else:
        p = min(1.0, 2.0 * min(upper, lower))
    return OmnibusResult(stat, p, float(n), name)

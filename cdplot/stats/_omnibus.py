"""Omnibus tests: Friedman's chi-square, the Iman-Davenport F, and the registry of omnibus tests.

The registry :data:`OMNIBUS_TESTS` maps each name ``compare(omnibus=...)`` accepts to a pure
function of the score table; the tests other than Friedman's live in their own modules
(``_aligned``, ``_quade``, ``_skillings_mack``).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .._errors import CdplotInputError, check_in_list
from ._aligned import aligned_ranks_test
from ._durbin import durbin_test
from ._page import page_test
from ._parametric import rm_anova_test
from ._quade import quade_test
from ._ranks import rank_rows
from ._skillings_mack import skillings_mack_test
from ._special import special
from ._tails import chi2_sf, f_sf
from ._test_results import OmnibusResult

__all__ = [
    "INCOMPLETE_OMNIBUS",
    "OMNIBUS_ALIASES",
    "OMNIBUS_TESTS",
    "friedman",
    "friedman_test",
    "iman_davenport",
    "resolve_omnibus",
    "tie_correction_factor",
]


def tie_correction_factor(ranks: np.ndarray) -> float:
    """Friedman's tie correction ``C = 1 - sum(t^3 - t) / (N k (k^2 - 1))``.

    ``t`` runs over the sizes of the groups of tied ranks within each dataset
    (row) of the N x k rank matrix.
    """
    ranks = np.asarray(ranks, dtype=float)
    n, k = ranks.shape
    ordered = np.sort(ranks, axis=1)
    # a tie block of size t shows up as t equal consecutive ranks in a sorted row
    new_block = np.ones_like(ordered, dtype=bool)
    new_block[:, 1:] = ordered[:, 1:] != ordered[:, :-1]
    block_id = np.cumsum(new_block.ravel())
    sizes = np.bincount(block_id).astype(float)[1:]
    ties = float(np.sum(sizes**3 - sizes))
    return 1.0 - ties / (n * k * (k * k - 1.0))


def friedman(avg_ranks: np.ndarray, n_datasets: int, *, tie_factor: float = 1.0) -> OmnibusResult:
    """Friedman's chi-square from average ranks.

    Parameters
    ----------
    avg_ranks : array_like
        The k average ranks.
    n_datasets : int
        N, the number of datasets the ranks are averaged over.
    tie_factor : float, optional
        Divide the statistic by this tie-correction factor (see
        :func:`tie_correction_factor`); 1 (no correction) gives Demšar's formula.

    Returns
    -------
    OmnibusResult
        ``statistic`` chi2_F, ``pvalue`` from the chi-square distribution with
        ``df = k - 1`` degrees of freedom.

    Notes
    -----
    Demšar (2006), eq. in §3.2.2:
    ``chi2_F = 12 N / (k (k + 1)) * sum_j (R_j - (k + 1) / 2)^2``, which equals
    ``12 N / (k (k + 1)) * (sum_j R_j^2 - k (k + 1)^2 / 4)``. With
    ``tie_factor`` it matches R's ``friedman.test`` and
    ``scipy.stats.friedmanchisquare``. When every algorithm ties on every
    dataset the corrected statistic is 0/0; it is then defined as 0 (p = 1).

    Examples
    --------
    >>> import numpy as np
    >>> from cdplot.stats import friedman
    >>> res = friedman(np.array([3.143, 2.000, 2.893, 1.964]), 14)  # Demšar (2006) §3.2.4
    >>> round(res.statistic, 2), res.df
    (9.28, 3.0)
    """
    r = np.asarray(avg_ranks, dtype=float)
    k = r.size
    n = float(n_datasets)
    ss = float(np.sum((r - (k + 1) / 2.0) ** 2))
    chi2 = 12.0 * n / (k * (k + 1.0)) * ss
    if tie_factor != 1.0:
        chi2 = chi2 / tie_factor if tie_factor > 0 else 0.0
    df = k - 1
    pvalue = _chi2_sf(float(df), chi2)
    return OmnibusResult(float(chi2), pvalue, float(df), "Friedman chi-square")


def iman_davenport(chi2: float, k: int, n_datasets: int) -> OmnibusResult:
    """Iman and Davenport's F from Friedman's chi-square.

    ``F_F = (N - 1) chi2_F / (N (k - 1) - chi2_F)`` with ``(k - 1, (k - 1)(N - 1))``
    degrees of freedom (Demšar 2006, §3.2.2). When every dataset ranks the
    algorithms identically the denominator vanishes: F = inf, p = 0.

    Examples
    --------
    >>> from cdplot.stats import iman_davenport
    >>> res = iman_davenport(9.28, 4, 14)  # Demšar (2006) §3.2.4: F_F = 3.69
    >>> round(res.statistic, 2), res.df
    (3.69, (3.0, 39.0))
    """
    n = float(n_datasets)
    df1, df2 = float(k - 1), float((k - 1) * (n_datasets - 1))
    denom = n * (k - 1) - chi2
    # chi2 reaches N(k-1) exactly when all datasets agree; allow for rounding
    if denom <= n * (k - 1) * 1e-13:
        return OmnibusResult(float("inf"), 0.0, (df1, df2), "Iman-Davenport F")
    f = (n - 1.0) * chi2 / denom
    pvalue = _f_sf(df1, df2, f)
    return OmnibusResult(float(f), pvalue, (df1, df2), "Iman-Davenport F")


def _chi2_sf(df: float, x: float) -> float:
    """``P(X >= x)`` for X chi-square with ``df`` degrees of freedom (R's ``pchisq``).

    Integer ``df`` (always, for Friedman's test) by :func:`chi2_sf`, without
    ``scipy.special``; any other by ``scipy.special.chdtrc``.
    """
    if float(df).is_integer() and df >= 1:
        return chi2_sf(df, x)
    return float(special.chdtrc(df, x))


def _f_sf(df1: float, df2: float, x: float) -> float:
    """``P(F >= x)`` for F with ``(df1, df2)`` degrees of freedom (R's ``pf``).

    Integer degrees of freedom (always, for Iman-Davenport) by :func:`f_sf`, without
    ``scipy.special``; any others by ``scipy.special.fdtrc``.
    """
    if float(df1).is_integer() and float(df2).is_integer() and min(df1, df2) >= 1:
        return f_sf(df1, df2, x)
    return float(special.fdtrc(df1, df2, x))


# --------------------------------------------------------------------------- the registry


def friedman_test(scores: np.ndarray) -> OmnibusResult:
    """Friedman's chi-square (Demšar's formula, no tie correction) from an N x k table.

    ``scores`` are oriented so that higher is better and complete; see :func:`friedman`.
    """
    x = np.asarray(scores, dtype=float)
    if np.isnan(x).any():
        raise CdplotInputError(
            "Friedman's test needs a complete table; for missing results use the "
            "Skillings-Mack test (omnibus='skillings-mack')."
        )
    return friedman(rank_rows(-x).mean(axis=0), x.shape[0])


#: Omnibus tests by canonical name: each is a pure function ``f(scores) -> OmnibusResult``
#: of the N x k table oriented so that higher is better. Add a test by adding an entry
#: (and to :data:`INCOMPLETE_OMNIBUS` if it accepts NaN for missing results).
OMNIBUS_TESTS: dict[str, Callable[[np.ndarray], OmnibusResult]] = {
    "friedman": friedman_test,
    "aligned-ranks": aligned_ranks_test,
    "quade": quade_test,
    "skillings-mack": skillings_mack_test,
    "rm-anova": rm_anova_test,
    # Durbin's chi-square (PMCMRplus durbinTest) for a balanced incomplete block design
    "durbin": lambda x: durbin_test(x)[0],
    # Page's L for scores increasing along the columns; compare() orders them by ``order``
    "page": page_test,
}

#: Alternative spellings (already normalised) -> canonical omnibus name.
OMNIBUS_ALIASES: dict[str, str] = {
    "aligned": "aligned-ranks",
    "friedman-aligned-ranks": "aligned-ranks",
    "friedman-aligned": "aligned-ranks",
    "aligned-rank": "aligned-ranks",
    "skillings": "skillings-mack",
    "sm": "skillings-mack",
    "anova": "rm-anova",
    "repeated-measures-anova": "rm-anova",
    "durbin-test": "durbin",
    "page-l": "page",
    "page-test": "page",
    "page-trend": "page",
}

#: Omnibus tests that accept missing results (NaN cells).
INCOMPLETE_OMNIBUS: frozenset[str] = frozenset({"skillings-mack", "durbin"})
#: Omnibus tests whose hypothesis needs more than the table: Page's the expected order
ORDERED_OMNIBUS: frozenset[str] = frozenset({"page"})


def resolve_omnibus(name: str) -> str:
    """Canonical omnibus name, or a :class:`CdplotInputError` listing the valid ones."""
    return check_in_list(OMNIBUS_TESTS, aliases=OMNIBUS_ALIASES, omnibus=name)

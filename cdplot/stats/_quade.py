"""Quade's test and its post-hoc tests (García's z-test, Conover's t-test).

Quade (1979) weights each dataset's ranks by the rank of its range (max - min score), so
datasets on which the algorithms differ a lot count more. The ranges are computed in
exact decimal arithmetic (as the aligned values of :mod:`._aligned`), so ranges equal on
paper tie (``0.85 - 0.80 == 0.75 - 0.70``).
"""

from __future__ import annotations

import math

import numpy as np

from .._errors import check_in_list
from ._aligned import _check_complete, decimal_integers, exact_order
from ._ranks import rank_rows
from ._special import special
from ._test_results import OmnibusResult, PairwiseResult

__all__ = ["QUADE_METHODS", "quade_posthoc", "quade_scores", "quade_test"]

#: Post-hoc tests after Quade's test: García et al. (2010)'s z-test, Conover's t-test.
QUADE_METHODS = ("garcia", "conover")


def quade_scores(scores: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The pieces of Quade's test.

    Parameters
    ----------
    scores : array_like
        N x k scores, oriented so that higher is better; complete.

    Returns
    -------
    q : numpy.ndarray
        Rank of each dataset's range among the N ranges (1 = smallest, average
        ranks for ties); ranges computed exactly on the decimal forms.
    ranks : numpy.ndarray
        N x k ranks within each dataset, 1 = best.
    s : numpy.ndarray
        N x k ``S_ij = Q_i (r_ij - (k + 1) / 2)``.
    """
    x = np.asarray(scores, dtype=float)
    _check_complete(x, "Quade test")
    ints, _ = decimal_integers(x, headroom=2)
    spread = ints.max(axis=1) - ints.min(axis=1)
    q = rank_rows(exact_order(spread).reshape(1, -1).astype(float)).ravel()
    ranks = rank_rows(-x)
    k = x.shape[1]
    s = q[:, None] * (ranks - (k + 1.0) / 2.0)
    return q, ranks, s


def quade_test(scores: np.ndarray) -> OmnibusResult:
    """Quade's F test, as R's ``stats::quade.test``.

    Parameters
    ----------
    scores : array_like
        N x k scores, oriented so that higher is better (the statistic does not
        depend on the direction); complete.

    Returns
    -------
    OmnibusResult
        ``statistic`` F, ``pvalue``, ``df = (k - 1, (N - 1)(k - 1))``.

    Raises
    ------
    CdplotInputError
        For a table with missing values or fewer than 2 datasets or algorithms.

    Notes
    -----
    With ``S_ij`` from :func:`quade_scores`, ``A = sum_ij S_ij^2`` (exact under
    ties) and ``B = (1/N) sum_j (sum_i S_ij)^2``:
    ``F = (N - 1) B / (A - B)`` on ``(k - 1, (N - 1)(k - 1))`` degrees of freedom.
    When ``A = B > 0`` (every dataset with a nonzero range ranks the algorithms the
    same way and the ranges tie) F is infinite and, following Conover (1999, p. 374)
    and R, ``p = (1 / k!)^(N - 1)``. When ``A = 0`` (every dataset scores all
    algorithms alike) there is no evidence: F = 0 and p = 1 (R returns
    ``(1 / k!)^(N - 1)`` here too). scmamp's ``quadeTest`` uses the no-ties
    ``A = N (N + 1) (2N + 1) k (k + 1) (k - 1) / 72`` instead, so it differs under
    ties.

    References
    ----------
    D. Quade, "Using weighted rankings in the analysis of complete blocks with
    additive block effects", JASA 74 (1979) 680-683. W. J. Conover, Practical
    Nonparametric Statistics, 3rd ed. (1999), §5.8.

    Examples
    --------
    >>> import cdplot
    >>> x = cdplot.datasets.load("demsar2006").to_numpy()
    >>> res = quade_test(x)  # R: quade.test(x) gives F = 4.6279, p = 0.0073
    >>> round(res.statistic, 4), res.df
    (4.6279, (3.0, 39.0))
    """
    _, _, s = quade_scores(scores)
    n, k = s.shape
    a = float(np.sum(s**2))
    b = float(np.sum(s.sum(axis=0) ** 2) / n)
    df = (float(k - 1), float((n - 1) * (k - 1)))
    if a == 0.0:
        return OmnibusResult(0.0, 1.0, df, "Quade F")
    if a - b <= a * 1e-13:
        pvalue = math.exp(-(n - 1) * math.lgamma(k + 1.0))
        return OmnibusResult(math.inf, pvalue, df, "Quade F")
    f = (n - 1.0) * b / (a - b)
    return OmnibusResult(float(f), float(special.fdtrc(df[0], df[1], f)), df, "Quade F")


def quade_posthoc(scores: np.ndarray, *, method: str = "garcia") -> PairwiseResult:
    """Post-hoc tests after Quade's test, for every pair.

    Parameters
    ----------
    scores : array_like
        N x k scores, oriented so that higher is better; complete.
    method : {"garcia", "conover"}, default "garcia"
        "garcia": the z-test of García et al. (2010) on the weighted average ranks
        ``T_j = W_j / (N (N + 1) / 2)``, ``W_j = sum_i Q_i r_ij``, with
        ``SE = sqrt(k (k + 1) (2N + 1) (k - 1) / (18 N (N + 1)))`` and a two-sided
        normal p (as scmamp's ``quadePost``). "conover": Conover's t-test on the
        column sums ``S_j = sum_i S_ij``,
        ``t = |S_i - S_j| / sqrt(2 N (A - B) / ((N - 1)(k - 1)))`` with
        ``(N - 1)(k - 1)`` degrees of freedom, two-sided (as PMCMRplus's
        ``quadeAllPairsTest(dist = "TDist")``).

    Returns
    -------
    PairwiseResult
        ``statistic`` the symmetric ``|z|`` or ``|t|``; ``pvalue`` two-sided.

    Raises
    ------
    CdplotInputError
        For an unknown ``method``, a table with missing values, or fewer than 2
        datasets or algorithms.

    Notes
    -----
    When ``A = B`` (see :func:`quade_test`) Conover's t is infinite for pairs with
    different ``S`` (p = 0) and 0 for pairs with equal ``S`` (p = 1).
    PMCMRplus's ``quadeAllPairsTest(dist = "Normal")`` uses ``n = N k`` in its
    standard error and so differs from García's z-test; it is not offered.

    References
    ----------
    S. García, A. Fernández, J. Luengo and F. Herrera (2010), Information Sciences
    180, 2044-2064. W. J. Conover, Practical Nonparametric Statistics, 3rd ed.
    (1999), §5.8.

    Examples
    --------
    >>> import cdplot
    >>> x = cdplot.datasets.load("demsar2006").to_numpy()
    >>> round(float(quade_posthoc(x).pvalue[0, 3]), 4)  # scmamp::quadePost: 0.0243
    0.0243
    """
    method = check_in_list(QUADE_METHODS, method=method)
    q, ranks, s = quade_scores(scores)
    n, k = s.shape
    if method == "garcia":
        w = (q[:, None] * ranks).sum(axis=0)
        t = w / (n * (n + 1) / 2.0)
        se = math.sqrt(k * (k + 1) * (2 * n + 1) * (k - 1) / (18.0 * n * (n + 1)))
        stat = np.abs(t[:, None] - t[None, :]) / se
        p = np.minimum(1.0, 2.0 * special.ndtr(-stat))
    else:
        col = s.sum(axis=0)
        a = float(np.sum(s**2))
        b = float(np.sum(col**2) / n)
        diff = np.abs(col[:, None] - col[None, :])
        dfe = float((n - 1) * (k - 1))
        var = 2.0 * n * (a - b) / dfe
        if var <= a * 1e-13:
            stat = np.where(diff > 0, np.inf, 0.0)
            p = np.where(diff > 0, 0.0, 1.0)
        else:
            stat = diff / math.sqrt(var)
            p = np.minimum(1.0, 2.0 * special.stdtr(dfe, -stat))
    stat = np.array(stat, dtype=float)
    p = np.array(p, dtype=float)
    np.fill_diagonal(stat, np.nan)
    np.fill_diagonal(p, np.nan)
    return PairwiseResult(stat, p)

"""Friedman's aligned-ranks test and its post-hoc z-test, with exact decimal alignment.

Hodges & Lehmann (1962) align each dataset by subtracting its mean score, then rank all
N k aligned values together; García, Fernández, Luengo & Herrera (2010) give the
chi-square statistic and the post-hoc z-test on the aligned mean ranks.

Decimal ties stay ties: the aligned values ``x_ij - mean_i`` are computed in exact
arithmetic on the decimal numbers the scores stand for (see :func:`decimal_integers`), so
``0.85 - 0.80`` and ``0.75 - 0.70`` tie as they do on paper, though not in floating point.
"""

from __future__ import annotations

import numpy as np

from .._errors import CdplotInputError
from ._ranks import rank_rows
from ._special import special
from ._test_results import OmnibusResult, PairwiseResult

__all__ = [
    "aligned_ranks",
    "aligned_ranks_posthoc",
    "aligned_ranks_test",
    "decimal_integers",
    "exact_order",
]

#: int64 holds the scaled scores when ``largest * headroom`` stays below this bound.
_INT64_LIMIT = 2**62


def decimal_integers(scores: np.ndarray, *, headroom: int = 1) -> tuple[np.ndarray, int]:
    """The scores as exact integers: ``scores * 10**d`` for the shortest decimal form.

    Every score is read as the decimal number of its shortest representation
    (Python's ``repr``, which round-trips: ``0.85`` is 0.85, not the binary double
    0.84999999999999997779...), and ``d`` is the largest number of decimals among
    them. Sums, differences and comparisons of the returned integers are then exact
    decimal arithmetic.

    Parameters
    ----------
    scores : numpy.ndarray
        Finite floats (no NaN).
    headroom : int, default 1
        The caller's sums reach at most ``headroom`` times the largest value; int64
        is used only when that cannot overflow.

    Returns
    -------
    integers : numpy.ndarray
        Same shape; dtype int64 when every value is small enough for exact sums,
        else Python ints (dtype object).
    decimals : int
        ``d``, the scale exponent.

    Examples
    --------
    >>> ints, d = decimal_integers(np.array([[0.85, 0.8], [0.75, 0.7]]))
    >>> ints.tolist(), d
    ([[85, 80], [75, 70]], 2)
    """
    values = np.asarray(scores, dtype=float)
    from decimal import Decimal

    flat = [Decimal(repr(float(v))) for v in values.ravel()]
    decimals = max([max(0, -int(dec.as_tuple().exponent)) for dec in flat] + [0])
    scaled = [int(dec.scaleb(decimals)) for dec in flat]
    big = max((abs(s) for s in scaled), default=0)
    ints: np.ndarray  # int64, or Python integers (object) when they overflow int64
    if big * max(1, headroom) < _INT64_LIMIT:
        ints = np.array(scaled, dtype=np.int64).reshape(values.shape)
    else:
        ints = np.empty(len(scaled), dtype=object)
        ints[:] = scaled
        ints = ints.reshape(values.shape)
    return ints, decimals


def exact_order(values: np.ndarray) -> np.ndarray:
    """Dense integer codes with the same order and ties as exact (possibly object) values."""
    values = np.asarray(values)
    if values.dtype != object:
        _, codes = np.unique(values, return_inverse=True)
        return codes.reshape(values.shape).astype(np.int64)
    flat = values.ravel().tolist()
    code = {v: i for i, v in enumerate(sorted(set(flat)))}
    return np.array([code[v] for v in flat], dtype=np.int64).reshape(values.shape)


def _check_complete(x: np.ndarray, what: str) -> None:
    if x.ndim != 2:
        raise CdplotInputError(f"scores must be a 2-D table, got {x.ndim}-D.")
    if np.isnan(x).any():
        raise CdplotInputError(
            f"the {what} needs a complete table (every algorithm on every dataset); for "
            "missing results use the Skillings-Mack test (omnibus='skillings-mack') with "
            "the Wilcoxon or sign test, or drop the incomplete datasets (missing='drop')."
        )
    n, k = x.shape
    if n < 2 or k < 2:
        raise CdplotInputError(
            f"the {what} needs at least 2 datasets and 2 algorithms, got {n} x {k}."
        )


def aligned_ranks(scores: np.ndarray) -> np.ndarray:
    """Aligned ranks: all N k values ``x_ij - mean_i`` ranked together, 1 = best.

    Parameters
    ----------
    scores : array_like
        N x k scores, oriented so that higher is better; complete.

    Returns
    -------
    numpy.ndarray
        N x k ranks in 1..N k (ties get the average rank).

    Raises
    ------
    CdplotInputError
        For a table with missing values or fewer than 2 datasets or algorithms.

    Notes
    -----
    The aligned values are computed exactly on the scores' decimal forms
    (:func:`decimal_integers`): ``k x_ij - sum_l x_il`` in integers, which orders
    as ``x_ij - mean_i``. So the datasets (0.50, 0.51) and (0.56, 0.57) give tied
    aligned values (-0.005 and 0.005 on both), as on paper, although in floating
    point ``0.5 - 0.505`` and ``0.56 - 0.565`` differ.

    References
    ----------
    J. L. Hodges and E. L. Lehmann (1962), Ann. Math. Statist. 33, 482-497.

    Examples
    --------
    >>> aligned_ranks(np.array([[0.50, 0.51], [0.56, 0.57]])).tolist()
    [[3.5, 1.5], [3.5, 1.5]]
    """
    x = np.asarray(scores, dtype=float)
    _check_complete(x, "aligned-ranks test")
    k = x.shape[1]
    ints, _ = decimal_integers(x, headroom=2 * k)
    aligned = ints * k - ints.sum(axis=1, keepdims=True)
    # rank 1 = the largest aligned value: rank the negated exact codes in one row
    codes = exact_order(aligned)
    return rank_rows(-codes.reshape(1, -1).astype(float)).reshape(x.shape)


def aligned_ranks_test(scores: np.ndarray) -> OmnibusResult:
    """Friedman's aligned-ranks test (Hodges & Lehmann 1962; García et al. 2010).

    Parameters
    ----------
    scores : array_like
        N x k scores, oriented so that higher is better (negate errors first);
        complete.

    Returns
    -------
    OmnibusResult
        ``statistic`` T, ``pvalue`` from chi-square with ``df = k - 1``.

    Raises
    ------
    CdplotInputError
        For a table with missing values or fewer than 2 datasets or algorithms.

    Notes
    -----
    With ``R_j`` the sum of algorithm j's aligned ranks and ``R_i.`` the sum of
    dataset i's (see :func:`aligned_ranks`),

    ``T = (k - 1) [sum_j R_j^2 - (k N^2 / 4) (k N + 1)^2] /
    ([k N (k N + 1) (2 k N + 1) / 6] - (1 / k) sum_i R_i.^2)``.

    When every aligned value ties (every dataset scores all algorithms alike) the
    denominator vanishes; T is then 0 and p = 1.

    References
    ----------
    J. L. Hodges and E. L. Lehmann, "Rank methods for combination of independent
    experiments in analysis of variance", Ann. Math. Statist. 33 (1962) 482-497.
    S. García, A. Fernández, J. Luengo and F. Herrera, "Advanced nonparametric tests
    for multiple comparisons in the design of experiments in computational
    intelligence and data mining", Information Sciences 180 (2010) 2044-2064.

    Examples
    --------
    >>> import cdplot
    >>> x = cdplot.datasets.load("demsar2006").to_numpy()
    >>> res = aligned_ranks_test(x)  # scmamp::friedmanAlignedRanksTest: 11.640
    >>> round(res.statistic, 3), res.df
    (11.64, 3.0)
    """
    x = np.asarray(scores, dtype=float)
    ranks = aligned_ranks(x)
    n, k = x.shape
    nk = n * k
    col = ranks.sum(axis=0)
    row = ranks.sum(axis=1)
    numerator = (k - 1) * (np.sum(col**2) - (k * n * n / 4.0) * (nk + 1.0) ** 2)
    denominator = nk * (nk + 1.0) * (2.0 * nk + 1.0) / 6.0 - np.sum(row**2) / k
    # every aligned value tied (all datasets score all algorithms alike): no evidence
    tied_all = denominator <= nk * 1e-12
    stat = 0.0 if tied_all else max(0.0, float(numerator / denominator))
    df = float(k - 1)
    return OmnibusResult(stat, float(special.chdtrc(df, stat)), df, "Friedman aligned-ranks")


def aligned_ranks_posthoc(scores: np.ndarray) -> PairwiseResult:
    """Post-hoc z-test on aligned mean ranks for every pair (García et al. 2010).

    Parameters
    ----------
    scores : array_like
        N x k scores, oriented so that higher is better; complete.

    Returns
    -------
    PairwiseResult
        ``statistic[i, j] = |Rbar_i - Rbar_j| / sqrt(k (N k + 1) / 6)`` (symmetric),
        ``Rbar`` the aligned mean ranks; ``pvalue`` two-sided normal.

    Raises
    ------
    CdplotInputError
        For a table with missing values or fewer than 2 datasets or algorithms.

    Notes
    -----
    As scmamp's ``friedmanAlignedRanksPost``. Any all-pairs correction applies
    (Shaffer's and Bergmann-Hommel's included: the hypotheses are the logically
    related pairwise equalities as for the mean-ranks test).

    References
    ----------
    S. García, A. Fernández, J. Luengo and F. Herrera (2010), Information Sciences
    180, 2044-2064.

    Examples
    --------
    >>> import cdplot
    >>> x = cdplot.datasets.load("demsar2006").to_numpy()
    >>> round(float(aligned_ranks_posthoc(x).statistic[0, 3]), 4)  # scmamp: 3.2850
    3.285
    """
    x = np.asarray(scores, dtype=float)
    ranks = aligned_ranks(x)
    n, k = x.shape
    mean = ranks.mean(axis=0)
    se = np.sqrt(k * (n * k + 1.0) / 6.0)
    z = np.abs(mean[:, None] - mean[None, :]) / se
    p = np.minimum(1.0, 2.0 * special.ndtr(-z))
    np.fill_diagonal(z, np.nan)
    np.fill_diagonal(p, np.nan)
    return PairwiseResult(z, p)

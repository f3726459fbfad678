"""Every pair's paired difference of mean scores on one benchmark, its interval and p-value.

:func:`pair_statistics` reads :class:`cdplot.io.BenchmarkItems` and works from sufficient
statistics (column sums and the k x k cross-product matrices of the item scores): no Python
loop over pairs or items.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._errors import CdplotInputError, check_in_list
from ..io._benchmark import BenchmarkItems
from ._benchmark_models import observed
from ._options import check_confidence
from ._values import ValueEquality

__all__ = ["PAIR_TESTS", "PairStatistics", "pair_statistics"]

#: values of ``pair_statistics(test=...)``
PAIR_TESTS = ("mcnemar", "paired-t")


@dataclass(frozen=True, eq=False)
class PairStatistics(ValueEquality):
    """Every pair's paired difference (k x k arrays; ``[i, j]`` is model i minus model j).

    Attributes
    ----------
    difference, low, high, se : numpy.ndarray
        Mean of the paired differences over the items both models scored, its interval and
        standard error (antisymmetric; NaN on the diagonal).
    statistic, pvalues : numpy.ndarray
        The test statistic (antisymmetric) and its two-sided p-value (symmetric; NaN on the
        diagonal).
    n_items : numpy.ndarray
        Items both models scored (int64, symmetric).
    wins : numpy.ndarray
        Items on which model i scored higher than model j (int64; ``wins.T`` the losses).
    test : str
        The test (one of :data:`PAIR_TESTS`).
    interval : str
        How the interval of the difference was made.
    confidence : float
        The interval's confidence level.
    """

    difference: np.ndarray
    low: np.ndarray
    high: np.ndarray
    se: np.ndarray
    statistic: np.ndarray
    pvalues: np.ndarray
    n_items: np.ndarray
    wins: np.ndarray
    test: str
    interval: str
    confidence: float


def pair_statistics(
    items: BenchmarkItems, *, test: str | None = None, confidence: float = 0.95
) -> PairStatistics:
    """Every pair's paired difference of mean scores, its interval and p-value.

    Parameters
    ----------
    items : BenchmarkItems
        The benchmark's item scores; each pair uses the items both models scored.
    test : {"mcnemar", "paired-t"}, optional
        "mcnemar": the exact McNemar test (binary scores; the binomial test of the
        discordant items, R's ``binom.test(b, b + c)``), with the Wald interval of the
        difference of paired proportions; "paired-t": the paired t-test (R's
        ``t.test(x, y, paired = TRUE)``) and its interval. Default: "mcnemar" for binary
        scores, else "paired-t".
    confidence : float, default 0.95
        The interval's confidence level.

    Returns
    -------
    PairStatistics
    """
    from scipy import stats

    confidence = check_confidence(confidence)
    test = check_in_list(PAIR_TESTS, test=test or ("mcnemar" if items.binary else "paired-t"))
    if test == "mcnemar" and not items.binary:
        raise CdplotInputError(
            "test='mcnemar' is for binary (0/1) scores; these are not binary: use test='paired-t'."
        )
    x, seen = observed(items)
    n = seen.T @ seen  # items both scored
    sums = x.T @ seen  # [i, j]: sum of i's scores over the items j also scored
    cross = x.T @ x
    squares = (x * x).T @ seen
    with np.errstate(invalid="ignore", divide="ignore"):
        diff_sum = sums - sums.T
        diff = diff_sum / n
        # sum of squared differences over common items: sum x_i^2 + sum x_j^2 - 2 sum x_i x_j
        ss = squares + squares.T - 2 * cross - n * diff * diff
        se = np.sqrt(np.maximum(ss, 0.0) / (n - 1) / n)
        wins = np.rint(x.T @ (seen - x) if items.binary else _wins(x, seen)).astype(np.int64)
        if test == "mcnemar":
            b, c = wins, wins.T
            m = b + c
            p = np.minimum(1.0, 2.0 * stats.binom.cdf(np.minimum(b, c), m, 0.5))
            p = np.where(m == 0, 1.0, p)
            statistic = (b - c).astype(float)
            se = np.sqrt(np.maximum((b + c) / n - diff * diff, 0.0) / n)
            z = float(stats.norm.isf((1 - confidence) / 2))
            low, high, name = diff - z * se, diff + z * se, "wald"
        else:
            statistic = diff / se
            p = 2 * stats.t.sf(np.abs(statistic), n - 1)
            q = stats.t.isf((1 - confidence) / 2, n - 1)
            low, high, name = diff - q * se, diff + q * se, "t"
    for a in (diff, low, high, se, statistic, p):
        np.fill_diagonal(a, np.nan)
    return PairStatistics(
        diff, low, high, se, statistic, p, n.astype(np.int64), wins, test, name, confidence
    )


def _wins(x: np.ndarray, seen: np.ndarray) -> np.ndarray:
    """``[i, j]``: items both scored on which i scored higher than j (binary: ``x_i (1 - x_j)``;
    continuous: counted a block of models at a time)."""
    k = x.shape[1]
    out = np.zeros((k, k))
    both = seen.astype(bool)
    for i in range(k):  # one vectorised comparison per model (k passes over the table)
        common = both[:, [i]] & both
        out[i] = ((x[:, [i]] > x) & common).sum(axis=0)
    return out

"""The small results the test functions return: omnibus, pairwise, paired and assumption checks.

The lowest room of the results: the test families (``_omnibus``, ``_pairwise``,
``_parametric``, ...) import their result types from here, and the comparison results
(``_results.py``) sit above them all.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from ._values import ValueEquality

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

__all__ = [
    "AssumptionCheck",
    "OmnibusResult",
    "PairedTestResult",
    "PairwiseResult",
    "SkillingsMackResult",
]


@dataclass(frozen=True, eq=False)
class OmnibusResult(ValueEquality):
    """Result of an omnibus test (Friedman chi-square or Iman-Davenport F).

    Unpacks as ``(statistic, pvalue)`` for parity with :mod:`scipy.stats`.

    Attributes
    ----------
    statistic : float
        The test statistic.
    pvalue : float
        The p-value (upper tail of the reference distribution).
    df : float or tuple of float
        Degrees of freedom: ``k - 1`` for Friedman's chi-square, the pair
        ``(k - 1, (k - 1)(N - 1))`` for the Iman-Davenport F.
    name : str
        Name of the test.
    """

    statistic: float
    pvalue: float
    df: float | tuple[float, float]
    name: str = ""

    def __iter__(self) -> Iterator[Any]:
        return iter((self.statistic, self.pvalue))

    def __setstate__(self, state: dict[str, Any]) -> None:
        # cdplot <= 9cf280c kept a p-value not yet computed under "_pvalue_stored"
        from ._pickled import flat_state

        self.__dict__.update(flat_state(state, None) if "_pvalue_stored" in state else state)


@dataclass(frozen=True, eq=False)
class PairwiseResult(ValueEquality):
    """Raw pairwise test results over all pairs of algorithms.

    Attributes
    ----------
    statistic : numpy.ndarray
        k x k matrix of test statistics (NaN diagonal). For ``"wilcoxon"``
        entry ``[i, j]`` is the signed-rank sum of the positive differences
        ``x_i - x_j`` (R's ``V``); for ``"sign"`` it is the number of wins of
        ``i`` over ``j`` (ties split as configured); for ``"mean-ranks"`` and
        ``"nemenyi"`` it is ``|R_i - R_j| / SE`` (symmetric).
    pvalue : numpy.ndarray
        k x k symmetric matrix of two-sided p-values, NaN diagonal.
    """

    statistic: np.ndarray
    pvalue: np.ndarray


@dataclass(frozen=True, eq=False)
class SkillingsMackResult(OmnibusResult):
    """Result of the Skillings-Mack test (an :class:`OmnibusResult` with its pieces).

    Unpacks as ``(statistic, pvalue)`` like every omnibus result.

    Attributes
    ----------
    statistic, pvalue, df, name
        As :class:`OmnibusResult`; ``df = k - 1``.
    adjusted_rank_sums : numpy.ndarray
        ``A_i = sum_j sqrt(12 / (k_j + 1)) (r_ij - (k_j + 1) / 2)`` for each
        algorithm (rank 1 = best, so a negative value is better than average).
    covariance : numpy.ndarray
        k x k null covariance of the adjusted rank sums (``-lambda_il`` off the
        diagonal, ``lambda_il`` the number of datasets where both have a result).
    n_observed : numpy.ndarray
        Number of results on each dataset (``k_j``), in input order.
    ignored_datasets : tuple of str
        Datasets with fewer than two results; they carry no information and are
        left out of the statistic and of the average ranks.
    """

    adjusted_rank_sums: np.ndarray = field(
        default_factory=lambda: np.empty(0), repr=False, compare=False
    )
    covariance: np.ndarray = field(
        default_factory=lambda: np.empty((0, 0)), repr=False, compare=False
    )
    n_observed: np.ndarray = field(default_factory=lambda: np.empty(0), repr=False, compare=False)
    ignored_datasets: tuple[str, ...] = ()


@dataclass(frozen=True, eq=False)
class PairedTestResult(ValueEquality):
    """Result of a test comparing two algorithms (one dataset, or a pair over datasets).

    Returned by :func:`cdplot.stats.paired_t`, :func:`~cdplot.stats.corrected_resampled_t`,
    :func:`~cdplot.stats.mcnemar`, :func:`~cdplot.stats.cv5x2_t` and
    :func:`~cdplot.stats.cv5x2_f`. Unpacks as ``(statistic, pvalue)``, like the results of
    :mod:`scipy.stats`.

    Attributes
    ----------
    statistic : float
        The test statistic (t, chi-square, F, or for the exact McNemar tests the smaller
        of the two discordant counts).
    pvalue : float
        The p-value for ``alternative``.
    df : float, tuple of float or None
        Degrees of freedom of the reference distribution (None for exact tests).
    estimate : float or None
        The estimated effect where the test has one: the mean difference ``a - b`` for
        the t-tests, None for McNemar's tests and the 5x2cv F test.
    alternative : str
        ``"two-sided"``, ``"greater"`` (the first algorithm is better) or ``"less"``.
    name : str
        Name of the test, e.g. ``"paired t-test"``.
    """

    statistic: float
    pvalue: float
    df: float | tuple[float, float] | None
    estimate: float | None
    alternative: str = "two-sided"
    name: str = ""

    def __iter__(self) -> Iterator[Any]:
        return iter((self.statistic, self.pvalue))


@dataclass(frozen=True, eq=False)
class AssumptionCheck(ValueEquality):
    """What :func:`cdplot.stats.check_assumptions` found about a parametric analysis.

    Attributes
    ----------
    pairwise_normality : pandas.DataFrame
        Shapiro-Wilk on the differences of each pair of algorithms over the datasets
        (the paired t-test's assumption): columns ``algorithm_1``, ``algorithm_2``,
        ``W``, ``pvalue``; NaN with fewer than 3 datasets.
    residual_normality : OmnibusResult
        Shapiro-Wilk (``statistic`` W, ``pvalue``) on the residuals of the two-way
        model ``score ~ algorithm + dataset`` (the assumption of the repeated-measures
        ANOVA and Tukey's HSD).
    sphericity : OmnibusResult
        Mauchly's test of sphericity (``statistic`` W, chi-square ``pvalue``, ``df``),
        as R's ``mauchly.test``; NaN when N <= k - 1.
    epsilon : float
        Greenhouse-Geisser epsilon, between ``1 / (k - 1)`` and 1 (1 = spherical).
    alpha : float
        Level at which the checks were judged.
    applies : bool
        Whether the analysis checked used a parametric test (``test="paired-t"`` or
        ``"tukey"``, or the repeated-measures ANOVA).
    defensible : bool
        False when a check relevant to the analysis rejected its assumption at
        ``alpha``.
    verdict : str
        The same in plain language, with what to do.
    """

    pairwise_normality: pd.DataFrame = field(repr=False)
    residual_normality: OmnibusResult
    sphericity: OmnibusResult
    epsilon: float
    alpha: float
    applies: bool
    defensible: bool
    verdict: str

    def __str__(self) -> str:
        return self.verdict

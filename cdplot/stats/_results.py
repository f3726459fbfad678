"""Result objects returned by the statistics layer (frozen dataclasses, no plotting)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any, Literal

import numpy as np
import pandas as pd

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.axes import Axes

    from ._wins import WinTieLossResult

__all__ = ["ComparisonResult", "OmnibusResult", "PairwiseResult"]


@dataclass(frozen=True)
class OmnibusResult:
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

    def __iter__(self):
        return iter((self.statistic, self.pvalue))


@dataclass(frozen=True)
class PairwiseResult:
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


@dataclass(frozen=True)
class ComparisonResult:
    """Everything :func:`cdplot.compare` found out about k algorithms on N datasets.

    Plots and reports read from this object only; they never recompute statistics.

    Attributes
    ----------
    algorithms : list of str
        Algorithm names in input order.
    datasets : list of str
        Dataset names in input order (after dropping incomplete ones, if asked).
    scores : pandas.DataFrame
        The N x k score table that was analysed (datasets x algorithms).
    ranks : pandas.DataFrame
        N x k per-dataset ranks (1 = best, ties get the average rank).
    average_ranks : pandas.Series
        Average rank of each algorithm, sorted best (lowest) first; equal
        average ranks keep input order.
    friedman : OmnibusResult
        Friedman chi-square with ``k - 1`` degrees of freedom.
    iman_davenport : OmnibusResult
        Iman-Davenport F with degrees of freedom ``(k - 1, (k - 1)(N - 1))``.
    test : str
        Canonical name of the pairwise test.
    correction : str
        Canonical name of the p-value adjustment applied (``"nemenyi"`` for
        the Nemenyi test's own single-step adjustment).
    alpha : float
        Significance level.
    control : str or None
        The control algorithm in comparisons against a control, else None.
    higher_is_better : bool
        Whether higher scores were ranked as better.
    statistics : pandas.DataFrame
        k x k matrix of pairwise test statistics (see :class:`PairwiseResult`).
    pvalues : pandas.DataFrame
        k x k matrix of raw two-sided p-values, NaN diagonal, input order.
    adjusted_pvalues : pandas.DataFrame or pandas.Series
        Adjusted p-values (APVs): k x k (all pairs) or, with a control, a
        Series over the k - 1 other algorithms.
    significant : pandas.DataFrame or pandas.Series
        ``adjusted_pvalues <= alpha`` with the same shape (False on the diagonal).
    groups : tuple of tuple of str
        Maximal groups of algorithms, consecutive in average-rank order, with
        no significantly different pair inside; best group first. An algorithm
        that differs from both neighbours is a group of its own (a diagram
        draws bars only for groups of two or more). Empty in control mode
        (pairs not involving the control are not tested).
    uncovered_pairs : tuple of tuple of str
        Non-significant pairs that no group covers (non-significance is not
        transitive); each pair is ordered best first.
    critical_difference : float or None
        The critical difference in average rank for ``test="nemenyi"`` and for
        the Bonferroni-Dunn comparison with a control on the mean-ranks test;
        otherwise None.
    test_options : dict
        Options passed to the pairwise test (e.g. ``zero_method``).
    rope : float or None
        Bayesian tests: half-width of the region of practical equivalence (score
        units). None for the other tests.
    threshold : float or None
        Bayesian tests: the posterior probability a decision needs (default 0.95).
    posterior_better, posterior_equivalent, posterior_worse : pandas.DataFrame or None
        Bayesian tests: k x k matrices (input order, NaN diagonal) of P(row
        practically better than column), P(practically equivalent) and P(column
        practically better than row); ``posterior_worse`` is the transpose of
        ``posterior_better``. Each entry is that of
        :func:`cdplot.stats.bayes_signed_rank` (or ``bayes_sign``) with ``x`` the
        column's and ``y`` the row's scores (oriented so that higher is better):
        ``right``, ``rope``, ``left``.
    decisions : pandas.DataFrame or None
        Bayesian tests: k x k strings, "A better" (row), "B better" (column),
        "equivalent" or "undecided" at ``threshold``; "" on the diagonal.
    pool_sensitivity : pandas.DataFrame or None
        The frame of :func:`cdplot.pool_sensitivity` once it has been run on this
        result (it stores it here, for :meth:`summary`); None before.
    """

    algorithms: list[str]
    datasets: list[str]
    scores: pd.DataFrame = field(repr=False)
    ranks: pd.DataFrame = field(repr=False)
    average_ranks: pd.Series
    friedman: OmnibusResult
    iman_davenport: OmnibusResult
    test: str
    correction: str
    alpha: float
    control: str | None
    higher_is_better: bool
    statistics: pd.DataFrame = field(repr=False)
    pvalues: pd.DataFrame = field(repr=False)
    adjusted_pvalues: pd.DataFrame | pd.Series = field(repr=False)
    significant: pd.DataFrame | pd.Series = field(repr=False)
    groups: tuple[tuple[str, ...], ...]
    uncovered_pairs: tuple[tuple[str, str], ...]
    critical_difference: float | None
    test_options: dict[str, Any] = field(default_factory=dict, repr=False)
    rope: float | None = None
    threshold: float | None = None
    posterior_better: pd.DataFrame | None = field(default=None, repr=False)
    posterior_equivalent: pd.DataFrame | None = field(default=None, repr=False)
    posterior_worse: pd.DataFrame | None = field(default=None, repr=False)
    decisions: pd.DataFrame | None = field(default=None, repr=False)
    pool_sensitivity: pd.DataFrame | None = field(default=None, repr=False, compare=False)

    @property
    def n_algorithms(self) -> int:
        """Number of algorithms k."""
        return len(self.algorithms)

    @property
    def n_datasets(self) -> int:
        """Number of datasets N."""
        return len(self.datasets)

    @cached_property
    def wins(self) -> WinTieLossResult:
        """Win/tie/loss counts of every pair of algorithms (Demšar 2006, §2.2, §3.1.4).

        Counted from ``scores``, respecting ``higher_is_better``; ties are
        exactly equal scores.

        Returns
        -------
        WinTieLossResult
            ``wins``, ``ties`` and ``losses``: k x k integer DataFrames in
            input order, entry ``[a, b]`` counting the datasets on which ``a``
            beats ``b``, ties with it, or loses to it.

        Examples
        --------
        >>> import cdplot
        >>> res = cdplot.compare(cdplot.datasets.load("demsar2006"))
        >>> w = res.wins  # Demšar (2006) Table 2: C4.5+m against C4.5
        >>> [int(m.loc["C4.5+m", "C4.5"]) for m in (w.wins, w.ties, w.losses)]
        [10, 2, 2]
        """
        from ._wins import win_tie_loss

        return win_tie_loss(self.scores, higher_is_better=self.higher_is_better)

    def to_frame(self) -> pd.DataFrame:
        """Tidy table of the pairwise comparisons.

        Returns
        -------
        pandas.DataFrame
            One row per tested pair with columns ``algorithm_1``,
            ``algorithm_2``, ``statistic``, ``pvalue``, ``adjusted_pvalue``,
            ``significant``, ``wins``, ``ties`` and ``losses``, sorted by raw
            p-value. All pairs, or the k - 1 pairs (control, other) in control
            mode. For asymmetric statistics (Wilcoxon, sign test) ``statistic``
            is that of ``algorithm_1`` against ``algorithm_2``; ``algorithm_1``
            is the better-ranked one. ``wins``, ``ties`` and ``losses`` count
            the datasets on which ``algorithm_1`` beats, ties with or loses to
            ``algorithm_2`` (see :attr:`wins`). A Bayesian test adds
            ``p_better``, ``p_equivalent``, ``p_worse`` (posterior
            probabilities for ``algorithm_1``) and ``decision``; its
            ``statistic`` is ``p_better`` and ``significant`` means decided
            different.
        """
        if self.posterior_better is not None:  # Bayesian: posterior probabilities, decisions
            from ._bayes import bayes_frame

            return bayes_frame(self)
        from ._frames import pairwise_frame

        return pairwise_frame(self)

    def plot(self, **kwargs: Any) -> Axes:
        """Draw the critical difference diagram; shortcut for :func:`cdplot.cd_diagram`."""
        from ..plotting import cd_diagram

        return cd_diagram(self, **kwargs)

    def to_latex(
        self,
        *,
        caption: str | bool | None = True,
        label: str | None = None,
        adjusted: bool = True,
        mark: Literal["bold", "star", "both", "none"] | None = "bold",
        rank_format: str | Callable[[float], str] = "{:.2f}",
        pvalue_format: str | Callable[[float], str] | None = None,
        column_labels: Literal["names", "numbers"] = "names",
        pvalues: bool | None = True,
        environment: bool = True,
        position: str = "htbp",
    ) -> str:
        r"""LaTeX table (booktabs) of the average ranks and adjusted p-values.

        Algorithms in average-rank order with their average ranks, then the
        lower triangle of the APV matrix (all pairs) or the APV column against
        the control; significant values are marked. See
        :func:`cdplot.report.to_latex` for the parameters.

        Returns
        -------
        str
            The LaTeX source (needs ``\usepackage{booktabs}``).

        Examples
        --------
        >>> import cdplot
        >>> res = cdplot.compare(cdplot.datasets.load("demsar2006"))
        >>> print(res.to_latex(label="tab:auc"))  # doctest: +SKIP
        """
        from ..report import to_latex

        return to_latex(
            self,
            caption=caption,
            label=label,
            adjusted=adjusted,
            mark=mark,
            rank_format=rank_format,
            pvalue_format=pvalue_format,
            column_labels=column_labels,
            pvalues=pvalues,
            environment=environment,
            position=position,
        )

    def to_markdown(
        self,
        *,
        adjusted: bool = True,
        mark: Literal["bold", "star", "both", "none"] | None = "bold",
        rank_format: str | Callable[[float], str] = "{:.2f}",
        pvalue_format: str | Callable[[float], str] | None = None,
        pvalues: bool | None = None,
    ) -> str:
        """Markdown report: a pipe table of ranks and APVs, the tests, pairs and groups.

        The content of ``str(result)``, for READMEs; see
        :func:`cdplot.report.to_markdown` for the parameters.

        Returns
        -------
        str
        """
        from ..report import to_markdown

        return to_markdown(
            self,
            adjusted=adjusted,
            mark=mark,
            rank_format=rank_format,
            pvalue_format=pvalue_format,
            pvalues=pvalues,
        )

    def summary(self) -> str:
        """Short plain-language report of the comparison.

        The omnibus result, the test and correction used and why they matter
        (e.g. the pool dependence of the mean-ranks and Nemenyi tests,
        Benavoli et al. 2016), the groups and the significant pairs, with
        warnings when the omnibus test did not reject or there are few
        datasets. See :func:`cdplot.report.summary`.

        Returns
        -------
        str
        """
        from ..report import summary

        return summary(self)

    def _repr_html_(self) -> str:
        from ..report import to_html

        return to_html(self)

    def __str__(self) -> str:
        from ..report import result_text

        return result_text(self)

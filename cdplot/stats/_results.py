"""Result objects returned by the statistics layer (frozen dataclasses, no plotting)."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any, Literal

import numpy as np

from ._lazy import install_lazy_fields
from ._seams import Seam
from ._values import ValueEquality

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd
    from matplotlib.axes import Axes

    from ..io import Aggregation, ItemScores
    from ._procedure import Procedure
    from ._wins import WinTieLossResult

__all__ = [
    "AssumptionCheck",
    "BayesianComparisonResult",
    "ComparisonResult",
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
        The p-value (upper tail of the reference distribution). Friedman's and
        Iman-Davenport's are computed when first read (they need :mod:`scipy.special`).
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


#: computed when first read (``friedman``/``iman_davenport`` defer it: scipy.special)
install_lazy_fields(OmnibusResult, ("pvalue",))


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


#: the ``name`` of each omnibus result -> its canonical ``compare(omnibus=...)`` name
_OMNIBUS_NAMES = {
    "Friedman chi-square": "friedman",
    "Friedman aligned-ranks": "aligned-ranks",
    "Quade F": "quade",
    "Skillings-Mack chi-square": "skillings-mack",
    "repeated-measures ANOVA F": "rm-anova",
}


@dataclass(frozen=True, eq=False)
class ComparisonResult(ValueEquality):
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
        N x k per-dataset ranks (1 = best, ties get the average rank). With
        missing results: ranks over the algorithms present, rescaled as in
        Skillings-Mack (see :func:`cdplot.compare`), NaN where a result is
        missing and on ``ignored_datasets``.
    average_ranks : pandas.Series
        Average rank of each algorithm, sorted best (lowest) first; equal
        average ranks (equal rank sums) in order of name, so that the order, the
        groups and the diagram do not depend on the order of the input columns.
    friedman : OmnibusResult or None
        Friedman chi-square with ``k - 1`` degrees of freedom; None for a table
        with missing results (see ``omnibus``).
    iman_davenport : OmnibusResult or None
        Iman-Davenport F with degrees of freedom ``(k - 1, (k - 1)(N - 1))``;
        None for a table with missing results.
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
    omnibus : OmnibusResult or None
        The omnibus test chosen with ``compare(omnibus=...)``: Friedman's
        chi-square (the same object as ``friedman``), Friedman aligned ranks,
        Quade's F, Skillings-Mack (a :class:`SkillingsMackResult`, always
        so for a table with missing results) or the repeated-measures ANOVA F
        (``"repeated-measures ANOVA F"``); ``.name`` says which. None only
        for results built without it (e.g. read from an older JSON file).
    n_missing : int
        Number of missing results (NaN cells) in ``scores``; 0 for a complete
        table.
    n_per_pair : pandas.DataFrame or None
        k x k number of datasets on which both algorithms have a result (the
        datasets each pairwise Wilcoxon or sign test uses); the diagonal holds
        each algorithm's number of results. All N on a complete table.
    ignored_datasets : tuple of str
        Datasets with fewer than two results: they carry no information and are
        left out of the Skillings-Mack statistic and the average ranks.
    aggregation : cdplot.io.Aggregation or None
        How repeated runs were aggregated (``aggregate=``): the function, the
        repetition columns, the runs per cell (``counts``, ``min_count``,
        ``max_count``); None when every cell had one score.
    score_std : pandas.DataFrame or None
        Standard deviation (``ddof=1``) of the runs of each cell, datasets x
        algorithms like ``scores``; None without aggregation.
    dropped_datasets, dropped_algorithms : tuple of str
        Datasets and algorithms dropped for missing results (``missing=``).
    labels : dict of str to str
        Display names given with ``labels=`` (algorithm -> label); figures and
        reports show them, the data keeps the names. See :meth:`label`.
    decimals : int or None
        The scores were rounded to this many decimals before ranking.
    mean_scores : pandas.Series or None
        Mean score of each algorithm over the datasets, best first (ties by name), for
        the parametric analyses (``test="paired-t"`` or ``"tukey"``, or
        ``omnibus="rm-anova"``); else None. Means over datasets are only meaningful when
        the scores are commensurable (Demšar 2006, §3.1.1).
    critical_difference_units : {"rank", "score"}
        Units of ``critical_difference``: ``"rank"`` (average ranks; Nemenyi,
        Bonferroni-Dunn) or ``"score"`` (Tukey's HSD: a difference of mean scores).
        With ``"score"`` the diagram's axis is ``mean_scores`` and ``groups`` are
        consecutive in mean-score order.
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
    items : cdplot.io.ItemScores or None
        Item-level input (a table with an item column): the per-task items x
        algorithms score matrices the task scores were averaged from (see
        :func:`cdplot.stats.item_tests`); None otherwise and for a Dask
        DataFrame (its items stay on the cluster).
    source_note : str or None
        How a recognised source was read (lm-evaluation-harness output,
        Parquet, an MLflow export, ...), the first of :attr:`input_notes`.
    """

    algorithms: list[str]
    datasets: list[str]
    scores: pd.DataFrame = field(repr=False)
    ranks: pd.DataFrame = field(repr=False)
    average_ranks: pd.Series
    friedman: OmnibusResult | None
    iman_davenport: OmnibusResult | None
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
    omnibus: OmnibusResult | None = None
    n_missing: int = 0
    n_per_pair: pd.DataFrame | None = field(default=None, repr=False)
    ignored_datasets: tuple[str, ...] = ()
    aggregation: Aggregation | None = field(default=None, repr=False)
    score_std: pd.DataFrame | None = field(default=None, repr=False)
    dropped_datasets: tuple[str, ...] = ()
    dropped_algorithms: tuple[str, ...] = ()
    labels: dict[str, str] = field(default_factory=dict, repr=False)
    decimals: int | None = field(default=None, repr=False)

    mean_scores: pd.Series | None = field(default=None, repr=False)
    critical_difference_units: Literal["rank", "score"] = "rank"

    rope: float | None = None
    threshold: float | None = None
    posterior_better: pd.DataFrame | None = field(default=None, repr=False)
    posterior_equivalent: pd.DataFrame | None = field(default=None, repr=False)
    posterior_worse: pd.DataFrame | None = field(default=None, repr=False)
    decisions: pd.DataFrame | None = field(default=None, repr=False)
    items: ItemScores | None = field(default=None, repr=False, compare=False)
    source_note: str | None = None

    @property
    def input_notes(self) -> tuple[str, ...]:
        """Plain-language sentences on how the table was read, for every report.

        E.g. ``"scores are means over 10 folds"``, ``"scores were rounded to 3
        decimals before ranking"``, ``"dropped 2 datasets with missing results:
        d2, d4"``. Empty when the table was analysed as given.

        Examples
        --------
        >>> import cdplot
        >>> cdplot.compare(cdplot.datasets.load("demsar2006")).input_notes
        ()
        """
        from ..io import input_notes

        notes = input_notes(
            self.aggregation, self.decimals, self.dropped_datasets, self.dropped_algorithms
        )
        return notes if self.source_note is None else (self.source_note, *notes)

    def __repr__(self) -> str:
        """One line: the procedure, k, N and the headline (``print(res)`` gives the report).

        Examples
        --------
        >>> import cdplot
        >>> cdplot.compare(cdplot.datasets.load("demsar2006"))
        ComparisonResult(wilcoxon+holm, k=4, N=14, best='C4.5+m+cf', significant=0/6, alpha=0.05)
        """
        from ._lazy import labelled

        flags = np.asarray(labelled(self, "significant").values, dtype=bool)
        if flags.ndim == 2:
            decided, pairs = int(np.triu(flags, 1).sum()), flags.shape[0] * (flags.shape[0] - 1)
            pairs //= 2
        else:
            decided, pairs = int(flags.sum()), flags.size
        best = str(labelled(self, "average_ranks").index[0])
        best = best if len(best) <= 30 else best[:29] + "…"
        bayes = isinstance(self, BayesianComparisonResult)
        word = "decided" if bayes else "significant"
        level = f"threshold={self.threshold:g}" if bayes else f"alpha={self.alpha:g}"
        procedure = f"{self.test}+{self.correction}"
        if self.control is not None:
            procedure += f" vs {self.control!r}"
        return (
            f"{type(self).__name__}({procedure}, k={self.n_algorithms}, N={self.n_datasets}, "
            f"best={best!r}, {word}={decided}/{pairs}, {level})"
        )

    @property
    def pool_sensitivity(self) -> pd.DataFrame | None:
        """The frame :func:`cdplot.pool_sensitivity` last computed from this result, else None.

        The result is not changed by it (it is frozen and compares by value); the frame
        is kept beside it, for :meth:`summary`.
        """
        from ._pool import last_pool_sensitivity

        return last_pool_sensitivity(self)

    def label(self, algorithm: str) -> str:
        """Display name of ``algorithm`` (its label if one was given, else its name)."""
        return self.labels.get(algorithm, algorithm)

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

    @property
    def procedure(self) -> Procedure:
        """The procedure that was run: test, correction, control, options, alpha.

        Examples
        --------
        >>> import cdplot
        >>> cdplot.compare(cdplot.datasets.load("demsar2006"), test="sign").procedure.label
        'sign+holm'
        """
        from ._design import omnibus_of
        from ._procedure import Procedure

        omnibus = self.omnibus
        design = omnibus_of(omnibus.name) if omnibus else None  # Durbin, Page (and its order)
        return Procedure(
            self.test,
            self.correction,
            self.control,
            dict(self.test_options),
            self.alpha,
            omnibus=design[0]
            if design
            else _OMNIBUS_NAMES.get(omnibus.name, omnibus.name)
            if omnibus
            else "friedman",
            order=design[1] if design else None,
        )

    @property
    def parametric(self) -> bool:
        """Whether the analysis compares mean scores (paired t, Tukey, repeated-measures ANOVA)."""
        omnibus = self.omnibus
        return self.test in ("paired-t", "tukey") or (
            omnibus is not None and "ANOVA" in omnibus.name
        )

    @cached_property
    def assumptions(self) -> AssumptionCheck | None:
        """The normality and sphericity checks of a parametric analysis, else None.

        :func:`cdplot.stats.check_assumptions` at level 0.05, computed once when first read
        (reports read it; they run no test themselves).
        """
        if not self.parametric:
            return None
        from ._parametric import check_assumptions

        return check_assumptions(self)

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
        from ._frames import pairwise_frame

        return pairwise_frame(self)

    def plot(self, kind: str = "auto", **kwargs: Any) -> Axes:
        """Draw the result; ``kind="auto"`` picks the figure that reads at the width.

        ``kind="cd"``: :func:`cdplot.cd_diagram`; ``"ranks"``: :func:`cdplot.rank_plot`;
        ``"mcm"``: :func:`cdplot.multi_comparison_matrix`; ``"auto"`` (default): the CD
        diagram while it is legible at the width, else the rank plot
        (:func:`cdplot.choose_figure`). ``kwargs`` go to the chosen function.
        """
        from ..plotting._choose import plot_result

        return plot_result(self, kind, **kwargs)

    @property
    def omnibus_rejects(self) -> bool:
        """Whether the omnibus test rejects at ``alpha`` (Iman-Davenport F; Demšar 2006)."""
        from ._caveats import omnibus_rejects

        return omnibus_rejects(self)

    @property
    def caveats(self) -> tuple[str, ...]:
        """Plain-language caveats about this comparison, one sentence each (may be empty).

        The omnibus test did not reject; too few datasets for the Wilcoxon or
        sign test to reach ``alpha`` or the first step of the correction; too
        few for the approximations of Friedman's and the rank tests. Every
        report prints these, so they are decided once, here; the rules are in
        :func:`cdplot.stats._caveats.caveat_facts` and worded in ``report/``.

        Examples
        --------
        >>> import cdplot
        >>> res = cdplot.compare(cdplot.datasets.load("demsar2006"))
        >>> res.caveats
        ()
        """
        from ..report._notes import caveats  # the facts are stats', the words report's

        return caveats(self)

    @property
    def letters(self) -> dict[str, str]:
        """Compact letter display: two algorithms share a letter exactly when not separated.

        Piepho's (2004) insert-and-absorb algorithm with his sweep step, never more letters
        than R's ``multcompView::multcompLetters`` on ``significant``; the best algorithm
        gets ``"a"``. In a comparison with a control, untested pairs count as not separated.

        Returns
        -------
        dict of str to str
            Algorithm -> letters, in average-rank order.

        Examples
        --------
        >>> import cdplot
        >>> cdplot.compare(cdplot.datasets.load("demsar2006")).letters["C4.5"]
        'a'
        """
        from ._letters import result_letters

        return result_letters(self)

    # Declared seams into the report layer (see _seams.py): each *is* the report function
    # bound to this result, with that function's signature and docstring.
    to_latex = Seam("cdplot.report", "to_latex")
    to_markdown = Seam("cdplot.report", "to_markdown")
    to_html = Seam("cdplot.report", "to_html")
    to_json = Seam("cdplot._json", "result_to_json")
    summary = Seam("cdplot.report", "summary")
    _repr_html_ = Seam("cdplot.report._html", "notebook_html")
    __str__ = Seam("cdplot.report", "result_text")

    def rank_intervals(self, method: str = "test", **kwargs: Any) -> Any:
        """Confidence intervals for the ranks; see :func:`cdplot.rank_intervals`."""
        from ._intervals import rank_intervals

        return rank_intervals(self, method, **kwargs)

    def effect_sizes(self, measure: str = "mean", **kwargs: Any) -> pd.DataFrame:
        """Effect sizes of every pair with intervals; see :func:`cdplot.effect_sizes`."""
        from ._effects import effect_sizes

        return effect_sizes(self, measure, **kwargs)


@dataclass(frozen=True, eq=False, repr=False)
class BayesianComparisonResult(ComparisonResult):
    """A comparison by a Bayesian test (``test="bayes-signed-rank"`` or ``"bayes-sign"``).

    A :class:`ComparisonResult` whose pairwise evidence is posterior probabilities:
    ``rope``, ``threshold``, ``posterior_better``, ``posterior_equivalent``,
    ``posterior_worse`` and ``decisions`` are set; ``pvalues`` and ``adjusted_pvalues``
    hold NaN (no p-values); ``significant`` marks the pairs decided different; ``groups``
    are the runs none of whose pairs is decided different. Figures, reports, JSON and
    :meth:`to_frame` tell the two kinds apart by this type.

    Examples
    --------
    >>> import cdplot
    >>> res = cdplot.compare(cdplot.datasets.load("demsar2006"), test="bayes-sign",
    ...                      rope=0.01, nsamples=2000, random_state=1)
    >>> type(res).__name__, res.equivalence_groups
    ('BayesianComparisonResult', ())
    """

    @property
    def equivalence_groups(self) -> tuple[tuple[str, ...], ...]:
        """Maximal runs, consecutive in average-rank order, whose pairs are all equivalent.

        Read off ``decisions`` ("equivalent" at ``threshold``); groups of one are left out.
        """
        from ._groups import find_groups

        names = list(self.algorithms)
        position = {n: i for i, n in enumerate(names)}
        order = [position[n] for n in labelled_index(self, "average_ranks")]
        not_equivalent = np.asarray(self.decisions.to_numpy() != "equivalent", dtype=bool)
        np.fill_diagonal(not_equivalent, False)
        groups, _ = find_groups(order, not_equivalent)
        return tuple(tuple(names[j] for j in g) for g in groups if len(g) >= 2)

    def to_frame(self) -> pd.DataFrame:
        """Tidy table of the pairs: the columns of :meth:`ComparisonResult.to_frame` with
        ``statistic`` = ``p_better``, NaN p-values and ``significant`` = decided different,
        plus ``p_better``, ``p_equivalent``, ``p_worse`` and ``decision``."""
        from ._bayes import bayes_frame

        return bayes_frame(self)


def is_bayesian(result: Any) -> bool:
    """Whether ``result`` is a Bayesian comparison (posterior probabilities, no p-values)."""
    return isinstance(result, BayesianComparisonResult)


def labelled_index(result: Any, name: str) -> tuple[str, ...]:
    """The row labels of the table ``name`` of ``result`` (without building pandas)."""
    from ._lazy import labelled

    return tuple(labelled(result, name).index)


#: The tables of a result: compare() stores labelled numpy arrays, and pandas builds each
#: one on first access (see stats/_lazy.py), so a run that only draws never imports pandas.
LAZY_TABLES = (
    "scores",
    "ranks",
    "average_ranks",
    "statistics",
    "pvalues",
    "adjusted_pvalues",
    "significant",
    "n_per_pair",
    "score_std",
    "mean_scores",
)
install_lazy_fields(ComparisonResult, LAZY_TABLES)


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

    def __iter__(self):
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

"""The comparison results (by kind, made of parts) returned by :func:`cdplot.compare`.

The highest room of the results: it sits above the test families, which return the small
results of :mod:`cdplot.stats._test_results` (re-exported here, where they were first).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from . import _pickled  # noqa: F401  (results pickled by cdplot <= 9cf280c load)
from ._parts import (
    Groups,
    Input,
    Omnibus,
    Parametric,
    Posterior,
    Posthoc,
    Ranking,
    build_parts,
    flat_names,
)
from ._seams import Seam
from ._test_results import (
    AssumptionCheck,
    OmnibusResult,
    PairedTestResult,
    PairwiseResult,
    SkillingsMackResult,
)
from ._values import ValueEquality

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd
    from matplotlib.axes import Axes

    from ._procedure import Procedure
    from ._wins import WinTieLossResult

__all__ = [
    "AssumptionCheck",
    "BayesianComparisonResult",
    "Comparison",
    "ComparisonResult",
    "OmnibusResult",
    "PairedTestResult",
    "PairwiseResult",
    "SkillingsMackResult",
]


#: what a frequentist comparison does not have (a Bayesian test's evidence)
_NOT_FREQUENTIST = (
    "threshold",
    "posterior_better",
    "posterior_equivalent",
    "posterior_worse",
    "decisions",
    "diagnostics",
)

#: what is computed from a result, not kept in it -> the error saying how to report it
_COMPUTED_APART = {
    "pool_sensitivity": (
        "a result keeps no pool-sensitivity frame (two equal results report the same): "
        "compute it with frame = cdplot.pool_sensitivity(result) and report it with "
        "result.summary(pool=frame)."
    ),
}

#: the ``name`` of each omnibus result -> its canonical ``compare(omnibus=...)`` name
_OMNIBUS_NAMES = {
    "Friedman chi-square": "friedman",
    "Friedman aligned-ranks": "aligned-ranks",
    "Quade F": "quade",
    "Skillings-Mack chi-square": "skillings-mack",
    "repeated-measures ANOVA F": "rm-anova",
}


class _Flat:
    """A public flat name of a result: the field of the same name of one of its parts.

    Read-only like the result (assignment goes through the frozen ``__setattr__``). A
    non-data descriptor: what ``object.__setattr__`` put in the instance wins, as it did
    for the dataclass fields these names were.
    """

    def __init__(self, part: str, field: str | None = None) -> None:
        self.part, self.field = part, field

    def __set_name__(self, owner: type, name: str) -> None:
        self.field = self.field or name
        self.__doc__ = f"``{name}`` (see the class docstring)."

    def __get__(self, obj: Any, owner: type | None = None) -> Any:
        if obj is None:
            return self
        return getattr(getattr(obj, self.part), self.field or "")


def _index(labels: Any, name: str | None = None) -> pd.Index:
    import pandas as pd

    return pd.Index(list(labels), dtype=object, name=name)


def _by_dataset(result: Any, values: np.ndarray | None) -> pd.DataFrame | None:
    """A datasets x algorithms table (``scores``, ``ranks``, ``score_std``)."""
    import pandas as pd

    if values is None:
        return None
    part = result._input
    return pd.DataFrame(
        values,
        index=_index(part.datasets, "dataset"),
        columns=_index(part.algorithms, "algorithm"),
    )


def _square(result: Any, values: np.ndarray | None) -> pd.DataFrame | None:
    """A k x k table over the algorithms in input order."""
    import pandas as pd

    if values is None:
        return None
    names = result._input.algorithms
    return pd.DataFrame(values, index=_index(names), columns=_index(names))


def _pairs_table(result: Any, values: np.ndarray, what: str) -> pd.DataFrame | pd.Series:
    """k x k, or against a control a Series over the other algorithms named ``what vs c``."""
    import pandas as pd

    if values.ndim == 2:
        return _square(result, values)
    control = result.control
    others = [a for a in result._input.algorithms if a != control]
    return pd.Series(values, index=_index(others, "algorithm"), name=f"{what} vs {control}")


@dataclass(frozen=True, eq=False, init=False, repr=False)
class Comparison(ValueEquality):
    """A comparison of k algorithms on N datasets: what both kinds of result share.

    :func:`cdplot.compare` returns one of its two kinds: a :class:`ComparisonResult`
    (frequentist: p-values) or, for a Bayesian test, a :class:`BayesianComparisonResult`
    (posterior probabilities). Annotate with this type what takes either kind, and tell
    them apart with :func:`isinstance` on the kinds. Every attribute is read-only.

    Attributes
    ----------
    algorithms, datasets : list of str
        Names in input order.
    scores, ranks : pandas.DataFrame
        The N x k scores analysed and the per-dataset ranks (1 = best).
    average_ranks : pandas.Series
        Average rank of each algorithm, best first.
    friedman, iman_davenport, omnibus : OmnibusResult or None
        The omnibus tests.
    test, correction, alpha, control, test_options
        The pairwise procedure as names (see :attr:`procedure` for the whole of it).
    procedure : Procedure
        The procedure that was run, with its Bergmann-Hommel budget and omnibus test.
    significant : pandas.DataFrame or pandas.Series
        The pairs separated (k x k, or against a control a Series over the others).
    groups, uncovered_pairs : tuple
        Groups with no pair separated; the non-separated pairs no group covers.

    See :class:`ComparisonResult` for the input fields (``labels``, ``aggregation``,
    ``n_missing``, ...), which both kinds have.

    Examples
    --------
    >>> import cdplot
    >>> res = cdplot.compare(cdplot.datasets.load("demsar2006"))
    >>> isinstance(res, cdplot.Comparison), type(res).__name__
    (True, 'ComparisonResult')
    """

    _input: Input
    _ranking: Ranking
    _omnibus: Omnibus
    _pairwise: Any
    _groups: Groups

    _PARTS: ClassVar[dict[str, type]] = {}
    #: attributes only the other kind has -> the error saying what to read instead
    _OTHER_KIND: ClassVar[dict[str, str]] = {}

    def __init__(self, **values: Any) -> None:
        parts, given = build_parts(type(self).__name__, self._PARTS, values)
        for attr, part in parts.items():
            object.__setattr__(self, attr, part)
        self.__dict__.update(given)  # tables given as pandas are the tables

    def __setstate__(self, state: dict[str, Any]) -> None:
        if "_input" in state:
            self.__dict__.update(state)
            return
        # pickled by cdplot <= 9cf280c: flat fields, tables under "_<name>_stored"
        from ._pickled import flat_state

        type(self).__init__(self, **flat_state(state, flat_names(self._PARTS)))

    def __getattr__(self, name: str) -> Any:
        if name in self._OTHER_KIND:
            raise AttributeError(self._OTHER_KIND[name])
        if name in _COMPUTED_APART:
            raise AttributeError(_COMPUTED_APART[name])
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    algorithms = _Flat("_input")
    datasets = _Flat("_input")
    higher_is_better = _Flat("_input")
    n_missing = _Flat("_input")
    ignored_datasets = _Flat("_input")
    aggregation = _Flat("_input")
    dropped_datasets = _Flat("_input")
    dropped_algorithms = _Flat("_input")
    labels = _Flat("_input")
    decimals = _Flat("_input")
    items = _Flat("_input")
    source_note = _Flat("_input")
    cost_name = _Flat("_input")
    friedman = _Flat("_omnibus")
    iman_davenport = _Flat("_omnibus")
    omnibus = _Flat("_omnibus")
    test = _Flat("_pairwise")
    correction = _Flat("_pairwise")
    alpha = _Flat("_pairwise")
    control = _Flat("_pairwise")
    test_options = _Flat("_pairwise")
    groups = _Flat("_groups")
    uncovered_pairs = _Flat("_groups")

    @cached_property
    def scores(self) -> pd.DataFrame:
        """The N x k score table analysed (datasets x algorithms)."""
        return _by_dataset(self, self._input.scores)

    @cached_property
    def costs(self) -> pd.DataFrame | None:
        """The N x k costs read with ``compare(..., cost=COLUMN)`` (mean over runs), else
        None; :func:`cdplot.pareto_frontier` reads them."""
        return _by_dataset(self, self._input.costs)

    @cached_property
    def score_std(self) -> pd.DataFrame | None:
        """Standard deviation of the runs of each cell (with aggregation), else None."""
        return _by_dataset(self, self._input.score_std)

    @cached_property
    def ranks(self) -> pd.DataFrame:
        """N x k per-dataset ranks (1 = best)."""
        return _by_dataset(self, self._ranking.rank_values())

    @cached_property
    def average_ranks(self) -> pd.Series:
        """Average rank of each algorithm, best first."""
        import pandas as pd

        part = self._ranking
        index = _index(part.rank_order, "algorithm")
        return pd.Series(part.average_ranks, index=index, name=part.rank_name)

    @cached_property
    def significant(self) -> pd.DataFrame | pd.Series:
        """Pairs separated (k x k, or against a control a Series over the others)."""
        return _pairs_table(self, self._pairwise.significant, "significant")

    @cached_property
    def n_per_pair(self) -> pd.DataFrame | None:
        """k x k number of datasets on which both algorithms have a result."""
        return _square(self, self._pairwise.n_per_pair)

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
        best = str(self._ranking.rank_order[0])
        best = best if len(best) <= 30 else best[:29] + "…"
        procedure = f"{self.test}+{self.correction}"
        if self.control is not None:
            procedure += f" vs {self.control!r}"
        return (
            f"{type(self).__name__}({procedure}, k={self.n_algorithms}, N={self.n_datasets}, "
            f"best={best!r}, {self._headline()})"
        )

    def _headline(self) -> str:
        raise NotImplementedError  # pragma: no cover

    def _decided(self) -> str:
        """``"2/6"``: the pairs separated (significant or decided different) of those tested."""
        flags = np.asarray(self._pairwise.significant, dtype=bool)
        if flags.ndim == 2:
            k = flags.shape[0]
            return f"{int(np.triu(flags, 1).sum())}/{k * (k - 1) // 2}"
        return f"{int(flags.sum())}/{flags.size}"

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
        """The procedure that was run: test, correction, control, options, alpha, budget.

        The :class:`~cdplot.stats.Procedure` :func:`cdplot.compare` ran (and its JSON
        keeps), with its Bergmann-Hommel budget and omnibus test. A result without it (read
        from an older JSON file, or built by hand) rebuilds it from its names, with the
        default budget.

        Examples
        --------
        >>> import cdplot
        >>> cdplot.compare(cdplot.datasets.load("demsar2006"), test="sign").procedure.label
        'sign+holm'
        """
        from dataclasses import replace

        rebuilt = self._named_procedure()
        stored = self._pairwise.procedure
        if stored is None:
            return rebuilt
        # the names win over a stored procedure they disagree with (dataclasses.replace)
        named = replace(rebuilt, bh_budget=stored.bh_budget, order=stored.order)
        return stored if stored == named else named

    def _named_procedure(self) -> Procedure:
        """The procedure rebuilt from the result's names (the budget is the default)."""
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
        """Tidy table of the pairwise comparisons, one row per tested pair (see the kinds)."""
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
        return dict(self._letter_display)

    @cached_property
    def _letter_display(self) -> dict[str, str]:
        """The letters, computed once per result object (a pure function of the result:
        equal results have equal letters); :attr:`letters` hands out a copy."""
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
    methods_text = Seam("cdplot.report._methods", "methods_text")
    methods_bibtex = Seam("cdplot.report._methods", "methods_bibtex")

    def rank_intervals(self, method: str = "test", **kwargs: Any) -> Any:
        """Confidence intervals for the ranks; see :func:`cdplot.rank_intervals`.

        The confidence defaults to ``1 - alpha`` of this result for ``method="test"``
        (0.95 for the bootstraps)."""
        from ._intervals import rank_intervals

        return rank_intervals(self, method=method, **kwargs)

    def effect_sizes(self, measure: str = "mean", **kwargs: Any) -> pd.DataFrame:
        """Effect sizes of every pair with intervals; see :func:`cdplot.effect_sizes`."""
        from ._effects import effect_sizes

        return effect_sizes(self, measure=measure, **kwargs)


@dataclass(frozen=True, eq=False, init=False, repr=False)
class ComparisonResult(Comparison):
    """Everything :func:`cdplot.compare` found out about k algorithms on N datasets.

    A frequentist comparison (p-values); a Bayesian test returns a
    :class:`BayesianComparisonResult` instead. Plots and reports read from this object
    only; they never recompute statistics. Every attribute is read-only; the constructor
    takes them as keywords (tables as pandas objects or numpy arrays).

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
    items : cdplot.io.ItemScores or None
        Item-level input (a table with an item column): the per-task items x
        algorithms score matrices the task scores were averaged from (see
        :func:`cdplot.stats.item_tests`); None otherwise and for a Dask
        DataFrame (its items stay on the cluster).
    source_note : str or None
        How a recognised source was read (lm-evaluation-harness output,
        Parquet, an MLflow export, ...), the first of :attr:`input_notes`.
    rope : None
        No region of practical equivalence (a Bayesian test returns a
        :class:`BayesianComparisonResult`, whose ``rope`` is one).
    """

    _parametric: Parametric

    _PARTS: ClassVar[dict[str, type]] = {
        "_input": Input,
        "_ranking": Ranking,
        "_omnibus": Omnibus,
        "_pairwise": Posthoc,
        "_groups": Groups,
        "_parametric": Parametric,
    }

    critical_difference = _Flat("_pairwise")
    critical_difference_units = _Flat("_pairwise")

    #: no region of practical equivalence (a Bayesian test's result has one)
    rope = None

    _OTHER_KIND: ClassVar[dict[str, str]] = {
        name: (
            f"a frequentist comparison has no {name} (a Bayesian test's posterior "
            "probabilities and decisions): read its pvalues, adjusted_pvalues and "
            "significant (or to_frame()), or compare with a Bayesian test."
        )
        for name in _NOT_FREQUENTIST
    }

    @cached_property
    def statistics(self) -> pd.DataFrame:
        """k x k matrix of pairwise test statistics."""
        return _square(self, self._pairwise.statistics)

    @cached_property
    def pvalues(self) -> pd.DataFrame:
        """k x k matrix of raw two-sided p-values (NaN diagonal, input order)."""
        return _square(self, self._pairwise.pvalues)

    @cached_property
    def adjusted_pvalues(self) -> pd.DataFrame | pd.Series:
        """Adjusted p-values: k x k, or against a control a Series over the others."""
        return _pairs_table(self, self._pairwise.adjusted_pvalues, "APV")

    @cached_property
    def mean_scores(self) -> pd.Series | None:
        """Mean score of each algorithm, best first, for the parametric analyses; else None."""
        import pandas as pd

        part = self._parametric
        if part.mean_scores is None:
            return None
        index = _index(part.mean_order, "algorithm")
        return pd.Series(part.mean_scores, index=index, name="mean score")

    def _headline(self) -> str:
        return f"significant={self._decided()}, alpha={self.alpha:g}"

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
            ``algorithm_2`` (see :attr:`wins`).
        """
        from ._frames import pairwise_frame

        return pairwise_frame(self)


#: what a Bayesian comparison does not have, and what to read instead
_NOT_BAYESIAN = {
    "pvalues": "p-values",
    "adjusted_pvalues": "adjusted p-values",
    "statistics": "test statistics",
    "critical_difference": "critical difference",
}


@dataclass(frozen=True, eq=False, init=False, repr=False)
class BayesianComparisonResult(Comparison):
    """A comparison by a Bayesian test (``test="bayes-signed-rank"`` or ``"bayes-sign"``).

    Its pairwise evidence is posterior probabilities, not p-values: it has the attributes
    of :class:`ComparisonResult` that do not depend on p-values (input, ranks, omnibus
    tests, ``significant``, ``groups``, ``letters``, the reports and figures) and no
    ``pvalues``, ``adjusted_pvalues``, ``statistics`` or ``critical_difference``
    (reading one raises :class:`AttributeError` saying what to read). It is
    not a :class:`ComparisonResult`; figures, reports, JSON and :meth:`to_frame` tell the two
    kinds apart by type.

    Attributes
    ----------
    rope : float
        Half-width of the region of practical equivalence (score units).
    threshold : float
        The posterior probability a decision needs (default 0.95).
    posterior_better, posterior_equivalent, posterior_worse : pandas.DataFrame
        k x k matrices (input order, NaN diagonal) of P(row practically better than
        column), P(practically equivalent) and P(column practically better than row);
        ``posterior_worse`` is the transpose of ``posterior_better``. With ``a`` the row
        and ``b`` the column, the entries are :func:`cdplot.stats.bayes_signed_rank`'s (or
        ``bayes_sign``'s) ``left``, ``rope`` and ``right`` on ``a``'s and ``b``'s scores
        oriented so that higher is better.
    decisions : pandas.DataFrame
        k x k strings, "A better" (row), "B better" (column), "equivalent" or
        "undecided" at ``threshold``; "" on the diagonal.
    significant : pandas.DataFrame or pandas.Series
        The pairs decided different (one of the two practically better at ``threshold``).
    diagnostics : pandas.DataFrame or None
        The sampler's convergence for a test fitted by MCMC (``"bayes-hierarchical"``):
        one row per pair fitted with ``algorithm_1``, ``algorithm_2``, ``rhat`` (largest
        split R-hat over the parameters), ``ess`` (smallest bulk effective sample size),
        ``divergences`` and ``converged``; None for the other Bayesian tests, which draw
        their posterior samples directly.
    groups : tuple of tuple of str
        Maximal runs, consecutive in average-rank order, with no pair decided different.
    algorithms, datasets, scores, ranks, average_ranks, friedman, iman_davenport, omnibus
        As :class:`ComparisonResult`; so are ``test``, ``correction`` (``"none"``),
        ``alpha``, ``control``, ``test_options``, ``uncovered_pairs``, ``n_per_pair`` and
        the input fields.

    Examples
    --------
    >>> import cdplot
    >>> res = cdplot.compare(cdplot.datasets.load("demsar2006"), test="bayes-sign",
    ...                      rope=0.01, nsamples=2000, random_state=1)
    >>> type(res).__name__, res.equivalence_groups
    ('BayesianComparisonResult', ())
    """

    _PARTS: ClassVar[dict[str, type]] = {
        "_input": Input,
        "_ranking": Ranking,
        "_omnibus": Omnibus,
        "_pairwise": Posterior,
        "_groups": Groups,
    }

    rope = _Flat("_pairwise")
    threshold = _Flat("_pairwise")
    #: "rank": a Bayesian comparison is drawn on the average-rank axis (no critical difference)
    critical_difference_units = _Flat("_pairwise")
    #: None: no parametric analysis
    mean_scores = None
    #: no parametric analysis (internal code reads ``_parametric`` of either kind alike)
    _parametric: ClassVar[Parametric] = Parametric()

    _OTHER_KIND: ClassVar[dict[str, str]] = {
        name: (
            f"a Bayesian comparison has no {name} ({what}): read its posterior probabilities "
            "posterior_better, posterior_equivalent, posterior_worse and its decisions "
            "(or to_frame())."
        )
        for name, what in _NOT_BAYESIAN.items()
    }

    @cached_property
    def posterior_better(self) -> pd.DataFrame:
        """k x k P(row practically better than column), NaN diagonal."""
        return _square(self, self._pairwise.posterior_better)

    @cached_property
    def posterior_equivalent(self) -> pd.DataFrame:
        """k x k P(row and column practically equivalent), NaN diagonal."""
        return _square(self, self._pairwise.posterior_equivalent)

    @cached_property
    def posterior_worse(self) -> pd.DataFrame:
        """k x k P(column practically better than row): ``posterior_better`` transposed."""
        return _square(self, self._pairwise.posterior_better.T.copy())

    @cached_property
    def decisions(self) -> pd.DataFrame:
        """k x k "A better" (row), "B better" (column), "equivalent" or "undecided"."""
        return _square(self, self._pairwise.decisions)

    @cached_property
    def diagnostics(self) -> pd.DataFrame | None:
        """The sampler's convergence per pair (``rhat``, ``ess``, ``divergences``,
        ``converged``) for a test fitted by MCMC; None for the other Bayesian tests."""
        from ._bayes_hierarchical import diagnostics_frame

        return diagnostics_frame(self._pairwise.diagnostics, list(self.algorithms))

    def _headline(self) -> str:
        return f"decided={self._decided()}, threshold={self.threshold:g}"

    @property
    def equivalence_groups(self) -> tuple[tuple[str, ...], ...]:
        """Maximal runs, consecutive in average-rank order, whose pairs are all equivalent.

        Read off ``decisions`` ("equivalent" at ``threshold``); groups of one are left out.
        """
        from ._groups import find_groups

        names = list(self.algorithms)
        position = {n: i for i, n in enumerate(names)}
        order = [position[n] for n in self._ranking.rank_order]
        not_equivalent = np.asarray(self._pairwise.decisions != "equivalent", dtype=bool)
        np.fill_diagonal(not_equivalent, False)
        groups, _ = find_groups(order, not_equivalent)
        return tuple(tuple(names[j] for j in g) for g in groups if len(g) >= 2)

    def to_frame(self) -> pd.DataFrame:
        """Tidy table of the pairs, better-ranked algorithm first.

        Columns ``algorithm_1``, ``algorithm_2``, ``p_better`` (P(algorithm_1 practically
        better)), ``p_equivalent``, ``p_worse``, ``decision`` ("A better" means
        algorithm_1), ``significant`` (decided different), ``wins``, ``ties`` and
        ``losses``; no p-values.
        """
        from ._bayes import bayes_frame

        return bayes_frame(self)


def is_comparison(obj: Any) -> bool:
    """Whether ``obj`` is a comparison result of either kind (frequentist or Bayesian)."""
    return isinstance(obj, Comparison)

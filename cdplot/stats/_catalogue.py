"""The catalogue of pairwise tests: one frozen entry per test, read by everything else.

Everything cdplot knows about a pairwise test lives in its :class:`PairwiseTest` entry of
:data:`CATALOGUE`: its names, its options and their checks, its default correction, whether
it carries its own single-step adjustment, takes a control, needs a complete table or depends
on the pool of algorithms, its kernels (all pairs, the columns in canonical order, each pair
on the datasets both have, stacked replicate tables for a simulation), its critical
difference, its display title and why a reader may prefer it or not. :class:`Procedure`
(``_procedure``), the post-hoc step (``_posthoc``), the Bayesian step (``_bayes_step``),
simulation, the summary, the page and the command line read the entry; none keeps a table
of its own.

The kernels are named (module of ``cdplot.stats``, function) and looked up on first use, so
this module imports nothing but the error family: it loads no kernel module, no
``scipy.special``, no pandas.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache, partial
from importlib import import_module
from types import MappingProxyType
from typing import Any

from .._errors import check_bool, check_in_list, spell

__all__ = ["CATALOGUE", "Kernel", "OwnAdjustment", "PairwiseTest", "entry_of"]


@dataclass(frozen=True)
class Kernel:
    """A function of a module of ``cdplot.stats``, imported on first call.

    ``keywords`` are bound to it (as :func:`functools.partial`, which adds no frame, so a
    warning's ``stacklevel`` is unchanged).
    """

    module: str
    function: str
    keywords: tuple[tuple[str, Any], ...] = ()

    def load(self) -> Callable[..., Any]:
        """The function (with its bound keywords)."""
        return _load(self)


@cache
def _load(kernel: Kernel) -> Callable[..., Any]:
    function = getattr(import_module(f".{kernel.module}", __package__), kernel.function)
    return partial(function, **dict(kernel.keywords)) if kernel.keywords else function


@dataclass(frozen=True)
class OwnAdjustment:
    """A test's own single-step adjustment: whose it is, and the test without it."""

    #: the possessive shown in messages ("Nemenyi's")
    title: str
    #: the same test without the adjustment, which takes any correction
    plain_test: str


def _flag(option: str) -> Callable[[Any], Any]:
    return partial(_check_flag, option=option)


def _check_flag(value: Any, option: str) -> bool:
    return check_bool(value, option)


def _check_exact(value: Any) -> bool | None:
    """``exact``: True, False or None (chosen from N and the ties)."""
    return None if value is None else check_bool(value, "exact")


def _check_zero_method(value: Any) -> str:
    from ._pairwise import ZERO_METHODS

    return check_in_list(ZERO_METHODS, zero_method=value)


def _check_ties(value: Any) -> str:
    from ._pairwise import SIGN_TIES

    return check_in_list(SIGN_TIES, ties=value)


#: how a test deals with missing results
REFUSED, EACH_PAIR, DESIGN = "refused", "each pair", "design"
#: what the all-pairs kernel reads: the table (``f(table, **options)``), the average ranks
#: alone (``f(average ranks, N)``; the table is not read) or the table and the dataset names
#: (``f(table, datasets=names)``)
TABLE, RANKS, TABLE_AND_DATASETS = "table", "ranks", "table and datasets"
#: the per-fold scores (``datasets x algorithms x folds``) of a Bayesian test of folds
FOLDS = "folds"
#: the kinds of test: p-values to adjust, or posterior probabilities (no correction)
FREQUENTIST, BAYESIAN = "frequentist", "bayesian"


@dataclass(frozen=True)
class PairwiseTest:
    """One pairwise test: every fact cdplot uses about it.

    A new test is one entry of :data:`CATALOGUE` plus its kernel; nothing else changes.

    Examples
    --------
    >>> from cdplot.stats._catalogue import CATALOGUE
    >>> nemenyi = CATALOGUE["nemenyi"]
    >>> nemenyi.default_correction, nemenyi.pool_dependent, nemenyi.own_adjustment.plain_test
    ('nemenyi', True, 'mean-ranks')
    >>> CATALOGUE["wilcoxon"].options["zero_method"]("Pratt")
    'pratt'
    """

    #: the canonical name (``compare(test=...)``)
    name: str
    #: the display name in figures and reports
    title: str
    #: the function of every pair: ``kernel(table or average ranks, ...)`` as ``reads`` says
    #: (a Bayesian test's: ``kernel(test, oriented table, names, options)``)
    all_pairs: Kernel
    #: the other names ``compare(test=...)`` accepts
    aliases: tuple[str, ...] = ()
    #: option name -> its check (value -> checked value), in the order messages list them
    options: Mapping[str, Callable[[Any], Any] | None] = field(
        default_factory=lambda: MappingProxyType({})
    )
    #: "frequentist" (p-values) or "bayesian" (posterior probabilities, no correction)
    kind: str = FREQUENTIST
    #: the correction when none is named
    default_correction: str = "holm"
    #: its own single-step adjustment (the only correction it takes), if any
    own_adjustment: OwnAdjustment | None = None
    #: None if it compares with a control; else the advice given when a control is named
    no_control: Callable[[], str] | None = None
    #: a pair's decision depends on the other algorithms (it ranks all of them jointly)
    pool_dependent: bool = False
    #: missing results: "refused", "each pair" (on the datasets both have, with
    #: ``common_datasets``) or "design" (a balanced incomplete block design)
    incomplete: str = REFUSED
    #: what ``all_pairs`` reads: "table", "ranks" (the average ranks alone) or
    #: "table and datasets"
    reads: str = TABLE
    #: all pairs from the table in place with the canonical column order,
    #: ``f(scores, order, negate=..., **options)`` (no reordered copy of the table)
    ordered: Kernel | None = None
    #: one pair on the datasets both algorithms have, ``f(two columns, **options)``
    common_datasets: Kernel | None = None
    #: the raw p-values of every pair of R stacked tables, ``f(tables, options, avg_ranks)``
    batch: Kernel | None = None
    #: its critical difference, ``f(table as ``reads`` says, alpha)``, if it has one
    critical_difference: Kernel | None = None
    #: the correction with which it has a critical difference against a control
    control_critical_difference: str | None = None
    #: the unit of the critical difference: "rank" or "score"
    critical_difference_units: str = "rank"
    #: its own ranking, ``f(oriented table) -> (per-dataset table, averages)``, and its name
    own_ranking: Kernel | None = None
    own_rank_label: str | None = None
    #: the parametric model of a test on mean scores: "t" (paired t over the datasets) or
    #: "anova" (the repeated-measures ANOVA's residual variance); None for the others
    parametric: str | None = None
    #: its groups are runs in mean-score order (else in average-rank order)
    groups_by_mean: bool = False
    #: its p-values form a Robinson matrix in average-rank order (a hint for the exact
    #: Bergmann-Hommel engine)
    robinson_order: bool = False
    #: it compares the two algorithms' own scores (a pair found different is worded by scores)
    on_scores: bool = False
    #: ``statistics[a, b]`` measures the datasets where ``a`` does better (the signed-rank
    #: sum, the wins): it says which algorithm of a pair the test favours
    directed_statistic: bool = False
    #: its null distribution is over the 2**N sign patterns of a pair's differences: its
    #: smallest two-sided p-value is 2 / 2**N
    sign_floor: bool = False
    #: the HTML page recomputes it exactly on a subset of the datasets
    in_page: bool = False
    #: it compares models on one benchmark's items (``compare()`` on an item table with
    #: one task runs it; its kernel reads an items x models table without clusters)
    on_items: bool = False
    #: it compares algorithms over a board of datasets (False: one benchmark's items only)
    on_boards: bool = True
    #: it reads 0/1 scores only (solved or not)
    binary_scores: bool = False
    #: it takes the items' clusters into account (the test for items in clusters)
    clustered: bool = False
    #: why a reader may prefer it or not (a paragraph of the summary; "" for none)
    why: str = ""

    @property
    def bayesian(self) -> bool:
        """Whether it gives posterior probabilities (no p-values, no correction)."""
        return self.kind == BAYESIAN

    @property
    def mean_scores(self) -> bool:
        """Whether the mean scores are reported (a test on mean scores)."""
        return self.parametric is not None

    @property
    def needs_complete(self) -> bool:
        """Whether it refuses a table with missing results."""
        return self.incomplete == REFUSED

    def run_all_pairs(
        self,
        table: Any,
        average: Any,
        n: int,
        options: Mapping[str, Any],
        datasets: list[str],
    ) -> Any:
        """The frequentist kernel on a complete table (canonical column order)."""
        kernel = self.all_pairs.load()
        if self.reads == RANKS:
            return kernel(average, n)
        if self.reads == TABLE_AND_DATASETS:
            return kernel(table, datasets=datasets)
        return kernel(table, **options)


def _no_nemenyi_control() -> str:
    return (
        f"{spell('test', 'nemenyi')} compares all pairs; to compare with a control on "
        f"average ranks use {spell('test', 'mean-ranks')} with "
        f"{spell('correction', 'bonferroni-dunn')} (or 'holm', ...)."
    )


def _no_tukey_control() -> str:
    return (
        f"{spell('test', 'tukey')} compares all pairs (Dunnett's test, its version against "
        f"a control, is not available); use {spell('test', 'paired-t')} with "
        f"{spell('correction', 'holm')} (or another correction) to compare with a control "
        "on mean scores."
    )


_POOL_CAUTION = (
    "compares average ranks computed over all algorithms, so {its} depends on which other "
    "algorithms are in the comparison: adding or removing an algorithm can make a "
    "difference appear or vanish (Benavoli, Corani & Mangili 2016). They recommend the "
    "Wilcoxon signed-rank or the sign test instead (test='wilcoxon' or 'sign'), whose "
    "decision on a pair depends only on those two algorithms."
)
#: the options of the Bayesian tests, checked by the Bayesian step (``_bayes.BayesSettings``);
#: "prior": the strength of the prior pseudo-observation (Benavoli et al. 2017)
_BAYES_OPTIONS = MappingProxyType(
    dict.fromkeys(("rope", "threshold", "nsamples", "random_state", "prior"), None)
)

#: the hierarchical test's options (``_bayes_hierarchical.HierarchicalSettings``)
_HIERARCHICAL_OPTIONS = MappingProxyType(
    dict.fromkeys(
        (
            "rope",
            "threshold",
            "nsamples",
            "random_state",
            "chains",
            "warmup",
            "runs",
            "test_train_ratio",
            "strict",
        ),
        None,
    )
)

_ENTRIES = (
    PairwiseTest(
        "wilcoxon",
        "Wilcoxon signed-rank test",
        Kernel("_pairwise", "wilcoxon_test"),
        aliases=("signed-rank", "wilcoxon-signed-rank"),
        options=MappingProxyType(
            {
                "zero_method": _check_zero_method,
                "exact": _check_exact,
                "continuity": _flag("continuity"),
            }
        ),
        incomplete=EACH_PAIR,
        # its warnings point at compare()'s caller: compare, run_posthoc, _raw_tests, kernel
        ordered=Kernel("_pairwise", "wilcoxon_columns", (("stacklevel", 5),)),
        common_datasets=Kernel("_pairwise", "wilcoxon_test"),
        batch=Kernel("_batch", "batch_wilcoxon"),
        on_scores=True,
        directed_statistic=True,
        sign_floor=True,
        in_page=True,
        why=(
            "The Wilcoxon signed-rank test compares each pair on its own scores, so its "
            "decision on a pair does not depend on which other algorithms are in the "
            "comparison; it assumes the differences between the two algorithms are "
            "distributed symmetrically (Demšar 2006; Benavoli, Corani & Mangili 2016)."
        ),
    ),
    PairwiseTest(
        "sign",
        "sign test",
        Kernel("_pairwise", "sign_test"),
        aliases=("sign-test",),
        options=MappingProxyType({"ties": _check_ties}),
        incomplete=EACH_PAIR,
        ordered=Kernel("_pairwise", "sign_columns"),
        common_datasets=Kernel("_pairwise", "sign_test"),
        batch=Kernel("_batch", "batch_sign"),
        on_scores=True,
        directed_statistic=True,
        sign_floor=True,
        in_page=True,
        why=(
            "The sign test counts the datasets each algorithm of a pair wins, so its decision "
            "on a pair does not depend on the other algorithms; it assumes little but has "
            "less power than the Wilcoxon signed-rank test (Demšar 2006)."
        ),
    ),
    PairwiseTest(
        "mean-ranks",
        "mean-ranks test",
        Kernel("_pairwise", "mean_ranks_test"),
        aliases=("meanranks", "mean-rank"),
        pool_dependent=True,
        reads=RANKS,
        batch=Kernel("_batch", "batch_mean_ranks"),
        control_critical_difference="bonferroni-dunn",
        robinson_order=True,
        in_page=True,
        why="Caution: the mean-ranks test " + _POOL_CAUTION.format(its="its decision on a pair"),
    ),
    PairwiseTest(
        "nemenyi",
        "Nemenyi test",
        Kernel("_pairwise", "nemenyi_test"),
        default_correction="nemenyi",
        own_adjustment=OwnAdjustment("Nemenyi's", "mean-ranks"),
        no_control=_no_nemenyi_control,
        pool_dependent=True,
        reads=RANKS,
        batch=Kernel("_batch", "batch_nemenyi"),
        critical_difference=Kernel("_pairwise", "nemenyi_critical_difference"),
        in_page=True,
        why="Caution: the Nemenyi test "
        + _POOL_CAUTION.format(its="its decision on a pair (and the critical difference)"),
    ),
    PairwiseTest(
        "aligned-ranks",
        "aligned-ranks test",
        Kernel("_aligned", "aligned_ranks_posthoc"),
        aliases=("aligned", "friedman-aligned-ranks"),
        pool_dependent=True,
        own_ranking=Kernel("_own_ranks", "aligned_own_ranks"),
        own_rank_label="average aligned rank",
    ),
    PairwiseTest(
        "quade",
        "Quade post-hoc test",
        Kernel("_quade", "quade_posthoc"),
        options=MappingProxyType({"method": None}),  # checked by quade_posthoc
        pool_dependent=True,
        own_ranking=Kernel("_own_ranks", "quade_own_ranks"),
        own_rank_label="Quade weighted rank",
    ),
    PairwiseTest(
        "exact-rank-sum",
        "exact rank-sum test",
        Kernel("_exact_ranksum", "exact_rank_sum_test"),
        aliases=("exact", "exact-ranksum"),
        pool_dependent=True,
        reads=TABLE_AND_DATASETS,
    ),
    PairwiseTest(
        "paired-t",
        "paired t-test",
        Kernel("_parametric", "paired_t_test"),
        aliases=("t-test", "ttest", "paired-t-test"),
        parametric="t",
        on_scores=True,
        on_items=True,
    ),
    PairwiseTest(
        "tukey",
        "Tukey HSD test",
        Kernel("_parametric", "tukey_test"),
        aliases=("tukey-hsd", "hsd"),
        default_correction="tukey",
        own_adjustment=OwnAdjustment("Tukey's", "paired-t"),
        no_control=_no_tukey_control,
        critical_difference=Kernel("_parametric", "tukey_critical_difference"),
        critical_difference_units="score",
        parametric="anova",
        groups_by_mean=True,
        on_scores=True,
    ),
    PairwiseTest(
        "bayes-signed-rank",
        "Bayesian signed-rank test",
        Kernel("_bayes", "bayes_comparison"),
        aliases=("bayesian-signed-rank", "bayes-wilcoxon"),
        options=_BAYES_OPTIONS,
        kind=BAYESIAN,
        default_correction="none",
    ),
    PairwiseTest(
        "bayes-sign",
        "Bayesian sign test",
        Kernel("_bayes", "bayes_comparison"),
        aliases=("bayesian-sign",),
        options=_BAYES_OPTIONS,
        kind=BAYESIAN,
        default_correction="none",
    ),
    PairwiseTest(
        "bayes-hierarchical",
        "Bayesian hierarchical test",
        Kernel("_bayes_hierarchical", "hierarchical_comparison"),  # the per-fold scores
        aliases=("bayesian-hierarchical", "hierarchical"),
        options=_HIERARCHICAL_OPTIONS,
        kind=BAYESIAN,
        default_correction="none",
        reads=FOLDS,
    ),
    PairwiseTest(
        "conover",
        "Conover test",
        Kernel("_conover", "conover_friedman_test"),  # a t-test on Friedman rank sums
        aliases=("conover-friedman",),
        pool_dependent=True,
        why=(
            "Conover's test compares the Friedman rank sums with a t-test whose variance "
            "comes from all the ranks (Conover 1999), so, like the mean-ranks test, its "
            "decision on a pair depends on which other algorithms are in the comparison "
            "(Benavoli, Corani & Mangili 2016)."
        ),
    ),
    PairwiseTest(
        "mcnemar",
        "exact McNemar test",
        Kernel("_benchmark", "mcnemar_pairs"),  # the items x models 0/1 table
        aliases=("mcnemar-exact", "exact-mcnemar"),
        on_scores=True,
        directed_statistic=True,
        on_items=True,
        on_boards=False,
        binary_scores=True,
        why=(
            "The exact McNemar test compares two models on the items only one of them "
            "solved (the binomial test of the discordant items), so it needs no assumption "
            "about the distribution of the scores and is exact at any number of items; its "
            "decision on a pair does not depend on the other models. It assumes the items "
            "are independent: with items in clusters use the cluster-robust paired t-test."
        ),
    ),
    PairwiseTest(
        "cluster-t",
        "cluster-robust paired t-test",
        Kernel("_benchmark", "cluster_t_pairs"),  # without clusters: each item its own
        aliases=("cluster-robust-t", "clustered-t"),
        parametric="t",
        on_scores=True,
        on_items=True,
        on_boards=False,
        clustered=True,
        why=(
            "The cluster-robust paired t-test compares the mean scores of two models on the "
            "same items with a standard error from the clusters' totals (the items of one "
            "passage or repository are not independent), with G - 1 degrees of freedom for "
            "G clusters (Miller 2024, 'Adding Error Bars to Evals'); the naive interval, "
            "which treats the items as independent, is too narrow when scores correlate "
            "within clusters."
        ),
    ),
    PairwiseTest(
        "durbin",
        "Durbin all-pairs test",
        Kernel("_durbin", "durbin_posthoc"),  # for balanced incomplete block designs
        aliases=("durbin-all-pairs", "durbin-posthoc"),
        pool_dependent=True,
        incomplete=DESIGN,
    ),
)

#: canonical test name -> its entry, in the order the tests are listed (read-only)
CATALOGUE: Mapping[str, PairwiseTest] = MappingProxyType({t.name: t for t in _ENTRIES})
#: alias -> canonical test name (read-only)
ALIASES: Mapping[str, str] = MappingProxyType(
    {alias: t.name for t in _ENTRIES for alias in t.aliases}
)


def entry_of(test: str) -> PairwiseTest | None:
    """The entry of a canonical test name, or None for a name cdplot does not know (a
    result may be built by hand with any name)."""
    return CATALOGUE.get(test)

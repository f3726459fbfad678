"""compare(): orchestration only -- parse, rank, test, adjust, group."""

from __future__ import annotations

import dataclasses
import math
import warnings
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from .._errors import (
    CLI_FLAGS,
    CdplotInputError,
    CdplotWarning,
    PoolDependenceWarning,
    check_bool,
    check_in_list,
    in_cli,
    silence_hint,
    spell,
)
from ..io import ScoreTable, parse_scores
from ._adjust import adjust_all_pairs, adjust_control, check_bh_budget, resolve_correction
from ._aligned import aligned_ranks_posthoc
from ._bayes import BAYES_TESTS, bayes_comparison
from ._conover import conover_friedman_test
from ._exact_ranksum import exact_rank_sum_test
from ._fdr import FDR_CORRECTIONS
from ._groups import find_groups
from ._lazy import Labelled
from ._omnibus import (
    INCOMPLETE_OMNIBUS,
    OMNIBUS_TESTS,
    friedman,
    iman_davenport,
    resolve_omnibus,
    tie_correction_factor,
)
from ._options import check_alpha, check_control, check_labels
from ._own_ranks import OWN_RANK_LABELS, own_ranks
from ._pairwise import (
    SIGN_TIES,
    ZERO_METHODS,
    mean_ranks_test,
    nemenyi_q,
    nemenyi_test,
    rank_standard_error,
    sign_test,
    wilcoxon_test,
)
from ._parametric import (
    column_means,
    paired_t_test,
    tukey_critical_difference,
    tukey_test,
)
from ._quade import quade_posthoc
from ._ranks import rank_rows
from ._results import ComparisonResult, OmnibusResult, PairwiseResult
from ._skillings_mack import pairs_on_common_datasets, scaled_ranks, skillings_mack

__all__ = ["MISSING", "TESTS", "compare", "resolve_test"]

#: values of compare(missing=...); the reader understands more (see cdplot.io.MISSING_OPTIONS)
MISSING = ["raise", "drop", "drop-algorithms", "keep"]

#: canonical test name -> the options it accepts
TESTS: dict[str, tuple[str, ...]] = {
    "wilcoxon": ("zero_method", "exact", "continuity"),
    "sign": ("ties",),
    "mean-ranks": (),
    "nemenyi": (),
    "aligned-ranks": (),
    "quade": ("method",),
    "exact-rank-sum": (),
    "paired-t": (),
    "tukey": (),
    # issue 30: "prior", the strength of the prior pseudo-observation
    "bayes-signed-rank": ("rope", "threshold", "nsamples", "random_state", "prior"),
    "bayes-sign": ("rope", "threshold", "nsamples", "random_state", "prior"),
    "conover": (),  # issue 30: Conover's t-test after Friedman (_conover)
}
_TEST_ALIASES = {
    "meanranks": "mean-ranks",
    "mean-rank": "mean-ranks",
    "signed-rank": "wilcoxon",
    "wilcoxon-signed-rank": "wilcoxon",
    "sign-test": "sign",
    "aligned": "aligned-ranks",
    "friedman-aligned-ranks": "aligned-ranks",
    "exact": "exact-rank-sum",
    "exact-ranksum": "exact-rank-sum",
    "t-test": "paired-t",
    "ttest": "paired-t",
    "paired-t-test": "paired-t",
    "tukey-hsd": "tukey",
    "hsd": "tukey",
    "bayesian-signed-rank": "bayes-signed-rank",
    "bayes-wilcoxon": "bayes-signed-rank",
    "bayesian-sign": "bayes-sign",
    "conover-friedman": "conover",
}
#: tests that rank the algorithms within each dataset jointly: they need a complete table
#: and their decision on a pair depends on the other algorithms (Benavoli et al. 2016)
_RANK_POOL_TESTS = (
    "mean-ranks",
    "nemenyi",
    "aligned-ranks",
    "quade",
    "exact-rank-sum",
    "conover",
)
#: paired tests that run on an incomplete table, each pair on the datasets both have
_COMMON_DATASET_TESTS: dict[str, Callable[..., PairwiseResult]] = {
    "wilcoxon": wilcoxon_test,
    "sign": sign_test,
}
#: the correction of each test when none is named (correction=None)
_DEFAULT_CORRECTION = {
    "nemenyi": "nemenyi",
    "tukey": "tukey",
    "bayes-signed-rank": "none",
    "bayes-sign": "none",
}
#: tests with their own single-step adjustment and a critical difference
_SINGLE_STEP = {"nemenyi": "mean-ranks", "tukey": "paired-t"}


def resolve_test(name: str) -> str:
    """Canonical test name, or a :class:`CdplotInputError` listing the valid ones."""
    if isinstance(name, str) and name.strip().lower() == "friedman":
        raise CdplotInputError(
            f"{name!r} is not a valid value for {spell('test')}: the Friedman test is an omnibus "
            f"test ({spell('omnibus', 'friedman')}, the default; res.omnibus), not a pairwise "
            f"post-hoc test; for the post-hoc test on Friedman's average ranks pass "
            f"{spell('test', 'mean-ranks')} (or {spell('test', 'nemenyi')})."
        )
    return check_in_list(TESTS, aliases=_TEST_ALIASES, test=name)


def _option(name: str) -> str:
    """A test option as the user names it: ``'zero_method'`` or ``--zero-method``."""
    return spell(name) if in_cli() else repr(name)


def compare(
    data: Any,
    *,
    dataset: str | Sequence[Any] | None = None,
    algorithm: str | Sequence[Any] | None = None,
    score: str | None = None,
    higher_is_better: bool = True,
    test: str = "wilcoxon",
    correction: str | None = None,
    alpha: float = 0.05,
    control: str | None = None,
    missing: str = "raise",
    tie_correction: bool = False,
    omnibus: str | None = None,
    bh_budget: float | None = None,
    aggregate: str | Callable[[np.ndarray], float] | None = None,
    decimals: int | None = None,
    labels: Mapping[str, str] | None = None,
    fdr_groups: bool = False,
    **test_options: Any,
) -> ComparisonResult:
    """Compare k algorithms over N datasets: ranks, omnibus tests, post-hoc tests, groups.

    Parameters
    ----------
    data : DataFrame, numpy.ndarray, str, os.PathLike or file object
        The scores: a wide DataFrame (rows = datasets, columns = algorithms,
        index = dataset names), a long DataFrame (see ``dataset``,
        ``algorithm``, ``score``), a 2-D array (rows = datasets) or a CSV/TSV
        file (path or open text file) in either form, or a polars DataFrame (or
        any object with ``to_pandas()`` or the ``__dataframe__`` protocol).
        Columns are recognised by name in any order (see Notes); a table with
        an algorithm column is long, else wide. In a wide table the first
        column holds the dataset names when its header is a dataset name (ids
        included), empty, ``Unnamed: 0``, ``id`` or ``index``, or when it is
        not numeric.
    dataset, algorithm, score : str, optional
        Column names; they win over the recognised names. Needed only when a
        role cannot be recognised (the error then says so). For a 2-D array,
        ``algorithm`` and ``dataset`` may be sequences of names.
    higher_is_better : bool, default True
        False for error rates, losses or run times. Rank 1 is always the best.
    test : str, default "wilcoxon"
        The pairwise test. "wilcoxon" is the signed-rank test and "sign" the
        sign test on each pair's scores. "mean-ranks" and "nemenyi" compare
        average ranks (Demšar 2006 §3.2.2; García & Herrera 2008).
        "aligned-ranks" is the z-test on Friedman aligned mean ranks, "quade"
        García's z-test after Quade's test (``method="conover"`` for Conover's
        t-test), "exact-rank-sum" the exact test of the rank-sum difference
        (Eisinga et al. 2017; tables without ties, k and N up to 100).
        The parametric tests compare mean scores: "paired-t" (any correction
        applies) and "tukey", Tukey's HSD with the residual variance of the
        blocked ANOVA and its own single-step adjustment (its critical
        difference is in score units). Demšar (2006, §3.1.1-3.1.2, §3.2.1) warns
        that they assume commensurable scores across datasets, normal
        differences and (ANOVA) sphericity; check with
        :func:`cdplot.stats.check_assumptions`.
        "conover" is Conover's t-test on Friedman rank sums (Conover 1999,
        §5.8; ``(N - 1)(k - 1)`` df), all pairs or against ``control``.
        "bayes-signed-rank" and "bayes-sign" are the Bayesian signed-rank and
        sign tests (Benavoli et al. 2014, 2017; see
        :func:`cdplot.stats.bayes_signed_rank`): posterior probabilities
        instead of p-values, no correction.
    correction : str, optional
        How p-values are adjusted for multiple testing. All pairs: "none",
        "bonferroni", "holm", "hochberg", "hommel", "finner", "shaffer",
        "bergmann-hommel" (alias "bergmann"). Against a control: "none",
        "bonferroni-dunn" (alias "bonferroni"), "holm", "hochberg", "hommel",
        "finner", "li". Both: "holland" (step-down Šidák), "rom" (Rom's
        step-up, exact adjusted p-values, up to 190 hypotheses), and the
        false-discovery-rate procedures "fdr-bh" (Benjamini-Hochberg) and
        "fdr-by" (Benjamini-Yekutieli), equal to R's ``p.adjust``; these control
        the FDR, not the family-wise error, so ``groups`` stays empty unless
        ``fdr_groups=True``.
        None (default): the test's own default, "holm" for every test except
        ``test="nemenyi"``, which carries its own single-step adjustment
        ("nemenyi"); naming any other correction with it is refused, so a
        report never names a procedure that was not run.
    alpha : float, default 0.05
        Significance level for ``significant``, ``groups`` and the critical difference.
    control : str, optional
        Compare every algorithm with this one only (k - 1 hypotheses).
    missing : {"raise", "drop", "drop-algorithms", "keep"}, default "raise"
        Missing results raise an error; ``"drop"`` drops the incomplete
        datasets, ``"drop-algorithms"`` the algorithms with missing results,
        with a warning (what was dropped is kept in ``dropped_datasets`` and
        ``dropped_algorithms`` and said in every report); ``"keep"`` analyses
        the incomplete table: the omnibus test is Skillings-Mack, the Wilcoxon
        and sign tests use for each pair the datasets where both have a result
        (``n_per_pair``), and the rank-based post-hoc tests are refused.
    tie_correction : bool, default False
        Correct Friedman's chi-square for ties within datasets (the value of R's
        ``friedman.test`` and ``scipy.stats.friedmanchisquare``). The default is
        Demšar's formula without correction.
    omnibus : {"friedman", "aligned-ranks", "quade", "skillings-mack", "rm-anova"}
        The omnibus test reported as ``omnibus``: Friedman's chi-square (the
        default), Friedman's aligned-ranks test, Quade's F, Skillings-Mack
        (the default with ``missing="keep"``; the only one that accepts
        missing results), or the repeated-measures ANOVA F (R's
        ``aov(score ~ algorithm + Error(dataset/algorithm))``). ``friedman``
        and ``iman_davenport`` are computed whenever the table is complete,
        whatever ``omnibus`` is.
    bh_budget : float, optional
        Time budget in seconds of the exact Bergmann-Hommel search (default
        10; ``math.inf`` for no limit). Only with
        ``correction="bergmann-hommel"``. The search counts steps; the budget
        is converted at ``cdplot.stats._adjust.BH_STEPS_PER_SECOND`` (10^6)
        steps per second.
    aggregate : {None, "mean", "median"} or callable, default None
        How repeated runs (several rows per dataset and algorithm, e.g. one
        per fold or seed) become one score per cell. Without it they are
        refused. Means are exact: the mean of the runs' exact values, rounded
        once to a float, so equal means come out equal whatever the row
        order. A callable gets each cell's runs as a 1-D float array sorted
        ascending and returns a number. ``aggregation`` and ``score_std`` on
        the result record what was done.
    decimals : int, optional
        Round the scores (after aggregation) to this many decimals before
        ranking, e.g. the precision they were measured with. Otherwise cdplot
        ranks the exact floats it is given, as scipy and R do, so
        ``0.83`` and ``0.8300000000000001`` are not a tie.
    labels : mapping of str to str, optional
        Display names for figures and reports, e.g.
        ``{"RandomForest (500 trees)": "RF"}``; the data and the result keep
        the original names (``labels`` on the result).
    fdr_groups : bool, default False
        With ``correction="fdr-bh"`` or ``"fdr-by"``: form the groups of
        not-significantly-different algorithms anyway (the diagram then says
        they come from an FDR procedure). Refused with any other correction.
    **test_options
        Options of the pairwise test. Wilcoxon: ``zero_method`` ("wilcox",
        "pratt", "zsplit"), ``exact`` (None, True, False), ``continuity``
        (bool). Sign test: ``ties`` ("split", "discard"). Quade:
        ``method`` ("garcia", "conover"). Bayesian tests: ``rope``
        (half-width of the region of practical equivalence in score units,
        default 0: no equivalence), ``threshold`` (posterior probability needed
        for a decision, default 0.95), ``nsamples`` (default 50000),
        ``random_state`` (an integer seed reproduces baycomp's draws) and ``prior``
        (strength of the prior pseudo-observation, in the rope / at 0: 1 for the
        sign test, 0.5 for the signed-rank test, as Benavoli et al. 2017; a
        directional prior, ``prior_place``, is for one pair:
        :func:`cdplot.stats.bayes_sign`, :func:`cdplot.stats.bayes_signed_rank`).

    Returns
    -------
    ComparisonResult
        With ``ranks``, ``average_ranks``, ``friedman``, ``iman_davenport``,
        ``omnibus``, ``pvalues``, ``adjusted_pvalues``, ``significant``,
        ``groups``, ``uncovered_pairs``, ``critical_difference``,
        ``n_missing``, ``n_per_pair`` and ``ignored_datasets``; ``aggregation``,
        ``score_std``, ``dropped_datasets``, ``dropped_algorithms``, ``labels``
        and ``input_notes`` say how the table was read.
        A Bayesian
        test adds ``rope``, ``threshold``, ``posterior_better``,
        ``posterior_equivalent``, ``posterior_worse`` (k x k: P(row practically
        better than / equivalent to / worse than column)) and ``decisions``
        ("A better", "equivalent", "B better" or "undecided", A = row); its
        ``statistics`` are ``posterior_better``, its p-values NaN,
        ``significant`` marks the pairs decided different (either direction
        reaching ``threshold``) and ``groups`` are the runs of algorithms none
        of whose pairs is decided different.

    Raises
    ------
    CdplotInputError
        (a ValueError) for unusable input or options; the message names the
        problem and the fix.
    BergmannHommelLimitError
        (a CdplotInputError) when exact Bergmann-Hommel APVs do not finish
        within ``bh_budget``; the message gives the options that do.

    Warns
    -----
    PoolDependenceWarning
        With ``test="mean-ranks"`` or ``"nemenyi"``: the decision on a pair
        depends on which other algorithms are compared (Benavoli et al. 2016).
    CdplotWarning
        When the test cannot reach significance at ``alpha`` with this few
        datasets, or incomplete datasets were dropped.

    Notes
    -----
    Column roles, case-insensitive, ignoring ``_``, ``-`` and spaces: dataset
    (``dataset``, ``data``, ``data_set``, ``dataset_name``, ``dataset_id``,
    ``problem``, ``task``, ``task_id``, ``benchmark``, ``instance``),
    algorithm (``algorithm``, ``method``, ``model``, ``classifier``,
    ``learner``, ``estimator``, ``regressor``, ``system``, ``approach``),
    repetition (``fold``, ``seed``, ``run``, ``repeat``, ``rep``, ``split``,
    ``iteration``, ``trial``, ``replicate``); in a long table the one other
    numeric column holds the scores (with several, pass ``score=`` or use
    :func:`cdplot.compare_metrics`).

    Ranks: 1 = best on each dataset, ties get the average rank. Friedman:
    ``chi2 = 12N/(k(k+1)) sum_j (R_j - (k+1)/2)^2``; Iman-Davenport
    ``F = (N-1) chi2 / (N(k-1) - chi2)``. Mean-ranks: ``z = |R_i - R_j| / SE``
    with ``SE = sqrt(k(k+1)/(6N))``; Nemenyi's critical difference is
    ``CD = q_alpha SE`` with ``q_alpha`` the studentized-range quantile (infinite
    df) over ``sqrt(2)``; Bonferroni-Dunn's uses ``q = z_{1 - alpha/(2(k-1))}``.
    Bergmann-Hommel APVs are the closed-testing maximum over exhaustive sets
    followed by a running maximum in increasing raw-p order (García & Herrera
    2008, Table 5; hypotheses with equal raw p get equal APVs).

    With missing results (``missing="keep"``) each dataset is ranked over the
    algorithms present and the ranks are rescaled as in Skillings-Mack:
    ``(k + 1)/2 + sqrt((k + 1)/(k_j + 1)) (r_ij - (k_j + 1)/2)`` for a dataset
    with ``k_j`` results, so ``average_ranks`` (the mean over each algorithm's
    datasets) equal the usual average ranks on a complete table. Datasets with
    fewer than two results are ignored (``ignored_datasets``).

    References
    ----------
    J. Demšar, "Statistical comparisons of classifiers over multiple data
    sets", JMLR 7 (2006). S. García and F. Herrera, "An extension on
    'Statistical comparisons of classifiers over multiple data sets' for all
    pairwise comparisons", JMLR 9 (2008). A. Benavoli, G. Corani and F.
    Mangili, "Should we really use post-hoc tests based on mean-ranks?", JMLR
    17 (2016).

    Examples
    --------
    >>> import cdplot
    >>> res = cdplot.compare(cdplot.datasets.load("benavoli2016"))
    >>> res.average_ranks.index[0]
    'C3'
    """
    test_name = resolve_test(test)
    alpha = check_alpha(alpha)
    higher_is_better = check_bool(higher_is_better, "higher_is_better")
    tie_correction = check_bool(tie_correction, "tie_correction")
    if "continuity" in test_options:
        test_options["continuity"] = check_bool(test_options["continuity"], "continuity")
    if test_options.get("exact") is not None:
        test_options["exact"] = check_bool(test_options["exact"], "exact")
    for option, allowed in (("zero_method", ZERO_METHODS), ("ties", SIGN_TIES)):
        if option in test_options:
            test_options[option] = check_in_list(allowed, **{option: test_options[option]})
    missing = check_in_list(MISSING, missing=missing)
    unknown = sorted(set(test_options) - set(TESTS[test_name]))
    if unknown:
        valid = [v for v in TESTS[test_name] if not in_cli() or v in CLI_FLAGS]
        raise CdplotInputError(
            f"unknown option(s) {', '.join(_option(u) for u in unknown)} for "
            f"{spell('test', test_name)}; "
            + (
                f"it accepts {', '.join(_option(v) for v in valid)}."
                if valid
                else "it takes no options."
            )
        )
    omnibus_name = _resolve_omnibus(omnibus, missing)
    table = parse_scores(
        data,
        dataset=dataset,
        algorithm=algorithm,
        score=score,
        missing=missing,
        aggregate=aggregate,
        decimals=decimals,
    )
    if missing == "keep":
        table = _drop_empty_algorithms(table)
    algorithms, datasets = table.algorithms, table.datasets
    n, k = table.scores.shape
    display = check_labels(labels, algorithms, table.dropped_algorithms)
    n_missing = int(np.isnan(table.scores).sum())
    if n_missing:
        _refuse_incomplete(test_name, omnibus_name, n_missing)
        if tie_correction:
            raise CdplotInputError(
                f"{spell('tie_correction', True)} corrects Friedman's chi-square, which is not "
                f"computed on a table with missing results ({n_missing} missing); the "
                "Skillings-Mack test has no tie correction. Leave it out, or use "
                f"{spell('missing', 'drop')}."
            )

    control = check_control(control, algorithms)
    if control is not None and test_name == "nemenyi":
        raise CdplotInputError(
            f"{spell('test', 'nemenyi')} compares all pairs; to compare with a control on "
            f"average ranks use {spell('test', 'mean-ranks')} with "
            f"{spell('correction', 'bonferroni-dunn')} (or 'holm', ...)."
        )
    if control is not None and test_name == "tukey":
        raise CdplotInputError(
            f"{spell('test', 'tukey')} compares all pairs (Dunnett's test, its version against "
            f"a control, is not available); use {spell('test', 'paired-t')} with "
            f"{spell('correction', 'holm')} (or another correction) to compare with a control "
            "on mean scores."
        )
    if correction is None:
        correction_name = _DEFAULT_CORRECTION.get(test_name, "holm")
    elif test_name in _SINGLE_STEP:
        if not isinstance(correction, str) or correction.strip().lower() != test_name:
            title = "Nemenyi's" if test_name == "nemenyi" else "Tukey's"
            raise CdplotInputError(
                f"{spell('test', test_name)} carries its own single-step adjustment, so "
                f"{spell('correction', correction)} cannot be applied; drop "
                f"{spell('correction')} to use {title}, or use "
                f"{spell('test', _SINGLE_STEP[test_name])} with {spell('correction', correction)}."
            )
        correction_name = test_name
    elif test_name in BAYES_TESTS:
        if not isinstance(correction, str) or correction.strip().lower() != "none":
            raise CdplotInputError(
                f"{spell('test', test_name)} gives posterior probabilities, not p-values, so "
                f"{spell('correction', correction)} cannot be applied; drop "
                f"{spell('correction')} and set the posterior threshold with "
                f"{spell('threshold', 0.95)}."
            )
        correction_name = "none"
    else:
        correction_name = resolve_correction(correction, control=control is not None)
    if check_bool(fdr_groups, "fdr_groups") and correction_name not in FDR_CORRECTIONS:
        raise CdplotInputError(
            f"{spell('fdr_groups', True)} applies to {spell('correction', 'fdr-bh')} or "
            f"'fdr-by' only (the correction is {correction_name!r}, whose groups are always "
            f"formed); drop {spell('fdr_groups')}."
        )
    if bh_budget is not None and correction_name != "bergmann-hommel":
        raise CdplotInputError(
            f"{spell('bh_budget')} applies to {spell('correction', 'bergmann-hommel')} only; "
            f"drop it (the correction is {correction_name!r})."
        )
    budget = check_bh_budget(10.0 if bh_budget is None else bh_budget)

    oriented = table.scores if higher_is_better else -table.scores
    bayes: dict[str, Any] = {}
    fried: OmnibusResult | None = None
    iman: OmnibusResult | None = None
    ignored: tuple[str, ...] = ()
    if n_missing:  # incomplete table: Skillings-Mack, ranks over the algorithms present
        sm = skillings_mack(oriented, algorithms=algorithms, datasets=datasets)
        omnibus_res: OmnibusResult = sm
        ignored = sm.ignored_datasets
        if ignored:
            warnings.warn(
                f"ignored {len(ignored)} dataset(s) with fewer than two results (they carry "
                "no information about differences): " + ", ".join(repr(d) for d in ignored),
                CdplotWarning,
                stacklevel=2,
            )
        ranks = scaled_ranks(oriented)
        avg = np.nanmean(ranks, axis=0)
        pairwise, n_pair = pairs_on_common_datasets(
            _COMMON_DATASET_TESTS[test_name],
            oriented,
            algorithms=algorithms,
            **test_options,
        )
        shared = n_pair[~np.eye(k, dtype=bool)]
        n_smallest = int(shared[shared > 0].min())  # pairs that never meet warned already
    else:
        ranks = rank_rows(-oriented)  # rank 1 = best
        avg = ranks.mean(axis=0)
        # Every statistic is computed with the algorithms in a canonical order (by name) and
        # mapped back to input order, so that permuting the input columns permutes the
        # result and changes no bit of it (floating-point sums depend on their order).
        canon = sorted(range(k), key=lambda j: algorithms[j])
        back = np.ix_(np.argsort(canon), np.argsort(canon))
        tie_factor = tie_correction_factor(ranks) if tie_correction else 1.0
        fried = friedman(avg[canon], n, tie_factor=tie_factor)
        iman = iman_davenport(fried.statistic, k, n)
        run_omnibus = OMNIBUS_TESTS[omnibus_name]
        omnibus_res = fried if omnibus_name == "friedman" else run_omnibus(oriented[:, canon])
        if test_name in BAYES_TESTS:
            prob, decided, bayes = bayes_comparison(test_name, oriented, algorithms, test_options)
            pairwise = PairwiseResult(prob, np.full((k, k), np.nan))  # no p-values
        else:
            pairwise_c = _run_test(
                test_name, oriented[:, canon], avg[canon], n, test_options, datasets
            )
            pairwise = PairwiseResult(pairwise_c.statistic[back], pairwise_c.pvalue[back])
        n_pair = np.full((k, k), n, dtype=np.int64)
        n_smallest = n
    if not bayes:
        _warn_questionable(test_name, n_smallest, alpha, test_options, incomplete=n_missing > 0)

    names = tuple(algorithms)
    statistics = Labelled(pairwise.statistic, names, names)
    pvalues = Labelled(pairwise.pvalue, names, names)

    critical_difference: float | None = None
    # issue 30: the aligned-ranks and Quade tests report and draw their own ranking
    shown_avg, shown_ranks, rank_name = avg, ranks, "average rank"
    if test_name in OWN_RANK_LABELS and not n_missing:
        shown_ranks, shown_avg, rank_name = own_ranks(test_name, oriented)
    # best first; equal average ranks (equal rank sums) in name order, not input order
    order = sorted(range(k), key=lambda j: (shown_avg[j], algorithms[j]))
    group_order = order
    mean_scores: Labelled | None = None
    if not n_missing and (test_name in ("paired-t", "tukey") or omnibus_name == "rm-anova"):
        means = column_means(table.scores)
        # best first in mean score; for Tukey the groups follow this order (score axis)
        sign = 1.0 if higher_is_better else -1.0
        by_mean = sorted(range(k), key=lambda j: (-sign * means[j], algorithms[j]))
        mean_scores = Labelled(
            means[by_mean],
            tuple(algorithms[j] for j in by_mean),
            index_name="algorithm",
            name="mean score",
        )
        if test_name == "tukey":
            group_order = by_mean
    if control is None:
        iu, ju = np.triu_indices(k, 1)
        if n_missing:
            apv_mat = _all_pairs_apv(pairwise.pvalue, k, correction_name, budget, None)
        else:
            if test_name == "nemenyi":
                critical_difference = nemenyi_q(k, alpha) * rank_standard_error(k, n)
            elif test_name == "tukey":
                critical_difference = tukey_critical_difference(table.scores[:, canon], alpha)
            if bayes:  # posterior probabilities, no p-values to adjust
                apv_mat = np.full((k, k), np.nan)
            else:
                # mean-ranks p-values form a Robinson matrix in average-rank order: a hint
                # for the exact Bergmann-Hommel engine when p-values underflow to 0 (verified)
                avg_c = avg[canon]
                hint = sorted(range(k), key=lambda a: (avg_c[a], a))
                apv_mat = _all_pairs_apv(
                    pairwise_c.pvalue,
                    k,
                    correction_name,
                    budget,
                    hint if test_name == "mean-ranks" else None,
                )[back]
        if bayes:
            sig_mat = np.asarray(decided, dtype=bool) & ~np.eye(k, dtype=bool)
        else:
            sig_mat = apv_mat <= alpha  # False on the NaN diagonal
        adjusted = Labelled(apv_mat, names, names)
        significant = Labelled(sig_mat, names, names)
        group_idx, uncovered_idx = find_groups(group_order, sig_mat)
        groups = tuple(tuple(algorithms[j] for j in g) for g in group_idx)
        uncovered = tuple((algorithms[a], algorithms[b]) for a, b in uncovered_idx)
        if correction_name in FDR_CORRECTIONS and not fdr_groups:  # groups need FWER control
            groups, uncovered = (), ()
    else:
        c = algorithms.index(control)
        others = [j for j in range(k) if j != c]
        raw = pairwise.pvalue[c, others]
        apv = adjust_control(raw, correction_name)
        other_names = tuple(algorithms[j] for j in others)
        adjusted = Labelled(apv, other_names, index_name="algorithm", name=f"APV vs {control}")
        flags = decided[c, others] if bayes else apv <= alpha
        significant = Labelled(
            np.asarray(flags, dtype=bool),
            other_names,
            index_name="algorithm",
            name=f"significant vs {control}",
        )
        if correction_name == "bonferroni-dunn" and test_name == "mean-ranks":
            q = _normal_quantile(1.0 - alpha / (2.0 * (k - 1)))
            critical_difference = q * rank_standard_error(k, n)
        groups = ()
        uncovered = ()

    average_ranks = Labelled(
        shown_avg[order],
        tuple(algorithms[j] for j in order),
        index_name="algorithm",
        name=rank_name,
    )
    ranks_table = _by_dataset(shown_ranks, datasets, algorithms)
    return ComparisonResult(
        algorithms=list(algorithms),
        datasets=list(datasets),
        scores=_by_dataset(table.scores, datasets, algorithms),
        ranks=ranks_table,
        average_ranks=average_ranks,
        friedman=fried,
        iman_davenport=iman,
        test=test_name,
        correction=correction_name,
        alpha=alpha,
        control=control,
        higher_is_better=bool(higher_is_better),
        statistics=statistics,
        pvalues=pvalues,
        adjusted_pvalues=adjusted,
        significant=significant,
        groups=groups,
        uncovered_pairs=uncovered,
        critical_difference=critical_difference,
        test_options=dict(test_options),
        omnibus=omnibus_res,
        n_missing=n_missing,
        n_per_pair=Labelled(n_pair, names, names),
        ignored_datasets=ignored,
        aggregation=table.aggregation,
        score_std=None
        if table.score_std is None
        else _by_dataset(table.score_std, datasets, algorithms),
        dropped_datasets=table.dropped_datasets,
        dropped_algorithms=table.dropped_algorithms,
        labels=display,
        decimals=table.decimals,
        mean_scores=mean_scores,
        critical_difference_units="score" if test_name == "tukey" else "rank",
        **bayes,
    )


def _by_dataset(values: np.ndarray, datasets: list[str], algorithms: list[str]) -> Labelled:
    """A datasets x algorithms table (``scores``, ``ranks``, ``score_std``)."""
    return Labelled(values, tuple(datasets), tuple(algorithms), "dataset", "algorithm")


def _all_pairs_apv(
    pvalue: np.ndarray, k: int, correction: str, budget: float | None, hint: list[int] | None
) -> np.ndarray:
    """k x k matrix of adjusted p-values (NaN diagonal) from the k x k raw p-values."""
    iu, ju = np.triu_indices(k, 1)
    raw = pvalue[iu, ju]
    if correction in _SINGLE_STEP:  # single-step: the p-values are adjusted already
        apv = raw.copy()
    else:
        apv = adjust_all_pairs(raw, k, correction, bh_budget=budget, order=hint)
    apv_mat = np.full((k, k), np.nan)
    apv_mat[iu, ju] = apv
    apv_mat[ju, iu] = apv
    return apv_mat


def _drop_empty_algorithms(table: ScoreTable) -> ScoreTable:
    """With missing='keep': leave out (with a warning) algorithms that have no result at all.

    Such an algorithm carries no information; leaving it out makes the analysis the same
    as that of the table without its column.
    """
    empty = np.isnan(table.scores).all(axis=0)
    if not empty.any():
        return table
    names = [a for a, e in zip(table.algorithms, empty, strict=True) if e]
    kept = [a for a, e in zip(table.algorithms, empty, strict=True) if not e]
    if len(kept) < 2:
        raise CdplotInputError(
            f"only {len(kept)} algorithm(s) have any result ({', '.join(map(repr, kept))}); "
            "need at least 2 to compare."
        )
    warnings.warn(
        f"left out {len(names)} algorithm(s) with no result at all: "
        + ", ".join(repr(a) for a in names),
        CdplotWarning,
        stacklevel=3,
    )
    std = table.score_std
    return dataclasses.replace(
        table,
        scores=np.ascontiguousarray(table.scores[:, ~empty]),
        algorithms=kept,
        score_std=None if std is None else std[:, ~empty],
    )


def _resolve_omnibus(omnibus: str | None, missing: str) -> str:
    """The omnibus test: as named, else Skillings-Mack with missing='keep', else Friedman."""
    if omnibus is None:
        return "skillings-mack" if missing == "keep" else "friedman"
    return resolve_omnibus(omnibus)


def _refuse_incomplete(test: str, omnibus: str, n_missing: int) -> None:
    """Refuse tests that need every algorithm ranked on every dataset."""
    fixes = (
        f"use {spell('test', 'wilcoxon')} or {spell('test', 'sign')} (each pair is tested on "
        f"the datasets where both have a result), or {spell('missing', 'drop')} to drop the "
        "incomplete datasets"
    )
    if test in _RANK_POOL_TESTS:
        raise CdplotInputError(
            f"{spell('test', test)} needs every algorithm ranked on every dataset (its null "
            f"distribution assumes complete rankings), but {n_missing} result(s) are "
            f"missing; {fixes}."
        )
    if test not in _COMMON_DATASET_TESTS:
        raise CdplotInputError(
            f"{spell('test', test)} is not available for a table with missing results "
            f"({n_missing} missing); {fixes}."
        )
    if omnibus not in INCOMPLETE_OMNIBUS:
        raise CdplotInputError(
            f"{spell('omnibus', omnibus)} needs a complete table, but {n_missing} result(s) "
            f"are missing; use {spell('omnibus', 'skillings-mack')} (the default with "
            f"{spell('missing', 'keep')}), or {spell('missing', 'drop')} to drop the "
            "incomplete datasets."
        )


def _normal_quantile(q: float) -> float:
    from scipy import special

    return float(special.ndtri(q))


def _run_test(
    test: str,
    oriented: np.ndarray,
    avg: np.ndarray,
    n: int,
    options: dict[str, Any],
    datasets: list[str],
) -> PairwiseResult:
    if test == "wilcoxon":
        return wilcoxon_test(oriented, **options)
    if test == "sign":
        return sign_test(oriented, **options)
    if test == "mean-ranks":
        return mean_ranks_test(avg, n)
    if test == "aligned-ranks":
        return aligned_ranks_posthoc(oriented)
    if test == "quade":
        return quade_posthoc(oriented, **options)
    if test == "exact-rank-sum":
        return exact_rank_sum_test(oriented, datasets=datasets)
    if test == "paired-t":
        return paired_t_test(oriented)
    if test == "tukey":
        return tukey_test(oriented)
    if test == "conover":
        return conover_friedman_test(oriented)
    return nemenyi_test(avg, n)


def _warn_questionable(
    test: str, n: int, alpha: float, options: dict[str, Any], *, incomplete: bool = False
) -> None:
    if test in _RANK_POOL_TESTS:
        warnings.warn(
            f"the {test} test's decision on a pair depends on which other algorithms are in "
            f"the comparison (Benavoli, Corani & Mangili 2016); consider "
            f"{spell('test', 'wilcoxon')} or 'sign'." + silence_hint("PoolDependenceWarning"),
            PoolDependenceWarning,
            stacklevel=3,
        )
        return
    if test not in ("wilcoxon", "sign"):
        return
    # the smallest two-sided p-value either test can reach on n datasets is 2 / 2**n
    smallest = min(1.0, 2.0 ** (1 - n))
    if smallest > alpha:
        need = math.ceil(math.log2(2.0 / alpha) + 1e-12)
        where = f"a pair with only {n} common datasets" if incomplete else f"{n} datasets"
        warnings.warn(
            f"with {where} the {test} test cannot reach p <= {alpha:g} (its smallest "
            f"two-sided p-value is {smallest:.3g}); at least {need} datasets are needed.",
            CdplotWarning,
            stacklevel=3,
        )

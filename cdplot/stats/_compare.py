"""compare(): orchestration only -- parse, rank, test, adjust, group."""

from __future__ import annotations

import dataclasses
import warnings
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

import numpy as np

from .._errors import CdplotInputError, CdplotWarning, check_bool, check_in_list, spell
from ..io import ScoreTable, parse_scores, prepare_input
from ..io._folds import read_folds
from ..io._table import all_finite, count_missing
from . import _parts
from ._bayes_step import run_bayes
from ._benchmark import compare_benchmark, refuse_board_options
from ._catalogue import FOLDS
from ._design import DESIGN_OMNIBUS, design_omnibus
from ._fdr import FDR_CORRECTIONS
from ._omnibus import OMNIBUS_TESTS, friedman, iman_davenport, tie_correction_factor
from ._options import check_labels
from ._own_ranks import OWN_RANK_LABELS, own_ranks
from ._posthoc import Oriented, Posthoc, Ranked, run_posthoc
from ._procedure import MISSING, TESTS, Procedure, resolve_test
from ._ranks import CHUNK_VALUES, rank_rows
from ._results import BayesianComparisonResult, Comparison, ComparisonResult
from ._skillings_mack import scaled_ranks, skillings_mack_test
from ._test_results import OmnibusResult

__all__ = ["MISSING", "TESTS", "compare", "resolve_test"]


def compare(
    data: Any,
    *,
    dataset: str | Sequence[Any] | None = None,
    algorithm: str | Sequence[Any] | None = None,
    score: str | None = None,
    higher_is_better: bool | None = None,
    test: str | None = None,
    correction: str | None = None,
    alpha: float = 0.05,
    control: str | None = None,
    missing: str = "raise",
    tie_correction: bool = False,
    omnibus: str | None = None,
    order: Sequence[str] | None = None,
    bh_budget: float | None = None,
    aggregate: str | Callable[[np.ndarray], float] | None = None,
    decimals: int | None = None,
    labels: Mapping[str, str] | None = None,
    item: str | None = None,
    fdr_groups: bool = False,
    cluster: str | None = None,
    sample: str | None = None,
    confidence: float = 0.95,
    cost: str | None = None,
    **test_options: Any,
) -> Comparison:
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
    higher_is_better : bool, optional
        False for error rates, losses or run times. Rank 1 is always the best. Not
        given: higher is better, with a warning when the score column or the file is
        named like an error, loss or time (``cdplot.io.LOWER_IS_BETTER_WORDS``).
    test : str, optional
        The pairwise test. None (default): "wilcoxon" for a board of datasets; for one
        benchmark's items (an item table with one task) "mcnemar" for 0/1 scores,
        "paired-t" otherwise and "cluster-t" when the items come in clusters (see
        :func:`cdplot.stats.compare_benchmark`).
        "wilcoxon" is the signed-rank test and "sign" the
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
        "durbin" is Durbin's all-pairs t-test for a balanced incomplete block
        design (PMCMRplus ``durbinAllPairsTest``; ``b k - b - t + 1`` df; the
        table's missing results are the design's, kept without
        ``missing="keep"``).
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
        ``fdr_groups=True``. None (default): the test's own default, "holm" for
        every test except ``test="nemenyi"``, which carries its own
        single-step adjustment ("nemenyi"); naming any other correction with
        it is refused, so a report never names a procedure that was not run.
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
    omnibus : {"friedman", "aligned-ranks", "quade", "skillings-mack", "rm-anova", \
"durbin", "page"}
        The omnibus test reported as ``omnibus``: Friedman's chi-square (the
        default), Friedman's aligned-ranks test, Quade's F, Skillings-Mack
        (the default with ``missing="keep"``; it accepts missing results), the
        repeated-measures ANOVA F (R's
        ``aov(score ~ algorithm + Error(dataset/algorithm))``), Durbin's
        chi-square for a balanced incomplete block design (PMCMRplus
        ``durbinTest``; the default with ``test="durbin"``; its missing results
        are the design's, its F form is ``iman_davenport``; a table that is not
        such a design is refused), or Page's L test of the ordered alternative
        given by ``order`` (PMCMRplus ``pageTest``). ``friedman`` and
        ``iman_davenport`` are computed whenever the table is complete,
        whatever ``omnibus`` is.
    order : sequence of str, optional
        With ``omnibus="page"`` (and only then): every algorithm, from the one
        expected to perform worst to the one expected to perform best (e.g.
        model sizes, smallest first). Page's L is that of the scores (oriented
        so that higher is better) with the columns in this order.
    bh_budget : float, optional
        Time budget in seconds of the exact Bergmann-Hommel search (default
        10; ``math.inf`` for no limit). Only with
        ``correction="bergmann-hommel"``. The search reads the clock every few
        thousand steps and stops (with :class:`BergmannHommelLimitError`) once the
        budget is spent.
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
    item : str, optional
        The item column of an item-level long table (one row per task, model
        and item); recognised by name (``item``, ``item_id``, ``doc_id``,
        ``question_id``, ``instance_id``, ``example_id``, ``sample_id``) when
        not given. The items of each task become its score (the mean, or
        ``aggregate``), ``missing`` applies to missing items too, and
        ``res.items`` keeps the per-task item matrices
        (:class:`cdplot.io.ItemScores`) for :func:`cdplot.stats.item_tests` and
        :func:`cdplot.stats.hierarchical_rank_intervals`. ``data`` may also be
        a Parquet or JSON Lines file or folder, lm-evaluation-harness output,
        an MLflow, W&B or OpenML export, or a Dask DataFrame (aggregated on its
        cluster); see :mod:`cdplot.io`.
    fdr_groups : bool, default False
        With ``correction="fdr-bh"`` or ``"fdr-by"``: form the groups of
        not-significantly-different algorithms anyway (the diagram then says
        they come from an FDR procedure). Refused with any other correction.
    cluster : str, optional
        One benchmark's items: the column of each item's cluster (a passage, a
        repository, a scenario), whose items are not independent; the pairs are then
        compared by the cluster-robust paired t-test (``test="cluster-t"``).
    sample : str, optional
        One benchmark's items: the column of the sample (epoch, attempt, seed) of
        repeated scores of a model on an item; an item's score is the mean of its samples.
    confidence : float, default 0.95
        One benchmark's items: the confidence level of the intervals of the mean scores
        and of the paired differences.
    cost : str, optional
        A cost column of a long table (run time, tokens, price; lower is better): read
        apart, left out of the scores and kept on the result (``res.costs``, ``N x k``,
        the mean over repeated runs) for :func:`cdplot.pareto_frontier`. A negative,
        missing or infinite cost is refused.
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
    Comparison
        A :class:`~cdplot.ComparisonResult` (a frequentist test) or a
        :class:`~cdplot.BayesianComparisonResult` (a Bayesian test), the two kinds of
        :class:`~cdplot.Comparison`; ``procedure`` is the procedure run. One benchmark's
        items give a :class:`~cdplot.BenchmarkComparison` (a ``ComparisonResult`` with
        ``model_statistics``, ``differences`` and ``design``).
        With ``ranks``, ``average_ranks``, ``friedman``, ``iman_davenport``,
        ``omnibus``, ``pvalues``, ``adjusted_pvalues``, ``significant``,
        ``groups``, ``uncovered_pairs``, ``critical_difference``,
        ``n_missing``, ``n_per_pair`` and ``ignored_datasets``; ``aggregation``,
        ``score_std``, ``dropped_datasets``, ``dropped_algorithms``, ``labels``
        and ``input_notes`` say how the table was read.
        A Bayesian test returns a
        :class:`~cdplot.stats.BayesianComparisonResult` (its own kind, no
        p-values) with ``rope``, ``threshold``, ``posterior_better``,
        ``posterior_equivalent``, ``posterior_worse`` (k x k: P(row practically
        better than / equivalent to / worse than column)) and ``decisions``
        ("A better", "equivalent", "B better" or "undecided", A = row);
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

    An item-level table with one task (or no task column), many models scored on the same
    items, is one benchmark: ``compare()`` then returns a
    :class:`~cdplot.stats.BenchmarkComparison` (:func:`cdplot.stats.compare_benchmark`):
    each model's mean score with its interval, each pair's paired difference with its
    interval and p-value, adjusted by ``correction``, groups in mean-score order, and the
    CD diagram on the mean-score axis. ``aggregate``, ``decimals``, ``tie_correction``,
    ``omnibus``, ``order`` and the options of a board's tests are about boards of datasets
    and are refused there.

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
    proc = Procedure.resolve(
        "wilcoxon" if test is None else test,  # a board's default (a benchmark's: below)
        correction,
        control,
        alpha=alpha,
        bh_budget=bh_budget,
        omnibus=omnibus,
        order=order,
        missing=missing,
        **test_options,
    )
    # checked by resolve(); canonical here (a design test keeps its missing results)
    missing = proc.table_missing(check_in_list(MISSING, missing=missing))
    fdr_groups = _check_fdr_groups(fdr_groups, proc)
    direction_given = higher_is_better is not None  # None: True, warned on error-like names
    higher_is_better = check_bool(
        True if higher_is_better is None else higher_is_better, "higher_is_better"
    )
    tie_correction = check_bool(tie_correction, "tie_correction")
    costs = None
    if cost is not None:  # the cost column, read apart (cdplot.io._cost)
        from ..io._cost import read_costs

        # dataset= and algorithm= name columns here (a long table); labels are for arrays
        costs = read_costs(
            data,
            cost=cost,
            dataset=dataset if isinstance(dataset, str) else None,
            algorithm=algorithm if isinstance(algorithm, str) else None,
            score=score,
        )
        data = costs.scores
    if proc.entry.reads == FOLDS and aggregate is None:  # the folds' means rank the table
        aggregate = "mean"
    # the readers' and parse_scores's warnings point at the caller of compare(): call them here
    source = prepare_input(
        data,
        dataset=dataset,
        algorithm=algorithm,
        score=score,
        item=item,
        aggregate=aggregate,
        missing=missing,
        cluster=cluster,
        sample=sample,
    )
    if source.benchmark is not None:  # an item table with one task: one benchmark
        refuse_board_options(
            aggregate=aggregate, decimals=decimals, tie_correction=tie_correction,
            omnibus=omnibus, order=order, test_options=test_options,
        )  # fmt: skip
        bench = compare_benchmark(
            source.benchmark,
            test=test,
            correction=correction,
            alpha=alpha,
            control=control,
            higher_is_better=higher_is_better,
            confidence=confidence,
            labels=labels,
            bh_budget=bh_budget,
            fdr_groups=fdr_groups,
        )
        return bench if costs is None else _with_costs(bench, costs)
    _board_only(proc, cluster, sample, confidence)
    table = parse_scores(
        source.data,
        dataset=source.dataset,
        algorithm=source.algorithm,
        score=source.score,
        missing=missing,
        aggregate=source.aggregate,
        decimals=decimals,
        warn_direction=not direction_given,
    )
    if source.aggregation is not None:
        table = dataclasses.replace(table, aggregation=source.aggregation)
    if source.higher_is_better is not None and source.higher_is_better != higher_is_better:
        _warn_direction(source.note, source.higher_is_better)
    table = _check_table(table, proc, missing, tie_correction)
    proc = proc.with_algorithms(table.algorithms)
    display = check_labels(labels, table.algorithms, table.dropped_algorithms)
    oriented = Oriented(table.scores, higher_is_better)  # negated only if a step needs it
    ranked = _rank(oriented, table.algorithms)
    fried, iman, omnibus_res = _omnibus(oriented, ranked, proc, table, tie_correction)
    names = list(table.algorithms)
    shown = _shown_ranking(proc, oriented, ranked)
    # best first; equal average ranks (equal rank sums) in name order, not input order
    best_first = sorted(range(len(names)), key=lambda j: (shown[1][j], names[j]))
    step = run_bayes if proc.bayesian else run_posthoc  # by the kind of the test
    folds = _folds(proc, source, table, higher_is_better)
    post = step(
        proc,
        table.scores,
        oriented,
        ranked,
        names,
        table.datasets,
        higher_is_better=higher_is_better,
        order=best_first,
        **({} if folds is None else {"folds": folds}),
    )
    if proc.correction in FDR_CORRECTIONS and not fdr_groups:  # groups need FWER control
        post = dataclasses.replace(post, groups=(), uncovered=())
    result = _assemble(
        table,
        proc,
        shown,
        best_first,
        (fried, iman, omnibus_res),
        post,
        display,
        higher_is_better,
        source,
    )
    return result if costs is None else _with_costs(result, costs)


def _with_costs(result: Comparison, costs: Any) -> Comparison:
    """The result with the costs read apart (``compare(cost=...)``) on its input part."""
    from ._pareto import with_costs

    return with_costs(result, costs)


def _folds(
    proc: Procedure, source: Any, table: ScoreTable, higher_is_better: bool
) -> np.ndarray | None:
    """The per-fold scores of a test that reads them (higher is better), else None."""
    if proc.entry.reads != FOLDS:
        return None
    folds = read_folds(
        source.data, dataset=source.dataset, algorithm=source.algorithm, score=source.score
    ).select(list(table.datasets), list(table.algorithms))
    return folds if higher_is_better else -folds


def _board_only(proc: Procedure, cluster: Any, sample: Any, confidence: Any) -> None:
    """A board of datasets: no clusters, samples or confidence, and a test over datasets."""
    given = [name for name, value in (("cluster", cluster), ("sample", sample)) if value]
    if confidence != 0.95:
        given.append("confidence")
    if given:
        raise CdplotInputError(
            f"{spell(given[0])} applies to one benchmark's items (an item table with one "
            "task, or no task column), and this table is a board of datasets; drop it."
        )
    if not proc.entry.on_boards:
        raise CdplotInputError(
            f"{spell('test', proc.test)} compares models on one benchmark's items (an item "
            "table with one task), and this table is a board of datasets; use "
            f"{spell('test', 'wilcoxon')} (the default) or another test over datasets."
        )


def _check_fdr_groups(fdr_groups: Any, proc: Procedure) -> bool:
    """``fdr_groups`` is a bool, and only for a false-discovery-rate correction."""
    if check_bool(fdr_groups, "fdr_groups") and proc.correction not in FDR_CORRECTIONS:
        raise CdplotInputError(
            f"{spell('fdr_groups', True)} applies to {spell('correction', 'fdr-bh')} or "
            f"'fdr-by' only (the correction is {proc.correction!r}, whose groups are always "
            f"formed); drop {spell('fdr_groups')}."
        )
    return bool(fdr_groups)


def _shown_ranking(
    proc: Procedure, oriented: Oriented, ranked: Ranked
) -> tuple[np.ndarray | None, np.ndarray, str, np.ndarray | None]:
    """The ranking reported and drawn: the aligned-ranks and Quade tests' own (García et al.
    2010), Friedman's otherwise; per-dataset ranks, averages, its name, and the ranks'
    compact form (twice the ranks; then the ranks are None)."""
    if proc.test in OWN_RANK_LABELS and ranked.canon is not None:
        return (*own_ranks(proc.test, oriented.array), None)
    return ranked.ranks, ranked.average, "average rank", ranked.twice


def _check_table(
    table: ScoreTable, proc: Procedure, missing: str, tie_correction: bool
) -> ScoreTable:
    """Step 1: the score table as analysed; an incomplete one must suit the procedure."""
    if missing == "keep":
        table = _drop_empty_algorithms(table)
    n_missing = count_missing(table.scores)
    if n_missing:
        proc.check_incomplete(n_missing, ~np.isnan(table.scores))
        if tie_correction:
            raise CdplotInputError(
                f"{spell('tie_correction', True)} corrects Friedman's chi-square, which is not "
                f"computed on a table with missing results ({n_missing} missing); the "
                "Skillings-Mack test has no tie correction. Leave it out, or use "
                f"{spell('missing', 'drop')}."
            )
    return table


def _rank(oriented: Oriented, algorithms: list[str]) -> Ranked:
    """Step 2: ranks within each dataset (1 = best) and average ranks.

    With missing results each dataset is ranked over the algorithms present and the ranks
    are rescaled as in Skillings-Mack. On a complete table every statistic is computed
    with the algorithms in a canonical order (by name) and mapped back to input order, so
    that permuting the input columns permutes the result and changes no bit of it
    (floating-point sums depend on their order).
    """
    if not all_finite(oriented.scores):  # NaN: missing results (infinities were refused)
        scaled = scaled_ranks(oriented.array)
        return Ranked(scaled, np.nanmean(scaled, axis=0), None)
    # rank 1 = best: rank the negated oriented scores (the scores themselves when lower is
    # better), a block of rows at a time (a whole negated copy would double the working
    # memory of a large table), and keep twice the ranks as small integers (ranks are
    # half-integers: exact, a quarter of float64's memory)
    n, k = oriented.shape

    def block(start: int, stop: int) -> np.ndarray:
        rows = oriented.scores[start:stop]
        return rank_rows(-rows if oriented.higher else rows)

    ranks: np.ndarray | None
    if k > _MAX_COMPACT_K:
        ranks = np.empty(oriented.shape)
        for start, stop in _row_blocks(n, k):
            ranks[start:stop] = block(start, stop)
        twice_sum = (2.0 * ranks).sum(axis=0)
    else:
        ranks = None  # kept as twice their value, exactly
        twice = np.empty(oriented.shape, dtype=_parts.TWICE_RANK)
        for start, stop in _row_blocks(n, k):
            twice[start:stop] = 2.0 * block(start, stop)
        twice_sum = twice.sum(axis=0, dtype=np.int64).astype(float)
    # every partial sum of half-integer ranks is exact in float64 (below 2**52), so this is
    # ranks.mean(axis=0) to the bit, whatever the order of the additions
    average = twice_sum / 2.0 / n
    canon = sorted(range(len(algorithms)), key=lambda j: algorithms[j])
    return Ranked(ranks, average, canon, None if ranks is not None else twice)


#: up to this k twice a rank (at most 2k) fits the compact rank type exactly
_MAX_COMPACT_K = int(np.iinfo(_parts.TWICE_RANK).max) // 2


def _row_blocks(n: int, k: int) -> Iterator[tuple[int, int]]:
    """``(start, stop)`` of blocks of rows of about :data:`CHUNK_VALUES` values."""
    rows = max(1, CHUNK_VALUES // max(1, k))
    for start in range(0, n, rows):
        yield start, min(n, start + rows)


def _omnibus(
    oriented: Oriented, ranked: Ranked, proc: Procedure, table: ScoreTable, tie_correction: bool
) -> tuple[OmnibusResult | None, OmnibusResult | None, OmnibusResult]:
    """Step 3: Friedman and Iman-Davenport (complete tables) and the chosen omnibus test."""
    if ranked.canon is None and proc.omnibus == "durbin":  # a balanced incomplete design
        chi2, f = design_omnibus(proc, oriented.array, table.algorithms)
        return None, f, chi2  # Durbin's F in Iman-Davenport's place (its F form)
    if ranked.canon is None:  # incomplete table: Skillings-Mack
        sm = skillings_mack_test(
            oriented.array, algorithms=table.algorithms, datasets=table.datasets
        )
        if sm.ignored_datasets:
            warnings.warn(
                f"ignored {len(sm.ignored_datasets)} dataset(s) with fewer than two results "
                "(they carry no information about differences): "
                + ", ".join(repr(d) for d in sm.ignored_datasets),
                CdplotWarning,
                stacklevel=3,
            )
        return None, None, sm
    n, k = oriented.shape
    canon = ranked.canon
    tie_factor = tie_correction_factor(ranked.values()) if tie_correction else 1.0
    fried = friedman(ranked.average[canon], n, tie_factor=tie_factor)
    iman = iman_davenport(fried.statistic, k, n)
    if proc.omnibus == "friedman":
        return fried, iman, fried
    if proc.omnibus in DESIGN_OMNIBUS:
        return fried, iman, design_omnibus(proc, oriented.array, table.algorithms)[0]
    return fried, iman, OMNIBUS_TESTS[proc.omnibus](oriented.array[:, canon])


def _assemble(
    table: ScoreTable,
    proc: Procedure,
    shown: tuple[np.ndarray | None, np.ndarray, str, np.ndarray | None],
    order: list[int],
    omnibus: tuple[OmnibusResult | None, OmnibusResult | None, OmnibusResult],
    post: Posthoc,
    display: dict[str, str],
    higher_is_better: bool,
    source: Any,
) -> Comparison:
    """Step 5: the result object, made of its parts (pandas is built on first access)."""
    algorithms = list(table.algorithms)
    fried, iman, omnibus_res = omnibus
    common: dict[str, Any] = {
        "_input": _parts.Input(
            algorithms=algorithms,
            datasets=list(table.datasets),
            scores=table.scores,
            higher_is_better=bool(higher_is_better),
            n_missing=count_missing(table.scores),
            ignored_datasets=getattr(omnibus_res, "ignored_datasets", ()),
            aggregation=table.aggregation,
            score_std=table.score_std,
            dropped_datasets=table.dropped_datasets,
            dropped_algorithms=table.dropped_algorithms,
            labels=display,
            decimals=table.decimals,
            items=source.items,
            source_note=source.note,
        ),
        "_ranking": _parts.Ranking(
            shown[0], shown[1][order], tuple(algorithms[j] for j in order), shown[2], shown[3]
        ),
        "_omnibus": _parts.Omnibus(fried, iman, omnibus_res),
        "_groups": _parts.Groups(post.groups, post.uncovered),
    }
    settings = (proc.test, proc.correction, proc.alpha, proc.control)
    pairwise: _parts.Posterior | _parts.Posthoc
    if proc.bayesian:
        pairwise = _parts.Posterior(
            *settings,
            **post.bayes,
            significant=post.significant,
            test_options=dict(proc.options),
            n_per_pair=post.n_per_pair,
            procedure=proc,
        )
        return BayesianComparisonResult(_pairwise=pairwise, **common)
    pairwise = _parts.Posthoc(
        *settings,
        statistics=post.statistics,
        pvalues=post.pvalues,
        adjusted_pvalues=post.adjusted,
        significant=post.significant,
        critical_difference=post.critical_difference,
        test_options=dict(proc.options),
        n_per_pair=post.n_per_pair,
        critical_difference_units="score" if proc.test == "tukey" else "rank",
        procedure=proc,
    )
    means = _parts.Parametric(*(post.mean_scores or ()))  # (best first, their names)
    return ComparisonResult(_pairwise=pairwise, _parametric=means, **common)


def _warn_direction(note: str | None, harness_higher: bool) -> None:
    """The source marks its metric's direction, and the comparison ranks the other way."""
    marks, ranks = ("higher", "lower") if harness_higher else ("lower", "higher")
    fix = (
        f"pass {spell('higher_is_better', False)}"
        if not harness_higher
        else f"drop {spell('higher_is_better', False)}"
    )
    warnings.warn(
        f"{note or 'the source'}: the harness marks this metric {marks}-is-better, but the "
        f"comparison ranks {ranks} scores as better; {fix} unless that is what you mean.",
        CdplotWarning,
        stacklevel=3,
    )


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
        stacklevel=4,
    )
    std = table.score_std
    return dataclasses.replace(
        table,
        scores=np.ascontiguousarray(table.scores[:, ~empty]),
        algorithms=kept,
        score_std=None if std is None else std[:, ~empty],
    )

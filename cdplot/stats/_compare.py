"""compare(): orchestration only -- parse, rank, test, adjust, group."""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from .._data import parse_scores
from .._errors import CdplotInputError, CdplotWarning, PoolDependenceWarning, check_in_list
from ._adjust import adjust_all_pairs, adjust_control, resolve_correction
from ._groups import find_groups
from ._omnibus import friedman, iman_davenport, tie_correction_factor
from ._pairwise import (
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
    rm_anova,
    tukey_critical_difference,
    tukey_test,
)
from ._ranks import rank_rows
from ._results import ComparisonResult, PairwiseResult

__all__ = ["TESTS", "compare", "resolve_test"]

#: canonical test name -> the options it accepts
TESTS: dict[str, tuple[str, ...]] = {
    "wilcoxon": ("zero_method", "exact", "continuity"),
    "sign": ("ties",),
    "mean-ranks": (),
    "nemenyi": (),
    "paired-t": (),
    "tukey": (),
}
#: omnibus tests compare() can run beside Friedman's (see ``omnibus=``)
OMNIBUS = ("friedman", "rm-anova")
_OMNIBUS_ALIASES = {"anova": "rm-anova", "repeated-measures-anova": "rm-anova"}
_TEST_ALIASES = {
    "meanranks": "mean-ranks",
    "mean-rank": "mean-ranks",
    "friedman": "mean-ranks",
    "signed-rank": "wilcoxon",
    "wilcoxon-signed-rank": "wilcoxon",
    "sign-test": "sign",
    "t-test": "paired-t",
    "ttest": "paired-t",
    "paired-t-test": "paired-t",
    "tukey-hsd": "tukey",
    "hsd": "tukey",
}
#: corrections that may be named alongside test="nemenyi" or "tukey" (which carry their
#: own single-step adjustment)
_NEMENYI_COMPATIBLE = ("holm", "none", "nemenyi", "tukey")
#: tests with their own single-step adjustment and a critical difference
_SINGLE_STEP = ("nemenyi", "tukey")


def resolve_test(name: str) -> str:
    """Canonical test name, or a :class:`CdplotInputError` listing the valid ones."""
    if not isinstance(name, str):
        raise CdplotInputError(f"test must be a string, got {type(name).__name__}.")
    key = name.strip().lower().replace("_", "-").replace(" ", "-")
    key = _TEST_ALIASES.get(key, key)
    if key not in TESTS:
        raise CdplotInputError(
            f"{name!r} is not a valid value for test; supported values are "
            f"{', '.join(repr(t) for t in TESTS)}."
        )
    return key


def _check_alpha(alpha: Any) -> float:
    try:
        value = float(alpha)
    except (TypeError, ValueError):
        raise CdplotInputError(f"alpha must be a number in (0, 1), got {alpha!r}.") from None
    if not 0.0 < value < 1.0:
        raise CdplotInputError(f"alpha must be in (0, 1), got {alpha!r}.")
    return value


def compare(
    data: Any,
    *,
    dataset: str | Sequence[Any] | None = None,
    algorithm: str | Sequence[Any] | None = None,
    score: str | None = None,
    higher_is_better: bool = True,
    test: str = "wilcoxon",
    correction: str = "holm",
    alpha: float = 0.05,
    control: str | None = None,
    missing: str = "raise",
    tie_correction: bool = False,
    omnibus: str = "friedman",
    **test_options: Any,
) -> ComparisonResult:
    """Compare k algorithms over N datasets: ranks, omnibus tests, post-hoc tests, groups.

    Parameters
    ----------
    data : DataFrame, numpy.ndarray, str, os.PathLike or file object
        The scores: a wide DataFrame (rows = datasets, columns = algorithms,
        index = dataset names), a long DataFrame (see ``dataset``,
        ``algorithm``, ``score``), a 2-D array (rows = datasets) or a CSV/TSV
        file (path or open text file) in either form. In a wide file the first
        column holds the dataset names.
    dataset, algorithm, score : str, optional
        Column names of a long table (detected automatically when its three
        columns are called ``dataset``, ``algorithm`` and ``score``). For a
        2-D array, ``algorithm`` and ``dataset`` may be sequences of names.
    higher_is_better : bool, default True
        False for error rates, losses or run times. Rank 1 is always the best.
    test : {"wilcoxon", "sign", "mean-ranks", "nemenyi", "paired-t", "tukey"}, default "wilcoxon"
        The pairwise test. "mean-ranks" and "nemenyi" compare average ranks
        (Demšar 2006 §3.2.2; García & Herrera 2008); "wilcoxon" is the
        signed-rank test and "sign" the sign test on each pair's scores.
        The parametric tests compare mean scores: "paired-t" (any correction
        applies) and "tukey", Tukey's HSD with the residual variance of the
        blocked ANOVA and its own single-step adjustment (its critical
        difference is in score units). Demšar (2006, §3.1.1-3.1.2, §3.2.1) warns
        that they assume commensurable scores across datasets, normal
        differences and (ANOVA) sphericity; check with
        :func:`cdplot.stats.check_assumptions`.
    correction : str, default "holm"
        How p-values are adjusted for multiple testing. All pairs: "none",
        "bonferroni", "holm", "hochberg", "hommel", "finner", "shaffer",
        "bergmann-hommel" (alias "bergmann"). Against a control: "none",
        "bonferroni-dunn" (alias "bonferroni"), "holm", "hochberg", "hommel",
        "finner", "li". ``test="nemenyi"`` carries its own single-step
        adjustment, so any other correction than the default is refused.
    alpha : float, default 0.05
        Significance level for ``significant``, ``groups`` and the critical difference.
    control : str, optional
        Compare every algorithm with this one only (k - 1 hypotheses).
    missing : {"raise", "drop"}, default "raise"
        Missing results raise an error, or ``"drop"`` drops incomplete
        datasets with a warning naming them.
    tie_correction : bool, default False
        Correct Friedman's chi-square for ties within datasets (the value of R's
        ``friedman.test`` and ``scipy.stats.friedmanchisquare``). The default is
        Demšar's formula without correction.
    omnibus : {"friedman", "rm-anova"}, default "friedman"
        "rm-anova" also runs the repeated-measures ANOVA (R's ``aov(score ~
        algorithm + Error(dataset/algorithm))``) into ``res.omnibus``; the
        Friedman and Iman-Davenport tests are always computed.
    **test_options
        Options of the pairwise test. Wilcoxon: ``zero_method`` ("wilcox",
        "pratt", "zsplit"), ``exact`` (None, True, False), ``continuity``
        (bool). Sign test: ``ties`` ("split", "discard").

    Returns
    -------
    ComparisonResult
        With ``ranks``, ``average_ranks``, ``friedman``, ``iman_davenport``,
        ``pvalues``, ``adjusted_pvalues``, ``significant``, ``groups``,
        ``uncovered_pairs`` and ``critical_difference``.

    Raises
    ------
    CdplotInputError
        (a ValueError) for unusable input or options; the message names the
        problem and the fix.

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
    Ranks: 1 = best on each dataset, ties get the average rank. Friedman:
    ``chi2 = 12N/(k(k+1)) sum_j (R_j - (k+1)/2)^2``; Iman-Davenport
    ``F = (N-1) chi2 / (N(k-1) - chi2)``. Mean-ranks: ``z = |R_i - R_j| / SE``
    with ``SE = sqrt(k(k+1)/(6N))``; Nemenyi's critical difference is
    ``CD = q_alpha SE`` with ``q_alpha`` the studentized-range quantile (infinite
    df) over ``sqrt(2)``; Bonferroni-Dunn's uses ``q = z_{1 - alpha/(2(k-1))}``.
    Bergmann-Hommel APVs are the closed-testing maximum over exhaustive sets
    followed by a running maximum in increasing raw-p order (García & Herrera
    2008, Table 5).

    Equal evidence, equal answers: hypotheses with equal raw p-values get equal
    APVs under every correction; mean-ranks statistics come from the exact
    integer differences of twice the rank sums, so pairs with equal rank-sum
    differences get bit-identical p-values; every statistic is computed with
    the algorithms in name order, so permuting the input columns permutes the
    result and changes nothing else (equal average ranks are ordered by name).

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
    alpha = _check_alpha(alpha)
    unknown = sorted(set(test_options) - set(TESTS[test_name]))
    if unknown:
        valid = TESTS[test_name]
        raise CdplotInputError(
            f"unknown option(s) {', '.join(repr(u) for u in unknown)} for test={test_name!r}; "
            + (
                f"it accepts {', '.join(repr(v) for v in valid)}."
                if valid
                else "it takes no options."
            )
        )
    table = parse_scores(data, dataset=dataset, algorithm=algorithm, score=score, missing=missing)
    algorithms, datasets = table.algorithms, table.datasets
    n, k = table.scores.shape

    if control is not None:
        if str(control) not in algorithms:
            raise CdplotInputError(
                f"unknown control algorithm {control!r}; the algorithms are "
                f"{', '.join(repr(a) for a in algorithms)}."
            )
        control = str(control)
        if test_name == "nemenyi":
            raise CdplotInputError(
                "test='nemenyi' compares all pairs; to compare with a control on average "
                "ranks use test='mean-ranks' with correction='bonferroni-dunn' (or 'holm', ...)."
            )
        if test_name == "tukey":
            raise CdplotInputError(
                "test='tukey' compares all pairs (Dunnett's test, its version against a "
                "control, is not available); use test='paired-t' with correction='holm' "
                "(or another correction) to compare with a control on mean scores."
            )
    if test_name in _SINGLE_STEP:
        key = str(correction).strip().lower()
        if key not in _NEMENYI_COMPATIBLE:
            alternative = "mean-ranks" if test_name == "nemenyi" else "paired-t"
            raise CdplotInputError(
                f"test={test_name!r} carries its own single-step adjustment, so "
                f"correction={correction!r} cannot be applied; use test={alternative!r} with "
                f"correction={correction!r} instead."
            )
        correction_name = test_name
    else:
        correction_name = resolve_correction(correction, control=control is not None)

    oriented = table.scores if higher_is_better else -table.scores
    ranks = rank_rows(-oriented)  # rank 1 = best
    avg = ranks.mean(axis=0)

    # Every statistic is computed with the algorithms in a canonical order (by name) and
    # mapped back to input order, so that permuting the input columns permutes the result
    # and changes no bit of it (floating-point sums depend on their order).
    canon = sorted(range(k), key=lambda j: algorithms[j])
    inv = np.argsort(canon)

    tie_factor = tie_correction_factor(ranks) if tie_correction else 1.0
    fried = friedman(avg[canon], n, tie_factor=tie_factor)
    iman = iman_davenport(fried.statistic, k, n)

    omnibus_name = check_in_list(OMNIBUS, aliases=_OMNIBUS_ALIASES, omnibus=omnibus)
    parametric_omnibus = rm_anova(oriented[:, canon]) if omnibus_name == "rm-anova" else None

    pairwise_c = _run_test(test_name, oriented[:, canon], avg[canon], n, test_options)
    back = np.ix_(inv, inv)
    pairwise = PairwiseResult(pairwise_c.statistic[back], pairwise_c.pvalue[back])
    _warn_questionable(test_name, n, alpha, test_options)

    names = pd.Index(algorithms, dtype=object)
    stat_df = pd.DataFrame(pairwise.statistic, index=names, columns=names)
    p_df = pd.DataFrame(pairwise.pvalue, index=names, columns=names)

    critical_difference: float | None = None
    # best first; equal average ranks (equal rank sums) in name order, not input order
    order = sorted(range(k), key=lambda j: (avg[j], algorithms[j]))
    group_order = order
    mean_scores: pd.Series | None = None
    if test_name in ("paired-t", "tukey") or parametric_omnibus is not None:
        means = column_means(table.scores)
        # best first in mean score; for Tukey the groups follow this order (score axis)
        sign = 1.0 if higher_is_better else -1.0
        by_mean = sorted(range(k), key=lambda j: (-sign * means[j], algorithms[j]))
        mean_scores = pd.Series(
            means[by_mean],
            index=pd.Index([algorithms[j] for j in by_mean], dtype=object, name="algorithm"),
            name="mean score",
        )
        if test_name == "tukey":
            group_order = by_mean
    if control is None:
        iu, ju = np.triu_indices(k, 1)
        raw = pairwise_c.pvalue[iu, ju]  # canonical order, as the statistics
        if test_name == "nemenyi":
            apv = raw.copy()
            critical_difference = nemenyi_q(k, alpha) * rank_standard_error(k, n)
        elif test_name == "tukey":
            apv = raw.copy()
            critical_difference = tukey_critical_difference(table.scores[:, canon], alpha)
        else:
            # mean-ranks p-values form a Robinson matrix in average-rank order: a hint for
            # the exact Bergmann-Hommel engine when p-values underflow to 0 (verified)
            avg_c = avg[canon]
            hint = sorted(range(k), key=lambda a: (avg_c[a], a))
            apv = adjust_all_pairs(
                raw, k, correction_name, order=hint if test_name == "mean-ranks" else None
            )
        apv_mat = np.full((k, k), np.nan)
        apv_mat[iu, ju] = apv
        apv_mat[ju, iu] = apv
        apv_mat = apv_mat[back]
        sig_mat = apv_mat <= alpha  # False on the NaN diagonal
        adjusted: pd.DataFrame | pd.Series = pd.DataFrame(apv_mat, index=names, columns=names)
        significant: pd.DataFrame | pd.Series = pd.DataFrame(sig_mat, index=names, columns=names)
        group_idx, uncovered_idx = find_groups(group_order, sig_mat)
        groups = tuple(tuple(algorithms[j] for j in g) for g in group_idx)
        uncovered = tuple((algorithms[a], algorithms[b]) for a, b in uncovered_idx)
    else:
        c = algorithms.index(control)
        others = [j for j in range(k) if j != c]
        raw = pairwise.pvalue[c, others]
        apv = adjust_control(raw, correction_name)
        other_names = pd.Index([algorithms[j] for j in others], dtype=object, name="algorithm")
        adjusted = pd.Series(apv, index=other_names, name=f"APV vs {control}")
        significant = pd.Series(apv <= alpha, index=other_names, name=f"significant vs {control}")
        if correction_name == "bonferroni-dunn" and test_name == "mean-ranks":
            q = _normal_quantile(1.0 - alpha / (2.0 * (k - 1)))
            critical_difference = q * rank_standard_error(k, n)
        groups = ()
        uncovered = ()

    avg_series = pd.Series(
        avg[order],
        index=pd.Index([algorithms[j] for j in order], dtype=object, name="algorithm"),
        name="average rank",
    )
    ranks_df = pd.DataFrame(
        ranks,
        index=pd.Index(datasets, name="dataset", dtype=object),
        columns=pd.Index(algorithms, name="algorithm", dtype=object),
    )
    return ComparisonResult(
        algorithms=list(algorithms),
        datasets=list(datasets),
        scores=table.to_frame(),
        ranks=ranks_df,
        average_ranks=avg_series,
        friedman=fried,
        iman_davenport=iman,
        test=test_name,
        correction=correction_name,
        alpha=alpha,
        control=control,
        higher_is_better=bool(higher_is_better),
        statistics=stat_df,
        pvalues=p_df,
        adjusted_pvalues=adjusted,
        significant=significant,
        groups=groups,
        uncovered_pairs=uncovered,
        critical_difference=critical_difference,
        test_options=dict(test_options),
        omnibus=parametric_omnibus,
        mean_scores=mean_scores,
        critical_difference_units="score" if test_name == "tukey" else "rank",
    )


def _normal_quantile(q: float) -> float:
    from scipy import special

    return float(special.ndtri(q))


def _run_test(
    test: str, oriented: np.ndarray, avg: np.ndarray, n: int, options: dict[str, Any]
) -> PairwiseResult:
    if test == "wilcoxon":
        return wilcoxon_test(oriented, **options)
    if test == "sign":
        return sign_test(oriented, **options)
    if test == "mean-ranks":
        return mean_ranks_test(avg, n)
    if test == "paired-t":
        return paired_t_test(oriented)
    if test == "tukey":
        return tukey_test(oriented)
    return nemenyi_test(avg, n)


def _warn_questionable(test: str, n: int, alpha: float, options: dict[str, Any]) -> None:
    if test in ("mean-ranks", "nemenyi"):
        warnings.warn(
            f"the {test} test's decision on a pair depends on which other algorithms are in "
            "the comparison (Benavoli, Corani & Mangili 2016); consider test='wilcoxon' or "
            "'sign'. Silence with warnings.simplefilter('ignore', "
            "cdplot.PoolDependenceWarning).",
            PoolDependenceWarning,
            stacklevel=3,
        )
        return
    if test in ("paired-t", "tukey"):
        return  # Demšar's caveats are in the docstring and the summary, not a warning
    # the smallest two-sided p-value either test can reach on n datasets is 2 / 2**n
    smallest = min(1.0, 2.0 ** (1 - n))
    if smallest > alpha:
        need = math.ceil(math.log2(2.0 / alpha) + 1e-12)
        warnings.warn(
            f"with {n} datasets the {test} test cannot reach p <= {alpha:g} (its smallest "
            f"two-sided p-value is {smallest:.3g}); at least {need} datasets are needed.",
            CdplotWarning,
            stacklevel=3,
        )

"""compare(): orchestration only -- parse, rank, test, adjust, group."""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from .._data import parse_scores
from .._errors import CdplotInputError, CdplotWarning, PoolDependenceWarning
from ._adjust import adjust_all_pairs, adjust_control, resolve_correction
from ._bayes import BAYES_TESTS, bayes_comparison
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
from ._ranks import rank_rows
from ._results import ComparisonResult, PairwiseResult

__all__ = ["TESTS", "compare", "resolve_test"]

#: canonical test name -> the options it accepts
TESTS: dict[str, tuple[str, ...]] = {
    "wilcoxon": ("zero_method", "exact", "continuity"),
    "sign": ("ties",),
    "mean-ranks": (),
    "nemenyi": (),
    "bayes-signed-rank": ("rope", "threshold", "nsamples", "random_state"),
    "bayes-sign": ("rope", "threshold", "nsamples", "random_state"),
}
_TEST_ALIASES = {
    "meanranks": "mean-ranks",
    "mean-rank": "mean-ranks",
    "friedman": "mean-ranks",
    "signed-rank": "wilcoxon",
    "wilcoxon-signed-rank": "wilcoxon",
    "sign-test": "sign",
    "bayesian-signed-rank": "bayes-signed-rank",
    "bayes-wilcoxon": "bayes-signed-rank",
    "bayesian-sign": "bayes-sign",
}
#: corrections that may be named alongside test="nemenyi" (which has its own adjustment)
_NEMENYI_COMPATIBLE = ("holm", "none", "nemenyi")


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
    test : {"wilcoxon", "sign", "mean-ranks", "nemenyi"}, default "wilcoxon"
        The pairwise test. "mean-ranks" and "nemenyi" compare average ranks
        (Demšar 2006 §3.2.2; García & Herrera 2008); "wilcoxon" is the
        signed-rank test and "sign" the sign test on each pair's scores.
        "bayes-signed-rank" and "bayes-sign" are their Bayesian counterparts
        (Benavoli et al. 2014, 2017; see :func:`cdplot.stats.bayes_signed_rank`):
        posterior probabilities instead of p-values, no correction.
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
    **test_options
        Options of the pairwise test. Wilcoxon: ``zero_method`` ("wilcox",
        "pratt", "zsplit"), ``exact`` (None, True, False), ``continuity``
        (bool). Sign test: ``ties`` ("split", "discard"). Bayesian tests:
        ``rope`` (half-width of the region of practical equivalence in score
        units, default 0: no equivalence), ``threshold`` (posterior probability
        needed for a decision, default 0.95), ``nsamples`` (default 50000) and
        ``random_state`` (an integer seed reproduces baycomp's draws).

    Returns
    -------
    ComparisonResult
        With ``ranks``, ``average_ranks``, ``friedman``, ``iman_davenport``,
        ``pvalues``, ``adjusted_pvalues``, ``significant``, ``groups``,
        ``uncovered_pairs`` and ``critical_difference``. A Bayesian test adds
        ``posterior_better``, ``posterior_equivalent``, ``posterior_worse``
        (k x k: P(row practically better than / equivalent to / worse than
        column)) and ``decisions`` ("A better", "equivalent", "B better" or
        "undecided", A = row); its ``statistics`` are ``posterior_better``, its
        p-values NaN, ``significant`` marks the pairs decided different (either
        direction reaching ``threshold``) and ``groups`` are the runs of
        algorithms none of whose pairs is decided different.

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
    2008, Table 5; hypotheses with equal raw p get equal APVs).

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
    if test_name == "nemenyi":
        key = str(correction).strip().lower()
        if key not in _NEMENYI_COMPATIBLE:
            raise CdplotInputError(
                f"test='nemenyi' carries its own single-step adjustment, so "
                f"correction={correction!r} cannot be applied; use test='mean-ranks' with "
                f"correction={correction!r} instead."
            )
        correction_name = "nemenyi"
    elif test_name in BAYES_TESTS:
        if str(correction).strip().lower() not in ("holm", "none"):
            raise CdplotInputError(
                f"test={test_name!r} gives posterior probabilities, not p-values, so "
                f"correction={correction!r} cannot be applied; leave correction at its default "
                "and set the posterior threshold with threshold=0.95."
            )
        correction_name = "none"
    else:
        correction_name = resolve_correction(correction, control=control is not None)

    oriented = table.scores if higher_is_better else -table.scores
    ranks = rank_rows(-oriented)  # rank 1 = best
    avg = ranks.mean(axis=0)

    tie_factor = tie_correction_factor(ranks) if tie_correction else 1.0
    fried = friedman(avg, n, tie_factor=tie_factor)
    iman = iman_davenport(fried.statistic, k, n)

    bayes: dict[str, Any] = {}
    if test_name in BAYES_TESTS:
        prob, decided, bayes = bayes_comparison(test_name, oriented, algorithms, test_options)
        pairwise = PairwiseResult(prob, np.full((k, k), np.nan))  # no p-values
    else:
        pairwise = _run_test(test_name, oriented, avg, n, test_options)
        _warn_questionable(test_name, n, alpha, test_options)

    names = pd.Index(algorithms, dtype=object)
    stat_df = pd.DataFrame(pairwise.statistic, index=names, columns=names)
    p_df = pd.DataFrame(pairwise.pvalue, index=names, columns=names)

    critical_difference: float | None = None
    order = sorted(range(k), key=lambda j: (avg[j], j))
    if control is None:
        iu, ju = np.triu_indices(k, 1)
        raw = pairwise.pvalue[iu, ju]
        if test_name == "nemenyi":
            apv = raw.copy()
            critical_difference = nemenyi_q(k, alpha) * rank_standard_error(k, n)
        else:
            apv = adjust_all_pairs(raw, k, correction_name)
        apv_mat = np.full((k, k), np.nan)
        apv_mat[iu, ju] = apv
        apv_mat[ju, iu] = apv
        sig_mat = np.zeros((k, k), dtype=bool)
        flags = decided[iu, ju] if bayes else apv <= alpha
        sig_mat[iu, ju] = flags
        sig_mat[ju, iu] = flags
        adjusted: pd.DataFrame | pd.Series = pd.DataFrame(apv_mat, index=names, columns=names)
        significant: pd.DataFrame | pd.Series = pd.DataFrame(sig_mat, index=names, columns=names)
        group_idx, uncovered_idx = find_groups(order, sig_mat)
        groups = tuple(tuple(algorithms[j] for j in g) for g in group_idx)
        uncovered = tuple((algorithms[a], algorithms[b]) for a, b in uncovered_idx)
    else:
        c = algorithms.index(control)
        others = [j for j in range(k) if j != c]
        raw = pairwise.pvalue[c, others]
        apv = adjust_control(raw, correction_name)
        other_names = pd.Index([algorithms[j] for j in others], dtype=object, name="algorithm")
        adjusted = pd.Series(apv, index=other_names, name=f"APV vs {control}")
        flags = decided[c, others] if bayes else apv <= alpha
        significant = pd.Series(flags, index=other_names, name=f"significant vs {control}")
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
        **bayes,
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

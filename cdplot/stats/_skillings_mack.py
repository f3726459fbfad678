"""Skillings-Mack test: Friedman's test for score tables with missing results.

Skillings & Mack (1981) rank each dataset (block) over the algorithms that have a result
there, give a missing cell the block's midrank, weight each block by its number of results,
and judge the weighted rank sums with the generalised inverse of their covariance. On a
complete table the statistic is Friedman's chi-square (without tie correction).
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

from .._errors import CdplotInputError, CdplotWarning
from ._ranks import rank_rows
from ._special import special
from ._test_results import PairwiseResult, SkillingsMackResult

__all__ = ["incomplete_ranks", "pairs_on_common_datasets", "scaled_ranks", "skillings_mack_test"]

#: Relative tolerance below which an eigenvalue of the covariance counts as zero.
_RANK_TOL = 1e-10


def incomplete_ranks(scores: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Rank each row over its observed (non-NaN) cells, 1 = best.

    Parameters
    ----------
    scores : numpy.ndarray
        N x k scores, oriented so that higher is better; NaN marks a missing result.

    Returns
    -------
    ranks : numpy.ndarray
        N x k ranks within each row among the observed cells (ties get the average
        rank), NaN where the score is missing.
    n_observed : numpy.ndarray
        Number of observed cells of each row (``k_j``).
    """
    scores = np.asarray(scores, dtype=float)
    observed = ~np.isnan(scores)
    # a missing cell sorts after every observed one (it is ranked as +inf of -score, i.e.
    # last); the observed cells' ranks are then 1..k_j, as if the missing were absent
    filled = np.where(observed, -scores, np.inf)
    ranks = rank_rows(filled)
    ranks[~observed] = np.nan
    return ranks, observed.sum(axis=1)


def _components(co_observed: np.ndarray) -> list[list[int]]:
    """Connected components of the graph 'observed together on some dataset'."""
    k = co_observed.shape[0]
    seen = np.zeros(k, dtype=bool)
    out = []
    for start in range(k):
        if seen[start]:
            continue
        stack, comp = [start], []
        seen[start] = True
        while stack:
            node = stack.pop()
            comp.append(node)
            for nxt in np.flatnonzero(co_observed[node] & ~seen):
                seen[nxt] = True
                stack.append(int(nxt))
        out.append(sorted(comp))
    return out


def skillings_mack_test(
    scores: np.ndarray,
    *,
    algorithms: list[str] | None = None,
    datasets: list[str] | None = None,
) -> SkillingsMackResult:
    """Skillings-Mack test of k algorithms over N datasets with missing results.

    Parameters
    ----------
    scores : array_like
        N x k scores, oriented so that higher is better (negate errors first); NaN
        marks a missing result.
    algorithms, datasets : list of str, optional
        Names used in error messages and in ``ignored_datasets``.

    Returns
    -------
    SkillingsMackResult
        ``statistic`` T, ``pvalue`` from chi-square with ``df = k - 1``, the adjusted
        rank sums, the covariance matrix, the number of results per dataset and the
        datasets ignored because they hold fewer than two results.

    Raises
    ------
    CdplotInputError
        When no dataset holds two or more results, when an algorithm has no result
        on any such dataset, or when the algorithms split into groups that never
        meet on a common dataset (the test cannot compare across the groups).

    Notes
    -----
    Dataset j has ``k_j`` results, ranked ``r_ij`` (1 = best, average ranks for
    ties); a missing cell gets the midrank ``(k_j + 1) / 2``. The adjusted rank sum
    of algorithm i is

    ``A_i = sum_j sqrt(12 / (k_j + 1)) (r_ij - (k_j + 1) / 2)``.

    Under the null hypothesis ``Cov(A_i, A_l) = -lambda_il`` and
    ``Var(A_i) = sum_{l != i} lambda_il``, with ``lambda_il`` the number of datasets
    on which both i and l have a result. The statistic is
    ``T = A' Sigma^+ A`` (Moore-Penrose generalised inverse), referred to chi-square
    with ``k - 1`` degrees of freedom. A dataset with a single result has no
    information and is ignored (its term is zero and it adds nothing to lambda). On a
    complete table T equals Friedman's chi-square without tie correction; like
    PMCMRplus, the covariance is the no-ties one also when a dataset has ties.
    PMCMRplus ranks in increasing order, which flips the sign of every ``A_i`` and
    leaves T unchanged.

    References
    ----------
    J. H. Skillings and G. A. Mack, "On the use of a Friedman-type statistic in
    balanced and unbalanced block designs", Technometrics 23 (1981) 171-177.
    T. Pohlert, PMCMRplus: ``skillingsMackTest``.

    Examples
    --------
    >>> import numpy as np
    >>> x = np.array([[0.9, 0.8, np.nan], [0.7, 0.6, 0.5], [0.8, np.nan, 0.4],
    ...               [0.6, 0.5, 0.7], [0.9, 0.7, 0.8]])
    >>> res = skillings_mack_test(x)
    >>> round(res.statistic, 4), res.df
    (4.3321, 2.0)
    """
    x = np.asarray(scores, dtype=float)
    if x.ndim != 2:
        raise CdplotInputError(f"scores must be a 2-D table, got {x.ndim}-D.")
    n, k = x.shape
    algorithms = [f"A{j + 1}" for j in range(k)] if algorithms is None else list(algorithms)
    datasets = [f"D{i + 1}" for i in range(n)] if datasets is None else list(datasets)
    ranks, k_j = incomplete_ranks(x)
    used = k_j >= 2
    if not used.any():
        raise CdplotInputError(
            "no dataset has results for two or more algorithms, so nothing can be "
            "compared; check that the table holds the scores (NaN = missing result)."
        )
    observed = ~np.isnan(x) & used[:, None]
    empty = [algorithms[j] for j in range(k) if not observed[:, j].any()]
    if empty:
        raise CdplotInputError(
            f"algorithm(s) {', '.join(repr(a) for a in empty)} have no result on any dataset "
            "that another algorithm also has a result on; remove them from the table "
            "(they cannot be compared)."
        )
    obs = observed.astype(float)
    lam = obs.T @ obs  # lambda_il: datasets where both i and l have a result
    np.fill_diagonal(lam, 0.0)
    parts = _components(lam > 0)
    if len(parts) > 1:
        listed = "; ".join("{" + ", ".join(repr(algorithms[j]) for j in p) + "}" for p in parts)
        raise CdplotInputError(
            f"the algorithms split into groups that never have results on a common dataset "
            f"({listed}); no test can compare across the groups. Add results that connect "
            "them, or compare each group separately."
        )
    sub = ranks[used]
    mid = (k_j[used] + 1.0) / 2.0
    weight = np.sqrt(12.0 / (k_j[used] + 1.0))
    centred = np.where(np.isnan(sub), 0.0, sub - mid[:, None])
    a = (weight[:, None] * centred).sum(axis=0)
    cov = -lam.copy()
    np.fill_diagonal(cov, lam.sum(axis=1))
    # Sigma is symmetric positive semi-definite with Sigma 1 = 0: its pseudo-inverse
    # from the eigen-decomposition, dropping the (numerically) zero eigenvalues
    vals, vecs = np.linalg.eigh(cov)
    keep = vals > _RANK_TOL * max(1.0, float(vals.max()))
    proj = vecs[:, keep].T @ a
    stat = float(np.sum(proj**2 / vals[keep]))
    stat = max(stat, 0.0)
    df = float(k - 1)
    pvalue = float(special.chdtrc(df, stat))
    ignored = tuple(datasets[i] for i in np.flatnonzero(~used))
    return SkillingsMackResult(
        statistic=stat,
        pvalue=pvalue,
        df=df,
        name="Skillings-Mack chi-square",
        adjusted_rank_sums=a,
        covariance=cov,
        n_observed=k_j,
        ignored_datasets=ignored,
    )


def scaled_ranks(scores: np.ndarray) -> np.ndarray:
    """Per-dataset ranks of an incomplete table on the 1..k scale of the diagram.

    A rank ``r_ij`` among the ``k_j`` results of dataset j becomes
    ``(k + 1) / 2 + sqrt((k + 1) / (k_j + 1)) (r_ij - (k_j + 1) / 2)``: the
    Skillings-Mack weight ``sqrt(12 / (k_j + 1))`` rescaled so that a complete
    dataset keeps its ranks. The mean over the datasets where algorithm i has a
    result is then ``(k + 1) / 2 + sqrt((k + 1) / 12) A_i / n_i`` (``A_i`` its
    adjusted rank sum, ``n_i`` its number of results), the usual average rank on a
    complete table. Missing cells and datasets with fewer than two results are NaN.
    """
    x = np.asarray(scores, dtype=float)
    k = x.shape[1]
    ranks, k_j = incomplete_ranks(x)
    factor = np.sqrt((k + 1.0) / (k_j + 1.0))
    out = (k + 1.0) / 2.0 + factor[:, None] * (ranks - (k_j[:, None] + 1.0) / 2.0)
    out[k_j < 2] = np.nan
    return out


def pairs_on_common_datasets(
    test: Callable[..., PairwiseResult],
    scores: np.ndarray,
    *,
    algorithms: list[str] | None = None,
    **options: Any,
) -> tuple[PairwiseResult, np.ndarray]:
    """Run a two-sample paired test for every pair on the datasets where both have a result.

    Parameters
    ----------
    test : callable
        A pairwise test on complete tables (e.g. ``wilcoxon_test``, ``sign_test``),
        called once per pair with the pair's N_ij x 2 sub-table.
    scores : numpy.ndarray
        N x k scores, oriented so that higher is better; NaN marks a missing result.
    algorithms : list of str, optional
        Names for the warning about pairs without a common dataset.
    **options
        Passed to ``test``.

    Returns
    -------
    result : PairwiseResult
        k x k statistics (as ``test`` defines them) and two-sided p-values. A pair
        with no common dataset gets statistic NaN and p = 1 (no evidence), with a
        :class:`~cdplot.CdplotWarning` naming it.
    n_per_pair : numpy.ndarray
        k x k integer counts of the datasets where both have a result; the diagonal
        holds each algorithm's number of results.
    """
    x = np.asarray(scores, dtype=float)
    n, k = x.shape
    observed = ~np.isnan(x)
    counts = observed.T.astype(np.int64) @ observed.astype(np.int64)
    stat = np.full((k, k), np.nan)
    p = np.full((k, k), np.nan)
    names = [f"A{j + 1}" for j in range(k)] if algorithms is None else list(algorithms)
    apart = []
    for i in range(k):
        for j in range(i + 1, k):
            rows = observed[:, i] & observed[:, j]
            if not rows.any():
                p[i, j] = p[j, i] = 1.0
                apart.append(f"{names[i]!r} and {names[j]!r}")
                continue
            res = test(x[np.ix_(rows, [i, j])], **options)
            stat[i, j], stat[j, i] = res.statistic[0, 1], res.statistic[1, 0]
            p[i, j] = p[j, i] = res.pvalue[0, 1]
    if apart:
        warnings.warn(
            f"{len(apart)} pair(s) never have results on a common dataset and cannot be "
            f"tested (p = 1): {', '.join(apart)}.",
            CdplotWarning,
            stacklevel=3,
        )
    return PairwiseResult(stat, p), counts

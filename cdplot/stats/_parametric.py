"""Parametric tests over datasets: paired t, repeated-measures ANOVA, Tukey's HSD, checks.

Demšar (2006, §3.1.2, §3.2.1) explains why cdplot's defaults are rank tests: averaging
scores over datasets assumes that they are commensurable, the t-test and the ANOVA
assume normal differences (and the ANOVA sphericity), and a small number of datasets
can neither guarantee nor check these assumptions. The parametric tests are here for
the studies where the scores are commensurable (related problems, one metric on one
scale) and for comparison with papers that used them; :func:`check_assumptions` reports
what the data say about the assumptions.

Scores are N x k arrays (rows = datasets), oriented so that higher is better. Every
statistic here is invariant to multiplying all scores by one positive number, so the
scores are first scaled by a power of two (exact) that brings them below 1 in
magnitude: scores near +-1e308 neither overflow nor raise numpy warnings.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np

from .._errors import CdplotInputError
from ._catalogue import entry_of
from ._special import special
from ._test_results import AssumptionCheck, OmnibusResult, PairwiseResult

if TYPE_CHECKING:  # pragma: no cover
    from ._results import Comparison

__all__ = [
    "RM_ANOVA_NAME",
    "check_assumptions",
    "column_means",
    "paired_t_test",
    "rm_anova_test",
    "tukey_critical_difference",
    "tukey_test",
]

#: ``name`` of the :class:`OmnibusResult` returned by :func:`rm_anova_test`
RM_ANOVA_NAME = "repeated-measures ANOVA F"


def _scaled(scores: Any) -> tuple[np.ndarray, int]:
    """Scores times 2**-e (exact) so that all lie in (-1, 1), and e."""
    x = np.asarray(scores, dtype=float)
    top = float(np.max(np.abs(x))) if x.size else 0.0
    e = math.frexp(top)[1] if top > 0 else 0
    return np.ldexp(x, -e), e


def column_means(scores: Any) -> np.ndarray:
    """Mean of each column, without overflow for scores near +-1e308."""
    x, e = _scaled(scores)
    with np.errstate(over="ignore"):
        return np.ldexp(x.mean(axis=0), e)


def paired_t_test(scores: Any) -> PairwiseResult:
    """Paired t-test over datasets for every pair of algorithms.

    Parameters
    ----------
    scores : array_like, shape (N, k)
        Scores, rows = datasets, oriented so that higher is better.

    Returns
    -------
    PairwiseResult
        ``statistic[i, j]`` is t for the differences ``x_i - x_j`` (so
        ``statistic[j, i] = -statistic[i, j]``), R's
        ``t.test(x_i, x_j, paired = TRUE)$statistic``; ``pvalue`` is two-sided,
        Student t with ``N - 1`` degrees of freedom.

    Notes
    -----
    ``t = mean(d) / (sd(d) / sqrt(N))`` for ``d = x_i - x_j`` over the N datasets
    (Demšar 2006, §3.1.2). A pair whose differences are all equal gets t = 0, p = 1
    (all zero) or t = +-inf, p = 0 (R's ``t.test`` refuses such data).

    Demšar's warnings apply: the test only makes sense when the differences are
    commensurable across datasets, it needs normally distributed differences unless
    N is large (about 30), and outliers inflate its standard error. See
    :func:`check_assumptions`.

    Examples
    --------
    >>> import cdplot
    >>> x = cdplot.datasets.load("demsar2006").to_numpy()
    >>> round(float(paired_t_test(x).pvalue[0, 1]), 4)  # R: t.test(C4.5, C4.5+m, paired=TRUE)
    0.0138
    """
    x, _ = _scaled(scores)
    n, k = x.shape
    t = np.full((k, k), np.nan)
    p = np.full((k, k), np.nan)
    df = n - 1.0
    for i in range(k - 1):
        d = x[:, i : i + 1] - x[:, i + 1 :]
        # shifted by the first difference: constant differences give a variance of
        # exactly 0 (a mean of equal floats need not be exact), and less cancellation
        first = d[0].copy()
        d -= first
        mean = first + d.mean(axis=0)
        var = d.var(axis=0, ddof=1) if n > 1 else np.zeros(k - i - 1)
        with np.errstate(divide="ignore", invalid="ignore"):
            ti = mean / np.sqrt(var / n)
        ti = np.where(var > 0, ti, np.where(mean == 0, 0.0, np.copysign(np.inf, mean)))
        pi = np.minimum(1.0, 2.0 * special.stdtr(df, -np.abs(ti)))
        t[i, i + 1 :] = ti
        t[i + 1 :, i] = -ti
        p[i, i + 1 :] = pi
        p[i + 1 :, i] = pi
    return PairwiseResult(t, p)


def _two_way(x: np.ndarray) -> tuple[np.ndarray, float, np.ndarray]:
    """Algorithm means, SS_algorithm and residuals of ``score ~ algorithm + dataset``."""
    n, k = x.shape
    grand = x.mean()
    col = x.mean(axis=0)
    row = x.mean(axis=1, keepdims=True)
    ss_alg = float(n * np.sum((col - grand) ** 2))
    resid = x - row - col[None, :] + grand
    return col, ss_alg, resid


def _complete_table(scores: Any, func: str) -> np.ndarray:
    """The scores as an (N, k) float array; refused when a cell is missing, as compare() does."""
    x = np.asarray(scores, dtype=float)
    if x.ndim != 2 or x.shape[0] < 2 or x.shape[1] < 2:
        raise CdplotInputError(
            f"{func} needs a 2-D table of scores, rows = datasets and columns = algorithms, with "
            f"at least 2 of each; got shape {x.shape}. Pass e.g. a data frame's .to_numpy()."
        )
    missing = ~np.isfinite(x)
    if missing.any():
        row, col = (int(i) for i in np.argwhere(missing)[0])
        raise CdplotInputError(
            f"{func} needs a score for every algorithm on every dataset, but {int(missing.sum())} "
            f"cell(s) are missing or not finite (the first at row {row}, column {col}); drop the "
            "incomplete datasets (scores[np.isfinite(scores).all(axis=1)]), or compare with "
            "cdplot.compare(data, missing='keep'), whose Skillings-Mack test accepts missing "
            "results."
        )
    return x


def rm_anova_test(scores: Any) -> OmnibusResult:
    """Repeated-measures (within-datasets) ANOVA of k algorithms over N datasets.

    Parameters
    ----------
    scores : array_like, shape (N, k)
        Scores, rows = datasets (the blocks or "subjects"), columns = algorithms.

    Returns
    -------
    OmnibusResult
        ``statistic`` F, ``pvalue`` (upper tail), ``df = (k - 1, (k - 1)(N - 1))``,
        ``name`` ``"repeated-measures ANOVA F"``.

    Raises
    ------
    CdplotInputError
        When a score is missing (NaN) or infinite, as :func:`cdplot.compare` refuses
        the ANOVA on an incomplete table, or the table is not 2-D with at least two
        datasets and two algorithms.

    Notes
    -----
    The blocked two-way model without interaction, ``score ~ algorithm + dataset``:
    with ``m_j`` the algorithms' means over datasets, ``g`` the grand mean and
    residuals ``e_ij = x_ij - xbar_i. - m_j + g``,

    .. math:: F = \\frac{N \\sum_j (m_j - g)^2 / (k - 1)}
                        {\\sum_{ij} e_{ij}^2 / ((k - 1)(N - 1))}.

    This equals R's ``summary(aov(score ~ algorithm + Error(dataset/algorithm)))``
    (stratum ``dataset:algorithm``) and statsmodels' ``AnovaRM`` (Demšar 2006, §3.2.1).
    No sphericity correction is applied (as AnovaRM and autorank); see
    :func:`check_assumptions` for Mauchly's test and the Greenhouse-Geisser epsilon.
    When the residuals vanish, F = inf (p = 0), or F = 0 (p = 1) when the algorithms'
    means are equal too.

    Examples
    --------
    >>> import cdplot
    >>> res = rm_anova_test(cdplot.datasets.load("demsar2006").to_numpy())
    >>> round(res.statistic, 3), res.df  # R: aov(score ~ algorithm + Error(dataset/algorithm))
    (4.447, (3.0, 39.0))
    """
    x, _ = _scaled(_complete_table(scores, "rm_anova_test"))
    n, k = x.shape
    _, ss_alg, resid = _two_way(x)
    ss_err = float(np.sum(resid * resid))
    df1, df2 = float(k - 1), float((k - 1) * (n - 1))
    degenerate = math.inf if ss_alg > 0 else 0.0  # no residual variance at all
    f = degenerate if ss_err == 0.0 else (ss_alg / df1) / (ss_err / df2)
    p = float(special.fdtrc(df1, df2, f)) if math.isfinite(f) else 0.0
    return OmnibusResult(float(f), p, (df1, df2), RM_ANOVA_NAME)


def _tukey_parts(scores: Any) -> tuple[np.ndarray, float, int, float]:
    """Scaled means, scaled standard error sqrt(MSE / N), exponent e and df."""
    x, e = _scaled(scores)
    n, k = x.shape
    col, _, resid = _two_way(x)
    df = float((k - 1) * (n - 1))
    mse = float(np.sum(resid * resid)) / df
    return col, math.sqrt(mse / n), e, df


def tukey_test(scores: Any) -> PairwiseResult:
    """Tukey's HSD for all pairs, with the residual variance of the blocked model.

    Parameters
    ----------
    scores : array_like, shape (N, k)
        Scores, rows = datasets, oriented so that higher is better.

    Returns
    -------
    PairwiseResult
        ``statistic[i, j] = |m_i - m_j| / sqrt(MSE / N)`` (the studentized range
        statistic q, symmetric), ``pvalue`` the single-step adjusted p-value
        ``P(Q_{k, df} >= q)``, already accounting for all k (k - 1) / 2 pairs.

    Notes
    -----
    ``MSE`` is the residual mean square of ``score ~ algorithm + dataset`` with
    ``df = (k - 1)(N - 1)`` (Demšar 2006, §3.2.1: "the standard error of the difference
    between two classifiers [is computed] by dividing the residual variance by the
    number of data sets"). The p-values are those of R's
    ``TukeyHSD(aov(score ~ algorithm + dataset), "algorithm")``. One-way Tukey tests
    that ignore the datasets (statsmodels' ``pairwise_tukeyhsd``, autorank, scmamp's
    ``tukeyPost``) use the far larger between-datasets variance and df ``k(N - 1)``.
    A pair is significant at alpha exactly when ``|m_i - m_j| >= CD``, see
    :func:`tukey_critical_difference`.

    Examples
    --------
    >>> import cdplot
    >>> from cdplot.stats import tukey_test
    >>> res = tukey_test(cdplot.datasets.load('demsar2006'))
    >>> res.pvalue.shape
    (4, 4)
    """
    from scipy.stats import studentized_range

    means, se, _, df = _tukey_parts(scores)
    k = means.size
    with np.errstate(divide="ignore", invalid="ignore"):
        q = np.abs(means[:, None] - means[None, :]) / se
    q = np.where(np.isnan(q), 0.0, q)  # se = 0 and equal means
    i, j = np.triu_indices(k, 1)
    qu = q[i, j]
    pu = np.ones_like(qu)
    finite = np.isfinite(qu) & (qu > 0)
    pu[np.isinf(qu)] = 0.0
    if finite.any():
        distinct, where = np.unique(qu[finite], return_inverse=True)
        pu[finite] = np.clip(studentized_range.sf(distinct, k, df), 0.0, 1.0)[where]
    p = np.full((k, k), np.nan)
    p[i, j] = pu
    p[j, i] = pu
    np.fill_diagonal(q, np.nan)
    return PairwiseResult(q, p)


def tukey_critical_difference(scores: Any, alpha: float) -> float:
    """Tukey's honestly significant difference in score units.

    ``CD = q_{alpha; k, (k - 1)(N - 1)} sqrt(MSE / N)``, with ``q`` the upper-alpha
    quantile of the studentized range and ``MSE`` the residual mean square of the
    blocked model (see :func:`tukey_test`): two algorithms differ significantly at
    level alpha when their mean scores differ by at least CD. As the half-width of R's
    ``TukeyHSD`` intervals, ``(upr - lwr) / 2``.

    Examples
    --------
    >>> import cdplot
    >>> from cdplot.stats import tukey_critical_difference
    >>> round(tukey_critical_difference(cdplot.datasets.load('demsar2006'), 0.05), 4)
    0.0185
    """
    from scipy.stats import studentized_range

    means, se, e, df = _tukey_parts(scores)
    q = float(studentized_range.ppf(1.0 - alpha, means.size, df))
    with np.errstate(over="ignore"):
        return float(np.ldexp(q * se, e))


# --------------------------------------------------------------------------- assumptions


def _shapiro(x: np.ndarray) -> tuple[float, float]:
    from scipy.stats import shapiro

    if x.size < 3 or np.ptp(x) == 0:
        return math.nan, math.nan
    res = shapiro(x)
    return float(res.statistic), float(res.pvalue)


def _helmert(k: int) -> np.ndarray:
    """k x (k - 1) orthonormal contrasts (columns orthogonal to the ones vector)."""
    c = np.zeros((k, k - 1))
    for j in range(1, k):
        c[:j, j - 1] = 1.0
        c[j, j - 1] = -float(j)
        c[:, j - 1] /= math.sqrt(j * (j + 1.0))
    return c


def _sphericity(x: np.ndarray) -> tuple[OmnibusResult, float]:
    """Mauchly's test (as R's ``mauchly.test``) and the Greenhouse-Geisser epsilon."""
    n, k = x.shape
    p = k - 1
    if p < 2:  # two algorithms: one difference, sphericity holds trivially
        return OmnibusResult(1.0, 1.0, 0.0, "Mauchly W"), 1.0
    c = _helmert(k)
    y = x @ c
    psi = np.cov(y, rowvar=False, ddof=1)
    tr = float(np.trace(psi))
    epsilon = tr * tr / (p * float(np.sum(psi * psi))) if tr > 0 else math.nan
    df = p * (p + 1) / 2.0 - 1.0
    nu = n - 1.0  # residual df of the intercept-only multivariate model
    sign, logdet = np.linalg.slogdet(psi)
    if nu < p or sign <= 0 or tr <= 0:
        return OmnibusResult(math.nan, math.nan, df, "Mauchly W"), epsilon
    log_w = logdet - p * math.log(tr / p)
    rho = 1.0 - (2.0 * p * p + p + 2.0) / (6.0 * p * nu)
    # R's mauchly.test.SSD writes "3 * p" with p = k (its number of columns) in this
    # second-order term where Anderson's formula has k - 1; kept, to give R's p-values
    w2 = (
        (p + 2.0)
        * (p - 1.0)
        * (p - 2.0)
        * (2.0 * p**3 + 6.0 * p * p + 3.0 * k + 2.0)
        / (288.0 * (nu * p * rho) ** 2)
    )
    z = -nu * rho * log_w
    pr1 = float(special.chdtrc(df, z))
    pr2 = float(special.chdtrc(df + 4.0, z))
    pvalue = min(1.0, max(0.0, pr1 + w2 * (pr2 - pr1)))
    return OmnibusResult(float(math.exp(log_w)), pvalue, df, "Mauchly W"), epsilon


def check_assumptions(result: Comparison, *, alpha: float = 0.05) -> AssumptionCheck:
    """Check the normality and sphericity assumptions of the parametric tests.

    Parameters
    ----------
    result : ComparisonResult
        A result of :func:`cdplot.compare`, typically with ``test="paired-t"`` or
        ``"tukey"`` or the repeated-measures ANOVA; any result can be checked (the
        verdict then says that its tests do not need these assumptions).
    alpha : float, default 0.05
        Level of the Shapiro-Wilk and Mauchly tests.

    Returns
    -------
    AssumptionCheck
        Shapiro-Wilk on every pair's differences and on the residuals of the two-way
        model, Mauchly's test, the Greenhouse-Geisser epsilon, and a ``verdict`` in
        words (also ``str(check)``).

    Raises
    ------
    CdplotInputError
        ``alpha`` not in (0, 1).

    Notes
    -----
    Which checks decide: the paired t-test needs normal differences of each pair;
    the repeated-measures ANOVA and Tukey's HSD need normal residuals of
    ``score ~ algorithm + dataset`` and sphericity (equal variances of all pairwise
    differences; Mauchly's test, R's ``mauchly.test``; epsilon is the
    Greenhouse-Geisser estimate ``tr(S)^2 / ((k - 1) tr(S^2))`` of the covariance ``S`` of
    orthonormal contrasts). A rejection at ``alpha`` makes the analysis not
    defensible. A pass is weak evidence: with few datasets these tests have little
    power (Demšar 2006, §3.1.2: "the small samples also prohibit us from checking the
    distribution shape"), which the verdict says when N < 30.

    References
    ----------
    .. [1] J. Demšar, "Statistical comparisons of classifiers over multiple data
       sets", JMLR 7, 2006, §3.1.2 and §3.2.1.
    .. [2] S. S. Shapiro and M. B. Wilk, "An analysis of variance test for normality",
       Biometrika 52, 1965.
    .. [3] J. W. Mauchly, "Significance test for sphericity of a normal n-variate
       distribution", Ann. Math. Statist. 11, 1940.

    Examples
    --------
    >>> import cdplot
    >>> res = cdplot.compare(cdplot.datasets.load("demsar2006"), test="paired-t")
    >>> check = check_assumptions(res)
    >>> check.defensible
    True
    """
    from .._errors import CdplotInputError

    try:
        alpha = float(alpha)
    except (TypeError, ValueError):
        alpha = math.nan
    if not 0.0 < alpha < 1.0:
        raise CdplotInputError(f"alpha must be in (0, 1), got {alpha!r}.")
    names = list(result.algorithms)
    x, _ = _scaled(result.scores[names].to_numpy(dtype=float))
    n, k = x.shape
    rows = []
    for i in range(k):
        for j in range(i + 1, k):
            w, pv = _shapiro(x[:, i] - x[:, j])
            rows.append((names[i], names[j], w, pv))
    import pandas as pd

    pairwise = pd.DataFrame(rows, columns=["algorithm_1", "algorithm_2", "W", "pvalue"])
    _, _, resid = _two_way(x)
    w_res, p_res = _shapiro(resid.ravel())
    residual = OmnibusResult(w_res, p_res, math.nan, "Shapiro-Wilk W")
    sphericity, epsilon = _sphericity(x)

    omnibus = getattr(result, "omnibus", None)
    entry = entry_of(result.test)
    model = entry.parametric if entry is not None else None
    uses_anova = model == "anova" or (
        omnibus is not None and getattr(omnibus, "name", "") == RM_ANOVA_NAME
    )
    uses_t = model == "t"
    applies = uses_anova or uses_t
    problems: list[str] = []
    notes: list[str] = []
    if uses_t:
        rejected = pairwise[pairwise["pvalue"] < alpha]
        if len(rejected):
            worst = rejected.loc[rejected["pvalue"].idxmin()]
            problems.append(
                f"Shapiro-Wilk rejects normal differences for {len(rejected)} of "
                f"{len(pairwise)} pairs at {alpha:g} (worst: {worst['algorithm_1']} vs "
                f"{worst['algorithm_2']}, p = {worst['pvalue']:.3g}), so the paired "
                "t-test's p-values for them are doubtful"
            )
        elif pairwise["pvalue"].isna().all():
            notes.append("normality cannot be checked with fewer than 3 datasets")
        else:
            notes.append(
                f"Shapiro-Wilk does not reject normal differences for any of the "
                f"{len(pairwise)} pairs at {alpha:g} (smallest p = "
                f"{pairwise['pvalue'].min():.3g})"
            )
    if uses_anova:
        if math.isnan(p_res):
            notes.append("the residuals' normality cannot be checked")
        elif p_res < alpha:
            problems.append(
                f"Shapiro-Wilk rejects normal residuals of the two-way model (W = "
                f"{w_res:.3f}, p = {p_res:.3g})"
            )
        else:
            notes.append(
                f"Shapiro-Wilk does not reject normal residuals (W = {w_res:.3f}, p = {p_res:.3g})"
            )
        if k >= 3:
            if math.isnan(sphericity.pvalue):
                notes.append(
                    f"sphericity cannot be tested with N = {n} datasets for k = {k} "
                    f"algorithms (Mauchly needs N > k - 1; Greenhouse-Geisser epsilon = "
                    f"{epsilon:.2f})"
                )
            elif sphericity.pvalue < alpha:
                problems.append(
                    f"Mauchly's test rejects sphericity (W = {sphericity.statistic:.3f}, "
                    f"p = {sphericity.pvalue:.3g}; Greenhouse-Geisser epsilon = "
                    f"{epsilon:.2f})"
                )
            else:
                notes.append(
                    f"Mauchly's test does not reject sphericity (p = "
                    f"{sphericity.pvalue:.3g}; Greenhouse-Geisser epsilon = {epsilon:.2f})"
                )
    defensible = not problems
    if not applies:
        verdict = (
            f"The {result.test} test is a rank-based test: it assumes neither normality "
            "nor sphericity, so no parametric assumption needs checking."
        )
    elif problems:
        verdict = (
            "The parametric choice is not defensible here: "
            + "; ".join(problems)
            + ". Use a rank-based test instead (test='wilcoxon' for pairs, the Friedman "
            "test with test='mean-ranks' or 'nemenyi' for all algorithms)."
        )
    else:
        verdict = "The parametric choice is defensible: " + "; ".join(notes) + "."
        if n < 30:
            verdict += (
                f" With only N = {n} datasets these checks have little power (Demšar 2006, "
                "§3.1.2), so this is weak evidence; the scores must also be commensurable "
                "across datasets for means to make sense."
            )
    return AssumptionCheck(
        pairwise_normality=pairwise,
        residual_normality=residual,
        sphericity=sphericity,
        epsilon=float(epsilon),
        alpha=alpha,
        applies=applies,
        defensible=defensible,
        verdict=verdict,
    )

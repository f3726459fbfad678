"""Two algorithms on one dataset: paired t, corrected resampled t, McNemar, 5x2cv t and F.

These tests compare two learning algorithms on the *same* dataset, from the scores of
cross-validation folds or from the predictions on one test set (Dietterich 1998; Alpaydin
1999; Nadeau & Bengio 2003; Flach 2012, as in the Cornuéjols lecture slides). They are the
other half of the toolbox of :func:`cdplot.compare`, which compares algorithms over several
datasets. Each function returns a :class:`~cdplot.stats.PairedTestResult` that unpacks as
``(statistic, pvalue)``, like :mod:`scipy.stats`.

Scale: the t and F statistics do not change when every score is multiplied by the same
positive number, so inputs are first scaled by a power of two (exact in floating point)
that brings them below 1 in magnitude; differences of scores near +-1e308 then neither
overflow nor raise numpy warnings.
"""

from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np

from .._errors import CdplotInputError, CdplotWarning, check_in_list
from ._bayes import check_ratio
from ._special import special
from ._test_results import PairedTestResult

__all__ = [
    "ALTERNATIVES",
    "MCNEMAR_METHODS",
    "corrected_resampled_t",
    "cv5x2_f",
    "cv5x2_t",
    "mcnemar",
    "mcnemar_predictions",
    "mcnemar_table",
    "paired_t",
]

ALTERNATIVES = ("two-sided", "greater", "less")
MCNEMAR_METHODS = ("corrected", "uncorrected", "exact", "mid-p")
_MCNEMAR_ALIASES = {
    "continuity": "corrected",
    "edwards": "corrected",
    "chi2": "uncorrected",
    "binomial": "exact",
    "midp": "mid-p",
}


# --------------------------------------------------------------------------- validation


def _alternative(alternative: Any) -> str:
    return check_in_list(ALTERNATIVES, alternative=alternative)


def _vector(x: Any, name: str) -> np.ndarray:
    """A 1-D float array of finite numbers, or a CdplotInputError naming the problem."""
    try:
        arr = np.asarray(x, dtype=float)
    except (TypeError, ValueError):
        raise CdplotInputError(
            f"{name} must be a sequence of numbers (one score per fold), got {x!r:.80}."
        ) from None
    if arr.ndim != 1:
        raise CdplotInputError(
            f"{name} must be one-dimensional (one score per fold), got shape {arr.shape}."
        )
    bad = np.flatnonzero(~np.isfinite(arr))
    if bad.size:
        raise CdplotInputError(
            f"{name} has {bad.size} missing or infinite value(s) (first at position "
            f"{int(bad[0])}: {arr[bad[0]]!r}); remove those folds from both inputs."
        )
    return arr


def _pair(a: Any, b: Any) -> tuple[np.ndarray, np.ndarray]:
    x, y = _vector(a, "a"), _vector(b, "b")
    if x.size != y.size:
        raise CdplotInputError(
            f"a and b must hold the scores of the same folds, but a has {x.size} values and "
            f"b has {y.size}; pass one score per fold for each algorithm, in the same order."
        )
    if x.size < 2:
        raise CdplotInputError(
            f"a paired test needs at least 2 folds, got {x.size}; with one score per "
            "algorithm there is no variance to test against."
        )
    return x, y


def _scale_exponent(*arrays: np.ndarray) -> int:
    """e such that every value times 2**-e lies in (-1, 1) (0 for all-zero input)."""
    top = max((float(np.max(np.abs(a))) for a in arrays if a.size), default=0.0)
    return math.frexp(top)[1] if top > 0 else 0


def _t_pvalue(t: float, df: float, alternative: str) -> float:
    """p-value of a Student t statistic (t may be +-inf)."""
    if alternative == "greater":
        return float(special.stdtr(df, -t))
    if alternative == "less":
        return float(special.stdtr(df, t))
    return float(min(1.0, 2.0 * special.stdtr(df, -abs(t))))


def _t_from_differences(
    d: np.ndarray, exponent: int, inflation: float, alternative: str, name: str
) -> PairedTestResult:
    """t = mean(d) / sqrt(inflation * var(d)) with n - 1 df; ``d`` scaled by 2**-exponent.

    Constant differences (zero variance): t = 0 and p as for t = 0 when they are all
    zero, else t = +-inf (p = 0 two-sided). R's ``t.test`` refuses such data ("data are
    essentially constant"); scipy returns NaN.
    """
    n = d.size
    # shifted by the first difference: constant differences give a variance of exactly 0
    shifted = d - d[0]
    mean = float(d[0] + np.mean(shifted))
    var = float(np.var(shifted, ddof=1))
    df = float(n - 1)
    if var == 0.0:
        t = 0.0 if mean == 0.0 else math.copysign(math.inf, mean)
    else:
        t = mean / math.sqrt(inflation * var)
    with np.errstate(over="ignore"):
        estimate = float(np.ldexp(mean, exponent))
    return PairedTestResult(t, _t_pvalue(t, df, alternative), df, estimate, alternative, name)


# --------------------------------------------------------------------------- t-tests


def paired_t(a: Any, b: Any, *, alternative: str = "two-sided") -> PairedTestResult:
    """Paired t-test of two algorithms over the same folds (or datasets).

    Tests whether the mean of the differences ``d_i = a_i - b_i`` is zero.

    Parameters
    ----------
    a, b : array_like, 1-D
        Scores of the two algorithms, one per fold, in the same order (at least 2).
    alternative : {"two-sided", "greater", "less"}, default "two-sided"
        "greater": the mean of ``a - b`` is positive (``a`` scores higher).

    Returns
    -------
    PairedTestResult
        ``statistic`` t, ``pvalue``, ``df = n - 1``, ``estimate`` the mean difference
        ``mean(a - b)``; unpacks as ``(statistic, pvalue)``.

    Raises
    ------
    CdplotInputError
        Inputs of different lengths, fewer than 2 folds, NaN or infinite scores,
        an unknown ``alternative``.

    See Also
    --------
    corrected_resampled_t : the version for repeated cross-validation or resampling.
    cv5x2_t, cv5x2_f : Dietterich's and Alpaydin's 5x2cv tests.

    Notes
    -----
    ``t = mean(d) / (s_d / sqrt(n))`` with ``s_d`` the standard deviation of the
    differences (``ddof = 1``), Student t with ``n - 1`` degrees of freedom: R's
    ``t.test(a, b, paired = TRUE)`` and ``scipy.stats.ttest_rel(a, b)``. When all
    differences are equal the statistic is 0 (all zero) or +-inf (R refuses, scipy gives
    NaN).

    On cross-validation folds the differences are not independent (the training sets
    overlap), so this test is liberal: its type I error exceeds the nominal level
    (Dietterich 1998; Nadeau & Bengio 2003). Prefer :func:`corrected_resampled_t` or
    the 5x2cv tests there. Over *datasets* the differences are independent, but the
    test assumes that they are commensurable and normally distributed (Demšar 2006,
    §3.1.2); the Wilcoxon signed-rank test does not.

    References
    ----------
    .. [1] T. G. Dietterich, "Approximate statistical tests for comparing supervised
       classification learning algorithms", Neural Computation 10(7), 1998.
    .. [2] P. Flach, *Machine Learning: The Art and Science of Algorithms that Make
       Sense of Data*, Cambridge University Press, 2012 (10-fold example).
    .. [3] J. Demšar, "Statistical comparisons of classifiers over multiple data
       sets", JMLR 7, 2006.

    Examples
    --------
    Flach's 10-fold accuracies of naive Bayes and a decision tree (Cornuéjols' slides):

    >>> nb = [0.6809, 0.7017, 0.7012, 0.6913, 0.6333, 0.6415, 0.7216, 0.7214, 0.6578, 0.7865]
    >>> dt = [0.7524, 0.8964, 0.6803, 0.9102, 0.7758, 0.8154, 0.6224, 0.7585, 0.9380, 0.7524]
    >>> res = paired_t(nb, dt)
    >>> round(res.pvalue, 4), res.df
    (0.0369, 9.0)
    """
    alternative = _alternative(alternative)
    x, y = _pair(a, b)
    e = _scale_exponent(x, y)
    d = np.ldexp(x, -e) - np.ldexp(y, -e)
    return _t_from_differences(d, e, 1.0 / d.size, alternative, "paired t-test")


def corrected_resampled_t(
    a: Any, b: Any, test_train_ratio: float, *, alternative: str = "two-sided"
) -> PairedTestResult:
    """Nadeau and Bengio's corrected resampled t-test (corrected repeated k-fold t-test).

    The paired t-test on the n scores of repeated train/test splits or repeated k-fold
    cross-validation underestimates the variance, because the training sets overlap;
    using it there is the classic error this test fixes (its type I error is far above
    the nominal level). The correction inflates the variance by the ratio of test to
    training set sizes.

    Parameters
    ----------
    a, b : array_like, 1-D
        Scores of the two algorithms, one per split (for r repetitions of k-fold
        cross-validation, all n = r k fold scores), in the same order.
    test_train_ratio : float
        ``n_test / n_train``, the size of a test set over that of its training set:
        ``1 / (k - 1)`` for k-fold cross-validation (0.111... for 10 folds), 0.5 for
        random 1/3-2/3 splits.
    alternative : {"two-sided", "greater", "less"}, default "two-sided"
        "greater": the mean of ``a - b`` is positive.

    Returns
    -------
    PairedTestResult
        ``statistic`` t, ``pvalue``, ``df = n - 1``, ``estimate`` the mean difference.

    Raises
    ------
    CdplotInputError
        As :func:`paired_t`, and for a ``test_train_ratio`` that is not a positive
        finite number.

    Notes
    -----
    With ``d_i = a_i - b_i``, mean ``d`` and variance ``s^2`` (``ddof = 1``) over the n
    splits,

    .. math:: t = \\frac{\\bar d}{\\sqrt{(1/n + n_{test}/n_{train})\\, s^2}},

    Student t with ``n - 1`` degrees of freedom (Nadeau & Bengio 2003, the corrected
    resampled t-test; Bouckaert & Frank 2004 apply it to r-times repeated k-fold
    cross-validation, the corrected repeated k-fold cv test). With ``test_train_ratio``
    -> 0 it becomes the ordinary paired t-test. The one-sided p-value equals the
    posterior probability of a negative difference of Benavoli et al.'s Bayesian
    correlated t-test (baycomp's ``CorrelatedTTest`` with ``rope = 0``).

    References
    ----------
    .. [1] C. Nadeau and Y. Bengio, "Inference for the generalization error", Machine
       Learning 52(3):239-281, 2003.
    .. [2] R. R. Bouckaert and E. Frank, "Evaluating the replicability of significance
       tests for comparing learning algorithms", PAKDD 2004.

    Examples
    --------
    >>> nb = [0.6809, 0.7017, 0.7012, 0.6913, 0.6333, 0.6415, 0.7216, 0.7214, 0.6578, 0.7865]
    >>> dt = [0.7524, 0.8964, 0.6803, 0.9102, 0.7758, 0.8154, 0.6224, 0.7585, 0.9380, 0.7524]
    >>> res = corrected_resampled_t(nb, dt, test_train_ratio=1 / 9)  # 10-fold CV
    >>> round(res.statistic, 3), round(res.pvalue, 3)
    (-1.685, 0.126)
    """
    alternative = _alternative(alternative)
    ratio = check_ratio(test_train_ratio)
    x, y = _pair(a, b)
    e = _scale_exponent(x, y)
    d = np.ldexp(x, -e) - np.ldexp(y, -e)
    return _t_from_differences(
        d, e, 1.0 / d.size + ratio, alternative, "corrected resampled t-test"
    )


# --------------------------------------------------------------------------- McNemar


def _count(value: Any, name: str) -> int:
    if isinstance(value, (bool, np.bool_)):
        raise CdplotInputError(f"{name} must be a count (a non-negative integer), got {value!r}.")
    try:
        f = float(value)
    except (TypeError, ValueError):
        raise CdplotInputError(
            f"{name} must be a count (a non-negative integer), got {value!r}."
        ) from None
    if not math.isfinite(f) or f < 0 or f != math.floor(f):
        raise CdplotInputError(
            f"{name} must be a count (a non-negative integer), got {value!r}; McNemar's test "
            "takes the numbers of test examples on which exactly one of the two classifiers "
            "is right."
        )
    return int(f)


def mcnemar(
    b: Any, c: Any, *, method: str = "corrected", alternative: str = "two-sided"
) -> PairedTestResult:
    """McNemar's test of two classifiers on one test set, from the discordant counts.

    Parameters
    ----------
    b : int
        Number of test examples that classifier A gets right and B gets wrong
        (``n01`` in Dietterich 1998 and in the slides' table).
    c : int
        Number of examples that A gets wrong and B gets right (``n10``).
    method : {"corrected", "uncorrected", "exact", "mid-p"}, default "corrected"
        "corrected": chi-square with Edwards' continuity correction, as R's
        ``mcnemar.test`` (default); "uncorrected": without it
        (``mcnemar.test(correct = FALSE)``); "exact": the exact binomial test of b
        among ``b + c`` with probability 1/2 (R's ``binom.test``); "mid-p": its mid-p
        version (Fagerland et al. 2013 recommend it).
    alternative : {"two-sided", "greater", "less"}, default "two-sided"
        "greater": A is right more often than B (b > c in expectation). One-sided
        chi-square p-values use the signed root ``z = sign(b - c) sqrt(statistic)``.

    Returns
    -------
    PairedTestResult
        ``statistic``: the chi-square statistic, or for "exact" and "mid-p" the count
        b (as ``binom.test``); ``pvalue``; ``df`` 1 (None for the exact methods);
        ``estimate`` None.

    Raises
    ------
    CdplotInputError
        Negative, non-integer, missing or infinite counts; an unknown ``method`` or
        ``alternative``.

    Warns
    -----
    CdplotWarning
        When ``b = c = 0``: the classifiers never disagree.

    See Also
    --------
    mcnemar_predictions : the same test from two prediction vectors and the truth.

    Notes
    -----
    Uncorrected: ``(b - c)^2 / (b + c)``; corrected:
    ``max(|b - c| - 1, 0)^2 / (b + c)``, chi-square with 1 df. Exact two-sided:
    ``min(1, 2 P(X <= min(b, c)))``, mid-p: ``min(1, 2 (P(X < min(b, c)) + P(X = min(b,
    c)) / 2))`` with ``X ~ Binomial(b + c, 1/2)``.

    *b = c*: the slides' formula (Dietterich 1998, also mlxtend and statsmodels'
    ``mcnemar(exact=False)``) is ``(|b - c| - 1)^2 / (b + c)``, which gives
    ``1 / (b + c) > 0`` when b = c, and it counts ``|b - c| = 1`` as ``0``. cdplot
    follows R's ``mcnemar.test``, which applies the correction only when it does not
    overshoot: the statistic is 0 and p = 1 when b = c (for example b = c = 7:
    R statistic 0, p = 1; the slides' formula 0.0714, p = 0.789). Where ``|b - c| >= 1``
    the two agree.

    *b = c = 0*: the statistic is 0/0. R's ``mcnemar.test`` returns NaN and
    ``binom.test(0, 0)`` stops with an error; cdplot returns statistic 0 and p = 1 for
    every method (no discordant example is no evidence of a difference), with a
    warning.

    References
    ----------
    .. [1] Q. McNemar, "Note on the sampling error of the difference between correlated
       proportions or percentages", Psychometrika 12(2):153-157, 1947.
    .. [2] T. G. Dietterich, "Approximate statistical tests for comparing supervised
       classification learning algorithms", Neural Computation 10(7), 1998.
    .. [3] M. W. Fagerland, S. Lydersen and P. Laake, "The McNemar test for binary
       matched-pairs data: mid-p and asymptotic are better than exact conditional", BMC
       Medical Research Methodology 13:91, 2013.

    Examples
    --------
    >>> res = mcnemar(12, 3)  # R: mcnemar.test(matrix(c(50, 3, 12, 35), 2))
    >>> round(res.statistic, 4), round(res.pvalue, 5)
    (4.2667, 0.03887)
    >>> round(mcnemar(12, 3, method="exact").pvalue, 5)  # R: binom.test(12, 15)
    0.03516
    """
    method = check_in_list(MCNEMAR_METHODS, aliases=_MCNEMAR_ALIASES, method=method)
    alternative = _alternative(alternative)
    b, c = _count(b, "b"), _count(c, "c")
    n = b + c
    exact = method in ("exact", "mid-p")
    df = None if exact else 1.0
    name = {
        "corrected": "McNemar chi-square (continuity corrected)",
        "uncorrected": "McNemar chi-square",
        "exact": "McNemar exact (binomial)",
        "mid-p": "McNemar mid-p",
    }[method]
    if n == 0:
        warnings.warn(
            "b = c = 0: the two classifiers never disagree, so McNemar's test has no "
            "discordant example to use (R returns NaN); reporting statistic 0 and p = 1.",
            CdplotWarning,
            stacklevel=2,
        )
        return PairedTestResult(0.0, 1.0, df, None, alternative, name)
    if not exact:
        diff = abs(b - c)
        if method == "corrected":
            diff = max(diff - 1, 0)
        stat = diff * diff / n
        if alternative == "two-sided":
            p = float(special.chdtrc(1.0, stat))
        else:
            z = math.copysign(math.sqrt(stat), b - c)
            p = float(special.ndtr(-z if alternative == "greater" else z))
        return PairedTestResult(float(stat), p, df, None, alternative, name)

    def cdf(x: int) -> float:  # P(X <= x), X ~ Bin(n, 1/2)
        # the regularized incomplete beta I_1/2(n - x, x + 1): scipy.stats.binom.cdf's value
        # (special.bdtr loses about 1e-3 at n = 10**7)
        return 0.0 if x < 0 else float(special.betainc(n - x, x + 1, 0.5)) if x < n else 1.0

    def tail(x: int) -> float:  # P(X <= x) or, for mid-p, P(X < x) + P(X = x) / 2
        if method == "exact":
            return cdf(x)
        return (cdf(x - 1) + cdf(x)) / 2.0

    if alternative == "two-sided":
        p = min(1.0, 2.0 * tail(min(b, c)))
    elif alternative == "greater":  # P(X >= b) = P(X' <= c) for X' = n - X
        p = tail(c)
    else:
        p = tail(b)
    return PairedTestResult(float(b), float(min(1.0, p)), None, None, alternative, name)


def _label_vector(x: Any, name: str) -> np.ndarray:
    arr = np.asarray(x)
    if arr.ndim != 1:
        raise CdplotInputError(
            f"{name} must be one-dimensional (one label per test example), got shape {arr.shape}."
        )
    if arr.dtype.kind == "f" and np.isnan(arr).any():
        raise CdplotInputError(
            f"{name} has missing labels (NaN) at position(s) "
            f"{np.flatnonzero(np.isnan(arr))[:5].tolist()}; drop those examples from all "
            "three inputs."
        )
    return arr


def mcnemar_table(y_true: Any, pred_a: Any, pred_b: Any) -> np.ndarray:
    """The 2 x 2 table of McNemar's test from two prediction vectors and the truth.

    Parameters
    ----------
    y_true, pred_a, pred_b : array_like, 1-D
        True labels and the predictions of classifiers A and B on the same test
        examples (any comparable labels).

    Returns
    -------
    numpy.ndarray of int, shape (2, 2)
        ``[[n00, n01], [n10, n11]]`` with n00 = both right, n01 = A right and B wrong
        (McNemar's b), n10 = A wrong and B right (c), n11 = both wrong.

    Raises
    ------
    CdplotInputError
        Inputs of different lengths, empty or not one-dimensional, or with NaN labels.

    Examples
    --------
    >>> mcnemar_table([0, 1, 1, 0], [0, 1, 0, 0], [1, 1, 1, 0])
    array([[2, 1],
           [1, 0]])
    """
    truth = _label_vector(y_true, "y_true")
    a = _label_vector(pred_a, "pred_a")
    b = _label_vector(pred_b, "pred_b")
    if not (truth.size == a.size == b.size):
        raise CdplotInputError(
            f"y_true, pred_a and pred_b must describe the same test examples, but their "
            f"lengths are {truth.size}, {a.size} and {b.size}."
        )
    if truth.size == 0:
        raise CdplotInputError("y_true is empty; McNemar's test needs test examples.")
    right_a = a == truth
    right_b = b == truth
    n01 = int(np.count_nonzero(right_a & ~right_b))
    n10 = int(np.count_nonzero(~right_a & right_b))
    n00 = int(np.count_nonzero(right_a & right_b))
    return np.array([[n00, n01], [n10, truth.size - n00 - n01 - n10]])


def mcnemar_predictions(
    y_true: Any,
    pred_a: Any,
    pred_b: Any,
    *,
    method: str = "corrected",
    alternative: str = "two-sided",
) -> PairedTestResult:
    """McNemar's test of classifiers A and B from their predictions and the true labels.

    Counts b (A right, B wrong) and c (A wrong, B right) with :func:`mcnemar_table`,
    then calls :func:`mcnemar`; see there for ``method``, ``alternative``, the returned
    result and the cases b = c and b = c = 0.

    Examples
    --------
    >>> truth = [1] * 10 + [0] * 10
    >>> a = truth[:]  # A is always right
    >>> b = [0] * 8 + [1] * 2 + [0] * 10  # B misses 8 positives
    >>> round(mcnemar_predictions(truth, a, b, method="exact").pvalue, 4)
    0.0078
    """
    table = mcnemar_table(y_true, pred_a, pred_b)
    return mcnemar(int(table[0, 1]), int(table[1, 0]), method=method, alternative=alternative)


# --------------------------------------------------------------------------- 5x2cv


def _five_by_two(diffs: Any) -> np.ndarray:
    try:
        p = np.asarray(diffs, dtype=float)
    except (TypeError, ValueError):
        raise CdplotInputError(
            "diffs must be a 5 x 2 array of numbers: the score differences a - b of the two "
            "folds of each of the 5 replications of 2-fold cross-validation."
        ) from None
    if p.shape != (5, 2):
        hint = " (transpose it: diffs.T)" if p.shape == (2, 5) else ""
        raise CdplotInputError(
            f"diffs must have shape (5, 2), one row per replication of 2-fold "
            f"cross-validation and one column per fold, got shape {p.shape}{hint}."
        )
    if not np.isfinite(p).all():
        raise CdplotInputError("diffs has missing or infinite values; every fold needs a score.")
    return p


def _five_by_two_parts(diffs: Any) -> tuple[np.ndarray, float]:
    """Scaled differences and the sum of the replications' variances s_i^2."""
    p = _five_by_two(diffs)
    p = np.ldexp(p, -_scale_exponent(p))
    mean = p.mean(axis=1, keepdims=True)
    s2 = float(np.sum((p - mean) ** 2))
    return p, s2


def cv5x2_t(diffs: Any, *, alternative: str = "two-sided") -> PairedTestResult:
    """Dietterich's 5x2cv paired t-test.

    Parameters
    ----------
    diffs : array_like, shape (5, 2)
        ``diffs[i, j] = score_a - score_b`` on fold j (0 or 1) of replication i of
        2-fold cross-validation (the same split for both algorithms).
    alternative : {"two-sided", "greater", "less"}, default "two-sided"

    Returns
    -------
    PairedTestResult
        ``statistic`` t, ``pvalue``, ``df`` 5, ``estimate`` the mean of the ten
        differences.

    Raises
    ------
    CdplotInputError
        ``diffs`` not of shape (5, 2) (a (2, 5) array gets a hint to transpose it),
        NaN or infinite values.

    See Also
    --------
    cv5x2_f : Alpaydin's combined F test, on the same differences.

    Notes
    -----
    With ``p_i^(j) = diffs[i, j]``, ``pbar_i`` the mean of replication i and
    ``s_i^2 = (p_i^(1) - pbar_i)^2 + (p_i^(2) - pbar_i)^2``,

    .. math:: t = \\frac{p_1^{(1)}}{\\sqrt{\\tfrac15 \\sum_{i=1}^5 s_i^2}},

    Student t with 5 degrees of freedom (Dietterich 1998). Only the first fold of the
    first replication enters the numerator, so the result depends on the order of the
    replications (mlxtend's ``paired_ttest_5x2cv`` uses the same convention). When every
    ``s_i^2`` is 0 the statistic is 0 (if ``p_1^(1) = 0``) or +-inf.

    References
    ----------
    .. [1] T. G. Dietterich, "Approximate statistical tests for comparing supervised
       classification learning algorithms", Neural Computation 10(7):1895-1923, 1998.

    Examples
    --------
    >>> diffs = [[0.02, 0.03], [0.01, 0.04], [0.03, 0.02], [0.00, 0.05], [0.02, 0.02]]
    >>> res = cv5x2_t(diffs)
    >>> round(res.statistic, 3), res.df
    (1.054, 5.0)
    """
    alternative = _alternative(alternative)
    p, s2 = _five_by_two_parts(diffs)
    first = float(p[0, 0])
    if s2 == 0.0:
        t = 0.0 if first == 0.0 else math.copysign(math.inf, first)
    else:
        t = first / math.sqrt(s2 / 5.0)
    estimate = float(np.mean(_five_by_two(diffs)))
    return PairedTestResult(
        t, _t_pvalue(t, 5.0, alternative), 5.0, estimate, alternative, "5x2cv paired t-test"
    )


def cv5x2_f(diffs: Any) -> PairedTestResult:
    """Alpaydin's combined 5x2cv F test.

    Parameters
    ----------
    diffs : array_like, shape (5, 2)
        As for :func:`cv5x2_t`: ``diffs[i, j] = score_a - score_b`` on fold j of
        replication i of 2-fold cross-validation.

    Returns
    -------
    PairedTestResult
        ``statistic`` F, ``pvalue`` (upper tail; the test is two-sided by construction),
        ``df`` (10, 5), ``estimate`` None.

    Raises
    ------
    CdplotInputError
        As :func:`cv5x2_t`.

    Notes
    -----
    .. math:: F = \\frac{\\sum_{i=1}^5 \\sum_{j=1}^2 (p_i^{(j)})^2}{2 \\sum_{i=1}^5 s_i^2},

    F distributed with (10, 5) degrees of freedom (Alpaydin 1999). Unlike the 5x2cv t
    it uses all ten differences, so it does not depend on their order; it is more
    robust and has lower type I error. When every ``s_i^2`` is 0 the statistic is 0
    (all differences zero) or +inf. mlxtend's ``combined_ftest_5x2cv`` computes the
    same statistic.

    References
    ----------
    .. [1] E. Alpaydin, "Combined 5 x 2 cv F test for comparing supervised
       classification learning algorithms", Neural Computation 11(8):1885-1892, 1999.

    Examples
    --------
    >>> diffs = [[0.02, 0.03], [0.01, 0.04], [0.03, 0.02], [0.00, 0.05], [0.02, 0.02]]
    >>> res = cv5x2_f(diffs)
    >>> round(res.statistic, 3), res.df
    (2.111, (10.0, 5.0))
    """
    p, s2 = _five_by_two_parts(diffs)
    num = float(np.sum(p * p))
    degenerate = 0.0 if num == 0.0 else math.inf  # every replication has equal folds
    f = degenerate if s2 == 0.0 else num / (2.0 * s2)
    pvalue = float(special.fdtrc(10.0, 5.0, f)) if math.isfinite(f) else 0.0
    return PairedTestResult(f, pvalue, (10.0, 5.0), None, "two-sided", "5x2cv combined F test")

"""Each model's mean score on one benchmark (models scored on the same items), with its interval.

:func:`model_statistics` reads :class:`cdplot.io.BenchmarkItems` and works from column sums
(per-cluster sums by one ``bincount`` over cluster x model codes, bootstrap means by one
matrix product per chunk of replicates): no Python loop over models or items.

The intervals
-------------
* ``"clopper-pearson"`` (binary scores, one score per item; the default there): the exact
  binomial interval of R's ``binom.test``. Its coverage is at least the confidence for every
  number of items and every true rate; Wilson's is close to it on average but dips below it
  at some rates (exactly, from the binomial distribution: at 10 items and a true rate of 0.1,
  95 % Wilson intervals cover 93.0 % of the time, at 0.05 91.4 %, near 0.017 only 84.2 %; at
  200 items still 92.0 % near 0.005; Brown, Cai & DasGupta 2001), and small
  evaluation sets and rates near 0 or 1 (an easy or a hard benchmark) are common. The price
  is width: Clopper-Pearson's average coverage is above the confidence (98.4 % at 10 items).
* ``"wilson"``: Wilson's score interval (R's ``prop.test(x, n, correct = FALSE)``).
* ``"t"``: the mean plus or minus a t quantile with ``n - 1`` df times ``s / sqrt(n)`` (R's
  ``t.test``); the default for non-binary scores and for the item means of several samples.
* ``"cluster"``: the cluster-robust standard error (the sandwich estimator of the mean
  with the small-sample factor ``G / (G - 1)``: R's ``sandwich::vcovCL(lm(score ~ 1),
  cluster = ~cl)``, Stata's and statsmodels' default) and a t quantile with ``G - 1`` df;
  the default whenever the items come in clusters.
* ``"bootstrap"``: the BCa bootstrap (Efron 1987) of the mean over items resampled with
  replacement -- over whole clusters when the items come in clusters -- seeded. Like every
  bootstrap it is short at few items (95 % BCa intervals of the mean of 10 partial-credit
  scores cover about 91 % of the time); prefer ``"t"`` below about 30 items or clusters.
* ``"korn-graubard"`` (means of binary scores or samples; :func:`cdplot.stats.pass_at_k`'s
  default):
  Clopper-Pearson at the effective number of trials ``mean (1 - mean) / se^2`` (with the
  cluster-robust ``se`` and ``G - 1`` df when the items come in clusters; Korn & Graubard
  1998). Unlike a t interval it stays inside [0, 1] and reaches above 0 when every item
  scored 0: it keeps its coverage better for means near 0 or 1 over few items.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np

from .._errors import CdplotInputError, check_in_list
from ..io._benchmark import BenchmarkItems
from ._options import check_confidence
from ._values import ValueEquality

__all__ = [
    "DEFAULT_N_BOOT",
    "MODEL_INTERVALS",
    "MeanIntervals",
    "ModelStatistics",
    "bca_interval",
    "binomial_interval",
    "check_n_boot",
    "cluster_sums",
    "generator",
    "korn_graubard_interval",
    "mean_intervals",
    "model_statistics",
    "observed",
    "variance_components",
]

#: values of ``model_statistics(interval=...)``
MODEL_INTERVALS = ("clopper-pearson", "wilson", "t", "cluster", "bootstrap", "korn-graubard")
#: other spellings of the intervals' names
INTERVAL_ALIASES = {
    "exact": "clopper-pearson",
    "beta": "clopper-pearson",
    "cluster-robust": "cluster",
    "bca": "bootstrap",
    "effective-n": "korn-graubard",
}
#: the intervals that need one 0/1 score per item
BINOMIAL_INTERVALS = ("clopper-pearson", "wilson")
#: bootstrap replicates when none are asked for
DEFAULT_N_BOOT = 2000
#: the most bootstrap replicates of one call
MAX_N_BOOT = 1_000_000
#: float64 elements of one chunk of bootstrap weights (replicates x resampled units: 32 MB)
BOOT_CHUNK_CELLS = 4_000_000


@dataclass(frozen=True, eq=False)
class ModelStatistics(ValueEquality):
    """Each model's mean score with its interval (arrays in the models' input order).

    Attributes
    ----------
    mean, low, high, se : numpy.ndarray
        Mean score over the items the model scored (the mean of its item means when items
        were sampled several times), the interval's bounds and the standard error the
        interval was made from: ``s / sqrt(n)`` for the binomial and t intervals, the
        cluster-robust one for ``"cluster"`` (and ``"korn-graubard"`` with clusters), the
        standard deviation of the bootstrap means for ``"bootstrap"``.
    n_items : numpy.ndarray
        Items each model scored (int64).
    interval : str
        How the interval was made (one of :data:`MODEL_INTERVALS`).
    confidence : float
        The interval's confidence level.
    design_effect : numpy.ndarray or None
        With clusters: the cluster-robust variance of the mean over ``s^2 / n``, its
        variance were the items independent (1 when every cluster holds one item; Kish's
        ``1 + (m - 1) ICC`` for clusters of ``m`` items).
    within_variance, between_variance : numpy.ndarray or None
        With samples: the variance of a model's samples within an item (the pooled
        within-item mean square) and the variance of the items' true scores between items
        (the ANOVA estimator, floored at 0); see :func:`variance_components`.
    df : numpy.ndarray or None
        Degrees of freedom of the t quantile (``n - 1``, or ``G - 1`` clusters); None for
        the binomial and bootstrap intervals.
    """

    mean: np.ndarray
    low: np.ndarray
    high: np.ndarray
    se: np.ndarray
    n_items: np.ndarray
    interval: str
    confidence: float
    design_effect: np.ndarray | None = None
    within_variance: np.ndarray | None = None
    between_variance: np.ndarray | None = None
    df: np.ndarray | None = None


class MeanIntervals(NamedTuple):
    """Per-column means of an items x models array and their intervals (see
    :func:`mean_intervals`)."""

    mean: np.ndarray
    low: np.ndarray
    high: np.ndarray
    se: np.ndarray
    n: np.ndarray
    df: np.ndarray | None
    design_effect: np.ndarray | None


def observed(items: BenchmarkItems) -> tuple[np.ndarray, np.ndarray]:
    """The scores with NaN as 0, and the 0/1 indicator of a score."""
    seen = ~np.isnan(items.scores)
    return np.where(seen, items.scores, 0.0), seen.astype(float)


def cluster_sums(values: np.ndarray, clusters: np.ndarray, n_clusters: int) -> np.ndarray:
    """``G x k`` sums of an ``n x k`` array's rows within each cluster (one ``bincount`` over
    the cluster x column codes)."""
    n, k = values.shape
    codes = (np.asarray(clusters, dtype=np.int64)[:, None] * k + np.arange(k)).ravel()
    sums = np.bincount(codes, weights=values.ravel(), minlength=n_clusters * k)
    return sums.reshape(n_clusters, k)


def model_statistics(
    items: BenchmarkItems,
    *,
    confidence: float = 0.95,
    interval: str | None = None,
    n_boot: int = DEFAULT_N_BOOT,
    seed: Any = 0,
) -> ModelStatistics:
    """Each model's mean score with a confidence interval.

    Parameters
    ----------
    items : BenchmarkItems
        The benchmark's item scores (item means when items were sampled several times).
    confidence : float, default 0.95
        The interval's confidence level.
    interval : str, optional
        One of :data:`MODEL_INTERVALS`.
        ``"clopper-pearson"``: the exact binomial interval (R's ``binom.test(x, n)``);
        ``"wilson"``: Wilson's score interval (R's ``prop.test(x, n, correct = FALSE)``);
        both for one 0/1 score per item. ``"t"``: mean plus or minus a t quantile with
        ``n - 1`` df times ``s / sqrt(n)`` (R's ``t.test``). ``"cluster"``: the
        cluster-robust standard error with ``G - 1`` df (needs clusters). ``"bootstrap"``:
        the BCa bootstrap over items, or over clusters when the items have them.
        ``"korn-graubard"``: Clopper-Pearson at the effective number of items (binary
        scores or samples; cluster-robust with clusters). Default: ``"cluster"`` with
        clusters; else ``"clopper-pearson"`` for one 0/1 score per item (its coverage never
        falls below the confidence, whatever the number of items and the true rate;
        Wilson's does at some rates); else ``"t"``.
    n_boot : int, default 2000
        Bootstrap replicates (``interval="bootstrap"`` only), 100 to 1,000,000.
    seed : None, int or numpy.random.Generator, default 0
        The bootstrap's seed: equal seeds give equal intervals.

    Returns
    -------
    ModelStatistics
        ``mean``, ``low``, ``high``, ``se``, ``n_items``, ``interval``, ``confidence``,
        ``df``; ``design_effect`` with clusters; ``within_variance`` and
        ``between_variance`` with samples.

    Raises
    ------
    CdplotInputError
        An unknown interval; a binomial interval for scores that are not one 0/1 score per
        item; ``"cluster"`` without clusters; a model with scores on fewer than two items
        (or in fewer than two clusters).

    Notes
    -----
    With clusters ``c = 1..G`` and residuals ``e_i = x_i - mean``, the cluster-robust
    variance of the mean is ``G / (G - 1) * sum_c (sum_{i in c} e_i)^2 / n^2``. Without the
    factor this is ``(1/n^2) [sum_i e_i^2 + sum_c sum_{i != j in c} e_i e_j]``, the
    iid variance plus the within-cluster cross products, as in Miller's (2024) clustered
    standard error (whose first term divides by ``n (n - 1)``, not ``n^2``); the factor
    ``G / (G - 1)`` (CR1; R ``sandwich::vcovCL`` with its default ``cadjust = TRUE``, for
    ``type = "HC0"`` and ``"HC1"`` alike on ``lm(score ~ 1)``; Stata; statsmodels'
    ``cov_type="cluster"``) makes it equal ``s^2 / n`` when every cluster holds one item,
    so that the cluster-robust interval then is ``t.test``'s.

    With several samples per item the statistics are those of the item means (each item
    weighs the same, however many samples it has): their standard error holds both the
    between-item and the within-item variance (``between + within / m`` over ``n`` items).

    References
    ----------
    Clopper, C. J. & Pearson, E. S. (1934). The use of confidence or fiducial limits
    illustrated in the case of the binomial. *Biometrika* 26(4), 404-413.
    Brown, L. D., Cai, T. T. & DasGupta, A. (2001). Interval estimation for a binomial
    proportion. *Statistical Science* 16(2), 101-133.
    Efron, B. (1987). Better bootstrap confidence intervals. *JASA* 82(397), 171-185.
    Korn, E. L. & Graubard, B. I. (1998). Confidence intervals for proportions with small
    expected number of positive counts estimated from survey data. *Survey Methodology*
    24(2), 193-201.
    Miller, E. (2024). Adding error bars to evals: a statistical approach to language
    model evaluations. arXiv:2411.00640.

    Examples
    --------
    >>> import numpy as np
    >>> from cdplot.io._benchmark import BenchmarkItems
    >>> from cdplot.stats._benchmark_models import model_statistics
    >>> scores = np.array([[1, 0], [1, 1], [0, 0], [1, 0], [1, 1], [0, 0]], dtype=float)
    >>> items = BenchmarkItems(("a", "b"), tuple("pqrstu"), scores, binary=True)
    >>> stats = model_statistics(items)
    >>> stats.interval, stats.mean.round(3).tolist()
    ('clopper-pearson', [0.667, 0.333])
    >>> stats.low.round(3).tolist(), stats.high.round(3).tolist()
    ([0.223, 0.043], [0.957, 0.777])
    """
    confidence = check_confidence(confidence)
    interval = _check_interval(items, interval)
    n_boot = check_n_boot(n_boot)
    rng = generator(seed)
    means = mean_intervals(
        items.scores,
        items.clusters,
        n_clusters=items.n_clusters,
        interval=interval,
        confidence=confidence,
        n_boot=n_boot,
        seed=rng,
        bounded=items.binary,
    )
    within, between = variance_components(items)
    return ModelStatistics(
        mean=means.mean,
        low=means.low,
        high=means.high,
        se=means.se,
        n_items=means.n.astype(np.int64),
        interval=interval,
        confidence=confidence,
        design_effect=means.design_effect,
        within_variance=within,
        between_variance=between,
        df=means.df,
    )


def _check_interval(items: BenchmarkItems, interval: str | None) -> str:
    """The canonical interval name (the default chosen from the design), checked against
    the scores and the clusters."""
    scores = items.scores[~np.isnan(items.scores)]
    zero_one = bool(items.binary and np.all((scores == 0) | (scores == 1)))
    if interval is None:
        if items.clusters is not None:
            return "cluster"
        return "clopper-pearson" if zero_one else "t"
    interval = check_in_list(MODEL_INTERVALS, aliases=INTERVAL_ALIASES, interval=interval)
    if interval in BINOMIAL_INTERVALS and not zero_one:
        what = "item means of several 0/1 samples" if items.binary else "not binary (0/1) scores"
        raise CdplotInputError(
            f"interval={interval!r} is for one binary (0/1) score per item; these are {what}: "
            "use interval='t' (the default) or interval='bootstrap'."
        )
    if interval == "korn-graubard" and not items.binary:
        raise CdplotInputError(
            "interval='korn-graubard' is for means of binary (0/1) scores or samples; these "
            "scores are not binary: use interval='t' (the default) or interval='bootstrap'."
        )
    if interval == "cluster" and items.clusters is None:
        raise CdplotInputError(
            "interval='cluster' needs the items' clusters (cluster= names the column); "
            "without clusters use interval='t'."
        )
    return interval


def check_n_boot(n_boot: Any) -> int:
    """The number of bootstrap replicates, an integer from 100 to :data:`MAX_N_BOOT`."""
    if isinstance(n_boot, bool) or not isinstance(n_boot, (int, np.integer)) or n_boot < 100:
        raise CdplotInputError(f"n_boot must be an integer >= 100, got {n_boot!r}; e.g. 2000.")
    if n_boot > MAX_N_BOOT:
        raise CdplotInputError(
            f"n_boot={int(n_boot):,} exceeds the bound of {MAX_N_BOOT:,} replicates (time "
            f"grows with n_boot); pass n_boot <= {MAX_N_BOOT:,}."
        )
    return int(n_boot)


def mean_intervals(
    values: np.ndarray,
    clusters: np.ndarray | None,
    *,
    n_clusters: int | None,
    interval: str,
    confidence: float,
    n_boot: int = DEFAULT_N_BOOT,
    seed: Any = 0,
    bounded: bool = False,
) -> MeanIntervals:
    """Each column's mean over its non-NaN rows, with the interval named (a canonical name
    of :data:`MODEL_INTERVALS`, already checked against the data).

    ``bounded``: the values' population mean lies in [0, 1] (binary scores, pass@k): a t,
    cluster or bootstrap interval is clipped to it.
    """
    from scipy import stats

    seen = ~np.isnan(values)
    x = np.where(seen, values, 0.0)
    n = seen.sum(axis=0).astype(float)
    if (n < 2).any():
        raise CdplotInputError(
            f"every model needs scores on at least two items; {int((n < 2).sum())} model(s) "
            "have fewer: drop them or score more items."
        )
    mean = x.sum(axis=0) / n
    residual = np.where(seen, x - mean, 0.0)
    iid_var = (residual**2).sum(axis=0) / (n - 1) / n
    design_effect = df = None
    se = np.sqrt(iid_var)
    if clusters is not None:
        g = _count_clusters(clusters, n_clusters)
        totals = cluster_sums(residual, clusters, g)
        present = cluster_sums(seen.astype(float), clusters, g) > 0
        n_g = present.sum(axis=0).astype(float)
        if (n_g < 2).any():
            raise CdplotInputError(
                f"{int((n_g < 2).sum())} model(s) have scores in fewer than two clusters: a "
                "cluster-robust interval needs at least two; drop them or pass no clusters."
            )
        cluster_var = n_g / (n_g - 1) * (totals**2).sum(axis=0) / n**2
        with np.errstate(invalid="ignore", divide="ignore"):
            design_effect = cluster_var / iid_var
    alpha = 1 - confidence
    if interval in BINOMIAL_INTERVALS:
        low, high = binomial_interval(x.sum(axis=0), n, confidence, interval)
    elif interval == "bootstrap":
        low, high, se = bca_interval(x, seen, clusters, n_clusters, confidence, n_boot, seed)
    else:
        robust = clusters is not None and interval in ("cluster", "korn-graubard")
        se, df = (np.sqrt(cluster_var), n_g - 1) if robust else (se, n - 1)
        if interval == "korn-graubard":
            low, high = korn_graubard_interval(mean, se, n, df, confidence)
        else:
            q = stats.t.isf(alpha / 2, df)
            low, high = mean - q * se, mean + q * se
    if bounded:
        low, high = np.clip(low, 0.0, 1.0), np.clip(high, 0.0, 1.0)
    return MeanIntervals(mean, low, high, se, n, df, design_effect)


def binomial_interval(
    successes: np.ndarray, n: np.ndarray, confidence: float, method: str
) -> tuple[np.ndarray, np.ndarray]:
    """Clopper-Pearson (R ``binom.test``) or Wilson (R ``prop.test(correct = FALSE)``)
    bounds for ``successes`` out of ``n`` (arrays)."""
    from scipy import stats

    alpha = 1 - confidence
    x = np.asarray(successes, dtype=float)
    n = np.asarray(n, dtype=float)
    if method == "clopper-pearson":
        with np.errstate(invalid="ignore", divide="ignore"):
            low = stats.beta.ppf(alpha / 2, x, n - x + 1)
            high = stats.beta.isf(alpha / 2, x + 1, n - x)
        return np.where(x > 0, low, 0.0), np.where(x < n, high, 1.0)
    z = float(stats.norm.isf(alpha / 2))
    p = x / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return np.maximum(centre - half, 0.0), np.minimum(centre + half, 1.0)


def korn_graubard_interval(
    mean: np.ndarray, se: np.ndarray, n: np.ndarray, df: np.ndarray, confidence: float
) -> tuple[np.ndarray, np.ndarray]:
    """Clopper-Pearson bounds at the effective number of trials (Korn & Graubard 1998) for
    means of values in [0, 1] with standard errors ``se`` (``df`` degrees of freedom).

    ``n_eff = mean (1 - mean) / se^2``, the number of Bernoulli trials whose proportion would
    have this standard error (``n`` when ``se`` is 0 or the mean is 0 or 1), shrunk by
    ``(z / t_df)^2``; the bounds are the beta quantiles of ``binom.test`` at ``x = mean *
    n_eff`` successes of ``n_eff`` (not integers). Not capped at ``n``: means of
    probabilities vary less than means of 0/1 scores.
    """
    from scipy import stats

    alpha = 1 - confidence
    with np.errstate(invalid="ignore", divide="ignore"):
        n_eff = np.where(se > 0, mean * (1 - mean) / se**2, 0.0)
    n_eff = np.where((n_eff > 0) & np.isfinite(n_eff), n_eff, n)
    n_eff = n_eff * (stats.norm.isf(alpha / 2) / stats.t.isf(alpha / 2, df)) ** 2
    return binomial_interval(mean * n_eff, n_eff, confidence, "clopper-pearson")


def _boot_units(
    x: np.ndarray, seen: np.ndarray, clusters: np.ndarray | None, n_clusters: int | None
) -> tuple[np.ndarray, np.ndarray]:
    """The resampled units' sums and counts (``u x k``): the items, or the clusters."""
    if clusters is None:
        return x, seen.astype(float)
    g = _count_clusters(clusters, n_clusters)
    return cluster_sums(x, clusters, g), cluster_sums(seen.astype(float), clusters, g)


def _count_clusters(clusters: np.ndarray, n_clusters: int | None) -> int:
    """The number of cluster codes to count: ``n_clusters``, or more if a code exceeds it."""
    largest = int(clusters.max(initial=-1)) + 1
    return largest if n_clusters is None else max(int(n_clusters), largest)


def bca_interval(
    x: np.ndarray,
    seen: np.ndarray,
    clusters: np.ndarray | None,
    n_clusters: int | None,
    confidence: float,
    n_boot: int,
    seed: Any,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """BCa bootstrap bounds and bootstrap standard errors of the column means of ``x`` (0
    where unseen), resampling items or whole clusters.

    A replicate's means are ``(w @ sums) / (w @ counts)`` with ``w`` the number of times
    each unit was drawn; the acceleration is the jackknife's (leave one unit out), in
    closed form from the units' sums.
    """
    from scipy import stats

    sums, counts = _boot_units(x, seen, clusters, n_clusters)
    units = sums.shape[0]
    total, size = sums.sum(axis=0), counts.sum(axis=0)
    theta = total / size
    rng = generator(seed)
    chunk = max(1, BOOT_CHUNK_CELLS // units)
    boot = np.empty((n_boot, sums.shape[1]))
    for start in range(0, n_boot, chunk):
        b = min(chunk, n_boot - start)
        draws = rng.integers(0, units, size=(b, units)) + units * np.arange(b)[:, None]
        w = np.bincount(draws.ravel(), minlength=b * units).reshape(b, units).astype(float)
        with np.errstate(invalid="ignore", divide="ignore"):
            boot[start : start + b] = (w @ sums) / (w @ counts)
    valid = ~np.isnan(boot)
    m = valid.sum(axis=0)
    below = (np.where(valid, boot < theta, False).sum(axis=0)) + 0.5 * (
        np.where(valid, boot == theta, False).sum(axis=0)
    )
    z0 = stats.norm.ppf(np.clip(below / m, 0.5 / m, 1 - 0.5 / m))
    used = counts > 0
    with np.errstate(invalid="ignore", divide="ignore"):
        left_out = np.where(used, (total - sums) / (size - counts), 0.0)
        jackknife = left_out.sum(axis=0) / used.sum(axis=0)
        d = np.where(used, jackknife - left_out, 0.0)
        accel = (d**3).sum(axis=0) / (6 * ((d**2).sum(axis=0)) ** 1.5)
    accel = np.nan_to_num(accel)
    z = stats.norm.isf((1 - confidence) / 2)
    ordered = np.sort(np.where(valid, boot, np.inf), axis=0)
    bounds = []
    for zq in (-z, z):
        level = stats.norm.cdf(z0 + (z0 + zq) / (1 - accel * (z0 + zq)))
        bounds.append(_column_quantiles(ordered, m, level))
    spread = np.sqrt(np.nanvar(np.where(valid, boot, np.nan), axis=0, ddof=1))
    return bounds[0], bounds[1], spread


def generator(seed: Any) -> np.random.Generator:
    """A numpy Generator from None, a non-negative integer seed or a Generator (used as it
    is); anything else is refused."""
    if seed is None or isinstance(seed, np.random.Generator):
        return np.random.default_rng(seed)
    if isinstance(seed, (int, np.integer)) and not isinstance(seed, bool) and seed >= 0:
        return np.random.default_rng(int(seed))
    raise CdplotInputError(
        f"seed must be None, a non-negative integer or a numpy Generator, got {seed!r}."
    )


def _column_quantiles(ordered: np.ndarray, m: np.ndarray, level: np.ndarray) -> np.ndarray:
    """Each column's ``level`` quantile (linear interpolation, numpy's default) of its first
    ``m`` sorted values."""
    position = np.clip(level, 0.0, 1.0) * (m - 1)
    lower = np.floor(position).astype(np.int64)
    upper = np.minimum(lower + 1, m - 1)
    columns = np.arange(ordered.shape[1])
    a, b = ordered[lower, columns], ordered[upper, columns]
    return a + (position - lower) * (b - a)


def variance_components(items: BenchmarkItems) -> tuple[np.ndarray | None, np.ndarray | None]:
    """Each model's within-item and between-item variance of its samples (None, None
    without samples).

    The one-way random-effects ANOVA estimators over the items a model scored, with
    ``n_i`` samples of item ``i`` (``N = sum n_i`` over ``a`` items), item means
    ``ybar_i``, sample variances ``s_i^2`` and the grand mean ``ybar`` of all samples:
    ``within = MSW = sum (n_i - 1) s_i^2 / (N - a)`` (the mean of ``s_i^2`` when every
    item has the same number of samples) and ``between = max(0, (MSB - MSW) / n0)`` with
    ``MSB = sum n_i (ybar_i - ybar)^2 / (a - 1)`` and ``n0 = (N - sum n_i^2 / N) / (a - 1)``
    (Searle, Casella & McCulloch 1992, ch. 3); on a balanced design ``between`` is the
    REML estimate of ``lme4::lmer(score ~ 1 + (1 | item))``. Binary samples without
    variances use ``c (n - c) / (n (n - 1))`` from the success counts.
    """
    if items.n_samples is None:
        return None, None
    counts = np.asarray(items.n_samples, dtype=float)
    seen = ~np.isnan(items.scores) & (counts > 0)
    counts = np.where(seen, counts, 0.0)
    means = np.where(seen, items.scores, 0.0)
    if items.sample_var is not None:
        var = np.asarray(items.sample_var, dtype=float)
    else:
        successes = np.round(means * counts)
        with np.errstate(invalid="ignore", divide="ignore"):
            var = successes * (counts - successes) / (counts * (counts - 1))
    var = np.where(seen & (counts > 1) & ~np.isnan(var), var, 0.0)
    a = seen.sum(axis=0).astype(float)
    big_n = counts.sum(axis=0)
    with np.errstate(invalid="ignore", divide="ignore"):
        within = ((counts - 1) * var).sum(axis=0) / (big_n - a)
        grand = (counts * means).sum(axis=0) / big_n
        msb = (counts * (means - grand) ** 2).sum(axis=0) / (a - 1)
        n0 = (big_n - (counts**2).sum(axis=0) / big_n) / (a - 1)
        between = np.maximum((msb - within) / n0, 0.0)
    return within, np.where(np.isnan(within), np.nan, between)

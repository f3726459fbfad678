"""Every pair's paired difference of mean scores on one benchmark, its interval and p-value.

:func:`pair_statistics` reads :class:`cdplot.io.BenchmarkItems` and works from sufficient
statistics: column sums, the k x k cross-product matrices of the item scores (co-success
counts ``X.T @ X`` for binary scores), and with clusters the per-cluster sums
``C = onehot(cluster).T @ X`` and ``C.T @ C``. No Python loop over pairs or items; the paired
bootstrap reweights the items (or clusters) by matrix products, in blocks of models.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .._errors import CdplotInputError, check_in_list
from ..io._benchmark import BenchmarkItems
from ._benchmark_models import observed
from ._options import check_confidence
from ._values import ValueEquality

__all__ = [
    "PAIR_INTERVALS",
    "PAIR_TESTS",
    "PairStatistics",
    "mcnemar_counts",
    "pair_statistics",
    "paired_t_sums",
]

#: values of ``pair_statistics(test=...)``
PAIR_TESTS = ("mcnemar", "mcnemar-asymptotic", "paired-t", "paired-bootstrap", "clustered-t")
#: values of ``pair_statistics(interval=...)``: the interval of a difference of paired
#: proportions (binary scores, McNemar tests)
PAIR_INTERVALS = ("tango", "newcombe")
#: distinct score values up to which the wins are counted by one matrix product per value
WINS_BY_VALUE = 64
#: booleans of one block of the item-by-item comparison of the wins (continuous scores)
WINS_BLOCK_ELEMENTS = 4_000_000
#: float64 elements of one block of bootstrap pair differences (16 MB)
BOOT_BLOCK_ELEMENTS = 2_000_000
#: replicates of one block of bootstrap counts (small blocks reuse freed memory)
BOOT_ROWS = 256
#: bisection steps of Tango's score interval (2**-60: below float64 resolution on [-1, 1])
TANGO_STEPS = 60
DEFAULT_N_BOOT = 10_000


@dataclass(frozen=True, eq=False)
class PairStatistics(ValueEquality):
    """Every pair's paired difference (k x k arrays; ``[i, j]`` is model i minus model j).

    Attributes
    ----------
    difference, low, high, se : numpy.ndarray
        Mean of the paired differences over the items both models scored, its interval and
        standard error (antisymmetric; NaN on the diagonal).
    statistic, pvalues : numpy.ndarray
        The test statistic (antisymmetric) and its two-sided p-value (symmetric; NaN on the
        diagonal).
    n_items : numpy.ndarray
        Items both models scored (int64, symmetric).
    wins : numpy.ndarray
        Items on which model i scored better than model j (int64; ``wins.T`` the losses),
        in the direction of ``higher_is_better``.
    test : str
        The test (one of :data:`PAIR_TESTS`).
    interval : str
        How the interval of the difference was made: "tango" or "newcombe" (binary
        scores), "t", "clustered-t" or "percentile" (the paired bootstrap).
    confidence : float
        The interval's confidence level.
    higher_is_better : bool
        The direction of ``wins``.
    df : numpy.ndarray or None
        Degrees of freedom of the t tests (k x k; ``n - 1``, or ``G - 1`` with clusters);
        None for the other tests.
    n_clusters : int or None
        Clusters of the cluster-robust test (``G``), else None.
    n_boot : int or None
        Bootstrap replicates of the paired bootstrap, else None.
    """

    difference: np.ndarray
    low: np.ndarray
    high: np.ndarray
    se: np.ndarray
    statistic: np.ndarray
    pvalues: np.ndarray
    n_items: np.ndarray
    wins: np.ndarray
    test: str
    interval: str
    confidence: float
    higher_is_better: bool = True
    df: np.ndarray | None = None
    n_clusters: int | None = None
    n_boot: int | None = None


def pair_statistics(
    items: BenchmarkItems,
    *,
    test: str | None = None,
    confidence: float = 0.95,
    interval: str | None = None,
    higher_is_better: bool = True,
    n_boot: int = DEFAULT_N_BOOT,
    seed: Any = None,
) -> PairStatistics:
    """Every pair's paired difference of mean scores, its interval and p-value.

    Parameters
    ----------
    items : BenchmarkItems
        The benchmark's item scores; each pair uses the items both models scored (the
        paired bootstrap and the cluster-robust test need every model scored on every
        item).
    test : {"mcnemar", "mcnemar-asymptotic", "paired-t", "paired-bootstrap", \
"clustered-t"}, optional
        "mcnemar": the exact McNemar test (binary scores): the two-sided binomial test of
        the ``b`` items only model i solved against the ``c`` only model j solved, R's
        ``binom.test(b, b + c)``. "mcnemar-asymptotic": McNemar's chi-square test with
        continuity correction, R's ``mcnemar.test`` (``statistic`` is the signed square
        root of its chi-square). "paired-t": the paired t-test, R's ``t.test(x, y, paired =
        TRUE)``. "paired-bootstrap": the paired bootstrap of the mean difference (items
        resampled, clusters with clusters; ``n_boot`` replicates, ``seed``): percentile
        interval, and the p-value ``(1 + #{|d* - d| >= |d|}) / (n_boot + 1)`` of the
        replicates shifted to the null. "clustered-t": the cluster-robust paired t
        (Miller 2024): the standard error of the mean difference is the CR1 sandwich of
        ``lm(d ~ 1)`` with the clusters, R's ``sandwich::vcovCL(lm(d ~ 1), cluster = ~cl)``
        (its default small-sample factor ``G / (G - 1)``, and ``(n - 1) / (n - 1) = 1``
        for the one coefficient), with ``G - 1`` degrees of freedom. Default:
        "clustered-t" when the items have clusters, else "mcnemar" for binary scores and
        "paired-t" otherwise. A test other than "clustered-t" or "paired-bootstrap"
        ignores the clusters (and treats clustered items as independent).
    confidence : float, default 0.95
        The interval's confidence level.
    interval : {"tango", "newcombe"}, optional
        With the McNemar tests, the interval of the difference of paired proportions:
        "tango" (default), Tango's (1998) score interval, which inverts the score test of
        the difference with the restricted maximum-likelihood estimate of the discordant
        cell; "newcombe", Newcombe's (1998) hybrid score interval (his method 10: Wilson
        intervals of the two proportions, combined with the phi correlation corrected as
        ``max(ad - bc - n/2, 0)`` when ``ad > bc``). Both keep their coverage at small n
        where the Wald interval does not: exact coverage at 60 random cell probabilities,
        n = 15, mean 0.963 and minimum 0.946 for Tango, 0.953 and 0.933 for Newcombe, 0.908
        and 0.699 for Wald; n = 50, 0.951 and 0.943, 0.952 and 0.945, 0.940 and 0.931
        (``tests/test_benchmark_pair_coverage.py``). Tango's, by its higher minimum at
        small n, is the default.
    higher_is_better : bool, default True
        The direction of ``wins`` (the differences stay in raw score units).
    n_boot : int, default 10000
        Replicates of the paired bootstrap (100 to 1,000,000).
    seed : None, int or numpy.random.Generator
        The paired bootstrap's seed.

    Returns
    -------
    PairStatistics

    Raises
    ------
    CdplotInputError
        A McNemar test of non-binary scores, "clustered-t" without clusters or with fewer
        than two, the bootstrap or the clusters on a table with missing scores.

    References
    ----------
    Newcombe, R. G. (1998). Improved confidence intervals for the difference between
    binomial proportions based on paired data. *Statistics in Medicine* 17, 2635-2650.
    Tango, T. (1998). Equivalence test and confidence interval for the difference in
    proportions for the paired-sample design. *Statistics in Medicine* 17, 891-908.
    Miller, E. (2024). Adding error bars to evals: a statistical approach to language
    model evaluations. arXiv:2411.00640.

    Examples
    --------
    >>> import numpy as np
    >>> from cdplot.io._benchmark import BenchmarkItems
    >>> from cdplot.stats import pair_statistics
    >>> scores = np.array([[1, 0], [1, 1], [1, 0], [0, 0], [1, 0], [1, 1]], dtype=float)
    >>> items = BenchmarkItems(("a", "b"), tuple("123456"), scores, binary=True)
    >>> ps = pair_statistics(items)
    >>> int(ps.wins[0, 1]), round(float(ps.pvalues[0, 1]), 4)
    (3, 0.25)
    """
    confidence = check_confidence(confidence)
    default = "mcnemar" if items.binary else "paired-t"
    test = check_in_list(
        PAIR_TESTS, test=test or ("clustered-t" if items.clusters is not None else default)
    )
    if test.startswith("mcnemar") and not items.binary:
        raise CdplotInputError(
            f"test={test!r} is for binary (0/1) scores; these are not binary: use test='paired-t'."
        )
    if interval is not None:
        interval = check_in_list(PAIR_INTERVALS, interval=interval)
        if not test.startswith("mcnemar"):
            raise CdplotInputError(
                f"interval={interval!r} is the interval of paired proportions of the McNemar "
                f"tests; test={test!r} makes its own interval: drop interval=."
            )
    x, seen = observed(items)
    wins = _wins(x, seen, items.binary, higher_is_better)
    if test.startswith("mcnemar"):
        out = _mcnemar(x, seen, wins if higher_is_better else wins.T, test, confidence, interval)
    elif test == "paired-t":
        out = _paired_t(x, seen, confidence)
    else:
        units, sizes = _units(items, x, seen, test)
        if test == "clustered-t":
            out = _clustered_t(units, sizes, confidence)
        else:
            rng = np.random.default_rng(seed)
            out = _paired_bootstrap(units, sizes, confidence, _check_n_boot(n_boot), rng)
        out["n_clusters"] = None if items.clusters is None else units.shape[0]
    for name in ("difference", "low", "high", "se", "statistic", "pvalues"):
        np.fill_diagonal(out[name], np.nan)
    return PairStatistics(
        wins=wins,
        test=test,
        confidence=confidence,
        higher_is_better=bool(higher_is_better),
        **out,
    )


# --------------------------------------------------------------------------- checks


def _check_n_boot(n_boot: Any) -> int:
    if isinstance(n_boot, bool) or not isinstance(n_boot, (int, np.integer)):
        raise CdplotInputError(f"n_boot must be an integer, got {n_boot!r}; e.g. n_boot=10000.")
    if not 100 <= n_boot <= 1_000_000:
        raise CdplotInputError(f"n_boot must be from 100 to 1,000,000, got {n_boot}.")
    return int(n_boot)


def _units(
    items: BenchmarkItems, x: np.ndarray, seen: np.ndarray, test: str
) -> tuple[np.ndarray, np.ndarray]:
    """The resampling units' score sums (``G x k``) and sizes (``G``): the clusters'
    (``onehot(cluster).T @ X``) with clusters, else the items themselves."""
    if not seen.all():
        raise CdplotInputError(
            f"test={test!r} needs every model scored on every item, but some scores are "
            "missing; drop the items or models with missing scores (missing='drop'), or use "
            "test='paired-t'."
        )
    if items.clusters is None:
        if test == "clustered-t":
            raise CdplotInputError(
                "test='clustered-t' needs the items' clusters; name the cluster column "
                "(cluster=...), or use test='paired-t'."
            )
        return x, np.ones(x.shape[0])
    units, sizes = cluster_sums(x, items.clusters, len(items.cluster_ids))
    keep = sizes > 0
    if keep.sum() < 2:
        raise CdplotInputError(
            f"test={test!r} needs at least 2 clusters of items, got {int(keep.sum())}; "
            "check the cluster column, or use test='paired-t'."
        )
    return units[keep], sizes[keep]


def cluster_sums(x: np.ndarray, codes: np.ndarray, g: int) -> tuple[np.ndarray, np.ndarray]:
    """Each cluster's column sums (``G x k``, the product ``onehot(codes).T @ x`` without
    the one-hot matrix: rows sorted by cluster, then summed run by run) and sizes."""
    sizes = np.bincount(codes, minlength=g).astype(float)
    order = np.argsort(codes, kind="stable")
    starts = np.concatenate([[0], np.cumsum(sizes[:-1])]).astype(np.int64)
    sums = np.zeros((g, x.shape[1]))
    present = sizes > 0
    if present.any():
        sums[present] = np.add.reduceat(x[order], starts[present], axis=0)
    return sums, sizes


# --------------------------------------------------------------------------- wins


def _wins(x: np.ndarray, seen: np.ndarray, binary: bool, higher_is_better: bool) -> np.ndarray:
    """``[i, j]``: items both scored on which i scored better than j (int64).

    Binary scores: one matrix product, ``X.T @ (seen - X)``. Few distinct values (partial
    credit, means of a few samples): one product per value ``v``, ``[x_i = v].T @ [x_j <
    v]``. Otherwise every item's scores compared in blocks of models (booleans of bounded
    size).
    """
    sign = 1.0 if higher_is_better else -1.0
    if binary:
        better = x if higher_is_better else seen - x
        return np.rint(better.T @ (seen - better)).astype(np.int64)
    signed = np.where(seen > 0, sign * x, np.nan)
    values = np.unique(signed[seen > 0])
    k = x.shape[1]
    if values.size <= WINS_BY_VALUE:
        out = np.zeros((k, k))
        below = np.zeros_like(x)
        for v in values:  # ascending: `below` holds the scores under v
            at = (signed == v).astype(float)
            out += at.T @ below
            below += at
        return np.rint(out).astype(np.int64)
    out = np.zeros((k, k), dtype=np.int64)
    step = max(1, WINS_BLOCK_ELEMENTS // max(1, x.shape[0] * k))
    for start in range(0, k, step):  # blocks of models, every item at once
        block = signed[:, start : start + step, None] > signed[:, None, :]
        out[start : start + step] = block.sum(axis=0)
    return out


# --------------------------------------------------------------------------- binary


def _mcnemar(
    x: np.ndarray,
    seen: np.ndarray,
    b: np.ndarray,
    test: str,
    confidence: float,
    interval: str | None,
) -> dict[str, Any]:
    """McNemar's tests and the interval of the difference of paired proportions, from the
    co-success counts ``a = X.T @ X`` and the discordant counts ``b = X.T @ (seen - X)``."""
    return mcnemar_counts(seen.T @ seen, x.T @ x, b, test, confidence, interval)


def mcnemar_counts(
    n: np.ndarray,
    a: np.ndarray,
    b: np.ndarray,
    test: str,
    confidence: float,
    interval: str | None,
) -> dict[str, Any]:
    """McNemar's tests and the interval of every pair from its counts (k x k): items both
    scored ``n``, co-successes ``a`` and discordant items ``b`` (i right, j wrong)."""
    from scipy import stats

    c = b.T
    d = n - a - b - c
    m = b + c
    with np.errstate(invalid="ignore", divide="ignore"):
        diff = (b - c) / n
        se = np.sqrt(np.maximum(m / n - diff * diff, 0.0) / n)
        if test == "mcnemar":
            p = np.minimum(1.0, 2.0 * stats.binom.cdf(np.minimum(b, c), m, 0.5))
            statistic = (b - c).astype(float)
        else:  # R's mcnemar.test: (|b - c| - 1)^2 / (b + c), chi-square with 1 df
            chi2 = (np.abs(b - c) - 1.0) ** 2 / m
            p = stats.chi2.sf(chi2, 1)
            statistic = np.sign(b - c) * np.sqrt(chi2)
        p = np.where(m == 0, 1.0, p)
        statistic = np.where(m == 0, 0.0, statistic)
        z = float(stats.norm.isf((1 - confidence) / 2))
        interval = interval or "tango"
        # pairs j < i: the reversed pair's interval, negated (both intervals are symmetric
        # in the two models)
        i, j = np.triu_indices(len(n), 1)
        if interval == "tango":
            upper = tango_interval(b[i, j], c[i, j], n[i, j], z)
        else:
            upper = newcombe_interval(a[i, j], b[i, j], c[i, j], d[i, j], z)
        low, high = _mirrored(upper, i, j, len(n))
    return {
        "difference": diff,
        "low": low,
        "high": high,
        "se": se,
        "statistic": statistic,
        "pvalues": p,
        "n_items": np.rint(n).astype(np.int64),
        "interval": interval,
    }


def _mirrored(
    upper: tuple[np.ndarray, np.ndarray], i: np.ndarray, j: np.ndarray, k: int
) -> tuple[np.ndarray, np.ndarray]:
    """k x k limits from those of the pairs ``i < j``: ``[j, i]`` is ``[-high, -low]``."""
    low, high = np.full((k, k), np.nan), np.full((k, k), np.nan)
    low[i, j], high[i, j] = upper
    low[j, i], high[j, i] = -upper[1], -upper[0]
    return low, high


def _wilson(successes: np.ndarray, n: np.ndarray, z: float) -> tuple[np.ndarray, np.ndarray]:
    p = successes / n
    shrink = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / shrink
    half = z / shrink * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return centre - half, centre + half


def newcombe_interval(
    a: np.ndarray, b: np.ndarray, c: np.ndarray, d: np.ndarray, z: float
) -> tuple[np.ndarray, np.ndarray]:
    """Newcombe's (1998) method 10 for ``p1 - p2 = (b - c) / n`` of the paired table
    ``[[a, b], [c, d]]`` (arrays of any shape; ``z`` the normal quantile): the Wilson
    limits ``l1, u1`` of ``p1 = (a + b) / n`` and ``l2, u2`` of ``p2 = (a + c) / n``,
    ``low = d - sqrt((p1 - l1)^2 - 2 phi (p1 - l1)(u2 - p2) + (u2 - p2)^2)`` and the upper
    limit alike, with ``phi = (ad - bc) / sqrt(efgh)`` over the margins, its numerator
    ``max(ad - bc - n/2, 0)`` when ``ad > bc``, and 0 when a margin is 0."""
    with np.errstate(invalid="ignore", divide="ignore"):
        n = a + b + c + d
        p1, p2 = (a + b) / n, (a + c) / n
        l1, u1 = _wilson(a + b, n, z)
        l2, u2 = _wilson(a + c, n, z)
        margins = (a + b) * (c + d) * (a + c) * (b + d)
        cross = a * d - b * c
        numerator = np.where(cross > n / 2, cross - n / 2, np.where(cross >= 0, 0.0, cross))
        phi = np.where(margins > 0, numerator / np.sqrt(np.where(margins > 0, margins, 1)), 0)
        below = (p1 - l1) ** 2 - 2 * phi * (p1 - l1) * (u2 - p2) + (u2 - p2) ** 2
        above = (u1 - p1) ** 2 - 2 * phi * (u1 - p1) * (p2 - l2) + (p2 - l2) ** 2
        diff = p1 - p2
        return diff - np.sqrt(np.maximum(below, 0)), diff + np.sqrt(np.maximum(above, 0))


def _tango_z(delta: np.ndarray, b: np.ndarray, c: np.ndarray, n: np.ndarray) -> np.ndarray:
    """Tango's score statistic of ``p12 - p21 = delta``: ``(b - c - n delta) / sqrt(n (2 q +
    delta (1 - delta)))``, ``q`` the restricted maximum-likelihood estimate of ``p21``, the
    root of ``2n q^2 + W q - c delta (1 - delta) = 0`` with ``W = -(b + c) + delta (2n - b +
    c)``."""
    w = -(b + c) + delta * (2 * n - b + c)
    q = (-w + np.sqrt(np.maximum(w * w + 8 * n * c * delta * (1 - delta), 0.0))) / (4 * n)
    return (b - c - n * delta) / np.sqrt(n * (2 * q + delta * (1 - delta)))


def tango_interval(
    b: np.ndarray, c: np.ndarray, n: np.ndarray, z: float
) -> tuple[np.ndarray, np.ndarray]:
    """Tango's (1998) score interval of ``(b - c) / n``: the differences ``delta`` whose
    score statistic lies within ``+-z``, each limit found by bisection on ``[-1, d]`` and
    ``[d, 1]`` (the statistic decreases in ``delta``), all pairs at once."""
    with np.errstate(invalid="ignore", divide="ignore"):
        diff = (b - c) / n
        lo, hi = np.full(diff.shape, -1.0), diff.copy()
        for _ in range(TANGO_STEPS):  # lower limit: statistic = z
            mid = (lo + hi) / 2
            inside = ~(_tango_z(mid, b, c, n) > z)
            hi, lo = np.where(inside, mid, hi), np.where(inside, lo, mid)
        low = hi
        lo, hi = diff.copy(), np.ones(diff.shape)
        for _ in range(TANGO_STEPS):  # upper limit: statistic = -z
            mid = (lo + hi) / 2
            outside = _tango_z(mid, b, c, n) < -z
            hi, lo = np.where(outside, mid, hi), np.where(outside, lo, mid)
        high = lo
    missing = ~(n > 0)
    return np.where(missing, np.nan, low), np.where(missing, np.nan, high)


# --------------------------------------------------------------------------- continuous


def _paired_t(x: np.ndarray, seen: np.ndarray, confidence: float) -> dict[str, Any]:
    """R's ``t.test(x, y, paired = TRUE)`` for every pair, over the items both scored."""
    # n: items both scored; sums[i, j]: sum of i's scores over the items j also scored
    return paired_t_sums(seen.T @ seen, x.T @ seen, x.T @ x, (x * x).T @ seen, confidence)


def paired_t_sums(
    n: np.ndarray, sums: np.ndarray, cross: np.ndarray, squares: np.ndarray, confidence: float
) -> dict[str, Any]:
    """The paired t of every pair from its sums (k x k): items both scored ``n``, ``sum x_i
    [j scored]``, ``sum x_i x_j`` and ``sum x_i^2 [j scored]``."""
    from scipy import stats

    with np.errstate(invalid="ignore", divide="ignore"):
        diff = (sums - sums.T) / n
        # sum of squared differences over common items: sum x_i^2 + sum x_j^2 - 2 sum x_i x_j
        ss = squares + squares.T - 2 * cross - n * diff * diff
        se = np.sqrt(np.maximum(ss, 0.0) / (n - 1) / n)
        statistic = diff / se
        df = n - 1
        p = 2 * stats.t.sf(np.abs(statistic), df)
        q = stats.t.isf((1 - confidence) / 2, df)
    return {
        "difference": diff,
        "low": diff - q * se,
        "high": diff + q * se,
        "se": se,
        "statistic": statistic,
        "pvalues": p,
        "n_items": np.rint(n).astype(np.int64),
        "interval": "t",
        "df": df,
    }


def cluster_standard_errors(units: np.ndarray, sizes: np.ndarray) -> tuple[np.ndarray, ...]:
    """Mean differences and their CR1 standard errors for every pair (k x k), from the
    units' sums (``G x k``) and sizes: ``se^2 = G / (G - 1) * sum_g E_g^2 / n^2`` with ``E_g``
    the pair's residual total in unit g, ``sum_g E_g^2 = M_ii + M_jj - 2 M_ij`` for ``M =
    Et.T @ Et`` and ``Et = units - sizes * mean`` (items as units: ``s^2 / n``)."""
    total = sizes.sum()
    mean = units.sum(axis=0) / total
    residual = units - sizes[:, None] * mean
    m = residual.T @ residual
    diag = np.diag(m)
    g = units.shape[0]
    ss = np.maximum(diag[:, None] + diag[None, :] - 2 * m, 0.0)
    se = np.sqrt(g / (g - 1) * ss) / total
    return mean[:, None] - mean[None, :], se


def _clustered_t(units: np.ndarray, sizes: np.ndarray, confidence: float) -> dict[str, Any]:
    """The cluster-robust paired t: CR1 standard error, ``G - 1`` degrees of freedom."""
    from scipy import stats

    diff, se = cluster_standard_errors(units, sizes)
    g, k = units.shape
    with np.errstate(invalid="ignore", divide="ignore"):
        statistic = diff / se
    df = np.full((k, k), g - 1.0)
    q = stats.t.isf((1 - confidence) / 2, g - 1)
    return {
        "difference": diff,
        "low": diff - q * se,
        "high": diff + q * se,
        "se": se,
        "statistic": statistic,
        "pvalues": 2 * stats.t.sf(np.abs(statistic), df),
        "n_items": np.full((k, k), int(sizes.sum()), dtype=np.int64),
        "interval": "clustered-t",
        "df": df,
    }


def bootstrap_counts(rng: np.random.Generator, rows: int, g: int) -> np.ndarray:
    """``rows`` replicates of multinomial counts of ``g`` units drawn with replacement
    (``rows x g`` floats)."""
    draws = rng.integers(0, g, size=(rows, g), dtype=np.int32)
    draws += (np.arange(rows, dtype=np.int32) * g)[:, None]
    return np.bincount(draws.ravel(), minlength=rows * g).reshape(rows, g).astype(float)


def resampled_means(
    units: np.ndarray, sizes: np.ndarray, n_boot: int, rng: np.random.Generator
) -> np.ndarray:
    """Bootstrap means (``n_boot x k``): multinomial counts of the units drawn with
    replacement times the units' sums, over the counts times their sizes (one matrix
    product per block of :data:`BOOT_ROWS` replicates, on one BLAS thread)."""
    from ._intervals import _one_blas_thread

    g = units.shape[0]
    out = np.empty((n_boot, units.shape[1]))
    with _one_blas_thread():
        for start in range(0, n_boot, BOOT_ROWS):
            w = bootstrap_counts(rng, min(BOOT_ROWS, n_boot - start), g)
            out[start : start + w.shape[0]] = (w @ units) / (w @ sizes)[:, None]
    return out


def _symmetric(values: np.ndarray, i: np.ndarray, j: np.ndarray, k: int) -> np.ndarray:
    out = np.full((k, k), np.nan)
    out[i, j] = out[j, i] = values
    return out


def _paired_bootstrap(
    units: np.ndarray,
    sizes: np.ndarray,
    confidence: float,
    n_boot: int,
    rng: np.random.Generator,
) -> dict[str, Any]:
    """Percentile interval and shifted-null p-value of every pair's mean difference, from
    bootstrap means; the differences of the pairs ``i < j`` made a block of pairs at a time
    (the pair ``j, i`` is their negation)."""
    k = units.shape[1]
    means = resampled_means(units, sizes, n_boot, rng)
    diff, _ = cluster_standard_errors(units, sizes)
    alpha = 1 - confidence
    first, second = np.triu_indices(k, 1)
    low, high, se, p = (np.empty(first.size) for _ in range(4))
    step = max(1, BOOT_BLOCK_ELEMENTS // n_boot)
    by_model = np.ascontiguousarray(means.T)  # a model's replicates contiguous
    for start in range(0, first.size, step):  # blocks of pairs i < j
        at = slice(start, min(first.size, start + step))
        block = by_model[first[at]] - by_model[second[at]]  # pairs x n_boot
        low[at], high[at] = np.quantile(block, [alpha / 2, 1 - alpha / 2], axis=1)
        se[at] = block.std(axis=1, ddof=1)
        d = diff[first[at], second[at]][:, None]
        beyond = np.abs(block - d) >= np.abs(d) * (1 - 1e-12)
        p[at] = (1 + beyond.sum(axis=1)) / (n_boot + 1)
    low, high = _mirrored((low, high), first, second, k)
    se = _symmetric(se, first, second, k)
    p = _symmetric(p, first, second, k)
    with np.errstate(invalid="ignore", divide="ignore"):
        statistic = np.where(se > 0, diff / se, 0.0)
    return {
        "difference": diff,
        "low": low,
        "high": high,
        "se": se,
        "statistic": statistic,
        "pvalues": np.minimum(p, 1.0),
        "n_items": np.full((k, k), int(sizes.sum()), dtype=np.int64),
        "interval": "percentile",
        "n_boot": n_boot,
    }

"""Effect sizes of pairs of algorithms over datasets, with confidence intervals.

One row per pair (or per algorithm against the control), oriented so that a positive
estimate favours ``a``. Each measure is a function of the paired differences ``d`` of one
pair (``a - b`` when higher scores are better, ``b - a`` otherwise) returning
``(estimate, low, high)``; they are registered in :data:`MEASURES`.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np

from .._errors import CdplotInputError, check_bool, check_in_list, renamed_keywords
from ._bayes import check_real
from ._hodges_lehmann import hodges_lehmann, qnorm
from ._options import check_confidence

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

    from ._results import ComparisonResult

__all__ = ["MEASURES", "effect_sizes", "shown_effects"]

#: Cohen's (1988) thresholds for |d|: "negligible" below 0.2, then small, medium, large
COHEN_THRESHOLDS = ((0.2, "negligible"), (0.5, "small"), (0.8, "medium"))
#: Vargha & Delaney's (2000) thresholds for |A - 0.5| (A = probability of superiority)
VARGHA_DELANEY_THRESHOLDS = ((0.06, "negligible"), (0.14, "small"), (0.21, "medium"))
PRACTICAL = ("practically better", "equivalent", "undecided", "practically worse")


def _mean(d: np.ndarray, confidence: float) -> tuple[float, float, float]:
    """Mean difference and the paired-t interval (R's ``t.test(a, b, paired=TRUE)``)."""
    from scipy.stats import t

    n = d.size
    estimate = float(d.mean())
    if n < 2:
        return estimate, float("nan"), float("nan")
    stderr = np.sqrt(d.var(ddof=1) / n)
    if stderr == 0:
        return estimate, estimate, estimate
    tstat = estimate / stderr
    q = float(t.ppf(1 - (1 - confidence) / 2, n - 1))
    return estimate, float((tstat - q) * stderr), float((tstat + q) * stderr)


def _hodges_lehmann(d: np.ndarray, confidence: float) -> tuple[float, float, float]:
    estimate, low, high, _ = hodges_lehmann(d, confidence)
    return estimate, low, high


def _superiority(d: np.ndarray, confidence: float) -> tuple[float, float, float]:
    """(wins + ties / 2) / N with R's ``prop.test`` interval (Wilson, continuity-corrected);
    the normal quantile is R's ``qnorm`` to the last bit (:func:`qnorm`)."""
    n = d.size
    x = float((d > 0).sum() + (d == 0).sum() / 2)
    estimate = x / n
    z = qnorm((1 + confidence) / 2)
    yates = min(0.5, abs(x - n * 0.5))
    z22n = z**2 / (2 * n)
    pc = estimate + yates / n
    high = 1.0 if pc >= 1 else _wilson_end(pc, z, z22n, n, +1.0)
    pc = estimate - yates / n
    low = 0.0 if pc <= 0 else _wilson_end(pc, z, z22n, n, -1.0)
    return estimate, max(low, 0.0), min(high, 1.0)


def _wilson_end(pc: float, z: float, z22n: float, n: int, sign: float) -> float:
    return (pc + z22n + sign * z * np.sqrt(pc * (1 - pc) / n + z22n / (2 * n))) / (1 + 2 * z22n)


#: a standard deviation of the differences at most this fraction of their size is rounding
#: noise of the scores (a few units in the last place), not spread
_ROUNDING = 64 * np.finfo(float).eps


def _cohen_d(d: np.ndarray, confidence: float) -> tuple[float, float, float]:
    """d_z = mean / sd of the differences; interval by inverting the noncentral t."""
    n = d.size
    sd = d.std(ddof=1) if n > 1 else 0.0
    # differences equal up to the rounding of the scores (0.3 - 0.1 and 0.2) have no spread:
    # their "d" would be rounding noise of order 1e16
    if sd <= _ROUNDING * float(np.max(np.abs(d), initial=0.0)):
        return float("nan"), float("nan"), float("nan")
    estimate = float(d.mean() / sd)
    t_obs = estimate * np.sqrt(n)
    alpha = 1 - confidence
    low = _noncentrality(t_obs, n - 1, 1 - alpha / 2) / np.sqrt(n)
    high = _noncentrality(t_obs, n - 1, alpha / 2) / np.sqrt(n)
    return estimate, float(low), float(high)


def _noncentrality(t_obs: float, df: int, cdf: float) -> float:
    """The noncentrality ``delta`` with ``P(T <= t_obs; df, delta) = cdf`` (decreasing in
    ``delta``), bracketed by doubling and solved by Brent's method."""
    from scipy.optimize import brentq
    from scipy.stats import nct

    def gap(delta: float) -> float:
        return float(nct.cdf(t_obs, df, delta)) - cdf

    width = 1.0 + abs(t_obs)
    lo, hi = t_obs - width, t_obs + width
    if not (np.isfinite(gap(lo)) and np.isfinite(gap(hi))):
        return float("nan")  # beyond what the noncentral t distribution computes
    while gap(lo) < 0:
        lo -= width
        width *= 2
    while gap(hi) > 0:
        hi += width
        width *= 2
    return float(brentq(gap, lo, hi, xtol=1e-12, rtol=4 * np.finfo(float).eps))


#: measure -> function of the differences and the confidence -> (estimate, low, high)
MEASURES = {
    "mean": _mean,
    "hodges-lehmann": _hodges_lehmann,
    "superiority": _superiority,
    "cohen-d": _cohen_d,
}
ALIASES = {"hl": "hodges-lehmann", "d": "cohen-d", "cohen": "cohen-d", "ps": "superiority"}
#: the value of "no difference" on each measure's scale
NULL_VALUE = {"mean": 0.0, "hodges-lehmann": 0.0, "superiority": 0.5, "cohen-d": 0.0}
#: the measures in score units (the others are unit-free: the same for scores scaled)
SCORE_UNITS = ("mean", "hodges-lehmann")
#: scores beyond this magnitude are divided by a power of two before their differences are
#: taken (their squares would overflow; see :func:`scaled_differences`)
SAFE_MAGNITUDE = 2.0**400


@renamed_keywords(res="result")
def effect_sizes(
    result: ComparisonResult,
    *,
    measure: str = "mean",
    confidence: float = 0.95,
    rope: float | None = None,
    labels: bool = False,
    resample: str = "datasets",
    runs: Any = None,
    n_boot: int = 2000,
    random_state: Any = None,
) -> pd.DataFrame:
    """Effect size of every pair of algorithms over the datasets, with a confidence interval.

    Parameters
    ----------
    result : ComparisonResult
        The result of :func:`cdplot.compare`.
    measure : {"mean", "hodges-lehmann", "superiority", "cohen-d"}, default "mean"
        ``"mean"``: mean paired difference with the paired-t interval (R's ``t.test(a, b,
        paired=TRUE)``). ``"hodges-lehmann"``: the Hodges-Lehmann estimate (median of the
        Walsh averages, or R's root for the normal approximation) with the interval of R's
        ``wilcox.test(a, b, paired=TRUE, conf.int=TRUE)``: exact below 50 non-zero
        differences without ties or zeros, else the normal approximation with tie and
        continuity corrections; zero differences dropped. ``"superiority"``: the
        probability of superiority over datasets ``(wins + ties / 2) / N`` with the
        interval of R's ``prop.test(wins + ties / 2, N)`` (Wilson score interval with
        continuity correction ``min(0.5, |x - N / 2|)``). ``"cohen-d"``: the standardised
        mean difference ``d_z = mean(d) / sd(d)`` with the interval that inverts the
        noncentral t distribution of ``d_z sqrt(N)`` (N - 1 degrees of freedom); NaN when
        all differences are equal (their standard deviation is 0).
    confidence : float, default 0.95
        Confidence level of the intervals (each interval on its own; not simultaneous).
    rope : float, optional
        Half-width of the region of practical equivalence: on the measure's scale (score
        units for "mean" and "hodges-lehmann", a distance from 0.5 for "superiority",
        standard deviations for "cohen-d"). Adds a column ``practical``: "practically
        better" (interval above the region), "practically worse" (below it),
        "equivalent" (inside it) or "undecided" (straddling an edge). Defaults to the
        ``rope`` of a Bayesian test's result for "mean" and "hodges-lehmann" (a
        frequentist result has none: no column ``practical`` unless given).
    labels : bool, default False
        Add a column ``magnitude``: Cohen's (1988) labels for "cohen-d" (``|d| < 0.2``
        negligible, < 0.5 small, < 0.8 medium, else large), Vargha & Delaney's (2000) for
        "superiority" (``|A - 0.5|`` < 0.06, < 0.14, < 0.21).
    resample : {"datasets", "runs"}, default "datasets"
        ``"datasets"``: the intervals above, over the datasets. ``"runs"`` (with ``runs=``,
        the scores of every run): "mean" is the mean over tasks of the difference of the
        task means and "superiority" the run-level probability of improvement (Agarwal et
        al. 2021), each with the percentile interval of the stratified bootstrap over the
        runs within each task (``n`` then counts tasks; see
        :func:`cdplot.aggregate_scores`).
    runs : RunScores, path, data frame or mapping, optional
        The runs, for ``resample="runs"``.
    n_boot : int, default 2000
        Bootstrap replicates of ``resample="runs"``.
    random_state : None, int or numpy.random.Generator
        Seed of ``resample="runs"``.

    Returns
    -------
    pandas.DataFrame
        One row per pair ``(a, b)`` with ``a`` the better by average rank (all pairs in
        display order), or one per algorithm ``a`` against the control ``b``. Columns
        ``a``, ``b``, ``measure``, ``estimate``, ``low``, ``high``, ``n`` (datasets with
        both results), ``confidence``, and ``practical`` / ``magnitude`` on request. A
        positive estimate (above 0.5 for "superiority") favours ``a``, whatever the
        direction of the scores.

    Raises
    ------
    CdplotInputError
        For ``result`` not a result of :func:`cdplot.compare`, an unknown ``measure``, or a
        ``confidence``, ``rope`` or ``labels`` of the wrong type or out of range (named in
        the message).

    Notes
    -----
    Scores beyond 2**400 in magnitude (near the largest float, 1.8e308, where the
    differences or their squares overflow) are divided by a power of two before their
    differences are taken: the division is exact, so each measure is computed on the same
    numbers in other units, and "mean" and "hodges-lehmann" are multiplied back (an end
    beyond the largest float is then ``inf``).

    Examples
    --------
    >>> import cdplot
    >>> res = cdplot.compare(cdplot.datasets.load("demsar2006"))
    >>> fr = cdplot.effect_sizes(res, measure="mean")  # R: t.test(a, b, paired=TRUE)$estimate
    >>> fr.loc[0, ["a", "b"]].tolist(), round(float(fr.loc[0, "estimate"]), 6)
    (['C4.5+m+cf', 'C4.5+m'], 0.006786)
    """
    import pandas as pd

    from ._results import is_comparison

    if not is_comparison(result):
        raise CdplotInputError(
            f"effect_sizes needs the result of cdplot.compare(), got {type(result).__name__}; "
            "e.g. cdplot.effect_sizes(cdplot.compare(data), measure='mean')."
        )
    measure = check_in_list(MEASURES, aliases=ALIASES, measure=measure)
    confidence = check_confidence(confidence)
    labels = check_bool(labels, "labels")
    if labels and measure not in ("cohen-d", "superiority"):
        raise CdplotInputError(
            f"magnitude labels exist for measure='cohen-d' and 'superiority', not "
            f"{measure!r}; pass labels=False or one of those measures."
        )
    if rope is None and measure in ("mean", "hodges-lehmann"):
        rope = getattr(result._pairwise, "rope", None)  # a Bayesian test's posterior part
    rope = _check_rope(rope)
    resample = check_in_list(("datasets", "runs"), resample=resample)
    if resample == "runs":
        from ._run_effects import run_effect_rows

        rows = run_effect_rows(
            result, runs, _pairs(result), measure, confidence, n_boot, random_state
        )
    else:
        rows = [_row(result, a, b, measure, confidence) for a, b in _pairs(result)]
    frame = pd.DataFrame(
        rows, columns=["a", "b", "measure", "estimate", "low", "high", "n", "confidence"]
    )
    if rope is not None:
        centre = NULL_VALUE[measure]
        frame["practical"] = [
            practical_label(lo - centre, hi - centre, rope)
            for lo, hi in zip(frame["low"], frame["high"], strict=True)
        ]
    if labels:
        frame["magnitude"] = [magnitude_label(measure, e) for e in frame["estimate"]]
    return frame


#: the columns every frame of :func:`effect_sizes` has
EFFECT_COLUMNS = ("a", "b", "measure", "estimate", "low", "high", "n", "confidence")


def shown_effects(result: Any, effects: Any) -> pd.DataFrame | None:
    """``effects`` checked as the effect sizes of ``result`` that a report shows.

    None (nothing to show) passes; else a frame of :func:`effect_sizes` whose pairs are
    algorithms of ``result``.

    Raises
    ------
    CdplotInputError
        For anything else, naming what was given and how to make the frame.
    """
    if effects is None:
        return None
    columns = getattr(effects, "columns", None)
    if columns is None or not set(EFFECT_COLUMNS) <= {str(c) for c in columns}:
        raise CdplotInputError(
            f"effects= takes the frame of cdplot.effect_sizes(result), got "
            f"{type(effects).__name__} without its columns {', '.join(EFFECT_COLUMNS)}; "
            "e.g. effects=cdplot.effect_sizes(result, measure='mean')."
        )
    names = {str(a) for a in result.algorithms}
    if not {str(x) for x in (*effects["a"], *effects["b"])} <= names:
        raise CdplotInputError(
            "effects= holds effect sizes of other algorithms than the result's; compute "
            "them from this result: effects=cdplot.effect_sizes(result)."
        )
    return effects


def _check_rope(rope: Any) -> float | None:
    if rope is None:
        return None
    meaning = "a non-negative number (half-width of the region of practical equivalence)"
    value = check_real(rope, "rope", meaning)
    if not (np.isfinite(value) and value >= 0):
        raise CdplotInputError(
            f"rope must be a non-negative number (half-width of the region of practical "
            f"equivalence), got {rope!r}; e.g. rope=0.01, or rope=None."
        )
    return value


def _pairs(res: ComparisonResult) -> list[tuple[str, str]]:
    order = [str(a) for a in res.average_ranks.index]
    if res.control is not None:
        return [(a, res.control) for a in order if a != res.control]
    return [(a, b) for i, a in enumerate(order) for b in order[i + 1 :]]


def oriented_differences(res: ComparisonResult, a: str, b: str) -> np.ndarray:
    """Paired differences favouring ``a`` on the datasets where both have a result."""
    x = np.asarray(res.scores[a].to_numpy(), dtype=float)
    y = np.asarray(res.scores[b].to_numpy(), dtype=float)
    both = ~(np.isnan(x) | np.isnan(y))
    d = x[both] - y[both]
    return d if res.higher_is_better else -d


def scaled_differences(res: ComparisonResult, a: str, b: str) -> tuple[np.ndarray, float]:
    """The paired differences favouring ``a`` in units of ``scale`` (a power of two), and
    ``scale``: 1 (the differences themselves) unless a score exceeds :data:`SAFE_MAGNITUDE`.

    Scores near the largest float (1e308) have differences and squares that overflow;
    divided first by a power of two they do not, and the division is exact, so every
    measure is computed on exactly the same numbers, in other units.
    """
    x = np.asarray(res.scores[a].to_numpy(), dtype=float)
    y = np.asarray(res.scores[b].to_numpy(), dtype=float)
    both = ~(np.isnan(x) | np.isnan(y))
    x, y = x[both], y[both]
    largest = float(max(np.abs(x).max(initial=0.0), np.abs(y).max(initial=0.0)))
    scale = 1.0
    if largest > SAFE_MAGNITUDE:
        scale = math.ldexp(1.0, math.frexp(largest)[1] - math.frexp(SAFE_MAGNITUDE)[1])
        x, y = x / scale, y / scale
    d = x - y
    return (d if res.higher_is_better else -d), scale


def _row(res: ComparisonResult, a: str, b: str, measure: str, confidence: float) -> tuple[Any, ...]:
    d, scale = scaled_differences(res, a, b)
    if d.size == 0:
        estimate = low = high = float("nan")
    else:
        estimate, low, high = MEASURES[measure](d, confidence)
        if scale != 1.0 and measure in SCORE_UNITS:  # back to score units (inf if beyond)
            with np.errstate(over="ignore"):
                estimate, low, high = (float(np.float64(v) * scale) for v in (estimate, low, high))
    return (a, b, measure, estimate, low, high, int(d.size), confidence)


def practical_label(low: float, high: float, rope: float) -> str:
    """Where the interval ``[low, high]`` (centred on "no difference") lies against
    ``[-rope, rope]``: above, below, inside or straddling."""
    if not (np.isfinite(low) and np.isfinite(high)):
        return "undecided"
    if low > rope:
        return "practically better"
    if high < -rope:
        return "practically worse"
    if -rope <= low and high <= rope:
        return "equivalent"
    return "undecided"


def magnitude_label(measure: str, estimate: float) -> str:
    """Cohen's (d) or Vargha & Delaney's (superiority) word for the size of an effect."""
    if not np.isfinite(estimate):
        return ""
    if measure == "cohen-d":
        size, thresholds = abs(estimate), COHEN_THRESHOLDS
    else:
        size, thresholds = abs(estimate - 0.5), VARGHA_DELANEY_THRESHOLDS
    for bound, word in thresholds:
        if size < bound:
            return word
    return "large"

"""Each model's mean score on one benchmark (models scored on the same items), with its interval.

:func:`model_statistics` reads :class:`cdplot.io.BenchmarkItems` and works from column sums:
no Python loop over models or items.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._errors import CdplotInputError, check_in_list
from ..io._benchmark import BenchmarkItems
from ._options import check_confidence
from ._values import ValueEquality

__all__ = ["MODEL_INTERVALS", "ModelStatistics", "model_statistics", "observed"]

#: values of ``model_statistics(interval=...)``
MODEL_INTERVALS = ("wilson", "t")


@dataclass(frozen=True, eq=False)
class ModelStatistics(ValueEquality):
    """Each model's mean score with its interval (arrays in the models' input order).

    Attributes
    ----------
    mean, low, high, se : numpy.ndarray
        Mean score over the items the model scored, the interval's bounds and the standard
        error of the mean.
    n_items : numpy.ndarray
        Items each model scored (int64).
    interval : str
        How the interval was made (one of :data:`MODEL_INTERVALS`).
    confidence : float
        The interval's confidence level.
    design_effect : numpy.ndarray or None
        With clusters: the variance of the mean over its variance were the items
        independent.
    within_variance, between_variance : numpy.ndarray or None
        With samples: the variance of a model's samples within an item, and of its item
        means between items (variance components).
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


def observed(items: BenchmarkItems) -> tuple[np.ndarray, np.ndarray]:
    """The scores with NaN as 0, and the 0/1 indicator of a score."""
    seen = ~np.isnan(items.scores)
    return np.where(seen, items.scores, 0.0), seen.astype(float)


def model_statistics(
    items: BenchmarkItems, *, confidence: float = 0.95, interval: str | None = None
) -> ModelStatistics:
    """Each model's mean score with a confidence interval.

    Parameters
    ----------
    items : BenchmarkItems
        The benchmark's item scores.
    confidence : float, default 0.95
        The interval's confidence level.
    interval : {"wilson", "t"}, optional
        "wilson": Wilson's score interval for a proportion (binary scores only; R's
        ``prop.test(x, n, correct = FALSE)``); "t": the mean plus or minus a t quantile
        (``n - 1`` df) times its standard error (R's ``t.test``). Default: "wilson" for
        binary scores, else "t".

    Returns
    -------
    ModelStatistics
    """
    from scipy import stats

    confidence = check_confidence(confidence)
    interval = check_in_list(
        MODEL_INTERVALS, interval=interval or ("wilson" if items.binary else "t")
    )
    if interval == "wilson" and not items.binary:
        raise CdplotInputError(
            "interval='wilson' is for binary (0/1) scores; these are not binary: use interval='t'."
        )
    x, seen = observed(items)
    n = seen.sum(axis=0)
    if (n < 2).any():
        raise CdplotInputError("every model needs scores on at least two items.")
    mean = x.sum(axis=0) / n
    centred = np.where(seen > 0, x - mean, 0.0)
    sd = np.sqrt((centred**2).sum(axis=0) / (n - 1))
    se = sd / np.sqrt(n)
    if interval == "wilson":
        z = float(stats.norm.isf((1 - confidence) / 2))
        centre = (mean + z * z / (2 * n)) / (1 + z * z / n)
        half = z / (1 + z * z / n) * np.sqrt(mean * (1 - mean) / n + z * z / (4 * n * n))
        low, high = centre - half, centre + half
    else:
        q = stats.t.isf((1 - confidence) / 2, n - 1)
        low, high = mean - q * se, mean + q * se
    return ModelStatistics(
        mean, low, high, se, n.astype(np.int64), interval, confidence, None, None, None
    )

"""Rank intervals, P(best) and mean intervals from hashed bootstrap replicates of an engine.

:func:`cdplot.io.engine_bootstrap` returns each replicate's weighted task sums; here each
replicate's task means are ranked within every task (1 = best, ties averaged), the ranks
averaged over the tasks with the replicate's task weights (the hierarchical bootstrap's
second hashed weight; ones otherwise), and the models ranked by that average: the
percentile interval of each model's rank position over the replicates and the share of
replicates it comes first (P(best)). For one task this ranks the mean scores.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from .._errors import CdplotInputError
from ..io._engine_boot import BootstrapReplicates
from ..io._engine_stats import EngineStatistics
from ._options import check_confidence

__all__ = ["EngineRankIntervals", "engine_mean_intervals", "engine_rank_intervals"]


def _task_ranks(means: np.ndarray, higher_is_better: bool) -> np.ndarray:
    """Ranks within each task (last axis: models; 1 = best, ties averaged, NaN last)."""
    from scipy.stats import rankdata

    signed = -means if higher_is_better else means
    signed = np.where(np.isnan(signed), np.inf, signed)
    return rankdata(signed, axis=-1)


def _positions(average: np.ndarray) -> np.ndarray:
    """Rank positions of the models by average rank (1 = best; ties share the lower)."""
    from scipy.stats import rankdata

    return rankdata(average, axis=-1, method="min")


@dataclasses.dataclass(frozen=True, eq=False)
class EngineRankIntervals:
    """Each model's rank position with its bootstrap interval, and P(best).

    Attributes
    ----------
    models : tuple of str
    rank : numpy.ndarray
        The observed rank position (1 = best) by the average rank over tasks.
    average_rank : numpy.ndarray
        The observed average rank over tasks.
    low, high : numpy.ndarray
        The percentile interval of the rank position over the replicates.
    p_best : numpy.ndarray
        Share of replicates in which the model comes first (ties share the first place).
    confidence : float
    n_boot : int
    level : str
        What was resampled (of :class:`cdplot.io.BootstrapReplicates`).
    """

    models: tuple[str, ...]
    rank: np.ndarray
    average_rank: np.ndarray
    low: np.ndarray
    high: np.ndarray
    p_best: np.ndarray
    confidence: float
    n_boot: int
    level: str

    def to_frame(self) -> Any:
        """One row per model, best first."""
        import pandas as pd

        frame = pd.DataFrame(
            {
                "rank": self.rank,
                "average_rank": self.average_rank,
                "low": self.low,
                "high": self.high,
                "p_best": self.p_best,
            },
            index=pd.Index(self.models, name="model"),
        )
        return frame.sort_values(["rank", "average_rank"], kind="stable")


def _check_same(stats: EngineStatistics, boot: BootstrapReplicates) -> None:
    if stats.models != boot.models or stats.tasks != boot.tasks:
        raise CdplotInputError(
            "the replicates were made from other statistics (other models or tasks); pass "
            "the EngineStatistics given to engine_bootstrap."
        )


def engine_rank_intervals(
    stats: EngineStatistics,
    boot: BootstrapReplicates,
    *,
    confidence: float = 0.95,
    higher_is_better: bool = True,
) -> EngineRankIntervals:
    """Rank intervals and P(best) from hashed bootstrap replicates.

    Parameters
    ----------
    stats : EngineStatistics
        The observed statistics (:func:`cdplot.io.engine_statistics`).
    boot : BootstrapReplicates
        Their replicates (:func:`cdplot.io.engine_bootstrap`).
    confidence : float, default 0.95
        Level of the (marginal, percentile) interval of each model's rank position.
    higher_is_better : bool, default True
        Whether a higher score ranks first.

    Returns
    -------
    EngineRankIntervals

    Raises
    ------
    CdplotInputError
        Replicates of other statistics, or a bad confidence.

    Examples
    --------
    >>> import polars as pl
    >>> from cdplot.io import engine_bootstrap, engine_statistics
    >>> rows = pl.LazyFrame({"task": ["t"] * 200, "model": ["A", "B"] * 100,
    ...     "item": [i // 2 for i in range(200)], "score": [1.0, 0.0] * 70 + [1.0] * 60})
    >>> stats = engine_statistics(rows)
    >>> ri = engine_rank_intervals(stats, engine_bootstrap(stats, n_boot=50, level="item"))
    >>> ri.rank.tolist(), ri.p_best.tolist()
    ([1, 2], [1.0, 0.0])
    """
    confidence = check_confidence(confidence)
    _check_same(stats, boot)
    observed = _task_ranks(stats.means, higher_is_better).mean(axis=0)
    ranks = _task_ranks(boot.means, higher_is_better)  # B x T x k
    w = boot.task_weights[:, :, None]
    with np.errstate(invalid="ignore", divide="ignore"):
        average = (ranks * w).sum(axis=1) / w.sum(axis=1)  # B x k
    average = np.where(np.isnan(average), observed, average)  # every task weight 0
    positions = _positions(average)
    alpha = 1 - confidence
    low, high = np.quantile(positions, [alpha / 2, 1 - alpha / 2], axis=0, method="inverted_cdf")
    return EngineRankIntervals(
        models=stats.models,
        rank=_positions(observed),
        average_rank=observed,
        low=low,
        high=high,
        p_best=(positions == 1).mean(axis=0),
        confidence=confidence,
        n_boot=boot.n_boot,
        level=boot.level,
    )


def engine_mean_intervals(
    boot: BootstrapReplicates, *, confidence: float = 0.95
) -> tuple[np.ndarray, np.ndarray]:
    """Percentile intervals of each task's model means (``T x k`` low and high).

    Parameters
    ----------
    boot : BootstrapReplicates
        Replicates of :func:`cdplot.io.engine_bootstrap` at item or cluster level.
    confidence : float, default 0.95

    Returns
    -------
    tuple of numpy.ndarray

    Examples
    --------
    >>> import polars as pl
    >>> from cdplot.io import engine_bootstrap, engine_statistics
    >>> rows = pl.LazyFrame({"task": ["t"] * 200, "model": ["A", "B"] * 100,
    ...     "item": [i // 2 for i in range(200)], "score": [1.0, 0.0] * 70 + [1.0] * 60})
    >>> boot = engine_bootstrap(engine_statistics(rows), n_boot=50, level="item")
    >>> low, high = engine_mean_intervals(boot)
    >>> float(low[0, 0]), float(high[0, 0]), bool(low[0, 1] < 0.3 < high[0, 1])
    (1.0, 1.0, True)
    """
    confidence = check_confidence(confidence)
    alpha = 1 - confidence
    low, high = np.nanquantile(boot.means, [alpha / 2, 1 - alpha / 2], axis=0)
    return low, high

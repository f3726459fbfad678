"""Tidy tables built from a ComparisonResult (no statistics computed here)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

if TYPE_CHECKING:  # pragma: no cover
    from ._results import ComparisonResult

__all__ = ["pairwise_frame"]

COLUMNS = [
    "algorithm_1",
    "algorithm_2",
    "statistic",
    "pvalue",
    "adjusted_pvalue",
    "significant",
    "wins",
    "ties",
    "losses",
]


def pairwise_frame(result: ComparisonResult) -> pd.DataFrame:
    """One row per tested pair, better-ranked algorithm first, sorted by raw p-value."""
    position = {name: i for i, name in enumerate(result.average_ranks.index)}
    wtl = result.wins
    if result.control is None:
        names = result.algorithms
        pairs = [(a, b) for i, a in enumerate(names) for b in names[i + 1 :]]
    else:
        pairs = [(result.control, other) for other in result.adjusted_pvalues.index]
    rows = []
    for a, b in pairs:
        first, second = (a, b) if position[a] <= position[b] else (b, a)
        if result.control is None:
            apv = result.adjusted_pvalues.loc[first, second]
            sig = result.significant.loc[first, second]
        else:
            other = b
            apv = result.adjusted_pvalues[other]
            sig = result.significant[other]
        rows.append(
            (
                first,
                second,
                result.statistics.loc[first, second],
                result.pvalues.loc[first, second],
                apv,
                bool(sig),
                int(wtl.wins.loc[first, second]),
                int(wtl.ties.loc[first, second]),
                int(wtl.losses.loc[first, second]),
            )
        )
    frame = pd.DataFrame(rows, columns=COLUMNS)
    order = np.lexsort((frame["adjusted_pvalue"].to_numpy(), frame["pvalue"].to_numpy()))
    return frame.iloc[order].reset_index(drop=True)

"""One benchmark's item-level scores: many models on the same items, with clusters and samples.

:class:`BenchmarkItems` is what the readers of a single benchmark hand to the statistics: one
items x models matrix of item scores (the mean over an item's samples when a model was
sampled several times on it), the cluster of each item (a passage, a repository, a scenario)
and, with samples, how many samples each cell has and their variance.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .._errors import CdplotInputError

__all__ = ["BenchmarkItems"]


@dataclass(frozen=True, eq=False)
class BenchmarkItems:
    """The item-level scores of one benchmark.

    Attributes
    ----------
    models : tuple of str
        Model names, in input order (the columns of ``scores``).
    items : tuple of str
        Item ids, in input order (the rows of ``scores``).
    scores : numpy.ndarray
        ``n_items x k`` float array: each model's score on each item (the mean over the
        item's samples), NaN where a model has no score on the item. Read-only.
    binary : bool
        Every raw score (every sample) is 0 or 1.
    clusters : numpy.ndarray or None
        ``n_items`` int64 codes ``0 .. G - 1`` of each item's cluster; None without clusters.
    cluster_ids : tuple of str
        The ``G`` cluster names (code order); empty without clusters.
    n_samples : numpy.ndarray or None
        ``n_items x k`` int64: the number of samples of each cell (0 where not scored);
        None when every cell has one sample (no sample column).
    sample_var : numpy.ndarray or None
        ``n_items x k`` float: the variance of each cell's samples (``ddof=1``; NaN with
        fewer than two); None without samples.
    task : str or None
        The benchmark's name (the one task of the table), if the table names it.
    item_column, cluster_column, sample_column : str or None
        The columns read as items, clusters and samples.
    note : str or None
        How the input was read (a reader's note), for the summary.
    """

    models: tuple[str, ...]
    items: tuple[str, ...]
    scores: np.ndarray
    binary: bool
    clusters: np.ndarray | None = None
    cluster_ids: tuple[str, ...] = ()
    n_samples: np.ndarray | None = None
    sample_var: np.ndarray | None = None
    task: str | None = None
    item_column: str = "item"
    cluster_column: str | None = None
    sample_column: str | None = None
    note: str | None = None

    def __post_init__(self) -> None:
        n, k = len(self.items), len(self.models)
        if self.scores.shape != (n, k):
            raise CdplotInputError(
                f"item scores of shape {self.scores.shape} for {n} items and {k} models."
            )
        if self.clusters is not None and self.clusters.shape != (n,):
            raise CdplotInputError(f"{self.clusters.shape[0]} cluster codes for {n} items.")

    @property
    def n_items(self) -> int:
        """Number of items (rows)."""
        return len(self.items)

    @property
    def n_clusters(self) -> int | None:
        """Number of clusters, or None without clusters."""
        return None if self.clusters is None else len(self.cluster_ids)

    def frame(self) -> Any:
        """The items x models scores as a pandas DataFrame."""
        import pandas as pd

        return pd.DataFrame(
            self.scores,
            index=pd.Index(list(self.items), name=self.item_column),
            columns=pd.Index(list(self.models), name="model"),
        )

    def __repr__(self) -> str:
        parts = [f"{self.n_items} items x {len(self.models)} models"]
        if self.clusters is not None:
            parts.append(f"{self.n_clusters} clusters")
        if self.n_samples is not None:
            parts.append(f"{int(self.n_samples.max(initial=0))} samples per item at most")
        kind = "binary" if self.binary else "continuous"
        return f"BenchmarkItems({', '.join(parts)}; {kind} scores)"

"""Sentences about diagnostics that stats computes as facts (the pool-sensitivity frame)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..stats._pool import depending_pairs

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

__all__ = ["pool_sensitivity_note"]


def pool_sensitivity_note(frame: pd.DataFrame) -> str:
    """One plain-language sentence on a :func:`pool_sensitivity` frame, for summaries.

    Parameters
    ----------
    frame : pandas.DataFrame
        The frame returned by :func:`pool_sensitivity`.

    Returns
    -------
    str
        Which pairs' decisions change with the pool, with their significant/pools
        counts per pool size; or that none does.

    Examples
    --------
    >>> import cdplot
    >>> frame = cdplot.pool_sensitivity(cdplot.datasets.load("benavoli2016"), others=[2, 3, 4])
    >>> print(pool_sensitivity_note(frame)[:94])
    Pool sensitivity (Benavoli et al. 2016): the mean-ranks decisions on 4 of 21 pairs change with
    """
    pairs = depending_pairs(frame)
    n_pairs = len(frame[["a", "b"]].drop_duplicates())
    sizes = sorted(frame["pool_size"].unique())
    span = f"{sizes[0]}" if len(sizes) == 1 else f"{sizes[0]} to {sizes[-1]}"
    sampled = " (pools sampled)" if bool(frame["sampled"].any()) else ""
    if not pairs:
        return (
            "Pool sensitivity (Benavoli et al. 2016): no mean-ranks decision changes with the "
            f"other algorithms in pools of {span} algorithms{sampled}."
        )
    parts = []
    for a, b in pairs:
        rows = frame[(frame["a"] == a) & (frame["b"] == b)].sort_values("pool_size")
        counts = ", ".join(
            f"{s}/{p}" for s, p in zip(rows["significant"], rows["pools"], strict=True)
        )
        parts.append(f"{a} vs {b} ({counts})")
    return (
        f"Pool sensitivity (Benavoli et al. 2016): the mean-ranks decisions on {len(pairs)} of "
        f"{n_pairs} pairs change with the other algorithms in the pool (significant in how many "
        f"pools of {span} algorithms{sampled}): {'; '.join(parts)}. The other decisions are the "
        "same in every pool."
    )

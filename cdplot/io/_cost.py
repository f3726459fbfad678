"""A cost column (run time, tokens, price) of a long table, per dataset and algorithm.

The cost column is recognised by name (:data:`cdplot.io._roles.COST_NAMES`: ``cost``,
``price``, ``tokens``, ``runtime``, ...) or named with ``cost=`` (``--cost-col`` on the
command line); lower is better. Several cost-named columns, none, a negative, missing or
infinite cost are refused with what to pass. Repeated runs of one algorithm on one dataset
cost their mean.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, cast

import numpy as np

from .._errors import CdplotInputError, spell, suggest
from ._columns import ColumnTable
from ._parse import _as_table, _names, _roles
from ._roles import COST_NAMES, is_cost_name
from ._values import to_scores

__all__ = ["CostTable", "check_costs", "read_costs"]


@dataclass(frozen=True)
class CostTable:
    """The costs of a long table and the table without its cost column.

    Attributes
    ----------
    column : str
        The cost column.
    costs : numpy.ndarray
        ``N x k`` mean cost of each algorithm on each dataset (NaN where it has no row).
    datasets, algorithms : list of str
        Row and column names of ``costs``, in order of first appearance.
    scores : ColumnTable
        The table without the cost column, for :func:`cdplot.compare`.
    """

    column: str
    costs: np.ndarray
    datasets: list[str]
    algorithms: list[str]
    scores: ColumnTable


def _listing(columns: list[Any]) -> str:
    return ", ".join(repr(str(c)) for c in columns)


def cost_column(columns: list[str], cost: Any = None) -> str:
    """The cost column: ``cost`` when given, else the one column named like a cost.

    Raises
    ------
    CdplotInputError
        For a ``cost`` that is not a column, several cost-named columns or none.
    """
    if cost is not None:
        if not isinstance(cost, str):
            raise CdplotInputError(
                f"{spell('cost')}= names the cost column of a long table, got "
                f"{type(cost).__name__}; its columns are {_listing(columns)}."
            )
        if cost not in columns:
            raise CdplotInputError(
                f"cost column {cost!r} is not in the table; its columns are "
                f"{_listing(columns)}." + suggest(cost, columns)
            )
        return cost
    named = [c for c in columns if is_cost_name(c)]
    if len(named) > 1:
        raise CdplotInputError(
            f"several columns could hold the costs: {_listing(named)}; say which one, e.g. "
            f"{spell('cost', named[0])}."
        )
    if not named:
        raise CdplotInputError(
            f"no cost column among {_listing(columns)}; name it with "
            f"{spell('cost', 'COLUMN')} (a column is recognised when it is called e.g. "
            f"{', '.join(COST_NAMES[:4])} or runtime)."
        )
    return named[0]


def _item_column(columns: list[str]) -> str | None:
    """The item column of a table of one benchmark's items (no column named like a
    dataset or task, one named like an item), else None."""
    from ._items import ITEM_NAMES
    from ._roles import DATASET_NAMES, column_key

    keys = [column_key(c) for c in columns]
    if any(k in {column_key(n) for n in DATASET_NAMES} for k in keys):
        return None
    items = [
        c for c, k in zip(columns, keys, strict=True) if k in {column_key(n) for n in ITEM_NAMES}
    ]
    return items[0] if len(items) == 1 else None


def check_costs(costs: np.ndarray, where: Any) -> np.ndarray:
    """Costs as float64, refusing a missing, infinite or negative one (``where(i)`` names
    the ``i``-th cell of the flattened array)."""
    costs = np.asarray(costs, dtype=float)
    flat = costs.reshape(-1)
    for bad, what in (
        (np.isnan(flat), "missing"),
        (np.isinf(flat), "infinite"),
        (flat < 0, "negative"),
    ):
        if bad.any():
            pos = int(np.flatnonzero(bad)[0])
            shown = "" if what == "missing" else f" ({flat[pos]:g})"
            raise CdplotInputError(
                f"{what} cost{shown} for {where(pos)}; a cost (run time, tokens, price) "
                f"must be a finite number >= 0 for every algorithm on every dataset."
            )
    return costs


def read_costs(
    data: Any,
    *,
    cost: str | None = None,
    dataset: str | None = None,
    algorithm: str | None = None,
    score: str | None = None,
) -> CostTable:
    """Read the cost column of a long table (one row per dataset, algorithm and run).

    Parameters
    ----------
    data : DataFrame, str, os.PathLike or file object
        A long table, or the path of a CSV file holding one.
    cost : str, optional
        The cost column; by default the one column named like a cost.
    dataset, algorithm : str, optional
        As for :func:`cdplot.compare`.
    score : str, optional
        Unused (the scores are :func:`cdplot.compare`'s); accepted with the others.

    Returns
    -------
    CostTable

    Raises
    ------
    CdplotInputError
        For a table that is not long, an ambiguous or missing cost column, and a negative,
        missing or infinite cost.

    Notes
    -----
    The costs are per dataset (task) and algorithm; in a table of one benchmark's items
    (an item column, no dataset or task column) per item and model.

    Examples
    --------
    >>> import io
    >>> csv = "dataset,model,acc,tokens\\nd1,A,0.9,10\\nd1,B,0.8,3\\nd2,A,0.7,12\\nd2,B,0.6,4\\n"
    >>> table = read_costs(io.StringIO(csv))
    >>> table.column, table.algorithms, table.costs.tolist()
    ('tokens', ['A', 'B'], [[10.0, 3.0], [12.0, 4.0]])
    """
    table = _as_table(data)
    if table is None:
        raise CdplotInputError(
            "a cost column needs a table (a long table: one row per dataset and algorithm); "
            f"for an array of scores pass {spell('cost')}= a mapping {{algorithm: cost}} or "
            "an array of costs shaped like the scores."
        )
    column = cost_column(table.columns, cost)
    rest = ColumnTable(
        {c: table[c] for c in table.columns if c != column},
        table.nrows,
        labels=table.labels,
        index_names_datasets=table.index_names_datasets,
        attrs=table.attrs,
        cells=cast(Callable[[str], list[str]], table.text)
        if table.text(column) is not None
        else None,
    )
    if dataset is None:  # one benchmark's items: a cost per item and model
        dataset = _item_column(table.columns)
    # the cost column in the place of the score: finds the dataset and algorithm columns
    # whatever the other numeric columns (scores, clusters) are
    roles = _roles(table, dataset, algorithm, column)
    if roles.kind != "long":
        raise CdplotInputError(
            f"a cost column ({column!r}) needs a long table (one row per dataset, algorithm "
            f"and run, with an algorithm column); for a wide table pass {spell('cost')}= a "
            "mapping {algorithm: cost} or a table of costs shaped like the scores."
        )
    d_rows = _names(table, roles.dataset, "dataset")
    a_rows = _names(table, roles.algorithm, "algorithm")
    values = to_scores(
        table[column],
        column,
        lambda pos: f"algorithm {a_rows[pos]!r} on dataset {d_rows[pos]!r}",
        decimal=table.attrs.get("cdplot_decimal"),
    )
    check_costs(values, lambda pos: f"algorithm {a_rows[pos]!r} on dataset {d_rows[pos]!r}")
    datasets = list(dict.fromkeys(d_rows))
    algorithms = list(dict.fromkeys(a_rows))
    d_at = {d: i for i, d in enumerate(datasets)}
    a_at = {a: j for j, a in enumerate(algorithms)}
    cell = np.array(
        [d_at[d] * len(algorithms) + a_at[a] for d, a in zip(d_rows, a_rows, strict=True)],
        dtype=np.int64,
    )
    size = len(datasets) * len(algorithms)
    counts = np.bincount(cell, minlength=size)
    sums = np.bincount(cell, weights=values, minlength=size)
    with np.errstate(invalid="ignore", divide="ignore"):
        costs = np.where(counts > 0, sums / np.maximum(counts, 1), np.nan)
    return CostTable(
        column, costs.reshape(len(datasets), len(algorithms)), datasets, algorithms, rest
    )

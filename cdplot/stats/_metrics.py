"""compare_metrics(): one comparison per score column of one table."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .._errors import CdplotInputError, check_in_list
from ..io import table_roles
from ._compare import compare
from ._results import Comparison

__all__ = ["compare_metrics"]

DIRECTIONS = ("higher", "lower")


def compare_metrics(
    data: Any,
    metrics: Mapping[str, str],
    *,
    dataset: str | None = None,
    algorithm: str | None = None,
    **options: Any,
) -> dict[str, Comparison]:
    """Compare the algorithms on several metrics of one table, one comparison per metric.

    A long table with several score columns (``accuracy, f1, fit_time``) is read once
    and :func:`cdplot.compare` runs on each metric named in ``metrics`` with its own
    direction; every other option is the same for all metrics. The result is ready for
    :func:`cdplot.cd_diagrams`, which draws one aligned diagram per metric.

    Parameters
    ----------
    data : DataFrame, str, os.PathLike or file object
        A long table (one row per dataset, algorithm and run) with one column per
        metric, in any form :func:`cdplot.compare` accepts.
    metrics : mapping of str to {"higher", "lower"}
        Score column -> whether higher or lower values are better, in the order the
        results should come out, e.g. ``{"accuracy": "higher", "fit_time": "lower"}``.
    dataset, algorithm : str, optional
        Column names, when they are not recognised by name.
    **options
        Any other option of :func:`cdplot.compare` (``test``, ``correction``,
        ``aggregate``, ``missing``, ...); ``score`` and ``higher_is_better`` are set
        per metric and refused here.

    Returns
    -------
    dict of str to Comparison
        Metric -> its comparison (a :class:`~cdplot.ComparisonResult`, or with a Bayesian
        test a :class:`~cdplot.BayesianComparisonResult`), in the order of ``metrics``.

    Raises
    ------
    CdplotInputError
        If a metric is not a column, a direction is not "higher" or "lower", the table
        is not a long table, or any comparison refuses its input.

    Notes
    -----
    With ``missing="drop"`` each metric drops its own incomplete datasets, so the
    comparisons may rest on different datasets; each result's ``dropped_datasets``
    says which.

    Examples
    --------
    >>> import cdplot, pandas as pd
    >>> runs = pd.DataFrame({
    ...     "dataset": [f"d{i}" for i in range(6) for _ in range(3)],
    ...     "model": ["A", "B", "C"] * 6,
    ...     "accuracy": [0.9, 0.8, 0.7, 0.8, 0.7, 0.6, 0.7, 0.6, 0.65, 0.95, 0.9, 0.8,
    ...                  0.6, 0.5, 0.55, 0.99, 0.9, 0.8],
    ...     "fit_time": [3.0, 2.0, 1.0] * 6,
    ... })
    >>> res = cdplot.compare_metrics(runs, {"accuracy": "higher", "fit_time": "lower"})
    >>> [r.average_ranks.index[0] for r in res.values()]
    ['A', 'C']
    """
    for forbidden in ("score", "higher_is_better"):
        if forbidden in options:
            raise CdplotInputError(
                f"{forbidden}= is set per metric by compare_metrics(); give each metric's "
                f"direction in metrics= instead, e.g. metrics={{'fit_time': 'lower'}}."
            )
    if not isinstance(metrics, Mapping) or not metrics:
        raise CdplotInputError(
            f"metrics must be a non-empty mapping of score column -> 'higher' or 'lower', got "
            f"{type(metrics).__name__}; e.g. metrics={{'accuracy': 'higher', 'fit_time': "
            f"'lower'}}."
        )
    directions = {}
    for name, direction in metrics.items():
        if not isinstance(name, str):
            raise CdplotInputError(f"metric names must be strings (column names), got {name!r}.")
        option: dict[str, Any] = {f"metrics[{name!r}]": direction}  # named in the message
        directions[name] = check_in_list(DIRECTIONS, **option)
    prepared, roles = table_roles(
        data, dataset=dataset, algorithm=algorithm, score=list(directions)
    )  # a file or standard input is read once
    if prepared is None:
        raise CdplotInputError(
            f"compare_metrics() needs a table with one column per metric (a DataFrame or a "
            f"CSV file), got a {type(data).__name__}."
        )
    return {
        name: compare(
            prepared,
            dataset=roles.dataset,
            algorithm=roles.algorithm,
            score=name,
            higher_is_better=direction == "higher",
            **options,
        )
        for name, direction in directions.items()
    }

"""Scores of every run kept apart: tasks x algorithms x runs, for the run-level analyses.

:func:`read_run_scores` reads a long table (one row per task, algorithm and run; the run
column is any repetition column :mod:`cdplot.io._roles` recognises: ``run``, ``seed``,
``fold``, ...), a wide table with a run column (one row per task and run, one column per
algorithm), or rliable's layout (a mapping of algorithm -> array of shape ``(runs,
tasks)``). Nothing is averaged: :class:`RunScores` holds every run, with NaN where an
algorithm has fewer runs on a task than the most it has anywhere.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .._errors import CdplotInputError, spell

__all__ = ["RunScores", "normalise_runs", "read_run_scores"]


@dataclass(frozen=True, eq=False)
class RunScores:
    """Scores of every run of every algorithm on every task.

    Attributes
    ----------
    tasks : tuple of str
        Task (dataset, problem, game) names.
    algorithms : tuple of str
        Algorithm names.
    values : numpy.ndarray
        ``(tasks, algorithms, runs)`` scores; NaN beyond the runs a cell has (runs are
        packed to the front of each cell).
    counts : numpy.ndarray
        ``(tasks, algorithms)`` number of runs of each cell.
    higher_is_better : bool
        Direction of the scores.
    normalised : bool
        Whether the scores were normalised per task (:func:`normalise_runs`).
    """

    tasks: tuple[str, ...]
    algorithms: tuple[str, ...]
    values: np.ndarray = field(repr=False)
    counts: np.ndarray = field(repr=False)
    higher_is_better: bool = True
    normalised: bool = False

    def to_frame(self) -> Any:
        """Long table: one row per task, algorithm and run (columns task, algorithm, run,
        score)."""
        import pandas as pd

        rows = [
            (task, alg, r, float(self.values[t, a, r]))
            for t, task in enumerate(self.tasks)
            for a, alg in enumerate(self.algorithms)
            for r in range(int(self.counts[t, a]))
        ]
        return pd.DataFrame(rows, columns=["task", "algorithm", "run", "score"])

    def cell(self, task: int, algorithm: int) -> np.ndarray:
        """The runs of one cell (no padding)."""
        return self.values[task, algorithm, : int(self.counts[task, algorithm])]


def _from_cells(
    cells: dict[tuple[int, int], list[float]],
    tasks: Sequence[str],
    algorithms: Sequence[str],
    higher_is_better: bool,
    failures: bool = False,
) -> RunScores:
    """Pack ``{(task, algorithm): [scores]}`` into a :class:`RunScores` after checks."""
    missing = [
        f"{algorithms[a]!s} on {tasks[t]!s}"
        for t in range(len(tasks))
        for a in range(len(algorithms))
        if not cells.get((t, a))
    ]
    if missing:
        shown = ", ".join(missing[:5]) + (" ..." if len(missing) > 5 else "")
        raise CdplotInputError(
            f"{len(missing)} task and algorithm pair(s) have no run: {shown}; every "
            "algorithm needs at least one run on every task (drop the task or the algorithm)."
        )
    most = max(len(v) for v in cells.values())
    values = np.full((len(tasks), len(algorithms), most), np.nan)
    counts = np.zeros((len(tasks), len(algorithms)), dtype=int)
    for (t, a), runs in cells.items():
        arr = np.asarray(runs, dtype=float)
        if not np.all(np.isfinite(arr) | (failures & (arr == np.inf))):
            raise CdplotInputError(
                f"the runs of {algorithms[a]!s} on {tasks[t]!s} hold a missing or infinite "
                "score; drop that run or give its score."
            )
        values[t, a, : arr.size] = arr
        counts[t, a] = arr.size
    return RunScores(
        tasks=tuple(str(t) for t in tasks),
        algorithms=tuple(str(a) for a in algorithms),
        values=values,
        counts=counts,
        higher_is_better=bool(higher_is_better),
    )


def _from_mapping(
    data: Mapping[Any, Any], tasks: Sequence[Any] | None, higher_is_better: bool, failures: bool
) -> RunScores:
    """rliable's layout: algorithm -> ``(runs, tasks)`` array."""
    arrays = {}
    for name, arr in data.items():
        a = np.asarray(arr, dtype=float)
        if a.ndim != 2:
            raise CdplotInputError(
                f"the scores of {name!s} have shape {a.shape}; rliable's layout is one "
                "(runs, tasks) array per algorithm."
            )
        arrays[str(name)] = a
    widths = {a.shape[1] for a in arrays.values()}
    if len(widths) != 1:
        raise CdplotInputError(
            f"the (runs, tasks) arrays have different numbers of tasks {sorted(widths)}; "
            "give every algorithm the same tasks, in the same order."
        )
    n_tasks = widths.pop()
    names = [f"task {i + 1}" for i in range(n_tasks)] if tasks is None else list(tasks)
    if len(names) != n_tasks:
        raise CdplotInputError(
            f"tasks= names {len(names)} tasks but the arrays have {n_tasks} columns."
        )
    cells = {
        (t, a): [float(v) for v in arr[:, t] if not np.isnan(v)]
        for a, arr in enumerate(arrays.values())
        for t in range(n_tasks)
    }
    return _from_cells(cells, [str(n) for n in names], list(arrays), higher_is_better, failures)


def _codes(names: list[str]) -> tuple[list[str], np.ndarray]:
    order: dict[str, int] = {}
    codes = np.array([order.setdefault(n, len(order)) for n in names], dtype=int)
    return list(order), codes


def _scores(table: Any, column: str) -> np.ndarray:
    try:
        return np.asarray(table[column], dtype=float)
    except (TypeError, ValueError):
        raise CdplotInputError(
            f"the score column {column!r} holds text; give numbers, or name the score "
            "column with score=."
        ) from None


def _from_table(
    data: Any,
    dataset: Any,
    algorithm: Any,
    score: Any,
    run: Any,
    higher_is_better: bool,
    failures: bool,
) -> RunScores:
    from ._parse import _as_table, _names, table_roles

    prepared = _as_table(data)
    if prepared is None:
        raise CdplotInputError(
            f"read_run_scores reads a table of runs (a file or a data frame) or a mapping "
            f"algorithm -> (runs, tasks) array; got {type(data).__name__}."
        )
    if run is not None and str(run) not in prepared.columns:
        raise CdplotInputError(
            f"the table has no run column {run!s}; its columns are "
            f"{', '.join(map(str, prepared.columns))}: name the run column with "
            f"{spell('run', 'NAME')}."
        )
    if run is not None:  # a named run column is neither a score nor an algorithm column
        prepared = _without_column(prepared, str(run))
    table, roles = table_roles(prepared, dataset=dataset, algorithm=algorithm, score=score)
    runs = (run,) if run is not None else roles.repetitions
    if not runs:
        raise CdplotInputError(
            "the table has no run column (run, seed, fold, ...): the run-level analyses need "
            f"one row per run; name it with {spell('run', 'NAME')}."
        )
    if roles.dataset is None:
        raise CdplotInputError(
            f"the table has no task column; name it with {spell('dataset', 'NAME')}."
        )
    task_names, task_codes = _codes(_names(table, roles.dataset, "dataset"))
    cells: dict[tuple[int, int], list[float]] = {}
    if roles.kind == "long":
        if len(roles.scores) != 1:
            raise CdplotInputError(
                "the table has several score columns; choose one with score= "
                f"(one of {', '.join(map(str, roles.scores))})."
            )
        alg_names, alg_codes = _codes(_names(table, roles.algorithm, "algorithm"))
        values = _scores(table, roles.scores[0])
        for t, a, v in zip(task_codes, alg_codes, values, strict=True):
            cells.setdefault((int(t), int(a)), []).append(float(v))
    else:
        alg_names = [str(c) for c in roles.scores]
        for a, column in enumerate(roles.scores):
            for t, v in zip(task_codes, _scores(table, column), strict=True):
                if not np.isnan(v):
                    cells.setdefault((int(t), a), []).append(float(v))
    return _from_cells(cells, task_names, alg_names, higher_is_better, failures)


def _without_column(table: Any, name: str) -> Any:
    """``table`` (a :class:`ColumnTable`) without the column ``name``."""
    from ._columns import ColumnTable

    return ColumnTable(
        {c: table[c] for c in table.columns if c != name},
        table.nrows,
        labels=table.labels,
        index_names_datasets=table.index_names_datasets,
        attrs=table.attrs,
        cells=table.text if table.text(name) is not None else None,
    )


def read_run_scores(
    data: Any,
    *,
    dataset: Any = None,
    algorithm: Any = None,
    score: Any = None,
    run: Any = None,
    tasks: Sequence[Any] | None = None,
    higher_is_better: bool = True,
    failures: bool = False,
) -> RunScores:
    """Read scores with their runs kept apart.

    Parameters
    ----------
    data : path, data frame, RunScores or mapping
        A long table (task, algorithm, run and score columns), a wide table with a task
        and a run column (one column per algorithm), or rliable's layout: a mapping of
        algorithm -> array of shape ``(runs, tasks)`` (NaN for a missing run).
    dataset, algorithm, score, run : str, optional
        Column names, when they cannot be told by name (the run column is any of
        ``run``, ``seed``, ``fold``, ``repeat``, ... by default).
    tasks : sequence of str, optional
        Task names of rliable's layout (default ``task 1``, ``task 2``, ...).
    higher_is_better : bool, default True
        Direction of the scores.
    failures : bool, default False
        Whether ``inf`` marks a failed run (the costs of performance and data profiles);
        otherwise an infinite score is refused.

    Returns
    -------
    RunScores

    Raises
    ------
    CdplotInputError
        For a table without a run or task column, a task and algorithm pair without a run,
        or a missing or infinite score.

    Examples
    --------
    >>> import numpy as np
    >>> from cdplot.io import read_run_scores
    >>> runs = read_run_scores({"A": np.ones((3, 2)), "B": np.zeros((3, 2))})
    >>> runs.values.shape
    (2, 2, 3)
    """
    if isinstance(data, RunScores):
        return data
    if isinstance(data, Mapping) and not hasattr(data, "columns"):
        return _from_mapping(data, tasks, higher_is_better, failures)
    return _from_table(data, dataset, algorithm, score, run, higher_is_better, failures)


def normalise_runs(runs: RunScores, bounds: Any) -> RunScores:
    """Scores normalised per task: ``(score - low) / (high - low)``.

    Parameters
    ----------
    runs : RunScores
    bounds : mapping or data frame
        Task -> ``(low, high)`` (e.g. random and human scores of Atari games: the
        human-normalised score), or a table with columns ``task``, ``low``/``min``
        and ``high``/``max``.

    Raises
    ------
    CdplotInputError
        When a task has no bounds, or its ``low`` equals its ``high``.

    Examples
    --------
    >>> import numpy as np
    >>> from cdplot.io import normalise_runs, read_run_scores
    >>> runs = read_run_scores({"A": np.array([[10.0], [30.0]])}, tasks=["Pong"])
    >>> normalise_runs(runs, {"Pong": (10.0, 50.0)}).cell(0, 0).tolist()
    [0.0, 0.5]
    """
    pairs = _bounds_mapping(bounds)
    missing = [t for t in runs.tasks if t not in pairs]
    if missing:
        raise CdplotInputError(
            f"normalisation scores are missing for {len(missing)} task(s): "
            f"{', '.join(missing[:5])}{' ...' if len(missing) > 5 else ''}; give (low, high) "
            "for every task, or drop the normalisation."
        )
    low = np.array([pairs[t][0] for t in runs.tasks], dtype=float)[:, None, None]
    high = np.array([pairs[t][1] for t in runs.tasks], dtype=float)[:, None, None]
    bad = [
        t
        for t, lo, hi in zip(runs.tasks, low.ravel(), high.ravel(), strict=True)
        if not (np.isfinite(lo) and np.isfinite(hi)) or lo == hi
    ]
    if bad:
        raise CdplotInputError(
            f"the normalisation of task(s) {', '.join(bad[:5])} has equal or non-finite low "
            "and high scores; give two different finite scores (e.g. random and human)."
        )
    values = (runs.values - low) / (high - low)
    return RunScores(runs.tasks, runs.algorithms, values, runs.counts, runs.higher_is_better, True)


def _bounds_mapping(bounds: Any) -> dict[str, tuple[float, float]]:
    if hasattr(bounds, "columns"):
        cols = {str(c).lower(): c for c in bounds.columns}
        task = cols.get("task") or cols.get("dataset") or cols.get("game")
        low = cols.get("low") or cols.get("min")
        high = cols.get("high") or cols.get("max")
        if task is None or low is None or high is None:
            raise CdplotInputError(
                "the normalisation table needs columns task, low (or min) and high (or max); "
                f"it has {', '.join(map(str, bounds.columns))}."
            )
        return {
            str(t): (float(lo), float(hi))
            for t, lo, hi in zip(bounds[task], bounds[low], bounds[high], strict=True)
        }
    if not isinstance(bounds, Mapping):
        raise CdplotInputError(
            "normalise= takes a mapping task -> (low, high) or a table with columns task, "
            f"low and high; got {type(bounds).__name__}."
        )
    out = {}
    for t, pair in bounds.items():
        try:
            lo, hi = pair
        except (TypeError, ValueError):
            raise CdplotInputError(
                f"the normalisation of task {t!s} must be a pair (low, high), got {pair!r}."
            ) from None
        out[str(t)] = (float(lo), float(hi))
    return out

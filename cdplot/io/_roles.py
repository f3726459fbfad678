"""Column roles by name: which column holds datasets, algorithms, repetitions and scores.

Names are compared case-insensitively, ignoring ``_``, ``-`` and spaces. Explicit
``dataset=``, ``algorithm=`` and ``score=`` always win. Whatever cannot be decided is refused
with the exact arguments to pass; nothing is guessed from the position of a column.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._errors import CdplotInputError, in_cli, spell, suggest

__all__ = [
    "ALGORITHM_NAMES",
    "COST_NAMES",
    "DATASET_NAMES",
    "IDENTIFIER_NAMES",
    "REPETITION_NAMES",
    "Roles",
    "column_key",
    "is_cost_name",
    "resolve_roles",
]

#: Column names read as the dataset column.
DATASET_NAMES = (
    "dataset",
    "data",
    "data_set",
    "dataset_name",
    "dataset_id",
    "problem",
    "task",
    "task_id",
    "benchmark",
    "instance",
    "did",
    "tid",
    "data_id",
    "openml_id",
    "OpenML ID",
    "game",  # reinforcement learning: Atari games, environments
    "environment",
    "env",
)
#: Column names read as the algorithm column (a table with one is a long table).
ALGORITHM_NAMES = (
    "algorithm",
    "method",
    "model",
    "classifier",
    "learner",
    "estimator",
    "regressor",
    "system",
    "approach",
    "algo",
    "clf",
    "framework",
    "agent",  # reinforcement learning
    "solver",  # optimisation
)
#: Column names read as repetition columns (repeated runs of one algorithm on one dataset).
REPETITION_NAMES = (
    "fold",
    "seed",
    "run",
    "repeat",
    "rep",
    "split",
    "iteration",
    "trial",
    "replicate",
    "resample",
)
#: Column names read as a cost (lower is better: run time, tokens, price): the cost column of
#: cdplot.pareto_frontier, and never the score column proposed when several could be
COST_NAMES = (
    "cost",
    "costs",
    "price",
    "tokens",
    "n_tokens",
    "num_tokens",
    "total_tokens",
    "runtime",
    "run_time",
    "wall_time",
    "wallclock",
    "seconds",
    "duration",
    "latency",
    "fit_time",
    "train_time",
    "training_time",
    "inference_time",
    "cost_usd",
    "usd",
    "dollars",
    "total_cost",
)
#: Column names of row identifiers: dataset names in the first column of a wide table,
#: never an algorithm.
IDENTIFIER_NAMES = ("id", "index", "", "unnamed: 0")


def column_key(name: Any) -> str:
    """Normalised column name: lower case without ``_``, ``-`` and spaces.

    Examples
    --------
    >>> from cdplot.io import column_key
    >>> column_key('Task ID'), column_key('task_id')
    ('taskid', 'taskid')
    """
    return "".join(ch for ch in str(name).strip().lower() if ch not in "_- ")


#: Run-like names beyond REPETITION_NAMES: a column whose name starts with one of these
#: (``resample_no``, ``fold_index``) or is a repetition name with an id suffix (``run_id``)
#: numbers runs and is never proposed as the score column.
_RUN_PREFIXES = (
    "fold",
    "seed",
    "repeat",
    "repetition",
    "split",
    "iteration",
    "trial",
    "replicate",
    "resample",
)
_ID_SUFFIXES = ("id", "idx", "index", "no", "nr", "number", "num")
_DATASET = {column_key(n) for n in DATASET_NAMES}
_ALGORITHM = {column_key(n) for n in ALGORITHM_NAMES}
_REPETITION = {column_key(n) for n in REPETITION_NAMES}
_COST = {column_key(n) for n in COST_NAMES}


def is_cost_name(name: Any) -> bool:
    """Whether a column is named like a cost (:data:`COST_NAMES`)."""
    return column_key(name) in _COST


def _run_like(name: Any) -> bool:
    """Whether a column is named like a run number (``resample``, ``fold_id``, ``run_no``)."""
    key = column_key(name)
    stem = next((key[: -len(s)] for s in _ID_SUFFIXES if key.endswith(s) and key != s), key)
    return stem in _REPETITION or key.startswith(_RUN_PREFIXES)


def _is_identifier(name: Any) -> bool:
    key = column_key(name)
    return key in ("id", "index", "") or key.startswith("unnamed:")


def is_blank(name: Any) -> bool:
    """Whether a column name is blank (``''``, ``' '``, or only ``_`` and ``-``)."""
    return column_key(name) == ""


def _blank_scores(name: Any, numeric: Any, distinct_ids: Any) -> bool:
    """A blank-named column of numbers that are not distinct whole numbers: scores."""
    return is_blank(name) and numeric(name) and not distinct_ids(name)


@dataclass(frozen=True)
class Roles:
    """The reading of a table: which column does what.

    ``kind`` is ``"long"`` (one row per dataset, algorithm and run) or ``"wide"`` (one row
    per dataset and run, one column per algorithm). ``dataset`` is None for a wide table
    whose index names the datasets.
    """

    kind: str
    dataset: Any
    algorithm: Any
    scores: tuple[Any, ...]
    repetitions: tuple[Any, ...]
    ignored: tuple[Any, ...] = ()


def _listing(columns: Sequence[Any]) -> str:
    return ", ".join(repr(str(c)) for c in columns)


def _as_given(option: str) -> str:
    """``score=`` in Python, ``--score-col`` on the command line."""
    return spell(option) if in_cli() else f"{option}="


def _find(columns: Sequence[Any], given: Any, option: str) -> Any:
    if given is None:
        return None
    if isinstance(given, (list, tuple, np.ndarray)) or not np.isscalar(given):
        raise CdplotInputError(
            f"{_as_given(option)} must name one column of the table, got "
            f"{type(given).__name__}; "
            f"its columns are {_listing(columns)}."
        )
    for c in columns:
        if c == str(given):
            return c
    raise CdplotInputError(
        f"column {given!r} (given as {_as_given(option)}) is not in the table; its columns are "
        f"{_listing(columns)}." + suggest(given, [str(c) for c in columns])
    )


def _by_name(columns: Sequence[Any], names: set[str], role: str, option: str) -> Any:
    found = [c for c in columns if column_key(c) in names]
    if len(found) > 1:
        raise CdplotInputError(
            f"several columns could hold the {role}s: {_listing(found)}; say which one, e.g. "
            f"{spell(option, str(found[0]))}."
        )
    return found[0] if found else None


def resolve_roles(
    frame: Any,
    *,
    dataset: Any = None,
    algorithm: Any = None,
    score: Any = None,
    numeric: Any,
    textual: Any = None,
    scores_like: Any = None,
    numbers: Any = None,
    distinct_ids: Any = None,
    index_names_datasets: bool,
) -> Roles:
    """Decide the role of every column of ``frame``.

    Parameters
    ----------
    frame : ColumnTable or pandas.DataFrame
        The table (only its ``columns``, unique string names, are read).
    dataset, algorithm : column name, optional
        Explicit dataset and algorithm columns (win over names).
    score : column name or sequence of column names, optional
        Explicit score column(s) of a long table; several for :func:`compare_metrics`.
    numeric : callable
        Column name -> whether the column looks numeric (a candidate score column).
    textual : callable, optional
        Column name -> whether the column holds text only (names, not scores).
    scores_like : callable, optional
        Column name -> whether it holds scores rather than names: numbers, some of them
        only once (the names of a long table repeat, once per dataset or algorithm). Such
        a column named ``Model`` or ``Task`` is an algorithm of a wide table.
    numbers : callable, optional
        Column name -> whether its type is a number type (no text to look at: cheap).
    distinct_ids : callable, optional
        Column name -> whether it holds distinct whole numbers (ids: a first column named
        ``...id`` holding them is refused as an algorithm).
    index_names_datasets : bool
        Whether the frame's index holds the dataset names (a user's wide DataFrame with a
        meaningful index), so that a wide table needs no dataset column.

    Returns
    -------
    Roles

    Examples
    --------
    >>> from cdplot.io import resolve_roles
    >>> import pandas as pd
    >>> frame = pd.DataFrame({'problem': ['d1'], 'method': ['A'], 'acc': [0.9]})
    >>> roles = resolve_roles(frame, numeric=lambda c: c == 'acc', index_names_datasets=False)
    >>> roles.kind, roles.dataset, roles.algorithm, roles.scores
    ('long', 'problem', 'method', ('acc',))
    """
    columns = list(frame.columns)
    never = lambda c: False  # noqa: E731
    textual = textual or never
    scores_like = scores_like or never
    numbers = numbers or never
    distinct_ids = distinct_ids or never
    dataset_col = _find(columns, dataset, "dataset")
    algorithm_col = _find(columns, algorithm, "algorithm")
    if isinstance(score, (list, tuple)):
        score_cols = tuple(_find(columns, s, "score") for s in score)
    else:
        score_cols = () if score is None else (_find(columns, score, "score"),)
    taken = {c for c in (dataset_col, algorithm_col, *score_cols) if c is not None}
    free = [c for c in columns if c not in taken]
    if algorithm_col is None:
        # a column of fractional numbers named like Model or System holds scores: it is an
        # algorithm of a wide table, not the algorithm column of a long one
        named = [c for c in free if not (scores_like(c) and column_key(c) in _ALGORITHM)]
        algorithm_col = _by_name(named, _ALGORITHM, "algorithm", "algorithm")
        if algorithm_col is not None and numbers(algorithm_col):
            raise CdplotInputError(
                f"column {str(algorithm_col)!r} is named like the algorithm column of a long "
                f"table but holds numbers; if they name the algorithms, pass "
                f"{spell('algorithm', str(algorithm_col))}; if {str(algorithm_col)!r} is an "
                f"algorithm (its scores in a wide table), rename the column."
            )
        free = [c for c in free if c != algorithm_col]
    if dataset_col is None:
        named = [c for c in free if column_key(c) in _DATASET]
        if len(named) > 1:  # e.g. dataset and an algorithm called Task
            names = [c for c in named if not scores_like(c)]
            canonical = [c for c in named if column_key(c) == "dataset"]
            named = names or canonical or named
        dataset_col = _by_name(named, _DATASET, "dataset", "dataset")
        free = [c for c in free if c != dataset_col]
    repetitions = tuple(c for c in free if column_key(c) in _REPETITION)
    free = [c for c in free if column_key(c) not in _REPETITION]

    if algorithm_col is None:  # a wide table
        if score_cols:
            raise CdplotInputError(
                f"{spell('score')}= names the score column of a long table, but no column "
                f"holds the algorithm names (columns: {_listing(columns)}); name it with "
                f"{spell('algorithm', 'COLUMN')}, or leave out {spell('score')} for a wide table "
                f"(one column per algorithm)."
            )
        if dataset_col is None and not index_names_datasets and columns:
            first = columns[0]
            if first in free and (_is_identifier(first) or not numeric(first)):
                dataset_col = first
                free = free[1:]
            elif first in free and column_key(first).endswith("id") and distinct_ids(first):
                raise CdplotInputError(
                    f"the first column {str(first)!r} holds distinct whole numbers and is named "
                    f"like an id: it looks like dataset ids (e.g. OpenML), not an algorithm's "
                    f"scores; pass {spell('dataset', str(first))} to name the datasets by it, "
                    f"or rename the column if it really is an algorithm."
                )
        text = [c for c in free if textual(c)]
        if text:
            _refuse_text_in_wide(columns, dataset_col, text, numeric)
        # a blank name ('' or ' ') over scores is an algorithm with a blank name (warned
        # about by the reader); over distinct whole numbers it is a row counter
        ids = [c for c in free if _is_identifier(c) and not _blank_scores(c, numeric, distinct_ids)]
        if ids:
            raise CdplotInputError(
                f"column {str(ids[0])!r} looks like a row identifier, not an algorithm; remove "
                f"it from the table, or, if it names the datasets, pass "
                f"{spell('dataset', str(ids[0]))}."
            )
        if dataset_col is not None and index_names_datasets and dataset is None:
            raise CdplotInputError(
                f"both the index and column {str(dataset_col)!r} could name the datasets; "
                f"drop the column or reset the index (df.reset_index(drop=True))."
            )
        return Roles("wide", dataset_col, None, tuple(free), repetitions)

    if dataset_col is None:
        raise CdplotInputError(
            f"found the algorithm column {str(algorithm_col)!r} but no dataset column among "
            f"{_listing(columns)}; name it with {spell('dataset', 'COLUMN')} (a column is "
            f"recognised when it is called e.g. dataset, problem, task or task_id)."
        )
    if not score_cols:
        candidates = [c for c in free if numeric(c)]
        if len(candidates) == 1:
            score_cols = (candidates[0],)
        elif not candidates:
            raise CdplotInputError(
                f"no score column: the columns are {_listing(columns)} and none besides "
                f"{str(dataset_col)!r} and {str(algorithm_col)!r} holds numbers; name it with "
                f"{spell('score', 'COLUMN')}."
            )
        else:
            _refuse_several_scores(candidates)
    ignored = tuple(c for c in free if c not in score_cols)
    return Roles("long", dataset_col, algorithm_col, score_cols, repetitions, ignored)


def _refuse_several_scores(candidates: list[Any]) -> None:
    """Several numeric columns could hold the scores: name them and suggest one that is not
    a run number (a column named like ``resample`` or ``fold_id`` is never proposed)."""
    scores = [str(c) for c in candidates if not _run_like(c)]
    costs = [c for c in scores if is_cost_name(c)]
    first = ([c for c in scores if c not in costs] or scores or ["COLUMN"])[0]
    if in_cli():
        each = " ".join(f"--score-col {c}" for c in scores) or "--score-col COLUMN"
        several = (
            f"or compare each (one diagram per metric) with {each}, adding "
            "--lower-is-better COL for each metric where lower is better."
        )
    else:
        several = (
            f"or compare each with cdplot.compare_metrics(data, metrics={{{first!r}: "
            "'higher', ...})."
        )
    cost = (
        f" Column {costs[0]!r} is named like a cost (run time, tokens, price): pass "
        f"{spell('cost', costs[0])} to keep it apart for the cost-performance frontier."
        if costs
        else ""
    )
    raise CdplotInputError(
        f"several columns could hold the scores: {_listing(candidates)}; pass "
        f"{spell('score', first)} to compare on one of them, " + several + cost
    )


def _refuse_text_in_wide(columns: list, dataset_col: Any, text: list, numeric: Any) -> None:
    """A wide table has one numeric column per algorithm: text columns mean a long table."""
    names_cols = ([dataset_col] if dataset_col is not None else []) + [
        c for c in text if c != dataset_col
    ]
    numbers = [c for c in columns if numeric(c) and c not in names_cols]
    example = ""
    if len(names_cols) >= 2 and numbers:
        example = (
            f", e.g. {spell('dataset', str(names_cols[0]))}, "
            f"{spell('algorithm', str(names_cols[1]))}, {spell('score', str(numbers[0]))}"
        )
    raise CdplotInputError(
        f"cannot tell the roles of the columns {_listing(columns)}: column "
        f"{str(text[0])!r} holds text, so this is not a wide table (one numeric column per "
        f"algorithm) and no column is recognised as the algorithm column; if it is a long "
        f"table (one row per dataset and algorithm), name its columns{example}."
    )

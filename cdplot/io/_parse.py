"""parse_scores(): everything a user has -> a checked :class:`ScoreTable`."""

from __future__ import annotations

import functools
import math
import os
from collections.abc import Sequence
from typing import Any, overload

import numpy as np

from .._errors import CdplotInputError, CdplotWarning, check_in_list, spell
from ._aggregate import (
    Aggregation,
    aggregate_cells,
    check_aggregate,
    split_decimal_ties,
    warn_unequal_counts,
)
from ._columns import ColumnTable, duplicated
from ._frames import as_pandas, frame_table
from ._read import file_table
from ._roles import Roles, is_blank, resolve_roles
from ._rows import refuse_summary_rows, warn_if_lower_is_better
from ._table import MISSING_OPTIONS, ScoreTable, check_decimals, finish_table
from ._values import _dtype_problem, _is_missing, check_exact_integers, to_names, to_scores

__all__ = ["parse_scores", "table_roles"]


def parse_scores(
    data: Any,
    *,
    dataset: str | Sequence[Any] | None = None,
    algorithm: str | Sequence[Any] | None = None,
    score: str | None = None,
    missing: str = "raise",
    aggregate: str | Any = None,
    decimals: int | None = None,
    warn_direction: bool = False,
) -> ScoreTable:
    """Turn user input into a checked :class:`ScoreTable`.

    Parameters
    ----------
    data : DataFrame, numpy.ndarray, str, os.PathLike or file object
        A wide table (rows = datasets, columns = algorithms), a long table (one row per
        dataset, algorithm and run), a 2-D array (rows = datasets), the path of a CSV/TSV
        file (or an open text file) in either form, or a data frame of another library
        (polars, or anything with ``to_pandas()`` or ``__dataframe__``).
    dataset, algorithm, score : str, optional
        Column names; they win over the names cdplot recognises (see Notes). For a 2-D
        array, ``dataset`` and ``algorithm`` may instead be sequences of names.
    missing : {"raise", "drop", "drop-algorithms", "keep"}
        Missing results raise an error, drop the incomplete datasets, drop the algorithms
        with missing results, or stay NaN (for tests of incomplete tables).
    aggregate : {None, "mean", "median"} or callable
        How several runs of one algorithm on one dataset become one score. Without it,
        repeated runs are refused.
    decimals : int, optional
        Round the (aggregated) scores to this many decimals before ranking.
    warn_direction : bool, default False
        The caller was not told the direction of the scores: warn (one line) when the
        score column or the file is named like a lower-is-better measure
        (:data:`LOWER_IS_BETTER_WORDS`). The scores are never changed.

    Returns
    -------
    ScoreTable

    Raises
    ------
    CdplotInputError
        For anything that cannot be analysed or is ambiguous; the message names the
        offending column, cell or names and what to pass.

    Notes
    -----
    Column roles are recognised by name, case-insensitively and ignoring ``_``, ``-`` and
    spaces (see :mod:`cdplot.io._roles`): a table with an algorithm column is long, else
    wide. In a wide table the first column holds the dataset names when its name is a
    dataset name (ids included), empty, ``Unnamed: 0``, ``id`` or ``index``, or when it is
    not numeric.

    Examples
    --------
    >>> import io
    >>> csv = "algorithm,dataset,acc\\nA,d1,0.9\\nB,d1,0.8\\nA,d2,0.7\\nB,d2,0.75\\n"
    >>> table = parse_scores(io.StringIO(csv))
    >>> table.algorithms, table.datasets, float(table.to_frame().loc["d2", "B"])
    (['A', 'B'], ['d1', 'd2'], 0.75)
    """
    missing = check_in_list(MISSING_OPTIONS, missing=missing)
    agg = check_aggregate(aggregate)
    decimals = check_decimals(decimals)
    finish: dict[str, Any] = {"missing": missing, "decimals": decimals, "stacklevel": 6}
    table = _as_table(data)
    if table is None:
        scores, algorithms, datasets = _from_array(data, dataset, algorithm)
        if agg is not None:
            raise CdplotInputError(
                f"{spell('aggregate')}= needs a table of runs (a long table, or a wide table "
                f"with a repetition column such as fold or seed); an array holds one score "
                f"per dataset and algorithm."
            )
        return finish_table(
            scores, algorithms, datasets, **{**finish, "stacklevel": finish["stacklevel"] - 2}
        )
    return _from_table(table, dataset, algorithm, score, agg, finish, warn_direction)


@overload
def table_roles(
    data: ColumnTable, *, dataset: Any = None, algorithm: Any = None, score: Any = None
) -> tuple[ColumnTable, Roles]: ...


@overload
def table_roles(
    data: Any, *, dataset: Any = None, algorithm: Any = None, score: Any = None
) -> tuple[ColumnTable, Roles] | tuple[None, None]: ...


def table_roles(
    data: Any, *, dataset: Any = None, algorithm: Any = None, score: Any = None
) -> tuple[ColumnTable, Roles] | tuple[None, None]:
    """Read ``data`` once into a table and decide its column roles.

    Returns the prepared table (string column names; a meaningful index turned into a
    column), which :func:`parse_scores` accepts as ``data``, and its :class:`Roles`;
    ``score`` may be a list of columns. For callers that analyse one table several times
    (:func:`cdplot.compare_metrics`): a file or standard input is read once, and a file
    never becomes a pandas DataFrame. Returns ``(None, None)`` for input that is not a
    table (arrays).

    Examples
    --------
    >>> import cdplot
    >>> from cdplot.io import table_roles
    >>> table, roles = table_roles(cdplot.datasets.load('demsar2006').reset_index())
    >>> roles.kind, roles.dataset, roles.scores
    ('wide', 'dataset', ('C4.5', 'C4.5+m', 'C4.5+cf', 'C4.5+m+cf'))
    """
    table = _as_table(data)
    if table is None:
        return None, None
    return table, _roles(table, dataset, algorithm, score)


def _as_table(data: Any) -> ColumnTable | None:
    """A file, a data frame or an already prepared table as a :class:`ColumnTable`.

    None for anything else (arrays). A file never passes through pandas.
    """
    if isinstance(data, ColumnTable):
        return data
    if isinstance(data, (str, os.PathLike)) or hasattr(data, "read"):
        return file_table(data)
    frame = as_pandas(data)
    return None if frame is None else frame_table(frame)


def _roles(table: ColumnTable, dataset: Any, algorithm: Any, score: Any) -> Roles:
    scores_like = functools.lru_cache(maxsize=None)(lambda c: _scores_like(table[c]))
    return resolve_roles(
        table,
        dataset=dataset,
        algorithm=algorithm,
        score=score,
        numeric=lambda c: _numeric_like(table[c]),
        textual=lambda c: _textual(table[c]),
        scores_like=scores_like,
        numbers=lambda c: _whole(table[c]) is not None,
        distinct_ids=lambda c: _distinct_ids(table[c]),
        index_names_datasets=table.index_names_datasets,
    )


def _whole(col: Any) -> np.ndarray | None:
    """The values of a numeric column as float64 (NaN for missing), or None if not numeric."""
    kind = getattr(col.dtype, "kind", "O")
    if kind in "iu":
        return np.asarray(col, dtype=float)
    if kind == "f":
        return np.asarray(col.to_numpy() if hasattr(col, "to_numpy") else col, dtype=float)
    return None


def _fractional(col: Any) -> bool:
    values = _whole(col)
    if values is None:
        return False
    finite = values[np.isfinite(values)]
    return bool(finite.size) and bool((finite != np.round(finite)).any())


#: rows of one chunk of a column's value counts (:func:`_single_value`)
_COUNT_CHUNK = 1 << 22


def _single_value(col: Any) -> bool | None:
    """Whether some value of a column of whole numbers in a narrow range occurs exactly
    once, counted chunk by chunk (no float copy, no sort of the column); None for any other
    column (then :func:`_scores_like` sorts it)."""
    kind = getattr(col.dtype, "kind", "O")
    if kind not in "iuf":
        return None
    values = np.asarray(col)

    def chunks() -> Any:
        for start in range(0, values.size, _COUNT_CHUNK):
            chunk = values[start : start + _COUNT_CHUNK]
            yield chunk[np.isfinite(chunk)] if kind == "f" else chunk

    low, high = math.inf, -math.inf
    for chunk in chunks():
        if not chunk.size:
            continue
        if kind == "f" and (chunk != np.round(chunk)).any():
            return None
        low, high = min(low, float(chunk.min())), max(high, float(chunk.max()))
    if not math.isfinite(low) or high - low > 4 * values.size + 1024 or abs(low) > 2**52:
        return None
    counts = np.zeros(int(high - low) + 1, dtype=np.int64)
    for chunk in chunks():
        counts += np.bincount((chunk - int(low)).astype(np.intp), minlength=counts.size)
    return bool((counts == 1).any())


def _scores_like(col: Any) -> bool:
    """Numbers, some of them only once: scores, not a long table's names (which repeat,
    once per dataset or algorithm)."""
    single = _single_value(col)
    if single is not None:
        return single
    values = _whole(col)
    if values is None:
        return False
    _, counts = np.unique(values[np.isfinite(values)], return_counts=True)
    return bool((counts == 1).any())


def _distinct_ids(col: Any) -> bool:
    values = _whole(col)
    if values is None or not values.size or not np.isfinite(values).all():
        return False
    return bool((values == np.round(values)).all()) and len(np.unique(values)) == values.size


# --------------------------------------------------------------------------- arrays
def _from_array(data: Any, dataset: Any, algorithm: Any) -> tuple[np.ndarray, list, list]:
    if isinstance(data, np.ma.MaskedArray):
        data = np.ma.filled(data.astype(float), np.nan) if data.dtype.kind in "iuf" else data
    try:
        arr = np.asarray(data)
    except Exception:  # noqa: BLE001 - anything numpy refuses is the user's type error
        arr = None
    if arr is None or (arr.dtype == object and arr.ndim != 2):
        raise CdplotInputError(
            f"cannot read scores from a {type(data).__name__}; pass a DataFrame, a 2-D array "
            f"or the path of a CSV file."
        )
    if arr.ndim != 2:
        raise CdplotInputError(
            f"a score array must be 2-D (rows = datasets, columns = algorithms); got "
            f"{arr.ndim}-D with shape {arr.shape}."
        )
    n, k = arr.shape
    for given, what in ((dataset, "dataset"), (algorithm, "algorithm")):
        if isinstance(given, str):
            raise CdplotInputError(
                f"{what}={given!r} names a column, but an array has no column names; pass a "
                f"list of {what} names, or a DataFrame."
            )
    algorithms = _unique_names(
        "algorithm", [f"A{j + 1}" for j in range(k)] if algorithm is None else list(algorithm)
    )
    datasets = _unique_names(
        "dataset", [f"D{i + 1}" for i in range(n)] if dataset is None else list(dataset)
    )
    if len(algorithms) != k:
        raise CdplotInputError(
            f"got {len(algorithms)} algorithm names for an array with {k} columns."
        )
    if len(datasets) != n:
        raise CdplotInputError(f"got {len(datasets)} dataset names for an array with {n} rows.")
    problem = _dtype_problem(arr.dtype)
    if problem is not None:
        raise CdplotInputError(
            f"the array holds {problem}, not scores; scores must be real numbers."
        )
    if arr.dtype.kind in "iuf":
        for j in range(k) if arr.dtype.kind in "iu" else ():
            check_exact_integers(arr[:, j], algorithms[j], lambda i: f"dataset {datasets[i]!r}")
        return arr.astype(float), algorithms, datasets
    scores = (
        np.column_stack(
            [
                to_scores(arr[:, j], algorithms[j], lambda i: f"dataset {datasets[i]!r}")
                for j in range(k)
            ]
        )
        if k
        else np.empty((n, 0))
    )
    return scores.reshape(n, k), algorithms, datasets


def _unique_names(what: str, names: Sequence[Any]) -> list[str]:
    out = []
    for n in names:
        if _is_missing(n):
            article = "an" if what[0] in "aeiou" else "a"
            raise CdplotInputError(
                f"{article} {what} name is missing ({n!r}); every {what} needs a name."
            )
        out.append(str(n))
    dups = duplicated(out)
    if dups:
        raise CdplotInputError(
            f"duplicate {what} name(s): {', '.join(repr(d) for d in dups)}; every {what} "
            f"must have a unique name (rename the duplicates, or, if they are repeated runs, "
            f"pass {spell('aggregate', 'mean')})."
        )
    return out


def _factorize(names: list[str]) -> tuple[list[str], np.ndarray]:
    """Distinct names in order of first appearance, and each row's code."""
    if not names:
        return [], np.empty(0, dtype=np.int64)
    arr = np.empty(len(names), dtype=object)
    arr[:] = names
    uniq, first, inv = np.unique(arr, return_index=True, return_inverse=True)
    order = np.argsort(first, kind="stable")
    rank = np.empty(order.size, dtype=np.int64)
    rank[order] = np.arange(order.size)
    return [str(uniq[i]) for i in order], rank[inv.reshape(-1)]


# --------------------------------------------------------------------------- tables
def _numeric_like(col: Any) -> bool:
    if _dtype_problem(col.dtype) is not None:
        return False
    kind = getattr(col.dtype, "kind", "O")
    if kind in "iuf":
        return True
    cells = [v for v in col.tolist() if not _is_missing(v)]
    if not cells:
        return False
    numeric = 0
    for v in cells:
        if isinstance(v, (bool, np.bool_)):
            continue
        if isinstance(v, str):
            numeric += (
                bool(v.strip())
                and any(ch.isdigit() for ch in v)
                and not any(ch.isalpha() and ch not in "eE" for ch in v)
            )
        else:
            numeric += np.isscalar(v) or hasattr(v, "__float__")
    return numeric > len(cells) / 2


def _textual(col: Any) -> bool:
    """Whether a column holds text only (no cell a number or a number written as text)."""
    kind = getattr(col.dtype, "kind", "O")
    name = str(col.dtype)
    if not (kind in "OUS" or name.startswith(("str", "string"))):
        return False
    cells = [v for v in col.tolist() if not _is_missing(v)]
    return bool(cells) and all(isinstance(v, str) for v in cells) and not _numeric_like(col)


def _names(table: ColumnTable, column: Any, what: str) -> list[str]:
    """A name column as text: a file's cells as written, else the values as strings.

    A file's column of text without a missing-value token already holds the cells as
    written (stripped); only numbers and tokens such as ``NA`` need the file's spelling.
    """
    values = table[column]
    as_read = isinstance(values, np.ndarray) and values.dtype == object
    if as_read and not any(v is None for v in values.tolist()):
        return to_names(values, column, what)
    return to_names(values, column, what, table.text(column))


def _refuse_boolean_names(table: ColumnTable, column: Any, given: Any) -> None:
    """A column of True/False is neither dataset names nor scores (unless named so)."""
    if given is None and _dtype_problem(table[column].dtype) == "booleans":
        raise CdplotInputError(
            f"the first column {str(column)!r} holds booleans (True/False): neither dataset "
            f"names nor scores; drop it, or pass {spell('dataset', str(column))} if it "
            f"really names the datasets."
        )


def _warn_row_numbers(table: ColumnTable, source: str | None, stacklevel: int) -> None:
    """A file without dataset names whose first column, whole numbers, becomes an algorithm."""
    first = table.columns[0] if len(table.columns) else None
    if source and first is not None and getattr(table[first].dtype, "kind", "") in "iu":
        import warnings

        warnings.warn(
            f"{source!r} has no column of dataset names, so its first column "
            f"{str(first)!r} (whole numbers) is ranked as an algorithm and the "
            f"datasets are named by row number; if {str(first)!r} names the "
            f"datasets, pass {spell('dataset', str(first))}.",
            CdplotWarning,
            stacklevel=stacklevel,
        )


def _warn_blank_names(algorithms: list[str], stacklevel: int) -> None:
    """Scores under a blank column name are compared, with a warning naming the column."""
    blank = [a for a in algorithms if is_blank(a)]
    if blank:
        import warnings

        listed = ", ".join(repr(a) for a in blank)
        warnings.warn(
            f"the scores in column{'s' if len(blank) > 1 else ''} {listed} are compared as "
            f"an algorithm with a blank name, which reads as no name in every output; rename "
            f"the column.",
            CdplotWarning,
            stacklevel=stacklevel,
        )


def _single_runs(table: ColumnTable, roles: Roles, one_row_each: bool) -> Roles:
    """Columns named like runs (RUN, Fold, Seed) in a wide table that hold scores.

    A column of numbers that are not all whole is no run id: it is an algorithm (compared,
    in table order). When every dataset has one row, no column numbers repeated runs, so a
    remaining one (whole numbers: fold or seed ids) is refused, naming the column.
    """
    promoted = [c for c in roles.repetitions if _fractional(table[c])]
    runs = [c for c in roles.repetitions if c not in promoted]
    if one_row_each and runs:
        c = runs[0]
        raise CdplotInputError(
            f"column {str(c)!r} is named like a repetition column (fold, seed, run, ...) "
            f"but every dataset has one row, so it numbers no repeated runs; if it is an "
            f"algorithm, rename it (e.g. {str(c)!r} -> '{c} (algorithm)'), otherwise "
            f"drop it from the table."
        )
    if not promoted:
        return roles
    keep = set(promoted) | set(roles.scores)
    scores = tuple(c for c in table.columns if c in keep)
    return Roles("wide", roles.dataset, None, scores, tuple(runs), roles.ignored)


def _from_table(
    table: ColumnTable,
    dataset: Any,
    algorithm: Any,
    score: Any,
    agg: Any,
    finish: dict[str, Any],
    warn_direction: bool = False,
) -> ScoreTable:
    decimal = table.attrs.get("cdplot_decimal")
    source = table.attrs.get("cdplot_source")
    roles = _roles(table, dataset, algorithm, score)
    if warn_direction:
        warn_if_lower_is_better(roles, source, finish["stacklevel"] - 1)
    if roles.kind == "long":
        d_rows = _names(table, roles.dataset, "dataset")
        a_rows = _names(table, roles.algorithm, "algorithm")
        (score_col,) = roles.scores
        values = to_scores(
            table[score_col],
            score_col,
            lambda pos: f"algorithm {a_rows[pos]!r} on dataset {d_rows[pos]!r}",
            decimal=decimal,
        )
        datasets, d_code = _factorize(d_rows)
        algorithms, a_code = _factorize(a_rows)
        row_group = d_code * len(algorithms) + a_code
    else:
        if roles.dataset is not None:
            _refuse_boolean_names(table, roles.dataset, dataset)
            d_rows = _names(table, roles.dataset, "dataset")
        else:
            d_rows = [str(v) for v in table.row_labels()]
        if roles.repetitions:
            roles = _single_runs(table, roles, len(set(d_rows)) == len(d_rows))
        if roles.dataset is None:
            _warn_row_numbers(table, source, finish["stacklevel"] - 1)
        refuse_summary_rows(d_rows, roles.dataset)
        algorithms = list(roles.scores)
        _warn_blank_names(algorithms, finish["stacklevel"] - 1)
        hint = (
            f"If this column names the datasets, pass {spell('dataset', algorithms[0])}."
            if algorithms
            else ""
        )
        block = [table[c] for c in algorithms]
        if all(isinstance(col.dtype, np.dtype) and col.dtype.kind in "iuf" for col in block):
            matrix = np.empty((table.nrows, len(block)))
            for j, col in enumerate(block):
                check_exact_integers(col, algorithms[j], lambda pos: f"dataset {d_rows[pos]!r}")
                matrix[:, j] = np.asarray(col, dtype=float)
        else:
            cols = [
                to_scores(
                    table[c],
                    c,
                    lambda pos: f"dataset {d_rows[pos]!r}",
                    hint=hint.replace(repr(algorithms[0]), repr(c)),
                    decimal=decimal,
                )
                for c in algorithms
            ]
            matrix = np.column_stack(cols) if cols else np.empty((len(d_rows), 0))
        datasets, d_code = _factorize(d_rows)
        k = len(algorithms)
        if agg is None and len(datasets) == len(d_rows):
            return finish_table(
                matrix.reshape(len(d_rows), k),
                algorithms,
                d_rows,
                **{**finish, "stacklevel": finish["stacklevel"] - 1},
            )
        if agg is None and not roles.repetitions:
            _unique_names("dataset", d_rows)
        row_group = d_code
        values = matrix.reshape(-1)
        d_code = np.repeat(d_code, k)
        a_code = np.tile(np.arange(k), len(d_rows))
        d_rows = list(np.repeat(np.array(d_rows, dtype=object), k))
        a_rows = algorithms * (len(values) // k if k else 0)
    return _assemble(
        table,
        roles,
        values,
        d_code,
        a_code,
        datasets,
        algorithms,
        a_rows,
        d_rows,
        agg,
        finish,
        row_group,
    )


def _assemble(
    table: ColumnTable,
    roles: Roles,
    values: np.ndarray,
    d_code: np.ndarray,
    a_code: np.ndarray,
    datasets: list[str],
    algorithms: list[str],
    a_rows: list[str],
    d_rows: list[str],
    agg: Any,
    finish: dict[str, Any],
    row_group: np.ndarray,
) -> ScoreTable:
    n, k = len(datasets), len(algorithms)
    cell = d_code * k + a_code
    inf = np.isinf(values)
    if inf.any():
        pos = int(np.flatnonzero(inf)[0])
        raise CdplotInputError(
            f"infinite score ({values[pos]}) for algorithm {a_rows[pos]!r} on dataset "
            f"{d_rows[pos]!r}; scores must be finite numbers."
        )
    counts = np.bincount(cell, minlength=n * k).reshape(n, k) if cell.size else np.zeros((n, k))
    if agg is None:
        if counts.size and counts.max() > 1:
            _refuse_repeats(table, roles, counts, datasets, algorithms, row_group)
        scores = np.full((n, k), np.nan)
        scores.reshape(-1)[cell] = values
        return finish_table(scores, algorithms, datasets, **finish)
    how, func = agg
    cells, agg_values, std_values, _ = aggregate_cells(cell, values, how, func)
    scores = np.full((n, k), np.nan)
    std = np.full((n, k), np.nan)
    scores.reshape(-1)[cells] = agg_values
    std.reshape(-1)[cells] = std_values
    warn_unequal_counts(counts, datasets, algorithms, stacklevel=finish["stacklevel"])
    columns = _told_apart(table, roles, row_group) or tuple(str(c) for c in roles.repetitions)
    present = counts[counts > 0]
    ties: tuple[int, int | None] = (0, None)
    if how == "mean" and finish["decimals"] is None:
        ties = split_decimal_ties(cell, values, scores.reshape(-1), k)
    aggregation = Aggregation(
        function=how,
        columns=columns,
        counts=counts.astype(np.int64),
        min_count=int(present.min()) if present.size else 0,
        max_count=int(present.max()) if present.size else 0,
        datasets=datasets,
        algorithms=algorithms,
        split_ties=ties[0],
        tie_decimals=ties[1],
    )
    return finish_table(
        scores, algorithms, datasets, aggregation=aggregation, score_std=std, **finish
    )


def _told_apart(table: ColumnTable, roles: Roles, row_group: np.ndarray) -> tuple[str, ...]:
    """The columns that tell the rows of one cell (or one wide row group) apart.

    The repetition columns when they alone do (other columns such as a second metric vary
    too, but do not name runs), else every column whose values differ within a cell.
    """
    groups = row_group.tolist()
    n_groups = len(set(groups))

    def varying(columns: list[Any]) -> list[str]:
        out = []
        for c in columns:
            keys = [repr(v) for v in table[c].tolist()]
            if len(set(zip(groups, keys, strict=True))) > n_groups:
                out.append(str(c))
        return out

    reps = varying(list(roles.repetitions))
    if reps:
        keys = [
            tuple(repr(v) for v in row)
            for row in zip(*(table[c].tolist() for c in reps), strict=True)
        ]
        if len(set(zip(groups, keys, strict=True))) == len(groups):
            return tuple(reps)
    return tuple(varying([*roles.repetitions, *roles.ignored]))


def _refuse_repeats(
    table: ColumnTable,
    roles: Roles,
    counts: np.ndarray,
    datasets: list[str],
    algorithms: list[str],
    row_group: np.ndarray,
) -> None:
    i, j = np.argwhere(counts > 1)[0]
    top = int(counts.max())
    uniform = counts.min() == top
    many = f"{top} rows" if uniform else f"up to {top} rows"
    apart = _told_apart(table, roles, row_group)
    repetition = {str(c) for c in roles.repetitions}
    if apart and set(apart) <= repetition:
        cols = " and ".join(repr(c) for c in apart)
        word = "column" if len(apart) == 1 else "columns"
        raise CdplotInputError(
            f"{many} per dataset and algorithm, told apart by {word} {cols}: these look like "
            f"repeated runs; pass {spell('aggregate', 'mean')} to average them (or "
            f"{spell('aggregate', 'median')})."
        )
    if apart:
        cols = ", ".join(repr(c) for c in apart)
        raise CdplotInputError(
            f"{many} per dataset and algorithm (e.g. algorithm {algorithms[j]!r} on dataset "
            f"{datasets[i]!r}), told apart by {cols}, which cdplot does not know as a "
            f"repetition column (fold, seed, run, ...): keep one row per dataset and algorithm "
            f"(filter on {cols}), or, if the rows are repeated runs, pass "
            f"{spell('aggregate', 'mean')}."
        )
    raise CdplotInputError(
        f"duplicate results: algorithm {algorithms[j]!r} on dataset {datasets[i]!r} appears "
        f"more than once ({int(counts[counts > 1].sum())} rows in duplicated cells in all); "
        f"keep one row per dataset and algorithm, or, if the rows are repeated runs, pass "
        f"{spell('aggregate', 'mean')}."
    )

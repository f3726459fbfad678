"""The one input parser: everything a user has -> a checked N x k score matrix with names.

Accepted inputs (see :func:`parse_scores`):

- a wide pandas DataFrame (rows = datasets, columns = algorithms, index = dataset names);
- a long ("tidy") DataFrame with one row per (dataset, algorithm) and named columns;
- a 2-D numpy array (rows = datasets), with optional names;
- a path to a CSV (or TSV) file holding either form.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ._errors import CdplotInputError, CdplotWarning, check_in_list, in_cli, spell

__all__ = ["ScoreTable", "parse_scores", "read_table"]

#: Column names recognised (case-insensitively) as a long table without being named.
LONG_COLUMNS = ("dataset", "algorithm", "score")
MISSING_OPTIONS = ("raise", "drop", "keep")


@dataclass(frozen=True)
class ScoreTable:
    """A checked score table: ``scores[i, j]`` is algorithm j's score on dataset i."""

    scores: np.ndarray
    algorithms: list[str]
    datasets: list[str]

    def to_frame(self) -> pd.DataFrame:
        """The table as a wide DataFrame (datasets x algorithms)."""
        return pd.DataFrame(
            self.scores,
            index=pd.Index(self.datasets, name="dataset", dtype=object),
            columns=pd.Index(self.algorithms, name="algorithm", dtype=object),
        )


def _names_list(what: str, names: Sequence[Any]) -> list[str]:
    out = [str(n) for n in names]
    seen: dict[str, int] = {}
    dups = []
    for n in out:
        seen[n] = seen.get(n, 0) + 1
        if seen[n] == 2:
            dups.append(n)
    if dups:
        listed = ", ".join(repr(d) for d in dups)
        raise CdplotInputError(
            f"duplicate {what} name(s): {listed}; every {what} must have a unique name "
            f"(rename or aggregate the duplicates first)."
        )
    return out


def read_table(path: str | os.PathLike[str]) -> pd.DataFrame:
    """Read a CSV or TSV file into a DataFrame, detecting the delimiter.

    Raises
    ------
    CdplotInputError
        If the file cannot be read or parsed.
    """
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8-sig")
    except OSError as exc:
        raise CdplotInputError(f"cannot read results file {str(path)!r}: {exc.strerror}.") from None
    except UnicodeDecodeError:
        raise CdplotInputError(
            f"results file {str(path)!r} is not UTF-8 text; save it as a UTF-8 CSV."
        ) from None
    return _parse_text(text, str(path))


def _parse_text(text: str, source: str) -> pd.DataFrame:
    import io

    first = next((line for line in text.splitlines() if line.strip()), "")
    if not first:
        raise CdplotInputError(f"results file {source!r} is empty.")
    counts = {sep: first.count(sep) for sep in ("\t", ",", ";")}
    sep = max(counts, key=lambda s: counts[s])
    if counts[sep] == 0:
        raise CdplotInputError(
            f"cannot find a delimiter in the first line of {source!r}; expected a CSV "
            f"(comma-separated) or TSV (tab-separated) file with a header line."
        )
    try:
        return pd.read_csv(io.StringIO(text), sep=sep)
    except (pd.errors.ParserError, ValueError) as exc:
        raise CdplotInputError(
            f"cannot parse {source!r} as a table: {exc}".rstrip(".") + "."
        ) from None


def parse_scores(
    data: Any,
    *,
    dataset: str | Sequence[Any] | None = None,
    algorithm: str | Sequence[Any] | None = None,
    score: str | None = None,
    missing: str = "raise",
) -> ScoreTable:
    """Turn user input into a checked :class:`ScoreTable`.

    Parameters
    ----------
    data : DataFrame, numpy.ndarray, str, os.PathLike or file object
        Wide DataFrame (rows = datasets, columns = algorithms), long DataFrame
        (with ``dataset``, ``algorithm`` and ``score`` naming its columns),
        2-D array (rows = datasets), or the path of a CSV/TSV file (or an open
        text file) in either form.
    dataset, algorithm, score : str, optional
        Column names of a long table. A long table is detected without them
        when its columns are called ``dataset``, ``algorithm`` and ``score``, or
        when it has exactly three columns, the first two holding names (the
        second repeating) and the last numbers. For a
        2-D array, ``algorithm`` and ``dataset`` may instead be sequences of
        names (default ``A1..Ak`` and ``D1..DN``).
    missing : {"raise", "drop", "keep"}
        What to do with missing results (NaN, or an absent cell of a long
        table): raise an error (default), drop the incomplete datasets with a
        warning naming them, or keep them as NaN (for the Skillings-Mack test
        and pairwise tests on the datasets both algorithms have; a table with
        no result at all is still refused).

    Returns
    -------
    ScoreTable

    Raises
    ------
    CdplotInputError
        For anything that cannot be analysed; the message names the offending
        dataset/algorithm and the fix.
    """
    missing = check_in_list(MISSING_OPTIONS, missing=missing)
    if isinstance(data, (str, os.PathLike)) or hasattr(data, "read"):
        if hasattr(data, "read"):
            text = data.read()
            if isinstance(text, bytes):
                text = text.decode("utf-8-sig")
            data = _parse_text(text, str(getattr(data, "name", "<stream>")))
        else:
            data = read_table(data)
        long_cols = _long_columns(data, dataset, algorithm, score)
        if long_cols is None:
            data = _wide_from_file(data)
    if isinstance(data, pd.Series):
        raise CdplotInputError(
            "got a pandas Series; pass a DataFrame with one column per algorithm "
            "(rows = datasets), or a long table with dataset, algorithm and score columns."
        )
    if isinstance(data, pd.DataFrame):
        long_cols = _long_columns(data, dataset, algorithm, score)
        wide = data if long_cols is None else _pivot_long(data, *long_cols)
        table = _from_wide_frame(wide)
    else:
        table = _from_array(data, dataset, algorithm)
    return _check_values(table, missing)


def _long_columns(
    frame: pd.DataFrame, dataset: Any, algorithm: Any, score: Any
) -> tuple[str, str, str] | None:
    given = {"dataset": dataset, "algorithm": algorithm, "score": score}
    if any(v is not None for v in given.values()):
        absent = [k for k, v in given.items() if v is None]
        if absent:
            raise CdplotInputError(
                f"a long table needs all three column names; missing "
                f"{', '.join(_as_given(a) for a in absent)} (e.g. {spell('dataset', 'dataset')}, "
                f"{spell('algorithm', 'algorithm')}, {spell('score', 'accuracy')})."
            )
        for key, col in given.items():
            if not isinstance(col, str) and not np.isscalar(col):
                raise CdplotInputError(
                    f"{_as_given(key)} must name a column of the long table, got "
                    f"{type(col).__name__}."
                )
            if col not in frame.columns:
                raise CdplotInputError(
                    f"column {col!r} (given as {_as_given(key)}) is not in the table; its "
                    f"columns are "
                    f"{', '.join(repr(str(c)) for c in frame.columns)}."
                )
        return dataset, algorithm, score
    lowered = {str(c).strip().lower(): c for c in frame.columns}
    if all(name in lowered for name in LONG_COLUMNS) and len(frame.columns) == 3:
        return tuple(lowered[name] for name in LONG_COLUMNS)  # type: ignore[return-value]
    if frame.shape[1] == 3 and not isinstance(frame.index, pd.MultiIndex):
        # unambiguous long table: two name columns (the second repeating), then the scores
        first, second, third = (frame.iloc[:, j] for j in range(3))
        names_like = not _mostly_numeric(first) and not _mostly_numeric(second)
        if names_like and _mostly_numeric(third) and second.nunique() < len(second):
            return tuple(frame.columns)  # type: ignore[return-value]
    return None


def _as_given(option: str) -> str:
    """``score=`` in Python, ``--score-col`` on the command line."""
    return spell(option) if in_cli() else f"{option}="


def _mostly_numeric(col: pd.Series) -> bool:
    if pd.api.types.is_bool_dtype(col):
        return False
    if pd.api.types.is_numeric_dtype(col):
        return True
    converted = pd.to_numeric(col, errors="coerce")
    return bool(converted.notna().sum() > col.notna().sum() / 2)


def _wide_from_file(frame: pd.DataFrame) -> pd.DataFrame:
    """A wide CSV: a first non-numeric column holds the dataset names."""
    if frame.shape[1] == 0:
        return frame
    first = frame.columns[0]
    col = frame[first]
    is_names = (
        not pd.api.types.is_numeric_dtype(col)
        or str(first).strip().lower()
        in (
            "dataset",
            "datasets",
            "data set",
            "",
        )
        or str(first).startswith("Unnamed")
    )
    if is_names:
        frame = frame.set_index(first)
        frame.index.name = "dataset"
    return frame


def _pivot_long(frame: pd.DataFrame, dataset: str, algorithm: str, score: str) -> pd.DataFrame:
    sub = frame[[dataset, algorithm, score]].copy()
    for col, what in ((dataset, "dataset"), (algorithm, "algorithm")):
        if sub[col].isna().any():
            row = int(np.flatnonzero(sub[col].isna().to_numpy())[0])
            raise CdplotInputError(
                f"the {what} column {col!r} is empty in row {row}; every row of a long table "
                f"needs a {what} name."
            )
        sub[col] = sub[col].astype(str)
    dup = sub.duplicated([dataset, algorithm], keep=False)
    if dup.any():
        first = sub[dup].iloc[0]
        n = int(dup.sum())
        raise CdplotInputError(
            f"duplicate results: algorithm {first[algorithm]!r} on dataset {first[dataset]!r} "
            f"appears more than once ({n} duplicated rows in all); keep one row per "
            f"(dataset, algorithm), e.g. average repeated runs first."
        )
    values = _numeric_column(sub[score], score, sub[dataset], sub[algorithm])
    sub = sub.assign(**{score: values})
    datasets = list(dict.fromkeys(sub[dataset]))
    algorithms = list(dict.fromkeys(sub[algorithm]))
    wide = sub.pivot(index=dataset, columns=algorithm, values=score)
    return wide.reindex(index=datasets, columns=algorithms)


def _numeric_column(
    col: pd.Series,
    name: Any,
    datasets: pd.Series | None = None,
    algorithms: pd.Series | None = None,
) -> pd.Series:
    if pd.api.types.is_bool_dtype(col):
        raise CdplotInputError(
            f"scores of {name!r} are booleans; scores must be numbers (e.g. accuracy, error)."
        )
    if pd.api.types.is_numeric_dtype(col):
        return col.astype(float)
    converted = pd.to_numeric(col, errors="coerce")
    bad = converted.isna() & col.notna()
    if bad.any():
        pos = int(np.flatnonzero(bad.to_numpy())[0])
        value = col.iloc[pos]
        if datasets is not None and algorithms is not None:
            where = f"algorithm {algorithms.iloc[pos]!r} on dataset {datasets.iloc[pos]!r}"
        else:
            where = f"dataset {col.index[pos]!r}"
        raise CdplotInputError(
            f"non-numeric score {value!r} in column {str(name)!r} ({where}); scores must be "
            f"numbers. If this column holds dataset names, "
            + (
                "make it the file's first column."
                if in_cli()
                else f"make it the index (df.set_index({str(name)!r}))."
            )
            if datasets is None
            else f"non-numeric score {value!r} for {where}; scores must be numbers."
        )
    return converted.astype(float)


def _from_wide_frame(frame: pd.DataFrame) -> ScoreTable:
    algorithms = _names_list("algorithm", list(frame.columns))
    datasets = _names_list("dataset", list(frame.index))
    columns = [_numeric_column(frame.iloc[:, j], frame.columns[j]) for j in range(frame.shape[1])]
    if columns:
        scores = np.column_stack([c.to_numpy(dtype=float) for c in columns])
    else:
        scores = np.empty((len(datasets), 0))
    return ScoreTable(scores.reshape(len(datasets), len(algorithms)), algorithms, datasets)


def _from_array(data: Any, dataset: Any, algorithm: Any) -> ScoreTable:
    try:
        arr = np.asarray(data)
    except Exception:  # noqa: BLE001 - anything numpy refuses is a type error for the user
        arr = None
    if arr is None or arr.dtype == object and arr.ndim != 2:
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
    if arr.dtype == bool or not (np.issubdtype(arr.dtype, np.number) or arr.dtype == object):
        raise CdplotInputError(f"scores must be numbers; got an array of dtype {arr.dtype}.")
    algorithms = _names_list(
        "algorithm", [f"A{j + 1}" for j in range(k)] if algorithm is None else list(algorithm)
    )
    datasets = _names_list(
        "dataset", [f"D{i + 1}" for i in range(n)] if dataset is None else list(dataset)
    )
    if len(algorithms) != k:
        raise CdplotInputError(
            f"got {len(algorithms)} algorithm names for an array with {k} columns."
        )
    if len(datasets) != n:
        raise CdplotInputError(f"got {len(datasets)} dataset names for an array with {n} rows.")
    if arr.dtype == object:
        frame = pd.DataFrame(arr, index=datasets, columns=algorithms)
        return _from_wide_frame(frame)
    return ScoreTable(arr.astype(float), algorithms, datasets)


def _check_values(table: ScoreTable, missing: str) -> ScoreTable:
    scores, algorithms, datasets = table.scores, table.algorithms, table.datasets
    k = len(algorithms)
    if k < 2:
        raise CdplotInputError(
            f"need at least 2 algorithms to compare, got {k}"
            + (f" ({algorithms[0]!r})" if k == 1 else "")
            + "; pass one column per algorithm (rows = datasets)."
        )
    inf = np.isinf(scores)
    if inf.any():
        i, j = np.argwhere(inf)[0]
        raise CdplotInputError(
            f"infinite score ({scores[i, j]}) for algorithm {algorithms[j]!r} on dataset "
            f"{datasets[i]!r}; scores must be finite numbers."
        )
    nan = np.isnan(scores)
    if nan.any():
        bad_rows = np.flatnonzero(nan.any(axis=1))
        if missing == "raise":
            i = bad_rows[0]
            j = int(np.flatnonzero(nan[i])[0])
            more = f" ({int(nan.sum())} missing results in all)" if nan.sum() > 1 else ""
            raise CdplotInputError(
                f"missing score (NaN or absent) for algorithm {algorithms[j]!r} on dataset "
                f"{datasets[i]!r}{more}; fill it in, pass {spell('missing', 'keep')} to "
                f"analyse the incomplete table (Skillings-Mack test), or "
                f"{spell('missing', 'drop')} to drop the incomplete datasets."
            )
        if missing == "keep" and nan.all():
            raise CdplotInputError(
                "every score is missing (NaN or absent); the table holds no results."
            )
        if missing == "drop":
            dropped = [datasets[i] for i in bad_rows]
            keep = ~nan.any(axis=1)
            warnings.warn(
                f"dropped {len(dropped)} incomplete dataset(s) with missing results: "
                + ", ".join(repr(d) for d in dropped),
                CdplotWarning,
                stacklevel=4,
            )
            scores = scores[keep]
            datasets = [d for d, kept in zip(datasets, keep, strict=True) if kept]
    n = len(datasets)
    if n < 2:
        raise CdplotInputError(
            f"need at least 2 datasets (rows) to compare algorithms, got {n}"
            + (" after dropping incomplete ones" if nan.any() and missing == "drop" else "")
            + "."
        )
    return ScoreTable(np.ascontiguousarray(scores, dtype=float), algorithms, datasets)

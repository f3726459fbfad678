"""Data frames: pandas, polars, anything with ``to_pandas()`` or ``__dataframe__``.

Where :mod:`cdplot.io` turns data frames into the reader's :class:`ColumnTable`
(:func:`frame_table`); pandas is imported only for input that is not a file, and to build the
DataFrames a user asks for (``ScoreTable.to_frame()``, ``Aggregation.counts``).
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from .._errors import CdplotInputError
from ._columns import ColumnTable, duplicated
from ._read import NA_TOKENS
from ._roles import column_key

__all__ = ["as_pandas", "frame_table"]

#: Names of a row index that holds a column of the table (reset into a column).
_RESET_INDEX = {"dataset", "data", "dataset_name", "dataset_id", "problem", "task", "task_id"}


def _is_polars(data: Any, name: str) -> bool:
    return type(data).__module__.split(".")[0] == "polars" and type(data).__name__ == name


def as_pandas(data: Any) -> Any:
    """``data`` as a pandas DataFrame if it is a data frame of any library, else None.

    polars DataFrames are converted column by column through numpy (no pyarrow needed);
    a DuckDB relation is run by DuckDB's ``df()``; other objects through their
    ``to_pandas()`` method or the ``__dataframe__`` interchange protocol. A polars
    LazyFrame is refused (call ``.collect()`` first).

    Examples
    --------
    >>> import polars as pl
    >>> from cdplot.io import as_pandas
    >>> as_pandas(pl.DataFrame({'A': [0.8, 0.7], 'B': [0.9, 0.6]})).shape
    (2, 2)
    """
    if isinstance(data, (np.ndarray, list, tuple)):  # arrays: no pandas import (its time
        return None  # and memory) for input that is not a data frame
    import pandas as pd

    if isinstance(data, pd.DataFrame):
        return data
    if isinstance(data, pd.Series):
        raise CdplotInputError(
            "got a pandas Series; pass a DataFrame with one column per algorithm "
            "(rows = datasets), or a long table with dataset, algorithm and score columns."
        )
    if _is_polars(data, "LazyFrame"):
        raise CdplotInputError(
            "got a polars LazyFrame; collect it first (compare(lazy.collect(), ...))."
        )
    if _is_polars(data, "Series"):
        raise CdplotInputError(
            "got a polars Series; pass a DataFrame with one column per algorithm "
            "(rows = datasets), or a long table with dataset, algorithm and score columns."
        )
    if _is_polars(data, "DataFrame"):
        columns = {name: data.get_column(name).to_numpy() for name in data.columns}
        return pd.DataFrame(columns)
    if type(data).__module__.split(".")[0] == "duckdb" and callable(getattr(data, "df", None)):
        return _duckdb_frame(data, pd)
    to_pandas = getattr(data, "to_pandas", None)
    if callable(to_pandas):
        try:
            frame = to_pandas()
        except Exception as exc:  # noqa: BLE001 - a foreign library's failure, reported as input
            raise CdplotInputError(
                f"cannot convert the {type(data).__name__} to a pandas DataFrame "
                f"({type(exc).__name__}: {exc}); pass a pandas DataFrame."
            ) from None
        if isinstance(frame, pd.DataFrame):
            return frame
    if hasattr(data, "__dataframe__"):
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                return pd.api.interchange.from_dataframe(data)
        except Exception as exc:  # noqa: BLE001 - a foreign library's failure, reported as input
            raise CdplotInputError(
                f"cannot read the {type(data).__name__} through the data-frame interchange "
                f"protocol ({type(exc).__name__}: {exc}); pass a pandas DataFrame."
            ) from None
    return None


def _duckdb_frame(relation: Any, pd: Any) -> Any:
    """A DuckDB relation run into a pandas DataFrame (DuckDB's own ``df()``)."""
    try:
        frame = relation.df()
    except Exception as exc:  # noqa: BLE001 - a foreign library's failure, reported as input
        raise CdplotInputError(
            f"cannot run the DuckDB {type(relation).__name__} into a data frame "
            f"({type(exc).__name__}: {exc}); pass its result as a DataFrame (rel.df() for "
            f"pandas, rel.pl() for polars)."
        ) from None
    if not isinstance(frame, pd.DataFrame):
        raise CdplotInputError(
            f"the DuckDB {type(relation).__name__} gave a {type(frame).__name__}, not a "
            f"DataFrame; pass rel.df() (pandas) or rel.pl() (polars)."
        )
    return frame


def frame_table(frame: Any) -> ColumnTable:
    """A pandas DataFrame as a :class:`ColumnTable`.

    Column names become strings (checked for duplicates); a MultiIndex of rows, or an index
    named like a dataset column, becomes columns; any other meaningful index (named, or not
    integers) names the datasets. Columns of a numpy number dtype become numpy arrays, the
    others stay pandas Series (so that nullable integers, categories and dates are judged by
    their pandas dtype).
    """
    import pandas as pd

    attrs = dict(frame.attrs)
    written = attrs.pop("cdplot_cells", None)
    if isinstance(frame.columns, pd.MultiIndex):
        raise CdplotInputError(
            "the table has several header rows (MultiIndex columns); flatten them first, "
            "e.g. df.columns = ['_'.join(map(str, c)) for c in df.columns]."
        )
    index = frame.index
    reset = isinstance(index, pd.MultiIndex) or (
        index.name is not None and column_key(index.name) in {column_key(n) for n in _RESET_INDEX}
    )
    if isinstance(index, pd.MultiIndex) and any(n is None for n in index.names):
        raise CdplotInputError(
            "the table has an unnamed level in its row MultiIndex; name every level "
            "(df.index.names = ['dataset', 'fold']) or reset it (df.reset_index())."
        )
    if reset:
        clash = [str(n) for n in index.names if str(n) in {str(c) for c in frame.columns}]
        if clash:
            raise CdplotInputError(
                f"the index and a column are both called {clash[0]!r}; drop one of them or "
                f"rename it."
            )
        frame = frame.reset_index()
    names = [str(c) for c in frame.columns]
    dups = duplicated(names)
    if dups:
        raise CdplotInputError(
            f"duplicate column name(s): {', '.join(repr(d) for d in dups)}; every column "
            f"needs a unique name (rename one of each pair)."
        )
    index = frame.index
    integer_index = getattr(index.dtype, "kind", "O") in "iu"
    named = not reset and (index.name is not None or not integer_index)
    columns = _columns(frame, names)
    return ColumnTable(
        columns,
        len(frame),
        labels=index,
        index_names_datasets=named,
        attrs=attrs,
        cells=None if written is None or reset else _checked_cells(written, columns),
    )


def _checked_cells(written: Any, columns: dict[str, Any]) -> Any:
    """A file's cells as written (from :func:`read_table`), for a column only while the
    frame still holds the values read from them (not after the user changed the frame)."""

    def cells(name: str) -> list[str] | None:
        try:
            text = written(name)
        except (KeyError, CdplotInputError):
            return None
        values = columns[name].tolist()
        if len(text) != len(values):
            return None
        for cell, value in zip(text, values, strict=True):
            if not _same_cell(cell, value):
                return None
        return text

    return cells


def _same_cell(cell: str, value: Any) -> bool:
    """Whether ``value`` is what the reader made of ``cell``."""
    if value is None or (isinstance(value, float) and value != value):
        return cell in NA_TOKENS
    if isinstance(value, str):
        return value == cell
    try:
        return float(cell.replace(",", ".")) == float(value)
    except (TypeError, ValueError):
        return False


def _columns(frame: Any, names: list[str]) -> dict[str, Any]:
    """Column name -> values: numpy arrays for numpy numbers, else pandas Series.

    Numbers are taken one block per dtype (a lookup per column costs about 30 us: 0.15 s
    for 5,000 columns); both kinds answer ``dtype`` and ``tolist()`` alike.
    """
    dtypes = list(frame.dtypes)
    groups: dict[Any, list[int]] = {}
    for j, dtype in enumerate(dtypes):
        if isinstance(dtype, np.dtype) and dtype.kind in "iuf":
            groups.setdefault(dtype, []).append(j)
    values: dict[int, Any] = {}
    for positions in groups.values():
        block = frame.iloc[:, positions].to_numpy()
        for i, j in enumerate(positions):
            values[j] = block[:, i]
    return {name: values[j] if j in values else frame.iloc[:, j] for j, name in enumerate(names)}

"""Parquet and JSON Lines files, read column-wise through polars (``cdplot[parquet]``).

Both readers return a pandas DataFrame whose text columns are pandas ``Categorical`` columns
built from polars' codes: ten million rows of model, task and item names cost a few bytes
per row, never one Python string per row.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import numpy as np

from .._errors import CdplotInputError, renamed_keywords
from ._folders import folder_files

__all__ = ["polars_to_pandas", "read_jsonl", "read_parquet"]


def _polars() -> Any:
    try:
        import polars as pl
    except ImportError:  # pragma: no cover - polars is a test dependency
        raise CdplotInputError(
            "reading Parquet and JSON Lines files needs polars; install it with "
            "pip install 'cdplot[parquet]'."
        ) from None
    return pl


def _files(path: str | os.PathLike[str], suffix: str) -> list[Path]:
    """The file ``path``, or the ``*suffix`` files of the folder ``path`` (sorted)."""
    path = Path(path)
    if path.is_dir():
        files = folder_files(path, f"*{suffix}")
        if not files:
            raise CdplotInputError(
                f"folder {str(path)!r} holds no {suffix} file; pass a {suffix} file or a "
                f"folder of them."
            )
        return files
    if not path.is_file():
        raise CdplotInputError(f"cannot read {str(path)!r}: no such file or folder.")
    return [path]


def _text_codes(col: Any) -> tuple[np.ndarray, list[str]]:
    """Codes (first-appearance order, -1 for null) and names of a polars text column.

    Works on the column's categorical codes: the names are looked up once each, never one
    Python string per row.
    """
    pl = _polars()
    if col.dtype != pl.Categorical:
        col = col.cast(pl.String).cast(pl.Categorical)
    phys = col.to_physical()
    first = (
        pl.DataFrame({"p": phys})
        .with_row_index("i")
        .drop_nulls()
        .unique(subset="p", maintain_order=True)
    )
    names = col.gather(first["i"]).cast(pl.String).to_list()
    if not names:
        return np.full(len(col), -1, dtype=np.int32), []
    lookup = np.full(int(first["p"].max()) + 1, -1, dtype=np.int32)
    lookup[first["p"].to_numpy()] = np.arange(len(names), dtype=np.int32)
    codes = lookup[phys.fill_null(0).to_numpy()]
    if phys.null_count():
        codes[phys.is_null().to_numpy()] = -1
    return codes, names


def polars_to_pandas(frame: Any) -> Any:
    """A polars DataFrame as pandas: numbers as numpy, text as ``Categorical`` (codes).

    Integer columns with missing values become float64 (NaN), as pandas reads them.
    """
    import pandas as pd

    pl = _polars()
    columns: dict[str, Any] = {}
    for name in frame.columns:
        col = frame.get_column(name)
        dtype = col.dtype
        if dtype in (pl.String, pl.Categorical) or isinstance(dtype, pl.Enum):
            codes, names = _text_codes(col)
            columns[name] = pd.Categorical.from_codes(codes, categories=names)
        elif dtype.is_numeric():
            values = col.to_numpy()
            if col.null_count() and values.dtype.kind in "iu":
                values = col.cast(pl.Float64).to_numpy()
            columns[name] = np.asarray(values)
        else:
            columns[name] = col.to_list()
    return pd.DataFrame(columns, copy=False)


def _finish(frame: Any, path: Any) -> Any:
    out = polars_to_pandas(frame)
    out.attrs["cdplot_source"] = str(path)
    return out


def _scan(lazy: Any) -> Any:
    """Collect a lazy frame with its text columns as categoricals (no string per row)."""
    pl = _polars()
    text = [n for n, d in lazy.collect_schema().items() if d == pl.String]
    return lazy.with_columns(pl.col(text).cast(pl.Categorical)).collect(engine="streaming")


@renamed_keywords(path="source")
def read_parquet(source: str | os.PathLike[str], *, columns: list[str] | None = None) -> Any:
    """Read a Parquet file, or a folder of Parquet files, into a long pandas table.

    Parameters
    ----------
    source : str or os.PathLike
        A ``.parquet`` file, or a folder whose ``*.parquet`` files (searched recursively,
        in name order) share one schema.
    columns : list of str, optional
        Read only these columns (Parquet is columnar: the others are never decoded).

    Returns
    -------
    pandas.DataFrame
        One column per Parquet column; text columns are pandas ``Categorical`` (cheap for
        millions of rows of repeated names). :func:`cdplot.compare` takes it as it is.

    Raises
    ------
    CdplotInputError
        If the file or folder is missing, holds no Parquet file, or cannot be read.

    Examples
    --------
    >>> import polars as pl, tempfile, os
    >>> rows = pl.DataFrame({"task": ["t1", "t1"], "model": ["A", "B"], "acc": [0.5, 0.75]})
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     rows.write_parquet(os.path.join(folder, "part-0.parquet"))
    ...     read_parquet(folder)["acc"].tolist()
    [0.5, 0.75]
    """
    pl = _polars()
    files = _files(source, ".parquet")
    try:
        lazy = pl.scan_parquet([str(f) for f in files])
        frame = _scan(lazy if columns is None else lazy.select(columns))
    except Exception as exc:  # noqa: BLE001 - polars' errors are the user's file problems
        raise CdplotInputError(
            f"cannot read Parquet {str(source)!r} ({type(exc).__name__}: {exc}); check that "
            f"every file is Parquet with the same columns."
        ) from None
    return _finish(frame, source)


def read_parquet_items(source: str | os.PathLike[str], item: str | None = None) -> Any:
    """:func:`read_parquet` for :func:`cdplot.compare`: a file with an item column (named as
    items, or ``item``) read in bounded batches into compact columns
    (:mod:`cdplot.io._parquet_compact`); any other file as :func:`read_parquet` reads it."""
    from ._items import find_item_column
    from ._parquet_compact import read_item_parquet

    pl = _polars()
    files = _files(source, ".parquet")
    try:
        names = list(pl.scan_parquet([str(f) for f in files]).collect_schema())
        item_col = find_item_column(names, item)
        frame = None if item_col is None else read_item_parquet(files, item_col)
    except Exception:  # noqa: BLE001 - read_parquet reads it again and names the problem
        frame = None
    if frame is None:
        return read_parquet(source)
    frame.attrs["cdplot_source"] = str(source)
    return frame


@renamed_keywords(path="source")
def read_jsonl(source: str | os.PathLike[str]) -> Any:
    """Read a JSON Lines file (one JSON object per line) into a long pandas table.

    Parameters
    ----------
    source : str or os.PathLike
        A ``.jsonl`` file, or a folder of them (recursively, in name order).

    Returns
    -------
    pandas.DataFrame
        One column per key; text columns are pandas ``Categorical``. Nested objects stay
        Python objects (they are never scores).

    Raises
    ------
    CdplotInputError
        If a line is not a JSON object or the file cannot be read.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     name = pathlib.Path(folder) / "runs.jsonl"
    ...     _ = name.write_text('{"task": "t1", "model": "A", "acc": 0.5}\\n')
    ...     read_jsonl(name).columns.tolist()
    ['task', 'model', 'acc']
    """
    pl = _polars()
    frames = []
    for f in _files(source, ".jsonl"):
        try:
            frames.append(pl.read_ndjson(str(f), infer_schema_length=None))
        except Exception as exc:  # noqa: BLE001 - polars' errors are the user's file problems
            raise CdplotInputError(
                f"cannot read JSON Lines file {str(f)!r} ({type(exc).__name__}: {exc}); every "
                f"line must be one JSON object."
            ) from None
    try:
        frame = pl.concat(frames, how="diagonal_relaxed")
    except Exception as exc:  # noqa: BLE001
        raise CdplotInputError(
            f"the JSON Lines files of {str(source)!r} disagree on the type of a field ({exc}); "
            f"give each field one type."
        ) from None
    return _finish(frame, source)

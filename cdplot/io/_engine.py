"""One front end for lazy and distributed frames, through Narwhals (``cdplot[engines]``).

A Polars ``LazyFrame``, a DuckDB relation (a Parquet folder opened with
:func:`read_parquet_duckdb`), a Dask DataFrame (on a ``distributed`` cluster or not), a
PySpark DataFrame and the eager frames are all one :class:`narwhals.LazyFrame` here: the
statistics of :mod:`cdplot.io._engine_stats` are written once as Narwhals expressions and run
where the data lives. Narwhals rather than Ibis: Narwhals is a pure-Python package without
dependencies that wraps the user's own frame (no connection, no second query engine, no
copy), and its expression language covers what the statistics need (``when``/``then``,
integer arithmetic, grouped sums); Ibis would add a heavy dependency and a SQL compiler
between cdplot and the frames users already hold.
"""

from __future__ import annotations

import os
import warnings
from typing import Any

from .._errors import CdplotInputError

__all__ = [
    "ENGINE_EXTRA",
    "check_engine_columns",
    "engine_frame",
    "engine_name",
    "is_engine_frame",
    "narwhals",
    "read_parquet_duckdb",
]

#: the optional extra that installs the front end and DuckDB
ENGINE_EXTRA = "cdplot[engines]"

#: top-level modules of the frames the front end runs in their engine
_LAZY_MODULES = {"polars": "LazyFrame", "duckdb": None, "dask": None, "pyspark": None}


def narwhals() -> Any:
    """The ``narwhals`` module, or an error naming the extra that installs it."""
    try:
        import narwhals as nw
    except ImportError as exc:  # pragma: no cover - narwhals is a test dependency
        raise CdplotInputError(
            "running the statistics in a lazy or distributed frame's own engine needs "
            f"narwhals; install it with pip install '{ENGINE_EXTRA}'."
        ) from exc
    return nw


def is_engine_frame(data: Any) -> bool:
    """Whether ``data`` is a lazy or distributed frame (Polars lazy, DuckDB, Dask, Spark)."""
    top = type(data).__module__.split(".")[0]
    if top not in _LAZY_MODULES:
        return False
    name = _LAZY_MODULES[top]
    if name is not None:
        return type(data).__name__ == name
    if top == "dask":
        return hasattr(data, "compute") and hasattr(data, "columns")
    return hasattr(data, "columns")


def engine_frame(data: Any) -> Any:
    """``data`` as a :class:`narwhals.LazyFrame` (an eager frame made lazy)."""
    nw = narwhals()
    with warnings.catch_warnings():  # Dask support moving to a plug-in: not the user's concern
        warnings.simplefilter("ignore", FutureWarning)
        try:
            frame = nw.from_native(data)
        except TypeError as exc:
            raise CdplotInputError(
                f"cannot run statistics in a {type(data).__module__.split('.')[0]}."
                f"{type(data).__name__}; pass a Polars (Lazy)Frame, a DuckDB relation, a Dask "
                "or PySpark DataFrame, or a pandas DataFrame."
            ) from exc
    return frame.lazy() if isinstance(frame, nw.DataFrame) else frame


def engine_name(frame: Any) -> str:
    """The engine's name ("polars", "duckdb", "dask", "pyspark", "pandas", ...)."""
    return str(frame.implementation).split(".")[-1].lower()


def check_engine_columns(
    frame: Any, *, text: dict[str, str], numeric: dict[str, str], integer: dict[str, str]
) -> dict[str, Any]:
    """Refuse a missing column or one of the wrong type; the schema, by column name.

    ``text``, ``numeric`` and ``integer`` map a role ("task", "score", ...) to its column.
    """
    nw = narwhals()
    try:
        schema = dict(frame.collect_schema())
    except Exception as exc:  # noqa: BLE001 - the engine's own error (e.g. a cluster gone)
        raise engine_failure(exc, "reading the columns") from exc
    for role, column in {**text, **numeric, **integer}.items():
        if column not in schema:
            raise CdplotInputError(
                f"the {role} column {column!r} is not in the frame; its columns are "
                f"{', '.join(map(repr, schema))}: name the column with {role}=..."
            )
    for role, column in numeric.items():
        dtype = schema[column]
        if not (dtype.is_numeric() or dtype == nw.Boolean):
            raise CdplotInputError(
                f"the {role} column {column!r} holds {dtype}, not numbers; cast it to a float "
                f"(e.g. pl.col({column!r}).cast(pl.Float64)) or name the score column."
            )
    for role, column in integer.items():
        if not schema[column].is_integer():
            raise CdplotInputError(
                f"the {role} column {column!r} holds {schema[column]}, and hashed bootstrap "
                f"weights need integer ids; map the ids to integers (e.g. a dense rank of "
                f"{column!r}) before the bootstrap."
            )
    return schema


def engine_failure(exc: BaseException, doing: str) -> CdplotInputError:
    """The engine's own failure (a worker or cluster gone, a file removed) as one error."""
    return CdplotInputError(
        f"the frame's engine failed while {doing} ({type(exc).__name__}: "
        f"{str(exc).splitlines()[0] if str(exc) else 'no message'}); nothing was written: "
        "check that the cluster or database is still running and the files are there, then "
        "run again."
    )


def read_parquet_duckdb(path: str | os.PathLike[str]) -> Any:
    """A Parquet file or folder (every ``*.parquet`` below it) as a DuckDB relation.

    Nothing is read until a statistic runs; DuckDB then streams the files with bounded
    memory (spilling to its temporary directory when needed).

    Parameters
    ----------
    path : str or os.PathLike
        A ``.parquet`` file or a folder of them.

    Returns
    -------
    duckdb.DuckDBPyRelation

    Raises
    ------
    CdplotInputError
        DuckDB not installed (the message names the extra), or no Parquet file there.

    Examples
    --------
    >>> import os, tempfile, pandas as pd
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = os.path.join(folder, "part0.parquet")
    ...     pd.DataFrame({"model": ["a", "b"], "score": [1.0, 0.0]}).to_parquet(path)
    ...     read_parquet_duckdb(folder).aggregate("sum(score)").fetchall()
    [(1.0,)]
    """
    try:
        import duckdb
    except ImportError as exc:  # pragma: no cover - duckdb is a test dependency
        raise CdplotInputError(
            f"reading Parquet through DuckDB needs duckdb; install it with pip install "
            f"'{ENGINE_EXTRA}'."
        ) from exc
    path = os.fspath(path)
    pattern = os.path.join(path, "**", "*.parquet") if os.path.isdir(path) else path
    try:
        return duckdb.read_parquet(pattern)
    except Exception as exc:  # noqa: BLE001 - DuckDB's errors are the user's file problems
        raise CdplotInputError(
            f"cannot read {path!r} as Parquet through DuckDB ({str(exc).splitlines()[0]}); "
            "pass a .parquet file or a folder holding .parquet files."
        ) from exc

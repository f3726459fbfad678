"""``cdplot compare --engine``: a Parquet file or folder read through DuckDB.

With ``--engine auto`` (the default) a Parquet input whose rows would not fit in memory is
read through DuckDB: the statistics are computed where the files are and only the task x
model table comes back. In memory cdplot's Parquet reader peaks at about 12 bytes per row of
0/1 item scores (``benchmarks/memory.py``) and the most compact files hold a 0/1 row in
about 0.8 byte of Parquet, so an input is read through DuckDB when
:data:`BYTES_PER_PARQUET_BYTE` times its size on disk exceeds the memory available (files
with more bytes per row are sent to DuckDB earlier than they need to be, never later).
``--engine duckdb`` forces it; ``--engine memory`` never uses it.
"""

from __future__ import annotations

import argparse
import os
from typing import Any

from .._errors import CdplotInputError

__all__ = ["ENGINES", "add_engine_option", "engine_source"]

#: values of ``--engine``
ENGINES = ("auto", "duckdb", "memory")
#: memory in bytes an in-memory analysis takes per byte of Parquet (12.4 bytes per row of
#: 0/1 item scores at 10^8 rows, about 0.8 byte of Parquet per row in the most compact files)
BYTES_PER_PARQUET_BYTE = 16


def add_engine_option(parser: argparse.ArgumentParser) -> None:
    """``--engine {auto,duckdb,memory}``."""
    parser.add_argument(
        "--engine",
        choices=ENGINES,
        default="auto",
        help="how a Parquet file or folder of item scores is read: 'duckdb' computes the "
        "statistics in DuckDB (bounded memory; needs cdplot[engines]), 'memory' reads it "
        "into memory, 'auto' (default) uses DuckDB when the input would not fit in memory",
    )


def _parquet_bytes(path: str) -> int | None:
    """Size on disk of a Parquet file or of the ``*.parquet`` files under a folder (None:
    not Parquet)."""
    if os.path.isfile(path):
        return os.path.getsize(path) if path.endswith(".parquet") else None
    if not os.path.isdir(path):
        return None
    sizes = [
        os.path.getsize(os.path.join(root, name))
        for root, _, files in os.walk(path)
        for name in files
        if name.endswith(".parquet")
    ]
    return sum(sizes) if sizes else None


def available_memory() -> int:
    """Bytes of memory available (``MemAvailable`` of ``/proc/meminfo``, else physical)."""
    try:
        with open("/proc/meminfo", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:  # pragma: no cover - not Linux
        pass
    return int(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES"))


def engine_source(path: Any, engine: str) -> Any:
    """What ``compare()`` reads for ``path``: a DuckDB relation, or ``path`` itself."""
    if engine == "memory" or not isinstance(path, str):
        return path
    size = _parquet_bytes(path)
    if size is None:
        if engine == "duckdb":
            raise CdplotInputError(
                f"--engine duckdb reads Parquet files or folders, and {path!r} is neither; "
                "drop --engine or pass .parquet files."
            )
        return path
    if engine == "auto" and size * BYTES_PER_PARQUET_BYTE <= available_memory():
        return path
    from ..io._engine import read_parquet_duckdb

    relation = read_parquet_duckdb(path)  # refuses, naming the extra, without DuckDB
    import duckdb

    duckdb.execute("SET enable_progress_bar = false")  # the CLI's output stays its own
    return relation

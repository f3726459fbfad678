"""Reading score tables: files and CSV dialects, column roles, repeated runs.

Layer 1 (see ARCHITECTURE.md): imports only :mod:`cdplot._errors`. Everything a user can
hand to :func:`cdplot.compare` goes through :func:`parse_scores`, which returns a checked
:class:`ScoreTable`.

- ``_columns.py``: ``ColumnTable``, the one shape every table takes inside the reader (named
  columns, row labels), so that a file and the same DataFrame go through one logic;
- ``_read.py``: CSV/TSV files (``,``, tab, ``;`` with decimal commas) into a ``ColumnTable``
  of numpy columns: reading a file never imports pandas;
- ``_frames.py``: pandas, polars, ``to_pandas()`` and ``__dataframe__`` objects into a
  ``ColumnTable`` (pandas is imported only for input that is not a file);
- ``_roles.py``: which column holds datasets, algorithms, runs and scores, by name;
- ``_cost.py``: a cost column (run time, tokens, price) per dataset and algorithm;
- ``_values.py``: cells -> real numbers, refusing anything else and naming the cell;
- ``_aggregate.py``: repeated runs -> one exact score per cell;
- ``_table.py``: missing results, infinities, sizes -> the :class:`ScoreTable`;
- ``_rows.py``: what names say: summary rows, lower-is-better measures.
- ``_sources.py``: recognising benchmark sources (``_parquet.py`` Parquet and JSON Lines,
  ``_lmeval.py`` lm-evaluation-harness output, ``_inspect.py`` Inspect AI logs,
  ``_helm.py`` HELM per-instance outputs, ``_swebench.py`` SWE-bench results,
  ``_trackers.py`` MLflow, W&B and OpenML exports), item-level tables (``_items.py``), one
  benchmark's items (``_benchmark.py``: ``BenchmarkItems``) and Dask DataFrames, before
  parsing; ``_runs.py`` two or more logs of one benchmark, one run each.
- ``_engine.py``: lazy and distributed frames (Polars lazy, DuckDB, Dask, PySpark) through
  one front end (Narwhals); ``_engine_stats.py`` the sufficient statistics of item scores
  computed in their engine, ``_engine_boot.py`` hashed Poisson bootstrap replicates there,
  ``_engine_input.py`` what ``compare()`` reads of such a frame.
"""

from __future__ import annotations

from ._aggregate import AGGREGATES, Aggregation, exact_mean
from ._benchmark import BenchmarkItems
from ._engine import read_parquet_duckdb
from ._engine_boot import BootstrapReplicates, engine_bootstrap, hashed_poisson
from ._engine_stats import EngineStatistics, engine_statistics
from ._frames import as_pandas
from ._helm import read_helm
from ._inspect import read_inspect
from ._items import CLUSTER_NAMES, ITEM_NAMES, SAMPLE_NAMES, ItemScores
from ._lmeval import read_lm_eval
from ._parquet import read_jsonl, read_parquet
from ._parse import parse_scores, table_roles
from ._read import read_columns, read_table
from ._roles import (
    ALGORITHM_NAMES,
    COST_NAMES,
    DATASET_NAMES,
    REPETITION_NAMES,
    Roles,
    column_key,
    resolve_roles,
)
from ._rows import LOWER_IS_BETTER_WORDS, SUMMARY_ROW_NAMES
from ._run_scores import RunScores, normalise_runs, read_run_scores
from ._runs import read_runs
from ._sources import prepare_input
from ._swebench import read_swebench
from ._table import MISSING_OPTIONS, ScoreTable, check_decimals, input_notes
from ._trackers import read_mlflow, read_openml, read_wandb

__all__ = [
    "BootstrapReplicates",
    "EngineStatistics",
    "engine_bootstrap",
    "hashed_poisson",
    "engine_statistics",
    "read_parquet_duckdb",
    "AGGREGATES",
    "ALGORITHM_NAMES",
    "Aggregation",
    "BenchmarkItems",
    "CLUSTER_NAMES",
    "COST_NAMES",
    "DATASET_NAMES",
    "LOWER_IS_BETTER_WORDS",
    "ITEM_NAMES",
    "ItemScores",
    "MISSING_OPTIONS",
    "REPETITION_NAMES",
    "SAMPLE_NAMES",
    "SUMMARY_ROW_NAMES",
    "Roles",
    "ScoreTable",
    "as_pandas",
    "check_decimals",
    "column_key",
    "exact_mean",
    "input_notes",
    "parse_scores",
    "prepare_input",
    "read_columns",
    "read_helm",
    "read_inspect",
    "read_jsonl",
    "read_lm_eval",
    "read_mlflow",
    "read_openml",
    "read_parquet",
    "read_runs",
    "RunScores",
    "normalise_runs",
    "read_run_scores",
    "read_swebench",
    "read_table",
    "read_wandb",
    "resolve_roles",
    "table_roles",
]

"""``cdplot compare base.jsonl new.jsonl``: runs of one benchmark compared with each other.

Several RESULTS files that are each one benchmark's items (an item table with one task) are
runs of that benchmark: each file's model (named by the file, or ``--name``) is compared with
the others on the items they share (:func:`cdplot.stats.compare_runs`). Files that are boards
of datasets keep their meaning (one comparison each).
"""

from __future__ import annotations

import argparse
import warnings
from typing import Any

from .._errors import CdplotInputError
from ._output import STDOUT

__all__ = ["compare_read_runs", "read_runs"]

#: compare() keywords about reading a file (used by the reader, not the comparison)
_READER = ("dataset", "algorithm", "score", "item", "missing", "cluster", "sample")
#: compare() keywords about boards of datasets, refused for runs of one benchmark
_BOARD = ("aggregate", "decimals", "tie_correction", "omnibus", "order")


def read_runs(
    args: argparse.Namespace, names: list[str], options: dict[str, Any]
) -> tuple[list[Any], list[str]] | None:
    """The runs (one :class:`~cdplot.io._benchmark.BenchmarkItems` a file) and their names,
    or None when the files are boards of datasets (or standard input is among them)."""
    from .. import io

    if STDOUT in args.results:
        return None
    from ..io._benchmark import OneModelError

    reading = {k: v for k, v in options.items() if k in _READER}
    runs, boards, logs = [], [], []
    with warnings.catch_warnings(record=True) as said:
        warnings.simplefilter("always")
        for name, path in zip(names, args.results, strict=True):
            try:
                source = io.prepare_input(path, **reading)
            except OneModelError:  # one model's log: read with the other logs below
                logs.append(name)
                continue
            if source.benchmark is None:
                boards.append(name)
            else:
                runs.append(source.benchmark)
        if logs and len(logs) == len(names):
            runs = [_one_model_logs(args.results, names, reading)]
    if not runs and not logs:
        return None  # boards: compare() reads each again, and says its warnings then
    for w in said:  # the runs' reading: said once
        warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
    if logs and len(logs) < len(names):
        raise CdplotInputError(
            f"the RESULTS files mix logs of one model ({', '.join(logs)}) with tables of "
            "several models or boards of datasets; pass either one log per run (each a "
            "model's items) or tables that each hold every model."
        )
    if boards:
        raise CdplotInputError(
            f"the RESULTS files mix runs of one benchmark (item tables with one task) and "
            f"boards of datasets ({', '.join(boards)}); compare runs of the same benchmark "
            "together, and boards in another run of cdplot compare."
        )
    return runs, names


def _one_model_logs(paths: list[str], names: list[str], reading: dict[str, Any]) -> Any:
    """Logs of one model each, joined on their items as one benchmark (a model per log)."""
    from ..io._runs import read_runs as read_logs

    columns = {k: reading[k] for k in ("item", "score", "cluster", "sample") if k in reading}
    if reading.get("missing") is not None:
        columns["missing"] = reading["missing"]
    return read_logs(paths, names=names, **columns)


def compare_read_runs(read: tuple[list[Any], list[str]], options: dict[str, Any]) -> Any:
    """The comparison of the runs (:func:`cdplot.stats.compare_runs`) with the user's options."""
    from ..stats._benchmark import compare_runs, refuse_board_options

    runs, names = read
    refuse_board_options(
        **{k: options[k] for k in _BOARD if k in options},
        test_options={
            k: v for k, v in options.items() if k not in (*_READER, *_BOARD, *_COMPARISON)
        },
    )
    given = {k: v for k, v in options.items() if k in _COMPARISON}
    if len(runs) == 1:  # logs of one model each, already joined on their items
        from ..stats._benchmark import compare_benchmark

        return compare_benchmark(runs[0], **given)
    one_model_each = all(len(run.models) == 1 for run in runs)
    return compare_runs(runs, names if one_model_each else None, **given)


#: compare_benchmark() keywords the command line passes on
_COMPARISON = (
    "test",
    "correction",
    "alpha",
    "control",
    "higher_is_better",
    "confidence",
    "labels",
    "bh_budget",
    "fdr_groups",
)

"""Two (or more) logs of one benchmark, one run each: the "did my change help" question.

:func:`read_runs` reads each file with the reader its content calls for (JSON Lines, Parquet,
CSV, Inspect AI logs, lm-evaluation-harness samples, ...), names each run after its file,
checks that the runs are of one benchmark and scored the same items, and returns one
:class:`~cdplot.io._benchmark.BenchmarkItems` with one model per file.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from .._errors import CdplotInputError, spell
from ._benchmark import BenchmarkItems, _bool_or_scores, benchmark_items
from ._items import find_cluster_column, find_item_column, find_sample_column
from ._roles import _ALGORITHM, _DATASET, column_key

__all__ = ["read_runs"]


def _one_value(table: Any, column: str, path: Path, what: str) -> str | None:
    import pandas as pd

    _, uniques = pd.factorize(table[column], use_na_sentinel=True)
    if len(uniques) > 1:
        raise CdplotInputError(
            f"{str(path)!r} holds {len(uniques)} {what}s in column {column!r} "
            f"({', '.join(repr(str(u)) for u in uniques[:3])}{', ...' if len(uniques) > 3 else ''}"
            f"); a run log holds one {what}: pass the file to cdplot.compare() instead, or "
            f"split it by {what}."
        )
    return str(uniques[0]) if len(uniques) else None


def _score_column(table: Any, free: list[str], score: Any, path: Path) -> str:
    from ._parse import _numeric_like

    if score is not None and score in table.columns:
        return str(score)
    if score is not None:
        raise CdplotInputError(
            f"column {score!r} (given as {spell('score')}) is not in {str(path)!r}; its columns "
            f"are {', '.join(map(repr, table.columns))}."
        )
    numeric = [c for c in free if _numeric_like(table[c])]
    if len(numeric) == 1:
        return numeric[0]
    listed = ", ".join(map(repr, numeric or free))
    raise CdplotInputError(
        f"cannot tell the score column of {str(path)!r} (candidates: {listed or 'none'}); "
        f"name it with {spell('score', (numeric or free or ['COLUMN'])[0])}."
    )


def _read_one(path: Path, item: Any, score: Any, cluster: Any, sample: Any) -> dict[str, Any]:
    """Items, scores, task, clusters and samples of one run log."""
    from ._parse import _as_table
    from ._sources import read_source

    data, _, _, read_score, note = read_source(path, score=score)
    table = _as_table(data)
    if table is None:
        raise CdplotInputError(f"cannot read {str(path)!r} as a table.")
    cols = table.columns
    item_col = find_item_column(cols, item)
    if item_col is None:
        raise CdplotInputError(
            f"no column of {str(path)!r} names the items (columns: "
            f"{', '.join(map(repr, cols))}); name it with {spell('item', 'COLUMN')}."
        )
    cluster_col = find_cluster_column(cols, cluster, {item_col})
    sample_col = find_sample_column(cols, sample, {item_col, cluster_col})
    taken = {item_col, cluster_col, sample_col}
    task = model = None
    for c in cols:
        if c not in taken and column_key(c) in _DATASET:
            task, taken = _one_value(table, c, path, "task"), taken | {c}
        elif c not in taken and column_key(c) in _ALGORITHM:
            model, taken = _one_value(table, c, path, "model"), taken | {c}
    wanted = score if score is not None else (read_score if note is not None else None)
    score_col = _score_column(table, [c for c in cols if c not in taken], wanted, path)
    return {
        "items": np.asarray(table[item_col], dtype=object).astype(str),
        "values": _bool_or_scores(table[score_col], score_col),
        "task": task,
        "model": model,
        "item_col": item_col,
        "cluster": None if cluster_col is None else np.asarray(table[cluster_col], dtype=object),
        "cluster_col": cluster_col,
        "sample": None if sample_col is None else np.asarray(table[sample_col], dtype=object),
        "sample_col": sample_col,
    }


def _run_names(paths: list[Path], names: Sequence[str] | None) -> list[str]:
    if names is not None:
        if len(names) != len(paths) or len(set(map(str, names))) != len(names):
            raise CdplotInputError(
                f"names= needs {len(paths)} distinct names, one per file; got {list(names)!r}."
            )
        return [str(n) for n in names]
    stems = [p.stem if p.is_file() else p.name for p in paths]
    if len(set(stems)) == len(stems):
        return stems
    longer = [f"{p.parent.name}/{s}" for p, s in zip(paths, stems, strict=True)]
    if len(set(longer)) == len(longer):
        return longer
    raise CdplotInputError(
        f"two runs would share the name {stems[0]!r}; name them with names=['base', 'new']."
    )


def _check_same_benchmark(runs: list[dict[str, Any]], paths: list[Path], missing: str) -> None:
    named = [(str(p), r["task"]) for p, r in zip(paths, runs, strict=True) if r["task"]]
    for path, task in named[1:]:
        if task != named[0][1]:
            raise CdplotInputError(
                f"the runs are of different benchmarks: {named[0][0]!r} is task "
                f"{named[0][1]!r} but {path!r} is task {task!r}; compare runs of one benchmark."
            )
    if missing != "raise":
        return
    first = set(runs[0]["items"])
    for run_path, run in zip(paths[1:], runs[1:], strict=True):
        other = set(run["items"])
        if other != first:
            only_a = sorted(map(str, first - other))
            only_b = sorted(map(str, other - first))
            example = (
                f"{only_a[0]!r} only in {str(paths[0])!r}"
                if only_a
                else f"{only_b[0]!r} only in {str(run_path)!r}"
            )
            raise CdplotInputError(
                f"{str(paths[0])!r} and {str(run_path)!r} score different items ({len(first)} and "
                f"{len(other)}; {len(only_a) + len(only_b)} not in both, e.g. {example}); are "
                f"they runs of one benchmark? Pass {spell('missing', 'drop')} to compare on the "
                f"items both scored."
            )


def read_runs(
    paths: Sequence[str | os.PathLike[str]],
    *,
    names: Sequence[str] | None = None,
    item: str | None = None,
    score: str | None = None,
    cluster: str | None = None,
    sample: str | None = None,
    missing: str = "raise",
) -> BenchmarkItems:
    """Read two (or more) logs of one benchmark, one run each, as one benchmark's items.

    Each file is read by content (JSON Lines, Parquet, CSV, an Inspect AI log,
    lm-evaluation-harness samples, ...); each run becomes one model, named after its file.

    Parameters
    ----------
    paths : sequence of str or os.PathLike
        The logs, e.g. ``["base.jsonl", "new.jsonl"]`` (at least two).
    names : sequence of str, optional
        The runs' names (default: the file names without their suffix).
    item, score, cluster, sample : str, optional
        The item, score, cluster and sample columns, as for :func:`cdplot.compare` (found
        by name when not given).
    missing : {"raise", "drop", "keep"}
        Runs that scored different items: refused naming the difference (default), the
        items all runs scored, or every item (NaN where a run has none).

    Returns
    -------
    BenchmarkItems
        One model per file, in the order given.

    Raises
    ------
    CdplotInputError
        For fewer than two files, a file holding several models or tasks, runs of
        different benchmarks (their task columns differ), runs that scored different items
        (with ``missing="raise"``), and the errors of :func:`cdplot.io.prepare_input`.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> with tempfile.TemporaryDirectory() as root:
    ...     for name, hits in (("base", "1001"), ("new", "1101")):
    ...         rows = "".join(f'{{"item": "q{i}", "correct": {h}}}\\n' for i, h in enumerate(hits))
    ...         _ = (pathlib.Path(root) / f"{name}.jsonl").write_text(rows)
    ...     runs = read_runs([pathlib.Path(root) / "base.jsonl", pathlib.Path(root) / "new.jsonl"])
    >>> runs.models, runs.scores[:, 1].tolist()
    (('base', 'new'), [1.0, 1.0, 0.0, 1.0])
    """
    import pandas as pd

    files = [Path(p) for p in paths]
    if len(files) < 2:
        raise CdplotInputError(
            f"read_runs compares runs: pass two or more logs of one benchmark, got {len(files)}."
        )
    runs = [_read_one(f, item, score, cluster, sample) for f in files]
    labels = _run_names(files, names)
    _check_same_benchmark(runs, files, missing)
    items = np.concatenate([r["items"] for r in runs])
    item_codes, item_ids = pd.factorize(items)
    sizes = [len(r["items"]) for r in runs]
    model = np.repeat(np.arange(len(runs), dtype=np.int32), sizes)
    codes: dict[str, Any] = {}
    for role in ("cluster", "sample"):
        if all(r[role] is None for r in runs):
            codes[role], codes[role + "_ids"] = None, None
            continue
        joined = np.concatenate(
            [r[role] if r[role] is not None else np.full(len(r["items"]), "") for r in runs]
        )
        codes[role], uniques = pd.factorize(joined)
        codes[role + "_ids"] = [str(u) for u in uniques]
    cluster_col = next((r["cluster_col"] for r in runs if r["cluster_col"]), None)
    sample_col = next((r["sample_col"] for r in runs if r["sample_col"]), None)
    listed = ", ".join(f"{n!r} ({f.name})" for n, f in zip(labels, files, strict=True))
    return benchmark_items(
        model,
        labels,
        item_codes,
        list(item_ids),
        np.concatenate([r["values"] for r in runs]),
        cluster=codes["cluster"],
        cluster_ids=codes["cluster_ids"],
        sample=codes["sample"],
        missing=missing,
        task=next((r["task"] for r in runs if r["task"]), None),
        columns=(runs[0]["item_col"], cluster_col, sample_col),
        note=f"{len(files)} runs of one benchmark: {listed}",
    )

"""A stand-in for the reader of one benchmark's item tables, for the tests of the entry points.

``prepare_input`` hands one benchmark's items to :func:`cdplot.compare` as
``Prepared.benchmark``; :func:`patch_reader` makes sure a small long CSV table of
``model, item, score`` (and ``cluster``) reaches the entry points so: the real reader's answer
when it recognises the table, else the items built here from the file.
"""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any

import numpy as np

import cdplot.io
import cdplot.stats._compare
from cdplot import CdplotInputError
from cdplot.io._benchmark import BenchmarkItems

REAL = cdplot.io.prepare_input


def write_items(path: Path, scores: np.ndarray, models, clusters=None) -> Path:
    """A long CSV table ``model, item, score`` (+ ``cluster``) of an items x models matrix."""
    with open(path, "w", newline="") as fh:
        out = csv.writer(fh)
        out.writerow(["model", "item", "score"] + (["cluster"] if clusters is not None else []))
        for j, model in enumerate(models):
            for i in range(scores.shape[0]):
                row = [model, f"q{i}", repr(float(scores[i, j]))]
                out.writerow(row + ([f"c{clusters[i]}"] if clusters is not None else []))
    return path


def _items_of_file(path: Any, cluster: str | None) -> BenchmarkItems | None:
    if not isinstance(path, (str, Path)) or not str(path).endswith(".csv"):
        return None
    with open(path, newline="") as fh:
        rows = list(csv.DictReader(fh))
    if not rows or set(rows[0]) - {"model", "item", "score", "cluster"}:
        return None
    models = tuple(dict.fromkeys(r["model"] for r in rows))
    items = tuple(dict.fromkeys(r["item"] for r in rows))
    scores = np.full((len(items), len(models)), np.nan)
    row_of = {item: i for i, item in enumerate(items)}
    col_of = {m: j for j, m in enumerate(models)}
    for r in rows:
        scores[row_of[r["item"]], col_of[r["model"]]] = float(r["score"])
    clusters, ids, column = None, (), None
    if cluster is not None or "cluster" in rows[0]:
        column = cluster or "cluster"
        if column not in rows[0]:
            raise CdplotInputError(f"no column {column!r}.")
        of_item = {r["item"]: r[column] for r in rows}
        ids = tuple(dict.fromkeys(of_item[i] for i in items))
        code = {c: n for n, c in enumerate(ids)}
        clusters = np.array([code[of_item[i]] for i in items], dtype=np.int64)
    binary = bool(np.isin(scores[~np.isnan(scores)], (0.0, 1.0)).all())
    return BenchmarkItems(
        models, items, scores, binary, clusters=clusters, cluster_ids=ids, cluster_column=column
    )


def fake_prepare_input(data: Any, **options: Any) -> Any:
    """The real reader's answer when it has the benchmark, else the items built here."""
    try:
        real = REAL(data, **options)
    except CdplotInputError:
        real = None
    if real is not None and real.benchmark is not None:
        return real
    items = _items_of_file(data, options.get("cluster"))
    if items is None:
        return REAL(data, **options)
    return cdplot.io._sources.Prepared(None, None, None, None, None, benchmark=items)


def patch_reader(monkeypatch: Any) -> None:
    """Route compare() and the command line through :func:`fake_prepare_input`."""
    monkeypatch.setattr(cdplot.stats._compare, "prepare_input", fake_prepare_input)
    monkeypatch.setattr(cdplot.io, "prepare_input", fake_prepare_input)


__all__ = ["fake_prepare_input", "patch_reader", "same_numbers", "write_items"]


def same_numbers(a, b) -> None:
    """Two comparisons of the same items agree on every number (the reader may order the
    models or items otherwise and say more about the input)."""
    assert sorted(a.algorithms) == sorted(b.algorithms)
    assert sorted(a.datasets) == sorted(b.datasets)
    assert (a.test, a.correction, a.groups) == (b.test, b.correction, b.groups)
    assert a.adjusted_pvalues.loc[b.algorithms, b.algorithms].equals(b.adjusted_pvalues), (
        "adjusted p-values"
    )
    assert a.model_statistics.equals(b.model_statistics)

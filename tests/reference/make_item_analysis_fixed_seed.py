"""Item-level analysis of small tables, computed once by the code before the in-memory path
was made compact (cdplot at commit bdbe7e4), for ``tests/test_item_memory.py``.

Writes ``item_analysis_fixed_seed.json``: for each table below (built here from a fixed numpy
seed) and each way of passing it (a pandas DataFrame, a Parquet file written by polars), the
exact values (``float.hex``) of

- ``cdplot.compare(source, missing=...)``: average ranks, raw p-values, task x model scores,
  and the per-task item matrices and item labels of ``res.items``;
- ``cdplot.stats.item_tests(res)`` (and ``method="permutation", random_state=5`` on the
  continuous table): every column of the table;
- ``cdplot.stats.hierarchical_rank_intervals(res, n_boot=60, random_state=3)``;
- ``cdplot.rank_intervals(res, method="hierarchical", n_boot=100, random_state=3)``: low,
  high and p_best.

Run from the repository root with the code to record on ``PYTHONPATH``:
``PYTHONPATH=/path/to/that/checkout python tests/reference/make_item_analysis_fixed_seed.py``
(a few seconds). The test imports :func:`tables` and :func:`analyse` from this file and
runs them on today's code.
"""

from __future__ import annotations

import json
import sys
import tempfile
import warnings
from pathlib import Path
from typing import Any

import numpy as np

OUT = Path(__file__).with_name("item_analysis_fixed_seed.json")


def _rows(models: int, tasks: int, items: int, binary: bool, seed: int) -> dict[str, Any]:
    """Long rows (task, model, doc_id, acc): task-major, items in a shuffled order per task."""
    rng = np.random.default_rng(seed)
    skill = np.linspace(0.35, 0.75, models)
    task, model, doc, acc = [], [], [], []
    for t in range(tasks):
        order = rng.permutation(items) * 7 + 3  # item labels neither sorted nor dense
        for m in range(models):
            for i in order:
                task.append(f"task{t}")
                model.append(f"m{(m * (models - 1)) % models}")  # not in name order
                doc.append(int(i))
                if binary:
                    acc.append(float(rng.random() < skill[m]))
                else:
                    acc.append(float(np.round(rng.normal(skill[m], 0.2), 3)))
    return {"task": task, "model": model, "doc_id": doc, "acc": acc}


def tables() -> dict[str, tuple[dict[str, Any], str, bool]]:
    """Name -> (columns, ``missing=``, whether the permutation test is recorded too)."""
    binary = _rows(6, 4, 60, True, 11)
    holes = {k: [v for i, v in enumerate(col) if i % 37 != 5] for k, col in binary.items()}
    return {
        "binary": (binary, "raise", False),
        "binary_missing_keep": (holes, "keep", False),
        "binary_missing_drop": (holes, "drop", False),
        "continuous": (_rows(5, 3, 30, False, 12), "raise", True),
    }


def _hex(values: Any) -> list[str]:
    return [float(v).hex() for v in np.asarray(values, dtype=float).reshape(-1)]


def analyse(source: Any, missing: str, permutation: bool) -> dict[str, Any]:
    """The recorded values of one table passed as ``source``."""
    import cdplot
    from cdplot.stats import hierarchical_rank_intervals, item_tests

    warnings.simplefilter("ignore")
    res = cdplot.compare(source, missing=missing)
    out: dict[str, Any] = {
        "algorithms": list(res.algorithms),
        "datasets": list(res.datasets),
        "average_ranks": _hex(res.average_ranks.to_numpy()),
        "pvalues": _hex(res.pvalues.to_numpy()),
        "scores": _hex(res.scores.to_numpy()),
        "items": {
            t: {
                "shape": list(res.items.frame(t).shape),
                "values": _hex(res.items.frame(t).to_numpy()),
                "ids": [str(v) for v in res.items.frame(t).index],
            }
            for t in res.items.tasks
        },
    }
    calls: dict[str, dict[str, Any]] = {"item_tests": {}}
    if permutation:
        calls["item_tests_permutation"] = {"method": "permutation", "random_state": 5}
    for name, kwargs in calls.items():
        tab = item_tests(res, **kwargs)
        out[name] = {
            col: (
                _hex(tab[col].to_numpy())
                if tab[col].dtype.kind == "f"
                else [str(v) for v in tab[col].tolist()]
            )
            for col in tab.columns
        }
    ci = hierarchical_rank_intervals(res, n_boot=60, random_state=3)
    out["hierarchical_rank_intervals"] = {
        "index": [str(v) for v in ci.index],
        **{col: _hex(ci[col].to_numpy()) for col in ci.columns},
    }
    ri = cdplot.rank_intervals(res, method="hierarchical", n_boot=100, random_state=3)
    frame = ri.to_frame() if hasattr(ri, "to_frame") else ri
    out["rank_intervals_hierarchical"] = {
        "index": [str(v) for v in frame.index],
        **{
            col: _hex(frame[col].to_numpy())
            for col in frame.columns
            if frame[col].dtype.kind in "fiu"
        },
    }
    return out


def sources(columns: dict[str, Any], folder: Path, name: str) -> dict[str, Any]:
    """The table as a pandas DataFrame and as a Parquet file (named after the table)."""
    import pandas as pd
    import polars as pl

    path = folder / f"{name}.parquet"
    pl.DataFrame(columns).write_parquet(path)
    return {"pandas": pd.DataFrame(columns), "parquet": str(path)}


def main() -> int:
    record: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name, (columns, missing, permutation) in tables().items():
            for how, source in sources(columns, Path(tmp), name).items():
                record[f"{name}/{how}"] = analyse(source, missing, permutation)
    OUT.write_text(json.dumps(record, indent=0, sort_keys=True) + "\n")
    print(f"wrote {OUT} ({len(record)} analyses)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

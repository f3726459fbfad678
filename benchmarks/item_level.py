"""Item-level results from Parquet at scale: 100 models x 50 tasks x 2,000 items.

Writes a 10-million-row Parquet file (task, model, doc_id, acc in {0, 1}; each model has its
own accuracy) into a temporary folder, then runs, in a fresh process each:

1. ``cdplot.compare(path)``: read (polars, column-wise), per-task item matrices, task means,
   the comparison of 100 models on 50 tasks (Wilcoxon + Holm);
2. ``cdplot.stats.item_tests(res)`` (McNemar on 50 x 4,950 pairs) and
   ``hierarchical_rank_intervals(res, n_boot=200)``.

and reports wall-clock time and the process's peak resident memory (``ru_maxrss``).
One run each (the machine is shared; see README.md). ``--rows-per-task N`` scales it down.

    python benchmarks/item_level.py            # ~1-2 min on 2 cores
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CHILD = r"""
import json, resource, sys, time, warnings
warnings.simplefilter("ignore")
import cdplot
from cdplot.stats import hierarchical_rank_intervals, item_tests
path, step = sys.argv[1], sys.argv[2]
t0 = time.perf_counter()
res = cdplot.compare(path)
t1 = time.perf_counter()
out = {"compare_s": t1 - t0, "notes": list(res.input_notes)}
if step == "items":
    tab = item_tests(res)
    t2 = time.perf_counter()
    hierarchical_rank_intervals(res, n_boot=200, random_state=0)
    t3 = time.perf_counter()
    out.update(item_tests_s=t2 - t1, rows=len(tab), bootstrap_s=t3 - t2)
out["peak_rss_mib"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps(out))
"""


def write(path: Path, models: int, tasks: int, items: int) -> float:
    import numpy as np
    import polars as pl

    rng = np.random.default_rng(29)
    skill = np.linspace(0.45, 0.75, models)
    n = models * tasks * items
    model = np.repeat(np.tile(np.arange(models), tasks), items)
    frame = pl.DataFrame(
        {
            "task": pl.Series(np.repeat(np.arange(tasks), models * items)).cast(pl.String),
            "model": pl.Series(model).cast(pl.String),
            "doc_id": np.tile(np.arange(items), models * tasks),
            "acc": (rng.random(n) < skill[model]).astype(np.float64),
        }
    ).with_columns(("task" + pl.col("task")).alias("task"), ("m" + pl.col("model")).alias("model"))
    frame.write_parquet(path)
    return n


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", type=int, default=100)
    parser.add_argument("--tasks", type=int, default=50)
    parser.add_argument("--items", type=int, default=2000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "items.parquet"
        n = write(path, args.models, args.tasks, args.items)
        size = path.stat().st_size / 2**20
        print(
            f"{n:,} rows ({args.models} models x {args.tasks} tasks x {args.items} items), "
            f"Parquet {size:.0f} MiB"
        )
        for step in ("compare", "items"):
            start = time.perf_counter()
            done = subprocess.run(
                [sys.executable, "-c", CHILD, str(path), step],
                capture_output=True,
                text=True,
                check=True,
            )
            wall = time.perf_counter() - start
            res = json.loads(done.stdout)
            per_m = res["compare_s"] / (n / 1e6)
            print(
                f"[{step}] process {wall:.1f} s; compare() {res['compare_s']:.1f} s "
                f"({per_m:.2f} s per million rows); peak RSS {res['peak_rss_mib']:.0f} MiB"
            )
            if step == "items":
                print(
                    f"  item_tests {res['item_tests_s']:.1f} s ({res['rows']:,} tests); "
                    f"hierarchical bootstrap (200 replicates) {res['bootstrap_s']:.1f} s"
                )
            print("  notes:", "; ".join(res["notes"]))


if __name__ == "__main__":
    main()

"""One benchmark, many models: the SWE-bench Verified shape, and 3e7 rows from Parquet.

Run as ``python benchmarks/one_benchmark.py`` (``--rounds``, ``--skip-large``, ``--models``,
``--items``, ``--samples`` for the large file). Two questions:

1. *The SWE-bench Verified shape*, 135 systems x 500 binary items: the whole analysis -
   ``compare_benchmark`` with all 9,045 pairs by the exact McNemar test, Holm and Shaffer,
   the letters, bootstrap rank intervals over the items (10,000 replicates) and the rank
   plot to PDF - timed in interleaved rounds with two yardsticks on the same table:
   ``compare_benchmark`` alone (Holm) and numpy's ``x.T @ x`` (the co-success counts of all
   pairs, the sufficient statistic of every McNemar test). Median, min-max, the ratio per
   round and the load average.
2. *A large file*: 300 models x 20,000 items x 5 samples (3e7 rows ``model, item, sample,
   score``) written to Parquet in a temporary folder, read by ``cdplot.compare(path,
   sample="sample")`` in a fresh process: wall time and peak resident memory
   (``resource.getrusage(...).ru_maxrss``), per row. One run (the machine is shared).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import machine_summary  # noqa: E402

CHILD = r"""
import json, resource, sys, time, warnings
warnings.simplefilter("ignore")
t0 = time.perf_counter()
import cdplot
res = cdplot.compare(sys.argv[1], sample="sample")
t1 = time.perf_counter()
print(json.dumps({
    "compare_s": t1 - t0, "kind": type(res).__name__, "n_items": int(res.n_items),
    "models": int(res.n_algorithms), "samples": res.samples_per_item,
    "peak_rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
}))
"""


def swe_items(models: int = 135, items: int = 500, seed: int = 5):
    """Binary item scores: each system its own solve rate (0.05 to 0.75), items of varied
    difficulty (a logistic model), as in SWE-bench Verified's leaderboard."""
    import numpy as np

    from cdplot.io._benchmark import BenchmarkItems

    rng = np.random.default_rng(seed)
    skill = np.linspace(-2.5, 1.5, models)
    difficulty = rng.normal(0.0, 1.5, items)
    p = 1.0 / (1.0 + np.exp(-(skill[None, :] - difficulty[:, None])))
    x = (rng.random((items, models)) < p).astype(float)
    names = tuple(f"system-{j:03d}" for j in range(models))
    return BenchmarkItems(names, tuple(f"task-{i}" for i in range(items)), x, True)


def whole_analysis(items, pdf: Path) -> None:
    import matplotlib.pyplot as plt

    import cdplot
    from cdplot.stats import compare_benchmark

    res = compare_benchmark(items, correction="holm")
    compare_benchmark(items, correction="shaffer")
    res.letters  # noqa: B018 - the compact letter display
    ri = cdplot.rank_intervals(res, method="bootstrap", n_boot=10_000, random_state=0)
    ax = cdplot.rank_plot(res, intervals=ri)
    ax.figure.savefig(pdf)
    plt.close(ax.figure)


def interleaved(fns: dict, rounds: int) -> dict[str, list[float]]:
    times: dict[str, list[float]] = {name: [] for name in fns}
    for fn in fns.values():  # warm-up
        fn()
    for _ in range(rounds):
        for name, fn in fns.items():
            t0 = time.perf_counter()
            fn()
            times[name].append(time.perf_counter() - t0)
    return times


def swe_bench(rounds: int) -> None:
    import numpy as np

    from cdplot.stats import compare_benchmark

    items = swe_items()
    x = items.scores
    with tempfile.TemporaryDirectory() as tmp:
        pdf = Path(tmp) / "ranks.pdf"
        load0 = os.getloadavg()[0]
        times = interleaved(
            {
                "whole analysis": lambda: whole_analysis(items, pdf),
                "compare_benchmark alone (Holm)": lambda: compare_benchmark(
                    items, correction="holm"
                ),
                "numpy x.T @ x": lambda: x.T @ x,
            },
            rounds,
        )
        load1 = os.getloadavg()[0]
    k = x.shape[1]
    print(f"135 systems x 500 binary items ({k * (k - 1) // 2:,} pairs), {rounds} rounds")
    for name, t in times.items():
        print(
            f"  {name:32s} median {statistics.median(t):.4f} s  "
            f"(min {min(t):.4f}, max {max(t):.4f})"
        )
    whole = np.array(times["whole analysis"])
    for name in ("compare_benchmark alone (Holm)", "numpy x.T @ x"):
        ratio = whole / np.array(times[name])
        print(
            f"  whole / {name}: median {np.median(ratio):.3g} "
            f"(min {ratio.min():.3g}, max {ratio.max():.3g})"
        )
    print(f"  load average (1 min) {load0:.2f} before, {load1:.2f} after")


def write_large(path: Path, models: int, items: int, samples: int) -> int:
    import numpy as np
    import pyarrow as pa
    import pyarrow.parquet as pq

    rng = np.random.default_rng(11)
    skill = np.linspace(0.3, 0.8, models)
    schema = pa.schema(
        [("model", pa.string()), ("item", pa.int32()), ("sample", pa.int8()),
         ("score", pa.float64())]
    )  # fmt: skip
    per_model = items * samples
    with pq.ParquetWriter(path, schema) as out:
        for j in range(models):  # one row group per model: bounded memory while writing
            score = (rng.random(per_model) < skill[j]).astype(np.float64)
            table = pa.table(
                {
                    "model": pa.array(np.full(per_model, f"m{j:03d}")),
                    "item": pa.array(np.repeat(np.arange(items, dtype=np.int32), samples)),
                    "sample": pa.array(np.tile(np.arange(samples, dtype=np.int8), items)),
                    "score": pa.array(score),
                },
                schema=schema,
            )
            out.write_table(table)
    return models * per_model


def large_file(models: int, items: int, samples: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "benchmark.parquet"
        t0 = time.perf_counter()
        n = write_large(path, models, items, samples)
        written = time.perf_counter() - t0
        size = path.stat().st_size / 2**20
        print(
            f"{n:,} rows ({models} models x {items:,} items x {samples} samples), "
            f"Parquet {size:.0f} MiB (written in {written:.1f} s)"
        )
        load0 = os.getloadavg()[0]
        start = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-c", CHILD, str(path)], capture_output=True, text=True, check=False
        )
        wall = time.perf_counter() - start
        if done.returncode:
            print("  failed:", done.stderr.strip().splitlines()[-1])
            return
        res = json.loads(done.stdout)
        rss = res["peak_rss_mib"]
        print(
            f"  compare(path) in a fresh process: {wall:.1f} s (import + compare "
            f"{res['compare_s']:.1f} s; {res['compare_s'] / (n / 1e6):.2f} s per million rows); "
            f"peak RSS {rss:.0f} MiB = {rss * 2**20 / n:.1f} bytes per row; {res['kind']}, "
            f"{res['models']} models, {res['n_items']:,} items, {res['samples']} samples"
        )
        print(f"  load average (1 min) {load0:.2f} before, {os.getloadavg()[0]:.2f} after")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--skip-large", action="store_true")
    parser.add_argument("--models", type=int, default=300)
    parser.add_argument("--items", type=int, default=20_000)
    parser.add_argument("--samples", type=int, default=5)
    args = parser.parse_args()
    print(machine_summary())
    swe_bench(args.rounds)
    if not args.skip_large:
        large_file(args.models, args.items, args.samples)


if __name__ == "__main__":
    main()

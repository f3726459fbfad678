"""How fast is a simulation study, and how does it scale with workers?

Run as ``python benchmarks/simulate.py`` (``--quick`` for a short run, ``--help``). It times

1. the target of issue 19: 10,000 replicates of k = 10 algorithms on N = 30 datasets,
   Wilcoxon + Holm and mean-ranks + Bonferroni on the same tables, in this process
   (``n_jobs=1``) and on two loky processes (``n_jobs=2``);
2. the naive alternative, ``cdplot.compare()`` once per table and procedure, on a few hundred
   tables, extrapolated to 10,000 (what the vectorised kernels save);
3. scaling on a dask.distributed ``LocalCluster`` (processes, one thread each) with 1 and then
   2 workers on a larger study, started before the clock runs, and the same on loky;

and prints a table of wall-clock times, replicates per second and the speed-up from 1 to 2
workers, plus the projected wall-clock time of a million-replicate study on 100 such workers.
Every parallel result is checked to equal the serial one (same seed).

The projection assumes the per-worker throughput measured with 1 worker and the parallel
efficiency measured from 1 to 2 workers (``e = t1 / (2 t2)``) carry over to 100 workers:
``T(1e6, 100) = 1e6 / (100 * e * rate_1)``; with chunks of thousands of replicates the
scheduler's per-task overhead (about a millisecond in dask) is negligible.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import cdplot  # noqa: E402

PROCEDURES = [("wilcoxon", "holm"), ("mean-ranks", "bonferroni")]


def model(k: int = 10, n: int = 30) -> cdplot.NormalModel:
    """k algorithms 0.1 noise standard deviations apart (every pair a false null)."""
    return cdplot.NormalModel(means=[0.1 * j for j in range(k)], n_datasets=n)


def timed(fn):
    t0 = time.perf_counter()
    out = fn()
    return time.perf_counter() - t0, out


def same(a, b) -> bool:
    return a.to_frame().equals(b.to_frame())


def naive(n_tables: int, seed: int = 0) -> float:
    """Seconds per table of compare() for both procedures (tables from the same model)."""
    import numpy as np

    m = model()
    tables = m.draw(np.random.default_rng(seed), n_tables)
    t0 = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cdplot.CdplotWarning)
        for table in tables:
            for test, correction in PROCEDURES:
                cdplot.compare(table, test=test, correction=correction)
    return (time.perf_counter() - t0) / n_tables


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer replicates everywhere")
    parser.add_argument(
        "--scaling-replicates", type=int, default=100_000, help="study size for the scaling runs"
    )
    parser.add_argument("--json", metavar="FILE", help="write the numbers as JSON")
    args = parser.parse_args(argv)
    target_n = 2_000 if args.quick else 10_000
    scale_n = 20_000 if args.quick else args.scaling_replicates
    m = model()
    rows = []
    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()}", flush=True)

    cdplot.simulate(m, PROCEDURES, 200, random_state=0)  # warm-up: imports, caches
    t_serial, ref = timed(lambda: cdplot.simulate(m, PROCEDURES, target_n, random_state=1))
    rows.append(("target, in process (n_jobs=1)", target_n, t_serial))
    t_loky, par = timed(lambda: cdplot.simulate(m, PROCEDURES, target_n, random_state=1, n_jobs=2))
    assert same(ref, par)
    rows.append(("target, loky n_jobs=2 (incl. start-up)", target_n, t_loky))
    per_table = naive(50 if args.quick else 300)
    rows.append(("compare() per table, extrapolated", target_n, per_table * target_n))

    # scaling: loky 1 vs 2 processes, then dask LocalCluster with 1 vs 2 workers
    t1, ref_big = timed(lambda: cdplot.simulate(m, PROCEDURES, scale_n, random_state=2))
    rows.append(("scaling, in process", scale_n, t1))
    for jobs in (1, 2):
        cdplot.simulate(m, PROCEDURES, 200, random_state=0, n_jobs=jobs, backend="loky")
        t, out = timed(
            lambda jobs=jobs: cdplot.simulate(
                m, PROCEDURES, scale_n, random_state=2, n_jobs=jobs, backend="loky"
            )
        )
        assert same(ref_big, out)
        rows.append((f"scaling, loky {jobs} worker(s) (warm pool)", scale_n, t))
    dask_times = {}
    from dask.distributed import Client, LocalCluster

    for workers in (1, 2):
        with (
            LocalCluster(
                n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None
            ) as cluster,
            Client(cluster),
        ):
            cdplot.simulate(m, PROCEDURES, 200, random_state=0, backend="dask")  # warm workers
            t, out = timed(
                lambda: cdplot.simulate(m, PROCEDURES, scale_n, random_state=2, backend="dask")
            )
        assert same(ref_big, out)
        dask_times[workers] = t
        rows.append((f"scaling, dask LocalCluster {workers} worker(s)", scale_n, t))

    print("\n| run | replicates | seconds | replicates / s |")
    print("| --- | ---: | ---: | ---: |")
    for name, n, t in rows:
        print(f"| {name} | {n:,} | {t:.2f} | {n / t:,.0f} |")
    efficiency = dask_times[1] / (2 * dask_times[2])
    rate1 = scale_n / dask_times[1]
    projected = 1e6 / (100 * efficiency * rate1)
    print(
        f"\ndask speed-up 1 -> 2 workers: {dask_times[1] / dask_times[2]:.2f}x "
        f"(efficiency {efficiency:.0%}); one worker: {rate1:,.0f} replicates/s"
    )
    print(
        f"projected: 1,000,000 replicates on 100 such workers ~ {projected:.1f} s of compute "
        f"(+ cluster start-up); on this machine's 2 cores ~ {1e6 / (2 * efficiency * rate1):.0f} s"
    )
    print(f"vectorised vs compare() per table: {per_table * target_n / t_serial:.0f}x faster")
    if args.json:
        Path(args.json).write_text(
            json.dumps(
                {
                    "rows": [{"run": r, "replicates": n, "seconds": t} for r, n, t in rows],
                    "dask_efficiency": efficiency,
                    "projected_1e6_on_100_workers_s": projected,
                },
                indent=2,
            )
            + "\n",
            encoding="utf-8",
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())

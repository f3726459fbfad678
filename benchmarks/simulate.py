"""How fast is a simulation study, and how does it scale with workers?

Run as ``python benchmarks/simulate.py`` (``--quick`` for a short run, ``--help``); the
parallel scaling alone, on an idle machine (one command, per-round speed-ups with their
spread): ``python benchmarks/simulate.py --scaling-only --scaling-replicates 200000
--rounds 5``. It times

1. the target study: 10,000 replicates of k = 10 algorithms on N = 30 datasets,
   Wilcoxon + Holm and mean-ranks + Bonferroni on the same tables, in this process
   (``n_jobs=1``) and on two loky processes (``n_jobs=2``);
2. the naive alternative, ``cdplot.compare()`` once per table and procedure, on a few hundred
   tables, extrapolated to 10,000 (what the vectorised kernels save);
3. scaling on a larger study: in this process, on two loky processes, and on the user's own
   dask.distributed ``LocalCluster`` s, started as a user starts them
   (``LocalCluster(n_workers=2, threads_per_worker=1)``, distributed's defaults: its workers
   run with ``MALLOC_TRIM_THRESHOLD_=65536``) with 1 and 2 workers and passed as
   ``scheduler=client``, all started and warmed up before the clock runs; the four take
   turns, round after round, and the medians are reported; with ``--own-cluster``, then
   ``simulate(backend="dask", n_jobs=2)`` starting its own cluster in each call, taking
   turns with the in-process run (start-up included);

and prints a table of wall-clock times, the CPU seconds spent in the chunks (summed over the
processes that ran them: ``result.settings["cpu_s"]``), replicates per second and the
speed-up from 1 to 2 workers, plus the projected wall-clock time of a million-replicate study
on 100 dedicated workers. Every parallel result is checked to equal the serial one.

On a shared machine the wall-clock speed-up measures the share of the CPU the run gets more
than the code (Linux's autogroup scheduling gives one login session one share, however many
processes it starts). The projection therefore uses CPU time, which the other jobs do not
inflate: ``T(1e6, 100) = 1e6 * (CPU seconds per replicate on a dask worker) / 100``, assuming
dedicated cores; chunks of thousands of replicates keep the scheduler's per-task overhead
(about a millisecond in dask) and the few kB a task returns negligible.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
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


def run(m, n: int, seed: int, kwargs: dict):
    """simulate() of ``n`` replicates with ``kwargs`` (back end, workers, client)."""
    return cdplot.simulate(
        m, procedures=PROCEDURES, n_replicates=n, random_state=seed, progress=False, **kwargs
    )


def ratios(times: dict[str, list[float]], slow: str, fast: str) -> tuple[float, float, float]:
    """min, median, max over the rounds of time[slow] / time[fast] (a speed-up)."""
    per_round = [a / b for a, b in zip(times[slow], times[fast], strict=True)]
    return min(per_round), statistics.median(per_round), max(per_round)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer replicates everywhere")
    parser.add_argument(
        "--scaling-replicates", type=int, default=40_000, help="study size for the scaling runs"
    )
    parser.add_argument("--rounds", type=int, default=3, help="interleaved scaling rounds")
    parser.add_argument("--json", metavar="FILE", help="write the numbers as JSON")
    parser.add_argument(
        "--own-cluster",
        action="store_true",
        help="also time simulate(backend='dask', n_jobs=2) starting its own LocalCluster",
    )
    parser.add_argument(
        "--scaling-only",
        action="store_true",
        help="only the interleaved scaling runs (e.g. --scaling-only --scaling-replicates "
        "200000 --rounds 5 on an idle machine)",
    )
    args = parser.parse_args(argv)
    target_n = 2_000 if args.quick else 10_000
    scale_n = 20_000 if args.quick else args.scaling_replicates
    m = model()
    rows = []
    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()}", flush=True)

    # warm-up: imports, caches
    cdplot.simulate(m, procedures=PROCEDURES, n_replicates=200, random_state=0)
    t_serial = per_table = None
    if not args.scaling_only:
        t_serial, ref = timed(
            lambda: cdplot.simulate(m, procedures=PROCEDURES, n_replicates=target_n, random_state=1)
        )
        rows.append(("target, in process (n_jobs=1)", target_n, t_serial, ref.settings["cpu_s"]))
        t_loky, par = timed(
            lambda: cdplot.simulate(
                m, procedures=PROCEDURES, n_replicates=target_n, random_state=1, n_jobs=2
            )
        )
        assert same(ref, par)
        rows.append(
            ("target, loky n_jobs=2 (incl. start-up)", target_n, t_loky, par.settings["cpu_s"])
        )
        per_table = naive(50 if args.quick else 300)
        rows.append(("compare() per table, extrapolated", target_n, per_table * target_n, None))

    # scaling, interleaved: in process / loky 2 / dask 1 worker / dask 2 workers take turns,
    # round after round, so that a busy machine slows all alike; medians over the rounds
    from dask.distributed import Client, LocalCluster

    # The clusters are the user's own, as a user starts them (distributed's defaults: the
    # nannies give every worker MALLOC_TRIM_THRESHOLD_=65536); loky's reusable workers
    # start first, since the nannies also write that variable into this process's
    # os.environ, which workers started later would inherit. "cdplot's LocalCluster" is
    # simulate(backend="dask", n_jobs=2) with no client: it starts (and closes) its own
    # cluster in every call, start-up included in its time.
    cdplot.simulate(
        m, procedures=PROCEDURES, n_replicates=400, random_state=0, n_jobs=2, backend="loky"
    )

    def cluster(workers):
        return LocalCluster(
            n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=":0"
        )

    with cluster(1) as c1, cluster(2) as c2, Client(c1) as client1, Client(c2) as client2:
        trim = client2.run(lambda: os.environ.get("MALLOC_TRIM_THRESHOLD_"))
        print(f"user's cluster workers' MALLOC_TRIM_THRESHOLD_: {sorted(set(trim.values()))}")
        runs = {
            "in process (1 core)": {},
            "loky, n_jobs=2": {"n_jobs": 2, "backend": "loky"},
            "user's LocalCluster, 1 worker": {"backend": "dask", "scheduler": client1},
            "user's LocalCluster, 2 workers": {"backend": "dask", "scheduler": client2},
        }
        for kwargs in runs.values():  # warm-up: start pools, import in the workers
            run(m, 400, 0, kwargs)
        times: dict[str, list[float]] = {name: [] for name in runs}
        cpus: dict[str, list[float]] = {name: [] for name in runs}
        ref_big = None
        for _ in range(args.rounds):
            for name, kwargs in runs.items():
                t, out = timed(lambda kwargs=kwargs: run(m, scale_n, 2, kwargs))
                ref_big = ref_big or out
                assert same(ref_big, out)
                times[name].append(t)
                cpus[name].append(out.settings["cpu_s"])
    if args.own_cluster:  # no client of this process may be current: a phase of its own
        own_runs = {
            "in process (1 core), own-cluster phase": {},
            "cdplot's LocalCluster, 2 workers (incl. start-up)": {"backend": "dask", "n_jobs": 2},
        }
        for name in own_runs:
            times[name], cpus[name] = [], []
        for _ in range(args.rounds):
            for name, kwargs in own_runs.items():
                t, out = timed(lambda kwargs=kwargs: run(m, scale_n, 2, kwargs))
                assert same(ref_big, out)
                times[name].append(t)
                cpus[name].append(out.settings["cpu_s"])
        runs.update(own_runs)
    wall = {name: statistics.median(ts) for name, ts in times.items()}
    cpu = {name: statistics.median(cs) for name, cs in cpus.items()}
    for name in runs:
        rows.append((f"scaling: {name} (median of {args.rounds})", scale_n, wall[name], cpu[name]))

    print("\n| run | replicates | wall s | CPU s in the chunks | replicates / wall s |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for name, n, t, c in rows:
        cpu_text = "-" if c is None else f"{c:.2f}"
        print(f"| {name} | {n:,} | {t:.2f} | {cpu_text} | {n / t:,.0f} |")
    d1, d2 = wall["user's LocalCluster, 1 worker"], wall["user's LocalCluster, 2 workers"]
    loky_speedup = wall["in process (1 core)"] / wall["loky, n_jobs=2"]
    # CPU cost of a replicate on a dask worker (robust to a busy machine: CPU time, not wall)
    cpu_per_rep = cpu["user's LocalCluster, 2 workers"] / scale_n
    overhead = cpu["user's LocalCluster, 2 workers"] / cpu["in process (1 core)"]
    projected = 1e6 * cpu_per_rep / 100
    print(
        f"\nwall-clock speed-up 1 -> 2 workers (of the medians): dask {d1 / d2:.2f}x, loky "
        f"{loky_speedup:.2f}x"
    )
    # per-round ratios (the runs of a round took turns, so they shared the machine's load)
    spread = {
        "dask 1 -> 2 workers": ratios(
            times, "user's LocalCluster, 1 worker", "user's LocalCluster, 2 workers"
        ),
        "loky n_jobs=2 vs in process": ratios(times, "in process (1 core)", "loky, n_jobs=2"),
        "dask 2 workers vs in process": ratios(
            times, "in process (1 core)", "user's LocalCluster, 2 workers"
        ),
    }
    own = "cdplot's LocalCluster, 2 workers (incl. start-up)"
    if own in times:
        spread["cdplot's own cluster vs in process"] = ratios(
            times, "in process (1 core), own-cluster phase", own
        )
    for name, (lo, med, hi) in spread.items():
        print(f"per-round speed-up, {name}: {med:.2f}x (min {lo:.2f}, max {hi:.2f})")
    for name in runs:
        base = "in process (1 core)" + (", own-cluster phase" if name.startswith("cdplot") else "")
        per_round = [c / b for c, b in zip(cpus[name], cpus[base], strict=True)]
        print(
            f"CPU per replicate, {name} / in process: {statistics.median(per_round):.2f} "
            f"(min {min(per_round):.2f}, max {max(per_round):.2f})"
        )
    print(
        f"CPU per replicate on a dask worker: {cpu_per_rep * 1e3:.3f} ms "
        f"({overhead:.2f}x the CPU per replicate in process)"
    )
    print(
        f"projected: 1,000,000 replicates on 100 dedicated workers ~ {projected:.1f} s "
        f"(+ cluster start-up); {1e6 * cpu_per_rep / 3600:.2f} CPU-hours in all"
    )
    if per_table is not None:
        print(f"vectorised vs compare() per table: {per_table * target_n / t_serial:.0f}x faster")
    print(f"load average after: {os.getloadavg()}")
    if args.json:
        Path(args.json).write_text(
            json.dumps(
                {
                    "rows": [
                        {"run": r, "replicates": n, "wall_s": t, "cpu_s": c} for r, n, t, c in rows
                    ],
                    "speedup_dask_1_to_2": d1 / d2,
                    "speedup_loky_1_to_2": loky_speedup,
                    "per_round_speedups_min_median_max": spread,
                    "cpu_per_replicate_s": cpu_per_rep,
                    "projected_1e6_on_100_workers_s": projected,
                    "load_average_after": os.getloadavg(),
                },
                indent=2,
            )
            + "\n",
            encoding="utf-8",
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Item-level statistics computed in DuckDB and Dask, against the engine's plain group-by floor.

Writes binary item scores (``--models`` x ``--tasks`` x ``--items`` rows, Parquet written by
DuckDB) into a temporary folder, then runs, each in a fresh process (peak client RSS from
``ru_maxrss``), interleaved:

1. floor: DuckDB's plain ``GROUP BY task, model`` (count, sum) over the Parquet, and the
   pair floor: the same self-join on (task, item) grouped by (task, model, model) with the
   pair counts and cross sums, written by hand in SQL (the pass the k x k statistics need);
2. ``engine_statistics`` through DuckDB (the task x model pass and, for these 0/1 scores, the
   pass that builds each task and model's item bitsets, whose pairs are counted by
   ``bit_count``);
3. ``engine_item_tests`` on those statistics (client only);
4. ``engine_bootstrap(level="hierarchical")`` of ``--n-boot`` replicates through DuckDB (for
   these 0/1 scores one pass builds each task and model's item bitsets, and the client makes
   every replicate from them by matrix products with the hashed weights);
5. in memory: ``cdplot.compare(path)`` and ``item_tests(res)`` (today's path);
6. with ``--dask``: the whole item-level analysis on Dask (``engine_statistics``,
   ``engine_item_tests`` and ``--n-boot`` hierarchical replicates of the Parquet read by
   ``dask.dataframe.read_parquet``) on a ``LocalCluster`` of 1, then 2 worker processes (one
   thread each), ``--rounds`` times interleaved.

Ratios, not absolute times, are the result (the machine is shared; see README.md).

    python benchmarks/engines.py --items 200            # 1e6 rows, about 1 min
    python benchmarks/engines.py --items 20000 --dask --rounds 2 \
        --steps dask1,dask2                             # 1e8 rows on Dask only
    python benchmarks/engines.py --items 200000 --no-join --no-memory --n-boot 1000 \
        --folder /big/disk/items                        # 1e9 rows (3.6 GB of Parquet)

The last line compares the whole DuckDB analysis (statistics, item tests, bootstrap) with as
many plain group-bys as it scans the rows: two for the statistics, one for the bootstrap.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CHILD = r"""
import json, resource, sys, time, warnings
warnings.simplefilter("ignore")
if __name__ == "__main__":  # Dask's worker processes re-import this
    path, step, n_boot, limit = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
    if limit:
        import duckdb
        duckdb.execute(f"SET memory_limit = '{limit}'")  # the default connection's cap
    out = {}
    t0 = time.perf_counter()
    if step == "floor":
        import duckdb
        duckdb.sql(f"SELECT task, model, count(*), sum(score) FROM "
                   f"read_parquet('{path}/*.parquet') GROUP BY ALL").fetchall()
    elif step == "floor-join":
        import duckdb
        src = f"read_parquet('{path}/*.parquet')"
        duckdb.sql(f"SELECT a.task, a.model, b.model, count(*), sum(a.score * b.score), "
                   f"sum(a.score), sum(b.score) FROM {src} a JOIN {src} b "
                   f"ON a.task = b.task AND a.item = b.item AND a.model < b.model "
                   f"GROUP BY ALL").fetchall()
    elif step in ("stats", "boot"):
        from cdplot.io import engine_bootstrap, engine_statistics, read_parquet_duckdb
        from cdplot.stats import engine_item_tests
        stats = engine_statistics(read_parquet_duckdb(path))
        out["stats_s"] = time.perf_counter() - t0
        t1 = time.perf_counter()
        tab = engine_item_tests(stats)
        out["item_tests_s"] = time.perf_counter() - t1
        if step == "boot":
            t2 = time.perf_counter()
            engine_bootstrap(stats, n_boot=n_boot, seed=0, level="hierarchical")
            out["boot_s"] = time.perf_counter() - t2
    elif step == "memory":
        import cdplot
        from cdplot.stats import item_tests
        res = cdplot.compare(path)
        out["compare_s"] = time.perf_counter() - t0
        t1 = time.perf_counter()
        item_tests(res)
        out["item_tests_s"] = time.perf_counter() - t1
    elif step.startswith("dask"):
        import dask.dataframe as dd
        from distributed import Client, LocalCluster
        from cdplot.io import engine_bootstrap, engine_statistics
        from cdplot.stats import engine_item_tests
        workers = int(step[4:])
        with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                          dashboard_address=":0") as cluster, Client(cluster):
            ddf = dd.read_parquet(path)
            t0 = time.perf_counter()
            stats = engine_statistics(ddf)
            out["stats_s"] = time.perf_counter() - t0
            t1 = time.perf_counter()
            engine_item_tests(stats)
            out["item_tests_s"] = time.perf_counter() - t1
            if n_boot:
                t2 = time.perf_counter()
                engine_bootstrap(stats, n_boot=n_boot, seed=0, level="hierarchical")
                out["boot_s"] = time.perf_counter() - t2
            out["total_s"] = time.perf_counter() - t0
    out.setdefault("total_s", time.perf_counter() - t0)
    out["peak_rss_mib"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps(out))
"""


def write(folder: Path, models: int, tasks: int, items: int) -> float:
    """Binary scores, model m right with probability 0.45 + 0.3 m / models, by DuckDB."""
    import duckdb

    folder.mkdir()
    t0 = time.perf_counter()
    per = models * items
    for t in range(tasks):
        duckdb.sql(
            f"COPY (SELECT 't{t:03d}' AS task, 'm' || lpad(((r // {items}) % {models})::VARCHAR, "
            f"3, '0') AS model, (r % {items})::BIGINT AS item, CASE WHEN hash(r, {t}) % 10000 "
            f"< 4500 + 3000 * ((r // {items}) % {models}) // {models} THEN 1.0 ELSE 0.0 END "
            f"AS score FROM range({per}) t(r)) TO '{folder}/part{t:03d}.parquet'"
        )
    return time.perf_counter() - t0


def run(folder: Path, step: str, n_boot: int, limit: str = "") -> dict:
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(folder), step, str(n_boot), limit],
        check=False,
        capture_output=True,
        text=True,
    )
    if done.returncode:
        raise SystemExit(f"{step} failed:\n" + "\n".join(done.stderr.splitlines()[-8:]))
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", type=int, default=100)
    parser.add_argument("--tasks", type=int, default=50)
    parser.add_argument("--items", type=int, default=200)
    parser.add_argument("--n-boot", type=int, default=64, help="0: no bootstrap")
    parser.add_argument("--dask", action="store_true")
    parser.add_argument("--rounds", type=int, default=1, help="rounds of the Dask steps")
    parser.add_argument("--no-memory", action="store_true")
    parser.add_argument(
        "--no-join", action="store_true", help="skip the self-join floor (hours at 10^9 rows)"
    )
    parser.add_argument(
        "--folder",
        type=Path,
        help="keep the Parquet here (written when missing, reused when present)",
    )
    parser.add_argument(
        "--duckdb-memory",
        default="",
        help="DuckDB's memory_limit in every step (e.g. 1200MB; it spills beyond it)",
    )
    parser.add_argument(
        "--steps", help="comma-separated steps to run (default: all that the options ask for)"
    )
    args = parser.parse_args()
    rows = args.models * args.tasks * args.items
    with tempfile.TemporaryDirectory() as tmp:
        folder = args.folder or Path(tmp) / "items"
        if folder.exists():
            print(f"reusing {folder}")
        else:
            seconds = write(folder, args.models, args.tasks, args.items)
            print(f"writing {rows:,} rows: {seconds:.1f} s")
        size = sum(p.stat().st_size for p in folder.glob("*.parquet"))
        print(f"Parquet: {size / 2**20:.1f} MiB")
        steps = ["floor"] + ([] if args.no_join else ["floor-join"])
        steps += ["stats"] + (["boot"] if args.n_boot else [])
        steps += [] if args.no_memory else ["memory"]
        steps += ["dask1", "dask2"] if args.dask else []
        if args.steps:
            steps = args.steps.split(",")
        results: dict[str, dict] = {}
        rounds = args.rounds if any(step.startswith("dask") for step in steps) else 1
        dask_times: dict[str, list[float]] = {}
        for r in range(rounds):
            for step in steps if r == 0 else [s for s in steps if s.startswith("dask")]:
                results[step] = run(folder, step, args.n_boot, args.duckdb_memory)
                dask_times.setdefault(step, []).append(results[step]["total_s"])
                print(step, json.dumps(results[step]), flush=True)
        if "dask1" in results and "dask2" in results:
            ratios = [a / b for a, b in zip(dask_times["dask1"], dask_times["dask2"], strict=True)]
            print(
                f"Dask LocalCluster 2 workers vs 1 (whole analysis, {args.n_boot} replicates): "
                f"{' '.join(f'{x:.2f}x' for x in ratios)} by round; median "
                f"{statistics.median(dask_times['dask1']):.1f} s / "
                f"{statistics.median(dask_times['dask2']):.1f} s"
            )
        if "floor" not in results or "stats" not in results:
            return
        floor = results["floor"]["total_s"]
        print(f"engine_statistics / floor group-by: {results['stats']['stats_s'] / floor:.1f}x")
        stats = results["stats"]
        print(
            f"statistics + item tests {stats['total_s']:.1f} s, client peak "
            f"{stats['peak_rss_mib']:.0f} MiB; / two plain group-bys (the passes over the "
            f"rows): {stats['total_s'] / (2 * floor):.2f}x"
        )
        if "floor-join" in results:
            join = results["floor-join"]["total_s"]
            print(
                f"engine_statistics / pair floor (hand-written self-join): "
                f"{results['stats']['stats_s'] / join:.1f}x"
            )
        if "memory" in results:
            mem = results["memory"]
            engine = results["stats"]["stats_s"] + results["stats"]["item_tests_s"]
            print(
                f"in memory compare + item_tests {mem['total_s']:.1f} s, peak "
                f"{mem['peak_rss_mib']:.0f} MiB ({mem['peak_rss_mib'] * 2**20 / rows:.1f} B/row); "
                f"DuckDB statistics + item tests {engine:.1f} s, client peak "
                f"{results['stats']['peak_rss_mib']:.0f} MiB"
            )
        if not args.n_boot or "boot" not in results:
            return
        boot = results["boot"]["boot_s"]
        passes = 1  # the pass of the item bitsets
        print(
            f"bootstrap {args.n_boot} replicates: {boot:.1f} s, / one plain group-by (the "
            f"pass it makes): {boot / floor:.1f}x"
        )
        whole = results["boot"]["total_s"]
        print(
            f"statistics + item tests + bootstrap: {whole:.1f} s, client peak "
            f"{results['boot']['peak_rss_mib']:.0f} MiB; / as many plain group-bys as it "
            f"scans the rows ({passes + 2}): {whole / (floor * (passes + 2)):.2f}x"
        )


if __name__ == "__main__":
    main()

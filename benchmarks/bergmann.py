"""Time and memory of exact Bergmann-Hommel adjusted p-values against k.

Run as ``python benchmarks/bergmann.py`` (``--help`` for options). For each k it makes a
few synthetic score tables of N data sets (scores = skill of the algorithm + standard
normal noise), ranks every data set (1 = best), and computes the p-values of

* ``realistic``: the mean-ranks test (García & Herrera 2008), algorithms with skills
  spread evenly over 3 noise standard deviations;
* ``near-equal``: the mean-ranks test, many near-equal algorithms (skills spread over
  0.3 noise standard deviations), so that most pairs are barely distinguishable;
* ``clustered``: the mean-ranks test, four clusters of near-equal algorithms (skills
  within 0.1 of each other), the clusters one noise standard deviation apart;
* ``wilcoxon``: Wilcoxon signed-rank p-values of every pair on the realistic tables
  (scipy), which are not ordered like distances: the general search engine.

With ``--large-n`` it runs instead the large-N families, where most pairs are
extremely significant and many p-values underflow to 0: mean-ranks p-values at k = 50 and
100 and Wilcoxon p-values at k = 24 and 30 (on realistic tables, and as ``wilcoxon-3c`` on
tables of three clusters of near-equal algorithms), all on N = 1000 data sets (``--large-n-tables``
tables each; p-values from cdplot's own kernels, as ``compare()`` computes them, without
any hint). It prints every table's time without a budget and whether it fits the default
10 s budget. ``--previous COMMIT`` also times the engine of that commit on every table,
interleaved with this one, and checks that both give identical APVs; ``--previous COMMIT``
without ``--large-n`` does the same on the small-N Wilcoxon tables (k = 14 to 22).

It prints, for every k, the median and the largest time over the tables (seconds), and
the peak resident memory of the fresh process that ran them (MiB; the baseline of an
idle process with numpy and scipy loaded is printed first). A kind stops after the
first k whose slowest table takes more than ``--stop`` seconds or exceeds the work
limit (BergmannHommelLimitError: the engine refuses instead of hanging).
"""

from __future__ import annotations

import argparse
import inspect
import multiprocessing
import os
import resource
import statistics
import sys
import time
from pathlib import Path

import numpy as np
from scipy.special import ndtr
from scipy.stats import rankdata, wilcoxon

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cdplot._errors import BergmannHommelLimitError  # noqa: E402
from cdplot.stats._exhaustive import _bergmann_hommel, bergmann_hommel  # noqa: E402

KINDS = ("realistic", "near-equal", "clustered", "wilcoxon")
KS = [*range(5, 26), 30, 40, 50, 75, 100]


def skills(kind: str, k: int) -> np.ndarray:
    if kind == "near-equal":
        return np.linspace(0.0, 0.3, k)
    if kind == "clustered":
        return np.arange(k) * 4 // k + np.linspace(0.0, 0.1, k)
    if kind == "three-clusters":
        return np.arange(k) * 3 // k + np.linspace(0.0, 0.1, k)
    return np.linspace(0.0, 3.0, k)  # realistic, wilcoxon


def mean_ranks_pvalues(scores: np.ndarray) -> np.ndarray:
    n, k = scores.shape
    ranks = rankdata(-scores, axis=1).mean(axis=0)
    z = np.abs(ranks[:, None] - ranks[None, :]) / np.sqrt(k * (k + 1) / (6 * n))
    p = 2.0 * ndtr(-z)
    np.fill_diagonal(p, np.nan)
    return p


def wilcoxon_pvalues(scores: np.ndarray) -> np.ndarray:
    k = scores.shape[1]
    p = np.full((k, k), np.nan)
    for i in range(k):
        for j in range(i + 1, k):
            p[i, j] = p[j, i] = wilcoxon(scores[:, i], scores[:, j]).pvalue
    return p


def pvalues(kind: str, k: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng([k, seed])
    n = (30, 50, 100)[seed % 3]
    scores = skills(kind, k) + rng.normal(size=(n, k))
    return wilcoxon_pvalues(scores) if kind == "wilcoxon" else mean_ranks_pvalues(scores)


def _peak_rss_mib() -> float:
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / 2**20 if sys.platform == "darwin" else peak / 2**10  # bytes vs KiB


def _run(kind: str, k: int, repeats: int) -> tuple[list[float], float] | None:
    """In a child process: times of ``repeats`` tables and the peak RSS; None at the limit."""
    tables = [pvalues(kind, k, seed) for seed in range(repeats)]
    times = []
    try:
        for p in tables:
            start = time.perf_counter()
            _bergmann_hommel(p, max_steps=10_000_000, progress=False)  # a machine-free limit
            times.append(time.perf_counter() - start)
    except BergmannHommelLimitError:
        return None
    return times, _peak_rss_mib()


LARGE_N = (
    ("mean-ranks", 50),
    ("mean-ranks", 100),
    ("wilcoxon", 24),
    ("wilcoxon", 30),
    ("wilcoxon-3c", 24),
    ("wilcoxon-3c", 30),
)


def large_n_pvalues(kind: str, k: int, seed: int, n: int = 1000) -> np.ndarray:
    """P-values of cdplot's kernels on a table of N = 1000 data sets: realistic skills, or
    for ``wilcoxon-3c`` three clusters of near-equal algorithms (skills within 0.1 of
    each other) one noise standard deviation apart."""
    from cdplot.stats import mean_ranks_test, rank_rows, wilcoxon_test

    rng = np.random.default_rng([k, seed])
    spread = skills("three-clusters" if kind == "wilcoxon-3c" else "realistic", k)
    scores = spread + rng.normal(size=(n, k))
    if kind in ("wilcoxon", "wilcoxon-3c"):
        return wilcoxon_test(scores).pvalue
    return mean_ranks_test(rank_rows(-scores).mean(axis=0), n).pvalue


def previous_engine(commit: str):
    """bergmann_hommel of cdplot/stats/_exhaustive.py at ``commit``, read from git."""
    import importlib.util
    import subprocess
    import tempfile

    root = Path(__file__).resolve().parents[1]
    source = subprocess.run(
        ["git", "show", f"{commit}:cdplot/stats/_exhaustive.py"],
        cwd=root,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "_exhaustive_previous.py"
        path.write_text(source)
        # a module of the cdplot.stats package, so that its relative imports resolve
        spec = importlib.util.spec_from_file_location("cdplot.stats._exhaustive_previous", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    return module.bergmann_hommel


def _timed(engine, p: np.ndarray) -> tuple[np.ndarray, float, float]:
    start, cpu = time.perf_counter(), time.process_time()
    # older versions of the module name the budget keyword budget_seconds
    name = "bh_budget" if "bh_budget" in inspect.signature(engine).parameters else "budget_seconds"
    apv = engine(p, progress=False, **{name: None})
    return apv, time.perf_counter() - start, time.process_time() - cpu


def large_n(tables: int, previous: str | None = None, kinds: list[str] | None = None) -> int:
    print("exact Bergmann-Hommel on N = 1000 tables; seconds per table, no budget")
    print(f"(load average when starting: {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs)")
    old = None
    if previous is not None:
        old = previous_engine(previous)
        print(f"each table: the engine at commit {previous} ('before'), then this one")
    for kind, k in LARGE_N:
        if kinds is not None and f"{kind}-{k}" not in kinds:
            continue
        times: list[float] = []
        cpus: list[float] = []
        for seed in range(tables):
            p = large_n_pvalues(kind, k, seed)
            iu = np.triu_indices(k, 1)
            zeros = int(np.sum(p[iu] == 0))
            before = ""
            if old is not None:
                apv_old, wall_old, cpu_old = _timed(old, p)
                before = f"before {wall_old:6.2f} s wall, {cpu_old:6.2f} s CPU; after "
            apv, wall, cpu = _timed(bergmann_hommel, p)
            times.append(wall)
            cpus.append(cpu)
            same = ""
            if old is not None:
                same = (
                    "; APVs identical"
                    if np.array_equal(apv, apv_old, equal_nan=True)
                    else ("; APVs DIFFER")
                )
            print(
                f"  {kind:>10} k = {k:3d} table {seed}: {before}{times[-1]:6.2f} s wall, "
                f"{cpus[-1]:6.2f} s CPU ({zeros} of {iu[0].size} p-values are 0{same})",
                flush=True,
            )
        print(
            f"{kind:>12} k = {k:3d}: wall median {statistics.median(times):.2f} s, max "
            f"{max(times):.2f} s; CPU median {statistics.median(cpus):.2f} s, max "
            f"{max(cpus):.2f} s; within the 10 s default budget: "
            f"{sum(t <= 10.0 for t in times)} of {len(times)}",
            flush=True,
        )
    return 0


def small_n(previous: str) -> int:
    """Wilcoxon tables of the default families (N = 30, 50, 100), before and after."""
    old = previous_engine(previous)
    print("exact Bergmann-Hommel on the 'wilcoxon' tables of the default run (N = 30, 50, 100)")
    print(f"(load average when starting: {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs)")
    print(f"each table: the engine at commit {previous} ('before'), then this one")
    totals = [0.0, 0.0]
    for k in (14, 18, 20, 22):
        for seed in range(3):
            p = pvalues("wilcoxon", k, seed)
            apv_old, wall_old, cpu_old = _timed(old, p)
            apv, wall, cpu = _timed(bergmann_hommel, p)
            totals[0] += cpu_old
            totals[1] += cpu
            same = "identical" if np.array_equal(apv, apv_old, equal_nan=True) else "DIFFER"
            print(
                f"  wilcoxon k = {k:2d} table {seed} (N = {(30, 50, 100)[seed % 3]:3d}): before "
                f"{wall_old:5.2f} s wall, {cpu_old:5.2f} s CPU; after {wall:5.2f} s wall, "
                f"{cpu:5.2f} s CPU (APVs {same})",
                flush=True,
            )
    print(f"  total CPU: before {totals[0]:.2f} s, after {totals[1]:.2f} s")
    return 0


def _baseline() -> float:
    pvalues("realistic", 5, 0)
    return _peak_rss_mib()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kinds", default=",".join(KINDS))
    parser.add_argument("--repeats", type=int, default=3, help="tables per k (default 3)")
    parser.add_argument("--stop", type=float, default=10.0, help="seconds (default 10)")
    parser.add_argument("--kmax", type=int, default=100)
    parser.add_argument("--large-n", action="store_true", help="the N = 1000 families")
    parser.add_argument("--large-n-tables", type=int, default=3, help="tables per family")
    parser.add_argument(
        "--large-n-kinds",
        default=None,
        help="comma-separated subset of mean-ranks-50,mean-ranks-100,wilcoxon-24,wilcoxon-30,"
        "wilcoxon-3c-24,wilcoxon-3c-30",
    )
    parser.add_argument(
        "--previous",
        metavar="COMMIT",
        default=None,
        help="with --large-n: also time the engine at this git commit on every table, "
        "interleaved (before, after), and check that the APVs are identical; without "
        "--large-n: the same on the Wilcoxon tables of the default run at k = 14 to 22",
    )
    args = parser.parse_args(argv)
    if args.previous is not None and not args.large_n:
        return small_n(args.previous)
    if args.large_n:
        kinds = None if args.large_n_kinds is None else args.large_n_kinds.split(",")
        return large_n(args.large_n_tables, args.previous, kinds)
    kinds = args.kinds.split(",")

    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(1) as pool:
        baseline = pool.apply(_baseline)
    print("time: median (max) over tables in seconds; mem: peak RSS of the process in MiB")
    print(f"(an idle process with numpy and scipy: {baseline:.0f} MiB)")
    header = f"{'k':>4}" + "".join(f" | {kind + ' time':>22} {'mem':>6}" for kind in kinds)
    print(header)
    print("-" * len(header))
    stopped = dict.fromkeys(kinds, False)
    largest = dict.fromkeys(kinds, 0)
    for k in (k for k in KS if k <= args.kmax):
        if all(stopped.values()):
            break
        cells = []
        for kind in kinds:
            if stopped[kind]:
                cells.append(f" | {'':>22} {'':>6}")
                continue
            with ctx.Pool(1) as pool:  # a fresh process: its peak RSS is this run's
                result = pool.apply(_run, (kind, k, args.repeats))
            if result is None:
                stopped[kind] = True
                cells.append(f" | {'work limit':>22} {'':>6}")
                continue
            times, peak = result
            text = f"{statistics.median(times):.4f} ({max(times):.4f})"
            cells.append(f" | {text:>22} {peak:6.1f}")
            if max(times) > args.stop:
                stopped[kind] = True
            else:
                largest[kind] = k
        print(f"{k:>4}" + "".join(cells), flush=True)
    for kind in kinds:
        print(f"largest k within {args.stop:g} s, {kind}: {largest[kind]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Peak working memory of the all-pairs tests and of ``compare()`` on large tables.

Memory, unlike time, does not depend on what else the machine is doing: the numbers below are
tracemalloc peaks (numpy reports its buffers to tracemalloc) above what was live before the call,
so one run is enough. Goals: all-pairs Wilcoxon at k = 100, N = 100,000 within 100 MiB above
its input; ``compare()`` within twice its input.
"held" is what the returned object keeps (compare(): its own copy of the scores, the ranks and
the dataset names); the peak minus that is the call's temporaries.

Run from the repository root: ``python benchmarks/memory.py`` (about a minute).

``--items ITEMS_PER_TASK`` measures instead the in-memory item-level analysis of a folder of
Parquet files of binary item scores (``--models`` x ``--tasks`` x ITEMS_PER_TASK rows, one
file per task written by polars into a temporary folder): ``cdplot.compare(path)``,
``item_tests(res)`` and ``hierarchical_rank_intervals(res, n_boot=200)``, each run in a fresh
process whose peak resident memory (``VmHWM``) and wall time are reported, for this
checkout and for the code of ``--baseline`` (a git ref, exported with ``git archive`` into
a temporary folder), interleaved ``--repeat`` times (the machine is shared: the ratios are
the result; ``uptime`` is printed beside them)::

    python benchmarks/memory.py --items 2000 --repeat 2     # 1e7 rows
    python benchmarks/memory.py --items 20000 --repeat 1    # 1e8 rows, several minutes
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
import tracemalloc
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import scores  # noqa: E402

import cdplot  # noqa: E402
from cdplot.stats import sign_test, wilcoxon_test  # noqa: E402

MIB = 2.0**20


def held_and_peak(fn: Callable[[], Any]) -> tuple[float, float]:
    """MiB held by ``fn()``'s return value and peak MiB during the call, above the input."""
    tracemalloc.start()
    try:
        base, _ = tracemalloc.get_traced_memory()
        tracemalloc.reset_peak()
        result = fn()
        held, peak = tracemalloc.get_traced_memory()
        del result
    finally:
        tracemalloc.stop()
    return (held - base) / MIB, (peak - base) / MIB


def measure(k: int, n: int) -> dict[str, tuple[float, float]]:
    """(held, peak) MiB above the input of the pairwise tests and compare() on an N x k table.

    Every call is first made once on a small table, so that imports and caches (not working
    memory) are left out.
    """
    x = scores(k, n)
    names = [f"A{j}" for j in range(k)]
    calls: dict[str, Callable[[np.ndarray], Any]] = {
        "wilcoxon_test": wilcoxon_test,
        "sign_test": sign_test,
        "compare (mean-ranks)": lambda t: cdplot.compare(t, algorithm=names, test="mean-ranks"),
        "compare (wilcoxon)": lambda t: cdplot.compare(t, algorithm=names),
        "compare (wilcoxon, lower is better)": lambda t: cdplot.compare(
            t, algorithm=names, higher_is_better=False
        ),
    }
    rows = {}
    for name, call in calls.items():
        call(x[:20])
        rows[name] = held_and_peak(lambda call=call: call(x))
    return rows


ROOT = Path(__file__).resolve().parent.parent

ITEMS_CHILD = r"""
import json, sys, time, warnings
def peak_mib():  # this process's own high-water mark (ru_maxrss counts the parent's too)
    with open("/proc/self/status") as f:
        return next(int(l.split()[1]) for l in f if l.startswith("VmHWM")) / 1024
warnings.simplefilter("ignore")
t0 = time.perf_counter()
import cdplot
from cdplot.stats import hierarchical_rank_intervals, item_tests
t1 = time.perf_counter()
res = cdplot.compare(sys.argv[1])
t2 = time.perf_counter()
tab = item_tests(res)
t3 = time.perf_counter()
hierarchical_rank_intervals(res, n_boot=200, random_state=0)
t4 = time.perf_counter()
print(json.dumps({"import_s": t1 - t0, "compare_s": t2 - t1, "item_tests_s": t3 - t2,
                  "bootstrap_s": t4 - t3, "analysis_s": t4 - t1, "tests": len(tab),
                  "peak_mib": peak_mib(), "cdplot": cdplot.__file__}))
"""


def write_items(folder: Path, models: int, tasks: int, items: int) -> int:
    """Binary item scores, model m right with probability 0.45 + 0.3 m / models: one
    Parquet file per task in ``folder`` (the writer holds one task at a time)."""
    import polars as pl

    rng = np.random.default_rng(29)
    skill = np.linspace(0.45, 0.75, models)
    folder.mkdir()
    model = np.repeat(np.arange(models, dtype=np.int32), items)
    names = pl.Series([f"m{m:03d}" for m in range(models)])
    for t in range(tasks):
        pl.DataFrame(
            {
                "task": pl.Series([f"task{t:03d}"]).gather(np.zeros(models * items, np.int32)),
                "model": names.gather(model),
                "doc_id": np.tile(np.arange(items), models),
                "acc": (rng.random(models * items) < skill[model]).astype(np.float64),
            }
        ).write_parquet(folder / f"part{t:03d}.parquet")
    return models * tasks * items


def run_items(code: Path, path: Path) -> dict[str, Any]:
    """The item-level analysis in a fresh process with ``code`` first on the path."""
    env = {**os.environ, "PYTHONPATH": str(code), "MPLBACKEND": "Agg"}
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", ITEMS_CHILD, str(path)],
        capture_output=True,
        text=True,
        env=env,
        cwd=path.parent,  # not the checkout: "-c" puts the working folder first on the path
        check=False,
    )
    if done.returncode:
        raise SystemExit(f"{code} failed:\n" + "\n".join(done.stderr.splitlines()[-8:]))
    out = json.loads(done.stdout.strip().splitlines()[-1])
    if Path(out.pop("cdplot")).resolve() != (code / "cdplot" / "__init__.py").resolve():
        raise SystemExit(f"the child imported cdplot from elsewhere than {code}")
    out["process_s"] = time.perf_counter() - start
    return out


def uptime() -> str:
    return subprocess.run(["uptime"], capture_output=True, text=True, check=False).stdout.strip()


def items_main(args: argparse.Namespace) -> int:
    """Today's checkout against ``--baseline``, interleaved (see the module docstring)."""
    with tempfile.TemporaryDirectory() as tmp:
        baseline = Path(tmp) / "baseline"
        baseline.mkdir()
        archive = subprocess.run(
            ["git", "-C", str(ROOT), "archive", args.baseline, "cdplot"],
            capture_output=True,
            check=True,
        ).stdout
        subprocess.run(["tar", "-x", "-C", str(baseline)], input=archive, check=True)
        path = Path(tmp) / "items"
        rows = write_items(path, args.models, args.tasks, args.items)
        print(f"{rows:,} rows ({args.models} models x {args.tasks} tasks x {args.items} items)")
        print(uptime())
        runs: dict[str, list[dict[str, Any]]] = {"baseline": [], "this checkout": []}
        for rep in range(args.repeat):
            for name, code in (("baseline", baseline), ("this checkout", ROOT)):
                runs[name].append(run_items(code, path))
                print(rep, name, json.dumps(runs[name][-1]), flush=True)
        print(uptime())
    keys = ("compare_s", "item_tests_s", "bootstrap_s", "analysis_s", "process_s")
    print("| code | peak RSS | bytes / row | " + " | ".join(keys) + " |")
    print("| --- |" + " ---: |" * (2 + len(keys)))
    best = {}
    for name, results in runs.items():
        peak = max(r["peak_mib"] for r in results)
        best[name] = {k: min(r[k] for r in results) for k in keys} | {"peak": peak}
        times = " | ".join(f"{best[name][k]:.1f} s" for k in keys)
        print(
            f"| {name} ({args.baseline if name == 'baseline' else 'HEAD'}) | {peak:.0f} MiB | "
            f"{peak * MIB / rows:.1f} | {times} |"
        )
    old, new = best["baseline"], best["this checkout"]
    ratios = ", ".join(f"{k} {old[k] / new[k]:.2f}x" for k in keys)
    print(
        f"baseline / this checkout (best of {args.repeat}): peak {old['peak'] / new['peak']:.2f}x, "
        f"{ratios}"
    )
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--k", type=int, default=100)
    parser.add_argument("--n", type=int, default=100_000)
    parser.add_argument("--items", type=int, default=None, help="items per task (item mode)")
    parser.add_argument("--models", type=int, default=100)
    parser.add_argument("--tasks", type=int, default=50)
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--baseline", default="main", help="git ref of the code to compare")
    args = parser.parse_args(argv)
    if args.items is not None:
        return items_main(args)
    warnings.simplefilter("ignore")
    size = args.k * args.n * 8 / MIB
    rows = measure(args.k, args.n)
    print(f"k = {args.k}, N = {args.n}, input {size:.1f} MiB, numpy {np.__version__}")
    print("| call | held by the result | peak above the input | peak / input |")
    print("| --- | ---: | ---: | ---: |")
    for name, (held, peak) in rows.items():
        print(f"| {name} | {held:.1f} MiB | {peak:.1f} MiB | {peak / size:.2f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

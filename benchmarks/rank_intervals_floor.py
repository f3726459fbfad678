"""Bootstrap rank intervals against their numpy floors, taking turns round by round.

Run as ``python benchmarks/rank_intervals_floor.py`` (``--rounds``, ``-k``, ``-n``,
``--n-boot``; ``--skip-hierarchical``, ``--skip-paired``). Two questions:

1. **Paired bootstrap over datasets**, k = 500 algorithms, N = 1,000 datasets, 10,000
   draws (a table of normal noise plus a trend, compared with ``test="nemenyi"``, not
   timed). cdplot: ``rank_intervals(res, method="bootstrap", n_boot=10_000,
   random_state=0)`` with its defaults. Floor: the same resampling and nothing else, the
   multinomial weights of cdplot's generator (``multinomial_weights``) in blocks of the
   same size, each block one matrix product ``weights (b x N) @ ranks (N x k)``.
   Printed: the time of both per round, the ratio per round (median, min-max), the peak
   traced memory of one call of each (``tracemalloc``: numpy reports its buffers), which
   construction ran (the bootstrap-t, or fixed standard errors when the bootstrap-t's
   work is above ``STUDENTIZE_MAX_WORK``), and the bootstrap-t at this size
   (``studentize=True``) timed on ``--student-draws`` draws and twice as many, and
   extended linearly to ``n_boot`` (its work is linear in the draws), with its
   arithmetic: the per-draw variances of the k(k-1)/2 pair differences are
   ``n_boot x N x k(k-1)/2`` multiply-adds.
2. **Hierarchical bootstrap** (tasks, then items within each drawn task), 100 models x
   50 tasks x 2,000 binary items, 1,000 replicates: cdplot
   ``hierarchical_rank_intervals(items, n_boot=1000, random_state=0)``; floor: the same
   resampling (the tasks drawn with replacement, then for each task the multinomial item
   counts of all its draws, drawn as cdplot draws them, ``Generator.multinomial``) and one
   matrix product ``counts @ items`` per task.

The machine (processor, cores, Python, numpy) and the load average before and after each
question are printed.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import format_bytes, format_seconds, machine_summary, peak_memory, scores  # noqa: E402

import cdplot  # noqa: E402
from cdplot.stats import _intervals  # noqa: E402


def _load() -> str:
    if not hasattr(os, "getloadavg"):
        return "?"
    return "/".join(f"{v:.2f}" for v in os.getloadavg())


def _interleaved(fns: list[Callable[[], Any]], rounds: int) -> list[list[float]]:
    times: list[list[float]] = [[] for _ in fns]
    for _ in range(rounds):
        for fn, bucket in zip(fns, times, strict=True):
            t0 = time.perf_counter()
            fn()
            bucket.append(time.perf_counter() - t0)
    return times


def _row(name: str, mine: list[float], floor: list[float], extra: str = "") -> str:
    ratios = [m / f for m, f in zip(mine, floor, strict=True)]
    return (
        f"| {name} | {format_seconds(statistics.median(mine))} "
        f"| {format_seconds(statistics.median(floor))} "
        f"| {statistics.median(ratios):.2f} ({min(ratios):.2f}-{max(ratios):.2f}) | {extra} |"
    )


def paired_floor(values: np.ndarray, n_boot: int, seed: int = 0) -> None:
    """The paired bootstrap's resampling: weight blocks, one product each."""
    rng = np.random.default_rng(seed)
    n, k = values.shape
    for weights in _intervals.weight_chunks(_intervals.multinomial_weights, n_boot, n, k, rng):
        weights @ values  # noqa: B018


def paired(args: argparse.Namespace) -> None:
    k, n, n_boot = args.k, args.n, args.n_boot
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = cdplot.compare(scores(k, n, seed=27), test="nemenyi")
    values = np.ascontiguousarray(res.ranks.to_numpy(dtype=float))
    work = n_boot * (k * (k - 1) // 2) * (n + _intervals.STUDENT_PAIR_COST)
    default = "bootstrap-t" if work <= _intervals.STUDENTIZE_MAX_WORK else "fixed standard errors"

    def mine() -> Any:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return cdplot.rank_intervals(res, method="bootstrap", n_boot=n_boot, random_state=0)

    def floor() -> None:
        paired_floor(values, n_boot)

    print(f"## Paired bootstrap: k = {k}, N = {n}, n_boot = {n_boot:,}\n")
    print(f"default construction at this size: {default} (work {work:.3g} cells)")
    before = _load()
    mine(), floor()  # warm-up
    times = _interleaved([mine, floor], args.rounds)
    after = _load()
    memory = (peak_memory(mine), peak_memory(floor))
    print("\n| call | cdplot (median) | floor (median) | cdplot / floor: median (min-max) "
          "| peak memory cdplot / floor |")  # fmt: skip
    print("| --- | --- | --- | --- | --- |")
    print(_row(f"rank_intervals, {default}", times[0], times[1],
               f"{format_bytes(memory[0])} / {format_bytes(memory[1])}"))  # fmt: skip
    print(f"\nload average before -> after: {before} -> {after}")
    draws = args.student_draws
    spent = []
    for count in (draws, 2 * draws):  # work linear in the draws: a fixed part and a slope
        t0 = time.perf_counter()
        _intervals._studentized_max_t(values, count, np.random.default_rng(0), "numpy", True)
        spent.append(time.perf_counter() - t0)
    slope = (spent[1] - spent[0]) / draws
    estimate = max(spent[0], spent[0] + slope * (n_boot - draws))
    floor_median = statistics.median(times[1])
    cells = n_boot * n * (k * (k - 1) // 2)
    print(
        f"\nbootstrap-t at this size (studentize=True): {draws:,} draws took "
        f"{format_seconds(spent[0])}, {2 * draws:,} took {format_seconds(spent[1])}, so about "
        f"{format_seconds(estimate)} for {n_boot:,} draws = {estimate / floor_median:.0f}x the "
        f"floor; its draws' pair variances are n_boot x N x k(k-1)/2 = {cells:.3g} "
        f"multiply-adds against the floor's n_boot x N x k = {n_boot * n * k:.3g} "
        f"({cells / (n_boot * n * k):.0f}x)."
    )


def _items(models: int, tasks: int, items: int) -> Any:
    from cdplot.io import ItemScores

    rng = np.random.default_rng(29)
    skill = np.linspace(0.45, 0.75, models)
    mats = tuple((rng.random((items, models)) < skill).astype(float) for _ in range(tasks))
    return ItemScores(
        tasks=tuple(f"task{t}" for t in range(tasks)),
        models=tuple(f"m{j}" for j in range(models)),
        item="doc_id",
        matrices=mats,
        item_ids=tuple(np.arange(items) for _ in range(tasks)),
    )


def hierarchical_floor(mats: tuple[np.ndarray, ...], n_boot: int, seed: int = 0) -> None:
    """The hierarchical resampling: tasks drawn, then each task's item counts, one product."""
    rng = np.random.default_rng(seed)
    n_tasks = len(mats)
    drawn = rng.integers(0, n_tasks, size=(n_boot, n_tasks))
    for t, mat in enumerate(mats):
        draws = int(np.count_nonzero(drawn == t))
        n = mat.shape[0]
        counts = rng.multinomial(n, np.full(n, 1.0 / n), size=draws).astype(float)
        counts @ mat  # noqa: B018


def hierarchical(args: argparse.Namespace) -> None:
    from cdplot.stats import hierarchical_rank_intervals

    models, tasks, items, n_boot = 100, 50, 2000, 1000
    data = _items(models, tasks, items)
    print(
        f"\n## Hierarchical bootstrap: {models} models x {tasks} tasks x {items:,} items, "
        f"{n_boot:,} replicates\n"
    )

    def mine() -> Any:
        return hierarchical_rank_intervals(data, n_boot=n_boot, random_state=0)

    def floor() -> None:
        hierarchical_floor(data.matrices, n_boot)

    before = _load()
    mine(), floor()
    times = _interleaved([mine, floor], args.rounds)
    after = _load()
    memory = (peak_memory(mine), peak_memory(floor))
    print("| call | cdplot (median) | floor (median) | cdplot / floor: median (min-max) "
          "| peak memory cdplot / floor |")  # fmt: skip
    print("| --- | --- | --- | --- | --- |")
    print(_row("hierarchical_rank_intervals", times[0], times[1],
               f"{format_bytes(memory[0])} / {format_bytes(memory[1])}"))  # fmt: skip
    print(f"\nload average before -> after: {before} -> {after}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-k", type=int, default=500)
    parser.add_argument("-n", type=int, default=1000)
    parser.add_argument("--n-boot", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--student-draws", type=int, default=512)
    parser.add_argument("--skip-paired", action="store_true")
    parser.add_argument("--skip-hierarchical", action="store_true")
    args = parser.parse_args(argv)
    print(machine_summary(("numpy",)))
    print(f"{platform.platform()}, os.cpu_count() = {os.cpu_count()}, {args.rounds} rounds\n")
    if not args.skip_paired:
        paired(args)
    if not args.skip_hierarchical:
        hierarchical(args)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

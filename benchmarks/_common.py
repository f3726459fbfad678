"""Helpers shared by the benchmark scripts: timing, peak memory, inputs, floors, tables.

Timings are wall-clock medians of several runs (``time.perf_counter``); the machine may
be shared, so the minimum is printed too where it helps. Peak memory is the peak of the
Python and numpy allocations traced by :mod:`tracemalloc` during one call (numpy reports
its array buffers to tracemalloc), i.e. the working memory on top of the inputs.
"""

from __future__ import annotations

import importlib.util
import os
import platform
import statistics
import time
import tracemalloc
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

__all__ = [
    "Timing",
    "format_bytes",
    "format_seconds",
    "installed",
    "machine_summary",
    "markdown_table",
    "peak_memory",
    "scores",
    "sort_floor",
    "time_call",
    "time_interleaved",
]


@dataclass(frozen=True)
class Timing:
    """Wall-clock times of repeated calls: median, minimum and the number of runs."""

    median: float
    best: float
    runs: int


def time_call(
    fn: Callable[[], Any], *, runs: int = 5, budget: float = 20.0, warmup: bool = True
) -> Timing:
    """Median time of up to ``runs`` calls of ``fn``, fewer when one call is slow.

    Parameters
    ----------
    fn : callable
        Called without arguments.
    runs : int
        The most runs to make.
    budget : float
        Seconds: after the first timed run, only as many runs are made as fit in this
        budget (at least one, so a very slow call is timed once).
    warmup : bool
        Call ``fn`` once untimed first (first-call costs: lazy imports, caches); if that
        call takes more than half the budget, it is returned as the only run.

    Returns
    -------
    Timing
    """
    if warmup:
        t0 = time.perf_counter()
        fn()
        first = time.perf_counter() - t0
        if first > budget / 2:  # too slow to repeat: the first call is the timing
            return Timing(first, first, 1)
    times: list[float] = []
    while len(times) < runs:
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
        if sum(times) + times[0] > budget:
            break
    return Timing(statistics.median(times), min(times), len(times))


def peak_memory(fn: Callable[[], Any]) -> int:
    """Peak traced allocation (bytes) during one call of ``fn``, above what was live before."""
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        base, _ = tracemalloc.get_traced_memory()
        fn()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return max(0, peak - base)


def scores(k: int, n: int, *, seed: int = 0, decimals: int | None = None) -> np.ndarray:
    """An N x k score table: standard normal noise plus a linear trend over the algorithms.

    ``decimals`` rounds the scores (ties and zero differences, as in real result tables).
    """
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, k)) + np.linspace(0.0, 1.0, k)
    return np.round(x, decimals) if decimals is not None else x


def time_interleaved(
    fns: Sequence[Callable[[], Any]], *, runs: int = 9, budget: float = 20.0
) -> list[Timing]:
    """Time several calls taking turns (one warm-up each), so that they share the load.

    On a busy machine this makes their ratio far steadier than timing them one after the
    other. Stops after ``runs`` rounds or once ``budget`` seconds have passed.
    """
    for fn in fns:
        fn()
    times: list[list[float]] = [[] for _ in fns]
    t_start = time.perf_counter()
    while len(times[0]) < runs:
        for fn, bucket in zip(fns, times, strict=True):
            t0 = time.perf_counter()
            fn()
            bucket.append(time.perf_counter() - t0)
        if time.perf_counter() - t_start > budget:
            break
    return [Timing(statistics.median(t), min(t), len(t)) for t in times]


def sort_floor(
    x: np.ndarray,
    against: Callable[[], Any] | None = None,
    *,
    max_bytes: int = 1 << 30,
    runs: int = 9,
    budget: float = 20.0,
) -> tuple[Timing, str, Timing | None]:
    """Time ``numpy.sort`` of the k(k-1)/2 x N array of absolute differences ``|x_i - x_j|``.

    This is the floor of any Wilcoxon implementation that sorts: the same |d| values,
    sorted row by row (``numpy.sort`` returns a sorted copy), with nothing else computed.

    Parameters
    ----------
    x : numpy.ndarray
        N x k scores.
    against : callable, optional
        A call to compare with the floor (e.g. the Wilcoxon test on ``x``): when the
        whole |d| array fits in ``max_bytes`` the two are timed taking turns
        (:func:`time_interleaved`); otherwise it is timed on its own.
    max_bytes : int
        Larger |d| arrays are built and sorted in blocks of rows (building them is not
        timed); the sum of the block sort times is then a single run.
    runs, budget
        As for :func:`time_interleaved`.

    Returns
    -------
    (Timing, str, Timing or None)
        The floor, how the array was sorted ("whole" or "in B blocks"), and the timing of
        ``against``.
    """
    n, k = x.shape
    ii, jj = np.triu_indices(k, 1)
    cols = np.ascontiguousarray(x.T)
    m = ii.size
    if m * n * 8 <= max_bytes:
        whole = np.abs(cols[ii] - cols[jj])

        def floor() -> None:
            np.sort(whole, axis=1)

        if against is None:
            return time_call(floor, runs=runs, budget=budget), "whole", None
        t_against, t_floor = time_interleaved([against, floor], runs=runs, budget=budget)
        return t_floor, "whole", t_against
    rows = max(1, max_bytes // (8 * n))
    total = 0.0
    blocks = 0
    for start in range(0, m, rows):
        sl = slice(start, min(m, start + rows))
        block = np.abs(cols[ii[sl]] - cols[jj[sl]])
        t0 = time.perf_counter()
        np.sort(block, axis=1)
        total += time.perf_counter() - t0
        blocks += 1
        del block
    t_against = time_call(against, budget=budget) if against is not None else None
    return Timing(total, total, 1), f"in {blocks} blocks", t_against


def bench_env() -> dict[str, str]:
    """The environment of timed processes: Agg backend, and bytecode written and used.

    Every package is timed as it is installed: pip compiles an installed package's
    modules to bytecode, so peers load ``.pyc`` files. A source checkout run with
    ``PYTHONDONTWRITEBYTECODE`` set would compile cdplot's modules anew in every process
    (about 0.1 s); the variable is dropped, and each command's warm-up run writes the
    bytecode.
    """
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["MPLBACKEND"] = "Agg"
    return env


def installed(module: str) -> bool:
    """Whether ``module`` can be imported (without importing it)."""
    return importlib.util.find_spec(module) is not None


def _cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as fh:
            for line in fh:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def _memory_gib() -> str:
    try:
        pages = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
        return f"{pages / 2**30:.0f} GiB"
    except (ValueError, OSError, AttributeError):
        return "?"


def machine_summary(modules: Sequence[str] = ("numpy", "scipy", "pandas")) -> str:
    """One line naming the processor, core count, memory, Python and library versions."""
    versions = []
    for name in modules:
        if installed(name):
            mod = importlib.import_module(name)
            versions.append(f"{name} {getattr(mod, '__version__', '?')}")
        else:
            versions.append(f"{name} not installed")
    load = ""
    if hasattr(os, "getloadavg"):
        load = f", load average {os.getloadavg()[0]:.2f}"
    return (
        f"{_cpu_model()}, {os.cpu_count()} cores, {_memory_gib()}, "
        f"Python {platform.python_version()}, " + ", ".join(versions) + load
    )


def format_seconds(seconds: float | None) -> str:
    """Seconds with three significant digits in a readable unit ('-' for None)."""
    if seconds is None:
        return "-"
    if seconds < 1e-3:
        return f"{seconds * 1e6:.0f} µs"
    if seconds < 1.0:
        return f"{seconds * 1e3:.3g} ms"
    return f"{seconds:.3g} s"


def format_bytes(size: float | None) -> str:
    """Bytes in KiB, MiB or GiB ('-' for None)."""
    if size is None:
        return "-"
    for unit, scale in (("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if size >= scale:
            return f"{size / scale:.3g} {unit}"
    return f"{size:.0f} B"


def markdown_table(headers: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    """A Markdown table (right-aligned columns except the first)."""
    cells = [[str(h) for h in headers]] + [[str(c) for c in row] for row in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(headers))]

    def line(row: Sequence[str]) -> str:
        parts = [
            row[i].ljust(widths[i]) if i == 0 else row[i].rjust(widths[i]) for i in range(len(row))
        ]
        return "| " + " | ".join(parts) + " |"

    rule = "|" + "|".join(
        "-" * (w + 1) + ":" if i else ":" + "-" * (w + 1) for i, w in enumerate(widths)
    )
    return "\n".join([line(cells[0]), rule + "|"] + [line(r) for r in cells[1:]])

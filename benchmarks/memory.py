"""Peak working memory of the all-pairs tests and of ``compare()`` on large tables.

Memory, unlike time, does not depend on what else the machine is doing: the numbers below are
tracemalloc peaks (numpy reports its buffers to tracemalloc) above what was live before the call,
so one run is enough. Goals: all-pairs Wilcoxon at k = 100, N = 100,000 within 100 MiB above
its input; ``compare()`` within twice its input.
"held" is what the returned object keeps (compare(): its own copy of the scores, the ranks and
the dataset names); the peak minus that is the call's temporaries.

Run from the repository root: ``python benchmarks/memory.py`` (about a minute).
"""

from __future__ import annotations

import argparse
import sys
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--k", type=int, default=100)
    parser.add_argument("--n", type=int, default=100_000)
    args = parser.parse_args(argv)
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

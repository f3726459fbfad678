"""Time and memory of the bootstrap rank intervals: k = 500, N = 1,000, 10,000 draws.

Run as ``python benchmarks/rank_intervals.py`` (``-k``, ``-n``, ``--n-boot`` to change the
size). It times one call of ``cdplot.rank_intervals(res, method="bootstrap", n_boot=10_000)`` on a
1,000 x 500 table (normal noise plus a trend over the algorithms) compared with
``test="nemenyi"`` (not timed), and the peak traced working memory of a second call
(``tracemalloc``: numpy reports its buffers). One run each: the machine is shared (the
load average is printed).

Why it is fast: the paired bootstrap over datasets never re-ranks a dataset; a chunk of
bootstrap tables is the rank matrix reweighted by multinomial counts, one matrix product
``weights @ ranks``; the max-t statistic over the k (k - 1) pairs runs in cache-sized
blocks of float32 (1 MB); ``p_best`` is a second matrix product with Dirichlet weights.
Memory is bounded by the chunks (64 MB of weights, 1 MB of pair differences) plus the
``n_boot x k`` float32 maxima.
"""

from __future__ import annotations

import argparse
import sys
import time
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import format_bytes, machine_summary, peak_memory, scores  # noqa: E402

import cdplot  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-k", type=int, default=500)
    parser.add_argument("-n", type=int, default=1000)
    parser.add_argument("--n-boot", type=int, default=10_000)
    args = parser.parse_args(argv)
    data = scores(args.k, args.n, seed=27)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = cdplot.compare(data, test="nemenyi")
    print(machine_summary())
    print(f"k = {args.k}, N = {args.n}, n_boot = {args.n_boot}\n")

    def run() -> object:
        return cdplot.rank_intervals(res, method="bootstrap", n_boot=args.n_boot, random_state=0)

    t0 = time.perf_counter()
    ri = run()
    seconds = time.perf_counter() - t0
    memory = peak_memory(run)
    widths = ri.high - ri.low
    print("| call | time | peak working memory |")
    print("| --- | --- | --- |")
    print(f"| rank_intervals(bootstrap) | {seconds:.2f} s | {format_bytes(memory)} |")
    print(f"\nmedian interval width: {float(sorted(widths)[len(widths) // 2]):g} ranks")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

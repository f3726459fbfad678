"""Benchmark 1: the statistics at scale, k algorithms x N datasets.

For every (k, N) of the grid (k in 10, 50, 100, 200; N in 100, 1000, 10000, 100000) it
times, on one random score table (normal noise plus a trend; ``--decimals`` rounds it to
make ties and zero differences):

- ``ranks``: per-dataset ranks (ties averaged), average ranks and the Friedman test;
- ``wilcoxon`` and ``sign``: the pairwise test over all k(k-1)/2 pairs;
- ``mean-ranks`` and ``nemenyi``: the pairwise tests on average ranks;
- ``sort floor``: ``numpy.sort`` of the same k(k-1)/2 x N array of ``|x_i - x_j|``, the
  least any sorting Wilcoxon implementation must do, and ``wilcoxon / floor``;
- the all-pairs corrections of the Wilcoxon p-values (Bergmann-Hommel has its own
  benchmark, ``bergmann.py``);
- peak working memory (traced allocations above the inputs) of ranks, Wilcoxon and sign.

Times are medians of up to 5 runs after a warm-up (one run when a call takes more than
10 s); the Wilcoxon test and its sort floor take turns, up to 9 runs each, so that a busy
machine slows both alike. Cells whose Wilcoxon call is estimated above ``--max-seconds``
are skipped and listed. Run ``python benchmarks/stats_scale.py`` (about 5 minutes) or ``--quick``.
"""

from __future__ import annotations

import argparse
import json
import sys
import warnings

import numpy as np
from _common import (
    format_bytes,
    format_seconds,
    machine_summary,
    markdown_table,
    peak_memory,
    scores,
    sort_floor,
    time_call,
)

from cdplot.stats import (
    adjust_all_pairs,
    friedman,
    mean_ranks_test,
    nemenyi_test,
    rank_rows,
    sign_test,
    wilcoxon_test,
)

KS = (10, 50, 100, 200)
NS = (100, 1000, 10_000, 100_000)
QUICK_KS = (10, 50)
QUICK_NS = (100, 1000)
CORRECTIONS = ("bonferroni", "holm", "hochberg", "hommel", "finner", "shaffer")
TESTS = ("ranks", "wilcoxon", "sign", "mean-ranks", "nemenyi")
#: generous cost of the Wilcoxon test per (pair x dataset) cell, for skipping cells
ESTIMATED_SECONDS_PER_CELL = 10e-9


def ranks_and_friedman(x: np.ndarray) -> np.ndarray:
    """Per-dataset ranks (1 = best), average ranks and Friedman's test; the average ranks."""
    avg = rank_rows(-x).mean(axis=0)
    friedman(avg, x.shape[0])
    return avg


def bench_cell(k: int, n: int, decimals: int | None, budget: float) -> dict:
    x = scores(k, n, decimals=decimals)
    avg = ranks_and_friedman(x)
    iu = np.triu_indices(k, 1)
    floor, how, wilcoxon = sort_floor(x, lambda: wilcoxon_test(x), budget=budget)
    times = {
        "ranks": time_call(lambda: ranks_and_friedman(x), budget=budget),
        "wilcoxon": wilcoxon,
        "sign": time_call(lambda: sign_test(x), budget=budget),
        "mean-ranks": time_call(lambda: mean_ranks_test(avg, n), budget=budget),
        "nemenyi": time_call(lambda: nemenyi_test(avg, n), budget=budget),
    }
    raw = wilcoxon_test(x).pvalue[iu]
    corrections = {
        c: time_call(lambda c=c: adjust_all_pairs(raw, k, c), budget=budget).median
        for c in CORRECTIONS
    }
    memory = {
        "ranks": peak_memory(lambda: ranks_and_friedman(x)),
        "wilcoxon": peak_memory(lambda: wilcoxon_test(x)),
        "sign": peak_memory(lambda: sign_test(x)),
    }
    return {
        "k": k,
        "N": n,
        "times": {t: times[t].median for t in TESTS},
        "runs": {t: times[t].runs for t in TESTS},
        "floor": floor.median,
        "floor_how": how,
        "corrections": corrections,
        "memory": memory,
        "input_bytes": x.nbytes,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="k in 10, 50 and N in 100, 1000")
    parser.add_argument("--decimals", type=int, default=None, help="round the scores (ties)")
    parser.add_argument("--max-seconds", type=float, default=60.0, help="skip slower cells")
    parser.add_argument("--json", metavar="FILE", help="also write the results as JSON")
    args = parser.parse_args(argv)
    warnings.simplefilter("ignore")
    ks, ns = (QUICK_KS, QUICK_NS) if args.quick else (KS, NS)

    print(f"machine: {machine_summary()}")
    rounding = "unrounded" if args.decimals is None else f"rounded to {args.decimals} decimals"
    print(f"scores: normal noise + trend, {rounding}")
    results, skipped = [], []
    for k in ks:
        for n in ns:
            cells = k * (k - 1) // 2 * n
            if cells * ESTIMATED_SECONDS_PER_CELL > args.max_seconds:
                skipped.append((k, n))
                continue
            print(f"  k = {k}, N = {n} ...", file=sys.stderr, flush=True)
            results.append(bench_cell(k, n, args.decimals, budget=20.0))

    rows = []
    for r in results:
        t = r["times"]
        rows.append(
            [f"{r['k']} x {r['N']}"]
            + [format_seconds(t[name]) for name in TESTS]
            + [format_seconds(r["floor"]), f"{t['wilcoxon'] / r['floor']:.2f}"]
        )
    print("\n### Time (median)\n")
    print(markdown_table(["k x N", *TESTS, "sort floor", "wilcoxon / floor"], rows))

    rows = [
        [f"{r['k']} x {r['N']}"] + [format_seconds(r["corrections"][c]) for c in CORRECTIONS]
        for r in results
    ]
    print("\n### Corrections of the k(k-1)/2 Wilcoxon p-values (median)\n")
    print(markdown_table(["k x N", *CORRECTIONS], rows))

    rows = [
        [f"{r['k']} x {r['N']}", format_bytes(r["input_bytes"])]
        + [format_bytes(r["memory"][name]) for name in ("ranks", "wilcoxon", "sign")]
        for r in results
    ]
    print("\n### Peak working memory (traced allocations during the call)\n")
    print(markdown_table(["k x N", "input", "ranks", "wilcoxon", "sign"], rows))

    slow = [
        f"{r['k']} x {r['N']}: {', '.join(t for t in TESTS if r['runs'][t] == 1)}"
        for r in results
        if any(r["runs"][t] == 1 for t in TESTS)
    ]
    if slow:
        print("\ntimed once (over 10 s a call): " + "; ".join(slow))
    floors = sorted({r["floor_how"] for r in results} - {"whole"})
    if floors:
        print(
            "sort floor built and sorted in blocks (not all of |d| fits in 1 GiB) for: "
            + ", ".join(f"{r['k']} x {r['N']}" for r in results if r["floor_how"] != "whole")
        )
    if skipped:
        print(
            "skipped (estimated over --max-seconds): " + ", ".join(f"{k} x {n}" for k, n in skipped)
        )
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump({"machine": machine_summary(), "results": results}, fh, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())

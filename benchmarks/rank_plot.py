"""Time of the rank-interval plot at k = 1,000: compare, draw, save a PDF.

Run as ``python benchmarks/rank_plot.py`` (``-k``, ``-n``, ``--columns`` to change it). A
table of k algorithms on N datasets (normal noise plus a trend over the algorithms) is
compared with ``test="nemenyi"`` (not timed); then one call of ``cdplot.rank_plot(res,
width=7, columns=...)`` (the letters included) and the ``savefig`` of a PDF are timed,
once each: the machine is shared (the load average is printed).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import machine_summary, scores  # noqa: E402

import cdplot  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-k", type=int, default=1000)
    parser.add_argument("-n", type=int, default=50)
    parser.add_argument("--columns", type=int, default=3)
    args = parser.parse_args(argv)
    data = scores(args.k, args.n, seed=28)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = cdplot.compare(data, test="nemenyi")
    print(machine_summary())
    print(f"k = {args.k}, N = {args.n}, columns = {args.columns}\n")
    t0 = time.perf_counter()
    ax = cdplot.rank_plot(res, width=7.0, columns=args.columns)
    drawn = time.perf_counter() - t0
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "ranks.pdf")
        t1 = time.perf_counter()
        ax.figure.savefig(path)
        saved = time.perf_counter() - t1
        size = os.path.getsize(path)
    height = ax.figure.get_size_inches()[1]
    print("| step | time |")
    print("| --- | --- |")
    print(f"| rank_plot (layout, letters, artists) | {drawn:.2f} s |")
    print(f"| savefig PDF ({size / 1024:.0f} KiB, 7 x {height:.1f} in) | {saved:.2f} s |")
    print(f"| total | {drawn + saved:.2f} s |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

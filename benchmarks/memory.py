"""Peak working memory of the all-pairs tests and of ``compare()`` on large tables.

Memory, unlike time, does not depend on what else the machine is doing: the numbers below are
tracemalloc peaks (numpy reports its buffers to tracemalloc) above what was live before the call,
so one run is enough. Goals (issue "faster at every size, in bounded memory"): all-pairs Wilcoxon
at k = 100, N = 100,000 within 100 MiB above its input; ``compare()`` within twice its input.

Run from the repository root: ``python benchmarks/memory.py`` (about a minute).
"""

from __future__ import annotations

import argparse
import sys
import warnings
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import peak_memory, scores  # noqa: E402

import cdplot  # noqa: E402
from cdplot.stats import sign_test, wilcoxon_test  # noqa: E402

MIB = 2.0**20


def measure(k: int, n: int) -> dict[str, float]:
    """Peak MiB above the input of the pairwise tests and of compare() on an N x k table."""
    x = scores(k, n)
    names = [f"A{j}" for j in range(k)]
    rows = {
        "input": x.nbytes / MIB,
        "wilcoxon_test": peak_memory(lambda: wilcoxon_test(x)) / MIB,
        "sign_test": peak_memory(lambda: sign_test(x)) / MIB,
        "compare (mean-ranks)": peak_memory(
            lambda: cdplot.compare(x, algorithm=names, test="mean-ranks")
        )
        / MIB,
        "compare (wilcoxon)": peak_memory(lambda: cdplot.compare(x, algorithm=names)) / MIB,
    }
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--k", type=int, default=100)
    parser.add_argument("--n", type=int, default=100_000)
    args = parser.parse_args(argv)
    warnings.simplefilter("ignore")
    rows = measure(args.k, args.n)
    print(f"k = {args.k}, N = {args.n}, numpy {np.__version__}")
    print("| call | peak MiB above the input | x input |")
    print("| --- | ---: | ---: |")
    for name, mib in rows.items():
        ratio = "" if name == "input" else f"{mib / rows['input']:.2f}"
        print(f"| {name} | {mib:.1f} | {ratio} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

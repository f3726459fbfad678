"""Benchmark: compare + cd_diagram + savefig (PDF), in one process after imports.

Targets: k = 10 algorithms on N = 30 datasets under 0.3 s; k = 100 on
N = 1000 under 2 s. Run ``python benchmarks/cd_diagram.py``; it prints the time
of each step and exits with status 1 if a target is missed. "first" is the
first call of a case after all imports (font files and caches still cold);
the steps are the best of a few repeats after it.
"""

from __future__ import annotations

import io
import sys
import time
import warnings

import matplotlib

matplotlib.use("Agg")

import matplotlib.backends.backend_pdf  # noqa: E402, F401  (imported lazily by savefig)
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

import cdplot  # noqa: E402
import cdplot.plotting  # noqa: E402, F401  (imported lazily by cdplot.cd_diagram)

#: (k, N, target in seconds).
CASES = ((10, 30, 0.3), (100, 1000, 2.0))
TESTS = (("wilcoxon", "holm"), ("nemenyi", "nemenyi"))
REPEATS = 3


def scores(k: int, n: int, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    return pd.DataFrame(
        rng.normal(size=(n, k)) + np.linspace(0.0, 1.0, k),
        columns=[f"algorithm {i}" for i in range(k)],
    )


def run(data: pd.DataFrame, test: str, correction: str) -> tuple[float, float, float]:
    t0 = time.perf_counter()
    res = cdplot.compare(data, test=test, correction=correction)
    t1 = time.perf_counter()
    ax = cdplot.cd_diagram(res)
    t2 = time.perf_counter()
    ax.figure.savefig(io.BytesIO(), format="pdf")
    t3 = time.perf_counter()
    return t1 - t0, t2 - t1, t3 - t2


def main() -> int:
    warnings.simplefilter("ignore", cdplot.PoolDependenceWarning)
    ok = True
    header = ("k", "N", "test", "first", "compare", "diagram", "pdf", "total")
    print("{:>4} {:>5} {:>9} {:>8} {:>8} {:>8} {:>8} {:>8}  target".format(*header))
    for k, n, target in CASES:
        data = scores(k, n)
        for test, correction in TESTS:
            first = sum(run(data, test, correction))
            times = min((run(data, test, correction) for _ in range(REPEATS)), key=sum)
            total = sum(times)
            ok &= max(first, total) < target
            flag = "ok" if max(first, total) < target else "MISSED"
            print(
                f"{k:>4} {n:>5} {test:>9} "
                + " ".join(f"{t:8.3f}" for t in (first, *times, total))
                + f"  < {target} s {flag}"
            )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

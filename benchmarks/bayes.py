"""Time and memory of the Bayesian tests over all pairs: k = 20, N = 50.

Run as ``python benchmarks/bayes.py`` (``--quick`` for 10,000 samples). It times
``cdplot.compare(scores, test=..., rope=0.01, nsamples=50_000)`` for the Bayesian
signed-rank and sign tests on a 50 x 20 table (190 pairs; normal noise plus a trend over
the algorithms, rounded to 2 decimals as result tables are), the peak traced working
memory of one call, and, for scale, one pair of baycomp 1.0.3's ``SignedRankTest.probs``
with the same sample size (multiplied by 190 to estimate all pairs; baycomp loops over
the samples in Python). Times are medians of 3 runs after a warm-up (wall clock; the
machine may be shared: the load average is printed).

How the signed-rank kernel is fast: all pairs share one stream of Dirichlet weights
(each pair's estimate equals the two-sample test, and baycomp, with the same seed);
for each pair the differences are sorted once, so each row of the Walsh-sum indicator
is a prefix or suffix of the sorted weights, and a posterior draw costs O(N) per pair
(cumulative sums and one gather) instead of baycomp's O(N^2); work runs in chunks of at
most 2^18 values on two threads.
"""

from __future__ import annotations

import argparse
import sys
import time
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import format_bytes, machine_summary, peak_memory, scores, time_call  # noqa: E402

import cdplot  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="10,000 samples instead of 50,000")
    parser.add_argument("-k", type=int, default=20)
    parser.add_argument("-n", type=int, default=50)
    args = parser.parse_args(argv)
    nsamples = 10_000 if args.quick else 50_000
    data = scores(args.k, args.n, seed=16, decimals=2)
    pairs = args.k * (args.k - 1) // 2
    print(machine_summary())
    print(f"k = {args.k}, N = {args.n}, {pairs} pairs, nsamples = {nsamples}, rope = 0.01\n")
    print("| test | median time | fastest | runs | peak working memory |")
    print("| --- | --- | --- | --- | --- |")
    for test in ("bayes-signed-rank", "bayes-sign"):

        def run(test: str = test) -> object:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                return cdplot.compare(data, test=test, rope=0.01, nsamples=nsamples, random_state=0)

        timing = time_call(run, runs=3, budget=30.0)
        memory = peak_memory(run)
        print(
            f"| {test} | {timing.median:.2f} s | {timing.best:.2f} s | {timing.runs} "
            f"| {format_bytes(memory)} |"
        )
    try:
        import baycomp
    except ImportError:  # pragma: no cover
        print("\nbaycomp not installed")
        return 0
    x, y = data[:, 0], data[:, 1]
    t0 = time.perf_counter()
    baycomp.SignedRankTest.probs(x, y, 0.01, nsamples=nsamples, random_state=0)
    one = time.perf_counter() - t0
    print(
        f"\nbaycomp SignedRankTest.probs, one pair: {one:.2f} s "
        f"(x {pairs} pairs = about {one * pairs:.0f} s)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

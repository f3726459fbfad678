"""The Bayesian hierarchical test on all pairs of seven algorithms over 54 datasets.

The shape of Benavoli, Corani & Mangili (2016)'s table (``benavoli2016``: seven classifiers
on 54 datasets). cdplot bundles that table as ranks only, without the per-fold scores the
hierarchical model reads, so the folds here are simulated with the same shape: 10 folds per
dataset, dataset difficulty, a split effect shared by the algorithms and per-algorithm
shifts of 0 to 0.03.

    python benchmarks/bayes_hierarchical.py              # 21 pairs, 4 chains x 1000 draws
    python benchmarks/bayes_hierarchical.py --pairs 3    # the first three algorithms

It prints the load average beside the times: one pair (compiling included), then all pairs
of the same process (compiled), with the per-pair ratio.
"""

from __future__ import annotations

import argparse
import os
import time
import warnings

import numpy as np
import pandas as pd

import cdplot


def folds_table(k: int = 7, n: int = 54, folds: int = 10, seed: int = 2016) -> pd.DataFrame:
    """A long table of per-fold accuracies: k algorithms, n datasets, ``folds`` folds."""
    rng = np.random.default_rng(seed)
    shifts = np.linspace(0.0, 0.03, k)
    base = rng.uniform(0.6, 0.95, n)
    split = rng.normal(0.0, 0.02, (n, folds))
    scores = (
        base[:, None, None]
        + shifts[None, :, None]
        + rng.normal(0.0, 0.01, (n, k, 1))  # algorithm x dataset interaction
        + split[:, None, :]
        + rng.normal(0.0, 0.01, (n, k, folds))
    )
    d, a, f = np.meshgrid(range(n), range(k), range(folds), indexing="ij")
    return pd.DataFrame({
        "dataset": [f"d{i:02d}" for i in d.ravel()],
        "algorithm": [f"C{j + 1}" for j in a.ravel()],
        "fold": f.ravel(),
        "accuracy": scores.ravel(),
    })  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--algorithms", type=int, default=7)
    parser.add_argument("--nsamples", type=int, default=4000)
    parser.add_argument("--warmup", type=int, default=1000)
    args = parser.parse_args()
    table = folds_table(args.algorithms)
    options = {"rope": 0.01, "nsamples": args.nsamples, "warmup": args.warmup}
    warnings.simplefilter("ignore")
    two = table[table.algorithm.isin(["C1", "C2"])]
    t0 = time.perf_counter()
    cdplot.compare(two, test="bayes-hierarchical", random_state=1, **options)
    first = time.perf_counter() - t0
    print(f"one pair, compiling included: {first:.1f} s   load {os.getloadavg()}")
    t0 = time.perf_counter()
    cdplot.compare(two, test="bayes-hierarchical", random_state=2, **options)
    one = time.perf_counter() - t0
    print(f"one pair, compiled: {one:.1f} s   load {os.getloadavg()}")
    k = args.algorithms
    t0 = time.perf_counter()
    res = cdplot.compare(table, test="bayes-hierarchical", random_state=3, **options)
    total = time.perf_counter() - t0
    pairs = k * (k - 1) // 2
    print(
        f"{pairs} pairs x 54 datasets x 10 folds: {total:.1f} s "
        f"({total / pairs / one:.2f}x one compiled pair per pair)   load {os.getloadavg()}"
    )
    print(res.decisions)


if __name__ == "__main__":
    main()

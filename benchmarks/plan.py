"""How long does a benchmark plan take at k = 20, up to 200 datasets, 2,000 replicates a point?

Run as ``python benchmarks/plan.py`` (``--quick`` for 500 replicates, ``--rounds R``). The
pilot: 20 algorithms on 40 datasets (normal scores, the algorithms 0.02 apart, dataset sd
0.1, noise sd 0.05). The plan: the datasets needed (at most 200) to detect a difference
between the two best (``PROCEDURES``), with resampling of the pilot, for Friedman-type mean
ranks with Nemenyi's correction and for Wilcoxon + Holm, each on one process (``n_jobs=1``) and on
two loky processes (``n_jobs=2``), taking turns round after round. Printed: wall-clock
seconds, CPU seconds of this process (all of the work with ``n_jobs=1``; with ``n_jobs=2``
only what was not sent to the workers), the design points simulated, the N found, and
``uptime`` (the machine is shared: compare the ratios of one run, not absolute times
across runs). Every ``n_jobs=2`` plan is checked to equal the ``n_jobs=1`` one (the seed
blocks make the result independent of the workers).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

import cdplot  # noqa: E402

K, PILOT_N, MAX_N = 20, 40, 200
#: each procedure and the difference (score units) between the two best its plan detects,
#: chosen so that the N found lies between 100 and 200
PROCEDURES = {("nemenyi", "nemenyi"): 0.12, ("wilcoxon", "holm"): 0.025}


def pilot() -> pd.DataFrame:
    """20 algorithms 0.02 apart on 40 datasets."""
    rng = np.random.default_rng(0)
    scores = (
        0.7
        + 0.02 * np.arange(K)
        + 0.1 * rng.standard_normal((PILOT_N, 1))
        + 0.05 * rng.standard_normal((PILOT_N, K))
    )
    return pd.DataFrame(scores, columns=[f"alg{j:02d}" for j in range(K)])


def one(
    table: pd.DataFrame, proc: tuple[str, str], reps: int, jobs: int
) -> tuple[float, float, Any]:
    started, cpu = time.perf_counter(), time.process_time()
    test, correction = proc
    res = cdplot.plan(table, test=test, correction=correction, difference=PROCEDURES[proc],
                      mdd=False, n_replicates=reps, max_n=MAX_N, n_jobs=jobs,
                      random_state=1)  # fmt: skip
    return time.perf_counter() - started, time.process_time() - cpu, res


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="500 replicates per point")
    parser.add_argument("--rounds", type=int, default=1, help="rounds of the four plans")
    args = parser.parse_args()
    reps = 500 if args.quick else 2000
    table = pilot()
    times: dict[tuple[str, int], list[float]] = {}
    cpus: dict[tuple[str, int], list[float]] = {}
    found: dict[str, Any] = {}
    for _ in range(args.rounds):
        for proc in PROCEDURES:
            for jobs in (1, 2):
                seconds, cpu, res = one(table, proc, reps, jobs)
                times.setdefault((res.procedure, jobs), []).append(seconds)
                cpus.setdefault((res.procedure, jobs), []).append(cpu)
                first = found.get(res.procedure)
                if (
                    first is not None
                    and first.to_dict()["evaluations"] != res.to_dict()["evaluations"]
                ):
                    raise SystemExit(f"{res.procedure}: n_jobs={jobs} differs from n_jobs=1")
                found.setdefault(res.procedure, res)
    print(f"plan: k = {K}, pilot of {PILOT_N} datasets, N searched up to {MAX_N}, {reps:,} "
          f"replicates per design point, {args.rounds} round(s)")  # fmt: skip
    print(f"{'procedure':<18} {'n_jobs':>6} {'median s':>9} {'cpu s':>7} {'points':>6} "
          f"{'N found':>7}")  # fmt: skip
    for (label, jobs), values in times.items():
        res = found[label]
        points = len(res.evaluations["n"])
        cpu = statistics.median(cpus[(label, jobs)])
        print(f"{label:<18} {jobs:>6} {statistics.median(values):>9.1f} {cpu:>7.1f} {points:>6} "
              f"{res.n_needed!s:>7}")  # fmt: skip
    for label in found:
        ratio = statistics.median(times[(label, 1)]) / statistics.median(times[(label, 2)])
        print(f"{label}: n_jobs=1 / n_jobs=2 wall-clock ratio {ratio:.2f}")
    print("uptime:", subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip())


if __name__ == "__main__":
    main()

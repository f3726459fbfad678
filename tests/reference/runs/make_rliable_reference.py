"""Reference values of rliable 1.2.0 for the run-level analyses (tests/test_run_aggregates.py).

Run in a separate environment with rliable installed (it pulls arch 7.2, which needs
pandas < 3; rliable cannot share cdplot's environment):

    python3 -m venv /tmp/rlvenv && /tmp/rlvenv/bin/pip install rliable==1.2.0 "pandas<3"
    /tmp/rlvenv/bin/python tests/reference/runs/make_rliable_reference.py

Writes rliable_reference.json beside this script: the seeded inputs themselves (so the test
does not depend on numpy's random streams), rliable's point estimates and its percentile
intervals (``library.get_interval_estimates``, ``reps`` replicates, ``np.random.seed(0)``:
rliable's bootstraps draw from numpy's global generator).
"""

import json
from pathlib import Path

import numpy as np
from rliable import library, metrics

REPS = 20000
TAUS = [0.0, 0.25, 0.5, 0.75, 1.0, 1.5]


def inputs():
    rng = np.random.default_rng(20211206)  # NeurIPS 2021
    n_tasks = 6
    shift = rng.normal(0.0, 0.5, n_tasks)  # tasks differ in difficulty
    return {
        "A": (1.0 + shift + rng.gamma(2.0, 0.25, (5, n_tasks))).round(6),
        "B": (0.8 + shift + rng.gamma(2.0, 0.25, (5, n_tasks))).round(6),
        "C": (0.9 + shift + rng.normal(0.0, 0.4, (3, n_tasks))).round(6),
    }


def aggregates(x):
    return np.array(
        [
            metrics.aggregate_median(x),
            metrics.aggregate_iqm(x),
            metrics.aggregate_mean(x),
            metrics.aggregate_optimality_gap(x, 1.0),
        ]
    )


def main():
    data = inputs()
    np.random.seed(0)  # noqa: NPY002 - rliable draws from the global generator
    points, intervals = library.get_interval_estimates(data, aggregates, reps=REPS)
    pairs = {f"{x},{y}": (data[x], data[y]) for x, y in (("A", "B"), ("A", "C"), ("C", "B"))}
    np.random.seed(1)  # noqa: NPY002 - rliable draws from the global generator
    poi_points, poi_intervals = library.get_interval_estimates(
        pairs, metrics.probability_of_improvement, reps=REPS
    )
    np.random.seed(2)  # noqa: NPY002 - rliable draws from the global generator
    profiles, profile_cis = library.create_performance_profile(data, TAUS, reps=REPS)
    np.random.seed(3)  # noqa: NPY002 - rliable draws from the global generator
    avg_profiles, _ = library.create_performance_profile(
        data, TAUS, use_score_distribution=False, reps=200
    )
    out = {
        "generated_by": "tests/reference/runs/make_rliable_reference.py with rliable 1.2.0",
        "reps": REPS,
        "taus": TAUS,
        "inputs": {k: v.tolist() for k, v in data.items()},
        "metrics": ["median", "iqm", "mean", "optimality-gap"],
        "aggregates": {k: points[k].tolist() for k in data},
        "aggregate_intervals": {k: intervals[k].tolist() for k in data},
        "improvement": {k: float(poi_points[k]) for k in pairs},
        "improvement_intervals": {k: np.ravel(poi_intervals[k]).tolist() for k in pairs},
        "score_distributions": {k: profiles[k].tolist() for k in data},
        "score_distribution_intervals": {k: profile_cis[k].tolist() for k in data},
        "average_score_distributions": {k: avg_profiles[k].tolist() for k in data},
    }
    path = Path(__file__).with_name("rliable_reference.json")
    path.write_text(json.dumps(out, indent=1) + "\n")


if __name__ == "__main__":
    main()

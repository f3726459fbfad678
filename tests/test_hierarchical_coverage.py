"""Seeded coverage of the hierarchical rank intervals under the complete null.

``rank_intervals(res, method="hierarchical")`` claims that, with probability at least
``confidence``, every model's true rank lies in its interval. Under the complete null every
model has the same expected rank over the population of tasks, every model holds every
rank, and the intervals cover exactly when no pair of models is declared different: the
simultaneous coverage is the share of simulated benchmarks whose intervals are all
``[1, k]``.

The benchmarks have model x task effects (a model is better on some tasks, worse on
others, equal on average over tasks) on top of item difficulty and item noise: the
between-task spread of the rank differences is what the intervals must account for, and
with many items per task the item resampling barely adds to it.
"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest
from scipy.stats import binom

import cdplot

CONFIDENCE = 0.95


def _null_benchmark(
    rng: np.random.Generator, k: int, n_tasks: int, n_items: int, binary: bool
) -> pd.DataFrame:
    """Long table (task, model, item, score) of ``k`` models equal in expectation over
    tasks: on each task each model has its own effect (standard normal, or +-0.15 on the
    probability of a right answer), each item a difficulty shared by all models."""
    rows = []
    for t in range(n_tasks):
        effect = rng.normal(size=k)
        difficulty = rng.normal(size=(n_items, 1))
        if binary:
            p = np.clip(0.5 + 0.15 * effect + 0.1 * difficulty, 0.0, 1.0)
            scores = (rng.random((n_items, k)) < p).astype(float)
        else:
            scores = effect + difficulty + 0.5 * rng.normal(size=(n_items, k))
        task, item, model = np.meshgrid(
            [f"t{t}"], np.arange(n_items), [f"m{j}" for j in range(k)], indexing="ij"
        )
        rows.append(
            pd.DataFrame(
                {
                    "task": task.ravel(),
                    "model": model.ravel(),
                    "item": item.ravel(),
                    "score": scores.ravel(),
                }
            )
        )
    return pd.concat(rows, ignore_index=True)


def _misses(
    k: int, n_tasks: int, n_items: int, binary: bool, tables: int, n_boot: int, seed: int
) -> int:
    """How many of ``tables`` null benchmarks get intervals that do not all span 1..k."""
    misses = 0
    for child in np.random.SeedSequence(seed).spawn(tables):
        rng = np.random.default_rng(child)
        res = cdplot.compare(_null_benchmark(rng, k, n_tasks, n_items, binary))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", cdplot.CdplotWarning)
            ri = cdplot.rank_intervals(
                res, method="hierarchical", confidence=CONFIDENCE, n_boot=n_boot, random_state=rng
            )
        misses += not (np.all(ri.low == 1) and np.all(ri.high == k))
    return misses


def _allowed_misses(tables: int) -> int:
    """The most misses a procedure that covers at least 0.95 shows in ``tables`` seeded
    benchmarks but with probability below 0.005: the 0.995 quantile of
    Binomial(tables, 0.05) (scipy.stats.binom.ppf). Monte Carlo error of the study, not of
    the intervals: a construction that covers 0.95 passes with probability > 0.995."""
    return int(binom.ppf(0.995, tables, 1.0 - CONFIDENCE))


# (models, tasks, items per task, right/wrong items, benchmarks, allowed misses, seed); 500
# replicates each; allowed = binom.ppf(0.995, benchmarks, 0.05), so an interval that truly
# covers 95 % passes with probability above 0.995. Measured (misses, before -> after the
# bootstrap-t): 5 x 10 x 40: 23 (0.81) -> 1 (0.99); 10 x 10 x 40 binary: 17 (0.72) -> 2
# (0.97); 30 x 30 x 20 (435 pairs): 27 (0.66) -> 4 (0.95).
COVERAGE_CASES = [
    pytest.param(5, 10, 40, False, 120, 13, 20240, id="five-models-ten-tasks"),
    pytest.param(10, 10, 40, True, 60, 8, 20242, id="ten-models-binary", marks=pytest.mark.slow),
    pytest.param(
        30, 30, 20, False, 80, 10, 20241, id="thirty-models-thirty-tasks", marks=pytest.mark.slow
    ),
]


@pytest.mark.parametrize(
    ("k", "n_tasks", "n_items", "binary", "tables", "allowed", "seed"), COVERAGE_CASES
)
def test_hierarchical_intervals_cover(k, n_tasks, n_items, binary, tables, allowed, seed):
    misses = _misses(k, n_tasks, n_items, binary, tables, n_boot=500, seed=seed)
    assert _allowed_misses(tables) == allowed  # binom.ppf(0.995, tables, 0.05)
    assert misses <= allowed, f"coverage {1 - misses / tables:.3f}"


def test_pair_ahead_on_every_task_keeps_a_margin_and_warns():
    # On each of 6 tasks A answers items 0-5 right, B the even items 0-8: A is ahead (6 to 5)
    # on every task, so the spread of the per-task rank differences is 0, yet resampling
    # the items (3 right for A alone, 2 for B alone) reverses a task about 1 time in 3.
    # The pair is scaled by the replicates' spread instead (with a warning), and the two
    # are not declared different; the fixed standard errors used before gave no warning.
    rows = [
        (f"t{t}", model, i, float(right(i)))
        for t in range(6)
        for model, right in (("A", lambda i: i < 6), ("B", lambda i: i % 2 == 0 and i < 9))
        for i in range(10)
    ]
    res = cdplot.compare(pd.DataFrame(rows, columns=["task", "model", "item", "score"]))
    assert res.ranks["A"].tolist() == [1.0] * 6
    with pytest.warns(cdplot.CdplotWarning, match=r"1 pair\(s\) of models have the same rank"):
        ri = cdplot.rank_intervals(res, method="hierarchical", n_boot=1000, random_state=0)
    assert ri.low.tolist() == [1, 1] and ri.high.tolist() == [2, 2]


def test_studentized_intervals_still_separate_a_clearly_better_model():
    # model m0 is 3 above the others on every task (model x task effects sd 1, item noise
    # 0.5): its interval is the first rank alone (as with the paired bootstrap-t over tasks)
    rng = np.random.default_rng(5)
    frame = _null_benchmark(rng, 5, 20, 30, binary=False)
    frame.loc[frame.model == "m0", "score"] += 3.0
    res = cdplot.compare(frame)
    ri = cdplot.rank_intervals(res, method="hierarchical", n_boot=1000, random_state=0)
    assert ri.interval("m0") == (1, 1)

"""The family-wise error rate of :func:`cdplot.check`'s verdicts, by seeded simulation.

A verdict is wrong when a claim is supported while false or contradicted while true; in
the strict reading :func:`cdplot.check` documents, "supported" needs the claim to hold with
strict inequalities (a model tied with a rival is not better than it) and "contradicted"
needs its negation to, so a claim that is true only through ties has no right verdict but
"undecided". The share of tables on which any claim of the family gets a wrong verdict must
stay at most alpha = 0.05 (up to three Monte Carlo standard errors); the same simulation
without Holm over the claims exceeds it, which shows the test can fail.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import cdplot
from cdplot.io._benchmark import BenchmarkItems
from cdplot.stats import compare_benchmark

ALPHA = 0.05


def _family_errors(results, claims, right):
    """(share of families with a wrong verdict, the same without Holm over the claims).

    ``right[c]`` is the set of verdicts that are not errors for claim ``c``.
    """
    wrong = naive = 0
    for res in results:
        out = cdplot.check(res, claims, alpha=ALPHA)
        wrong += any(v.verdict not in ok for v, ok in zip(out.verdicts, right, strict=True))
        naive += any(
            (v.p_support <= ALPHA and "supported" not in ok)
            or (v.p_contradict <= ALPHA and "contradicted" not in ok)
            for v, ok in zip(out.verdicts, right, strict=True)
        )
    return wrong / len(results), naive / len(results)


def _bound(reps: int) -> float:
    return ALPHA + 3 * math.sqrt(ALPHA * (1 - ALPHA) / reps)


def _tables(rng, reps, means, n):
    """Normal scores over ``n`` datasets with a dataset effect (paired designs)."""
    means = np.asarray(means, dtype=float)
    for _ in range(reps):
        yield rng.normal(size=(n, 1)) + means + rng.normal(size=(n, means.size))


UNDECIDED = {"undecided"}
NOT_CONTRADICTED = {"supported", "undecided"}
NOT_SUPPORTED = {"contradicted", "undecided"}


@pytest.mark.parametrize(
    ("means", "claims", "right"),
    [
        (  # the global null: every claim is true only through ties, or false
            [0, 0, 0, 0],
            ["A1 is best", "A1 better than A2", "A3 among the top 2", "A2 not worse than A4 by 0"],
            [UNDECIDED] * 4,
        ),
        (  # A1 ahead of three tied models
            [0.8, 0, 0, 0],
            [
                "A1 is best",
                "A2 better than A3",
                "A3 among the top 2",
                "A4 not worse than A2 by 0.2",
                "A2 better than A1",
            ],
            [NOT_CONTRADICTED, UNDECIDED, UNDECIDED, NOT_CONTRADICTED, NOT_SUPPORTED],
        ),
    ],
    ids=["global-null", "one-ahead"],
)
def test_the_family_wise_error_of_the_verdicts_is_at_most_alpha(means, claims, right):
    rng = np.random.default_rng(20260)
    reps = 1500
    results = [cdplot.compare(x, test="paired-t") for x in _tables(rng, reps, means, 12)]
    fwer, naive = _family_errors(results, claims, right)
    assert fwer <= _bound(reps), fwer
    assert naive > _bound(reps), naive  # without the family's correction it fails


@pytest.mark.slow
def test_the_family_wise_error_with_wilcoxon_tests_is_at_most_alpha():
    rng = np.random.default_rng(7)
    reps = 600
    claims = ["A1 is best", "A2 better than A3", "A2 not worse than A3 by 0"]
    results = [cdplot.compare(x, test="wilcoxon") for x in _tables(rng, reps, [0, 0, 0], 15)]
    fwer, naive = _family_errors(results, claims, [UNDECIDED] * 3)
    assert fwer <= _bound(reps), fwer
    assert naive > _bound(reps), naive


def test_the_gate_on_paired_binary_items_keeps_alpha_at_the_margin():
    """Two runs whose true difference is exactly the margin: "new not worse than base by
    0.05" is false (equality is not "better than -0.05"), so supporting it is an error."""
    rng = np.random.default_rng(11)
    reps, n = 1000, 400
    ids = tuple(f"q{i}" for i in range(n))
    results = []
    for _ in range(reps):
        base = (rng.random(n) < 0.6).astype(float)
        # new loses 10 % of base's solved items and gains 2.5 % of its unsolved ones:
        # P(new) = 0.6 * 0.9 + 0.4 * 0.025 = 0.55, exactly 0.05 below base
        new = np.where(base == 1, rng.random(n) >= 0.1, rng.random(n) < 0.025).astype(float)
        items = BenchmarkItems(("base", "new"), ids, np.column_stack([base, new]), True)
        results.append(compare_benchmark(items))
    fwer, _ = _family_errors(results, ["new not worse than base by 0.05"], [NOT_SUPPORTED])
    assert fwer <= _bound(reps), fwer

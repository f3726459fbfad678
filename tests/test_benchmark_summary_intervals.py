"""The summary of one benchmark: the intervals' names, and the rank intervals it is given."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

import cdplot
from cdplot.io._benchmark import BenchmarkItems
from cdplot.stats import compare_benchmark


def items(n: int = 120, k: int = 4) -> BenchmarkItems:
    rng = np.random.default_rng(7)
    x = (rng.random((n, k)) < np.linspace(0.3, 0.8, k)).astype(float)
    names = tuple(f"m{j}" for j in range(k))
    return BenchmarkItems(names, tuple(f"q{i}" for i in range(n)), x, True)


def flat(text: str) -> str:
    return " ".join(text.split())


def test_the_intervals_are_named_as_in_the_literature():
    text = flat(compare_benchmark(items()).summary())
    assert "(Clopper-Pearson for the means, Tango's score for the differences)" in text
    assert "tango" not in text


def test_cluster_robust_intervals_are_named_so():
    base = items()
    clustered = dataclasses.replace(
        base, clusters=np.arange(120) // 4, cluster_ids=tuple(map(str, range(30)))
    )
    text = flat(compare_benchmark(clustered).summary())
    assert "cluster-robust t for the differences" in text
    assert "clustered-t" not in text


def test_given_rank_intervals_are_stated_with_the_set_of_the_best():
    res = compare_benchmark(items())
    ri = cdplot.rank_intervals(res, method="bootstrap", n_boot=500, random_state=0)
    text = flat(res.summary(intervals=ri))
    assert "Rank intervals (95 % simultaneous, paired bootstrap over the 120 items" in text
    best = ", ".join(ri.best_set)
    assert f"Set of the best (95%; the models that may rank first): {best}." in text
    top = int(np.argmax(ri.p_best))
    assert f"P(best)): {ri.algorithms[top]} {ri.p_best[top]:.2f}" in text
    assert "Set of the best" not in res.summary()


def test_intervals_of_another_result_are_refused():
    res = compare_benchmark(items())
    other = compare_benchmark(items(k=3))
    ri = cdplot.rank_intervals(other, method="bootstrap", n_boot=200, random_state=0)
    with pytest.raises(cdplot.CdplotInputError, match=r"rank_intervals"):
        res.summary(intervals=ri)

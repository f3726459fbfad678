"""The bootstrap rank intervals of one benchmark's result (``cdplot.rank_intervals``).

``cdplot.rank_intervals(res, method="bootstrap")`` on a :class:`BenchmarkComparison` is
:func:`cdplot.stats.benchmark_rank_intervals` on the result's items - a bootstrap over the
items, over their clusters when they have clusters - returned as the ``RankIntervals`` the
rank plot and the reports take, in the result's display order.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

import cdplot
from cdplot.io._benchmark import BenchmarkItems
from cdplot.stats import benchmark_rank_intervals, compare_benchmark
from cdplot.stats._intervals import RankIntervals


def items(n: int = 200, k: int = 5, seed: int = 3) -> BenchmarkItems:
    rng = np.random.default_rng(seed)
    rates = np.linspace(0.3, 0.8, k)
    x = (rng.random((n, k)) < rates).astype(float)
    names = tuple(f"m{j}" for j in range(k))
    return BenchmarkItems(names, tuple(f"q{i}" for i in range(n)), x, True)


def clustered(n: int = 200, size: int = 5) -> BenchmarkItems:
    base = items(n)
    ids = tuple(f"c{g}" for g in range(n // size))
    return dataclasses.replace(base, clusters=np.arange(n) // size, cluster_ids=ids)


def _same(ri: RankIntervals, direct, order: list[str]) -> None:
    at = [direct.models.index(a) for a in order]
    assert ri.algorithms == tuple(order)
    np.testing.assert_array_equal(ri.low, direct.low[at])
    np.testing.assert_array_equal(ri.high, direct.high[at])
    np.testing.assert_array_equal(ri.p_best, direct.p_best[at])
    np.testing.assert_array_equal(ri.estimate, direct.mean[at])
    assert float(ri.critical_value[0]) == direct.critical_value
    assert set(ri.best_set) == set(direct.best_set)


@pytest.mark.parametrize("make", [items, clustered], ids=["items", "clusters"])
def test_the_bootstrap_is_the_benchmark_rank_intervals_of_the_items(make):
    data = make()
    res = compare_benchmark(data)
    ri = cdplot.rank_intervals(res, method="bootstrap", n_boot=1000, random_state=4)
    direct = benchmark_rank_intervals(data, n_boot=1000, seed=np.random.default_rng(4))
    assert isinstance(ri, RankIntervals)
    assert (ri.method, ri.on, ri.simultaneous, ri.n_boot) == ("bootstrap", "scores", True, 1000)
    _same(ri, direct, list(res.average_ranks.index))
    assert direct.clustered is (make is clustered)


def test_the_result_method_gives_the_same_intervals():
    res = compare_benchmark(clustered())
    a = res.rank_intervals("bootstrap", n_boot=500, random_state=1)
    b = cdplot.rank_intervals(res, method="bootstrap", n_boot=500, random_state=1)
    np.testing.assert_array_equal(a.low, b.low)
    np.testing.assert_array_equal(a.p_best, b.p_best)


def test_a_lower_is_better_benchmark_ranks_the_lowest_mean_first():
    data = items()
    res = compare_benchmark(data, higher_is_better=False)
    ri = cdplot.rank_intervals(res, method="bootstrap", n_boot=500, random_state=0)
    direct = benchmark_rank_intervals(
        data, n_boot=500, seed=np.random.default_rng(0), higher_is_better=False
    )
    _same(ri, direct, list(res.average_ranks.index))
    assert ri.best_set[0] == "m0" and "m4" not in ri.best_set  # rates 0.3 ... 0.8


def test_the_test_method_still_reads_the_decisions():
    res = compare_benchmark(clustered())
    ri = cdplot.rank_intervals(res, method="test")
    assert ri.method == "test" and len(ri.algorithms) == 5


def test_marginal_intervals_are_refused():
    res = compare_benchmark(items())
    with pytest.raises(cdplot.CdplotInputError, match=r"simultaneous intervals only"):
        cdplot.rank_intervals(res, method="bootstrap", simultaneous=False, n_boot=200)


def test_the_rank_plot_and_the_report_take_them():
    res = compare_benchmark(items())
    ri = cdplot.rank_intervals(res, method="bootstrap", n_boot=500, random_state=0)
    ax = cdplot.rank_plot(res, intervals=ri)
    import matplotlib.pyplot as plt

    plt.close(ax.figure)
    assert "m4" in cdplot.report.to_markdown(res, intervals=ri)

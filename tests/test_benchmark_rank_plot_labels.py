"""The rank plot of one benchmark's models speaks of items and mean scores, not datasets."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pytest

import cdplot
from cdplot.io._benchmark import BenchmarkItems
from cdplot.stats import compare_benchmark


@pytest.fixture(scope="module")
def res():
    rng = np.random.default_rng(2)
    k, n = 30, 200
    x = (rng.random((n, k)) < np.linspace(0.2, 0.8, k)).astype(float)
    names = tuple(f"model-{j:02d}" for j in range(k))
    return compare_benchmark(BenchmarkItems(names, tuple(f"q{i}" for i in range(n)), x, True))


def _texts(ax) -> list[str]:
    return [t.get_text() for t in ax.texts]


@pytest.mark.parametrize("bootstrap", [False, True], ids=["decisions", "bootstrap"])
def test_the_value_column_is_the_mean_score_over_the_items(res, bootstrap):
    intervals = (
        cdplot.rank_intervals(res, method="bootstrap", n_boot=300, random_state=0)
        if bootstrap
        else None
    )
    ax = cdplot.rank_plot(res, intervals=intervals)
    texts = _texts(ax)
    plt.close(ax.figure)
    assert "mean score" in texts and "model" in texts
    assert "avg. rank" not in texts and "algorithm" not in texts
    note = next(t for t in texts if t.startswith("Point:"))
    assert "over the datasets" not in note
    assert "over the 200 items" in " ".join(note.split())
    shown = {
        t.get_gid().removeprefix("rank-average-"): t.get_text()
        for t in ax.texts
        if (t.get_gid() or "").startswith("rank-average-")
    }
    means = res.mean_scores
    assert shown == {a: f"{means[a]:.3f}" for a in means.index}


def test_a_board_keeps_its_average_ranks():
    board = cdplot.compare(cdplot.datasets.load("demsar2006"))
    ax = cdplot.rank_plot(board)
    texts = _texts(ax)
    plt.close(ax.figure)
    assert "avg. rank" in texts and "algorithm" in texts

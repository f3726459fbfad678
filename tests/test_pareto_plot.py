"""The frontier figure (cdplot.pareto_plot) and its label placement.

Geometry is checked with numbers (no label overlaps another label or a marker, every
label inside the Axes); the pictures at k = 8 and k = 100 are pytest-mpl baselines.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import cdplot
from cdplot import CdplotInputError
from cdplot.plotting._pareto_layout import place_labels


def _frontier(k, seed=1):
    """A seeded table where quality and cost go together (a real trade-off)."""
    rng = np.random.default_rng(seed)
    quality = rng.normal(size=k)
    log_cost = 0.8 * quality + 0.8 * rng.normal(size=k) + 2
    scores = 0.7 + 0.05 * quality + 0.04 * rng.normal(size=(30, k))
    costs = np.exp(log_cost + 0.2 * rng.normal(size=(30, k)))
    names = [f"model-{i:02d}" for i in range(k)]
    res = cdplot.compare(pd.DataFrame(scores, columns=names))
    return cdplot.pareto_frontier(
        res, cost=pd.DataFrame(costs, columns=names), on="scores", random_state=0, n_boot=300
    )


def _overlap(a, b):
    return not (a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1])


def test_placed_labels_never_overlap_labels_or_markers():
    rng = np.random.default_rng(0)
    points = rng.uniform(0, 4, size=(60, 2))
    sizes = [(0.4, 0.1)] * 60
    boxes = place_labels(points, sizes, range(60), (0, 0, 4, 4), radius=0.03, gap=0.02)
    placed = [(b.x, b.y, b.x + b.width, b.y + b.height) for b in boxes if b is not None]
    assert len(placed) > 40
    for i, a in enumerate(placed):
        assert a[0] >= 0 and a[2] <= 4 and a[1] >= 0 and a[3] <= 4
        assert not any(_overlap(a, b) for b in placed[i + 1 :])
        assert not any(_overlap(a, (x - 0.03, y - 0.03, x + 0.03, y + 0.03)) for x, y in points)


def test_labels_of_100_models_do_not_overlap_on_the_figure():
    fr = _frontier(100)
    ax = cdplot.pareto_plot(fr)
    fig = ax.figure
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    boxes = [t.get_window_extent(renderer) for t in ax.texts]
    assert len(boxes) >= 90  # nearly every model labelled
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            assert (
                a.x1 <= b.x0 + 0.5 or b.x1 <= a.x0 + 0.5 or a.y1 <= b.y0 + 0.5 or b.y1 <= a.y0 + 0.5
            )


def test_the_figure_draws_what_the_frontier_says():
    fr = _frontier(8)
    ax = cdplot.pareto_plot(fr)
    assert ax.get_xscale() == "log"
    on = next(line for line in ax.lines if line.get_gid() == "models-frontier")
    np.testing.assert_allclose(on.get_xdata(), fr.cost[fr.on_frontier])
    assert {t.get_text() for t in ax.texts} == set(fr.models)


def test_pareto_plot_refuses_other_objects():
    res = cdplot.compare(cdplot.datasets.load("demsar2006"))
    with pytest.raises(CdplotInputError, match=r"draws the result of cdplot.pareto_frontier"):
        cdplot.pareto_plot(res)


@pytest.mark.mpl_image_compare(filename="pareto_k8.png")
def test_pareto_plot_k8_image():
    return cdplot.pareto_plot(_frontier(8)).figure


@pytest.mark.mpl_image_compare(filename="pareto_k100.png")
def test_pareto_plot_k100_image():
    return cdplot.pareto_plot(_frontier(100)).figure

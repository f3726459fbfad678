"""Figures of the Bayesian tests: Bayesian CD diagram, posterior bars, simplex, pool matrix, MCM.

Artists are checked against the result they draw (gids, counts, geometry); one pytest-mpl
baseline per figure (run with ``--mpl``).
"""

from __future__ import annotations

import numpy as np
import pytest
from matplotlib.figure import Figure

import cdplot
from cdplot.plotting._bayes import equivalence_groups


@pytest.fixture(scope="module")
def pool_frame():
    return cdplot.pool_sensitivity(cdplot.datasets.load("benavoli2016"))


@pytest.fixture(scope="module")
def posterior():
    ben = cdplot.datasets.load("benavoli2016")
    return cdplot.stats.bayes_signed_rank(ben["C5"], ben["C7"], rope=1.0, random_state=1)


# --------------------------------------------------------------------------- Bayesian CD diagram


def test_bayes_cd_bars_follow_decisions(bayes_benavoli):
    ax = cdplot.bayes_cd_diagram(bayes_benavoli)
    equivalent = equivalence_groups(bayes_benavoli)
    assert equivalent  # C3-C2 and C5-C1 are decided equivalent at rope = 1
    for group in equivalent:
        for a in group:
            for b in group:
                assert a == b or bayes_benavoli.decisions.loc[a, b] == "equivalent"
    eq_bars = [ln for ln in ax.lines if ln.get_gid() == "bayes-equivalent-bar"]
    group_bars = [ln for ln in ax.lines if ln.get_gid() == "cd-group-bar"]
    assert len(eq_bars) == len(equivalent)
    others = [g for g in bayes_benavoli.groups if len(g) >= 2 and g not in equivalent]
    assert len(group_bars) == len(others)
    # an equivalence bar spans exactly its members' rank positions (plus the overhang)
    x_of = {
        name: ax.lines[[ln.get_gid() for ln in ax.lines].index(f"cd-line-{name}")].get_xdata()[0]
        for name in bayes_benavoli.algorithms
    }
    spans = sorted((min(x_of[n] for n in g), max(x_of[n] for n in g)) for g in equivalent)
    drawn = sorted((min(ln.get_xdata()), max(ln.get_xdata())) for ln in eq_bars)
    for (lo, hi), (dlo, dhi) in zip(spans, drawn, strict=True):
        assert dlo < lo and dhi > hi and lo - dlo == pytest.approx(dhi - hi)
    assert eq_bars[0].get_linestyle() != group_bars[0].get_linestyle()


def test_groups_hold_no_pair_decided_different(bayes_benavoli):
    for group in bayes_benavoli.groups:
        for a in group:
            for b in group:
                assert bayes_benavoli.decisions.loc[a, b] not in ("A better", "B better")


def test_bayes_figures_refuse_frequentist_results():
    res = cdplot.compare(cdplot.datasets.load("demsar2006"))
    for func in (cdplot.bayes_cd_diagram, cdplot.posterior_plot):
        with pytest.raises(cdplot.CdplotInputError, match="test='bayes-signed-rank'"):
            func(res)


# --------------------------------------------------------------------------- posterior bars


def test_posterior_bars_sum_to_one(bayes_benavoli):
    ax = cdplot.posterior_plot(bayes_benavoli)
    k = len(bayes_benavoli.algorithms)
    segments = {
        gid: [p for p in ax.patches if p.get_gid() == gid]
        for gid in ("posterior-better", "posterior-equivalent", "posterior-worse")
    }
    assert all(len(v) == k * (k - 1) // 2 for v in segments.values())
    for a, e, w in zip(*segments.values(), strict=True):
        assert a.get_width() + e.get_width() + w.get_width() == pytest.approx(1.0)
        assert e.get_x() == pytest.approx(a.get_width())
    first = ax.get_yticklabels()[0].get_text()
    a, b = first.split(" vs ")
    assert segments["posterior-better"][0].get_width() == pytest.approx(
        bayes_benavoli.posterior_better.loc[a, b]
    )
    decisions = [t.get_text() for t in ax.texts if t.get_gid() == "posterior-decision"]
    assert decisions[0] == bayes_benavoli.decisions.loc[a, b]


def test_posterior_plot_pairs_and_errors(bayes_benavoli):
    ax = cdplot.posterior_plot(bayes_benavoli, pairs=[("C4", "C2")], decisions=False)
    assert [t.get_text() for t in ax.get_yticklabels()] == ["C4 vs C2"]
    with pytest.raises(cdplot.CdplotInputError, match="unknown algorithm 'C9'"):
        cdplot.posterior_plot(bayes_benavoli, pairs=[("C9", "C2")])
    with pytest.raises(cdplot.CdplotInputError, match="three colours"):
        cdplot.posterior_plot(bayes_benavoli, colors=["red"])


# --------------------------------------------------------------------------- simplex


def test_simplex_points_inside_the_triangle(posterior):
    ax = cdplot.simplex_plot(posterior, names=("C5", "C7"))
    hexes = [c for c in ax.collections if c.get_gid() == "simplex-density"]
    assert len(hexes) == 1
    assert hexes[0].get_array().sum() > 0
    texts = " ".join(t.get_text() for t in ax.texts)
    assert f"P = {posterior.left:.3f}" in texts and f"P = {posterior.rope:.3f}" in texts
    from cdplot.plotting._bayes import SQRT3_2, _project

    px, py = _project(posterior.samples)
    assert (py >= -1e-12).all() and (py <= SQRT3_2 * (1 - np.abs(2 * px - 1)) + 1e-9).all()


def test_simplex_needs_samples():
    res = cdplot.stats.bayes_correlated_t([1, 2, 3], [2, 3, 5], test_train_ratio=1 / 9)
    with pytest.raises(cdplot.CdplotInputError, match="needs posterior samples"):
        cdplot.simplex_plot(res)


# --------------------------------------------------------------------------- pool matrix, MCM


def test_pool_matrix_cells(pool_frame):
    ax = cdplot.pool_sensitivity_plot(pool_frame)
    image = [im for im in ax.images if im.get_gid() == "pool-cells"][0]
    data = image.get_array()
    assert data.shape == (21, 6)
    annotations = [t.get_text() for t in ax.texts if t.get_gid() == "pool-annotation"]
    assert "7/10" in annotations and "3/5" in annotations
    only = cdplot.pool_sensitivity_plot(pool_frame, dependent_only=True)
    assert [t.get_text() for t in only.get_yticklabels()] == [
        "C2 \N{EN DASH} C4",
        "C2 \N{EN DASH} C7",
        "C3 \N{EN DASH} C7",
        "C4 \N{EN DASH} C6",
    ]


def test_pool_matrix_errors(pool_frame):
    with pytest.raises(cdplot.CdplotInputError, match="cdplot.pool_sensitivity"):
        cdplot.pool_sensitivity_plot(pool_frame[["a", "b"]])
    flat = pool_frame[~pool_frame.depends_on_pool]
    with pytest.raises(cdplot.CdplotInputError, match="dependent_only=False"):
        cdplot.pool_sensitivity_plot(flat, dependent_only=True)


def test_mcm_cells_from_result():
    data = cdplot.datasets.load("demsar2006")
    res = cdplot.compare(data)
    ax = cdplot.multi_comparison_matrix(res)
    order = [t.get_text().split("\n")[0] for t in ax.get_xticklabels()]
    means = data.mean()
    assert order == list(means.sort_values(ascending=False).index)
    texts = [t for t in ax.texts if t.get_gid() == "mcm-annotation"]
    assert len(texts) == 12
    first = texts[0].get_text().split("\n")  # row 0, column 1
    a, b = order[0], order[1]
    assert float(first[0]) == pytest.approx(means[a] - means[b], abs=5e-4)
    w = res.wins
    assert first[1] == f"{w.wins.loc[a, b]}/{w.ties.loc[a, b]}/{w.losses.loc[a, b]}"
    with pytest.raises(cdplot.CdplotInputError, match="needs all pairs"):
        cdplot.multi_comparison_matrix(cdplot.compare(data, control="C4.5"))


def test_axes_level_functions_draw_into_given_axes(bayes_benavoli, pool_frame, posterior):
    for func, arg in (
        (cdplot.posterior_plot, bayes_benavoli),
        (cdplot.pool_sensitivity_plot, pool_frame),
        (cdplot.simplex_plot, posterior),
        (cdplot.multi_comparison_matrix, cdplot.compare(cdplot.datasets.load("demsar2006"))),
    ):
        fig = Figure(figsize=(5, 5))
        ax = fig.add_subplot()
        assert func(arg, ax=ax) is ax
        assert len(fig.axes) == 1


def test_public_names():
    import cdplot.plotting as plotting

    for name in (
        "bayes_cd_diagram",
        "posterior_plot",
        "simplex_plot",
        "pool_sensitivity_plot",
        "multi_comparison_matrix",
    ):
        assert getattr(cdplot, name) is getattr(plotting, name)
    assert cdplot.pool_sensitivity is cdplot.stats.pool_sensitivity


# --------------------------------------------------------------------------- baselines


@pytest.mark.mpl_image_compare(filename="bayes_cd_benavoli.png")
def test_image_bayes_cd(bayes_benavoli):
    return cdplot.bayes_cd_diagram(bayes_benavoli).get_figure()


@pytest.mark.mpl_image_compare(filename="bayes_posterior_demsar.png")
def test_image_posterior():
    res = cdplot.compare(
        cdplot.datasets.load("demsar2006"),
        test="bayes-sign",
        rope=0.01,
        nsamples=5000,
        random_state=0,
    )
    return cdplot.posterior_plot(res).get_figure()


@pytest.mark.mpl_image_compare(filename="bayes_simplex.png")
def test_image_simplex(posterior):
    return cdplot.simplex_plot(posterior, names=("C5", "C7")).get_figure()


@pytest.mark.mpl_image_compare(filename="pool_sensitivity_benavoli.png")
def test_image_pool(pool_frame):
    return cdplot.pool_sensitivity_plot(pool_frame).get_figure()


@pytest.mark.mpl_image_compare(filename="mcm_demsar.png")
def test_image_mcm():
    return cdplot.multi_comparison_matrix(
        cdplot.compare(cdplot.datasets.load("demsar2006"))
    ).get_figure()


def test_apv_heatmap_refuses_a_bayesian_result_and_names_the_figures(bayes_benavoli):
    with pytest.raises(cdplot.CdplotInputError) as err:
        cdplot.apv_heatmap(bayes_benavoli)
    assert str(err.value) == (
        "apv_heatmap draws p-values, but the bayes-signed-rank test gives posterior "
        "probabilities; draw them with cdplot.posterior_plot(result) (every pair) or "
        "cdplot.bayes_cd_diagram(result)."
    )

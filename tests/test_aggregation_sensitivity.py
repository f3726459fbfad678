"""cdplot.aggregation_sensitivity: rankings under six aggregations, LODO, tau.

References: ``tests/reference/bradley_terry_r.csv`` from ``make_bradley_terry_r.R``
(R 4.2.2, ``BradleyTerry2::BTm`` 1.1.2 on the same win counts), ``scipy.stats.kendalltau``,
``scipy.stats.trim_mean(x, 0.25)`` (the interquartile mean), and brute force (LODO).
"""

from __future__ import annotations

import csv
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import cdplot
from cdplot.stats._sensitivity import AGGREGATIONS, bradley_terry

REF = Path(__file__).parent / "reference" / "bradley_terry_r.csv"


def _btm():
    out: dict[str, dict[str, dict[str, float]]] = {}
    with REF.open() as fh:
        for row in csv.DictReader(r for r in fh if not r.startswith("#")):
            out.setdefault(row["table"], {})[row["algorithm"]] = {
                key: float(row[key]) for key in ("wins", "strength", "se", "low", "high")
            }
    return out


BTM = _btm()


@pytest.mark.parametrize("table", sorted(BTM))
def test_bradley_terry_equals_r_btm(table):
    sens = cdplot.aggregation_sensitivity(cdplot.datasets.load(table))
    bt = sens.bradley_terry
    for name, ref in BTM[table].items():
        # R: BTm(cbind(win1, win2), player1, player2), centred; vcov(m) for the se
        assert bt.loc[name, "strength"] == pytest.approx(ref["strength"], rel=1e-9, abs=1e-12)
        assert bt.loc[name, "se"] == pytest.approx(ref["se"], rel=1e-9)
        assert bt.loc[name, "low"] == pytest.approx(ref["low"], rel=1e-9, abs=1e-12)
        assert bt.loc[name, "high"] == pytest.approx(ref["high"], rel=1e-9, abs=1e-12)
    assert abs(bt["strength"].sum()) < 1e-12
    wins = sens.values["win_rate"] * sens_n(table) * (len(BTM[table]) - 1)
    ref_wins = [BTM[table][a]["wins"] for a in sens.algorithms]  # R: rowSums(w)
    np.testing.assert_allclose(wins, ref_wins, rtol=1e-14)


def sens_n(table):
    return cdplot.datasets.load(table).shape[0]


def test_rankings_equal_independent_computations():
    data = cdplot.datasets.load("benavoli2016")
    x = data.to_numpy(dtype=float)
    sens = cdplot.aggregation_sensitivity(data)
    frame = sens.to_frame().loc[list(data.columns)]
    within = stats.rankdata(-x, axis=1)  # scipy: 1 = best
    expect = {
        "average_rank": stats.rankdata(within.mean(axis=0)),
        "mean": stats.rankdata(-x.mean(axis=0)),
        "median": stats.rankdata(-np.median(x, axis=0)),
        "iqm": stats.rankdata(-stats.trim_mean(x, 0.25, axis=0)),
    }
    for key, ranks in expect.items():
        np.testing.assert_array_equal(frame[key].to_numpy(), ranks, err_msg=key)
    # win rate over (other algorithm, dataset) pairs, ties half, by brute force
    n, k = x.shape
    rate = [
        sum(
            (x[:, a] > x[:, b]).sum() + 0.5 * (x[:, a] == x[:, b]).sum() for b in range(k) if b != a
        )
        / (n * (k - 1))
        for a in range(k)
    ]
    np.testing.assert_array_equal(frame["win_rate"].to_numpy(), stats.rankdata(-np.array(rate)))
    # Kendall's tau-b between the rankings (scipy.stats.kendalltau)
    tau = sens.kendall_tau
    for a in AGGREGATIONS:
        for b in AGGREGATIONS:
            if a != b:
                ref = stats.kendalltau(frame[a], frame[b]).statistic
                assert tau.loc[a, b] == pytest.approx(ref, rel=1e-14)


def test_leave_one_dataset_out_by_brute_force():
    data = cdplot.datasets.load("demsar2006")
    x = data.to_numpy(dtype=float)
    frame = cdplot.aggregation_sensitivity(data).to_frame().loc[list(data.columns)]
    positions = []
    for d in range(x.shape[0]):
        rest = np.delete(x, d, axis=0)
        positions.append(stats.rankdata(stats.rankdata(-rest, axis=1).mean(axis=0)))
    positions = np.array(positions)
    np.testing.assert_array_equal(frame["lodo_low"], positions.min(axis=0))
    np.testing.assert_array_equal(frame["lodo_high"], positions.max(axis=0))


def test_columns_direction_and_result_input():
    data = cdplot.datasets.load("demsar2006")
    sens = cdplot.aggregation_sensitivity(data)
    assert sens.to_frame().columns.tolist() == [*AGGREGATIONS, "lodo_low", "lodo_high"]
    assert sens.bradley_terry.columns.tolist()[:3] == ["strength", "low", "high"]
    flipped = cdplot.aggregation_sensitivity(-data, higher_is_better=False)
    pd.testing.assert_frame_equal(flipped.to_frame(), sens.to_frame())
    res = cdplot.compare(data)
    pd.testing.assert_frame_equal(cdplot.aggregation_sensitivity(res).to_frame(), sens.to_frame())


def test_no_mle_warns_and_leaves_bradley_terry_empty():
    data = pd.DataFrame({"A": [3.0, 4, 5], "B": [1.0, 2, 2], "C": [2.0, 1, 3]})
    with pytest.warns(cdplot.CdplotWarning, match="never lose"):
        sens = cdplot.aggregation_sensitivity(data)
    assert sens.to_frame()["bradley_terry"].isna().all()
    assert sens.to_frame().loc["A", "average_rank"] == 1


def test_bad_input():
    with pytest.raises(cdplot.CdplotInputError, match="confidence"):
        cdplot.aggregation_sensitivity(cdplot.datasets.load("demsar2006"), confidence=95)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(cdplot.CdplotInputError):
            cdplot.aggregation_sensitivity(pd.DataFrame({"A": [1.0, np.nan], "B": [2.0, 1]}))


def test_bradley_terry_symmetry():
    w = np.array([[0, 3, 4], [1, 0, 2], [1, 2, 0.0]])
    s, low, high, se = bradley_terry(w)
    p = 1 / (1 + np.exp(-(s[:, None] - s[None, :])))
    games = w + w.T
    # the ML equations: observed wins = expected wins for every algorithm
    np.testing.assert_allclose(w.sum(axis=1), (games * p).sum(axis=1), rtol=1e-12)
    assert (low < s).all() and (s < high).all()


def _k50():
    rng = np.random.default_rng(3)
    k, n = 50, 30
    x = rng.normal(size=(n, k)) * 0.05 + np.linspace(0, 0.1, k)
    return pd.DataFrame(x, columns=[f"algorithm_{i:02d}" for i in range(k)])


@pytest.mark.mpl_image_compare(filename="aggregation_sensitivity_demsar.png")
def test_image_demsar():
    sens = cdplot.aggregation_sensitivity(cdplot.datasets.load("demsar2006"))
    return cdplot.aggregation_sensitivity_plot(sens).get_figure()


@pytest.mark.mpl_image_compare(filename="aggregation_sensitivity_k50.png")
def test_image_k50():
    return cdplot.aggregation_sensitivity(_k50()).plot().get_figure()

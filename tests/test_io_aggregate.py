"""Repeated runs (cdplot.io._aggregate) and decimals=.

Verified against independent arithmetic:
- means: ``float(sum(map(fractions.Fraction, runs)) / len(runs))``, the exact mean rounded
  once (Python's int/int and Fraction -> float conversions are correctly rounded);
- medians: ``numpy.median``; standard deviations: ``numpy.std(runs, ddof=1)`` (rtol 1e-12);
- rounding: Python's ``round(x, decimals)``.
"""

from __future__ import annotations

import math
import warnings
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest

import cdplot
from cdplot import CdplotInputError
from cdplot.io import Aggregation, exact_mean, parse_scores


def runs_table(cells: dict[tuple[str, str], list[float]]) -> pd.DataFrame:
    rows = [
        {"dataset": d, "algorithm": a, "fold": f, "acc": v}
        for (d, a), values in cells.items()
        for f, v in enumerate(values)
    ]
    return pd.DataFrame(rows)


def test_equal_means_come_out_equal_whatever_the_order():
    # naive left-to-right sums differ in the last bit: (0.1+0.2)+0.3 = 0.6000000000000001,
    # (0.3+0.2)+0.1 = 0.6; so do numpy's means of the two orders
    a, b = [0.1, 0.2, 0.3], [0.3, 0.2, 0.1]
    assert sum(a) != sum(b)
    assert np.mean(a) != np.mean(b)
    cells = {}
    for i in range(6):
        cells[(f"d{i}", "A")] = a
        cells[(f"d{i}", "B")] = b
        cells[(f"d{i}", "C")] = [0.5, 0.5, 0.5 + i / 100]
    res = cdplot.compare(runs_table(cells), aggregate="mean", correction="none", test="sign")
    assert (res.scores["A"] == res.scores["B"]).all()
    assert (res.ranks["A"] == res.ranks["B"]).all()  # a real tie stays a tie
    assert res.scores.loc["d0", "A"] == float((Fraction(0.1) + Fraction(0.2) + Fraction(0.3)) / 3)


@pytest.mark.parametrize("seed", range(5))
def test_exact_mean_is_the_correctly_rounded_mean(seed):
    rng = np.random.default_rng(seed)
    for _ in range(200):
        n = int(rng.integers(1, 30))
        scale = 10.0 ** rng.integers(-300, 300)
        runs = (rng.normal(size=n) * scale).tolist()
        assert exact_mean(runs) == float(sum(map(Fraction, runs)) / n)
        assert exact_mean(runs) == exact_mean(runs[::-1])
    assert exact_mean([0.1] * 10) == 0.1  # fsum(...)/10 would be exact here too
    assert exact_mean([1e308, 1e308]) == 1e308  # no overflow


def test_median_std_and_callable():
    rng = np.random.default_rng(1)
    cells = {
        (f"d{i}", a): rng.random(int(n)).tolist() for i in range(5) for a, n in (("A", 4), ("B", 5))
    }
    table = runs_table(cells)
    with pytest.warns(cdplot.CdplotWarning, match=r"different numbers of runs"):
        med = parse_scores(table, aggregate="median").to_frame()
    with pytest.warns(cdplot.CdplotWarning):
        mean = parse_scores(table, aggregate="mean")
    with pytest.warns(cdplot.CdplotWarning):
        top = parse_scores(table, aggregate=np.max)
    for (d, a), runs in cells.items():
        assert med.loc[d, a] == np.median(runs)
        assert top.to_frame().loc[d, a] == max(runs)
        assert mean.std_frame().loc[d, a] == pytest.approx(np.std(runs, ddof=1), rel=1e-12)
    assert top.aggregation.function == "max"
    assert top.aggregation.describe() == "scores are max() of the runs over 4\N{EN DASH}5 folds"


def test_unequal_counts_warn_naming_the_cells():
    cells = {(f"d{i}", a): [0.5 + i / 10] * 10 for i in range(4) for a in "AB"}
    cells[("d2", "B")] = [0.7] * 9
    with pytest.warns(
        cdplot.CdplotWarning,
        match=r"^the cells have different numbers of runs: most have 10, but 'B' on 'd2' \(9\); "
        r"check for missing or duplicated runs\.$",
    ):
        table = parse_scores(runs_table(cells), aggregate="mean")
    agg = table.aggregation
    assert (agg.min_count, agg.max_count) == (9, 10)
    assert agg.counts.loc["d2", "B"] == 9 and agg.counts.loc["d2", "A"] == 10
    assert table.notes == ("scores are means over 9\N{EN DASH}10 folds",)


def test_a_missing_run_makes_a_missing_cell():
    cells = {(f"d{i}", a): [0.5, 0.6] for i in range(4) for a in "AB"}
    cells[("d1", "A")] = [0.5, float("nan")]
    with pytest.raises(
        CdplotInputError, match=r"missing score \(NaN or absent\) for algorithm 'A' on dataset 'd1'"
    ):
        parse_scores(runs_table(cells), aggregate="mean")
    with pytest.warns(cdplot.CdplotWarning, match=r"dropped 1 dataset\(s\)"):
        table = parse_scores(runs_table(cells), aggregate="mean", missing="drop")
    assert table.datasets == ["d0", "d2", "d3"] and table.dropped_datasets == ("d1",)


def test_repeated_rows_refused_with_what_was_found():
    cells = {(f"d{i}", a): [0.5, 0.6] for i in range(4) for a in "AB"}
    table = runs_table(cells)
    with pytest.raises(
        CdplotInputError,
        match=r"^2 rows per dataset and algorithm, told apart by column 'fold': these look like "
        r"repeated runs; pass aggregate='mean' to average them \(or aggregate='median'\)\.$",
    ):
        parse_scores(table)
    with pytest.raises(
        CdplotInputError,
        match=r"^2 rows per dataset and algorithm \(e\.g\. algorithm 'A' on dataset 'd0'\), told "
        r"apart by 'config', which cdplot does not know as a repetition column \(fold, seed, "
        r"run, \.\.\.\): keep one row per dataset and algorithm \(filter on 'config'\), or, if "
        r"the rows are repeated runs, pass aggregate='mean'\.$",
    ):
        parse_scores(
            table.rename(columns={"fold": "config"}).assign(
                config=lambda t: "lr" + t["config"].astype(str)
            )
        )
    with pytest.raises(
        CdplotInputError,
        match=r"^duplicate results: algorithm 'A' on dataset 'd0' appears more than once \(16 "
        r"rows in duplicated cells in all\); keep one row per dataset and algorithm, or, if the "
        r"rows are repeated runs, pass aggregate='mean'\.$",
    ):
        parse_scores(table.drop(columns="fold"))


def test_aggregate_option_errors():
    table = runs_table({(f"d{i}", a): [0.5, 0.6] for i in range(3) for a in "AB"})
    with pytest.raises(
        CdplotInputError,
        match=r"^'average' is not a valid value for aggregate; supported values are 'mean', "
        r"'median'\.$",
    ):
        parse_scores(table, aggregate="average")
    with pytest.raises(
        CdplotInputError, match=r"^aggregate=<lambda> must return one real number per cell"
    ):
        parse_scores(table, aggregate=lambda x: x)
    with pytest.raises(CdplotInputError, match=r"^aggregate= needs a table of runs"):
        parse_scores(np.ones((3, 3)), aggregate="mean")


def test_describe():
    counts = pd.DataFrame([[10]])
    assert Aggregation("mean", ("fold",), counts, 10, 10).describe() == (
        "scores are means over 10 folds"
    )
    assert Aggregation("median", ("repeats",), counts, 3, 3).describe() == (
        "scores are medians over 3 repeats"
    )
    assert Aggregation("mean", (), counts, 1, 1).describe() == "scores are means over 1 run"


def test_decimals_round_before_ranking():
    base = np.array(
        [[0.83, 0.83, 0.5], [0.7, 0.6, 0.5], [0.4, 0.41, 0.42], [0.9, 0.8, 0.7]]
        + [[0.1, 0.2, 0.3]] * 3
    )
    noisy = base.copy()
    noisy[0, 0] = 0.8300000000000001  # the last bit differs: an exact-float ranking splits it
    assert noisy[0, 0] != noisy[0, 1]
    exact = cdplot.compare(noisy, test="sign", correction="none")
    assert exact.ranks.iloc[0, 0] == 1.0 and exact.ranks.iloc[0, 1] == 2.0
    rounded = cdplot.compare(noisy, test="sign", correction="none", decimals=2)
    assert rounded.ranks.iloc[0, 0] == rounded.ranks.iloc[0, 1] == 1.5
    assert rounded.decimals == 2
    assert rounded.input_notes == ("scores were rounded to 2 decimals before ranking",)
    expected = [[round(v, 2) for v in row] for row in noisy.tolist()]
    np.testing.assert_array_equal(rounded.scores.to_numpy(), expected)
    for bad, match in (
        (2.0, r"^decimals must be None or an integer from 0 to 15, got 2\.0; e\.g\. decimals=4"),
        (True, r"^decimals must be None or an integer from 0 to 15, got True"),
        (16, r"^decimals must be an integer from 0 to 15 \(float64 has about 15 significant "),
        (-1, r"^decimals must be an integer from 0 to 15"),
    ):
        with pytest.raises(CdplotInputError, match=match):
            cdplot.compare(noisy, decimals=bad)


def test_aggregation_reaches_the_result():
    cells = {
        (f"d{i}", a): [0.5 + i / 10, 0.6, 0.7 - j / 20]
        for i in range(8)
        for j, a in enumerate("ABC")
    }
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        res = cdplot.compare(runs_table(cells), aggregate="mean")
    assert res.aggregation.function == "mean" and res.aggregation.columns == ("fold",)
    assert res.input_notes == ("scores are means over 3 folds",)
    for (d, a), runs in cells.items():
        assert res.score_std.loc[d, a] == pytest.approx(np.std(runs, ddof=1), rel=1e-12)
        assert res.scores.loc[d, a] == float(sum(map(Fraction, runs)) / 3)
    assert math.isclose(res.scores.loc["d0", "A"], 0.6)


def test_the_recorded_repetition_columns_are_those_that_tell_runs_apart():
    cells = {(f"d{i}", a): [0.5, 0.6] for i in range(3) for a in "AB"}
    table = runs_table(cells).assign(seed=7, config=lambda t: "lr" + t["fold"].astype(str))
    assert parse_scores(table, aggregate="mean").aggregation.columns == ("fold",)
    # no repetition column: the varying columns are recorded
    unnamed = table.drop(columns=["fold", "seed"])
    assert parse_scores(unnamed, aggregate="mean").aggregation.columns == ("config",)
    # a wide table with a fold column
    wide = table.pivot_table(index=["dataset", "fold"], columns="algorithm", values="acc")
    agg = parse_scores(wide.reset_index(), aggregate="mean").aggregation
    assert agg.columns == ("fold",) and agg.max_count == 2

"""Coverage and cost of the bootstrap rank intervals (cdplot.rank_intervals).

The bootstrap-t (each bootstrap sample's differences over their own standard errors) is the
default at every size; fixed standard errors are an explicit choice, or the fallback above a
work budget, and warn. Checked here: the simultaneous coverage of the true ranks under the
complete null (every algorithm has the same mean, so every interval must be 1..k) on seeded
``cdplot.NormalModel`` tables, at k = 60 and at k = 10 with N = 30; the bootstrap-t's
statistics in tiles and chunks against a plain loop over the draws; the bound on ``n_boot``;
and the test method's default confidence, ``1 - alpha`` of the result.
"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

import cdplot
from cdplot.stats import _intervals


def _result(table: np.ndarray, **options) -> cdplot.ComparisonResult:
    names = [f"A{i:02d}" for i in range(table.shape[1])]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cdplot.CdplotWarning)  # compare()'s own notes
        return cdplot.compare(pd.DataFrame(table, columns=names), **options)


def _null_coverage(k: int, n_datasets: int, reps: int, n_boot: int, seed: int) -> float:
    """Share of tables whose bootstrap intervals (default settings) are all 1..k."""
    model = cdplot.NormalModel({f"A{i:02d}": 0.0 for i in range(k)}, n_datasets=n_datasets)
    hits = 0
    for r, table in enumerate(model.draw(np.random.default_rng(seed), reps)):
        res = _result(table, test="wilcoxon")
        ri = cdplot.rank_intervals(res, method="bootstrap", n_boot=n_boot, random_state=seed + r)
        hits += bool((ri.low == 1).all() and (ri.high == k).all())
    return hits / reps


@pytest.mark.slow
def test_bootstrap_covers_under_the_complete_null_with_60_algorithms():
    # 60 algorithms, 30 datasets (1,770 pairs), the default 10,000 draws: the size at which
    # fixed standard errors covered 0.60 instead of 0.95 (the bootstrap-t: 0.97; see the
    # Notes of cdplot.rank_intervals). Slack: three Monte Carlo standard errors of a
    # proportion 0.95 over 40 tables, sqrt(0.95 * 0.05 / 40) = 0.034, so at least 34 of
    # the 40 tables must be covered. Binomial(40, p) (scipy.stats.binom): a true coverage
    # of 0.60 passes with probability 6e-4, a true 0.95 fails with 0.0034, 0.97 with
    # 2e-4. 40 calls with 10,000 draws: about 25 s of CPU.
    reps = 40
    cover = _null_coverage(60, 30, reps, 10_000, seed=60)
    assert cover >= 0.95 - 3 * np.sqrt(0.95 * 0.05 / reps)


def test_bootstrap_covers_under_the_complete_null_with_10_algorithms():
    # 10 algorithms, 30 datasets (45 pairs), where fixed standard errors covered 0.87: the
    # default bootstrap-t holds its level on a small board too. Slack: three Monte Carlo
    # standard errors over 150 tables, 3 * sqrt(0.95 * 0.05 / 150) = 0.053, i.e. at least
    # 135 of the 150 tables covered (a true 0.95 fails with probability 0.0036,
    # scipy.stats.binom).
    reps = 150
    cover = _null_coverage(10, 30, reps, 2_000, seed=10)
    assert cover >= 0.95 - 3 * np.sqrt(0.95 * 0.05 / reps)


def test_fixed_standard_errors_warn_that_they_may_under_cover():
    res = _result(np.random.default_rng(0).normal(size=(12, 4)))
    with pytest.warns(cdplot.CdplotWarning, match="may cover less than their stated") as seen:
        fixed = cdplot.rank_intervals(res, method="bootstrap", n_boot=300, studentize=False)
    assert fixed.method == "bootstrap"
    assert seen[0].filename == __file__  # points at the call


def test_default_falls_back_with_a_warning_only_above_the_work_budget(monkeypatch):
    res = _result(np.random.default_rng(1).normal(size=(12, 5)))
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # within the budget: the bootstrap-t, no warning
        student = cdplot.rank_intervals(res, method="bootstrap", n_boot=300, random_state=3)
    # 300 draws x 10 pairs x (12 datasets + 100) = 336,000 cells
    monkeypatch.setattr(_intervals, "STUDENTIZE_MAX_WORK", 335_999)
    with pytest.warns(cdplot.CdplotWarning, match=r"3\.36e\+05 cells.*studentize=True"):
        fallback = cdplot.rank_intervals(res, method="bootstrap", n_boot=300, random_state=3)
    with pytest.warns(cdplot.CdplotWarning):
        fixed = cdplot.rank_intervals(
            res, method="bootstrap", n_boot=300, random_state=3, studentize=False
        )
    np.testing.assert_array_equal(fallback.critical_value, fixed.critical_value)
    assert student.critical_value[0] != fallback.critical_value[0]


def _plain_studentized(values: np.ndarray, n_boot: int, seed: int) -> np.ndarray:
    """Per draw and algorithm j: max over l of |D*_jl - D_jl| / se*_jl, one draw at a time
    (the same draws: the implementation's generator, seeded the same way)."""
    n, k = values.shape
    rng = np.random.default_rng(seed)
    out = np.zeros((n_boot, k))
    for b in range(n_boot):
        idx = rng.integers(0, n, size=n)
        for j in range(k):
            for m in range(k):
                d = values[:, j] - values[:, m]
                if np.ptp(d) == 0:
                    continue
                boot = d[idx]
                se = boot.std() / np.sqrt(n) if np.ptp(boot) > 0 else d.std() / np.sqrt(n)
                out[b, j] = max(out[b, j], abs(boot.mean() - d.mean()) / se)
    return out


@pytest.mark.parametrize("simultaneous", [True, False])
def test_studentized_statistics_in_tiles_equal_a_plain_loop(monkeypatch, simultaneous):
    # integers: exact differences, and draws whose differences are all equal (9 datasets)
    rng = np.random.default_rng(8)
    values = np.round(rng.normal(size=(9, 7)) * 3)
    values[:, 5] = values[:, 4] + 2  # a pair constant over the datasets counts 0
    n_boot = 150
    plain = _plain_studentized(values, n_boot, seed=4)
    if simultaneous:
        plain = plain.max(axis=1, keepdims=True)
    one_tile = _intervals._studentized_max_t(
        values, n_boot, np.random.default_rng(4), "numpy", simultaneous
    )
    np.testing.assert_allclose(one_tile, plain, rtol=1e-12)
    # tiles of 2 x 2 algorithms (10 tiles, diagonal and off-diagonal), chunks of 16 draws
    monkeypatch.setattr(_intervals, "STUDENT_TILE_ELEMENTS", 9 * 4)
    monkeypatch.setattr(_intervals, "STUDENT_ROWS", 16)
    assert len(_intervals._tiles(9, 7, 16)) == 10
    tiled = _intervals._studentized_max_t(
        values, n_boot, np.random.default_rng(4), "numpy", simultaneous
    )
    np.testing.assert_allclose(tiled, plain, rtol=1e-12)


def test_a_difference_constant_up_to_rounding_is_known_exactly():
    # x + 0.1 - x is not 0.1 for every x: the pair is still constant, its standard error 0
    values = np.array([[0.7, 3.3, 1.0], [0.2, 9.1, 2.0], [0.9, 4.6, 0.5], [0.3, 0.1, 4.0]])
    values[:, 1] = values[:, 0] + 0.1
    assert np.ptp(values[:, 0] - values[:, 1]) > 0
    se = _intervals._pair_standard_errors(values)
    assert se[0, 1] == se[1, 0] == 0.0
    t = _intervals._studentized_max_t(values, 200, np.random.default_rng(0), "numpy")
    assert np.isfinite(t).all() and t.max() < 1e3


def test_pair_standard_errors_do_not_cancel_on_large_close_scores():
    # two algorithms 1e8 apart from 0 and 1e-3 apart from each other: var(a) + var(b) -
    # 2 cov(a, b) loses every digit; the differences themselves do not
    rng = np.random.default_rng(2)
    base = 1e8 + rng.normal(size=20) * 1e4
    values = np.column_stack([base, base + 1e-3 * rng.normal(size=20)])
    se = _intervals._pair_standard_errors(values)
    d = values[:, 0] - values[:, 1]
    assert se[0, 1] == pytest.approx(d.std() / np.sqrt(20), rel=1e-6)


def test_n_boot_above_the_bound_is_refused_before_any_work():
    table = cdplot.datasets.load("demsar2006").copy()
    table.iloc[0, 1] = np.nan  # a bootstrap would refuse the table, but only later
    res = _result(table.to_numpy(), missing="keep")
    with pytest.raises(cdplot.CdplotInputError, match=r"n_boot=1000000000 exceeds.*1,000,000"):
        cdplot.rank_intervals(res, method="bootstrap", n_boot=10**9)
    with pytest.raises(cdplot.CdplotInputError, match="time and memory grow with n_boot"):
        res.rank_intervals("test", n_boot=_intervals.MAX_N_BOOT + 1)


def test_test_method_confidence_defaults_to_one_minus_alpha():
    res = _result(cdplot.datasets.load("benavoli2016").to_numpy(), alpha=0.10)
    ri = res.rank_intervals(method="test")
    assert ri.confidence == pytest.approx(0.90)
    explicit = cdplot.rank_intervals(res, method="test", confidence=0.90)
    np.testing.assert_array_equal(ri.low, explicit.low)
    np.testing.assert_array_equal(ri.high, explicit.high)
    # the bootstraps keep 0.95 unless asked
    assert res.rank_intervals("bootstrap", n_boot=200, random_state=0).confidence == 0.95
    with pytest.raises(cdplot.CdplotInputError, match="confidence=0.9"):
        res.rank_intervals("test", confidence=0.95)

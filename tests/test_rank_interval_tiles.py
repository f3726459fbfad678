"""The bootstrap-t's tiles of pairs: made once for all the draws, in groups of bounded size."""

from __future__ import annotations

import numpy as np
import pytest
from test_rank_interval_coverage import _plain_studentized

import cdplot
from cdplot.stats import _intervals


@pytest.fixture
def small_tiles(monkeypatch):
    """Tiles of 2 x 2 algorithms and blocks of 16 draws on 9 datasets (10 tiles for 7)."""
    monkeypatch.setattr(_intervals, "STUDENT_TILE_ELEMENTS", 9 * 4)
    monkeypatch.setattr(_intervals, "STUDENT_ROWS", 16)
    assert len(_intervals._tiles(9, 7, 16)) == 10


def _values():
    values = np.round(np.random.default_rng(8).normal(size=(9, 7)) * 3)
    values[:, 5] = values[:, 4] + 2  # a pair constant over the datasets counts 0
    return values


def test_each_tile_is_made_once_for_all_draws(small_tiles, monkeypatch):
    made = []
    original = _intervals._tile_pairs

    def counted(values, rows, cols):
        made.append((rows.start, cols.start))
        return original(values, rows, cols)

    monkeypatch.setattr(_intervals, "_tile_pairs", counted)
    _intervals._studentized_max_t(_values(), 400, np.random.default_rng(4), "numpy")
    assert len(made) == 10  # not once per block of 16 draws (25 blocks)
    assert len(set(made)) == 10


@pytest.mark.parametrize("simultaneous", [True, False])
@pytest.mark.parametrize("cache", [8 * 9 * 4, 8 * 9 * 4 * 3, 1 << 30])
def test_groups_of_tiles_give_the_statistics_of_a_plain_loop(
    small_tiles, monkeypatch, simultaneous, cache
):
    monkeypatch.setattr(_intervals, "STUDENT_CACHE_BYTES", cache)
    groups = _intervals._tile_groups(9, _intervals._tiles(9, 7, 16))
    assert (len(groups) > 2) == (cache < 1 << 30) and sum(map(len, groups)) == 10
    values, n_boot = _values(), 150
    plain = _plain_studentized(values, n_boot, seed=4)
    if simultaneous:
        plain = plain.max(axis=1, keepdims=True)
    rng = np.random.default_rng(4)
    found = _intervals._studentized_max_t(values, n_boot, rng, "numpy", simultaneous)
    np.testing.assert_allclose(found, plain, rtol=1e-12)
    # the generator ends where one pass over the draws leaves it
    again = np.random.default_rng(4)
    _intervals.multinomial_weights(again, 150, 9)
    assert rng.random() == again.random()


def test_groups_of_tiles_are_bit_for_bit_one_group(monkeypatch):
    values = np.random.default_rng(3).normal(size=(40, 30))
    one = _intervals._studentized_max_t(values, 600, np.random.default_rng(1), "numpy")
    monkeypatch.setattr(_intervals, "STUDENT_TILE_ELEMENTS", 40 * 25)
    monkeypatch.setattr(_intervals, "STUDENT_BLOCK_ELEMENTS", 256 * 25)
    tiles = _intervals._tiles(40, 30, 256)
    tiled = _intervals._studentized_max_t(values, 600, np.random.default_rng(1), "numpy")
    monkeypatch.setattr(_intervals, "STUDENT_CACHE_BYTES", 8 * 40 * 60)
    assert len(_intervals._tile_groups(40, tiles)) > 10
    grouped = _intervals._studentized_max_t(values, 600, np.random.default_rng(1), "numpy")
    assert np.array_equal(tiled, grouped)
    np.testing.assert_allclose(tiled, one, rtol=1e-12)


def _full_max_t(centred, inv_se):
    """Every pair of every draw: max_l |(c_j - c_l) * inv_se[j, l]| in float32."""
    c32 = centred.astype(np.float32)
    values = (c32[:, :, None] - c32[:, None, :]) * inv_se
    return np.abs(values).max(axis=2)


@pytest.mark.parametrize(
    ("k", "spread", "kind"),
    [(96, 0.3, "normal"), (160, 2.0, "normal"), (140, 5.0, "normal"), (130, 0.3, "ties"),
     (120, 0.3, "constant pairs")],
)  # fmt: skip
def test_max_t_from_the_extremes_equals_every_pair(k, spread, kind):
    """Large boards read the extremes' pairs in full and bound the rest: the same float32
    maxima as every pair, also where standard errors vary wildly (many rows read in full),
    with ties and with pairs whose standard error is 0."""
    rng = np.random.default_rng(k)
    se = np.exp(rng.normal(size=(k, k)) * spread)
    se = np.triu(se, 1) + np.triu(se, 1).T
    if kind == "constant pairs":
        se[:, :7] = se[:7, :] = 0.0
    with np.errstate(divide="ignore"):
        inv_se = np.where(se > 0, 1.0 / se, 0.0).astype(np.float32)
    centred = rng.normal(size=(300, k))
    if kind == "ties":
        centred = np.round(centred * 2)
    assert k >= _intervals.EXTREME_MIN_K
    found = _intervals._row_max_t(centred, inv_se)
    assert found.dtype == np.float32
    assert np.array_equal(found, _full_max_t(centred, inv_se))


def test_fixed_standard_error_intervals_on_a_large_board_equal_every_pair(monkeypatch):
    values = np.random.default_rng(5).normal(size=(25, 100)) + np.linspace(0, 2, 100)
    with pytest.warns(cdplot.CdplotWarning, match="fixed standard errors"):
        found = _intervals._bootstrap_intervals(
            values, 0.95, False, 300, np.random.default_rng(2), "numpy", False
        )
    monkeypatch.setattr(_intervals, "EXTREME_MIN_K", 10**9)
    with pytest.warns(cdplot.CdplotWarning, match="fixed standard errors"):
        full = _intervals._bootstrap_intervals(
            values, 0.95, False, 300, np.random.default_rng(2), "numpy", False
        )
    for a, b in zip(found, full, strict=True):
        assert np.array_equal(a, b)


@pytest.mark.filterwarnings("ignore:invalid value encountered:RuntimeWarning")
def test_max_t_with_an_infinite_weight_reads_every_pair():
    k = 100
    rng = np.random.default_rng(1)
    inv_se = rng.uniform(1.0, 2.0, size=(k, k)).astype(np.float32)
    inv_se = np.triu(inv_se, 1) + np.triu(inv_se, 1).T
    inv_se[3, 60] = inv_se[60, 3] = np.inf  # 1 / se beyond float32
    centred = np.round(rng.normal(size=(50, k)))  # ties: 0 * inf is not a number
    found = _intervals._row_max_t(centred, inv_se)
    full = _full_max_t(centred, inv_se)
    assert np.isnan(full).any()
    assert np.array_equal(found, full, equal_nan=True)

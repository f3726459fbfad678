"""The hierarchical bootstrap's item means: one product for a complete task, same numbers."""

from __future__ import annotations

import numpy as np
import pytest

from cdplot.stats._items import _resampled_means


def _two_products(mat, draws, rng, fallback):
    """The definition: weighted totals over the present items, over the weighted counts;
    each replicate's weights count ``n`` items drawn uniformly with replacement (32-bit
    draws, all replicates in one call)."""
    n = mat.shape[0]
    present = ~np.isnan(mat)
    drawn = rng.integers(0, n, size=(draws, n), dtype=np.int32)
    weights = np.array([np.bincount(row, minlength=n) for row in drawn], dtype=float)
    total = weights @ np.where(present, mat, 0.0)
    count = weights @ present.astype(float)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(count > 0, total / count, fallback)


@pytest.mark.parametrize("items", [37, 5_000])  # counted in one flat count, and row by row
@pytest.mark.parametrize("binary", [True, False])
@pytest.mark.parametrize("missing", [False, True])
def test_item_means_equal_the_definition_bit_for_bit(binary, missing, items):
    rng = np.random.default_rng(7)
    mat = rng.random((items, 6))
    mat = (mat < 0.6).astype(float) if binary else mat * 1e3 + 0.1
    if missing:
        mat[rng.random(mat.shape) < 0.2] = np.nan
    fallback = np.nanmean(mat, axis=0)
    fast = _resampled_means(mat, 50, np.random.default_rng(3), fallback)
    slow = _two_products(mat, 50, np.random.default_rng(3), fallback)
    assert np.array_equal(fast, slow, equal_nan=True)


def test_item_means_of_a_column_view_equal_those_of_its_copy():
    mat = np.asfortranarray(np.random.default_rng(2).random((40, 5)))
    a = _resampled_means(mat, 30, np.random.default_rng(1), mat.mean(axis=0))
    b = _two_products(mat, 30, np.random.default_rng(1), mat.mean(axis=0))
    assert np.array_equal(a, b)

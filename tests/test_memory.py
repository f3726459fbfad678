"""Working memory of the all-pairs tests and of compare() stays bounded on a large table.

tracemalloc sees numpy's buffers, so the peaks are deterministic. The all-pairs kernels
transpose a few columns at a time (``cdplot.stats._tiles``): a transposed or reordered copy
of the table would by itself exceed the bounds below. compare() owns one copy of the scores
and the ranks (N x k each), and its temporaries are bounded by the chunk sizes.
"""

from __future__ import annotations

import tracemalloc

import numpy as np
import pytest

import cdplot
import cdplot.stats._compare as cmp
import cdplot.stats._pairwise as pw
import cdplot.stats._ranks as rk
import cdplot.stats._tiles as tiles
from cdplot.stats import sign_test, wilcoxon_test

N, K = 20_000, 20  # 3.05 MiB of scores


@pytest.fixture
def small_chunks(monkeypatch):
    """Tiles of one column, chunks of about one pair: temporaries far below the table."""
    monkeypatch.setattr(tiles, "TILE_VALUES", 1 << 15)
    monkeypatch.setattr(pw, "CHUNK_CELLS", 1 << 15)
    monkeypatch.setattr(rk, "CHUNK_VALUES", 1 << 14)
    monkeypatch.setattr(cmp, "CHUNK_VALUES", 1 << 14)


def peak_above(fn) -> int:
    """Peak traced bytes during ``fn()`` above what was live before it."""
    tracemalloc.start()
    try:
        base, _ = tracemalloc.get_traced_memory()
        tracemalloc.reset_peak()
        fn()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return peak - base


def table() -> np.ndarray:
    rng = np.random.default_rng(7)
    return np.round(rng.normal(size=(N, K)) + np.linspace(0.0, 1.0, K), 2)


@pytest.mark.parametrize("test", [wilcoxon_test, sign_test])
def test_all_pairs_tests_make_no_copy_of_the_table(small_chunks, test):
    x = table()
    test(x[:50])  # first-call costs (caches, lazy imports) are not working memory
    assert peak_above(lambda: test(x)) < 0.5 * x.nbytes


@pytest.mark.filterwarnings("ignore::cdplot.PoolDependenceWarning")
@pytest.mark.parametrize("name", ["wilcoxon", "sign", "mean-ranks"])
def test_compare_holds_scores_and_ranks_only(small_chunks, name):
    x = table()
    # canonical (by name) order differs from the input order: no reordered copy either
    names = [f"A{(7 * j) % K}" for j in range(K)]
    datasets = [str(i) for i in range(N)]
    cdplot.compare(x[:50], algorithm=names, dataset=datasets[:50], test=name)
    peak = peak_above(lambda: cdplot.compare(x, algorithm=names, dataset=datasets, test=name))
    # the result's scores and ranks (2 x the input), plus less than 3/4 of the input in
    # dataset-name tuples and chunk temporaries (a copy of the table would add 1 x)
    assert peak < 2.75 * x.nbytes

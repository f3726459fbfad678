"""Working memory of the all-pairs tests and of compare() stays bounded on a large table.

tracemalloc sees numpy's buffers, so the peaks are deterministic. The all-pairs kernels
transpose a few columns at a time (``cdplot.stats._tiles``): a transposed or reordered copy
of the table would by itself exceed the bounds below. compare() owns one copy of the scores
and the ranks (twice the ranks, exact in 16-bit integers), negates lower-is-better scores
inside the kernels' tiles, and its temporaries are bounded by the chunk sizes.
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
@pytest.mark.parametrize("higher", [True, False])
@pytest.mark.parametrize("name", ["wilcoxon", "sign", "mean-ranks"])
def test_compare_holds_scores_and_ranks_only(small_chunks, name, higher):
    x = table()
    # canonical (by name) order differs from the input order: no reordered copy either
    names = [f"A{(7 * j) % K}" for j in range(K)]
    datasets = [str(i) for i in range(N)]
    options = {"test": name, "higher_is_better": higher}
    cdplot.compare(x[:50], algorithm=names, dataset=datasets[:50], **options)
    peak = peak_above(lambda: cdplot.compare(x, algorithm=names, dataset=datasets, **options))
    # the result's scores (1 x the input) and ranks (twice the ranks in 16-bit integers:
    # 1/4 x), plus dataset-name tuples and chunk temporaries; a copy of the table (a
    # transposed, reordered or negated one, or the ranks in float64) would add 1 x
    assert peak < 2.0 * x.nbytes


@pytest.mark.filterwarnings("ignore::cdplot.PoolDependenceWarning")
@pytest.mark.parametrize("name", ["wilcoxon", "sign"])
def test_compact_ranks_and_negated_tiles_change_no_number(small_chunks, name):
    """The ranks kept as twice their value, and lower-is-better scores negated inside the
    kernels' tiles, give every number of the plain computation: the ranks are
    ``scipy.stats.rankdata`` of each row, the average ranks their column means to the bit,
    and the pairwise results those of the negated table analysed as higher-is-better."""
    from scipy.stats import rankdata

    rng = np.random.default_rng(11)
    x = np.round(rng.normal(size=(300, 9)), 1)  # ties within rows and zero differences
    x[:, 3] = x[:, 5]  # a pair with every difference zero
    names = [f"A{(4 * j) % 9}" for j in range(9)]
    res = cdplot.compare(x, algorithm=names, test=name, higher_is_better=False)
    assert res._ranking.twice_ranks is not None and res._ranking.twice_ranks.dtype == np.uint16
    expected = rankdata(x, axis=1)  # lower is better: the smallest score gets rank 1
    np.testing.assert_array_equal(res.ranks.to_numpy(), expected)
    means = dict(zip(names, expected.mean(axis=0), strict=True))
    assert all(res.average_ranks[a] == means[a] for a in names)  # bit for bit
    flipped = cdplot.compare(-x, algorithm=names, test=name)
    for table in ("statistics", "pvalues", "adjusted_pvalues"):
        np.testing.assert_array_equal(getattr(res, table), getattr(flipped, table))
    assert res.average_ranks.equals(flipped.average_ranks)

"""compare_benchmark() and compare() on one benchmark's items: the driver's steps.

Verified against independent implementations: the adjusted p-values of every correction
against ``statsmodels.stats.multitest.multipletests`` (the same values as R's ``p.adjust``)
on the pair p-values; Shaffer's and the exact Bergmann-Hommel APVs against cdplot's own
engine (``cdplot.stats.adjust_all_pairs``) on the same p-values; the exact McNemar p-value
against R's ``binom.test`` (worked by hand below); the omnibus test on 0/1 scores against
``statsmodels.stats.contingency_tables.cochrans_q``. For consistency only: the groups and
letters against the significant pairs, compare() against compare_benchmark().
"""

from __future__ import annotations

import inspect

import numpy as np
import pytest
from _benchmark_input import patch_reader, same_numbers, write_items

import cdplot
from cdplot import CdplotInputError
from cdplot.io._benchmark import BenchmarkItems
from cdplot.stats import BenchmarkComparison, adjust_all_pairs, compare_benchmark
from cdplot.stats._benchmark import mcnemar_pairs

RATES = [0.30, 0.45, 0.5, 0.62, 0.8]


def binary_items(n: int = 150, seed: int = 3, rates=RATES, **extra) -> BenchmarkItems:
    rng = np.random.default_rng(seed)
    # a shared item difficulty makes the models' item scores correlated, as on a benchmark
    easy = rng.normal(size=(n, 1))
    x = (rng.normal(size=(n, len(rates))) + easy < np.array(rates) * 2 - 1).astype(float)
    names = tuple(f"m{j}" for j in range(len(rates)))
    return BenchmarkItems(names, tuple(f"q{i}" for i in range(n)), x, True, **extra)


def continuous_items(n: int = 80, seed: int = 4) -> BenchmarkItems:
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, 4)) * 0.2 + np.array([0.1, 0.2, 0.25, 0.5])
    return BenchmarkItems(("a", "b", "c", "d"), tuple(f"q{i}" for i in range(n)), x, False)


def _upper(matrix: np.ndarray) -> np.ndarray:
    return np.asarray(matrix, dtype=float)[np.triu_indices(matrix.shape[0], 1)]


# statsmodels' name of each correction (statsmodels.stats.multitest.multipletests, whose
# values are those of R's p.adjust(p, method = ...))
STATSMODELS = {
    "bonferroni": "bonferroni",
    "holm": "holm",
    "hochberg": "simes-hochberg",
    "hommel": "hommel",
    "holland": "holm-sidak",
    "fdr-bh": "fdr_bh",
    "fdr-by": "fdr_by",
    "none": None,
}


@pytest.mark.parametrize("correction", list(STATSMODELS))
def test_all_pairs_corrections_equal_statsmodels(correction):
    from statsmodels.stats.multitest import multipletests

    items = binary_items()
    res = compare_benchmark(items, correction=correction)
    raw = _upper(res._pairwise.pvalues)
    method = STATSMODELS[correction]
    with np.errstate(divide="ignore"):  # statsmodels' Sidak step on p = 1: log1p(-1)
        expected = raw if method is None else multipletests(raw, method=method)[1]
    np.testing.assert_allclose(_upper(res._pairwise.adjusted_pvalues), expected, rtol=1e-12)
    assert res.correction == correction


@pytest.mark.parametrize("correction", ["holm", "hochberg", "hommel", "bonferroni-dunn"])
def test_control_corrections_equal_statsmodels(correction):
    from statsmodels.stats.multitest import multipletests

    res = compare_benchmark(binary_items(), correction=correction, control="m2")
    raw = np.asarray(res._pairwise.pvalues)[2, [0, 1, 3, 4]]
    method = {"hochberg": "simes-hochberg", "bonferroni-dunn": "bonferroni"}.get(
        correction, correction
    )
    expected = multipletests(raw, method=method)[1]
    np.testing.assert_allclose(res._pairwise.adjusted_pvalues, expected, rtol=1e-12)
    assert list(res.adjusted_pvalues.index) == ["m0", "m1", "m3", "m4"]


@pytest.mark.parametrize("correction", ["shaffer", "bergmann-hommel", "finner", "rom"])
def test_logical_corrections_equal_the_engine_on_the_same_pvalues(correction):
    items = binary_items()
    res = compare_benchmark(items, correction=correction)
    raw = _upper(res._pairwise.pvalues)
    expected = adjust_all_pairs(raw, 5, correction)  # cdplot's engine, board or items alike
    np.testing.assert_array_equal(_upper(res._pairwise.adjusted_pvalues), expected)
    if correction in ("shaffer", "bergmann-hommel"):  # <= Holm (García & Herrera 2008)
        holm = compare_benchmark(items, correction="holm")._pairwise.adjusted_pvalues
        assert np.all(_upper(res._pairwise.adjusted_pvalues) <= _upper(holm))


def test_exact_mcnemar_by_hand_and_against_scipy():
    from scipy.stats import binomtest

    # 9 items only the first solved, 1 only the second, 5 both: R binom.test(9, 10)$p.value
    # = 2 * (1 + 10) / 2**10 = 0.021484375 (exact)
    x = np.array([[1, 0]] * 9 + [[0, 1]] * 1 + [[1, 1]] * 5, dtype=float)
    res = mcnemar_pairs(x)
    assert res.pvalue[0, 1] == pytest.approx(22 / 1024, rel=1e-12)
    assert res.statistic[0, 1] == 8.0 and res.statistic[1, 0] == -8.0
    items = binary_items(n=60, seed=9)
    bench = compare_benchmark(items)
    x = items.scores
    for i, j in [(0, 4), (1, 2), (3, 4)]:
        b = int(((x[:, i] == 1) & (x[:, j] == 0)).sum())
        c = int(((x[:, i] == 0) & (x[:, j] == 1)).sum())
        expected = binomtest(b, b + c).pvalue  # scipy: the exact two-sided binomial test
        assert bench._pairwise.pvalues[i, j] == pytest.approx(expected, rel=1e-10)


def test_the_omnibus_test_of_binary_items_is_cochrans_q():
    from statsmodels.stats.contingency_tables import cochrans_q

    items = binary_items()
    res = compare_benchmark(items)
    expected = cochrans_q(items.scores)  # statsmodels: Cochran's Q over the items
    assert res.omnibus.statistic == pytest.approx(expected.statistic, rel=1e-12)
    assert res.omnibus.pvalue == pytest.approx(expected.pvalue, rel=1e-9)


def test_groups_and_letters_follow_the_significant_pairs():
    res = compare_benchmark(binary_items(n=300), correction="shaffer")
    names = list(res.algorithms)
    sig = np.asarray(res._pairwise.significant)
    order = list(res._parametric.mean_order)
    assert order == sorted(names, key=lambda a: -res.mean_scores[a])
    for group in res.groups:  # consecutive in mean order, no significant pair inside
        where = [order.index(a) for a in group]
        assert where == list(range(where[0], where[0] + len(where)))
        for a in group:
            for b in group:
                assert not sig[names.index(a), names.index(b)]
    letters = res.letters
    for i, a in enumerate(names):
        for j, b in enumerate(names):
            if i != j:
                assert bool(set(letters[a]) & set(letters[b])) == (not sig[i, j])
    assert letters[order[0]].startswith("a")


def test_lower_is_better_orders_and_orients_the_pairs():
    items = binary_items()
    up = compare_benchmark(items)
    down = compare_benchmark(items, higher_is_better=False)
    assert list(down._parametric.mean_order) == list(up._parametric.mean_order)[::-1]
    np.testing.assert_array_equal(down._pairwise.statistics, -up._pairwise.statistics)
    np.testing.assert_array_equal(down._pairwise.pvalues, up._pairwise.pvalues)
    first = down.differences.iloc[0]  # the better mean is the lower one
    assert first.difference < 0 and first.wins == int(
        up._benchmark.pair_statistics.wins[
            list(up.algorithms).index(first.model_2), list(up.algorithms).index(first.model_1)
        ]
    )


def test_defaults_by_design_and_bad_combinations_refused():
    assert compare_benchmark(binary_items()).test == "mcnemar"
    assert compare_benchmark(continuous_items()).test == "paired-t"
    clusters = np.arange(150) // 5
    clustered = binary_items(clusters=clusters, cluster_ids=tuple(map(str, range(30))))
    res = compare_benchmark(clustered)
    assert res.test == "cluster-t" and res.cluster_robust and res.n_clusters == 30
    with pytest.raises(CdplotInputError, match=r"test='mcnemar' compares 0/1 item scores"):
        compare_benchmark(continuous_items(), test="mcnemar")
    with pytest.raises(CdplotInputError, match=r"30 clusters .* use test='cluster-t'"):
        compare_benchmark(clustered, test="paired-t")
    with pytest.raises(CdplotInputError, match=r"test='wilcoxon' compares algorithms over"):
        compare_benchmark(binary_items(), test="wilcoxon")
    one = BenchmarkItems(("m",), ("q1", "q2", "q3"), np.ones((3, 1)), True)
    with pytest.raises(CdplotInputError, match=r"need at least 2 models to compare, got 1"):
        compare_benchmark(one)
    with pytest.raises(CdplotInputError, match="control"):
        compare_benchmark(binary_items(), control="nobody")
    with pytest.raises(CdplotInputError, match="confidence"):
        compare_benchmark(binary_items(), confidence=1.5)


def test_fdr_groups_only_on_request():
    items = binary_items()
    assert compare_benchmark(items, correction="fdr-bh").groups == ()
    assert compare_benchmark(items, correction="fdr-bh", fdr_groups=True).groups != ()


# ------------------------------------------------------------------ through compare()
def test_compare_test_defaults_to_none_meaning_the_designs_test(demsar):
    assert inspect.signature(cdplot.compare).parameters["test"].default is None
    assert cdplot.compare(demsar).test == "wilcoxon"  # a board keeps the Wilcoxon test


def test_compare_runs_the_benchmark_on_an_item_table(tmp_path, monkeypatch):
    patch_reader(monkeypatch)
    items = binary_items(n=60)
    path = write_items(tmp_path / "items.csv", items.scores, items.models)
    res = cdplot.compare(path, correction="bergmann-hommel")
    assert isinstance(res, BenchmarkComparison) and res.test == "mcnemar"
    direct = compare_benchmark(items, correction="bergmann-hommel")
    same_numbers(res, direct)
    clusters = np.arange(60) // 4
    path = write_items(tmp_path / "c.csv", items.scores, items.models, clusters=clusters)
    res = cdplot.compare(path, cluster="cluster", confidence=0.9)
    assert res.test == "cluster-t" and res.n_clusters == 15 and res.confidence == 0.9


def test_compare_refuses_board_options_for_items_and_item_options_for_boards(
    tmp_path, monkeypatch, demsar
):
    patch_reader(monkeypatch)
    items = binary_items(n=30)
    path = write_items(tmp_path / "items.csv", items.scores, items.models)
    with pytest.raises(CdplotInputError, match=r"aggregate applies to a board of datasets"):
        cdplot.compare(path, aggregate="mean")
    with pytest.raises(CdplotInputError, match=r"'zero_method' of a board's tests"):
        cdplot.compare(path, zero_method="pratt")
    with pytest.raises(CdplotInputError, match=r"^cluster applies to a table of one benchmark"):
        cdplot.compare(demsar, cluster="passage")
    with pytest.raises(CdplotInputError, match=r"^confidence applies to one benchmark's items"):
        cdplot.compare(demsar, confidence=0.9)
    with pytest.raises(CdplotInputError, match=r"test='mcnemar' compares models on one bench"):
        cdplot.compare(demsar, test="mcnemar")


# ------------------------------------------------------------------ runs of one benchmark
def _run(ids, values, **extra) -> BenchmarkItems:
    x = np.asarray(values, dtype=float)[:, None]
    return BenchmarkItems(("m",), tuple(ids), x, True, **extra)


def test_join_runs_aligns_items_clusters_and_samples():
    from cdplot.stats import join_runs

    base = _run(["q1", "q2", "q3"], [1, 0, 1], clusters=np.array([0, 0, 1]),
                cluster_ids=("p", "r"), cluster_column="passage")  # fmt: skip
    new = _run(["q3", "q1", "q2"], [0, 1, 1], clusters=np.array([0, 1, 1]),
               cluster_ids=("r", "p"), n_samples=np.array([[2], [3], [1]]))  # fmt: skip
    joined = join_runs([base, new], names=["base", "new"])
    assert joined.models == ("base", "new") and joined.items == ("q1", "q2", "q3")
    np.testing.assert_array_equal(joined.scores, [[1, 1], [0, 1], [1, 0]])
    assert [joined.cluster_ids[c] for c in joined.clusters] == ["p", "p", "r"]
    np.testing.assert_array_equal(joined.n_samples, [[1, 3], [1, 1], [1, 2]])


def test_join_runs_refuses_other_items_other_clusters_and_one_name_twice():
    from cdplot.stats import join_runs

    base = _run(["q1", "q2"], [1, 0])
    with pytest.raises(CdplotInputError, match=r"the runs score different items \(1 of the"):
        join_runs([base, _run(["q1", "q9"], [1, 1])], names=["a", "b"])
    with pytest.raises(CdplotInputError, match=r"'m' is in two runs"):
        join_runs([base, _run(["q1", "q2"], [1, 1])])
    one = _run(["q1", "q2"], [1, 0], clusters=np.array([0, 1]), cluster_ids=("p", "r"))
    other = _run(["q1", "q2"], [1, 0], clusters=np.array([0, 0]), cluster_ids=("p",))
    with pytest.raises(CdplotInputError, match=r"the runs put 1 items in different clusters"):
        join_runs([one, other], names=["a", "b"])


def test_the_catalogue_kernels_run_on_an_items_by_models_table():
    from cdplot.stats import paired_t_test
    from cdplot.stats._catalogue import CATALOGUE

    items = binary_items()
    mcnemar = CATALOGUE["mcnemar"].run_all_pairs(items.scores, None, 150, {}, [])
    np.testing.assert_array_equal(mcnemar.pvalue, compare_benchmark(items)._pairwise.pvalues)
    x = continuous_items().scores
    cluster_t = CATALOGUE["cluster-t"].run_all_pairs(x, None, 80, {}, [])
    board_t = paired_t_test(x)  # the board's paired t-test kernel on the same table
    np.testing.assert_allclose(cluster_t.pvalue, board_t.pvalue, rtol=1e-10)
    np.testing.assert_allclose(cluster_t.statistic, board_t.statistic, rtol=1e-10)
    with pytest.raises(CdplotInputError, match=r"test='mcnemar' compares 0/1 item scores"):
        CATALOGUE["mcnemar"].run_all_pairs(x, None, 80, {}, [])
    assert {"mcnemar", "cluster-t", "paired-t"} <= set(cdplot.stats.TESTS)

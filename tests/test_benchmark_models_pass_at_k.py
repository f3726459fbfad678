"""pass@k and pass^k of each model (``cdplot.stats.pass_at_k``).

Verified against the definitions, computed exactly with ``math.comb`` and ``fractions``:
Chen et al. (2021, "Evaluating Large Language Models Trained on Code", eq. 1) pass@k =
mean over items of ``1 - C(n - c, k) / C(n, k)``; Yao et al. (2024, tau-bench) pass^k =
mean over items of ``C(c, k) / C(n, k)``; Chen et al.'s own setting n = 200 samples,
k up to 100; and the paper's numerically stable form ``1 - prod(1 - k / arange(n - c + 1,
n + 1))`` (Chen et al. 2021, Figure 3). Chen et al. give no numeric worked example; the
small example of the docstring is worked by hand. Intervals: consistency with
``model_statistics``'s t and cluster-robust intervals over the per-item estimates (their
R references are in ``test_benchmark_models.py``); coverage in
``test_benchmark_model_coverage.py``.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

from cdplot._errors import CdplotInputError
from cdplot.io._benchmark import BenchmarkItems
from cdplot.stats import PassAtK, pass_at_k
from cdplot.stats._benchmark_models import model_statistics
from cdplot.stats._pass_at_k import pass_ratio


def _samples(successes: np.ndarray, counts: np.ndarray, **extra) -> BenchmarkItems:
    successes = np.asarray(successes, dtype=float)
    counts = np.asarray(counts, dtype=np.int64)
    scores = np.where(counts > 0, successes / np.maximum(counts, 1), np.nan)
    n_items, k = scores.shape
    return BenchmarkItems(
        tuple(f"m{j}" for j in range(k)),
        tuple(f"i{i}" for i in range(n_items)),
        scores,
        binary=True,
        n_samples=counts,
        **extra,
    )


def _exact(c: int, n: int, k: int, kind: str) -> Fraction:
    """The definitions with math.comb, as exact fractions."""
    if kind == "pass@k":
        return 1 - Fraction(math.comb(n - c, k), math.comb(n, k))
    return Fraction(math.comb(c, k), math.comb(n, k))


@pytest.mark.parametrize("kind", ["pass@k", "pass^k"])
def test_per_item_estimates_equal_the_binomial_definition(kind):
    rng = np.random.default_rng(5)
    n = rng.integers(1, 25, size=400)
    c = rng.integers(0, n + 1)
    k = rng.integers(1, n + 1)
    for kk in np.unique(k):
        pick = k == kk
        got = pass_ratio(c[pick], n[pick], int(kk), kind)
        want = [
            float(_exact(int(ci), int(ni), int(kk), kind))
            for ci, ni in zip(c[pick], n[pick], strict=True)
        ]
        np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-15)


@pytest.mark.parametrize("k", [1, 2, 10, 50, 100])
def test_chen_et_al_setting_of_200_samples_is_exact_and_stable(k):
    """n = 200 samples per problem and k up to 100 (Chen et al. 2021, sec. 2.1): C(200, 100)
    is about 9e58, the product form never forms it."""
    c = np.arange(0, 201, 7)
    n = np.full_like(c, 200)
    got = pass_ratio(c, n, k, "pass@k")
    want = [float(_exact(int(ci), 200, k, "pass@k")) for ci in c]
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-15)
    # the paper's listing (Figure 3): 1 - prod(1 - k / arange(n - c + 1, n + 1)), 1 if n - c < k
    paper = [
        1.0 if 200 - ci < k else 1.0 - np.prod(1.0 - k / np.arange(200 - ci + 1, 201)) for ci in c
    ]
    np.testing.assert_allclose(got, paper, rtol=1e-12, atol=1e-15)


def test_model_estimates_average_the_items_and_match_the_hand_worked_example():
    # 0, 1, 3, 5 successes of 5 samples; k = 2: pass@2 per item 0, 1 - 6/10, 1 - 1/10, 1
    items = _samples([[0], [1], [3], [5]], np.full((4, 1), 5))
    assert pass_at_k(items, 2).estimate[0] == pytest.approx((0 + 0.4 + 0.9 + 1) / 4, rel=1e-15)
    # pass^2 per item 0, 0, C(3, 2)/C(5, 2) = 0.3, 1
    assert pass_at_k(items, 2, kind="pass^k").estimate[0] == pytest.approx(1.3 / 4, rel=1e-15)


def test_every_model_at_once_with_unequal_samples_and_gaps():
    rng = np.random.default_rng(11)
    counts = rng.integers(3, 9, size=(30, 6))
    counts[rng.random(counts.shape) < 0.1] = 0  # cells not sampled
    successes = rng.binomial(counts, rng.random((30, 6)))
    items = _samples(successes, counts)
    for kind in ("pass@k", "pass^k"):
        res = pass_at_k(items, 3, kind=kind)
        for j in range(6):
            used = counts[:, j] > 0
            want = np.mean(
                [
                    float(_exact(int(c), int(n), 3, kind))
                    for c, n in zip(successes[used, j], counts[used, j], strict=True)
                ]
            )
            assert res.estimate[j] == pytest.approx(want, rel=1e-12)
            assert res.n_items[j] == used.sum()


def test_pass_at_1_is_the_mean_score_and_its_t_interval():
    rng = np.random.default_rng(2)
    counts = np.full((40, 3), 6)
    items = _samples(rng.binomial(counts, 0.4), counts)
    res = pass_at_k(items, 1, interval="t")
    stats = model_statistics(items)
    np.testing.assert_allclose(res.estimate, stats.mean, rtol=1e-12)
    np.testing.assert_allclose(res.low, stats.low, rtol=1e-12)
    np.testing.assert_allclose(res.high, stats.high, rtol=1e-12)
    assert res.interval == stats.interval == "t"


def test_pass_hat_k_with_k_equal_n_is_the_share_of_items_always_solved():
    counts = np.full((5, 1), 4)
    items = _samples([[4], [3], [4], [0], [2]], counts)
    assert pass_at_k(items, 4, kind="pass^k").estimate[0] == pytest.approx(2 / 5)


def test_single_samples_need_no_sample_counts():
    scores = np.array([[1.0], [0.0], [1.0], [1.0]])
    items = BenchmarkItems(("m",), tuple("abcd"), scores, binary=True)
    assert pass_at_k(items, 1).estimate[0] == 0.75
    with pytest.raises(CdplotInputError, match=r"4 item\(s\) have fewer \(the fewest: 1\)"):
        pass_at_k(items, 2)


def test_default_is_korn_graubard_cluster_robust_with_clusters():
    rng = np.random.default_rng(4)
    counts = np.full((24, 2), 5)
    clusters = np.repeat(np.arange(6), 4)
    items = _samples(
        rng.binomial(counts, 0.5), counts, clusters=clusters, cluster_ids=tuple("abcdef")
    )
    res = pass_at_k(items, 2)
    assert res.interval == "korn-graubard"
    assert pass_at_k(items, 2, interval="cluster").se == pytest.approx(res.se, rel=1e-15)
    per_item = pass_ratio(np.round(items.scores * counts), counts, 2, "pass@k")
    plain = BenchmarkItems(
        items.models,
        items.items,
        per_item,
        binary=False,
        clusters=clusters,
        cluster_ids=tuple("abcdef"),
    )
    np.testing.assert_allclose(res.se, model_statistics(plain).se, rtol=1e-12)


def test_bounds_stay_in_the_unit_interval_and_frame_has_one_row_per_model():
    counts = np.full((6, 2), 5)
    items = _samples([[5, 0], [5, 0], [5, 1], [4, 0], [5, 0], [5, 0]], counts)
    res = pass_at_k(items, 3)
    assert isinstance(res, PassAtK)
    assert (res.low >= 0).all() and (res.high <= 1).all()
    frame = res.frame()
    assert list(frame.columns) == ["estimate", "low", "high", "se", "n_items"]
    assert list(frame.index) == ["m0", "m1"]


def test_bootstrap_interval_is_seeded():
    rng = np.random.default_rng(8)
    counts = np.full((30, 2), 5)
    items = _samples(rng.binomial(counts, 0.3), counts)
    a = pass_at_k(items, 2, interval="bootstrap", seed=1)
    assert a == pass_at_k(items, 2, interval="bootstrap", seed=1)
    assert a.interval == "bootstrap" and (a.low < a.estimate).all() and (a.estimate < a.high).all()


def test_non_binary_scores_are_refused():
    items = BenchmarkItems(("m",), tuple("abc"), np.array([[0.3], [0.9], [0.5]]), binary=False)
    with pytest.raises(CdplotInputError, match=r"pass@k needs binary \(0/1\) samples"):
        pass_at_k(items, 1)
    with pytest.raises(CdplotInputError, match=r"pass\^k needs binary"):
        pass_at_k(items, 1, kind="pass^k")


def test_fewer_samples_than_k_names_the_items_and_the_fix():
    counts = np.array([[5, 5], [3, 5], [5, 2], [5, 5]])
    items = _samples(np.minimum(counts, 2), counts)
    with pytest.raises(
        CdplotInputError,
        match=r"k=4 needs at least 4 samples of every item; 2 item\(s\) have fewer "
        r"\(the fewest: 2\): pass k <= 2, or drop those items",
    ):
        pass_at_k(items, 4)


@pytest.mark.parametrize("k", [0, -1, 2.5, True, "3"])
def test_k_must_be_a_positive_integer(k):
    items = _samples([[1], [2]], np.full((2, 1), 3))
    with pytest.raises(CdplotInputError, match="k must be a positive integer"):
        pass_at_k(items, k)


def test_unknown_kind_and_interval_are_refused():
    items = _samples([[1], [2], [0]], np.full((3, 1), 3))
    with pytest.raises(CdplotInputError, match="not a valid value for kind"):
        pass_at_k(items, 1, kind="pass@any")
    with pytest.raises(CdplotInputError, match="interval='cluster' needs the items' clusters"):
        pass_at_k(items, 1, interval="cluster")

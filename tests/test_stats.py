"""Statistics checked against independent implementations and definitions.

Verified against scipy (1.17): Wilcoxon signed-rank (``scipy.stats.wilcoxon`` with
``correction=True`` and matching ``zero_method``/``method``), Friedman with tie correction
(``scipy.stats.friedmanchisquare``, equal to R's ``friedman.test``), the studentized range
(``scipy.stats.studentized_range``), the binomial test (``scipy.stats.binomtest``, as R's
``binom.test``), ranks (``scipy.stats.rankdata``).
Verified against definitions (slow oracles written here): Holm and Hommel as closed testing
of Bonferroni and Simes tests; Hochberg, Finner and Li from their published formulas.
Verified against R's documented behaviour: ``p.adjust`` on p = 0.01..0.05.
Consistency only: degenerate inputs, invariances (see test_properties.py).
"""

from __future__ import annotations

import itertools
import math
import warnings

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import cdplot
from cdplot.stats import (
    adjust_all_pairs,
    adjust_control,
    friedman,
    rank_rows,
    sign_test,
    wilcoxon_test,
)
from cdplot.stats._omnibus import tie_correction_factor
from cdplot.stats._pairwise import signed_rank_cdf


def quiet(fn, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cdplot.CdplotWarning)
        return fn(*args, **kwargs)


def random_scores(rng, n, k, decimals):
    return np.round(rng.normal(size=(n, k)), decimals)


# --- ranks and Friedman --------------------------------------------------------------------


def test_rank_rows_matches_scipy(rng):
    for _ in range(50):
        a = rng.integers(0, 5, size=(7, int(rng.integers(1, 12)))).astype(float)
        np.testing.assert_array_equal(rank_rows(a), stats.rankdata(a, axis=1))


@pytest.mark.parametrize("decimals", [0, 1, 3])
def test_friedman_tie_corrected_matches_scipy(rng, decimals):
    for _ in range(20):
        n, k = int(rng.integers(3, 40)), int(rng.integers(3, 8))
        x = random_scores(rng, n, k, decimals)
        res = quiet(cdplot.compare, x, tie_correction=True)
        ref = stats.friedmanchisquare(*x.T)
        assert res.friedman.statistic == pytest.approx(ref.statistic, rel=1e-12)
        assert res.friedman.pvalue == pytest.approx(ref.pvalue, rel=1e-9)


def test_friedman_default_is_demsar_formula(rng):
    x = random_scores(rng, 12, 4, 0)
    res = quiet(cdplot.compare, x)
    r = stats.rankdata(-x, axis=1).mean(axis=0)
    k, n = 4, 12
    # Demšar (2006) §3.2.2
    chi2 = 12 * n / (k * (k + 1)) * (np.sum(r**2) - k * (k + 1) ** 2 / 4)
    assert res.friedman.statistic == pytest.approx(chi2, rel=1e-12)
    assert res.friedman.pvalue == pytest.approx(stats.chi2.sf(chi2, k - 1), rel=1e-12)
    f = (n - 1) * chi2 / (n * (k - 1) - chi2)
    assert res.iman_davenport.statistic == pytest.approx(f, rel=1e-12)
    assert res.iman_davenport.pvalue == pytest.approx(
        stats.f.sf(f, k - 1, (k - 1) * (n - 1)), rel=1e-10
    )
    assert tuple(res.friedman) == (res.friedman.statistic, res.friedman.pvalue)


# --- Wilcoxon -------------------------------------------------------------------------------


@pytest.mark.parametrize("zero_method", ["wilcox", "pratt", "zsplit"])
@pytest.mark.parametrize("decimals", [0, 1, 6])
def test_wilcoxon_asymptotic_matches_scipy(rng, zero_method, decimals):
    for _ in range(10):
        n = int(rng.integers(5, 80))
        x = random_scores(rng, n, 4, decimals)
        res = wilcoxon_test(x, zero_method=zero_method, exact=False)
        for i, j in itertools.combinations(range(4), 2):
            d = x[:, i] - x[:, j]
            if not d.any():
                continue
            ref = stats.wilcoxon(
                x[:, i], x[:, j], zero_method=zero_method, correction=True, method="asymptotic"
            )
            assert res.pvalue[i, j] == pytest.approx(ref.pvalue, rel=1e-12, abs=1e-300)
            assert min(res.statistic[i, j], res.statistic[j, i]) == ref.statistic


def test_wilcoxon_no_continuity_matches_scipy(rng):
    x = random_scores(rng, 30, 3, 1)
    res = wilcoxon_test(x, exact=False, continuity=False)
    for i, j in itertools.combinations(range(3), 2):
        ref = stats.wilcoxon(x[:, i], x[:, j], correction=False, method="asymptotic")
        assert res.pvalue[i, j] == pytest.approx(ref.pvalue, rel=1e-12)


def test_wilcoxon_default_follows_r_rule(rng):
    # R's wilcox.test(x, y, paired = TRUE): exact when n < 50 with no ties and no zeros,
    # else normal with continuity correction. scipy's method="exact" / "asymptotic" give
    # each branch.
    checked = {"exact": 0, "approx": 0}
    for _ in range(60):
        n = int(rng.integers(4, 70))
        x = random_scores(rng, n, 3, int(rng.choice([1, 8])))
        res = wilcoxon_test(x)
        for i, j in itertools.combinations(range(3), 2):
            d = x[:, i] - x[:, j]
            nz = d[d != 0]
            if nz.size == 0:
                continue
            untied = np.unique(np.abs(nz)).size == nz.size
            exact = nz.size < 50 and untied and nz.size == d.size
            ref = stats.wilcoxon(
                x[:, i], x[:, j], correction=True, method="exact" if exact else "asymptotic"
            )
            checked["exact" if exact else "approx"] += 1
            assert res.pvalue[i, j] == pytest.approx(ref.pvalue, rel=1e-12)
    assert checked["exact"] > 20 and checked["approx"] > 20


def test_wilcoxon_exact_true_drops_zeros_like_scipy(rng):
    x = random_scores(rng, 20, 2, 8)
    x[:3, 1] = x[:3, 0]  # three zero differences
    res = wilcoxon_test(x, exact=True)
    ref = stats.wilcoxon(x[:, 0], x[:, 1], method="exact")
    assert res.pvalue[0, 1] == pytest.approx(ref.pvalue, rel=1e-12)
    with pytest.warns(cdplot.CdplotWarning, match=r"not defined for 1 pair\(s\)"):
        wilcoxon_test(x, exact=True, zero_method="zsplit")


def test_signed_rank_cdf_matches_scipy():
    # psignrank: the exact null distribution of V
    from scipy.stats._wilcoxon import WilcoxonDistribution

    for n in (1, 2, 5, 10, 25, 49):
        v = np.arange(-1, n * (n + 1) // 2 + 2)
        ref = WilcoxonDistribution(np.asarray(n)).cdf(v)
        np.testing.assert_allclose(signed_rank_cdf(v, n), ref, rtol=1e-13, atol=0)


def test_wilcoxon_all_zero_differences_p_is_one():
    x = np.tile([[0.5, 0.5, 0.1]], (8, 1)) + np.arange(8)[:, None] / 100
    for zm in ("wilcox", "pratt", "zsplit"):
        res = wilcoxon_test(x, zero_method=zm)
        assert res.pvalue[0, 1] == 1.0


def test_wilcoxon_chunking_gives_same_bits(rng, monkeypatch):
    import cdplot.stats._pairwise as pw

    x = random_scores(rng, 60, 9, 1)
    full = wilcoxon_test(x)
    monkeypatch.setattr(pw, "CHUNK_CELLS", 61)  # one pair per chunk
    chunked = wilcoxon_test(x)
    np.testing.assert_array_equal(full.pvalue, chunked.pvalue)
    np.testing.assert_array_equal(full.statistic, chunked.statistic)


# --- sign test ------------------------------------------------------------------------------


@pytest.mark.parametrize("ties", ["split", "discard"])
def test_sign_test_matches_binomtest(rng, ties):
    x = random_scores(rng, 25, 5, 0)
    res = sign_test(x, ties=ties)
    for i, j in itertools.combinations(range(5), 2):
        d = x[:, i] - x[:, j]
        w, loss, t = int((d > 0).sum()), int((d < 0).sum()), int((d == 0).sum())
        if ties == "split":
            w, loss = w + t // 2, loss + t // 2
        assert res.statistic[i, j] == w and res.statistic[j, i] == loss
        expected = stats.binomtest(w, w + loss).pvalue if w + loss else 1.0
        assert res.pvalue[i, j] == pytest.approx(expected, rel=1e-12)


# --- Nemenyi --------------------------------------------------------------------------------


def test_nemenyi_pvalues_match_studentized_range(rng):
    x = random_scores(rng, 20, 6, 2)
    res = quiet(cdplot.compare, x, test="nemenyi")
    r = res.average_ranks[res.algorithms].to_numpy()
    se = math.sqrt(6 * 7 / (6 * 20))
    for i, j in itertools.combinations(range(6), 2):
        q = abs(r[i] - r[j]) / se * math.sqrt(2)
        expected = stats.studentized_range.sf(q, 6, np.inf) if q > 0 else 1.0
        assert res.pvalues.iloc[i, j] == pytest.approx(expected, rel=1e-10)
        assert res.adjusted_pvalues.iloc[i, j] == res.pvalues.iloc[i, j]


# --- corrections ----------------------------------------------------------------------------


def test_r_p_adjust_documented_values():
    # R: p.adjust(c(0.01, 0.02, 0.03, 0.04, 0.05), method) -- Holm: 0.05 0.08 0.09 0.09 0.09;
    # Hochberg and Hommel: 0.05 for all; Bonferroni: 0.05 0.10 0.15 0.20 0.25
    p = np.array([0.01, 0.02, 0.03, 0.04, 0.05])
    np.testing.assert_allclose(adjust_control(p, "holm"), [0.05, 0.08, 0.09, 0.09, 0.09])
    np.testing.assert_allclose(adjust_control(p, "hochberg"), [0.05] * 5)
    np.testing.assert_allclose(adjust_control(p, "hommel"), [0.05] * 5)
    np.testing.assert_allclose(adjust_control(p, "bonferroni-dunn"), [0.05, 0.1, 0.15, 0.2, 0.25])


def closed_testing(p: np.ndarray, local_test) -> np.ndarray:
    """APV_i = max over index sets I containing i of the local test's p-value of I."""
    m = p.size
    apv = np.zeros(m)
    for size in range(1, m + 1):
        for subset in itertools.combinations(range(m), size):
            local = local_test(p[list(subset)])
            for i in subset:
                apv[i] = max(apv[i], local)
    return np.minimum(apv, 1.0)


def bonferroni_local(ps):
    return min(1.0, ps.size * ps.min())


def simes_local(ps):
    s = np.sort(ps)
    return min(1.0, float(np.min(s.size * s / np.arange(1, s.size + 1))))


@pytest.mark.parametrize(("name", "local"), [("holm", bonferroni_local), ("hommel", simes_local)])
def test_closed_testing_oracles(rng, name, local):
    for trial in range(80):
        m = int(rng.integers(1, 9))
        if trial % 3 == 0:
            p = rng.choice([0.001, 0.01, 0.02, 0.04, 0.5], size=m)  # ties
        else:
            p = rng.uniform(0, 0.2, size=m) ** 2
        np.testing.assert_allclose(adjust_control(p, name), closed_testing(p, local), rtol=1e-12)


def test_hochberg_finner_li_formulas(rng):
    for _ in range(50):
        m = int(rng.integers(2, 12))
        p = rng.uniform(0, 0.3, size=m)
        order = np.argsort(p)
        ps = p[order]
        i = np.arange(1, m + 1)
        # Hochberg (1988) step-up
        hoch = np.array([min(1, min((m - j + 1) * ps[j - 1] for j in range(t, m + 1))) for t in i])
        # Finner (1993) step-down: max_{j <= i} 1 - (1 - p_(j))^(m / j)
        fin = np.maximum.accumulate(1 - (1 - ps) ** (m / i))
        # Li (2008): p_i / (p_i + 1 - p_(m))  (García et al. 2010, Table 3)
        li = ps / (ps + 1 - ps[-1])
        for name, expected in (("hochberg", hoch), ("finner", fin), ("li", li)):
            got = adjust_control(p, name)[order]
            np.testing.assert_allclose(got, expected, rtol=1e-12, err_msg=name)


def test_finner_keeps_digits_for_tiny_p():
    # 1 - (1 - p)^(m/j) loses every digit for p = 1e-18; expm1/log1p does not
    apv = adjust_control(np.array([1e-18, 0.5]), "finner")
    assert apv[0] == pytest.approx(2e-18, rel=1e-12)


def test_all_pairs_corrections_order(rng):
    # Bonferroni >= Holm >= Shaffer >= Bergmann-Hommel (García & Herrera 2008 §2)
    for _ in range(30):
        k = int(rng.integers(3, 8))
        m = k * (k - 1) // 2
        p = rng.uniform(0, 0.1, size=m) ** 2
        bon, holm, shaf, bh = (
            adjust_all_pairs(p, k, c) for c in ("bonferroni", "holm", "shaffer", "bergmann")
        )
        tol = 1e-15
        assert np.all(p <= bh + tol) and np.all(bh <= shaf + tol)
        assert np.all(shaf <= holm + tol) and np.all(holm <= bon + tol) and np.all(bon <= 1)


# --- degenerate inputs ----------------------------------------------------------------------


def test_identical_rankings_everywhere():
    x = np.tile(np.arange(5, dtype=float), (10, 1)) + np.arange(10)[:, None]
    res = cdplot.compare(x, test="sign")
    assert res.friedman.statistic == pytest.approx(10 * 4)  # chi2 = N (k - 1)
    assert res.iman_davenport.statistic == math.inf
    assert res.iman_davenport.pvalue == 0.0


def test_all_ties():
    x = np.ones((8, 4))
    for tie_correction in (False, True):
        res = cdplot.compare(x, tie_correction=tie_correction)
        assert res.friedman.statistic == 0.0 and res.friedman.pvalue == 1.0
        assert res.iman_davenport.statistic == 0.0 and res.iman_davenport.pvalue == 1.0
        assert not res.significant.to_numpy().any()
        assert res.groups == (tuple(res.algorithms),)
        assert np.all(res.pvalues.to_numpy()[~np.eye(4, dtype=bool)] == 1.0)


def test_k2_friedman_is_sign_test_chi2(rng):
    # with k = 2 and no ties, Friedman's chi2 = (wins - losses)^2 / N, the squared z of the
    # sign test's normal approximation
    x = rng.normal(size=(15, 2))
    res = cdplot.compare(x, test="sign")
    w = int((x[:, 0] > x[:, 1]).sum())
    assert res.friedman.statistic == pytest.approx((w - (15 - w)) ** 2 / 15, rel=1e-12)


def test_tie_correction_factor_no_ties():
    assert tie_correction_factor(np.tile([1.0, 2.0, 3.0], (4, 1))) == 1.0
    assert friedman(np.array([1.5, 1.5]), 3).statistic == 0.0


def test_groups_never_contain_significant_pairs(rng):
    for _ in range(30):
        x = rng.normal(size=(40, 6)) + np.linspace(0, 1.5, 6)
        res = cdplot.compare(x, test="wilcoxon", correction="none")
        sig = res.significant
        for group in res.groups:
            for a, b in itertools.combinations(group, 2):
                assert not sig.loc[a, b]
        covered = {frozenset(p) for g in res.groups for p in itertools.combinations(g, 2)}
        for a, b in itertools.combinations(res.algorithms, 2):
            if not sig.loc[a, b]:
                assert (frozenset((a, b)) in covered) != (
                    (a, b) in res.uncovered_pairs or (b, a) in res.uncovered_pairs
                )


def test_uncovered_pairs_reported():
    # A-B and B-C not significant, A-C significant: groups [A, B], [B, C]; nothing uncovered.
    # Add D ranked between with D-A significant... build the significance pattern directly.
    from cdplot.stats import find_groups

    sig = np.zeros((4, 4), dtype=bool)
    # order 0,1,2,3; 0-1 significant, 0-2 not, 1-2 not
    sig[0, 1] = sig[1, 0] = True
    sig[1, 3] = sig[3, 1] = True
    sig[0, 3] = sig[3, 0] = True
    groups, uncovered = find_groups([0, 1, 2, 3], sig)
    assert groups == [[0], [1, 2], [2, 3]]
    assert uncovered == [(0, 2)]


def test_to_frame_and_str(demsar):
    res = quiet(cdplot.compare, demsar, test="nemenyi", alpha=0.10)
    frame = res.to_frame()
    assert list(frame.columns) == [
        "algorithm_1",
        "algorithm_2",
        "statistic",
        "pvalue",
        "adjusted_pvalue",
        "significant",
        "wins",
        "ties",
        "losses",
    ]
    assert len(frame) == 6
    assert frame["pvalue"].is_monotonic_increasing
    top = frame.iloc[0]
    assert (top["algorithm_1"], top["algorithm_2"]) == ("C4.5+m+cf", "C4.5")
    text = str(res)
    assert "Critical difference: 1.118" in text
    assert "[C4.5+m+cf, C4.5+m, C4.5+cf]" in text
    ctrl = quiet(cdplot.compare, demsar, control="C4.5", test="mean-ranks")
    assert len(ctrl.to_frame()) == 3
    assert ctrl.groups == () and isinstance(ctrl.adjusted_pvalues, pd.Series)


# ----------------------------------------------------------- tables built on first access
def test_lazy_tables_equal_the_pandas_tables_and_survive_pickling():
    """Every table of a result is a pandas object built once from the numbers of its parts."""
    import pickle

    res = cdplot.compare(cdplot.datasets.load("demsar2006"), test="tukey")
    copy = pickle.loads(pickle.dumps(res))  # before any table was read
    numbers = {
        "scores": res._input.scores,
        "ranks": res._ranking.rank_values(),
        "average_ranks": res._ranking.average_ranks,
        "statistics": res._pairwise.statistics,
        "pvalues": res._pairwise.pvalues,
        "adjusted_pvalues": res._pairwise.adjusted_pvalues,
        "significant": res._pairwise.significant,
        "n_per_pair": res._pairwise.n_per_pair,
        "score_std": res._input.score_std,
        "mean_scores": res._parametric.mean_scores,
    }
    for name, raw in numbers.items():
        value = getattr(res, name)
        if raw is None:
            assert value is None, name
            continue
        assert isinstance(value, (pd.DataFrame, pd.Series)), name
        assert getattr(res, name) is value, name  # built once, then kept
        np.testing.assert_array_equal(value.to_numpy(), raw)
        if isinstance(value, pd.DataFrame):
            rows = res.datasets if name in ("scores", "ranks", "score_std") else res.algorithms
            assert list(value.index) == rows and list(value.columns) == res.algorithms, name
            pd.testing.assert_frame_equal(getattr(copy, name), value)
        else:
            pd.testing.assert_series_equal(getattr(copy, name), value)
    assert list(res.average_ranks.index) == list(res._ranking.rank_order)
    assert list(res.mean_scores.index) == list(res._parametric.mean_order)
    # the layout the documentation promises
    assert res.scores.index.name == "dataset" and res.scores.columns.name == "algorithm"
    assert res.average_ranks.index.name == "algorithm" and res.average_ranks.name == "average rank"
    assert res.mean_scores.name == "mean score"


def test_lazy_tables_are_read_only():
    import dataclasses

    res = cdplot.compare(cdplot.datasets.load("demsar2006"))
    with pytest.raises(dataclasses.FrozenInstanceError):
        res.pvalues = None

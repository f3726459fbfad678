"""Two classifiers on one dataset: checked against R, scipy, statsmodels, mlxtend, baycomp.

Verified against R 4.2.2 (values in tests/reference/, calls named beside each use):
``t.test(paired=TRUE)`` on Flach's folds (parametric_r.csv, made by make_parametric_r.R),
``mcnemar.test`` (correct = TRUE/FALSE), ``binom.test`` two- and one-sided, and the mid-p
formula (mcnemar.json, copied from ../shared/reference/r-values/, and parametric_r.csv).
Verified against scipy 1.17: ``ttest_rel`` (all alternatives), ``binomtest``.
Verified against statsmodels: ``statsmodels.stats.contingency_tables.mcnemar`` (exact and
corrected chi-square, where its convention matches).
Verified against mlxtend 0.25: ``paired_ttest_5x2cv`` and ``combined_ftest_5x2cv`` fed the
same fold scores through a scripted scorer.
Verified against baycomp 1.0.3: ``CorrelatedTTest`` (its posterior tail equals the
one-sided p of the corrected resampled t-test; Benavoli et al. 2017).
Published numbers: the Cornuéjols slides (after Flach 2012), p = 0.0369 and 0.1848; the
slide's DT-NN p = 0.4833 does not follow from its printed accuracies (0.4835, see
../shared/reference/paper-values.md).
"""

from __future__ import annotations

import json
import math
import warnings

import numpy as np
import pytest
from _helpers import REFERENCE as REF
from _helpers import parametric_r_values
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats

import cdplot
from cdplot.stats import (
    corrected_resampled_t,
    cv5x2_f,
    cv5x2_t,
    mcnemar,
    mcnemar_predictions,
    mcnemar_table,
    paired_t,
)

# Flach (2012) 10-fold accuracies as printed in the Cornuéjols slides ("Illustration :
# Comparaison de performances sur 10-CV")
NB = [0.6809, 0.7017, 0.7012, 0.6913, 0.6333, 0.6415, 0.7216, 0.7214, 0.6578, 0.7865]
DT = [0.7524, 0.8964, 0.6803, 0.9102, 0.7758, 0.8154, 0.6224, 0.7585, 0.9380, 0.7524]
NN = [0.7164, 0.8883, 0.8410, 0.6825, 0.7599, 0.8479, 0.7012, 0.4959, 0.9279, 0.7455]
FLACH = {"nb_dt": (NB, DT), "nb_nn": (NB, NN), "dt_nn": (DT, NN)}


R = parametric_r_values()


def r_value(case: str, quantity: str, i: int | None = None, j: int | None = None) -> float:
    return R[(case, quantity, "NA" if i is None else str(i), "NA" if j is None else str(j))]


# --- paired t ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("pair", "printed"),
    # the slides' printed p-values (Cornuéjols, after Flach 2012); DT-NN prints 0.4833 but
    # its printed accuracies give 0.483476 (R t.test, scipy ttest_rel): test 0.4835
    [("nb_dt", 0.0369), ("nb_nn", 0.1848), ("dt_nn", 0.4835)],
)
def test_paired_t_flach_slides(pair, printed):
    a, b = FLACH[pair]
    res = paired_t(a, b)
    assert round(res.pvalue, 4) == printed
    assert res.df == 9.0


@pytest.mark.parametrize("pair", list(FLACH))
@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
def test_paired_t_matches_r_and_scipy(pair, alternative):
    a, b = FLACH[pair]
    res = paired_t(a, b, alternative=alternative)
    r_alt = alternative.replace("-", ".")
    # R: t.test(a, b, paired=TRUE, alternative=...) (parametric_r.csv)
    assert res.statistic == pytest.approx(r_value(f"flach_{pair}", f"t_{r_alt}"), rel=1e-13)
    assert res.pvalue == pytest.approx(r_value(f"flach_{pair}", f"p_{r_alt}"), rel=1e-12)
    ref = stats.ttest_rel(a, b, alternative=alternative)
    assert res.statistic == pytest.approx(ref.statistic, rel=1e-13)
    assert res.pvalue == pytest.approx(ref.pvalue, rel=1e-12)
    assert res.estimate == pytest.approx(np.mean(np.subtract(a, b)), rel=1e-13)
    t, p = res  # unpacks as (statistic, pvalue)
    assert (t, p) == (res.statistic, res.pvalue)


@given(
    st.lists(st.tuples(st.floats(-1e3, 1e3), st.floats(-1e3, 1e3)), min_size=3, max_size=30).filter(
        lambda pairs: np.ptp([x - y for x, y in pairs]) > 1e-6
    )
)
def test_paired_t_matches_scipy_property(pairs):
    a, b = map(np.array, zip(*pairs, strict=True))
    res = paired_t(a, b)
    ref = stats.ttest_rel(a, b)
    assert res.statistic == pytest.approx(ref.statistic, rel=1e-8, abs=1e-12)
    assert res.pvalue == pytest.approx(ref.pvalue, rel=1e-8, abs=1e-14)


def test_paired_t_huge_scores_do_not_overflow():
    a = np.array([1e308, -1e308, 1.5e308, 0.0])
    b = np.array([-1e308, 1e308, -1e308, 1e307])
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no numpy RuntimeWarning
        res = paired_t(a, b)
    # the same table scaled by 1e-300 is ordinary; t is scale invariant (scipy ttest_rel)
    ref = stats.ttest_rel(a * 1e-300, b * 1e-300)
    assert res.statistic == pytest.approx(ref.statistic, rel=1e-12)
    # mean(a - b) = (2e308 - 2e308 + 2.5e308 - 1e307) / 4, in range although a - b is not
    assert res.estimate == pytest.approx(6e307, rel=1e-12)


def test_paired_t_constant_differences():
    assert tuple(paired_t([1, 2, 3], [1, 2, 3])) == (0.0, 1.0)
    res = paired_t([2, 3, 4], [1, 2, 3])
    assert res.statistic == math.inf and res.pvalue == 0.0


# --- corrected resampled t ----------------------------------------------------------------


@pytest.mark.parametrize("runs", [1, 2])
def test_corrected_resampled_t_matches_baycomp(runs):
    from baycomp import CorrelatedTTest

    rng = np.random.default_rng(7)
    a = rng.normal(0.80, 0.02, size=10 * runs)
    b = a - rng.normal(0.01, 0.015, size=10 * runs)
    # baycomp's correction 1/n + 1/(folds - 1): n_test/n_train = 1/9 for 10-fold CV
    res = corrected_resampled_t(a, b, test_train_ratio=1 / 9, alternative="greater")
    # CorrelatedTTest.probs(x, y, rope=0) = (P(y - x < 0), P(y - x > 0)); with x = b,
    # y = a the first is the t-distribution's tail beyond the corrected t: p "greater"
    p_left, p_right = CorrelatedTTest.probs(b, a, rope=0, runs=runs)
    assert res.pvalue == pytest.approx(p_left, rel=1e-10)
    two = corrected_resampled_t(a, b, test_train_ratio=1 / 9)
    assert two.pvalue == pytest.approx(2 * min(p_left, p_right), rel=1e-10)


def test_corrected_resampled_t_formula_and_limit():
    # Nadeau & Bengio (2003): t = mean / sqrt((1/n + n_test/n_train) s^2), df n - 1
    d = np.subtract(NB, DT)
    t = d.mean() / math.sqrt((1 / 10 + 1 / 9) * d.var(ddof=1))
    res = corrected_resampled_t(NB, DT, 1 / 9)
    assert res.statistic == pytest.approx(t, rel=1e-13)
    assert res.pvalue == pytest.approx(2 * stats.t.sf(abs(t), 9), rel=1e-12)
    # a vanishing ratio gives back the paired t-test (scipy ttest_rel)
    tiny = corrected_resampled_t(NB, DT, 1e-300)
    assert tiny.pvalue == pytest.approx(stats.ttest_rel(NB, DT).pvalue, rel=1e-12)
    # the corrected test is more conservative than the uncorrected one
    assert res.pvalue > paired_t(NB, DT).pvalue


@pytest.mark.parametrize("ratio", [0, -0.1, float("nan"), float("inf"), "a", None])
def test_corrected_resampled_t_bad_ratio(ratio):
    with pytest.raises(cdplot.CdplotInputError, match="test_train_ratio must be a positive"):
        corrected_resampled_t(NB, DT, ratio)


# --- McNemar --------------------------------------------------------------------------------


MCNEMAR = json.loads((REF / "mcnemar.json").read_text())["tables"]
TABLES = [name for name in MCNEMAR if name != "both_zero"]


@pytest.mark.parametrize("name", TABLES)
def test_mcnemar_matches_r(name):
    t = MCNEMAR[name]
    b, c = t["n01"], t["n10"]
    # R: mcnemar.test(matrix(c(n00, n10, n01, n11), 2), correct=TRUE / FALSE)
    for method, key in (("corrected", "mcnemar_correct"), ("uncorrected", "mcnemar_uncorrected")):
        res = mcnemar(b, c, method=method)
        assert res.statistic == pytest.approx(t[key]["statistic"], rel=1e-14, abs=1e-15)
        assert res.pvalue == pytest.approx(t[key]["p"], rel=1e-13)
        assert res.df == 1.0
    # R: binom.test(n01, n01 + n10, 0.5)$p.value
    assert mcnemar(b, c, method="exact").pvalue == pytest.approx(
        t["exact_binomial"]["p"], rel=1e-13
    )
    # mid-p: 2 (P(X < min) + P(X = min) / 2), capped at 1 (mcnemar.json's formula)
    assert mcnemar(b, c, method="mid-p").pvalue == pytest.approx(t["exact_mid_p"]["p"], rel=1e-12)
    # symmetric in b and c
    assert mcnemar(c, b).pvalue == mcnemar(b, c).pvalue


@pytest.mark.parametrize("name", TABLES)
def test_mcnemar_matches_scipy_and_statsmodels(name):
    from statsmodels.stats.contingency_tables import mcnemar as sm_mcnemar

    t = MCNEMAR[name]
    b, c = t["n01"], t["n10"]
    assert mcnemar(b, c, method="exact").pvalue == pytest.approx(
        stats.binomtest(b, b + c).pvalue, rel=1e-12
    )
    table = [[t["n00"], b], [c, t["n11"]]]
    assert mcnemar(b, c, method="exact").pvalue == pytest.approx(
        sm_mcnemar(table, exact=True).pvalue, rel=1e-12
    )
    sm = sm_mcnemar(table, exact=False, correction=False)
    assert mcnemar(b, c, method="uncorrected").pvalue == pytest.approx(sm.pvalue, rel=1e-12)
    if b != c:  # statsmodels applies the slides' correction also when b = c
        sm = sm_mcnemar(table, exact=False, correction=True)
        assert mcnemar(b, c).statistic == pytest.approx(sm.statistic, rel=1e-13)


def test_mcnemar_b_equals_c_follows_r_not_the_slides():
    t = MCNEMAR["b_equals_c"]
    res = mcnemar(7, 7)
    # R: mcnemar.test(...) gives statistic 0, p = 1 (mcnemar.json, r_skips_correction)
    assert (res.statistic, res.pvalue) == (t["mcnemar_correct"]["statistic"], 1.0)
    # the slides' formula (|b - c| - 1)^2 / (b + c) would give 1/14 (mcnemar.json)
    assert t["slides_formula_always_corrected"]["statistic"] == pytest.approx(1 / 14)


@pytest.mark.parametrize("method", ["corrected", "uncorrected", "exact", "mid-p"])
def test_mcnemar_both_zero(method):
    # R returns NaN and binom.test(0, 0) is an error (mcnemar.json, both_zero)
    with pytest.warns(cdplot.CdplotWarning, match="never disagree"):
        res = mcnemar(0, 0, method=method)
    assert (res.statistic, res.pvalue) == (0.0, 1.0)


@pytest.mark.parametrize(
    ("name", "b", "c"), [("moderate", 12, 3), ("one_zero", 0, 5), ("large", 25, 10), ("tiny", 1, 9)]
)
@pytest.mark.parametrize("alternative", ["greater", "less"])
def test_mcnemar_exact_one_sided_matches_r(name, b, c, alternative):
    # R: binom.test(b, b + c, 0.5, alternative=...) (parametric_r.csv)
    expected = r_value(f"mcnemar_{name}", f"exact_p_{alternative}")
    assert mcnemar(b, c, method="exact", alternative=alternative).pvalue == pytest.approx(
        expected, rel=1e-12
    )
    # scipy.stats.binomtest agrees
    ref = stats.binomtest(b, b + c, alternative=alternative).pvalue
    assert expected == pytest.approx(ref, rel=1e-12)


def test_mcnemar_one_sided_chi2_is_half_the_two_sided():
    two = mcnemar(12, 3, method="uncorrected").pvalue
    assert mcnemar(12, 3, method="uncorrected", alternative="greater").pvalue == pytest.approx(
        two / 2, rel=1e-12
    )
    assert mcnemar(12, 3, method="uncorrected", alternative="less").pvalue == pytest.approx(
        1 - two / 2, rel=1e-12
    )


def test_mcnemar_from_predictions():
    truth = np.array([0, 1, 1, 0, 1, 0, 1, 1, 0, 0])
    a = np.array([0, 1, 1, 0, 1, 0, 1, 0, 1, 0])  # wrong on 7, 8
    b = np.array([1, 1, 0, 0, 0, 0, 1, 1, 0, 1])  # wrong on 0, 2, 4, 9
    table = mcnemar_table(truth, a, b)
    # counted by hand: both right 1, 3, 5, 6; A only 0, 2, 4, 9; B only 7, 8; none both wrong
    np.testing.assert_array_equal(table, [[4, 4], [2, 0]])
    assert tuple(mcnemar_predictions(truth, a, b, method="exact")) == tuple(
        mcnemar(4, 2, method="exact")
    )
    labels = ["cat", "dog"]
    assert (
        mcnemar_table(
            [labels[t] for t in truth], [labels[t] for t in a], [labels[t] for t in b]
        ).tolist()
        == table.tolist()
    )


# --- 5x2cv ----------------------------------------------------------------------------------


class _Scripted:
    """An estimator whose fit does nothing: the scorer below hands out scripted scores."""

    def fit(self, X, y):
        return self


def _mlxtend_on(scores_a: np.ndarray, scores_b: np.ndarray, fn):
    """Run an mlxtend 5x2cv function with these fold scores (replication i, fold j)."""
    order = []
    for i in range(5):
        for j in range(2):
            order += [scores_a[i, j], scores_b[i, j]]  # est1 then est2 on each fold
    it = iter(order)
    X = np.arange(40, dtype=float).reshape(20, 2)
    y = np.tile([0, 1], 10)
    return fn(_Scripted(), _Scripted(), X, y, scoring=lambda est, X, y: next(it), random_seed=1)


@pytest.mark.parametrize("seed", range(5))
def test_cv5x2_matches_mlxtend(seed):
    from mlxtend.evaluate import combined_ftest_5x2cv, paired_ttest_5x2cv

    rng = np.random.default_rng(seed)
    a = rng.uniform(0.7, 0.9, size=(5, 2))
    b = rng.uniform(0.7, 0.9, size=(5, 2))
    t, p = _mlxtend_on(a, b, paired_ttest_5x2cv)
    res = cv5x2_t(a - b)
    assert res.statistic == pytest.approx(t, rel=1e-12)
    assert res.pvalue == pytest.approx(p, rel=1e-12)
    assert res.df == 5.0
    f, p = _mlxtend_on(a, b, combined_ftest_5x2cv)
    res = cv5x2_f(a - b)
    assert res.statistic == pytest.approx(f, rel=1e-12)
    assert res.pvalue == pytest.approx(p, rel=1e-12)
    assert res.df == (10.0, 5.0)


def test_cv5x2_formulas():
    # Dietterich (1998) eq. for t, Alpaydin (1999) eq. for F, on hand-made differences
    d = np.array([[0.02, 0.03], [0.01, 0.04], [0.03, 0.02], [0.00, 0.05], [0.02, 0.02]])
    s2 = 2 * 0.005**2 + 2 * 0.015**2 + 2 * 0.005**2 + 2 * 0.025**2 + 0.0
    assert cv5x2_t(d).statistic == pytest.approx(0.02 / math.sqrt(s2 / 5), rel=1e-12)
    assert cv5x2_t(d).pvalue == pytest.approx(2 * stats.t.sf(0.02 / math.sqrt(s2 / 5), 5))
    assert cv5x2_f(d).statistic == pytest.approx(np.sum(d**2) / (2 * s2), rel=1e-12)
    assert cv5x2_f(d).pvalue == pytest.approx(stats.f.sf(np.sum(d**2) / (2 * s2), 10, 5))
    # F is order-free; t depends on the first fold only
    assert cv5x2_f(d[::-1]).statistic == pytest.approx(cv5x2_f(d).statistic, rel=1e-14)


def test_cv5x2_huge_differences():
    d = np.array([[1e200, 3e200], [1e200, 4e200], [3e200, 2e200], [0.0, 5e200], [2e200, 2e200]])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        t, f = cv5x2_t(d), cv5x2_f(d)
    assert t.statistic == pytest.approx(cv5x2_t(d * 1e-202).statistic, rel=1e-12)
    assert f.statistic == pytest.approx(cv5x2_f(d * 1e-202).statistic, rel=1e-12)


# --- bad input ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (lambda: paired_t([1, 2, 3], [1, 2]), "a has 3 values and b has 2"),
        (lambda: paired_t([1], [2]), "at least 2 folds"),
        (lambda: paired_t([1, np.nan], [2, 3]), "missing or infinite"),
        (lambda: paired_t([[1, 2]], [[2, 3]]), "one-dimensional"),
        (lambda: paired_t(["a", "b"], [1, 2]), "sequence of numbers"),
        (lambda: paired_t([1, 2], [2, 4], alternative="bigger"), "valid value for alternative"),
        (lambda: corrected_resampled_t([1, 2], [2], 0.1), "a has 2 values and b has 1"),
        (lambda: cv5x2_t(np.zeros((2, 5))), r"shape \(5, 2\).*transpose"),
        (lambda: cv5x2_f(np.zeros((10,))), r"shape \(5, 2\)"),
        (lambda: cv5x2_t(np.full((5, 2), np.nan)), "missing or infinite"),
        (lambda: mcnemar(-1, 3), "non-negative integer"),
        (lambda: mcnemar(2.5, 3), "non-negative integer"),
        (lambda: mcnemar(float("nan"), 3), "non-negative integer"),
        (lambda: mcnemar(True, 3), "non-negative integer"),
        (lambda: mcnemar("x", 3), "non-negative integer"),
        (lambda: mcnemar(1, 3, method="fisher"), "valid value for method"),
        (lambda: mcnemar_table([0, 1], [0, 1, 1], [0, 1]), "lengths are 2, 3 and 2"),
        (lambda: mcnemar_table([0.0, np.nan], [0, 1], [0, 1]), "missing labels"),
        (lambda: mcnemar_table([], [], []), "empty"),
    ],
)
def test_bad_input(call, match):
    with pytest.raises(cdplot.CdplotInputError, match=match):
        call()


def test_integral_float_counts_accepted():
    assert tuple(mcnemar(12.0, np.int64(3))) == tuple(mcnemar(12, 3))

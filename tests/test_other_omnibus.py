"""Friedman aligned ranks, Quade, exact rank-sum p-values, and the omnibus registry.

Verified against R (values in tests/reference/, calls recorded there):
- scmamp 0.3.2 ``friedmanAlignedRanksTest`` / ``friedmanAlignedRanksPost`` (+ ``p.adjust``,
  ``adjustShaffer``, ``adjustBergmannHommel``) on Demšar's Table 6 (``exact_decimal``
  variant): aligned ranks, T, p, z, p-values, APVs of six all-pairs and four control
  corrections;
- base R ``stats::quade.test`` (121 tables from ``make_quade_r.R`` plus Table 6), scmamp
  ``quadePost`` (García's z-test and its APVs), ``PMCMRplus::quadeAllPairsTest(dist =
  "TDist")`` (Conover's t-test);
- ``PMCMRplus::frdAllPairsExactTest`` / ``frdManyOneExactTest`` and ``pexactfrsd`` (exact
  p-values, point probabilities, Holm/Bonferroni) on ``exact_k4_N8.csv``; Eisinga et al.
  (2017) R supplement example 1 (d = k = n = 100: p = 0.8085251).
Verified against a slow oracle written here: the exact rank-sum distribution by explicit
convolution of the one-dataset distribution in integers.
Consistency only: decimal ties, the registry, error messages.
"""

from __future__ import annotations

import csv
import functools
import json
import math
import warnings

import numpy as np
import pandas as pd
import pytest
from _helpers import REFERENCE as REF
from _helpers import demsar_table6, quiet_compare
from _helpers import nan_matrix as matrix
from hypothesis import given
from hypothesis import strategies as st

import cdplot
from cdplot import CdplotInputError, PoolDependenceWarning
from cdplot.stats._aligned import (
    aligned_ranks,
    aligned_ranks_posthoc,
    aligned_ranks_test,
    decimal_integers,
)
from cdplot.stats._exact_ranksum import exact_rank_sum_test, lower_tail_counts, rank_sum_pvalue
from cdplot.stats._omnibus import OMNIBUS_TESTS, resolve_omnibus
from cdplot.stats._quade import quade_posthoc, quade_scores, quade_test


@pytest.fixture(scope="module")
def table6():
    frame = demsar_table6()
    ref = json.loads((REF / "aligned_quade_demsar_table6.json").read_text())
    return frame, ref


#: compare() with only its pool-dependence warnings silenced (the others stay errors)
compare_quiet = functools.partial(quiet_compare, quiet=PoolDependenceWarning)


# --- Friedman aligned ranks vs scmamp ------------------------------------------------------


def test_aligned_ranks_match_scmamp(table6):
    frame, ref = table6
    al = ref["aligned_ranks"]["exact_decimal"]
    x = frame.to_numpy()
    ranks = aligned_ranks(x)
    np.testing.assert_array_equal(ranks, np.array(al["ranks"]))
    np.testing.assert_array_equal(ranks.sum(axis=0), al["rank_sums"])
    np.testing.assert_array_equal(ranks.sum(axis=1), al["block_rank_sums"])
    res = aligned_ranks_test(x)
    # scmamp::friedmanAlignedRanksTest: T = 11.640489408720962, p = 0.008721859471922722
    assert res.statistic == pytest.approx(al["T"], rel=1e-12)
    assert res.pvalue == pytest.approx(al["p_scmamp"], rel=1e-12)
    assert res.df == al["df"]
    post = aligned_ranks_posthoc(x)
    np.testing.assert_allclose(post.statistic, matrix(al["z"]), rtol=1e-12)
    np.testing.assert_allclose(post.pvalue, matrix(al["p_matrix"]), rtol=1e-12)


@pytest.mark.parametrize(
    "correction", ["bonferroni", "holm", "hochberg", "hommel", "shaffer", "bergmann_hommel"]
)
def test_aligned_ranks_apvs_match_scmamp(table6, correction):
    frame, ref = table6
    expected = matrix(ref["aligned_ranks"]["exact_decimal"]["apv"][correction])
    res = compare_quiet(frame, test="aligned-ranks", omnibus="aligned-ranks", correction=correction)
    assert res.omnibus.name == "Friedman aligned-ranks"
    np.testing.assert_allclose(res.adjusted_pvalues.to_numpy(), expected, rtol=1e-12)


@pytest.mark.parametrize(
    ("correction", "key"),
    [
        ("bonferroni-dunn", "bonferroni_dunn"),
        ("holm", "holm"),
        ("hochberg", "hochberg"),
        ("hommel", "hommel"),
    ],
)
def test_aligned_ranks_control_matches_scmamp(table6, correction, key):
    frame, ref = table6
    ctrl = ref["aligned_ranks"]["exact_decimal"]["control_best"]
    control = frame.columns[ctrl["index0"]]
    res = compare_quiet(frame, test="aligned-ranks", control=control, correction=correction)
    expected = [v for v in ctrl[key] if v is not None]
    np.testing.assert_allclose(res.adjusted_pvalues.to_numpy(), expected, rtol=1e-12)


# --- decimal ties stay ties -----------------------------------------------------------------


def test_decimal_ties_in_aligned_values_and_ranges():
    # aligned values: in floating point 0.5 - 0.505 != 0.56 - 0.565 (so the naive
    # computation would not tie them), in decimal both are -0.005
    x = np.array([[0.50, 0.51], [0.56, 0.57], [0.31, 0.62]])
    naive = x - x.mean(axis=1, keepdims=True)
    assert naive[0, 0] != naive[1, 0]
    ranks = aligned_ranks(x)
    assert ranks[0, 0] == ranks[1, 0] and ranks[0, 1] == ranks[1, 1]
    # ranges: in floating point 0.85 - 0.80 != 0.75 - 0.70, in decimal both are 0.05
    x = np.array([[0.85, 0.80], [0.75, 0.70], [0.31, 0.62]])
    assert 0.85 - 0.80 != 0.75 - 0.70
    q, _, _ = quade_scores(x)
    assert q[0] == q[1] == 1.5 and q[2] == 3


def test_decimal_rule_equals_integer_scaling(rng):
    # the rule: exact arithmetic on the shortest decimal form, i.e. the same as scaling
    # by 10**decimals to integers (R's exact_decimal variant in the reference file)
    for _ in range(20):
        ints = rng.integers(0, 40, size=(8, 4))
        x = ints / 100.0
        np.testing.assert_array_equal(aligned_ranks(x), aligned_ranks(ints.astype(float)))
        np.testing.assert_array_equal(quade_scores(x)[0], quade_scores(ints.astype(float))[0])
        assert quade_test(x).statistic == quade_test(ints.astype(float)).statistic


def test_decimal_integers_precision():
    ints, d = decimal_integers(np.array([[0.1 + 0.2, 1.0]]))
    assert d == 17 and ints.tolist() == [[30000000000000004, 100000000000000000]]
    ints, d = decimal_integers(np.array([[1e-300, 2.5]]))
    assert d == 300 and ints.dtype == object and ints[0, 1] == 25 * 10**299


# --- Quade vs base R, scmamp and PMCMRplus ------------------------------------------------------


def test_quade_matches_references(table6):
    frame, ref = table6
    qr = ref["quade"]["exact_decimal"]
    x = frame.to_numpy()
    q, ranks, s = quade_scores(x)
    np.testing.assert_array_equal(q, qr["range_ranks_Q"])
    np.testing.assert_array_equal(ranks, np.array(qr["ranks"]))
    np.testing.assert_array_equal(s.sum(axis=0), qr["S"])
    assert np.sum(s**2) == qr["A_sum_s2"]
    res = quade_test(x)
    # stats::quade.test(X): F = 4.627905162240451, p = 0.007302680514893385
    assert res.statistic == pytest.approx(qr["base_R"]["F"], rel=1e-12)
    assert res.pvalue == pytest.approx(qr["base_R"]["p"], rel=1e-12)
    assert res.df == (qr["base_R"]["df1"], qr["base_R"]["df2"])
    # scmamp's quadeTest uses the no-ties A and so differs under ties (documented)
    assert abs(res.statistic - qr["scmamp"]["F"]) > 0.1
    garcia = quade_posthoc(x)
    np.testing.assert_allclose(garcia.statistic, matrix(qr["posthoc_garcia"]["z"]), rtol=1e-12)
    np.testing.assert_allclose(garcia.pvalue, matrix(qr["posthoc_garcia"]["p_matrix"]), rtol=1e-12)
    conover = quade_posthoc(x, method="conover")
    t_ref = qr["posthoc_pmcmrplus_t"]
    np.testing.assert_allclose(conover.statistic, matrix(t_ref["t"]), rtol=1e-12)
    np.testing.assert_allclose(conover.pvalue, matrix(t_ref["p_matrix"]), rtol=1e-12)
    res = compare_quiet(frame, test="quade", method="conover", correction="holm")
    np.testing.assert_allclose(res.adjusted_pvalues.to_numpy(), matrix(t_ref["p_holm"]), rtol=1e-12)


@pytest.mark.parametrize(
    "correction", ["bonferroni", "holm", "hochberg", "hommel", "shaffer", "bergmann_hommel"]
)
def test_quade_apvs_match_scmamp(table6, correction):
    frame, ref = table6
    expected = matrix(ref["quade"]["exact_decimal"]["posthoc_garcia"]["apv"][correction])
    res = compare_quiet(frame, test="quade", omnibus="quade", correction=correction)
    assert res.omnibus.name == "Quade F"
    np.testing.assert_allclose(res.adjusted_pvalues.to_numpy(), expected, rtol=1e-12)


def test_quade_control_matches_scmamp(table6):
    frame, ref = table6
    ctrl = ref["quade"]["exact_decimal"]["posthoc_garcia"]["control_best"]
    control = frame.columns[ctrl["index0"]]
    for correction, key in [("bonferroni-dunn", "bonferroni_dunn"), ("hommel", "hommel")]:
        res = compare_quiet(frame, test="quade", control=control, correction=correction)
        expected = [v for v in ctrl[key] if v is not None]
        np.testing.assert_allclose(res.adjusted_pvalues.to_numpy(), expected, rtol=1e-12)


def _r_cases():
    with (REF / "quade_r.csv").open() as fh:
        rows = list(csv.DictReader(line for line in fh if not line.startswith("#")))
    return rows


def test_quade_matches_base_r_on_121_tables():
    cases = _r_cases()
    assert len(cases) == 121
    checked = 0
    for row in cases:
        n, k = int(row["n"]), int(row["k"])
        y = np.array(row["values"].split(), dtype=float).reshape(n, k)
        for scale in (1.0, 100.0):  # integers, and the same table as 2-decimal scores
            res = quade_test(y / scale)
            if row["quade_F"] == "NA":  # A = B: R gives F = NaN and p = (k!)^(1 - N)
                assert res.statistic == math.inf
            else:
                assert res.statistic == pytest.approx(float(row["quade_F"]), rel=1e-10)
                assert res.df == (float(row["quade_df1"]), float(row["quade_df2"]))
            assert res.pvalue == pytest.approx(float(row["quade_p"]), rel=1e-9)
            with warnings.catch_warnings():  # few datasets for the sign test: irrelevant
                warnings.simplefilter("ignore", cdplot.CdplotWarning)
                fr = cdplot.compare(y / scale, tie_correction=True, test="sign")
            assert fr.friedman.statistic == pytest.approx(float(row["friedman_chi2"]), rel=1e-10)
            checked += 1
    assert checked == 242


def test_quade_degenerate_tables():
    # every dataset scores every algorithm alike: no evidence (R would give (k!)^(1 - N))
    res = quade_test(np.ones((4, 3)))
    assert (res.statistic, res.pvalue) == (0.0, 1.0)
    res = quade_posthoc(np.ones((4, 3)), method="conover")
    assert np.all(res.pvalue[~np.eye(3, dtype=bool)] == 1.0)


def test_quade_method_option_is_checked(table6):
    frame, _ = table6
    with pytest.raises(CdplotInputError, match="'tukey' is not a valid value for method"):
        compare_quiet(frame, test="quade", method="tukey")
    with pytest.raises(CdplotInputError, match="unknown option.*'method'.*aligned-ranks"):
        compare_quiet(frame, test="aligned-ranks", method="conover")


# --- exact rank-sum p-values -----------------------------------------------------------------


@pytest.fixture(scope="module")
def exact_ref():
    frame = pd.read_csv(REF / "exact_k4_N8.csv", index_col=0)
    return frame, json.loads((REF / "exact_k4_N8.json").read_text())


def _closed_form_lower_count(m, k, n):
    """W(D <= m) from the generating function, as Eisinga et al. (2017) expand it.

    ``g(x) = x^-(k-1) (1 + ... + x^(k-1))^2 - k`` per dataset; the coefficient of
    ``x^m`` in ``g^n / (1 - x)`` is
    ``sum_h C(n, h) (-k)^(n-h) sum_s (-1)^s C(2h, s) C(m + h(k-1) - ks + 2h, 2h)``.
    """
    total = 0
    for h in range(n + 1):
        inner = 0
        for s in range(2 * h + 1):
            big_m = m + h * (k - 1) - k * s
            if big_m < 0:
                break
            inner += (-1) ** s * math.comb(2 * h, s) * math.comb(big_m + 2 * h, 2 * h)
        total += math.comb(n, h) * (-k) ** (n - h) * inner
    return total


def _lower_count(m, k, n):
    return lower_tail_counts(k, n)[m + n * (k - 1)] if m >= -n * (k - 1) else 0


def test_exact_matches_pmcmrplus(exact_ref):
    frame, ref = exact_ref
    res = exact_rank_sum_test(frame.to_numpy())
    # PMCMRplus::frdAllPairsExactTest(X, p.adjust.method = "none")
    np.testing.assert_allclose(res.pvalue, matrix(ref["p_exact"]), rtol=1e-12)
    np.testing.assert_array_equal(res.statistic, np.abs(matrix(ref["d_row_minus_col"])))
    k, n = ref["k"], ref["N"]
    total = (k * (k - 1)) ** n
    for i, j in [(0, 1), (0, 2), (1, 2), (2, 3), (0, 3)]:
        d = abs(ref["d_row_minus_col"][i][j])
        # PMCMRplus:::pexactfrsd(d, k, n, "probability")
        point = 2 * (_lower_count(-d, k, n) - _lower_count(-d - 1, k, n)) / total
        assert point == pytest.approx(ref["p_point"][i][j], rel=1e-12)


@pytest.mark.parametrize(
    ("correction", "key"), [("holm", "p_exact_holm"), ("bonferroni", "p_exact_bonferroni")]
)
def test_exact_adjusted_match_pmcmrplus(exact_ref, correction, key):
    frame, ref = exact_ref
    res = compare_quiet(frame, test="exact-rank-sum", correction=correction)
    np.testing.assert_allclose(res.adjusted_pvalues.to_numpy(), matrix(ref[key]), rtol=1e-12)


def test_exact_control_matches_pmcmrplus(exact_ref):
    frame, ref = exact_ref
    ctrl = ref["control_best"]
    res = compare_quiet(
        frame, test="exact-rank-sum", control=frame.columns[ctrl["index0"]], correction="holm"
    )
    # PMCMRplus::frdManyOneExactTest(..., p.adjust.method = "holm")
    expected = [v for v in ctrl["p_exact_holm"] if v is not None]
    np.testing.assert_allclose(res.adjusted_pvalues.to_numpy(), expected, rtol=1e-12)


def test_exact_supplement_example():
    # Eisinga et al. (2017), Additional file (pexactfrsd.R), example 1: d = k = n = 100
    assert rank_sum_pvalue(100, 100, 100) == pytest.approx(0.8085251, abs=5e-8)
    # the closed form agrees in exact integers at this size too, at a few points
    counts = lower_tail_counts(100, 100)
    for d in (100, 2500, 9000, 9900):
        assert counts[9900 - d] == _closed_form_lower_count(-d, 100, 100)
    assert counts[-1] == (100 * 99) ** 100


def _convolution_oracle(k, n):
    """Counts of D = -n(k-1)..n(k-1) by explicit convolution, in Python integers."""
    one = [k - abs(d) if d else 0 for d in range(-(k - 1), k)]
    dist = [1]
    for _ in range(n):
        out = [0] * (len(dist) + len(one) - 1)
        for a, ca in enumerate(dist):
            if ca:
                for b, cb in enumerate(one):
                    out[a + b] += ca * cb
        dist = out
    return dist


@pytest.mark.parametrize(("k", "n"), [(2, 1), (2, 7), (3, 5), (4, 8), (5, 6), (7, 4), (10, 3)])
def test_exact_distribution_matches_convolution(k, n):
    dist = _convolution_oracle(k, n)
    total = (k * (k - 1)) ** n
    assert sum(dist) == total
    offset = n * (k - 1)
    for d in range(1, offset + 1):
        tail = sum(dist[: offset - d + 1])  # P(D <= -d)
        assert _lower_count(-d, k, n) == tail == _closed_form_lower_count(-d, k, n)
        assert rank_sum_pvalue(d, k, n) == min(1.0, 2 * tail / total)
    assert rank_sum_pvalue(0, k, n) == 1.0


def test_exact_refusals(exact_ref, table6):
    frame, _ = exact_ref
    ties, _ = table6
    with pytest.raises(CdplotInputError, match="no ties within a dataset.*5 dataset.*'iris'"):
        compare_quiet(ties, test="exact-rank-sum")
    with pytest.raises(CdplotInputError, match="2 to 100 algorithms on 1 to 100 datasets.*N = 101"):
        exact_rank_sum_test(np.arange(101 * 3, dtype=float).reshape(101, 3))
    with pytest.raises(CdplotInputError, match="k = 101"):
        rank_sum_pvalue(3, 101, 5)
    with pytest.raises(CdplotInputError, match="impossible"):
        rank_sum_pvalue(25, 4, 8)


# --- the omnibus registry in compare() ----------------------------------------------------------


def test_registry_names_and_aliases():
    assert list(OMNIBUS_TESTS) == [
        "friedman",
        "aligned-ranks",
        "quade",
        "skillings-mack",
        "rm-anova",
        "durbin",
        "page",
    ]
    assert resolve_omnibus("Friedman_Aligned_Ranks") == "aligned-ranks"
    assert resolve_omnibus("SM") == "skillings-mack"
    with pytest.raises(
        CdplotInputError, match="'qaude' is not a valid value for omnibus.*Did you mean 'quade'"
    ):
        resolve_omnibus("qaude")


def test_default_omnibus_is_friedman(demsar):
    res = cdplot.compare(demsar)
    assert res.omnibus is res.friedman
    res = cdplot.compare(demsar, tie_correction=True)
    assert res.omnibus is res.friedman


@pytest.mark.parametrize("name", ["aligned-ranks", "quade", "skillings-mack"])
def test_each_omnibus_keeps_friedman(demsar, name):
    res = cdplot.compare(demsar, omnibus=name)
    assert res.omnibus.name != res.friedman.name
    assert res.friedman == cdplot.compare(demsar).friedman
    # compare() computes every statistic with the algorithms in name order (bit-for-bit
    # invariance under permutations of the columns)
    expected = OMNIBUS_TESTS[name](demsar[sorted(demsar.columns)].to_numpy())
    assert (res.omnibus.statistic, res.omnibus.pvalue) == (expected.statistic, expected.pvalue)


def test_a_new_omnibus_plugs_in(demsar, monkeypatch):
    def constant(scores):
        return cdplot.stats.OmnibusResult(1.5, 0.25, 2.0, "constant test")

    monkeypatch.setitem(OMNIBUS_TESTS, "constant", constant)
    res = cdplot.compare(demsar, omnibus="constant")
    assert res.omnibus.name == "constant test"


def test_new_tests_warn_pool_dependence(demsar):
    for test in ("aligned-ranks", "quade", "exact-rank-sum"):
        data = (
            demsar
            if test != "exact-rank-sum"
            else pd.read_csv(REF / "exact_k4_N8.csv", index_col=0)
        )
        with pytest.warns(PoolDependenceWarning, match=test):
            cdplot.compare(data, test=test)


# --- invariances (consistency) ----------------------------------------------------------------


@given(
    st.integers(2, 6).flatmap(
        lambda k: st.lists(
            st.lists(st.integers(0, 9), min_size=k, max_size=k), min_size=2, max_size=12
        )
    ),
    st.randoms(use_true_random=False),
)
def test_orientation_and_permutation_invariance(rows, rnd):
    x = np.array(rows, dtype=float) / 10.0
    k = x.shape[1]
    perm = list(range(k))
    rnd.shuffle(perm)
    for omnibus in (aligned_ranks_test, quade_test):
        base = omnibus(x)
        for other in (omnibus(-x), omnibus(x[:, perm])):
            assert other.statistic == pytest.approx(base.statistic, rel=1e-9, abs=1e-12)
            assert other.pvalue == pytest.approx(base.pvalue, rel=1e-9, abs=1e-15)
    for posthoc in (aligned_ranks_posthoc, quade_posthoc):
        base = posthoc(x).pvalue
        np.testing.assert_allclose(posthoc(x[:, perm]).pvalue, base[np.ix_(perm, perm)])


def test_aligned_ranks_all_tied_has_no_evidence():
    res = aligned_ranks_test(np.full((3, 4), 0.5))
    assert (res.statistic, res.pvalue) == (0.0, 1.0)


def test_complete_table_omnibus_tests_refuse_nan():
    x = np.array([[0.5, np.nan, 0.7], [0.4, 0.6, 0.2], [0.3, 0.1, 0.9]])
    for name in ("friedman", "aligned-ranks", "quade"):
        with pytest.raises(CdplotInputError, match="complete table.*[Ss]killings"):
            OMNIBUS_TESTS[name](x)

"""Bayesian sign, signed-rank and correlated t tests, and compare(test="bayes-...").

Verified against independent sources:

- baycomp 1.0.3's stored values (``tests/reference/bayes_demsar_table2.json``: SignTest /
  SignedRankTest.probs on Demšar 2006 Table 2, 200000 samples, seeds 1..5): equal exactly
  with the same seed; and the exact (quadrature) sign-test value within Monte Carlo error.
- baycomp in the venv, called live (``SignTest.probs``, ``SignedRankTest.probs``,
  ``CorrelatedTTest.probs``) on the bundled data and on generated pairs: the same
  probabilities exactly with the same ``random_state`` (a shared random stream); within
  Monte Carlo error with different seeds; the correlated t-test (analytic) to 1e-12.

Monte Carlo tolerance: a probability estimated from n draws has standard error
``sqrt(p (1 - p) / n)``; the difference of two independent estimates has
``sqrt(2 p (1 - p) / n)``. Tests allow 4.5 of them (two-sided level about 7e-6 per check)
plus 1e-9.

Consistency only (cdplot against itself): compare()'s matrices equal the two-sample
functions; properties (swap, rope = 0, monotone rope) hold.
"""

from __future__ import annotations

import json
import math
import warnings
from pathlib import Path

import baycomp
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import cdplot
from cdplot.stats import (
    BayesianResult,
    bayes_correlated_t,
    bayes_sign,
    bayes_signed_rank,
)

REFERENCE = Path(__file__).parent / "reference"
Z_TOL = 4.5


def mc_tol(p: float, n: int, independent: int = 2) -> float:
    """Tolerance for |estimate - estimate| from ``independent`` Monte Carlo estimates."""
    p = min(max(p, 1.0 / n), 1.0 - 1.0 / n)
    return Z_TOL * math.sqrt(independent * p * (1.0 - p) / n) + 1e-9


def probs3(res: BayesianResult) -> tuple[float, float, float]:
    return (res.left, res.rope, res.right)


def baycomp3(test, x, y, rope, **kw):
    """baycomp's answer as (left, rope, right); with rope = 0 it returns (left, right)."""
    values = test.probs(np.asarray(x, float), np.asarray(y, float), rope, **kw)
    if rope == 0:
        return (float(values[0]), 0.0, float(values[1]))
    return tuple(float(v) for v in values)


@pytest.fixture(scope="module")
def reference():
    return json.loads((REFERENCE / "bayes_demsar_table2.json").read_text())["pairs"][0]


@pytest.fixture(scope="module")
def table2():
    import pandas as pd

    return pd.read_csv(REFERENCE / "demsar_table2.csv", index_col=0)


# --------------------------------------------------------------------------- stored baycomp values


def test_signed_rank_equals_stored_baycomp_per_seed(reference, table2):
    x, y = table2[reference["x"]], table2[reference["y"]]
    per_seed = reference["signed_rank"]["per_seed"]
    for seed, expected in zip(reference["seeds"], per_seed, strict=True):
        res = bayes_signed_rank(x, y, rope=0.01, nsamples=200_000, random_state=seed)
        assert probs3(res) == pytest.approx(expected, abs=1e-12)  # baycomp 1.0.3, same seed


def test_sign_equals_stored_baycomp_per_seed(reference, table2):
    x, y = table2[reference["x"]], table2[reference["y"]]
    for seed, expected in zip(reference["seeds"], reference["sign"]["per_seed"], strict=True):
        res = bayes_sign(x, y, rope=0.01, nsamples=200_000, random_state=seed)
        assert probs3(res) == pytest.approx(expected, abs=1e-12)  # baycomp 1.0.3, same seed


def test_sign_within_mc_error_of_exact_value(reference, table2):
    # exact: quadrature of P(each Dirichlet(alpha) component is the largest), in the JSON
    x, y = table2[reference["x"]], table2[reference["y"]]
    exact = reference["sign"]["exact"]
    res = bayes_sign(x, y, rope=0.01, nsamples=50_000, random_state=2024)
    for got, want in zip(probs3(res), exact, strict=True):
        assert abs(got - want) <= mc_tol(want, 50_000, independent=1)


def test_signed_rank_within_mc_error_of_stored_mean(reference, table2):
    x, y = table2[reference["x"]], table2[reference["y"]]
    mean = reference["signed_rank"]["mean"]  # 5 x 200000 baycomp draws
    se_mean = reference["signed_rank"]["mc_se_between_seeds"]  # the stored mean's own error
    res = bayes_signed_rank(x, y, rope=0.01, nsamples=50_000, random_state=777)
    for got, want, se in zip(probs3(res), mean, se_mean, strict=True):
        assert abs(got - want) <= mc_tol(want, 50_000, independent=1) + Z_TOL * se


# --------------------------------------------------------------------------- live baycomp


def _pairs_bundled():
    ben = cdplot.datasets.load("benavoli2016") / 100.0
    dem = cdplot.datasets.load("demsar2006")
    return [
        (ben["C2"], ben["C4"]),
        (ben["C1"], ben["C5"]),  # many ties (J48 and J48 graft)
        (ben["C3"], ben["C7"]),
        (dem["C4.5"], dem["C4.5+m+cf"]),
        (dem["C4.5+cf"], dem["C4.5+m"]),
    ]


@pytest.mark.parametrize("rope", [0.0, 0.005, 0.01])
@pytest.mark.parametrize("case", range(5))
def test_same_stream_equals_baycomp_bundled(case, rope):
    x, y = _pairs_bundled()[case]
    for ours, theirs in (
        (bayes_signed_rank, baycomp.SignedRankTest),
        (bayes_sign, baycomp.SignTest),
    ):
        got = probs3(ours(x, y, rope, nsamples=20_000, random_state=11))
        want = baycomp3(theirs, x, y, rope, nsamples=20_000, random_state=11)
        assert got == pytest.approx(want, abs=1e-12)


def _generated_pairs():
    rng = np.random.default_rng(42)
    cases = []
    for n, shift in ((5, 0.0), (12, 0.01), (30, -0.02), (60, 0.005)):
        x = rng.uniform(0.6, 0.9, n)
        y = x + shift + rng.normal(0, 0.02, n)
        cases.append((x, np.round(y, 3)))
    x = np.round(rng.uniform(0.6, 0.9, 20), 2)
    y = x.copy()
    y[:6] += 0.01  # exact rope-boundary differences and zero differences (ties)
    cases.append((x, y))
    return cases


@pytest.mark.parametrize("rope", [0.0, 0.01, 0.02])
@pytest.mark.parametrize("case", range(5))
def test_same_stream_equals_baycomp_generated(case, rope):
    x, y = _generated_pairs()[case]
    for ours, theirs in (
        (bayes_signed_rank, baycomp.SignedRankTest),
        (bayes_sign, baycomp.SignTest),
    ):
        got = probs3(ours(x, y, rope, nsamples=10_000, random_state=5))
        want = baycomp3(theirs, x, y, rope, nsamples=10_000, random_state=5)
        assert got == pytest.approx(want, abs=1e-12)


@pytest.mark.parametrize("case", range(5))
def test_different_streams_agree_within_mc_error(case):
    x, y = _generated_pairs()[case]
    n = 20_000
    for ours, theirs in (
        (bayes_signed_rank, baycomp.SignedRankTest),
        (bayes_sign, baycomp.SignTest),
    ):
        got = probs3(ours(x, y, 0.01, nsamples=n, random_state=101))
        want = baycomp3(theirs, x, y, 0.01, nsamples=n, random_state=202)
        for g, w in zip(got, want, strict=True):
            assert abs(g - w) <= mc_tol(w, n)


@pytest.mark.parametrize("rope", [0.0, 0.01, 0.05])
@pytest.mark.parametrize("runs", [1, 2, 5])
def test_correlated_t_equals_baycomp(rope, runs):
    rng = np.random.default_rng(runs)
    n = 10 * runs
    x = rng.normal(0.8, 0.02, n)
    y = x + rng.normal(0.01, 0.02, n)
    nfolds = n / runs
    got = bayes_correlated_t(x, y, rope, test_train_ratio=1.0 / (nfolds - 1))
    want = baycomp3(baycomp.CorrelatedTTest, x, y, rope, runs=runs)
    assert probs3(got) == pytest.approx(want, rel=1e-12, abs=1e-14)
    assert got.df == n - 1


def test_correlated_t_zero_variance_as_baycomp():
    x = np.full(10, 0.8)
    for shift, rope in ((0.0, 0.0), (0.02, 0.0), (0.02, 0.01), (0.005, 0.01), (-0.02, 0.01)):
        got = bayes_correlated_t(x, x + shift, rope, test_train_ratio=1 / 9)
        want = baycomp3(baycomp.CorrelatedTTest, x, x + shift, rope)
        assert probs3(got) == pytest.approx(want, abs=1e-12)


# --------------------------------------------------------------------------- compare()


@pytest.mark.parametrize("test", ["bayes-signed-rank", "bayes-sign"])
def test_compare_matrices_equal_baycomp(test):
    data = cdplot.datasets.load("benavoli2016") / 100.0
    res = cdplot.compare(data, test=test, rope=0.01, nsamples=4000, random_state=3)
    other = baycomp.SignedRankTest if test == "bayes-signed-rank" else baycomp.SignTest
    for a, b in (("C2", "C4"), ("C1", "C7"), ("C6", "C3")):
        # pair (first, second) in input order is the two-sample test with x = second,
        # y = first: P(first practically better) is baycomp's right
        first, second = sorted((a, b), key=res.algorithms.index)
        left, middle, right = baycomp3(
            other, data[second], data[first], 0.01, nsamples=4000, random_state=3
        )
        assert res.posterior_better.loc[first, second] == pytest.approx(right, abs=1e-12)
        assert res.posterior_worse.loc[first, second] == pytest.approx(left, abs=1e-12)
        assert res.posterior_better.loc[second, first] == pytest.approx(left, abs=1e-12)
        assert res.posterior_equivalent.loc[a, b] == pytest.approx(middle, abs=1e-12)


def test_compare_decisions_and_groups():
    data = cdplot.datasets.load("benavoli2016") / 100.0
    res = cdplot.compare(data, test="bayes-signed-rank", rope=0.01, nsamples=5000, random_state=0)
    better, eq = res.posterior_better.to_numpy(), res.posterior_equivalent.to_numpy()
    dec = res.decisions.to_numpy()
    k = len(res.algorithms)
    for i in range(k):
        for j in range(k):
            if i == j:
                assert dec[i, j] == ""
                continue
            if better[i, j] >= 0.95:
                assert dec[i, j] == "A better"
            elif better[j, i] >= 0.95:
                assert dec[i, j] == "B better"
            elif eq[i, j] >= 0.95:
                assert dec[i, j] == "equivalent"
            else:
                assert dec[i, j] == "undecided"
            assert bool(res.significant.iloc[i, j]) == (dec[i, j] in ("A better", "B better"))
    np.testing.assert_allclose(better + eq + better.T, np.where(np.eye(k), np.nan, 1.0))
    # no group holds a pair decided different
    for group in res.groups:
        for a in group:
            for b in group:
                assert not res.significant.loc[a, b]
    frame = res.to_frame()
    assert {"p_better", "p_equivalent", "p_worse", "decision"} <= set(frame.columns)
    # a Bayesian comparison has no p-values (CHANGELOG: "Centre: results by kind")
    with pytest.raises(AttributeError, match="read its posterior probabilities"):
        res.pvalues  # noqa: B018
    assert not hasattr(res, "adjusted_pvalues") and not hasattr(res, "critical_difference")
    assert res.test == "bayes-signed-rank" and res.correction == "none" and res.rope == 0.01


def test_compare_threshold_and_control():
    data = cdplot.datasets.load("demsar2006")
    low = cdplot.compare(data, test="bayes-sign", rope=0.01, threshold=0.6, random_state=1)
    high = cdplot.compare(data, test="bayes-sign", rope=0.01, threshold=0.99, random_state=1)
    assert (low.decisions != "undecided").to_numpy().sum() > (
        high.decisions != "undecided"
    ).to_numpy().sum()
    ctl = cdplot.compare(data, test="bayes-signed-rank", rope=0.01, control="C4.5", random_state=1)
    assert list(ctl.significant.index) == ["C4.5+m", "C4.5+cf", "C4.5+m+cf"]


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"rope": -0.1}, "rope must be a finite number >= 0"),
        ({"rope": "wide"}, "rope must be a number >= 0"),
        ({"threshold": 0.4}, r"threshold must be in \(0.5, 1\]"),
        ({"nsamples": 0}, "nsamples must be a positive integer"),
        ({"random_state": "x"}, "random_state must be None"),
        ({"correction": "bonferroni"}, "posterior probabilities, not p-values"),
        ({"zero_method": "pratt"}, "unknown option"),
    ],
)
def test_compare_bayes_errors(kwargs, match):
    with pytest.raises(cdplot.CdplotInputError, match=match):
        cdplot.compare(cdplot.datasets.load("demsar2006"), test="bayes-signed-rank", **kwargs)


@pytest.mark.parametrize(
    ("args", "match"),
    [
        (([1, 2], [1, 2, 3]), "same non-zero length"),
        (([[1, 2]], [[1, 2]]), "one-dimensional"),
        (([1, np.nan], [1, 2]), "finite"),
    ],
)
def test_two_sample_errors(args, match):
    for func in (bayes_sign, bayes_signed_rank):
        with pytest.raises(cdplot.CdplotInputError, match=match):
            func(*args)
    with pytest.raises(cdplot.CdplotInputError, match="test_train_ratio"):
        bayes_correlated_t([1, 2, 3], [2, 3, 5], test_train_ratio=0)


def test_aliases_and_labels():
    data = cdplot.datasets.load("demsar2006")
    res = cdplot.compare(data, test="Bayesian_Signed_Rank", nsamples=500, random_state=0)
    assert res.test == "bayes-signed-rank"
    assert res.rope == 0.0
    assert (res.posterior_equivalent.fillna(0) == 0).all().all()


# --------------------------------------------------------------------------- properties

scores = st.lists(
    st.tuples(st.integers(0, 20).map(lambda v: v / 20), st.integers(0, 20).map(lambda v: v / 20)),
    min_size=2,
    max_size=25,
)


@given(scores, st.sampled_from([0.0, 0.05, 0.1]))
def test_swap_swaps_left_and_right_signed_rank(pairs, rope):
    x, y = np.array(pairs).T
    a = bayes_signed_rank(x, y, rope, nsamples=2000, random_state=9)
    b = bayes_signed_rank(y, x, rope, nsamples=2000, random_state=9)
    # same Dirichlet weights, differences negated exactly: the regions swap draw by draw
    assert (a.left, a.rope, a.right) == pytest.approx((b.right, b.rope, b.left), abs=1e-12)


@given(scores, st.sampled_from([0.0, 0.05]))
def test_swap_swaps_left_and_right_sign(pairs, rope):
    x, y = np.array(pairs).T
    n = 4000
    a = bayes_sign(x, y, rope, nsamples=n, random_state=9)
    b = bayes_sign(y, x, rope, nsamples=n, random_state=10)
    # the Dirichlet parameters swap; draws differ, so equal within Monte Carlo error
    assert abs(a.left - b.right) <= mc_tol(a.left, n)
    assert abs(a.right - b.left) <= mc_tol(a.right, n)


@given(scores)
def test_zero_rope_has_no_equivalence_mass(pairs):
    x, y = np.array(pairs).T
    for func in (bayes_sign, bayes_signed_rank):
        res = func(x, y, 0.0, nsamples=1000, random_state=1)
        assert res.rope == 0.0
        assert res.left + res.right == pytest.approx(1.0)


@given(scores, st.floats(0.0, 0.2), st.floats(0.0, 0.2))
def test_larger_rope_never_lowers_p_rope_signed_rank(pairs, r1, r2):
    x, y = np.array(pairs).T
    small, large = sorted((r1, r2))
    a = bayes_signed_rank(x, y, small, nsamples=2000, random_state=4)
    b = bayes_signed_rank(x, y, large, nsamples=2000, random_state=4)
    # shared weights: each draw's rope region only grows, the other two only shrink
    assert b.rope >= a.rope


@given(scores, st.floats(0.0, 0.2), st.floats(0.0, 0.2))
def test_larger_rope_never_lowers_p_rope_sign(pairs, r1, r2):
    x, y = np.array(pairs).T
    small, large = sorted((r1, r2))
    n = 4000
    a = bayes_sign(x, y, small, nsamples=n, random_state=4)
    b = bayes_sign(x, y, large, nsamples=n, random_state=5)
    assert b.rope >= a.rope - mc_tol(a.rope, n)


def test_samples_and_decision():
    d = cdplot.datasets.load("demsar2006")
    res = bayes_signed_rank(d["C4.5"], d["C4.5+m"], 0.01, nsamples=3000, random_state=1)
    assert res.samples.shape == (3000, 3)
    np.testing.assert_allclose(res.samples.sum(axis=1), 1.0)
    winners = np.bincount(np.argmax(res.samples, axis=1), minlength=3) / 3000
    np.testing.assert_allclose(winners, probs3(res))
    assert res.decision(0.6) == "right" and res.decision(0.95) == "undecided"


def test_all_pairs_chunking_does_not_change_results(monkeypatch):
    from cdplot.stats import _bayes

    rng = np.random.default_rng(3)
    data = rng.normal(0.8, 0.03, size=(15, 6))
    full = cdplot.compare(data, test="bayes-signed-rank", rope=0.01, nsamples=3000, random_state=2)
    monkeypatch.setattr(_bayes, "CHUNK_VALUES", 700)
    monkeypatch.setattr(_bayes, "THREADS", 1)
    small = cdplot.compare(data, test="bayes-signed-rank", rope=0.01, nsamples=3000, random_state=2)
    np.testing.assert_allclose(
        small.posterior_better.to_numpy(), full.posterior_better.to_numpy(), atol=1e-12
    )


def test_no_warning_about_few_datasets():
    data = cdplot.datasets.load("demsar2006").iloc[:4]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        cdplot.compare(data, test="bayes-sign", nsamples=500, random_state=0)


def test_all_differences_zero_without_rope_is_even():
    # baycomp leaves this case to rounding; cdplot splits it evenly (documented)
    x = np.array([0.5, 0.7, 0.9])
    for func in (bayes_sign, bayes_signed_rank):
        res = func(x, x.copy(), 0.0, nsamples=1000, random_state=0)
        assert (res.left, res.rope, res.right) == (0.5, 0.0, 0.5)


def test_bayes_note_lists_decisions():
    from cdplot.stats._bayes import bayes_note

    ben = cdplot.datasets.load("benavoli2016")
    res = cdplot.compare(ben, test="bayes-signed-rank", rope=1.0, nsamples=5000, random_state=0)
    note = bayes_note(res)
    frame = res.to_frame()
    for row in frame[frame.decision == "equivalent"].itertuples():
        assert f"{row.algorithm_1} and {row.algorithm_2} (P = {row.p_equivalent:.3f})" in note
    n_undecided = int((frame.decision == "undecided").sum())
    assert f"{n_undecided} of 21 pairs are undecided" in note
    assert "rope = 1," in note and "5000 posterior samples" in note


def test_permuting_algorithms_permutes_the_signed_rank_matrices():
    # shared weights and exact negation: the pair's orientation does not matter
    data = cdplot.datasets.load("benavoli2016") / 100.0
    res = cdplot.compare(data, test="bayes-signed-rank", rope=0.01, nsamples=3000, random_state=8)
    order = ["C7", "C3", "C1", "C6", "C2", "C5", "C4"]
    perm = cdplot.compare(
        data[order], test="bayes-signed-rank", rope=0.01, nsamples=3000, random_state=8
    )
    for field in ("posterior_better", "posterior_equivalent", "decisions"):
        a = getattr(res, field).loc[order, order]
        b = getattr(perm, field).loc[order, order]
        if field == "decisions":
            assert a.equals(b)
        else:
            np.testing.assert_allclose(a.to_numpy(), b.to_numpy(), atol=1e-12)


def _demsar_signed_rank(**options):
    """The Bayesian signed-rank test on Demšar's Table 6 (rope 0.01, seed 1)."""
    return cdplot.compare(
        cdplot.datasets.load("demsar2006"),
        test="bayes-signed-rank",
        rope=0.01,
        random_state=1,
        **options,
    )


def test_bayesian_summary_names_pairs_by_their_labels():
    res = _demsar_signed_rank(labels={"C4.5+m+cf": "tuned"})
    text = " ".join(res.summary().split())
    p = res.posterior_better.loc["C4.5+m+cf", "C4.5"]  # the decided pair's posterior
    assert f"Practically better: tuned over C4.5 (P = {p:.3f})" in text


# ------------------------------------------------ reports of a Bayesian result: posteriors
@pytest.fixture(scope="module")
def bayes_demsar():
    return _demsar_signed_rank()


def test_bayesian_text_report_shows_posteriors_not_pvalues(bayes_demsar):
    res = bayes_demsar
    text = str(res)
    assert "p-value" not in text and "adjusted p" not in text and "alpha" not in text
    assert "rope = 0.01, decisions at posterior probability >= 0.95" in text.splitlines()[0]
    # the cell of row C4.5 and column C4.5+m+cf is P(C4.5+m+cf practically better than C4.5)
    expected = f"{res.posterior_better.loc['C4.5+m+cf', 'C4.5']:.3f}*"
    row = next(line for line in text.splitlines() if line.strip().startswith("C4.5 "))
    assert row.split()[2] == expected
    assert "C4.5+m+cf practically better than C4.5 (P = " in text
    assert "Groups with no pair decided different:" in text


def test_bayesian_control_column_is_the_posterior_of_beating_the_control():
    res = _demsar_signed_rank(control="C4.5")
    md = res.to_markdown()
    for other in ("C4.5+m+cf", "C4.5+m", "C4.5+cf"):
        p = res.posterior_better.loc[other, "C4.5"]
        row = next(r for r in md.splitlines() if r.startswith(f"| {other} |"))
        assert row.split("|")[3].strip().strip("*") == f"{p:.3f}"
    assert "row algorithm is practically better than the control C4.5" in md


def test_bayesian_markdown_latex_html_speak_of_decisions(bayes_demsar):
    res = bayes_demsar
    md, tex, page = res.to_markdown(), res.to_latex(), cdplot.report.to_html(res)
    for report in (md, tex, page):
        assert "adjusted p" not in report and "Significant differences" not in report
    p = res.posterior_better.loc["C4.5+m+cf", "C4.5"]  # the decided pair's posterior
    assert f"- C4.5+m+cf practically better than C4.5 (P = {p:.3f})" in md
    assert r"posterior probability $\geq$ 0.95" in tex
    assert "Average ranks and posterior probabilities" in page
    assert "bayes-equivalent-bar" in page or "Bayesian signed-rank test, rope" in page
    summary = " ".join(res.summary().split())
    assert "no correction for multiple testing at alpha" not in summary

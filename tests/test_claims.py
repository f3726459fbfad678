"""``cdplot.check``: claims answered supported / contradicted / undecided, and refused claims.

Verified by hand (values derived in the comments beside them): the exact one-sided Wilcoxon
signed-rank p-value of n differences of one sign, 2^-n (the null distribution of W+ puts
2^-n on its maximum; R ``wilcox.test(d, alternative = "greater")``); the intersection-union
and Bonferroni p-values of "is best" and "among the top N" built from them; the paired-t
non-inferiority boundary, the lower limit of the 95 % t interval (R ``qt(0.975, 15)`` =
2.131449546); McNemar's score statistic (b - c) / sqrt(b + c), Tango's at margin 0. The R
values are printed by tests/reference/claims/claims_values.R.
Consistency only: the benchmark's non-inferiority verdict flips where Tango's interval of
the result says it should.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

import cdplot
from cdplot import CdplotInputError
from cdplot.io._benchmark import BenchmarkItems
from cdplot.stats import compare_benchmark
from cdplot.stats._claim_grammar import parse_claim

N = 10
#: 2^-10: one-sided exact Wilcoxon p-value of 10 positive differences with distinct sizes
ALL_POSITIVE = 0.5**N


def _clear_winner() -> pd.DataFrame:
    """A beats B and B beats C on all 10 datasets, every difference of a distinct size."""
    i = np.arange(N)
    b = 0.7 + 0.01 * np.sin(1.7 * i)
    return pd.DataFrame({"A": b + 0.05 + 0.001 * i, "B": b, "C": b - 0.05 - 0.001 * i})


def _three_way_tie() -> pd.DataFrame:
    """A, B and C score the same on every dataset; D is below them on all 10."""
    i = np.arange(N)
    a = 0.7 + 0.01 * np.sin(1.7 * i) + 0.05 + 0.001 * i
    return pd.DataFrame({"A": a, "B": a.copy(), "C": a.copy(), "D": a - 0.05 - 0.001 * i})


def _verdict(check, text):
    return next(v for v in check.verdicts if v.claim.text == text)


def test_a_clear_winner_is_supported_as_best_and_the_last_is_contradicted():
    res = cdplot.compare(_clear_winner())  # Wilcoxon signed-rank + Holm
    out = cdplot.check(res, ["A is best", "C is best"])
    best, last = out.verdicts
    # A: the intersection-union p-value max_j p(A > j) = 2^-10 (both rivals lose everywhere)
    assert best.p_support == pytest.approx(ALL_POSITIVE, rel=1e-9)
    # C: Bonferroni over the 2 rivals of min_j p(j > C) = 2 * 2^-10
    assert last.p_contradict == pytest.approx(2 * ALL_POSITIVE, rel=1e-9)
    assert (best.verdict, last.verdict) == ("supported", "contradicted")
    assert best.evidence["best_set"] == ("A",) and best.evidence["rank_interval"] == (1, 1)
    assert out.exit_code == 1


def test_a_three_way_tie_for_first_leaves_best_undecided():
    res = cdplot.compare(_three_way_tie())
    out = cdplot.check(res, ["A is best", "D among the top 3", "A among the top 3"])
    best, d_top, a_top = out.verdicts
    # A against B and C: all differences 0, two-sided p = 1, so p(A > B) = 1 - 1/2 = 0.5
    assert best.p_support == pytest.approx(0.5)
    assert best.p_contradict == 1.0  # 3 * min(0.5, 0.5, 1 - 2^-10), capped at 1
    assert best.verdict == "undecided"
    assert set(best.evidence["best_set"]) == {"A", "B", "C"}
    # D below the 3 others everywhere: (k - r) * q_(r) = 1 * 2^-10
    assert d_top.p_contradict == pytest.approx(ALL_POSITIVE, rel=1e-9)
    assert d_top.verdict == "contradicted"
    # A above D everywhere: r * p_(k - r) = 3 * p(A > D) = 3 * 2^-10
    assert a_top.p_support == pytest.approx(3 * ALL_POSITIVE, rel=1e-9)
    assert a_top.verdict == "supported"
    assert out.exit_code == 1


def _margin_table() -> pd.DataFrame:
    """B - A is -0.03 on 8 datasets and +0.01 on 8: mean -0.01, SD 0.02 * sqrt(16/15)."""
    a = 0.8 + 0.01 * np.arange(16)
    d = np.array([-0.03, 0.01] * 8)
    return pd.DataFrame({"A": a, "B": a + d})


#: the lower limit of the 95 % paired-t interval of B - A: -0.01 - qt(0.975, 15) * SD / 4,
#: R qt(0.975, 15) = 2.131449546; a lone claim is supported exactly when the margin
#: exceeds its negative (Holm over its 2 one-sided hypotheses: p <= 0.025)
T_LOW = -0.01 - 2.131449546 * 0.02 * math.sqrt(16 / 15) / 4


@pytest.mark.parametrize(
    ("margin", "verdict"), [(-T_LOW + 1e-4, "supported"), (-T_LOW - 1e-4, "undecided")]
)
def test_a_non_inferiority_margin_just_met_and_just_missed(margin, verdict):
    res = cdplot.compare(_margin_table(), test="paired-t")
    (v,) = cdplot.check(res, [f"B not worse than A by {margin}"]).verdicts
    assert v.verdict == verdict
    assert v.test == "t-shifted"
    assert v.evidence["low"] == pytest.approx(T_LOW, abs=1e-9)  # the same t interval
    assert v.adjusted_support == pytest.approx(2 * v.p_support)


def test_a_margin_missed_by_far_is_contradicted():
    table = _margin_table()
    table["B"] -= 0.05  # mean B - A -0.06, 95 % interval -0.071 to -0.049
    res = cdplot.compare(table, test="paired-t")
    (v,) = cdplot.check(res, ["B not worse than A by 0.01"]).verdicts
    assert v.verdict == "contradicted" and v.evidence["high"] < -0.01


def _binary_items(b: int, c: int, both: int, neither: int) -> BenchmarkItems:
    """Two models' 0/1 items: b solved by m1 only, c by m2 only."""
    rows = [[1, 0]] * b + [[0, 1]] * c + [[1, 1]] * both + [[0, 0]] * neither
    x = np.array(rows, dtype=float)
    return BenchmarkItems(("m1", "m2"), tuple(f"q{i}" for i in range(len(x))), x, True)


def test_tango_at_margin_zero_is_mcnemars_score_test():
    res = compare_benchmark(_binary_items(30, 10, 40, 20))
    (v,) = cdplot.check(res, ["m1 not worse than m2 by 0"]).verdicts
    # Tango's statistic at 0 is McNemar's score z = (b - c) / sqrt(b + c) = 20 / sqrt(40)
    z = 20 / math.sqrt(40)
    assert v.test == "tango"
    assert v.p_support == pytest.approx(0.5 * math.erfc(z / math.sqrt(2)), rel=1e-9)


def test_benchmark_non_inferiority_flips_at_the_tango_interval():
    res = compare_benchmark(_binary_items(12, 20, 50, 18))  # m1 solves 8 fewer of 100
    row = res.differences.iloc[0]  # m2 - m1, the better mean first, Tango's 95 % interval
    assert (row.model_1, row.model_2, row.difference) == ("m2", "m1", pytest.approx(0.08))
    lower_m1 = -float(row.high)  # the lower limit of m1 - m2
    met = cdplot.check(res, [f"m1 not worse than m2 by {-lower_m1 + 1e-6}"]).verdicts[0]
    missed = cdplot.check(res, [f"m1 not worse than m2 by {-lower_m1 - 1e-6}"]).verdicts[0]
    assert (met.verdict, missed.verdict) == ("supported", "undecided")


def test_better_than_on_a_benchmark_uses_its_exact_mcnemar_p_value():
    res = compare_benchmark(_binary_items(9, 1, 5, 0))
    (v,) = cdplot.check(res, ["m1 better than m2"]).verdicts
    # R binom.test(9, 10): two-sided 0.02148438; one-sided in m1's favour its half
    assert v.p_support == pytest.approx(0.02148438 / 2, abs=1e-8)
    assert v.verdict == "supported"


def test_claims_of_a_family_are_adjusted_together():
    res = cdplot.compare(_clear_winner())
    alone = cdplot.check(res, ["A better than B"]).verdicts[0]
    together = cdplot.check(res, ["A better than B", "B better than C", "A is best"]).verdicts[0]
    assert together.p_support == alone.p_support
    assert together.adjusted_support > alone.adjusted_support  # Holm over 6, not 2


def test_data_are_compared_first_and_the_frame_has_one_row_per_claim():
    out = cdplot.check(_clear_winner(), ["A better than C"], test="sign")
    assert out.result.test == "sign" and out.supported
    frame = out.to_frame()
    assert list(frame["claim"]) == ["A better than C"]
    assert frame.loc[0, "verdict"] == "supported"


def test_a_lower_is_better_table_turns_the_claims_around():
    errors = _clear_winner()  # read as errors: C's are the lowest everywhere
    out = cdplot.check(errors, ["C is best", "A is best"], higher_is_better=False)
    assert [v.verdict for v in out.verdicts] == ["supported", "contradicted"]


def test_the_text_and_markdown_name_the_verdicts_and_the_family():
    out = cdplot.check(cdplot.compare(_clear_winner()), ["A is best", "B better than A"])
    text, md = str(out), out.to_markdown()
    assert "SUPPORTED    A is best" in text and "CONTRADICTED B better than A" in text
    assert "Holm's procedure over all 4 p-values" in text
    assert md.startswith("### cdplot check: a claim is contradicted")
    assert "| A is best | ✅ supported |" in md


# --------------------------------------------------------------------------- refusals


def test_an_unknown_model_is_refused_with_the_nearest_names():
    res = cdplot.compare(_clear_winner())
    with pytest.raises(CdplotInputError, match=r"names 'Bee', which is not a model.*'B'"):
        cdplot.check(res, ["A better than Bee"])


def test_an_unreadable_claim_is_refused_with_the_grammar():
    with pytest.raises(CdplotInputError, match=r"cannot read the claim 'A beats B'.*NAME is best"):
        parse_claim("A beats B", ["A", "B"])


def test_a_negative_margin_is_refused():
    with pytest.raises(CdplotInputError, match=r"margin of the claim .* is negative"):
        parse_claim("A not worse than B by -0.01", ["A", "B"])


@pytest.mark.parametrize(
    ("claim", "message"),
    [
        ("A among the top 3", r"N must be from 1 to 2"),
        ("A among the top two", r"must be a whole number"),
        ("A better than A", r"compares 'A' with itself"),
        ("A not worse than B by much", r"the margin 'much' is not a number"),
    ],
)
def test_other_bad_claims_are_refused(claim, message):
    with pytest.raises(CdplotInputError, match=message):
        parse_claim(claim, ["A", "B", "C"])


def test_names_with_keywords_are_quoted_and_labels_and_case_are_accepted():
    names = ["better than X", "Y"]
    claim = parse_claim("'better than X' better than y", names)
    assert (claim.subject, claim.other) == ("better than X", "Y")
    claim = parse_claim("Forest IS THE BEST", ["rf", "svm"], {"rf": "Forest"})
    assert (claim.kind, claim.subject, claim.top) == ("best", "rf", 1)


def test_a_bayesian_comparison_and_empty_claims_are_refused():
    bayes = cdplot.compare(_clear_winner(), test="bayes-sign", rope=0.01, random_state=0)
    with pytest.raises(CdplotInputError, match=r"posterior probabilities"):
        cdplot.check(bayes, ["A is best"])
    with pytest.raises(CdplotInputError, match=r"claims= is empty"):
        cdplot.check(cdplot.compare(_clear_winner()), [])
    with pytest.raises(CdplotInputError, match=r"options test of compare"):
        cdplot.check(cdplot.compare(_clear_winner()), ["A is best"], test="sign")


def test_a_claim_object_naming_another_comparisons_model_is_refused():
    from cdplot.stats._claim_grammar import Claim

    res = cdplot.compare(_clear_winner())
    with pytest.raises(CdplotInputError, match=r"names 'Z', which is not a model"):
        cdplot.check(res, [Claim("Z is best", "best", "Z", top=1)])


def test_differences_without_spread_decide_at_the_limit_and_one_dataset_does_not():
    from cdplot.stats._claims import _constant

    assert _constant(0.02) == (0.0, 1.0) and _constant(-0.02) == (1.0, 0.0)
    assert _constant(0.0) == (1.0, 1.0)


def test_a_margin_on_errors_bounds_how_much_higher_the_error_may_be():
    rng = np.random.default_rng(5)
    a = 0.2 + 0.01 * np.arange(20)
    b = a + 0.005 + rng.normal(0, 0.001, 20)  # B's error is higher by about 0.005
    res = cdplot.compare(pd.DataFrame({"A": a, "B": b}), test="paired-t", higher_is_better=False)
    wide, narrow = cdplot.check(
        res, ["B not worse than A by 0.01", "B not worse than A by 0.001"]
    ).verdicts
    assert (wide.verdict, narrow.verdict) == ("supported", "contradicted")

"""Statistics and option checks, and the messages spelled for the command line.

Each test failed on 9c73ebe. Reference values come from scipy (named beside each value).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import cdplot
from cdplot._errors import cli_spelling
from cdplot.stats import (
    bayes_correlated_t,
    bayes_sign,
    bayes_signed_rank,
    corrected_resampled_t,
    mcnemar,
)

X = [0.80, 0.82, 0.79, 0.81, 0.83, 0.80, 0.78, 0.82, 0.81, 0.80]
Y = [0.83, 0.84, 0.80, 0.84, 0.85, 0.82, 0.80, 0.85, 0.82, 0.83]


# --------------------------------------------------------------- exact McNemar, huge counts
@pytest.mark.parametrize(
    ("b", "c", "alternative"),
    [
        (5_000_000, 5_000_000, "greater"),  # scipy.special.bdtr gives 0.50148 here
        (5_000_000, 5_000_000, "less"),
        (5_001_000, 4_999_000, "greater"),
        (4_999_000, 5_001_000, "two-sided"),
        (700_000, 699_000, "two-sided"),
    ],
)
def test_exact_mcnemar_equals_scipy_binomtest_for_huge_counts(b, c, alternative):
    # reference: scipy.stats.binomtest(b, b + c, p=0.5, alternative=alternative).pvalue
    expected = stats.binomtest(b, b + c, 0.5, alternative=alternative).pvalue
    got = mcnemar(b, c, method="exact", alternative=alternative).pvalue
    assert got == pytest.approx(expected, rel=1e-10, abs=1e-300)


def test_exact_mcnemar_of_five_million_each_way_is_0_50013():
    # scipy.stats.binomtest(5_000_000, 10_000_000, alternative="greater").pvalue = 0.50013
    p = mcnemar(5_000_000, 5_000_000, method="exact", alternative="greater").pvalue
    assert round(p, 5) == 0.50013


# ---------------------------------------------------------------- correlated t, huge scores
def test_correlated_t_huge_scores_are_scaled_not_nan():
    res = bayes_correlated_t([1e308, -1e308, 1e308], [-1e308, 1e308, 1e308], test_train_ratio=0.25)
    # the same data divided by 1e308 (the posterior does not depend on the unit)
    ref = bayes_correlated_t([1.0, -1.0, 1.0], [-1.0, 1.0, 1.0], test_train_ratio=0.25)
    assert not any(math.isnan(v) for v in (res.left, res.rope, res.right))
    assert (res.left, res.rope, res.right) == pytest.approx((ref.left, ref.rope, ref.right))


def test_scaled_posterior_equals_scipy_student_t():
    # posterior of the mean difference: Student t, df n-1, loc mean(d),
    # scale sqrt(var(d) (1/n + r)) (Corani & Benavoli 2015); scipy.stats.t.sf(rope, ...)
    x = np.array(X) * 1e306
    y = np.array(Y) * 1e306
    res = bayes_correlated_t(x, y, rope=0.01 * 1e306, test_train_ratio=1 / 9)
    d = (np.array(Y) - np.array(X)) * 1.0
    scale = math.sqrt(np.var(d, ddof=1) * (1 / 10 + 1 / 9))
    right = stats.t.sf(0.01, 9, loc=d.mean(), scale=scale)
    left = stats.t.cdf(-0.01, 9, loc=d.mean(), scale=scale)
    assert res.right == pytest.approx(right, rel=1e-9)
    assert res.left == pytest.approx(left, rel=1e-9, abs=1e-15)


# -------------------------------------------------------------------------- numeric options
@pytest.mark.parametrize(
    "call",
    [
        lambda: bayes_sign(X, Y, rope=True, random_state=1),
        lambda: bayes_sign(X, Y, rope="0.01", random_state=1),
        lambda: bayes_signed_rank(X, Y, rope=True, random_state=1, nsamples=100),
        lambda: bayes_correlated_t(X, Y, test_train_ratio="0.1"),
        lambda: bayes_correlated_t(X, Y, test_train_ratio=True),
        lambda: bayes_correlated_t(X, Y, rope=np.True_, test_train_ratio=0.1),
        lambda: corrected_resampled_t(X, Y, "0.1"),
        lambda: corrected_resampled_t(X, Y, True),
    ],
)
def test_numeric_options_refuse_bools_and_strings(call):
    with pytest.raises(cdplot.CdplotInputError, match="not a string or a bool"):
        call()


def test_numeric_options_accept_numpy_and_int_numbers():
    assert bayes_correlated_t(X, Y, test_train_ratio=np.float32(0.25)).right > 0.5
    assert corrected_resampled_t(X, Y, 1).df == 9.0


# ---------------------------------------------------------------------- ResampleModel flags
def test_resample_model_refuses_string_booleans():
    table = pd.DataFrame({"A": [0.9, 0.8, 0.7], "B": [0.8, 0.9, 0.6]}, index=["d1", "d2", "d3"])
    for option in ("higher_is_better", "replace"):
        with pytest.raises(cdplot.CdplotInputError, match=f"{option} must be True or False"):
            cdplot.ResampleModel(table, shift={"A": 0.1}, **{option: "False"})
    model = cdplot.ResampleModel(table, higher_is_better=np.False_, replace=False)
    assert model.higher_is_better is False and model.replace is False


# --------------------------------------------------------------------------- messages
def test_messages_speak_the_cli_inside_the_cli():
    from cdplot.stats._bayes import seed_of

    with cli_spelling():
        with pytest.raises(cdplot.CdplotInputError, match="^--seed must be an integer"):
            seed_of(-1)
        with pytest.raises(cdplot.CdplotInputError, match="^--rope must be"):
            bayes_sign(X, Y, rope=-1.0)
    with pytest.raises(cdplot.CdplotInputError, match="^random_state must be an integer"):
        seed_of(-1)


# -------------------------------------------------------------------------- simulation size
def test_simulate_refuses_unbounded_work_up_front():
    import tracemalloc

    from cdplot.simulation._runner import MAX_REPLICATES, _most_datasets

    model = cdplot.NormalModel(means={"A": 0.0, "B": 1.0, "C": 2.0})
    tracemalloc.start()
    with pytest.raises(cdplot.CdplotInputError, match="SeedSequence") as info:
        cdplot.simulate(model, n_replicates=10**12, random_state=1)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert f"{MAX_REPLICATES:,}" in str(info.value)
    assert peak < 50 * 2**20  # refused before anything is allocated
    big = cdplot.NormalModel(means={"A": 0.0, "B": 1.0, "C": 2.0}, n_datasets=10**6)
    with pytest.raises(cdplot.CdplotInputError, match="at most 109,383 datasets with 3"):
        cdplot.simulate(big, n_replicates=10, random_state=1)
    # within the bound, a run goes through
    edge = cdplot.NormalModel(means={"A": 0.0, "B": 1.0}, n_datasets=_most_datasets(2))
    res = cdplot.simulate(edge, procedures=[("sign", "none")], n_replicates=1, random_state=1)
    assert res.n_replicates == 1

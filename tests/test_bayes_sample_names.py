"""Argument names: the Bayesian two-sample tests take ``a, b``; ``x=``/``y=`` are aliases.

The aliases must warn (DeprecationWarning) and give exactly the numbers of the new names;
the numbers themselves are pinned against baycomp in tests/test_bayes*.py.
"""

from __future__ import annotations

import inspect

import numpy as np
import pytest

import cdplot
from cdplot.stats import bayes_correlated_t, bayes_sign, bayes_signed_rank

A = [0.80, 0.82, 0.79, 0.81, 0.83, 0.80, 0.78, 0.82, 0.81, 0.80]
B = [0.83, 0.84, 0.80, 0.84, 0.85, 0.82, 0.80, 0.85, 0.82, 0.83]

CALLS = [
    (bayes_sign, {"rope": 0.01, "random_state": 3, "nsamples": 2000}),
    (bayes_signed_rank, {"rope": 0.01, "random_state": 3, "nsamples": 2000}),
    (bayes_correlated_t, {"rope": 0.01, "test_train_ratio": 1 / 9}),
]


@pytest.mark.parametrize(("func", "options"), CALLS)
def test_samples_are_named_a_b(func, options):
    assert list(inspect.signature(func).parameters)[:2] == ["a", "b"]


@pytest.mark.parametrize(("func", "options"), CALLS)
def test_old_keywords_warn_and_give_same_numbers(func, options):
    new = func(a=A, b=B, **options)
    with pytest.warns(DeprecationWarning, match=r"[xy]=\.\.\.\) is deprecated; pass [ab]="):
        old = func(x=A, y=B, **options)
    got = [old.left, old.rope, old.right]
    assert got == [new.left, new.rope, new.right]
    # direction: B beats A on every fold, so ``right`` (b - a > rope) dominates
    assert new.right > new.left


@pytest.mark.parametrize(("func", "options"), CALLS)
def test_old_and_new_keyword_together_is_refused_with_fix(func, options):
    with pytest.raises(cdplot.CdplotInputError, match="pass a= only"):
        func(A, b=B, x=A, **options)


def test_positional_call_unchanged():
    res = bayes_correlated_t(A, B, rope=0.01, test_train_ratio=1 / 9)
    again = bayes_correlated_t(a=A, b=B, rope=0.01, test_train_ratio=1 / 9)
    assert np.isclose(res.right, again.right, rtol=0, atol=0)

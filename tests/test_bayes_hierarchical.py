"""The Bayesian hierarchical test (Corani et al. 2017) sampled by NumPyro."""

from __future__ import annotations

import builtins

import numpy as np
import pytest

from cdplot._errors import CdplotInputError
from cdplot.stats._bayes_hierarchical import (
    SamplerConvergenceError,
    bayes_hierarchical,
    check_folds,
)

pytest.importorskip("numpyro")

#: a small, fast fit (the compiled sampler is shared by every test of this shape); its
#: effective sample size may fall short of the 400 the convergence check asks
FAST = {"nsamples": 800, "warmup": 300, "chains": 4}
SHORT_FIT = pytest.mark.filterwarnings("ignore:the hierarchical model's sampler did not")


def _table(shift: np.ndarray, folds: int = 10, noise: float = 0.02, seed: int = 0):
    """Two datasets x folds tables whose mean differences a - b are ``shift``."""
    rng = np.random.default_rng(seed)
    q = len(shift)
    b = 0.8 + rng.normal(0.0, 0.05, (q, 1)) + rng.normal(0.0, noise, (q, folds))
    a = b + shift[:, None] + rng.normal(0.0, noise, (q, folds))
    return a, b


def test_bad_input_is_named():
    a, b = _table(np.zeros(4))
    with pytest.raises(CdplotInputError, match="at least two folds"):
        check_folds(a[:, :1], b[:, :1])
    with pytest.raises(CdplotInputError, match="same shape"):
        check_folds(a, b[:, :5])
    with pytest.raises(CdplotInputError, match="at least two datasets"):
        check_folds(a[:1], b[:1])
    bad = a.copy()
    bad[1, 2] = np.nan
    with pytest.raises(CdplotInputError, match="finite scores"):
        check_folds(bad, b)
    with pytest.raises(CdplotInputError, match="rope"):
        bayes_hierarchical(a, b, rope=-0.1)
    with pytest.raises(CdplotInputError, match="rope"):
        bayes_hierarchical(a, b, rope="wide")
    with pytest.raises(CdplotInputError, match="runs"):
        bayes_hierarchical(a, b, runs=3)  # 10 folds are not 3 runs
    with pytest.raises(CdplotInputError, match="constant"):
        bayes_hierarchical(a, a)


def test_missing_sampler_names_the_extra(monkeypatch):
    real_import = builtins.__import__

    def no_numpyro(name, *args, **kwargs):
        if name.startswith(("numpyro", "jax")):
            raise ImportError(f"No module named {name!r}")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_numpyro)
    a, b = _table(np.zeros(4))
    with pytest.raises(CdplotInputError, match=r'pip install "cdplot\[bayes\]"'):
        bayes_hierarchical(a, b, **FAST)


@SHORT_FIT
def test_known_differences_are_covered_and_seeded_runs_repeat(tmp_path):
    # eight datasets where a is better than b by 0.03 to 0.06 (noise sd 0.02 per fold)
    shift = np.linspace(0.03, 0.06, 8)
    a, b = _table(shift)
    res = bayes_hierarchical(a, b, rope=0.01, random_state=3, **FAST)
    again = bayes_hierarchical(a, b, rope=0.01, random_state=3, **FAST)
    assert (res.left, res.rope, res.right) == (again.left, again.rope, again.right)
    np.testing.assert_array_equal(res.delta0, again.delta0)
    assert res.left + res.rope + res.right == pytest.approx(1.0)
    assert res.left > 0.9  # a practically better on a new dataset
    lo, hi = res.delta_interval.T
    assert np.mean((lo <= shift) & (shift <= hi)) >= 0.75  # 95% intervals cover the truth
    assert np.all(np.diff(res.delta_interval, axis=1) > 0)
    # shrinkage: the posterior means lie between the raw means and their grand mean
    raw = (a - b).mean(axis=1)
    assert np.std(res.delta_mean) < np.std(raw)
    assert res.samples.shape == (res.nsamples, 3)
    assert res.nsamples == FAST["nsamples"]
    assert np.isfinite(res.rhat) and res.ess > 0 and res.divergences >= 0
    # the simplex plot of a pair reads its region draws as those of the other tests
    from cdplot.plotting import simplex_plot

    ax = simplex_plot(res, names=("a", "b"))
    ax.figure.savefig(tmp_path / "simplex.png")
    assert (tmp_path / "simplex.png").stat().st_size > 0


@SHORT_FIT
def test_swapping_the_algorithms_mirrors_the_probabilities():
    shift = np.linspace(0.03, 0.06, 8)
    a, b = _table(shift)
    res = bayes_hierarchical(b, a, rope=0.01, random_state=3, **FAST)
    assert res.right > 0.9  # b - a is negative: the second algorithm is better
    assert np.all(res.delta_mean < 0)


def test_failed_convergence_warns_or_raises_with_strict():
    a, b = _table(np.linspace(-0.01, 0.01, 8))
    tiny = {"nsamples": 40, "warmup": 5, "chains": 2}
    with pytest.warns(UserWarning, match="did not converge"):
        res = bayes_hierarchical(a, b, random_state=1, **tiny)
    assert not res.converged
    with pytest.raises(SamplerConvergenceError, match="Increase warmup"):
        bayes_hierarchical(a, b, random_state=1, strict=True, **tiny)

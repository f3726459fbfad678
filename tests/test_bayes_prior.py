"""The prior of the Bayesian sign and signed-rank tests as parameters.

References: baycomp (``baycomp.multiple.SignTest`` / ``SignedRankTest`` with ``prior=``,
and ``prior=(strength, place)`` for the sign test), and for a signed-rank pseudo-
observation away from 0 (which baycomp does not expose) the Walsh double sum of
Benavoli et al. (2014) written out below over the same Dirichlet draws.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from baycomp.multiple import SignedRankTest, SignTest

import cdplot
from cdplot.stats import bayes_sign, bayes_signed_rank

DATA = cdplot.datasets.load("demsar2006")
X, Y = DATA["C4.5"].to_numpy(), DATA["C4.5+m"].to_numpy()


@pytest.mark.parametrize(
    ("prior", "place", "baycomp_prior"),
    [
        (1.0, "rope", 1.0),
        (2.0, "left", (2.0, SignTest.LEFT)),
        (0.3, "right", (0.3, SignTest.RIGHT)),
    ],
)
def test_sign_prior_equals_baycomp(prior, place, baycomp_prior):
    kwargs = {"rope": 0.01, "random_state": 3, "nsamples": 20000}
    res = bayes_sign(X, Y, prior=prior, prior_place=place, **kwargs)
    ref = SignTest.probs(X, Y, prior=baycomp_prior, **kwargs)
    assert (res.left, res.rope, res.right) == pytest.approx(ref, abs=1e-12)


@pytest.mark.parametrize("prior", [0.5, 2.0, 0.1])
def test_signed_rank_prior_equals_baycomp(prior):
    res = bayes_signed_rank(X, Y, rope=0.01, random_state=3, prior=prior, nsamples=4000)
    ref = SignedRankTest.probs(X, Y, rope=0.01, prior=prior, random_state=3, nsamples=4000)
    assert (res.left, res.rope, res.right) == pytest.approx(ref, abs=1e-12)


def test_signed_rank_pseudo_observation_away_from_zero():
    z0, prior, nsamples, rope = 0.02, 1.5, 3000, 0.01
    res = bayes_signed_rank(
        X, Y, rope=rope, random_state=5, prior=prior, prior_place=z0, nsamples=nsamples
    )
    d = np.concatenate([[z0], Y - X])
    sums = d[:, None] + d[None, :]
    above = (sums > 2 * rope) + 0.5 * (sums == 2 * rope)
    below = (-sums > 2 * rope) + 0.5 * (-sums == 2 * rope)
    weights = np.ones(d.size)
    weights[0] = prior
    draws = np.random.RandomState(5).dirichlet(weights, nsamples)  # baycomp's draw
    left = np.einsum("si,ij,sj->s", draws, below, draws)
    right = np.einsum("si,ij,sj->s", draws, above, draws)
    probs = np.stack([left, 1 - left - right, right], axis=1)
    expect = np.bincount(probs.argmax(axis=1), minlength=3) / nsamples
    assert (res.left, res.rope, res.right) == pytest.approx(tuple(expect), abs=1e-12)
    moved = bayes_signed_rank(X, Y, rope=rope, random_state=5, prior=prior, nsamples=nsamples)
    assert moved.right != res.right  # the place matters


def test_compare_passes_the_prior_strength():
    kwargs = {"rope": 0.01, "random_state": 2, "nsamples": 5000}
    for test, run in (("bayes-sign", bayes_sign), ("bayes-signed-rank", bayes_signed_rank)):
        res = cdplot.compare(DATA, test=test, prior=3.0, **kwargs)
        # compare's pair (C4.5, C4.5+m): x = C4.5+m, y = C4.5; [C4.5, C4.5+m] is "right"
        pair = run(Y, X, prior=3.0, **kwargs)
        assert res.posterior_better.loc["C4.5", "C4.5+m"] == pytest.approx(pair.right, abs=1e-12)
        assert res.posterior_better.loc["C4.5+m", "C4.5"] == pytest.approx(pair.left, abs=1e-12)
        default = run(Y, X, **kwargs)
        assert default.left != pair.left


@pytest.mark.parametrize(
    ("test", "options", "match"),
    [
        ("bayes-sign", {"prior": 0}, "positive"),
        ("bayes-sign", {"prior_place": "left"}, "unknown option"),
        ("bayes-signed-rank", {"prior": -1}, "positive"),
        ("bayes-signed-rank", {"prior": True}, "positive"),
    ],
)
def test_bad_prior(test, options, match):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(cdplot.CdplotInputError, match=match):
            cdplot.compare(DATA, test=test, nsamples=1000, **options)


def test_bad_place():
    with pytest.raises(cdplot.CdplotInputError, match="prior_place"):
        bayes_sign(X, Y, prior_place="middle")
    with pytest.raises(cdplot.CdplotInputError, match="finite number"):
        bayes_signed_rank(X, Y, prior_place="rope")


def test_cli_prior(capsys):
    from pathlib import Path

    from _helpers import run

    path = Path(cdplot.__file__).parent / "datasets" / "demsar2006.csv"
    code, _, err = run(["compare", path, "--test", "bayes-sign", "--prior", "-2"], capsys)
    assert code != 0 and "--prior" in err and "positive" in err
    code, out, err = run(
        ["compare", path, "--test", "bayes-sign", "--prior", "2", "--nsamples", "500"], capsys
    )
    assert code == 0, err

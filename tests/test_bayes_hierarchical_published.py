"""baycomp's published comparison of naive Bayes and J48, reproduced.

The data: baycomp's ``docs/code/accuracies.txt`` (repository janezd/baycomp, commit
2b2ef604e363efa8fb777347a973e6c13c87d846, MIT licence), the accuracies in percent of NBC and
J48 on 54 data sets x 10 runs of 10-fold cross-validation, bundled as
``tests/reference/bayes_hierarchical/baycomp_nbc_j48.csv`` by ``extract_baycomp_nbc_j48.py``
(see the README there).

The published numbers: baycomp's ``docs/functions.rst`` ("Multiple data sets"; the same at
commits 2b2ef604 and 9e264b8a), with ``rope=1``:

- ``two_on_multiple(nbc, j48, rope=1)`` on the data sets' mean accuracies (the Bayesian
  signed-rank test): ``(0.23014, 0.00674, 0.76312)``; ``docs/classes.rst``:
  ``SignTest.probs(nbc, j48, rope=1)``: ``(0.26344, 0.13722, 0.59934)``;
- the hierarchical model, "nbc and j48 as 54x10 matrices containing 10 scores for each of
  54 data sets": ``(0.0795, 0.0365, 0.884)``. The file holds 100 scores per data set; the
  matrices of 10 are the first run's 10 folds (columns 1-10): the other readings of the
  sentence (all 100 columns with ``runs=10`` or ``runs=1``, each fold's mean over the runs)
  give P(J48 better) of 0.78, 0.75 and 0.74 instead of 0.88.
"""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from cdplot.stats import bayes_sign, bayes_signed_rank

HERE = Path(__file__).parent / "reference" / "bayes_hierarchical"
#: docs/functions.rst: two_on_multiple(nbc, j48, rope=1) on the means (signed-rank test)
SIGNED_RANK = (0.23014, 0.00674, 0.76312)
#: docs/classes.rst: SignTest.probs(nbc, j48, rope=1) on the means
SIGN = (0.26344, 0.13722, 0.59934)
#: docs/functions.rst: two_on_multiple(nbc, j48, rope=1) on the 54 x 10 matrices
HIERARCHICAL = (0.0795, 0.0365, 0.884)
#: the posterior draws behind HIERARCHICAL: its numbers are fractions of 2000 draws
#: (159, 73 and 1768 of 2000; 1000 draws cannot give 0.0795)
HIERARCHICAL_DRAWS = 2000
#: baycomp draws 50,000 samples for the signed-rank and sign tests (its default nsamples)
BAYCOMP_NSAMPLES = 50_000


def _accuracies() -> tuple[np.ndarray, np.ndarray]:
    """NBC's and J48's accuracies: 54 data sets x 10 runs x 10 folds each."""
    table = pd.read_csv(HERE / "baycomp_nbc_j48.csv")
    table = table.sort_values(["row", "run", "fold"])
    nbc = table.nbc.to_numpy().reshape(54, 10, 10)
    j48 = table.j48.to_numpy().reshape(54, 10, 10)
    return nbc, j48


def _monte_carlo_se(p: np.ndarray, draws: float) -> np.ndarray:
    """Standard error of a fraction ``p`` of ``draws`` independent draws."""
    return np.sqrt(p * (1.0 - p) / draws)


def test_the_bundled_file_is_baycomps_54_data_sets_by_100_folds():
    table = pd.read_csv(HERE / "baycomp_nbc_j48.csv")
    assert len(table) == 54 * 100 and table.row.nunique() == 54
    names = table.drop_duplicates("row").dataset.tolist()
    assert names[:3] == ["anneal", "audiology", "cleeland-14"] and names[-1] == "zoo"
    assert names.count("credit") == 2  # the file lists credit twice, with the same scores
    nbc, j48 = _accuracies()
    np.testing.assert_array_equal(nbc[5], nbc[6])
    np.testing.assert_array_equal(j48[5], j48[6])
    # spot values of the file (its first and last numbers of each block)
    assert (nbc[0, 0, 0], nbc[53, 9, 9], j48[0, 0, 0], j48[53, 9, 9]) == (
        94.444,
        100.0,
        96.667,
        90.0,
    )


@pytest.mark.parametrize("seed", [1, 2])
def test_the_means_reproduce_the_published_signed_rank_and_sign_tests(seed):
    nbc, j48 = _accuracies()
    a, b = nbc.mean(axis=(1, 2)), j48.mean(axis=(1, 2))
    for test, published in ((bayes_signed_rank, SIGNED_RANK), (bayes_sign, SIGN)):
        res = test(a, b, 1.0, nsamples=BAYCOMP_NSAMPLES, random_state=seed)
        ours = np.array([res.left, res.rope, res.right])
        # both are fractions of 50,000 independent draws: 4 standard errors of the difference
        se = np.sqrt(2.0) * _monte_carlo_se(np.asarray(published), BAYCOMP_NSAMPLES)
        assert np.all(np.abs(ours - published) <= 4 * se), (test.__name__, ours)


@pytest.mark.slow
def test_the_first_run_reproduces_the_published_hierarchical_probabilities():
    pytest.importorskip("numpyro")
    from numpyro.diagnostics import effective_sample_size

    from cdplot.stats import bayes_hierarchical

    nbc, j48 = _accuracies()
    chains = 4
    with warnings.catch_warnings():  # the check of the fit is below
        warnings.simplefilter("ignore")
        res = bayes_hierarchical(nbc[:, 0], j48[:, 0], 1.0, nsamples=16_000, warmup=2000,
                                 chains=chains, random_state=11)  # fmt: skip
    assert res.divergences == 0 and res.rhat < 1.02, (res.rhat, res.ess)
    ours = np.array([res.left, res.rope, res.right])
    # Monte Carlo error of each probability, a fraction of the draws whose region is the
    # most probable: its standard error from the effective sample size of that indicator
    winner = np.argmax(res.samples, axis=1).reshape(chains, -1)
    indicator = np.stack([winner == k for k in range(3)], axis=-1).astype(float)
    ess = np.asarray(effective_sample_size(indicator), dtype=float)
    assert np.all(ess >= 1000), ess  # ours: a standard error below 0.01
    # baycomp's figures come from 2000 draws; with the same draws-per-effective-draw as
    # this sampler's on the same model, their standard error is that of ess * 2000 / draws
    efficiency = ess / winner.size
    se = np.hypot(
        _monte_carlo_se(ours, ess), _monte_carlo_se(ours, efficiency * HIERARCHICAL_DRAWS)
    )
    assert np.all(np.abs(ours - HIERARCHICAL) <= 3 * se), (ours, 3 * se)

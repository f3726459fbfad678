"""Simulation-based calibration of the Bayesian hierarchical model (Corani et al. 2017).

If the sampler draws from the model's posterior, then for parameters drawn from the prior
and data simulated from the likelihood with them, the rank of each true parameter among
the posterior draws is uniform (Talts, Betancourt, Simpson, Vehtari & Gelman 2018,
"Validating Bayesian inference algorithms with simulation-based calibration",
arXiv:1804.06788, Theorem 1). Checked here:

- the slow test: 200 replicates drawn from the model's prior with fixed bounds (the
  published bounds depend on the data, which a prior for simulation cannot), folds
  simulated with the correlation ``rho`` of cross-validation, all replicates fitted in one
  vectorised call of the sampler the public test uses (``sample_pairs``, one chain each),
  and the ranks of ``delta0``, ``std0``, ``nu``, every ``delta_i`` and every ``sigma_i``
  (``sigma_i`` is integrated out by the sampler: its draws come from its exact conditional
  given each draw of ``delta_i``) among thinned draws tested for uniformity;
- fast checks of the pieces the slow test relies on: the uniformity test rejects ranks
  that are not uniform, the simulated folds have the model's correlation, the draws of
  ``sigma_i`` follow its conditional density (against quadrature), bad fixed bounds are
  refused.

A deliberately broken fit (the likelihood's ``rho`` set to 0, or the prior bound of ``std0``
doubled) fails the slow test's level by orders of magnitude.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy import integrate, stats

from cdplot._errors import CdplotInputError
from cdplot.stats._bayes_hierarchical_model import PRIOR_ALPHA, PRIOR_BETA, sample_pairs

pytest.importorskip("numpyro")

#: replicates (each one table of datasets x folds drawn from the prior)
REPLICATES = 200
DATASETS = 5
FOLDS = 10
#: the correlation of the folds of one 10-fold cross-validation (Nadeau & Bengio 2003)
RHO = 1.0 / FOLDS
#: fixed prior bounds: |delta0| <= 1, std0 <= 1, sigma_i <= 2 (units of the differences)
BOUNDS = (1.0, 1.0, 2.0)
WARMUP = 100
DRAWS = 100
#: every THIN-th draw is kept (NUTS draws are autocorrelated; SBC wants nearly independent
#: ones): 19 draws, ranks 0..19, 20 values in BINS bins of four
THIN = 5
BINS = 5
#: each parameter's uniformity p-value must exceed this (five parameters: a calibrated
#: sampler fails with probability at most 0.005 on a platform whose draws differ); fits
#: with rho = 0 (delta 6e-12) or the bound of std0 doubled (std0 3e-6) fail it
LEVEL = 0.001
SEED = 2018


def _draw_prior(rng: np.random.Generator, n: int, bounds=BOUNDS) -> dict[str, np.ndarray]:
    """``n`` parameter sets from the model's prior with fixed bounds (the module docstring of
    ``_bayes_hierarchical_model``: nu - 1 ~ Gamma(alpha, rate beta), delta_i ~ t(nu,
    delta0, std0), sigma_i ~ U(0, bound))."""
    top, upper_std0, upper_sigma = bounds
    delta0 = rng.uniform(-top, top, n)
    std0 = rng.uniform(0.0, upper_std0, n)
    alpha = rng.uniform(*PRIOR_ALPHA, n)
    beta = rng.uniform(*PRIOR_BETA, n)
    nu = 1.0 + rng.gamma(alpha, 1.0 / beta)
    delta = delta0[:, None] + std0[:, None] * rng.standard_t(nu[:, None], (n, DATASETS))
    sigma = rng.uniform(0.0, upper_sigma, (n, DATASETS))
    return {"delta0": delta0, "std0": std0, "nu": nu, "delta": delta, "sigma": sigma}


def _simulate_folds(rng: np.random.Generator, truth: dict, rho: float) -> np.ndarray:
    """Fold differences ``x_i ~ MVN(delta_i 1, sigma_i^2 ((1 - rho) I + rho 1 1'))``: a
    shared normal per dataset carries the correlation ``rho`` of every two folds."""
    n, q = truth["delta"].shape
    shared = rng.standard_normal((n, q, 1))
    own = rng.standard_normal((n, q, FOLDS))
    noise = np.sqrt(rho) * shared + np.sqrt(1.0 - rho) * own
    return truth["delta"][..., None] + truth["sigma"][..., None] * noise


def _sigma_draws(
    rng: np.random.Generator, x: np.ndarray, delta: np.ndarray, rho: float, top: float
) -> np.ndarray:
    """Draws of every ``sigma_i`` from its conditional given a draw of ``delta_i``.

    ``x`` is ``replicates x datasets x folds``, ``delta`` ``replicates x draws x datasets``.
    With ``Q`` the quadratic form of the likelihood, p(sigma | delta, x) is proportional to
    ``sigma^-n exp(-Q / (2 sigma^2))`` on ``(0, top)``: ``1 / sigma^2`` is Gamma with shape
    ``(n - 1) / 2`` and rate ``Q / 2``, truncated below at ``1 / top^2``.
    """
    n = x.shape[-1]
    mean = x.mean(axis=-1)[:, None, :]
    ss = ((x - x.mean(axis=-1, keepdims=True)) ** 2).sum(axis=-1)[:, None, :]
    quad = ss / (1.0 - rho) + n * (mean - delta) ** 2 / (1.0 + (n - 1.0) * rho)
    shape, scale = 0.5 * (n - 1.0), 2.0 / quad
    tail = stats.gamma.sf(1.0 / top**2, shape, scale=scale)
    precision = stats.gamma.isf(rng.uniform(size=quad.shape) * tail, shape, scale=scale)
    return 1.0 / np.sqrt(precision)


def _uniformity_pvalue(ranks: np.ndarray, values: int, bins: int = BINS) -> float:
    """P-value of "every rank is uniform on 0 .. values - 1": Pearson's chi-square test of
    the binned ranks.

    ``ranks`` is ``replicates x m``: one rank per replicate (``m = 1``; the replicates are
    independent: the plain chi-square test with ``bins - 1`` degrees of freedom), or one per
    dataset, which may depend on each other within a replicate: the statistic is divided
    by the first-order design effect of Rao & Scott (1981, "The analysis of categorical
    data from complex sample surveys", JASA 76, 221-230): the mean
    eigenvalue of ``S0^-1 S``, ``S`` the covariance of one replicate's bin counts estimated
    across replicates (about the counts' means under uniformity, the last bin dropped),
    ``S0`` their covariance were the ``m`` ranks independent; never below 1.
    """
    if values % bins:
        raise ValueError(f"{values} rank values do not fill {bins} bins evenly")
    n, m = ranks.shape
    counts = np.stack([np.bincount(r, minlength=bins) for r in ranks * bins // values])
    expected = n * m / bins
    chi2 = float(((counts.sum(axis=0) - expected) ** 2).sum() / expected)
    deviation = counts[:, :-1] - m / bins
    observed = deviation.T @ deviation / n
    share = 1.0 / bins
    independent = m * (share * np.eye(bins - 1) - share * share)
    effect = np.trace(np.linalg.solve(independent, observed)) / (bins - 1)
    chi2 /= max(effect, 1.0)  # exactly 1 with one rank per replicate
    return float(stats.chi2.sf(chi2, bins - 1))


def calibration_pvalues(
    rho_fit: float = RHO, bounds_fit: tuple[float, float, float] = BOUNDS, seed: int = SEED
) -> dict[str, float]:
    """The uniformity p-value of each parameter's ranks: replicates drawn from the prior
    with :data:`BOUNDS` and folds simulated with :data:`RHO`, fitted with ``rho_fit`` and
    ``bounds_fit`` (the same values for a calibration; others to see the check fail)."""
    rng = np.random.default_rng(seed)
    truth = _draw_prior(rng, REPLICATES)
    x = _simulate_folds(rng, truth, RHO)
    fit = sample_pairs(
        x,
        rho_fit,
        chains=1,
        warmup=WARMUP,
        draws=DRAWS,
        seed=seed,
        bounds=np.tile(bounds_fit, (REPLICATES, 1)),
    )
    kept = slice(THIN, None, THIN)
    draws = {name: fit[name][:, 0, kept] for name in ("delta0", "std0", "nu", "delta")}
    draws["sigma"] = _sigma_draws(rng, x, draws["delta"], rho_fit, bounds_fit[2])
    values = draws["delta0"].shape[1] + 1
    pvalues = {}
    for name, drawn in draws.items():
        true = truth[name][:, None]  # replicates x 1 (x datasets)
        ranks = (drawn < true).sum(axis=1).reshape(REPLICATES, -1)
        pvalues[name] = _uniformity_pvalue(ranks, values)
    return pvalues


@pytest.mark.slow
def test_ranks_of_the_true_parameters_among_posterior_draws_are_uniform():
    # with SEED, numpyro 0.22.0 and jax 0.10.2 on x86-64: delta0 0.116, std0 0.303,
    # nu 0.386, delta 0.541, sigma 0.839
    pvalues = calibration_pvalues()
    assert set(pvalues) == {"delta0", "std0", "nu", "delta", "sigma"}
    assert min(pvalues.values()) > LEVEL, pvalues


def test_uniformity_test_rejects_ranks_that_are_not_uniform():
    rng = np.random.default_rng(0)
    n = 100  # replicates
    uniform = rng.integers(0, 20, (n, DATASETS))
    assert _uniformity_pvalue(uniform, 20) > 0.01
    # posteriors too narrow: the truth falls outside the draws, ranks pile up at the ends
    u_shaped = np.where(rng.random((n, DATASETS)) < 0.5, 0, 19)
    u_shaped[::3] = uniform[::3]
    assert _uniformity_pvalue(u_shaped, 20) < 1e-6
    # posteriors biased upwards: the truth ranks low
    low = rng.integers(0, 12, (n, 1))
    assert _uniformity_pvalue(low, 20) < 1e-6
    # one rank repeated for every dataset of a replicate weighs as one rank, not five: the
    # design effect (5) brings the statistic back to that of the single ranks, which the
    # plain chi-square test of the pooled ranks would overstate
    tilted = np.minimum(np.random.default_rng(0).integers(0, 24, (n, 1)), 19)
    single = _uniformity_pvalue(tilted, 20)
    assert 1e-4 < single < 0.01
    repeated = _uniformity_pvalue(np.repeat(tilted, DATASETS, axis=1), 20)
    assert repeated == pytest.approx(single, rel=1e-9)
    naive = stats.chisquare(np.bincount(np.repeat(tilted, DATASETS) // 4, minlength=5)).pvalue
    assert naive < 1e-12


def test_simulated_folds_have_the_model_correlation():
    rng = np.random.default_rng(1)
    truth = _draw_prior(rng, 4000)
    x = _simulate_folds(rng, truth, RHO)
    z = (x - truth["delta"][..., None]) / truth["sigma"][..., None]
    corr = np.corrcoef(z.reshape(-1, FOLDS), rowvar=False)
    off = corr[~np.eye(FOLDS, dtype=bool)]
    assert np.abs(off - RHO).max() < 0.03  # 20000 rows: standard error about 0.007
    assert np.diag(np.cov(z.reshape(-1, FOLDS), rowvar=False)) == pytest.approx(
        np.ones(FOLDS), abs=0.05
    )


def test_sigma_draws_follow_their_conditional_density():
    rng = np.random.default_rng(2)
    x = rng.normal(0.3, 0.8, (1, 1, FOLDS))
    delta = np.full((1, 20000, 1), 0.1)
    top = BOUNDS[2]
    drawn = _sigma_draws(rng, x, delta, RHO, top).ravel()
    assert drawn.max() <= top
    quad = ((x - x.mean()) ** 2).sum() / (1 - RHO) + FOLDS * (x.mean() - 0.1) ** 2 / (
        1 + (FOLDS - 1) * RHO
    )

    def density(s):
        return s ** (-FOLDS) * np.exp(-quad / (2 * s * s))

    norm = integrate.quad(density, 1e-6, top)[0]

    def cdf(s):
        return np.array([integrate.quad(density, 1e-6, v)[0] / norm for v in np.atleast_1d(s)])

    assert stats.kstest(drawn[:2000], cdf).pvalue > 0.01


def test_fixed_prior_bounds_of_the_wrong_shape_are_refused():
    x = np.random.default_rng(3).normal(size=(2, 3, FOLDS))
    with pytest.raises(CdplotInputError, match=r"prior bounds must be pairs x 3"):
        sample_pairs(x, RHO, chains=1, warmup=5, draws=5, seed=0, bounds=np.ones((1, 3)))

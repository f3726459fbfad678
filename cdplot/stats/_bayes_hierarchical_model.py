"""The Bayesian hierarchical model of Corani et al. (2017), sampled by NumPyro's NUTS.

The model of one pair of algorithms on ``q`` datasets, each with ``n`` cross-validation
folds (the paired differences ``x[i, j]`` of fold ``j`` of dataset ``i``), as published
(Corani, Benavoli, Demšar, Mangili & Zaffalon 2017, *Machine Learning* 106, section 3; the
Stan program of baycomp's ``HierarchicalTest`` and scmamp describe the same model):

- ``x[i, :] ~ MVN(delta_i 1, sigma_i^2 M)``, ``M = (1 - rho) I + rho 1 1'``: the folds of a
  dataset are correlated through their overlapping training sets (Nadeau & Bengio 2003),
  ``rho = n_test / n_total``;
- ``delta_i ~ t(nu, delta0, std0)``: the datasets' mean differences come from one Student
  distribution, which shrinks each towards the others;
- ``sigma_i ~ U(0, 1000 s_w)``, ``delta0 ~ U(-max|x|, max|x|)``, ``std0 ~ U(0, 1000 s_a)``,
  ``nu - 1 ~ Gamma(alpha, beta)`` (rate ``beta``), ``alpha ~ U(1, 2)``,
  ``beta ~ U(0.01, 0.1)``; ``s_w`` is the mean within-dataset standard deviation of the
  differences and ``s_a`` the standard deviation of the datasets' means.

The likelihood of a dataset needs only the mean ``m_i`` and the sum of squares ``SS_i`` of
its differences: with ``d = m_i - delta_i``,
``(x - delta 1)' M^-1 (x - delta 1) = SS_i / (1 - rho) + n d^2 / (1 + (n - 1) rho)`` and
``det M = (1 + (n - 1) rho) (1 - rho)^(n - 1)``. Each ``sigma_i`` is integrated out of
the likelihood exactly (an incomplete gamma function, :func:`_folds_loglik`): the sampler
explores ``delta0, std0, nu, alpha, beta`` and the ``delta_i`` (non-centred:
``delta_i = delta0 + std0 z_i``) only, the same posterior as
the published model's with half the dimensions and none of the ``(delta_i, sigma_i)``
funnels.

All pairs and all their chains are sampled at once: one NUTS kernel
(``numpyro.infer.hmc``, numpyro's own kernel, as its ``chain_method="vectorized"`` uses it)
mapped with ``jax.vmap`` over (pair, chain), each run with its own data, step size and mass
matrix, compiled once per shape and kept for the process. numpyro and jax are imported on
first use only (the optional extra ``cdplot[bayes]``).
"""

from __future__ import annotations

import functools
import math
from typing import Any

import numpy as np

from .._errors import CdplotInputError

__all__ = ["MAX_TREE_DEPTH", "PRIOR", "load_sampler", "prior_bounds", "sample_pairs"]

#: the published hyperpriors (Corani et al. 2017; baycomp's defaults): bounds of the
#: uniform priors of the Gamma prior's shape and rate, and the factor of the upper bounds
#: of the scales
PRIOR_ALPHA = (1.0, 2.0)
PRIOR_BETA = (0.01, 0.1)
PRIOR = {"alpha": PRIOR_ALPHA, "beta": PRIOR_BETA, "upper_sigma": 1000.0}
#: deepest NUTS tree (2**8 - 1 leapfrog steps per draw at most)
MAX_TREE_DEPTH = 8


def load_sampler() -> tuple[Any, Any, Any]:
    """``(jax, numpyro, numpyro.distributions)``, or a :class:`CdplotInputError` naming the
    extra that installs them."""
    try:
        import jax
        import numpyro
        import numpyro.distributions as dist
    except ImportError as exc:  # pragma: no cover - exercised by monkeypatching the import
        raise CdplotInputError(
            "the Bayesian hierarchical test needs the NumPyro sampler, which is not "
            f'installed ({exc}); install it with: pip install "cdplot[bayes]"'
        ) from None
    return jax, numpyro, dist


def _model(mean: Any, ss: Any, n: Any, rho: Any, bounds: Any) -> None:
    """The hierarchical model of one pair (scaled units); ``bounds`` = (max |x|, upper
    bound of std0, upper bound of sigma_i)."""
    _, numpyro, dist = load_sampler()
    delta0 = numpyro.sample("delta0", dist.Uniform(-bounds[0], bounds[0]))
    std0 = numpyro.sample("std0", dist.Uniform(0.0, bounds[1]))
    alpha = numpyro.sample("gamma_alpha", dist.Uniform(*PRIOR_ALPHA))
    beta = numpyro.sample("gamma_beta", dist.Uniform(*PRIOR_BETA))
    nu = 1.0 + numpyro.sample("nu_minus_one", dist.Gamma(alpha, beta))
    with numpyro.plate("datasets", mean.shape[0]):
        # delta_i ~ t(nu, delta0, std0), written as delta0 + std0 z_i with z_i ~ t(nu, 0, 1)
        # (the same model; the sampler does not meet the funnel of small std0)
        z = numpyro.sample("delta_z", dist.StudentT(nu, 0.0, 1.0))
        delta = numpyro.deterministic("delta", delta0 + std0 * z)
    numpyro.factor("folds", _folds_loglik(mean - delta, ss, n, rho, bounds[2]).sum())


def _folds_loglik(d: Any, ss: Any, n: Any, rho: Any, top: Any) -> Any:
    """log p(folds of dataset i | delta_i), ``sigma_i ~ U(0, top)`` integrated out exactly.

    With ``Q`` the quadratic form, ``int_0^top s^-n exp(-Q / (2 s^2)) ds / top`` is
    ``(2/Q)^((n-1)/2) Gamma((n-1)/2) Q((n-1)/2, Q / (2 top^2)) / (2 top)`` (``Q(a, x)`` the
    regularized upper incomplete gamma function).
    """
    import jax.numpy as jnp
    from jax.scipy.special import gammaincc, gammaln

    quad = ss / (1.0 - rho) + n * d * d / (1.0 + (n - 1.0) * rho)
    log_det = jnp.log1p((n - 1.0) * rho) + (n - 1.0) * jnp.log1p(-rho)
    a = 0.5 * (n - 1.0)
    integral = (
        a * jnp.log(2.0 / quad)
        + gammaln(a)
        + jnp.log(gammaincc(a, quad / (2.0 * top * top)))
        - jnp.log(2.0 * top)
    )
    return integral - 0.5 * log_det - 0.5 * n * math.log(2 * math.pi)


def _potential_gen(*args: Any) -> Any:
    """The potential energy of the model with these data (numpyro's ``potential_fn_gen``)."""
    from numpyro.infer.util import potential_energy

    return functools.partial(potential_energy, _model, args, {})


def _start(key: Any, data: tuple[Any, ...]) -> dict[str, Any]:
    """A chain's start in unconstrained space: near the data, ``z_i`` jittered."""
    import jax
    import jax.numpy as jnp
    from numpyro.infer.util import unconstrain_fn

    mean, _, _, _, bounds = data
    spread = jnp.clip(jnp.std(mean) + 0.1, 1e-3, 0.9 * bounds[1])
    params = {
        "delta0": jnp.clip(jnp.mean(mean), -0.9 * bounds[0], 0.9 * bounds[0]),
        "std0": spread,
        "gamma_alpha": jnp.asarray(1.5),
        "gamma_beta": jnp.asarray(0.05),
        "nu_minus_one": jnp.asarray(10.0),
        "delta_z": jax.random.uniform(key, mean.shape, minval=-1.0, maxval=1.0),
    }
    return unconstrain_fn(_model, data, {}, params)


@functools.lru_cache(maxsize=8)
def _compiled(warmup: int, draws: int) -> Any:
    """All (pair, chain) runs at once: one NUTS kernel (``numpyro.infer.hmc``) mapped with
    ``jax.vmap`` (each run its own data, step size and mass matrix), jitted; jax keeps the
    compilation per shape for the process."""
    jax, _, _ = load_sampler()
    import jax.numpy as jnp
    from numpyro.infer.hmc import hmc
    from numpyro.infer.util import constrain_fn

    init_kernel, sample_kernel = hmc(potential_fn_gen=_potential_gen, algo="NUTS")

    def one(key: Any, *data: Any) -> Any:
        k_start, k_run = jax.random.split(key)
        state = init_kernel(
            _start(k_start, data),
            warmup,
            target_accept_prob=0.9,
            max_tree_depth=MAX_TREE_DEPTH,
            model_args=data,
            rng_key=k_run,
        )

        def step(carry: Any, _: Any) -> Any:
            carry = sample_kernel(carry, model_args=data)
            return carry, (carry.z, carry.diverging)

        state, _ = jax.lax.scan(step, state, None, length=warmup)
        _, (zs, diverging) = jax.lax.scan(step, state, None, length=draws)
        values = jax.vmap(lambda z: constrain_fn(_model, data, {}, z, return_deterministic=True))(
            zs
        )
        nu = 1.0 + values["nu_minus_one"]
        return values["delta0"], values["std0"], nu, values["delta"], jnp.sum(diverging)

    return jax.jit(jax.vmap(one))


def prior_bounds(diffs: np.ndarray) -> np.ndarray:
    """The published, data-dependent prior bounds of every pair (``pairs x 3``).

    ``diffs`` is ``pairs x datasets x folds``. Per pair: ``max |x|`` (the bound of
    ``|delta0|``), ``1000 s_a`` (of ``std0``) and ``1000 s_w`` (of each ``sigma_i``), with
    ``s_w`` the mean within-dataset standard deviation and ``s_a`` the standard deviation of
    the datasets' means (``s_w`` when that is 0 or there is one dataset), as baycomp.
    """
    n, q = diffs.shape[2], diffs.shape[1]
    mean = diffs.mean(axis=2)
    ss = ((diffs - mean[..., None]) ** 2).sum(axis=2)
    within = np.sqrt(ss / n).mean(axis=1)  # baycomp's s_w: population sd, mean over datasets
    among = mean.std(axis=1) if q > 1 else within
    among = np.where(among > 0, among, within)
    top = np.abs(diffs).max(axis=(1, 2))
    return np.stack([top, among * PRIOR["upper_sigma"], within * PRIOR["upper_sigma"]], 1)


def sample_pairs(
    diffs: np.ndarray,
    rho: float,
    *,
    chains: int,
    warmup: int,
    draws: int,
    seed: int,
    bounds: np.ndarray | None = None,
) -> dict[str, np.ndarray]:
    """Posterior draws of every pair's model.

    Parameters
    ----------
    diffs : numpy.ndarray
        ``pairs x datasets x folds`` differences, scaled (see ``_bayes_hierarchical``).
    rho : float
        The correlation of the folds.
    chains, warmup, draws : int
        Chains per pair, warm-up iterations and kept draws per chain.
    seed : int
        Seed of the whole run (each (pair, chain) run gets its own key from it).
    bounds : numpy.ndarray, optional
        ``pairs x 3`` fixed prior bounds in the units of ``diffs``: the largest ``|delta0|``,
        the upper bound of ``std0`` and that of each ``sigma_i``. By default they are the
        published ones, computed from each pair's differences (:func:`prior_bounds`). Fixed
        bounds make the prior independent of the data, as simulation-based calibration
        needs (it draws the parameters from the prior before the data exist); the public
        test never passes them.

    Returns
    -------
    dict
        ``delta0``, ``std0``, ``nu`` (``pairs x chains x draws``), ``delta``
        (``pairs x chains x draws x datasets``) and ``divergences`` (``pairs``).
    """
    jax, _, _ = load_sampler()
    import jax.numpy as jnp

    p, q, n = diffs.shape
    mean = diffs.mean(axis=2)
    ss = ((diffs - mean[..., None]) ** 2).sum(axis=2)
    bounds = prior_bounds(diffs) if bounds is None else np.asarray(bounds, dtype=float)
    if bounds.shape != (p, 3):
        raise CdplotInputError(f"the prior bounds must be pairs x 3, got shape {bounds.shape}.")
    keys = jax.random.split(jax.random.PRNGKey(seed), p * chains)

    def tiled(a: np.ndarray) -> Any:
        return jnp.asarray(np.repeat(a, chains, axis=0), dtype=jnp.float32)

    out = _compiled(int(warmup), int(draws))(
        keys,
        tiled(mean),
        tiled(ss),
        jnp.full(p * chains, float(n), dtype=jnp.float32),
        jnp.full(p * chains, float(rho), dtype=jnp.float32),
        tiled(bounds),
    )
    delta0, std0, nu, delta, div = (np.asarray(a, dtype=float) for a in out)
    return {
        "delta0": delta0.reshape(p, chains, draws),
        "std0": std0.reshape(p, chains, draws),
        "nu": nu.reshape(p, chains, draws),
        "delta": delta.reshape(p, chains, draws, q),
        "divergences": div.reshape(p, chains).sum(axis=1).astype(np.int64),
    }

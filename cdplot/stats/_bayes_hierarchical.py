"""The Bayesian hierarchical test of two algorithms' cross-validation scores on many datasets.

Corani, Benavoli, Demšar, Mangili & Zaffalon (2017), "Statistical comparison of classifiers
through Bayesian hierarchical modelling", *Machine Learning* 106; the model and its sampler
are in :mod:`cdplot.stats._bayes_hierarchical_model`. This module checks the input, scales
the differences as baycomp's ``HierarchicalTest`` does, runs the sampler in named steps and
reads the posterior: the three probabilities, the shrunken per-dataset differences and the
convergence diagnostics.

Paired differences are ``d = a - b`` as everywhere in cdplot: ``left`` = P(a practically
better), baycomp's first probability for ``HierarchicalTest(x=a, y=b)``.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .._errors import CdplotInputError, CdplotWarning, check_bool, spell
from ._bayes import BayesianResult, check_nsamples, check_ratio, check_rope, seed_of

__all__ = [
    "DIAGNOSTICS",
    "HIERARCHICAL_NSAMPLES",
    "HierarchicalResult",
    "SamplerConvergenceError",
    "bayes_hierarchical",
    "check_folds",
    "diagnostics_frame",
    "fit_pairs",
    "HierarchicalSettings",
    "hierarchical_comparison",
]

#: R-hat above this is a convergence failure (Vehtari et al. 2021)
RHAT_LIMIT = 1.01
#: bulk effective sample size below this (over all chains) is a failure (Vehtari et al. 2021)
ESS_LIMIT = 400.0
#: posterior draws kept (over all chains) unless ``nsamples`` says otherwise
HIERARCHICAL_NSAMPLES = 4000
#: the layers of a comparison's ``diagnostics`` array (``3 x k x k``), in order
DIAGNOSTICS = ("rhat", "ess", "divergences")
#: probability of the central intervals of the shrunken per-dataset differences
INTERVAL = 0.95


class SamplerConvergenceError(CdplotInputError):
    """The sampler did not converge and ``strict=True`` was asked (R-hat, effective sample
    size or divergent transitions); the message names the pairs and the fix."""


@dataclass(frozen=True, eq=False)
class HierarchicalResult(BayesianResult):
    """The hierarchical test of two algorithms (a :class:`BayesianResult` with more).

    Attributes
    ----------
    left, rope, right : float
        Fractions of the posterior draws in which the next dataset's difference ``a - b``
        is most probably above ``rope``, inside it, below ``-rope`` (baycomp's definition).
    samples : numpy.ndarray
        ``nsamples x 3``: per posterior draw, the probabilities of the three regions for
        the next dataset (the simplex plot's points).
    delta_mean : numpy.ndarray
        The shrunken mean difference ``a - b`` of each dataset (posterior mean of delta_i).
    delta_interval : numpy.ndarray
        ``datasets x 2``: its central 95% posterior interval.
    delta0, std0, nu : numpy.ndarray
        Posterior draws of the mean, scale and degrees of freedom of the datasets' Student
        distribution (score units; ``a - b``).
    rhat, ess : float
        Largest split R-hat and smallest bulk effective sample size over the parameters.
    divergences : int
        Divergent transitions after warm-up.
    converged : bool
        R-hat below 1.01, effective sample size at least 400 and no divergence.
    """

    delta_mean: np.ndarray | None = field(default=None, repr=False, compare=False)
    delta_interval: np.ndarray | None = field(default=None, repr=False, compare=False)
    delta0: np.ndarray | None = field(default=None, repr=False, compare=False)
    std0: np.ndarray | None = field(default=None, repr=False, compare=False)
    nu: np.ndarray | None = field(default=None, repr=False, compare=False)
    rhat: float = math.nan
    ess: float = math.nan
    divergences: int = 0
    converged: bool = True


class HierarchicalSettings:
    """The checked options of the hierarchical test."""

    def __init__(self, options: dict[str, Any], folds: int) -> None:
        self.rope = check_rope(options.get("rope", 0.0))
        self.chains = _positive_int(options.get("chains", 4), "chains")
        self.warmup = _positive_int(options.get("warmup", 1000), "warmup")
        total = check_nsamples(options.get("nsamples", HIERARCHICAL_NSAMPLES))
        self.draws = max(1, -(-total // self.chains))
        self.seed = seed_of(options.get("random_state"))
        self.strict = check_bool(options.get("strict", False), "strict")
        self.rho = _correlation(options.get("test_train_ratio"), options.get("runs", 1), folds)


def _positive_int(value: Any, option: str) -> int:
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool) and value >= 1:
        return int(value)
    raise CdplotInputError(f"{spell(option)} must be a positive integer, got {value!r}.")


def _correlation(test_train_ratio: Any, runs: Any, folds: int) -> float:
    """rho = n_test / n_total: from ``test_train_ratio`` (r / (1 + r)) or, without it, one
    over the folds of one cross-validation run (``folds / runs``; baycomp's ``runs``)."""
    if test_train_ratio is not None:
        ratio = check_ratio(test_train_ratio)
        return ratio / (1.0 + ratio)
    runs = _positive_int(runs, "runs")
    if folds % runs or folds // runs < 2:
        raise CdplotInputError(
            f"{spell('runs', runs)} does not divide the {folds} folds of each dataset into "
            "runs of at least two folds; pass the number of repetitions of the "
            f"cross-validation, or {spell('test_train_ratio')} (n_test / n_train of a fold)."
        )
    return runs / folds


def check_folds(a: Any, b: Any) -> tuple[np.ndarray, np.ndarray]:
    """Two ``datasets x folds`` arrays of finite scores with the same shape, at least two
    datasets and two folds, or a :class:`CdplotInputError` naming the fix."""
    try:
        xa, ya = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    except (TypeError, ValueError):
        raise CdplotInputError(
            "the hierarchical test needs two datasets x folds arrays of numbers (one row of "
            "cross-validation scores per dataset, the same folds for both algorithms)."
        ) from None
    if xa.ndim != 2 or xa.shape != ya.shape:
        raise CdplotInputError(
            f"the hierarchical test needs two datasets x folds arrays of the same shape, got "
            f"shapes {xa.shape} and {ya.shape}; give every dataset the same folds (one row "
            "per dataset, one column per fold)."
        )
    if xa.shape[1] < 2:
        raise CdplotInputError(
            f"the hierarchical test needs at least two folds per dataset (got {xa.shape[1]}); "
            "give the per-fold scores, not their means."
        )
    if xa.shape[0] < 2:
        raise CdplotInputError(
            f"the hierarchical test needs at least two datasets (got {xa.shape[0]}); for one "
            "dataset use bayes_correlated_t."
        )
    if not (np.isfinite(xa).all() and np.isfinite(ya).all()):
        raise CdplotInputError(
            "the hierarchical test needs finite scores on every fold (found NaN or an "
            "infinity); drop or fill the missing folds."
        )
    return xa, ya


def _scaled(diffs: np.ndarray, rope: float, rng: np.random.Generator) -> tuple[np.ndarray, float]:
    """Step 1: differences and rope over their mean within-dataset standard deviation
    (baycomp's scaling). A dataset whose differences are all equal gets symmetric values
    about that difference (in the rope, or a tenth of the scale with ``rope = 0``) so its
    likelihood is proper; baycomp centres such values on 0 instead."""
    scale = float(np.mean(np.std(diffs, axis=-1)))
    if not scale > 0:
        raise CdplotInputError(
            "every dataset's fold differences are constant: the hierarchical model needs "
            "differences that vary between folds (are the two algorithms' scores identical?)."
        )
    x = diffs / scale
    flat = np.std(x, axis=-1) == 0
    if flat.any():
        n = x.shape[-1]
        width = rope / scale if rope > 0 else 0.1
        u = rng.uniform(0.0, width, size=(int(flat.sum()), n // 2))
        spread = np.concatenate([u, -u, np.zeros((len(u), n % 2))], axis=1)
        x[flat] = x[flat] + spread
    return x, scale


def _region_draws(delta0: np.ndarray, std0: np.ndarray, nu: np.ndarray, rope: float) -> Any:
    """Per draw: P(next difference > rope), P(inside), P(< -rope) under t(nu, delta0, std0)."""
    from scipy import stats

    above = stats.t.sf(rope, nu, loc=delta0, scale=std0)
    below = stats.t.cdf(-rope, nu, loc=delta0, scale=std0)
    return np.stack([above, np.clip(1.0 - above - below, 0.0, 1.0), below], axis=-1)


def _diagnostics(draws: dict[str, np.ndarray], pair: int) -> tuple[float, float]:
    """Largest split R-hat and smallest bulk effective sample size of one pair."""
    from numpyro.diagnostics import effective_sample_size, split_gelman_rubin

    rhat, ess = [], []
    for name in ("delta0", "std0", "nu", "delta"):
        x = draws[name][pair]
        if x.shape[0] > 1 and x.shape[1] > 3:
            rhat.append(float(np.max(split_gelman_rubin(x))))
        ess.append(float(np.min(effective_sample_size(x))))
    return (max(rhat) if rhat else math.nan), min(ess)


def fit_pairs(a_minus_b: np.ndarray, settings: HierarchicalSettings) -> list[HierarchicalResult]:
    """Fit the model to every pair: ``a_minus_b`` is ``pairs x datasets x folds``."""
    from ._bayes_hierarchical_model import load_sampler, sample_pairs

    load_sampler()
    rng = np.random.default_rng(settings.seed)
    scaled = [_scaled(d, settings.rope, rng) for d in a_minus_b]
    x = np.stack([s[0] for s in scaled])
    draws = sample_pairs(
        x,
        settings.rho,
        chains=settings.chains,
        warmup=settings.warmup,
        draws=settings.draws,
        seed=settings.seed,
    )
    return [_read_pair(draws, p, scaled[p][1], settings) for p in range(len(x))]


def _read_pair(
    draws: dict[str, np.ndarray], p: int, scale: float, settings: HierarchicalSettings
) -> HierarchicalResult:
    """Step 3: one pair's posterior in score units: probabilities, shrinkage, diagnostics."""
    delta0 = draws["delta0"][p].reshape(-1) * scale
    std0 = draws["std0"][p].reshape(-1) * scale
    nu = draws["nu"][p].reshape(-1)
    delta = draws["delta"][p].reshape(-1, draws["delta"].shape[-1]) * scale
    samples = _region_draws(delta0, std0, nu, settings.rope)
    winner = np.argmax(samples, axis=1)
    left, middle, right = (np.bincount(winner, minlength=3) / len(winner)).tolist()
    rhat, ess = _diagnostics(draws, p)
    div = int(draws["divergences"][p])
    lo, hi = (1 - INTERVAL) / 2, (1 + INTERVAL) / 2
    return HierarchicalResult(
        left,
        middle,
        right,
        settings.rope,
        "bayes-hierarchical",
        len(winner),
        samples,
        delta_mean=delta.mean(axis=0),
        delta_interval=np.quantile(delta, [lo, hi], axis=0).T,
        delta0=delta0,
        std0=std0,
        nu=nu,
        rhat=rhat,
        ess=ess,
        divergences=div,
        converged=bool(rhat < RHAT_LIMIT and ess >= ESS_LIMIT and div == 0),
    )


def report_convergence(results: list[HierarchicalResult], names: list[str], strict: bool) -> None:
    """A warning (an error with ``strict=True``) naming the pairs whose fit failed."""
    failed = [(name, r) for name, r in zip(names, results, strict=True) if not r.converged]
    if not failed:
        return
    detail = "; ".join(
        f"{name}: R-hat {r.rhat:.3f}, ESS {r.ess:.0f}, {r.divergences} divergences"
        for name, r in failed[:5]
    )
    message = (
        f"the hierarchical model's sampler did not converge for {len(failed)} pair(s) "
        f"(R-hat >= {RHAT_LIMIT}, effective sample size < {ESS_LIMIT:.0f} or divergent "
        f"transitions): {detail}. Increase {spell('warmup')} and {spell('nsamples')}, and "
        "read the probabilities of these pairs with care."
    )
    if strict:
        raise SamplerConvergenceError(message)
    warnings.warn(message, CdplotWarning, stacklevel=4)


def bayes_hierarchical(
    a: Any,
    b: Any,
    rope: float = 0.0,
    *,
    runs: int = 1,
    test_train_ratio: float | None = None,
    nsamples: int = 4000,
    chains: int = 4,
    warmup: int = 1000,
    random_state: Any = None,
    strict: bool = False,
) -> HierarchicalResult:
    """Bayesian hierarchical test of two algorithms' cross-validation scores on many datasets.

    Parameters
    ----------
    a, b : array_like
        ``datasets x folds`` scores of the two algorithms (higher is better), the same
        folds in the same columns (all runs of a repeated cross-validation side by side).
        Differences are ``a - b``: ``left`` favours ``a`` (baycomp's ``x``, ``y``).
    rope : float, default 0.0
        Half-width of the region of practical equivalence, in score units.
    runs : int, default 1
        Repetitions of the cross-validation in each row: the correlation of the folds is
        ``rho = runs / folds`` (one over the folds of one run, as baycomp).
    test_train_ratio : float, optional
        ``n_test / n_train`` of a fold; when given, ``rho = r / (1 + r)`` instead.
    nsamples : int, default 4000
        Posterior draws kept (over all chains).
    chains : int, default 4
        NUTS chains (sampled vectorised).
    warmup : int, default 1000
        Warm-up iterations of each chain.
    random_state : int, numpy.random.Generator or None
        Seed: the same seed gives the same result.
    strict : bool, default False
        Raise :class:`SamplerConvergenceError` instead of warning when the sampler fails.

    Returns
    -------
    HierarchicalResult
        ``left``, ``rope``, ``right``, the region draws ``samples``, the shrunken
        per-dataset differences with intervals, the draws of ``delta0``, ``std0``, ``nu``,
        and ``rhat``, ``ess``, ``divergences``, ``converged``.

    Raises
    ------
    CdplotInputError
        Arrays of different shapes, fewer than two folds or datasets, non-finite scores, a
        rope that is not a number >= 0, bad sampler options, or NumPyro not installed
        (``pip install "cdplot[bayes]"``).
    SamplerConvergenceError
        With ``strict=True``, when R-hat >= 1.01, the effective sample size < 400 or any
        transition diverged.

    Notes
    -----
    The model (Corani et al. 2017): ``x_i ~ MVN(delta_i, sigma_i^2 M(rho))`` for the folds
    of dataset ``i``, ``delta_i ~ t(nu, delta0, std0)``, with the published priors (see
    :mod:`cdplot.stats._bayes_hierarchical_model`). As baycomp does, the differences are
    scaled by their mean within-dataset standard deviation before sampling, and ``left``,
    ``rope``, ``right`` are the fractions of posterior draws in which each region is the
    most probable one for the difference on a new dataset, ``t(nu, delta0, std0)``.

    References
    ----------
    G. Corani, A. Benavoli, J. Demšar, F. Mangili and M. Zaffalon, "Statistical comparison
    of classifiers through Bayesian hierarchical modelling", Machine Learning 106 (2017).

    Examples
    --------
    >>> import warnings
    >>> import numpy as np
    >>> from cdplot.stats import bayes_hierarchical
    >>> rng = np.random.default_rng(0)
    >>> b = 0.8 + rng.normal(0.0, 0.02, (8, 10))  # 8 datasets x 10 folds
    >>> a = b + 0.05 + rng.normal(0.0, 0.02, (8, 10))
    >>> with warnings.catch_warnings():  # a short run: its diagnostics may fall short
    ...     warnings.simplefilter("ignore")
    ...     res = bayes_hierarchical(a, b, 0.01, nsamples=800, warmup=300, random_state=1)
    >>> res.left > 0.9
    True
    """
    xa, ya = check_folds(a, b)
    settings = HierarchicalSettings(
        {
            "rope": rope,
            "runs": runs,
            "test_train_ratio": test_train_ratio,
            "nsamples": nsamples,
            "chains": chains,
            "warmup": warmup,
            "random_state": random_state,
            "strict": strict,
        },
        xa.shape[1],
    )
    (result,) = fit_pairs((xa - ya)[None], settings)
    report_convergence([result], ["a vs b"], settings.strict)
    return result


def hierarchical_comparison(
    test: str, folds: np.ndarray, names: list[str], options: dict[str, Any]
) -> tuple[np.ndarray, np.ndarray, dict[str, Any]]:
    """The Bayesian step of :func:`cdplot.compare` for the hierarchical test.

    ``folds`` is ``datasets x algorithms x folds``, oriented (higher is better). Returns,
    as :func:`~cdplot.stats._bayes.bayes_comparison`, P(row practically better) (k x k),
    the pairs decided different and the fields of the result's ``Posterior`` part.
    """
    from ._bayes import check_threshold, decide

    n, k, f = folds.shape
    settings = HierarchicalSettings(options, f)
    threshold = check_threshold(options.get("threshold", 0.95))
    iu, ju = np.triu_indices(k, 1)
    better = np.full((k, k), np.nan)
    equivalent = np.full((k, k), np.nan)
    diagnostics = np.full((len(DIAGNOSTICS), k, k), np.nan)
    if len(iu):
        for p in range(len(iu)):
            check_folds(folds[:, iu[p]], folds[:, ju[p]])
        diffs = np.stack([folds[:, i] - folds[:, j] for i, j in zip(iu, ju, strict=True)])
        results = fit_pairs(diffs, settings)
        pairs = [f"{names[i]} vs {names[j]}" for i, j in zip(iu, ju, strict=True)]
        report_convergence(results, pairs, settings.strict)
        better[iu, ju] = [r.left for r in results]
        better[ju, iu] = [r.right for r in results]
        equivalent[iu, ju] = equivalent[ju, iu] = [r.rope for r in results]
        fits = np.array([[r.rhat, r.ess, r.divergences] for r in results], dtype=float)
        diagnostics[:, iu, ju] = diagnostics[:, ju, iu] = fits.T
    decisions = decide(better, equivalent, threshold)
    different = (better >= threshold) | (threshold <= better.T)
    np.fill_diagonal(different, False)
    fields = {
        "rope": settings.rope,
        "threshold": threshold,
        "posterior_better": better,
        "posterior_equivalent": equivalent,
        "decisions": decisions,
        "diagnostics": diagnostics,
    }
    return better, different, fields


def diagnostics_frame(diagnostics: np.ndarray | None, names: list[str]) -> Any:
    """The sampler's convergence per pair, a table (None without a sampler).

    ``diagnostics`` is ``3 x k x k`` (:data:`DIAGNOSTICS`: split R-hat, bulk effective
    sample size, divergent transitions of the fit of each pair; symmetric, NaN where no
    model was fitted). One row per pair fitted, input order: ``algorithm_1``,
    ``algorithm_2``, ``rhat``, ``ess``, ``divergences`` and ``converged`` (R-hat below
    :data:`RHAT_LIMIT`, ESS at least :data:`ESS_LIMIT`, no divergence).
    """
    import pandas as pd

    if diagnostics is None:
        return None
    values = np.asarray(diagnostics, dtype=float)
    iu, ju = np.triu_indices(len(names), 1)
    fitted = np.isfinite(values[1, iu, ju])  # every fit has an ESS (R-hat needs 2 chains)
    iu, ju = iu[fitted], ju[fitted]
    rhat, ess, div = (values[layer, iu, ju] for layer in range(len(DIAGNOSTICS)))
    return pd.DataFrame(
        {
            "algorithm_1": pd.Series([names[i] for i in iu], dtype=object),
            "algorithm_2": pd.Series([names[j] for j in ju], dtype=object),
            "rhat": rhat,
            "ess": ess,
            "divergences": div.astype(np.int64),
            # as HierarchicalResult.converged: a NaN R-hat (one chain) is not a pass
            "converged": (rhat < RHAT_LIMIT) & (ess >= ESS_LIMIT) & (div == 0),
        }
    )

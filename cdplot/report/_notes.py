"""Sentences about facts that stats computes: caveats, the Bayesian decisions, pool sensitivity."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .._labels import TEST_TITLES
from ..stats._bayes import NSAMPLES, bayes_frame, decided_pairs
from ..stats._bayes_hierarchical import HIERARCHICAL_NSAMPLES
from ..stats._catalogue import FOLDS, entry_of
from ..stats._caveats import Caveat, caveat_facts
from ..stats._pool import depending_pairs

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

    from ..stats._results import Comparison, ComparisonResult

__all__ = [
    "bayes_note",
    "caveat_sentence",
    "caveats",
    "convergence_note",
    "pool_sensitivity_note",
]

_FRIEDMAN_ROUGH = (
    "only {n} datasets: Friedman's chi-square approximation is rough below about 10 "
    "datasets (Demšar 2006); treat the omnibus p-values as approximate."
)


def caveat_sentence(caveat: Caveat) -> str:
    """The plain-language sentence of one :class:`~cdplot.stats._caveats.Caveat`."""
    title = TEST_TITLES.get(caveat.test, caveat.test)
    few = f"only {caveat.n} datasets" + (" for some pairs" if caveat.some_pairs else "")
    if caveat.kind == "omnibus-not-rejected":
        return (
            "the omnibus test did not reject, yet post-hoc results are reported. The usual "
            "procedure (Demšar 2006; García & Herrera 2008) reads the post-hoc tests only "
            "after the omnibus test rejects; treat any difference as unconfirmed."
        )
    if caveat.kind == "unreachable-alpha":
        who = "no pair" if caveat.certain else f"no pair with {caveat.n} datasets"
        return (
            f"{few}: the smallest p-value the {title} can give is 2/2^{caveat.n} = "
            f"{caveat.smallest:.2g}, above alpha = {caveat.level:g}, so {who} can be "
            f"significant however large the differences; at least {caveat.needed} datasets "
            "are needed."
        )
    if caveat.kind == "unreachable-first-step" and caveat.certain:
        return (
            f"{few}: the smallest p-value the {title} can give is 2/2^{caveat.n} = "
            f"{caveat.smallest:.2g}, above alpha / {caveat.m} = {caveat.level:.2g}, so the "
            "correction cannot leave any pair significant however large the differences; "
            "more datasets are needed."
        )
    if caveat.kind == "unreachable-first-step":
        return (
            f"{few}: the smallest p-value the {title} can give is 2/2^{caveat.n} = "
            f"{caveat.smallest:.2g}, above alpha / {caveat.m} = {caveat.level:.2g}, so the "
            "correction may leave no pair significant however large the differences; more "
            "datasets are needed."
        )
    if caveat.kind == "rough-rank-tests":
        return (
            f"only {caveat.n} datasets: the {title} and Friedman's test use normal and "
            "chi-square approximations that are rough below about 10 datasets "
            "(Demšar 2006: N > 10 and k > 5 as a rule of thumb); treat the p-values as "
            "approximate."
        )
    return _FRIEDMAN_ROUGH.format(n=caveat.n)


def caveats(result: Comparison) -> tuple[str, ...]:
    """The caveats of ``result`` (:func:`~cdplot.stats._caveats.caveat_facts`) in words."""
    return tuple(caveat_sentence(c) for c in caveat_facts(result))


def _first(items: list[str], limit: int | None) -> list[str]:
    """``items``, or its first ``limit`` and "and N more"."""
    if limit is None or len(items) <= limit:
        return items
    return [*items[:limit], f"and {len(items) - limit} more"]


def pool_sensitivity_note(frame: pd.DataFrame, limit: int | None = None) -> str:
    """One plain-language sentence on a :func:`pool_sensitivity` frame, for summaries.

    Parameters
    ----------
    frame : pandas.DataFrame
        The frame returned by :func:`pool_sensitivity`.
    limit : int, optional
        Name at most this many pairs (default: all).

    Returns
    -------
    str
        Which pairs' decisions change with the pool, with their significant/pools
        counts per pool size; or that none does.

    Examples
    --------
    >>> import cdplot
    >>> frame = cdplot.pool_sensitivity(cdplot.datasets.load("benavoli2016"), others=[2, 3, 4])
    >>> print(pool_sensitivity_note(frame)[:94])
    Pool sensitivity (Benavoli et al. 2016): the mean-ranks decisions on 4 of 21 pairs change with
    """
    pairs = depending_pairs(frame)
    n_pairs = len(frame[["a", "b"]].drop_duplicates())
    sizes = sorted(frame["pool_size"].unique())
    span = f"{sizes[0]}" if len(sizes) == 1 else f"{sizes[0]} to {sizes[-1]}"
    sampled = " (pools sampled)" if bool(frame["sampled"].any()) else ""
    if not pairs:
        return (
            "Pool sensitivity (Benavoli et al. 2016): no mean-ranks decision changes with the "
            f"other algorithms in pools of {span} algorithms{sampled}."
        )
    parts = []
    for a, b in pairs:
        rows = frame[(frame["a"] == a) & (frame["b"] == b)].sort_values("pool_size")
        counts = ", ".join(
            f"{s}/{p}" for s, p in zip(rows["significant"], rows["pools"], strict=True)
        )
        parts.append(f"{a} vs {b} ({counts})")
    return (
        f"Pool sensitivity (Benavoli et al. 2016): the mean-ranks decisions on {len(pairs)} of "
        f"{n_pairs} pairs change with the other algorithms in the pool (significant in how many "
        f"pools of {span} algorithms{sampled}): {'; '.join(_first(parts, limit))}. The other "
        "decisions are the same in every pool."
    )


def bayes_note(result: ComparisonResult, limit: int | None = None) -> str:
    """Plain-language sentences on a Bayesian comparison's decisions, for summaries.

    Parameters
    ----------
    result : ComparisonResult
        Of ``compare(test="bayes-signed-rank" or "bayes-sign")``.
    limit : int, optional
        Name at most this many pairs decided better, and as many decided equivalent
        (default: all).

    Returns
    -------
    str
        The test, rope, threshold and sample size, then the pairs decided better
        and equivalent (with their posterior probabilities) and how many are
        undecided.

    Examples
    --------
    >>> import cdplot
    >>> res = cdplot.compare(cdplot.datasets.load("demsar2006"), test="bayes-signed-rank",
    ...                      rope=0.01, random_state=1)
    >>> print(bayes_note(res))  # doctest: +NORMALIZE_WHITESPACE
    Post-hoc: Bayesian signed-rank test on every pair (rope = 0.01, decisions at posterior
    probability >= 0.95, 50000 posterior samples; no p-values, no correction). Practically
    better: C4.5+m+cf over C4.5 (P = 0.967). 5 of 6 pairs are undecided: the data do not
    settle them at this threshold.
    """
    frame = bayes_frame(result)
    entry = entry_of(result.test)
    sampled = entry is not None and entry.reads == FOLDS  # the sampler's own default draws
    nsamples = result.test_options.get("nsamples", HIERARCHICAL_NSAMPLES if sampled else NSAMPLES)
    text = [
        f"Post-hoc: {TEST_TITLES.get(result.test, result.test)} on every pair (rope = "
        f"{result.rope:g}, decisions at posterior probability >= {result.threshold:g}, "
        f"{nsamples} posterior samples; no p-values, no correction)."
    ]
    name = result.label  # display names given with labels=
    decided = decided_pairs(result, frame)
    better = [f"{name(a)} over {name(b)} (P = {p:.3f})" for a, b, p in decided.better]
    if better:
        text.append(f"Practically better: {'; '.join(_first(better, limit))}.")
    equivalent = [f"{name(a)} and {name(b)} (P = {p:.3f})" for a, b, p in decided.equivalent]
    if equivalent:
        text.append(f"Practically equivalent: {'; '.join(_first(equivalent, limit))}.")
    if decided.undecided:
        text.append(
            f"{decided.undecided} of {len(frame)} pairs are undecided: the data do not settle "
            "them at this threshold."
        )
    return " ".join(text)


def convergence_note(result: Comparison) -> str | None:
    """One sentence on the sampler's convergence of a Bayesian test fitted by MCMC.

    Parameters
    ----------
    result : Comparison
        A :class:`~cdplot.stats.BayesianComparisonResult`.

    Returns
    -------
    str or None
        The worst split R-hat and the lowest bulk effective sample size over the pairs
        fitted (with their pairs), the divergent transitions, and whether every fit
        converged (naming those that did not); None for a test without a sampler.
    """
    from ..stats._bayes_hierarchical import ESS_LIMIT, RHAT_LIMIT

    frame = getattr(result, "diagnostics", None)
    if frame is None or frame.empty:
        return None
    name = result.label

    def pair(row: Any) -> str:
        return f"{name(row.algorithm_1)} vs {name(row.algorithm_2)}"

    text = "Sampler convergence: "
    if frame.rhat.notna().any():
        worst = frame.loc[frame.rhat.idxmax()]
        text += f"worst split R-hat {worst.rhat:.3f} ({pair(worst)}), "
    else:
        text += "no R-hat (one chain), "
    low = frame.loc[frame.ess.idxmin()]
    fits = f"{len(frame)} fit" + ("s" if len(frame) > 1 else "")
    text += (
        f"lowest bulk effective sample size {low.ess:.0f} ({pair(low)}), "
        f"{int(frame.divergences.sum())} divergent transitions in {fits}; "
    )
    failed = frame[~frame.converged]
    limits = f"R-hat < {RHAT_LIMIT:g}, ESS >= {ESS_LIMIT:.0f}, no divergence"
    if failed.empty:
        return text + f"every fit converged ({limits})."
    named = ", ".join(pair(row) for row in failed.head(5).itertuples())
    more = f" and {len(failed) - 5} more" if len(failed) > 5 else ""
    return text + (
        f"{len(failed)} of {len(frame)} did not converge ({limits}): {named}{more}; read their "
        "probabilities with care, or fit again with more warmup and nsamples."
    )

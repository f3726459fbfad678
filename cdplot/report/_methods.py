"""The methods paragraph of a paper, worded from a result's facts, and its BibTeX.

``methods_text(result, format="markdown"|"latex")`` says what varies (datasets, folds or
seeds aggregated within them, items, clusters, samples), how the scores were aggregated and
ranked, the tests and corrections with alpha, what the intervals are (confidence level,
resampling scheme; confidence intervals, not SD or SE bars, unless said), the assumptions
and the software versions, citing the methods used. ``methods_bibtex(result)`` gives the
BibTeX entries of exactly those citations (:mod:`._bibliography`).

Sentences are written once with two marks, rendered per format: ``[[cite:k1,k2]]`` (LaTeX
``\\cite{k1,k2}``, Markdown ``(Author 2006; Author 2008)``) and ``[[alpha]]``.
"""

from __future__ import annotations

import re
from typing import Any

from .._errors import check_in_list
from .._labels import CORRECTION_TITLES, TEST_TITLES
from ..stats._catalogue import entry_of
from ._bibliography import bibtex, short_citation

__all__ = ["methods_bibtex", "methods_text"]

FORMATS = ("markdown", "latex")
_MARK = re.compile(r"\[\[(cite:[^\]]+|alpha)\]\]")

#: the citations of each pairwise test, each omnibus test (by its name's first word) and
#: each correction
_TEST_CITES = {
    "wilcoxon": ("wilcoxon1945", "demsar2006"),
    "sign": ("demsar2006",),
    "mean-ranks": ("demsar2006",),
    "nemenyi": ("nemenyi1963", "demsar2006"),
    "aligned-ranks": ("garcia2010",),
    "quade": ("garcia2010",),
    "conover": ("garcia2010",),
    "mcnemar": ("mcnemar1947",),
    "cluster-t": (),
    "bayes-signed-rank": ("benavoli2017",),
    "bayes-sign": ("benavoli2017",),
}
_OMNIBUS_CITES = {
    "Friedman": ("friedman1937",),
    "Skillings-Mack": ("skillings1981",),
    "Quade": ("garcia2010",),
}
_CORRECTION_CITES = {
    "holm": ("holm1979",),
    "hochberg": ("hochberg1988",),
    "hommel": ("hommel1988",),
    "shaffer": ("shaffer1986", "garcia2008"),
    "bergmann-hommel": ("bergmann1988", "garcia2008"),
    "rom": ("rom1990",),
    "fdr-bh": ("benjamini1995",),
    "finner": ("garcia2010",),
    "li": ("garcia2010",),
    "holland": ("garcia2010",),
    "bonferroni-dunn": ("demsar2006",),
}
#: the tests whose decision on a pair depends on the other algorithms compared
_POOL_DEPENDENT = ("mean-ranks", "nemenyi", "aligned-ranks", "quade", "conover", "durbin")
_MODEL_INTERVALS = {
    "clopper-pearson": "exact Clopper–Pearson [[cite:clopper1934]]",
    "wilson": "Wilson score",
    "t": "t",
    "cluster": "cluster-robust (sandwich standard error, t quantile with G − 1 df)",
    "bootstrap": "BCa bootstrap",
    "korn-graubard": "Korn–Graubard",
}
_EFFECTS = {
    "mean": "mean difference, t interval",
    "hodges-lehmann": "Hodges–Lehmann estimate of the difference",
    "superiority": "probability of superiority",
    "cohen-d": "Cohen's d of the paired differences",
}
_PAIR_INTERVALS = {
    "tango": "Tango's score interval [[cite:tango1998]]",
    "newcombe": "Newcombe's hybrid score interval",
    "t": "paired t interval",
    "clustered-t": "cluster-robust paired t interval",
    "percentile": "paired percentile-bootstrap interval",
}


def _cite(*keys: str) -> str:
    return f"[[cite:{','.join(keys)}]]" if keys else ""


def _n(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def _pct(level: float) -> str:
    return f"{100 * level:.4g}%"


# --------------------------------------------------------------------------- sentences


def _design(result: Any) -> list[str]:
    """What was compared, over what, and what varies."""
    k, n = len(result.algorithms), len(result.datasets)
    text = f"We compared {_n(k, 'algorithm')} on {_n(n, 'dataset')}"
    agg = result.aggregation
    if agg is not None:
        runs = (
            f"{agg.min_count}"
            if agg.min_count == agg.max_count
            else f"{agg.min_count} to {agg.max_count}"
        )
        what = " and ".join(agg.columns) if agg.columns else "repeated runs"
        text += (
            f"; each algorithm's score on a dataset is the {agg.function} over its {runs} "
            f"runs ({what}), so the variation between runs enters the analysis only "
            "through these aggregated scores and the datasets are the units of replication"
        )
    elif result.items is not None:
        text += (
            "; each algorithm's score on a task is its mean over the task's items, and "
            "the tasks are the units of replication"
        )
    else:
        text += "; the datasets are the units of replication"
    text += ". " + (
        "Higher scores are better." if result.higher_is_better else "Lower scores are better."
    )
    out = [text]
    if result.n_missing:
        verb = "was" if result.n_missing == 1 else "were"
        out.append(f"{_n(result.n_missing, 'result')} {verb} missing.")
    dropped = len(result.dropped_datasets) + len(result.dropped_algorithms)
    if dropped:
        out.append(
            f"Dropped for missing results: {_n(len(result.dropped_datasets), 'dataset')} and "
            f"{_n(len(result.dropped_algorithms), 'algorithm')}."
        )
    return out


def _omnibus(result: Any) -> list[str]:
    omnibus = result.omnibus
    name = (omnibus.name if omnibus is not None else "Friedman chi-square").split(" ")[0]
    text = (
        "The algorithms were ranked on each dataset (1 = best, ties sharing the average of "
        f"their ranks) and compared by their average ranks {_cite('demsar2006')}"
    )
    if result.friedman is not None and result.iman_davenport is not None:
        text += (
            f"; the omnibus test was Friedman's test {_cite('friedman1937')} with Iman and "
            f"Davenport's F statistic {_cite('iman1980')}"
        )
        if omnibus is not None and not omnibus.name.startswith("Friedman chi"):
            text += f", and the {omnibus.name} test {_cite(*_OMNIBUS_CITES.get(name, ()))}"
    elif omnibus is not None:
        text += f"; the omnibus test was the {omnibus.name} test"
        text += f" {_cite(*_OMNIBUS_CITES.get(name.replace('–', '-'), ()))}"
    return [text.replace(" .", ".").rstrip() + "."]


def _posthoc(result: Any) -> list[str]:
    test = TEST_TITLES.get(result.test, result.test)
    against = (
        f"each algorithm with the control {result.label(result.control)}"
        if result.control is not None
        else "every pair of algorithms"
    )
    correction = result.correction
    text = f"We compared {against} with the {test} {_cite(*_TEST_CITES.get(result.test, ()))}"
    if correction in ("nemenyi", "tukey"):
        what = "critical difference" if correction == "nemenyi" else "studentized range"
        text += f", whose {what} keeps the family-wise error rate at [[alpha]]"
    elif correction == "none":
        text += " at [[alpha]] without a multiplicity correction"
    else:
        title = CORRECTION_TITLES.get(correction, correction)
        what = "false discovery rate" if correction.startswith("fdr") else "family-wise error rate"
        text += (
            f" and adjusted the p-values with {title}'s procedure "
            f"{_cite(*_CORRECTION_CITES.get(correction, ('garcia2008',)))}, which controls the "
            f"{what} at [[alpha]]"
        )
    out = [text + "."]
    axis = "mean scores" if result.critical_difference_units == "score" else "average ranks"
    if result.critical_difference is not None:
        out.append(f"The critical difference of the {axis} is {result.critical_difference:.3g}.")
    if result.control is None and result.correction not in ("none", "fdr-bh", "fdr-by"):
        out.append(
            f"The critical difference diagram shows the {axis} and joins with a bar the "
            "algorithms no significant difference separates; it draws no error bars."
        )
    return out


def _assumptions(result: Any) -> list[str]:
    if result.parametric:
        return [
            "The parametric tests assume normally distributed paired differences (and, for "
            "the repeated-measures ANOVA, sphericity) and scores commensurable across "
            f"datasets {_cite('demsar2006')}."
        ]
    text = (
        "The tests assume that the datasets are independent; they need neither normality "
        "nor commensurable scores across datasets"
    )
    out = [text + f" {_cite('demsar2006')}."]
    entry = entry_of(result.test)
    if entry is not None and entry.on_scores and entry.why:  # the test's own assumptions
        out.append(entry.why)
    if result.test in _POOL_DEPENDENT:
        out.append(
            f"With the {TEST_TITLES.get(result.test, result.test)} the decision on a pair "
            f"depends on the other algorithms compared {_cite('benavoli2016')}."
        )
    return out


def _bayesian(result: Any) -> list[str]:
    from ..stats._bayes import NSAMPLES, check_prior

    test = TEST_TITLES.get(result.test, result.test)
    options = dict(result.test_options)
    prior = options.get("prior")
    if prior is None:  # the family's default strength
        prior = check_prior(result.test, None, None)[0]
    nsamples = options.get("nsamples") or NSAMPLES
    text = (
        f"We compared every pair of algorithms with the {test} {_cite('benavoli2017')}, "
        f"with a region of practical equivalence of ±{result.rope:g} score units, a "
        f"Dirichlet-process prior of strength {prior:g} and {nsamples} posterior samples per "
        f"pair; a pair is decided (one better, or equivalent) when its posterior "
        f"probability reaches {result.threshold:g}. Posterior probabilities are not p-values: "
        "no multiplicity correction applies, and the decisions carry no family-wise error "
        "guarantee."
    )
    return [text]


def _intervals(result: Any, intervals: Any, effects: Any) -> list[str]:
    out = []
    if intervals is not None:
        scope = "simultaneous" if getattr(intervals, "simultaneous", True) else "marginal"
        level = _pct(intervals.confidence)
        method = getattr(intervals, "method", "bootstrap")
        if method == "test":
            how = "read off the pairwise decisions above"
        elif method == "hierarchical":
            how = (
                "from a hierarchical bootstrap over tasks, then items "
                f"({intervals.n_boot} resamples)"
            )
        else:
            unit = "datasets"
            if hasattr(result, "_benchmark"):
                unit = "clusters of items" if result._benchmark.n_clusters else "items"
            how = (
                f"from a paired bootstrap over the {unit} ({intervals.n_boot} resamples) with "
                f"max-t critical values {_cite('mogstad2024')}"
            )
        out.append(f"Rank intervals are {scope} {level} confidence intervals, {how}.")
    if effects is not None and len(effects):
        measure = str(effects["measure"].iloc[0]) if "measure" in effects else "mean"
        level = float(effects["confidence"].iloc[0]) if "confidence" in effects else None
        shown = f" with {_pct(level)} confidence intervals" if level is not None else ""
        out.append(f"Effect sizes ({_EFFECTS.get(measure, measure)}) are given{shown}.")
    if result.aggregation is not None and result.aggregation.max_count > 1:
        out.append(
            "Where the spread of the runs is shown, it is their standard deviation, not a "
            "standard error."
        )
    return out


def _benchmark(result: Any) -> list[str]:
    part = result._benchmark
    k = len(result.algorithms)
    text = f"We compared {_n(k, 'model')} on the {part.n_items} items of one benchmark"
    if part.task:
        text += f" ({part.task})"
    if part.n_clusters:
        text += (
            f", grouped in {_n(part.n_clusters, 'cluster')} ({part.cluster_column}) whose "
            "items are not independent"
        )
    text += "; the items" + (" (their clusters)" if part.cluster_robust else "")
    text += " are the units of replication"
    if part.samples_per_item:
        text += (
            f", and an item's score is the mean of its samples ({part.samples_per_item:.3g} "
            "per item on average)"
        )
    text += ". " + ("Scores are 0/1 (solved or not)." if part.binary else "Scores are continuous.")
    stats = part.model_statistics
    out = [text]
    out.append(
        f"Each model's mean score is given with its {_pct(stats.confidence)} "
        f"{_MODEL_INTERVALS.get(stats.interval, stats.interval)} confidence interval "
        f"{_cite('miller2024')}; these are confidence intervals of the means, not ±SD or ±SE "
        "bars."
    )
    pairs = part.pair_statistics
    test = TEST_TITLES.get(result.test, result.test)
    correction = CORRECTION_TITLES.get(result.correction, result.correction)
    out.append(
        f"Every pair's paired difference of mean scores has a {_pct(pairs.confidence)} "
        f"{_PAIR_INTERVALS.get(pairs.interval, pairs.interval)} and was tested with the "
        f"{test} {_cite(*_TEST_CITES.get(result.test, ()))}, the p-values adjusted with "
        f"{correction}'s procedure {_cite(*_CORRECTION_CITES.get(result.correction, ()))} "
        "at [[alpha]]."
    )
    unit = "clusters" if part.cluster_robust else "items"
    out.append(
        f"The analysis assumes that the {unit} are an independent sample of the "
        "benchmark's population of questions, so the intervals speak of that population "
        "and not of the fixed item set alone."
    )
    return out


def _software() -> str:
    import platform
    from importlib import metadata

    from .._version import __version__

    versions = []
    for name in ("numpy", "scipy"):
        try:
            versions.append(f"{'NumPy' if name == 'numpy' else 'SciPy'} {metadata.version(name)}")
        except metadata.PackageNotFoundError:  # pragma: no cover - installed with cdplot
            continue
    return (
        f"The analysis was run with cdplot {__version__} (Python {platform.python_version()}, "
        f"{', '.join(versions)})."
    )


def _sentences(result: Any, intervals: Any, effects: Any) -> list[str]:
    from ..stats._results import BayesianComparisonResult, Comparison

    if not isinstance(result, Comparison):
        from .._errors import CdplotInputError

        raise CdplotInputError(
            f"methods_text() describes a comparison result, got {type(result).__name__}; "
            "e.g. cdplot.compare(data).methods_text()."
        )
    if hasattr(result, "_benchmark"):
        body = _benchmark(result)
    elif isinstance(result, BayesianComparisonResult):
        body = _design(result) + _omnibus(result) + _bayesian(result)
    else:
        body = _design(result) + _omnibus(result) + _posthoc(result) + _assumptions(result)
    return body + _intervals(result, intervals, effects) + [_software()]


# --------------------------------------------------------------------------- rendering


def _latex_prose(text: str) -> str:
    """Prose for pdflatex: special characters escaped, the minus and plus-minus signs in
    math mode (pdflatex's default encodings have no glyph for U+2212)."""
    from ._latex import latex_text

    return latex_text(text).replace("±", r"$\pm$").replace("\N{MINUS SIGN}", "$-$")


def _render(text: str, fmt: str, alpha: float) -> str:
    text = re.sub(r" {2,}", " ", re.sub(r" +(?=[,.;])", "", text))  # no gap for no citation
    parts = _MARK.split(text)
    out = []
    for i, part in enumerate(parts):
        if i % 2 == 0:
            out.append(_latex_prose(part) if fmt == "latex" else part)
        elif part == "alpha":
            out.append(rf"$\alpha = {alpha:g}$" if fmt == "latex" else f"α = {alpha:g}")
        else:
            keys = part.removeprefix("cite:").split(",")
            out.append(
                rf"\cite{{{','.join(keys)}}}"
                if fmt == "latex"
                else "(" + "; ".join(short_citation(k) for k in keys) + ")"
            )
    return "".join(out)


def methods_text(
    result: Any, format: str = "markdown", *, intervals: Any = None, effects: Any = None
) -> str:
    """A methods paragraph for a paper, worded from the result's facts, with citations.

    Parameters
    ----------
    result : ComparisonResult, BayesianComparisonResult or BenchmarkComparison
        What :func:`cdplot.compare` returned.
    format : {"markdown", "latex"}, default "markdown"
        Markdown cites "(Demšar 2006)"; LaTeX cites ``\\cite{demsar2006}`` (the entries
        are :func:`methods_bibtex`'s).
    intervals : RankIntervals, optional
        Rank intervals shown beside the result (their method, level and resampling are
        described).
    effects : pandas.DataFrame, optional
        Effect sizes shown beside the result (:func:`cdplot.effect_sizes`).

    Returns
    -------
    str
        One paragraph (no trailing newline).

    Examples
    --------
    >>> import cdplot
    >>> res = cdplot.compare(cdplot.datasets.load("demsar2006"))
    >>> res.methods_text().split(";")[0]
    'We compared 4 algorithms on 14 datasets'
    """
    fmt = check_in_list(FORMATS, format=format)
    sentences = _sentences(result, intervals, effects)
    return " ".join(_render(s, fmt, float(result.alpha)) for s in sentences)


def methods_bibtex(result: Any, *, intervals: Any = None, effects: Any = None) -> str:
    """The BibTeX entries of the methods :func:`methods_text` cites for this result.

    Examples
    --------
    >>> import cdplot
    >>> res = cdplot.compare(cdplot.datasets.load("demsar2006"))
    >>> res.methods_bibtex().count("@article")  # Demšar, Friedman, Iman, Wilcoxon, Holm
    5
    """
    text = " ".join(_sentences(result, intervals, effects))
    keys = [k for m in _MARK.findall(text) if m.startswith("cite:") for k in m[5:].split(",")]
    return bibtex(keys)

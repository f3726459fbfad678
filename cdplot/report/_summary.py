"""The plain-language summary of a comparison: ``result.summary()``."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .._labels import correction_title, statistic_text
from ..stats._catalogue import entry_of
from ..stats._caveats import deciding_omnibus, n_hypotheses
from ._evidence import evidence
from ._intervals import interval_paragraphs, listed, shown
from ._model import (
    display_name,
    fill,
    input_line,
    omnibus_text,
    p_clause,
)

if TYPE_CHECKING:  # pragma: no cover
    from collections.abc import Callable

    import pandas as pd

    from ..stats._intervals import RankIntervals
    from ..stats._results import ComparisonResult

__all__ = ["FULL_SUMMARY_MAX_ALGORITHMS", "LARGE_BOARD_MAX_LINES", "summary"]

#: Boards of up to this many algorithms get the whole summary: every group and every pair in
#: no common group. At k = 20 and 30 datasets it is about 55 lines; beyond, the lists grow
#: with k (k = 78: about 170 lines, k = 300: over 2,000) and a person no longer reads them.
FULL_SUMMARY_MAX_ALGORITHMS = 20
#: On a larger board every list of the summary names at most this many algorithms ...
LARGE_BOARD_NAMES = 10
#: ... and at most this many pairs or rank intervals
LARGE_BOARD_PAIRS = 5
#: The bound on a larger board's summary, in lines of 88 characters: it does not grow with
#: k (names of up to 30 characters; longer names wrap onto more lines)
LARGE_BOARD_MAX_LINES = 90
#: Where a larger board's summary sends its reader for the lists it leaves out
_WHERE_THE_FULL_LISTS_ARE = (
    "This summary names the top of a large board only. The full lists: every pair in "
    "res.to_frame() and res.to_json() (command line: --json FILE), every group in res.groups, "
    "every average rank in res.average_ranks; all of them on the page "
    "cdplot.report.to_html(res) (command line: --report FILE.html)."
)

_CORRECTION_WHY = {
    "none": (
        "No correction for multiple testing was applied: with {m} tests the chance of at "
        "least one false positive can be far above alpha."
    ),
    "bonferroni": (
        "Bonferroni's correction controls the family-wise error rate over the {m} tests, "
        "but is the most conservative of the usual procedures."
    ),
    "bonferroni-dunn": (
        "The Bonferroni-Dunn correction controls the family-wise error rate over the {m} "
        "comparisons with the control, conservatively (Demšar 2006)."
    ),
    "holm": (
        "Holm's step-down procedure controls the family-wise error rate over the {m} tests "
        "and is uniformly more powerful than Bonferroni's (Demšar 2006)."
    ),
    "hochberg": (
        "Hochberg's step-up procedure controls the family-wise error rate over the {m} tests "
        "when the Simes inequality holds (e.g. independent tests); it rejects at least as "
        "much as Holm's."
    ),
    "hommel": (
        "Hommel's procedure controls the family-wise error rate over the {m} tests when the "
        "Simes inequality holds; it rejects at least as much as Hochberg's."
    ),
    "finner": (
        "Finner's step-down procedure controls the family-wise error rate over the {m} tests "
        "with more power than Holm's."
    ),
    "li": (
        "Li's two-step procedure controls the family-wise error rate over the {m} "
        "comparisons with the control."
    ),
    "shaffer": (
        "Shaffer's static procedure controls the family-wise error rate over the {m} pairs "
        "and uses the logical relations between them (not all can be true at once), so it "
        "is more powerful than Holm's (García & Herrera 2008)."
    ),
    "bergmann-hommel": (
        "The Bergmann-Hommel procedure controls the family-wise error rate over the {m} "
        "pairs using every logically possible set of true hypotheses; it is the most "
        "powerful of the procedures García & Herrera (2008) compare."
    ),
    # the procedures of García, Fernández, Luengo & Herrera (2010) and the FDR ones
    "holland": (
        "Holland's step-down Šidák procedure controls the family-wise error rate over the {m} "
        "tests when they are independent or positively dependent; it rejects at least as "
        "much as Holm's (García et al. 2010)."
    ),
    "rom": (
        "Rom's step-up procedure controls the family-wise error rate over the {m} tests when "
        "they are independent; its critical values (solved at each alpha) make it at least as "
        "powerful as Hochberg's (Rom 1990)."
    ),
    "fdr-bh": (
        "The Benjamini-Hochberg procedure controls the false discovery rate (the expected "
        "share of false findings among the {m} tests' rejections) for independent or "
        "positively dependent tests, not the family-wise error rate: some of the pairs "
        "reported different are expected to be false positives, so groups of "
        "not-significantly-different algorithms are formed only on request (fdr_groups)."
    ),
    "fdr-by": (
        "The Benjamini-Yekutieli procedure controls the false discovery rate (the expected "
        "share of false findings among the {m} tests' rejections) under any dependence, not "
        "the family-wise error rate: some of the pairs reported different are expected to be "
        "false positives, so groups of not-significantly-different algorithms are formed only "
        "on request (fdr_groups)."
    ),
    "nemenyi": (
        "The Nemenyi test adjusts all {m} pairs in one step (studentized range), which "
        "controls the family-wise error rate but is conservative (García & Herrera 2008)."
    ),
}


def summary(
    result: ComparisonResult,
    *,
    intervals: RankIntervals | None = None,
    effects: pd.DataFrame | None = None,
    pool: pd.DataFrame | None = None,
) -> str:
    """Short plain-language report of a comparison.

    Says whether the omnibus test rejects, which pairwise test and correction
    were used and why that matters, which groups and significant pairs were
    found, and warns when the post-hoc results are read although the omnibus
    test did not reject, or when there are few datasets for the chosen test.

    Parameters
    ----------
    result : ComparisonResult
        The result of :func:`cdplot.compare`.
    intervals : RankIntervals, optional
        Rank intervals to state ("ranks 1–3 are statistically tied (A, B, C); rank of D:
        4–7"): those of ``cdplot.rank_intervals(result, ...)``. Default: the intervals of
        the result's own decisions, when they hold simultaneously (all pairs, a
        correction with family-wise error control), else none.
    effects : pandas.DataFrame, optional
        Effect sizes to state, one pair after another: the frame of
        ``cdplot.effect_sizes(result, ...)``. Default: none.
    pool : pandas.DataFrame, optional
        A frame of :func:`cdplot.pool_sensitivity` to report (which pairs' decisions
        depend on the other algorithms). Default: none.

    Nothing computed earlier from ``result`` is remembered: two equal results give the
    same summary, and what it states beyond the result is what is passed here.

    Returns
    -------
    str
        Paragraphs separated by blank lines, wrapped at 88 characters.

    Raises
    ------
    CdplotInputError
        For ``intervals`` or ``effects`` that are not rank intervals or effect sizes of
        ``result``'s algorithms.

    Notes
    -----
    The omnibus decision is ``result.omnibus_rejects`` (the Iman-Davenport F
    test at ``result.alpha``; Demšar 2006 recommends it over Friedman's
    conservative chi-square). The warnings are ``result.caveats``, decided in
    the statistics layer: the omnibus test did not reject; fewer than 11
    datasets for the approximations behind Friedman's, the mean-ranks and the
    Nemenyi tests (Demšar's rule of thumb N > 10); for the Wilcoxon and sign
    tests, too few datasets for their smallest attainable p-value,
    ``2 / 2**N``, to reach alpha or the first step of the correction
    (``alpha / m`` for m hypotheses).

    A board of up to :data:`FULL_SUMMARY_MAX_ALGORITHMS` (20) algorithms gets every
    group and every pair in no common group. A larger one gets a summary of bounded
    length, whatever k: the best ten average ranks; the tie class of the best (the
    algorithms not significantly different from it, ten named, with their count); the
    counts of significant pairs, groups and pairs in no common group; at most five
    pairs and rank intervals; and where the full lists are (``res.to_frame()``,
    ``res.to_json()``, ``res.groups``, the page of :func:`cdplot.report.to_html`).
    With names of up to 30 characters it has at most :data:`LARGE_BOARD_MAX_LINES`
    (90) lines, every optional paragraph included.

    Examples
    --------
    >>> import cdplot
    >>> res = cdplot.compare(cdplot.datasets.load("demsar2006"))
    >>> print(res.summary().splitlines()[0])
    4 algorithms were compared on 14 datasets (higher scores are better; rank 1 is the
    """
    intervals, effects = shown(result, intervals, effects)
    k, n, alpha = result.n_algorithms, result.n_datasets, result.alpha
    large = k > FULL_SUMMARY_MAX_ALGORITHMS
    direction = "higher" if result.higher_is_better else "lower"
    rejects = result.omnibus_rejects
    paragraphs: list[str] = []
    name = lambda a: display_name(result, a)  # noqa: E731  (labels= display names)

    ranking = result._ranking  # the numbers, without pandas
    n_top = LARGE_BOARD_NAMES if large else 3
    top = zip(ranking.rank_order[:n_top], ranking.average_ranks[:n_top].tolist(), strict=True)
    best = ", ".join(f"{name(a)} ({rank:.2f})" for a, rank in top)
    kind = ranking.rank_name or "average rank"
    paragraphs.append(
        f"{k} algorithms were compared on {n} datasets ({direction} scores are better; "
        f"rank 1 is the best). Best {kind}s: {best}."
    )
    paragraphs += _input_paragraphs(result)
    paragraphs += _omnibus_paragraphs(result, rejects)

    m = n_hypotheses(result)
    scope = (
        f"every algorithm against the control {name(result.control)}"
        if result.control is not None
        else "all pairs of algorithms"
    )
    ev = evidence(result)
    paragraphs.append(
        ev.posthoc_paragraph(
            scope,
            _correction_phrase(result),
            _CORRECTION_WHY.get(result.correction, "").format(m=m),
        )
    )
    cd = ev.critical_difference
    if cd is not None and result.critical_difference_units == "score":
        paragraphs[-1] += (
            f" Tukey's HSD (residual variance of the blocked ANOVA): two algorithms differ at "
            f"alpha = {alpha:g} when their mean scores differ by at least "
            f"CD = {cd:.4g} (score units)."
        )
    elif cd is not None:
        who = "from the control" if result.control is not None else "from each other"
        paragraphs[-1] += (
            f" Critical difference: {cd:.3f}; algorithms whose "
            f"average ranks differ by at least this much differ significantly {who}."
        )
    paragraphs.append(_test_why(result.test))
    paragraphs += _method_paragraphs(result, pool, LARGE_BOARD_PAIRS if large else None)

    paragraphs += ["Warning: " + caveat for caveat in result.caveats]

    if large:
        paragraphs.append(ev.summary_pairs(name, rejects, limit=LARGE_BOARD_PAIRS))
        paragraphs += _large_board_paragraphs(result, name)
        paragraphs += interval_paragraphs(
            result, LARGE_BOARD_PAIRS, LARGE_BOARD_NAMES, intervals=intervals, effects=effects
        )
        paragraphs.append(_WHERE_THE_FULL_LISTS_ARE)
    else:
        paragraphs.append(ev.summary_pairs(name, rejects))
        paragraphs += _group_paragraphs(result, name)
        paragraphs += interval_paragraphs(result, intervals=intervals, effects=effects)
    return "\n\n".join(fill(p) for p in paragraphs if p)


def _omnibus_paragraphs(result: ComparisonResult, rejects: bool) -> list[str]:
    """The omnibus test and its decision (none if the result carries no omnibus test)."""
    alpha = result.alpha
    verdict = (
        "rejects the hypothesis that all algorithms perform alike"
        if rejects
        else "does not reject the hypothesis that all algorithms perform alike"
    )
    deciding = deciding_omnibus(result)
    friedman = result.friedman
    if deciding is not None and deciding is result.iman_davenport and friedman is not None:
        im, fr = deciding, friedman
        return [
            f"Omnibus test: the Friedman test (Iman-Davenport "
            f"{statistic_text(f'F({im.df[0]:g}, {im.df[1]:g})', im.statistic, 2, im.name)}, "
            f"{p_clause('p', im.pvalue)}; chi2({fr.df:g}) = "
            f"{fr.statistic:.2f}, {p_clause('p', fr.pvalue)}) {verdict} at alpha = {alpha:g}."
        ]
    if deciding is not None:
        return [
            f"Omnibus test: {omnibus_text(deciding, digits=2)}; it {verdict} at alpha = {alpha:g}."
        ]
    return []


def _group_paragraphs(result: ComparisonResult, name: Callable[[str], str]) -> list[str]:
    """Every group and every pair in no common group (a board of up to
    :data:`FULL_SUMMARY_MAX_ALGORITHMS` algorithms)."""
    if result.control is not None or _no_fdr_groups(result):
        return []  # no groups against a control, nor from a false-discovery-rate procedure
    out = []
    inside = evidence(result).inside_groups
    if any(len(g) > 1 for g in result.groups):
        listed = "; ".join("{" + ", ".join(map(name, g)) + "}" for g in result.groups)
        out.append(f"Groups of algorithms with {inside} inside (best first): {listed}.")
    else:
        out.append("Every pair of neighbours in the ranking differs significantly.")
    if result.uncovered_pairs:
        pairs = "; ".join(f"{name(a)} - {name(b)}" for a, b in result.uncovered_pairs)
        out.append(
            "Not significantly different, but in no common group (non-significance is "
            f"not transitive): {pairs}."
        )
    return out


def _no_fdr_groups(result: ComparisonResult) -> bool:
    return result.correction in ("fdr-bh", "fdr-by") and not result.groups


def _large_board_paragraphs(result: ComparisonResult, name: Callable[[str], str]) -> list[str]:
    """A large board: the tie class of the best (or of the control), then counts of the
    groups and of the pairs in no common group instead of their lists."""
    ev = evidence(result)
    algorithms = list(result.algorithms)
    index = {a: i for i, a in enumerate(algorithms)}
    significant = np.asarray(result._pairwise.significant, dtype=bool)
    order = [str(a) for a in result._ranking.rank_order]
    kind = result._ranking.rank_name or "average rank"
    if result.control is None:
        best = order[0]
        tied = [a for a in order[1:] if not significant[index[best], index[a]]]
        who = f"Tie class of the best: {name(best)} (best {kind})"
    else:
        others = [a for a in algorithms if a != result.control]
        decided = dict(zip(others, significant.tolist(), strict=True))
        tied = [a for a in order if a != result.control and not decided[a]]
        who = f"Against the control: {name(result.control)}"
    if tied:
        names = listed([name(a) for a in tied], LARGE_BOARD_NAMES)
        out = [f"{who} is {ev.tie_words} {len(tied)} of the {len(algorithms) - 1} others: {names}."]
    else:
        out = [f"{who} {ev.untied_words}."]
    if result.control is not None or _no_fdr_groups(result):
        return out
    sizes = [len(g) for g in result.groups if len(g) > 1]
    if sizes:
        groups = f"{len(result.groups)} group{'s' if len(result.groups) > 1 else ''}"
        out.append(
            f"{groups} of algorithms with {ev.inside_groups} inside "
            f"(the largest has {max(sizes)} algorithms); every group in res.groups."
        )
    else:
        out.append("Every pair of neighbours in the ranking differs significantly.")
    if result.uncovered_pairs:
        what = ev.tie_words.removesuffix(" from")
        out.append(
            f"{len(result.uncovered_pairs)} pairs are {what} but in no common group "
            "(non-significance is not transitive): res.uncovered_pairs."
        )
    return out


def _input_paragraphs(result: ComparisonResult) -> list[str]:
    """How the table was read: aggregation, rounding, dropped and missing results."""
    out = []
    if input_line(result):
        out.append(input_line(result))
    if result.n_missing:
        total = result.n_algorithms * result.n_datasets
        text = (
            f"{result.n_missing} of {total} results are missing: the omnibus test is "
            "Skillings-Mack's, average ranks are taken over the algorithms present on each "
            "dataset, and each pairwise test uses the datasets where both have a result"
        )
        design = result.omnibus is not None and result.omnibus.name.startswith("Durbin")
        if design:
            text = (
                f"{result.n_missing} of {total} results are missing by design (a balanced "
                "incomplete block design): the omnibus test is Durbin's, average ranks are "
                "taken over the algorithms present on each dataset, and every pair of "
                "algorithms meets on the same number of datasets"
            )
        per_pair = result._pairwise.n_per_pair
        if per_pair is not None:
            values = np.asarray(per_pair)[~np.eye(result.n_algorithms, dtype=bool)]
            text += f" ({int(values.min())})" if design else f" (at least {int(values.min())})"
        text += "."
        if result.ignored_datasets:
            limit = LARGE_BOARD_NAMES if result.n_algorithms > FULL_SUMMARY_MAX_ALGORITHMS else None
            text += " Ignored (fewer than two results): "
            text += listed(list(result.ignored_datasets), limit) + "."
        out.append(text)
    return out


def _method_paragraphs(
    result: ComparisonResult, pool: pd.DataFrame | None, limit: int | None = None
) -> list[str]:
    """Caveats that depend on the method: pool dependence, Bayesian reading, parametric
    (at most ``limit`` pairs named in a list)."""
    out = []
    if pool is not None:
        from ._notes import pool_sensitivity_note

        out.append(pool_sensitivity_note(pool, limit))
    out += evidence(result).notes(limit)  # how a Bayesian comparison's posteriors read
    if result.parametric:
        out.append(
            "These parametric tests compare mean scores over datasets, which is only "
            "meaningful when the scores are commensurable across datasets (Demšar 2006, "
            "§3.1.1); they also assume normally distributed differences (and, for the ANOVA "
            "and Tukey's test, sphericity). Rank-based tests (Wilcoxon, Friedman) need "
            "neither. " + result.assumptions.verdict
        )
    return out


def _test_why(test: str) -> str:
    """Why a reader may prefer the test or not (its catalogue entry's paragraph), or ""."""
    entry = entry_of(test)
    return entry.why if entry is not None else ""


def _correction_phrase(result: ComparisonResult) -> str:
    if result.correction == "none":
        return "no correction for multiple testing"
    if result.correction == "nemenyi":
        return "its own single-step adjustment"
    title = correction_title(result).replace("\N{EN DASH}", "-")
    return f"the {title} correction"

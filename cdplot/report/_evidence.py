"""What each kind of comparison says about its pairs, in the words every report uses.

A frequentist comparison (:class:`~cdplot.stats.ComparisonResult`) speaks of adjusted
p-values and significance at ``alpha``; a Bayesian one
(:class:`~cdplot.stats.BayesianComparisonResult`) of posterior probabilities and decisions
at ``threshold``. :func:`evidence` is the one place the report layer tells the two kinds
apart (by type); every format (text, Markdown, LaTeX, HTML, the summary, the page) reads the
words, the table of pairwise values and the list of pairs from the object it returns.
"""

from __future__ import annotations

import functools
import html
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from .._labels import TEST_TITLES, correction_title
from ..stats._benchmark_result import BenchmarkComparison
from ..stats._catalogue import entry_of
from ..stats._caveats import n_hypotheses
from ..stats._results import BayesianComparisonResult, ComparisonResult
from ._model import (
    MAX_PAIRS_LISTED,
    Table,
    decided_lines,
    display_name,
    marked,
    p_clause,
    significant_pairs,
)

if TYPE_CHECKING:  # pragma: no cover
    from collections.abc import Callable

__all__ = ["BenchmarkEvidence", "Evidence", "PairList", "PosteriorEvidence", "evidence"]

#: how "at least" and "at most" are written in each markup
_GE = {"text": ">=", "latex": r"$\geq$"}
_LE = {"text": "<="}
_ALPHA = {"text": "alpha"}


@dataclass(frozen=True)
class PairList:
    """The pairs a report lists: a heading (a sentence when nothing is listed), the items
    (one sentence per pair, names already escaped) and how many are left out."""

    heading: str
    items: list[str]
    more: int = 0


class Evidence:
    """A frequentist comparison's pairwise evidence: (adjusted) p-values at ``alpha``."""

    #: what the table beside the ranks holds
    table_words = "adjusted p-values"
    #: the heading of the list of pairs
    pairs_heading = "Significant differences"
    #: what a group's members are ("Groups ...: ")
    groups_words = "not significantly different"
    #: what holds inside a group
    inside_groups = "no significant difference"
    #: what the algorithms tied with the best are
    tie_words = "not significantly different from"
    #: what the best is when it is tied with no other algorithm
    untied_words = "differs significantly from every other algorithm"
    #: what the compared things and the rows of the score table are called
    subjects = ("algorithms", "datasets")

    def __init__(self, result: Any) -> None:
        self.result = result

    def score_sections(self, markup: str, heading: str = "h2") -> list[str]:
        """Sections in score units (one benchmark's means and differences); none for a board.

        Markdown and LaTeX: lines; HTML: ``<section>`` elements under ``heading``.
        """
        return []

    def explorer(self) -> bool:
        """Whether the HTML page carries the section that recomputes it on chosen rows."""
        return True

    @property
    def critical_difference(self) -> float | None:
        """The critical difference, if the procedure has one."""
        return self.result.critical_difference

    def level(self, markup: str = "text") -> str:
        """``", alpha = 0.05"`` (empty for a Bayesian comparison)."""
        return f", {_ALPHA.get(markup, 'α')} = {self.result.alpha:g}"

    def method(self) -> str:
        """The method line: test, correction, control, alpha."""
        result = self.result
        if result.correction == "nemenyi":
            how = "single-step (studentized range)"
        elif result.correction == "none":
            how = "no correction"
        else:
            how = f"{correction_title(result)} correction"
        return f"{_test(result)}, {how}{_versus(result)}, alpha = {result.alpha:g}"

    def markdown_method(self) -> str:
        """What follows the test's name in the Markdown headline."""
        if self.result.correction == "nemenyi":
            return " (single-step)"
        text = f", {correction_title(self.result)}"
        return text + (" correction" if self.result.correction != "none" else "")

    def table(self, order: list[str], ranks: np.ndarray, shown_as: list[str], label: str,
              adjusted: bool) -> Table:  # fmt: skip
        """The table model's value columns (see :func:`~cdplot.report._model.build_table`)."""
        result = self.result
        k = len(order)
        if result.control is not None:
            control = result.control
            c = order.index(control)
            if adjusted:
                p = result.adjusted_pvalues.reindex(order).to_numpy(dtype=float)
            else:
                p = result.pvalues.loc[control].reindex(order).to_numpy(dtype=float)
            sig = result.significant.reindex(order).fillna(False).to_numpy(dtype=bool)
            shown = np.ones((k, 1), dtype=bool)
            shown[c] = False
            return Table(
                order, ranks, [control], p[:, None], sig[:, None], shown, c, label,
                shown_as, [shown_as[c]],
            )  # fmt: skip
        matrix = result.adjusted_pvalues if adjusted else result.pvalues
        p = matrix.loc[order, order[:-1]].to_numpy(dtype=float)
        sig = result.significant.loc[order, order[:-1]].to_numpy(dtype=bool)
        shown = np.tril(np.ones((k, k - 1), dtype=bool), -1)
        return Table(
            order, ranks, order[:-1], p, sig & shown, shown, None, label, shown_as, shown_as[:-1]
        )

    def legend(self, what: str, mark: str, markup: str, escape: Callable[[str], str]) -> str:
        """The sentence under the table: what its values are and what is marked."""
        result = self.result
        latex = markup == "latex"
        alpha = (r"$\alpha = %g$" if latex else f"{_ALPHA.get(markup, 'α')} = %g") % (result.alpha)
        test = _test(result)
        if latex:
            what = what.replace("\N{EN DASH}", "--").replace("p-value", "$p$-value")
        if result.control is not None:
            control = escape(display_name(result, result.control))
            where = f"{what}s of the {test} against the control {control}"
        elif result.correction == "nemenyi":
            where = f"{what}s (row against column)"
        else:
            where = f"{what}s of the {test} (row against column)"
        where = where[0].upper() + where[1:]
        how = marked(mark, markup)
        return f"{where}; values {how} are significant at {alpha}." if how else f"{where}."

    def pair_list(self, name: Callable[[str], str], markup: str, limit: int) -> PairList:
        """The significant pairs, best-ranked first (``markup``: text, markdown or html)."""
        result = self.result
        sig = significant_pairs(result, limit=limit)
        level = f"{_ALPHA.get(markup, 'α')} = {result.alpha:g}"
        if markup == "html":
            if not sig.total:
                return PairList(f"No pair is significantly different at {level}.", [])
            what = "adjusted p" if result.correction not in ("none", "nemenyi") else "p"
            items = [
                f"{name(a)} better than {name(b)} ({html.escape(p_clause(what, apv))})"
                for a, b, _, apv in sig.listed
            ]
            heading = (
                f"{sig.total} of {n_hypotheses(result)} pairs differ significantly at {level} "
                "(better = lower average rank):"
            )
            return PairList(heading, items, sig.more)
        if not sig.total:
            return PairList(f"No significant differences at {level}.", [])
        items = [
            f"{name(a)} vs {name(b)}: {p_clause('p', p)}, {p_clause('adjusted p', apv)}"
            for a, b, p, apv in sig.listed
        ]
        heading = f"Significant differences (adjusted p {_LE.get(markup, '≤')} {result.alpha:g}):"
        return PairList(heading, items, sig.more)

    def versus(self, control: str, others: list[str]) -> tuple[Any, Any]:
        """Adjusted p-values and significance of ``others`` against ``control`` (Series)."""
        result = self.result
        if result.control is None:
            return (
                result.adjusted_pvalues.loc[control, others],
                result.significant.loc[control, others],
            )
        return result.adjusted_pvalues.reindex(others), result.significant.reindex(others)

    def settings_rows(self) -> list[tuple[str, str]]:
        """Rows of the HTML settings table that depend on the kind."""
        result = self.result
        if result.correction == "nemenyi":
            correction = "single-step (studentized range)"
        else:
            correction = correction_title(result)
        return [
            ("Correction", f"{correction} ({n_hypotheses(result)} hypotheses)"),
            ("Significance level α", f"{result.alpha:g}"),
        ]

    def letters_caption(self, method: str) -> str:
        """LaTeX: what algorithms sharing a letter are (``method``: the method, as TeX)."""
        return (
            f"are not significantly different ({method}, "
            rf"$\alpha = {self.result.alpha:g}$)."
        )

    def posthoc_paragraph(self, scope: str, correction: str, why: str) -> str:
        """The summary's paragraph on the post-hoc tests."""
        result = self.result
        return (
            f"Post-hoc tests: {scope} with the {_test(result)} and {correction} at "
            f"alpha = {result.alpha:g}. " + why
        )

    def notes(self, limit: int | None = None) -> list[str]:
        """The summary's paragraphs on how to read the evidence (none for p-values); at most
        ``limit`` pairs named in a list."""
        return []

    def summary_pairs(
        self, name: Callable[[str], str], rejects: bool, limit: int = MAX_PAIRS_LISTED
    ) -> str:
        """The summary's paragraph on the pairs found different (at most ``limit`` named)."""
        result = self.result
        alpha = result.alpha
        sig = significant_pairs(result, limit=limit)
        if not sig.total and rejects:
            return (
                f"No pair is significantly different at alpha = {alpha:g}, although the "
                "omnibus test rejects: the post-hoc tests have less power, and all one can "
                "conclude is that some algorithms differ (Demšar 2006, §3.2.2)."
            )
        if not sig.total:
            return f"No pair is significantly different at alpha = {alpha:g}."
        verb = _better_verb(result)
        items = [
            f"{name(a)} {verb} {name(b)} ({p_clause('adjusted p', apv)})"
            for a, b, apv in _test_direction(result, sig.listed)
        ]
        text = f"Significant differences ({sig.total} of {n_hypotheses(result)}): "
        text += "; ".join(items)
        return text + (f"; and {sig.more} more." if sig.more > 0 else ".")

    def page_values(self) -> tuple[Any, bool]:
        """The page's full table (adjusted p-values) and whether it has every pair."""
        return self.result.adjusted_pvalues, self.result.control is None

    def figures(self, plotting: Any, which: str, width: float) -> tuple[str, Callable[..., Any]]:
        """The HTML report's figure ``which`` ("diagram", "heatmap"): its title and function."""
        if which == "heatmap":
            return self.table_words.capitalize(), plotting.apv_heatmap
        kind = plotting.choose_figure(self.result, width=width)  # reads at a screen's width
        title = "Rank intervals" if kind == "ranks" else "Critical difference diagram"
        func = plotting.cd_diagram if kind == "cd" else plotting.rank_plot
        return title, functools.partial(func, width=width)


class PosteriorEvidence(Evidence):
    """A Bayesian comparison's pairwise evidence: posterior probabilities and decisions."""

    table_words = "posterior probabilities"
    pairs_heading = "Decisions"
    groups_words = "with no pair decided different"
    inside_groups = "no pair decided different"
    tie_words = "not decided different from"
    untied_words = "is decided different from every other algorithm"

    @property
    def critical_difference(self) -> None:
        return None

    def level(self, markup: str = "text") -> str:
        return ""

    def settings(self, ge: str = ">=") -> str:
        """``"rope = 0.01, decisions at posterior probability >= 0.95"``."""
        result = self.result
        return (
            f"rope = {result.rope:g}, decisions at posterior probability {ge} {result.threshold:g}"
        )

    def method(self) -> str:
        return f"{_test(self.result)}, {self.settings()}{_versus(self.result)}"

    def markdown_method(self) -> str:
        return ", " + self.settings("≥")

    def table(self, order: list[str], ranks: np.ndarray, shown_as: list[str], label: str,
              adjusted: bool) -> Table:  # fmt: skip
        """The posterior probability that the column algorithm is practically better than the
        row (against a control: that the row is practically better than the control); marked
        where the pair is decided different."""
        result = self.result
        index = {a: i for i, a in enumerate(result.algorithms)}
        better = np.asarray(result._pairwise.posterior_better, dtype=float)
        decided = np.asarray(result._pairwise.decisions, dtype=object)
        rows = [index[a] for a in order]
        k = len(order)
        if result.control is not None:
            label = "posterior probability that the row algorithm is practically better"
            c = order.index(result.control)
            col = index[result.control]
            p = better[rows, col][:, None]
            sig = np.array([[decided[r, col] in ("A better", "B better")] for r in rows])
            shown = np.ones((k, 1), dtype=bool)
            shown[c] = False
            return Table(
                order, ranks, [result.control], p, sig & shown, shown, c, label,
                shown_as, [shown_as[c]],
            )  # fmt: skip
        label = "posterior probability that the column algorithm is practically better"
        cols = rows[:-1]
        p = better[np.ix_(cols, rows)].T  # [row i, column j] = P(column j better than row i)
        sig = np.isin(decided[np.ix_(rows, cols)], ("A better", "B better"))
        shown = np.tril(np.ones((k, k - 1), dtype=bool), -1)
        return Table(
            order, ranks, order[:-1], p, sig & shown, shown, None, label, shown_as, shown_as[:-1]
        )

    def legend(self, what: str, mark: str, markup: str, escape: Callable[[str], str]) -> str:
        result = self.result
        if result.control is not None:
            control = escape(display_name(result, result.control))
            where = "Posterior probabilities that the row algorithm is practically better than "
            where += f"the control {control}"
        else:
            where = "Posterior probabilities that the column algorithm is practically better"
            where += " than the row"
        where += f" ({_test(result)}, rope = {result.rope:g})"
        how = marked(mark, markup)
        if not how:
            return f"{where}."
        return (
            f"{where}; values {how} are pairs decided different (one direction reaches "
            f"posterior probability {_GE.get(markup, '≥')} {result.threshold:g})."
        )

    def pair_list(self, name: Callable[[str], str], markup: str, limit: int) -> PairList:
        """Every decided pair (and how many are undecided)."""
        ge = _GE.get(markup, "≥")
        settings = self.settings(ge)
        if markup == "html":
            return PairList(f"With {html.escape(settings)}:", decided_lines(self.result, name))
        return PairList(f"Decisions ({settings}):", decided_lines(self.result, name))

    def versus(self, control: str, others: list[str]) -> tuple[Any, Any]:
        """No p-values (NaN); significance = decided different from ``control``."""
        import pandas as pd

        result = self.result
        if result.control is None:
            sig = result.significant.loc[control, others]
        else:
            sig = result.significant.reindex(others)
        return pd.Series(float("nan"), index=sig.index), sig

    def settings_rows(self) -> list[tuple[str, str]]:
        result = self.result
        return [
            ("Region of practical equivalence (rope)", f"{result.rope:g}"),
            ("Decision threshold", f"posterior probability ≥ {result.threshold:g}"),
        ]

    def letters_caption(self, method: str) -> str:
        result = self.result
        return (
            f"have no pair decided different ({_test(result)}, rope = {result.rope:g}, "
            rf"posterior probability $\geq {result.threshold:g}$)."
        )

    def posthoc_paragraph(self, scope: str, correction: str, why: str) -> str:
        return ""  # no p-values to correct: the notes say how the posteriors read

    def notes(self, limit: int | None = None) -> list[str]:
        from ._notes import bayes_note, convergence_note

        sampler = convergence_note(self.result)  # a test fitted by MCMC
        return [bayes_note(self.result, limit), *([sampler] if sampler else [])]

    def summary_pairs(
        self, name: Callable[[str], str], rejects: bool, limit: int = MAX_PAIRS_LISTED
    ) -> str:
        return ""  # the notes list the decided pairs with their posteriors

    def page_values(self) -> tuple[Any, bool]:
        """P(row practically better than column), every pair."""
        return self.result.posterior_better, True

    def figures(self, plotting: Any, which: str, width: float) -> tuple[str, Callable[..., Any]]:
        if which == "heatmap":
            return self.table_words.capitalize(), plotting.posterior_plot
        # drawn at the screen width like the frequentist figure (at its 3.3 in default the
        # page's CSS would blow it up to three times its type size)
        return "Critical difference diagram", functools.partial(
            plotting.bayes_cd_diagram, width=width
        )


def _better_verb(result: Any) -> str:
    """``"scores higher than"`` (or lower) for a test on scores, else ``"ranks better than"``."""
    entry = entry_of(result.test)  # a test on the scores: the pair is worded by scores
    if entry is not None and entry.on_scores:
        return "scores higher than" if result.higher_is_better else "scores lower than"
    return "ranks better than"


def _test_direction(
    result: Any, listed: list[tuple[str, str, float, float]]
) -> list[tuple[str, str, float]]:
    """``(a, b, adjusted p)`` with ``a`` the algorithm the test finds better.

    The pairs come better-ranked first; the Wilcoxon signed-rank and the sign test compare
    the pair's own scores, and can favour the worse-ranked one (small wins of one, large
    wins of the other). Their statistic table says which: ``statistics[a, b]`` is the sum
    of the ranks (Wilcoxon) or the number (sign) of the datasets where ``a`` scores better.
    """
    statistics = np.asarray(getattr(result._pairwise, "statistics", ()), dtype=float)
    entry = entry_of(result.test)
    if entry is None or not entry.directed_statistic or statistics.ndim != 2:
        return [(a, b, apv) for a, b, _, apv in listed]
    index = {a: i for i, a in enumerate(result.algorithms)}
    out = []
    for a, b, _, apv in listed:
        i, j = index[a], index[b]
        out.append((b, a, apv) if statistics[j, i] > statistics[i, j] else (a, b, apv))
    return out


def _test(result: Any) -> str:
    return TEST_TITLES.get(result.test, result.test)


def _versus(result: Any) -> str:
    if result.control is None:
        return ""
    return f", vs control {display_name(result, result.control)!r}"


@functools.singledispatch
def evidence(result: Any) -> Evidence:
    """The pairwise evidence of ``result`` and its words (dispatched on the result's type)."""
    raise TypeError(f"not a comparison result: {type(result).__name__}")


@evidence.register
def _(result: ComparisonResult) -> Evidence:
    return Evidence(result)


@evidence.register
def _(result: BayesianComparisonResult) -> Evidence:
    return PosteriorEvidence(result)


class BenchmarkEvidence(Evidence):
    """One benchmark's comparison: p-values as a board's, and its means and paired
    differences in score units (``report/_benchmark.py``)."""

    subjects = ("models", "items")
    #: items up to which the page carries the explorer (a checkbox and the scores of each
    #: item: beyond, the page grows with the items and a reader no longer ticks them)
    explorer_max_items = 1000

    def explorer(self) -> bool:
        return self.result.n_datasets <= self.explorer_max_items

    def score_sections(self, markup: str, heading: str = "h2") -> list[str]:
        from ._benchmark import score_sections

        return score_sections(self.result, markup, heading)


@evidence.register
def _(result: BenchmarkComparison) -> Evidence:
    return BenchmarkEvidence(result)

"""The summary and the text report of one benchmark's comparison, in score units.

:func:`benchmark_summary` (``res.summary()`` of a :class:`~cdplot.stats.BenchmarkComparison`)
and :func:`benchmark_text` (``str(res)``) say what was compared in one line ("500 items,
45 clusters, 5 samples per item; cluster-robust"), each model's mean score with its interval,
the pairs with their paired difference, interval, p-values and the items won and lost, the
models tied for first and the groups. They read the result's parts (numpy, no pandas) and
compute no statistic.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from typing import Any

import numpy as np

from .._errors import CdplotInputError
from .._labels import TEST_TITLES, correction_title, format_pvalue
from ..stats._caveats import n_hypotheses
from ._intervals import interval_paragraphs, listed, shown
from ._model import SUMMARY_WIDTH, display_name, fill, input_line, p_clause
from ._summary import _CORRECTION_WHY, _correction_phrase, _test_why

__all__ = ["benchmark_summary", "benchmark_text", "design_line"]

#: models listed by name in the summary (the rest: res.model_statistics)
SUMMARY_MODELS = 10
#: pairs listed in the summary, smallest p-value first (the rest: res.differences)
SUMMARY_PAIRS = 10
#: pairs listed in the text report
TEXT_PAIRS = 30

#: how each interval of a mean or a difference is named
_INTERVALS = {
    "wilson": "Wilson score",
    "clopper-pearson": "Clopper-Pearson",
    "t": "t",
    "wald": "Wald",
    "bootstrap": "bootstrap",
    "cluster": "cluster-robust t",
    "korn-graubard": "Korn-Graubard",
    "tango": "Tango's score",
    "newcombe": "Newcombe's hybrid score",
    "clustered-t": "cluster-robust t",
    "percentile": "percentile bootstrap",
}


def _plural(n: float, word: str) -> str:
    shown = f"{n:g}" if isinstance(n, float) else str(n)
    return f"{shown} {word}" + ("" if n == 1 else "s")


def design_line(result: Any) -> str:
    """``"500 items, 45 clusters, 5 samples per item; cluster-robust"``: what was compared.

    Examples
    --------
    >>> import numpy as np
    >>> from cdplot.io._benchmark import BenchmarkItems
    >>> from cdplot.stats import compare_benchmark
    >>> from cdplot.report._benchmark import design_line
    >>> x = np.array([[1, 0], [1, 1], [0, 0], [1, 0]], dtype=float)
    >>> items = BenchmarkItems(("a", "b"), ("q1", "q2", "q3", "q4"), x, True)
    >>> design_line(compare_benchmark(items))
    '4 items; 0/1 scores'
    """
    part = result._benchmark
    parts = [_plural(part.n_items, "item")]
    if part.n_clusters is not None:
        parts.append(_plural(part.n_clusters, "cluster"))
    if part.samples_per_item is not None:
        per = part.samples_per_item
        shown = f"{per:g}" if float(per).is_integer() else f"{per:.1f}"
        parts.append(f"{shown} sample{'' if per == 1 else 's'} per item")
    how = "cluster-robust" if part.cluster_robust else ("0/1 scores" if part.binary else "")
    return ", ".join(parts) + (f"; {how}" if how else "")


def _number(result: Any) -> Callable[[float], str]:
    """How a score or a difference is written: 3 decimals on a 0..1 scale, else 4 digits."""
    means = np.asarray(result._benchmark.model_statistics.mean, dtype=float)
    small = result._benchmark.binary or bool(np.nanmax(np.abs(means), initial=0.0) <= 1.0)
    return (lambda x: f"{x:.3f}") if small else (lambda x: f"{x:.4g}")


def _signed(fmt: Callable[[float], str], x: float) -> str:
    return ("+" if x >= 0 else "") + fmt(x)


def _mean_lines(result: Any, limit: int | None, letters: bool = True) -> list[str]:
    """``"c  0.740  [0.675, 0.796]"``, best mean first."""
    stats = result._benchmark.model_statistics
    fmt = _number(result)
    index = {a: i for i, a in enumerate(result.algorithms)}
    order = list(result._parametric.mean_order)
    shown = order if limit is None else order[:limit]
    marks = result.letters if result.control is None and letters else {}
    width = max(len(display_name(result, a)) for a in shown)
    lines = []
    for a in shown:
        i = index[a]
        mark = f"  {marks[a]}" if a in marks else ""
        lines.append(
            f"  {display_name(result, a):<{width}}  {fmt(stats.mean[i])}  "
            f"[{fmt(stats.low[i])}, {fmt(stats.high[i])}]{mark}"
        )
    if limit is not None and len(order) > limit:
        lines.append(f"  ... and {len(order) - limit} more (res.model_statistics)")
    return lines


def _pairs(result: Any) -> list[tuple[int, int, float, bool]]:
    """The tested pairs ``(better mean, other, adjusted p, significant)``, smallest raw p
    first (ties by name)."""
    names = list(result.algorithms)
    rank = {a: r for r, a in enumerate(result._parametric.mean_order)}
    post = result._pairwise
    raw = np.asarray(post.pvalues, dtype=float)
    adjusted = np.asarray(post.adjusted_pvalues, dtype=float)
    significant = np.asarray(post.significant, dtype=bool)
    out = []
    if adjusted.ndim == 2:
        for i, j in zip(*np.triu_indices(len(names), 1), strict=True):
            out.append((int(i), int(j), float(adjusted[i, j]), bool(significant[i, j])))
    else:
        c = names.index(result.control)
        others = [j for j in range(len(names)) if j != c]
        for n, j in enumerate(others):
            out.append((c, j, float(adjusted[n]), bool(significant[n])))
    out = [(i, j, p, s) if rank[names[i]] < rank[names[j]] else (j, i, p, s) for i, j, p, s in out]
    return sorted(out, key=lambda t: (raw[t[0], t[1]], names[t[0]], names[t[1]]))


def _pair_line(result: Any, pair: tuple[int, int, float, bool]) -> str:
    """``"c - d: +0.465 [0.38, 0.55], p < 0.001, adjusted p < 0.001; won 111, lost 18"``."""
    i, j, apv, _ = pair
    stats = result._benchmark.pair_statistics
    fmt = _number(result)
    names = list(result.algorithms)
    wins = np.asarray(stats.wins)
    won, lost = (wins[i, j], wins[j, i]) if result.higher_is_better else (wins[j, i], wins[i, j])
    adjusted = "" if result.correction == "none" else f", adjusted {p_clause('p', apv)}"
    return (
        f"{display_name(result, names[i])} - {display_name(result, names[j])}: "
        f"{_signed(fmt, stats.difference[i, j])} [{_signed(fmt, stats.low[i, j])}, "
        f"{_signed(fmt, stats.high[i, j])}], {p_clause('p', stats.pvalues[i, j])}{adjusted}; "
        f"items won {int(won)}, lost {int(lost)} of {int(stats.n_items[i, j])}"
    )


def _wrapped(line: str) -> str:
    """A listed line at two spaces, wrapped at the summary's width (continued at four)."""
    return textwrap.fill(line, SUMMARY_WIDTH, initial_indent="  ", subsequent_indent="    ")


def _two_models(result: Any) -> str:
    """The one pair of two models: difference, interval, p-value, decision, items won."""
    better, other, _, significant = _pairs(result)[0]
    names = list(result.algorithms)
    stats = result._benchmark.pair_statistics
    fmt = _number(result)
    a, b = display_name(result, names[better]), display_name(result, names[other])
    wins = np.asarray(stats.wins)
    won, lost = wins[better, other], wins[other, better]
    if not result.higher_is_better:
        won, lost = lost, won
    n = int(stats.n_items[better, other])
    verdict = (
        f"{a} is significantly better at alpha = {result.alpha:g}"
        if significant
        else f"the difference is not significant at alpha = {result.alpha:g}"
    )
    return (
        f"Difference {a} - {b}: {_signed(fmt, stats.difference[better, other])}, "
        f"{stats.confidence:.0%} interval [{_signed(fmt, stats.low[better, other])}, "
        f"{_signed(fmt, stats.high[better, other])}] "
        f"({_INTERVALS.get(stats.interval, stats.interval)}), "
        f"{p_clause('p', stats.pvalues[better, other])} "
        f"({TEST_TITLES.get(result.test, result.test)}): {verdict}. Items: {a} won "
        f"{int(won)}, lost {int(lost)} and tied {n - int(won) - int(lost)} of {n}."
    )


def _tied_with_best(result: Any) -> str:
    """Which models are not significantly different from the best mean (all pairs)."""
    if result.control is not None or result.correction in ("fdr-bh", "fdr-by"):
        return ""
    names = list(result.algorithms)
    index = {a: i for i, a in enumerate(names)}
    significant = np.asarray(result._pairwise.significant, dtype=bool)
    best, *rest = list(result._parametric.mean_order)
    tied = [a for a in rest if not significant[index[best], index[a]]]
    if not tied:
        return f"Best: {display_name(result, best)}, significantly better than every other model."
    shown = [display_name(result, a) for a in tied[:SUMMARY_MODELS]]
    more = f", and {len(tied) - SUMMARY_MODELS} more" if len(tied) > SUMMARY_MODELS else ""
    return (
        f"Tied for first: {display_name(result, best)} (best mean) is not significantly "
        f"different from {len(tied)} of the {len(names) - 1} others: {', '.join(shown)}{more}."
    )


def _groups(result: Any, limit: int | None) -> str:
    if result.control is not None or not result.groups:
        return ""
    groups = result.groups
    shown = groups if limit is None else groups[:limit]
    text = "; ".join("{" + ", ".join(display_name(result, a) for a in g) + "}" for g in shown)
    more = f"; and {len(groups) - limit} more (res.groups)" if limit and len(groups) > limit else ""
    return (
        "Groups of models with no significant difference inside (by mean score, best "
        f"first): {text}{more}."
    )


def _opening(result: Any) -> list[str]:
    """Who was compared, then what in one line (the design), then the direction."""
    part = result._benchmark
    task = f" ({part.task})" if part.task else ""
    direction = "higher" if result.higher_is_better else "lower"
    who = fill(f"{result.n_algorithms} models compared on one benchmark{task}:")
    return [
        f"{who}\n{design_line(result)}.\n{direction.capitalize()} scores are better; means "
        "and differences are in score units."
    ]


def _method(result: Any) -> str:
    part = result._benchmark
    stats, pairs = part.model_statistics, part.pair_statistics
    scope = (
        f"every model against the control {display_name(result, result.control)}"
        if result.control is not None
        else "all pairs of models"
    )
    m = n_hypotheses(result)
    text = (
        f"Pairs: the {TEST_TITLES.get(result.test, result.test)} on the paired item scores "
        f"of {scope} ({m} tests), with {_correction_phrase(result)}, alpha = "
        f"{result.alpha:g}; intervals at {part.confidence:.0%} "
        f"({_INTERVALS.get(stats.interval, stats.interval)} for the means, "
        f"{_INTERVALS.get(pairs.interval, pairs.interval)} for the differences)."
    )
    why = _CORRECTION_WHY.get(result.correction, "").format(m=m)
    return text + (f" {why}" if why else "")


def benchmark_summary(
    result: Any, *, intervals: Any = None, effects: Any = None, pool: Any = None
) -> str:
    """Plain-language summary of a comparison of models on one benchmark's items.

    One line on what was compared (items, clusters, samples per item, cluster-robust or
    not), each model's mean score with its interval (and its letters), the test and the
    correction, the pairs (difference, interval, p-value, adjusted p-value, items won and
    lost; the ten smallest p-values on a larger board), the models tied for first and the
    groups.

    Parameters
    ----------
    result : BenchmarkComparison
        The result of :func:`cdplot.compare` on an item table with one task.
    intervals : RankIntervals, optional
        Rank intervals to state, with the set of the best and P(best): those of
        ``cdplot.rank_intervals(result, ...)`` (e.g. ``method="bootstrap"``, a bootstrap
        over the items).
    effects : pandas.DataFrame, optional
        Effect sizes to state: those of ``result.effect_sizes(...)``.
    pool : None
        The pool-sensitivity diagnostic is about the mean-ranks tests of a board of datasets;
        given for one benchmark it is refused.

    Returns
    -------
    str
        Paragraphs separated by blank lines, wrapped at 88 characters.

    Examples
    --------
    >>> import numpy as np
    >>> from cdplot.io._benchmark import BenchmarkItems
    >>> from cdplot.stats import compare_benchmark
    >>> x = (np.random.default_rng(0).random((100, 2)) < [0.4, 0.7]).astype(float)
    >>> items = BenchmarkItems(("base", "new"), tuple(map(str, range(100))), x, True)
    >>> print(compare_benchmark(items).summary().splitlines()[0])
    2 models compared on one benchmark:
    """
    if pool is not None:
        raise CdplotInputError(
            "pool= reports the pool sensitivity of a mean-ranks test on a board of datasets; "
            "a comparison on one benchmark's items has none: leave pool out."
        )
    given = shown(result, intervals, effects)
    large = result.n_algorithms > SUMMARY_MODELS
    paragraphs = _opening(result)
    if input_line(result):
        paragraphs.append(input_line(result))
    stats = result._benchmark.model_statistics
    two = result.n_algorithms == 2
    letters = " (models sharing a letter do not differ)" if result.control is None else ""
    letters = "" if two else letters
    lines = [f"Mean scores with {stats.confidence:.0%} intervals, best first{letters}:"]
    lines += _mean_lines(result, SUMMARY_MODELS if large else None, letters=not two)
    paragraphs.append("\n".join(lines))
    if result.n_algorithms == 2 and result.control is None:  # two runs: one question
        paragraphs.append(_two_models(result))
        paragraphs.append(_test_why(result.test))
        return _joined(paragraphs + _rank_paragraphs(result, given))
    paragraphs.append(_method(result))
    why = _test_why(result.test)
    if why:
        paragraphs.append(why)
    pairs = _pairs(result)
    listed = pairs[:SUMMARY_PAIRS] if large else pairs
    heading = "Paired differences (better mean first), smallest p-value first:"
    lines = [heading] + [_wrapped(_pair_line(result, p)) for p in listed]
    if len(pairs) > len(listed):
        lines.append(f"  ... and {len(pairs) - len(listed)} more pairs (res.differences)")
    n_sig = sum(p[3] for p in pairs)
    lines.append(f"  {n_sig} of {len(pairs)} pairs differ significantly.")
    paragraphs.append("\n".join(lines))
    paragraphs += [p for p in (_tied_with_best(result), _groups(result, 5 if large else None)) if p]
    paragraphs += _rank_paragraphs(result, given)
    # a board's caveats (the omnibus test's gate, its approximation on few datasets) are not
    # said: the pairs' tests control the family-wise error without the omnibus test
    return _joined(paragraphs)


def _rank_paragraphs(result: Any, given: tuple[Any, Any]) -> list[str]:
    """The given rank intervals with the set of the best and P(best), and the given effect
    sizes (nothing of what is not given)."""
    intervals, effects = given
    if intervals is None and effects is None:
        return []
    out = interval_paragraphs(result, intervals=intervals, effects=effects)
    if intervals is None:
        return out
    best = [display_name(result, a) for a in intervals.best_set]
    chance = sorted(zip(intervals.p_best, intervals.algorithms, strict=True), key=lambda t: -t[0])
    top = ", ".join(f"{display_name(result, a)} {p:.2f}" for p, a in chance[:5] if p > 0)
    out.append(
        f"Set of the best ({intervals.confidence:.0%}; the models that may rank first): "
        f"{listed(best)}. Chance of the best mean (P(best)): {top}."
    )
    return out


def _joined(paragraphs: list[str]) -> str:
    """The paragraphs wrapped (a line of its own or a list kept as it is), blank-separated."""
    out = [p if "\n" in p or len(p) <= SUMMARY_WIDTH else fill(p) for p in paragraphs if p]
    return "\n\n".join(out)


def benchmark_text(result: Any) -> str:
    """Plain-text report of a comparison on one benchmark: ``str(result)``.

    The design, the table of mean scores with intervals and letters, the pairs (at most
    :data:`TEXT_PAIRS`, smallest p-value first) and the groups.

    Examples
    --------
    >>> import numpy as np
    >>> from cdplot.io._benchmark import BenchmarkItems
    >>> from cdplot.stats import compare_benchmark
    >>> x = (np.random.default_rng(0).random((100, 2)) < [0.4, 0.7]).astype(float)
    >>> items = BenchmarkItems(("base", "new"), tuple(map(str, range(100))), x, True)
    >>> print(str(compare_benchmark(items)).splitlines()[0])
    Comparison of 2 models on one benchmark: 100 items; 0/1 scores (exact McNemar test, Holm correction, alpha = 0.05)
    """  # noqa: E501
    title = TEST_TITLES.get(result.test, result.test)
    how = "no correction" if result.correction == "none" else (
        f"{correction_title(result)} correction"
    )  # fmt: skip
    versus = f" vs {display_name(result, result.control)}" if result.control else ""
    lines = [
        f"Comparison of {result.n_algorithms} models on one benchmark: {design_line(result)} "
        f"({title}, {how}{versus}, alpha = {result.alpha:g})"
    ]
    if input_line(result):
        lines.append(fill(input_line(result)))
    stats = result._benchmark.model_statistics
    lines += ["", f"Mean scores with {stats.confidence:.0%} intervals, best first:"]
    lines += _mean_lines(result, None)
    pairs = _pairs(result)
    lines += ["", "Paired differences, smallest p-value first (* significant):"]
    for pair in pairs[:TEXT_PAIRS]:
        lines.append(f"  {_pair_line(result, pair)}{' *' if pair[3] else ''}")
    if len(pairs) > TEXT_PAIRS:
        lines.append(f"  ... and {len(pairs) - TEXT_PAIRS} more (see result.differences)")
    groups = _groups(result, None)
    if groups:
        lines += ["", fill(groups)]
    return "\n".join(lines)


# --------------------------------------------------------------------------- the formats
#: pairs a Markdown, LaTeX or HTML report lists (smallest p-value first)
REPORT_PAIRS = 30


def _score_rows(result: Any) -> tuple[list[list[str]], list[list[str]], str, str]:
    """The rows of the means table and of the pairs table (plain text cells), and their
    captions."""
    part = result._benchmark
    stats, pairs = part.model_statistics, part.pair_statistics
    fmt = _number(result)
    index = {a: i for i, a in enumerate(result.algorithms)}
    letters = result.letters if result.control is None else {}
    means = [
        [
            display_name(result, a),
            fmt(stats.mean[index[a]]),
            f"[{fmt(stats.low[index[a]])}, {fmt(stats.high[index[a]])}]",
            letters.get(a, ""),
        ]
        for a in result._parametric.mean_order
    ]
    names = list(result.algorithms)
    wins = np.asarray(pairs.wins)
    rows = []
    for i, j, apv, significant in _pairs(result)[:REPORT_PAIRS]:
        won, lost = (
            (wins[i, j], wins[j, i]) if result.higher_is_better else (wins[j, i], wins[i, j])
        )
        rows.append(
            [
                f"{display_name(result, names[i])} - {display_name(result, names[j])}",
                _signed(fmt, pairs.difference[i, j]),
                f"[{_signed(fmt, pairs.low[i, j])}, {_signed(fmt, pairs.high[i, j])}]",
                format_pvalue(pairs.pvalues[i, j]),
                format_pvalue(apv) + (" *" if significant else ""),
                str(int(won)),
                str(int(lost)),
            ]
        )
    level = f"{part.confidence:.0%}"
    mean_caption = (
        f"Mean scores with {level} {_INTERVALS.get(stats.interval, stats.interval)} "
        f"intervals ({design_line(result)}), best first"
        + ("; models sharing a letter do not differ significantly." if letters else ".")
    )
    pair_caption = (
        f"Paired differences with {level} {_INTERVALS.get(pairs.interval, pairs.interval)} "
        f"intervals, {TEST_TITLES.get(result.test, result.test)} p-values and "
        f"{correction_title(result)}-adjusted p-values (* significant at alpha = "
        f"{result.alpha:g}); items won and lost, smallest p-value first"
        + (
            f" ({REPORT_PAIRS} of {len(_pairs(result))})."
            if len(_pairs(result)) > REPORT_PAIRS
            else "."
        )
    )
    return means, rows, mean_caption, pair_caption


_MEAN_HEADER = ["Model", "Mean", "Interval", "Letters"]
_PAIR_HEADER = ["Pair", "Difference", "Interval", "p", "Adjusted p", "Won", "Lost"]


def score_sections(result: Any, markup: str, heading: str = "h2") -> list[str]:
    """One benchmark's means and paired differences in ``markup`` ("markdown", "latex" or
    "html"): lines of Markdown or LaTeX, or HTML ``<section>`` elements under ``heading``."""
    means, pairs, mean_caption, pair_caption = _score_rows(result)
    if markup == "markdown":
        return _markdown_tables(
            (mean_caption, _MEAN_HEADER, means), (pair_caption, _PAIR_HEADER, pairs)
        )
    if markup == "latex":
        return _latex_tables(
            (_MEAN_HEADER, means), (_PAIR_HEADER, pairs), mean_caption, pair_caption
        )
    return [
        _html_table("means", heading, "Mean scores", mean_caption, _MEAN_HEADER, means),
        _html_table(
            "differences", heading, "Paired differences", pair_caption, _PAIR_HEADER, pairs
        ),
    ]


def _markdown_tables(*tables: tuple[str, list[str], list[list[str]]]) -> list[str]:
    from ._markdown import escape_markdown

    lines: list[str] = []
    for caption, header, rows in tables:
        lines += [escape_markdown(caption), "", "| " + " | ".join(header) + " |"]
        lines.append("|" + "|".join([":---"] + ["---:"] * (len(header) - 1)) + "|")
        lines += ["| " + " | ".join(escape_markdown(c) for c in row) + " |" for row in rows]
        lines.append("")
    return lines


def _latex_tables(
    means: tuple[list[str], list[list[str]]],
    pairs: tuple[list[str], list[list[str]]],
    mean_caption: str,
    pair_caption: str,
) -> list[str]:
    from ._latex import escape_latex

    lines: list[str] = []
    for (header, rows), caption in ((means, mean_caption), (pairs, pair_caption)):
        spec = "l" + "r" * (len(header) - 1)
        lines += [
            "\\medskip",
            "",
            f"\\emph{{{escape_latex(caption)}}}",
            "",
            f"\\begin{{tabular}}{{{spec}}}",
        ]
        lines += ["\\toprule", " & ".join(escape_latex(h) for h in header) + " \\\\", "\\midrule"]
        lines += [" & ".join(escape_latex(c) for c in row) + " \\\\" for row in rows]
        lines += ["\\bottomrule", "\\end{tabular}"]
    return lines


def _html_table(
    name: str, heading: str, title: str, caption: str, header: list[str], rows: list[list[str]]
) -> str:
    import html

    esc = html.escape
    head = "".join(f"<th>{esc(h)}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td>{esc(c)}</td>" for c in row) + "</tr>" for row in rows)
    return (
        f'<section id="{name}"><{heading}>{esc(title)}</{heading}><table><caption>'
        f"{esc(caption)}</caption><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
        "</section>"
    )

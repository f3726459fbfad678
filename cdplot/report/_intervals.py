"""Rank intervals and effect sizes in words and tables: the summary's sentence, the report
sections ("Rank [95 % CI]", "Δ [95 % CI]") in Markdown, LaTeX and HTML.

What is shown is given explicitly: ``intervals=`` (of ``cdplot.rank_intervals(result,
...)``) and ``effects=`` (of ``cdplot.effect_sizes(result, ...)``) of ``summary()`` and the
reports; nothing computed earlier is remembered. Without ``intervals=``, the summary still
gives the rank intervals of the result's own decisions (``method="test"``) when they carry
the simultaneous coverage statement (all pairs, a correction with family-wise error control).
"""

from __future__ import annotations

import html
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from .._errors import CdplotInputError
from ..stats._effects import shown_effects
from ..stats._intervals import decision_bounds, shown_intervals
from ._model import display_name

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

    from ..stats._intervals import RankIntervals
    from ..stats._results import ComparisonResult

__all__ = [
    "by_name",
    "effect_text",
    "interval_paragraphs",
    "intervals_html",
    "intervals_latex",
    "intervals_markdown",
    "listed",
    "rank_interval_sentence",
    "shown",
]

#: the summary names at most this many intervals or pairs
MAX_LISTED = 12
DASH = "\N{EN DASH}"
_MEASURE_WORDS = {
    "mean": "mean difference",
    "hodges-lehmann": "Hodges-Lehmann estimate",
    "superiority": "probability of superiority",
    "cohen-d": "Cohen's d_z",
}


def _span(low: int, high: int) -> str:
    return f"{low}" if low == high else f"{low}{DASH}{high}"


def listed(names: list[str], limit: int | None = None) -> str:
    """``"A, B, C"``; beyond ``limit`` names, ``"A, B, and 8 more"``."""
    if limit is None or len(names) <= limit:
        return ", ".join(names)
    return ", ".join(names[:limit]) + f", and {len(names) - limit} more"


def rank_interval_sentence(
    names: list[str],
    low: np.ndarray,
    high: np.ndarray,
    limit: int = MAX_LISTED,
    max_names: int | None = None,
) -> str:
    """ "ranks 1–3 are statistically tied (A, B, C); rank of D: 4–9; ..." in display order.

    Consecutive algorithms that share an interval exactly as wide as their number form a
    tie; every other algorithm gets its own "rank of X: l–h". At most ``limit`` items, and
    in each at most ``max_names`` names (default: all).
    """
    items: list[str] = []
    i, k = 0, len(names)
    while i < k:
        j = i
        while j + 1 < k and low[j + 1] == low[i] and high[j + 1] == high[i]:
            j += 1
        size = j - i + 1
        if size > 1 and high[i] - low[i] + 1 == size:
            items.append(
                f"ranks {_span(low[i], high[i])} are statistically tied "
                f"({listed(names[i : j + 1], max_names)})"
            )
        elif size > 1:
            items.append(
                f"ranks of {listed(names[i : j + 1], max_names)}: {_span(low[i], high[i])}"
            )
        else:
            items.append(f"rank of {names[i]}: {_span(low[i], high[i])}")
        i = j + 1
    more = len(items) - limit
    text = "; ".join(items[:limit])
    return text + (f"; and {more} more" if more > 0 else "")


def shown(
    result: ComparisonResult, intervals: Any, effects: Any
) -> tuple[RankIntervals | None, pd.DataFrame | None]:
    """The rank intervals and effect sizes a report of ``result`` shows, checked.

    Raises
    ------
    CdplotInputError
        For ``intervals`` that are not rank intervals of ``result``'s algorithms, or
        ``effects`` not a frame of effect sizes of its pairs (the checks of
        ``stats._intervals.shown_intervals`` and ``stats._effects.shown_effects``).
    """
    return shown_intervals(result, intervals), shown_effects(result, effects)


def by_name(results: Mapping[str, Any], given: Any, what: str) -> dict[str, Any]:
    """``given`` (None, or a mapping of some of ``results``' names to what to show with
    each) as a dict; a name that is not one of ``results`` is refused.

    Raises
    ------
    CdplotInputError
        For ``given`` not a mapping, or a name not in ``results``.
    """
    if given is None:
        return {}
    if not isinstance(given, Mapping):
        raise CdplotInputError(
            f"{what}= of several results takes a mapping of their names to what to show "
            f"with each, got {type(given).__name__}; e.g. {what}={{name: ...}}."
        )
    unknown = [str(name) for name in given if name not in results]
    if unknown:
        raise CdplotInputError(
            f"{what}= names {unknown[0]!r}, which is not one of the results "
            f"({', '.join(map(str, results))}); key it by a result's name."
        )
    return dict(given)


def _units(result: ComparisonResult) -> str:
    """What a bootstrap of ``result`` resamples: its datasets, or one benchmark's items (its
    clusters when the items have clusters)."""
    if not hasattr(type(result), "benchmark_items"):
        return "datasets"
    clusters = getattr(result, "n_clusters", None)
    return f"the {clusters} clusters of items" if clusters else f"the {result.n_datasets} items"


def _intervals(
    result: ComparisonResult, given: RankIntervals | None
) -> tuple[list[str], np.ndarray, np.ndarray, str] | None:
    """The intervals to show (``given``, else the decisions') and how they were made."""
    if given is not None:
        how = (
            "from the significant pairs"
            if given.method == "test"
            else f"paired bootstrap over {_units(result)}, Mogstad et al. 2024"
        )
        scope = "simultaneous" if given.simultaneous else "one at a time"
        lead = f"{100 * given.confidence:g} % {scope}, {how}"
        return list(given.algorithms), given.low, given.high, lead
    bounds = decision_bounds(result)
    if bounds is None:
        return None
    order, low, high = bounds
    lead = f"{100 * (1 - result.alpha):g} % simultaneous, from the significant pairs"
    return order, low, high, lead


def interval_paragraphs(
    result: ComparisonResult,
    limit: int = MAX_LISTED,
    max_names: int | None = None,
    *,
    intervals: RankIntervals | None = None,
    effects: pd.DataFrame | None = None,
) -> list[str]:
    """The summary's paragraphs on rank intervals and effect sizes (may be empty): at most
    ``limit`` intervals or pairs, and at most ``max_names`` names in one interval.

    ``intervals`` and ``effects`` (checked by :func:`shown`) are shown when given; without
    ``intervals``, those of the result's own decisions when they carry the guarantee."""
    out = []
    lines = _intervals(result, intervals)
    if lines is not None and len(lines[0]) > 2:
        order, low, high, lead = lines
        names = [display_name(result, a) for a in order]
        sentence = rank_interval_sentence(names, low, high, limit, max_names)
        out.append(f"Rank intervals ({lead}): {sentence}.")
    if effects is not None and len(effects):
        rows = [
            f"{display_name(result, r.a)} vs {display_name(result, r.b)}: {effect_text(r)}"
            for r in effects.head(limit).itertuples()
        ]
        more = len(effects) - limit
        tail = f"; and {more} more" if more > 0 else ""
        out.append(f"Effect sizes ({_effect_head(effects)}): " + "; ".join(rows) + tail + ".")
    return out


def _number(x: float) -> str:
    return "nan" if not np.isfinite(x) else f"{x:.3g}"


def effect_text(row: Any) -> str:
    """``"0.0068 [0.0015, 0.012]"`` (estimate and interval), plus the practical label."""
    text = f"{_number(row.estimate)} [{_number(row.low)}, {_number(row.high)}]"
    practical = getattr(row, "practical", None)
    return text + (f" ({practical})" if isinstance(practical, str) else "")


def _effect_head(effects: pd.DataFrame) -> str:
    measure = str(effects["measure"].iloc[0])
    confidence = float(effects["confidence"].iloc[0])
    return f"{_MEASURE_WORDS.get(measure, measure)}, {100 * confidence:g} % CI"


def _delta_head(effects: pd.DataFrame) -> str:
    return f"\N{GREEK CAPITAL LETTER DELTA} [{100 * float(effects['confidence'].iloc[0]):g} % CI]"


def _rank_rows(
    result: ComparisonResult, given: RankIntervals | None
) -> tuple[str, list[tuple[str, str, str, str]]] | None:
    if given is None:
        return None
    head = f"Rank [{100 * given.confidence:g} % CI]"
    rows = [
        (display_name(result, a), f"{r:.2f}", _span(lo, hi), f"{p:.3f}")
        for a, r, lo, hi, p in zip(
            given.algorithms, given.average_rank, given.low, given.high, given.p_best,
            strict=True,
        )
    ]  # fmt: skip
    return head, rows


def intervals_markdown(
    result: ComparisonResult,
    escape: Any,
    intervals: RankIntervals | None = None,
    effects: pd.DataFrame | None = None,
) -> list[str]:
    """Markdown lines: the rank-interval table and the effect-size table, when given."""
    lines: list[str] = []
    ranks = _rank_rows(result, intervals)
    if ranks is not None:
        head, rows = ranks
        lines += ["", f"| Algorithm | Avg. rank | {head} | P(best) |", "|:---|---:|---:|---:|"]
        lines += [f"| {escape(a)} | {r} | {s} | {p} |" for a, r, s, p in rows]
    if effects is not None and len(effects):
        lines += [
            "",
            f"Effect sizes ({_effect_head(effects)}):",
            "",
            f"| Pair | {_delta_head(effects)} |",
            "|:---|---:|",
        ]
        lines += [
            f"| {escape(display_name(result, r.a))} vs {escape(display_name(result, r.b))} | "
            f"{effect_text(r)} |"
            for r in effects.itertuples()
        ]
    return lines


def intervals_latex(
    result: ComparisonResult,
    escape: Any,
    intervals: RankIntervals | None = None,
    effects: pd.DataFrame | None = None,
) -> list[str]:
    """Lines of LaTeX ``tabular``s (booktabs) of the rank intervals and effect sizes, when
    given, each after a ``\\medskip`` (to follow the main tabular in its float)."""
    parts = []
    ranks = _rank_rows(result, intervals)
    if ranks is not None:
        head, rows = ranks
        body = "\n".join(
            f"{escape(a)} & {r} & {s.replace(DASH, '--')} & {p} \\\\" for a, r, s, p in rows
        )
        parts.append(
            "\\begin{tabular}{lrrr}\n\\toprule\n"
            f"Algorithm & Avg.\\ rank & {escape(head)} & "
            "$P(\\mathrm{best})$ \\\\\n\\midrule\n" + body + "\n\\bottomrule\n\\end{tabular}"
        )
    if effects is not None and len(effects):
        conf = f"{100 * float(effects['confidence'].iloc[0]):g}"
        body = "\n".join(
            f"{escape(display_name(result, r.a))} vs {escape(display_name(result, r.b))} & "
            f"{escape(effect_text(r)).replace('-', '$-$')} \\\\"
            for r in effects.itertuples()
        )
        parts.append(
            "\\begin{tabular}{lr}\n\\toprule\n"
            f"Pair & $\\Delta$ [{conf}\\,\\% CI] \\\\\n\\midrule\n"
            + body
            + "\n\\bottomrule\n\\end{tabular}"
        )
    return [line for part in parts for line in ("", "\\medskip", "", part)]


def intervals_html(
    result: ComparisonResult,
    h2: str,
    prefix: str = "",
    intervals: RankIntervals | None = None,
    effects: pd.DataFrame | None = None,
) -> str:
    """HTML ``<section>``s of the rank intervals and effect sizes, when given."""
    esc = html.escape
    parts = []
    ranks = _rank_rows(result, intervals)
    if ranks is not None:
        head, rows = ranks
        body = "".join(
            f'<tr><td>{esc(a)}</td><td class="num">{r}</td><td class="num">{s}</td>'
            f'<td class="num">{p}</td></tr>'
            for a, r, s, p in rows
        )
        parts.append(
            f'<section id="{prefix}rank-intervals"><{h2}>Rank intervals</{h2}><table><thead>'
            f"<tr><th>Algorithm</th><th>Avg. rank</th><th>{esc(head)}</th><th>P(best)</th>"
            f"</tr></thead><tbody>{body}</tbody></table></section>"
        )
    if effects is not None and len(effects):
        body = "".join(
            f"<tr><td>{esc(display_name(result, r.a))} vs {esc(display_name(result, r.b))}"
            f'</td><td class="num">{esc(effect_text(r))}</td></tr>'
            for r in effects.itertuples()
        )
        parts.append(
            f'<section id="{prefix}effect-sizes"><{h2}>Effect sizes</{h2}>'
            f"<p>{esc(_effect_head(effects))}</p><table><thead><tr><th>Pair</th>"
            f"<th>{esc(_delta_head(effects))}</th></tr></thead><tbody>{body}</tbody></table>"
            "</section>"
        )
    return "".join(parts)

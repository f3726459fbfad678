"""Rank intervals and effect sizes in words and tables: the summary's sentence, the report
sections ("Rank [95 % CI]", "Δ [95 % CI]") in Markdown, LaTeX and HTML.

What is shown: the rank intervals and effect sizes last computed on the result
(``res.rank_intervals(...)``, ``res.effect_sizes(...)``); without them, the summary still
gives the rank intervals of the result's own decisions (``method="test"``) when they carry
the simultaneous coverage statement (all pairs, a correction with family-wise error control).
"""

from __future__ import annotations

import html
from typing import TYPE_CHECKING, Any

import numpy as np

from ..stats._effects import computed_effect_sizes
from ..stats._intervals import computed_rank_intervals, decision_bounds
from ._model import display_name

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

    from ..stats._results import ComparisonResult

__all__ = [
    "effect_text",
    "interval_paragraphs",
    "intervals_html",
    "intervals_latex",
    "intervals_markdown",
    "listed",
    "rank_interval_sentence",
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


def _intervals(result: ComparisonResult) -> tuple[list[str], np.ndarray, np.ndarray, str] | None:
    """The intervals to show and how they were made, or None."""
    stored = computed_rank_intervals(result)
    if stored is not None:
        how = (
            "from the significant pairs"
            if stored.method == "test"
            else "paired bootstrap over datasets, Mogstad et al. 2024"
        )
        scope = "simultaneous" if stored.simultaneous else "one at a time"
        lead = f"{100 * stored.confidence:g} % {scope}, {how}"
        return list(stored.algorithms), stored.low, stored.high, lead
    bounds = decision_bounds(result)
    if bounds is None:
        return None
    order, low, high = bounds
    lead = f"{100 * (1 - result.alpha):g} % simultaneous, from the significant pairs"
    return order, low, high, lead


def interval_paragraphs(
    result: ComparisonResult, limit: int = MAX_LISTED, max_names: int | None = None
) -> list[str]:
    """The summary's paragraphs on rank intervals and effect sizes (may be empty): at most
    ``limit`` intervals or pairs, and at most ``max_names`` names in one interval."""
    out = []
    shown = _intervals(result)
    if shown is not None and len(shown[0]) > 2:
        order, low, high, lead = shown
        names = [display_name(result, a) for a in order]
        sentence = rank_interval_sentence(names, low, high, limit, max_names)
        out.append(f"Rank intervals ({lead}): {sentence}.")
    effects = computed_effect_sizes(result)
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


def _rank_rows(result: ComparisonResult) -> tuple[str, list[tuple[str, str, str, str]]] | None:
    stored = computed_rank_intervals(result)
    if stored is None:
        return None
    head = f"Rank [{100 * stored.confidence:g} % CI]"
    rows = [
        (display_name(result, a), f"{r:.2f}", _span(lo, hi), f"{p:.3f}")
        for a, r, lo, hi, p in zip(
            stored.algorithms, stored.average_rank, stored.low, stored.high, stored.p_best,
            strict=True,
        )
    ]  # fmt: skip
    return head, rows


def intervals_markdown(result: ComparisonResult, escape: Any) -> list[str]:
    """Markdown lines: the rank-interval table and the effect-size table, when computed."""
    lines: list[str] = []
    ranks = _rank_rows(result)
    if ranks is not None:
        head, rows = ranks
        lines += ["", f"| Algorithm | Avg. rank | {head} | P(best) |", "|:---|---:|---:|---:|"]
        lines += [f"| {escape(a)} | {r} | {s} | {p} |" for a, r, s, p in rows]
    effects = computed_effect_sizes(result)
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


def intervals_latex(result: ComparisonResult, escape: Any) -> list[str]:
    """Lines of LaTeX ``tabular``s (booktabs) of the rank intervals and effect sizes, when
    computed, each after a ``\\medskip`` (to follow the main tabular in its float)."""
    parts = []
    ranks = _rank_rows(result)
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
    effects = computed_effect_sizes(result)
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


def intervals_html(result: ComparisonResult, h2: str, prefix: str = "") -> str:
    """HTML ``<section>``s of the rank intervals and effect sizes, when computed."""
    esc = html.escape
    parts = []
    ranks = _rank_rows(result)
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
    effects = computed_effect_sizes(result)
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

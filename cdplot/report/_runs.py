"""Sections about runs: aggregate scores and probabilities of improvement, in text, Markdown,
HTML and JSON.

They read the results of :func:`cdplot.aggregate_scores` and
:func:`cdplot.probability_of_improvement` (passed as ``runs=`` to the reports, or on their
own) and compute nothing.
"""

from __future__ import annotations

import html
import math
from typing import Any

from .._errors import CdplotInputError

__all__ = ["runs_html", "runs_json", "runs_markdown", "runs_parts", "runs_text"]

_TITLES = {"median": "Median", "iqm": "IQM", "mean": "Mean", "optimality-gap": "Opt. gap"}
#: Most pairs listed in the text and Markdown sections (the JSON holds all).
MAX_PAIRS = 20


def runs_parts(runs: Any) -> tuple[Any, Any]:
    """``(aggregates, improvement)`` from what was passed as ``runs=`` (either may be None).

    Accepts one of the two results or a sequence of them.
    """
    if runs is None:
        return None, None
    items = list(runs) if isinstance(runs, (list, tuple)) else [runs]
    aggregates = improvement = None
    for item in items:
        kind = type(item).__name__
        if kind == "RunAggregates":
            aggregates = item
        elif kind == "ImprovementProbabilities":
            improvement = item
        else:
            raise CdplotInputError(
                f"runs= takes the results of cdplot.aggregate_scores and "
                f"cdplot.probability_of_improvement, got {kind}."
            )
    return aggregates, improvement


def _interval(est: float, low: float, high: float) -> str:
    return f"{est:.3f} [{low:.3f}, {high:.3f}]"


def _aggregate_rows(agg: Any) -> tuple[list[str], list[list[str]]]:
    header = ["Algorithm", *(_TITLES[m] for m in agg.metrics)]
    rows = []
    for i, name in enumerate(agg.algorithms):
        cells = [
            _interval(agg.estimate[i, j], agg.low[i, j], agg.high[i, j])
            for j in range(len(agg.metrics))
        ]
        rows.append([name, *cells])
    return header, rows


def _aggregate_caption(agg: Any) -> str:
    counts = sorted({int(c) for c in agg.runs.ravel()})
    runs = f"{counts[0]}" if len(counts) == 1 else f"{counts[0]} to {counts[-1]}"
    scale = "normalised scores" if agg.normalised else "scores"
    gap = f"; optimality gap below {agg.gamma:g}" if "optimality-gap" in agg.metrics else ""
    return (
        f"Aggregate {scale} over {agg.n_tasks} tasks with {runs} runs each "
        f"[{agg.confidence:.0%} stratified-bootstrap interval over runs, "
        f"{agg.n_boot:,} replicates{gap}]."
    )


def _pairs(poi: Any) -> list[tuple[str, str, float, float, float]]:
    out = []
    k = len(poi.algorithms)
    for i in range(k):
        for j in range(i + 1, k):
            est, lo, hi = poi.estimate[i, j], poi.low[i, j], poi.high[i, j]
            x, y = poi.algorithms[i], poi.algorithms[j]
            if est < 0.5:  # write the better first
                x, y, est, lo, hi = y, x, 1.0 - est, 1.0 - hi, 1.0 - lo
            out.append((x, y, est, lo, hi))
    return sorted(out, key=lambda r: -r[2])


def _improvement_caption(poi: Any) -> str:
    return (
        f"Probability of improvement P(X > Y) over {poi.n_tasks} tasks "
        f"[{poi.confidence:.0%} stratified-bootstrap interval]; "
        "an interval above 0.5 says X beats Y on most runs."
    )


def runs_text(runs: Any) -> str:
    """Plain-text section of the aggregates and the probabilities of improvement."""
    agg, poi = runs_parts(runs)
    lines: list[str] = []
    if agg is not None:
        header, rows = _aggregate_rows(agg)
        widths = [max(len(r[c]) for r in [header, *rows]) for c in range(len(header))]
        lines += [_aggregate_caption(agg), ""]
        for row in [header, *rows]:
            lines.append("  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)))
    if poi is not None:
        lines += ["", _improvement_caption(poi)] if lines else [_improvement_caption(poi)]
        pairs = _pairs(poi)
        for x, y, est, lo, hi in pairs[:MAX_PAIRS]:
            lines.append(f"  P({x} > {y}) = {_interval(est, lo, hi)}")
        if len(pairs) > MAX_PAIRS:
            lines.append(f"  ... and {len(pairs) - MAX_PAIRS} more pairs")
    return "\n".join(lines)


def _md(text: str) -> str:
    return text.replace("|", "\\|").replace("*", "\\*").replace("_", "\\_")


def runs_markdown(runs: Any) -> list[str]:
    """Markdown lines of the section "Runs" (empty without ``runs``)."""
    agg, poi = runs_parts(runs)
    if agg is None and poi is None:
        return []
    lines = ["", "### Runs", ""]
    if agg is not None:
        header, rows = _aggregate_rows(agg)
        lines += [_aggregate_caption(agg), ""]
        lines.append("| " + " | ".join(header) + " |")
        lines.append("|" + "|".join([":---"] + ["---:"] * (len(header) - 1)) + "|")
        lines += ["| " + " | ".join([_md(r[0]), *r[1:]]) + " |" for r in rows]
    if poi is not None:
        lines += ["", _improvement_caption(poi), ""]
        lines += [
            f"- P({_md(x)} > {_md(y)}) = {_interval(e, lo, hi)}"
            for x, y, e, lo, hi in _pairs(poi)[:MAX_PAIRS]
        ]
    return lines


def runs_html(runs: Any, h2: str = "h2") -> list[str]:
    """HTML parts of the section "Runs" (empty without ``runs``)."""
    agg, poi = runs_parts(runs)
    if agg is None and poi is None:
        return []
    esc = html.escape
    parts = [f"<{h2}>Runs</{h2}>"]
    if agg is not None:
        header, rows = _aggregate_rows(agg)
        head = "".join(f"<th>{esc(h)}</th>" for h in header)
        body = "".join(
            "<tr>" + "".join(f"<td>{esc(c)}</td>" for c in row) + "</tr>" for row in rows
        )
        parts.append(
            f'<table class="cdplot-runs"><caption>{esc(_aggregate_caption(agg))}</caption>'
            f"<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
        )
    if poi is not None:
        items = "".join(
            f"<li>P({esc(x)} &gt; {esc(y)}) = {_interval(e, lo, hi)}</li>"
            for x, y, e, lo, hi in _pairs(poi)[:MAX_PAIRS]
        )
        parts.append(f"<p>{esc(_improvement_caption(poi))}</p><ul>{items}</ul>")
    return parts


def _number(x: float) -> float | None:
    return None if not math.isfinite(float(x)) else float(x)


def runs_json(runs: Any, profile: Any = None) -> dict[str, Any]:
    """The aggregates, probabilities of improvement and a profile as a JSON-ready dict."""
    agg, poi = runs_parts(runs)
    out: dict[str, Any] = {}
    if agg is not None:
        out["aggregates"] = {
            "confidence": agg.confidence,
            "n_boot": agg.n_boot,
            "gamma": agg.gamma,
            "normalised": agg.normalised,
            "n_tasks": agg.n_tasks,
            "rows": [
                {"algorithm": a, "metric": m, "estimate": _number(agg.estimate[i, j]),
                 "low": _number(agg.low[i, j]), "high": _number(agg.high[i, j])}
                for i, a in enumerate(agg.algorithms)
                for j, m in enumerate(agg.metrics)
            ],
        }  # fmt: skip
    if poi is not None:
        out["probability_of_improvement"] = {
            "confidence": poi.confidence,
            "n_boot": poi.n_boot,
            "pairs": [
                {"x": x, "y": y, "estimate": e, "low": lo, "high": hi}
                for x, y, e, lo, hi in _pairs(poi)
            ],
        }
    if profile is not None:
        out["profile"] = _profile_json(profile)
    return out


def _profile_json(profile: Any) -> dict[str, Any]:
    def rows(table: Any) -> list[list[float | None]] | None:
        if table is None:
            return None
        return [[_number(v) for v in row] for row in table]

    return {
        "kind": profile.kind,
        "algorithms": list(profile.algorithms),
        "tau": [_number(t) for t in profile.tau],
        "profile": rows(profile.profile),
        "low": rows(profile.low),
        "high": rows(profile.high),
        "confidence": profile.confidence,
        "n_boot": profile.n_boot,
    }

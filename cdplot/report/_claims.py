"""The verdicts of :func:`cdplot.check` in words: plain text and a pull-request comment.

``claims_text(check)`` is ``str(check)``; ``claims_markdown(check)`` the Markdown summary
``cdplot check --markdown FILE`` writes (a heading with the outcome, one table row per
claim, the evidence, and how the family of claims was tested).
"""

from __future__ import annotations

import math
from typing import Any

from .._labels import TEST_TITLES, format_pvalue
from ._markdown import escape_markdown

__all__ = ["claims_markdown", "claims_text", "evidence_text", "family_text", "procedure_text"]

#: the tests of a claim with a margin, in words
_SHIFTED = {
    "wilcoxon-shifted": "one-sided Wilcoxon signed-rank test of the differences shifted by "
    "the margin",
    "sign-shifted": "one-sided sign test of the differences shifted by the margin",
    "t-shifted": "one-sided paired t-test of the difference shifted by the margin "
    "(cluster-robust when the items come in clusters)",
    "tango": "Tango's score test of the paired proportions at the margin",
}
_OUTCOME = {
    0: "every claim is supported",
    1: "a claim is contradicted",
    3: "no claim is contradicted, and some are undecided",
}
_MARK = {"supported": "✅", "contradicted": "❌", "undecided": "❔"}


def procedure_text(verdict: Any) -> str:
    """The procedure behind one verdict's p-values, in words."""
    kind = verdict.claim.kind
    if verdict.test in _SHIFTED:
        return _SHIFTED[verdict.test]
    title = TEST_TITLES.get(verdict.test, verdict.test)
    if not title.endswith("test"):
        title += " test"
    if kind in ("best", "top"):
        return (
            f"intersection-union test over the rivals (one-sided {title}s, Bonferroni "
            "over the rivals that could displace it)"
        )
    return f"one-sided {title}"


def _p(name: str, p: float) -> str:
    """``name = 0.012``, or ``name < 0.001``."""
    shown = format_pvalue(p)
    return f"{name} < {shown[1:]}" if shown.startswith("<") else f"{name} = {shown}"


def _number(x: float) -> str:
    return "-" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.4g}"


def evidence_text(verdict: Any, label: Any = str) -> str:
    """The evidence that decided one verdict, in one sentence."""
    e, claim = verdict.evidence, verdict.claim
    if claim.kind in ("best", "top"):
        deciding = e["deciding"]
        contra = verdict.adjusted_contradict < verdict.adjusted_support
        which = "contradict" if verdict.verdict == "contradicted" or contra else "support"
        rival = deciding[which]
        up, down = e["rivals"][rival]
        parts = [
            f"deciding rival {label(rival)}: {_p(f'p({label(claim.subject)} better)', up)}, "
            f"{_p(f'p({label(rival)} better)', down)}"
        ]
        if "rank_interval" in e:
            low, high = e["rank_interval"]
            best = ", ".join(label(a) for a in e["best_set"])
            parts.append(
                f"rank interval [{low}, {high}] and set of the best {{{best}}} "
                f"({e['rank_confidence']:.0%}, from the comparison's tests)"
            )
        return "; ".join(parts)
    text = (
        f"mean difference {_number(e['estimate'])} (score units, {label(claim.subject)} minus "
        f"{label(claim.other)}), {e['confidence']:.0%} interval [{_number(e['low'])}, "
        f"{_number(e['high'])}] ({e['interval']}, n = {e['n']})"
    )
    if claim.kind == "not-worse":
        text += f"; margin {e['margin']:g}"
    return text


def _deciding_p(verdict: Any) -> float:
    if verdict.verdict == "contradicted":
        return verdict.adjusted_contradict
    if verdict.verdict == "supported":
        return verdict.adjusted_support
    return min(verdict.adjusted_support, verdict.adjusted_contradict)


def family_text(check: Any) -> str:
    """How the claims were tested together."""
    m = len(check.verdicts)
    lead = "The claim gives" if m == 1 else f"The {m} claims were tested together: each gives"
    return (
        f"{lead} two one-sided hypotheses (the claim is false; the claim is true), and "
        f"Holm's procedure over all {2 * m} p-values keeps the family-wise error rate of the "
        "verdicts (a false claim supported or a true one contradicted) at "
        f"alpha = {check.alpha:g}."
    )


def _label_of(check: Any) -> Any:
    result = check.result
    return lambda name: result.label(name) if name is not None else ""


def claims_text(check: Any) -> str:
    """``str(check)``: one paragraph per claim and how the family was tested."""
    label = _label_of(check)
    lines = [f"claims: {_OUTCOME[check.exit_code]} (exit status {check.exit_code})", ""]
    for v in check.verdicts:
        lines.append(f"{v.verdict.upper():<13}{v.claim.text}")
        lines.append(f"  {_p('adjusted p', _deciding_p(v))}; {procedure_text(v)}")
        lines.append(f"  {evidence_text(v, label)}")
    lines += ["", family_text(check)]
    return "\n".join(lines)


def claims_markdown(check: Any) -> str:
    """The Markdown summary of the verdicts, for a pull-request comment.

    Parameters
    ----------
    check : ClaimCheck
        What :func:`cdplot.check` returned.

    Returns
    -------
    str
        A heading with the outcome, a table (claim, verdict, adjusted p-value, test,
        evidence) and how the family of claims was tested.
    """
    label = _label_of(check)
    rows = [
        f"### cdplot check: {_OUTCOME[check.exit_code]}",
        "",
        "| claim | verdict | adjusted p | test | evidence |",
        "|---|---|---|---|---|",
    ]
    for v in check.verdicts:
        cells = (
            escape_markdown(v.claim.text),
            f"{_MARK[v.verdict]} {v.verdict}",
            format_pvalue(_deciding_p(v)),
            escape_markdown(procedure_text(v)),
            escape_markdown(evidence_text(v, label)),
        )
        rows.append("| " + " | ".join(cells) + " |")
    rows += ["", escape_markdown(family_text(check)), ""]
    return "\n".join(rows)

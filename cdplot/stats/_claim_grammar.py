"""The grammar of the claims :func:`cdplot.check` tests, and its parser.

A claim is one sentence about the models (algorithms) of a comparison::

    NAME is best                      NAME is the best
    NAME among the top N              (N a whole number, 1 <= N < number of models)
    NAME better than NAME
    NAME not worse than NAME by MARGIN   (MARGIN >= 0, in score units)

Keywords are case-insensitive; ``is`` before ``better``, ``not worse`` and ``among`` may be
written or left out. A name holding a keyword (``"A better than B" better than C``) is
quoted with ``'`` or ``"``. A name is the algorithm's name, or its display label; letter
case is ignored when that leaves one match. What the grammar cannot read is refused with
the grammar; an unknown name with the nearest names.
"""

from __future__ import annotations

import difflib
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .._errors import CdplotInputError

__all__ = ["CLAIM_GRAMMAR", "CLAIM_KINDS", "Claim", "parse_claim"]

#: The grammar, as every refusal of an unreadable claim shows it.
CLAIM_GRAMMAR = (
    "'NAME is best', 'NAME among the top N', 'NAME better than NAME', "
    "'NAME not worse than NAME by MARGIN' (MARGIN >= 0 in score units; quote a name that "
    "holds a keyword)"
)

#: kind -> what it says, for reports
CLAIM_KINDS = {
    "best": "is the best of all models",
    "top": "is among the top N models",
    "better": "is better than another model",
    "not-worse": "is not worse than another model by more than a margin",
}

_IS = r"(?:is\s+)?"
_PATTERNS = (
    ("not-worse", re.compile(
        rf"^(?P<a>.+?)\s+{_IS}not\s+worse\s+than\s+(?P<b>.+?)\s+by\s+(?P<m>\S+)$", re.I
    )),
    ("better", re.compile(rf"^(?P<a>.+?)\s+{_IS}better\s+than\s+(?P<b>.+)$", re.I)),
    ("top", re.compile(rf"^(?P<a>.+?)\s+{_IS}among\s+the\s+top\s+(?P<n>\S+)$", re.I)),
    ("best", re.compile(r"^(?P<a>.+?)\s+is\s+(?:the\s+)?best$", re.I)),
)  # fmt: skip
_QUOTED = re.compile(r"""(['"])(.+?)\1""")
_SLOT = "\x00{}\x00"


@dataclass(frozen=True)
class Claim:
    """One parsed claim.

    Attributes
    ----------
    text : str
        The claim as written.
    kind : {"best", "top", "better", "not-worse"}
        What it says (``"best"`` is ``"top"`` with ``top=1``).
    subject : str
        The algorithm the claim is about (its name in the comparison).
    other : str or None
        The algorithm it is compared with (``"better"``, ``"not-worse"``).
    margin : float or None
        The non-inferiority margin in score units (``"not-worse"``).
    top : int or None
        N of ``"among the top N"`` (1 for ``"best"``).
    """

    text: str
    kind: str
    subject: str
    other: str | None = None
    margin: float | None = None
    top: int | None = None


def _unreadable(text: str, why: str = "") -> CdplotInputError:
    return CdplotInputError(
        f"cannot read the claim {text!r}{why}; a claim is one of {CLAIM_GRAMMAR}."
    )


def resolve_name(name: str, names: Sequence[str], labels: Mapping[str, str], claim: str) -> str:
    """The algorithm ``name`` stands for: its name, its label, or either up to letter case.

    Raises
    ------
    CdplotInputError
        For a name that is none of them, with the nearest names (:mod:`difflib`).
    """
    if name in names:
        return name
    by_label = {str(v): k for k, v in labels.items() if k in names}
    if name in by_label:
        return by_label[name]
    folded = [n for n in names if n.casefold() == name.casefold()]
    folded += [k for v, k in by_label.items() if v.casefold() == name.casefold()]
    if len(set(folded)) == 1:
        return folded[0]
    pool = list(names) + [v for v in by_label if v not in names]
    folded_pool = {n.casefold(): n for n in reversed(pool)}
    near = [
        folded_pool[n]
        for n in difflib.get_close_matches(name.casefold(), list(folded_pool), n=3, cutoff=0.4)
    ]
    hint = (
        f" The nearest names: {', '.join(repr(n) for n in near)}."
        if near
        else f" The models are {', '.join(repr(n) for n in list(names)[:20])}"
        + (", ..." if len(names) > 20 else "")
        + "."
    )
    raise CdplotInputError(f"the claim {claim!r} names {name!r}, which is not a model.{hint}")


def _margin(text: str, value: str) -> float:
    try:
        margin = float(value)
    except ValueError:
        raise _unreadable(text, f": the margin {value!r} is not a number") from None
    if not math.isfinite(margin):
        raise _unreadable(text, f": the margin {value!r} is not a finite number")
    if margin < 0:
        raise CdplotInputError(
            f"the margin of the claim {text!r} is negative ({value}); a non-inferiority "
            "margin is the largest loss still accepted, a number >= 0 in score units "
            f"(e.g. 'by {abs(margin):g}'), whatever the direction of the scores."
        )
    return margin


def _top(text: str, value: str, k: int) -> int:
    if not re.fullmatch(r"\d+", value):
        raise _unreadable(text, f": N of 'among the top N' must be a whole number, got {value!r}")
    top = int(value)
    if not 1 <= top < k:
        raise CdplotInputError(
            f"the claim {text!r} says 'among the top {top}' of {k} models; N must be from 1 "
            f"to {k - 1} (every model is among the top {k})."
        )
    return top


def parse_claim(text: str, names: Sequence[str], labels: Mapping[str, str] | None = None) -> Claim:
    """Read one claim about the algorithms ``names`` (see :data:`CLAIM_GRAMMAR`).

    Parameters
    ----------
    text : str
        The claim, e.g. ``"A better than B"``.
    names : sequence of str
        The algorithms of the comparison.
    labels : mapping of str to str, optional
        Their display labels (a claim may name an algorithm by its label).

    Returns
    -------
    Claim

    Raises
    ------
    CdplotInputError
        An unreadable claim (the message shows the grammar), an unknown name (with the
        nearest names), a negative margin, N out of range, or a model compared with itself.

    Examples
    --------
    >>> claim = parse_claim("B not worse than A by 0.01", ["A", "B"])
    >>> claim.kind, claim.subject, claim.other, claim.margin
    ('not-worse', 'B', 'A', 0.01)
    """
    if not isinstance(text, str):
        raise CdplotInputError(
            f"a claim is a string, got {type(text).__name__}; e.g. 'A better than B'."
        )
    names = [str(n) for n in names]
    labels = dict(labels or {})
    quoted: list[str] = []

    def hide(match: re.Match[str]) -> str:
        quoted.append(match.group(2))
        return _SLOT.format(len(quoted) - 1)

    plain = " ".join(_QUOTED.sub(hide, text.strip()).split())

    def name(part: str) -> str:
        shown = re.sub("\x00(\\d+)\x00", lambda m: quoted[int(m.group(1))], part).strip()
        return resolve_name(shown, names, labels, text)

    for kind, pattern in _PATTERNS:
        match = pattern.match(plain)
        if match is None:
            continue
        subject = name(match.group("a"))
        if kind == "best":
            return Claim(text, kind, subject, top=1)
        if kind == "top":
            return Claim(text, kind, subject, top=_top(text, match.group("n"), len(names)))
        other = name(match.group("b"))
        if other == subject:
            raise CdplotInputError(
                f"the claim {text!r} compares {subject!r} with itself; name two models."
            )
        margin = _margin(text, match.group("m")) if kind == "not-worse" else None
        return Claim(text, kind, subject, other, margin=margin)
    raise _unreadable(text)

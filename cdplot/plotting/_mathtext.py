r"""Labels with ``$...$`` mathematics, checked before a figure draws them.

matplotlib reads a text with an even, non-zero number of unescaped dollar signs as
mathtext and parses it only when the figure is drawn: a name such as ``A$\frac{$B``
then ends in matplotlib's ``ValueError`` far from the call that passed it. Every figure
that draws names calls :func:`check_mathtext` first, so the mistake is reported as a
:class:`~cdplot.CdplotInputError` naming the label and the fix.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable

import matplotlib as mpl
from matplotlib.mathtext import MathTextParser

from .._errors import CdplotInputError, in_cli

__all__ = ["check_mathtext", "is_mathtext"]


def is_mathtext(label: str) -> bool:
    r"""Whether matplotlib draws ``label`` as mathtext (unescaped ``$`` signs, in pairs).

    The rule of :meth:`matplotlib.text.Text._preprocess_math`: the number of ``$``
    minus the number of ``\$`` is even and not zero, and ``text.parse_math`` is on
    (with ``text.usetex`` the text goes to LaTeX instead).
    """
    if mpl.rcParams["text.usetex"] or not mpl.rcParams["text.parse_math"]:
        return False
    dollars = label.count("$") - label.count(r"\$")
    return dollars > 0 and dollars % 2 == 0


@functools.cache
def _parser() -> MathTextParser:
    return MathTextParser("path")


def _reason(error: ValueError) -> str:
    """matplotlib's reason, short: its message is the text, a caret line, then
    ``ParseException: reason, found 'x'  (at char n), (line:1, col:m)``."""
    lines = [line.strip() for line in str(error).splitlines() if line.strip()]
    if not lines:
        return "invalid mathematics"
    return lines[-1].split("Exception:")[-1].split(", found")[0].strip()


def _message(text: str, reason: str, where: str) -> str:
    """The refusal, in the words of the command line there (as for a ``--title``)."""
    if in_cli():
        return (
            f"cannot draw the label '{text}': matplotlib reads text between $ signs as "
            f"mathematics and rejects it ({reason}); change the label (an algorithm name or "
            "the title), or write \\$ for a literal dollar sign."
        )
    return (
        f"{where} cannot draw the name {text!r}: matplotlib reads the text between its dollar "
        f"signs as mathematics and cannot parse it ({reason}). Escape the dollar signs as \\$ "
        "to show them as written, or correct the mathematics (e.g. with labels=...)."
    )


def check_mathtext(labels: Iterable[object], *, where: str) -> None:
    r"""Refuse a label whose ``$...$`` mathematics matplotlib cannot parse.

    Each label that matplotlib will draw as mathtext (:func:`is_mathtext`) is parsed
    with :class:`matplotlib.mathtext.MathTextParser`, as drawing it would; labels
    without a pair of unescaped dollar signs are drawn as plain text and not parsed.

    Parameters
    ----------
    labels : iterable
        The texts the figure draws (names; converted with ``str``).
    where : str
        What draws them, for the message (e.g. ``"cd_diagram"``).

    Raises
    ------
    CdplotInputError
        For the first label that does not parse: the label, matplotlib's reason, and
        the fix (escape the dollar signs as ``\$``, or correct the mathematics); on the
        command line in its words for a ``--title`` that fails.
    """
    for label in labels:
        text = str(label)
        if not is_mathtext(text):
            continue
        try:
            _parser().parse(text)
        except ValueError as error:
            raise CdplotInputError(_message(text, _reason(error), where)) from None

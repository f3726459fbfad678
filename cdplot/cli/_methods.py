"""``cdplot compare ... --methods FILE --bib FILE``: the paper's methods paragraph and its
BibTeX (:func:`cdplot.report._methods.methods_text`, ``methods_bibtex``).

The paragraph is LaTeX for a ``.tex`` file (citing with ``\\cite``), Markdown otherwise
(``.md``, ``.markdown``, ``.txt``, or ``-``); it describes the rank intervals and effect
sizes that ``--rank-intervals`` and ``--effect-size`` computed.
"""

from __future__ import annotations

import argparse
import os
from typing import Any

from .._errors import CdplotInputError
from ._output import STDOUT, Content, Target

__all__ = ["METHODS_OUTPUTS", "add_methods_options", "methods_contents", "methods_wanted"]

#: the outputs of this module: (option, dest)
METHODS_OUTPUTS = (("--methods", "methods"), ("--bib", "bib"))
_FORMATS = {".tex": "latex", ".md": "markdown", ".markdown": "markdown", ".txt": "markdown"}


def add_methods_options(parser: argparse.ArgumentParser) -> None:
    """``--methods FILE`` and ``--bib FILE``."""
    group = parser.add_argument_group("the paper's methods paragraph")
    group.add_argument(
        "--methods",
        metavar="FILE",
        help="a methods paragraph worded from the analysis: LaTeX for .tex (\\cite keys of "
        "--bib), Markdown for .md, .txt or -",
    )
    group.add_argument("--bib", metavar="FILE", help="the BibTeX entries the paragraph cites")


def _format(path: str) -> str:
    if path == STDOUT:
        return "markdown"
    ext = os.path.splitext(path)[1].lower()
    if ext not in _FORMATS:
        raise CdplotInputError(
            f"cannot tell the format of --methods {path!r} from its extension; name it .tex "
            "(LaTeX) or .md (Markdown)."
        )
    return _FORMATS[ext]


def methods_contents(
    results: dict[str, Any],
    args: argparse.Namespace,
    targets: dict[str, Target],
    shown: dict[str, dict[str, Any]],
) -> list[tuple[Target, Content]]:
    """The ``--methods`` and ``--bib`` outputs asked for (none when not asked)."""
    asked = [(option, getattr(args, dest, None)) for option, dest in METHODS_OUTPUTS]
    asked = [(option, path) for option, path in asked if path]
    if not asked:
        return []
    if len(results) != 1:
        raise CdplotInputError(
            f"{asked[0][0]} describes one comparison, and this run makes {len(results)}; "
            "run cdplot compare once per file or metric for the methods paragraph."
        )
    ((name, result),) = results.items()
    extra = {what: by_name.get(name) for what, by_name in shown.items()}
    out: list[tuple[Target, Content]] = []
    for option, path in asked:
        if option == "--methods":
            text = result.methods_text(_format(path), **extra) + "\n"
        else:
            text = result.methods_bibtex(**extra)
        out.append((targets[option], text.encode("utf-8")))
    return out


def methods_wanted(args: argparse.Namespace) -> list[tuple[str, Any]]:
    """``(option, path)`` of ``--methods`` and ``--bib`` (None when not given), for the
    plan of the outputs; a ``--methods`` file of unknown format is refused here, before
    anything is read."""
    if getattr(args, "methods", None):
        _format(args.methods)
    return [(option, getattr(args, dest, None)) for option, dest in METHODS_OUTPUTS]

"""Names that say something about the table: summary rows, lower-is-better measures.

- A row named ``Average``, ``Mean``, ``Rank``, ``Total``, ... at the foot of a wide table is a
  summary of the rows above it, not one more dataset: it is refused, naming the row and how
  to drop it.
- A score column or a file named like an error, a loss or a time (``rmse``, ``fit_time``,
  ``error.csv``) is probably lower-is-better; when the caller was not told the direction,
  one warning says how to give it. The direction itself never changes silently.
"""

from __future__ import annotations

import os
import re
import warnings
from collections.abc import Sequence
from typing import Any

from .._errors import CdplotInputError, CdplotWarning, in_cli, spell
from ._roles import Roles

__all__ = [
    "LOWER_IS_BETTER_WORDS",
    "SUMMARY_ROW_NAMES",
    "lower_is_better_word",
    "refuse_summary_rows",
    "warn_if_lower_is_better",
]

#: Row names of a summary row at the foot of a wide table (compared lower case, without
#: spaces, dots, underscores and hyphens).
SUMMARY_ROW_NAMES = (
    "Average",
    "Mean",
    "Avg",
    "Rank",
    "Avg. rank",
    "Average rank",
    "Mean rank",
    "Total",
    "Wins",
    "Median",
)
#: Words of a score column's or a file's name that say lower is better: a name whose
#: words (split at ``_``, ``-``, ``.``, spaces and case changes) include one of them, or
#: end with one (``runtime``, ``logloss``), plural or not.
LOWER_IS_BETTER_WORDS = (
    "error",
    "loss",
    "time",
    "rmse",
    "mae",
    "mse",
    "latency",
    "memory",
    "regret",
)


def _key(name: str) -> str:
    return re.sub(r"[\s._\-]", "", name).lower()


_SUMMARY = {_key(n) for n in SUMMARY_ROW_NAMES}


def refuse_summary_rows(datasets: Sequence[str], column: Any) -> None:
    """Refuse summary rows (:data:`SUMMARY_ROW_NAMES`) at the foot of a wide table."""
    if not datasets or _key(datasets[-1]) not in _SUMMARY:
        return
    foot: list[str] = []
    for name in reversed(datasets):
        if _key(name) not in _SUMMARY:
            break
        foot.insert(0, name)
    rows = ", ".join(repr(n) for n in foot)
    where = f"column {str(column)!r}" if column is not None else "the row names"
    if in_cli():
        how = f"delete the line(s) from the file (e.g. grep -v '^{foot[0]}' FILE)"
    else:
        how = (
            f"drop them first, e.g. df = df[~df[{str(column)!r}].isin({foot!r})]"
            if column is not None
            else f"drop them first, e.g. df = df.drop(index={foot!r})"
        )
    raise CdplotInputError(
        f"the last row{'s' if len(foot) > 1 else ''} of the table ({rows} in {where}) "
        f"look{'' if len(foot) > 1 else 's'} like a summary of the datasets above, not a "
        f"dataset; {how}."
    )


def _words(name: str) -> list[str]:
    spaced = re.sub(r"([a-z])([A-Z])", r"\1 \2", name)
    return [w for w in re.split(r"[^A-Za-z0-9]+", spaced.lower()) if w]


def lower_is_better_word(name: str) -> str | None:
    """The word of :data:`LOWER_IS_BETTER_WORDS` that ``name`` contains, or None.

    >>> lower_is_better_word("fit_time"), lower_is_better_word("accuracy")
    ('time', None)
    """
    for word in _words(name):
        for form in (word, word[:-1] if word.endswith("s") else word):
            for measure in LOWER_IS_BETTER_WORDS:
                if form.endswith(measure):
                    return measure
    return None


def warn_if_lower_is_better(roles: Roles, source: str | None, stacklevel: int) -> None:
    """One warning when the score column or the file is named like an error, loss or time."""
    named = [(f"score column {str(c)!r}", str(c)) for c in roles.scores if roles.kind == "long"]
    if source and not source.startswith("<"):
        stem = os.path.splitext(os.path.basename(source))[0]
        named.append((f"file {os.path.basename(source)!r}", stem))
    for what, name in named:
        word = lower_is_better_word(name)
        if word is not None:
            keep = (
                " (or --higher-is-better to keep it)"
                if in_cli()
                else f" (or {spell('higher_is_better', True)} to keep it)"
            )
            warnings.warn(
                f"the {what} says {word!r}, usually lower is better, but the scores are "
                f"ranked higher-is-better; pass {spell('higher_is_better', False)} if lower "
                f"is better{keep}.",
                CdplotWarning,
                stacklevel=stacklevel,
            )
            return

"""Re-runs: several logs of one model on one task, of which the newest is read.

A harness run twice (a retry, a re-run after a fix) leaves two logs of the same model and
task. When they score the same items, the newest is read and the choice is announced in the
input notes; when they disagree on the items, which one is meant cannot be guessed and the
input is refused, naming both logs.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from pathlib import Path

from .._errors import CdplotInputError

__all__ = ["Run", "newest_runs"]


@dataclass(frozen=True)
class Run:
    """One log: its (model, task) key, when it was made (sortable text), file and items."""

    key: tuple[str, str]
    created: str
    path: Path
    items: frozenset[Hashable]


def _differ(a: Run, b: Run) -> str:
    only_a, only_b = sorted(a.items - b.items, key=str), sorted(b.items - a.items, key=str)
    example = (
        f"item {str(only_a[0])!r} only in the first"
        if only_a
        else f"item {str(only_b[0])!r} only in the second"
    )
    return f"{len(a.items)} and {len(b.items)} items; {example}"


def newest_runs(runs: Sequence[Run], what: str) -> tuple[list[Run], list[str]]:
    """The newest run of each (model, task), and a note for each choice made.

    Parameters
    ----------
    runs : sequence of Run
        Every log read.
    what : str
        What a log is called in messages ("samples file", "log").

    Returns
    -------
    (list of Run, list of str)
        The runs kept (input order) and one note per (model, task) with several runs.

    Raises
    ------
    CdplotInputError
        When two runs of one model and task score different items.
    """
    by_key: dict[tuple[str, str], list[Run]] = {}
    for run in runs:
        by_key.setdefault(run.key, []).append(run)
    kept, notes = [], []
    for (model, task), group in by_key.items():
        newest = max(group, key=lambda r: (r.created, str(r.path)))
        for other in group:
            if other.items != newest.items:
                raise CdplotInputError(
                    f"model {model!r} has {len(group)} {what}s of task {task!r} that disagree "
                    f"on the items: {str(newest.path)!r} and {str(other.path)!r} "
                    f"({_differ(newest, other)}); keep the one you mean (move the other out "
                    f"of the input) and read again."
                )
        kept.append(newest)
        if len(group) > 1:
            notes.append(
                f"model {model!r}, task {task!r}: {len(group)} {what}s on the same items, "
                f"read the newest ({newest.path.name})"
            )
    return kept, notes

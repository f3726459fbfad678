"""The item-level part of ``cdplot compare``: within-task tests and hierarchical intervals.

Printed after the summary when the input has items (``res.items``); ``--item-tests FILE``
writes the per-task table as CSV.
"""

from __future__ import annotations

from typing import Any

from ._csv import csv_bytes

__all__ = ["item_outputs"]

#: replicates and seed of the hierarchical bootstrap the command line prints
N_BOOT, SEED = 1000, 0


def item_outputs(result: Any) -> tuple[str, bytes]:
    """The printed text and the per-task CSV of an item-level result."""
    from ..stats._items import hierarchical_rank_intervals, item_tests, item_wins

    tests = item_tests(result)
    wins = item_wins(tests)
    n_tasks = len(result.datasets)
    kinds = ", ".join(sorted(set(tests["test"])))
    lines = [
        f"Within-task tests on the items ({kinds}; {tests.attrs['correction']} over "
        f"{len(tests)} pairs x tasks, alpha {tests.attrs['alpha']:g}):"
    ]
    counts = [
        (int(wins.loc[a, b]), a, b) for a in wins.index for b in wins.columns if wins.loc[a, b]
    ]
    if not counts:
        lines.append("  no pair differs significantly on any task")
    for n, a, b in sorted(counts, key=lambda c: (-c[0], c[1], c[2])):
        lines.append(f"  {result.label(a)} better than {result.label(b)} on {n} of {n_tasks} tasks")
    ci = hierarchical_rank_intervals(result, n_boot=N_BOOT, random_state=SEED)
    lines.append(
        f"Average ranks with {ci.attrs['confidence']:.0%} hierarchical bootstrap intervals "
        f"(tasks, then items; {N_BOOT} replicates, seed {SEED}):"
    )
    width = max(len(result.label(a)) for a in ci.index)
    for name, row in ci.iterrows():
        lines.append(
            f"  {result.label(name):<{width}}  {row.average_rank:.2f}  "
            f"[{row.low:.2f}, {row.high:.2f}]"
        )
    return "\n".join(lines), csv_bytes(tests)

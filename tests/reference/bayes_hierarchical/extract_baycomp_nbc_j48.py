"""Write baycomp_nbc_j48.csv from a copy of baycomp's docs/code/accuracies.txt.

Usage: ``python extract_baycomp_nbc_j48.py ACCURACIES_TXT [OUT_CSV]``.

The input is the file of the repository janezd/baycomp at commit
2b2ef604e363efa8fb777347a973e6c13c87d846 (or the part of it holding the ``nbc`` and ``j48``
blocks): a classifier's name on a line of its own, then one line per data set, the data set's
name and its 100 accuracies (in percent; 10 runs of 10-fold cross-validation, run after run),
as baycomp's ``docs/code/data.py`` reads it. The output has one row per data set and column:
``row`` (0-53, the data set's line; the file lists ``credit`` twice, as lines 5 and 6),
``dataset``, ``run`` and ``fold`` (0-9; column ``10 * run + fold``), ``nbc`` and ``j48``,
the numbers as printed in the file.
"""

from __future__ import annotations

import csv
import sys

CLASSIFIERS = ("nbc", "j48")
DATASETS = 54
COLUMNS = 100


def read_blocks(path: str) -> dict[str, list[tuple[str, list[str]]]]:
    """Classifier -> [(data set, its 100 accuracies as text)], in the file's order."""
    blocks: dict[str, list[tuple[str, list[str]]]] = {}
    current = None
    with open(path) as f:
        for line in f:
            words = line.split()
            if not words:
                continue
            if len(words) == 1:  # a classifier's name
                current = words[0]
                if current in blocks:
                    raise ValueError(f"classifier {current!r} appears twice")
                blocks[current] = []
            elif current is None:
                raise ValueError("a data set line before the first classifier's name")
            else:
                blocks[current].append((words[0], words[1:]))
    return blocks


def main(source: str, out: str = "baycomp_nbc_j48.csv") -> None:
    blocks = read_blocks(source)
    nbc, j48 = (blocks[c] for c in CLASSIFIERS)
    if len(nbc) != DATASETS or len(j48) != DATASETS:
        raise ValueError(f"expected {DATASETS} data sets, got {len(nbc)} and {len(j48)}")
    if [d for d, _ in nbc] != [d for d, _ in j48]:
        raise ValueError("the two classifiers list different data sets")
    for name, values in nbc + j48:
        if len(values) != COLUMNS:
            raise ValueError(f"{name}: {len(values)} accuracies, expected {COLUMNS}")
        for v in values:
            float(v)  # every cell a number
    with open(out, "w", newline="") as f:
        writer = csv.writer(f, lineterminator="\n")
        writer.writerow(["row", "dataset", "run", "fold", *CLASSIFIERS])
        for row, ((name, a), (_, b)) in enumerate(zip(nbc, j48, strict=True)):
            for column in range(COLUMNS):
                writer.writerow([row, name, column // 10, column % 10, a[column], b[column]])


if __name__ == "__main__":
    main(*sys.argv[1:])

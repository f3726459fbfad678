"""Write baycomp_hnb.csv from a copy of baycomp's docs/code/accuracies.txt.

Usage: ``python extract_baycomp_hnb.py ACCURACIES_TXT [OUT_CSV]``.

The input is the file of the repository janezd/baycomp at commit
2b2ef604e363efa8fb777347a973e6c13c87d846 (or the part of it holding the ``hnb`` block,
its characters 79,254 to 119,097): a classifier's name on a line of its own, then
one line per data set, the data set's name and its 100 accuracies (in percent; 10 runs of
10-fold cross-validation, run after run), as baycomp's ``docs/code/data.py`` reads it. The
output has one row per data set and column: ``row`` (0-53, the data set's line; the file
lists ``credit`` twice, as lines 5 and 6), ``dataset``, ``run`` and ``fold`` (0-9; column
``10 * run + fold``) and ``hnb``, the numbers as printed in the file: the same layout as
``baycomp_nbc_j48.csv``, whose rows it pairs with.
"""

from __future__ import annotations

import csv
import sys

CLASSIFIER = "hnb"
DATASETS = 54
COLUMNS = 100


def read_block(path: str, classifier: str) -> list[tuple[str, list[str]]]:
    """[(data set, its 100 accuracies as text)] of one classifier, in the file's order."""
    rows: list[tuple[str, list[str]]] = []
    current = None
    with open(path) as f:
        for line in f:
            words = line.split()
            if not words:
                continue
            if len(words) == 1:  # a classifier's name
                current = words[0]
            elif current == classifier:
                rows.append((words[0], words[1:]))
    return rows


def main(source: str, out: str = "baycomp_hnb.csv") -> None:
    rows = read_block(source, CLASSIFIER)
    if len(rows) != DATASETS:
        raise ValueError(f"expected {DATASETS} data sets, got {len(rows)}")
    for name, values in rows:
        if len(values) != COLUMNS:
            raise ValueError(f"{name}: {len(values)} accuracies, expected {COLUMNS}")
        for v in values:
            if not 0.0 <= float(v) <= 100.0:
                raise ValueError(f"{name}: {v} is not a percentage")
    with open(out, "w", newline="") as f:
        writer = csv.writer(f, lineterminator="\n")
        writer.writerow(["row", "dataset", "run", "fold", CLASSIFIER])
        for row, (name, values) in enumerate(rows):
            for column in range(COLUMNS):
                writer.writerow([row, name, column // 10, column % 10, values[column]])


if __name__ == "__main__":
    main(*sys.argv[1:])

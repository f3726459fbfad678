"""Build a 30 x 5 rank table whose column means are García & Herrera's (2008) published ranks.

The published raw scores (their Table 2) contain a typo (OptDigits has two rank-1 entries),
so no score table from the paper reproduces the published average ranks. This script builds
one deterministic rank table with exactly the published rank sums (63, 97.5, 66, 130, 93.5
over 30 data sets) and writes cdplot/datasets/garcia2008_synthetic.csv. Run from the repo root:
``python tests/reference/make_garcia2008_synthetic.py``.
"""

from __future__ import annotations

import itertools

import numpy as np

TARGET = np.array([63.0, 97.5, 66.0, 130.0, 93.5])  # García & Herrera (2008), Table 2 ranks x 30
NAMES = ["C4.5", "1-NN", "NaiveBayes", "Kernel", "CN2"]


def build() -> np.ndarray:
    rng = np.random.default_rng(2008)
    perms = np.array(list(itertools.permutations(range(1, 6))), dtype=float)
    # one data set where 1-NN and CN2 tie for ranks 3 and 4 gives the two half ranks
    tied = np.array([1.0, 3.5, 2.0, 5.0, 3.5])
    target = TARGET - tied
    rows = perms[rng.integers(len(perms), size=29)]
    for _ in range(200000):
        err = rows.sum(axis=0) - target
        if not err.any():
            break
        i = rng.integers(29)
        cand = perms[rng.integers(len(perms))]
        new_err = err - rows[i] + cand
        if np.abs(new_err).sum() <= np.abs(err).sum():
            rows[i] = cand
    else:  # pragma: no cover
        raise RuntimeError("no table found")
    return np.vstack([rows[:14], tied, rows[14:]])


if __name__ == "__main__":
    table = build()
    assert np.array_equal(table.sum(axis=0), TARGET)
    with open("cdplot/datasets/garcia2008_synthetic.csv", "w", encoding="utf-8") as fh:
        fh.write("dataset," + ",".join(NAMES) + "\n")
        for i, row in enumerate(table, start=1):
            fh.write(f"D{i}," + ",".join(f"{v:g}" for v in row) + "\n")

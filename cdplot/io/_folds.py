"""Per-fold scores kept apart: the ``datasets x algorithms x folds`` array of a table of runs.

:func:`parse_scores` turns the runs of a cell (one row per fold, seed, ...) into one score;
a test that reads the folds themselves (the Bayesian hierarchical test) gets them here, from
the same table and the same column roles. The folds of a cell are told apart by the values
of the repetition columns (``fold``, ``run``, ``seed``, ...), so fold ``j`` of one algorithm
is paired with fold ``j`` of another (the same split); without a repetition column, by the
order of the rows within the cell.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .._errors import CdplotInputError
from ._parse import _as_table, _factorize, _names, _roles
from ._values import to_scores

__all__ = ["FoldScores", "read_folds"]


@dataclass(frozen=True)
class FoldScores:
    """Per-fold scores: ``scores[i, j, f]`` of algorithm ``j`` on fold ``f`` of dataset ``i``."""

    scores: np.ndarray
    datasets: list[str]
    algorithms: list[str]
    folds: list[str]

    def select(self, datasets: list[str], algorithms: list[str]) -> np.ndarray:
        """The scores of these datasets and algorithms, in this order."""
        rows = [self.datasets.index(d) for d in datasets]
        cols = [self.algorithms.index(a) for a in algorithms]
        return self.scores[np.ix_(rows, cols)]


def _long_columns(table: Any, roles: Any) -> tuple[list[str], list[str], np.ndarray, list[Any]]:
    """Dataset and algorithm of each row, its score, and the repetition columns."""
    d_rows = _names(table, roles.dataset, "dataset")
    a_rows = _names(table, roles.algorithm, "algorithm")
    (col,) = roles.scores
    values = to_scores(table[col], col, lambda pos: f"algorithm {a_rows[pos]!r}")
    return d_rows, a_rows, values, list(roles.repetitions)


def _wide_columns(table: Any, roles: Any) -> tuple[list[str], list[str], np.ndarray, list[Any]]:
    """A wide table of runs as long columns (one row per dataset, run and algorithm)."""
    if roles.dataset is None:
        d = [str(v) for v in table.row_labels()]
    else:
        d = _names(table, roles.dataset, "dataset")
    algorithms = [str(c) for c in roles.scores]
    block = np.column_stack(
        [to_scores(table[c], c, lambda pos: f"dataset {d[pos]!r}") for c in roles.scores]
    )
    k = len(algorithms)
    d_rows = [name for name in d for _ in range(k)]
    return d_rows, algorithms * len(d), block.reshape(-1), list(roles.repetitions)


def read_folds(
    data: Any, *, dataset: Any = None, algorithm: Any = None, score: Any = None
) -> FoldScores:
    """The per-fold scores of a table of runs (long, or wide with a repetition column).

    Raises
    ------
    CdplotInputError
        When the input holds one score per cell (no folds), or the cells do not all have
        the same folds (unequal counts or different fold labels): the hierarchical model
        pairs fold ``f`` of every algorithm on a dataset.
    """
    table = _as_table(data)
    if table is None:
        raise CdplotInputError(
            "the hierarchical test needs per-fold scores: a long table with dataset, "
            "algorithm, fold (or run, seed) and score columns, not an array of one score "
            "per dataset and algorithm."
        )
    roles = _roles(table, dataset, algorithm, score)
    reader = _long_columns if roles.kind == "long" else _wide_columns
    d_rows, a_rows, values, reps = reader(table, roles)
    datasets, d_code = _factorize(d_rows)
    algorithms, a_code = _factorize(a_rows)
    k = len(algorithms)
    cell = d_code * k + a_code
    if reps:
        labels = [_names(table, c, "fold") for c in reps]
        rows = len(labels[0])
        per_row = ["/".join(lab[i] for lab in labels) for i in range(rows)]
        if len(per_row) != len(cell):  # a wide table: every algorithm of a row shares it
            per_row = [lab for lab in per_row for _ in range(k)]
        folds, f_code = _factorize(per_row)
    else:  # the order of the rows within each cell
        order = np.argsort(cell, kind="stable")
        f_code = np.empty(len(cell), dtype=np.int64)
        starts = np.r_[0, np.flatnonzero(np.diff(cell[order])) + 1]
        for s, e in zip(starts, np.r_[starts[1:], len(cell)], strict=True):
            f_code[order[s:e]] = np.arange(e - s)
        folds = [str(i + 1) for i in range(int(f_code.max()) + 1 if len(f_code) else 0)]
    return FoldScores(_fill(cell, f_code, values, datasets, algorithms, folds), datasets,
                      algorithms, folds)  # fmt: skip


def _fill(
    cell: np.ndarray,
    f_code: np.ndarray,
    values: np.ndarray,
    datasets: list[str],
    algorithms: list[str],
    folds: list[str],
) -> np.ndarray:
    """The ``datasets x algorithms x folds`` array; every cell must have every fold once."""
    n, k, f = len(datasets), len(algorithms), len(folds)
    if f < 2:
        raise CdplotInputError(
            f"the hierarchical test needs at least two folds per dataset and algorithm (got "
            f"{f}); give the per-fold scores (a fold, run or seed column), not their means."
        )
    index = cell * f + f_code
    counts = np.bincount(index, minlength=n * k * f).reshape(n, k, f)
    if not (counts == 1).all():
        i, j, g = (int(v[0]) for v in np.nonzero(counts != 1))
        raise CdplotInputError(
            f"the hierarchical test pairs the folds of every algorithm on a dataset, and "
            f"algorithm {algorithms[j]!r} on dataset {datasets[i]!r} has fold "
            f"{folds[g]!r} {int(counts[i, j, g])} times (every cell needs the same folds, "
            "once each); drop the incomplete datasets or give every run a fold label."
        )
    out = np.empty(n * k * f)
    out[index] = values
    return out.reshape(n, k, f)

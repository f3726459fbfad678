"""What :func:`cdplot.simulate` does differently for a model of one benchmark's items.

The procedures: the single-benchmark tests only (a board test compares algorithms over
datasets, not models over items), by default the test :func:`cdplot.compare` would choose.
The p-values of the cluster-robust test: with the model's clusters, as compare() runs it on
a benchmark with a cluster column (the catalogue's kernel reads an items x models table
without clusters, each item its own cluster).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._errors import CdplotInputError, spell
from ..io._benchmark import BenchmarkItems
from ..stats._benchmark_pairs import pair_statistics
from ..stats._catalogue import CATALOGUE
from ._procedures import Procedure, parse_procedures

__all__ = ["benchmark_procedures", "clustered_pvalues"]


def benchmark_procedures(model: Any, procedures: Any, default: Any) -> list[Procedure]:
    """The validated procedures of a study of ``model``.

    For a model of a benchmark's items (``model.on_items``): ``default`` (the board
    procedures) becomes compare()'s default test of such a benchmark with Holm's
    correction ("cluster-t" with clusters, else "mcnemar"), and a test that does not run on
    items is refused, naming those that do.
    """
    if not getattr(model, "on_items", False):
        return parse_procedures(procedures, model.algorithms)
    if procedures is default:
        test = "cluster-t" if getattr(model, "clusters", None) is not None else "mcnemar"
        procedures = [(test, "holm")]
    procs = parse_procedures(procedures, model.algorithms)
    item_tests = [name for name, entry in CATALOGUE.items() if entry.on_items]
    for proc in procs:
        if not proc.entry.on_items:
            raise CdplotInputError(
                f"{type(model).__name__} draws one benchmark's items, and "
                f"{spell('test', proc.test)} compares algorithms over datasets; use a test of "
                f"paired item scores: {', '.join(repr(t) for t in item_tests)}."
            )
    return procs


def clustered_pvalues(tables: np.ndarray, clusters: np.ndarray) -> np.ndarray:
    """R x m p-values (pairs in ``triu_indices`` order) of the cluster-robust paired t-test
    on each of R items x models tables whose items sit in ``clusters`` (codes 0 .. G - 1):
    the p-values of :func:`cdplot.compare` on the benchmark with that cluster column.

    Examples
    --------
    >>> import numpy as np
    >>> tables = np.random.default_rng(0).integers(0, 2, (2, 12, 3)).astype(float)
    >>> clustered_pvalues(tables, np.arange(12) // 3).shape
    (2, 3)
    """
    r, n, k = tables.shape
    codes = np.asarray(clusters, dtype=np.int64)
    g = int(codes.max()) + 1
    models = tuple(f"m{j}" for j in range(k))
    items = tuple(str(i) for i in range(n))
    names = tuple(str(c) for c in range(g))
    iu, ju = np.triu_indices(k, 1)
    out = np.empty((r, iu.size))
    for i in range(r):
        table = tables[i]
        binary = bool(np.all((table == 0.0) | (table == 1.0)))
        bench = BenchmarkItems(
            models, items, table, binary, clusters=codes, cluster_ids=names, cluster_column="c"
        )
        out[i] = pair_statistics(bench, test="clustered-t").pvalues[iu, ju]
    return out

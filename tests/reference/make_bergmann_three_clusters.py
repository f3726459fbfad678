"""Bergmann-Hommel APVs of the earlier exact engine on tables far from unit interval graphs.

Writes ``bergmann_three_clusters.json`` in the format of ``bergmann_previous_engine.json``
(upper triangles of the raw p-values and of the APVs, row-major, float.hex strings): the
APVs that the general engine of ``cdplot/stats/_exhaustive.py`` at commit 9c73ebe (before
the largest-group search) computes, without a time budget, for

* Wilcoxon p-values on N = 1000 data sets of three clusters of near-equal algorithms
  (``benchmarks/bergmann.py --large-n``, kind ``wilcoxon-3c``; k = 20, 22 and 24, seeds
  0-2), where the old engine took up to 14 s at k = 26;
* Wilcoxon p-values (scipy) on small tables (``benchmarks/bergmann.py``, kind
  ``wilcoxon``: N = 30, 50; k = 22 and 24), with ties.

The engine is read from the git history, so this script needs the repository's .git.
Run from the repository root: ``python tests/reference/make_bergmann_three_clusters.py``
(about a minute of CPU).
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from benchmarks.bergmann import large_n_pvalues, pvalues  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from make_bergmann_previous_engine import write_reference  # noqa: E402

COMMIT = "9c73ebe"
OUT = Path(__file__).with_name("bergmann_three_clusters.json")
# (kind, k, N, seed)
TABLES = [
    *(("wilcoxon-3c", k, 1000, s) for k in (20, 22, 24) for s in range(3)),
    *(("wilcoxon", k, (30, 50)[s], s) for k in (22, 24) for s in range(2)),
]


def _pvalues(kind: str, k: int, n: int, seed: int) -> np.ndarray:
    return large_n_pvalues(kind, k, seed, n) if kind == "wilcoxon-3c" else pvalues(kind, k, seed)


def main() -> None:
    write_reference(COMMIT, TABLES, _pvalues, OUT, "make_bergmann_three_clusters.py")


if __name__ == "__main__":
    main()

"""Bergmann-Hommel APVs of the previous exact engine on Wilcoxon tables (k = 12 to 30).

Writes ``bergmann_previous_engine.json``: for each table the upper triangle of the raw
p-value matrix (row-major, as float.hex strings, so the input is stored exactly) and the
adjusted p-values that the general engine of ``cdplot/stats/_exhaustive.py`` at commit
2e6876a (before the unit interval and edge-branching speed-ups) computes for it, without a
time budget. The engine is read from the git history, so this script needs the repository's
.git.

The tables are those of ``benchmarks/bergmann.py --large-n`` (Wilcoxon signed-rank
p-values of cdplot's kernel on N = 1000 data sets, skills evenly spread over 3 noise
standard deviations; k = 24 and 30, seeds 0-2) and smaller ones with fewer data sets
(k = 12, 16 and 20; N = 30, 100 and 1000); at N = 30 and 100 the p-values are less
extreme and have ties.

Run from the repository root: ``python tests/reference/make_bergmann_previous_engine.py``
(about 2-3 minutes of CPU).
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from benchmarks.bergmann import large_n_pvalues, previous_engine  # noqa: E402

COMMIT = "2e6876a"
OUT = Path(__file__).with_name("bergmann_previous_engine.json")
# (k, N, seed)
TABLES = [
    *((12, n, s) for n in (30, 100) for s in range(2)),
    *((k, n, s) for k in (16, 20) for n in (100, 1000) for s in range(2)),
    *((24, 1000, s) for s in range(3)),
    *((30, 1000, s) for s in range(3)),
]


def write_reference(commit: str, tables: list[tuple], pvalues_of, out: Path, script: str) -> None:
    """Run the engine of ``commit`` on each table (``pvalues_of(*table)`` gives its p-value
    matrix; the table's fields are named by its length: (k, N, seed) or (kind, k, N,
    seed)) and write the JSON reference ``out``."""
    old = previous_engine(commit)
    rows = []
    for table in tables:
        fields = dict(
            zip(
                ("k", "N", "seed") if len(table) == 3 else ("kind", "k", "N", "seed"),
                table,
                strict=True,
            )
        )
        p = pvalues_of(*table)
        start = time.process_time()
        apv = old(p, budget_seconds=None, progress=False)
        iu = np.triu_indices(fields["k"], 1)
        print(f"{fields}: {time.process_time() - start:.1f} s CPU")
        rows.append(
            {
                **fields,
                "pvalues": [float(x).hex() for x in p[iu]],
                "apv": [float(x).hex() for x in apv[iu]],
            }
        )
    doc = {
        "generated_by": f"tests/reference/{script}, do not edit",
        "engine": f"cdplot/stats/_exhaustive.py at commit {commit}, general engine",
        "format": "upper triangles, row-major, float.hex",
        "tables": rows,
    }
    out.write_text(json.dumps(doc, indent=1) + "\n")


def main() -> None:
    write_reference(
        COMMIT,
        TABLES,
        lambda k, n, seed: large_n_pvalues("wilcoxon", k, seed, n),
        OUT,
        "make_bergmann_previous_engine.py",
    )


if __name__ == "__main__":
    main()

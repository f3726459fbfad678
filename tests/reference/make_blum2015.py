"""Build cdplot/datasets/blum2015.csv from scmamp's random-geometric-graph result files.

Source: the R package scmamp (B. Calvo and G. Santafé, GPL-2), github.com/b0rxa/scmamp,
folder ``inst/loading_tests/comparison_files/``: 30 files ``rgg_size_<n>_r_<radius>.out``,
copied unchanged into ``tests/reference/blum2015/`` (the commit each was read at is in
``COMMITS``). Each file is a CSV with the header
``FruitFly,Shukla,Ikeda,Turau,Rand1,Rand2,FrogCOL,FrogMIS`` and 30 rows; a row is one random
geometric graph of ``n`` nodes and connection radius ``r`` and its cells the sizes of the
independent sets the eight algorithms found on it (scmamp's ``data.blum.2015``, from Blum,
Calvo & Blesa 2015, Swarm Intelligence 9:205-227).

The tidy table has one row per graph class, graph and algorithm: ``task`` (the class,
``n=<size> r=<radius>``), ``size``, ``radius``, ``graph`` (1 to 30: the row of the source
file), ``algorithm`` and ``score`` (the size of the independent set found). Run from the
repository root: ``python tests/reference/make_blum2015.py``.
"""

from __future__ import annotations

import csv
import re
from pathlib import Path

SOURCE = Path(__file__).resolve().parent / "blum2015"
TARGET = Path(__file__).resolve().parents[2] / "cdplot" / "datasets" / "blum2015.csv"
ALGORITHMS = ("FruitFly", "Shukla", "Ikeda", "Turau", "Rand1", "Rand2", "FrogCOL", "FrogMIS")
NAME = re.compile(r"rgg_size_(\d+)_r_(0\.\d+)\.out")
#: commit of b0rxa/scmamp each file was read at (the files do not change between them)
COMMITS = {
    "58d9cae8ec37aaca33697ef43a27ca2eb7032cc5": (
        "1000_r_0.049 1000_r_0.058 1000_r_0.067 1000_r_0.094 100_r_0.155 100_r_0.158 "
        "100_r_0.161 100_r_0.169 5000_r_0.024 5000_r_0.060 5000_r_0.084 5000_r_0.096 "
        "5000_r_0.108 5000_r_0.120"
    ),
    "84ee33554855d77108967113b379758ae0b52e25": (
        "1000_r_0.076 1000_r_0.085 1000_r_0.103 1000_r_0.112 1000_r_0.121 1000_r_0.134 "
        "100_r_0.140 100_r_0.143 100_r_0.146 100_r_0.149 100_r_0.152 100_r_0.164 "
        "5000_r_0.036 5000_r_0.048 5000_r_0.072 5000_r_0.134"
    ),
}


def source_files() -> list[tuple[int, str, Path]]:
    """``(size, radius, path)`` of every source file, by size then radius."""
    found = []
    for path in SOURCE.glob("rgg_size_*.out"):
        match = NAME.fullmatch(path.name)
        if match is None:
            raise ValueError(f"unexpected file name {path.name}")
        found.append((int(match[1]), match[2], path))
    return sorted(found, key=lambda f: (f[0], float(f[1])))


def rows() -> list[list[object]]:
    out: list[list[object]] = []
    for size, radius, path in source_files():
        with path.open(newline="") as fh:
            reader = csv.reader(fh)
            header = next(reader)
            if tuple(header) != ALGORITHMS:
                raise ValueError(f"{path.name}: header {header}")
            for graph, row in enumerate(reader, start=1):
                for algorithm, cell in zip(ALGORITHMS, row, strict=True):
                    out.append([f"n={size} r={radius}", size, radius, graph, algorithm, int(cell)])
    return out


def main() -> None:
    with TARGET.open("w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh, lineterminator="\n")
        writer.writerow(["task", "size", "radius", "graph", "algorithm", "score"])
        writer.writerows(rows())


if __name__ == "__main__":
    main()

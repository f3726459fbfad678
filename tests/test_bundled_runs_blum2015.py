"""The bundled run table ``blum2015``: Blum, Calvo & Blesa (2015) as distributed in scmamp.

Source: github.com/b0rxa/scmamp, ``inst/loading_tests/comparison_files/rgg_size_<n>_r_<r>.out``
(30 files, copied unchanged into ``tests/reference/blum2015/``; commits in
``tests/reference/make_blum2015.py``). Verified: the bundled CSV equals the table the
extraction script builds from those files, and single cells equal the lines quoted below
from the source files (and, for one, from scmamp's ``inst/loading_tests/
rgg_complete_comparison.out``, the same results in one file).
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import cdplot

REFERENCE = Path(__file__).resolve().parent / "reference"
ALGORITHMS = ["FruitFly", "Shukla", "Ikeda", "Turau", "Rand1", "Rand2", "FrogCOL", "FrogMIS"]


@pytest.fixture(scope="module")
def table() -> pd.DataFrame:
    return cdplot.datasets.load("blum2015")


def _extraction_script():
    spec = importlib.util.spec_from_file_location("make_blum2015", REFERENCE / "make_blum2015.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_bundled_rows_are_the_extracted_source_rows(table):
    rows = _extraction_script().rows()
    built = pd.DataFrame(rows, columns=["task", "size", "radius", "graph", "algorithm", "score"])
    assert len(built) == 7200
    assert built["task"].tolist() == table["task"].tolist()
    assert built["algorithm"].tolist() == table["algorithm"].tolist()
    for column in ("size", "graph", "score"):
        assert built[column].astype(int).tolist() == table[column].tolist()
    assert np.array_equal(built["radius"].astype(float), table["radius"])


@pytest.mark.parametrize(
    ("path", "graph", "line"),
    [
        # the first data line of each quoted file, or the line `graph` (1 = first)
        ("rgg_size_100_r_0.140.out", 1, "31,28,25,27,26,28,33,28"),
        ("rgg_size_1000_r_0.121.out", 21, "48,49,47,46,48,49,58,49"),
        ("rgg_size_1000_r_0.134.out", 30, "27,38,42,38,40,40,48,42"),
        ("rgg_size_5000_r_0.024.out", 7, "972,905,901,903,904,915,987,1000"),
        ("rgg_size_5000_r_0.072.out", 2, "0,138,127,136,129,133,155,138"),
        ("rgg_size_5000_r_0.134.out", 30, "0,41,44,44,40,44,51,48"),
    ],
)
def test_cells_equal_lines_quoted_from_the_source_files(table, path, graph, line):
    _, _, size, _, radius = path.removesuffix(".out").split("_")
    rows = table[(table["task"] == f"n={size} r={radius}") & (table["graph"] == graph)]
    assert rows["algorithm"].tolist() == ALGORITHMS
    assert rows["score"].tolist() == [int(v) for v in line.split(",")]


def test_a_cell_equals_scmamps_complete_comparison_file(table):
    # inst/loading_tests/rgg_complete_comparison.out at commit
    # 84ee33554855d77108967113b379758ae0b52e25 (Size, Radius, then the eight algorithms):
    # its line "1000,0.121,48,49,47,46,48,49,58,49"
    row = table[(table["task"] == "n=1000 r=0.121") & (table["graph"] == 21)]
    assert row["score"].tolist() == [48, 49, 47, 46, 48, 49, 58, 49]


def test_thirty_classes_of_thirty_graphs_and_eight_algorithms(table):
    assert list(table.columns) == ["task", "size", "radius", "graph", "algorithm", "score"]
    assert table["task"].nunique() == 30 and sorted(table["size"].unique()) == [100, 1000, 5000]
    assert table.groupby("size")["radius"].nunique().tolist() == [10, 10, 10]
    assert not table.duplicated(["task", "graph", "algorithm"]).any()
    graphs = table.groupby("task")["graph"].agg(["min", "max", "nunique"])
    assert (graphs["min"] == 1).all() and (graphs["max"] == 30).all()
    assert (graphs["nunique"] == 30).all()
    assert table["score"].dtype.kind == "i" and table["score"].min() == 0
    assert table.attrs["n_datasets"] == 30 and table.attrs["higher_is_better"] is True


def test_the_source_names_repository_paths_and_commits():
    source = cdplot.datasets.describe("blum2015")["source"]
    assert "b0rxa/scmamp" in source and "comparison_files/rgg_size_" in source
    assert "58d9cae8ec37aaca33697ef43a27ca2eb7032cc5" in source
    assert "84ee33554855d77108967113b379758ae0b52e25" in source
    assert "Swarm Intelligence" in source and "GPL-2" in source
    assert "blum2015" in cdplot.datasets.names()


def test_the_graphs_of_a_class_are_read_as_its_runs(table):
    runs = cdplot.io.read_run_scores(table, run="graph", score="score")
    assert runs.values.shape == (30, 8, 30)
    assert runs.algorithms == tuple(ALGORITHMS)
    assert runs.tasks[0] == "n=100 r=0.140"
    # rgg_size_100_r_0.140.out, first data line: FruitFly 31, FrogMIS 28
    assert runs.cell(0, 0)[0] == 31.0 and runs.cell(0, 7)[0] == 28.0

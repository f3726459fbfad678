"""``cdplot compare --engine``: a Parquet folder read through DuckDB on the command line."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from cdplot.cli import _engine as cli_engine
from cdplot.cli import main

pytest.importorskip("duckdb")
pytest.importorskip("narwhals")
pytest.importorskip("pyarrow")


def write_folder(folder, seed=0):
    rng = np.random.default_rng(seed)
    folder.mkdir()
    for part, tasks in enumerate((range(0, 4), range(4, 8))):  # two files of four tasks
        rows = [
            (f"t{t}", f"m{m}", i, float(rng.random() < 0.3 + 0.1 * m))
            for t in tasks
            for i in range(30)
            for m in range(3)
        ]
        frame = pd.DataFrame(rows, columns=["task", "model", "item", "acc"])
        frame.to_parquet(folder / f"part{part}.parquet")
    return folder


@pytest.mark.filterwarnings("ignore::cdplot.CdplotWarning")
def test_a_parquet_folder_through_duckdb_equals_the_in_memory_analysis(tmp_path):
    folder = write_folder(tmp_path / "logs")
    out_duck, out_mem = tmp_path / "duck.json", tmp_path / "mem.json"
    assert main(["compare", str(folder), "--engine", "duckdb", "--json", str(out_duck), "-q"]) == 0
    assert main(["compare", str(folder), "--engine", "memory", "--json", str(out_mem), "-q"]) == 0
    duck, mem = json.loads(out_duck.read_text()), json.loads(out_mem.read_text())
    assert "statistics computed in duckdb (720 rows" in json.dumps(duck)
    for key in ("average_ranks", "pvalues", "adjusted_pvalues", "groups"):
        assert duck[key] == mem[key], key


@pytest.mark.filterwarnings("ignore::cdplot.CdplotWarning")
def test_auto_reads_through_duckdb_when_memory_would_not_suffice(tmp_path, monkeypatch):
    folder = write_folder(tmp_path / "logs")
    out = tmp_path / "auto.json"
    monkeypatch.setattr(cli_engine, "available_memory", lambda: 1000)  # a tiny machine
    assert main(["compare", str(folder), "--json", str(out), "-q"]) == 0
    assert "statistics computed in duckdb" in out.read_text()


def test_a_broken_file_fails_in_the_engine_and_nothing_is_written(tmp_path, capsys):
    folder = write_folder(tmp_path / "logs")
    (folder / "part1.parquet").write_bytes(b"PAR1 not really parquet PAR1")
    out = tmp_path / "out.json"
    assert main(["compare", str(folder), "--engine", "duckdb", "--json", str(out)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "Footer length error" in err[0] and "nothing was written" in err[0]
    assert not out.exists()


def test_engine_duckdb_needs_parquet(tmp_path, capsys):
    table = tmp_path / "t.csv"
    table.write_text("dataset,a,b\nd1,1,2\nd2,2,1\n")
    assert main(["compare", str(table), "--engine", "duckdb"]) == 2
    assert "--engine duckdb reads Parquet" in capsys.readouterr().err

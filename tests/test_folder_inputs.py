"""A folder input (lm-evaluation-harness output, Parquet or JSON Lines parts) is protected.

Every file inside an input folder counts as an input: an output that would replace one is
refused before anything is read, as for a single input file. Special files (a FIFO named
like a results file) inside a folder are refused by name instead of blocking the read.
"""

from __future__ import annotations

import os

import polars as pl
import pytest
from _helpers import run, snapshot
from test_io_sources import DATE, MODELS, _item_rows, write_lm_eval

from cdplot import CdplotInputError
from cdplot.io import read_lm_eval, read_parquet

pytestmark = [
    pytest.mark.filterwarnings("ignore::cdplot.PoolDependenceWarning"),
    pytest.mark.filterwarnings("ignore::cdplot.CdplotWarning"),
]

needs_fifo = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")


def _parquet_parts(folder):
    folder.mkdir()
    rows = _item_rows()
    rows.slice(0, 300).write_parquet(folder / "part-0.parquet")
    rows.slice(300).write_parquet(folder / "part-1.parquet")
    return folder


def test_lm_eval_results_file_inside_the_folder_is_not_replaced(tmp_path, capsys):
    root = write_lm_eval(tmp_path / "lm_out", samples=False)
    target = root / MODELS[0].replace("/", "__") / f"results_{DATE}.json"
    before = snapshot(root)
    for extra in (["--json", target], ["-o", target, "--format", "pdf"]):
        code, out, err = run(["compare", root, "--score-col", "acc,none", *extra], capsys)
        assert code == 2, err
        assert err.splitlines() == [
            f"cdplot: error: {extra[0]} {str(target)!r} is {str(target)!r}, a file of the "
            f"input folder {str(root)!r}; writing it would destroy the data. Choose another "
            "output name."
        ]
        assert snapshot(root) == before


def test_parquet_part_is_refused_before_anything_is_read(tmp_path, capsys):
    folder = _parquet_parts(tmp_path / "parts")
    # a part that cannot be read: reading first would fail on it, not on the output
    (folder / "part-2.parquet").write_bytes(b"not parquet")
    before = snapshot(folder)
    code, out, err = run(
        ["compare", folder, "--json", folder / "part-0.parquet", "--test", "mean-ranks"], capsys
    )
    assert code == 2
    assert "a file of the input folder" in err
    assert "cannot read Parquet" not in err
    assert snapshot(folder) == before
    assert sorted(p.name for p in folder.iterdir()) == [
        "part-0.parquet",
        "part-1.parquet",
        "part-2.parquet",
    ]


def test_jsonl_part_in_a_subfolder_and_through_a_link_is_refused(tmp_path, capsys):
    folder = tmp_path / "runs"
    (folder / "sub").mkdir(parents=True)
    rows = _item_rows()
    rows.slice(0, 300).write_ndjson(folder / "a.jsonl")
    outside = tmp_path / "kept.jsonl"
    rows.slice(300).write_ndjson(outside)
    (folder / "sub" / "b.jsonl").symlink_to(outside)
    before = {**snapshot(folder), outside: outside.read_bytes()}
    for target in (folder / "a.jsonl", outside):
        code, out, err = run(
            ["compare", folder, "--report", target, "--report-format", "markdown"], capsys
        )
        assert code == 2, err
        assert "a file of the input folder" in err
        assert {**snapshot(folder), outside: outside.read_bytes()} == before


def test_a_new_file_inside_the_folder_may_be_written(tmp_path, capsys):
    folder = _parquet_parts(tmp_path / "parts")
    code, out, err = run(
        ["compare", folder, "--json", folder / "result.json", "--test", "mean-ranks", "-q"],
        capsys,
    )
    assert code == 0, err
    assert (folder / "result.json").read_text().startswith("{")


@needs_fifo
@pytest.mark.timeout(30)
def test_fifo_named_like_a_results_file_is_refused_not_read(tmp_path, capsys):
    root = write_lm_eval(tmp_path / "lm_out", samples=False)
    fifo = root / "stray" / f"results_{DATE}.json"
    fifo.parent.mkdir()
    os.mkfifo(fifo)
    with pytest.raises(CdplotInputError, match=r"results_.*\.json' in the folder .* is not a "):
        read_lm_eval(root)
    code, out, err = run(["compare", root, "--score-col", "acc,none"], capsys)
    assert code == 2
    assert "is not a regular file (a FIFO or a device)" in err
    assert len(err.splitlines()) == 1


@needs_fifo
@pytest.mark.timeout(30)
def test_fifo_samples_and_parquet_parts_are_refused(tmp_path):
    root = write_lm_eval(tmp_path / "lm_out", samples=True, n_docs=4)
    os.mkfifo(root / f"samples_piqa_{DATE}.jsonl")
    with pytest.raises(CdplotInputError, match="is not a regular file"):
        read_lm_eval(root, score="acc,none")
    folder = _parquet_parts(tmp_path / "parts")
    os.mkfifo(folder / "part-9.parquet")
    with pytest.raises(CdplotInputError, match=r"part-9\.parquet' in the folder"):
        read_parquet(folder)


def test_a_folder_named_like_a_part_is_searched_not_read(tmp_path):
    folder = _parquet_parts(tmp_path / "parts")
    (folder / "more.parquet").mkdir()  # a Hive-style directory: its files are found inside
    pl.DataFrame(_item_rows().slice(0, 0)).write_parquet(folder / "more.parquet" / "p.parquet")
    assert len(read_parquet(folder)) == 600

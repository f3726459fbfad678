"""``cdplot compare`` on one benchmark's items and on runs of one benchmark in several files.

Consistency only: the command line gives the numbers of :func:`cdplot.stats.compare_benchmark`
and :func:`cdplot.stats.compare_runs` on the same items (through the JSON it writes); bad
input exits 2 with one line naming the fix. The item tables reach the command line through
``tests/_benchmark_input.py`` (the real reader when it recognises them).
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from _benchmark_input import patch_reader, same_numbers, write_items
from _helpers import run

import cdplot
from cdplot.io._benchmark import BenchmarkItems
from cdplot.stats import compare_benchmark, compare_runs


@pytest.fixture
def scores():
    rng = np.random.default_rng(8)
    return (rng.random((80, 3)) < [0.45, 0.55, 0.8]).astype(float)


@pytest.fixture(autouse=True)
def reader(monkeypatch):
    patch_reader(monkeypatch)


def _items(x: np.ndarray, models) -> BenchmarkItems:
    return BenchmarkItems(tuple(models), tuple(f"q{i}" for i in range(len(x))), x, True)


def test_one_item_table_prints_the_benchmark_summary(tmp_path, capsys, scores):
    path = write_items(tmp_path / "items.csv", scores, ["a", "b", "c"])
    target = tmp_path / "r.json"
    code, out, err = run(["compare", path, "--json", target, "--correction", "shaffer"], capsys)
    assert code == 0, err
    assert out.startswith("3 models compared on one benchmark:\n80 items; 0/1 scores.\n")
    back = cdplot.load_result(target.read_text())
    same_numbers(back, compare_benchmark(_items(scores, "abc"), correction="shaffer"))


def test_clusters_and_confidence_reach_the_analysis(tmp_path, capsys, scores):
    clusters = np.arange(80) // 4
    path = write_items(tmp_path / "items.csv", scores, ["a", "b", "c"], clusters=clusters)
    target = tmp_path / "r.json"
    argv = ["compare", path, "--cluster-col", "cluster", "--confidence", "0.9", "--json", target]
    code, out, err = run(argv, capsys)
    assert code == 0, err
    assert "80 items, 20 clusters; cluster-robust." in out
    doc = json.loads(target.read_text())
    assert doc["settings"]["test"] == "cluster-t" and doc["benchmark"]["confidence"] == 0.9


def test_two_runs_print_the_difference_and_write_the_json(tmp_path, capsys, scores):
    base = write_items(tmp_path / "base.csv", scores[:, :1], ["run"])
    new = write_items(tmp_path / "new.csv", scores[:, 2:], ["run"])
    target = tmp_path / "diff.json"
    code, out, err = run(["compare", base, new, "--json", target], capsys)
    assert code == 0, err
    flat = " ".join(out.split())
    direct = compare_runs(
        [_items(scores[:, :1], ["run"]), _items(scores[:, 2:], ["run"])], names=["base", "new"]
    )
    row = direct.differences.iloc[0]
    assert (row.model_1, row.model_2) == ("new", "base")
    assert f"Difference new - base: +{row.difference:.3f}" in flat
    assert f"[+{row.low:.3f}, +{row.high:.3f}]" in flat
    assert f"new won {row.wins}, lost {row.losses}" in flat
    same_numbers(cdplot.load_result(target.read_text()), direct)


@pytest.mark.parametrize(
    ("make", "extra", "message"),
    [
        ("other-items", [], "the runs score different items"),
        ("mixed", [], "mix runs of one benchmark"),
        (
            "board",
            ["--cluster-col", "passage"],
            "--cluster-col applies to a table of one benchmark's",
        ),
        ("items", ["--test", "wilcoxon"], "--test wilcoxon compares algorithms over datasets"),
        ("items", ["--aggregate", "mean"], "--aggregate applies to a board of datasets"),
        ("items", ["--confidence", "2"], "confidence"),
        ("one-model", [], "need at least 2 models to compare, got 1"),
    ],
)
def test_bad_input_exits_2_with_one_line(make, extra, message, tmp_path, capsys, scores, demsar):
    files = {
        "items": [write_items(tmp_path / "items.csv", scores, ["a", "b", "c"])],
        "one-model": [write_items(tmp_path / "one.csv", scores[:, :1], ["a"])],
        "other-items": [
            write_items(tmp_path / "base.csv", scores[:, :1], ["m"]),
            write_items(tmp_path / "new.csv", scores[:60, 1:2], ["m"]),
        ],
        "board": [tmp_path / "board.csv"],
    }
    demsar.to_csv(tmp_path / "board.csv")
    files["mixed"] = [files["items"][0], tmp_path / "board.csv"]
    code, out, err = run(["compare", *files[make], *extra], capsys)
    assert code == 2, err
    lines = [line for line in err.splitlines() if line.startswith("cdplot: error:")]
    assert len(lines) == 1 and message in lines[0], err
    assert "Traceback" not in err

"""Every CSV the command line writes is safe to open in a spreadsheet.

A text cell that begins with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return is a
formula to a spreadsheet (OWASP, "CSV Injection"); cdplot writes it with a leading
apostrophe. Numbers, negative ones included, stay numbers. One test per CSV writer.
"""

from __future__ import annotations

import csv
import io

import numpy as np
import pandas as pd
import pytest
from _helpers import run

from cdplot.cli._csv import FORMULA_STARTS, csv_bytes, neutralise_cell

pytestmark = [
    pytest.mark.filterwarnings("ignore::cdplot.PoolDependenceWarning"),
    pytest.mark.filterwarnings("ignore::cdplot.CdplotWarning"),
]

#: Names a spreadsheet would run as formulas, one per dangerous first character.
FORMULA_NAMES = ["=HYPERLINK(1)", "+A1", "-2+3", "@SUM(A1)", "\tTAB", "\rCR"]


def _rows_of(data: bytes) -> list[list[str]]:
    return list(csv.reader(io.StringIO(data.decode("utf-8"), newline="")))


def _no_live_formula(rows: list[list[str]]) -> None:
    """No cell begins with a formula character unless it is a number."""
    for row in rows:
        for cell in row:
            if cell.startswith(FORMULA_STARTS):
                float(cell)  # a negative number is the only such cell allowed


def test_neutralise_cell_marks_text_only():
    for name in FORMULA_NAMES:
        assert neutralise_cell(name) == "'" + name
    assert neutralise_cell("plain") == "plain"
    assert neutralise_cell("a=b") == "a=b"  # only the first character matters
    assert neutralise_cell(-0.5) == -0.5
    assert neutralise_cell(None) is None


def test_csv_bytes_keeps_negative_numbers_and_quotes_formula_text():
    frame = pd.DataFrame(
        {
            "name": FORMULA_NAMES,
            "score": [-0.5, 1.0, -2.0, 0.0, 3.0, -1e-9],
            "count": np.arange(-3, 3),
            "flag": [True, False] * 3,
            "=header": ["x"] * 6,
        }
    )
    rows = _rows_of(csv_bytes(frame))
    assert rows[0] == ["name", "score", "count", "flag", "'=header"]
    assert [r[0] for r in rows[1:]] == ["'" + n for n in FORMULA_NAMES]
    back = pd.read_csv(io.BytesIO(csv_bytes(frame)))
    assert back["score"].tolist() == frame["score"].tolist()
    assert back["count"].tolist() == frame["count"].tolist()
    _no_live_formula(rows)


def _item_table(path, models):
    rng = np.random.default_rng(3)
    out = []
    for t in range(6):
        for m, model in enumerate(models):
            hits = rng.random(20) < 0.3 + 0.1 * m
            out += [(f"task{t}", model, f"q{t}-{i}", float(h)) for i, h in enumerate(hits)]
    frame = pd.DataFrame(out, columns=["task", "model", "question_id", "correct"])
    frame.to_csv(path, index=False)
    return path


def test_item_tests_csv_neutralises_formula_names(tmp_path, capsys):
    models = ["=HYPERLINK(1)", "+A1", "-2+3", "@SUM(A1)"]
    source = _item_table(tmp_path / "items.csv", models)
    target = tmp_path / "tests.csv"
    code, out, err = run(["compare", source, "--item-tests", target, "-q"], capsys)
    assert code == 0, err
    rows = _rows_of(target.read_bytes())
    header, body = rows[0], rows[1:]
    names = {r[header.index("algorithm_1")] for r in body} | {
        r[header.index("algorithm_2")] for r in body
    }
    assert names == {"'" + m for m in models}
    _no_live_formula(rows)
    assert all(0.0 <= float(r[header.index("pvalue")]) <= 1.0 for r in body)


def test_simulate_csv_neutralises_formula_names(tmp_path, capsys):
    target = tmp_path / "rates.csv"
    code, out, err = run(
        [
            "simulate",
            "--means",
            "0,0,1",
            "--names=-A,=B,@C",
            "--n",
            "8",
            "--replicates",
            "10",
            "--procedures",
            "wilcoxon:holm",
            "--csv",
            target,
            "-q",
        ],
        capsys,
    )
    assert code == 0, err
    rows = _rows_of(target.read_bytes())
    header, body = rows[0], rows[1:]
    pairs = {(r[header.index("a")], r[header.index("b")]) for r in body}
    assert pairs == {("'-A", "'=B"), ("'-A", "'@C"), ("'=B", "'@C")}
    _no_live_formula(rows)
    assert all(0.0 <= float(r[header.index("rejection_rate")]) <= 1.0 for r in body)

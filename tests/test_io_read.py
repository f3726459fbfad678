"""CSV/TSV reading (cdplot.io._read): dialects, numbers, refusals with pinned messages.

Consistency only: the expected values are the numbers written into each file by hand.
"""

from __future__ import annotations

import io

import numpy as np
import pandas as pd
import pytest

import cdplot
from cdplot import CdplotInputError
from cdplot.io import read_columns, read_table


def cols(text: str) -> dict:
    return read_columns(io.StringIO(text))[0]


def test_comma_tab_semicolon_give_the_same_columns():
    rows = [["dataset", "A", "B"], ["d1", "0.5", "0.25"], ["d2", "1", "2e-3"]]
    for sep in (",", "\t", ";"):
        got = cols("\n".join(sep.join(r) for r in rows) + "\n")
        assert list(got) == ["dataset", "A", "B"]
        assert got["dataset"].tolist() == ["d1", "d2"]
        np.testing.assert_array_equal(got["A"], [0.5, 1.0])
        np.testing.assert_array_equal(got["B"], [0.25, 0.002])


def test_decimal_comma_in_semicolon_files():
    got = cols("dataset;A;B\nd1;0,5;1\nd2;-0,125;2,0\nd3;;3\n")
    np.testing.assert_array_equal(got["A"], [0.5, -0.125, np.nan])
    np.testing.assert_array_equal(got["B"], [1.0, 2.0, 3.0])
    # a point in a decimal-comma file is a thousands separator: refused when used as a score
    text = "dataset;A;B\nd1;0,5;1.234\nd2;0,25;2\n"
    with pytest.raises(
        CdplotInputError,
        match=r"^non-numeric score '1.234' in column 'B' \(dataset 'd1'\): it has a decimal "
        r"point in a file with decimal commas \(a thousands separator\?\); write plain numbers "
        r"with a decimal comma \(1234,5\)\.$",
    ):
        cdplot.compare(io.StringIO(text))


def test_integers_stay_integers_and_missing_tokens():
    got = cols("task_id,A\n3,NA\n31,n/a\n37,\n43,NaN\n45,null\n")
    assert got["task_id"].dtype == np.int64 and got["task_id"].tolist() == [3, 31, 37, 43, 45]
    assert np.isnan(got["A"]).all()


@pytest.mark.parametrize(
    ("cell", "problem"),
    [
        ("85.2%", "has a percent sign; write scores as plain numbers"),
        ('"85,2 %"', "has a percent sign"),
        ('"1,234.5"', "has a thousands separator or a decimal comma"),
        ("1 234", "has a thousands separator or a decimal comma"),
        ("1'234.5", "has a thousands separator or a decimal comma"),
        ("1_000", r"is not a number\. If this column names the datasets, pass dataset='A'\.$"),
        ("ten", r"is not a number\. If this column names the datasets, pass dataset='A'\.$"),
    ],
)
def test_score_cells_refused_naming_the_cell(cell, problem):
    text = f"dataset,A,B\nd1,0.5,0.7\nd2,{cell},0.1\nd3,0.4,0.3\n"
    shown = cell.strip('"')
    with pytest.raises(
        CdplotInputError,
        match=rf"^non-numeric score {shown!r} in column 'A' \(dataset 'd2'\): it {problem}",
    ):
        cdplot.compare(io.StringIO(text))


def test_duplicate_headers_refused_before_pandas_renames_them(tmp_path):
    path = tmp_path / "dup.csv"
    path.write_text("dataset,alg0,alg1,alg0\nd1,1,2,3\nd2,3,2,1\nd3,1,3,2\n")
    assert list(pd.read_csv(path).columns) == ["dataset", "alg0", "alg1", "alg0.1"]  # pandas
    with pytest.raises(
        CdplotInputError,
        match=rf"^duplicate column name\(s\) in the header of {str(path)!r}: 'alg0'; every "
        r"column needs a unique name",
    ):
        cdplot.compare(path)


def test_ragged_rows_refused_with_the_line():
    with pytest.raises(
        CdplotInputError,
        match=r"^line 3 of '<stream>' has 4 fields but the header has 3 \(comma-separated\); "
        r"every row needs one value per column",
    ):
        read_table(io.StringIO("dataset,A,B\nd1,1,2\nd2,1,2,3\n"))


def test_r_write_table_header_and_trailing_delimiters():
    # R's write.table(sep=","): no field over the row names
    got = cols("A,B\nd1,1,2\nd2,3,4\n")
    assert list(got) == ["", "A", "B"] and got[""].tolist() == ["d1", "d2"]
    # a delimiter at the end of every line
    got = cols("dataset,A,B,\nd1,1,2,\nd2,3,4,\n")
    assert list(got) == ["dataset", "A", "B"]


def test_bom_blank_lines_and_quotes():
    got = cols('\ufeff"dataset","A; B","C"\n\n"d,1",1,2\n\n')
    assert list(got) == ["dataset", "A; B", "C"]
    assert got["dataset"].tolist() == ["d,1"]


def test_file_errors(tmp_path):
    with pytest.raises(CdplotInputError, match=r"^cannot read results file .*nope.csv"):
        read_table(tmp_path / "nope.csv")
    (tmp_path / "empty.csv").write_text("\n\n")
    with pytest.raises(CdplotInputError, match=r"is empty\.$"):
        read_table(tmp_path / "empty.csv")
    (tmp_path / "latin.csv").write_bytes("dataset,A\nd\xe9,1\n".encode("latin-1"))
    with pytest.raises(CdplotInputError, match=r"is not UTF-8 text; save it as a UTF-8 CSV"):
        read_table(tmp_path / "latin.csv")
    with pytest.raises(CdplotInputError, match=r"has no values, not even column names"):
        read_table(io.StringIO(",\n,\n"))
    with pytest.raises(CdplotInputError, match=r"^cannot find a delimiter in the first line"):
        read_table(io.StringIO("a b c\n1 2 3\n"))


def test_read_table_needs_no_pandas_for_columns():
    import subprocess
    import sys

    code = (
        "import io, sys\n"
        "from cdplot.io._read import read_columns\n"
        "cols, _ = read_columns(io.StringIO('dataset;A;B\\nd1;0,5;1\\n'))\n"
        "print(cols['A'][0], 'pandas' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    value, _ = out.stdout.split()
    assert value == "0.5"


def test_a_wide_file_without_dataset_names_warns_about_a_numeric_first_column():
    text = "size,A,B,C\n1,0.5,0.6,0.1\n2,0.4,0.2,0.3\n3,0.1,0.3,0.2\n"
    with pytest.warns(
        cdplot.CdplotWarning,
        match=r"^'<stream>' has no column of dataset names, so its first column 'size' \(whole "
        r"numbers\) is ranked as an algorithm and the datasets are named by row number; if "
        r"'size' names the datasets, pass dataset='size'\.$",
    ):
        table = cdplot.io.parse_scores(io.StringIO(text))
    assert table.algorithms == ["size", "A", "B", "C"]
    with pytest.warns(cdplot.CdplotWarning) as caught:
        cdplot.compare(io.StringIO(text))
    names = [w for w in caught if "has no column of dataset names" in str(w.message)]
    assert len(names) == 1 and names[0].filename == __file__
    table = cdplot.io.parse_scores(io.StringIO(text), dataset="size")
    assert table.datasets == ["1", "2", "3"] and table.algorithms == ["A", "B", "C"]

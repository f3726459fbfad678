"""Reading a results file never imports pandas, and reads exactly like the same DataFrame.

- In a fresh process, :func:`cdplot.io.parse_scores` on a wide CSV, a long CSV (algorithm
  column first), a per-fold long CSV with ``aggregate="mean"``, a ``;``/decimal-comma CSV and
  standard input leaves ``pandas`` out of ``sys.modules`` (also for a refused file and for
  the warning about a numeric first column); ``Aggregation.counts`` imports it on demand.
- The block reader of plain files (no quotes, no decimal commas) gives exactly the columns
  :mod:`csv` gives (500 generated files, blocks of 2 rows, odd cells late in the file).
- One logic: for every file shape of the io tests and 800 generated CSV texts (with random
  options), parsing the file and parsing ``read_table(file)`` (the file as a pandas
  DataFrame, as cdplot read files before) give bit-identical scores and standard
  deviations, the same names, aggregation and dropped names, the same warnings, or the
  same CdplotInputError message.
"""

from __future__ import annotations

import io
import json
import os
import pickle
import subprocess
import sys
import textwrap
import warnings
from copy import deepcopy
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cdplot
from cdplot import CdplotInputError
from cdplot.io import parse_scores, read_table

ROOT = Path(cdplot.__file__).resolve().parent.parent

WIDE = "dataset,A,B,C\nd1,0.9,0.8,0.7\nd2,0.85,0.8,0.75\nd3,0.6,0.7,0.65\nd4,0.5,0.52,0.49\n"
LONG_ALGORITHM_FIRST = (
    "learner,auc,dataset\nA,0.9,d1\nB,0.8,d1\nC,0.7,d1\nA,0.85,d2\nB,0.8,d2\nC,0.75,d2\n"
    "A,0.6,d3\nB,0.7,d3\nC,0.65,d3\n"
)
PER_FOLD = "dataset,algorithm,fold,accuracy\n" + "".join(
    f"d{i},{a},{f},{0.5 + 0.01 * i + 0.1 * j + 0.001 * f}\n"
    for i in range(4)
    for j, a in enumerate("ABC")
    for f in range(5)
)
DECIMAL_COMMA = "Datensatz;A;B;C\nd1;0,9;0,8;0,7\nd2;0,85;0,8;0,75\nd3;0,6;0,7;0,65\n"
SHAPES = {
    "wide": (WIDE, {}),
    "long-algorithm-first": (LONG_ALGORITHM_FIRST, {}),
    "per-fold": (PER_FOLD, {"aggregate": "mean"}),
    "decimal-comma": (DECIMAL_COMMA, {}),
}


# --------------------------------------------------------------------------- no pandas
def _run(code: str, stdin: str | None = None) -> dict:
    out = subprocess.run(
        [sys.executable, "-c", code],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


_PARSE = textwrap.dedent(
    """
    import io, json, sys, warnings
    {prelude}
    from cdplot.io import parse_scores
    from cdplot._errors import CdplotInputError
    before = "pandas" in sys.modules
    files = {files!r}
    seen = {{}}
    for name, (path, options) in files.items():
        table = parse_scores(sys.stdin if path == "-" else path, **options)
        seen[name] = [table.algorithms, table.datasets, table.scores.tolist()]
        if table.aggregation is not None:
            seen[name].append(table.aggregation.describe())
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        parse_scores(io.StringIO("size,A,B\\n1,0.5,0.6\\n2,0.4,0.2\\n"))
    seen["warned"] = [str(w.message) for w in caught]
    try:
        parse_scores(io.StringIO("dataset,A,B\\nd1,1,2\\nd1,1,2\\n"))
    except CdplotInputError as exc:
        seen["refused"] = str(exc)
    seen["pandas_before"] = before
    seen["pandas_after"] = "pandas" in sys.modules
    print(json.dumps(seen))
    """
)

# cdplot.io under a bare ``cdplot`` package: shows the imports of cdplot.io itself, whatever
# the package's __init__ imports (nothing is stubbed; pandas stays importable).
_BARE_PACKAGE = (
    "import types; _pkg = types.ModuleType('cdplot'); _pkg.__path__ = [{path!r}]; "
    "sys.modules['cdplot'] = _pkg"
)


def _files(tmp_path: Path) -> dict:
    files = {}
    for name, (text, options) in SHAPES.items():
        path = tmp_path / f"{name}.csv"
        path.write_text(text, encoding="utf-8")
        files[name] = (str(path), options)
    files["stdin"] = ("-", {})
    return files


def _check(seen: dict) -> None:
    assert seen["wide"][:2] == [["A", "B", "C"], ["d1", "d2", "d3", "d4"]]
    assert seen["long-algorithm-first"][2][2] == [0.6, 0.7, 0.65]
    assert seen["per-fold"][3] == "scores are means over 5 folds"
    assert seen["decimal-comma"][2][0] == [0.9, 0.8, 0.7]
    assert seen["stdin"][1] == ["d1", "d2", "d3"]
    assert len(seen["warned"]) == 1
    assert seen["warned"][0].startswith("'<stream>' has no column of dataset names")
    assert seen["refused"].startswith("duplicate dataset name(s): 'd1'")


def test_cdplot_io_reads_files_without_pandas(tmp_path):
    """The io package's own imports: no pandas for any file shape (nothing stubbed)."""
    prelude = _BARE_PACKAGE.format(path=str(ROOT / "cdplot"))
    code = _PARSE.format(prelude=prelude, files=_files(tmp_path))
    seen = _run(code, stdin=DECIMAL_COMMA.replace("Datensatz", "dataset"))
    _check(seen)
    assert seen["pandas_before"] is False
    assert seen["pandas_after"] is False


def test_parse_scores_reads_files_without_pandas_after_import_cdplot(tmp_path):
    """The same through ``import cdplot`` (checked once ``import cdplot`` itself is lean)."""
    code = _PARSE.format(prelude="import cdplot", files=_files(tmp_path))
    seen = _run(code, stdin=DECIMAL_COMMA.replace("Datensatz", "dataset"))
    _check(seen)
    if seen["pandas_before"]:
        pytest.skip("`import cdplot` imports pandas itself; cdplot.io's imports are checked above")
    assert seen["pandas_after"] is False


def test_counts_frame_is_built_on_demand():
    code = textwrap.dedent(
        f"""
        import io, json, sys
        {_BARE_PACKAGE.format(path=str(ROOT / "cdplot"))}
        from cdplot.io import parse_scores
        agg = parse_scores(io.StringIO({PER_FOLD!r}), aggregate="mean").aggregation
        before = "pandas" in sys.modules
        frame = agg.counts
        print(json.dumps([before, "pandas" in sys.modules, type(frame).__name__,
                          frame.index.name, frame.columns.name, int(frame.loc["d2", "B"])]))
        """
    )
    assert _run(code) == [False, True, "DataFrame", "dataset", "algorithm", 5]


# --------------------------------------------------------------------------- one logic
def outcome(read, **options):
    """What parse_scores makes of ``read()``: the table's contents, or the refusal."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            table = parse_scores(read(), **options)
        except CdplotInputError as exc:
            return ("refused", str(exc), [str(w.message) for w in caught])
    messages = [str(w.message) for w in caught]
    agg = table.aggregation
    return (
        "table",
        table.scores.dtype.str,
        table.scores.shape,
        table.scores.tobytes(),
        None if table.score_std is None else table.score_std.tobytes(),
        table.algorithms,
        table.datasets,
        None
        if agg is None
        else (agg.function, agg.columns, agg.min_count, agg.max_count, agg.count_array.tolist()),
        None if agg is None else (agg.counts.index.tolist(), agg.counts.columns.tolist()),
        table.dropped_datasets,
        table.dropped_algorithms,
        table.decimals,
        table.notes,
        messages,
    )


def assert_one_logic(text: str, **options) -> tuple:
    from_file = outcome(lambda: io.StringIO(text), **options)
    try:
        frame = read_table(io.StringIO(text))
    except CdplotInputError as exc:
        assert from_file[:2] == ("refused", str(exc))
        return from_file
    from_frame = outcome(lambda: frame, **options)
    assert from_file == from_frame
    return from_file


R_WRITE_TABLE = '"A" "B"\n"d1" 0.5 0.6\n'.replace(" ", ",") + "d2,0.4,0.2\nd3,0.3,0.1\n"
FILE_SHAPES = {
    **{name: (text, options) for name, (text, options) in SHAPES.items()},
    "per-fold-refused": (PER_FOLD, {}),
    "per-fold-median": (PER_FOLD, {"aggregate": "median"}),
    "per-fold-callable": (PER_FOLD, {"aggregate": max}),
    "fold-and-seed": (
        "dataset,algorithm,fold,seed,acc\n"
        + "".join(
            f"d{i},{a},{f},{s},{(i * 7 + j * 3 + f + 2 * s) % 10 / 10}\n"
            for i in range(3)
            for j, a in enumerate("AB")
            for f in range(2)
            for s in range(2)
        ),
        {"aggregate": "mean"},
    ),
    "unequal-runs": (PER_FOLD.rsplit("\n", 2)[0] + "\n", {"aggregate": "mean"}),
    "told-apart-by-other": (
        "dataset,algorithm,config,acc\nd1,A,x,1\nd1,A,y,2\nd1,B,x,3\nd2,A,x,4\nd2,B,x,5\n",
        {},
    ),
    "duplicate-rows": ("dataset,algorithm,acc\nd1,A,1\nd1,A,1\nd1,B,3\nd2,A,4\nd2,B,5\n", {}),
    "several-metrics": (
        "dataset,model,acc,time\nd1,A,0.9,3\nd1,B,0.8,2\nd2,A,0.7,1\nd2,B,0.6,4\n",
        {},
    ),
    "several-metrics-chosen": (
        "dataset,model,acc,time\nd1,A,0.9,3\nd1,B,0.8,2\nd2,A,0.7,1\nd2,B,0.6,4\n",
        {"score": "time"},
    ),
    "id-column": ("id,A,B,C\n3,0.5,0.6,0.7\n31,0.4,0.9,0.1\n37,0.2,0.1,0.3\n", {}),
    "task-ids": ("task_id,A,B\n3,0.5,0.6\n31,0.4,0.9\n37,0.2,0.1\n", {}),
    "numeric-first-column": ("size,A,B\n1,0.5,0.6\n2,0.4,0.2\n", {}),
    "numeric-first-column-named": ("size,A,B\n1,0.5,0.6\n2,0.4,0.2\n", {"dataset": "tid"}),
    "r-write-table": (R_WRITE_TABLE, {}),
    "trailing-delimiter": ("dataset,A,B,\nd1,1,2,\nd2,3,1,\n", {}),
    "tsv": ("dataset\tA\tB\nd1\t1\t2\nd2\t3\t1\n", {}),
    "quoted": ('dataset,A,B\n"d,1",1,2\n"d 2",3,1\n', {}),
    "missing-raise": ("dataset,A,B,C\nd1,1,,3\nd2,3,1,2\nd3,1,2,NA\n", {}),
    "missing-drop": ("dataset,A,B,C\nd1,1,,3\nd2,3,1,2\nd3,1,2,3\n", {"missing": "drop"}),
    "missing-drop-algorithms": (
        "dataset,A,B,C\nd1,1,,3\nd2,3,1,2\nd3,1,2,3\n",
        {"missing": "drop-algorithms"},
    ),
    "missing-keep": ("dataset,A,B,C\nd1,1,,3\nd2,3,1,2\nd3,1,2,3\n", {"missing": "keep"}),
    "decimals": ("dataset,A,B\nd1,0.83000000000000007,0.83\nd2,1,2\n", {"decimals": 2}),
    "percent": ("dataset,A,B\nd1,85%,80%\nd2,1,2\n", {}),
    "thousands": ('dataset,A,B\nd1,"1,234.5",3\nd2,1,2\n', {}),
    "point-in-decimal-comma": ("dataset;A;B\nd1;1.234;0,5\nd2;1;2\n", {}),
    "underscore": ("dataset,A,B\nd1,1_000,3\nd2,1,2\n", {}),
    "infinite": ("dataset,A,B\nd1,inf,3\nd2,1,2\n", {}),
    "text-in-wide": ("dataset,A,B\nd1,x,3\nd2,1,2\n", {}),
    "text-column-wide": ("dataset,kind,A\nd1,x,3\nd2,y,2\n", {}),
    "no-dataset-column": ("algorithm,acc\nA,1\nB,2\n", {}),
    "no-score-column": ("dataset,algorithm,note\nd1,A,x\nd1,B,y\n", {}),
    "two-dataset-columns": ("dataset,task,A,B\nd1,t,1,2\nd2,t,2,1\n", {}),
    "unknown-column": ("dataset,A,B\nd1,1,2\nd2,2,1\n", {"score": "acc"}),
    "duplicate-header": ("dataset,A,A\nd1,1,2\nd2,2,1\n", {}),
    "ragged": ("dataset,A,B\nd1,1,2\nd2,2,1,3\n", {}),
    "header-only": ("dataset,A,B\n", {}),
    "one-algorithm": ("dataset,A\nd1,1\nd2,2\n", {}),
    "wide-with-folds": (
        "dataset,fold,A,B\nd1,1,0.5,0.6\nd1,2,0.7,0.1\nd2,1,0.3,0.4\nd2,2,0.2,0.9\n",
        {"aggregate": "mean"},
    ),
    "wide-with-folds-refused": (
        "dataset,fold,A,B\nd1,1,0.5,0.6\nd1,2,0.7,0.1\nd2,1,0.3,0.4\nd2,2,0.2,0.9\n",
        {},
    ),
    "integers": ("dataset,A,B,C\n1,3,2,1\n2,1,2,3\n3,2,2,2\n", {"dataset": "dataset"}),
}


@pytest.mark.parametrize("name", sorted(FILE_SHAPES))
def test_a_file_reads_like_the_same_dataframe(name):
    text, options = FILE_SHAPES[name]
    got = assert_one_logic(text, **options)
    refusals = {
        "per-fold-refused": "5 rows per dataset and algorithm, told apart by column 'fold'",
        "duplicate-rows": "duplicate results: algorithm 'A' on dataset 'd1'",
        "missing-raise": "missing score (NaN or absent) for algorithm 'B' on dataset 'd1'",
        "percent": "non-numeric score '85%' in column 'A' (dataset 'd1')",
        "ragged": "line 3 of '<stream>' has 4 fields but the header has 3",
    }
    if name in refusals:
        assert got[0] == "refused" and got[1].startswith(refusals[name])
    if name in SHAPES:
        assert got[0] == "table"


HEADER_WORDS = [
    "dataset",
    "Task_ID",
    "algorithm",
    "model",
    "fold",
    "seed",
    "acc",
    "time",
    "A",
    "B",
    "C",
    "id",
    "",
    "note",
    "3",
]
CELL_WORDS = st.one_of(
    st.sampled_from(
        ["", "NA", "nan", "-nan", "None", "x", "d1", "d2", "85%", "1_000", "inf", " 0.5 ", "+3"]
        + ['"1,5"', "0,25", "1.234", "1e-3", "-0", "7", "2", "0.1", "0.2", "0.3", "A", "B"]
    ),
    st.integers(-3, 12).map(str),
    st.floats(-10, 10, allow_nan=False).map(repr),
)


NUMBER = st.one_of(
    st.integers(0, 9).map(lambda i: i / 10),
    st.integers(-3, 12),
    st.floats(-10, 10, allow_nan=False, width=32).map(float),
)


def _cell(draw, value, decimal_comma: bool) -> str:
    """A written number, sometimes replaced by an odd cell (missing, text, percent, ...)."""
    if draw(st.integers(0, 24)) == 0:
        return draw(CELL_WORDS)
    text = repr(value)
    return text.replace(".", ",") if decimal_comma else text


@st.composite
def csv_cases(draw):
    sep = draw(st.sampled_from([",", ";", "\t"]))
    decimal_comma = sep == ";" and draw(st.booleans())
    shape = draw(st.sampled_from(["wide", "long", "wide", "long", "free"]))
    n = draw(st.sampled_from([2, 3, 4, 5, 2, 3, 4, 5, 0, 1]))
    k = draw(st.sampled_from([2, 3, 4, 2, 3, 4, 1]))
    runs = draw(st.sampled_from([1, 2, 3]))
    algorithms = [f"alg{j}" for j in range(k)]
    if shape == "wide":
        first = draw(st.sampled_from(["dataset", "Task_ID", "id", "", "name", "3"]))
        folds = runs > 1 or draw(st.booleans())
        header = [first, *(["fold"] if folds else []), *algorithms]
        rows = []
        for i in range(n):
            for r in range(runs):
                values = [_cell(draw, draw(NUMBER), decimal_comma) for _ in algorithms]
                rows.append([f"d{i}", *([str(r)] if folds else []), *values])
    elif shape == "long":
        names = draw(st.permutations(["dataset", "model", "fold", "acc", "note"]))
        names = [c for c in names if c != "fold" or runs > 1 or draw(st.booleans())]
        names = [c for c in names if c != "note" or draw(st.booleans())]
        header = names
        rows = []
        for i in range(n):
            for a in algorithms:
                for r in range(runs):
                    cell = {
                        "dataset": f"d{i}",
                        "model": a,
                        "fold": str(r),
                        "acc": _cell(draw, draw(NUMBER), decimal_comma),
                        "note": draw(st.sampled_from(["x", "y", ""])),
                    }
                    rows.append([cell[c] for c in names])
        if rows and draw(st.integers(0, 3)) == 0:
            del rows[draw(st.integers(0, len(rows) - 1))]
        if rows and draw(st.integers(0, 3)) == 0:
            rows.append(rows[draw(st.integers(0, len(rows) - 1))])
    else:
        header = draw(st.lists(st.sampled_from(HEADER_WORDS), min_size=k, max_size=k))
        rows = [[draw(CELL_WORDS) for _ in range(k)] for _ in range(n)]
    if rows and draw(st.integers(0, 9)) == 0:
        rows[-1] = rows[-1][:-1]
    text = "\n".join(sep.join(r) for r in [header, *rows]) + "\n"
    options = {}
    if (runs > 1 or draw(st.integers(0, 3)) == 0) and draw(st.integers(0, 5)):
        options["aggregate"] = draw(st.sampled_from(["mean", "median"]))
    options["missing"] = draw(st.sampled_from(["raise", "drop", "drop-algorithms", "keep"]))
    if draw(st.integers(0, 4)) == 0:
        options["decimals"] = 1
    for role in ("dataset", "algorithm", "score"):
        if draw(st.integers(0, 11)) == 0:
            options[role] = draw(st.sampled_from([*header, "missing_col"]))
    return text, options


@settings(max_examples=200)  # 800 in the whole suite (below)
@given(case=csv_cases())
def test_generated_files_read_like_the_same_dataframe(case):
    text, options = case
    assert_one_logic(text, **options)


@pytest.mark.slow
@settings(max_examples=800)
@given(case=csv_cases())
def test_generated_files_read_like_the_same_dataframe_more_files(case):
    text, options = case
    assert_one_logic(text, **options)


def test_generated_cases_are_not_all_refused():
    """The generator reaches tables, aggregations and refusals alike (guards the test)."""
    kinds = {"table": 0, "refused": 0, "aggregated": 0}

    @settings(max_examples=300)
    @given(case=csv_cases())
    def count(case):
        got = assert_one_logic(case[0], **case[1])
        kinds[got[0]] += 1
        kinds["aggregated"] += got[0] == "table" and got[7] is not None

    count()
    assert kinds["table"] >= 60 and kinds["refused"] >= 60 and kinds["aggregated"] >= 20, kinds


def test_aggregation_equality_and_read_only():
    agg = parse_scores(io.StringIO(PER_FOLD), aggregate="mean").aggregation
    assert agg.count_array.shape == (4, 3) and (agg.count_array == 5).all()
    with pytest.raises(ValueError):
        agg.count_array[0, 0] = 1
    with pytest.raises(AttributeError):
        agg.min_count = 2
    same = type(agg)(
        "mean", ("fold",), agg.counts, 5, 5
    )  # from the DataFrame, as a user may build it
    assert same == agg and np.array_equal(same.count_array, agg.count_array)
    assert repr(agg) == "Aggregation(function='mean', columns=('fold',), min_count=5, max_count=5)"
    fresh = parse_scores(io.StringIO(PER_FOLD), aggregate="mean").aggregation
    for original in (fresh, same):  # counts as an array (never shown) and as a DataFrame
        for copy in (pickle.loads(pickle.dumps(original)), deepcopy(original)):
            assert copy == original and copy.counts.equals(agg.counts)
            assert copy.counts.loc["d3", "C"] == 5 and copy.describe() == original.describe()


# --------------------------------------------------------------------------- plain files
def read_both(text: str) -> tuple:
    """``_read`` of ``text`` by the block reader (blocks of 2 rows) and by :mod:`csv` alone."""
    from unittest import mock

    from cdplot.io import _read

    def read():
        try:
            columns, _, decimal = _read._read(io.StringIO(text))
        except CdplotInputError as exc:
            return ("refused", str(exc))
        return (
            "read",
            decimal,
            [
                (name, col.dtype.str, col.tolist() if col.dtype == object else col.tobytes())
                for name, col in columns.items()
            ],
        )

    with mock.patch.object(_read, "_CHUNK", 2):
        blocks = read()
    with mock.patch.object(_read, "_read_plain", lambda text, sep: None):
        general = read()
    return blocks, general


@st.composite
def plain_texts(draw):
    """Files the block reader takes: numbers, ints, names; a late odd cell; CRLF; blanks."""
    sep = draw(st.sampled_from([",", "\t", ";"]))
    k = draw(st.integers(2, 4))
    n = draw(st.integers(1, 9))
    kinds = [draw(st.sampled_from(["int", "float", "name", "mixed"])) for _ in range(k)]
    values = {
        "int": st.integers(-99, 99).map(str),
        "float": st.floats(-1e3, 1e3, allow_nan=False).map(repr),
        "name": st.sampled_from(["d1", "x_y", "ds 2", "3a"]),
        "mixed": st.one_of(st.integers(0, 9).map(str), st.sampled_from(["0.5", " 7 ", "+1"])),
    }
    rows = [[draw(values[kind]) for kind in kinds] for _ in range(n)]
    if draw(st.booleans()):  # an odd cell somewhere (often after the first block)
        i, j = draw(st.integers(0, n - 1)), draw(st.integers(0, k - 1))
        rows[i][j] = draw(CELL_WORDS)
    header = draw(st.lists(st.sampled_from(HEADER_WORDS), min_size=k, max_size=k, unique=True))
    lines = [sep.join(r) for r in [header, *rows]]
    if draw(st.booleans()):
        lines.insert(draw(st.integers(0, len(lines))), draw(st.sampled_from(["", "  ", sep * k])))
    newline = draw(st.sampled_from(["\n", "\r\n"]))
    return newline.join(lines) + newline * draw(st.integers(0, 2))


@settings(max_examples=500)
@given(text=st.one_of(plain_texts(), csv_cases().map(lambda case: case[0])))
def test_the_block_reader_reads_what_csv_reads(text):
    blocks, general = read_both(text)
    assert blocks == general


def test_generated_plain_files_take_every_route():
    """Guards the test above: block reads, late switches to csv and csv reads all occur."""
    from unittest import mock

    from cdplot.io import _read

    routes = {"blocks": 0, "late": 0, "csv": 0}

    @settings(max_examples=300)
    @given(text=plain_texts())
    def route(text):
        first = _read._first_line(text)
        sep = max(("\t", ",", ";"), key=first.count)
        with mock.patch.object(_read, "_CHUNK", 2):
            small = _read._read_plain(text, sep)
        whole = _read._read_plain(text, sep)
        routes["blocks" if small is not None else "late" if whole is not None else "csv"] += 1

    route()
    assert routes["blocks"] >= 150 and routes["late"] >= 15 and routes["csv"] >= 3, routes


def test_the_block_reader_is_taken_for_plain_files():
    from cdplot.io._read import _read_plain

    assert _read_plain(WIDE, ",") is not None and _read_plain(WIDE.replace("\n", "\r\n"), ",")
    assert _read_plain(DECIMAL_COMMA, ";") is None  # decimal commas: csv
    assert _read_plain('dataset,A\n"d,1",1\n', ",") is None  # quotes: csv
    late = "dataset,A,B\n" + "".join(f"d{i},{i},0.5\n" for i in range(5000)) + "d,0.5,NA\n"
    blocks, general = read_both(late)
    assert blocks == general and blocks[2][1][1] == "<f8" and blocks[2][2][1] == "<f8"

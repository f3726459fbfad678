"""A property-based campaign over the command line: stdout, paths, read-only files.

- Whatever the table and its line endings on standard input, ``--json -`` writes nothing
  but the JSON document, and its numbers are those of :func:`cdplot.compare` on the same
  table given as a DataFrame (another shape, another entry point).
- Whatever mix of outputs (empty path, read-only file, directory, missing directory, the
  input itself, standard output twice), a refused run exits 2 with exactly one error line
  and leaves every file as it was; an accepted run writes every output.

The signal cases (SIGINT/SIGTERM swallowed by a weakref callback) are in
``tests/test_defects_cli.py``. CI runs a bounded number of examples; ``slow`` many more.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import sys
import tempfile
import warnings

import numpy as np
import pandas as pd
import pytest
from _helpers import snapshot
from hypothesis import given, settings
from hypothesis import strategies as st

import cdplot
from cdplot.cli import main

FAST = settings(max_examples=25)
SLOW = settings(max_examples=300)

NAMES = ["A", "B", "1.1", "1.10", "001", "NA", "x y", "RUN"]


@st.composite
def tables(draw):
    k = draw(st.integers(2, 4))
    n = draw(st.integers(3, 7))
    algorithms = draw(st.lists(st.sampled_from(NAMES), min_size=k, max_size=k, unique=True))
    datasets = [f"d{i}" for i in range(n)]
    values = st.floats(-1e3, 1e3, allow_nan=False).map(lambda v: round(v, 3))
    scores = draw(st.lists(st.lists(values, min_size=k, max_size=k), min_size=n, max_size=n))
    return algorithms, datasets, scores


def _run(argv, stdin_bytes: bytes | None = None) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    stdin = io.TextIOWrapper(io.BytesIO(stdin_bytes or b""), encoding="utf-8", newline="")
    old = sys.stdin
    sys.stdin = stdin
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main([str(a) for a in argv])
    finally:
        sys.stdin = old
    return code, out.getvalue(), err.getvalue()


def check_stdout_is_only_the_document(table, eol):
    algorithms, datasets, scores = table
    lines = ["dataset," + ",".join(algorithms)]
    lines += [
        d + "," + ",".join(repr(v) for v in row) for d, row in zip(datasets, scores, strict=True)
    ]
    data = (eol.join(lines) + eol).encode()
    code, out, err = _run(["compare", "-", "--test", "sign", "--json", "-"], data)
    frame = pd.DataFrame(scores, columns=algorithms, index=pd.Index(datasets, name="dataset"))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cdplot.CdplotWarning)
        try:
            ref = cdplot.compare(frame, test="sign")
        except cdplot.CdplotInputError as exc:
            assert code == 2 and out == "" and err.count("cdplot: error:") == 1, (exc, err)
            return
    assert code == 0, err
    doc = json.loads(out)  # nothing but the document on stdout
    assert doc["algorithms"] == ref.algorithms and doc["datasets"] == ref.datasets
    got = np.array([doc["average_ranks"][a] for a in ref.algorithms])
    assert np.array_equal(got, ref.average_ranks.loc[ref.algorithms].to_numpy())
    assert all(line.startswith("cdplot: warning:") for line in err.splitlines())


KINDS = ["new", "existing", "read-only", "empty", "directory", "missing-dir", "input", "stdout"]


def check_outputs(kinds):
    with tempfile.TemporaryDirectory() as tmp:
        source = os.path.join(tmp, "in.csv")
        with open(source, "w") as fh:
            fh.write("dataset,A,B,C\nd1,1,2,3\nd2,2,3,1\nd3,3,1,2\nd4,1,3,2\nd5,2,1,3\n")
        argv = ["compare", source, "--test", "sign", "-q"]
        refused = False
        stdout_used = False
        for flag, kind in zip(("--json", "--report"), kinds, strict=False):
            ext = ".json" if flag == "--json" else ".md"
            path = os.path.join(tmp, f"out{flag[2:]}{ext}")
            if kind in ("existing", "read-only"):
                with open(path, "w") as fh:
                    fh.write("old")
                if kind == "read-only":
                    os.chmod(path, 0o444)
                    refused = True
            elif kind == "empty":
                path, refused = "", True
            elif kind == "directory":
                path, refused = tmp, True
            elif kind == "missing-dir":
                path, refused = os.path.join(tmp, "nope", "x" + ext), True
            elif kind == "input":
                path, refused = source, True
            elif kind == "stdout":
                refused = refused or stdout_used
                stdout_used, path = True, "-"
            argv += [flag, path]
            if flag == "--report" and path == "-":
                argv += ["--report-format", "markdown"]
        before = snapshot(tmp)
        code, out, err = _run(argv)
        if refused:
            assert code == 2, (kinds, err)
            assert err.count("\n") == 1 and err.startswith("cdplot: error:"), err
            assert snapshot(tmp) == before  # nothing written, nothing replaced
        else:
            assert code == 0, (kinds, err)
            after = snapshot(tmp)
            for name in after:
                assert not name.endswith(".part")  # no temporary left behind
            written = [k for k in kinds if k in ("new", "existing")]
            assert sum(1 for n in after if n.startswith("out")) >= len(written)


EOL = st.sampled_from(["\n", "\r\n", "\r"])
OUTPUT_KINDS = st.lists(st.sampled_from(KINDS), min_size=1, max_size=2)


@FAST
@given(table=tables(), eol=EOL)
def test_stdout_holds_only_the_json_and_its_numbers_are_compares(table, eol):
    check_stdout_is_only_the_document(table, eol)


@FAST
@given(kinds=OUTPUT_KINDS)
def test_outputs_are_written_or_refused_untouched(kinds):
    check_outputs(kinds)


@pytest.mark.slow
@SLOW
@given(table=tables(), eol=EOL)
def test_slow_stdout_only_the_document(table, eol):
    check_stdout_is_only_the_document(table, eol)


@pytest.mark.slow
@SLOW
@given(kinds=OUTPUT_KINDS)
def test_slow_outputs(kinds):
    check_outputs(kinds)

"""A property-based campaign over the input layer: tables in every shape.

Hypothesis draws a table of scores with names that look like numbers, missing-value tokens,
repetition or role words, and scores that are huge, whole, negative, NaN or infinite; the
table is then written as a wide CSV, a long CSV, a per-fold log, with LF, CRLF or CR line
endings, a BOM, another delimiter, quoted headers, and as DataFrames. Every reading must be
the table that was drawn (names exactly as written, scores exactly), read alike in every
shape, or a clear :class:`~cdplot.CdplotInputError`; never anything else. The statistics
of each accepted table are checked against scipy on the drawn numbers.

CI runs a bounded number of examples; the ``slow`` tests run the same properties on many
more. A case a run finds is kept in ``tests/test_defects_io.py`` as a regression test.
"""

from __future__ import annotations

import io
import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from scipy import stats

import cdplot
from cdplot import CdplotInputError
from cdplot.io import REPETITION_NAMES, column_key, parse_scores

FAST = settings(max_examples=40)
SLOW = settings(max_examples=600)

#: Names that must be read exactly as written (none of them may be refused).
PLAIN_NAMES = ["A", "B2", "rf", "SVM", "1.1", "1.10", "001", "1e5", "+1", "-0", "x y", "é"]
#: Names a reader may reasonably refuse (a missing-value token as a column name, role words).
RISKY_NAMES = ["NA", "None", "nan", "RUN", "Fold", "seed", "Model", "Task", "System", "Mean"]
DATASET_NAMES = PLAIN_NAMES + ["NA", "None", "nan", "NULL", "1.100", "0x1"]
EXACT = 2**53
REPETITIONS = {column_key(n) for n in REPETITION_NAMES}

BOUNDED = st.one_of(
    st.floats(-1e5, 1e5, allow_nan=False, allow_infinity=False),
    st.integers(-1000, 1000).map(float),
)
finite = st.one_of(
    st.floats(-1e6, 1e6, allow_nan=False, allow_infinity=False),
    st.floats(allow_nan=False, allow_infinity=False),  # up to +-1.8e308
    st.integers(-1000, 1000).map(float),
)


@st.composite
def tables(draw, *, risky: bool = False, special: bool = False, bounded: bool = False):
    """(algorithms, datasets, scores) with unique names; scores an N x k list of floats."""
    pool = PLAIN_NAMES + (RISKY_NAMES if risky else [])
    k = draw(st.integers(2, 5))
    n = draw(st.integers(2, 7))
    algorithms = draw(st.lists(st.sampled_from(pool), min_size=k, max_size=k, unique=True))
    datasets = draw(st.lists(st.sampled_from(DATASET_NAMES), min_size=n, max_size=n, unique=True))
    cell = BOUNDED if bounded else finite
    if special:
        cell = st.one_of(finite, st.sampled_from([np.nan, np.inf, -np.inf]))
    scores = draw(st.lists(st.lists(cell, min_size=k, max_size=k), min_size=n, max_size=n))
    return algorithms, datasets, scores


def _cell(v: float) -> str:
    if v != v:
        return "NaN"
    if v in (np.inf, -np.inf):
        return "inf" if v > 0 else "-inf"
    return repr(float(v))


def wide_csv(algorithms, datasets, scores, *, sep=",", eol="\n", bom=False, quote=False):
    q = (lambda s: f'"{s}"') if quote else (lambda s: s)
    lines = [sep.join([q("dataset"), *(q(a) for a in algorithms)])]
    lines += [
        sep.join([d, *(_cell(v) for v in row)]) for d, row in zip(datasets, scores, strict=True)
    ]
    return ("\ufeff" if bom else "") + eol.join(lines) + eol


def long_csv(algorithms, datasets, scores, order, *, eol="\n"):
    rows = [(d, a, scores[i][j]) for i, d in enumerate(datasets) for j, a in enumerate(algorithms)]
    rows = [rows[p % len(rows)] for p in order] if order else rows
    seen, unique = set(), []
    for r in rows + [
        (d, a, scores[i][j]) for i, d in enumerate(datasets) for j, a in enumerate(algorithms)
    ]:
        if (r[0], r[1]) not in seen:
            seen.add((r[0], r[1]))
            unique.append(r)
    lines = ["dataset,algorithm,score", *(f"{d},{a},{_cell(v)}" for d, a, v in unique)]
    return eol.join(lines) + eol


def _read(source, **kwargs):
    """The reading as plain Python values, or the refusal's message."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cdplot.CdplotWarning)
        try:
            t = parse_scores(source, **kwargs)
        except CdplotInputError as exc:
            return ("refused", str(exc))
    return (t.algorithms, t.datasets, t.scores.tolist())


def _expected(algorithms, datasets, scores):
    return (list(algorithms), list(datasets), [[float(v) for v in row] for row in scores])


def _exact_or_refused(got, expected, *, may_refuse: bool) -> None:
    if got[0] == "refused":
        assert may_refuse, f"a plain table was refused: {got[1]}"
        return
    algorithms, datasets, scores = got
    assert (algorithms, datasets) == expected[:2]
    # a long table lists the datasets and algorithms in order of first appearance
    assert np.array_equal(np.array(scores), np.array(expected[2]), equal_nan=True)


def _special_scores(scores) -> bool:
    return any(not np.isfinite(v) for row in scores for v in row)


# --------------------------------------------------------------------------- properties
def check_wide_shapes(table, sep, eol, bom, quote):
    algorithms, datasets, scores = table
    expected = _expected(*table)
    text = wide_csv(algorithms, datasets, scores, sep=sep, eol=eol, bom=bom, quote=quote)
    refusable = _special_scores(scores) or any(a in RISKY_NAMES for a in algorithms)
    refusable = refusable or datasets[-1] == "Mean"
    from_text = _read(io.StringIO(text))
    _exact_or_refused(from_text, expected, may_refuse=refusable)
    # the same bytes from a binary stream (standard input) read alike
    raw = io.BytesIO(text.encode("utf-8"))
    assert _read(raw) == from_text
    # the same table as a DataFrame with text names reads alike
    frame = pd.DataFrame(scores, columns=algorithms, dtype=float)
    frame.insert(0, "dataset", pd.Series(datasets, dtype=object))
    from_frame = _read(frame)
    if from_text[0] != "refused":
        assert from_frame[:2] == from_text[:2]
        assert np.array_equal(np.array(from_frame[2]), np.array(from_text[2]))
    else:
        assert from_frame[0] == "refused"


def check_long_equals_wide(table, order, eol):
    algorithms, datasets, scores = table
    wide = _read(io.StringIO(wide_csv(algorithms, datasets, scores)))
    long = _read(io.StringIO(long_csv(algorithms, datasets, scores, order, eol=eol)))
    if wide[0] == "refused" or long[0] == "refused":
        return
    # the same cells, whatever the order of the rows
    w = pd.DataFrame(wide[2], index=wide[1], columns=wide[0])
    g = pd.DataFrame(long[2], index=long[1], columns=long[0])
    assert sorted(w.index) == sorted(g.index) and sorted(w.columns) == sorted(g.columns)
    assert g.loc[w.index, w.columns].equals(w)


def check_statistics_against_scipy(table):
    algorithms, datasets, scores = table
    arr = np.array(scores, dtype=float)
    assume(np.isfinite(arr).all() and len(algorithms) >= 3)
    text = wide_csv(algorithms, datasets, scores)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cdplot.CdplotWarning)
        try:
            res = cdplot.compare(
                io.StringIO(text), test="sign", tie_correction=True, higher_is_better=True
            )
        except CdplotInputError:
            assume(False)
    # scipy.stats.rankdata on the negated scores (rank 1 = best), averaged over datasets
    ranks = np.array([stats.rankdata(-row) for row in arr]).mean(axis=0)
    got = res.average_ranks.loc[algorithms].to_numpy()
    assert np.allclose(got, ranks, rtol=0, atol=1e-12)
    if not all(len(set(row)) == 1 for row in arr.tolist()):
        # scipy.stats.friedmanchisquare (tie-corrected, as tie_correction=True)
        ref = stats.friedmanchisquare(*arr.T)
        assert res.friedman.statistic == pytest.approx(ref.statistic, rel=1e-9, abs=1e-12)
        assert res.friedman.pvalue == pytest.approx(ref.pvalue, rel=1e-9, abs=1e-300)


def check_per_fold_mean(table, folds):
    algorithms, datasets, scores = table
    arr = np.array(scores, dtype=float)
    assume(np.isfinite(arr).all() and np.abs(arr).max() < 1e6)
    lines = ["dataset,fold," + ",".join(algorithms)]
    offsets = np.linspace(-0.5, 0.5, folds)
    for d, row in zip(datasets, arr, strict=True):
        for f, off in enumerate(offsets, start=1):
            lines.append(f"{d},{f}," + ",".join(repr(float(v + off)) for v in row))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cdplot.CdplotWarning)
        try:
            got = parse_scores(io.StringIO("\n".join(lines) + "\n"), aggregate="mean")
        except CdplotInputError as exc:
            assert any(a in RISKY_NAMES for a in algorithms), str(exc)
            return
    written = {a: [v + o for v in arr[:, j] for o in offsets] for j, a in enumerate(algorithms)}
    kept = [a for a in algorithms if a in got.algorithms]
    for a in set(algorithms) - set(kept):
        # only a column named like runs that holds whole numbers (it reads as run ids), and
        # the note on the aggregation names it: never dropped silently
        assert column_key(a) in REPETITIONS and all(v == round(v) for v in written[a])
        assert a in got.aggregation.columns
    assert (got.algorithms, got.datasets) == (kept, list(datasets))
    # oracle: numpy's mean of the very numbers written per cell
    expected = np.array(
        [[np.mean([float(repr(float(v + o))) for o in offsets]) for v in row] for row in arr]
    )[:, [algorithms.index(a) for a in kept]]
    assert np.allclose(got.scores, expected, rtol=1e-12, atol=1e-9)


def check_huge_integers(values):
    frame = pd.DataFrame({"dataset": ["d1", "d2", "d3"], "A": values, "B": [1, 2, 3]})
    got = _read(frame)
    if any(abs(v) > EXACT for v in values):
        assert got[0] == "refused" and "2**53" in got[1]
    else:
        assert got[2] == [[float(v), float(b)] for v, b in zip(values, [1, 2, 3], strict=True)]
        assert [float(v) for v in values] == [int(v) for v in values]  # exact


SHAPES = dict(
    sep=st.sampled_from([",", ";", "\t"]),
    eol=st.sampled_from(["\n", "\r\n", "\r"]),
    bom=st.booleans(),
    quote=st.booleans(),
)
ORDER = st.lists(st.integers(0, 10**6), max_size=40)
HUGE = st.lists(st.integers(-(2**60), 2**60), min_size=3, max_size=3)


@FAST
@given(table=tables(), **SHAPES)
def test_wide_tables_read_exactly_in_every_dialect(table, sep, eol, bom, quote):
    check_wide_shapes(table, sep, eol, bom, quote)


@FAST
@given(table=tables(risky=True, special=True), **SHAPES)
def test_risky_names_and_special_scores_are_exact_or_refused(table, sep, eol, bom, quote):
    check_wide_shapes(table, sep, eol, bom, quote)


@FAST
@given(table=tables(risky=True), order=ORDER, eol=st.sampled_from(["\n", "\r\n"]))
def test_long_and_wide_files_read_alike(table, order, eol):
    check_long_equals_wide(table, order, eol)


@FAST
@given(table=tables())
def test_statistics_of_read_tables_equal_scipy(table):
    check_statistics_against_scipy(table)


@FAST
@given(table=tables(risky=True, bounded=True), folds=st.integers(2, 4))
def test_per_fold_logs_average_to_the_numbers_written(table, folds):
    check_per_fold_mean(table, folds)


@FAST
@given(values=HUGE)
def test_integers_are_exact_or_refused(values):
    check_huge_integers(values)


# --------------------------------------------------------------------------- larger profile
@pytest.mark.slow
@SLOW
@given(table=tables(risky=True, special=True), **SHAPES)
def test_slow_wide_tables(table, sep, eol, bom, quote):
    check_wide_shapes(table, sep, eol, bom, quote)


@pytest.mark.slow
@SLOW
@given(table=tables(risky=True), order=ORDER, eol=st.sampled_from(["\n", "\r\n", "\r"]))
def test_slow_long_and_wide(table, order, eol):
    check_long_equals_wide(table, order, eol)


@pytest.mark.slow
@SLOW
@given(table=tables())
def test_slow_statistics_equal_scipy(table):
    check_statistics_against_scipy(table)


@pytest.mark.slow
@SLOW
@given(table=tables(risky=True, bounded=True), folds=st.integers(2, 5))
def test_slow_per_fold_logs(table, folds):
    check_per_fold_mean(table, folds)

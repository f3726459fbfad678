"""Properties of the input layer (hypothesis).

- Any permutation of a long table's columns and rows gives the same analysis (average
  ranks, raw p-values, Friedman statistic, groups; aggregated means bit for bit).
- Any generated table (names, dtypes, NaN/inf/None, duplicates, text in score columns,
  empty, 1 x 1) either gives the reading a person would give it or raises
  CdplotInputError; no other exception and no other warning than CdplotWarning.
  The reference reading is independent of cdplot: scores are ``float(cell)`` of the real
  numbers in the table, ranks are ``scipy.stats.rankdata`` per row and the Friedman
  statistic is ``scipy.stats.friedmanchisquare`` (tie-corrected; rel 1e-9).
- Any generated lm-evaluation-harness output (results files and samples files: the
  harness's layout with any JSON value anywhere, damaged lines, integers beyond a float,
  deep nesting) and any generated MLflow, W&B or OpenML export (cells of any kind, missing
  names, any run state, a column missing) is read into a table or refused with
  CdplotInputError; a tracker keeps exactly its finished runs and the note counts the
  others.
2,050 examples in all (1,300 data frames + 600 CSV texts + 150 permutations), and 280 of
log readers (100 results folders + 80 samples folders + 100 tracker exports).
"""

from __future__ import annotations

import contextlib
import io
import json
import math
import warnings
from decimal import Decimal

import numpy as np
import pandas as pd
import pytest
from _helpers import quiet_compare
from hypothesis import event, given, settings
from hypothesis import strategies as st
from scipy import stats

from cdplot import CdplotInputError
from cdplot.io import column_key
from cdplot.io._roles import _ALGORITHM, _DATASET, _REPETITION


def reference_ranks(values: np.ndarray) -> np.ndarray:
    return np.vstack([stats.rankdata(-row) for row in values])


def check_against_reference(res, values: np.ndarray, algorithms, datasets) -> None:
    assert res.algorithms == list(algorithms)
    assert res.datasets == list(datasets)
    np.testing.assert_array_equal(res.scores.to_numpy(), values)
    avg = reference_ranks(values).mean(axis=0)
    got = res.average_ranks.reindex(list(algorithms)).to_numpy()
    np.testing.assert_allclose(got, avg, rtol=1e-12)
    n, k = values.shape
    if k >= 3 and not (reference_ranks(values) == (k + 1) / 2).all():
        chi2 = stats.friedmanchisquare(*values.T).statistic
        assert res.friedman.statistic == pytest.approx(chi2, rel=1e-9)


# --------------------------------------------------------------------------- permutations
@st.composite
def long_tables(draw):
    n = draw(st.integers(2, 7))
    k = draw(st.integers(2, 5))
    runs = draw(st.integers(1, 3))
    values = draw(st.lists(st.integers(0, 4), min_size=n * k * runs, max_size=n * k * runs))
    d_col = draw(st.sampled_from(["dataset", "Task_ID", "problem", "Data Set"]))
    a_col = draw(st.sampled_from(["algorithm", "Model", "classifier", "learner"]))
    s_col = draw(st.sampled_from(["score", "accuracy", "AUC"]))
    rows = []
    it = iter(values)
    for i in range(n):
        for j in range(k):
            for r in range(runs):
                rows.append({d_col: f"ds{i}", a_col: f"alg{j}", "fold": r, s_col: next(it) / 10})
    frame = pd.DataFrame(rows)
    if draw(st.booleans()):
        frame["note"] = "x"  # an ignored text column
    return frame, runs


@settings(max_examples=150)
@given(table=long_tables(), seed=st.integers(0, 2**32 - 1))
def test_permuting_a_long_tables_columns_and_rows_changes_nothing(table, seed):
    frame, runs = table
    rng = np.random.default_rng(seed)
    shuffled = frame.iloc[rng.permutation(len(frame)), rng.permutation(frame.shape[1])]
    options = {"aggregate": "mean"} if runs > 1 else {}
    for test in ("sign",):
        a = quiet_compare(frame, test=test, correction="none", **options)
        b = quiet_compare(shuffled, test=test, correction="none", **options)
        names = a.algorithms
        pd.testing.assert_series_equal(
            a.average_ranks.sort_index(), b.average_ranks.sort_index(), check_exact=True
        )
        pd.testing.assert_frame_equal(
            a.pvalues.loc[names, names], b.pvalues.loc[names, names], check_exact=True
        )
        pd.testing.assert_frame_equal(
            a.scores.loc[a.datasets, names], b.scores.loc[a.datasets, names], check_exact=True
        )
        assert a.friedman.statistic == pytest.approx(b.friedman.statistic, rel=1e-13)
        assert {frozenset(g) for g in a.groups} == {frozenset(g) for g in b.groups}


# --------------------------------------------------------------------------- generated frames
NAMES = ["A", "B", "C", "alg0", "x", "dataset", "fold", "id", "model", "", "Unnamed: 0", 0, 1]
CELLS = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True, width=64),
    st.integers(-5, 5),
    st.sampled_from(
        [None, "0.5", "x", "", "85%", True, False, Decimal("0.25"), pd.NA, 1j, "1,5", 2**70]
    ),
)
REAL = st.one_of(
    st.floats(-1e6, 1e6, allow_nan=False), st.integers(-5, 5), st.sampled_from([Decimal("0.5")])
)


def is_real(v) -> bool:
    if isinstance(v, (bool, np.bool_)) or v is None or v is pd.NA:
        return False
    if isinstance(v, (int, float, Decimal, np.integer, np.floating)):
        return math.isfinite(float(v)) if not isinstance(v, int) or abs(v) < 2**1000 else False
    return False


@st.composite
def frames(draw):
    n = draw(st.integers(0, 5))
    k = draw(st.integers(0, 5))
    clean = draw(st.booleans())
    if clean:
        names = draw(
            st.lists(
                st.sampled_from(["A", "B", "C", "alg0", "x", "z9"]),
                min_size=k,
                max_size=k,
                unique=True,
            )
        )
        flat = draw(st.lists(REAL, min_size=n * k, max_size=n * k))
    else:
        names = draw(st.lists(st.sampled_from(NAMES), min_size=k, max_size=k))
        flat = draw(st.lists(CELLS, min_size=n * k, max_size=n * k))
    cells = [flat[i * k : (i + 1) * k] for i in range(n)]
    index_kind = draw(st.sampled_from(["names", "range", "dup", "named"]))
    if index_kind == "names" or clean:
        index = pd.Index([f"d{i}" for i in range(n)], dtype=object)
    elif index_kind == "range":
        index = pd.RangeIndex(n)
    elif index_kind == "dup":
        index = pd.Index(["d0"] * n, dtype=object)
    else:
        index = pd.Index([f"d{i}" for i in range(n)], dtype=object, name="dataset")
    columns = pd.Index(names, dtype=object)
    frame = (
        pd.DataFrame(cells, index=index, columns=columns, dtype=object)
        if k
        else pd.DataFrame(index=index)
    )
    if draw(st.booleans()):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            frame = frame.infer_objects()
    return frame


def person_reading(frame: pd.DataFrame):
    """The reading of a plain wide table, or None when it is not one."""
    names = [str(c) for c in frame.columns]
    if len(set(names)) != len(names):
        return None
    roles = _DATASET | _ALGORITHM | _REPETITION | {"id", "index", ""}
    if any(column_key(c) in roles or column_key(c).startswith("unnamed") for c in names):
        return None
    index = [str(i) for i in frame.index]
    if frame.index.name is not None or len(set(index)) != len(index):
        return None
    if isinstance(frame.index, pd.RangeIndex):
        return None
    cells = frame.astype(object).to_numpy()
    if not all(is_real(v) for v in cells.ravel()):
        return None
    if any(isinstance(v, (int, np.integer)) and abs(int(v)) > 2**53 for v in cells.ravel()):
        return None  # refused: a float cannot hold it exactly
    n, k = cells.shape
    if n < 2 or k < 2:
        return None
    values = np.array([[float(v) for v in row] for row in cells], dtype=float)
    return values, names, index


@settings(max_examples=300)  # 1300 in the whole suite (below)
@given(frame=frames())
def test_generated_frames_are_read_right_or_refused(frame):
    check_generated_frame(frame)


@pytest.mark.slow
@settings(max_examples=1300)
@given(frame=frames())
def test_generated_frames_are_read_right_or_refused_more_frames(frame):
    check_generated_frame(frame)


def check_generated_frame(frame) -> None:
    """``frame`` is read as a person reads it, or refused with a CdplotInputError."""
    expected = person_reading(frame)
    try:
        res = quiet_compare(frame, tie_correction=True, test="sign", correction="none")
    except CdplotInputError:
        assert expected is None, "a plain wide table was refused"
        return
    if expected is not None:
        check_against_reference(res, *expected)
    else:  # read otherwise: every analysed score is a real number of the table
        cells = {float(v) for v in frame.astype(object).to_numpy().ravel() if is_real(v)}
        assert set(res.scores.to_numpy().ravel()) <= cells


# --------------------------------------------------------------------------- generated CSV text
HEADER = st.sampled_from(["dataset", "A", "B", "C", "fold", "id", "", "A", "task_id", "x"])
CSV_CELL = st.one_of(
    st.sampled_from(
        ["0.5", "0,5", "1", "-2", "", "NA", "inf", "x", "85%", '"1,234.5"', "1e3", "1_0"]
    ),
    st.floats(-100, 100, allow_nan=False).map(repr),
)


@st.composite
def csv_texts(draw):
    sep = draw(st.sampled_from([",", ";", "\t"]))
    k = draw(st.integers(1, 5))
    n = draw(st.integers(0, 5))
    header = draw(st.lists(HEADER, min_size=k, max_size=k))
    rows = [[draw(CSV_CELL) for _ in range(k)] for _ in range(n)]
    if draw(st.booleans()) and n:
        rows[0] = rows[0][:-1]  # a ragged row
    return "\n".join(sep.join(r) for r in [header, *rows]) + "\n"


@settings(max_examples=600)
@given(text=csv_texts())
def test_generated_csv_is_read_right_or_refused(text):
    try:
        res = quiet_compare(io.StringIO(text), test="sign", correction="none")
    except CdplotInputError:
        return
    # whatever was read, each score is a number written in the file
    lines = [line for line in text.splitlines() if line.strip()]
    sep = max(("\t", ",", ";"), key=lines[0].count)
    written = set()
    for line in lines[1:]:
        for cell in line.split(sep):
            cell = cell.strip().strip('"')
            for form in (cell, cell.replace(",", ".")):
                with contextlib.suppress(ValueError):
                    written.add(float(form))
    assert set(res.scores.to_numpy().ravel()) <= written
    assert np.isfinite(res.scores.to_numpy()).all()


# --------------------------------------------------------------------------- log readers
# lm-evaluation-harness files and tracker exports, generated: each is read into a table or
# refused with CdplotInputError, never another exception, never a model left out unsaid.
JSON_LEAF = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-5, 5),
    st.sampled_from([10**400, -(10**20), 2**53 + 1]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from(["", "x", "0.5", "N/A", "acc", "none"]),
)
JSON_ANY = st.recursive(
    JSON_LEAF,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3),
        st.dictionaries(
            st.sampled_from(["acc,none", "alias", "x", "acc", "doc_id"]), inner, max_size=3
        ),
    ),
    max_leaves=8,
)
METRIC_VALUE = st.one_of(st.floats(0, 1), st.just(10**400), JSON_LEAF)


@st.composite
def lm_eval_results(draw):
    """A results_<date>.json document: mostly the harness's layout, any value anywhere."""
    if draw(st.integers(0, 9)) == 0:
        return draw(JSON_ANY)
    tasks = draw(
        st.lists(st.sampled_from(["arc", "boolq", "piqa", "grp"]), max_size=3, unique=True)
    )
    keys = st.sampled_from(["acc,none", "acc_norm,none", "acc_stderr,none", "alias", "acc"])
    results = {
        t: draw(st.one_of(st.dictionaries(keys, METRIC_VALUE, max_size=3), JSON_LEAF))
        for t in tasks
    }
    doc = {"results": results}
    for field, values in (
        ("model_name", st.one_of(st.sampled_from(["m", "org/m", ""]), JSON_LEAF)),
        (
            "config",
            st.one_of(
                st.fixed_dictionaries(
                    {
                        "model_args": st.one_of(
                            st.sampled_from(["pretrained=m", "pretrained=x,dtype=f", ""]), JSON_ANY
                        )
                    }
                ),
                JSON_ANY,
            ),
        ),
        ("group_subtasks", st.one_of(st.just({"grp": ["arc"]}), JSON_ANY)),
        ("higher_is_better", st.one_of(st.just({"arc": {"acc": True}}), JSON_ANY)),
    ):
        if draw(st.booleans()):
            doc[field] = draw(values)
    return doc


def _lm_eval_read(path, score):
    """read_lm_eval, then compare(): a table and a result, or CdplotInputError."""
    from cdplot.io import read_lm_eval

    try:
        table = read_lm_eval(path, score=score)
    except CdplotInputError:
        event("refused")
        return
    event("read")
    assert list(table.columns[:2]) == ["task", "model"]
    assert np.isfinite(table.iloc[:, -1].to_numpy(dtype=float)).all() or table.empty
    with contextlib.suppress(CdplotInputError):
        quiet_compare(path, score=score, test="sign", correction="none")


@settings(max_examples=150)
@given(
    docs=st.lists(lm_eval_results(), min_size=1, max_size=3),
    score=st.sampled_from([None, "acc,none", "acc_norm,none"]),
)
def test_generated_lm_eval_results_are_read_or_refused(tmp_path_factory, docs, score):
    root = tmp_path_factory.mktemp("lm_eval")
    for m, doc in enumerate(docs):
        folder = root / f"org__model{m}"
        folder.mkdir()
        text = json.dumps(doc)
        (folder / "results_2024-05-01T10-00-00.json").write_text(text)
    _lm_eval_read(root, score)


SAMPLE_LINE = st.one_of(
    st.fixed_dictionaries(
        {"doc_id": st.one_of(st.integers(0, 3), JSON_LEAF, JSON_ANY)},
        optional={
            "filter": st.one_of(st.just("none"), JSON_LEAF),
            "metrics": st.one_of(st.just(["acc"]), JSON_ANY),
            "acc": METRIC_VALUE,
        },
    ),
    JSON_ANY,
)


@settings(max_examples=120)
@given(
    models=st.lists(st.lists(SAMPLE_LINE, max_size=4), min_size=1, max_size=3),
    raw=st.sampled_from(["", "[" * 3000, "{not json", "1" + "0" * 5000]),
)
def test_generated_lm_eval_samples_are_read_or_refused(tmp_path_factory, models, raw):
    root = tmp_path_factory.mktemp("samples")
    for m, lines in enumerate(models):
        folder = root / f"model{m}"
        folder.mkdir()
        text = "".join(json.dumps(line) + "\n" for line in lines)
        if m == 0 and raw:
            text += raw + "\n"  # one damaged line in the first model's file
        (folder / "samples_boolq_2024-05-01T10-00-00.jsonl").write_text(text)
    _lm_eval_read(root, "acc,none")


TRACKER_CELL = st.one_of(st.floats(0, 1), CELLS)


@st.composite
def tracker_tables(draw):
    """An MLflow, W&B or OpenML export of 2-4 datasets x 2-3 algorithms, cells of any kind."""
    kind = draw(st.sampled_from(["mlflow", "wandb", "openml"]))
    n, k = draw(st.integers(2, 4)), draw(st.integers(2, 3))
    rows = []
    for d in range(n):
        for a in range(k):
            name = draw(st.one_of(st.just(f"x{a}"), st.sampled_from([None, "", 3, "x0"])))
            data = draw(st.one_of(st.just(f"d{d}"), st.sampled_from([None, "d0"])))
            value = draw(TRACKER_CELL)
            state = draw(st.sampled_from(["finished", "crashed", "running", None]))
            if kind == "mlflow":
                rows.append(
                    {
                        "run_id": f"{d}{a}",
                        "status": str(state).upper(),
                        "metrics.acc": value,
                        "params.dataset": data,
                        "params.model": name,
                    }
                )
            elif kind == "wandb":
                rows.append(
                    {
                        "Name": f"r{d}{a}",
                        "State": state,
                        "Created": "2024",
                        "dataset": data,
                        "model": name,
                        "acc": value,
                    }
                )
            else:
                rows.append(
                    {
                        "run_id": d * 10 + a,
                        "flow_id": a,
                        "flow_name": name,
                        "data_id": d,
                        "data_name": data,
                        "function": "acc",
                        "value": value,
                    }
                )
    frame = pd.DataFrame(rows)
    if draw(st.booleans()):
        frame = frame.drop(columns=draw(st.sampled_from(list(frame.columns))))
    return kind, frame


@settings(max_examples=100)
@given(table=tracker_tables())
def test_generated_tracker_exports_are_read_or_refused(table):
    from cdplot.io import read_mlflow, read_openml, read_wandb

    kind, frame = table
    reader = {"mlflow": read_mlflow, "wandb": read_wandb, "openml": read_openml}[kind]
    try:
        out = reader(frame)
    except CdplotInputError:
        event(f"{kind}: refused")
        return
    event(f"{kind}: read")
    state = {"mlflow": "status", "wandb": "State"}.get(kind)
    if state in frame.columns:  # finished runs only, the others counted in the note
        finished = sum(str(s).strip().lower() == "finished" for s in frame[state])
        assert len(out) == finished
        dropped = len(frame) - finished
        assert (f"dropped {dropped} run" in out.attrs["cdplot_note"]) == (dropped > 0)
    with contextlib.suppress(CdplotInputError):
        quiet_compare(frame, test="sign", correction="none")

"""lm-evaluation-harness output that cannot be compared as written is refused, naming it.

The layout is the one of ``lm_eval/loggers/evaluation_tracker.py`` (EleutherAI, v0.4), as in
``tests/test_io_sources.py``: ``<out>/<model>/results_<date>.json`` with a ``"results"``
mapping (task -> ``{"metric,filter": value}``) and ``samples_<task>_<date>.jsonl`` beside it,
one JSON object per line. Here each file is damaged in one way, and each must end in a
:class:`~cdplot.CdplotInputError` naming the file and the field (command line: exit 2, one
line), never in another exception and never with a model left out unsaid.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import cdplot
from cdplot import CdplotInputError
from cdplot.io import read_lm_eval

DATE = "2024-05-01T10-00-00.123456"
TASKS = ["arc_easy", "boolq", "piqa"]
#: tiny boards: cdplot's advice on few datasets and pool-dependent tests is not tested here
pytestmark = [
    pytest.mark.filterwarnings("ignore::cdplot.PoolDependenceWarning"),
    pytest.mark.filterwarnings("ignore:with .* datasets the:cdplot.CdplotWarning"),
]


def _results(root: Path, model: str, values: dict[str, object]) -> Path:
    folder = root / model
    folder.mkdir(parents=True, exist_ok=True)
    doc = {
        "results": {
            t: {"alias": t, "acc,none": v, "acc_stderr,none": 0.01} for t, v in values.items()
        },
        "model_name": model,
    }
    path = folder / f"results_{DATE}.json"
    path.write_text(json.dumps(doc))
    return path


def _board(root: Path, last: list[object]) -> Path:
    """Three models on three tasks; the last model's values of 'acc,none' as given."""
    _results(root, "A", dict(zip(TASKS, [0.5, 0.6, 0.7], strict=True)))
    _results(root, "B", dict(zip(TASKS, [0.6, 0.4, 0.8], strict=True)))
    _results(root, "C", dict(zip(TASKS, last, strict=True)))
    return root


def _samples(root: Path, model: str, task: str, lines: list[str]) -> Path:
    folder = root / model
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"samples_{task}_{DATE}.jsonl"
    path.write_text("".join(line + "\n" for line in lines))
    return path


def _sample(doc_id: object, **fields: object) -> str:
    return json.dumps({"doc_id": doc_id, "filter": "none", "metrics": ["acc"], **fields})


# --------------------------------------------------------------------------- a model vanishing
def test_a_model_whose_metric_is_all_null_is_refused_naming_it(tmp_path):
    root = _board(tmp_path / "out", [None, None, None])
    with pytest.raises(CdplotInputError, match=r"model 'C' has no value of metric 'acc,none'"):
        cdplot.compare(root)
    with pytest.raises(CdplotInputError, match=r"model 'C' has no value of metric 'acc,none'"):
        read_lm_eval(root, score="acc,none")


def test_a_model_with_another_metric_only_is_refused_naming_a_common_one(tmp_path):
    root = _board(tmp_path / "out", [0.1, 0.2, 0.3])
    path = root / "C" / f"results_{DATE}.json"
    doc = json.loads(path.read_text())
    for entry in doc["results"].values():
        entry["acc_norm,none"] = entry.pop("acc,none")
    path.write_text(json.dumps(doc))
    for other in ("A", "B"):  # every model has acc_norm, A and B also acc
        path = root / other / f"results_{DATE}.json"
        doc = json.loads(path.read_text())
        for entry in doc["results"].values():
            entry["acc_norm,none"] = 0.5
        path.write_text(json.dumps(doc))
    with pytest.raises(
        CdplotInputError,
        match=r"model 'C' has no value of metric 'acc,none': its files hold 'acc_norm,none'; "
        r"compare on a metric every model has \(score='acc_norm,none'\)",
    ):
        cdplot.compare(root, score="acc,none")


@pytest.mark.parametrize(("value", "kind"), [("n/a", "str"), (True, "bool"), ([0.5], "list")])
def test_a_metric_value_that_is_no_number_is_refused_naming_file_and_task(tmp_path, value, kind):
    root = _board(tmp_path / "out", [0.1, value, 0.3])
    with pytest.raises(
        CdplotInputError,
        match=rf"metric 'acc,none' of task 'boolq' in '.*C.results_{DATE}\.json' is .*\({kind}\), "
        r"not a number",
    ):
        cdplot.compare(root)


def test_a_null_on_some_tasks_is_a_missing_result(tmp_path):
    root = _board(tmp_path / "out", [0.1, None, 0.3])
    with pytest.raises(
        CdplotInputError, match=r"missing score .* algorithm 'C' on dataset 'boolq'"
    ):
        cdplot.compare(root)
    with pytest.warns(cdplot.CdplotWarning, match=r"dropped 1 dataset\(s\) with missing results"):
        res = cdplot.compare(root, missing="drop", test="sign")
    assert res.datasets == ["arc_easy", "piqa"]
    assert res.algorithms == ["A", "B", "C"]


def test_an_item_level_model_without_the_metric_is_refused(tmp_path):
    root = tmp_path / "out"
    for m, model in enumerate(["A", "B", "C"]):
        for task in TASKS:
            key = "acc_norm" if model == "C" else "acc"
            lines = [
                json.dumps({"doc_id": d, "filter": "none", "metrics": [key], key: (d + m) % 2})
                for d in range(4)
            ]
            _samples(root, model, task, lines)
    with pytest.raises(
        CdplotInputError,
        match=r"model 'C' has no value of metric 'acc,none': its files hold "
        r"'acc_norm,none'",
    ):
        cdplot.compare(root, score="acc,none")


# --------------------------------------------------------------------------- damaged files
BIG = "1" + "0" * 400  # 10**400: beyond a float


@pytest.mark.parametrize(
    ("lines", "message"),
    [
        (["[1, 2]"], r"line 1 of samples file '.*' is a JSON array, not an object"),
        (
            [_sample(0, acc=1), json.dumps({"doc_id": 1, "metrics": 5, "acc": 1})],
            r'"metrics" on line 2 of samples file \'.*\' is number 5, not a list of metric names',
        ),
        (
            [_sample([0], acc=1)],
            r'"doc_id" on line 1 of \'.*\' is array \[0\]; a doc_id is a whole number or a text',
        ),
        (
            [_sample(0, acc=1).replace('"acc": 1', f'"acc": {BIG}')],
            r"'acc' in line 1 of '.*' is an integer of about 401 digits, beyond the range of",
        ),
        (["[" * 100_000 + "]" * 100_000], r"line 1 of samples file '.*' nests too deeply"),
        (['{"doc_id": 0, "acc": 1' + "0" * 5000 + "}"], r"cannot read line 1 of samples file"),
        (['{"doc_id": 0, "acc": 1, "filter": 3}'], r'"filter" on line 1 of .* is not text'),
    ],
    ids=["array-line", "metrics-5", "doc-id-list", "big-int", "deep", "huge-int", "filter"],
)
def test_a_damaged_samples_file_is_refused_naming_file_and_field(tmp_path, capsys, lines, message):
    path = _samples(tmp_path / "out", "A", "boolq", lines)
    with pytest.raises(CdplotInputError, match=message):
        read_lm_eval(path, score="acc,none")
    assert str(path) in _refusal(path, capsys)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            '{"model_name": "A", "results": {"boolq": {"acc,none": ' + BIG + "}}}",
            r"'acc,none' of task 'boolq' in '.*' is an integer of about 401 digits",
        ),
        (
            '{"model_name": "A", "results": ' + "[" * 100_000 + "]" * 100_000 + "}",
            r"lm-evaluation-harness file '.*' nests too deeply",
        ),
        ('{"model_name": "A", "results": 5}', r"has no \"results\" mapping"),
    ],
    ids=["big-int", "deep", "results-5"],
)
def test_a_damaged_results_file_is_refused_naming_file_and_field(tmp_path, capsys, text, message):
    folder = tmp_path / "out" / "A"
    folder.mkdir(parents=True)
    path = folder / f"results_{DATE}.json"
    path.write_text(text)
    with pytest.raises(CdplotInputError, match=message):
        read_lm_eval(path)
    assert str(path) in _refusal(path, capsys)


def _refusal(path: Path, capsys) -> str:
    """The command line's one-line refusal of ``path`` (exit 2)."""
    from _helpers import run

    code, _, err = run(["compare", path, "--score-col", "acc,none"], capsys)
    assert code == 2, err
    assert len(err.strip().splitlines()) == 1, err
    return err

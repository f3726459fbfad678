"""lm-evaluation-harness output: ``results_*.json`` and per-item ``samples_*.jsonl`` files.

The layout is the one ``lm_eval --output_path OUT --log_samples`` writes
(``lm_eval/loggers/evaluation_tracker.py``): ``OUT/<model_name_sanitized>/results_<date>.json``
holds ``"results"`` (task -> ``{"alias": ..., "acc,none": 0.71, "acc_stderr,none": ...}``),
``"group_subtasks"``, ``"config"`` (``"model"``, ``"model_args"``) and ``"model_name"``; beside
it ``samples_<task>_<date>.jsonl`` holds one line per document and filter with ``doc_id``,
``filter``, ``metrics`` (the metric names) and one field per metric.
"""

from __future__ import annotations

import json
import math
import os
import re
from pathlib import Path
from typing import Any

import numpy as np

from .._errors import CdplotInputError, renamed_keywords, spell
from ._folders import folder_files
from ._reruns import Run, newest_runs

__all__ = ["is_lm_eval", "read_lm_eval"]

_DATE = re.compile(r"_(\d{4}-\d{2}-\d{2}T[0-9\-.:]+)\.jsonl?$")
#: fields of a samples line that are never metrics
_BOOKKEEPING = {
    "doc_id",
    "doc",
    "target",
    "arguments",
    "resps",
    "filtered_resps",
    "filter",
    "metrics",
    "doc_hash",
    "prompt_hash",
    "target_hash",
}


def is_lm_eval(path: Path) -> bool:
    """Whether ``path`` is lm-evaluation-harness output (a results file or a folder with one)."""
    if path.is_dir():
        return any(path.rglob("results_*.json")) or any(path.rglob("samples_*.jsonl"))
    name = path.name
    return (name.startswith("results") and name.endswith(".json")) or (
        name.startswith("samples_") and name.endswith(".jsonl")
    )


def _parse(text: str, where: str) -> Any:
    """JSON text of ``where`` (a file, or a line of one), refused clearly when damaged."""
    try:
        return json.loads(text)
    except RecursionError:
        raise CdplotInputError(
            f"{where} nests too deeply to be lm-evaluation-harness output (is it damaged?)."
        ) from None
    except ValueError as exc:  # not JSON, or an integer longer than Python converts
        raise CdplotInputError(f"cannot read {where}: {exc}.") from None


def _number(value: Any, field: str, where: str) -> float | None:
    """A JSON number as a float (NaN for null); None for text, booleans and containers.

    An integer beyond the range of a float (e.g. 10**400) is refused, naming the field.
    """
    if value is None:
        return math.nan
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    try:
        return float(value)
    except OverflowError:  # only an int can be too large for a float
        digits = int(abs(int(value)).bit_length() * math.log10(2)) + 1
        raise CdplotInputError(
            f"{field} in {where} is an integer of about {digits} digits, beyond the range of "
            f"a float; correct the file."
        ) from None


def _load_json(path: Path) -> dict[str, Any]:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise CdplotInputError(
            f"cannot read lm-evaluation-harness file {str(path)!r}: {exc}."
        ) from None
    doc = _parse(text, f"lm-evaluation-harness file {str(path)!r}")
    if not isinstance(doc, dict) or not isinstance(doc.get("results"), dict):
        raise CdplotInputError(
            f'{str(path)!r} has no "results" mapping (task -> metrics); pass the '
            f"results_<date>.json file lm_eval writes, or its folder."
        )
    return doc


def _pretrained(model_args: Any) -> str | None:
    if isinstance(model_args, dict):
        value = model_args.get("pretrained") or model_args.get("path")
        return None if value is None else str(value)
    if isinstance(model_args, str):
        for part in model_args.split(","):
            key, _, value = part.partition("=")
            if key.strip() in ("pretrained", "path") and value.strip():
                return value.strip()
    return None


def _model_name(doc: dict[str, Any], path: Path) -> str:
    """The model of a results file: ``"model_name"``, ``"config"."model_name"`` and the
    ``pretrained=`` of ``"config"."model_args"``, whichever are present, must agree."""
    raw_config = doc.get("config")
    config: dict[str, Any] = raw_config if isinstance(raw_config, dict) else {}
    found = {
        '"model_name"': doc.get("model_name"),
        '"config"."model_name"': config.get("model_name"),
        '"config"."model_args"': _pretrained(config.get("model_args")),
    }
    named = {where: str(v) for where, v in found.items() if v not in (None, "")}
    if len(set(named.values())) > 1:
        listed = " but ".join(f"{where} is {v!r}" for where, v in named.items())
        raise CdplotInputError(
            f"{str(path)!r} names two models: {listed}; correct the file so that they agree."
        )
    if named:
        return next(iter(named.values()))
    name = path.parent.name.replace("__", "/")
    if not name:
        raise CdplotInputError(
            f'{str(path)!r} names no model (no "model_name", no pretrained= in '
            f'"config"."model_args"); put it in a folder named after the model.'
        )
    return name


def _task_metrics(doc: dict[str, Any], path: Path) -> dict[str, dict[str, Any]]:
    """Task -> {"metric,filter": value}, leaving out groups (tasks made of subtasks).

    Numbers become floats (null and NaN: NaN, a missing result); any other value (text, a
    boolean, a list) is kept as written, refused only if it is the metric compared.
    """
    raw_groups = doc.get("group_subtasks")
    groups: dict[str, Any] = raw_groups if isinstance(raw_groups, dict) else {}
    where = repr(str(path))
    out = {}
    for task, entry in doc["results"].items():
        if groups.get(task) or not isinstance(entry, dict):
            continue
        metrics = {}
        for key, value in entry.items():
            if "," not in key or "_stderr," in key:
                continue
            number = _number(value, f"{key!r} of task {task!r}", where)
            metrics[key] = value if number is None else number
        out[str(task)] = metrics
    return out


def _is_real(value: Any) -> bool:
    return isinstance(value, float) and value == value


def _choose(available: set[str], score: str | None, where: str) -> str:
    if score is not None:
        if score not in available:
            raise CdplotInputError(
                f"metric {score!r} (given as {spell('score')}) is not in {where}; its metrics "
                f"are {', '.join(repr(m) for m in sorted(available))}."
            )
        return score
    if len(available) == 1:
        return next(iter(available))
    if not available:
        raise CdplotInputError(f'no numeric metric ("metric,filter" keys) in {where}.')
    choices = sorted(available)
    raise CdplotInputError(
        f"several metrics in {where}: {', '.join(repr(m) for m in choices)}; choose one "
        f"with {spell('score', choices[0])}."
    )


def _refuse_models_without(
    models: list[str], found: set[str], metric: str, other: dict[str, set[str]]
) -> None:
    """A model none of whose files gives the metric a number would vanish: refuse it,
    naming the model, the metric, what its files hold and a metric every model has."""
    absent = [m for m in dict.fromkeys(models) if m not in found]
    if not absent:
        return
    model = absent[0]
    held = sorted(other.get(model, set()) - {metric})
    holds = (
        f"its files hold {', '.join(map(repr, held))}"
        if held
        else f"its files hold no number for {metric!r} (null, or no such key)"
    )
    more = f" (and {len(absent) - 1} more model{'s' if len(absent) > 2 else ''})"
    common = sorted(set.intersection(*(other.get(m, set()) for m in dict.fromkeys(models))))
    choose = (
        f"compare on a metric every model has ({spell('score', common[0])}), or " if common else ""
    )
    raise CdplotInputError(
        f"model {model!r}{more if len(absent) > 1 else ''} has no value of metric {metric!r}: "
        f"{holds}; {choose}move the model's files out of the input to compare the others."
    )


def _results_rows(files: list[Path], score: str | None) -> tuple[list[tuple], str, dict]:
    """(task, model, value) rows of the results files, the metric and file -> model."""
    parsed = [(f, _load_json(f)) for f in files]
    models = {f: _model_name(doc, f) for f, doc in parsed}
    metrics = {f: _task_metrics(doc, f) for f, doc in parsed}
    available = {
        m
        for per_task in metrics.values()
        for entry in per_task.values()
        for m, v in entry.items()
        if _is_real(v)
    }
    where = "the lm-evaluation-harness results" if len(files) > 1 else repr(str(files[0]))
    metric = _choose(available, score, where)
    rows: list[tuple[str, str, float]] = []
    seen: dict[tuple[str, str], Path] = {}
    found: set[str] = set()
    other: dict[str, set[str]] = {}
    for f in files:
        for task, entry in metrics[f].items():
            other.setdefault(models[f], set()).update(m for m, v in entry.items() if _is_real(v))
            if metric not in entry:
                continue
            value = entry[metric]
            if not isinstance(value, float):
                raise CdplotInputError(
                    f"metric {metric!r} of task {task!r} in {str(f)!r} is {value!r} "
                    f"({type(value).__name__}), not a number; correct the file (null marks a "
                    f"missing result)."
                )
            key = (task, models[f])
            if key in seen:
                raise CdplotInputError(
                    f"task {task!r} of model {models[f]!r} is in two results files, "
                    f"{str(seen[key])!r} and {str(f)!r}; keep one of the runs (move the other "
                    f"out of the folder) or pass the file you mean."
                )
            seen[key] = f
            if value == value:
                found.add(models[f])
                rows.append((task, models[f], value))
    _refuse_models_without(list(models.values()), found, metric, other)
    return rows, metric, models


def _direction(files: list[Path], metric: str) -> bool | None:
    """The harness's ``"higher_is_better"`` for the metric, when every task agrees."""
    name = metric.partition(",")[0]
    seen = set()
    for f in files:
        marks = _load_json(f).get("higher_is_better")
        if isinstance(marks, dict):
            seen |= {bool(m[name]) for m in marks.values() if isinstance(m, dict) and name in m}
    return seen.pop() if len(seen) == 1 else None


def _sample_task(path: Path) -> tuple[str, str | None]:
    """Task name and date of ``samples_<task>_<date>.jsonl``."""
    stem = path.name[len("samples_") :]
    match = _DATE.search(stem)
    if match:
        return stem[: match.start()], match.group(1)
    return stem.rsplit(".", 1)[0], None


def _sample_model(path: Path, models: dict[Path, str], date: str | None) -> str:
    """The model of a samples file: the results file of its folder (same date if several)."""
    beside = [f for f in models if f.parent == path.parent]
    if date is not None and len(beside) > 1:
        beside = [f for f in beside if date in f.name] or beside
    names = {models[f] for f in beside}
    if len(names) > 1:
        raise CdplotInputError(
            f"the folder of {str(path)!r} holds results files of several models "
            f"({', '.join(sorted(map(repr, names)))}); keep one model per folder, as lm_eval "
            f"writes them."
        )
    if names:
        return names.pop()
    return path.parent.name.replace("__", "/")


def _sample_lines(path: Path) -> list[tuple[int, dict[str, Any]]]:
    """The numbered sample objects of a samples file, each line checked for its shape."""
    lines = []
    try:
        with path.open(encoding="utf-8") as fh:
            numbered = [(n, line) for n, line in enumerate(fh, start=1) if line.strip()]
    except (OSError, UnicodeDecodeError) as exc:
        raise CdplotInputError(f"cannot read samples file {str(path)!r}: {exc}.") from None
    for number, line in numbered:
        where = f"line {number} of samples file {str(path)!r}"
        row = _parse(line, where)
        if not isinstance(row, dict):
            raise CdplotInputError(
                f"{where} is a JSON {_json_kind(row)}, not an object; each line of a samples "
                f"file is one sample (doc_id, filter, metrics and one field per metric)."
            )
        names = row.get("metrics")
        if names is not None and not (
            isinstance(names, list) and all(isinstance(m, str) for m in names)
        ):
            raise CdplotInputError(
                f'"metrics" on {where} is {_json_kind(names)} {_short(names)}, not a list of '
                f"metric names; correct the file."
            )
        if not isinstance(row.get("filter", "none"), str):
            raise CdplotInputError(f'"filter" on {where} is not text; correct the file.')
        lines.append((number, row))
    return lines


def _json_kind(value: Any) -> str:
    kinds = ((bool, "boolean"), (str, "string"), (list, "array"), (dict, "object"))
    return next(
        (name for t, name in kinds if isinstance(value, t)),
        "number" if value is not None else "null",
    )


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _sample_rows(path: Path, metric: str | None) -> tuple[list[tuple[Any, float]], set[str]]:
    """(doc_id, value) of one samples file for ``metric`` ("name,filter"); its metrics."""
    lines = _sample_lines(path)
    available: set[str] = set()
    for _, row in lines:
        names = row.get("metrics") or [k for k in row if k not in _BOOKKEEPING]
        available.update(f"{m},{row.get('filter', 'none')}" for m in names if m in row)
    if metric is None:
        return [], available
    name, _, filt = metric.partition(",")
    out = []
    for number, row in lines:
        if row.get("filter", "none") != filt or name not in row:
            continue
        where = f"line {number} of {str(path)!r}"
        value = row[name]
        number_ = float(value) if isinstance(value, bool) else _number(value, repr(name), where)
        if number_ is None or value is None:
            raise CdplotInputError(
                f"metric {name!r} on {where} is {_short(value)}, not one number per item; "
                f"choose a per-item metric with {spell('score', 'acc,none')}."
            )
        doc_id = row.get("doc_id")
        if doc_id is None:
            raise CdplotInputError(f'{where} has no "doc_id"; every sample line needs one.')
        if isinstance(doc_id, bool) or not isinstance(doc_id, (int, str)):
            raise CdplotInputError(
                f'"doc_id" on {where} is {_json_kind(doc_id)} {_short(doc_id)}; a doc_id '
                f"is a whole number or a text naming the document."
            )
        out.append((doc_id, number_))
    return out, available


def _item_frame(samples: list[Path], models: dict[Path, str], score: str | None) -> Any:
    import pandas as pd

    owner = {f: _sample_model(f, models, _sample_task(f)[1]) for f in samples}
    other: dict[str, set[str]] = {}
    for f in samples:
        other.setdefault(owner[f], set()).update(_sample_rows(f, None)[1])
    available = set().union(*other.values())
    where = "the samples files" if len(samples) > 1 else repr(str(samples[0]))
    metric = _choose(available, score, where)
    read = {f: _sample_rows(f, metric)[0] for f in samples}
    runs = [
        Run(
            (owner[f], _sample_task(f)[0]),
            _sample_task(f)[1] or "",
            f,
            frozenset(r[0] for r in read[f]),
        )
        for f in samples
    ]
    kept, notes = newest_runs(runs, "samples file")
    tasks, names, docs, values = [], [], [], []
    for run in kept:
        rows = read[run.path]
        tasks += [run.key[1]] * len(rows)
        names += [run.key[0]] * len(rows)
        docs += [r[0] for r in rows]
        values += [r[1] for r in rows]
    _refuse_models_without(list(owner.values()), set(names), metric, other)
    frame = pd.DataFrame(
        {
            "task": pd.Categorical(tasks),
            "model": pd.Categorical(names),
            "doc_id": docs,
            metric: np.array(values, dtype=float),
        }
    )
    return frame, metric, notes


@renamed_keywords(path="source", level="granularity")
def read_lm_eval(
    source: str | os.PathLike[str], *, score: str | None = None, granularity: str = "auto"
) -> Any:
    """Read lm-evaluation-harness output into a long table (one row per task and model).

    Parameters
    ----------
    source : str or os.PathLike
        The ``--output_path`` folder of ``lm_eval`` (searched recursively: one sub-folder
        per model), a ``results_<date>.json`` file or a ``samples_<task>_<date>.jsonl`` file.
    score : str, optional
        The metric, as lm-evaluation-harness names it: ``"metric,filter"`` (e.g.
        ``"acc,none"``, ``"exact_match,strict-match"``). Needed when the files hold several.
    granularity : {"auto", "task", "item"}
        What a row is. "task": the ``"results"`` mapping (one score per task and model);
        "item": the ``samples_*.jsonl`` files (one row per document, ``doc_id`` the item);
        "auto": items when samples files are present, else tasks. Of several samples
        files of one model and task (re-runs), the newest (by the date in its name) is read
        when they score the same documents, announced in the note; they are refused,
        naming both, when they disagree on the documents. ``level=`` is the
        deprecated old name of this keyword (DeprecationWarning), as ``path=`` is of
        ``source``.

    Returns
    -------
    pandas.DataFrame
        Columns ``task``, ``model``, (``doc_id``,) and the metric (named as in the files),
        ``attrs["cdplot_note"]`` a one-line description of what was read and
        ``attrs["cdplot_higher_is_better"]`` the harness's direction of the metric (None
        when the results files do not say; :func:`cdplot.compare` warns when it differs
        from ``higher_is_better``).

    Raises
    ------
    CdplotInputError
        For a missing metric, several metrics without ``score``, a model named differently
        in ``"model_name"`` and ``"config"``, a task of one model in two results files (or
        in two samples files that disagree on the documents), a model
        with no number for the metric (all null, or other metrics only: it would vanish
        from the comparison), a metric value that is text, a boolean or a list, and a
        damaged file (not JSON, nested too deeply, a sample line that is no object,
        ``"metrics"`` that is no list of names, a ``doc_id`` that is neither a whole number
        nor text, an integer beyond the range of a float); each names the file and field.
        A null value of the metric for a task is a missing result (``missing=``).

    Examples
    --------
    >>> import json, pathlib, tempfile
    >>> doc = {"results": {"arc_easy": {"alias": "arc_easy", "acc,none": 0.5}},
    ...        "config": {"model": "hf", "model_args": "pretrained=EleutherAI/pythia-160m"},
    ...        "model_name": "EleutherAI/pythia-160m"}
    >>> with tempfile.TemporaryDirectory() as root:
    ...     out = pathlib.Path(root) / "EleutherAI__pythia-160m"
    ...     out.mkdir()
    ...     _ = (out / "results_2024-05-01T10-00-00.json").write_text(json.dumps(doc))
    ...     read_lm_eval(root).values.tolist()
    [['arc_easy', 'EleutherAI/pythia-160m', 0.5]]
    """
    import pandas as pd

    from .._errors import check_in_list

    granularity = check_in_list(("auto", "task", "item"), granularity=granularity)
    root = Path(source)
    if root.is_dir():
        results = folder_files(root, "results_*.json")
        samples = folder_files(root, "samples_*.jsonl")
    elif root.is_file():
        results = [root] if root.suffix == ".json" else []
        samples = [root] if root.suffix == ".jsonl" else []
    else:
        raise CdplotInputError(f"cannot read {str(root)!r}: no such file or folder.")
    if granularity == "item" or (granularity == "auto" and samples):
        if not samples:
            raise CdplotInputError(
                f"{str(root)!r} holds no samples_*.jsonl file; run lm_eval with --log_samples "
                f"for item-level results, or read the task level (granularity='task')."
            )
        models = {f: _model_name(_load_json(f), f) for f in results}
        frame, metric, reruns = _item_frame(samples, models, score)
        what = f"{len(samples)} samples file{'s' if len(samples) != 1 else ''}, items doc_id"
        what += "".join(f"; {note}" for note in reruns)
        without = sorted({_sample_task(f)[0] for f in samples} - set(frame["task"]))
        if without:
            what += f"; tasks without this metric left out: {', '.join(without)}"
    else:
        if not results:
            raise CdplotInputError(f"{str(root)!r} holds no results_*.json file.")
        rows, metric, _ = _results_rows(results, score)
        frame = pd.DataFrame(rows, columns=["task", "model", metric])
        what = f"{len(results)} results file{'s' if len(results) != 1 else ''}"
        every = {t for f in results for t in _task_metrics(_load_json(f), f)}
        without = sorted(every - set(frame["task"]))
        if without:
            what += f"; tasks without this metric left out: {', '.join(without)}"
    frame.attrs["cdplot_source"] = str(root)
    frame.attrs["cdplot_lm_eval_level"] = "item" if "doc_id" in frame.columns else "task"
    frame.attrs["cdplot_higher_is_better"] = _direction(results, metric)
    frame.attrs["cdplot_note"] = (
        f"read {str(root)!r} as lm-evaluation-harness output ({what}; metric {metric!r})"
    )
    return frame

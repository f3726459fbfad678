"""Inspect AI evaluation logs: ``.eval`` archives and ``.json`` logs, one row per sample.

The layout is the one ``inspect eval`` writes (an ``EvalLog``): a ``.eval`` file is a zip
archive holding ``header.json`` (``"eval"``: ``"task"``, ``"model"``, ``"created"``;
``"status"``) and one ``samples/<id>_epoch_<n>.json`` per sample and epoch, each with
``"id"``, ``"epoch"`` and ``"scores"`` (scorer name -> ``{"value": ..., "answer": ...,
"explanation": ...}``); a ``.json`` log is the same ``EvalLog`` as one document, its samples
in ``"samples"``. An interrupted run may lack ``header.json``; its ``_journal/start.json``
then names the task and model.

Score values become numbers as Inspect's own grades mean them: ``"C"`` (correct) 1, ``"I"``
(incorrect) 0, ``"P"`` (partial) 0.5, ``"N"`` (no answer) 0; ``true``/``false`` and
``"yes"``/``"no"`` 1/0; numbers (and numbers written as text) as they are. A scorer whose
value is a mapping gives one metric per key, named ``scorer/key``.
"""

from __future__ import annotations

import json
import os
import zipfile
from pathlib import Path
from typing import Any

import numpy as np

from .._errors import CdplotInputError, spell
from ._folders import folder_files
from ._reruns import Run, newest_runs

__all__ = ["is_inspect_log", "read_inspect"]

#: Inspect's grade letters (CORRECT, INCORRECT, PARTIAL, NOANSWER) as numbers.
_GRADES = {"c": 1.0, "i": 0.0, "p": 0.5, "n": 0.0, "yes": 1.0, "no": 0.0, "true": 1.0}
_GRADES["false"] = 0.0
#: Column names of the table a log becomes (a scorer of one of these names gets "_score").
_RESERVED = {"task", "model", "item", "epoch"}


def is_inspect_log(path: Path) -> bool:
    """Whether ``path`` is an Inspect log (``.eval``, a ``.json`` EvalLog) or a folder of them."""
    if path.is_dir():
        return any(path.rglob("*.eval"))
    if path.suffix.lower() == ".eval":
        return True
    if path.suffix.lower() != ".json" or not path.is_file():
        return False
    try:
        with path.open(encoding="utf-8") as fh:
            head = fh.read(4096)
    except (OSError, UnicodeDecodeError):
        return False
    return head.lstrip().startswith("{") and all(
        f'"{key}"' in head for key in ("version", "status", "eval")
    )


def _load(text: bytes | str, where: str) -> Any:
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise CdplotInputError(
            f"cannot read {where} as JSON ({exc}); is the log damaged?"
        ) from None


def _read_log(path: Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The ``eval`` header (with ``status``) and the samples of one log."""
    where = f"Inspect log {str(path)!r}"
    if path.suffix.lower() == ".json":
        doc = _load(path.read_text(encoding="utf-8"), where)
        if not isinstance(doc, dict) or not isinstance(doc.get("eval"), dict):
            raise CdplotInputError(f'{where} has no "eval" header; pass a log Inspect wrote.')
        samples = doc.get("samples") or []
        return {**doc["eval"], "status": doc.get("status")}, samples
    try:
        archive = zipfile.ZipFile(path)
    except (OSError, zipfile.BadZipFile) as exc:
        raise CdplotInputError(f"cannot open {where} as a zip archive ({exc}).") from None
    with archive:
        names = archive.namelist()
        head_name = next((n for n in ("header.json", "_journal/start.json") if n in names), None)
        if head_name is None:
            raise CdplotInputError(
                f"{where} holds neither header.json nor _journal/start.json; pass a .eval log "
                f"Inspect wrote."
            )
        head = _load(archive.read(head_name), f"{head_name} of {where}")
        if not isinstance(head, dict) or not isinstance(head.get("eval"), dict):
            raise CdplotInputError(f'{head_name} of {where} has no "eval" header.')
        samples = [
            _load(archive.read(n), f"{n} of {where}")
            for n in sorted(names)
            if n.startswith("samples/") and n.endswith(".json")
        ]
    return {**head["eval"], "status": head.get("status")}, samples


def _grade(value: Any, where: str) -> float:
    """A score value as a number (Inspect's grade letters as they are meant)."""
    if value is None:
        return np.nan
    if isinstance(value, bool):
        return float(value)
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, str):
        key = value.strip().lower()
        if key in _GRADES:
            return _GRADES[key]
        try:
            return float(key)
        except ValueError:
            pass
    raise CdplotInputError(
        f"score {value!r} of {where} is not a grade cdplot can read as a number ('C', 'I', "
        f"'P', 'N', yes/no, true/false or a number); choose a numeric scorer with "
        f"{spell('score', 'SCORER')}."
    )


def _metrics(sample: dict[str, Any]) -> dict[str, Any]:
    """Scorer (or ``scorer/key``) -> raw value of one sample."""
    out = {}
    for scorer, entry in (sample.get("scores") or {}).items():
        value = entry.get("value") if isinstance(entry, dict) else entry
        if isinstance(value, dict):
            out.update({f"{scorer}/{key}": v for key, v in value.items()})
        else:
            out[str(scorer)] = value
    return out


def _choose(available: list[str], score: str | None, where: str) -> str:
    if score is not None:
        if score not in available:
            raise CdplotInputError(
                f"scorer {score!r} (given as {spell('score')}) is not in {where}; its scorers "
                f"are {', '.join(map(repr, available))}."
            )
        return score
    if len(available) == 1:
        return available[0]
    if not available:
        raise CdplotInputError(f'{where} holds no scored sample (no "scores").')
    raise CdplotInputError(
        f"several scorers in {where}: {', '.join(map(repr, available))}; choose one with "
        f"{spell('score', available[0])}."
    )


def _log_files(root: Path) -> list[Path]:
    if root.is_dir():
        files = folder_files(root, "*.eval")
        if not files:
            raise CdplotInputError(f"folder {str(root)!r} holds no .eval log.")
        return files
    if not root.is_file():
        raise CdplotInputError(f"cannot read {str(root)!r}: no such file or folder.")
    return [root]


def read_inspect(source: str | os.PathLike[str], *, score: str | None = None) -> Any:
    """Read Inspect AI logs into a long table: one row per model, task, sample and epoch.

    Parameters
    ----------
    source : str or os.PathLike
        A ``.eval`` log, a ``.json`` log, or a folder of ``.eval`` logs (searched
        recursively: one log per task and model; of several logs of one model and task, the
        newest is read when they score the same samples, announced in the note).
    score : str, optional
        The scorer to compare on (``scorer/key`` for a scorer whose value is a mapping);
        needed when the logs hold several.

    Returns
    -------
    pandas.DataFrame
        Columns ``task``, ``model``, ``item`` (the sample id, as text), ``epoch`` (only when
        some sample has several epochs: the samples of an item), and the scorer's values as
        numbers; ``attrs["cdplot_note"]`` says what was read.

    Raises
    ------
    CdplotInputError
        For a damaged log, several scorers without ``score``, a value that is no grade or
        number, two logs of one model and task that disagree on the samples.

    Examples
    --------
    >>> import json, pathlib, tempfile, zipfile
    >>> with tempfile.TemporaryDirectory() as root:
    ...     log = pathlib.Path(root) / "run.eval"
    ...     with zipfile.ZipFile(log, "w") as z:
    ...         z.writestr("header.json", json.dumps({"status": "success",
    ...             "eval": {"task": "gpqa", "model": "openai/gpt-4o"}}))
    ...         z.writestr("samples/1_epoch_1.json", json.dumps({"id": 1, "epoch": 1,
    ...             "scores": {"choice": {"value": "C"}}}))
    ...     read_inspect(log).values.tolist()
    [['gpqa', 'openai/gpt-4o', '1', 1.0]]
    """
    import pandas as pd

    root = Path(source)
    logs = []
    for path in _log_files(root):
        head, samples = _read_log(path)
        task, model = str(head.get("task") or path.stem), str(head.get("model") or "")
        if not model:
            raise CdplotInputError(f'Inspect log {str(path)!r} names no "model".')
        items = frozenset(str(s.get("id")) for s in samples)
        logs.append(
            (Run((model, task), str(head.get("created") or path.name), path, items), head, samples)
        )
    kept, notes = newest_runs([run for run, _, _ in logs], "log")
    logs = [entry for entry in logs if entry[0] in kept]
    where = "the Inspect logs" if len(logs) > 1 else f"Inspect log {str(logs[0][0].path)!r}"
    available = list(dict.fromkeys(m for _, _, ss in logs for s in ss for m in _metrics(s)))
    metric = _choose(available, score, where)
    columns: dict[str, list[Any]] = {"task": [], "model": [], "item": [], "epoch": [], "v": []}
    for run, head, samples in logs:
        if head.get("status") not in (None, "success"):
            notes.append(
                f"{run.path.name} has status {head.get('status')!r} (samples may be missing)"
            )
        for s in samples:
            value = _metrics(s).get(metric)
            columns["task"].append(run.key[1])
            columns["model"].append(run.key[0])
            columns["item"].append(str(s.get("id")))
            columns["epoch"].append(int(s.get("epoch") or 1))
            columns["v"].append(_grade(value, f"sample {s.get('id')!r} of {run.path.name}"))
    name = metric if metric not in _RESERVED else f"{metric}_score"
    frame = pd.DataFrame(
        {
            "task": pd.Categorical(columns["task"]),
            "model": pd.Categorical(columns["model"]),
            "item": columns["item"],
            "epoch": np.array(columns["epoch"], dtype=np.int64),
            name: np.array(columns["v"], dtype=float),
        }
    )
    if not len(frame) or int(frame["epoch"].max()) <= 1:
        frame = frame.drop(columns="epoch")
    what = f"{len(logs)} log{'s' if len(logs) != 1 else ''}, scorer {metric!r}"
    frame.attrs["cdplot_source"] = str(root)
    frame.attrs["cdplot_note"] = (
        f"read {str(root)!r} as Inspect AI logs ({'; '.join([what, *notes])})"
    )
    return frame

"""HELM per-instance outputs: ``per_instance_stats.json`` of each run folder, one row per
instance.

The layout is the one ``helm-run`` writes (``benchmark_output/runs/<suite>/<run>/``): the run
folder is named after the run (``mmlu:subject=anatomy,method=multiple_choice_joint,
model=openai_gpt2``) and holds ``run_spec.json`` (``"name"``, ``"adapter_spec"."model"``) and
``per_instance_stats.json``, a list of ``{"instance_id", "train_trial_index", "stats": [{"name":
{"name": metric, "split": ...}, "count", "sum", "mean", ...}]}`` (entries with a
``"perturbation"`` describe a perturbed copy of the instance and are left out, as is a stat
whose name carries one). The model is ``"adapter_spec"."model"``, else the folder's
``model=`` part; the task is the run's name without its ``model=`` (and
``model_deployment=``) part; a train trial (``train_trial_index`` > 0: another draw of the
in-context examples) is a sample of the instance.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import numpy as np

from .._errors import CdplotInputError, spell
from ._folders import folder_files

__all__ = ["is_helm", "read_helm"]

_STATS = "per_instance_stats.json"


def is_helm(path: Path) -> bool:
    """Whether ``path`` is a HELM run folder, a folder of them, or a per_instance_stats.json."""
    if path.is_dir():
        return (path / _STATS).is_file() or any(path.rglob(_STATS))
    return path.name == _STATS and path.is_file()


def _load(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise CdplotInputError(f"cannot read HELM file {str(path)!r}: {exc}.") from None


def _run_parts(run: Path) -> tuple[str, str]:
    """(model, task) of a run folder."""
    spec_file = run / "run_spec.json"
    spec = _load(spec_file) if spec_file.is_file() else {}
    name = str(spec.get("name") or run.name) if isinstance(spec, dict) else run.name
    scenario, colon, args = name.partition(":")
    if not colon:  # a folder named without the colon: "boolq,model=openai_gpt2"
        scenario, _, args = name.partition(",")
    parts = [a for a in args.split(",") if a]
    named = dict(a.partition("=")[::2] for a in parts)
    adapter = spec.get("adapter_spec") if isinstance(spec, dict) else None
    model = (adapter or {}).get("model") or named.get("model")
    if not model:
        raise CdplotInputError(
            f"HELM run {str(run)!r} names no model (no run_spec.json with "
            f'"adapter_spec"."model", no model= in the folder name).'
        )
    kept = [a for a in parts if a.partition("=")[0] not in ("model", "model_deployment")]
    return str(model), scenario + (":" + ",".join(kept) if kept else "")


def _entries(path: Path) -> list[dict[str, Any]]:
    doc = _load(path)
    if not isinstance(doc, list) or not all(isinstance(e, dict) for e in doc):
        raise CdplotInputError(
            f"{str(path)!r} is not a list of per-instance entries; pass the "
            f"per_instance_stats.json HELM writes, or its run folder."
        )
    return [e for e in doc if not e.get("perturbation")]


def _stat_values(entry: dict[str, Any]) -> dict[str, float]:
    """Metric -> the instance's mean of one entry (unperturbed stats only)."""
    out = {}
    for stat in entry.get("stats") or []:
        name = stat.get("name") if isinstance(stat, dict) else None
        if not isinstance(name, dict) or name.get("perturbation"):
            continue
        mean = stat.get("mean")
        if mean is None and stat.get("count"):
            mean = stat.get("sum", 0.0) / stat["count"]
        if isinstance(mean, (int, float)) and not isinstance(mean, bool):
            out[str(name.get("name"))] = float(mean)
    return out


def _choose(available: list[str], score: str | None, where: str) -> str:
    if score is not None:
        if score not in available:
            raise CdplotInputError(
                f"metric {score!r} (given as {spell('score')}) is not in {where}; its metrics "
                f"are {', '.join(map(repr, available))}."
            )
        return score
    if len(available) == 1:
        return available[0]
    shown = ", ".join(map(repr, available[:12])) + (", ..." if len(available) > 12 else "")
    example = "exact_match" if "exact_match" in available else available[0]
    raise CdplotInputError(
        f"several per-instance metrics in {where}: {shown}; choose the one to compare on "
        f"with {spell('score', example)}."
    )


def read_helm(source: str | os.PathLike[str], *, score: str | None = None) -> Any:
    """Read HELM per-instance outputs into a long table: one row per model, task and instance.

    Parameters
    ----------
    source : str or os.PathLike
        A run folder (holding ``per_instance_stats.json``), a folder of run folders (e.g.
        ``benchmark_output/runs/<suite>``, searched recursively), or a
        ``per_instance_stats.json``.
    score : str, optional
        The per-instance metric (e.g. ``"exact_match"``); needed when the runs hold several
        (HELM writes many: token counts, truncation flags, ...).

    Returns
    -------
    pandas.DataFrame
        Columns ``task``, ``model``, ``instance_id``, ``trial`` (only when some run has
        several train trials) and the metric; ``attrs["cdplot_note"]`` says what was read.

    Raises
    ------
    CdplotInputError
        For a damaged file, a run naming no model, a missing metric or several metrics
        without ``score``.

    Examples
    --------
    >>> import json, pathlib, tempfile
    >>> entry = {"instance_id": "id7", "train_trial_index": 0, "stats": [
    ...     {"name": {"name": "exact_match", "split": "test"}, "count": 1, "mean": 1.0}]}
    >>> with tempfile.TemporaryDirectory() as root:
    ...     run = pathlib.Path(root) / "boolq:model=openai_gpt2"
    ...     run.mkdir()
    ...     _ = (run / "per_instance_stats.json").write_text(json.dumps([entry]))
    ...     read_helm(root).values.tolist()
    [['boolq', 'openai_gpt2', 'id7', 1.0]]
    """
    import pandas as pd

    root = Path(source)
    files = folder_files(root, _STATS) if root.is_dir() else [root]
    if not files:
        raise CdplotInputError(f"{str(root)!r} holds no {_STATS}.")
    runs = []
    for f in files:
        model, task = _run_parts(f.parent)
        rows = [
            (str(e.get("instance_id")), int(e.get("train_trial_index") or 0), _stat_values(e))
            for e in _entries(f)
        ]
        runs.append((model, task, rows))
    available = list(dict.fromkeys(m for _, _, rows in runs for _, _, v in rows for m in v))
    where = "the HELM runs" if len(files) > 1 else f"HELM run {str(files[0].parent)!r}"
    metric = _choose(available, score, where)
    cols: dict[str, list[Any]] = {"task": [], "model": [], "instance_id": [], "trial": [], "v": []}
    for model, task, rows in runs:
        for instance, trial, values in rows:
            if metric in values:
                cols["task"].append(task)
                cols["model"].append(model)
                cols["instance_id"].append(instance)
                cols["trial"].append(trial)
                cols["v"].append(values[metric])
    frame = pd.DataFrame(
        {
            "task": pd.Categorical(cols["task"]),
            "model": pd.Categorical(cols["model"]),
            "instance_id": cols["instance_id"],
            "trial": np.array(cols["trial"], dtype=np.int64),
            metric: np.array(cols["v"], dtype=float),
        }
    )
    if not len(frame) or int(frame["trial"].max()) == 0:
        frame = frame.drop(columns="trial")
    frame.attrs["cdplot_source"] = str(root)
    frame.attrs["cdplot_note"] = (
        f"read {str(root)!r} as HELM per-instance outputs ({len(files)} run"
        f"{'s' if len(files) != 1 else ''}; metric {metric!r}; perturbed instances left out)"
    )
    return frame

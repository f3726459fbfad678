"""SWE-bench results: the ``resolved`` lists of the experiments repository's evaluation folders.

The layout is the one of the SWE-bench ``experiments`` repository:
``evaluation/<split>/<date>_<system>/results/results.json``, a mapping of outcome lists —
``"resolved"`` (the instances the system resolved), ``"no_generation"``, ``"no_logs"`` and,
in older folders, ``"generated"``, ``"applied"`` and the like — each a list of instance ids
(``<owner>__<repo>-<number>``). Every instance not resolved scores 0.

Which instances there are is not in the files: only the resolved ones (and a few others) are
listed. The item universe is therefore ``items=`` when given (the split's instance ids, e.g.
one per line in a file), else the union of every instance id any file read names, in any
list — announced in the note with, for a split of known size (Verified 500, Lite 300, Test
2,294 instances), how many of its instances that union covers. An instance no system read
resolved nor listed is then missing from the comparison: pass ``items=``.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import numpy as np

from .._errors import CdplotInputError
from ._folders import folder_files

__all__ = ["SPLIT_SIZES", "is_swebench", "read_swebench"]

#: Instances per split of SWE-bench (princeton-nlp/SWE-bench, _Lite, _Verified: test split).
SPLIT_SIZES = {"verified": 500, "lite": 300, "test": 2294}


def _load(path: Path) -> dict[str, Any]:
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise CdplotInputError(f"cannot read SWE-bench results {str(path)!r}: {exc}.") from None
    if not isinstance(doc, dict) or not isinstance(doc.get("resolved"), list):
        raise CdplotInputError(
            f'{str(path)!r} has no "resolved" list; pass the results/results.json of an '
            f"evaluation folder of the SWE-bench experiments repository, or a folder of them."
        )
    for key, ids in doc.items():
        if isinstance(ids, list) and not all(isinstance(i, str) for i in ids):
            raise CdplotInputError(f'"{key}" of {str(path)!r} is not a list of instance ids.')
    return doc


def is_swebench(path: Path) -> bool:
    """Whether ``path`` is SWE-bench results: a ``results.json`` with a ``"resolved"`` list,
    or a folder holding ``results/results.json`` files."""
    if path.is_dir():
        found = (p for p in path.rglob("results.json") if p.parent.name == "results")
        first = next(found, None)
        return first is not None and is_swebench(first)
    if path.name != "results.json" or not path.is_file():
        return False
    try:
        return isinstance(json.loads(path.read_text(encoding="utf-8")).get("resolved"), list)
    except (OSError, UnicodeDecodeError, ValueError, AttributeError, RecursionError):
        return False


def _system(path: Path) -> tuple[str, str | None]:
    """The system (its folder's name) and split (the folder above) of a results.json."""
    folder = path.parent.parent if path.parent.name == "results" else path.parent
    split = folder.parent.name.lower() or None
    return folder.name, split


def _universe(items: Any) -> list[str] | None:
    """``items=``: a file of instance ids (one per line, or a JSON list) or a sequence."""
    if items is None:
        return None
    if isinstance(items, (str, os.PathLike)):
        path = Path(items)
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise CdplotInputError(f"cannot read the instance ids {str(path)!r}: {exc}.") from None
        ids = json.loads(text) if text.lstrip().startswith("[") else text.split()
    elif isinstance(items, Iterable):
        ids = list(items)
    else:
        raise CdplotInputError(
            f"items= is a file of instance ids or a list of them, not {type(items).__name__}."
        )
    return list(dict.fromkeys(str(i).strip() for i in ids if str(i).strip()))


def _repo(instance: str) -> str:
    """``owner__repo-1234`` -> ``owner/repo``."""
    return instance.rsplit("-", 1)[0].replace("__", "/")


def read_swebench(source: str | os.PathLike[str], *, items: Any = None) -> Any:
    """Read SWE-bench results into a long table: one row per system and instance, 1 if
    resolved, else 0.

    Parameters
    ----------
    source : str or os.PathLike
        A ``results.json`` (with a ``"resolved"`` list), or a folder holding such files as
        ``<system>/results/results.json`` (e.g. ``evaluation/verified`` of the experiments
        repository: one system per folder, named after it).
    items : str, os.PathLike or sequence of str, optional
        The instance ids of the split (a file with one id per line or a JSON list, or the
        ids): the item universe. Without it, the union of the ids the files name.

    Returns
    -------
    pandas.DataFrame
        Columns ``task`` (``SWE-bench <split>``), ``model`` (the system), ``instance_id``,
        ``repo`` (the repository, read as the item's cluster) and ``resolved`` (1 or 0);
        ``attrs["cdplot_note"]`` says how the item universe was decided.

    Raises
    ------
    CdplotInputError
        For a file without a ``"resolved"`` list, or a resolved instance that is not among
        ``items``.

    Examples
    --------
    >>> import json, pathlib, tempfile
    >>> with tempfile.TemporaryDirectory() as root:
    ...     for system, done in (("20240101_a", ["x__y-1"]), ("20240101_b", ["x__y-2"])):
    ...         out = pathlib.Path(root) / system / "results"
    ...         out.mkdir(parents=True)
    ...         _ = (out / "results.json").write_text(json.dumps({"resolved": done}))
    ...     read_swebench(root)["resolved"].tolist()
    [1, 0, 0, 1]
    """
    import pandas as pd

    root = Path(source)
    files = folder_files(root, "results.json") if root.is_dir() else [root]
    files = [f for f in files if f.parent.name == "results" or not root.is_dir()]
    if not files:
        raise CdplotInputError(f"{str(root)!r} holds no results/results.json file.")
    docs = {f: _load(f) for f in files}
    named = list(
        dict.fromkeys(
            i for doc in docs.values() for v in doc.values() if isinstance(v, list) for i in v
        )
    )
    given = _universe(items)
    universe = given if given is not None else sorted(named)
    index = {iid: n for n, iid in enumerate(universe)}
    systems, splits = [], set()
    resolved = np.zeros((len(files), len(universe)), dtype=np.int8)
    for row, (f, doc) in enumerate(docs.items()):
        system, split = _system(f)
        systems.append(system)
        splits.add(split)
        outside = [i for i in doc["resolved"] if i not in index]
        if outside:
            raise CdplotInputError(
                f"{system!r} resolved {outside[0]!r}, which is not among the {len(universe)} "
                f"instance ids given as items=; pass the ids of the split it was run on."
            )
        resolved[row, [index[i] for i in doc["resolved"]]] = 1
    split = splits.pop() if len(splits) == 1 else None
    task = f"SWE-bench {split}" if split else "SWE-bench"
    frame = pd.DataFrame(
        {
            "task": task,
            "model": pd.Categorical(np.repeat(systems, len(universe)), categories=systems),
            "instance_id": np.tile(np.array(universe, dtype=object), len(files)),
            "repo": np.tile(np.array([_repo(i) for i in universe], dtype=object), len(files)),
            "resolved": resolved.reshape(-1),
        }
    )
    if given is not None:
        how = f"the {len(universe)} instance ids given as items"
    else:
        how = f"the {len(universe)} instance ids the files name (resolved or listed)"
        size = SPLIT_SIZES.get(split or "")
        if size is not None and size != len(universe):
            how += (
                f", of the {size:,} of SWE-bench {split}: the others, listed by no file, are "
                f"left out; pass items= (the split's ids) to score them 0"
            )
    frame.attrs["cdplot_source"] = str(root)
    frame.attrs["cdplot_note"] = (
        f"read {str(root)!r} as SWE-bench results ({len(files)} system"
        f"{'s' if len(files) != 1 else ''}; items: {how}; clusters: repositories)"
    )
    return frame

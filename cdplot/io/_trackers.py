"""Experiment trackers' exports: MLflow runs, Weights & Biases run tables, OpenML listings.

Each reader takes the exported CSV file or the data frame the tool's Python API returns and
gives a long table (``dataset``, ``algorithm``, the score, repetition columns) that
:func:`cdplot.compare` reads as it is. Layouts:

- MLflow: ``mlflow.search_runs()`` and the UI's "Download CSV": ``run_id``, ``experiment_id``,
  ``status``, ``start_time``, ..., then ``metrics.<name>``, ``params.<name>`` and
  ``tags.<name>`` columns (``tags.mlflow.runName``, ...).
- Weights & Biases: the runs table's "Export as CSV": ``Name``, ``State``, ``Notes``,
  ``User``, ``Tags``, ``Created``, ``Runtime``, ``Sweep``, then the config and summary keys by
  their own names.
- OpenML: ``openml.evaluations.list_evaluations(function, ..., output_format="dataframe")``:
  ``run_id``, ``task_id``, ``setup_id``, ``flow_id``, ``flow_name``, ``data_id``,
  ``data_name``, ``function``, ``upload_time``, ``uploader``, ``value``, ``values``,
  ``array_data``.
"""

from __future__ import annotations

import os
from typing import Any

from .._errors import CdplotInputError, spell
from ._roles import ALGORITHM_NAMES, DATASET_NAMES, REPETITION_NAMES, column_key

__all__ = [
    "is_mlflow",
    "is_openml",
    "is_wandb",
    "read_mlflow",
    "read_openml",
    "read_wandb",
]

_OPENML = {"run_id", "flow_name", "data_name", "function", "value"}
_WANDB_META = ("Name", "State", "Notes", "User", "Tags", "Created", "Runtime", "Sweep", "ID")


def is_mlflow(columns: list[str]) -> bool:
    """``run_id`` and ``metrics.*`` columns: an MLflow runs table."""
    return "run_id" in columns and any(str(c).startswith("metrics.") for c in columns)


def is_openml(columns: list[str]) -> bool:
    """The columns of an OpenML evaluations listing."""
    return set(map(str, columns)) >= _OPENML


def is_wandb(columns: list[str]) -> bool:
    """``Name``, ``State`` and ``Created`` or ``Runtime``: a W&B runs table export."""
    cols = set(map(str, columns))
    return {"Name", "State"} <= cols and bool({"Created", "Runtime"} & cols)


def _frame(data: Any, what: str) -> Any:
    """A path (CSV) or a data frame, as a pandas DataFrame."""
    from ._frames import as_pandas
    from ._read import read_table

    if isinstance(data, (str, os.PathLike)) or hasattr(data, "read"):
        return read_table(data)
    frame = as_pandas(data)
    if frame is None:
        raise CdplotInputError(
            f"{what} reads a CSV export or a data frame, got {type(data).__name__}."
        )
    return frame


def _source(frame: Any, fallback: str) -> str:
    return str(frame.attrs.get("cdplot_source", fallback))


def _pick(
    frame: Any, given: str | None, prefixes: tuple[str, ...], names: tuple[str, ...], role: str
) -> str:
    """The column holding ``role``: the user's, else the one prefixed column named as a role."""
    columns = [str(c) for c in frame.columns]
    source = _source(frame, "the MLflow runs")
    if given is not None:
        for name in (given, *(p + given for p in prefixes)):
            if name in columns:
                return name
        raise CdplotInputError(
            f"column {given!r} (given as {spell(role)}) is not in {source!r}; its "
            f"{'/'.join(p.rstrip('.') for p in prefixes)} columns are "
            f"{', '.join(repr(c) for c in columns if c.startswith(prefixes))}."
        )
    keys = {column_key(n) for n in names}
    found = [
        c for c in columns if c.startswith(prefixes) and column_key(c.split(".", 1)[1]) in keys
    ]
    if len(found) == 1:
        return found[0]
    options = found or [c for c in columns if c.startswith(prefixes)]
    example = options[0] if options else f"{prefixes[0]}NAME"
    what = "several columns could" if found else "no column is named to"
    raise CdplotInputError(
        f"{what} hold the {role}s in {source!r} ({', '.join(repr(c) for c in options)}); "
        f"name it with {spell(role, example)}."
    )


def read_mlflow(
    data: Any,
    *,
    dataset: str | None = None,
    algorithm: str | None = None,
    score: str | None = None,
) -> Any:
    """Read MLflow runs (``mlflow.search_runs()`` or the UI's CSV) into a long table.

    Parameters
    ----------
    data : str, os.PathLike or DataFrame
        The CSV the MLflow UI downloads, or the DataFrame ``mlflow.search_runs()`` returns.
    dataset, algorithm : str, optional
        The param or tag naming the dataset and the algorithm (``"params.data"`` or just
        ``"data"``, looked up as ``params.data`` then ``tags.data``). By default the one
        ``params.*``/``tags.*`` column named like a dataset (``dataset``, ``task``, ...) or an
        algorithm (``model``, ``algorithm``, ...).
    score : str, optional
        The metric (``"metrics.accuracy"`` or ``"accuracy"``); needed when there are several.

    Returns
    -------
    pandas.DataFrame
        Columns ``dataset``, ``algorithm``, the metric (without ``metrics.``) and the params
        named like repetitions (``seed``, ``fold``, ...) for ``aggregate=``.

    Raises
    ------
    CdplotInputError
        When a role cannot be decided (naming the candidate columns and the argument).

    Examples
    --------
    >>> import pandas as pd
    >>> runs = pd.DataFrame({"run_id": ["a1", "b2"], "metrics.acc": [0.9, 0.8],
    ...     "params.dataset": ["iris", "iris"], "params.model": ["svm", "knn"]})
    >>> read_mlflow(runs).columns.tolist()
    ['dataset', 'algorithm', 'acc']
    """
    import pandas as pd

    frame = _frame(data, "read_mlflow")
    d_col = _pick(frame, dataset, ("params.", "tags."), DATASET_NAMES, "dataset")
    a_col = _pick(frame, algorithm, ("params.", "tags."), ALGORITHM_NAMES, "algorithm")
    metrics = [str(c) for c in frame.columns if str(c).startswith("metrics.")]
    if score is None and len(metrics) == 1:
        s_col = metrics[0]
    elif score is None:
        raise CdplotInputError(
            f"{_source(frame, 'the MLflow runs')!r} has several metrics "
            f"({', '.join(repr(m) for m in metrics)}); choose one with "
            f"{spell('score', metrics[0] if metrics else 'metrics.NAME')}."
        )
    else:
        s_col = _pick(frame, score, ("metrics.",), (), "score")
    reps = {
        c.split(".", 1)[1]: frame[c]
        for c in map(str, frame.columns)
        if c.startswith("params.")
        and column_key(c.split(".", 1)[1]) in {column_key(n) for n in REPETITION_NAMES}
    }
    out = pd.DataFrame(
        {
            "dataset": frame[d_col].to_numpy(),
            "algorithm": frame[a_col].to_numpy(),
            s_col.split(".", 1)[1]: frame[s_col].to_numpy(),
            **{k: v.to_numpy() for k, v in reps.items()},
        }
    )
    out.attrs["cdplot_note"] = (
        f"read MLflow runs: datasets from {d_col!r}, algorithms from {a_col!r}, "
        f"scores from {s_col!r}"
    )
    return out


def read_wandb(data: Any) -> Any:
    """Read a Weights & Biases runs-table CSV export into a long table.

    The run metadata columns (``Name``, ``State``, ``Notes``, ``User``, ``Tags``,
    ``Created``, ``Runtime``, ``Sweep``, ``ID``) and summary keys starting with ``_``
    (``_runtime``, ``_step``, ``_timestamp``) are dropped; the config and summary columns stay
    under their own names, so that ``dataset``, ``algorithm`` and ``score`` are recognised or
    named as for any long table. Only finished runs are kept when ``State`` says so.

    Parameters
    ----------
    data : str, os.PathLike or DataFrame
        The exported CSV file, or the same table as a DataFrame.

    Returns
    -------
    pandas.DataFrame

    Examples
    --------
    >>> import io
    >>> csv = ("Name,State,Created,Runtime,dataset,model,accuracy\\n"
    ...        "r1,finished,2024-01-01,12,iris,svm,0.9\\n")
    >>> read_wandb(io.StringIO(csv)).columns.tolist()
    ['dataset', 'model', 'accuracy']
    """
    frame = _frame(data, "read_wandb")
    if "State" in frame.columns:
        states = frame["State"].astype(str)
        if (states == "finished").any():
            frame = frame[states.to_numpy() == "finished"]
    keep = [c for c in frame.columns if c not in _WANDB_META and not str(c).startswith("_")]
    out = frame[keep].reset_index(drop=True)
    out.attrs["cdplot_note"] = "read a Weights & Biases runs table (finished runs)"
    return out


def _one_name_each(frame: Any, id_col: str, name_col: str, source: str) -> None:
    """Refuse a name shared by two ids, or an id with two names."""
    pairs = frame[[id_col, name_col]].drop_duplicates()
    for col, other in ((name_col, id_col), (id_col, name_col)):
        counts = pairs.groupby(col, observed=True)[other].nunique()
        bad = counts[counts > 1]
        if len(bad):
            value = bad.index[0]
            listed = sorted(map(str, pairs.loc[pairs[col] == value, other]))
            raise CdplotInputError(
                f"in {source!r}, {col} {value!r} goes with several {other}s ({', '.join(listed)}); "
                f"the names disagree, so keep the rows of one {other} (filter the table)."
            )


def read_openml(data: Any, *, score: str | None = None) -> Any:
    """Read an OpenML evaluations listing into a long table.

    Datasets are named by ``data_name``, algorithms by ``flow_name``, the score is ``value``
    for one evaluation ``function`` (e.g. ``"predictive_accuracy"``); each ``run_id`` is a
    run (several runs of a flow on a dataset need ``aggregate=``).

    Parameters
    ----------
    data : str, os.PathLike or DataFrame
        ``openml.evaluations.list_evaluations(..., output_format="dataframe")`` or its CSV.
    score : str, optional
        The evaluation function; needed when the listing holds several.

    Returns
    -------
    pandas.DataFrame
        Columns ``dataset``, ``algorithm``, the function's name and ``run``.

    Raises
    ------
    CdplotInputError
        For several functions without ``score``, or a dataset (flow) name shared by two
        ``data_id`` (``flow_id``) or the reverse.

    Examples
    --------
    >>> import pandas as pd
    >>> ev = pd.DataFrame({"run_id": [1, 2], "task_id": [59, 59], "setup_id": [7, 8],
    ...     "flow_id": [10, 11], "flow_name": ["svm", "knn"], "data_id": [61, 61],
    ...     "data_name": ["iris", "iris"], "function": ["predictive_accuracy"] * 2,
    ...     "value": [0.95, 0.93]})
    >>> read_openml(ev).columns.tolist()
    ['dataset', 'algorithm', 'predictive_accuracy', 'run']
    """
    import pandas as pd

    frame = _frame(data, "read_openml")
    source = _source(frame, "the OpenML evaluations")
    functions = sorted(map(str, pd.unique(frame["function"].astype(str))))
    if score is None and len(functions) != 1:
        raise CdplotInputError(
            f"{source!r} holds several evaluation functions ({', '.join(map(repr, functions))});"
            f" choose one with {spell('score', functions[0] if functions else 'FUNCTION')}."
        )
    function = functions[0] if score is None else str(score)
    if function not in functions:
        raise CdplotInputError(
            f"function {function!r} (given as {spell('score')}) is not in {source!r}; its "
            f"functions are {', '.join(map(repr, functions))}."
        )
    rows = frame[frame["function"].astype(str).to_numpy() == function]
    for id_col, name_col in (("data_id", "data_name"), ("flow_id", "flow_name")):
        if id_col in rows.columns:
            _one_name_each(rows, id_col, name_col, source)
    out = pd.DataFrame(
        {
            "dataset": rows["data_name"].astype(str).to_numpy(),
            "algorithm": rows["flow_name"].astype(str).to_numpy(),
            function: rows["value"].to_numpy(dtype=float),
            "run": rows["run_id"].to_numpy(),
        }
    )
    out.attrs["cdplot_note"] = (
        f"read an OpenML evaluations listing: {function!r} of flows (flow_name) on datasets "
        f"(data_name)"
    )
    return out

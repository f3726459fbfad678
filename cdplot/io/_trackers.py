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

from .._errors import CdplotInputError, renamed_keywords, spell
from ._roles import ALGORITHM_NAMES, DATASET_NAMES, REPETITION_NAMES, column_key
from ._values import _is_missing, to_scores

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


def _finished_runs(frame: Any, column: str, source: str) -> tuple[Any, str]:
    """The runs of ``frame`` whose ``column`` says finished, and a clause saying what was
    dropped ("" when every run finished); refused when no run finished.

    MLflow's ``status`` (``FINISHED``, ``FAILED``, ``KILLED``, ``RUNNING``, ``SCHEDULED``)
    and W&B's ``State`` (``finished``, ``crashed``, ``failed``, ``killed``, ``running``)
    are read alike, case-insensitively.
    """
    if column not in frame.columns:
        return frame, ""
    states = [str(v).strip() for v in frame[column].tolist()]
    done = [v.lower() == "finished" for v in states]
    others: dict[str, int] = {}
    for state, ok in zip(states, done, strict=True):
        if not ok:
            others[state] = others.get(state, 0) + 1
    listing = ", ".join(f"{n} {state}" for state, n in sorted(others.items()))
    if not any(done):
        raise CdplotInputError(
            f"no run in {source!r} finished ({column}: {listing or 'no runs'}); cdplot compares "
            f"finished runs only: wait for the runs to finish, or drop the {column!r} column "
            f"to compare the runs as they are."
        )
    if all(done):
        return frame, ""
    dropped = len(states) - sum(done)
    kept = frame[[bool(ok) for ok in done]]
    kept.attrs.update(frame.attrs)
    return kept, f"dropped {dropped} run{'s' if dropped != 1 else ''} not finished: {listing}"


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


@renamed_keywords(data="source")
def read_mlflow(
    source: Any,
    *,
    dataset: str | None = None,
    algorithm: str | None = None,
    score: str | None = None,
) -> Any:
    """Read MLflow runs (``mlflow.search_runs()`` or the UI's CSV) into a long table.

    Parameters
    ----------
    source : str, os.PathLike or DataFrame
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
        named like repetitions (``seed``, ``fold``, ...) for ``aggregate=``. Only runs whose
        ``status`` is ``FINISHED`` are kept; ``attrs["cdplot_note"]`` says how many others
        (``FAILED``, ``KILLED``, ``RUNNING``, ...) were dropped.

    Raises
    ------
    CdplotInputError
        When a role cannot be decided (naming the candidate columns and the argument), or
        no run finished.

    Examples
    --------
    >>> import pandas as pd
    >>> runs = pd.DataFrame({"run_id": ["a1", "b2"], "metrics.acc": [0.9, 0.8],
    ...     "params.dataset": ["iris", "iris"], "params.model": ["svm", "knn"]})
    >>> read_mlflow(runs).columns.tolist()
    ['dataset', 'algorithm', 'acc']
    """
    import pandas as pd

    frame = _frame(source, "read_mlflow")
    status = next((c for c in ("status", "Status") if c in frame.columns), "status")
    frame, dropped = _finished_runs(frame, status, _source(frame, "the MLflow runs"))
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
        f"scores from {s_col!r}" + (f"; {dropped}" if dropped else "")
    )
    return out


@renamed_keywords(data="source")
def read_wandb(source: Any) -> Any:
    """Read a Weights & Biases runs-table CSV export into a long table.

    The run metadata columns (``Name``, ``State``, ``Notes``, ``User``, ``Tags``,
    ``Created``, ``Runtime``, ``Sweep``, ``ID``) and summary keys starting with ``_``
    (``_runtime``, ``_step``, ``_timestamp``) are dropped; the config and summary columns stay
    under their own names, so that ``dataset``, ``algorithm`` and ``score`` are recognised or
    named as for any long table. Only runs whose ``State`` is ``finished`` are kept, as
    :func:`read_mlflow` keeps ``FINISHED`` runs; ``attrs["cdplot_note"]`` says how many
    others (crashed, failed, killed, running) were dropped.

    Parameters
    ----------
    source : str, os.PathLike or DataFrame
        The exported CSV file, or the same table as a DataFrame.

    Returns
    -------
    pandas.DataFrame

    Raises
    ------
    CdplotInputError
        When no run finished (drop the ``State`` column to compare the runs as they are).

    Examples
    --------
    >>> import io
    >>> csv = ("Name,State,Created,Runtime,dataset,model,accuracy\\n"
    ...        "r1,finished,2024-01-01,12,iris,svm,0.9\\n")
    >>> read_wandb(io.StringIO(csv)).columns.tolist()
    ['dataset', 'model', 'accuracy']
    """
    frame = _frame(source, "read_wandb")
    finished = "State" in frame.columns
    frame, dropped = _finished_runs(frame, "State", _source(frame, "the W&B runs table"))
    keep = [c for c in frame.columns if c not in _WANDB_META and not str(c).startswith("_")]
    out = frame[keep].reset_index(drop=True)
    kept = " (finished runs" + (f"; {dropped})" if dropped else ")") if finished else ""
    out.attrs["cdplot_note"] = f"read a Weights & Biases runs table{kept}"
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


def _openml_names(column: Any, name: str, runs: list[Any], source: str) -> list[str]:
    """The dataset or flow names of a listing as text; a missing one refused, naming its run."""
    out = []
    for pos, value in enumerate(column.tolist()):
        if _is_missing(value) or (isinstance(value, str) and not value.strip()):
            raise CdplotInputError(
                f"{name} of run_id {runs[pos]!r} in {source!r} is missing ({value!r}); every "
                f"OpenML evaluation names its dataset and flow: drop the run or fill it in."
            )
        out.append(str(value))
    return out


@renamed_keywords(data="source")
def read_openml(source: Any, *, score: str | None = None) -> Any:
    """Read an OpenML evaluations listing into a long table.

    Datasets are named by ``data_name``, algorithms by ``flow_name``, the score is ``value``
    for one evaluation ``function`` (e.g. ``"predictive_accuracy"``); each ``run_id`` is a
    run (several runs of a flow on a dataset need ``aggregate=``).

    Parameters
    ----------
    source : str, os.PathLike or DataFrame
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

    frame = _frame(source, "read_openml")
    where = _source(frame, "the OpenML evaluations")
    absent = sorted(_OPENML - {str(c) for c in frame.columns})
    if absent:
        raise CdplotInputError(
            f"{where!r} is no OpenML evaluations listing: it has no column "
            f"{', '.join(map(repr, absent))}; pass the frame of "
            f"openml.evaluations.list_evaluations(..., output_format='dataframe') or its CSV."
        )
    functions = sorted(map(str, pd.unique(frame["function"].astype(str))))
    if score is None and len(functions) != 1:
        raise CdplotInputError(
            f"{where!r} holds several evaluation functions ({', '.join(map(repr, functions))});"
            f" choose one with {spell('score', functions[0] if functions else 'FUNCTION')}."
        )
    function = functions[0] if score is None else str(score)
    if function not in functions:
        raise CdplotInputError(
            f"function {function!r} (given as {spell('score')}) is not in {where!r}; its "
            f"functions are {', '.join(map(repr, functions))}."
        )
    rows = frame[frame["function"].astype(str).to_numpy() == function]
    for id_col, name_col in (("data_id", "data_name"), ("flow_id", "flow_name")):
        if id_col in rows.columns:
            _one_name_each(rows, id_col, name_col, where)
    runs = rows["run_id"].tolist()
    names = {c: _openml_names(rows[c], c, runs, where) for c in ("data_name", "flow_name")}

    listing = where

    def cell(pos: int) -> str:
        return f"run_id {runs[pos]!r} in {listing!r}"

    values = to_scores(rows["value"], "value", cell, decimal=frame.attrs.get("cdplot_decimal"))
    out = pd.DataFrame(
        {
            "dataset": names["data_name"],
            "algorithm": names["flow_name"],
            function: values,
            "run": rows["run_id"].to_numpy(),
        }
    )
    out.attrs["cdplot_note"] = (
        f"read an OpenML evaluations listing: {function!r} of flows (flow_name) on datasets "
        f"(data_name)"
    )
    return out

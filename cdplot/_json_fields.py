"""The fields of a cdplot JSON document: one description drives writing, checking, reading.

Each :class:`Field` of :data:`FIELDS` names a key of the document (``settings.test`` is the
key ``test`` of the ``settings`` object), the part of the result it stands for (``_input``,
``_ranking``, ``_omnibus``, ``_pairwise``, ``_groups``, ``_parametric``) and how its value is
written from the part, checked, and read back into the part's fields. :mod:`cdplot._json`
writes a document by walking :data:`FIELDS` over a result's parts and rebuilds the parts the
same way; :mod:`cdplot._json_check` checks a document with :func:`check_fields`. The order of
:data:`FIELDS` is the order of the keys in the document.

Layer 3: imports the error family (and numpy); the result types are imported when a value is
read.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ._errors import CdplotInputError

__all__ = ["FIELDS", "Field", "Layout", "Rows", "check_fields", "number", "unnumber"]


# --------------------------------------------------------------------------- JSON numbers
def number(x: Any) -> Any:
    """A JSON-safe number: NaN -> null, +-inf -> "inf"/"-inf" (JSON has neither)."""
    if isinstance(x, (bool, np.bool_)):
        return bool(x)
    x = float(x)
    if math.isnan(x):
        return None
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return x


def unnumber(x: Any) -> float:
    """The float a JSON number stands for (null: NaN; "inf"/"-inf")."""
    return math.nan if x is None else float(x)


class Rows:
    """A matrix written row by row, straight from its numpy array (never a nested list).

    With ``scale``, each row is multiplied by it as it is written (the ranks, stored as
    twice their value, are written as ranks without a float copy of the table).
    """

    def __init__(self, values: np.ndarray, scale: float | None = None) -> None:
        self.values = np.asarray(values)
        self.scale = scale

    def rows(self) -> Iterator[np.ndarray]:
        """The rows, scaled if asked."""
        for row in self.values:
            yield row if self.scale is None else row * self.scale


@dataclass
class Layout:
    """What the fields of one document are laid out over: the names, the control and (when
    reading) the document and the label of its average ranks."""

    algorithms: list[str]
    datasets: list[str]
    control: str | None
    doc: dict[str, Any] = field(default_factory=dict)
    rank_name: str = "average rank"
    #: values read so far that a later field reuses (Friedman's test for ``omnibus``)
    seen: dict[str, Any] = field(default_factory=dict)

    @property
    def others(self) -> list[str]:
        """The algorithms other than the control, in input order."""
        return [a for a in self.algorithms if a != self.control]


#: a key every document has (reading a document without it fails, naming it)
REQUIRED = object()


@dataclass(frozen=True)
class Field:
    """One key of the document and the part fields it holds.

    ``write(part, layout)`` gives the JSON value from the part; ``read(value, layout)`` the
    part's fields (a dict) from the JSON value; ``check(value, key, layout)`` refuses a
    damaged value (``MISSING`` when the key is absent). A part without ``names`` (the other
    kind of result) writes ``absent`` (a value, or a function of the part and the layout);
    a document without the key reads ``default`` (older documents), or fails if required.
    ``part`` None: the result itself, written only (sentences the reader rebuilds).
    """

    key: str
    part: str | None
    names: tuple[str, ...]
    write: Callable[[Any, Layout], Any]
    read: Callable[[Any, Layout], dict[str, Any]]
    check: Callable[[Any, str, Layout], None]
    default: Any = REQUIRED
    absent: Any = None

    def written(self, result: Any, layout: Layout) -> Any:
        """The JSON value of this field for ``result``."""
        # a part only one kind has (``_benchmark``) is absent from the others
        owner = result if self.part is None else getattr(result, self.part, None)
        if all(hasattr(owner, name) for name in self.names):
            return self.write(owner, layout)
        return self.absent(owner, layout) if callable(self.absent) else self.absent

    def place(self, doc: dict[str, Any]) -> tuple[dict[str, Any], str]:
        """The object of ``doc`` that holds this field, and its key there."""
        *parents, last = self.key.split(".")
        for parent in parents:
            doc = doc[parent]
        return doc, last

    def value(self, doc: dict[str, Any]) -> Any:
        """The document's value of this field (``default`` if absent; KeyError if required)."""
        owner, last = self.place(doc)
        if last in owner:
            return owner[last]
        if self.default is REQUIRED:
            raise KeyError(self.key)
        return self.default


#: stands for an absent key in a check
MISSING = object()


# --------------------------------------------------------------------------- checks
class _Damaged(CdplotInputError):
    """A field of the document has the wrong type or shape."""


def fail(key: str, what: str) -> _Damaged:
    """The error for a damaged field."""
    return _Damaged(f"not a valid cdplot JSON result: {key!r} {what}.")


def is_number(v: Any) -> bool:
    """A number as the writer puts it: a float, null (NaN) or "inf"/"-inf"."""
    if v is None:
        return True
    if isinstance(v, str):
        return v in ("inf", "-inf", "Infinity", "-Infinity", "nan", "NaN")
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _finite(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def _flag(v: Any) -> bool:
    return isinstance(v, bool)


def _whole(v: Any, lo: int, hi: int | None) -> bool:
    """An int (not a bool) from ``lo`` to ``hi`` (no bound if None)."""
    return isinstance(v, int) and not isinstance(v, bool) and lo <= v and (hi is None or v <= hi)


def check_names(value: Any, key: str, unique: bool = True) -> list[str]:
    """A list of names (unique ones with ``unique``); an absent list is empty."""
    value = [] if value is MISSING else value
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise fail(key, "must be a list of names (strings)")
    if unique and len(set(value)) != len(value):
        raise fail(key, "has a name twice; every name must be unique")
    return value


def _check_matrix(value: Any, key: str, shape: tuple[int, int], cell: Callable) -> None:
    rows, cols = shape
    if (
        not isinstance(value, list)
        or len(value) != rows
        or not all(isinstance(r, list) and len(r) == cols for r in value)
    ):
        raise fail(key, f"must be a {rows} x {cols} matrix (a list of {rows} rows)")
    if not all(cell(v) for r in value for v in r):
        raise fail(key, "has a cell of the wrong type")


def _check_keyed(value: Any, key: str, keys: list[str] | None, cell: Callable) -> list[str]:
    if not isinstance(value, dict) or not all(cell(v) for v in value.values()):
        raise fail(key, "must be an object of algorithm name -> value")
    if keys is not None and (len(value) != len(keys) or set(value) != set(keys)):
        raise fail(key, "must have one entry per algorithm of 'algorithms'")
    return list(value)


def _optional(check: Callable[[Any, Layout], bool], what: str) -> Callable:
    """A check of a value that may be absent or null."""

    def run(value: Any, key: str, layout: Layout) -> None:
        if value is not MISSING and value is not None and not check(value, layout):
            raise fail(key, what)

    return run


def _no_check(value: Any, key: str, layout: Layout) -> None:
    return None


# --------------------------------------------------------------------------- value kinds
def _same(value: Any) -> Any:
    return value


def _plain(
    name: str, check: Callable = _no_check, cast: Callable = _same, out: Callable = _same
) -> dict:
    """A part field written as ``out`` gives it (text, a flag, a number of the settings) and
    read back with ``cast``."""
    return {
        "names": (name,),
        "write": lambda part, layout: out(getattr(part, name)),
        "read": lambda value, layout: {name: cast(value)},
        "check": check,
    }


def _names(name: str, unique: bool = False, cast: Callable = tuple) -> dict:
    return {
        "names": (name,),
        "write": lambda part, layout: list(getattr(part, name)),
        "read": lambda value, layout: {name: cast(value)},
        "check": lambda value, key, layout: check_names(value, key, unique),
    }


def _table(values: np.ndarray | None) -> Rows | None:
    return None if values is None else Rows(values)


def _rows_back(value: Any, dtype: Any = float) -> np.ndarray:
    return np.array([[unnumber(v) for v in row] for row in value], dtype=float).astype(dtype)


def _matrix(name: str, shape: str, cell: Callable = is_number, optional: bool = False) -> dict:
    """An N x k (``shape`` "nk") or k x k ("kk") matrix of numbers (null if ``optional``)."""

    def check(value: Any, key: str, layout: Layout) -> None:
        if optional and (value is MISSING or value is None):
            return
        k = len(layout.algorithms)
        rows = len(layout.datasets) if shape == "nk" else k
        _check_matrix(None if value is MISSING else value, key, (rows, k), cell)

    dtype = "int64" if name == "n_per_pair" else float
    return {
        "names": (name,),
        "write": lambda part, layout: _table(getattr(part, name)),
        "read": lambda value, layout: {name: None if value is None else _rows_back(value, dtype)},
        "check": check,
    }


def _series_of(labels: Any, values: Any, flags: bool = False) -> dict[str, Any] | None:
    """``{label: value}`` (booleans with ``flags``), or None."""
    if values is None:
        return None
    items = zip(labels, np.asarray(values).tolist(), strict=True)
    return {str(k): bool(v) if flags else number(v) for k, v in items}


def _ordered(name: str, order: str, label: str | None = None) -> dict:
    """A Series best first: ``{algorithm: value}`` in the part's ``order``: the average
    ranks (their ``label`` read back from the layout), or the mean scores (null without a
    parametric analysis)."""
    optional = label is None

    def read(value: Any, layout: Layout) -> dict[str, Any]:
        if value is None:
            return {}
        values = np.array([unnumber(v) for v in value.values()], dtype=float)
        out = {name: values, order: tuple(value)}
        if label is not None:
            out[label] = layout.rank_name
        return out

    def check(value: Any, key: str, layout: Layout) -> None:
        if optional and (value is MISSING or value is None):
            return
        _check_keyed(None if value is MISSING else value, key, layout.algorithms, is_number)

    return {
        "names": (name, order),
        "write": lambda part, layout: _series_of(getattr(part, order) or (), getattr(part, name)),
        "read": read,
        "check": check,
    }


def _per_pair(name: str, flags: bool) -> dict:
    """A k x k matrix, or against a control ``{other: value}`` (``adjusted_pvalues``,
    ``significant``)."""

    def write(part: Any, layout: Layout) -> Any:
        values = getattr(part, name)
        if values.ndim == 2:
            return Rows(np.asarray(values, dtype=bool) if flags else values)
        return _series_of(layout.others, values, flags)

    def read(value: Any, layout: Layout) -> dict[str, Any]:
        if isinstance(value, dict) and flags:
            return {name: np.array([bool(v) for v in value.values()], dtype=bool)}
        if isinstance(value, dict):
            return {name: np.array([unnumber(v) for v in value.values()], dtype=float)}
        if flags:
            return {name: np.array(value, dtype=bool)}
        return {name: _rows_back(value)}

    def check(value: Any, key: str, layout: Layout) -> None:
        value = None if value is MISSING else value
        cell = _flag if flags else is_number
        k = len(layout.algorithms)
        if layout.control is None:
            _check_matrix(value, key, (k, k), cell)
            return
        others = _check_keyed(value, key, None, cell)
        if not flags:
            return
        first = layout.doc.get("adjusted_pvalues")
        if not set(first) <= set(layout.algorithms) or others != list(first):
            raise fail("significant", "must name the same algorithms as 'adjusted_pvalues'")

    return {"names": (name,), "write": write, "read": read, "check": check}


def _omnibus(name: str) -> dict:
    """``{name, statistic, pvalue, df}`` or null; Friedman's test read once for two keys."""

    def write(part: Any, layout: Layout) -> Any:
        o = getattr(part, name)
        if o is None:  # e.g. Friedman on a table with missing results
            return None
        df = [number(d) for d in o.df] if isinstance(o.df, tuple) else number(o.df)
        statistic, pvalue = number(o.statistic), number(o.pvalue)
        return {"name": o.name, "statistic": statistic, "pvalue": pvalue, "df": df}

    def read(value: Any, layout: Layout) -> dict[str, Any]:
        from .stats._test_results import OmnibusResult

        if value is None:
            return {name: None}
        df = value["df"]
        df = tuple(unnumber(x) for x in df) if isinstance(df, list) else unnumber(df)
        statistic, pvalue = unnumber(value["statistic"]), unnumber(value["pvalue"])
        back = OmnibusResult(statistic, pvalue, df, value.get("name", ""))
        if name == "omnibus" and value == layout.doc.get("friedman"):
            back = layout.seen["friedman"]  # the same object, as compare() returns it
        elif name == "friedman":
            layout.seen["friedman"] = back
        return {name: back}

    def check(value: Any, key: str, layout: Layout) -> None:
        if value is MISSING or value is None:
            return
        df = value.get("df") if isinstance(value, dict) else None
        ok = (
            isinstance(value, dict)
            and is_number(value.get("statistic"))
            and is_number(value.get("pvalue"))
            and isinstance(value.get("name", ""), str)
            and (is_number(df) or (isinstance(df, list) and all(is_number(d) for d in df)))
        )
        if not ok:
            raise fail(key, "must be null or an object with a numeric statistic, pvalue and df")

    return {"names": (name,), "write": write, "read": read, "check": check}


def _write_ranks(part: Any, layout: Layout) -> Rows:
    """The per-dataset ranks, from their compact form when stored so."""
    if part.twice_ranks is not None:
        return Rows(part.twice_ranks, scale=0.5)
    return Rows(part.ranks)


def _check_groups(value: Any, key: str, layout: Layout) -> None:
    known = set(layout.algorithms)
    if not isinstance(value, list) or not all(
        isinstance(g, list) and g and all(isinstance(a, str) and a in known for a in g)
        for g in value
    ):
        raise fail(key, "must be a list of lists of names from 'algorithms'")


def _check_pairs(value: Any, key: str, layout: Layout) -> None:
    known = set(layout.algorithms)
    if not isinstance(value, list) or not all(
        isinstance(p, list) and len(p) == 2 and all(isinstance(a, str) and a in known for a in p)
        for p in value
    ):
        raise fail(key, "must be a list of [name, name] pairs from 'algorithms'")


def _check_labels(value: Any, key: str, layout: Layout) -> None:
    value = {} if value is MISSING else value
    if not isinstance(value, dict) or not all(isinstance(v, str) for v in value.values()):
        raise fail(key, "must be an object of algorithm name -> label (a string)")


def _write_aggregation(part: Any, layout: Layout) -> dict[str, Any] | None:
    agg = part.aggregation
    if agg is None:
        return None
    counts = agg.counts
    return {
        "function": agg.function,
        "columns": list(agg.columns),
        "min_count": int(agg.min_count),
        "max_count": int(agg.max_count),
        "counts": {
            str(d): {str(a): int(n) for a, n in row.items()} for d, row in counts.iterrows()
        },
        "split_ties": int(agg.split_ties),
        "tie_decimals": agg.tie_decimals,
    }


def _read_aggregation(d: dict[str, Any] | None, layout: Layout) -> dict[str, Any]:
    from .io import Aggregation

    if d is None:
        return {"aggregation": None}
    rows = d["counts"]
    algorithms = list(next(iter(rows.values()), {}))
    counts = np.array([[int(row[a]) for a in algorithms] for row in rows.values()], dtype=np.int64)
    return {
        "aggregation": Aggregation(
            function=str(d["function"]),
            columns=tuple(str(c) for c in d["columns"]),
            counts=counts.reshape(len(rows), len(algorithms)),
            min_count=int(d["min_count"]),
            max_count=int(d["max_count"]),
            datasets=list(rows),
            algorithms=algorithms,
            split_ties=int(d.get("split_ties", 0)),
            tie_decimals=d.get("tie_decimals"),
        )
    }


def _aggregation_ok(value: Any, layout: Layout) -> bool:
    if not isinstance(value, dict):
        return False
    counts = value.get("counts")
    return (
        isinstance(value.get("function"), str)
        and isinstance(value.get("columns"), list)
        and all(isinstance(c, str) for c in value["columns"])
        and all(isinstance(value.get(f), int) for f in ("min_count", "max_count"))
        and _whole(value.get("split_ties", 0), 0, None)
        and (value.get("tie_decimals") is None or _whole(value["tie_decimals"], 0, 15))
        and isinstance(counts, dict)
        and all(
            isinstance(row, dict)
            and list(row) == list(next(iter(counts.values())))
            and all(isinstance(c, int) and not isinstance(c, bool) for c in row.values())
            for row in counts.values()
        )
    )


# --------------------------------------------------------------------------- the procedure
#: the procedure's keys in the document, in the order of the Procedure's fields
PROCEDURE_KEYS = (
    "test",
    "correction",
    "control",
    "options",
    "alpha",
    "bh_budget",
    "omnibus",
    "order",
)
#: the procedure's keys that ``settings`` holds too (they must agree), and their names there
_IN_SETTINGS = {
    "test": "test",
    "correction": "correction",
    "control": "control",
    "options": "test_options",
    "alpha": "alpha",
}


def _write_procedure(part: Any, layout: Layout) -> dict[str, Any] | None:
    proc = part.procedure
    if proc is None:  # built by hand, or read from an older document
        return None
    out = {key: getattr(proc, key) for key in PROCEDURE_KEYS}
    out["options"] = dict(proc.options)
    out["bh_budget"] = None if proc.bh_budget is None else number(proc.bh_budget)
    out["order"] = None if proc.order is None else list(proc.order)
    return out


def _read_procedure(value: Any, layout: Layout) -> dict[str, Any]:
    from .stats._procedure import Procedure

    if value is None:
        return {"procedure": None}
    values = {key: value[key] for key in PROCEDURE_KEYS}
    values["options"] = dict(values["options"])
    values["alpha"] = float(values["alpha"])
    budget = values["bh_budget"]
    values["bh_budget"] = None if budget is None else unnumber(budget)
    values["order"] = None if values["order"] is None else tuple(values["order"])
    return {"procedure": Procedure(**values)}


def _check_procedure(value: Any, key: str, layout: Layout) -> None:
    if value is MISSING or value is None:
        return
    settings = layout.doc.get("settings", {})
    if not isinstance(value, dict) or set(value) != set(PROCEDURE_KEYS):
        raise fail(key, "must be null or an object with the keys " + ", ".join(PROCEDURE_KEYS))
    if any(value[mine] != settings.get(theirs, {}) for mine, theirs in _IN_SETTINGS.items()):
        raise fail(key, "must agree with 'settings' (test, correction, control, options, alpha)")
    budget, order = value["bh_budget"], value["order"]
    if not isinstance(value["omnibus"], str) or not (
        budget is None or (_finite(budget) and budget > 0)
    ):
        raise fail(key, "must have a text omnibus and a positive bh_budget (or null)")
    if order is not None:
        check_names(order, f"{key}.order")


# --------------------------------------------------------------------------- the settings
def _check_test_name(value: Any, key: str, layout: Layout) -> None:
    if not isinstance(None if value is MISSING else value, str):
        raise fail(key, "must be a name (a string)")


def _check_alpha(value: Any, key: str, layout: Layout) -> None:
    if not (_finite(value) and 0 < value < 1):
        raise fail(key, "must be a number in (0, 1)")


def _check_control(value: Any, key: str, layout: Layout) -> None:
    value = "missing" if value is MISSING else value
    if value is not None and (not isinstance(value, str) or value not in layout.algorithms):
        raise fail(key, "must be null or one of 'algorithms'")


def _check_flag(value: Any, key: str, layout: Layout) -> None:
    if not isinstance(value, bool):
        raise fail(key, "must be true or false")


def _check_object(value: Any, key: str, layout: Layout) -> None:
    if not isinstance({} if value is MISSING else value, dict):
        raise fail(key, "must be an object")


def _absent_pvalues(part: Any, layout: Layout) -> Rows:
    k = len(layout.algorithms)
    return Rows(np.full((k, k), np.nan))


def _absent_adjusted(part: Any, layout: Layout) -> Any:
    no_pvalues = np.full(np.shape(part.significant), np.nan)
    if no_pvalues.ndim == 2:
        return Rows(no_pvalues)
    return _series_of(layout.others, no_pvalues)


def _bayes(name: str, kind: dict | None = None) -> dict:
    """A Bayesian key (a number, or the ``kind`` of matrix): null for a frequentist result;
    a document with ``posterior_better`` needs all of them."""

    def check(value: Any, key: str, layout: Layout) -> None:
        if layout.doc.get("posterior_better") is None:
            return
        if value is MISSING or value is None:
            raise fail(key, "is missing, but a Bayesian result needs it")
        if kind is not None:
            kind["check"](value, key, layout)
        elif not is_number(value):
            raise fail(key, "must be a number")

    if kind is not None:
        return {**kind, "check": check}
    return {
        "names": (name,),
        "write": lambda part, layout: number(getattr(part, name)),
        "read": lambda value, layout: {name: None if value is None else unnumber(value)},
        "check": check,
    }


def _strings(name: str) -> dict:
    """A k x k matrix of text (the decisions of a Bayesian test; "" on the diagonal)."""
    return {
        **_matrix(name, "kk", lambda v: v is None or isinstance(v, str)),
        "read": lambda value, layout: {
            name: None if value is None else np.array(value, dtype=object)
        },
    }


def _text_or_null(value: Any, layout: Layout) -> bool:
    return isinstance(value, str)


_check_n_missing = _optional(lambda v, layout: _whole(v, 0, None), "must be an int >= 0")
_check_decimals = _optional(lambda v, layout: isinstance(v, int) and 0 <= v <= 15, "must be 0..15")
_check_cd = _optional(lambda v, layout: is_number(v), "must be a number or null")
_check_text = _optional(_text_or_null, "must be text")
_check_note = _optional(_text_or_null, "must be text or null")


def _int_or_none(value: Any) -> int | None:
    return None if value is None else int(value)


def _float_or_none(value: Any) -> float | None:
    return None if value is None else unnumber(value)


def _number_or_none(value: Any) -> Any:
    return None if value is None else number(value)


def _settings() -> dict:
    """The ``settings`` object: its keys are fields of their own (``settings.test``, ...)."""
    return {
        "names": (),
        "write": lambda result, layout: {},
        "read": lambda value, layout: {},
        "check": _check_object,
    }


def _spec(name: str, write: Callable, read: Callable, check: Callable) -> dict:
    """A field with its own ways of writing, reading and checking."""
    return {"names": (name,), "write": write, "read": read, "check": check}


# --------------------------------------------------------------------------- sampler
#: the keys of one pair's fit in ``diagnostics`` (its layers of the part's ``3 x k x k``)
_DIAGNOSTIC_KEYS = ("rhat", "ess", "divergences")


def _write_diagnostics(part: Any, layout: Layout) -> list[dict[str, Any]] | None:
    """One object per pair fitted (input order): its names, R-hat, ESS and divergences."""
    values = part.diagnostics
    if values is None:
        return None
    names = layout.algorithms
    iu, ju = np.triu_indices(len(names), 1)
    out = []
    for i, j in zip(iu.tolist(), ju.tolist(), strict=True):
        rhat, ess, div = (float(values[layer, i, j]) for layer in range(len(_DIAGNOSTIC_KEYS)))
        if math.isfinite(ess):  # a pair fitted (every fit has an ESS)
            out.append(
                {"algorithm_1": names[i], "algorithm_2": names[j], "rhat": number(rhat),
                 "ess": number(ess), "divergences": int(div)}
            )  # fmt: skip
    return out


def _read_diagnostics(value: Any, layout: Layout) -> dict[str, Any]:
    if value is None:
        return {"diagnostics": None}
    index = {a: i for i, a in enumerate(layout.algorithms)}
    k = len(index)
    values = np.full((len(_DIAGNOSTIC_KEYS), k, k), np.nan)
    for fit in value:
        i, j = index[fit["algorithm_1"]], index[fit["algorithm_2"]]
        cells = [unnumber(fit["rhat"]), unnumber(fit["ess"]), float(fit["divergences"])]
        values[:, i, j] = values[:, j, i] = cells
    return {"diagnostics": values}


def _check_diagnostics(value: Any, key: str, layout: Layout) -> None:
    if value is MISSING or value is None:  # another test, or a document written before
        return
    known = set(layout.algorithms)
    if not isinstance(value, list) or not all(
        isinstance(fit, dict)
        and fit.get("algorithm_1") in known
        and fit.get("algorithm_2") in known
        and fit["algorithm_1"] != fit["algorithm_2"]
        and is_number(fit.get("rhat", "missing"))
        and is_number(fit.get("ess", "missing"))
        and _whole(fit.get("divergences"), 0, None)
        for fit in value
    ):
        raise fail(
            key,
            "must be null or a list of objects with algorithm_1 and algorithm_2 (two names "
            "from 'algorithms'), numbers rhat and ess, and an int divergences >= 0",
        )


# --------------------------------------------------------------------------- one benchmark
#: the design facts of the ``benchmark`` object (fields of the Benchmark part)
_DESIGN_KEYS = (
    "n_items",
    "binary",
    "cluster_robust",
    "confidence",
    "n_clusters",
    "samples_per_item",
    "task",
    "item_column",
    "cluster_column",
    "sample_column",
    "clusters",
    "cluster_ids",
)
#: the statistics of the ``benchmark`` object -> (module of cdplot.stats, class)
_BENCHMARK_STATISTICS = {
    "model_statistics": ("_benchmark_models", "ModelStatistics"),
    "pair_statistics": ("_benchmark_pairs", "PairStatistics"),
}


def _plain_value(value: Any) -> Any:
    """A statistics field as JSON: arrays as (nested) lists (int arrays as ints, floats
    through :func:`number`), numbers, text, flags and null as they are."""
    if isinstance(value, np.ndarray):
        if value.dtype.kind in "iub":
            return value.tolist()
        return np.vectorize(number, otypes=[object])(value).tolist() if value.size else []
    if isinstance(value, (float, np.floating)):
        return number(value)
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, tuple):
        return list(value)
    return value


def _leaves(value: list) -> list:
    out: list = []
    for v in value:
        out += _leaves(v) if isinstance(v, list) else [v]
    return out


def _value_back(value: Any) -> Any:
    """A statistics field from JSON: a list of ints is an int64 array, another list a float
    array (null: NaN); the rest as written."""
    if not isinstance(value, list):
        return value
    leaves = _leaves(value)
    if leaves and all(isinstance(v, int) and not isinstance(v, bool) for v in leaves):
        return np.array(value, dtype=np.int64)
    if leaves and all(isinstance(v, bool) for v in leaves):
        return np.array(value, dtype=bool)
    return np.array([unnumber(v) for v in leaves], dtype=float).reshape(
        np.shape(value) if leaves else (0,)
    )


def _write_benchmark(part: Any, layout: Layout) -> dict[str, Any]:
    out: dict[str, Any] = {key: _plain_value(getattr(part, key)) for key in _DESIGN_KEYS}
    for key in _BENCHMARK_STATISTICS:
        stats = getattr(part, key)
        out[key] = {f.name: _plain_value(getattr(stats, f.name)) for f in dataclasses.fields(stats)}
    return out


def _read_benchmark(value: Any, layout: Layout) -> dict[str, Any]:
    from dataclasses import fields
    from importlib import import_module

    if value is None:
        return {}
    out = {key: value.get(key) for key in _DESIGN_KEYS}
    out["confidence"] = float(out["confidence"])
    out["clusters"] = None if out["clusters"] is None else np.array(out["clusters"], np.int64)
    out["cluster_ids"] = tuple(out["cluster_ids"] or ())
    for key, (module, name) in _BENCHMARK_STATISTICS.items():
        kind = getattr(import_module(f".stats.{module}", __package__), name)
        given = value[key]
        known = {f.name for f in fields(kind)}
        out[key] = kind(**{k: _value_back(v) for k, v in given.items() if k in known})
    return out


def _check_benchmark(value: Any, key: str, layout: Layout) -> None:
    if value is MISSING or value is None:
        return
    if not isinstance(value, dict) or not all(k in value for k in _DESIGN_KEYS):
        raise fail(key, "must be null or an object with " + ", ".join(_DESIGN_KEYS))
    if not _whole(value["n_items"], 1, None) or value["n_items"] != len(layout.datasets):
        raise fail(key, "must have n_items equal to the number of 'datasets' (the items)")
    if not (_flag(value["binary"]) and _flag(value["cluster_robust"])):
        raise fail(key, "must have true or false binary and cluster_robust")
    if not (_finite(value["confidence"]) and 0 < value["confidence"] < 1):
        raise fail(key, "must have a confidence in (0, 1)")
    clusters, ids = value["clusters"], value["cluster_ids"]
    if clusters is not None and not (
        isinstance(clusters, list)
        and len(clusters) == value["n_items"]
        and isinstance(ids, list)
        and all(_whole(c, 0, len(ids) - 1) for c in clusters)
    ):
        raise fail(key, "must have null clusters or one cluster code (into cluster_ids) per item")
    k = len(layout.algorithms)
    for name, shape in (("model_statistics", (k,)), ("pair_statistics", (k, k))):
        stats = value.get(name)
        if not isinstance(stats, dict) or not isinstance(stats.get("pvalues", []), list):
            raise fail(key, f"must have an object {name}")
        for field_name, cell in stats.items():
            if isinstance(cell, list) and np.shape(cell) != shape:
                raise fail(f"{key}.{name}.{field_name}", f"must have the shape {shape}")
            if isinstance(cell, list) and not all(is_number(v) for v in _leaves(cell)):
                raise fail(f"{key}.{name}.{field_name}", "has a cell that is not a number")


#: every field of the document, in the document's order (after format, format_version and
#: cdplot_version); the rank intervals and effect sizes computed on a result follow them
FIELDS: tuple[Field, ...] = (
    Field("settings", None, **_settings()),
    Field("settings.test", "_pairwise", **_plain("test", _check_test_name)),
    Field("settings.correction", "_pairwise", **_plain("correction", _check_test_name)),
    Field("settings.alpha", "_pairwise", **_plain("alpha", _check_alpha, float)),
    Field("settings.control", "_pairwise", **_plain("control", _check_control)),
    Field("settings.higher_is_better", "_input", **_plain("higher_is_better", _check_flag, bool)),
    Field(
        "settings.test_options",
        "_pairwise",
        default={},
        **_plain("test_options", _check_object, dict),
    ),
    Field(
        "procedure",
        "_pairwise",
        default=None,
        **_spec("procedure", _write_procedure, _read_procedure, _check_procedure),
    ),
    Field("algorithms", "_input", **_names("algorithms", unique=True, cast=list)),
    Field("datasets", "_input", **_names("datasets", unique=True, cast=list)),
    Field("scores", "_input", **_matrix("scores", "nk")),
    Field(
        "ranks",
        "_ranking",
        **_spec(
            "ranks",
            _write_ranks,
            lambda value, layout: {"ranks": _rows_back(value)},
            _matrix("ranks", "nk")["check"],
        ),
    ),
    Field("average_ranks", "_ranking", **_ordered("average_ranks", "rank_order", "rank_name")),
    Field("friedman", "_omnibus", **_omnibus("friedman")),
    Field("iman_davenport", "_omnibus", **_omnibus("iman_davenport")),
    Field("omnibus", "_omnibus", default=None, **_omnibus("omnibus")),
    Field("n_missing", "_input", default=0, **_plain("n_missing", _check_n_missing, int, int)),
    Field("ignored_datasets", "_input", default=[], **_names("ignored_datasets")),
    Field("dropped_datasets", "_input", default=[], **_names("dropped_datasets")),
    Field("dropped_algorithms", "_input", default=[], **_names("dropped_algorithms")),
    Field("labels", "_input", default={}, **_plain("labels", _check_labels, dict)),
    Field(
        "input_notes",
        None,
        default=[],
        **_spec(
            "input_notes",
            lambda result, layout: list(result.input_notes),
            lambda value, layout: {},  # rebuilt from the input fields
            lambda value, key, layout: check_names(value, key, unique=False),
        ),
    ),
    Field("source_note", "_input", default=None, **_plain("source_note", _check_note)),
    Field(
        "aggregation",
        "_input",
        default=None,
        **_spec(
            "aggregation",
            _write_aggregation,
            _read_aggregation,
            _optional(_aggregation_ok, "is damaged"),
        ),
    ),
    Field("score_std", "_input", default=None, **_matrix("score_std", "nk", optional=True)),
    Field("costs", "_input", default=None, **_matrix("costs", "nk", optional=True)),
    Field("cost_name", "_input", default=None, **_plain("cost_name", _check_note)),
    Field("decimals", "_input", default=None, **_plain("decimals", _check_decimals, _int_or_none)),
    Field("n_per_pair", "_pairwise", default=None, **_matrix("n_per_pair", "kk", optional=True)),
    Field(
        "statistics",
        "_pairwise",
        absent=lambda part, layout: Rows(part.posterior_better),
        **_matrix("statistics", "kk"),
    ),
    Field("pvalues", "_pairwise", absent=_absent_pvalues, **_matrix("pvalues", "kk")),
    Field(
        "adjusted_pvalues",
        "_pairwise",
        absent=_absent_adjusted,
        **_per_pair("adjusted_pvalues", flags=False),
    ),
    Field("significant", "_pairwise", **_per_pair("significant", flags=True)),
    Field(
        "groups",
        "_groups",
        **_spec(
            "groups",
            lambda part, layout: [list(g) for g in part.groups],
            lambda value, layout: {"groups": tuple(tuple(g) for g in value)},
            _check_groups,
        ),
    ),
    Field(
        "uncovered_pairs",
        "_groups",
        **_spec(
            "uncovered_pairs",
            lambda part, layout: [list(p) for p in part.uncovered_pairs],
            lambda value, layout: {"uncovered_pairs": tuple((a, b) for a, b in value)},
            _check_pairs,
        ),
    ),
    Field(
        "critical_difference",
        "_pairwise",
        **_plain("critical_difference", _check_cd, _float_or_none, _number_or_none),
    ),
    Field(
        "critical_difference_units",
        "_pairwise",
        default="rank",
        **_plain("critical_difference_units", _check_text),
    ),
    Field("mean_scores", "_parametric", default=None, **_ordered("mean_scores", "mean_order")),
    Field("rope", "_pairwise", default=None, **_bayes("rope")),
    Field("threshold", "_pairwise", default=None, **_bayes("threshold")),
    Field(
        "posterior_better",
        "_pairwise",
        default=None,
        **_bayes("posterior_better", _matrix("posterior_better", "kk")),
    ),
    Field(
        "posterior_equivalent",
        "_pairwise",
        default=None,
        **_bayes("posterior_equivalent", _matrix("posterior_equivalent", "kk")),
    ),
    Field("decisions", "_pairwise", default=None, **_bayes("decisions", _strings("decisions"))),
    Field(
        "diagnostics",
        "_pairwise",
        default=None,
        **_spec("diagnostics", _write_diagnostics, _read_diagnostics, _check_diagnostics),
    ),
    Field(
        "benchmark",
        "_benchmark",
        default=None,
        **{
            **_spec("benchmark", _write_benchmark, _read_benchmark, _check_benchmark),
            "names": (
                "n_items",
                *(k for k in _DESIGN_KEYS if k != "n_items"),
                *_BENCHMARK_STATISTICS,
            ),
        },  # fmt: skip
    ),
)


def check_fields(doc: dict[str, Any]) -> Layout:
    """Check every field of ``doc`` (type, shape, agreement); the layout it is read over.

    Raises
    ------
    CdplotInputError
        Naming the first field missing or damaged.
    """
    for key in ("settings", "algorithms", "datasets", "scores", "ranks", "average_ranks"):
        if key not in doc:
            raise CdplotInputError(
                f"not a complete cdplot JSON result: the field {key!r} is missing."
            )
    algorithms = check_names(doc["algorithms"], "algorithms")
    datasets = check_names(doc["datasets"], "datasets")
    settings = doc["settings"]
    control = settings.get("control") if isinstance(settings, dict) else None
    layout = Layout(algorithms, datasets, control, doc)
    for f in FIELDS:
        owner, last = f.place(doc)
        f.check(owner.get(last, MISSING), f.key, layout)
    return layout

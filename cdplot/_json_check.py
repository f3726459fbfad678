"""Checking a cdplot JSON document before a result is rebuilt from it.

:func:`checked_document` parses the text (deep nesting is refused, not a ``RecursionError``)
and checks every field's type and shape and the fields' agreement with each other (the
matrices are k x k or N x k for the document's k algorithms and N datasets, names are
unique, groups and pairs name algorithms), so that a damaged document is refused with a
:class:`~cdplot.CdplotInputError` naming the field, and never gives a result that fails
later. :func:`load_result` is the public reader (a path, JSON text or a parsed document).

Layer 4 (below :mod:`cdplot._json`, which calls it): imports the error family; the result
is rebuilt by :func:`cdplot._json.result_from_json`, imported when called.
"""

from __future__ import annotations

import json
import math
import os
import sys
from collections.abc import Callable, Mapping
from typing import Any

from ._errors import CdplotInputError

__all__ = ["checked_document", "load_result"]

FORMAT = "cdplot-comparison"
FORMAT_VERSION = 1
#: Nesting deeper than this is not a cdplot document (it has at most 4 levels).
MAX_DEPTH = 32


class _Damaged(CdplotInputError):
    """A field of the document has the wrong type or shape."""


def _fail(field: str, what: str) -> _Damaged:
    return _Damaged(f"not a valid cdplot JSON result: {field!r} {what}.")


def _depth_ok(text: str) -> bool:
    """Whether brackets outside strings nest at most :data:`MAX_DEPTH` deep."""
    depth = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                return False
        elif ch in "]}":
            depth -= 1
    return True


def checked_document(text: Any) -> dict[str, Any]:
    """Parse and check the JSON text (or an already parsed document) of one result.

    Raises
    ------
    CdplotInputError
        If it is not JSON, not a cdplot result, from a newer format version, or a field
        is missing, of the wrong type or shape, or disagrees with another field.
    """
    if isinstance(text, (str, bytes, bytearray)):
        if isinstance(text, (bytes, bytearray)):
            text = bytes(text).decode("utf-8", errors="replace")
        if not _depth_ok(text):
            raise CdplotInputError(
                f"not a cdplot JSON result: it nests deeper than {MAX_DEPTH} levels."
            )
        doc = _loads(text)
    else:
        doc = text
        _refuse_big_integers(doc)
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise CdplotInputError("not a cdplot JSON result (missing 'format': 'cdplot-comparison').")
    version = doc.get("format_version")
    if isinstance(version, bool) or not isinstance(version, int) or version > FORMAT_VERSION:
        from ._version import __version__

        raise CdplotInputError(
            f"cdplot JSON format_version {version!r} is not supported by cdplot {__version__} "
            f"(it reads versions up to {FORMAT_VERSION}); upgrade cdplot."
        )
    _check_fields(doc)
    return doc


def _loads(text: str) -> Any:
    """Parse JSON text; an integer beyond the range of a float is refused, naming its field."""
    big = []

    def parse_int(digits: str) -> int:
        value = int(digits)
        if len(digits) > _FLOAT_DIGITS and abs(value) > sys.float_info.max:
            big.append(value)
        return value

    try:
        doc = json.loads(text, parse_int=parse_int)
    except (ValueError, RecursionError) as exc:  # ValueError: also an over-long integer
        raise CdplotInputError(f"not a cdplot JSON result: {exc}.") from None
    if big:
        _refuse_big_integers(doc)
    return doc


#: A float's largest finite value has 309 digits: a shorter integer always fits.
_FLOAT_DIGITS = 308


def _refuse_big_integers(doc: Any) -> None:
    """Refuse the first integer of ``doc`` beyond the range of a float, naming where it is."""
    stack: list[tuple[str, Any]] = [("", doc)]
    while stack:
        where, value = stack.pop()
        if isinstance(value, dict):
            stack += [(f"{where}.{k}" if where else str(k), v) for k, v in value.items()]
        elif isinstance(value, list):
            stack += [(f"{where}[{i}]", v) for i, v in enumerate(value)]
        elif (
            isinstance(value, int)
            and not isinstance(value, bool)
            and abs(value) > sys.float_info.max
        ):
            raise _fail(where or "the document", "is an integer beyond the range of a float")


# --------------------------------------------------------------------------- value checks
def _is_number(v: Any) -> bool:
    """A number as the writer puts it: a float, null (NaN) or "inf"/"-inf"."""
    if v is None:
        return True
    if isinstance(v, str):
        return v in ("inf", "-inf", "Infinity", "-Infinity", "nan", "NaN")
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _finite(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def _names(doc: dict[str, Any], field: str, *, unique: bool = True) -> list[str]:
    value = doc.get(field, [])
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise _fail(field, "must be a list of names (strings)")
    if unique and len(set(value)) != len(value):
        raise _fail(field, "has a name twice; every name must be unique")
    return value


def _matrix(
    doc: dict[str, Any], field: str, shape: tuple[int, int], cell: Callable[[Any], bool]
) -> None:
    value = doc.get(field)
    rows, cols = shape
    if (
        not isinstance(value, list)
        or len(value) != rows
        or not all(isinstance(r, list) and len(r) == cols for r in value)
    ):
        raise _fail(field, f"must be a {rows} x {cols} matrix (a list of {rows} rows)")
    if not all(cell(v) for r in value for v in r):
        raise _fail(field, "has a cell of the wrong type")


def _keyed(doc: dict[str, Any], field: str, keys: list[str] | None, cell: Any) -> list[str]:
    value = doc.get(field)
    if not isinstance(value, dict) or not all(cell(v) for v in value.values()):
        raise _fail(field, "must be an object of algorithm name -> value")
    if keys is not None and (len(value) != len(keys) or set(value) != set(keys)):
        raise _fail(field, "must have one entry per algorithm of 'algorithms'")
    return list(value)


def _omnibus(doc: dict[str, Any], field: str) -> None:
    value = doc.get(field)
    if value is None:
        return
    df = value.get("df") if isinstance(value, dict) else None
    ok = (
        isinstance(value, dict)
        and _is_number(value.get("statistic"))
        and _is_number(value.get("pvalue"))
        and isinstance(value.get("name", ""), str)
        and (_is_number(df) or (isinstance(df, list) and all(_is_number(d) for d in df)))
    )
    if not ok:
        raise _fail(field, "must be null or an object with a numeric statistic, pvalue and df")


def _optional(doc: dict[str, Any], field: str, check: Callable[[Any], bool], what: str) -> None:
    if field in doc and doc[field] is not None and not check(doc[field]):
        raise _fail(field, what)


def _check_fields(doc: dict[str, Any]) -> None:
    """Every field's type and shape, and the fields' agreement (see the module docstring)."""
    for field in ("settings", "algorithms", "datasets", "scores", "ranks", "average_ranks"):
        if field not in doc:
            raise CdplotInputError(
                f"not a complete cdplot JSON result: the field {field!r} is missing."
            )
    algorithms = _names(doc, "algorithms")
    datasets = _names(doc, "datasets")
    k, n = len(algorithms), len(datasets)
    known = set(algorithms)
    _check_settings(doc, known)
    number, flag = _is_number, lambda v: isinstance(v, bool)
    for field in ("scores", "ranks"):
        _matrix(doc, field, (n, k), number)
    _keyed(doc, "average_ranks", algorithms, number)
    for field in ("statistics", "pvalues"):
        _matrix(doc, field, (k, k), number)
    for field in ("friedman", "iman_davenport", "omnibus"):
        _omnibus(doc, field)
    if doc["settings"]["control"] is None:
        _matrix(doc, "adjusted_pvalues", (k, k), number)
        _matrix(doc, "significant", (k, k), flag)
    else:
        others = _keyed(doc, "adjusted_pvalues", None, number)
        if not set(others) <= known or _keyed(doc, "significant", None, flag) != others:
            raise _fail("significant", "must name the same algorithms as 'adjusted_pvalues'")
    for field, shape in (("score_std", (n, k)), ("n_per_pair", (k, k))):
        if doc.get(field) is not None:
            _matrix(doc, field, shape, number)
    _check_lists(doc, known)
    _check_bayes(doc, k)
    if doc.get("mean_scores") is not None:
        _keyed(doc, "mean_scores", algorithms, number)
    _optional(doc, "critical_difference", _is_number, "must be a number or null")
    _optional(doc, "decimals", lambda v: isinstance(v, int) and 0 <= v <= 15, "must be 0..15")
    _optional(doc, "n_missing", lambda v: isinstance(v, int) and v >= 0, "must be an int >= 0")
    _optional(doc, "critical_difference_units", lambda v: isinstance(v, str), "must be text")
    _optional(doc, "source_note", lambda v: isinstance(v, str), "must be text or null")
    _optional(doc, "aggregation", lambda v: _aggregation_ok(v, datasets, algorithms), "is damaged")


def _check_settings(doc: dict[str, Any], known: set[str]) -> None:
    settings = doc["settings"]
    if not isinstance(settings, dict):
        raise _fail("settings", "must be an object")
    for key in ("test", "correction"):
        if not isinstance(settings.get(key), str):
            raise _fail(f"settings.{key}", "must be a name (a string)")
    alpha = settings.get("alpha")
    if not (_finite(alpha) and 0 < alpha < 1):
        raise _fail("settings.alpha", "must be a number in (0, 1)")
    if not isinstance(settings.get("higher_is_better"), bool):
        raise _fail("settings.higher_is_better", "must be true or false")
    control = settings.get("control", "missing")
    if control is not None and (not isinstance(control, str) or control not in known):
        raise _fail("settings.control", "must be null or one of 'algorithms'")
    if not isinstance(settings.get("test_options", {}), dict):
        raise _fail("settings.test_options", "must be an object")


def _check_lists(doc: dict[str, Any], known: set[str]) -> None:
    for field in ("ignored_datasets", "dropped_datasets", "dropped_algorithms", "input_notes"):
        _names(doc, field, unique=False)
    groups = doc.get("groups")
    if not isinstance(groups, list) or not all(
        isinstance(g, list) and g and all(isinstance(a, str) and a in known for a in g)
        for g in groups
    ):
        raise _fail("groups", "must be a list of lists of names from 'algorithms'")
    pairs = doc.get("uncovered_pairs")
    if not isinstance(pairs, list) or not all(
        isinstance(p, list) and len(p) == 2 and all(isinstance(a, str) and a in known for a in p)
        for p in pairs
    ):
        raise _fail("uncovered_pairs", "must be a list of [name, name] pairs from 'algorithms'")
    labels = doc.get("labels", {})
    if not isinstance(labels, dict) or not all(isinstance(v, str) for v in labels.values()):
        raise _fail("labels", "must be an object of algorithm name -> label (a string)")


def _check_bayes(doc: dict[str, Any], k: int) -> None:
    fields = ("posterior_better", "posterior_equivalent", "decisions", "rope", "threshold")
    if doc.get("posterior_better") is None:
        return
    for field in fields:
        if doc.get(field) is None:
            raise _fail(field, "is missing, but a Bayesian result needs it")
    _matrix(doc, "posterior_better", (k, k), _is_number)
    _matrix(doc, "posterior_equivalent", (k, k), _is_number)
    _matrix(doc, "decisions", (k, k), lambda v: v is None or isinstance(v, str))
    for field in ("rope", "threshold"):
        if not _is_number(doc[field]):
            raise _fail(field, "must be a number")


def _whole(v: Any, lo: int, hi: int | None) -> bool:
    """An int (not a bool) from ``lo`` to ``hi`` (no bound if None)."""
    return isinstance(v, int) and not isinstance(v, bool) and lo <= v and (hi is None or v <= hi)


def _aggregation_ok(value: Any, datasets: list[str], algorithms: list[str]) -> bool:
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


# --------------------------------------------------------------------------- public reader
def load_result(path_or_doc: Any) -> Any:
    """Read a :class:`~cdplot.ComparisonResult` saved as JSON (``cdplot compare --json``).

    Parameters
    ----------
    path_or_doc : str, os.PathLike, file object or mapping
        The path of a JSON file, an open file, the JSON text itself (a string starting
        with ``{``), or the parsed document (a dict).

    Returns
    -------
    ComparisonResult
        The result as :func:`cdplot.compare` returned it: its summary, tables and figures
        are those of the original.

    Raises
    ------
    CdplotInputError
        If the file cannot be read, or the document is not a cdplot result, is from a
        newer format, or is damaged (the message names the field).

    Examples
    --------
    >>> import cdplot
    >>> res = cdplot.compare(cdplot.datasets.load("demsar2006"))
    >>> cdplot.load_result(res.to_json()) == res
    True
    """
    from ._json import result_from_json

    if isinstance(path_or_doc, Mapping):
        return result_from_json(json.dumps(path_or_doc, allow_nan=False))
    if hasattr(path_or_doc, "read"):
        return result_from_json(path_or_doc.read())
    if isinstance(path_or_doc, str) and path_or_doc.lstrip().startswith("{"):
        return result_from_json(path_or_doc)
    if not isinstance(path_or_doc, (str, os.PathLike)):
        raise CdplotInputError(
            f"load_result() takes a path, JSON text or a parsed document (dict), got "
            f"{type(path_or_doc).__name__}."
        )
    try:
        with open(path_or_doc, encoding="utf-8") as fh:
            text = fh.read()
    except (OSError, UnicodeDecodeError) as exc:
        raise CdplotInputError(
            f"cannot read the JSON result {str(path_or_doc)!r}: {exc}."
        ) from None
    return result_from_json(text)

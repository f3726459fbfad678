"""Checking a cdplot JSON document before a result is rebuilt from it.

:func:`checked_document` parses the text (deep nesting is refused, not a ``RecursionError``)
and checks every field's type and shape and the fields' agreement with each other
(:func:`cdplot._json_fields.check_fields`: the
matrices are k x k or N x k for the document's k algorithms and N datasets, names are
unique, groups and pairs name algorithms), so that a damaged document is refused with a
:class:`~cdplot.CdplotInputError` naming the field, and never gives a result that fails
later. :func:`load_result` is the public reader (a path, JSON text or a parsed document).

Layer 4 (below :mod:`cdplot._json`, which calls it): imports the error family and the
description of the fields (:mod:`cdplot._json_fields`, whose checks it runs); the result is
rebuilt by :func:`cdplot._json.result_from_json`, imported when called.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ._errors import CdplotInputError
from ._json_fields import check_fields, fail

if TYPE_CHECKING:  # pragma: no cover
    from .stats._results import Comparison

__all__ = ["checked_document", "load_result"]

FORMAT = "cdplot-comparison"
FORMAT_VERSION = 1
#: Nesting deeper than this is not a cdplot document (it has at most 4 levels).
MAX_DEPTH = 32


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
    check_fields(doc)
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
            raise fail(where or "the document", "is an integer beyond the range of a float")


# --------------------------------------------------------------------------- public reader
def load_result(path_or_doc: Any) -> Comparison:
    """Read a comparison result saved as JSON (``cdplot compare --json``).

    Parameters
    ----------
    path_or_doc : str, os.PathLike, file object or mapping
        The path of a JSON file, an open file, the JSON text itself (a string starting
        with ``{``), or the parsed document (a dict).

    Returns
    -------
    Comparison
        The result as :func:`cdplot.compare` returned it (a :class:`~cdplot.ComparisonResult`
        or a :class:`~cdplot.BayesianComparisonResult`, with its ``procedure``): its summary,
        tables and figures are those of the original.

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

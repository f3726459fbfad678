"""Cells -> numbers and names, refusing anything that is not a real number, naming the cell."""

from __future__ import annotations

import math
import numbers
import re
from collections.abc import Callable
from decimal import Decimal
from typing import Any

import numpy as np

from .._errors import CdplotInputError

__all__ = ["EXACT_INTEGER", "check_exact_integers", "to_names", "to_scores"]

_PERCENT = re.compile(r"^\s*[+-]?[\d.,' ]*\d[\d.,' ]*\s*%\s*$")
_GROUPED = re.compile(r"^\s*[+-]?\d{1,3}(?:[,.' \u00a0\u202f]\d{3})+(?:[.,]\d*)?\s*$")
_DECIMAL_COMMA = re.compile(r"^\s*[+-]?\d*,\d+\s*$")
_PLAIN = re.compile(r"^\s*[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?\s*$")


def _is_missing(v: Any) -> bool:
    if v is None:
        return True
    if type(v).__name__ in ("NAType", "NaTType"):
        return True
    return isinstance(v, float) and v != v


def _infinite_input(v: Any) -> bool:
    if isinstance(v, Decimal):
        return v.is_infinite()
    return isinstance(v, (float, np.floating)) and math.isinf(v)


_PLAIN_COMMA = re.compile(r"^\s*[+-]?(?:\d+,?\d*|,\d+)(?:[eE][+-]?\d+)?\s*$")


def _text_number(v: str, decimal: str | None) -> float | None:
    """A number written in a file's text cell (with the file's decimal separator), or None."""
    if decimal == "." and _PLAIN.match(v):
        return float(v)
    if decimal == "," and _PLAIN_COMMA.match(v):
        return float(v.replace(",", "."))
    return None


_PLUS_MINUS = re.compile(r"\d\s*(?:\u00b1|\+/-|\+-)\s*[\d.]")
#: Integers beyond this lose their last digits as floats (2**53 and 2**53 + 1 tie).
EXACT_INTEGER = 2**53


def _string_problem(v: str, column: Any, decimal: str | None = None) -> str:
    if _PLUS_MINUS.search(v):
        return (
            "is a score with \u00b1; keep the mean in one column (and the std in another), "
            "one number per cell"
        )
    if decimal == "," and "." in v and not _PERCENT.match(v) and any(c.isdigit() for c in v):
        return (
            "has a decimal point in a file with decimal commas (a thousands separator?); "
            "write plain numbers with a decimal comma (1234,5)"
        )
    if _PERCENT.match(v):
        return "has a percent sign; write scores as plain numbers (85.2 or 0.852)"
    if _PLAIN.match(v):  # "0.875" as text: a plain number, not a thousands separator
        return (
            f"is text, not a number; convert the column first "
            f"(df[{str(column)!r}] = pd.to_numeric(df[{str(column)!r}]))"
        )
    if _GROUPED.match(v) or _DECIMAL_COMMA.match(v):
        return (
            "has a thousands separator or a decimal comma; write plain numbers with a "
            "decimal point (1234.5), or save the file ';'-separated with decimal commas "
            "throughout"
        )
    return "is not a number"


def _dtype_problem(dtype: Any) -> str | None:
    """Why a column of this dtype cannot hold scores, or None if it can (or may)."""
    kind = getattr(dtype, "kind", "O")
    name = str(dtype)
    if kind == "b" or name == "boolean":
        return "booleans"
    if kind in "mM" or name.startswith(("datetime", "timedelta", "period")):
        return f"{name} values (dates or durations)"
    if kind == "c":
        return "complex numbers"
    if name in ("category", "interval") or name.startswith("interval"):
        return f"{name} values"
    if kind in "iuf":
        return None
    if kind in "OUST" or name in ("string", "str") or name.startswith("string"):
        return None
    return f"{name} values"


def to_scores(
    values: Any,
    column: Any,
    where: Callable[[int], str],
    *,
    hint: str = "",
    decimal: str | None = None,
) -> np.ndarray:
    """A column of scores as float64 (missing -> NaN), or an error naming the first bad cell.

    Real numbers of any kind are accepted (Python and numpy ints and floats, pandas nullable
    numbers, :class:`~decimal.Decimal`, :class:`~fractions.Fraction`); missing values
    (None, NaN, ``pd.NA``) become NaN. Booleans, dates, durations, complex numbers and text
    (numbers written as text included) are refused.

    Parameters
    ----------
    values : array-like or pandas.Series
        The column.
    column : Any
        Its name, for messages.
    where : callable
        Row position -> description of the cell ("dataset 'd3'").
    hint : str, optional
        Appended to the message for a column of text.
    decimal : {None, ".", ","}
        For text read from a file: the file's decimal separator, so that a plain number
        in a text cell is a number. None (data frames): text is never a score.
    """
    dtype = getattr(values, "dtype", None)
    if dtype is None:
        values = np.asarray(values, dtype=object)
        dtype = values.dtype
    problem = _dtype_problem(dtype)
    if problem is not None:
        raise CdplotInputError(
            f"column {str(column)!r} holds {problem}, not scores; scores must be real "
            f"numbers (e.g. accuracy, error, time)."
        )
    kind = getattr(dtype, "kind", "O")
    if kind in "iu":
        check_exact_integers(values, column, where)
    if kind in "iuf" and isinstance(dtype, np.dtype):
        return np.asarray(values, dtype=float)
    if kind in "iuf" or str(dtype) in ("Int8", "Int16", "Int32", "Int64", "Float32", "Float64"):
        # pandas nullable numbers: pd.NA -> NaN
        return np.asarray(values.to_numpy(dtype=float, na_value=np.nan), dtype=float)
    cells = values.tolist() if hasattr(values, "tolist") else list(values)
    out = np.empty(len(cells), dtype=float)
    for pos, v in enumerate(cells):
        if _is_missing(v):
            out[pos] = np.nan
            continue
        reason = None
        if isinstance(v, (bool, np.bool_)):
            reason = "is a boolean"
        elif isinstance(v, (numbers.Real, Decimal)):
            try:
                f = float(v)
            except (ValueError, OverflowError):
                reason = "cannot be represented as a float"
            else:
                if math.isinf(f) and not _infinite_input(v):
                    reason = "is too large for a float"
                elif isinstance(v, numbers.Integral) and abs(int(v)) > EXACT_INTEGER:
                    reason = _TOO_BIG
                else:
                    out[pos] = f
                    continue
        elif isinstance(v, str):
            number = _text_number(v, decimal) if decimal else None
            if number is not None:
                out[pos] = number
                continue
            reason = _string_problem(v, column, decimal)
        else:
            reason = f"is a {type(v).__name__}, not a real number"
        if reason is not None:
            suffix = f" {hint}" if hint and reason == "is not a number" else ""
            raise CdplotInputError(
                f"non-numeric score {_shown(v)} in column {str(column)!r} ({where(pos)}): it "
                f"{reason}.{suffix}"
            )
    return out


def _shown(v: Any) -> str:
    """``repr(v)``, shortened: an integer of 400 digits is named by its length."""
    if isinstance(v, numbers.Integral) and abs(int(v)) >= 10**30:
        digits = int(abs(int(v)).bit_length() * math.log10(2)) + 1
        return f"{'-' if v < 0 else ''}(an integer of about {digits} digits)"
    text = repr(v)
    return text if len(text) <= 60 else text[:57] + "..."


_TOO_BIG = (
    f"is an integer beyond 2**53 ({EXACT_INTEGER}), which a float cannot hold exactly (so "
    f"2**53 and 2**53 + 1 would tie); rescale the scores (e.g. divide by 1000) or subtract "
    f"a common offset"
)


def check_exact_integers(values: Any, column: Any, where: Callable[[int], str]) -> None:
    """Refuse integer scores that float64 (the ranks' type) cannot hold exactly."""
    arr = np.asarray(values.to_numpy() if hasattr(values, "to_numpy") else values)
    if arr.dtype.kind not in "iu" or not arr.size:
        return
    big = (arr > EXACT_INTEGER) | ((arr < -EXACT_INTEGER) if arr.dtype.kind == "i" else False)
    if big.any():
        pos = int(np.flatnonzero(big)[0])
        raise CdplotInputError(
            f"score {int(arr[pos])} in column {str(column)!r} ({where(pos)}) {_TOO_BIG}."
        )


def to_names(values: Any, column: Any, what: str, text: list[str] | None = None) -> list[str]:
    """A column of dataset or algorithm names as strings; an empty cell is refused.

    ``text`` (a file's cells as written) wins over ``values``: names are text, so ``001``
    stays ``001`` and ``NA`` is a name; only an empty cell is missing.
    """
    if text is not None:
        cells: list[Any] = text
    else:
        cells = values.tolist() if hasattr(values, "tolist") else list(values)
    out = []
    for pos, v in enumerate(cells):
        if _is_missing(v) or (text is not None and v == ""):
            which = (
                " (in a file only an empty cell is a missing name: NA, None and nan are names)"
                if text is not None
                else ""
            )
            raise CdplotInputError(
                f"the {what} column {str(column)!r} is empty in row {pos}{which}; every "
                f"row needs {'an' if what[0] in 'aeiou' else 'a'} {what} name."
            )
        out.append(str(v))
    return out

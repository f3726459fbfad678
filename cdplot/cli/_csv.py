"""Every CSV file cdplot writes, safe to open in a spreadsheet.

A spreadsheet reads a cell that begins with ``=``, ``+``, ``-`` or ``@`` as a formula, and
some read one that begins with a tab or a carriage return the same way: an algorithm named
``=HYPERLINK(...)`` would become a live formula (CSV or formula injection; OWASP's advice
is followed). :func:`csv_bytes` writes such a *text* cell (and such a column name) with a
leading apostrophe, ``'=HYPERLINK(...)``, which the spreadsheet shows as the text it is.
Numbers are written as numbers: a negative score stays ``-0.5``. The interactive page's
CSV download applies the same rule in the browser.

Layer 5 (cli): pandas is imported by the callers' data frames, not here.
"""

from __future__ import annotations

from typing import Any

__all__ = ["FORMULA_STARTS", "csv_bytes", "neutralise_cell"]

#: First characters that make a spreadsheet read a text cell as a formula.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def neutralise_cell(value: Any) -> Any:
    """``value`` with a leading apostrophe if it is text a spreadsheet would run.

    Parameters
    ----------
    value : object
        A cell. Only ``str`` cells change; numbers, booleans and missing values do not.

    Returns
    -------
    object
        ``"'" + value`` for text beginning with one of :data:`FORMULA_STARTS`, else ``value``.

    Examples
    --------
    >>> neutralise_cell("=1+1"), neutralise_cell("-A"), neutralise_cell(-0.5)
    ("'=1+1", "'-A", -0.5)
    """
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def csv_bytes(frame: Any) -> bytes:
    """A data frame as UTF-8 CSV (no index), every formula-like text cell neutralised.

    Lines end in CRLF, as RFC 4180 writes them; a cell with a line break is quoted.

    Parameters
    ----------
    frame : pandas.DataFrame
        The table to write; numeric and boolean columns are written unchanged.

    Returns
    -------
    bytes
        The CSV text, encoded as UTF-8.

    Examples
    --------
    >>> import pandas as pd
    >>> csv_bytes(pd.DataFrame({"a": ["=cmd", "B"], "score": [-0.5, 1.0]})).decode()
    "a,score\\r\\n'=cmd,-0.5\\r\\nB,1.0\\r\\n"
    """
    from pandas.api.types import is_bool_dtype, is_numeric_dtype

    safe = frame.copy()
    for column in safe.columns:
        values = safe[column]
        if not (is_numeric_dtype(values.dtype) or is_bool_dtype(values.dtype)):
            safe[column] = values.astype(object).map(neutralise_cell)
    safe.columns = [neutralise_cell(c) for c in safe.columns]
    # CRLF line ends (RFC 4180): a cell holding a carriage return or a line feed is then
    # quoted, so a name with a line break never splits its row
    return safe.to_csv(index=False, lineterminator="\r\n").encode("utf-8")

"""Reading results files: CSV/TSV dialects into named columns, without pandas.

:func:`read_columns` turns a file (path, open text file or standard input) into an ordered
mapping of column name -> numpy array, using only :mod:`csv` and numpy, so that a caller that
never needs a DataFrame never imports pandas. :func:`parse_scores` reads a file into a
:class:`~cdplot.io._columns.ColumnTable` of these columns (:func:`file_table`);
:func:`read_table` wraps them in a pandas DataFrame for users who want one.

Dialects
--------
- The delimiter is the most frequent of tab, ``,`` and ``;`` in the header line.
- ``;``-separated files may use a decimal comma (European spreadsheet exports): when a
  numeric-looking cell of a ``;`` file has a comma between digits, the file's decimal
  separator is the comma, and a cell written with a point (``1.234``) is refused as a
  thousands separator. Other files use the decimal point.
- Numbers are converted column by column: all cells integers -> int64 (so numeric dataset
  ids stay ``3``, not ``3.0``); all cells numbers or missing (empty, ``NA``, ``NaN``, ...)
  -> float64; otherwise the cells stay text (and a score column of text is refused later,
  naming the cell: a percent sign, a thousands separator, a word).
- Duplicate header names are refused here, before any library renames them.
- A header one field shorter than every data row (R's ``write.table``) gets an empty first
  name: the row names.
"""

from __future__ import annotations

import csv
import io
import os
import re
from pathlib import Path
from typing import Any

import numpy as np

from .._errors import CdplotInputError
from ._columns import ColumnTable, duplicated

__all__ = ["NA_TOKENS", "read_columns", "read_table"]

#: Cells read as missing values (pandas' default ``na_values``).
NA_TOKENS = frozenset(
    {
        "",
        "#N/A",
        "#N/A N/A",
        "#NA",
        "-1.#IND",
        "-1.#QNAN",
        "-NaN",
        "-nan",
        "1.#IND",
        "1.#QNAN",
        "<NA>",
        "N/A",
        "NA",
        "NULL",
        "NaN",
        "None",
        "n/a",
        "nan",
        "null",
    }
)
_DELIMITERS = ("\t", ",", ";")
_DELIMITER_NAMES = {"\t": "tab", ",": "comma", ";": "semicolon"}
_DECIMAL_COMMA_CELL = re.compile(r"^\s*[+-]?\d*,\d+(?:[eE][+-]?\d+)?\s*$")
_NUMBER = re.compile(r"^\s*[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?\s*$")
_SPECIAL = re.compile(r"^\s*[+-]?(?:inf|infinity|nan)\s*$", re.IGNORECASE)


def _source_text(source: Any) -> tuple[str, str]:
    """The text of a path or an open file, and a name for messages."""
    if hasattr(source, "read"):
        name = str(getattr(source, "name", "<stream>"))
        try:
            text = source.read()
        except OSError as exc:
            raise CdplotInputError(f"cannot read results from {name!r}: {exc}.") from None
        if isinstance(text, bytes):
            try:
                text = text.decode("utf-8-sig")
            except UnicodeDecodeError:
                raise CdplotInputError(
                    f"results from {name!r} are not UTF-8 text; save them as a UTF-8 CSV."
                ) from None
        if not isinstance(text, str):
            raise CdplotInputError(f"reading {name!r} gave {type(text).__name__}, not text.")
        # line endings as a file read in text mode has them (universal newlines): CR-only
        # and CRLF bytes from standard input read as the same file does
        text = text.replace("\r\n", "\n").replace("\r", "\n")
        return text.lstrip("\ufeff"), name
    path = Path(source)
    try:
        text = path.read_text(encoding="utf-8-sig")
    except OSError as exc:
        raise CdplotInputError(
            f"cannot read results file {str(path)!r}: {exc.strerror or exc}."
        ) from None
    except UnicodeDecodeError:
        raise CdplotInputError(
            f"results file {str(path)!r} is not UTF-8 text; save it as a UTF-8 CSV."
        ) from None
    return text, str(path)


def _delimiter(first: str, source: str) -> str:
    counts = {sep: first.count(sep) for sep in _DELIMITERS}
    sep = max(_DELIMITERS, key=lambda s: counts[s])
    if counts[sep] == 0:
        raise CdplotInputError(
            f"cannot find a delimiter in the first line of {source!r}; expected a CSV "
            f"(comma- or semicolon-separated) or TSV (tab-separated) file with a header line."
        )
    return sep


def read_columns(source: str | os.PathLike[str] | Any) -> tuple[dict[str, np.ndarray], str]:
    """Read a CSV/TSV file into named columns (numpy arrays), without pandas.

    Parameters
    ----------
    source : str, os.PathLike or file object
        Path of the file, or an open text (or binary UTF-8) file such as ``sys.stdin``.

    Returns
    -------
    columns : dict of str to numpy.ndarray
        Column name -> values in file order: int64, float64 (missing cells NaN) or object
        (text, missing cells None).
    source : str
        The file's name, for messages.

    Raises
    ------
    CdplotInputError
        If the file cannot be read, is empty, has no delimiter, has rows of the wrong
        length or duplicate header names.

    Examples
    --------
    >>> import io
    >>> from cdplot.io import read_columns
    >>> text = 'dataset,A,B' + chr(10) + 'd1,0.8,0.9' + chr(10) + 'd2,0.7,0.6' + chr(10)
    >>> columns, name = read_columns(io.StringIO(text))
    >>> columns['B']
    array([0.9, 0.6])
    """
    columns, name, _ = _read(source)
    return columns, name


def file_table(source: str | os.PathLike[str] | Any) -> ColumnTable:
    """Read a CSV/TSV file into a :class:`ColumnTable` (numpy columns, no pandas).

    Its ``attrs`` hold the file's name (``cdplot_source``) and decimal separator
    (``cdplot_decimal``), as :func:`read_table` puts them in a DataFrame's ``attrs``.
    """
    columns, name, decimal, cells = _read_all(source)
    nrows = len(next(iter(columns.values()))) if columns else 0
    return ColumnTable(
        columns, nrows, attrs={"cdplot_source": name, "cdplot_decimal": decimal}, cells=cells
    )


def _first_line(text: str) -> str:
    """The first line (as :meth:`str.splitlines` splits) that is not blank, or ``""``."""
    head = text[:65536]
    lines = head.splitlines()
    whole = len(head) == len(text)
    for number, line in enumerate(lines):
        if line.strip() and (whole or number < len(lines) - 1):
            return line
    if whole:
        return ""
    return next((line for line in text.splitlines() if line.strip()), "")


def _read(source: Any) -> tuple[dict[str, np.ndarray], str, str]:
    """Columns, the file's name and its decimal separator."""
    return _read_all(source)[:3]


def _read_all(source: Any) -> tuple[dict[str, np.ndarray], str, str, Any]:
    """Columns, the file's name, its decimal separator and a function column name -> the
    column's cells as written (names are read from these)."""
    text, name = _source_text(source)
    first = _first_line(text)
    if not first:
        raise CdplotInputError(f"results file {name!r} is empty.")
    sep = _delimiter(first, name)
    plain = _read_plain(text, sep)
    if plain is not None:
        return plain, name, ".", _cells_reader(text, sep, list(plain), name, plain=True)
    header, body = _rows(text, sep, name)
    cells = list(zip(*body, strict=True)) if body else [()] * len(header)
    decimal_comma = sep == ";" and any(
        any(_DECIMAL_COMMA_CELL.match(c) for c in col) for col in cells
    )
    underscores = "_" in text
    columns = {
        h: _convert(list(col), decimal_comma, underscores)
        for h, col in zip(header, cells, strict=True)
    }
    reader = _cells_reader(text, sep, header, name)
    return columns, name, "," if decimal_comma else ".", reader


def _cells_reader(text: str, sep: str, header: list[str], name: str, plain: bool = False) -> Any:
    """Column name -> its cells as written (the file is parsed again, only when asked).

    A plain file (:func:`_read_plain` read it: no quotes, one width) is split as that
    reader splits it; any other goes through :mod:`csv` as :func:`_read` does.
    """
    position = {h: j for j, h in enumerate(header)}

    def cells(column: str) -> list[str]:
        j = position[column]
        if plain:
            lines = text.replace("\r\n", "\n").split("\n")
            rows = [line for line in lines if line.replace(sep, "").strip()][1:]
            return [line.split(sep, j + 1)[j].strip() for line in rows]
        _, body = _rows(text, sep, name)
        return [row[j].strip() for row in body]

    return cells


def _rows(text: str, sep: str, name: str) -> tuple[list[str], list[list[str]]]:
    """The header and the rows of a file with :mod:`csv`, checked for width and duplicates."""
    try:
        rows = [
            (number, row)
            for number, row in enumerate(csv.reader(io.StringIO(text), delimiter=sep), start=1)
            if any(cell.strip() for cell in row)
        ]
    except csv.Error as exc:
        raise CdplotInputError(
            f"cannot read {name!r} as a {_DELIMITER_NAMES[sep]}-separated file ({exc}); save "
            f"it as a plain CSV (UTF-8, one row per line, quotes around cells that contain the "
            f"delimiter)."
        ) from None
    if not rows:
        raise CdplotInputError(
            f"results file {name!r} has no values, not even column names in a header line."
        )
    (_, header), body = rows[0], rows[1:]
    header = _header_names(header, _first_line(text), sep)
    widths = {len(row) for _, row in body}
    if body and widths == {len(header) + 1}:  # R's write.table: no name over the row names
        header = ["", *header]
    # a delimiter at the end of every line makes an empty, nameless last column
    if (
        len(header) > 1
        and header[-1] == ""
        and all(len(row) == len(header) and row[-1] == "" for _, row in body)
    ):
        header = header[:-1]
        body = [(number, row[:-1]) for number, row in body]
    for number, row in body:
        if len(row) != len(header):
            raise CdplotInputError(
                f"line {number} of {name!r} has {len(row)} fields but the header has "
                f"{len(header)} ({_DELIMITER_NAMES[sep]}-separated); every row needs one "
                f"value per column (quote cells that contain the delimiter)."
            )
    dups = duplicated(header)
    if dups:
        raise CdplotInputError(
            f"duplicate column name(s) in the header of {name!r}: "
            f"{', '.join(repr(d) for d in dups)}; every column needs a unique name "
            f"(rename one of each pair)."
        )
    return header, [row for _, row in body]


_QUOTED_FIELD = re.compile(r'\s*"(?:[^"]|"")*"\s*')


def _header_names(fields: list[str], line: str, sep: str) -> list[str]:
    """Header names stripped of the spaces around them, except inside quotes (``" a "``)."""
    if '"' not in line:
        return [f.strip() for f in fields]
    quoted: list[bool] = []
    pos = 0
    while pos <= len(line):
        match = _QUOTED_FIELD.match(line, pos)
        end = match.end() if match else line.find(sep, pos)
        quoted.append(bool(match))
        if end < 0 or end >= len(line):
            break
        pos = (line.find(sep, end) if match else end) + 1
        if pos == 0:
            break
    if len(quoted) != len(fields):
        return [f.strip() for f in fields]
    return [f if q else f.strip() for f, q in zip(fields, quoted, strict=True)]


#: Rows converted at a time by :func:`_read_plain` (bounds the number of cell strings alive).
_CHUNK = 2048


def _read_plain(text: str, sep: str) -> dict[str, np.ndarray] | None:
    """Columns of a plain file read fast, or None to read it with :mod:`csv`.

    A plain file has no quotes, no lone carriage return, no NUL, no decimal comma
    (no ``,`` in a ``;`` file), a header without duplicate or empty-last names and the same
    number of fields on every row. Its cells are exactly what :mod:`csv` would give, and are
    converted a block of rows at a time, so that the strings of only one block are alive.
    A column that holds anything but integers or plain numbers in the first block is
    converted by :func:`_convert` from all its cells; when a later block breaks the type the
    first block settled (a missing or text cell, a decimal after integers), the file is read
    again by the general reader. Either way the columns are those :func:`_convert` makes.
    """
    if '"' in text or "\x00" in text or (sep == ";" and "," in text):
        return None
    if "\r" in text:
        if text.count("\r") != text.count("\r\n"):
            return None
        text = text.replace("\r\n", "\n")
    lines = [line for line in text.split("\n") if line.replace(sep, "").strip()]
    if len(lines) < 2:
        return None
    header = [h.strip() for h in lines[0].split(sep)]
    k = len(header)
    if header[-1] == "" or len(set(header)) != k:
        return None
    body = lines[1:]
    del lines
    if any(line.count(sep) != k - 1 for line in body):
        return None
    kinds: list[str] = [""] * k  # "int", "float" or "text" (converted by _convert)
    parts: list[list[Any]] = [[] for _ in range(k)]
    for start in range(0, len(body), _CHUNK):
        block = sep.join(body[start : start + _CHUNK])
        cells = block.split(sep)
        underscores = "_" in block
        for j in range(k):
            col = cells[j::k]
            if kinds[j] == "text":
                parts[j].extend(col)
                continue
            if underscores and any("_" in c for c in col):
                numbers = None
            else:
                if not kinds[j]:
                    kinds[j] = "int" if col[0].strip().lstrip("+-").isdigit() else "float"
                numbers = _plain_numbers(col, kinds[j])
                if numbers is None and kinds[j] == "int" and start == 0:
                    kinds[j] = "float"
                    numbers = _plain_numbers(col, "float")
            if numbers is None:
                if start:
                    return None
                kinds[j] = "text"
                parts[j].extend(col)
            else:
                parts[j].append(numbers)
    return {
        h: _convert(parts[j], False, True) if kinds[j] == "text" else np.concatenate(parts[j])
        for j, h in enumerate(header)
    }


def _plain_numbers(cells: list[str], kind: str) -> np.ndarray | None:
    """Cells that are all integers (int64) or all numbers but NaN (float64), else None."""
    try:
        if kind == "int":
            return np.array(list(map(int, cells)), dtype=np.int64)
        out = np.array(list(map(float, cells)), dtype=float)
    except (ValueError, OverflowError):
        return None
    return None if np.isnan(out).any() else out


def _convert(cells: list[str], decimal_comma: bool, maybe_underscores: bool) -> np.ndarray:
    """Cells of one column as int64, float64 (missing -> NaN) or object (missing -> None)."""
    stripped = [c.strip() for c in cells]
    present = [c for c in stripped if c not in NA_TOKENS]
    if decimal_comma:
        if any("." in c for c in present if _looks_numeric(c)):
            return _as_text(stripped)  # a point in a decimal-comma file: refused as a score
        present = [c.replace(",", ".") for c in present]
        stripped = [c.replace(",", ".") if c not in NA_TOKENS else c for c in stripped]
    if not present:
        return np.full(len(cells), np.nan) if cells else np.empty(0)
    if maybe_underscores and any("_" in c for c in present):
        return _as_text(stripped)  # Python and numpy read "1_000" as 1000; a score must not
    complete = len(present) == len(stripped)
    if complete and present[0].lstrip("+-").isdigit():
        try:
            return np.array(stripped, dtype=np.int64)
        except (ValueError, OverflowError):
            pass
    filled = stripped if complete else ["nan" if c in NA_TOKENS else c for c in stripped]
    try:  # numpy reads what float() reads (no "1_000": refused above)
        return np.array(filled, dtype=float)
    except ValueError:
        return _as_text(stripped)


def _as_text(cells: list[str]) -> np.ndarray:
    out = np.empty(len(cells), dtype=object)
    out[:] = [None if c in NA_TOKENS else c for c in cells]
    return out


def _looks_numeric(cell: str) -> bool:
    return bool(re.match(r"^\s*[+-]?[\d.,' ]*\d[\d.,' ]*%?\s*$", cell))


def read_table(source: str | os.PathLike[str] | Any) -> Any:
    """Read a CSV/TSV results file into a pandas DataFrame (see :func:`read_columns`).

    Parameters
    ----------
    source : str, os.PathLike or file object
        Path of the file, or an open text file.

    Returns
    -------
    pandas.DataFrame
        One column per header field, in file order, with a default RangeIndex;
        ``attrs["cdplot_decimal"]`` is the file's decimal separator (text cells of a
        score column that are plain numbers in it are read as numbers).

    Raises
    ------
    CdplotInputError
        If the file cannot be read or parsed.

    Examples
    --------
    >>> import io
    >>> read_table(io.StringIO("dataset;A;B\\nd1;0,5;0,75\\n")).loc[0, "B"]
    np.float64(0.75)
    """
    import pandas as pd

    columns, name, decimal, cells = _read_all(source)
    frame = pd.DataFrame(columns)
    # the cells as written, for names (used only while the frame still holds these values)
    frame.attrs.update(cdplot_source=name, cdplot_decimal=decimal, cdplot_cells=cells)
    return frame

"""The one shape every table takes inside the reader: named columns, row labels, no pandas.

A results file is read straight into a :class:`ColumnTable` of numpy columns; a data frame
(pandas, polars, ...) becomes one in :func:`cdplot.io._frames.frame_table`, its numeric
columns as numpy arrays and the others as pandas Series (so that pandas' own dtypes, such as
nullable integers, categories and dates, are judged as before). Everything downstream
(column roles, cell checks, aggregation) reads tables only through this small interface, so
a file and the same table as a DataFrame go through one logic and give one answer, and the
file path never imports pandas.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from typing import Any

__all__ = ["ColumnTable"]


class ColumnTable:
    """Ordered, uniquely named columns of equal length, with row labels.

    Parameters
    ----------
    columns : mapping of str to array-like
        Column name -> values (a numpy array or a pandas Series: anything with ``dtype``
        and ``tolist()``), in table order. Names are unique strings.
    nrows : int
        Number of rows (needed when there are no columns).
    labels : sequence, optional
        Row labels (anything with ``tolist()``, e.g. a pandas Index); default the row
        numbers 0, 1, ...
    index_names_datasets : bool
        Whether the row labels name the datasets (a user's wide DataFrame with a meaningful
        index), so that a wide table needs no dataset column.
    attrs : mapping, optional
        ``cdplot_source`` (the file's name, for messages) and ``cdplot_decimal`` (the
        file's decimal separator) for a table read from a file.
    cells : callable, optional
        Column name -> its cells as the file wrote them (see :meth:`text`).
    """

    __slots__ = ("_cells", "_columns", "attrs", "index_names_datasets", "labels", "nrows")

    def __init__(
        self,
        columns: Mapping[str, Any],
        nrows: int,
        *,
        labels: Any = None,
        index_names_datasets: bool = False,
        attrs: Mapping[str, Any] | None = None,
        cells: Callable[[str], list[str]] | None = None,
    ) -> None:
        self._cells = cells
        self._columns = dict(columns)
        self.nrows = int(nrows)
        self.labels = labels
        self.index_names_datasets = bool(index_names_datasets)
        self.attrs = dict(attrs or {})

    @property
    def columns(self) -> list[str]:
        """Column names in table order."""
        return list(self._columns)

    def __getitem__(self, name: str) -> Any:
        return self._columns[name]

    def text(self, name: str) -> list[str] | None:
        """The cells of a column exactly as the file wrote them (stripped), or None.

        Names are text: a dataset ``001`` or an algorithm ``1.10`` keeps its spelling, and
        ``NA`` is a name, not a missing value. None for a table that is not a file.
        """
        return None if self._cells is None else self._cells(name)

    def row_labels(self) -> list[Any]:
        """The row labels as a list (the row numbers when the table has none)."""
        if self.labels is None:
            return list(range(self.nrows))
        return self.labels.tolist() if hasattr(self.labels, "tolist") else list(self.labels)

    def __repr__(self) -> str:
        return f"ColumnTable({self.nrows} rows; columns {self.columns!r})"


def duplicated(names: Iterable[str]) -> list[str]:
    """The names that occur more than once, in order of first occurrence."""
    return [name for name, count in Counter(names).items() if count > 1]

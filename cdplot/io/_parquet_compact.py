"""Item-level Parquet read in bounded batches into compact columns (``compare(path)``).

A Parquet file of item scores (one row per task, model and item: 10^8 rows and more) is read
by polars in batches of :data:`BATCH_ROWS` rows, and each batch is turned into its compact
form before the next is read, so the whole table is never held as wide values:

- text columns, and the item column, become pandas ``Categorical`` columns whose categories
  are in order of first appearance (the codes take one or two bytes a row);
- a float score column whose values are all 0 or 1 becomes ``uint8`` (one byte a row; the
  values, read as floats, are the same numbers); a decimal column is read as the nearest
  doubles (polars' cast, the same numbers as ``float`` of each ``Decimal``);
- other numbers are kept as polars gives them (integers with missing values as float64 NaN).

The values are those :func:`cdplot.io.read_parquet` gives (``pd.factorize`` of either column
gives the same codes and labels), only smaller. A file this reader does not cover (a
column of another type, a missing item label) is read by :func:`read_parquet` instead.
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["BATCH_ROWS", "read_item_parquet"]

#: rows of one batch read from the Parquet file: about 30 MB of wide values at a time
BATCH_ROWS = 1 << 20
#: integer item labels below this are coded through a lookup table indexed by value
_DENSE_LABELS = 1 << 26


class _Labels:
    """Labels in order of first appearance over the batches, and each batch's codes."""

    def __init__(self) -> None:
        self.labels: list[Any] = []
        self._index: Any = None
        self._dense: np.ndarray | None = np.zeros(0, dtype=np.int64)  # value -> code

    def integer_codes(self, values: np.ndarray) -> np.ndarray | None:
        """The codes of a batch of integer labels by a lookup table indexed by value (no
        hashing), new labels numbered in the order they appear; None (from then on) for
        labels outside ``0 .. 2**26``: :meth:`codes` of their factorization then."""
        import pandas as pd

        top = int(values.max(initial=0))
        if self._dense is None or values.min(initial=0) < 0 or top >= _DENSE_LABELS:
            self._dense = None
            return None
        if top >= self._dense.size:
            self._dense = np.concatenate(
                [self._dense, np.full(top + 1 - self._dense.size, -1, dtype=np.int64)]
            )
        out = self._dense[values]
        unseen = out < 0
        if unseen.any():
            new = pd.unique(values[unseen])  # in order of appearance
            self._dense[new] = len(self.labels) + np.arange(new.size)
            self.labels.extend(new)
            self._index = None
            out = self._dense[values]
        return out.astype(_code_type(len(self.labels)))

    def codes(self, local: np.ndarray, uniques: Any) -> np.ndarray:
        """The codes of a batch from its own codes (-1: missing) and labels (first
        appearance in the batch): labels seen before keep their code, new ones are added
        in the order they appear."""
        import pandas as pd

        self._dense = None  # labels from here on are not in the lookup table
        if self._index is None and self.labels:
            self._index = pd.Index(self.labels)
        known = self._index.get_indexer(uniques) if self._index is not None else None
        if known is None:
            known = np.full(len(uniques), -1, dtype=np.int64)
        new = np.flatnonzero(known < 0)
        if new.size:
            known[new] = len(self.labels) + np.arange(new.size)
            self.labels.extend(uniques[i] for i in new)
            self._index = pd.Index(self.labels)
        lookup = np.append(known, -1)  # a missing label (-1) reads the last entry
        out = lookup[local]
        return out.astype(_code_type(len(self.labels)))


def _code_type(n: int) -> type:
    return np.int8 if n < 2**7 else np.int16 if n < 2**15 else np.int32


def _is_binary(values: np.ndarray) -> bool:
    """All values 0.0 or 1.0 (no NaN, no negative zero): exactly representable as uint8."""
    return bool(((values == 0.0) | (values == 1.0)).all()) and not np.signbit(values).any()


def _batch_codes(series: Any) -> tuple[np.ndarray, list[str]]:
    """Codes (first appearance in the batch) and names of a categorical batch without
    missing values: its physical codes factorized, each name looked up once."""
    import pandas as pd

    from ._parquet import _polars

    local, uniques = pd.factorize(series.to_physical().to_numpy())
    # factorized codes count up in order of first appearance: code c first appears where
    # the (sorted) running maximum first reaches c
    first = np.searchsorted(np.maximum.accumulate(local), np.arange(len(uniques)))
    names = series.gather(first).cast(_polars().String).to_list()
    return local, names


class _Column:
    """One column's compact batches."""

    def __init__(self, kind: str) -> None:
        self.kind = kind  # "text", "item", "float" or "number"
        self.parts: list[np.ndarray] = []
        self.labels = _Labels()
        self.binary = kind == "float"

    def add(self, series: Any) -> bool:
        """Append one batch's column (a polars Series); False if this reader cannot."""
        import pandas as pd

        from ._parquet import _polars, _text_codes

        pl = _polars()
        if self.kind == "text":
            local, names = _text_codes(series) if series.null_count() else _batch_codes(series)
            self.parts.append(self.labels.codes(local, np.array(names, dtype=object)))
            return True
        if series.null_count() and self.kind == "item":
            return False
        values = series.cast(pl.Float64).to_numpy() if series.null_count() else series.to_numpy()
        if self.kind == "item":
            codes = self.labels.integer_codes(values)
            if codes is None:
                codes = self.labels.codes(*pd.factorize(values))
            self.parts.append(codes)
        elif self.kind == "float" and self.binary and _is_binary(values):
            self.parts.append(values.astype(np.uint8))
        else:
            self.binary = False
            self.parts.append(np.asarray(values))
        return True

    def finish(self) -> Any:
        """The whole column: a Categorical, or a numpy array."""
        import pandas as pd

        parts, self.parts = self.parts, []
        if self.kind in ("text", "item"):
            codes = np.concatenate(parts) if parts else np.zeros(0, dtype=np.int8)
            del parts
            categories = pd.Index(self.labels.labels) if self.kind == "item" else None
            if categories is None:
                categories = self.labels.labels
            return pd.Categorical.from_codes(codes, categories=categories)
        if self.kind == "float" and not self.binary:
            parts = [p.astype(float) if p.dtype == np.uint8 else p for p in parts]
        return np.concatenate(parts) if parts else np.zeros(0)


def _kinds(schema: Any, item: str) -> dict[str, str] | None:
    """Each column's kind, or None for a schema this reader does not cover."""
    from ._parquet import _polars

    pl = _polars()
    kinds = {}
    for name, dtype in schema.items():
        if dtype in (pl.String, pl.Categorical) or isinstance(dtype, pl.Enum):
            kinds[name] = "text"
        elif name == item and dtype.is_integer():
            kinds[name] = "item"
        elif dtype.is_float() or (isinstance(dtype, pl.Decimal) and name != item):
            kinds[name] = "float"
        elif dtype.is_numeric():
            kinds[name] = "number"
        else:
            return None
    return kinds if kinds.get(item) in ("item", "text") else None


def read_item_parquet(files: list[Any], item: str) -> Any:
    """The Parquet ``files`` (one schema) as a compact pandas DataFrame, or None.

    ``item`` is the item column (integer or text labels). None when the file has a column
    of another type or an item without a label: :func:`read_parquet` then reads it.
    """
    import pandas as pd

    from ._parquet import _polars

    pl = _polars()
    lazy = pl.scan_parquet([str(f) for f in files])
    kinds = _kinds(lazy.collect_schema(), item)
    if kinds is None:
        return None
    columns = {name: _Column(kind) for name, kind in kinds.items()}
    text = [name for name, kind in kinds.items() if kind == "text"]
    lazy = lazy.with_columns(pl.col(text).cast(pl.Categorical))  # in the engine's threads
    # decimals (DuckDB writes 1.0 as DECIMAL(2,1)) as the nearest doubles, as float(Decimal)
    # gives them, rather than one Python Decimal per row
    decimals = [
        name for name, dtype in lazy.collect_schema().items() if isinstance(dtype, pl.Decimal)
    ]
    lazy = lazy.with_columns(pl.col(decimals).cast(pl.Float64))
    for batch in lazy.collect_batches(chunk_size=BATCH_ROWS):
        for name, column in columns.items():
            if not column.add(batch.get_column(name)):
                return None
        del batch
    frame = pd.DataFrame({name: column.finish() for name, column in columns.items()}, copy=False)
    return frame

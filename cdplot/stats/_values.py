"""Value semantics of the result objects: NaN-aware equality and a hash consistent with it.

Results hold numpy arrays and pandas objects, for which ``==`` is
element-wise (and ``bool()`` of it raises), and NaN, which is never equal to itself. A
result mixes in :class:`ValueEquality`: two results are equal when they are of the same
type and every compared field holds the same value (arrays: same shape, labels and
values, NaN equal to NaN). The hash is taken over the scalar settings and names only
(strings, numbers, tuples of them), so equal results hash equally and hashing is cheap.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any

import numpy as np

__all__ = ["ValueEquality", "same_value"]

#: stands for NaN in a hash key (hash(nan) is per object since Python 3.10)
_NAN = ("nan",)
#: a hash key for a value that does not enter the hash (arrays, tables, mappings)
_SKIP = ("skip",)


def _is_pandas(value: Any) -> bool:
    return type(value).__module__.startswith("pandas") and hasattr(value, "to_numpy")


def _labels(table: Any) -> tuple[Any, ...]:
    """The labels of a pandas Series or DataFrame: index, columns and their names."""
    columns = getattr(table, "columns", None)
    return (
        tuple(table.index.tolist()),
        None if columns is None else tuple(columns.tolist()),
        table.index.name,
        None if columns is None else columns.name,
        getattr(table, "name", None) if columns is None else None,
    )


def _same_array(a: np.ndarray, b: np.ndarray) -> bool:
    if a.shape != b.shape:
        return False
    if a.dtype.kind in "fc" and b.dtype.kind in "fcbiu":
        return bool(np.array_equal(a, b, equal_nan=True))
    if a.dtype.kind in "biu" and b.dtype.kind in "biu":
        return bool(np.array_equal(a, b))
    return all(
        same_value(x, y) for x, y in zip(a.ravel().tolist(), b.ravel().tolist(), strict=True)
    )


def same_value(a: Any, b: Any) -> bool:
    """Whether ``a`` and ``b`` hold the same value, NaN equal to NaN.

    Arrays and pandas objects compare by shape (and labels) and values;
    sequences and mappings element by element; other objects with ``==``.

    Examples
    --------
    >>> import numpy as np
    >>> same_value(np.array([1.0, np.nan]), np.array([1.0, np.nan]))
    True
    >>> same_value(float("nan"), 0.0)
    False
    """
    if a is b:
        return True
    if _is_pandas(a) or _is_pandas(b):
        return (
            _is_pandas(a)
            and _is_pandas(b)
            and _labels(a) == _labels(b)
            and _same_array(np.asarray(a.to_numpy()), np.asarray(b.to_numpy()))
        )
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return _same_array(np.asarray(a), np.asarray(b))
    if isinstance(a, (float, np.floating)) and isinstance(b, (float, np.floating)):
        return (math.isnan(a) and math.isnan(b)) or a == b
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same_value(a[key], b[key]) for key in a)
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(same_value(x, y) for x, y in zip(a, b, strict=True))
    equal = a == b
    return equal if isinstance(equal, bool) else bool(np.all(equal))


def _hash_key(value: Any) -> Any:
    """A hashable stand-in for ``value``, equal for values :func:`same_value` calls equal."""
    if value is None or isinstance(value, (str, bool, int, np.integer, np.bool_)):
        return value
    if isinstance(value, (float, np.floating)):
        return _NAN if math.isnan(value) else float(value)
    if isinstance(value, (list, tuple)):
        return tuple(_hash_key(v) for v in value)
    if isinstance(value, ValueEquality):
        return hash(value)  # a nested result or part; tables (arrays, pandas) are not hashed
    return _SKIP


def _fields(obj: Any) -> list[str]:
    return [f.name for f in dataclasses.fields(obj) if f.compare]


class ValueEquality:
    """Mixin for frozen result dataclasses (declared with ``eq=False``): value equality.

    ``a == b`` when both are of the same type and every field compared by the dataclass
    holds the same value (:func:`same_value`: NaN-aware, arrays by value). ``hash(a)``
    covers the scalar fields (settings and names), so equal results hash equally.
    """

    __slots__ = ()

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return all(same_value(getattr(self, n), getattr(other, n)) for n in _fields(self))

    def __ne__(self, other: object) -> bool:
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    def __hash__(self) -> int:
        return hash((type(self).__name__, *(_hash_key(getattr(self, n)) for n in _fields(self))))

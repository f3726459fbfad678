"""Labelled numpy arrays that become pandas objects only when someone asks for one.

``compare()`` computes with numpy; the result's tables (``scores``, ``average_ranks``,
``pvalues``, ...) are documented as pandas objects, but building them costs an import of
pandas (about a third of a second) that a command-line run which only draws a diagram never
needs. So the result stores a :class:`Labelled` array and the :class:`LazyPandas`
descriptor turns it into the DataFrame or Series on first access (once; the object is then
kept). Code inside cdplot that only needs the numbers reads them with :func:`labelled`,
which never imports pandas.

The same descriptor computes a :class:`Deferred` value on first access: the omnibus
p-values need :mod:`scipy.special`, whose import costs more than the rest of a small
comparison, so a run that never reads them never imports it. Also here: :data:`special`,
:mod:`scipy.special` imported on first use, so that ``import cdplot`` does not pay for it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from ._values import ValueEquality

__all__ = ["Deferred", "LazyPandas", "Labelled", "install_lazy_fields", "labelled", "special"]


@dataclass(frozen=True, eq=False)
class Labelled(ValueEquality):
    """A numpy array with its labels: a Series (``columns`` None) or a DataFrame.

    Attributes
    ----------
    values : numpy.ndarray
        1-D (Series) or 2-D (DataFrame) values.
    index : tuple of str
        Row labels.
    columns : tuple of str or None
        Column labels; None for a Series.
    index_name, columns_name, name : str or None
        Names of the index, of the columns, and of the Series.
    """

    values: np.ndarray
    index: tuple[str, ...]
    columns: tuple[str, ...] | None = None
    index_name: str | None = None
    columns_name: str | None = None
    name: str | None = None

    def to_pandas(self) -> Any:
        """The pandas Series or DataFrame (imports pandas)."""
        import pandas as pd

        index = pd.Index(list(self.index), dtype=object, name=self.index_name)
        if self.columns is None:
            return pd.Series(self.values, index=index, name=self.name)
        columns = pd.Index(list(self.columns), dtype=object, name=self.columns_name)
        return pd.DataFrame(self.values, index=index, columns=columns)

    @classmethod
    def from_pandas(cls, obj: Any) -> Labelled:
        """The labelled array of a pandas Series or DataFrame."""
        index = tuple(obj.index.tolist())
        if getattr(obj, "ndim", 2) == 1:
            return cls(obj.to_numpy(), index, None, obj.index.name, None, obj.name)
        return cls(
            obj.to_numpy(), index, tuple(obj.columns.tolist()), obj.index.name, obj.columns.name
        )

    def items(self) -> list[tuple[str, Any]]:
        """``(label, value)`` pairs of a Series, in order (like ``pandas.Series.items``)."""
        return list(zip(self.index, self.values.tolist(), strict=True))


@dataclass(frozen=True)
class Deferred:
    """A value computed when first read: ``function(*args)``.

    Stored in a field that has a :class:`LazyPandas` descriptor; ``function`` is a
    module-level function, so that a result holding a value not yet computed pickles.
    """

    function: Callable[..., Any]
    args: tuple[Any, ...]

    def compute(self) -> Any:
        """The value."""
        return self.function(*self.args)


class LazyPandas:
    """Data descriptor for a result field whose value is made on first access.

    The field may be set to a pandas object, to a :class:`Labelled` array (built into
    pandas when first read), to a :class:`Deferred` value (computed when first read),
    or to anything else (returned as it is). The made value is kept.
    """

    def __init__(self, name: str) -> None:
        self.name = name
        self.key = f"_{name}_stored"

    def stored(self, obj: Any) -> Any:
        """The value as stored: a labelled array not yet built stays one; computed if Deferred."""
        state = obj.__dict__
        # an object pickled by an earlier cdplot stored the value under the field's name
        value = state[self.key] if self.key in state else state.get(self.name)
        return self.__get__(obj) if isinstance(value, Deferred) else value

    def __get__(self, obj: Any, owner: Any = None) -> Any:
        if obj is None:
            return self
        state = obj.__dict__
        value = state[self.key] if self.key in state else state.get(self.name)
        if isinstance(value, Labelled):
            value = value.to_pandas()
            obj.__dict__[self.key] = value
        elif isinstance(value, Deferred):
            value = value.compute()
            obj.__dict__[self.key] = value
        return value

    def __set__(self, obj: Any, value: Any) -> None:
        obj.__dict__[self.key] = value


def install_lazy_fields(cls: type, names: tuple[str, ...]) -> None:
    """Put a :class:`LazyPandas` descriptor on each named field of the dataclass ``cls``.

    Called after ``@dataclass`` has processed the class: its ``__init__`` then stores the
    values through the descriptors (``object.__setattr__`` honours data descriptors).
    """
    for name in names:
        setattr(cls, name, LazyPandas(name))


def labelled(obj: Any, name: str) -> Labelled | None:
    """The field ``name`` of ``obj`` as a :class:`Labelled` array, without importing pandas.

    Works on any object: a value stored lazily is returned as it is; a pandas object (a
    result built with pandas, or whose field was already read) is converted.
    """
    descriptor = getattr(type(obj), name, None)
    if isinstance(descriptor, LazyPandas):
        value = obj.__dict__.get(descriptor.key)
    else:
        value = getattr(obj, name, None)
    if value is None or isinstance(value, Labelled):
        return value
    return Labelled.from_pandas(value)


class _LazyModule:
    """A module imported on first attribute access."""

    def __init__(self, name: str) -> None:
        self._name = name

    def __getattr__(self, attr: str) -> Any:
        module = self.__dict__.get("_module")
        if module is None:
            import importlib

            module = importlib.import_module(self._name)
            self.__dict__["_module"] = module
        return getattr(module, attr)


#: :mod:`scipy.special`, imported on first use.
special: Any = _LazyModule("scipy.special")

"""Data frames of other libraries (polars, anything with ``to_pandas()`` or ``__dataframe__``)."""

from __future__ import annotations

import warnings
from typing import Any

from .._errors import CdplotInputError

__all__ = ["as_pandas"]


def _is_polars(data: Any, name: str) -> bool:
    return type(data).__module__.split(".")[0] == "polars" and type(data).__name__ == name


def as_pandas(data: Any) -> Any:
    """``data`` as a pandas DataFrame if it is a data frame of any library, else None.

    polars DataFrames are converted column by column through numpy (no pyarrow needed);
    other objects through their ``to_pandas()`` method or the ``__dataframe__``
    interchange protocol. A polars LazyFrame is refused (call ``.collect()`` first).
    """
    import pandas as pd

    if isinstance(data, pd.DataFrame):
        return data
    if isinstance(data, pd.Series):
        raise CdplotInputError(
            "got a pandas Series; pass a DataFrame with one column per algorithm "
            "(rows = datasets), or a long table with dataset, algorithm and score columns."
        )
    if _is_polars(data, "LazyFrame"):
        raise CdplotInputError(
            "got a polars LazyFrame; collect it first (compare(lazy.collect(), ...))."
        )
    if _is_polars(data, "Series"):
        raise CdplotInputError(
            "got a polars Series; pass a DataFrame with one column per algorithm "
            "(rows = datasets), or a long table with dataset, algorithm and score columns."
        )
    if _is_polars(data, "DataFrame"):
        columns = {name: data.get_column(name).to_numpy() for name in data.columns}
        return pd.DataFrame(columns)
    to_pandas = getattr(data, "to_pandas", None)
    if callable(to_pandas):
        try:
            frame = to_pandas()
        except Exception as exc:  # noqa: BLE001 - a foreign library's failure, reported as input
            raise CdplotInputError(
                f"cannot convert the {type(data).__name__} to a pandas DataFrame "
                f"({type(exc).__name__}: {exc}); pass a pandas DataFrame."
            ) from None
        if isinstance(frame, pd.DataFrame):
            return frame
    if hasattr(data, "__dataframe__"):
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                return pd.api.interchange.from_dataframe(data)
        except Exception as exc:  # noqa: BLE001 - a foreign library's failure, reported as input
            raise CdplotInputError(
                f"cannot read the {type(data).__name__} through the data-frame interchange "
                f"protocol ({type(exc).__name__}: {exc}); pass a pandas DataFrame."
            ) from None
    return None

"""Loading results pickled by cdplot up to 9cf280c (before results were made of parts).

Those results kept their tables under ``_<name>_stored`` as labelled arrays of a module
``cdplot.stats._lazy`` (now gone) and the Friedman/Iman-Davenport p-values as deferred
calls. Unpickling looks those classes up by that module name, so this module stands in for
it (registered in :data:`sys.modules` when the result classes are imported, which unpickling
a result does first); :func:`flat_state` turns such a state into the public flat names the
result constructors take. ``tests/reference/main_result_*.pkl`` are two such pickles.
"""

from __future__ import annotations

import sys
from typing import Any

__all__ = ["Deferred", "Labelled", "flat_state"]


class Labelled:
    """A table as cdplot <= 9cf280c pickled it: ``values`` with ``index``/``columns`` labels."""

    values: Any
    index: tuple[str, ...]
    columns: tuple[str, ...] | None
    index_name: str | None
    columns_name: str | None
    name: str | None

    def to_pandas(self) -> Any:
        """The pandas Series (``columns`` None) or DataFrame."""
        import pandas as pd

        index = pd.Index(list(self.index), dtype=object, name=self.index_name)
        if self.columns is None:
            return pd.Series(self.values, index=index, name=self.name)
        columns = pd.Index(list(self.columns), dtype=object, name=self.columns_name)
        return pd.DataFrame(self.values, index=index, columns=columns)


class Deferred:
    """A value cdplot <= 9cf280c pickled before computing it: ``function(*args)``."""

    function: Any
    args: tuple[Any, ...]

    def compute(self) -> Any:
        """The value."""
        return self.function(*self.args)


def flat_state(state: dict[str, Any], accepted: tuple[str, ...] | None) -> dict[str, Any]:
    """The flat field values of an old pickled ``state`` (only the ``accepted`` names).

    ``_<name>_stored`` becomes ``name``; labelled arrays become pandas objects, deferred
    values are computed. Names the class no longer has (a frequentist result's ``rope``, a
    Bayesian one's NaN ``pvalues``) are left out.
    """
    flat: dict[str, Any] = {}
    for key, value in state.items():
        name = key[1:-7] if key.startswith("_") and key.endswith("_stored") else key
        if accepted is not None and name not in accepted:
            continue
        if isinstance(value, Labelled):
            value = value.to_pandas()
        elif isinstance(value, Deferred):
            value = value.compute()
        flat[name] = value
    return flat


# an old pickle names the classes above as cdplot.stats._lazy.Labelled / .Deferred
sys.modules.setdefault(__name__.rsplit(".", 1)[0] + "._lazy", sys.modules[__name__])

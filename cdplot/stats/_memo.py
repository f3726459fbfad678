"""What was computed later from a result, kept beside it (the result itself never changes).

:func:`cdplot.pool_sensitivity`, :func:`cdplot.rank_intervals` and :func:`cdplot.effect_sizes`
remember their last output per result, so that ``summary()``, the reports and the JSON can
show it. A result is frozen and compares by value, so the output is not written into it: it is
kept here, by the result's identity, and forgotten when the result is.
"""

from __future__ import annotations

import weakref
from typing import Any

__all__ = ["recall", "remember"]

#: (id of the result, what) -> the last value computed; an entry goes with its result
_KEPT: dict[tuple[int, str], Any] = {}


def remember(result: Any, what: str, value: Any) -> None:
    """Keep ``value`` as the last ``what`` computed from ``result``."""
    key = (id(result), what)
    if key not in _KEPT:
        weakref.finalize(result, _KEPT.pop, key, None)
    _KEPT[key] = value


def recall(result: Any, what: str) -> Any:
    """The last ``what`` computed from ``result``, or None.

    Examples
    --------
    >>> class Result:
    ...     pass
    >>> res = Result()
    >>> remember(res, "note", "kept"), recall(res, "note"), recall(res, "other")
    (None, 'kept', None)
    """
    return _KEPT.get((id(result), what))

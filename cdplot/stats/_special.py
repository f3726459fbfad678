""":mod:`scipy.special`, imported on first use (its import costs more than a small comparison).

``from ._special import special`` and then ``special.ndtri(...)``: ``import cdplot`` and a
comparison whose p-values need only :mod:`cdplot.stats._tails` never import it.
"""

from __future__ import annotations

import importlib
from typing import Any

__all__ = ["special"]


class _LazyModule:
    """A module imported on first attribute access."""

    def __init__(self, name: str) -> None:
        self._name = name

    def __getattr__(self, attr: str) -> Any:
        module = self.__dict__.get("_module")
        if module is None:
            module = importlib.import_module(self._name)
            self.__dict__["_module"] = module
        return getattr(module, attr)


#: :mod:`scipy.special`, imported on first use.
special: Any = _LazyModule("scipy.special")

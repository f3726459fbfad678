"""Declared seams: result methods that are, by design, the functions of an upper layer.

``ComparisonResult.to_latex`` *is* :func:`cdplot.report.to_latex` bound to the result.
The seam imports the target only when the attribute is used (module-level imports keep
pointing down the layers, ARCHITECTURE.md) and presents the target's own signature and
docstring, so there is one declaration of each option and nothing to keep in step by hand.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    import inspect

__all__ = ["Seam"]


class Seam:
    """A method whose implementation is ``module.function(self, *args, **kwargs)``.

    Parameters
    ----------
    module : str
        Absolute module name of the target, e.g. ``"cdplot.report"``.
    function : str
        The target's name in that module; its first parameter receives the instance.

    Examples
    --------
    ``to_latex = Seam("cdplot.report", "to_latex")`` in a class body makes
    ``obj.to_latex(label="x")`` call ``cdplot.report.to_latex(obj, label="x")``;
    ``inspect.signature(obj.to_latex)`` and ``obj.to_latex.__doc__`` are the target's.
    """

    def __init__(self, module: str, function: str) -> None:
        self.module = module
        self.function = function
        self.name = function

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @functools.cached_property
    def target(self) -> Callable[..., Any]:
        """The function this seam calls (imported on first use)."""
        return getattr(importlib.import_module(self.module), self.function)

    @functools.cached_property
    def bound_signature(self) -> inspect.Signature:
        """The target's signature without its first parameter (the instance)."""
        import inspect  # only when someone asks (help(), IDEs): keeps `import cdplot` lean

        sig = inspect.signature(self.target)
        return sig.replace(parameters=list(sig.parameters.values())[1:])

    def __get__(self, obj: Any, objtype: type | None = None) -> Callable[..., Any]:
        target = self.target
        if obj is None:
            return target

        @functools.wraps(target)
        def method(*args: Any, **kwargs: Any) -> Any:
            return target(obj, *args, **kwargs)

        method.__name__ = method.__qualname__ = self.name
        method.__signature__ = self.bound_signature  # type: ignore[attr-defined]
        return method

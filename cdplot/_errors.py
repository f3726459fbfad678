"""One error family, the warnings, and the validation helpers every layer uses.

Layer 0: imports nothing from cdplot. Every condition a user can cause raises
:class:`CdplotInputError` (a :class:`ValueError`) or a documented subclass of it; the command
line maps the whole family to exit status 2. Messages say what is wrong and how to fix it.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping
from typing import Any

__all__ = [
    "BergmannHommelLimitError",
    "CdplotInputError",
    "CdplotWarning",
    "PoolDependenceWarning",
    "check_in_list",
    "normalize_name",
    "suggest",
]


class CdplotInputError(ValueError):
    """Raised for input that cdplot cannot analyse; the message says how to fix it."""


class BergmannHommelLimitError(CdplotInputError):
    """Exact Bergmann-Hommel APVs would exceed the work budget.

    The message names the budget, how to raise it, and the corrections that need no
    search (``"shaffer"``, ``"holm"``), valid for any number of algorithms.
    """


class CdplotWarning(UserWarning):
    """Base class of the warnings cdplot emits about questionable input or choices."""


class PoolDependenceWarning(CdplotWarning):
    """The mean-ranks post-hoc test depends on the pool of compared algorithms.

    Benavoli, Corani & Mangili (2016) show that the decision on a pair (A, B)
    of the mean-ranks test (and so of the Nemenyi test and its critical
    difference) can change when other algorithms are added to or removed from
    the comparison. Pairwise tests such as Wilcoxon's signed-rank test or the
    sign test do not have this problem.
    """


def normalize_name(name: str) -> str:
    """Canonical spelling of an option value: lower case, ``_`` and spaces become ``-``.

    >>> normalize_name(" Bergmann_Hommel ")
    'bergmann-hommel'
    """
    return "-".join(str(name).strip().lower().replace("_", " ").replace("-", " ").split())


def suggest(name: Any, candidates: Iterable[Any]) -> str:
    """``" Did you mean 'X'?"`` for the closest candidate (case-insensitive), else ``""``.

    >>> suggest("logreg", ["LogReg", "SVM"])
    " Did you mean 'LogReg'?"
    """
    cands = [str(c) for c in candidates]
    lowered = {c.lower(): c for c in cands}
    match = difflib.get_close_matches(str(name).lower(), list(lowered), n=1, cutoff=0.6)
    return f" Did you mean {lowered[match[0]]!r}?" if match else ""


def check_in_list(
    values: Iterable[str] | Mapping[str, Any],
    /,
    *,
    aliases: Mapping[str, str] | None = None,
    **kwargs: Any,
) -> str:
    """Return the canonical value of the one keyword argument, or raise a clear error.

    Modelled on matplotlib's ``_api.check_in_list``: ``check_in_list(["a", "b"], test=x)``
    normalises ``x`` with :func:`normalize_name`, maps aliases, and raises
    :class:`CdplotInputError` "'x' is not a valid value for test; supported values are
    'a', 'b'." (with a close-match suggestion) when it is not one of ``values``.

    Parameters
    ----------
    values : iterable of str or mapping
        The canonical values (the keys of a mapping).
    aliases : mapping, optional
        Alternative spellings (already normalised) -> canonical value.
    **kwargs
        Exactly one ``name=value`` pair: the option's name and the user's value.

    Returns
    -------
    str
        The canonical value.

    Examples
    --------
    >>> check_in_list(["holm", "none"], correction="Holm")
    'holm'
    """
    if len(kwargs) != 1:
        raise TypeError("check_in_list takes exactly one keyword argument")
    ((option, value),) = kwargs.items()
    canonical = list(values)
    if not isinstance(value, str):
        raise CdplotInputError(
            f"{option} must be a string, got {type(value).__name__} ({value!r}); supported "
            f"values are {', '.join(repr(v) for v in canonical)}."
        )
    key = normalize_name(value)
    if aliases:
        key = aliases.get(key, key)
    if key not in canonical:
        raise CdplotInputError(
            f"{value!r} is not a valid value for {option}; supported values are "
            f"{', '.join(repr(v) for v in canonical)}." + suggest(value, canonical)
        )
    return key

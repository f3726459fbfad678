"""One error family, the warnings, and the validation helpers every layer uses.

Layer 0: imports nothing from cdplot. Every condition a user can cause raises
:class:`CdplotInputError` (a :class:`ValueError`) or a documented subclass of it; the command
line maps the whole family to exit status 2. Messages say what is wrong and how to fix it.
"""

from __future__ import annotations

import contextlib
import contextvars
import difflib
import functools
import inspect
import warnings
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any

__all__ = [
    "BergmannHommelLimitError",
    "CdplotInputError",
    "CdplotWarning",
    "PoolDependenceWarning",
    "check_bool",
    "check_in_list",
    "cli_spelling",
    "in_cli",
    "normalize_name",
    "silence_hint",
    "spell",
    "suggest",
]


class CdplotInputError(ValueError):
    """Raised for input that cdplot cannot analyse; the message says how to fix it."""


class BergmannHommelLimitError(CdplotInputError):
    """Exact Bergmann-Hommel APVs would exceed the work budget.

    Raised by ``compare(..., correction="bergmann-hommel")`` when the exact search does not
    finish within ``bh_budget`` (``--bh-budget`` on the command line). The message names the
    budget, how to raise it, and the corrections that need no search (``"shaffer"``,
    ``"holm"``), valid for any number of algorithms. A :class:`CdplotInputError`, so the
    command line exits with status 2.
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


def check_bool(value: Any, option: str) -> bool:
    """``value`` as a bool, or a :class:`CdplotInputError` if it is not one.

    Python and numpy booleans are accepted; strings such as ``"False"`` (as YAML,
    argparse or JSON deliver them), numbers, arrays and ``pd.NA`` are refused: a
    non-empty string is truthy, so ``"False"`` would silently switch the option on.

    >>> check_bool(False, "higher_is_better")
    False
    """
    numpy_bool = type(value).__module__ == "numpy" and type(value).__name__ in ("bool", "bool_")
    if isinstance(value, bool) or numpy_bool:
        return bool(value)
    shown = repr(value) if isinstance(value, (str, int, float)) else type(value).__name__
    raise CdplotInputError(
        f"{option} must be True or False, got {shown}; pass a bool, e.g. "
        f"{spell(option, False)}, not a string or a number."
    )


def check_in_list(
    values: Iterable[str] | Mapping[str, Any],
    /,
    *,
    aliases: Mapping[str, str] | None = None,
    context: str = "",
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
    context : str, optional
        Words after the option's name in the message, e.g. ``"in all-pairs comparisons"``.
    **kwargs
        Exactly one ``name=value`` pair: the option's name and the user's value.

    Returns
    -------
    str
        The canonical value.

    Raises
    ------
    CdplotInputError
        If the value is not a string or not one of ``values`` (after aliases). The option
        is named as the user spells it (:func:`spell`): ``test`` in Python, ``--test`` on
        the command line.

    Examples
    --------
    >>> check_in_list(["holm", "none"], correction="Holm")
    'holm'
    """
    if len(kwargs) != 1:
        raise TypeError("check_in_list takes exactly one keyword argument")
    ((option, value),) = kwargs.items()
    canonical = list(values)
    name = (spell(option) if option in CLI_FLAGS else option) + (f" {context}" if context else "")
    if not isinstance(value, str):
        raise CdplotInputError(
            f"{name} must be a string, got {type(value).__name__} ({value!r}); supported "
            f"values are {', '.join(repr(v) for v in canonical)}."
        )
    key = normalize_name(value)
    if aliases:
        key = aliases.get(key, key)
    if key not in canonical:
        raise CdplotInputError(
            f"{value!r} is not a valid value for {name}; supported values are "
            f"{', '.join(repr(v) for v in canonical)}." + suggest(value, canonical)
        )
    return key


# --------------------------------------------------------------------------- spelling of options
#: Python argument -> command-line flag. Messages never hard-code either spelling: they call
#: :func:`spell`, which answers in the caller's language (the CLI switches it with
#: :func:`cli_spelling`). One table, so the two spellings cannot drift apart.
CLI_FLAGS: dict[str, str] = {
    "dataset": "--dataset-col",
    "algorithm": "--algorithm-col",
    "score": "--score-col",
    "cost": "--cost-col",  # the cost-performance frontier
    "item": "--item-col",
    "cluster": "--cluster-col",  # one benchmark's items: clusters and samples
    "sample": "--sample-col",
    "run": "--run-col",
    "confidence": "--confidence",
    "higher_is_better": "--lower-is-better",
    "test": "--test",
    "correction": "--correction",
    "alpha": "--alpha",
    "control": "--control",
    "missing": "--missing",
    "tie_correction": "--tie-correction",
    "zero_method": "--zero-method",
    "ties": "--sign-ties",
    "aggregate": "--aggregate",
    "decimals": "--decimals",
    "labels": "--label",
    "omnibus": "--omnibus",
    "rope": "--rope",
    "threshold": "--threshold",
    "nsamples": "--nsamples",
    "random_state": "--seed",
    "prior": "--prior",  # the Dirichlet prior of the Bayesian tests
    "test_train_ratio": "--test-train-ratio",  # the hierarchical test's fold correlation
    "runs": "--runs",
    "warmup": "--warmup",
    "chains": "--chains",
    "strict": "--strict",
    "order": "--order",  # Page's test: the expected order
    "fdr_groups": "--fdr-groups",
    "method": "--quade-method",
    "bh_budget": "--bh-budget",
    "width": "--width",
    "highlight": "--highlight",
    "title": "--title",
    "mdd": "--no-mdd",  # cdplot plan: --no-mdd is mdd=False
    "n_replicates": "--replicates",
}

_CLI_MODE: contextvars.ContextVar[bool] = contextvars.ContextVar("cdplot_cli_mode", default=False)


@contextlib.contextmanager
def cli_spelling() -> Iterator[None]:
    """Within this block, :func:`spell` writes command-line flags instead of Python arguments."""
    token = _CLI_MODE.set(True)
    try:
        yield
    finally:
        _CLI_MODE.reset(token)


def spell(option: str, value: Any = None) -> str:
    """How the user passes ``option`` (with ``value``) in the language they are using.

    Python: ``missing='drop'``; command line: ``--missing drop``. Boolean Python values map
    to the bare flag (``higher_is_better=False`` is ``--lower-is-better``).

    >>> spell("missing", "drop")
    "missing='drop'"
    >>> with cli_spelling():
    ...     spell("missing", "drop")
    '--missing drop'
    """
    if not _CLI_MODE.get():
        return option if value is None else f"{option}={value!r}"
    flag = CLI_FLAGS.get(option, "--" + option.replace("_", "-"))
    if value is None or isinstance(value, bool):
        return flag
    return f"{flag} {value}"


def in_cli() -> bool:
    """True inside :func:`cli_spelling` (the command line is talking to the user)."""
    return _CLI_MODE.get()


def silence_hint(category: str) -> str:
    """How to silence a cdplot warning, in the user's language (``""`` on the command line).

    The command line prints every warning on one line followed by its own advice
    (``--no-warn``), so the warning text carries the Python advice only.

    >>> silence_hint("PoolDependenceWarning")
    " Silence with warnings.simplefilter('ignore', cdplot.PoolDependenceWarning)."
    """
    if _CLI_MODE.get():
        return ""
    return f" Silence with warnings.simplefilter('ignore', cdplot.{category})."


def renamed_keywords(**old_to_new: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Keep old keyword names of a function working for one release (DeprecationWarning).

    ``@renamed_keywords(x="a")`` makes ``f(x=1)`` call ``f(a=1)`` with a warning; passing
    both the old and the new name (by keyword or by position) raises CdplotInputError.
    """

    def decorate(func: Callable[..., Any]) -> Callable[..., Any]:
        names = list(inspect.signature(func).parameters)
        position = {new: names.index(new) for new in old_to_new.values()}

        @functools.wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            for old, new in old_to_new.items():
                if old not in kwargs:
                    continue
                if new in kwargs or len(args) > position[new]:
                    raise CdplotInputError(
                        f"{func.__name__}: pass {new}= only; {old}= is its deprecated old name."
                    )
                warnings.warn(
                    f"{func.__name__}({old}=...) is deprecated; pass {new}=... (same meaning).",
                    DeprecationWarning,
                    stacklevel=2,
                )
                kwargs[new] = kwargs.pop(old)
            return func(*args, **kwargs)

        return wrapper

    return decorate


def renamed_function(func: Callable[..., Any], old_name: str) -> Callable[..., Any]:
    """``func`` under its old name ``old_name``, warning (DeprecationWarning) at every call."""

    @functools.wraps(func)
    def alias(*args: Any, **kwargs: Any) -> Any:
        warnings.warn(
            f"{old_name} is deprecated; use {func.__name__} (same arguments, same numbers).",
            DeprecationWarning,
            stacklevel=2,
        )
        return func(*args, **kwargs)

    alias.__name__ = alias.__qualname__ = old_name
    alias.__doc__ = f"Deprecated alias of :func:`{func.__name__}`."
    return alias

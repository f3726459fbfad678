"""Validation of compare()'s options that name algorithms or take numbers."""

from __future__ import annotations

import difflib
import inspect
import numbers
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from .._errors import CdplotInputError, check_bool, in_cli, spell, suggest

__all__ = [
    "check_alpha",
    "check_confidence",
    "check_control",
    "check_direction_of_result",
    "check_keyword_spelling",
    "check_labels",
]


def check_direction_of_result(higher_is_better: Any, stored: bool) -> bool:
    """The direction of a result's scores, ``stored``; ``higher_is_better`` may only repeat it.

    For functions that take a table or a result of :func:`cdplot.compare`: None (not given)
    reads the result's own direction, a contradicting bool is refused.
    """
    if higher_is_better is not None and check_bool(higher_is_better, "higher_is_better") != bool(
        stored
    ):
        raise CdplotInputError(
            f"the result was computed with higher_is_better={bool(stored)}; drop "
            f"higher_is_better= (a result keeps its direction) or compare() again."
        )
    return bool(stored)


def check_alpha(alpha: Any) -> float:
    """``alpha`` as a float in (0, 1); bools, strings, arrays and ``pd.NA`` are refused."""
    if isinstance(alpha, bool) or not isinstance(alpha, numbers.Real):
        shown = repr(alpha) if isinstance(alpha, (str, bool)) else type(alpha).__name__
        raise CdplotInputError(
            f"alpha must be a number in (0, 1), got {shown}; e.g. {spell('alpha', 0.05)}."
        )
    value = float(alpha)
    if not 0.0 < value < 1.0:
        raise CdplotInputError(f"{spell('alpha')} must be in (0, 1), got {alpha!r}.")
    return value


def check_confidence(confidence: Any, option: str = "confidence") -> float:
    """A confidence level as a float in (0, 1); bools and strings are refused.

    ``option`` is the parameter's name in the messages (``level`` for a function that
    calls its confidence level so).
    """
    if isinstance(confidence, bool) or not isinstance(confidence, numbers.Real):
        shown = repr(confidence) if isinstance(confidence, (str, bool)) else type(confidence)
        raise CdplotInputError(
            f"{option} must be a number in (0, 1), got {shown}; e.g. {option}=0.95."
        )
    value = float(confidence)
    if not 0.0 < value < 1.0:
        raise CdplotInputError(
            f"{option} must be in (0, 1), got {confidence!r}; e.g. {option}=0.95 (not 95)."
        )
    return value


def check_keyword_spelling(options: Mapping[str, Any], test_options: Iterable[str]) -> None:
    """Refuse a keyword that is no option of any test but a near miss of compare()'s own.

    ``compare(d, alpah=0.1)`` passes ``alpah`` on as a test option; reported as an unknown
    option of the test, the message would hide the typo. ``test_options`` are the options
    of every test; a keyword outside them that is close to one of compare()'s parameters
    (:func:`difflib.get_close_matches`) is named with that parameter.
    """
    strays = sorted(set(options) - set(test_options))
    if not strays:
        return
    from ._compare import compare  # deferred: _compare imports this module

    own = [p for p in inspect.signature(compare).parameters if p not in ("data", "test_options")]
    for key in strays:
        match = difflib.get_close_matches(str(key), own, n=1, cutoff=0.6)
        if match and key not in own:
            raise CdplotInputError(f"unknown keyword {key!r}; did you mean {match[0]!r}?")


def _unknown(what: str, name: Any, names: Sequence[str], option: str) -> CdplotInputError:
    return CdplotInputError(
        f"unknown {what} {name!r} in {option}=; the algorithms are "
        f"{', '.join(repr(a) for a in names)}." + suggest(name, names)
    )


def check_control(control: Any, algorithms: Sequence[str]) -> str | None:
    """The control algorithm's name, or an error with a close-match suggestion."""
    if control is None:
        return None
    if not isinstance(control, str):
        raise CdplotInputError(
            f"control must be the name of an algorithm (a string), got "
            f"{type(control).__name__}; the algorithms are "
            f"{', '.join(repr(a) for a in algorithms)}."
        )
    if control not in algorithms:
        raise CdplotInputError(
            f"unknown control algorithm {control!r}; the algorithms are "
            f"{', '.join(repr(a) for a in algorithms)}." + suggest(control, algorithms)
        )
    return control


def check_labels(
    labels: Any, algorithms: Sequence[str], dropped: Sequence[str] = ()
) -> dict[str, str]:
    """Display names: a mapping of algorithm name -> label, checked.

    Keys must be algorithm names (of the table, dropped ones included: their labels are
    ignored), values non-empty strings, and no two algorithms may get the same label.
    Returns the labels of the algorithms compared, in their order.
    """
    if labels is None:
        return {}
    if not isinstance(labels, Mapping):
        raise CdplotInputError(
            f"labels must be a mapping of algorithm name -> display name, got "
            f"{type(labels).__name__}; e.g. labels={{'RandomForest (500 trees)': 'RF'}}."
        )
    known = list(algorithms) + list(dropped)
    where = "--label/--labels" if in_cli() else "labels"
    for key, value in labels.items():
        if not isinstance(key, str) or key not in known:
            raise CdplotInputError(
                f"unknown algorithm {key!r} in {where}; the algorithms are "
                f"{', '.join(repr(a) for a in algorithms)}." + suggest(key, known)
            )
        if not isinstance(value, str) or not value.strip():
            raise CdplotInputError(
                f"the label of {key!r} must be a non-empty string, got {value!r}."
            )
    shown = {a: labels.get(a, a) for a in algorithms}
    seen: dict[str, str] = {}
    for name, label in shown.items():
        if label in seen:
            raise CdplotInputError(
                f"algorithms {seen[label]!r} and {name!r} would both be shown as {label!r}; "
                f"give every algorithm its own label."
            )
        seen[label] = name
    return {a: labels[a] for a in algorithms if a in labels}

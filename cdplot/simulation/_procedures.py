"""Procedures of a simulation study: each a :class:`cdplot.stats.Procedure`, as compare()'s."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .._errors import CdplotInputError
from ..stats._catalogue import CATALOGUE
from ..stats._procedure import Procedure
from ._bayes_run import check_bayes

__all__ = ["DEFAULT_PROCEDURES", "Procedure", "parse_procedures"]

DEFAULT_PROCEDURES = (("wilcoxon", "holm"), ("sign", "holm"), ("mean-ranks", "holm"))


_FORMAT_HINT = (
    "give each procedure as a cdplot.stats.Procedure, a (test, correction) tuple, a "
    "(test, correction, control) tuple, a "
    "dict {'test': ..., 'correction': ..., 'control': ..., **test_options} or a string "
    "'test:correction[:control]', e.g. [('wilcoxon', 'holm'), ('sign', 'none')]"
)


def _one(item: Any, algorithms: Sequence[str]) -> Procedure:
    options: dict[str, Any] = {}
    control: Any = None
    if isinstance(item, Procedure):  # e.g. result.procedure of a compare() run
        test, correction, control, options = (
            item.test,
            item.correction,
            item.control,
            dict(item.options),
        )
    elif isinstance(item, str):
        parts = [p.strip() for p in item.split(":")]
        if len(parts) not in (2, 3) or not all(parts):
            raise CdplotInputError(f"cannot read the procedure {item!r}; {_FORMAT_HINT}.")
        test, correction = parts[0], parts[1]
        control = parts[2] if len(parts) == 3 else None
    elif isinstance(item, Mapping):
        spec = dict(item)
        if "test" not in spec or "correction" not in spec:
            raise CdplotInputError(f"the procedure {item!r} needs 'test' and 'correction'.")
        test, correction = spec.pop("test"), spec.pop("correction")
        control = spec.pop("control", None)
        options = spec
    elif isinstance(item, Sequence) and len(item) in (2, 3):
        test, correction = item[0], item[1]
        if len(item) == 3:
            third = item[2]
            if isinstance(third, Mapping):
                options = dict(third)
                control = options.pop("control", None)
            else:
                control = third
    else:
        raise CdplotInputError(f"cannot read the procedure {item!r}; {_FORMAT_HINT}.")
    control = None if control is None else str(control)
    proc = Procedure.resolve(test, correction, control, algorithms=algorithms, **options)
    if proc.bayesian:
        check_bayes(proc)  # rope, threshold, nsamples, prior and seed, before any work
    return proc


#: the tests a simulation runs: every test of the catalogue (vectorised over replicates
#: where the entry has a batch kernel, or stats/_batch_bayes.py for the Bayesian tests, else
#: table by table)
SIMULATED_TESTS = tuple(CATALOGUE)


def parse_procedures(procedures: Any, algorithms: Sequence[str]) -> list[Procedure]:
    """Validated procedures, in the user's order; duplicates are refused.

    Every (test, correction[, control]) combination that :func:`cdplot.compare` accepts is
    accepted here, with the same names, aliases and messages.

    Examples
    --------
    >>> from cdplot.simulation import parse_procedures
    >>> procedures = parse_procedures([('wilcoxon', 'holm'), 'nemenyi:nemenyi'], ['A', 'B', 'C'])
    >>> [p.test for p in procedures]
    ['wilcoxon', 'nemenyi']
    """
    if isinstance(procedures, (str, Mapping)) or (
        isinstance(procedures, tuple)
        and len(procedures) in (2, 3)
        and all(isinstance(x, str) for x in procedures[:2])
    ):
        raise CdplotInputError(
            f"procedures must be a list of procedures, got {procedures!r}; {_FORMAT_HINT}."
        )
    try:
        items = list(procedures)
    except TypeError:
        raise CdplotInputError(
            f"procedures must be a list of procedures, got {procedures!r}; {_FORMAT_HINT}."
        ) from None
    if not items:
        raise CdplotInputError(f"procedures is empty; {_FORMAT_HINT}.")
    out = [_one(item, algorithms) for item in items]
    labels = [p.label for p in out]
    dups = sorted({lab for lab in labels if labels.count(lab) > 1})
    if dups:
        raise CdplotInputError(
            f"procedure(s) {', '.join(repr(d) for d in dups)} given twice; list each once."
        )
    return out

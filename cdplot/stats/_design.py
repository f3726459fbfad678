"""The omnibus tests of :func:`cdplot.compare` that need more than the scores' values.

Durbin's test reads which results are missing (a balanced incomplete block design: the
datasets an algorithm was not run on); Page's L test reads the order in which the
algorithms are expected to perform (``Procedure.order``). Both are computed here from the
oriented table (higher is better) and the procedure.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ._durbin import durbin_test
from ._page import page_test
from ._procedure import Procedure
from ._test_results import OmnibusResult

__all__ = ["DESIGN_OMNIBUS", "design_omnibus", "omnibus_of", "page_hypothesis"]

#: omnibus tests computed by :func:`design_omnibus`
DESIGN_OMNIBUS = ("durbin", "page")


def page_hypothesis(order: Sequence[str]) -> str:
    """The ordered alternative in words: ``"A < B < C"`` (each expected to perform better
    than the one before)."""
    return " < ".join(order)


#: how :func:`design_omnibus` names Page's result before the hypothesis
_ORDER_WORDS = " of the order "


def omnibus_of(name: str) -> tuple[str, tuple[str, ...] | None] | None:
    """``(canonical omnibus name, order)`` of a Durbin or Page result's ``name``, else None
    (a result read back from JSON keeps only the name)."""
    if name == "Durbin chi-square":
        return "durbin", None
    if name.startswith("Page's L") and _ORDER_WORDS in name:
        return "page", tuple(name.split(_ORDER_WORDS, 1)[1].split(" < "))
    return None


def design_omnibus(
    proc: Procedure, oriented: np.ndarray, algorithms: Sequence[str]
) -> tuple[OmnibusResult, OmnibusResult | None]:
    """``(omnibus test, its F form or None)`` of a Durbin or Page procedure.

    Durbin: the chi-square and F of :func:`cdplot.stats.durbin_test` on the table with the
    algorithms in canonical (name) order, so that permuting the input changes no bit.
    Page: :func:`cdplot.stats.page_test` (``alternative="greater"``) on the columns in
    ``proc.order`` (expected worst first), the hypothesis named in the result's ``name``.
    """
    names = [str(a) for a in algorithms]
    if proc.omnibus == "durbin":
        canon = sorted(range(len(names)), key=lambda j: names[j])
        chi2, f = durbin_test(oriented[:, canon])
        return chi2, f
    assert proc.order is not None  # Procedure.resolve requires it with omnibus="page"
    columns = [names.index(a) for a in proc.order]
    res = page_test(oriented[:, columns], alternative="greater")
    name = f"{res.name}{_ORDER_WORDS}{page_hypothesis(proc.order)}"
    return OmnibusResult(res.statistic, res.pvalue, res.df, name), None

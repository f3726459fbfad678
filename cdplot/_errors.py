"""Exception and warning classes of cdplot."""

from __future__ import annotations

__all__ = ["CdplotInputError", "CdplotWarning", "PoolDependenceWarning"]


class CdplotInputError(ValueError):
    """Raised for input that cdplot cannot analyse; the message says how to fix it."""


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

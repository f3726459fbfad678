"""The rankings of the aligned-ranks and Quade tests, as García et al. (2010) tabulate them.

Friedman's average ranks are what ``compare()`` reports and draws for every test; the
aligned-ranks and Quade tests rank differently, and their post-hoc statistics compare their
own rankings:

* aligned ranks: all N k values ``x_ij - mean_i`` ranked together (1 = best), averaged
  per algorithm (values in 1..N k);
* Quade: ``W_ij = Q_i r_ij`` with ``Q_i`` the rank of dataset i's range, and the weighted
  average rank ``T_j = sum_i W_ij / (N (N + 1) / 2)`` (values in 1..k).
"""

from __future__ import annotations

from types import MappingProxyType

import numpy as np

from .._errors import CdplotInputError
from ._aligned import aligned_ranks
from ._catalogue import CATALOGUE
from ._quade import quade_scores

__all__ = ["OWN_RANK_LABELS", "aligned_own_ranks", "own_ranks", "quade_own_ranks"]

#: what each test's own ranking is called (an axis or column title); read-only, from the
#: tests' entries of the catalogue
OWN_RANK_LABELS = MappingProxyType(
    {name: t.own_rank_label for name, t in CATALOGUE.items() if t.own_ranking is not None}
)


def own_ranks(test: str, scores: np.ndarray) -> tuple[np.ndarray, np.ndarray, str]:
    """The per-dataset table, the per-algorithm average and the name of a test's ranking.

    Parameters
    ----------
    test : {"aligned-ranks", "quade"}
        The test (one with an own ranking in the catalogue).
    scores : array_like
        N x k scores, oriented so that higher is better; complete.

    Returns
    -------
    table : numpy.ndarray
        N x k aligned ranks (1..N k), or Quade's ``W_ij = Q_i r_ij``.
    average : numpy.ndarray
        k average aligned ranks, or Quade's ``T_j`` (1 = best in both).
    label : str
        :data:`OWN_RANK_LABELS` of the test.

    Examples
    --------
    >>> import cdplot
    >>> x = cdplot.datasets.load("demsar2006").to_numpy()
    >>> own_ranks("quade", x)[1].round(3).tolist()  # scmamp::quadePost's T
    [3.167, 2.124, 3.071, 1.638]
    """
    entry = CATALOGUE.get(test)
    if entry is None or entry.own_ranking is None or entry.own_rank_label is None:
        raise CdplotInputError(
            f"the {test!r} test has no ranking of its own; the tests that have one are "
            f"{', '.join(repr(t) for t, e in CATALOGUE.items() if e.own_ranking is not None)}."
        )
    table, average = entry.own_ranking.load()(np.asarray(scores, dtype=float))
    return table, average, entry.own_rank_label


def aligned_own_ranks(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The aligned ranks (1..N k) and their average per algorithm."""
    table = aligned_ranks(x)
    return table, table.mean(axis=0)


def quade_own_ranks(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Quade's ``W_ij = Q_i r_ij`` and ``T_j = sum_i W_ij / (N (N + 1) / 2)``."""
    n = x.shape[0]
    q, ranks, _ = quade_scores(x)
    w = q[:, None] * ranks
    return w, w.sum(axis=0) / (n * (n + 1) / 2.0)

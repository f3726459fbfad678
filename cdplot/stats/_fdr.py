"""False-discovery-rate adjustments: Benjamini-Hochberg (1995) and Benjamini-Yekutieli (2001).

They control the expected proportion of false rejections among the rejections (the FDR),
not the family-wise error rate: a rejection set they produce is not a set of pairs that
are all different with probability 1 - alpha, so no "not significantly different" groups
are read from them by default.

Kernels work row by row on an R x m array of p-values (one family per row), so the
simulation's batch path and the single-table path share them. Both equal R's
``p.adjust(p, "BH")`` / ``p.adjust(p, "BY")``, arithmetic included: the step-up factor
is computed as ``m / i`` (BH) and ``q * m / i`` with ``q = sum(1 / (1:m))`` (BY), in R's
order of operations, so the values agree to the last bit.
"""

from __future__ import annotations

import math

import numpy as np

from ._row_corrections import sorted_rows, unsort_rows

__all__ = ["FDR_CORRECTIONS", "benjamini_hochberg_rows", "benjamini_yekutieli_rows"]

#: canonical names of the corrections that control the FDR rather than the FWER
FDR_CORRECTIONS = ("fdr-bh", "fdr-by")


def _step_up_rows(p: np.ndarray, factor: np.ndarray) -> np.ndarray:
    """``APV_(i) = min(1, min_{j >= i} factor_j p_(j))`` on each row, ``factor`` by rank."""
    order, ps = sorted_rows(p)
    scaled = factor * ps
    apv = np.minimum(1.0, np.minimum.accumulate(scaled[:, ::-1], axis=1)[:, ::-1])
    return unsort_rows(order, apv)


def benjamini_hochberg_rows(pvalues: np.ndarray) -> np.ndarray:
    """Benjamini-Hochberg adjusted p-values of each row (R's ``p.adjust(p, "BH")``).

    ``APV_(i) = min(1, min_{j >= i} (m / j) p_(j))`` for the p-values of a row sorted
    ascending.

    Examples
    --------
    >>> import numpy as np
    >>> benjamini_hochberg_rows(np.array([[0.01, 0.04, 0.03]])).round(3).tolist()
    [[0.03, 0.04, 0.04]]
    """
    p = np.atleast_2d(np.asarray(pvalues, dtype=float))
    m = p.shape[1]
    if m == 0:
        return p.copy()
    return _step_up_rows(p, m / np.arange(1, m + 1, dtype=float))


def benjamini_yekutieli_rows(pvalues: np.ndarray) -> np.ndarray:
    """Benjamini-Yekutieli adjusted p-values of each row (R's ``p.adjust(p, "BY")``).

    ``APV_(i) = min(1, min_{j >= i} (q m / j) p_(j))`` with ``q = sum_{l=1}^m 1/l``;
    valid under any dependence between the tests.

    Examples
    --------
    >>> import numpy as np
    >>> benjamini_yekutieli_rows(np.array([[0.01, 0.04, 0.03]])).round(4).tolist()
    [[0.055, 0.0733, 0.0733]]
    """
    p = np.atleast_2d(np.asarray(pvalues, dtype=float))
    m = p.shape[1]
    if m == 0:
        return p.copy()
    q = math.fsum(1.0 / np.arange(1, m + 1, dtype=float))  # R sums in long double
    return _step_up_rows(p, q * m / np.arange(1, m + 1, dtype=float))

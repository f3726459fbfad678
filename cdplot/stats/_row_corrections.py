"""Row-wise kernels of the closed-form p-value corrections, and the row sort they share.

Every correction is written once, row-wise: on an R x m array of p-values, each row one
family of hypotheses (a simulation adjusts thousands at once, ``stats/_batch.py``); the 1-D
procedures of ``_adjust``'s registries run the same kernel on a single row. Holland and Rom
(``_sidak_rom``) and the false-discovery-rate procedures (``_fdr``) use the sort helpers
here; ``_adjust`` is the registry above all of them.
"""

from __future__ import annotations

import numpy as np

from ._shaffer import shaffer_multipliers

__all__ = [
    "bonferroni_rows",
    "finner_rows",
    "hochberg_rows",
    "holm_rows",
    "hommel_rows",
    "li_rows",
    "none_rows",
    "shaffer_rows",
    "sorted_rows",
    "step_down_rows",
    "unsort_rows",
]


def sorted_rows(p: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each row sorted ascending (stable) and the order that sorted it.

    One row (a single table) by plain indexing, which is faster there than
    ``take_along_axis`` (faster for many rows); the values are the same.
    """
    order = np.argsort(p, axis=1, kind="stable")
    if p.shape[0] == 1:
        return order, p[0, order[0]][None, :]
    return order, np.take_along_axis(p, order, axis=1)


def unsort_rows(order: np.ndarray, values: np.ndarray) -> np.ndarray:
    out = np.empty_like(values)
    if values.shape[0] == 1:
        out[0, order[0]] = values[0]
    else:
        np.put_along_axis(out, order, values, axis=1)
    return out


def none_rows(p: np.ndarray) -> np.ndarray:
    return p.copy()


def bonferroni_rows(p: np.ndarray) -> np.ndarray:
    return np.minimum(1.0, p.shape[1] * p)


def step_down_rows(p: np.ndarray, multipliers: np.ndarray) -> np.ndarray:
    """Step-down ``APV_(i) = min(1, max_{j<=i} t_j p_(j))`` on each row (Holm, Shaffer)."""
    order, ps = sorted_rows(p)
    apv = np.minimum(1.0, np.maximum.accumulate(multipliers * ps, axis=1))
    return unsort_rows(order, apv)


def holm_rows(p: np.ndarray) -> np.ndarray:
    """Holm (1979) step-down: ``APV_(i) = min(1, max_{j<=i} (m - j + 1) p_(j))``."""
    m = p.shape[1]
    return step_down_rows(p, (m - np.arange(m)).astype(float))


def hochberg_rows(p: np.ndarray) -> np.ndarray:
    """Hochberg (1988) step-up: ``APV_(i) = min_{j>=i} min(1, (m - j + 1) p_(j))``."""
    m = p.shape[1]
    order, ps = sorted_rows(p)
    apv = np.minimum.accumulate(((m - np.arange(m)) * ps)[:, ::-1], axis=1)[:, ::-1]
    return unsort_rows(order, np.minimum(1.0, apv))


def hommel_rows(p: np.ndarray) -> np.ndarray:
    """Hommel (1988), computed as R's ``p.adjust(p, "hommel")``.

    For m = 2 it coincides with Hochberg's procedure (R switches to it too).
    """
    m = p.shape[1]
    if m == 1:
        return p.copy()
    if m == 2:
        return hochberg_rows(p)
    order, ps = sorted_rows(p)
    idx = np.arange(1, m + 1)
    q = np.repeat(np.min(m * ps / idx, axis=1)[:, None], m, axis=1)
    pa = q.copy()
    for size in range(m - 1, 1, -1):
        head = m - size + 1  # hypotheses 1..head handled by the "m * p" branch
        q1 = np.min(size * ps[:, head:] / np.arange(2, size + 1), axis=1)
        q[:, :head] = np.minimum(size * ps[:, :head], q1[:, None])
        q[:, head:] = q[:, head - 1 : head]
        pa = np.maximum(pa, q)
    return unsort_rows(order, np.minimum(1.0, np.maximum(pa, ps)))


def finner_rows(p: np.ndarray) -> np.ndarray:
    """Finner (1993) step-down: ``APV_(i) = max_{j<=i} 1 - (1 - p_(j))^(m / j)``.

    Computed as ``-expm1((m / j) log1p(-p))`` so that tiny p-values keep their digits.
    """
    m = p.shape[1]
    order, ps = sorted_rows(p)
    with np.errstate(divide="ignore"):
        raw = -np.expm1((m / np.arange(1, m + 1)) * np.log1p(-ps))
    apv = np.minimum(1.0, np.maximum.accumulate(raw, axis=1))
    return unsort_rows(order, np.maximum(apv, ps))


def li_rows(p: np.ndarray) -> np.ndarray:
    """Li (2008): ``APV_i = p_i / (p_i + 1 - p_max)``; the largest p is its own APV."""
    pmax = np.max(p, axis=1, keepdims=True)
    denom = p + (1.0 - pmax)
    with np.errstate(invalid="ignore", divide="ignore"):
        apv = np.where(denom > 0, p / denom, 0.0)
    return np.minimum(1.0, np.maximum(apv, p))


def shaffer_rows(p: np.ndarray, k: int) -> np.ndarray:
    """Shaffer's static procedure: ``APV_(i) = min(1, max_{j<=i} t_j p_(j))``.

    ``t_j`` is the largest number of hypotheses that can be true once j - 1 are
    rejected, from the S(k) recursion (García & Herrera 2008 §2.1).
    """
    return step_down_rows(p, np.asarray(shaffer_multipliers(k), dtype=float))

"""Holland's step-down Šidák and Rom's step-up procedures, with exact adjusted p-values.

Holland & Copenhaver (1987): ``APV_(i) = min(1, max_{j <= i} 1 - (1 - p_(j))^(m - j + 1))``
(García, Fernández, Luengo & Herrera 2010, §3).

Rom (1990): with the p-values sorted ascending, ``H_(i)`` is rejected at level alpha when
some ``j >= i`` has ``p_(j) <= c_{m - j + 1}(alpha)``; the critical values are
``c_1 = alpha``, ``c_2 = alpha / 2`` and, for ``i >= 3``,
``c_i = (sum_{j=1}^{i-1} alpha^j - sum_{j=1}^{i-2} C(i, j) c_{j+1}^{i-j}) / i``.
They depend on alpha non-linearly, so the adjusted p-value -- the smallest alpha at which
the hypothesis is rejected -- is found by solving ``c_r(alpha) = p_(j)`` for alpha (a
safeguarded Newton iteration to the last bit), then taking the running minimum from the
largest p-value down. scmamp's ``adjustRom`` instead multiplies each p-value by the ratio
``alpha / c_r(alpha)`` at the one alpha it is given (0.05 by default), which is exact only
at that alpha; its adjusted p-values are close to, but not, the smallest rejecting level.

Kernels work row by row on an R x m array (one family per row).
"""

from __future__ import annotations

import numpy as np

from ._row_corrections import sorted_rows, unsort_rows

__all__ = ["ROM_MAX_HYPOTHESES", "holland_rows", "rom_critical_values", "rom_rows"]

#: Rom's exact adjusted p-values cost O(m^3) per Newton step; beyond this many hypotheses
#: (190 = all pairs of 20 algorithms) they are refused with a pointer to Hommel's procedure
ROM_MAX_HYPOTHESES = 190


def holland_rows(pvalues: np.ndarray) -> np.ndarray:
    """Holland's step-down Šidák adjusted p-values of each row of an R x m array.

    Examples
    --------
    >>> import numpy as np
    >>> holland_rows(np.array([[0.01, 0.04, 0.03]])).round(4).tolist()
    [[0.0297, 0.0591, 0.0591]]
    """
    p = np.atleast_2d(np.asarray(pvalues, dtype=float))
    m = p.shape[1]
    if m == 0:
        return p.copy()
    order, ps = sorted_rows(p)
    with np.errstate(divide="ignore"):
        raw = -np.expm1((m - np.arange(m)) * np.log1p(-ps))
    apv = np.minimum(1.0, np.maximum.accumulate(np.maximum(raw, ps), axis=1))
    return unsort_rows(order, apv)


def _rom_recursion(alpha: np.ndarray, m: int) -> tuple[np.ndarray, np.ndarray]:
    """``c_1..c_m`` and their derivatives in alpha, for every alpha (shape (m, *alpha.shape)).

    The sum of binomial terms is evaluated in logarithms: ``C(i, j)`` overflows a float
    for large i while ``c^(i - j)`` underflows, their product does neither.
    """
    from scipy import special  # on first use: `import cdplot` does not load scipy.special

    # at least 1-D: sums over axis 0 then add row by row whatever the number of alphas,
    # so c_r(alpha) is the same float however many alphas are evaluated together
    a = np.atleast_1d(np.asarray(alpha, dtype=float))
    c = np.zeros((m, *a.shape))
    dc = np.zeros((m, *a.shape))
    c[0], dc[0] = a, 1.0
    if m > 1:
        c[1], dc[1] = a / 2.0, 0.5
    geom = np.zeros(a.shape)  # sum_{j=1}^{i-1} alpha^j, added one term at a time
    dgeom = np.zeros(a.shape)
    for e in (1, 2):
        geom, dgeom = geom + a**e, dgeom + e * a ** (e - 1)
    with np.errstate(divide="ignore"):
        logc = np.log(c)
    for i in range(3, m + 1):
        j = np.arange(1, i - 1)
        shape = (slice(None),) + (None,) * a.ndim
        expo = (i - j).astype(float)[shape]
        log_binom = (special.gammaln(i + 1) - special.gammaln(j + 1) - special.gammaln(i - j + 1))[
            shape
        ]
        base = logc[j]  # log c_{j+1}
        with np.errstate(invalid="ignore"):
            terms = np.exp(log_binom + expo * base)
            dterms = np.where(terms > 0, terms * expo * dc[j] / c[j], 0.0)
        # cumsum adds in sequence whatever the memory layout (np.sum may pair terms), so
        # the value does not depend on how many alphas are evaluated together
        c[i - 1] = (geom - np.cumsum(terms, axis=0)[-1]) / i
        dc[i - 1] = (dgeom - np.cumsum(dterms, axis=0)[-1]) / i
        geom, dgeom = geom + a**i, dgeom + i * a ** (i - 1)
        with np.errstate(divide="ignore", invalid="ignore"):
            logc[i - 1] = np.log(c[i - 1])
    return c, dc


def rom_critical_values(alpha: float, m: int) -> np.ndarray:
    """Rom's critical values ``c_1, ..., c_m`` at level ``alpha`` (``c_1 = alpha``).

    Examples
    --------
    >>> rom_critical_values(0.05, 4).round(5).tolist()
    [0.05, 0.025, 0.01688, 0.01271]
    """
    return _rom_recursion(np.asarray(float(alpha)), m)[0][:, 0]


def _solve_rom(p: np.ndarray, r: np.ndarray, m: int) -> np.ndarray:
    """The smallest alpha in [0, 1] with ``c_r(alpha) >= p`` for each (p, r); 1 when none.

    ``c_r`` increases in alpha with ``alpha / r <= c_r(alpha) <= alpha`` (checked in the
    tests), so the root lies in ``[p, min(1, r p)]``; Newton steps that leave the
    bracket are replaced by bisection.
    """
    lo = p.copy()
    hi = np.minimum(1.0, r * p)
    top = _rom_recursion(np.ones(1), m)[0][:, 0]
    never = top[r - 1] < p  # not rejected even at alpha = 1
    active = np.flatnonzero(~never & (lo < hi))
    x = 0.5 * (lo + hi)
    for _ in range(200):
        if active.size == 0:
            break
        xa, idx = x[active], r[active] - 1
        c, dc = _rom_recursion(xa, int(idx.max()) + 1)
        f = c[idx, np.arange(active.size)] - p[active]
        df = dc[idx, np.arange(active.size)]
        lo[active] = np.where(f < 0, xa, lo[active])
        hi[active] = np.where(f >= 0, xa, hi[active])
        with np.errstate(divide="ignore", invalid="ignore"):
            newton = xa - f / df
        la, ha = lo[active], hi[active]
        nxt = np.where((newton > la) & (newton < ha), newton, 0.5 * (la + ha))
        done = (ha - la <= 4 * np.spacing(ha)) | (f == 0) | (nxt == xa)
        x[active] = nxt
        active = active[~done]
    # hi is a point with c_r(hi) >= p (or the bound r p), within 4 ulp of the root
    return np.where(never, 1.0, hi)


def rom_rows(pvalues: np.ndarray) -> np.ndarray:
    """Rom's adjusted p-values of each row of an R x m array: the smallest rejecting alpha.

    Examples
    --------
    >>> import numpy as np
    >>> rom_rows(np.array([[0.01, 0.04, 0.03]])).round(4).tolist()
    [[0.0298, 0.04, 0.04]]
    """
    p = np.atleast_2d(np.asarray(pvalues, dtype=float))
    m = p.shape[1]
    if m == 0:
        return p.copy()
    order, ps = sorted_rows(p)
    r = np.broadcast_to(m - np.arange(m), ps.shape)  # c_{m - j + 1} for the j-th smallest
    # alpha*_j lies in [p_(j), min(1, r p_(j))]; it matters only when it can undercut the
    # minimum over the larger p-values, i.e. when p_(j) is below their smallest upper bound
    upper = np.minimum(1.0, r * ps)
    later = np.minimum.accumulate(upper[:, ::-1], axis=1)[:, ::-1]
    later = np.concatenate((later[:, 1:], np.ones((ps.shape[0], 1))), axis=1)
    need = ps < later
    need[:, -1] = True
    solved = np.full(ps.shape, np.inf)
    solved[need] = _solve_rom(ps[need], r[need], m)
    apv = np.minimum.accumulate(solved[:, ::-1], axis=1)[:, ::-1]
    return unsort_rows(order, np.minimum(1.0, np.maximum(apv, ps)))

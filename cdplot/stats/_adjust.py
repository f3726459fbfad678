"""Adjusted p-values (APVs): one registry of correction procedures, canonical names + aliases.

Every procedure maps raw p-values to adjusted p-values with ``raw <= APV <= 1``; a
hypothesis is rejected at level alpha when its APV is at most alpha. Formulas follow
García & Herrera (2008) §3 and García, Fernández, Luengo & Herrera (2010) (Finner, Li);
Hommel's procedure follows R's ``p.adjust``. Holland and Rom are in ``_sidak_rom``,
Benjamini-Hochberg and Benjamini-Yekutieli (FDR, not FWER) in ``_fdr``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from .._errors import (
    BergmannHommelLimitError,
    CdplotInputError,
    check_in_list,
    normalize_name,
    spell,
)

_Simple = Callable[[np.ndarray], np.ndarray]

__all__ = [
    "ALL_PAIRS_CORRECTIONS",
    "BH_DEFAULT_BUDGET",
    "CONTROL_CORRECTIONS",
    "adjust_all_pairs",
    "adjust_control",
    "check_bh_budget",
    "resolve_correction",
]


# Every correction is written once, row-wise: on an R x m array of p-values, each row one
# family of hypotheses (a simulation adjusts thousands at once, stats/_batch.py). The 1-D
# procedures of the registries below run the same kernel on a single row.


def _sorted_rows(p: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each row sorted ascending (stable) and the order that sorted it.

    One row (a single table) by plain indexing, which is faster there than
    ``take_along_axis`` (faster for many rows); the values are the same.
    """
    order = np.argsort(p, axis=1, kind="stable")
    if p.shape[0] == 1:
        return order, p[0, order[0]][None, :]
    return order, np.take_along_axis(p, order, axis=1)


def _unsort_rows(order: np.ndarray, values: np.ndarray) -> np.ndarray:
    out = np.empty_like(values)
    if values.shape[0] == 1:
        out[0, order[0]] = values[0]
    else:
        np.put_along_axis(out, order, values, axis=1)
    return out


def _none_rows(p: np.ndarray) -> np.ndarray:
    return p.copy()


def _bonferroni_rows(p: np.ndarray) -> np.ndarray:
    return np.minimum(1.0, p.shape[1] * p)


def step_down_rows(p: np.ndarray, multipliers: np.ndarray) -> np.ndarray:
    """Step-down ``APV_(i) = min(1, max_{j<=i} t_j p_(j))`` on each row (Holm, Shaffer)."""
    order, ps = _sorted_rows(p)
    apv = np.minimum(1.0, np.maximum.accumulate(multipliers * ps, axis=1))
    return _unsort_rows(order, apv)


def _holm_rows(p: np.ndarray) -> np.ndarray:
    """Holm (1979) step-down: ``APV_(i) = min(1, max_{j<=i} (m - j + 1) p_(j))``."""
    m = p.shape[1]
    return step_down_rows(p, (m - np.arange(m)).astype(float))


def _hochberg_rows(p: np.ndarray) -> np.ndarray:
    """Hochberg (1988) step-up: ``APV_(i) = min_{j>=i} min(1, (m - j + 1) p_(j))``."""
    m = p.shape[1]
    order, ps = _sorted_rows(p)
    apv = np.minimum.accumulate(((m - np.arange(m)) * ps)[:, ::-1], axis=1)[:, ::-1]
    return _unsort_rows(order, np.minimum(1.0, apv))


def _hommel_rows(p: np.ndarray) -> np.ndarray:
    """Hommel (1988), computed as R's ``p.adjust(p, "hommel")``.

    For m = 2 it coincides with Hochberg's procedure (R switches to it too).
    """
    m = p.shape[1]
    if m == 1:
        return p.copy()
    if m == 2:
        return _hochberg_rows(p)
    order, ps = _sorted_rows(p)
    idx = np.arange(1, m + 1)
    q = np.repeat(np.min(m * ps / idx, axis=1)[:, None], m, axis=1)
    pa = q.copy()
    for size in range(m - 1, 1, -1):
        head = m - size + 1  # hypotheses 1..head handled by the "m * p" branch
        q1 = np.min(size * ps[:, head:] / np.arange(2, size + 1), axis=1)
        q[:, :head] = np.minimum(size * ps[:, :head], q1[:, None])
        q[:, head:] = q[:, head - 1 : head]
        pa = np.maximum(pa, q)
    return _unsort_rows(order, np.minimum(1.0, np.maximum(pa, ps)))


def _finner_rows(p: np.ndarray) -> np.ndarray:
    """Finner (1993) step-down: ``APV_(i) = max_{j<=i} 1 - (1 - p_(j))^(m / j)``.

    Computed as ``-expm1((m / j) log1p(-p))`` so that tiny p-values keep their digits.
    """
    m = p.shape[1]
    order, ps = _sorted_rows(p)
    with np.errstate(divide="ignore"):
        raw = -np.expm1((m / np.arange(1, m + 1)) * np.log1p(-ps))
    apv = np.minimum(1.0, np.maximum.accumulate(raw, axis=1))
    return _unsort_rows(order, np.maximum(apv, ps))


def _li_rows(p: np.ndarray) -> np.ndarray:
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
    from ._shaffer import shaffer_multipliers

    return step_down_rows(p, np.asarray(shaffer_multipliers(k), dtype=float))


#: canonical name -> row-wise kernel (R x m -> R x m), for the corrections with a closed form
ROW_CORRECTIONS: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "none": _none_rows,
    "bonferroni": _bonferroni_rows,
    "bonferroni-dunn": _bonferroni_rows,
    "holm": _holm_rows,
    "hochberg": _hochberg_rows,
    "hommel": _hommel_rows,
    "finner": _finner_rows,
    "li": _li_rows,
}


def _issue30_rows(name: str) -> Callable[[np.ndarray], np.ndarray]:
    """Holland, Rom and the false-discovery-rate procedures (``_sidak_rom``, ``_fdr``), row-wise.

    Imported on first use (Rom's exact critical values need ``scipy.special``).
    """

    def run(p: np.ndarray) -> np.ndarray:
        from . import _fdr, _sidak_rom

        if name == "rom" and p.shape[1] > _sidak_rom.ROM_MAX_HYPOTHESES:
            raise CdplotInputError(
                f"exact Rom adjusted p-values are limited to "
                f"{_sidak_rom.ROM_MAX_HYPOTHESES} hypotheses (all pairs of 20 algorithms), "
                f"got {p.shape[1]}; use {spell('correction', 'hommel')} or "
                f"{spell('correction', 'hochberg')} (step-up procedures valid for any number)."
            )
        kernel = {
            "holland": _sidak_rom.holland_rows,
            "rom": _sidak_rom.rom_rows,
            "fdr-bh": _fdr.benjamini_hochberg_rows,
            "fdr-by": _fdr.benjamini_yekutieli_rows,
        }[name]
        return kernel(p)

    return run


#: corrections of issue 30 (Holland, Rom, Benjamini-Hochberg, Benjamini-Yekutieli), all pairs
#: and against a control
FWER_AND_FDR_EXTRA = ("holland", "rom", "fdr-bh", "fdr-by")
ROW_CORRECTIONS.update({name: _issue30_rows(name) for name in FWER_AND_FDR_EXTRA})


def _one_row(kernel: Callable[[np.ndarray], np.ndarray]) -> _Simple:
    """The 1-D procedure of a row-wise kernel."""
    return lambda p: kernel(np.asarray(p, dtype=float)[None, :])[0]


#: Default time budget (seconds) of the exact Bergmann-Hommel search.
BH_DEFAULT_BUDGET = 10.0


def _bergmann_hommel(
    p: np.ndarray,
    k: int,
    *,
    bh_budget: float | None = BH_DEFAULT_BUDGET,
    order: Sequence[int] | None = None,
) -> np.ndarray:
    from ._exhaustive import bergmann_hommel

    i, j = np.triu_indices(k, 1)
    mat = np.full((k, k), np.nan)
    mat[i, j] = p
    mat[j, i] = p
    try:
        return np.asarray(bergmann_hommel(mat, bh_budget=bh_budget, order=order))[i, j]
    except BergmannHommelLimitError:
        raise BergmannHommelLimitError(
            f"exact Bergmann-Hommel adjusted p-values for k = {k} algorithms did not finish "
            f"within the budget of {bh_budget:g} s; these p-values have too little structure "
            f"for an exact answer at this k. Use {spell('correction', 'shaffer')} (or "
            f"{spell('correction', 'holm')}), valid for any k, or raise the budget, e.g. "
            f"{spell('bh_budget', _next_budget(bh_budget))}."
        ) from None


def _next_budget(budget: float) -> int:
    """A larger budget to suggest: ten times as much (at least a minute), in whole seconds."""
    return max(60, round(10 * budget))


def check_bh_budget(budget: object) -> float | None:
    """A positive number of seconds, or None (or infinity) for no limit."""
    if budget is None:
        return None
    try:
        value = float(budget)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        value = float("nan")
    if isinstance(budget, bool) or not value > 0:
        raise CdplotInputError(
            f"{spell('bh_budget')} must be a positive number of seconds, got {budget!r} "
            f"(e.g. {spell('bh_budget', 60)})."
        )
    return None if value == float("inf") else value


#: canonical name -> procedure on the m = k(k-1)/2 pairwise p-values (upper-triangle order)
ALL_PAIRS_CORRECTIONS: dict[str, Callable[[np.ndarray, int], np.ndarray]] = {
    **{
        name: (lambda one: lambda p, k: one(p))(_one_row(ROW_CORRECTIONS[name]))
        for name in ("none", "bonferroni", "holm", "hochberg", "hommel", "finner")
        + FWER_AND_FDR_EXTRA
    },
    "shaffer": lambda p, k: shaffer_rows(np.asarray(p, dtype=float)[None, :], k)[0],
    "bergmann-hommel": lambda p, k: _bergmann_hommel(p, k),
}

#: canonical name -> procedure on the k - 1 p-values against a control
CONTROL_CORRECTIONS: dict[str, _Simple] = {
    name: _one_row(ROW_CORRECTIONS[name])
    for name in (
        "none",
        "bonferroni-dunn",
        "holm",
        "hochberg",
        "hommel",
        "finner",
        "li",
        *FWER_AND_FDR_EXTRA,
    )
}

_ALIASES = {
    "bergmann": "bergmann-hommel",
    "shaffer-static": "shaffer",
    "dunn": "bonferroni-dunn",
    "bh": "fdr-bh",
    "benjamini-hochberg": "fdr-bh",
    "by": "fdr-by",
    "benjamini-yekutieli": "fdr-by",
    "sidak-holland": "holland",
}


def resolve_correction(name: str, *, control: bool) -> str:
    """Canonical correction name, or a :class:`CdplotInputError` listing the valid ones.

    Names are case-insensitive; ``_`` and spaces count as ``-``. In control mode
    ``"bonferroni"`` means Bonferroni-Dunn.
    """
    table = CONTROL_CORRECTIONS if control else ALL_PAIRS_CORRECTIONS
    aliases = {**_ALIASES, "bonferroni": "bonferroni-dunn"} if control else _ALIASES
    mode = "comparisons with a control" if control else "all-pairs comparisons"
    try:
        return check_in_list(table, aliases=aliases, context=f"in {mode}", correction=name)
    except CdplotInputError as exc:
        key = normalize_name(name) if isinstance(name, str) else ""
        key = _ALIASES.get(key, key)
        if control and key in ALL_PAIRS_CORRECTIONS:
            hint = f"{name!r} applies to all-pairs comparisons; drop {spell('control')} to use it"
        elif not control and key in CONTROL_CORRECTIONS:
            hint = (
                f"{name!r} applies to comparisons with a control; pass "
                f"{spell('control', 'NAME')} to use it"
            )
        else:
            raise
        raise CdplotInputError(f"{hint}. {exc}") from None


def _equal_evidence(p: np.ndarray, apv: np.ndarray) -> np.ndarray:
    """Give hypotheses with equal raw p-values the largest APV among them.

    Step-wise procedures handle the i-th smallest p-value, so tied p-values occupy
    different steps; Holm, Hochberg, Finner, Shaffer and Bergmann-Hommel give them equal
    APVs anyway, this makes sure every procedure does (Hommel's can differ). Taking the
    largest keeps the family-wise error control (an APV only grows).
    """
    if p.size < 2:
        return apv
    order = np.argsort(p, kind="stable")
    ps = p[order]
    starts = np.flatnonzero(np.concatenate(([True], ps[1:] != ps[:-1])))
    if starts.size == p.size:  # no ties
        return apv
    block_max = np.maximum.reduceat(apv[order], starts)
    out = np.empty_like(apv)
    out[order] = np.repeat(block_max, np.diff(np.append(starts, p.size)))
    return out


def adjust_all_pairs(
    pvalues: np.ndarray,
    k: int,
    correction: str,
    *,
    bh_budget: float | None = BH_DEFAULT_BUDGET,
    order: Sequence[int] | None = None,
) -> np.ndarray:
    """APVs for the k(k-1)/2 pairwise p-values, in ``np.triu_indices(k, 1)`` order.

    Equal raw p-values get equal APVs under every correction. ``bh_budget`` (seconds,
    None for no limit) and ``order`` (a
    hint: an order of the algorithms in which the p-values form a Robinson matrix, such
    as the average-rank order for mean-ranks p-values) only concern
    ``"bergmann-hommel"``.

    Examples
    --------
    >>> import numpy as np
    >>> from cdplot.stats import adjust_all_pairs
    >>> adjust_all_pairs(np.array([0.01, 0.02, 0.04]), 3, 'holm')
    array([0.03, 0.04, 0.04])
    """
    p = np.asarray(pvalues, dtype=float)
    name = resolve_correction(correction, control=False)
    if name == "bergmann-hommel":
        apv = _bergmann_hommel(p, k, bh_budget=check_bh_budget(bh_budget), order=order)
    else:
        apv = ALL_PAIRS_CORRECTIONS[name](p, k)
    return _equal_evidence(p, apv)


def adjust_control(pvalues: np.ndarray, correction: str) -> np.ndarray:
    """APVs for the k - 1 p-values of comparisons against a control.

    Equal raw p-values get equal APVs under every correction.

    Examples
    --------
    >>> import numpy as np
    >>> from cdplot.stats import adjust_control
    >>> adjust_control(np.array([0.01, 0.04, 0.03]), 'holm')
    array([0.03, 0.06, 0.06])
    """
    p = np.asarray(pvalues, dtype=float)
    apv = CONTROL_CORRECTIONS[resolve_correction(correction, control=True)](p)
    return _equal_evidence(p, apv)

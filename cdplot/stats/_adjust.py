"""Adjusted p-values (APVs): one registry of correction procedures, canonical names + aliases.

Every procedure maps raw p-values to adjusted p-values with ``raw <= APV <= 1``; a
hypothesis is rejected at level alpha when its APV is at most alpha. Formulas follow
García & Herrera (2008) §3 and García, Fernández, Luengo & Herrera (2010) (Finner, Li);
Hommel's procedure follows R's ``p.adjust``. The row-wise kernels are in
``_row_corrections``, Holland and Rom in ``_sidak_rom``, Benjamini-Hochberg and
Benjamini-Yekutieli (FDR, not FWER) in ``_fdr``, the exact Bergmann-Hommel engine in
``_exhaustive``; this module is the registry above them.
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
from . import _fdr, _sidak_rom
from ._bh_budget import BH_DEFAULT_BUDGET
from ._exhaustive import bergmann_hommel
from ._row_corrections import (
    bonferroni_rows,
    finner_rows,
    hochberg_rows,
    holm_rows,
    hommel_rows,
    li_rows,
    none_rows,
    shaffer_rows,
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


#: canonical name -> row-wise kernel (R x m -> R x m), for the corrections with a closed form
ROW_CORRECTIONS: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "none": none_rows,
    "bonferroni": bonferroni_rows,
    "bonferroni-dunn": bonferroni_rows,
    "holm": holm_rows,
    "hochberg": hochberg_rows,
    "hommel": hommel_rows,
    "finner": finner_rows,
    "li": li_rows,
}


def _rom_within_limit(p: np.ndarray) -> np.ndarray:
    """Rom's exact adjusted p-values, refused beyond ``ROM_MAX_HYPOTHESES`` hypotheses."""
    if p.shape[1] > _sidak_rom.ROM_MAX_HYPOTHESES:
        raise CdplotInputError(
            f"exact Rom adjusted p-values are limited to "
            f"{_sidak_rom.ROM_MAX_HYPOTHESES} hypotheses (all pairs of 20 algorithms), "
            f"got {p.shape[1]}; use {spell('correction', 'hommel')} or "
            f"{spell('correction', 'hochberg')} (step-up procedures valid for any number)."
        )
    return _sidak_rom.rom_rows(p)


#: Holland, Rom (``_sidak_rom``) and the false-discovery-rate procedures (``_fdr``), all
#: pairs and against a control
FWER_AND_FDR_EXTRA = ("holland", "rom", "fdr-bh", "fdr-by")
ROW_CORRECTIONS.update(
    {
        "holland": _sidak_rom.holland_rows,
        "rom": _rom_within_limit,
        "fdr-bh": _fdr.benjamini_hochberg_rows,
        "fdr-by": _fdr.benjamini_yekutieli_rows,
    }
)


def _one_row(kernel: Callable[[np.ndarray], np.ndarray]) -> _Simple:
    """The 1-D procedure of a row-wise kernel."""
    return lambda p: kernel(np.asarray(p, dtype=float)[None, :])[0]


def _bergmann_hommel(
    p: np.ndarray,
    k: int,
    *,
    bh_budget: float | None = BH_DEFAULT_BUDGET,
    order: Sequence[int] | None = None,
) -> np.ndarray:
    i, j = np.triu_indices(k, 1)
    mat = np.full((k, k), np.nan)
    mat[i, j] = p
    mat[j, i] = p
    try:
        return np.asarray(bergmann_hommel(mat, bh_budget=bh_budget, order=order))[i, j]
    except BergmannHommelLimitError:
        if bh_budget is None:  # no time budget: the search stopped for another reason
            raise
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

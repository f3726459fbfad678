"""Compact fields of the interactive page's payload: numbers as base64 of typed arrays.

The page's script reads these into ``Float64Array`` values without parsing one JSON number
per cell: the scores (when that is shorter than JSON lists) and, for the Wilcoxon test, the
full table's per-pair signed-rank sums computed by the test's own kernel, so that the page
does not sort every pair's differences again when it opens with every dataset ticked.
"""

from __future__ import annotations

import base64
import json
from typing import TYPE_CHECKING, Any

from ..stats._catalogue import entry_of

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

    from ..stats._results import ComparisonResult

__all__ = ["pair_sums_field", "packed", "scores_field"]

#: Unsigned widths in bytes the page reads (``Uint8Array`` ... ``Uint32Array``); anything
#: else is written as float64.
_UNSIGNED = (1, 2, 4)


def packed(values: np.ndarray) -> dict[str, Any]:
    """``{"bytes": b, "data": base64}``: little-endian unsigned integers of the fewest bytes
    that hold every value, or float64 (``bytes`` 8) when a value is not such an integer."""
    import numpy as np

    values = np.asarray(values, dtype=float)
    top = float(values.max()) if values.size else 0.0
    whole = bool(np.all(values >= 0) and np.all(values == np.floor(values)))
    for size in _UNSIGNED:
        if whole and top < 2.0 ** (8 * size):
            data = values.astype(f"<u{size}").tobytes()
            return {"bytes": size, "data": base64.b64encode(data).decode("ascii")}
    data = values.astype("<f8").tobytes()
    return {"bytes": 8, "data": base64.b64encode(data).decode("ascii")}


def scores_field(scores: np.ndarray) -> str | list[list[float]]:
    """The scores as the shorter of JSON lists and base64 of little-endian float64 values.

    Scores with few digits (accuracies to four decimals) are shorter as JSON; full-precision
    values (up to 19 characters each) are shorter as 8 bytes in base64 (under 11 characters).
    Both give the page the same doubles.
    """
    import numpy as np

    data = np.ascontiguousarray(scores, dtype="<f8").tobytes()
    text = base64.b64encode(data).decode("ascii")
    listed = scores.tolist()
    if len(text) < len(json.dumps(listed, allow_nan=False, separators=(",", ":"))):
        return text
    return listed


def pair_sums_field(result: ComparisonResult) -> dict[str, Any] | None:
    """The full table's Wilcoxon sums of every pair i < j (row by row), or None.

    Per pair: twice the rank sum of the negative differences (all N absolute differences
    ranked together, zeros included), the numbers of negative and of zero differences and
    the tie term ``sum(t**3 - t)`` of the non-zero ``|d|`` blocks, as
    :func:`cdplot.stats._pairwise.wilcoxon_columns` computes them; ``zeros`` and ``ties``
    are null when every pair's is zero. None for another test or against a control (the
    page then sums the few pairs it needs itself).
    """
    entry = entry_of(result.test)
    signed_ranks = entry is not None and getattr(entry.ordered, "function", None) == (
        "wilcoxon_columns"
    )  # the tests whose kernel sums signed ranks
    if not signed_ranks or result.control is not None:
        return None
    import numpy as np

    from ..stats._pairwise import HUGE, _signed_rank_sums

    scores = np.asarray(result.scores, dtype=float)
    halve = bool(scores.size) and max(float(scores.max()), -float(scores.min())) >= HUGE
    r_minus, n_neg, n_zero, tie_sum, _ = _signed_rank_sums(
        scores, None, halve, negate=not result.higher_is_better
    )
    return {
        "rankMinus2": packed(2.0 * r_minus),
        "negatives": packed(n_neg),
        "zeros": packed(n_zero) if n_zero.any() else None,
        "ties": packed(tie_sum) if tie_sum.any() else None,
    }

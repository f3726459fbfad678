"""Searches of a benchmark plan: the smallest N, or the smallest difference, whose simulated
power reaches the target, by bracketing then bisection (not a dense grid).

Every evaluation runs the simulation with the same seed, so the points share their random
numbers (common random numbers): the simulated power is then nearly monotone in N and in
the difference, and a bisection on it is stable.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

__all__ = ["Evaluation", "crossing_se", "search_difference", "search_n"]

#: the difference search stops once its bracket's two powers are within this many Monte
#: Carlo standard errors (a finer bracket would only follow the noise) ...
SE_STOP = 2.0
#: ... or its width is this share of its upper end (a step of the power, as resampled
#: rank tests have, is then located well enough) ...
REL_STOP = 0.01
#: ... or after this many bisection steps
MAX_BISECTIONS = 14
#: doublings of the difference at most while bracketing it from above
MAX_DOUBLINGS = 20


@dataclass(frozen=True)
class Evaluation:
    """One simulated design point: its size ``n``, the planted ``difference``, the power
    and its Monte Carlo standard error."""

    n: int
    difference: float
    power: float
    se: float


Power = Callable[[int, float], Evaluation]


def search_n(
    evaluate: Power, difference: float, start: int, lowest: int, highest: int, target: float
) -> tuple[int | None, list[Evaluation]]:
    """The smallest N in ``[lowest, highest]`` whose power reaches ``target``.

    Brackets from ``start`` by doubling (up) or halving (down), then narrows the integer
    bracket by regula falsi on the power, with a bisection step after any step that did
    not halve it (so at most twice the steps of a bisection). Returns ``(N or None when
    even highest falls short, the evaluations)``.
    """
    seen: dict[int, Evaluation] = {}

    def power(n: int) -> float:
        if n not in seen:
            seen[n] = evaluate(n, difference)
        return seen[n].power

    n = min(max(start, lowest), highest)
    if power(n) >= target:
        hi = n
        lo = None
        while lo is None:
            if hi == lowest:
                return lowest, _ordered(seen)
            cand = max(lowest, hi // 2)
            if power(cand) >= target:
                hi = cand
            else:
                lo = cand
    else:
        lo = n
        hi = None
        while hi is None:
            if lo == highest:
                return None, _ordered(seen)
            cand = min(highest, lo * 2)
            if power(cand) >= target:
                hi = cand
            else:
                lo = cand
    bisect = False
    while hi - lo > 1:
        width = hi - lo
        mid = (lo + hi) // 2 if bisect else _interpolate(lo, hi, seen, target)
        if power(mid) >= target:
            hi = mid
        else:
            lo = mid
        # an interpolation step that did not halve the bracket is followed by a bisection
        bisect = not bisect and 2 * (hi - lo) > width
    return hi, _ordered(seen)


def _interpolate(lo: int, hi: int, seen: dict[int, Evaluation], target: float) -> int:
    """The integer inside ``(lo, hi)`` where the straight line through the bracket's two
    powers crosses ``target`` (regula falsi)."""
    p_lo, p_hi = seen[lo].power, seen[hi].power
    if p_hi <= p_lo:
        return (lo + hi) // 2
    guess = lo + (target - p_lo) * (hi - lo) / (p_hi - p_lo)
    return min(hi - 1, max(lo + 1, round(guess)))


def search_difference(
    evaluate: Power, n: int, scale: float, target: float, se_target: float
) -> tuple[float | None, float, list[Evaluation]]:
    """The smallest planted difference whose power at ``n`` reaches ``target``.

    Brackets ``(0, scale * 2^j]``, then bisects until the bracket's powers are within
    :data:`SE_STOP` standard errors or its width is :data:`REL_STOP` of its upper end.
    Returns ``(difference or None when no difference up to scale * 2^MAX_DOUBLINGS reaches
    the target, its Monte Carlo standard error, the evaluations)``. The standard error is
    the power's over the slope of the power in the difference near the target (the delta
    method).
    """
    seen: list[Evaluation] = []

    def power(d: float) -> float:
        seen.append(evaluate(n, d))
        return seen[-1].power

    lo, hi = 0.0, scale
    p_lo, p_hi = -math.inf, power(hi)
    doublings = 0
    while p_hi < target:
        if doublings == MAX_DOUBLINGS:
            return None, math.nan, _ordered_d(seen)
        lo, p_lo = hi, p_hi
        hi *= 2.0
        p_hi = power(hi)
        doublings += 1
    for _ in range(MAX_BISECTIONS):
        if p_hi - p_lo <= SE_STOP * se_target or hi - lo <= REL_STOP * hi:
            break
        mid = 0.5 * (lo + hi)
        p_mid = power(mid)
        if p_mid >= target:
            hi, p_hi = mid, p_mid
        else:
            lo, p_lo = mid, p_mid
    return hi, crossing_se(seen, target, se_target, "difference"), _ordered_d(seen)


def crossing_se(seen: list[Evaluation], target: float, se_target: float, along: str) -> float:
    """Delta-method standard error of where the power crosses ``target``, ``along`` the
    ``"difference"`` or ``"n"``: the power's standard error over the slope of the power,
    by least squares on the points within 0.25 of the target power (at least the two
    nearest ones)."""
    points = sorted(seen, key=lambda e: getattr(e, along))
    near = [e for e in points if abs(e.power - target) <= 0.25]
    if len(near) < 2:
        near = sorted(points, key=lambda e: abs(e.power - target))[:2]
    if len(near) < 2:
        return math.nan
    xs = [float(getattr(e, along)) for e in near]
    ys = [e.power for e in near]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    sxx = sum((x - mx) ** 2 for x in xs)
    if sxx == 0:
        return math.nan
    slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sxx
    return se_target / slope if slope > 0 else math.nan


def _ordered(seen: dict[int, Evaluation]) -> list[Evaluation]:
    return [seen[n] for n in sorted(seen)]


def _ordered_d(seen: list[Evaluation]) -> list[Evaluation]:
    return sorted(seen, key=lambda e: e.difference)

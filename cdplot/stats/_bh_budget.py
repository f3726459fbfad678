"""The search budget of the exact Bergmann-Hommel engine: steps and wall-clock time."""

from __future__ import annotations

import math
import time

from .._errors import BergmannHommelLimitError, spell

__all__ = ["BH_DEFAULT_BUDGET", "_Budget", "_GiveUp"]

#: Default time budget (seconds) of the exact Bergmann-Hommel search: the one constant read
#: by compare(), bergmann_hommel(), simulate() and the command line
BH_DEFAULT_BUDGET = 10.0

#: the clock is read every this many search steps (a few milliseconds of work at most),
#: so a budget is honoured to within milliseconds
_CHECK_EVERY = 2048


class _Budget:
    """Counts search steps and watches the clock; raises BergmannHommelLimitError.

    ``limit`` is a number of search steps (None: no limit), ``seconds`` a wall-clock
    budget from the creation of the budget (None: no limit). The step limit is checked
    at every step, the clock every :data:`_CHECK_EVERY` steps.
    """

    __slots__ = ("limit", "steps", "k", "start", "seconds", "deadline", "next_check")

    def __init__(self, limit: int | None, k: int, seconds: float | None = None) -> None:
        self.limit = limit
        self.steps = 0
        self.k = k
        self.start = time.perf_counter()
        self.seconds = seconds
        self.deadline = math.inf if seconds is None else self.start + seconds
        self.next_check = _CHECK_EVERY

    def spend(self, n: int = 1) -> None:
        self.steps += n
        if self.limit is not None and self.steps > self.limit:
            self._fail(f"the work limit of max_steps={self.limit} search steps")
        if self.steps >= self.next_check:
            self.next_check = self.steps + _CHECK_EVERY
            if time.perf_counter() > self.deadline:
                self._fail(f"the time budget of {self.seconds:g} s")

    def _fail(self, what: str) -> None:
        elapsed = time.perf_counter() - self.start
        raise BergmannHommelLimitError(
            f"exact Bergmann-Hommel adjusted p-values for k = {self.k} algorithms "
            f"exceeded {what} (stopped after {elapsed:.1f} s); these p-values have too "
            f"little structure for an exact answer at this k in that time. Use "
            f"{spell('correction', 'shaffer')} (or 'holm'), which is valid for any k, or "
            f"allow more time with {spell('bh_budget')} (in seconds)."
        )


class _GiveUp(Exception):
    """The edge-branching search visited too many graphs (see _GeneralEngine._branch)."""

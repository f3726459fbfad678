"""The stratified bootstrap over runs within each task (Agarwal et al. 2021, rliable).

Each replicate draws, for every task and algorithm separately, as many runs as the cell has,
with replacement, from that cell's runs; the tasks stay fixed (they are the strata). This is
rliable's ``StratifiedBootstrap`` for one algorithm and its ``StratifiedIndependentBootstrap``
for a pair (each algorithm resampled independently). A :class:`RunBootstrap` regenerates the
same replicates from its seed every time it is read, so that aggregates, probabilities of
improvement, profiles and rank intervals computed from one bootstrap agree.
"""

from __future__ import annotations

import numbers
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .._errors import CdplotInputError, check_bool
from ..io._run_scores import RunScores, normalise_runs, read_run_scores

__all__ = ["RunBootstrap", "percentile_interval", "run_bootstrap", "runs_input"]

#: Bootstrap replicates when none is given (rliable's profiles use 2,000).
DEFAULT_N_BOOT = 2000
#: Fewest and most replicates accepted.
MIN_N_BOOT, MAX_N_BOOT = 100, 1_000_000
#: Cells (replicates x tasks x algorithms x runs) drawn at once: bounds the memory of a chunk.
CHUNK_CELLS = 2_000_000


@dataclass(frozen=True, eq=False)
class RunBootstrap:
    """A stratified bootstrap over runs within each task, replayable from its seed.

    Attributes
    ----------
    runs : RunScores
        The scores resampled.
    n_boot : int
        Number of replicates.
    seed : numpy.random.SeedSequence
        Seed of the replicates (each read regenerates the same replicates).
    tasks : bool
        Whether the tasks are resampled too (rliable's ``task_bootstrap``).
    """

    runs: RunScores
    n_boot: int
    seed: np.random.SeedSequence = field(repr=False)
    tasks: bool = False

    def chunks(self, cells: int = CHUNK_CELLS) -> Iterator[np.ndarray]:
        """The replicates in chunks of shape ``(b, tasks, algorithms, runs)`` (NaN padding)."""
        values, counts = self.runs.values, self.runs.counts
        n_tasks, k, most = values.shape
        per = max(1, cells // max(1, n_tasks * k * most))
        rng = np.random.default_rng(self.seed)
        slots = np.arange(most)
        for start in range(0, self.n_boot, per):
            b = min(per, self.n_boot - start)
            if self.tasks:  # rliable's task_bootstrap: the tasks drawn too, then their runs
                drawn = rng.integers(0, n_tasks, (b, n_tasks))
                base, n = values[drawn], counts[drawn]
            else:
                base, n = values[None], np.broadcast_to(counts, (b, n_tasks, k))
            idx = (rng.random((b, n_tasks, k, most)) * n[..., None]).astype(np.intp)
            out = np.take_along_axis(base, idx, axis=3)
            out[slots >= n[..., None]] = np.nan
            yield out

    def replicate(self, statistic: Any) -> np.ndarray:
        """``statistic`` (a function of one chunk, returning ``(b, ...)``) over all replicates."""
        return np.concatenate([statistic(chunk) for chunk in self.chunks()], axis=0)


def _check_n_boot(n_boot: Any) -> int:
    if isinstance(n_boot, bool) or not isinstance(n_boot, numbers.Integral):
        raise CdplotInputError(f"n_boot must be a whole number, got {n_boot!r}; e.g. 2000.")
    n_boot = int(n_boot)
    if not MIN_N_BOOT <= n_boot <= MAX_N_BOOT:
        raise CdplotInputError(
            f"n_boot must be between {MIN_N_BOOT} and {MAX_N_BOOT:,}, got {n_boot}."
        )
    return int(n_boot)


def run_bootstrap(
    runs: RunScores,
    *,
    n_boot: int = DEFAULT_N_BOOT,
    random_state: Any = None,
    tasks: bool = False,
) -> RunBootstrap:
    """A stratified bootstrap over the runs within each task.

    Parameters
    ----------
    runs : RunScores
        From :func:`cdplot.io.read_run_scores`.
    n_boot : int, default 2000
        Number of replicates (100 to 1,000,000).
    random_state : None, int or numpy.random.Generator
        Seed; equal seeds give equal replicates.
    tasks : bool, default False
        Also resample the tasks (rliable's ``task_bootstrap=True``): each replicate draws
        the tasks with replacement, then the runs within each drawn task. The intervals then
        also say how the numbers would change with other tasks of the same kind.

    Returns
    -------
    RunBootstrap

    Raises
    ------
    CdplotInputError
        When every task and algorithm has a single run (resampling runs would give back the
        data every time: nothing to resample).

    Examples
    --------
    >>> import numpy as np, cdplot
    >>> from cdplot.io import read_run_scores
    >>> runs = read_run_scores({"A": np.arange(6.0).reshape(3, 2), "B": np.ones((3, 2))})
    >>> boot = cdplot.run_bootstrap(runs, n_boot=100, random_state=0)
    >>> a = cdplot.aggregate_scores(runs, bootstrap=boot)
    >>> b = cdplot.aggregate_scores(runs, bootstrap=boot)  # the same replicates
    >>> bool((a.low == b.low).all())
    True
    """
    if int(runs.counts.max()) < 2:
        raise CdplotInputError(
            "resampling runs needs at least two runs of some algorithm on some task, but "
            "every task has a single run per algorithm; add runs (seeds), or resample the "
            "tasks instead (cdplot.rank_intervals(cdplot.compare(...), method='bootstrap'))."
        )
    n_boot = _check_n_boot(n_boot)
    if isinstance(random_state, np.random.Generator):
        seed = np.random.SeedSequence(int(random_state.integers(2**63)))
    else:
        seed = np.random.SeedSequence(random_state)
    return RunBootstrap(runs=runs, n_boot=n_boot, seed=seed, tasks=check_bool(tasks, "tasks"))


def percentile_interval(reps: np.ndarray, confidence: float) -> tuple[np.ndarray, np.ndarray]:
    """The percentile interval of bootstrap replicates (axis 0), as rliable's default."""
    tail = (1.0 - confidence) / 2.0
    low, high = np.quantile(reps, [tail, 1.0 - tail], axis=0)
    return low, high


def runs_input(data: Any, normalise: Any, read_kws: dict[str, Any]) -> RunScores:
    """``data`` read as :class:`RunScores`, normalised per task when ``normalise`` is given."""
    runs = read_run_scores(data, **read_kws)
    return runs if normalise is None else normalise_runs(runs, normalise)


def check_bootstrap(bootstrap: Any, runs: RunScores) -> None:
    """A shared bootstrap must resample these very scores."""
    if not isinstance(bootstrap, RunBootstrap):
        raise CdplotInputError(
            f"bootstrap= takes the result of cdplot.run_bootstrap(runs), got "
            f"{type(bootstrap).__name__}."
        )
    same = bootstrap.runs is runs or (
        bootstrap.runs.values.shape == runs.values.shape
        and np.array_equal(bootstrap.runs.values, runs.values, equal_nan=True)
    )
    if not same:
        raise CdplotInputError(
            "bootstrap= resamples other scores than these (e.g. before normalisation); make "
            "it from the same scores: cdplot.run_bootstrap(runs)."
        )

"""Each task's signal-to-noise: the spread of the models' means over the noise of one mean.

A task whose models' mean scores differ by less than the run-to-run (or item-sampling)
noise of one mean adds mostly noise to a comparison over tasks: its ranks are nearly a
coin toss, whatever the models' true order.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._errors import CdplotInputError

__all__ = ["NOISY_BELOW", "SignalNoise", "signal_noise_items", "signal_noise_runs"]

#: a task is flagged when its signal-to-noise ratio is below this: the variance of the
#: models' means is smaller than the noise variance of one model's mean
NOISY_BELOW = 1.0


@dataclass(frozen=True)
class SignalNoise:
    """Signal-to-noise of each task.

    Attributes
    ----------
    tasks : tuple of str
        The tasks (datasets), in input order.
    signal : numpy.ndarray
        Variance (``ddof=1``) of the models' mean scores on each task.
    noise : numpy.ndarray
        Noise variance of one model's mean on each task, averaged over the models:
        ``s_ij^2 / n_ij`` with ``s_ij`` the standard deviation of model j's runs (or item
        scores) on task i and ``n_ij`` their number.
    ratio : numpy.ndarray
        ``signal / noise`` (inf where the noise is zero, NaN where both are).
    source : str
        ``"runs"`` or ``"items"``: what the noise is of.

    Notes
    -----
    Under the null hypothesis that every model has one true mean on the task, the expected
    variance of the observed means is the noise variance, so a ratio near 1 is what pure
    noise gives; tasks below :data:`NOISY_BELOW` are flagged (``noisy``).
    """

    tasks: tuple[str, ...]
    signal: np.ndarray
    noise: np.ndarray
    ratio: np.ndarray
    source: str

    @property
    def noisy(self) -> np.ndarray:
        """Boolean per task: its ratio is below :data:`NOISY_BELOW` (mostly noise)."""
        return ~(self.ratio >= NOISY_BELOW)

    def rows(self) -> list[dict[str, object]]:
        """One plain dict per task: ``task, signal, noise, ratio, noisy``."""
        noisy = self.noisy
        return [
            {
                "task": t,
                "signal": float(self.signal[i]),
                "noise": float(self.noise[i]),
                "ratio": float(self.ratio[i]),
                "noisy": bool(noisy[i]),
            }
            for i, t in enumerate(self.tasks)
        ]


def _ratio(signal: np.ndarray, noise: np.ndarray) -> np.ndarray:
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(noise > 0, signal / np.where(noise > 0, noise, 1.0), np.inf * signal)


def signal_noise_runs(
    tasks: tuple[str, ...], means: np.ndarray, std: np.ndarray, counts: np.ndarray
) -> SignalNoise:
    """Signal-to-noise of each task from its runs.

    Parameters
    ----------
    tasks : tuple of str
        Task (dataset) names, the rows.
    means, std : numpy.ndarray
        N x k: each model's mean score and the standard deviation (``ddof=1``) of its runs.
    counts : numpy.ndarray
        N x k: the number of runs of each cell.

    Returns
    -------
    SignalNoise

    Raises
    ------
    CdplotInputError
        When no cell has two runs (there is no run-to-run noise to measure).

    Examples
    --------
    >>> import numpy as np
    >>> sn = signal_noise_runs(("t",), np.array([[0.0, 1.0]]), np.array([[1.0, 1.0]]),
    ...                        np.array([[4, 4]]))
    >>> float(sn.ratio[0])  # variance 0.5 of the means over noise 1 / 4
    2.0
    """
    counts = np.asarray(counts, dtype=float)
    std = np.asarray(std, dtype=float)
    if not (counts >= 2).any() or not np.isfinite(std).any():
        raise CdplotInputError(
            "signal-to-noise needs at least two runs of a model on a task (a run, seed or "
            "fold column with repeated rows); the pilot has one run per cell."
        )
    with np.errstate(invalid="ignore", divide="ignore"):
        cell = std**2 / counts
    noise = np.nanmean(np.where(counts >= 2, cell, np.nan), axis=1)
    signal = np.var(np.asarray(means, dtype=float), axis=1, ddof=1)
    return SignalNoise(tuple(tasks), signal, noise, _ratio(signal, noise), "runs")


def signal_noise_items(tasks: tuple[str, ...], matrices: tuple[np.ndarray, ...]) -> SignalNoise:
    """Signal-to-noise of each task from its items (item-sampling noise).

    Parameters
    ----------
    tasks : tuple of str
        Task names.
    matrices : tuple of numpy.ndarray
        One n_items x k matrix of item scores per task (NaN where not scored).

    Returns
    -------
    SignalNoise
        The noise of model j's mean on task i is ``var(item scores) / n_items``.

    Examples
    --------
    >>> import numpy as np
    >>> m = np.array([[1.0, 0.0], [1.0, 1.0], [0.0, 0.0], [1.0, 0.0]])
    >>> round(float(signal_noise_items(("t",), (m,)).ratio[0]), 3)
    2.0
    """
    signal, noise = [], []
    for mat in matrices:
        mat = np.asarray(mat, dtype=float)
        n = np.sum(np.isfinite(mat), axis=0)
        means = np.nanmean(mat, axis=0)
        var = np.nanvar(mat, axis=0, ddof=1)
        signal.append(np.var(means, ddof=1))
        noise.append(float(np.mean(var / n)))
    s, z = np.array(signal), np.array(noise)
    return SignalNoise(tuple(tasks), s, z, _ratio(s, z), "items")

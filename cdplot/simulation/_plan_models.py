"""The pilot of a benchmark plan and the models the planner simulates from it.

A pilot is read once (:func:`read_pilot`) into a :class:`Pilot`: its scores oriented so that
higher is better, and what its design is (datasets, one benchmark's items, or runs). The
planner then builds one simulation model per design point: the pilot resampled
(``ResampleModel`` for datasets, :class:`ItemResampleModel` for items) or a fitted normal
model (``NormalModel`` for datasets, ``BenchmarkModel`` for 0/1 items, :class:`RunNoiseModel`
for runs), with a difference planted for one pair and the truth the question needs
(:class:`WithTruth`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._errors import CdplotInputError, spell
from ._benchmark_model import BenchmarkModel
from ._models import NormalModel, ResampleModel

__all__ = [
    "MIN_RESAMPLE",
    "ItemResampleModel",
    "Pilot",
    "RunNoiseModel",
    "WithTruth",
    "build_model",
    "read_pilot",
]

#: fewest datasets (or items) a pilot needs to be resampled: fewer distinct rows give
#: too few distinct tables to stand for the population
MIN_RESAMPLE = 5
#: largest latent item correlation (``difficulty``) fitted to a 0/1 pilot
MAX_DIFFICULTY = 0.95


@dataclass(frozen=True)
class Pilot:
    """A pilot study, oriented so that higher is better.

    Attributes
    ----------
    design : str
        ``"datasets"`` (rows are datasets or tasks), ``"items"`` (rows are one benchmark's
        items) or ``"runs"`` (rows are tasks, each cell the mean of several runs).
    algorithms : tuple of str
        The algorithms (models).
    rows : tuple of str
        The datasets, tasks or items.
    scores : numpy.ndarray
        rows x k scores (cell means for runs), higher is better.
    std, counts : numpy.ndarray or None
        rows x k: standard deviation of each cell's runs and their number (runs pilots).
    binary : bool
        Every score is 0 or 1 (items).
    items : object or None
        The per-task item matrices (``cdplot.io.ItemScores``) of a table of several tasks.
    """

    design: str
    algorithms: tuple[str, ...]
    rows: tuple[str, ...]
    scores: np.ndarray
    std: np.ndarray | None = None
    counts: np.ndarray | None = None
    binary: bool = False
    items: Any = None

    @property
    def n(self) -> int:
        """The pilot's size on its design axis (datasets, items, or runs per cell)."""
        if self.design == "runs":
            return int(np.min(self.counts))  # type: ignore[arg-type]
        return int(self.scores.shape[0])


def read_pilot(
    data: Any, *, higher_is_better: bool, design: str | None, warn: bool = False, **columns: Any
) -> Pilot:
    """Read ``data`` (any input of :func:`cdplot.compare`) into a :class:`Pilot`.

    ``design`` None: items for one benchmark's item table, runs when cells hold several
    runs, else datasets. ``design="datasets"`` on a runs pilot plans the number of tasks
    from the cell means. ``warn``: warn when a score column is named like an error, loss or
    time and the direction was not given (as :func:`cdplot.compare` does).
    """
    from ..io import parse_scores, prepare_input

    source = prepare_input(data, **columns)
    sign = 1.0 if higher_is_better else -1.0
    if source.benchmark is not None:
        bench = source.benchmark
        scores = np.asarray(bench.scores, dtype=float)
        if np.isnan(scores).any():
            keep = ~np.isnan(scores).any(axis=1)
            scores = scores[keep]
            names = tuple(i for i, k in zip(bench.items, keep, strict=True) if k)
        else:
            names = tuple(bench.items)
        pilot = Pilot("items", tuple(bench.models), names, sign * scores, binary=bench.binary)
    else:
        aggregate = source.aggregate if source.aggregate is not None else "mean"
        table = parse_scores(
            source.data,
            dataset=source.dataset,
            algorithm=source.algorithm,
            score=source.score,
            aggregate=aggregate,
            warn_direction=warn,
        )
        counts = None if table.aggregation is None else np.asarray(table.aggregation.count_array)
        runs = counts is not None and table.score_std is not None and int(counts.min()) >= 2
        pilot = Pilot(
            "runs" if runs else "datasets",
            tuple(table.algorithms),
            tuple(table.datasets),
            sign * np.asarray(table.scores, dtype=float),
            std=np.asarray(table.score_std, dtype=float) if runs else None,
            counts=counts if runs else None,
            items=source.items,
        )
    if design is None or design == pilot.design:
        return pilot
    if design == "datasets" and pilot.design == "runs":
        return Pilot("datasets", pilot.algorithms, pilot.rows, pilot.scores, items=pilot.items)
    what = {"items": "one benchmark's item-level table", "runs": "a table with a run, seed or "
            "fold column and at least two runs in every cell", "datasets": "a table of "
            "datasets (or tasks) x algorithms"}  # fmt: skip
    raise CdplotInputError(
        f"{spell('design', design)} needs {what[design]}; this pilot is read as {pilot.design} "
        f"({len(pilot.rows)} rows x {len(pilot.algorithms)} algorithms). Pass "
        f"{spell('design', pilot.design)} or a pilot of that shape."
    )


class WithTruth:
    """A model with the truth one question of the plan needs (which pairs count as true
    nulls), drawing exactly as the wrapped model does."""

    def __init__(self, model: Any, truth: np.ndarray, effects: np.ndarray) -> None:
        self.model = model
        self.algorithms = model.algorithms
        self.n_datasets = model.n_datasets
        self.on_items = getattr(model, "on_items", False)
        self.clusters = getattr(model, "clusters", None)
        self._truth = truth
        self._effects = effects

    @property
    def true_null(self) -> np.ndarray:
        """k x k boolean matrix of the pairs counted as true nulls."""
        return self._truth

    @property
    def true_effects(self) -> np.ndarray:
        """Each algorithm's true mean (who is truly better)."""
        return self._effects

    def draw(self, rng: np.random.Generator, size: int) -> np.ndarray:
        """The wrapped model's tables."""
        return self.model.draw(rng, size)

    def describe(self) -> dict[str, Any]:
        """The wrapped model's description."""
        return self.model.describe()


class ItemResampleModel:
    """One benchmark's items drawn with replacement from a pilot's items x models table
    (continuous scores shifted per model by ``shift``)."""

    on_items = True
    clusters = None

    def __init__(self, scores: np.ndarray, algorithms: tuple[str, ...], n_items: int) -> None:
        self.scores = scores
        self.algorithms = algorithms
        self.n_datasets = int(n_items)

    @property
    def true_null(self) -> np.ndarray:
        """Pairs of equal mean item scores."""
        m = self.true_effects
        return m[:, None] == m[None, :]

    @property
    def true_effects(self) -> np.ndarray:
        """Each model's mean item score in the pilot."""
        return self.scores.mean(axis=0)

    def draw(self, rng: np.random.Generator, size: int) -> np.ndarray:
        """``size`` tables of ``n_datasets`` items drawn with replacement."""
        rows = rng.integers(0, self.scores.shape[0], size=(size, self.n_datasets))
        return self.scores[rows]

    def describe(self) -> dict[str, Any]:
        """The model's settings as plain values."""
        return {"model": "item-resample", "pilot_items": int(self.scores.shape[0]),
                "n_items": self.n_datasets}  # fmt: skip


class RunNoiseModel:
    """The pilot's tasks with each cell the mean of ``runs`` normal runs around the pilot's
    cell mean, with the pilot's run-to-run standard deviation of that cell."""

    def __init__(self, means: np.ndarray, std: np.ndarray, runs: int, algorithms: tuple[str, ...]):
        self.means = means
        self.std = std
        self.runs = int(runs)
        self.algorithms = algorithms
        self.n_datasets = int(means.shape[0])

    @property
    def true_null(self) -> np.ndarray:
        """Pairs of equal mean score over the tasks."""
        m = self.true_effects
        return m[:, None] == m[None, :]

    @property
    def true_effects(self) -> np.ndarray:
        """Each algorithm's mean of the cell means."""
        return self.means.mean(axis=0)

    def draw(self, rng: np.random.Generator, size: int) -> np.ndarray:
        """``size`` tables: cell means plus normal noise of sd ``std / sqrt(runs)``."""
        noise = rng.standard_normal((size, *self.means.shape))
        return self.means + noise * (self.std / math.sqrt(self.runs))

    def describe(self) -> dict[str, Any]:
        """The model's settings as plain values."""
        return {"model": "run-noise", "tasks": self.n_datasets, "runs": self.runs}


def _fit_normal(scores: np.ndarray, algorithms: tuple[str, ...]) -> dict[str, Any]:
    """NormalModel settings fitted to a datasets x algorithms pilot: each algorithm's mean,
    its sd around the dataset means (scaled by sqrt(k / (k - 1)) for the centring), and the
    sd of the dataset means as the dataset effect."""
    k = scores.shape[1]
    centred = scores - scores.mean(axis=1, keepdims=True)
    sd = centred.std(axis=0, ddof=1) * math.sqrt(k / (k - 1))
    sd = np.where(sd > 0, sd, max(float(sd.max()), 1e-12))
    return {
        "means": dict(zip(algorithms, scores.mean(axis=0).tolist(), strict=True)),
        "sd": dict(zip(algorithms, sd.tolist(), strict=True)),
        "dataset_sd": float(scores.mean(axis=1).std(ddof=1)),
    }


def _bivariate_both(z1: float, z2: float, r: float) -> float:
    from scipy.stats import multivariate_normal

    cov = [[1.0, r], [r, 1.0]]
    return float(multivariate_normal(mean=[0.0, 0.0], cov=cov).cdf([z1, z2]))


def fit_difficulty(scores: np.ndarray) -> float:
    """The latent item correlation (``BenchmarkModel``'s ``difficulty``) that gives the
    pilot's average share of items solved by both models of a pair, over all pairs."""
    from scipy.special import ndtri

    acc = np.clip(scores.mean(axis=0), 1e-6, 1 - 1e-6)
    k = scores.shape[1]
    pairs = [(i, j) for i in range(k) for j in range(i + 1, k)]
    target = float(np.mean([np.mean(scores[:, i] * scores[:, j]) for i, j in pairs]))

    def both(r: float) -> float:
        return float(np.mean([_bivariate_both(ndtri(acc[i]), ndtri(acc[j]), r)
                              for i, j in pairs]))  # fmt: skip

    lo, hi = 0.0, MAX_DIFFICULTY
    if both(lo) >= target:
        return 0.0
    if both(hi) <= target:
        return MAX_DIFFICULTY
    for _ in range(30):  # P(both solve) increases with r
        mid = 0.5 * (lo + hi)
        lo, hi = (mid, hi) if both(mid) < target else (lo, mid)
    return 0.5 * (lo + hi)


def build_model(
    pilot: Pilot, kind: str, n: int, shift: dict[int, float], fitted: dict[str, Any]
) -> Any:
    """The model of one design point: ``n`` datasets, items or runs; ``shift`` adds an
    amount to an algorithm's scores (by column index). ``fitted`` holds the normal fit."""
    algs = pilot.algorithms
    scores = pilot.scores
    if pilot.design == "runs":
        means = scores.copy()
        for j, amount in shift.items():
            means[:, j] += amount
        return RunNoiseModel(means, pilot.std, n, algs)  # type: ignore[arg-type]
    if pilot.design == "items" and kind == "normal":
        acc = dict(zip(algs, scores.mean(axis=0).tolist(), strict=True))
        for j, amount in shift.items():
            acc[algs[j]] += amount
        bad = [a for a, v in acc.items() if not 0.0 < v < 1.0]
        if bad:
            raise CdplotInputError(
                f"the planted difference makes the accuracy of {bad[0]!r} {acc[bad[0]]:g}, "
                "outside (0, 1); ask for a smaller difference."
            )
        return BenchmarkModel(acc, n_items=n, difficulty=fitted["difficulty"])
    if pilot.design == "items":
        shifted = scores.copy()
        for j, amount in shift.items():
            shifted[:, j] += amount
        return ItemResampleModel(shifted, algs, n)
    if kind == "normal":
        means = dict(fitted["means"])
        for j, amount in shift.items():
            means[algs[j]] += amount
        return NormalModel(means, sd=fitted["sd"], n_datasets=n, dataset_sd=fitted["dataset_sd"])
    import pandas as pd

    named = {algs[j]: amount for j, amount in shift.items()}
    frame = pd.DataFrame(scores, columns=list(algs), index=list(pilot.rows))
    return ResampleModel(frame, n_datasets=n, shift=named or None, higher_is_better=True)

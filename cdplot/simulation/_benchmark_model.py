"""A model of one benchmark's items for simulation studies: k models, n items, 0/1 scores.

:class:`BenchmarkModel` draws stacks of items x models tables of 0/1 scores (solved or
not) with given true accuracies, optionally with items of varying difficulty and with items
in clusters, so that :func:`cdplot.simulate` measures the rejection rates, FWER and power of
the single-benchmark tests ("mcnemar", "paired-t", "cluster-t") under each correction.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np
from scipy.special import ndtri

from .._errors import CdplotInputError
from ._models import _finite, _positive_int

__all__ = ["BenchmarkModel"]


def _names_and_values(accuracies: Any) -> tuple[list[str], list[Any]]:
    if isinstance(accuracies, Mapping):
        return [str(a) for a in accuracies], list(accuracies.values())
    if isinstance(accuracies, (str, bytes)) or not isinstance(accuracies, Iterable):
        raise CdplotInputError(
            f"accuracies must be a mapping {{model: accuracy}} or a sequence of numbers in "
            f"(0, 1), got {accuracies!r}."
        )
    values = list(accuracies)
    return [f"M{j + 1}" for j in range(len(values))], values


def _share(name: str, value: Any) -> float:
    out = _finite(name, value)
    if not 0.0 <= out < 1.0:
        raise CdplotInputError(f"{name} must be in [0, 1), got {value!r}.")
    return out


class BenchmarkModel:
    """One benchmark's items: k models with given true accuracies, 0/1 scores on n items.

    Model j solves item i when a latent normal variable ``L_ij`` falls below
    ``Phi^-1(accuracy_j)``, so every model solves each item with its true accuracy exactly
    (a threshold, or probit, model). The latent variable's unit variance is split into a
    part shared by all models on one item (``difficulty``: some items are hard for every
    model), a part shared by one model's items of one cluster (``icc``: a model good or bad
    at one passage or repository) and independent noise.

    Parameters
    ----------
    accuracies : mapping or sequence of float
        The true accuracy of each model, in (0, 1) (a mapping names them; a sequence names
        them ``M1, M2, ...``). Two models of equal accuracy perform alike (their pair is a
        true null hypothesis: their scores are exchangeable); any other pair is a false null.
    n_items : int, default 200
        Number of items n in each simulated table (at least 2).
    difficulty : float, default 0.0
        The share in [0, 1) of the latent variance that comes from the item: the
        correlation of two models' latent scores on one item. It makes the models agree on
        the items (fewer discordant items) without changing any accuracy.
    n_clusters : int, optional
        The items come in this many clusters G (at least 2) of as equal sizes as possible,
        items ``0 .. n - 1`` dealt in order; the same clusters in every table (they are the
        benchmark's design, ``model.clusters``).
    icc : float, default 0.0
        The share in [0, 1) of the latent variance that comes from a model's own effect in
        a cluster: the latent intraclass correlation of one model's scores on two items of
        one cluster. Needs ``n_clusters``. It leaves the accuracies unchanged; it makes the
        paired differences of two models correlate within clusters, so that tests that
        treat the items as independent ("mcnemar", "paired-t") reject a true null too
        often and the cluster-robust "cluster-t" does not.

    Attributes
    ----------
    algorithms : tuple of str
        The models' names (as :func:`cdplot.simulate` calls them).
    clusters : numpy.ndarray or None
        The n items' cluster codes ``0 .. G - 1``; None without clusters.
    n_datasets : int
        The number of items (the rows of a table, as the runner sizes its work).

    Notes
    -----
    ``L_ij = sqrt(difficulty) U_i + sqrt(icc) V_{g(i) j} + sqrt(1 - difficulty - icc)
    E_ij`` with ``U, V, E`` independent standard normals and ``g(i)`` item i's cluster; the
    score is ``1{L_ij <= Phi^-1(accuracy_j)}``. The scores of two models of equal accuracy
    are exchangeable, so every pairwise test's null hypothesis holds for their pair.

    Examples
    --------
    >>> import numpy as np
    >>> model = BenchmarkModel({"a": 0.6, "b": 0.6, "c": 0.7}, n_items=50)
    >>> tables = model.draw(np.random.default_rng(0), 4)
    >>> tables.shape, sorted(np.unique(tables).tolist())
    ((4, 50, 3), [0.0, 1.0])
    >>> BenchmarkModel([0.5, 0.5], n_items=40, n_clusters=8, icc=0.3).clusters[:6].tolist()
    [0, 0, 0, 0, 0, 1]
    """

    #: it draws one benchmark's items (the single-benchmark tests run on its tables)
    on_items = True

    def __init__(
        self,
        accuracies: Mapping[str, float] | Sequence[float],
        *,
        n_items: int = 200,
        difficulty: float = 0.0,
        n_clusters: int | None = None,
        icc: float = 0.0,
    ) -> None:
        names, values = _names_and_values(accuracies)
        if len(values) < 2:
            raise CdplotInputError(
                f"accuracies must give at least two models, got {len(values)}; e.g. "
                "accuracies={'a': 0.6, 'b': 0.7}."
            )
        if len(set(names)) != len(names):
            raise CdplotInputError("accuracies names a model twice; use unique names.")
        pairs = zip(names, values, strict=True)
        acc = np.array([_finite(f"accuracies[{n!r}]", v) for n, v in pairs])
        bad = [n for n, a in zip(names, acc, strict=True) if not 0.0 < a < 1.0]
        if bad:
            raise CdplotInputError(
                f"an accuracy must be strictly between 0 and 1 (a model that solves every "
                f"item or none has nothing to test); got {bad[0]!r}: "
                f"{acc[names.index(bad[0])]:g}."
            )
        self.algorithms: tuple[str, ...] = tuple(names)
        self.accuracies = acc
        self.n_items = _positive_int("n_items", n_items, 2)
        self.n_datasets = self.n_items
        self.difficulty = _share("difficulty", difficulty)
        self.icc = _share("icc", icc)
        if self.difficulty + self.icc >= 1.0:
            raise CdplotInputError(
                f"difficulty + icc must be below 1 (they are shares of one variance), got "
                f"{self.difficulty:g} + {self.icc:g}."
            )
        if n_clusters is None:
            if self.icc > 0:
                raise CdplotInputError(
                    "icc needs n_clusters: the number of clusters the items come in, e.g. "
                    "n_clusters=20."
                )
            self.n_clusters: int | None = None
            self.clusters: np.ndarray | None = None
        else:
            g = _positive_int("n_clusters", n_clusters, 2)
            if g > self.n_items:
                raise CdplotInputError(
                    f"n_clusters={g} exceeds n_items={self.n_items}; a cluster holds at "
                    "least one item."
                )
            self.n_clusters = g
            self.clusters = (np.arange(self.n_items) * g // self.n_items).astype(np.int64)

    @property
    def true_null(self) -> np.ndarray:
        """k x k boolean matrix: True where two models have equal accuracies."""
        return self.accuracies[:, None] == self.accuracies[None, :]

    @property
    def true_effects(self) -> np.ndarray:
        """The true accuracy of each model: who is truly better."""
        return self.accuracies.copy()

    def draw(self, rng: np.random.Generator, size: int) -> np.ndarray:
        """``size`` items x models tables of 0/1 scores, a size x n x k array."""
        k, n = len(self.algorithms), self.n_items
        noise = 1.0 - self.difficulty - self.icc
        latent = math.sqrt(noise) * rng.standard_normal((size, n, k))
        if self.difficulty > 0:
            latent += math.sqrt(self.difficulty) * rng.standard_normal((size, n, 1))
        if self.icc > 0 and self.clusters is not None:
            effect = rng.standard_normal((size, int(self.n_clusters or 0), k))
            latent += math.sqrt(self.icc) * effect[:, self.clusters, :]
        return (latent <= ndtri(self.accuracies)).astype(float)

    def describe(self) -> dict[str, Any]:
        """The model's settings as plain values (for the result and JSON)."""
        return {
            "model": "benchmark",
            "accuracies": dict(zip(self.algorithms, self.accuracies.tolist(), strict=True)),
            "n_items": self.n_items,
            "difficulty": self.difficulty,
            "n_clusters": self.n_clusters,
            "icc": self.icc,
        }

    def __repr__(self) -> str:
        acc = ", ".join(
            f"{a!r}: {m:g}" for a, m in zip(self.algorithms, self.accuracies, strict=True)
        )
        clusters = f", n_clusters={self.n_clusters}, icc={self.icc:g}" if self.n_clusters else ""
        return f"BenchmarkModel({{{acc}}}, n_items={self.n_items}{clusters})"

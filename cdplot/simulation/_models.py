"""Models of score tables for simulation studies: normal scores, resampled real tables, or
a user's generator.

A model draws stacks of N x k score tables (higher is better) from a numpy Generator and says
which pairs of algorithms truly perform alike (``true_null``), when it knows.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from .._errors import CdplotInputError, check_bool

__all__ = ["GeneratorModel", "NormalModel", "ResampleModel", "as_model"]


def _positive_int(name: str, value: Any, minimum: int = 1) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < minimum:
        raise CdplotInputError(f"{name} must be an integer >= {minimum}, got {value!r}.")
    return int(value)


def _finite(name: str, value: Any) -> float:
    try:
        out = float(value)
    except (TypeError, ValueError):
        raise CdplotInputError(f"{name} must be a number, got {value!r}.") from None
    if not math.isfinite(out):
        raise CdplotInputError(f"{name} must be finite, got {value!r}.")
    return out


def _truth_from_groups(
    groups: Iterable[Iterable[str]] | None, algorithms: Sequence[str], what: str
) -> np.ndarray | None:
    """k x k boolean matrix: True where both algorithms sit in one of ``groups``."""
    if groups is None:
        return None
    if isinstance(groups, str):
        raise CdplotInputError(
            f"{what} must be a list of groups of algorithm names, e.g. [['A', 'B'], ['C']], "
            f"got the string {groups!r}."
        )
    index = {a: i for i, a in enumerate(algorithms)}
    k = len(algorithms)
    truth = np.eye(k, dtype=bool)
    seen: set[str] = set()
    for group in groups:
        members = [str(g) for g in ([group] if isinstance(group, str) else group)]
        for name in members:
            if name not in index:
                raise CdplotInputError(
                    f"unknown algorithm {name!r} in {what}; the algorithms are "
                    f"{', '.join(repr(a) for a in algorithms)}."
                )
            if name in seen:
                raise CdplotInputError(f"algorithm {name!r} appears in two groups of {what}.")
            seen.add(name)
        idx = [index[m] for m in members]
        truth[np.ix_(idx, idx)] = True
    return truth


class NormalModel:
    """Independent normal scores: algorithm j scores ``N(mean_j, sd_j^2)`` on every dataset.

    Parameters
    ----------
    means : mapping or sequence of float
        Mean score of each algorithm (a mapping names them; a sequence names them
        ``A1, A2, ...``). Higher is better. Two algorithms with equal means perform alike
        (their pair is a true null hypothesis); any other pair is a false null.
    sd : float or mapping, default 1.0
        Standard deviation of the scores, one for all algorithms or one per algorithm.
    n_datasets : int, default 20
        Number of datasets N in each simulated table.
    correlation : float, default 0.0
        Correlation in [0, 1) between the scores of two algorithms on one dataset
        (equicorrelated normal errors): datasets that are hard for one algorithm are hard for
        all. It shrinks the variance of every difference by ``1 - correlation``.
    dataset_sd : float, default 0.0
        Standard deviation of a dataset effect added to all scores of a dataset. It leaves
        every rank and every difference unchanged, hence every test; it only makes the
        tables look like real ones.

    Notes
    -----
    A table is ``X[i, j] = mu_j + sd_j (sqrt(rho) W_i + sqrt(1 - rho) E_ij) + tau U_i`` with
    ``W, E, U`` independent standard normals. Benavoli, Corani & Mangili (2016), Example 2,
    is ``NormalModel({"A": 0, "B": 1.5, "C": 5, "D": 6, "E": 7}, n_datasets=20)``.

    Examples
    --------
    >>> import numpy as np
    >>> model = NormalModel(means={"A": 0.0, "B": 1.5, "C": 5.0}, n_datasets=20)
    >>> model.draw(np.random.default_rng(0), 4).shape
    (4, 20, 3)
    """

    def __init__(
        self,
        means: Mapping[str, float] | Sequence[float],
        sd: float | Mapping[str, float] = 1.0,
        n_datasets: int = 20,
        *,
        correlation: float = 0.0,
        dataset_sd: float = 0.0,
    ) -> None:
        if isinstance(means, Mapping):
            names = [str(a) for a in means]
            values = list(means.values())
        elif isinstance(means, (str, bytes)) or not isinstance(means, Iterable):
            raise CdplotInputError(
                f"means must be a mapping {{algorithm: mean}} or a sequence of numbers, got "
                f"{means!r}."
            )
        else:
            values = list(means)
            names = [f"A{j + 1}" for j in range(len(values))]
        if len(values) < 2:
            raise CdplotInputError(
                f"means must give at least two algorithms, got {len(values)}; e.g. "
                "means={'A': 0.0, 'B': 0.5}."
            )
        if len(set(names)) != len(names):
            raise CdplotInputError("means names an algorithm twice; use unique names.")
        self.algorithms: tuple[str, ...] = tuple(names)
        self.means = np.array(
            [_finite(f"means[{n!r}]", v) for n, v in zip(names, values, strict=True)]
        )
        if isinstance(sd, Mapping):
            missing = [a for a in names if a not in sd]
            extra = [str(a) for a in sd if str(a) not in names]
            if missing or extra:
                raise CdplotInputError(
                    f"sd must give one standard deviation per algorithm of means; missing "
                    f"{missing}, unknown {extra}."
                )
            sds = [sd[a] for a in names]
        else:
            sds = [sd] * len(names)
        self.sd = np.array([_finite("sd", s) for s in sds])
        if (self.sd <= 0).any():
            raise CdplotInputError(f"sd must be positive, got {sd!r}.")
        self.n_datasets = _positive_int("n_datasets", n_datasets, 2)
        rho = _finite("correlation", correlation)
        if not 0.0 <= rho < 1.0:
            raise CdplotInputError(f"correlation must be in [0, 1), got {correlation!r}.")
        self.correlation = rho
        tau = _finite("dataset_sd", dataset_sd)
        if tau < 0:
            raise CdplotInputError(f"dataset_sd must be >= 0, got {dataset_sd!r}.")
        self.dataset_sd = tau

    @property
    def true_null(self) -> np.ndarray:
        """k x k boolean matrix: True where two algorithms have equal means."""
        return self.means[:, None] == self.means[None, :]

    @property
    def true_effects(self) -> np.ndarray:
        """The true mean score of each algorithm (its ``means``): who is truly better."""
        return self.means.copy()

    def draw(self, rng: np.random.Generator, size: int) -> np.ndarray:
        """``size`` tables stacked into a size x N x k array."""
        k, n = len(self.algorithms), self.n_datasets
        errors = rng.standard_normal((size, n, k))
        if self.correlation > 0:
            shared = rng.standard_normal((size, n, 1))
            errors = math.sqrt(self.correlation) * shared + math.sqrt(1 - self.correlation) * errors
        out = self.means + self.sd * errors
        if self.dataset_sd > 0:
            out += self.dataset_sd * rng.standard_normal((size, n, 1))
        return out

    def describe(self) -> dict[str, Any]:
        """The model's settings as plain values (for the result and JSON)."""
        return {
            "model": "normal",
            "means": dict(zip(self.algorithms, self.means.tolist(), strict=True)),
            "sd": dict(zip(self.algorithms, self.sd.tolist(), strict=True)),
            "n_datasets": self.n_datasets,
            "correlation": self.correlation,
            "dataset_sd": self.dataset_sd,
        }

    def __repr__(self) -> str:
        means = ", ".join(f"{a!r}: {m:g}" for a, m in zip(self.algorithms, self.means, strict=True))
        return f"NormalModel(means={{{means}}}, n_datasets={self.n_datasets})"


class ResampleModel:
    """Datasets drawn from a real score table (Demšar 2006, §4).

    Each simulated table holds ``n_datasets`` rows of the user's table, drawn with
    replacement (or without); optionally one or more algorithms' scores are shifted, and
    datasets favouring one algorithm of a pair can be drawn more often.

    Parameters
    ----------
    data : DataFrame, array or path
        The real table, in any form :func:`cdplot.compare` reads (rows = datasets).
    n_datasets : int, optional
        Datasets per simulated table (default: as many as the table has).
    shift : mapping, optional
        ``{algorithm: amount}`` added to that algorithm's scores (in the table's own
        direction), e.g. to plant a known difference.
    bias : float, default 0.0
        Demšar's selection bias k: dataset i is drawn with probability proportional to
        ``1 / (1 + exp(-bias * d_i))``, with ``d_i`` the score of ``bias_pair[0]`` minus that
        of ``bias_pair[1]`` on dataset i (after ``shift``; oriented so higher is better).
    bias_pair : tuple of two str, optional
        The pair whose differences drive the selection; needed when ``bias != 0``.
    replace : bool, default True
        Draw datasets with replacement. Without replacement, ``n_datasets`` may not exceed
        the table's number of datasets.
    higher_is_better : bool, optional
        False for error rates, losses or run times. Not given: higher is better, with a
        warning when the score column is named like an error, loss or time, as in
        :func:`cdplot.compare`.
    truth : list of groups of algorithm names, optional
        Which algorithms truly perform alike (pairs within one group are true nulls). Unknown
        by default: then only rejection rates are reported, not FWER, power or FDR.

    Notes
    -----
    Demšar (2006, §4.1.1) selected ten of forty datasets with probability proportional to
    ``1 / (1 + exp(-k d_i))``; García & Herrera (2008, §4) followed the same scheme.

    Examples
    --------
    >>> import cdplot, numpy as np
    >>> model = ResampleModel(cdplot.datasets.load("demsar2006"), n_datasets=10)
    >>> model.draw(np.random.default_rng(0), 3).shape
    (3, 10, 4)
    """

    def __init__(
        self,
        data: Any,
        n_datasets: int | None = None,
        *,
        shift: Mapping[str, float] | None = None,
        bias: float = 0.0,
        bias_pair: tuple[str, str] | None = None,
        replace: bool = True,
        higher_is_better: bool | None = None,
        truth: Iterable[Iterable[str]] | None = None,
    ) -> None:
        from ..io import parse_scores

        direction_given = higher_is_better is not None
        higher_is_better = check_bool(
            True if higher_is_better is None else higher_is_better, "higher_is_better"
        )
        replace = check_bool(replace, "replace")
        table = parse_scores(data, warn_direction=not direction_given)
        self.algorithms: tuple[str, ...] = tuple(table.algorithms)
        scores = np.array(table.scores, dtype=float)
        if not higher_is_better:
            scores = -scores
        index = {a: j for j, a in enumerate(self.algorithms)}
        self.shift = {}
        for name, amount in (shift or {}).items():
            if str(name) not in index:
                raise CdplotInputError(
                    f"unknown algorithm {name!r} in shift; the algorithms are "
                    f"{', '.join(repr(a) for a in self.algorithms)}."
                )
            value = _finite(f"shift[{name!r}]", amount)
            self.shift[str(name)] = value
            scores[:, index[str(name)]] += value if higher_is_better else -value
        self.scores = scores
        total = scores.shape[0]
        self.n_datasets = (
            total if n_datasets is None else _positive_int("n_datasets", n_datasets, 2)
        )
        self.replace = bool(replace)
        if not self.replace and self.n_datasets > total:
            raise CdplotInputError(
                f"n_datasets={self.n_datasets} exceeds the table's {total} datasets; pass "
                "replace=True or a smaller n_datasets."
            )
        self.bias = _finite("bias", bias)
        self.bias_pair = None
        if self.bias != 0.0:
            if bias_pair is None or len(bias_pair) != 2:
                raise CdplotInputError(
                    "bias needs bias_pair=(a, b): the two algorithms whose score differences "
                    "drive the selection of datasets."
                )
            a, b = (str(x) for x in bias_pair)
            for name in (a, b):
                if name not in index:
                    raise CdplotInputError(
                        f"unknown algorithm {name!r} in bias_pair; the algorithms are "
                        f"{', '.join(repr(x) for x in self.algorithms)}."
                    )
            self.bias_pair = (a, b)
            d = scores[:, index[a]] - scores[:, index[b]]
            weights = 1.0 / (1.0 + np.exp(-self.bias * d))
            self.weights: np.ndarray | None = weights / weights.sum()
        else:
            self.weights = None
        self.higher_is_better = bool(higher_is_better)
        self._truth = _truth_from_groups(truth, self.algorithms, "truth")

    @property
    def true_null(self) -> np.ndarray | None:
        """k x k boolean matrix of the pairs that truly perform alike, or None (unknown)."""
        return self._truth

    @property
    def true_effects(self) -> np.ndarray:
        """Each algorithm's mean score over the datasets drawn from (weighted as drawn, with
        ``bias``; higher is better): the population the simulated tables sample."""
        if self.weights is None:
            return self.scores.mean(axis=0)
        return self.weights @ self.scores

    def draw(self, rng: np.random.Generator, size: int) -> np.ndarray:
        """``size`` tables (oriented so that higher is better) as a size x N x k array."""
        total = self.scores.shape[0]
        if self.replace:
            rows = rng.choice(total, size=(size, self.n_datasets), replace=True, p=self.weights)
        else:
            rows = np.stack(
                [
                    rng.choice(total, size=self.n_datasets, replace=False, p=self.weights)
                    for _ in range(size)
                ]
            )
        return self.scores[rows]

    def describe(self) -> dict[str, Any]:
        """The model's settings as plain values (for the result and JSON)."""
        return {
            "model": "resample",
            "algorithms": list(self.algorithms),
            "table_datasets": int(self.scores.shape[0]),
            "n_datasets": self.n_datasets,
            "shift": dict(self.shift),
            "bias": self.bias,
            "bias_pair": list(self.bias_pair) if self.bias_pair else None,
            "replace": self.replace,
        }

    def __repr__(self) -> str:
        return (
            f"ResampleModel({self.scores.shape[0]} datasets x {len(self.algorithms)} "
            f"algorithms, n_datasets={self.n_datasets})"
        )


class GeneratorModel:
    """A user's generator of score tables: ``func(rng) -> N x k array`` (higher is better).

    Parameters
    ----------
    func : callable
        Called with a :class:`numpy.random.Generator`; returns one N x k table of finite
        scores. It must draw all its randomness from that generator (so the study is
        reproducible) and be picklable by cloudpickle to run on other processes.
    algorithms : sequence of str or int, optional
        The algorithms' names, or their number k (default: ``A1, ..., Ak`` from the first
        table's width).
    truth : list of groups of algorithm names, optional
        Which algorithms truly perform alike; unknown by default (rejection rates only).

    Examples
    --------
    >>> import numpy as np
    >>> model = GeneratorModel(lambda rng: rng.standard_normal((12, 3)), algorithms=["a", "b", "c"])
    >>> model.draw(np.random.default_rng(1), 2).shape
    (2, 12, 3)
    """

    def __init__(
        self,
        func: Callable[[np.random.Generator], Any],
        algorithms: Sequence[str] | int | None = None,
        *,
        truth: Iterable[Iterable[str]] | None = None,
    ) -> None:
        if not callable(func):
            raise CdplotInputError(
                f"the generator must be a callable taking a numpy Generator, got {func!r}."
            )
        self.func = func
        if algorithms is None:
            probe = self._table(func(np.random.default_rng(0)))
            algorithms = probe.shape[1]
        if isinstance(algorithms, (int, np.integer)) and not isinstance(algorithms, bool):
            names = [f"A{j + 1}" for j in range(_positive_int("algorithms", algorithms, 2))]
        else:
            names = [str(a) for a in algorithms]  # type: ignore[union-attr]
        if len(names) < 2 or len(set(names)) != len(names):
            raise CdplotInputError(
                f"algorithms must name at least two distinct algorithms, got {names!r}."
            )
        self.algorithms: tuple[str, ...] = tuple(names)
        self._truth = _truth_from_groups(truth, self.algorithms, "truth")
        self.n_datasets: int | None = None

    @property
    def true_null(self) -> np.ndarray | None:
        """k x k boolean matrix of the pairs that truly perform alike, or None (unknown)."""
        return self._truth

    def _table(self, out: Any) -> np.ndarray:
        try:
            table = np.asarray(out, dtype=float)
        except (TypeError, ValueError):
            raise CdplotInputError(
                f"the generator must return an N x k array of numbers, got {type(out).__name__}."
            ) from None
        if table.ndim != 2 or table.shape[0] < 2:
            raise CdplotInputError(
                f"the generator must return an N x k array with N >= 2, got shape {table.shape}."
            )
        if not np.isfinite(table).all():
            raise CdplotInputError("the generator returned NaN or infinite scores.")
        return table

    def draw(self, rng: np.random.Generator, size: int) -> np.ndarray:
        """``size`` tables from ``size`` successive calls of the generator."""
        k = len(self.algorithms)
        tables = [self._table(self.func(rng)) for _ in range(size)]
        shapes = {t.shape for t in tables}
        if len(shapes) != 1 or tables[0].shape[1] != k:
            raise CdplotInputError(
                f"the generator must return tables of one shape N x {k}; got shapes "
                f"{sorted(shapes)}."
            )
        return np.stack(tables)

    def describe(self) -> dict[str, Any]:
        """The model's settings as plain values (for the result and JSON)."""
        name = getattr(self.func, "__qualname__", type(self.func).__name__)
        return {"model": "generator", "function": name, "algorithms": list(self.algorithms)}

    def __repr__(self) -> str:
        return f"GeneratorModel({self.describe()['function']}, k={len(self.algorithms)})"


def as_model(model: Any) -> NormalModel | ResampleModel | GeneratorModel:
    """The model itself, a bare callable wrapped in :class:`GeneratorModel`, or an error."""
    if isinstance(model, (NormalModel, ResampleModel, GeneratorModel)):
        return model
    if hasattr(model, "draw") and hasattr(model, "algorithms") and hasattr(model, "true_null"):
        return model
    if callable(model):
        return GeneratorModel(model)
    raise CdplotInputError(
        f"model must be a NormalModel, ResampleModel, GeneratorModel or a callable "
        f"rng -> N x k table, got {type(model).__name__}."
    )

"""The result of a benchmark plan: the answers, their Monte Carlo errors, the evaluated
design points and each task's signal-to-noise."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from typing import Any

from ._plan_search import Evaluation

__all__ = ["PlanResult"]

#: what each design counts
UNITS = {"datasets": "datasets", "items": "items", "runs": "runs per task"}


@dataclass(frozen=True)
class PlanResult:
    """What a pilot says about the size of a benchmark (see :func:`cdplot.plan`).

    Attributes
    ----------
    design : str
        What N counts: ``"datasets"`` (datasets or tasks), ``"items"`` (one benchmark's
        items) or ``"runs"`` (runs per task, the tasks fixed).
    model : str
        ``"resample"`` (the pilot's rows drawn with replacement) or ``"normal"`` (a fitted
        normal model; for 0/1 items a threshold model, for runs normal run noise).
    procedure : str
        The procedure's label ``"test+correction"``.
    alpha, power : float
        Significance level and target power.
    pair : tuple of str
        The pair (a, b) the difference is planted for (a made better by ``difference``).
    n_current : int
        The pilot's N on the design axis.
    mdd, mdd_se : float or None
        Minimum detectable difference at ``n_current`` (score units: a's mean minus b's)
        and its Monte Carlo standard error; None when not asked or not reached.
    mdd_effect : float or None
        ``mdd`` over ``pair_sd``: a standardized effect size (Cohen's d_z).
    pair_sd : float
        Standard deviation of the pair's paired differences in the pilot.
    difference : float
        The difference N is planned for.
    n_needed : int or None
        Smallest N whose simulated power for ``pair`` reaches ``power`` (None: not within
        ``max_n``); ``n_needed_se`` its Monte Carlo standard error (the power's over the
        slope of the power in N near the target, the delta method); ``n_power`` and
        ``n_power_se`` the power there and its standard error.
    top : int or None
        How many of the best models are to be separated; ``n_top`` the N that separates
        them (each significantly different from every other model) with probability
        ``power`` (``n_top_se`` its standard error), ``top_power`` and ``top_power_se`` the
        simulated probability there.
    tie_classes, tie_classes_se : float or None
        With ``top``: the expected number of tie classes at ``n_top`` (at the largest N
        searched when ``n_top`` is None): one plus the expected number of models, in the
        true order, significantly different from the next better one (see Notes).
    signal_noise : SignalNoise or None
        Each task's signal-to-noise (runs or items pilots).
    evaluations : dict
        ``{"difference": ..., "n": ..., "top": ...}``: the simulated design points.
    n_replicates : int
        Replicates per design point.
    settings : dict
        Seed, model fit, procedure options, back end.

    Notes
    -----
    The expected number of tie classes is ``1 + sum_i P(model i+1 rejected against model
    i)`` over the models sorted by their true means: by linearity of expectation it needs
    only the adjacent pairs' rejection rates. Its standard error adds their binomial
    variances (the covariance of the rejections is ignored).
    """

    design: str
    model: str
    procedure: str
    alpha: float
    power: float
    pair: tuple[str, str]
    n_current: int
    pair_sd: float
    difference: float
    n_needed: int | None
    n_power: float
    n_power_se: float
    n_needed_se: float | None = None
    n_top_se: float | None = None
    mdd: float | None = None
    mdd_se: float | None = None
    mdd_effect: float | None = None
    top: int | None = None
    n_top: int | None = None
    top_power: float | None = None
    top_power_se: float | None = None
    tie_classes: float | None = None
    tie_classes_se: float | None = None
    signal_noise: Any = None
    evaluations: dict[str, tuple[Evaluation, ...]] = field(default_factory=dict, repr=False)
    n_replicates: int = 0
    settings: dict[str, Any] = field(default_factory=dict, repr=False)

    @property
    def unit(self) -> str:
        """What N counts, in words."""
        return UNITS[self.design]

    def to_frame(self) -> Any:
        """The simulated design points: one row per evaluation, with columns ``search``
        (``"difference"``, ``"n"`` or ``"top"``), ``n``, ``difference``, ``power``, ``se``."""
        import pandas as pd

        rows = [
            {"search": name, "n": e.n, "difference": e.difference, "power": e.power, "se": e.se}
            for name, points in self.evaluations.items()
            for e in points
        ]
        return pd.DataFrame(rows, columns=["search", "n", "difference", "power", "se"])

    def signal_noise_frame(self) -> Any:
        """Each task's ``signal``, ``noise``, ``ratio`` and ``noisy`` flag (empty without)."""
        import pandas as pd

        rows = [] if self.signal_noise is None else self.signal_noise.rows()
        return pd.DataFrame(rows, columns=["task", "signal", "noise", "ratio", "noisy"])

    def to_dict(self) -> dict[str, Any]:
        """The result as plain JSON-able values."""
        out: dict[str, Any] = {}
        for name in (
            "design", "model", "procedure", "alpha", "power", "pair", "n_current", "pair_sd",
            "difference", "n_needed", "n_needed_se", "n_power", "n_power_se", "mdd", "mdd_se",
            "mdd_effect", "top", "n_top", "n_top_se", "top_power", "top_power_se",
            "tie_classes", "tie_classes_se", "n_replicates",
        ):  # fmt: skip
            out[name] = _plain(getattr(self, name))
        out["signal_noise"] = None if self.signal_noise is None else [
            {k: _plain(v) for k, v in row.items()} for row in self.signal_noise.rows()
        ]  # fmt: skip
        out["evaluations"] = {
            name: [{k: _plain(getattr(e, k)) for k in ("n", "difference", "power", "se")}
                   for e in points]
            for name, points in self.evaluations.items()
        }  # fmt: skip
        out["settings"] = {k: _plain(v) for k, v in self.settings.items()}
        return out

    def to_json(self) -> str:
        """:meth:`to_dict` as a JSON string (NaN written as null)."""
        return json.dumps(self.to_dict(), indent=2, allow_nan=False)

    def __str__(self) -> str:
        from ._plan_text import plan_text

        return plan_text(self)

    def summary(self) -> str:
        """The readable summary (``str(result)``)."""
        return str(self)

    def plot(self, **kwargs: Any) -> Any:
        """Power against N with the target line and the Monte Carlo band:
        :func:`cdplot.plotting.plan_plot`."""
        from ..plotting._plan import plan_plot

        return plan_plot(self, **kwargs)


def _plain(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if hasattr(value, "item") and not isinstance(value, (str, bytes)):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value

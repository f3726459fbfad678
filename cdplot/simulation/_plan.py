"""``cdplot.plan``: how many datasets, items or runs a benchmark needs, from a pilot.

The planner runs :func:`cdplot.simulate` forwards at a few design points chosen by
bracketing and bisection (:mod:`._plan_search`) on models built from the pilot
(:mod:`._plan_models`), every point on the same seed (common random numbers).
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._errors import CdplotInputError, CdplotWarning, check_in_list, spell
from ..stats._options import check_alpha
from ..stats._signal_noise import signal_noise_items, signal_noise_runs
from ._models import _positive_int
from ._plan_models import (
    MIN_RESAMPLE,
    Pilot,
    WithTruth,
    _fit_normal,
    build_model,
    fit_difficulty,
    read_pilot,
)
from ._plan_result import PlanResult
from ._plan_search import Evaluation, crossing_se, search_difference, search_n
from ._procedures import parse_procedures
from ._runner import simulate

__all__ = ["plan"]

MODELS = ("resample", "normal")
DESIGNS = ("datasets", "items", "runs")
#: the largest N searched by default, per design
MAX_N = {"datasets": 1000, "items": 20000, "runs": 200}
#: the smallest N searched, per design
MIN_N = {"datasets": 2, "items": 2, "runs": 1}
#: fewest rows a normal model is fitted to
MIN_FIT = 3


def _check_power(power: Any) -> float:
    try:
        value = float(power)
    except (TypeError, ValueError):
        raise CdplotInputError(f"power must be a number in (0, 1), got {power!r}.") from None
    if not 0.0 < value < 1.0:
        raise CdplotInputError(
            f"power must be strictly between 0 and 1 (e.g. 0.8 for 80 %), got {power!r}."
        )
    return value


def _check_difference(difference: Any) -> float | None:
    if difference is None:
        return None
    try:
        value = float(difference)
    except (TypeError, ValueError):
        raise CdplotInputError(f"difference must be a number, got {difference!r}.") from None
    if not math.isfinite(value) or value == 0.0:
        raise CdplotInputError(
            f"difference must be a non-zero finite score difference (the smallest one worth "
            f"detecting, in the scores' units, e.g. {spell('difference', 0.01)}), got "
            f"{difference!r}; no "
            "number of datasets detects a difference of zero."
        )
    return abs(value)


def _check_model(model: Any, pilot: Pilot, mdd: bool, difference: float | None) -> str:
    if model is None:
        kind = "normal" if pilot.design == "runs" or pilot.binary else "resample"
    else:
        kind = check_in_list(MODELS, model=model)
    if kind == "resample" and pilot.design == "runs":
        raise CdplotInputError(
            f"{spell('model', 'resample')} cannot plan runs: the pilot keeps each cell's mean "
            f"and run-to-run standard deviation, not its runs; use {spell('model', 'normal')} "
            f"(normal run noise), or {spell('design', 'datasets')} to resample the tasks."
        )
    if kind == "resample" and pilot.binary and (mdd or difference is not None):
        raise CdplotInputError(
            f"{spell('model', 'resample')} cannot plant a difference in 0/1 item scores; use "
            f"{spell('model', 'normal')} (a threshold model fitted to the pilot), or "
            f"{spell('mdd', False)} without {spell('difference')} to plan for the pilot's own "
            "differences."
        )
    rows = pilot.scores.shape[0]
    if kind == "resample" and rows < MIN_RESAMPLE:
        raise CdplotInputError(
            f"a pilot of {rows} {pilot.design} is too small to resample (at least "
            f"{MIN_RESAMPLE}); add {pilot.design} to the pilot or use {spell('model', 'normal')}."
        )
    if rows < MIN_FIT:
        raise CdplotInputError(
            f"a pilot of {rows} {pilot.design} is too small to plan from (at least "
            f"{MIN_FIT}); add {pilot.design} to the pilot."
        )
    return kind


def _pick_pair(pilot: Pilot, pair: Any, control: str | None) -> tuple[int, int]:
    algs = pilot.algorithms
    means = pilot.scores.mean(axis=0)
    if pair is None:
        order = [int(j) for j in np.argsort(-means, kind="stable")]
        if control is not None:
            c = algs.index(control)
            return next(j for j in order if j != c), c
        return order[0], order[1]
    if isinstance(pair, str) or len(pair) != 2:
        raise CdplotInputError(f"pair must be two algorithm names (a, b), got {pair!r}.")
    idx = []
    for name in pair:
        if str(name) not in algs:
            raise CdplotInputError(
                f"unknown algorithm {name!r} in pair; the algorithms are "
                f"{', '.join(repr(a) for a in algs)}."
            )
        idx.append(algs.index(str(name)))
    if idx[0] == idx[1]:
        raise CdplotInputError(f"pair names one algorithm twice: {pair!r}.")
    return idx[0], idx[1]


def _default_test(pilot: Pilot) -> str:
    if pilot.design == "items":
        return "mcnemar" if pilot.binary else "paired-t"
    return "wilcoxon"


@dataclass
class _Runner:
    """Runs one design point: the model at N with a planted difference, simulated."""

    pilot: Pilot
    kind: str
    fitted: dict[str, Any]
    procedure: Any
    pair: tuple[int, int]
    alpha: float
    n_replicates: int
    options: dict[str, Any]

    def simulate(self, n: int, difference: float | None, truth: Any = None) -> Any:
        a, b = self.pair
        shift = {}
        if difference is not None:
            means = self.pilot.scores.mean(axis=0)
            shift = {a: difference - float(means[a] - means[b])}
        model = build_model(self.pilot, self.kind, n, shift, self.fitted)
        if truth is not None:
            model = WithTruth(model, truth, np.asarray(model.true_effects, dtype=float))
        with warnings.catch_warnings():
            # a design point too small for the test to reach alpha has power 0: the search
            # reads that, so simulate()'s warning about it would only be noise here
            warnings.filterwarnings("ignore", message=".*cannot reach", category=CdplotWarning)
            return simulate(
                model,
                procedures=[self.procedure],
                n_replicates=self.n_replicates,
                alpha=self.alpha,
                **self.options,
            )

    def pair_power(self, n: int, difference: float) -> Evaluation:
        sim = self.simulate(n, difference)
        a, b = self.pair
        rate = float(sim.rejection_rates(self.procedure.label).to_numpy()[a, b])
        if rate != rate:
            raise CdplotInputError(
                f"{self.procedure.label} does not test the pair "
                f"({self.pilot.algorithms[a]!r}, {self.pilot.algorithms[b]!r}); pass "
                f"{spell('pair')} with the control in it."
            )
        return Evaluation(n, difference, rate, _se(rate, self.n_replicates))


def _se(p: float, n: int) -> float:
    return math.sqrt(max(p * (1.0 - p), 0.0) / n)


def _top_truth(pilot: Pilot, top: int) -> tuple[np.ndarray, list[int]]:
    """Truth for separating the ``top`` best: each of them its own group, the rest one."""
    means = pilot.scores.mean(axis=0)
    order = [int(j) for j in np.argsort(-means, kind="stable")]
    k = len(order)
    truth = np.zeros((k, k), dtype=bool)
    rest = order[top:]
    truth[np.ix_(rest, rest)] = True
    truth[np.arange(k), np.arange(k)] = True
    return truth, order


def _tie_classes(sim: Any, label: str, order: list[int]) -> tuple[float, float]:
    rates = sim.rejection_rates(label).to_numpy()
    adj = [rates[i, j] for i, j in zip(order[:-1], order[1:], strict=True)]
    adj = [r for r in adj if r == r]
    r = sim.n_replicates
    return 1.0 + float(sum(adj)), math.sqrt(sum(p * (1 - p) / r for p in adj))


def _top_search(run: _Runner, top: int, start: int, low: int, high: int, target: float) -> dict:
    truth, order = _top_truth(run.pilot, top)
    sims: dict[int, Any] = {}

    def evaluate(n: int, _difference: float) -> Evaluation:
        sims[n] = run.simulate(n, None, truth)
        p = float(sims[n].power_all.iloc[0])
        return Evaluation(n, math.nan, p, _se(p, run.n_replicates))

    n_top, points = search_n(evaluate, math.nan, start, low, high, target)
    se_target = _se(target, run.n_replicates)
    n_top_se = None if n_top is None else crossing_se(points, target, se_target, "n")
    at = n_top if n_top is not None else max(sims)
    ties, ties_se = _tie_classes(sims[at], run.procedure.label, order)
    best = next(e for e in points if e.n == at)
    return {"n_top": n_top, "n_top_se": n_top_se, "top_power": best.power, "top_power_se": best.se,
            "tie_classes": ties, "tie_classes_se": ties_se, "points": points}  # fmt: skip


def _signal_noise(pilot: Pilot) -> Any:
    if pilot.design == "runs":
        return signal_noise_runs(pilot.rows, pilot.scores, pilot.std, pilot.counts)
    if pilot.items is not None:
        return signal_noise_items(tuple(pilot.items.tasks), tuple(pilot.items.matrices))
    return None


def plan(
    pilot: Any,
    *,
    test: str | None = None,
    correction: str = "holm",
    alpha: float = 0.05,
    control: str | None = None,
    power: float = 0.8,
    difference: float | None = None,
    pair: tuple[str, str] | None = None,
    top: int | None = None,
    mdd: bool = True,
    design: str | None = None,
    model: str | None = None,
    n_replicates: int = 2000,
    max_n: int | None = None,
    higher_is_better: bool | None = None,
    random_state: int | np.random.SeedSequence | None = 0,
    n_jobs: int = 1,
    backend: str | None = None,
    scheduler: Any = None,
    dataset: Any = None,
    algorithm: Any = None,
    score: Any = None,
    **test_options: Any,
) -> PlanResult:
    """Plan a benchmark from a pilot: the detectable difference now, and the N needed.

    From a pilot table and the procedure the study will run (test, correction, alpha), by
    simulation (:func:`cdplot.simulate` run at a few design points found by bracketing and
    bisection on the simulated power, every point on the same seed):

    - the **minimum detectable difference** at the pilot's size for the target power, in
      score units and as an effect size (``mdd``);
    - the **number of datasets, items or runs needed** to detect ``difference`` between
      ``pair`` (``n_needed``), and, with ``top=m``, to separate the m best models from
      each other and the rest (``n_top``), with the expected number of tie classes there;
    - each task's **signal-to-noise** (spread of the models' means over the run-to-run or
      item-sampling noise of one mean), flagging tasks that add mostly noise.

    Parameters
    ----------
    pilot : DataFrame, path or any input of :func:`cdplot.compare`
        Datasets x algorithms scores (wide or long), a long table with a run, seed or fold
        column (several runs per cell), or one benchmark's item-level table or logs.
    test, correction, alpha, control, **test_options
        The procedure the study will run, as :func:`cdplot.compare` takes it. Default
        test: "wilcoxon" over datasets; "mcnemar" for 0/1 items, else "paired-t".
    power : float, default 0.8
        Target power, in (0, 1).
    difference : float, optional
        The difference (score units, ``pair[0]`` minus ``pair[1]``) to plan N for;
        default the pilot's own difference of the pair.
    pair : tuple of two str, optional
        The pair a difference is planted for; default the pilot's two best (with a
        control: the best other algorithm and the control).
    top : int, optional
        Also find the N that separates the ``top`` best models.
    mdd : bool, default True
        Find the minimum detectable difference at the pilot's size.
    design : {"datasets", "items", "runs"}, optional
        What N counts. Default: items for one benchmark's item table, runs when every
        cell has two or more runs (the tasks fixed), else datasets.
    model : {"resample", "normal"}, optional
        ``"resample"``: the pilot's rows (datasets or items) drawn with replacement, a
        difference planted by shifting one algorithm's scores (Demšar 2006, §4).
        ``"normal"``: a fitted normal model (datasets: each algorithm's mean, its sd
        around the dataset means and a dataset effect; 0/1 items: :class:`BenchmarkModel`
        with the pilot's accuracies and fitted item difficulty; runs: normal run-to-run
        noise of each cell's sd). Default: resample, except normal for runs and 0/1 items.
    n_replicates : int, default 2000
        Replicates per design point.
    max_n : int, optional
        Largest N searched (default 1,000 datasets, 20,000 items, 200 runs).
    higher_is_better : bool, optional
        False for errors, losses or times.
    random_state : int or SeedSequence, default 0
        Seed of every design point (common random numbers).
    n_jobs, backend, scheduler
        Where each simulation runs, as :func:`cdplot.simulate` (joblib's loky, Dask, Ray).
    dataset, algorithm, score
        Column names, as :func:`cdplot.compare`.

    Returns
    -------
    PlanResult
        ``mdd``, ``mdd_se``, ``mdd_effect``, ``n_needed``, ``n_power``, ``n_top``,
        ``tie_classes``, ``signal_noise``, ``to_frame()`` (the simulated points),
        ``to_json()``, ``plot()``; ``str()`` is the summary.

    Raises
    ------
    CdplotInputError
        A power outside (0, 1), a difference of zero, a pilot too small to resample or
        fit, a model that cannot plan the design, an unknown pair or test.

    Examples
    --------
    >>> import cdplot
    >>> res = cdplot.plan(cdplot.datasets.load("demsar2006"), test="wilcoxon",
    ...                   n_replicates=200, mdd=False)
    >>> res.n_needed > 0
    True
    """
    target = _check_power(power)
    alpha = check_alpha(alpha)
    difference = _check_difference(difference)
    n_replicates = _positive_int("n_replicates", n_replicates)
    if design is not None:
        design = check_in_list(DESIGNS, design=design)
    read = read_pilot(pilot, higher_is_better=higher_is_better is not False, design=design,
                      warn=higher_is_better is None, dataset=dataset, algorithm=algorithm,
                      score=score)  # fmt: skip
    kind = _check_model(model, read, bool(mdd), difference)
    k = len(read.algorithms)
    if top is not None:
        top = _positive_int("top", top)
        if top >= k:
            raise CdplotInputError(f"top must be below the number of models ({k}), got {top}.")
    spec = {"test": test or _default_test(read), "correction": correction, **test_options}
    if control is not None:
        spec["control"] = control
    procedure = parse_procedures([spec], read.algorithms)[0]
    a, b = _pick_pair(read, pair, procedure.control)
    high = _positive_int("max_n", max_n if max_n is not None else MAX_N[read.design])
    fitted = _fit(read, kind)
    if random_state is None:  # one fresh seed for every point: common random numbers
        random_state = int(np.random.SeedSequence().generate_state(1)[0])
    options = {"random_state": random_state, "n_jobs": n_jobs, "backend": backend,
               "scheduler": scheduler, "progress": False}  # fmt: skip
    run = _Runner(read, kind, fitted, procedure, (a, b), alpha, n_replicates, options)
    return _answer(run, target, difference, top, bool(mdd), high)


def _fit(pilot: Pilot, kind: str) -> dict[str, Any]:
    if kind != "normal" or pilot.design == "runs":
        return {}
    if pilot.design == "items":
        return {"difficulty": fit_difficulty(pilot.scores)}
    return _fit_normal(pilot.scores, pilot.algorithms)


def _answer(
    run: _Runner, target: float, difference: float | None, top: int | None, mdd: bool, high: int
) -> PlanResult:
    pilot = run.pilot
    a, b = run.pair
    diffs = pilot.scores[:, a] - pilot.scores[:, b]
    pair_sd = float(np.std(diffs, ddof=1))
    observed = float(diffs.mean())
    if difference is None:
        if observed == 0.0:
            raise CdplotInputError(
                f"{pilot.algorithms[a]!r} and {pilot.algorithms[b]!r} tie in the pilot; pass "
                f"{spell('difference')} (the smallest difference worth detecting, in score "
                "units)."
            )
        difference = observed
    n0 = pilot.n
    evaluations: dict[str, tuple[Evaluation, ...]] = {}
    out: dict[str, Any] = {}
    se_target = _se(target, run.n_replicates)
    if mdd:
        noise = pair_sd if pilot.design != "runs" else float(np.mean(pilot.std[:, [a, b]]))
        scale = 2.0 * (noise if noise > 0 else abs(observed) or 1.0) / math.sqrt(max(n0, 1))
        found, found_se, points = search_difference(run.pair_power, n0, scale, target, se_target)
        evaluations["difference"] = tuple(points)
        out["mdd"], out["mdd_se"] = found, found_se
        out["mdd_effect"] = None if found is None or pair_sd == 0 else found / pair_sd
    low = MIN_N[pilot.design]
    n_needed, points = search_n(run.pair_power, difference, n0, low, high, target)
    evaluations["n"] = tuple(points)
    if n_needed is not None:
        out["n_needed_se"] = crossing_se(points, target, se_target, "n")
    at = next(e for e in points if e.n == (n_needed if n_needed is not None else high))
    if top is not None:
        found_top = _top_search(run, top, n0, low, high, target)
        evaluations["top"] = tuple(found_top.pop("points"))
        out.update(found_top, top=top)
    return PlanResult(
        design=pilot.design,
        model=run.kind,
        procedure=run.procedure.label,
        alpha=run.alpha,
        power=target,
        pair=(pilot.algorithms[a], pilot.algorithms[b]),
        n_current=n0,
        pair_sd=pair_sd,
        difference=float(difference),
        n_needed=n_needed,
        n_power=at.power,
        n_power_se=at.se,
        signal_noise=_signal_noise(pilot),
        evaluations=evaluations,
        n_replicates=run.n_replicates,
        settings=_settings(run, high),
        **out,
    )


def _settings(run: _Runner, high: int) -> dict[str, Any]:
    seed = run.options["random_state"]
    return {
        "algorithms": list(run.pilot.algorithms),
        "test": run.procedure.test,
        "correction": run.procedure.correction,
        "control": run.procedure.control,
        "random_state": seed if not isinstance(seed, np.random.SeedSequence) else seed.entropy,
        "max_n": high,
        "fit": dict(run.fitted),
        "n_jobs": run.options["n_jobs"],
        "backend": run.options["backend"],
    }

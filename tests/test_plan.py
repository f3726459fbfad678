"""cdplot.plan: the planner's answers against closed-form power, and its searches.

Verified against other tools:
- paired t-test sample sizes: R 4.2.2 ``power.t.test(delta, sd, sig.level, power,
  type = "paired")`` (tests/reference/plan/power_t_test.R -> power_t_test.csv) and
  statsmodels ``TTestPower().power(effect_size, nobs, alpha)``;
- exact McNemar test sample sizes: the exact power of the conditional binomial test,
  ``sum_m Binom(m; n, p10 + p01) * P(binom.test(X, m) <= alpha)``, X ~ Binom(m, p10 / (p10 +
  p01)), computed here with scipy.stats.binom from the discordant probabilities of the
  fitted threshold model.
Checked for consistency only: for rank procedures (Friedman-type mean ranks with Nemenyi's
and Holm's corrections) the power at the recommended N, re-simulated with another seed, is
at least the target (up to three Monte Carlo standard errors).
"""

from __future__ import annotations

import csv
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats
from statsmodels.stats.power import TTestPower

import cdplot
from cdplot.simulation._plan_search import Evaluation, crossing_se, search_difference, search_n

REFERENCE = Path(__file__).parent / "reference" / "plan"
#: tolerance of the checks in Monte Carlo standard errors of the simulated power
Z = 3.0


def _paired_pilot(delta: float, sd: float, n: int = 30, seed: int = 0) -> pd.DataFrame:
    """Two algorithms whose paired differences have mean ``delta`` and sd ``sd`` exactly."""
    rng = np.random.default_rng(seed)
    d = rng.standard_normal(n)
    d = (d - d.mean()) / d.std(ddof=1) * sd + delta
    base = rng.normal(0.7, 0.05, n)
    return pd.DataFrame({"A": base + d, "B": base}, index=[f"d{i}" for i in range(n)])


def _r_cases() -> list[dict[str, float]]:
    lines = (REFERENCE / "power_t_test.csv").read_text().splitlines()
    return [{k: float(v) for k, v in row.items()} for row in csv.DictReader(lines[1:])]


@pytest.mark.parametrize("case", _r_cases(), ids=lambda c: f"d{c['delta']}-a{c['alpha']}")
def test_paired_t_sample_size_agrees_with_closed_form(case):
    delta, sd, alpha, target = case["delta"], case["sd"], case["alpha"], case["power"]
    res = cdplot.plan(
        _paired_pilot(delta, sd), test="paired-t", correction="none", alpha=alpha,
        power=target, model="normal", difference=delta, mdd=False, n_replicates=2000,
        random_state=3,
    )  # fmt: skip
    n = res.n_needed
    se = math.sqrt(target * (1 - target) / 2000)
    exact = TTestPower()
    # statsmodels and R agree on the fractional n (tests/reference/plan/power_t_test.csv)
    assert exact.solve_power(effect_size=delta / sd, alpha=alpha, power=target) == pytest.approx(
        case["n"], abs=1e-3
    )
    # the planner's N has closed-form power at least the target, N - 1 at most, up to MC error
    assert exact.power(effect_size=delta / sd, nobs=n, alpha=alpha) >= target - Z * se
    assert exact.power(effect_size=delta / sd, nobs=n - 1, alpha=alpha) <= target + Z * se
    assert abs(n - math.ceil(case["n"])) <= 3  # R's n, rounded up, within the MC bracket


def _mcnemar_power(n: int, p10: float, p01: float, alpha: float) -> float:
    """Exact power of the two-sided exact McNemar test (conditional binomial test)."""
    m = np.arange(n + 1)
    pd_ = p10 + p01
    weight = stats.binom.pmf(m, n, pd_)
    total = 0.0
    for mm, w in zip(m.tolist(), weight.tolist(), strict=True):
        if mm == 0 or w < 1e-14:
            continue
        x = np.arange(mm + 1)
        p = np.minimum(1.0, 2.0 * stats.binom.cdf(np.minimum(x, mm - x), mm, 0.5))
        total += w * float(stats.binom.pmf(x[p <= alpha], mm, p10 / pd_).sum())
    return total


@pytest.mark.slow  # the simulation runs McNemar's test table by table (about 20 s)
def test_mcnemar_sample_size_agrees_with_exact_power():
    rng = np.random.default_rng(5)
    n_items = 200
    a = (rng.random(n_items) < 0.8).astype(float)
    b = (rng.random(n_items) < 0.62).astype(float)
    pilot = pd.DataFrame({"item": np.arange(n_items), "A": a, "B": b})
    res = cdplot.plan(pilot, mdd=False, n_replicates=400, random_state=2, max_n=2000)
    assert res.design == "items" and res.procedure == "mcnemar+holm" and res.model == "normal"
    # the fitted threshold model's discordant probabilities (BenchmarkModel's Notes)
    acc_a, acc_b = a.mean(), b.mean()
    r = res.settings["fit"]["difficulty"]
    za, zb = stats.norm.ppf(acc_a), stats.norm.ppf(acc_b)
    both = stats.multivariate_normal([0, 0], [[1, r], [r, 1]]).cdf([za, zb])
    p10, p01 = acc_a - both, acc_b - both
    n, se = res.n_needed, math.sqrt(0.8 * 0.2 / 400)
    assert _mcnemar_power(n, p10, p01, 0.05) >= 0.8 - Z * se
    assert _mcnemar_power(n - 1, p10, p01, 0.05) <= 0.8 + Z * se


@pytest.mark.parametrize(("test", "correction"), [("nemenyi", "nemenyi"), ("mean-ranks", "holm")])
def test_rank_procedures_reach_the_target_at_the_recommended_n(test, correction):
    pilot = cdplot.datasets.load("demsar2006")
    res = cdplot.plan(pilot, test=test, correction=correction, difference=0.015,
                      pair=("C4.5+m+cf", "C4.5"), mdd=False, n_replicates=1000,
                      random_state=1)  # fmt: skip
    assert res.n_needed is not None
    # an independent re-simulation with another seed at the recommended N
    means = pilot.mean(axis=0)
    shift = 0.015 - (means["C4.5+m+cf"] - means["C4.5"])
    model = cdplot.ResampleModel(pilot, n_datasets=res.n_needed, shift={"C4.5+m+cf": shift})
    sim = cdplot.simulate(model, procedures=[(test, correction)], n_replicates=2000,
                          random_state=12345)  # fmt: skip
    rate = sim.rejection_rates(f"{test}+{correction}").loc["C4.5+m+cf", "C4.5"]
    assert rate >= 0.8 - Z * math.sqrt(0.8 * 0.2 / 2000)


def test_minimum_detectable_difference_agrees_with_closed_form():
    res = cdplot.plan(_paired_pilot(0.3, 1.0, n=40), test="paired-t", correction="none",
                      model="normal", n_replicates=2000, random_state=4)  # fmt: skip
    # statsmodels: the effect size with power 0.8 at n = 40 pairs
    d = TTestPower().solve_power(nobs=40, alpha=0.05, power=0.8)
    assert res.mdd == pytest.approx(d, abs=Z * res.mdd_se + 0.01)
    assert res.mdd_effect == pytest.approx(res.mdd / 1.0)
    assert res.mdd_se > 0


def test_plan_is_seeded_and_runs_on_other_back_ends():
    pilot = cdplot.datasets.load("demsar2006")
    kw = {"n_replicates": 300, "mdd": False, "difference": 0.02, "random_state": 7}
    one = cdplot.plan(pilot, **kw)
    two = cdplot.plan(pilot, **kw, n_jobs=2, backend="threading")
    assert one.to_dict()["evaluations"] == two.to_dict()["evaluations"]
    assert one.n_needed == two.n_needed


def test_result_frame_json_and_summary():
    res = cdplot.plan(cdplot.datasets.load("demsar2006"), n_replicates=200, top=2,
                      random_state=0)  # fmt: skip
    frame = res.to_frame()
    assert set(frame.search) == {"difference", "n", "top"}
    assert list(frame.columns) == ["search", "n", "difference", "power", "se"]
    doc = res.to_dict()
    assert doc["n_needed"] == res.n_needed and doc["pair"] == list(res.pair)
    assert '"tie_classes"' in res.to_json()
    text = str(res)
    assert "minimum detectable difference" in text and "separate the top 2" in text
    assert 1.0 <= res.tie_classes <= 4.0
    assert res.n_needed_se > 0 and doc["n_needed_se"] == pytest.approx(res.n_needed_se)
    assert f"{res.n_needed} ± " in text


def test_tie_classes_count_the_adjacent_rejections():
    # four algorithms far apart on 30 datasets: every adjacent pair is rejected, 4 classes
    rng = np.random.default_rng(0)
    pilot = pd.DataFrame(rng.normal(0, 0.1, (30, 4)) + np.array([0.0, 1.0, 2.0, 3.0]),
                         columns=list("ABCD"))  # fmt: skip
    res = cdplot.plan(pilot, top=3, mdd=False, n_replicates=200, random_state=0)
    assert res.tie_classes == pytest.approx(4.0)
    # two pairs of near twins: one plus the adjacent pairs' rejection rates, as simulate()
    # gives them on the same seed (the top one is never separated within 40 datasets)
    twins = pd.DataFrame(rng.normal(0, 1.0, (30, 4)) + np.array([0.0, 0.0, 5.0, 5.0]),
                         columns=list("ABCD"))  # fmt: skip
    res = cdplot.plan(twins, top=1, mdd=False, n_replicates=200, random_state=0, max_n=40)
    assert res.n_top is None
    sim = cdplot.simulate(
        cdplot.ResampleModel(twins, n_datasets=40),
        procedures=[("wilcoxon", "holm")],
        n_replicates=200,
        random_state=0,
    )
    rates = sim.rejection_rates("wilcoxon+holm")
    order = list(twins.mean().sort_values(ascending=False).index)
    adjacent = [rates.loc[x, y] for x, y in zip(order[:-1], order[1:], strict=False)]
    assert res.tie_classes == pytest.approx(1 + sum(adjacent))
    assert 1.5 < res.tie_classes < 3.0


def _runs_pilot() -> pd.DataFrame:
    rng = np.random.default_rng(3)
    rows = []
    for task, (gap, noise) in {"clear": (1.0, 0.1), "noisy": (0.0, 1.0)}.items():
        for j, model in enumerate("ABC"):
            for seed in range(5):
                rows.append({"task": task, "model": model, "seed": seed,
                             "score": gap * j + rng.normal(0, noise)})  # fmt: skip
    for t in range(6):
        for j, model in enumerate("ABC"):
            for seed in range(5):
                rows.append({"task": f"t{t}", "model": model, "seed": seed,
                             "score": 0.2 * j + rng.normal(0, 0.2)})  # fmt: skip
    return pd.DataFrame(rows)


def test_signal_noise_flags_the_noisy_task():
    frame = _runs_pilot()
    res = cdplot.plan(frame, n_replicates=200, mdd=False, random_state=0, max_n=20)
    assert res.design == "runs" and res.model == "normal"
    sn = res.signal_noise_frame().set_index("task")
    assert bool(sn.loc["noisy", "noisy"]) and not bool(sn.loc["clear", "noisy"])
    # by hand: the variance of the three means over the mean of var(runs) / 5
    cell = frame[frame.task == "clear"].groupby("model").score
    signal = cell.mean().var(ddof=1)
    noise = (cell.var(ddof=1) / 5).mean()
    assert sn.loc["clear", "ratio"] == pytest.approx(signal / noise)
    assert "noisy: noisy" in str(res)


def test_signal_noise_of_item_level_tasks():
    rng = np.random.default_rng(1)
    half = np.array([1] * 30 + [0] * 30)
    rows = [
        {"task": t, "model": m, "doc_id": i, "acc": int(v)}
        for t, ps in {"easy": (0.2, 0.5, 0.9), "flat": None, "mid": (0.3, 0.5, 0.7)}.items()
        for j, m in enumerate("ABC")
        # flat: every model solves exactly half of the items (no signal at all)
        for i, v in enumerate(rng.permutation(half) if ps is None else rng.random(60) < ps[j])
    ]
    res = cdplot.plan(pd.DataFrame(rows), model="normal", n_replicates=100, mdd=False,
                      difference=0.2, random_state=0, max_n=50)  # fmt: skip
    sn = res.signal_noise_frame().set_index("task")
    assert sn.loc["flat", "ratio"] == 0.0 and bool(sn.loc["flat", "noisy"])
    assert sn.loc["easy", "ratio"] > 10 and not bool(sn.loc["easy", "noisy"])


# --------------------------------------------------------------------------- searches
def _curve(center: float, width: float):
    def evaluate(n: int, d: float) -> Evaluation:
        x = n if math.isnan(center) else d
        p = float(stats.norm.cdf((x - (center if not math.isnan(center) else 0)) / width))
        return Evaluation(n, d, p, 0.001)

    return evaluate


def test_search_n_finds_the_crossing_from_above_and_below():
    def evaluate(n: int, d: float) -> Evaluation:
        return Evaluation(n, d, 1 - math.exp(-n / 30), 0.0)  # reaches 0.8 at n = 48.3

    for start in (3, 48, 49, 400):
        n, points = search_n(evaluate, 0.1, start, 2, 1000, 0.8)
        assert n == 49
        assert len(points) <= 2 * math.ceil(math.log2(1000)) + 2  # a bisection, not a grid
    assert search_n(evaluate, 0.1, 10, 2, 40, 0.8)[0] is None
    assert search_n(evaluate, 0.1, 10, 60, 100, 0.8)[0] == 60


def test_search_difference_brackets_then_bisects():
    def evaluate(n: int, d: float) -> Evaluation:
        return Evaluation(n, d, float(stats.norm.cdf((d - 1.0) / 0.2)), 0.001)

    target_d = 1.0 + 0.2 * stats.norm.ppf(0.8)
    found, se, points = search_difference(evaluate, 20, 0.05, 0.8, 0.001)
    assert found == pytest.approx(target_d, rel=0.011)
    assert found >= target_d - 1e-9  # the smallest evaluated difference that reaches it
    assert se > 0 and len(points) < 30


# --------------------------------------------------------------------------- bad input
@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"difference": 0}, r"non-zero finite .* difference of zero"),
        ({"power": 1.0}, r"power must be strictly between 0 and 1"),
        ({"power": 0}, r"power must be strictly between 0 and 1"),
        ({"top": 4}, r"top must be below the number of models \(4\)"),
        ({"pair": ("C4.5", "nope")}, r"unknown algorithm 'nope' in pair"),
        ({"model": "bootstrap"}, r"'bootstrap' is not a valid value for model"),
        ({"design": "runs"}, r"design='runs' needs a table with a run"),
    ],
)
def test_bad_input_names_the_fix(kwargs, message):
    with pytest.raises(cdplot.CdplotInputError, match=message):
        cdplot.plan(cdplot.datasets.load("demsar2006"), n_replicates=10, **kwargs)


def test_a_pilot_too_small_to_resample():
    small = cdplot.datasets.load("demsar2006").iloc[:4]
    with pytest.raises(cdplot.CdplotInputError, match=r"4 datasets is too small to resample"):
        cdplot.plan(small, n_replicates=10)


def test_runs_cannot_be_resampled_and_01_items_cannot_be_shifted():
    with pytest.raises(cdplot.CdplotInputError, match=r"model='resample' cannot plan runs"):
        cdplot.plan(_runs_pilot(), model="resample", n_replicates=10)
    items = pd.DataFrame({"item": range(50), "A": [1, 0] * 25, "B": [1, 1, 0, 0, 0] * 10})
    with pytest.raises(cdplot.CdplotInputError, match=r"cannot plant a difference in 0/1"):
        cdplot.plan(items, model="resample", n_replicates=10)


def test_tied_pair_needs_a_difference():
    pilot = pd.DataFrame({"A": [0.1, 0.2, 0.3, 0.4, 0.5, 0.6], "B": [0.2, 0.1, 0.4, 0.3, 0.6, 0.5]})
    with pytest.raises(cdplot.CdplotInputError, match=r"tie in the pilot; pass difference \(the"):
        cdplot.plan(pilot, mdd=False, n_replicates=10)


def test_lower_is_better_plans_the_oriented_scores():
    pilot = cdplot.datasets.load("demsar2006")
    kw = {"n_replicates": 200, "difference": 0.02, "random_state": 5}
    errors = cdplot.plan(1.0 - pilot, higher_is_better=False, **kw)
    accuracies = cdplot.plan(pilot, **kw)
    assert errors.pair == accuracies.pair
    assert errors.n_needed == accuracies.n_needed
    assert errors.mdd == pytest.approx(accuracies.mdd)


def test_control_sets_the_default_pair_and_options_reach_simulate():
    pilot = cdplot.datasets.load("demsar2006")
    res = cdplot.plan(pilot, test="wilcoxon", correction="holm", control="C4.5", mdd=False,
                      n_replicates=100, difference=0.02, random_state=0)  # fmt: skip
    assert res.pair == ("C4.5+m+cf", "C4.5") and res.procedure == "wilcoxon+holm vs C4.5"
    with pytest.raises(cdplot.CdplotInputError, match=r"'bogus' is not a valid value for backend"):
        cdplot.plan(pilot, n_replicates=100, backend="bogus", mdd=False)


def test_plan_on_a_dask_client_equals_the_plan_in_this_process():
    distributed = pytest.importorskip("dask.distributed")
    pilot = cdplot.datasets.load("demsar2006")
    kw = {"n_replicates": 200, "difference": 0.02, "mdd": False, "random_state": 3}
    with (
        distributed.LocalCluster(
            n_workers=1, threads_per_worker=1, processes=False, dashboard_address=":0"
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        on_dask = cdplot.plan(pilot, backend="dask", scheduler=client, **kw)
    here = cdplot.plan(pilot, **kw)
    assert on_dask.to_dict()["evaluations"] == here.to_dict()["evaluations"]
    assert on_dask.settings["backend"] == "dask"


def test_crossing_se_is_the_power_se_over_the_slope():
    # power 0.01 per dataset around the target: an error of 0.009 in power is 0.9 datasets
    points = [Evaluation(n, 0.1, 0.01 * n, 0.009) for n in (60, 70, 80, 90, 100)]
    assert crossing_se(points, 0.8, 0.009, "n") == pytest.approx(0.9)
    flat = [Evaluation(n, 0.1, 0.5, 0.01) for n in (10, 20)]
    assert math.isnan(crossing_se(flat, 0.8, 0.01, "n"))


def test_an_error_column_without_a_direction_warns_as_compare_does():
    pilot = cdplot.datasets.load("demsar2006")
    long = (1 - pilot).reset_index().melt(id_vars="dataset", var_name="algorithm",
                                          value_name="error")  # fmt: skip
    with pytest.warns(cdplot.CdplotWarning, match=r"'error' says 'error', usually lower"):
        cdplot.plan(long, n_replicates=50, mdd=False, difference=0.02)


def test_continuous_items_resampled_agree_with_paired_t_power():
    # one benchmark's items with scores in [0, 1]: items resampled, the paired t-test
    rng = np.random.default_rng(0)
    n_items = 150
    base = rng.random(n_items)
    items = pd.DataFrame({"item": np.arange(n_items), "A": base + rng.normal(0.03, 0.1, n_items),
                          "B": base})  # fmt: skip
    res = cdplot.plan(items, correction="none", mdd=False, n_replicates=1000, random_state=0)
    assert (res.design, res.model, res.procedure) == ("items", "resample", "paired-t+none")
    d = items.A - items.B
    effect = d.mean() / d.std(ddof=1)  # statsmodels TTestPower on the pilot's d_z
    se = math.sqrt(0.8 * 0.2 / 1000)
    assert TTestPower().power(effect_size=effect, nobs=res.n_needed, alpha=0.05) >= 0.8 - Z * se
    assert TTestPower().power(effect_size=effect, nobs=res.n_needed - 1, alpha=0.05) <= 0.8 + Z * se

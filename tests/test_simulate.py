"""Simulation studies (cdplot.simulate).

Verified against independent sources:

- Benavoli, Corani & Mangili (2016), Example 2 (§4.2): with A ~ N(0, 1), B ~ N(1.5, 1),
  C, D, E ~ N(5, 1), N(6, 1), N(7, 1) on 20 datasets, the power of the two-sided sign test for
  A vs B is 0.94 and that of the mean-ranks test 0.046 (their Monte Carlo). Tolerance: 3
  Monte Carlo standard errors plus half a unit of the paper's last printed digit.
- The sign test's exact power in that example, from scipy.stats.binom and scipy.stats.norm:
  P(W >= 15 or W <= 5) for W ~ Binomial(20, Phi(1.5 / sqrt 2)) (15 of 20 is the smallest win
  count with a two-sided exact binomial p <= 0.05: scipy.stats.binomtest(15, 20).pvalue =
  0.041, binomtest(14, 20).pvalue = 0.115). Tolerance: 3 standard errors.
- The family-wise error rate of every all-pairs correction under the complete null is at most
  alpha (Holm 1979; Shaffer 1986; Bergmann & Hommel 1988; García & Herrera 2008): estimate
  <= alpha + 3 standard errors at k = 5 and 10. Without correction it is far above alpha.
- Under the complete null FDR = FWER exactly (every rejection is false: Benjamini & Hochberg
  1995, Lemma/Remark on weak control).

Checked for consistency only (against cdplot's own per-table functions): the batched kernels
of cdplot.stats._batch equal cdplot.stats' pairwise tests and adjustments bit for bit, and
simulate()'s rejections equal those of compare() on the same simulated tables. Reproducibility
over n_jobs, chunk sizes and the loky and dask back ends (a real LocalCluster).
"""

from __future__ import annotations

import importlib.util
import json
import math
import os
import subprocess
import sys
import warnings

import numpy as np
import pandas as pd
import pytest
from scipy import stats as sps

import cdplot
from cdplot.simulation import BLOCK, GeneratorModel, NormalModel, ResampleModel, simulate
from cdplot.stats import (
    adjust_all_pairs,
    adjust_control,
    mean_ranks_test,
    nemenyi_test,
    rank_rows,
    sign_test,
    wilcoxon_test,
)
from cdplot.stats._batch import batch_adjust_all_pairs, batch_adjust_control, batch_pvalues

ALL_PAIRS = ("none", "bonferroni", "holm", "hochberg", "hommel", "finner", "shaffer",
             "bergmann-hommel")  # fmt: skip
CONTROL = ("none", "bonferroni-dunn", "holm", "hochberg", "hommel", "finner", "li")
BENAVOLI_MEANS = {"A": 0.0, "B": 1.5, "C": 5.0, "D": 6.0, "E": 7.0}


def _pair_rate(sim, procedure, a, b):
    frame = sim.to_frame()
    row = frame[(frame.procedure == procedure) & (frame.a == a) & (frame.b == b)]
    assert len(row) == 1
    return float(row.rejection_rate.iloc[0]), float(row.se.iloc[0])


# --------------------------------------------------------------------------- published values
def test_benavoli_example_2():
    model = cdplot.NormalModel(means=BENAVOLI_MEANS, sd=1.0, n_datasets=20)
    sim = cdplot.simulate(
        model,
        procedures=[("sign", "none"), ("mean-ranks", "none"), ("wilcoxon", "holm")],
        n_replicates=20_000,
        alpha=0.05,
        random_state=1,
        n_jobs=1,
        backend=None,
        progress=False,
    )
    sign, sign_se = _pair_rate(sim, "sign+none", "A", "B")
    mean_ranks, mr_se = _pair_rate(sim, "mean-ranks+none", "A", "B")
    # Benavoli et al. (2016) §4.2 Example 2: 0.94 and 0.046
    assert abs(sign - 0.94) <= 3 * sign_se + 0.005
    assert abs(mean_ranks - 0.046) <= 3 * mr_se + 0.0005
    # exact sign-test power: scipy.stats.binom with p = scipy.stats.norm.cdf(1.5 / sqrt(2))
    p_win = sps.norm.cdf(1.5 / math.sqrt(2.0))
    exact = sps.binom.sf(14, 20, p_win) + sps.binom.cdf(5, 20, p_win)
    assert sps.binomtest(15, 20).pvalue <= 0.05 < sps.binomtest(14, 20).pvalue
    assert abs(sign - exact) <= 3 * sign_se
    # the standard error is the binomial one
    assert sign_se == pytest.approx(math.sqrt(sign * (1 - sign) / 20_000), rel=1e-12)


#: Bergmann-Hommel's exact search runs per replicate (about 1 ms a table at k = 10): its
#: simulation sweeps are in the whole suite, not in the inner loop (-m "not slow")
_SLOW_BH = pytest.mark.slow


@pytest.mark.parametrize(
    ("k", "with_bh"),
    [
        (5, False),
        (10, False),
        pytest.param(5, True, marks=_SLOW_BH),
        pytest.param(10, True, marks=_SLOW_BH),
    ],
)
def test_fwer_under_complete_null(k, with_bh):
    n_rep = 4000
    alpha = 0.05
    model = NormalModel(means=[0.0] * k, n_datasets=20)
    # every procedure runs on the same tables: leaving Bergmann-Hommel out changes no other
    corrections = [c for c in ALL_PAIRS if c != "finner" and (with_bh or c != "bergmann-hommel")]
    procs = [("nemenyi", "nemenyi")] + [("wilcoxon", c) for c in corrections]
    sim = simulate(model, procedures=procs, n_replicates=n_rep, alpha=alpha, random_state=10 + k)
    fwer, se = sim.fwer, sim.fwer_se
    for label in sim.procedures:
        if label == "wilcoxon+none":
            continue
        assert fwer[label] <= alpha + 3 * se[label], (label, fwer[label], se[label])
    # uncorrected: with m = 10 or 45 tests the FWER is far above alpha
    assert fwer["wilcoxon+none"] > alpha + 10 * se["wilcoxon+none"]
    # no false nulls: power undefined; every rejection is false, so FDR == FWER
    assert sim.power_any.isna().all()
    np.testing.assert_array_equal(sim.fdr.to_numpy(), fwer.to_numpy())
    assert se.to_numpy() == pytest.approx(np.sqrt(fwer * (1 - fwer) / n_rep).to_numpy())


@pytest.mark.parametrize(
    "order",
    [
        ("bonferroni", "holm", "shaffer"),
        pytest.param(("bonferroni", "holm", "shaffer", "bergmann-hommel"), marks=_SLOW_BH),
    ],
)
def test_fwer_under_a_partial_null(order):
    # true nulls within {A1, A2, A3} and within {A4, A5}; the corrections control the FWER
    # under every configuration (strong control), so also here; their power is ordered as
    # the procedures are (García & Herrera 2008 §2: Bergmann-Hommel >= Shaffer >= Holm >=
    # Bonferroni, rejection by rejection on the same tables)
    n_rep, alpha = 3000, 0.05
    model = NormalModel(means=[0.0, 0.0, 0.0, 0.8, 0.8, 1.6], n_datasets=20)
    sim = simulate(
        model, procedures=[("wilcoxon", c) for c in order], n_replicates=n_rep, random_state=4
    )
    assert (sim.fwer <= alpha + 3 * sim.fwer_se).all()
    avg = sim.power_avg.to_numpy()
    assert (np.diff(avg) >= 0).all() and avg[-1] > avg[0]


# --------------------------------------------------------------------------- kernels
@pytest.mark.parametrize(("k", "n"), [(3, 6), (5, 20), (7, 11)])
def test_batch_kernels_equal_per_table_functions(k, n):
    rng = np.random.default_rng(k * 100 + n)
    reps = 25
    tables = rng.standard_normal((reps, n, k))
    tables[: reps // 2] = np.round(tables[: reps // 2] * 2) / 2  # ties and zero differences
    tables[0, :, 1] = tables[0, :, 0]  # a pair with every difference zero
    i, j = np.triu_indices(k, 1)
    cases = [
        ("wilcoxon", {}),
        ("wilcoxon", {"zero_method": "pratt"}),
        ("wilcoxon", {"zero_method": "zsplit"}),
        ("wilcoxon", {"exact": False, "continuity": False}),
        ("sign", {}),
        ("sign", {"ties": "discard"}),
        ("mean-ranks", {}),
        ("nemenyi", {}),
    ]
    for test, options in cases:
        batch = batch_pvalues(tables, test, options)
        for r in range(reps):
            if test == "wilcoxon":
                ref = wilcoxon_test(tables[r], **options).pvalue
            elif test == "sign":
                ref = sign_test(tables[r], **options).pvalue
            else:
                avg = rank_rows(-tables[r]).mean(axis=0)
                ref = (mean_ranks_test if test == "mean-ranks" else nemenyi_test)(avg, n).pvalue
            np.testing.assert_array_equal(batch[r], ref[i, j], err_msg=f"{test} {options} {r}")
    p = batch_pvalues(tables, "wilcoxon")
    for correction in ALL_PAIRS:
        adj = batch_adjust_all_pairs(p, k, correction)
        for r in range(reps):
            np.testing.assert_array_equal(adj[r], adjust_all_pairs(p[r], k, correction))
    for correction in CONTROL:
        adj = batch_adjust_control(p[:, : k - 1], correction)
        for r in range(reps):
            np.testing.assert_array_equal(adj[r], adjust_control(p[r, : k - 1], correction))


def test_rejections_equal_compare_on_the_same_tables():
    model = NormalModel(means={"a": 0.0, "b": 0.4, "c": 0.8, "d": 0.8}, n_datasets=12)
    procs = [("wilcoxon", "shaffer"), ("mean-ranks", "holm", "a"), ("sign", "none")]
    n_rep = 2 * BLOCK + 7
    sim = simulate(model, procedures=procs, n_replicates=n_rep, alpha=0.1, random_state=5)
    children = np.random.SeedSequence(5).spawn(3)
    tables = np.concatenate(
        [
            model.draw(np.random.default_rng(s), size)
            for s, size in zip(children, [BLOCK, BLOCK, 7], strict=True)
        ]
    )
    names = list(model.algorithms)
    expected: dict[tuple[str, str, str], int] = {}
    apv_sum: dict[tuple[str, str, str], float] = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cdplot.CdplotWarning)
        for table in tables:
            frame = pd.DataFrame(table, columns=names)
            for (test, corr, *ctrl), label in zip(procs, sim.procedures, strict=True):
                control = ctrl[0] if ctrl else None
                res = cdplot.compare(frame, test=test, correction=corr, control=control, alpha=0.1)
                if control is not None:
                    hits = [(control, b) for b, sig in res.significant.items() if sig]
                    apvs = [((control, b), v) for b, v in res.adjusted_pvalues.items()]
                else:
                    sig = res.significant.to_numpy()
                    hits = [
                        (names[i], names[j]) for i, j in zip(*np.nonzero(np.triu(sig)), strict=True)
                    ]
                    mat = res.adjusted_pvalues.to_numpy()
                    apvs = [
                        ((names[i], names[j]), mat[i, j])
                        for i, j in zip(*np.triu_indices(4, 1), strict=True)
                    ]
                for (a, b), v in apvs:
                    apv_sum[label, a, b] = apv_sum.get((label, a, b), 0.0) + v
                for a, b in hits:
                    expected[label, a, b] = expected.get((label, a, b), 0) + 1
    got = {
        (row.procedure, row.a, row.b): row.rejections
        for row in sim.to_frame().itertuples()
        if row.rejections
    }
    assert got == expected
    assert len(got) > 10
    for row in sim.to_frame().itertuples():
        assert row.mean_apv == pytest.approx(apv_sum[row.procedure, row.a, row.b] / n_rep, 1e-12)


# --------------------------------------------------------------------------- reproducibility
def _assert_same(a, b):
    pd.testing.assert_frame_equal(a.to_frame(), b.to_frame())
    pd.testing.assert_frame_equal(a.summary(), b.summary())


PROCS = [("wilcoxon", "holm"), ("mean-ranks", "bergmann"), ("sign", "none", "A1")]


def test_same_result_for_any_chunk_size():
    model = NormalModel(means=[0.0, 0.0, 0.5, 1.0], n_datasets=15)
    ref = simulate(model, procedures=PROCS, n_replicates=950, random_state=7)
    for chunk in (1, 100, 250, 10_000):
        _assert_same(
            ref,
            simulate(model, procedures=PROCS, n_replicates=950, random_state=7, chunk_size=chunk),
        )
    other = simulate(model, procedures=PROCS, n_replicates=950, random_state=8)
    assert not other.to_frame().equals(ref.to_frame())
    # a SeedSequence gives the seed's result, however often the object was spawned from
    seq = np.random.SeedSequence(7)
    seq.spawn(3)
    _assert_same(ref, simulate(model, procedures=PROCS, n_replicates=950, random_state=seq))


@pytest.mark.slow  # starts worker processes (seconds)
def test_same_result_with_two_loky_workers():
    model = NormalModel(means=[0.0, 0.0, 0.5, 1.0], n_datasets=15)
    ref = simulate(model, procedures=PROCS, n_replicates=1000, random_state=7)
    par = simulate(
        model, procedures=PROCS, n_replicates=1000, random_state=7, n_jobs=2, chunk_size=300
    )
    _assert_same(ref, par)
    assert par.settings["backend"] == "loky"


@pytest.mark.slow  # starts worker processes (seconds)
def test_same_result_on_a_dask_localcluster():
    distributed = pytest.importorskip("dask.distributed")
    model = NormalModel(means=[0.0, 0.0, 0.5, 1.0], n_datasets=15)
    ref = simulate(model, procedures=PROCS, n_replicates=1000, random_state=7)
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0"
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        on_dask = simulate(
            model,
            procedures=PROCS,
            n_replicates=1000,
            random_state=7,
            backend="dask",
            chunk_size=200,
        )
        assert len(client.scheduler_info()["workers"]) == 2
        # by scheduler address: simulate connects its own client and closes it
        by_address = simulate(
            model, procedures=PROCS, n_replicates=1000, random_state=7, backend="dask",
            scheduler=cluster.scheduler_address,
        )  # fmt: skip
    _assert_same(ref, on_dask)
    _assert_same(ref, by_address)
    assert on_dask.settings["backend"] == "dask"
    assert on_dask.settings["n_chunks"] == 5
    assert on_dask.settings["workers"] == 2


@pytest.mark.slow  # starts worker processes (seconds)
def test_dask_without_a_client_starts_and_stops_a_localcluster():
    distributed = pytest.importorskip("dask.distributed")
    model = NormalModel(means=[0.0, 0.5, 1.0], n_datasets=10)
    ref = simulate(model, procedures=PROCS[:2], n_replicates=400, random_state=3)
    environ_before = dict(os.environ)
    out = simulate(
        model, procedures=PROCS[:2], n_replicates=400, random_state=3, backend="dask", n_jobs=2
    )
    _assert_same(ref, out)
    assert out.settings["workers"] == 2
    with pytest.raises(ValueError, match="No global client found"):
        distributed.get_client()
    # distributed's nanny writes its pre-spawn environment (MALLOC_TRIM_THRESHOLD_,
    # OMP_NUM_THREADS, ...) into os.environ: simulate restores this process's environment
    assert os.environ == environ_before


def test_small_study_with_n_jobs_runs_in_process():
    """Too little work to share (here 600 replicates x 3 pairs x 10 datasets): with n_jobs
    but neither backend nor chunk_size, the study runs in this process, same numbers."""
    model = NormalModel(means=[0.0, 0.5, 1.0], n_datasets=10)
    ref = simulate(model, procedures=PROCS[:2], n_replicates=600, random_state=3)
    out = simulate(model, procedures=PROCS[:2], n_replicates=600, random_state=3, n_jobs=2)
    _assert_same(ref, out)
    assert out.settings["backend"] == "sequential" and out.settings["workers"] == 1


def test_progress_bar(capsys):
    model = NormalModel(means=[0.0, 1.0, 2.0], n_datasets=10)
    simulate(model, procedures=[("sign", "none")], n_replicates=300, random_state=0, progress=True)
    assert "simulate" in capsys.readouterr().err
    simulate(
        model, procedures=[("sign", "none")], n_replicates=300, random_state=0
    )  # not a terminal
    assert capsys.readouterr().err == ""


# --------------------------------------------------------------------------- models
def test_resample_model_demsar_selection_bias():
    table = cdplot.datasets.load("demsar2006")
    model = ResampleModel(table, n_datasets=10, bias=20.0, bias_pair=("C4.5+m+cf", "C4.5"))
    d = table["C4.5+m+cf"].to_numpy() - table["C4.5"].to_numpy()
    # Demšar (2006) §4.1.1: probability proportional to 1 / (1 + exp(-k d_i))
    expected = 1.0 / (1.0 + np.exp(-20.0 * d))
    np.testing.assert_allclose(model.weights, expected / expected.sum())
    tables = model.draw(np.random.default_rng(0), 50)
    assert tables.shape == (50, 10, 4)
    rows = {tuple(r) for r in table.to_numpy()}
    assert all(tuple(r) in rows for r in tables.reshape(-1, 4))


def test_resample_model_shift_and_truth():
    table = cdplot.datasets.load("demsar2006")
    model = ResampleModel(
        table, shift={"C4.5": 0.05}, truth=[["C4.5+m", "C4.5+cf", "C4.5+m+cf"], ["C4.5"]]
    )
    np.testing.assert_array_equal(model.scores[:, 0], table["C4.5"].to_numpy() + 0.05)
    sim = simulate(model, procedures=[("wilcoxon", "holm")], n_replicates=200, random_state=0)
    assert sim.truth_known and not math.isnan(sim.fwer.iloc[0])
    unknown = simulate(
        ResampleModel(table, n_datasets=8), procedures=[("wilcoxon", "holm")], n_replicates=200
    )
    assert math.isnan(unknown.fwer.iloc[0]) and not unknown.truth_known
    assert "truth unknown" in str(unknown)
    lower = ResampleModel(1 - table, higher_is_better=False, shift={"C4.5": -0.05})
    np.testing.assert_allclose(lower.scores, model.scores - 1.0)


def test_generator_model_and_bare_callable():
    def gen(rng):
        return rng.standard_normal((10, 3)) + np.array([0.0, 0.0, 3.0])

    sim = simulate(gen, procedures=[("wilcoxon", "none")], n_replicates=200, random_state=4)
    assert sim.algorithms == ("A1", "A2", "A3")
    named = GeneratorModel(gen, ["x", "y", "z"], truth=[["x", "y"], ["z"]])
    sim2 = simulate(named, procedures=[("wilcoxon", "none")], n_replicates=200, random_state=4)
    assert sim2.power_all.iloc[0] > 0.9  # 3 sd apart on 10 datasets
    np.testing.assert_array_equal(
        sim.to_frame().rejection_rate.to_numpy(), sim2.to_frame().rejection_rate.to_numpy()
    )


def test_normal_model_correlation_reduces_difference_variance():
    model = NormalModel([0.0, 0.0, 0.0], n_datasets=400, correlation=0.75, dataset_sd=2.0)
    t = model.draw(np.random.default_rng(0), 20)
    diff = (t[..., 0] - t[..., 1]).ravel()
    # Var(X0 - X1) = 2 (1 - rho) = 0.5; sd of the sample variance about 0.5 * sqrt(2 / 8000)
    assert abs(diff.var() - 0.5) < 0.05


# --------------------------------------------------------------------------- errors
@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"procedures": [("wilcoxn", "holm")]}, "not a valid value for test"),
        ({"procedures": [("wilcoxon", "holmm")]}, "not a valid value for correction"),
        ({"procedures": [("wilcoxon", "li")]}, "comparisons with a control; pass control"),
        ({"procedures": [("nemenyi", "bonferroni")]}, "own single-step adjustment"),
        ({"procedures": [("nemenyi", "nemenyi", "A")]}, "compares all pairs"),
        ({"procedures": [("sign", "holm", "Z")]}, "unknown control algorithm 'Z'"),
        ({"procedures": [("sign", "holm", {"zero_method": "pratt"})]}, "unknown option"),
        ({"procedures": [("sign", "holm"), ("sign", "Holm")]}, "given twice"),
        ({"procedures": ("sign", "holm")}, "must be a list of procedures"),
        ({"procedures": []}, "procedures is empty"),
        ({"procedures": ["sign"]}, "cannot read the procedure"),
        ({"n_replicates": 0}, "n_replicates must be a positive integer"),
        ({"alpha": 1.5}, "alpha must be in"),
        ({"random_state": np.random.default_rng(0)}, "Generator cannot be split"),
        ({"backend": "dusk"}, "not a valid value for backend.*Did you mean 'dask'"),
        ({"n_jobs": 0}, "n_jobs must be a non-zero integer"),
        ({"chunk_size": 0}, "chunk_size must be a positive integer"),
        ({"progress": "yes"}, "progress must be None, True or False"),
    ],
)
def test_simulate_input_errors(kwargs, message):
    model = NormalModel({"A": 0.0, "B": 1.0, "C": 2.0})
    args = {"procedures": [("sign", "none")], "n_replicates": 10} | kwargs
    with pytest.raises(cdplot.CdplotInputError, match=message):
        simulate(model, **args)


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (lambda: NormalModel([0.0]), "at least two algorithms"),
        (lambda: NormalModel("abc"), "means must be a mapping"),
        (lambda: NormalModel([0, 1], sd=0.0), "sd must be positive"),
        (lambda: NormalModel([0, 1], correlation=1.0), "correlation must be in"),
        (lambda: NormalModel([0, 1], n_datasets=1), "n_datasets must be an integer >= 2"),
        (lambda: NormalModel({"A": 0, "B": 1}, sd={"A": 1}), "one standard deviation per"),
        (
            lambda: ResampleModel(cdplot.datasets.load("demsar2006"), bias=1.0),
            "bias needs bias_pair",
        ),
        (
            lambda: ResampleModel(cdplot.datasets.load("demsar2006"), shift={"X": 1}),
            "unknown algorithm 'X' in shift",
        ),
        (
            lambda: ResampleModel(cdplot.datasets.load("demsar2006"), 20, replace=False),
            "exceeds the table's 14 datasets",
        ),
        (lambda: GeneratorModel(3), "must be a callable"),
        (lambda: GeneratorModel(lambda rng: np.zeros(3)), "N x k array with N >= 2"),
        (lambda: GeneratorModel(lambda r: np.zeros((3, 2)), truth="AB"), "list of groups"),
        (lambda: simulate(42), "model must be a NormalModel"),
        (lambda: cdplot.simulate_grid([1, 2]), "non-empty mapping"),
    ],
)
def test_model_input_errors(build, message):
    with pytest.raises(cdplot.CdplotInputError, match=message):
        build()


def test_warns_when_the_test_cannot_reach_alpha():
    model = NormalModel([0.0, 3.0], n_datasets=5)  # smallest two-sided p = 2 / 2**5 = 0.0625
    with pytest.warns(cdplot.CdplotWarning, match="with 5 datasets the sign and wilcoxon test"):
        sim = simulate(
            model,
            procedures=[("sign", "none"), ("wilcoxon", "none")],
            n_replicates=50,
            random_state=0,
        )
    assert (sim.to_frame().rejection_rate == 0).all()
    simulate(
        model, procedures=[("mean-ranks", "none")], n_replicates=50, random_state=0
    )  # no warning


def test_unknown_procedure_name_in_result():
    sim = simulate(
        NormalModel([0, 1]), procedures=[("sign", "none")], n_replicates=10, random_state=0
    )
    with pytest.raises(cdplot.CdplotInputError, match="Did you mean 'sign\\+none'"):
        sim.rejection_rates("sign+nonee")


# --------------------------------------------------------------------------- API surface
def test_lazy_public_names_and_light_import():
    code = (
        "import sys, cdplot\n"
        "heavy = [m for m in ('joblib', 'dask', 'cdplot.simulate') if m in sys.modules]\n"
        "m = cdplot.NormalModel({'A': 0, 'B': 1})\n"
        "r = cdplot.simulate(m, procedures=[('sign', 'none')], n_replicates=10, random_state=0)\n"
        "print(','.join(heavy), type(r).__name__, 'joblib' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["SimulationResult", "False"]


def test_simulate_is_the_function_after_the_package_was_imported():
    import cdplot.simulation  # noqa: F401

    result = cdplot.simulate(
        NormalModel([0, 1]), procedures=[("sign", "none")], n_replicates=10, random_state=0
    )
    assert type(result).__name__ == "SimulationResult"


def test_to_frame_columns_and_json(tmp_path):
    sim = simulate(
        NormalModel(BENAVOLI_MEANS),
        procedures=[("sign", "none"), ("wilcoxon", "holm", "A")],
        n_replicates=300,
        alpha=0.05,
        random_state=0,
    )
    frame = sim.to_frame()
    assert list(frame.columns) == [
        "procedure", "test", "correction", "control", "a", "b", "true_null", "rejections",
        "rejection_rate", "se", "mean_apv", "mean_apv_se",
    ]  # fmt: skip
    assert len(frame) == 10 + 4
    text = json.dumps(sim.to_dict(), allow_nan=False)
    assert json.loads(text)["settings"]["random_state"] == 0


# --------------------------------------------------------------------------- CLI
def _cli(argv):
    from cdplot.cli import main

    return main([*argv, "--no-progress"])


def test_cli_simulate_writes_table_json_and_figure(tmp_path, capsys):
    out_json, fig = tmp_path / "out.json", tmp_path / "power.png"
    code = _cli(
        ["simulate", "--k", "5", "--n", "20", "--means", "0,1.5,5,6,7", "--procedures",
         "sign:none,mean-ranks:none", "--replicates", "2000", "--seed", "1", "--pair", "A,B",
         "--json", str(out_json), "-o", str(fig), "--csv", str(tmp_path / "pairs.csv")]
    )  # fmt: skip
    assert code == 0
    printed = capsys.readouterr().out
    assert "sign+none" in printed and "wrote" in printed
    data = json.loads(out_json.read_text())
    assert data["n_replicates"] == 2000
    rows = [r for r in data["pairs"] if r["a"] == "A" and r["b"] == "B"]
    assert rows[0]["procedure"] == "sign+none" and rows[0]["rejection_rate"] > 0.9
    assert fig.read_bytes()[:4] == b"\x89PNG"
    assert pd.read_csv(tmp_path / "pairs.csv").shape[0] == 20


def test_cli_simulate_grid(tmp_path, capsys):
    code = _cli(
        ["simulate", "--means", "0,0,0", "--vary", "B", "--grid", "0,1", "--replicates", "200",
         "--seed", "3", "-q", "-o", str(tmp_path / "curve.pdf")]
    )  # fmt: skip
    assert code == 0
    assert (tmp_path / "curve.pdf").read_bytes()[:4] == b"%PDF"
    assert capsys.readouterr().out == ""


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["simulate"], "give the model"),
        (["simulate", "--k", "3", "--means", "0,1"], "--k 3 but --means gives 2"),
        (["simulate", "--k", "3", "--procedures", "sign:bogus"], "not a valid value"),
        (["simulate", "--k", "3", "-o", "x.bmp"], "cannot tell the figure format"),
        (["simulate", "--k", "3", "--vary", "A"], "go together"),
        (["simulate", "--k", "3", "--shift", "A=1"], "apply to --table only"),
    ],
)
def test_cli_simulate_errors_exit_2(argv, message, capsys):
    assert _cli(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("cdplot: error:") and message in err
    assert err.count("\n") == 1


# --------------------------------------------------------------------------- figure
def test_power_plot_artists():
    from cdplot.plotting._power import power_plot

    sim = simulate(
        NormalModel(BENAVOLI_MEANS),
        procedures=[("sign", "none"), ("wilcoxon", "holm")],
        n_replicates=500,
        alpha=0.05,
        random_state=1,
    )
    ax = power_plot(sim)
    gids = {c.get_gid() for c in ax.get_children() if c.get_gid()}
    assert {"measure-fwer", "measure-power_any", "alpha-line"} <= gids
    assert [t.get_text() for t in ax.get_yticklabels()] == ["sign+none", "wilcoxon+holm"]
    ax2 = power_plot(sim, pair=("A", "B"))
    texts = [t.get_text() for t in ax2.get_legend().get_texts()]
    assert texts == ["α = 0.05", "rejection rate of A vs B"]
    with pytest.raises(cdplot.CdplotInputError, match="not a valid value for measure"):
        power_plot(sim, measures="powr")
    with pytest.raises(cdplot.CdplotInputError, match="needs pair"):
        power_plot(sim, measures="rejection_rate")


@pytest.mark.mpl_image_compare(filename="simulation_power_curves.png")
def test_image_power_curves():
    grid = {
        d: NormalModel({"A": 0.0, "B": d, "C": 5.0, "D": 6.0, "E": 7.0}, n_datasets=20)
        for d in (0.0, 0.5, 1.0, 1.5, 2.0)
    }
    curve = cdplot.simulate_grid(
        grid, procedures=[("sign", "none"), ("mean-ranks", "none"), ("wilcoxon", "none")],
        n_replicates=1000, random_state=2,
    )  # fmt: skip
    return curve.plot(pair=("A", "B")).figure


def test_ray_backend_without_ray_names_the_fix():
    if importlib.util.find_spec("ray") is not None:
        pytest.skip("ray is installed")
    model = NormalModel([0.0, 1.0])
    with pytest.raises(cdplot.CdplotInputError, match='backend="ray" needs Ray'):
        simulate(model, procedures=[("sign", "none")], n_replicates=10, backend="ray")


def test_cli_simulate_resamples_a_table(tmp_path, capsys):
    table = tmp_path / "results.csv"
    cdplot.datasets.load("demsar2006").to_csv(table)
    code = _cli(
        ["simulate", "--table", str(table), "--n", "10", "--shift", "C4.5=0.01",
         "--procedures", "wilcoxon:holm", "--replicates", "300", "--seed", "1"]
    )  # fmt: skip
    assert code == 0
    printed = capsys.readouterr().out
    assert "truth unknown" in printed and "C4.5+m+cf" in printed


def _nan_tables(rng):
    return np.full((5, 3), np.nan)


def test_errors_inside_a_dask_run_propagate():
    # raised in a worker while the current client is in use: reaches the caller unchanged
    distributed = pytest.importorskip("dask.distributed")
    model = GeneratorModel(_nan_tables, ["a", "b", "c"])
    with (
        distributed.LocalCluster(
            n_workers=1, threads_per_worker=1, processes=False, dashboard_address=":0"
        ) as cluster,
        distributed.Client(cluster),
        pytest.raises(cdplot.CdplotInputError, match="NaN or infinite"),
    ):
        simulate(model, procedures=[("sign", "none")], n_replicates=10, backend="dask")


@pytest.mark.mpl_image_compare(filename="simulation_power_dots.png")
def test_image_one_study():
    model = NormalModel({"A": 0.0, "B": 0.0, "C": 0.0, "D": 0.8, "E": 0.8, "F": 1.6})
    procs = [("nemenyi", "nemenyi"), ("wilcoxon", "holm"), ("wilcoxon", "bergmann"),
             ("sign", "none")]  # fmt: skip
    return simulate(model, procedures=procs, n_replicates=1000, random_state=3).plot().figure

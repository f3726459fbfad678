"""simulate() runs the Bayesian sign and signed-rank tests with compare()'s posteriors.

The reference is cdplot.compare on each simulated table with the block's posterior seed;
compare()'s Bayesian posteriors are pinned to baycomp's in tests/test_bayes.py. Here the
batch kernel must give, table by table, exactly compare()'s posterior probabilities and
decisions, and the study's rates must be those decisions scored against the model's truth.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from _helpers import run

import cdplot
from cdplot.simulation import BLOCK, GeneratorModel, NormalModel, ResampleModel, simulate
from cdplot.stats._batch_bayes import BayesSettings, batch_posteriors

NAMES = ["a", "b", "c", "d"]
#: scores on one decimal: resampled rows repeat datasets, so the differences tie and some
#: are exactly zero (the edge cases of the signed-rank posterior)
TABLE = pd.DataFrame(
    np.round(np.random.default_rng(11).normal(size=(15, 4)) * [1.0, 1.0, 1.0, 1.0], 1),
    columns=NAMES,
)


def _model() -> ResampleModel:
    return ResampleModel(TABLE, n_datasets=12, shift={"c": 0.6, "d": 0.6}, truth=[["a", "b"]])


def _tables(model, n_rep: int, seed: int) -> list[tuple[int, np.ndarray]]:
    """(posterior seed, table) of every replicate, drawn as simulate() draws them."""
    n_blocks = math.ceil(n_rep / BLOCK)
    out = []
    for b, child in enumerate(np.random.SeedSequence(seed).spawn(n_blocks)):
        size = min(BLOCK, n_rep - b * BLOCK)
        for table in model.draw(np.random.default_rng(child), size):
            # the documented posterior seed of a block: its child stream (spawn key + (0,))
            stream = np.random.SeedSequence(child.entropy, spawn_key=(*child.spawn_key, 0))
            out.append((int(stream.generate_state(1)[0]), table))
    return out


@pytest.mark.parametrize(
    ("test", "options"),
    [
        ("bayes-signed-rank", {"rope": 0.2, "nsamples": 400}),
        ("bayes-signed-rank", {"rope": 0.0, "nsamples": 300, "prior": 2.0}),
        ("bayes-sign", {"rope": 0.2, "nsamples": 400}),
    ],
)
def test_batch_posteriors_equal_compare_table_by_table(test, options):
    tables = np.stack([t for _, t in _tables(_model(), 30, 5)])
    settings = BayesSettings(test, options)
    probs = batch_posteriors(tables, settings, 123)
    iu, ju = np.triu_indices(4, 1)
    for r, table in enumerate(tables):
        res = cdplot.compare(
            pd.DataFrame(table, columns=NAMES), test=test, random_state=123, **options
        )
        better = res.posterior_better.loc[NAMES, NAMES].to_numpy()
        equivalent = res.posterior_equivalent.loc[NAMES, NAMES].to_numpy()
        # exact: the same floating-point numbers, not close ones
        assert probs[r, :, 2].tolist() == better[iu, ju].tolist()
        assert probs[r, :, 0].tolist() == better[ju, iu].tolist()
        assert probs[r, :, 1].tolist() == equivalent[iu, ju].tolist()


def _decisions_by_compare(model, n_rep, seed, test, options, control=None):
    """Per pair (a, b) tested, the counts of compare()'s decisions a better / equivalent /
    b better, and per replicate the decisions themselves."""
    counts: dict[tuple[str, str], list[int]] = {}
    per_table = []
    for post_seed, table in _tables(model, n_rep, seed):
        res = cdplot.compare(
            pd.DataFrame(table, columns=list(model.algorithms)),
            test=test,
            random_state=post_seed,
            **options,
        )
        names = list(model.algorithms)
        pairs = (
            [(control, b) for b in names if b != control]
            if control
            else [
                (names[i], names[j]) for i, j in zip(*np.triu_indices(len(names), 1), strict=True)
            ]
        )
        decided = {}
        for a, b in pairs:
            decision = res.decisions.loc[a, b]  # "A better" means the row, a
            decided[a, b] = decision
            slot = {"A better": 0, "equivalent": 1, "B better": 2}.get(decision)
            row = counts.setdefault((a, b), [0, 0, 0])
            if slot is not None:
                row[slot] += 1
        per_table.append(decided)
    return counts, per_table


@pytest.mark.parametrize(
    ("test", "options", "control"),
    [
        ("bayes-signed-rank", {"rope": 0.2, "nsamples": 300}, None),
        ("bayes-sign", {"rope": 0.2, "nsamples": 300, "threshold": 0.9}, "c"),
    ],
)
def test_decisions_and_rates_are_compare_decisions_scored_against_the_truth(test, options, control):
    model = _model()
    n_rep = 130  # two seed blocks: each has its own posterior seed
    proc = {"test": test, "correction": None, **options}
    if control:
        proc["control"] = control
    sim = simulate(model, procedures=[proc], n_replicates=n_rep, random_state=7)
    counts, per_table = _decisions_by_compare(model, n_rep, 7, test, options, control)
    frame = sim.to_frame()
    got = {
        (row.a, row.b): [round(getattr(row, c) * n_rep) for c in ("a_better_rate",)]
        + [round(row.equivalent_rate * n_rep), round(row.b_better_rate * n_rep)]
        for row in frame.itertuples()
    }
    assert got == counts
    assert sum(sum(v[::2]) for v in counts.values()) > 0  # some "better" decisions
    # the truth: a ~ b (truth=[["a", "b"]]); otherwise the larger mean score is better
    effects = dict(zip(model.algorithms, model.true_effects, strict=True))
    wrong, correct, eq_equal, eq_diff = [], [], [], []
    for decided in per_table:
        w = c = e0 = e1 = 0
        n_equal = n_diff = 0
        for (a, b), decision in decided.items():
            equal = {a, b} == {"a", "b"}
            n_equal += equal
            n_diff += not equal
            winner = {"A better": a, "B better": b}.get(decision)
            truly = None if equal else (a if effects[a] > effects[b] else b)
            if winner is not None:
                w += winner != truly
                c += winner == truly
            if decision == "equivalent":
                e0 += equal
                e1 += not equal
        wrong.append(w / len(decided))
        correct.append(c / n_diff)
        eq_equal.append(e0 / n_equal if n_equal else math.nan)
        eq_diff.append(e1 / n_diff)
    row = sim.summary().iloc[0]
    assert row["wrong_better_rate"] == pytest.approx(np.mean(wrong), abs=1e-15)
    assert row["correct_better_rate"] == pytest.approx(np.mean(correct), abs=1e-15)
    assert row["equivalent_rate_different"] == pytest.approx(np.mean(eq_diff), abs=1e-15)
    assert row["wrong_better_rate_se"] == pytest.approx(
        np.std(wrong, ddof=1) / math.sqrt(n_rep), rel=1e-12
    )
    if control:  # c vs others: no truly equal pair is tested
        assert math.isnan(row["equivalent_rate_equal"])
    else:
        assert row["equivalent_rate_equal"] == pytest.approx(np.mean(eq_equal), abs=1e-15)
    # never reported as rejections, FWER or power
    assert math.isnan(row["fwer"]) and math.isnan(row["power_any"])
    assert frame["rejection_rate"].isna().all()


def test_same_numbers_for_any_chunking_and_workers():
    model = NormalModel({"A": 0.0, "B": 0.0, "C": 0.4}, n_datasets=10)
    procs = [("bayes-signed-rank", None, {"rope": 0.1, "nsamples": 200}), ("sign", "holm")]
    base = simulate(model, procedures=procs, n_replicates=250, random_state=2)
    chunked = simulate(model, procedures=procs, n_replicates=250, random_state=2, chunk_size=100)
    threads = simulate(
        model, procedures=procs, n_replicates=250, random_state=2, n_jobs=2, backend="threading"
    )
    for other in (chunked, threads):
        pd.testing.assert_frame_equal(base.summary(), other.summary())
        pd.testing.assert_frame_equal(base.to_frame(), other.to_frame())


def test_a_named_seed_is_used_for_every_table():
    model = _model()
    options = {"rope": 0.2, "nsamples": 300, "random_state": 99}
    sim = simulate(
        model, procedures=[("bayes-signed-rank", "none", options)], n_replicates=40, random_state=1
    )
    expected = {}
    for _, table in _tables(model, 40, 1):
        res = cdplot.compare(
            pd.DataFrame(table, columns=NAMES), test="bayes-signed-rank", **options
        )
        for a, b in [(NAMES[i], NAMES[j]) for i, j in zip(*np.triu_indices(4, 1), strict=True)]:
            expected[a, b] = expected.get((a, b), 0) + (res.decisions.loc[a, b] == "A better")
    got = {(r.a, r.b): round(r.a_better_rate * 40) for r in sim.to_frame().itertuples()}
    assert got == expected
    assert sim.settings["procedures"][0]["posterior_seed"] == 99


def test_equivalent_algorithms_with_a_wide_rope_are_decided_equivalent():
    # all means equal, differences sd sqrt(2) * 0.1 per dataset, rope 1: every pair is
    # practically equivalent and the posterior says so
    model = NormalModel({"A": 0.0, "B": 0.0, "C": 0.0}, sd=0.1, n_datasets=20)
    sim = simulate(
        model, procedures=[("bayes-sign", "none", {"rope": 1.0, "nsamples": 500})], n_replicates=100
    )
    row = sim.summary().iloc[0]
    assert row["equivalent_rate_equal"] == 1.0
    assert row["wrong_better_rate"] == 0.0
    assert math.isnan(row["correct_better_rate"])  # no truly different pair
    assert math.isnan(row["equivalent_rate_different"])
    assert sim.settings["procedures"][0]["nsamples"] == 500


def test_unknown_truth_gives_decision_rates_only():
    model = GeneratorModel(lambda rng: rng.normal(size=(10, 3)), algorithms=["x", "y", "z"])
    sim = simulate(model, procedures=[("bayes-sign", "none")], n_replicates=20, random_state=0)
    assert sim.summary()[["wrong_better_rate", "equivalent_rate_equal"]].isna().all().all()
    frame = sim.to_frame()
    total = frame[["a_better_rate", "equivalent_rate", "b_better_rate"]].sum(axis=1)
    assert ((total >= 0) & (total <= 1)).all()
    assert "decision rates" in str(sim)


def test_bayesian_options_are_checked_before_any_work():
    model = NormalModel([0.0, 1.0, 2.0])
    with pytest.raises(cdplot.CdplotInputError, match="rope"):
        simulate(model, procedures=[("bayes-sign", "none", {"rope": -1})], n_replicates=5)
    with pytest.raises(cdplot.CdplotInputError, match="posterior probabilities, not p-values"):
        simulate(model, procedures=[("bayes-sign", "holm")], n_replicates=5)
    sim = simulate(model, procedures=[("bayes-sign", "none", {"nsamples": 100})], n_replicates=5)
    with pytest.raises(cdplot.CdplotInputError, match="decides, it does not reject"):
        sim.rejection_rates(sim.procedures[0])


def test_cli_simulates_a_bayesian_test(capsys, tmp_path):
    out_json = tmp_path / "sim.json"
    argv = ["simulate", "--means", "0,0,1", "--n", "10", "--replicates", "50", "--seed", "1"]
    argv += ["--procedures", "bayes-signed-rank:none,wilcoxon:holm", "--rope", "0.1"]
    argv += ["--nsamples", "200", "--json", out_json]
    code, out, err = run(argv, capsys)
    assert code == 0, err
    assert "wrong better" in out and "FWER" in out
    import json

    summary = json.loads(out_json.read_text())["summary"]
    bayes = summary["bayes-signed-rank+none(nsamples=200,rope=0.1)"]
    assert bayes["fwer"] is None and 0.0 <= bayes["correct_better_rate"] <= 1.0
    code, _, err = run(["simulate", "--k", "3", "--rope", "0.1", "--replicates", "5"], capsys)
    assert code == 2
    assert "apply to the Bayesian tests only" in err


@pytest.mark.mpl_image_compare(filename="simulation_bayes_rates.png")
def test_image_bayesian_and_frequentist_procedures():
    model = NormalModel({"A": 0.0, "B": 0.0, "C": 0.5, "D": 1.0}, n_datasets=30)
    procs = [
        ("bayes-signed-rank", "none", {"rope": 0.1, "nsamples": 1000}),
        ("bayes-sign", "none", {"rope": 0.1, "nsamples": 1000}),
        ("wilcoxon", "holm"),
    ]
    return simulate(model, procedures=procs, n_replicates=300, random_state=3).plot().figure


def test_grid_of_bayesian_procedures_draws_correct_decisions_without_alpha():
    grid = {d: NormalModel({"A": 0.0, "B": d, "C": 0.0}, n_datasets=15) for d in (0.0, 1.0)}
    proc = [("bayes-signed-rank", "none", {"rope": 0.1, "nsamples": 300})]
    curve = cdplot.simulate_grid(grid, procedures=proc, n_replicates=100, random_state=0)
    ax = curve.plot()
    assert ax.get_ylabel() == "correct 'better' decisions"
    assert not [a for a in ax.get_children() if a.get_gid() == "alpha-line"]
    summary = curve.summary().set_index("effect")
    assert math.isnan(summary.loc[0.0, "correct_better_rate"])  # no truly different pair
    assert summary.loc[1.0, "correct_better_rate"] > summary.loc[1.0, "wrong_better_rate"]

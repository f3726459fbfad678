"""The public surface behaves as a new user expects: star import, value semantics, repr."""

from __future__ import annotations

import copy
import importlib
import pickle
import subprocess
import sys

import numpy as np
import pytest
from _helpers import quiet_compare as _quiet

import cdplot
from cdplot.stats._values import same_value

PACKAGES = [
    "cdplot",
    "cdplot.stats",
    "cdplot.plotting",
    "cdplot.report",
    "cdplot.io",
    "cdplot.simulation",
    "cdplot.datasets",
    "cdplot.cli",
]


@pytest.mark.parametrize("name", PACKAGES)
def test_every_name_in_all_resolves(name):
    module = importlib.import_module(name)
    missing = [n for n in module.__all__ if not hasattr(module, n)]
    assert missing == []


def test_star_import_works_in_a_fresh_interpreter():
    code = "from cdplot import *\nfrom cdplot.plotting import *\nprint(power_plot.__name__)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "power_plot"


def test_equal_settings_and_values_compare_equal_and_hash_equal(demsar):
    a, b = cdplot.compare(demsar), cdplot.compare(demsar.copy())
    assert a == b and (a != b) is False and hash(a) == hash(b)
    assert b.pvalues is not None  # building a table lazily changes nothing
    assert a == b and hash(a) == hash(b)
    assert len({a, b}) == 1
    assert pickle.loads(pickle.dumps(a)) == a
    assert copy.deepcopy(a) == a


def test_results_differ_when_a_setting_or_a_value_differs(demsar):
    base = cdplot.compare(demsar)
    assert base != cdplot.compare(demsar, test="sign")
    assert base != cdplot.compare(demsar, alpha=0.1)
    changed = demsar.copy()
    changed.iloc[0, 0] += 1e-9
    assert base != cdplot.compare(changed)
    assert base != "not a result"


def test_equality_is_nan_aware(demsar):
    holes = demsar.copy()
    holes.iloc[0, 1] = np.nan
    a, b = _quiet(holes, missing="keep"), _quiet(holes.copy(), missing="keep")
    assert np.isnan(a.scores.to_numpy()).any()
    assert a == b and hash(a) == hash(b)
    bayes = [
        _quiet(demsar, test="bayes-sign", rope=0.01, nsamples=500, random_state=3) for _ in range(2)
    ]
    assert not hasattr(bayes[0], "pvalues")  # posteriors, no p-values (CHANGELOG)
    assert bayes[0] == bayes[1] and hash(bayes[0]) == hash(bayes[1])


def test_same_value_handles_arrays_tables_and_nan():
    assert same_value(np.array([1.0, np.nan]), np.array([1.0, np.nan]))
    assert not same_value(np.array([1.0, np.nan]), np.array([1.0, 2.0]))
    assert not same_value(np.zeros(2), np.zeros(3))
    assert same_value({"a": [float("nan")]}, {"a": (float("nan"),)})
    assert not same_value(float("nan"), 1.0)


def test_omnibus_results_are_values(demsar):
    fried = cdplot.compare(demsar).friedman
    twin = cdplot.OmnibusResult(fried.statistic, fried.pvalue, fried.df, fried.name)
    assert fried == twin and hash(fried) == hash(twin)
    nan = cdplot.OmnibusResult(float("nan"), float("nan"), 3.0, "x")
    assert nan == cdplot.OmnibusResult(float("nan"), float("nan"), 3.0, "x")


def test_pool_sensitivity_leaves_the_result_unchanged(benavoli):
    res = _quiet(benavoli, test="mean-ranks")
    before, fields = pickle.dumps(res), set(vars(res))
    cdplot.pool_sensitivity(res, others=[0, 1])
    assert set(vars(res)) == fields and "pool_sensitivity" not in vars(res)
    assert res == pickle.loads(before)
    other = cdplot.pool_sensitivity(benavoli, others=[1, 2])
    text = " ".join(res.summary(pool=other).split())
    # Benavoli, Corani & Mangili (2016) Table 1: C2 vs C4 significant in 7 of 10 pools of 4
    assert "C2 vs C4 (5/5, 7/10)" in text


def test_repr_is_one_short_line_and_str_the_report(demsar):
    res = cdplot.compare(demsar)
    text = repr(res)
    assert text == (
        "ComparisonResult(wilcoxon+holm, k=4, N=14, best='C4.5+m+cf', significant=0/6, alpha=0.05)"
    )
    control = _quiet(demsar, test="mean-ranks", control="C4.5")
    # Demšar (2006) §3.2.2 (Bonferroni-Dunn vs C4.5): C4.5+m and C4.5+m+cf differ, C4.5+cf not
    assert "mean-ranks+holm vs 'C4.5'" in repr(control) and "significant=2/3" in repr(control)
    bayes = _quiet(demsar, test="bayes-sign", rope=0.01, nsamples=500, random_state=3)
    assert "decided=" in repr(bayes) and "threshold=0.95" in repr(bayes)
    for r in (res, control, bayes):
        assert len(repr(r)) < 200 and "\n" not in repr(r)
    assert str(res).startswith("Comparison of 4 algorithms on 14 datasets (Wilcoxon")
    assert str(res).count("\n") > 3


def test_a_bayesian_comparison_has_its_own_type(demsar, tmp_path):
    from cdplot._json import result_from_json, result_to_json

    bayes = _quiet(demsar, test="bayes-sign", rope=0.01, nsamples=2000, random_state=1)
    freq = cdplot.compare(demsar)
    assert type(bayes) is cdplot.BayesianComparisonResult
    assert type(freq) is cdplot.ComparisonResult
    # its own kind, not a ComparisonResult: no p-value fields (CHANGELOG, results by kind)
    assert not isinstance(bayes, cdplot.ComparisonResult)
    with pytest.raises(AttributeError, match="no adjusted_pvalues"):
        bayes.adjusted_pvalues  # noqa: B018
    # a frequentist comparison has no posteriors: reading one says what to read instead
    for name in ("threshold", "posterior_better", "posterior_equivalent", "posterior_worse",
                 "decisions"):  # fmt: skip
        with pytest.raises(AttributeError, match=f"frequentist comparison has no {name}.*pvalues"):
            getattr(freq, name)
    assert freq.rope is None  # no rope: effect_sizes reads it as its default
    assert isinstance(freq, cdplot.Comparison) and isinstance(bayes, cdplot.Comparison)
    assert bayes != freq
    back = result_from_json(result_to_json(bayes))
    assert type(back) is cdplot.BayesianComparisonResult and back == bayes
    assert type(result_from_json(result_to_json(freq))) is cdplot.ComparisonResult
    assert {"p_better", "decision"} <= set(bayes.to_frame().columns)
    assert "p_better" not in freq.to_frame().columns
    assert not hasattr(freq, "equivalence_groups")


def test_equivalence_groups_are_computed_in_stats(demsar):
    wide = _quiet(demsar, test="bayes-sign", rope=1.0, nsamples=2000, random_state=1)
    # a rope of 1.0 accuracy units: every difference is practically zero, all equivalent
    assert (wide.decisions.to_numpy()[~np.eye(4, dtype=bool)] == "equivalent").all()
    assert wide.equivalence_groups == (tuple(wide.average_ranks.index),)
    from cdplot.plotting._bayes import equivalence_groups

    assert equivalence_groups(wide) == wide.equivalence_groups


def test_caveats_are_facts_in_stats_and_words_in_report(demsar):
    from cdplot.stats._caveats import Caveat, caveat_facts

    res = _quiet(demsar.iloc[:5], test="sign")
    facts = caveat_facts(res)
    # the sign test's smallest two-sided p on 5 datasets is 2/2**5 = 0.0625 > 0.05; on 6 it is
    # 2/2**6 = 0.03125 (binomial: scipy.stats.binomtest(0, 6).pvalue), so 6 are needed
    unreachable = [c for c in facts if c.kind == "unreachable-alpha"]
    assert unreachable == [Caveat("unreachable-alpha", "sign", 5, False, 0.0625, 0.05, 0, 6)]
    assert len(res.caveats) == len(facts)
    assert any("at least 6 datasets are needed" in text for text in res.caveats)


def test_a_result_knows_its_procedure_and_simulate_accepts_it(demsar):
    from cdplot.simulation import NormalModel, simulate
    from cdplot.stats import Procedure

    res = _quiet(demsar, test="mean-ranks", correction="finner", control="C4.5")
    proc = res.procedure
    assert proc == Procedure.resolve(
        "mean-ranks", "finner", "C4.5", algorithms=res.algorithms, bh_budget=None
    )
    assert proc.label == "mean-ranks+finner vs C4.5"
    model = NormalModel(dict.fromkeys(res.algorithms, 0.0), n_datasets=14)
    sim = simulate(model, procedures=[proc, ("sign", "holm")], n_replicates=20, random_state=0)
    assert list(sim.to_frame().procedure.unique()) == [proc.label, "sign+holm"]


def test_bergmann_hommel_budget_has_one_name():
    from cdplot.stats import bergmann_hommel

    p = np.array([[np.nan, 0.01, 0.04], [0.01, np.nan, 0.5], [0.04, 0.5, np.nan]])
    with pytest.warns(DeprecationWarning, match="renamed bh_budget="):
        old = bergmann_hommel(p, budget_seconds=5.0)
    np.testing.assert_array_equal(old, bergmann_hommel(p, bh_budget=5.0))


@pytest.mark.parametrize(
    ("name", "options"),
    [("main_result_fresh", {}), ("main_result_read", {"test": "mean-ranks", "control": "C4.5"})],
)
def test_results_pickled_by_the_previous_layout_still_load(demsar, name, options):
    """Pickles made by cdplot 9cf280c (tests/reference/make_main_pickles.py): flat fields,
    tables under ``_<name>_stored`` (labelled arrays when not read yet, else pandas), the
    omnibus p-values deferred. They load as results equal to today's."""
    from pathlib import Path

    path = Path(__file__).parent / "reference" / f"{name}.pkl"
    old = pickle.loads(path.read_bytes())
    new = _quiet(demsar, **options)
    assert type(old) is cdplot.ComparisonResult and old == new and hash(old) == hash(new)
    assert old.friedman.pvalue == new.friedman.pvalue  # the deferred p-value, computed
    assert old.average_ranks.equals(new.average_ranks) and old.pvalues.equals(new.pvalues)
    assert old.critical_difference == new.critical_difference
    assert repr(old) == repr(new)


def test_results_are_made_of_parts_and_keep_their_flat_names(demsar):
    import dataclasses

    res = cdplot.compare(demsar, test="tukey")
    # the parts hold numpy arrays; the flat names read them (tables built once, then kept)
    assert isinstance(res._pairwise.pvalues, np.ndarray)
    np.testing.assert_array_equal(res.pvalues.to_numpy(), res._pairwise.pvalues)
    assert res.pvalues is res.pvalues and res.test is res._pairwise.test
    with pytest.raises(dataclasses.FrozenInstanceError):
        res.groups = ()
    # a flat keyword changes its part: dataclasses.replace keeps working
    moved = dataclasses.replace(res, uncovered_pairs=(("C4.5", "C4.5+m"),))
    assert moved.uncovered_pairs == (("C4.5", "C4.5+m"),) and moved != res
    assert moved._pairwise is res._pairwise and moved.pvalues.equals(res.pvalues)
    # the kinds take only their own names
    bayes = _quiet(demsar, test="bayes-sign", rope=0.01, nsamples=500, random_state=3)
    with pytest.raises(cdplot.CdplotInputError, match="has no field.*pvalues.*leave them out"):
        dataclasses.replace(bayes, pvalues=res.pvalues)

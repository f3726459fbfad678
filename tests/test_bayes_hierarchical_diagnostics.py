"""The sampler's convergence of compare(test="bayes-hierarchical"), kept in the result.

R-hat, effective sample size and divergent transitions of every pair's fit are in the
result (``diagnostics``), in its JSON and in one sentence of its summary, not only in a
warning.
"""

from __future__ import annotations

import dataclasses
import json
import warnings

import numpy as np
import pandas as pd
import pytest
from test_bayes_hierarchical_compare import _long_table  # the same folds table

import cdplot
from cdplot.report._notes import convergence_note
from cdplot.stats._bayes_hierarchical import (
    ESS_LIMIT,
    RHAT_LIMIT,
    HierarchicalSettings,
    fit_pairs,
)

pytest.importorskip("numpyro")

#: a small fit: 2 chains x 500 draws (the compiled sampler is shared by the fits of this shape)
OPTIONS = {"rope": 0.01, "nsamples": 1000, "warmup": 300, "chains": 2, "random_state": 1}
NAMES = ["A", "B", "C"]


@pytest.fixture(scope="module")
def fitted():
    """The result, and the messages of the warnings its fit gave."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        res = cdplot.compare(_long_table(), test="bayes-hierarchical", **OPTIONS)
    return res, [str(w.message) for w in caught]


def test_the_result_keeps_every_pairs_convergence(fitted):
    res, _ = fitted
    frame = res.diagnostics
    assert list(frame.columns) == ["algorithm_1", "algorithm_2", "rhat", "ess", "divergences",
                                   "converged"]  # fmt: skip
    assert list(zip(frame.algorithm_1, frame.algorithm_2, strict=True)) == [
        ("A", "B"), ("A", "C"), ("B", "C")
    ]  # fmt: skip
    # the very numbers of the sampler: the same seeded fit of the same differences
    table = _long_table().pivot_table("accuracy", ["dataset", "algorithm"], "fold")
    folds = table.to_numpy().reshape(6, 3, 5)
    diffs = np.stack([folds[:, i] - folds[:, j] for i, j in ((0, 1), (0, 2), (1, 2))])
    direct = fit_pairs(diffs, HierarchicalSettings(OPTIONS, 5))
    np.testing.assert_allclose(frame.rhat, [r.rhat for r in direct])
    np.testing.assert_allclose(frame.ess, [r.ess for r in direct])
    np.testing.assert_array_equal(frame.divergences, [r.divergences for r in direct])
    np.testing.assert_array_equal(frame.converged, [r.converged for r in direct])
    assert frame.divergences.dtype == np.int64 and frame.converged.dtype == bool
    # 2 chains of 500 draws: R-hat near 1, an ESS of a few hundred
    assert ((frame.rhat > 0.99) & (frame.rhat < 1.1)).all()
    assert ((frame.ess > 50) & (frame.ess < 2000)).all()
    # the part holds them as 3 x k x k (R-hat, ESS, divergences), symmetric
    part = res._pairwise.diagnostics
    assert part.shape == (3, 3, 3)
    np.testing.assert_array_equal(part, part.transpose(0, 2, 1))
    assert np.isnan(part[:, [0, 1, 2], [0, 1, 2]]).all()


def test_the_warning_names_the_pairs_the_result_marks_unconverged(fitted):
    res, messages = fitted
    failed = res.diagnostics[~res.diagnostics.converged]
    warned = [m for m in messages if "did not converge" in m]
    if failed.empty:
        assert not warned
        return
    assert len(warned) == 1 and f"for {len(failed)} pair(s)" in warned[0]
    for row in failed.itertuples():
        assert f"{row.algorithm_1} vs {row.algorithm_2}: R-hat {row.rhat:.3f}" in warned[0]


def test_the_json_keeps_them_and_older_files_load(fitted):
    res, _ = fitted
    doc = json.loads(res.to_json())
    written = doc["diagnostics"]
    assert [(d["algorithm_1"], d["algorithm_2"]) for d in written] == [
        ("A", "B"), ("A", "C"), ("B", "C")
    ]  # fmt: skip
    assert written[1]["ess"] == pytest.approx(res.diagnostics.ess[1], rel=1e-15)
    assert all(isinstance(d["divergences"], int) for d in written)
    back = cdplot.load_result(doc)
    assert back == res
    pd.testing.assert_frame_equal(back.diagnostics, res.diagnostics)
    # a document written before the diagnostics were kept: none, the rest as written
    del doc["diagnostics"]
    older = cdplot.load_result(doc)
    assert older.diagnostics is None
    assert older.posterior_better.equals(res.posterior_better)
    assert convergence_note(older) is None


@pytest.mark.parametrize(
    "damage",
    [
        "text",
        [{"algorithm_1": "A", "algorithm_2": "Z", "rhat": 1.0, "ess": 500.0, "divergences": 0}],
        [{"algorithm_1": "A", "algorithm_2": "B", "rhat": 1.0, "ess": 500.0, "divergences": -1}],
        [{"algorithm_1": "A", "algorithm_2": "B", "ess": 500.0, "divergences": 0}],
    ],
)
def test_damaged_diagnostics_are_refused_naming_the_key(fitted, damage):
    doc = json.loads(fitted[0].to_json())
    doc["diagnostics"] = damage
    with pytest.raises(cdplot.CdplotInputError, match="'diagnostics' must be null or a list"):
        cdplot.load_result(doc)


def test_the_summary_says_the_worst_rhat_lowest_ess_and_divergences(fitted):
    res, _ = fitted
    frame = res.diagnostics
    worst = frame.loc[frame.rhat.idxmax()]
    low = frame.loc[frame.ess.idxmin()]
    text = " ".join(res.summary().split())  # the summary is wrapped
    assert (
        f"Sampler convergence: worst split R-hat {worst.rhat:.3f} "
        f"({worst.algorithm_1} vs {worst.algorithm_2}), lowest bulk effective sample size "
        f"{low.ess:.0f} ({low.algorithm_1} vs {low.algorithm_2}), "
        f"{frame.divergences.sum()} divergent transitions in 3 fits;"
    ) in text


def test_the_summary_says_which_fits_failed(fitted):
    res, _ = fitted
    values = np.array(res._pairwise.diagnostics)
    values[0] = np.where(np.isnan(values[0]), np.nan, 1.001)  # R-hat
    values[1] = np.where(np.isnan(values[1]), np.nan, 800.0)  # ESS
    values[2] = np.where(np.isnan(values[2]), np.nan, 0.0)  # divergences
    good = dataclasses.replace(res, diagnostics=values)
    assert good.diagnostics.converged.all()
    assert convergence_note(good).endswith(
        f"every fit converged (R-hat < {RHAT_LIMIT:g}, ESS >= {ESS_LIMIT:.0f}, no divergence)."
    )
    values = values.copy()
    values[2, 0, 2] = values[2, 2, 0] = 3.0  # A vs C diverged three times
    bad = dataclasses.replace(res, diagnostics=values)
    assert bad.diagnostics.converged.tolist() == [True, False, True]
    note = convergence_note(bad)
    assert "3 divergent transitions in 3 fits; 1 of 3 did not converge" in note
    assert note.endswith("no divergence): A vs C; read their probabilities with care, or fit "
                         "again with more warmup and nsamples.")  # fmt: skip
    assert " ".join(note.split()) in " ".join(bad.summary().split())


def test_the_summary_counts_the_hierarchical_tests_own_default_draws():
    from cdplot.report._notes import bayes_note

    res = cdplot.compare(_long_table(), test="bayes-sign", rope=0.01, nsamples=500,
                         random_state=1, aggregate="mean")  # fmt: skip
    hierarchical = dataclasses.replace(res, test="bayes-hierarchical", test_options={})
    assert "4000 posterior samples" in bayes_note(hierarchical)  # the test's default
    assert "50000 posterior samples" in bayes_note(dataclasses.replace(res, test_options={}))


def test_tests_without_a_sampler_have_no_diagnostics():
    table = _long_table()
    bayes = cdplot.compare(table, test="bayes-sign", rope=0.01, nsamples=500, random_state=1,
                           aggregate="mean")  # fmt: skip
    assert bayes.diagnostics is None
    assert json.loads(bayes.to_json())["diagnostics"] is None
    assert "Sampler convergence" not in bayes.summary()
    freq = cdplot.compare(table, aggregate="mean")
    assert json.loads(freq.to_json())["diagnostics"] is None
    with pytest.raises(AttributeError, match="frequentist comparison has no diagnostics"):
        freq.diagnostics  # noqa: B018

"""summary() says in words what the new kinds of results mean (consistency, not statistics)."""

from __future__ import annotations

import numpy as np
import pandas as pd
from _helpers import quiet_compare as _quiet

import cdplot


def test_missing_results_are_reported(demsar):
    holes = demsar.copy()
    holes.iloc[0, 1] = np.nan
    text = _quiet(holes, missing="keep").summary()
    assert "1 of 56 results are missing" in text and "Skillings-Mack" in text


def test_aggregated_runs_are_reported(demsar):
    long = demsar.reset_index().melt(id_vars="dataset", var_name="algorithm", value_name="acc")
    runs = pd.concat([long.assign(fold=f) for f in range(3)])
    assert "Input: scores are means over 3 folds" in _quiet(runs, aggregate="mean").summary()


def test_pool_sensitivity_is_reported(benavoli):
    res = _quiet(benavoli, test="mean-ranks")
    pool = cdplot.pool_sensitivity(res)
    assert "C2 vs C4 (1/1, 5/5, 7/10, 9/10, 3/5, 1/1)" in " ".join(res.summary(pool=pool).split())


def test_bayesian_summary_speaks_of_posteriors(benavoli):
    res = _quiet(benavoli, test="bayes-signed-rank", rope=1.0, random_state=1, nsamples=2000)
    text = res.summary()
    assert "Bayesian signed-rank test" in text and "adjusted p = -" not in text


def test_parametric_summary_checks_the_assumptions(demsar):
    text = " ".join(_quiet(demsar, test="tukey", omnibus="rm-anova").summary().split())
    assert "commensurable" in text and "Shapiro-Wilk rejects normal residuals" in text
    assert "(score units)" in text


def test_diagram_notes_for_score_units_and_missing_results(demsar):
    tukey = _quiet(demsar, test="tukey").plot()
    texts = " ".join(t.get_text() for t in tukey.texts)
    # Tukey's CD is drawn on a mean-score axis (Demšar Table 6: CD = 0.0185 in R's TukeyHSD)
    assert "mean score (higher is better)" in texts and "CD = 0.0185" in texts
    assert "rank axis" not in texts
    holes = demsar.copy()
    holes.iloc[0, 1] = np.nan
    keep = _quiet(holes, missing="keep").plot()
    assert "1 of 56 results missing" in " ".join(t.get_text() for t in keep.texts)

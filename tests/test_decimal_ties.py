"""Exact means of repeated runs that split ties of the scores as written: an input note
names the ``decimals=`` that keeps them.

Fold scores written with two decimals are binary fractions near, not at, the decimals:
``0.81 + 0.85`` and ``0.82 + 0.84`` are both 1.66 in decimal but differ in the last bit as
floats, so the exact means (0.8300000000000001 and 0.83) rank one cell above the other.
The reference means are computed here in decimal arithmetic (``fractions.Fraction`` of the
scores as written) and ranked with ``scipy.stats.rankdata``; never with cdplot.
"""

from __future__ import annotations

import pickle
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import cdplot

pytestmark = [
    pytest.mark.filterwarnings("ignore::cdplot.PoolDependenceWarning"),
    pytest.mark.filterwarnings("ignore:with .* datasets the:cdplot.CdplotWarning"),
]


def _long(folds: dict[tuple[int, str], list[float]]) -> pd.DataFrame:
    rows = [(f"d{d}", a, f, v) for (d, a), vs in folds.items() for f, v in enumerate(vs)]
    return pd.DataFrame(rows, columns=["dataset", "algorithm", "fold", "acc"])


def _board(first: dict[str, list[float]]) -> pd.DataFrame:
    """Six datasets, algorithms A, B, C, two folds; dataset d0's folds as given."""
    folds = {(0, a): vs for a, vs in first.items()}
    for d in range(1, 6):
        for j, a in enumerate("ABC"):
            folds[d, a] = [round(0.5 + 0.1 * j, 2), round(0.6 + 0.1 * j + 0.01 * d, 2)]
    return _long(folds)


def test_a_split_decimal_tie_is_named_with_the_decimals_that_keep_it():
    table = _board({"A": [0.81, 0.85], "B": [0.82, 0.84], "C": [0.7, 0.71]})
    assert 0.81 + 0.85 != 0.82 + 0.84  # the split, in binary floating point
    res = cdplot.compare(table, aggregate="mean", test="sign")
    assert res.scores.loc["d0", "A"] != res.scores.loc["d0", "B"]
    assert res.aggregation.split_ties == 1
    assert res.aggregation.tie_decimals == 2
    assert res.input_notes == (
        "scores are means over 2 folds; exact means split 1 tie of means equal as the scores "
        "are written (decimals=2 keeps it)",
    )
    kept = cdplot.compare(table, aggregate="mean", test="sign", decimals=2)
    assert kept.scores.loc["d0", "A"] == kept.scores.loc["d0", "B"]
    assert kept.input_notes == (
        "scores are means over 2 folds",
        "scores were rounded to 2 decimals before ranking",
    )
    # the hint survives JSON and pickle
    assert cdplot.load_result(res.to_json()).input_notes == res.input_notes
    assert pickle.loads(pickle.dumps(res.aggregation)) == res.aggregation


def test_no_hint_when_the_exact_means_keep_the_ties():
    # 0.25 + 0.75 and 0.5 + 0.5 are exact in binary: the tie stays
    table = _board({"A": [0.25, 0.75], "B": [0.5, 0.5], "C": [0.7, 0.71]})
    res = cdplot.compare(table, aggregate="mean", test="sign")
    assert res.scores.loc["d0", "A"] == res.scores.loc["d0", "B"]
    assert res.aggregation.split_ties == 0
    assert res.input_notes == ("scores are means over 2 folds",)


def test_no_hint_for_scores_written_at_full_precision():
    rng = np.random.default_rng(7)
    folds = {(d, a): list(rng.uniform(0.5, 0.9, 3)) for d in range(6) for a in "ABC"}
    folds[0, "A"], folds[0, "B"] = [0.81, 0.85, 0.1 / 3], [0.82, 0.84, 0.1 / 3]
    res = cdplot.compare(_long(folds), aggregate="mean", test="sign")
    assert res.aggregation.split_ties == 0


def _decimal_ranks(folds: dict[tuple[int, str], list[int]], n: int) -> np.ndarray:
    """Average ranks of the decimal means (hundredths as Fractions), higher is better."""
    means = np.array(
        [[Fraction(sum(folds[d, a]), 100 * len(folds[d, a])) for a in "ABC"] for d in range(n)]
    )
    return np.vstack([stats.rankdata([-m for m in row]) for row in means]).mean(axis=0)


def test_the_suggested_decimals_rank_as_decimal_arithmetic_does():
    """40 seeded boards of two folds of hundredths from 0.80 to 0.89 (many decimal ties):
    without a hint the exact means rank as the decimal means do; with one, ``decimals=`` as
    the hint names it does. Both cases occur among the 40 boards."""
    rng = np.random.default_rng(20240501)
    seen = {"split": 0, "kept": 0}
    for _ in range(40):
        folds = {
            (d, a): [int(h) for h in rng.integers(80, 90, size=2)] for d in range(6) for a in "ABC"
        }
        table = _long({key: [h / 100 for h in vs] for key, vs in folds.items()})
        res = cdplot.compare(table, aggregate="mean", test="sign", correction="none")
        want = _decimal_ranks(folds, 6)
        agg = res.aggregation
        if agg.split_ties == 0:
            seen["kept"] += 1
            got = res.average_ranks[list("ABC")].to_numpy()
            np.testing.assert_allclose(got, want, rtol=1e-12)
            continue
        seen["split"] += 1
        assert agg.tie_decimals is not None
        assert f"decimals={agg.tie_decimals} keeps" in res.input_notes[0]
        kept = cdplot.compare(
            table, aggregate="mean", test="sign", correction="none", decimals=agg.tie_decimals
        )
        got = kept.average_ranks[list("ABC")].to_numpy()
        np.testing.assert_allclose(got, want, rtol=1e-12)
    assert seen["split"] >= 3 and seen["kept"] >= 3, seen

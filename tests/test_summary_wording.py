"""The summary's wording: what a caveat is sure of, and what each pairwise test compares.

Verified against scipy: the smallest two-sided p-value of the Wilcoxon signed-rank test on
7 datasets, every difference of one sign, is 2/2**7 = 0.015625
(``scipy.stats.wilcoxon(d).pvalue`` with ``d = [1, ..., 7]``, exact null distribution),
above alpha / m = 0.05 / 6 for k = 4 algorithms. Whether a correction can still reject is
checked on data that reach that p-value for every pair (a strict ordering on every dataset),
not only read from the wording.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
import scipy.stats
from _helpers import quiet_compare

from cdplot.stats._caveats import caveat_facts, no_pair_can_be_significant

K, N = 4, 7


def _ordered(k: int = K, n: int = N) -> pd.DataFrame:
    """A strictly ordered board: on every dataset A > B > C > D, with distinct gaps."""
    rng = np.random.default_rng(0)
    base = rng.uniform(0.5, 0.6, size=(n, 1))
    gaps = np.arange(k)[None, ::-1] * 0.05 + np.arange(n)[:, None] * 0.001
    return pd.DataFrame(base + gaps, columns=list("ABCD")[:k], index=[f"d{i}" for i in range(n)])


def test_the_smallest_wilcoxon_pvalue_on_seven_datasets_is_two_over_two_to_the_seven():
    # scipy.stats.wilcoxon(np.arange(1, 8)).pvalue (exact) == 2 / 2**7
    assert scipy.stats.wilcoxon(np.arange(1, N + 1)).pvalue == pytest.approx(2 / 2**N)
    assert 2 / 2**N > 0.05 / 6


@pytest.mark.parametrize("correction", ["holm", "bonferroni", "shaffer", "finner", "holland"])
def test_a_step_down_correction_that_cannot_reject_says_cannot(correction):
    res = quiet_compare(_ordered(), correction=correction)
    # the most favourable data (every pair at 2/2**7) and still nothing significant
    assert not res.significant.to_numpy().any()
    assert no_pair_can_be_significant(res)
    text = " ".join(res.summary().split())
    assert "so the correction cannot leave any pair significant however large" in text
    assert "may leave no pair significant" not in text


@pytest.mark.parametrize("correction", ["hochberg", "hommel", "rom", "fdr-bh"])
def test_a_correction_that_can_still_reject_says_may(correction):
    res = quiet_compare(_ordered(), correction=correction)
    # a step-up (or FDR) procedure rejects every pair when all p-values are <= alpha
    assert res.significant.to_numpy().any()
    assert not no_pair_can_be_significant(res)
    (fact,) = [c for c in caveat_facts(res) if c.kind == "unreachable-first-step"]
    assert not fact.certain
    text = " ".join(res.summary().split())
    assert "so the correction may leave no pair significant however large" in text
    assert "cannot leave" not in text


def test_pairs_with_more_datasets_make_the_caveat_uncertain():
    data = _ordered(n=20)
    data.iloc[:13, 0] = np.nan  # A meets the others on 7 datasets; B, C, D meet on 20
    res = quiet_compare(data, missing="keep", correction="holm")
    (fact,) = [c for c in caveat_facts(res) if c.kind == "unreachable-first-step"]
    assert fact.some_pairs and fact.n == N
    assert not fact.certain  # B, C and D can (and here do) differ on their 20 datasets
    assert res.significant.loc["B", "D"]


def test_wilcoxon_pairs_are_worded_by_scores(demsar):
    res = quiet_compare(demsar, alpha=0.10, correction="none")
    text = " ".join(res.summary().split())
    assert "C4.5+m+cf scores higher than C4.5 (adjusted p" in text
    assert "ranks better than" not in text


def test_lower_is_better_scores_read_lower(demsar):
    res = quiet_compare(-demsar, alpha=0.10, correction="none", higher_is_better=False)
    text = " ".join(res.summary().split())
    assert "C4.5+m+cf scores lower than C4.5 (adjusted p" in text


@pytest.mark.parametrize("test", ["sign", "paired-t"])
def test_other_tests_on_scores_are_worded_by_scores(test):
    res = quiet_compare(_ordered(n=12), test=test)
    assert res.significant.to_numpy().any()
    text = " ".join(res.summary().split())
    assert "A scores higher than D" in text
    assert "ranks better than" not in text


@pytest.mark.parametrize("test", ["nemenyi", "mean-ranks"])
def test_tests_on_mean_ranks_are_worded_by_ranks(test):
    res = quiet_compare(_ordered(n=12), test=test)
    text = " ".join(res.summary().split())
    assert "A ranks better than D" in text
    assert "scores higher than" not in text


def test_the_wilcoxon_direction_is_the_tests_not_the_average_ranks():
    """A wins 8 datasets by a hair with C and D between them (rank gap 3), B wins 12 by a
    lot (rank gap 1): A has the better average rank, yet the signed-rank test favours B
    (W+ of A = 1 + ... + 8 = 36, of B = 9 + ... + 20 = 174; two-sided exact p = 0.00831,
    ``scipy.stats.wilcoxon(d["A"], d["B"]).pvalue``)."""
    hair = 1.004 + np.arange(8) * 1e-5
    wins_a = pd.DataFrame({"A": hair, "B": 1.0, "C": 1.003, "D": 1.002})
    wins_b = pd.DataFrame({"A": 0.5, "B": 0.6 + 0.01 * np.arange(12), "C": 0.3, "D": 0.2})
    data = pd.concat([wins_a, wins_b], ignore_index=True)
    data.index = [f"d{i}" for i in range(len(data))]
    assert scipy.stats.wilcoxon(data["A"], data["B"]).pvalue == pytest.approx(0.00831, abs=5e-6)
    res = quiet_compare(data, correction="none")
    assert list(res.average_ranks.index[:2]) == ["A", "B"]
    text = " ".join(res.summary().split())
    assert "B scores higher than A (adjusted p = 0.008)" in text
    assert "A scores higher than B" not in text


def test_too_few_datasets_for_some_pairs_only_says_which_pairs_cannot_differ():
    data = _ordered(n=20)
    data.iloc[:15, 0] = np.nan  # A meets the others on 5 datasets: 2/2**5 = 0.0625 > 0.05
    res = quiet_compare(data, missing="keep", correction="none")
    (fact,) = [c for c in caveat_facts(res) if c.kind == "unreachable-alpha"]
    assert fact.some_pairs and fact.n == 5 and not fact.certain
    assert res.significant.loc["B", "D"]  # B, C and D share 20 datasets: they can differ
    text = " ".join(res.summary().split())
    assert "above alpha = 0.05, so no pair with 5 datasets can be significant however" in text


def test_too_few_datasets_for_every_pair_says_no_pair(demsar):
    res = quiet_compare(demsar.iloc[:5])
    (fact,) = [c for c in caveat_facts(res) if c.kind == "unreachable-alpha"]
    assert fact.certain
    assert "above alpha = 0.05, so no pair can be significant however" in " ".join(
        res.summary().split()
    )

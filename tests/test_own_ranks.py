"""The aligned-ranks and Quade tests' own rankings, as García et al. (2010)
tabulate them. Reference: ``tests/reference/aligned_quade_demsar_table6.json`` (scmamp
``friedmanAlignedRanksTest`` mean ranks and ``quadePost``'s T on Demšar's Table 6, exact
decimal variant)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from _helpers import quiet_compare

import cdplot
from cdplot.stats._own_ranks import own_ranks

REF = json.loads(
    (Path(__file__).parent / "reference" / "aligned_quade_demsar_table6.json").read_text()
)
X = cdplot.datasets.load("demsar2006")[REF["algorithms"]].to_numpy()


def test_aligned_mean_ranks_equal_scmamp():
    table, average, label = own_ranks("aligned-ranks", X)
    exact = REF["aligned_ranks"]["exact_decimal"]
    np.testing.assert_allclose(average, exact["mean_ranks"], rtol=1e-14)
    np.testing.assert_array_equal(table, exact["ranks"])  # all N x k aligned ranks
    assert label == "average aligned rank"


def test_quade_weighted_ranks_equal_scmamp_quadepost():
    table, average, label = own_ranks("quade", X)
    exact = REF["quade"]["exact_decimal"]
    np.testing.assert_allclose(average, exact["posthoc_garcia"]["T"], rtol=1e-14)
    np.testing.assert_allclose(table.sum(axis=0), exact["W"], rtol=1e-14)
    assert average.min() >= 1 and average.max() <= X.shape[1]
    assert label == "Quade weighted rank"


def test_unknown_test():
    with pytest.raises(ValueError):
        own_ranks("wilcoxon", X)


def _quiet(**kwargs):
    demsar = cdplot.datasets.load("demsar2006")
    return quiet_compare(demsar, quiet=cdplot.PoolDependenceWarning, **kwargs)


@pytest.mark.parametrize(
    ("test", "key", "label"),
    [("aligned-ranks", "mean_ranks", "average aligned rank"), ("quade", "T", "Quade")],
)
def test_compare_reports_and_draws_the_tests_own_ranks(test, key, label):
    res = _quiet(test=test)
    ref = REF["aligned_ranks" if test == "aligned-ranks" else "quade"]["exact_decimal"]
    expect = ref[key] if test == "aligned-ranks" else ref["posthoc_garcia"]["T"]
    got = res.average_ranks[REF["algorithms"]].to_numpy()
    np.testing.assert_allclose(got, expect, rtol=1e-14)  # scmamp (García et al. 2010)
    assert label in res.average_ranks.name
    assert res.average_ranks.is_monotonic_increasing
    assert res.friedman.statistic == _quiet(test="wilcoxon").friedman.statistic  # unchanged
    assert f"Best {res.average_ranks.name}s" in res.summary()
    texts = [t.get_text() for t in res.plot().texts]
    assert any(res.average_ranks.name in t and "lower is better" in t for t in texts), texts


def test_json_round_trip_keeps_the_ranking_name():
    from cdplot._json import result_from_json, result_to_json

    res = _quiet(test="aligned-ranks")
    back = result_from_json(result_to_json(res))
    assert back.average_ranks.name == "average aligned rank"
    np.testing.assert_array_equal(back.average_ranks.to_numpy(), res.average_ranks.to_numpy())

"""Pool sensitivity of the mean-ranks test (cdplot.pool_sensitivity).

Verified against:

- Benavoli, Corani & Mangili (2016), JMLR 17, Table 1 (and Section 4.3), on their appendix
  data (bundled as ``benavoli2016``): every cell of the table, the "-" cells (decision the
  same in every pool of that size) and the pairs the table leaves out.
- The statistics printed in Section 4.3: z = 3.06 for C2 vs C4 in {C1, C2, C3, C4} and
  z = 2.46 in {C1, C2, C4, C5}, z* = 2.64 for m = 4, from an oracle in this file that
  re-ranks each pool with ``scipy.stats.rankdata``; the oracle then checks every pool of
  every size against the function's counts.
"""

from __future__ import annotations

import itertools
import warnings

import numpy as np
import pytest
from scipy import stats

import cdplot
from cdplot.stats._pool import depending_pairs

# Benavoli, Corani & Mangili (2016), Table 1: (a, b) -> {Card: "significant/pools"};
# a missing Card ("-") means the decision does not depend on the subset
TABLE_1 = {
    ("C2", "C4"): {2: "7/10", 3: "9/10", 4: "3/5"},
    ("C2", "C7"): {2: "1/10"},
    ("C3", "C7"): {2: "2/10"},
    ("C4", "C6"): {2: "9/10", 3: "5/10"},
}


@pytest.fixture(scope="module")
def frame():
    return cdplot.pool_sensitivity(cdplot.datasets.load("benavoli2016"), others=[2, 3, 4])


def test_table_1_cell_by_cell(frame):
    for (a, b), cells in TABLE_1.items():
        rows = frame[(frame.a == a) & (frame.b == b)].set_index("others")
        for card in (2, 3, 4):
            got = f"{rows.loc[card, 'significant']}/{rows.loc[card, 'pools']}"
            if card in cells:
                assert got == cells[card], (a, b, card)
            else:  # "-": the same decision in every pool of this size
                assert rows.loc[card, "significant"] in (0, rows.loc[card, "pools"])


def test_pairs_not_in_table_1_do_not_depend_on_the_pool(frame):
    assert sorted(depending_pairs(frame)) == sorted(TABLE_1)
    for (a, b), rows in frame.groupby(["a", "b"]):
        if (a, b) not in TABLE_1:
            assert set(rows["fraction"]) <= {0.0, 1.0}
            assert not rows["depends_on_pool"].any()
    assert not frame["sampled"].any()


def _oracle_z(scores, pool, a, b):
    sub = scores[pool].to_numpy()
    ranks = np.apply_along_axis(stats.rankdata, 1, -sub)  # rank 1 = best, average ties
    n, m = sub.shape
    mean = ranks.mean(axis=0)
    ia, ib = pool.index(a), pool.index(b)
    return abs(mean[ia] - mean[ib]) / np.sqrt(m * (m + 1) / (6 * n))


def test_oracle_reproduces_section_4_3():
    data = cdplot.datasets.load("benavoli2016")
    assert _oracle_z(data, ["C1", "C2", "C3", "C4"], "C2", "C4") == pytest.approx(3.06, abs=0.005)
    assert _oracle_z(data, ["C1", "C2", "C4", "C5"], "C2", "C4") == pytest.approx(2.46, abs=0.005)
    assert stats.norm.isf(0.05 / 12) == pytest.approx(2.64, abs=0.005)  # z*, m = 4


#: the 21 pairs of benavoli2016's 7 classifiers: 3 in the inner loop, all in the whole suite
_PAIRS = list(itertools.combinations([f"C{j}" for j in range(1, 8)], 2))


@pytest.fixture(scope="module")
def benavoli_pools():
    data = cdplot.datasets.load("benavoli2016")
    return data, cdplot.pool_sensitivity(data)


@pytest.mark.parametrize(
    ("a", "b"),
    [p if i % 7 == 0 else pytest.param(*p, marks=pytest.mark.slow) for i, p in enumerate(_PAIRS)],
)
def test_every_pool_against_the_oracle(benavoli_pools, a, b):
    data, frame = benavoli_pools
    names = list(data.columns)
    assert names == [f"C{j}" for j in range(1, 8)]
    rest = [c for c in names if c not in (a, b)]
    for card in range(len(rest) + 1):
        m = card + 2
        z_star = stats.norm.isf(0.05 / (m * (m - 1)))
        pools = list(itertools.combinations(rest, card))
        sig = sum(_oracle_z(data, [a, b, *o], a, b) >= z_star for o in pools)
        row = frame[(frame.a == a) & (frame.b == b) & (frame.others == card)].iloc[0]
        assert (row.significant, row.pools) == (sig, len(pools)), (a, b, card)


def test_sampling_for_large_k_is_seeded_and_reported():
    rng = np.random.default_rng(1)
    data = rng.normal(size=(30, 14)) + np.linspace(0, 1.5, 14)
    one = cdplot.pool_sensitivity(data, others=[1, 6], max_pools=50, random_state=3)
    two = cdplot.pool_sensitivity(data, others=[1, 6], max_pools=50, random_state=3)
    assert one.equals(two)
    assert one.attrs["sampled"]
    assert set(one.loc[one.others == 6, "pools"]) == {50}  # C(12, 6) = 924 > 50: sampled
    assert one.loc[one.others == 6, "sampled"].all()
    assert not one.loc[one.others == 1, "sampled"].any()  # C(12, 1) = 12: all pools


def test_a_result_gives_the_frame_of_its_scores():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cdplot.PoolDependenceWarning)
        res = cdplot.compare(cdplot.datasets.load("benavoli2016"), test="mean-ranks")
    frame = cdplot.pool_sensitivity(res, others=[2, 3, 4])
    assert frame.equals(cdplot.pool_sensitivity(res.scores, others=[2, 3, 4]))
    assert ("C2", "C4") in depending_pairs(frame)


def test_lower_is_better_gives_the_same_decisions():
    data = cdplot.datasets.load("benavoli2016")
    up = cdplot.pool_sensitivity(data, others=[2])
    down = cdplot.pool_sensitivity(-data, others=[2], higher_is_better=False)
    assert up.equals(down)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"alpha": 1.5}, r"alpha must be in \(0, 1\)"),
        ({"others": [7]}, r"others must be in 0\.\.5"),
        ({"others": "x"}, "others must be an integer"),
        ({"max_pools": 0}, "max_pools must be a positive integer"),
    ],
)
def test_errors(kwargs, match):
    with pytest.raises(cdplot.CdplotInputError, match=match):
        cdplot.pool_sensitivity(cdplot.datasets.load("benavoli2016"), **kwargs)


def test_needs_three_algorithms():
    with pytest.raises(cdplot.CdplotInputError, match="at least three algorithms"):
        cdplot.pool_sensitivity(cdplot.datasets.load("demsar2006").iloc[:, :2])


def test_note_names_table_1_pairs(frame):
    from cdplot.stats._pool import pool_sensitivity_note

    note = pool_sensitivity_note(frame)
    # counts of Benavoli et al. (2016) Table 1, "-" cells as 0
    assert "C2 vs C4 (7/10, 9/10, 3/5)" in note
    assert "C4 vs C6 (9/10, 5/10, 0/5)" in note
    assert "4 of 21 pairs" in note
    flat = frame[~frame.depends_on_pool]
    assert "no mean-ranks decision changes" in pool_sensitivity_note(flat)

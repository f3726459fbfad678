"""Tests of the exact Bergmann-Hommel engine (stats/_exhaustive.py, _bh_*.py) and Shaffer's S(k).

Verified against published values:
- S(4) and S(5): the sizes of the exhaustive sets listed in García & Herrera (2008), §2.1
  (the 14 sets for k = 4) and Table 4 (k = 5); Shaffer's t_i for k = 5: Table 3's
  alpha_SH column (alpha_SH = 0.05 / t_i).
- Number of exhaustive sets for k = 4..9: García & Herrera (2008), Table 1.
- The 14 exhaustive sets for k = 4: García & Herrera (2008), §2.1, listed in the text.
- Bergmann-Hommel and Shaffer APVs of the case study: García & Herrera (2008), Table 5.

Verified against an independent oracle (in this file, not in the package):
- Bergmann-Hommel APVs by enumerating every set partition (k <= 9), cell by cell and
  exactly, for both engines, on random, tied and degenerate p-value matrices and on
  Wilcoxon signed-rank p-values of simulated score tables.
- The general engine's cluster-deletion optimum and its colouring upper bound, against
  enumeration of the clique partitions of random graphs.
- Each way the general engine computes a level (unit interval views, edge branching run to
  the end, the clique search alone), against the enumeration of every exhaustive set for
  k <= 8: near-line p-values with ties, zeros and underflow (hypothesis and seeded), and
  every kind of random matrix. The staircase programmes (g, a pair forced into one group,
  a group with forced ends and members), the unit interval recognition and the edge
  branching, against enumeration of the clique partitions of random graphs.
- S(k) by enumerating integer partitions of k.

Consistency only (no external reference):
- Bergmann-Hommel <= Shaffer <= Holm <= Bonferroni, raw p <= APV <= 1, equal raw p-values
  get equal APVs, relabelling the algorithms permutes the result.
- The Robinson and the general engine agree on mean-ranks p-values for k = 10..16.
- The work limit fails fast with a message naming it.

Against the previous engine (tests/reference/bergmann_previous_engine.json, made by
tests/reference/make_bergmann_previous_engine.py from the engine at commit 2e6876a): the
APVs of 18 Wilcoxon tables with k = 12 to 30, bit for bit; and against the engine before
the largest-group search (tests/reference/bergmann_three_clusters.json, made by
tests/reference/make_bergmann_three_clusters.py from commit 9c73ebe): 9 tables of three
clusters of near-equal algorithms (k = 20 to 24, N = 1000) and 4 small-N Wilcoxon tables
(k = 22 and 24, N = 30 and 50), bit for bit.
"""

from __future__ import annotations

import functools
import itertools
import time
from collections.abc import Iterator

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy.special import ndtr
from scipy.stats import wilcoxon

from cdplot._errors import BergmannHommelLimitError, CdplotInputError
from cdplot.stats._bh_general import _GeneralEngine
from cdplot.stats._bh_staircase import (
    _closure_view,
    _interval_view,
    _p3,
    _robinson_order,
    _RobinsonEngine,
)
from cdplot.stats._exhaustive import _bergmann_hommel, bergmann_hommel
from cdplot.stats._shaffer import count_exhaustive_sets, shaffer_counts, shaffer_multipliers

# ---------------------------------------------------------------------------------------
# helpers and the oracle


def _set_partitions(k: int) -> Iterator[list[int]]:
    """Every set partition of range(k) as a restricted growth string (group labels)."""
    labels = [0] * k
    if k == 0:
        yield []
        return

    def extend(i: int, top: int) -> Iterator[list[int]]:
        if i == k:
            yield labels
            return
        for g in range(top + 2):
            labels[i] = g
            yield from extend(i + 1, max(top, g))

    yield from extend(1, 0)


def exhaustive_sets(k: int) -> Iterator[frozenset[tuple[int, int]]]:
    """Generate every exhaustive set of pairwise hypotheses for k algorithms.

    Each set is a frozenset of pairs ``(i, j)``, ``0 <= i < j < k``: the
    within-group pairs of one partition of the algorithms into groups. All
    ``Bell(k) - 1`` of them are yielded (the all-singletons partition gives the
    empty set and is skipped), each once. This grows faster than exponentially
    (21146 sets for k = 9, 10^9 for k = 15) and is meant for documentation, tests
    and small k only; cdplot's Bergmann-Hommel engine never lists
    the sets: this enumerator is the test oracle it is checked against.

    Parameters
    ----------
    k : int
        Number of algorithms.

    Yields
    ------
    frozenset of tuple of int
        One exhaustive set.

    See Also
    --------
    count_exhaustive_sets : their number, without listing them.

    Examples
    --------
    >>> sorted(sorted(s) for s in exhaustive_sets(3))
    [[(0, 1)], [(0, 1), (0, 2), (1, 2)], [(0, 2)], [(1, 2)]]
    """
    for labels in _set_partitions(k):
        pairs = frozenset(
            (i, j) for i in range(k) for j in range(i + 1, k) if labels[i] == labels[j]
        )
        if pairs:
            yield pairs


def _sym(k: int, upper: np.ndarray) -> np.ndarray:
    """k x k symmetric matrix with the given upper triangle (row-major) and NaN diagonal."""
    p = np.full((k, k), np.nan)
    rows, cols = np.triu_indices(k, 1)
    p[rows, cols] = upper
    p[cols, rows] = upper
    return p


def _partitions(items: list[int]):
    """Every set partition of ``items`` (a list of groups), by the textbook recursion."""
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for part in _partitions(rest):
        yield [[first], *part]  # first in a group of its own
        for g in range(len(part)):  # or added to one of the groups
            yield [*part[:g], [first, *part[g]], *part[g + 1 :]]


def _clique_partitions(vertices: list[int], adjacent):
    """The set partitions of ``vertices`` whose groups are cliques (``adjacent(u, v)``)."""
    for part in _partitions(vertices):
        if all(adjacent(u, v) for g in part for u, v in itertools.combinations(g, 2)):
            yield part


def _within(part) -> int:
    """Number of within-group pairs of a partition: sum of C(|g|, 2)."""
    return sum(len(g) * (len(g) - 1) // 2 for g in part)


@functools.cache
def _exhaustive_table(k: int) -> tuple[np.ndarray, np.ndarray]:
    """Membership matrix (exhaustive set x hypothesis) and set sizes, from every partition."""
    index = {pair: h for h, pair in enumerate(itertools.combinations(range(k), 2))}
    member = []
    for part in _partitions(list(range(k))):
        row = np.zeros(len(index), dtype=bool)
        for group in part:
            for pair in itertools.combinations(sorted(group), 2):
                row[index[pair]] = True
        if row.any():  # the all-singletons partition gives no exhaustive set
            member.append(row)
    member_arr = np.array(member)
    return member_arr, member_arr.sum(axis=1)


def oracle_bergmann_hommel(p: np.ndarray) -> np.ndarray:
    """The definition, computed over every exhaustive set (García & Herrera 2008, §2-3).

    APV*_i = min(1, max over exhaustive I containing i of |I| * min_{j in I} p_j), then
    APV_i = max over all j with p_j <= p_i of APV*_j.
    """
    k = p.shape[0]
    rows, cols = np.triu_indices(k, 1)
    pu = p[rows, cols]
    member, size = _exhaustive_table(k)
    set_min = np.where(member, pu, np.inf).min(axis=1)
    set_value = size * set_min  # |I| * min p, one float product per set as in the engine
    star = np.where(member, set_value[:, None], -np.inf).max(axis=0)
    star = np.minimum(1.0, star)
    apv = np.array([star[pu <= x].max() for x in pu])
    return _sym(k, apv)


def _sorted_running(p_upper: np.ndarray, mult: np.ndarray) -> np.ndarray:
    """min(1, running max of mult_i * p_(i)) in increasing p order, mapped back."""
    order = np.argsort(p_upper, kind="stable")
    apv = np.minimum(1.0, np.maximum.accumulate(mult * p_upper[order]))
    out = np.empty_like(apv)
    out[order] = apv
    # equal raw p-values get the largest of their APVs (a step-down convention)
    return np.array([out[p_upper == x].max() for x in p_upper])


def holm(p_upper: np.ndarray) -> np.ndarray:
    m = len(p_upper)
    return _sorted_running(p_upper, np.arange(m, 0, -1, dtype=float))


def shaffer(p_upper: np.ndarray, k: int) -> np.ndarray:
    return _sorted_running(p_upper, shaffer_multipliers(k).astype(float))


def mean_ranks_pvalues(ranks: np.ndarray, n_datasets: int) -> np.ndarray:
    """Two-sided p of z = |R_i - R_j| / sqrt(k(k+1)/(6N)) (García & Herrera 2008, §2.1)."""
    k = len(ranks)
    z = np.abs(ranks[:, None] - ranks[None, :]) / np.sqrt(k * (k + 1) / (6 * n_datasets))
    p = 2.0 * ndtr(-z)
    np.fill_diagonal(p, np.nan)
    return p


def simulated_pvalues(rng: np.random.Generator, k: int, n: int, spread: float) -> np.ndarray:
    """Mean-ranks p-values of a simulated score table: skills spread out, plus noise."""
    scores = np.linspace(0.0, spread, k) + rng.normal(size=(n, k))
    ranks = (np.argsort(np.argsort(-scores, axis=1), axis=1) + 1).mean(axis=0)
    return mean_ranks_pvalues(ranks, n)


def random_matrix(rng: np.random.Generator, k: int, kind: str) -> np.ndarray:
    m = k * (k - 1) // 2
    if kind == "uniform":
        upper = rng.uniform(size=m)
    elif kind == "small":  # many small p-values, a few large ones
        upper = rng.uniform(size=m) ** 8
    elif kind == "tied":  # drawn from a handful of values
        upper = rng.choice(np.round(rng.uniform(size=4) ** 3, 3), size=m)
    elif kind == "tied-extremes":
        upper = rng.choice([0.0, 1e-300, 1e-8, 0.01, 1.0], size=m)
    elif kind == "mean-ranks":  # small N: tied average ranks and tied differences
        return simulated_pvalues(rng, k, int(rng.integers(2, 12)), float(rng.uniform(0, 3)))
    elif kind == "robinson-ties":  # tied positions and a step function of the distance
        x = rng.integers(0, int(rng.integers(2, 8)), size=k)
        steps = np.sort(rng.choice(np.round(rng.uniform(size=5) ** 2, 2), size=np.ptp(x) + 1))
        p = steps[::-1][np.abs(x[:, None] - x[None, :])].astype(float)
        np.fill_diagonal(p, np.nan)
        return p
    elif kind == "near-line":  # as Wilcoxon p-values at large N: a line, noise, underflow
        return near_line_matrix(rng, k)
    else:  # pragma: no cover
        raise AssertionError(kind)
    return _sym(k, upper)


def near_line_matrix(rng: np.random.Generator, k: int) -> np.ndarray:
    """p falls with the distance of points on a line, plus noise, rounded to a few digits
    (ties) and underflowing to 0 far away: most threshold graphs are unit interval
    graphs or a few edges away from one, like those of Wilcoxon p-values at N = 1000."""
    x = np.sort(rng.uniform(0.0, 1.0, size=k))
    z = 20.0 * np.abs(x[:, None] - x[None, :]) * rng.uniform(0.7, 1.3, size=(k, k))
    p = np.round(2.0 * ndtr(-(z + z.T) / 2.0), int(rng.integers(2, 5)))
    p[p < 1e-4] = rng.choice([0.0, 1e-300, 5e-324])
    perm = rng.permutation(k)  # labels in no particular order
    p = p[np.ix_(perm, perm)]
    np.fill_diagonal(p, np.nan)
    return p


KINDS = ["uniform", "small", "tied", "tied-extremes", "mean-ranks", "robinson-ties", "near-line"]


def assert_matches_oracle(p: np.ndarray) -> int:
    """Both engines (the Robinson one where it applies) equal the oracle exactly."""
    expected = oracle_bergmann_hommel(p)
    np.testing.assert_array_equal(bergmann_hommel(p), expected)
    np.testing.assert_array_equal(_bergmann_hommel(p, engine="general"), expected)
    if _robinson_order(p) is not None:
        np.testing.assert_array_equal(_bergmann_hommel(p, engine="robinson"), expected)
        return 1
    return 0


# ---------------------------------------------------------------------------------------
# Shaffer


def test_shaffer_counts_k4_from_listed_exhaustive_sets():
    # García & Herrera (2008) §2.1 lists the 14 exhaustive sets for k = 4: one of size 6,
    # four of size 3, three of size 2 and six of size 1; with 0 (none true) S(4) is
    assert shaffer_counts(4) == (0, 1, 2, 3, 6)


def test_shaffer_counts_k5_from_table4():
    # García & Herrera (2008) Table 4 (k = 5) has exhaustive sets of sizes 1, 2, 3, 4, 6, 10
    assert shaffer_counts(5) == (0, 1, 2, 3, 4, 6, 10)


def test_shaffer_multipliers_k4():
    # t_i = largest element of S(4) = {0, 1, 2, 3, 6} not above m - i + 1 (m = 6):
    # García & Herrera (2008) §2.1, definition of Shaffer's static procedure
    assert shaffer_multipliers(4).tolist() == [6, 3, 3, 3, 2, 1]


def test_shaffer_multipliers_k5_table3():
    # García & Herrera (2008) Table 3, column alpha_SH (alpha = 0.05), printed to 4 decimals
    alpha_sh = [0.005, 0.0083, 0.0083, 0.0083, 0.0083, 0.0125, 0.0125, 0.0167, 0.025, 0.05]
    t = shaffer_multipliers(5)
    assert t.tolist() == [10, 6, 6, 6, 6, 4, 4, 3, 2, 1]
    np.testing.assert_array_equal(np.round(0.05 / t, 4), alpha_sh)


def test_shaffer_edge_cases():
    assert shaffer_counts(0) == (0,)
    assert shaffer_counts(1) == (0,)
    assert shaffer_counts(2) == (0, 1)
    assert shaffer_multipliers(0).shape == (0,)
    assert shaffer_multipliers(2).tolist() == [1]
    with pytest.raises(CdplotInputError, match="non-negative"):
        shaffer_counts(-1)
    with pytest.raises(CdplotInputError, match="integer"):
        shaffer_multipliers(4.0)


@pytest.mark.parametrize("k", range(0, 31))
def test_shaffer_counts_match_integer_partitions(k):
    # S(k) = {sum of C(size, 2) over the group sizes of some partition of k algorithms}
    def sizes(n, largest):
        if n == 0:
            yield ()
            return
        for s in range(min(n, largest), 0, -1):
            for tail in sizes(n - s, s):
                yield (s, *tail)

    expected = sorted({sum(s * (s - 1) // 2 for s in part) for part in sizes(k, k)})
    assert shaffer_counts(k) == tuple(expected)


def test_shaffer_large_k_is_cheap():
    start = time.perf_counter()
    t = shaffer_multipliers(120)
    m = 120 * 119 // 2
    assert time.perf_counter() - start < 5.0
    assert t[0] == m and t[-1] == 1
    assert np.all(np.diff(t) <= 0)
    assert np.all(t <= m - np.arange(m))  # t_i <= m - i + 1 (Holm's multiplier)
    # the second largest count: one algorithm split off, C(k-1, 2) (Shaffer 1986)
    assert t[1] == 119 * 118 // 2


# ---------------------------------------------------------------------------------------
# exhaustive sets


TABLE1_COUNTS = {4: 14, 5: 51, 6: 202, 7: 876, 8: 4139, 9: 21146}  # García & Herrera, Table 1


@pytest.mark.parametrize("k", [4, 5, 6, 7, 8, 9])
def test_count_exhaustive_sets_table1(k):
    assert count_exhaustive_sets(k) == TABLE1_COUNTS[k]


@pytest.mark.parametrize("k", [4, 5, 6, 7])
def test_exhaustive_sets_enumeration_table1(k):
    sets = list(exhaustive_sets(k))
    assert len(sets) == TABLE1_COUNTS[k]
    assert len(set(sets)) == len(sets)  # no repetitions


@pytest.mark.slow
@pytest.mark.parametrize("k", [8, 9])
def test_exhaustive_sets_enumeration_table1_large(k):
    assert sum(1 for _ in exhaustive_sets(k)) == TABLE1_COUNTS[k]


def test_exhaustive_sets_k4_listed_in_text():
    # García & Herrera (2008) §2.1, end of the example of Figure 2 (classifiers 1..4)
    listed = [
        "12 13 14 23 24 34", "23 24 34", "13 14 34", "12 14 24", "12 13 23",
        "12", "13", "14", "23", "24", "34", "12 34", "13 24", "23 14",
    ]  # fmt: skip
    expected = {
        frozenset(tuple(sorted((int(h[0]) - 1, int(h[1]) - 1))) for h in s.split()) for s in listed
    }
    assert set(exhaustive_sets(4)) == expected


def test_exhaustive_sets_are_partitions():
    for s in exhaustive_sets(6):
        # "performs like" must be transitive within an exhaustive set
        for (a, b), (c, d) in itertools.combinations(s, 2):
            shared = {a, b} & {c, d}
            if len(shared) == 1:
                x, y = sorted(({a, b} | {c, d}) - shared)
                assert (x, y) in s
    assert list(exhaustive_sets(1)) == [] and list(exhaustive_sets(0)) == []
    assert count_exhaustive_sets(0) == 0 and count_exhaustive_sets(1) == 0


# ---------------------------------------------------------------------------------------
# Bergmann-Hommel: García & Herrera (2008) case study

GH_NAMES = ["C4.5", "1-NN", "NaiveBayes", "Kernel", "CN2"]
# García & Herrera (2008) Table 2, exact average ranks (see tests/reference/paper-values.md)
GH_RANKS = np.array([63, 97.5, 66, 130, 93.5]) / 30
# Table 5, in the order of Table 3: hypothesis, Shaffer APV, Bergmann-Hommel APV
GH_TABLE5 = [
    ("C4.5", "Kernel", "4.487e-7", "4.487e-7"),
    ("NaiveBayes", "Kernel", "1.042e-6", "1.042e-6"),
    ("Kernel", "CN2", "0.0173", "0.0115"),
    ("C4.5", "1-NN", "0.0291", "0.0291"),
    ("1-NN", "Kernel", "0.0478", "0.0319"),
    ("1-NN", "NaiveBayes", "0.0478", "0.0319"),
    ("C4.5", "CN2", "0.0511", "0.0383"),
    ("NaiveBayes", "CN2", "0.0742", "0.0383"),
    ("1-NN", "CN2", "1", "1"),
    ("C4.5", "NaiveBayes", "1", "1"),
]


def _as_printed(value: float, printed: str) -> str:
    """``value`` rounded to as many significant digits as ``printed`` shows."""
    if printed == "1":
        return "1" if value == 1.0 else repr(value)
    mantissa = printed.split("e")[0].lstrip("0.").replace(".", "")
    return f"{float(f'{value:.{len(mantissa)}g}'):.6g}"


def test_garcia_herrera_table5_bergmann_hommel():
    p = mean_ranks_pvalues(GH_RANKS, 30)
    apv = bergmann_hommel(p)
    for a, b, _, printed in GH_TABLE5:
        i, j = GH_NAMES.index(a), GH_NAMES.index(b)
        assert _as_printed(apv[i, j], printed) == f"{float(printed):.6g}", (a, b)
        assert apv[i, j] == apv[j, i]
    np.testing.assert_allclose(
        [apv[GH_NAMES.index(a), GH_NAMES.index(b)] for a, b, _, _ in GH_TABLE5],
        [float(x) for *_, x in GH_TABLE5],
        rtol=5e-3,
    )
    # the running maximum matters: without it 1-NN vs NaiveBayes would be
    # 3 * p(1-NN, NaiveBayes) = 0.0303 (its best exhaustive set) instead of 0.0319
    assert apv[1, 2] == apv[1, 3] > 3 * p[1, 2]
    assert _robinson_order(p) is not None
    np.testing.assert_array_equal(_bergmann_hommel(p, engine="general"), apv)
    np.testing.assert_array_equal(oracle_bergmann_hommel(p), apv)


def test_garcia_herrera_table5_shaffer():
    p = mean_ranks_pvalues(GH_RANKS, 30)
    rows, cols = np.triu_indices(5, 1)
    apv = _sym(5, shaffer(p[rows, cols], 5))
    for a, b, printed, _ in GH_TABLE5:
        i, j = GH_NAMES.index(a), GH_NAMES.index(b)
        assert _as_printed(apv[i, j], printed) == f"{float(printed):.6g}", (a, b)


# ---------------------------------------------------------------------------------------
# Bergmann-Hommel: oracle agreement


@pytest.mark.parametrize("kind", KINDS)
def test_oracle_agreement_random(kind):
    rng = np.random.default_rng(2008)
    robinson = 0
    for k in [2, 3, 4, 5, 5, 6, 6, 7] * 5:
        robinson += assert_matches_oracle(random_matrix(rng, k, kind))
    for k in [8] * 3:
        robinson += assert_matches_oracle(random_matrix(rng, k, kind))
    if kind in ("mean-ranks", "robinson-ties"):
        assert robinson >= 30  # the Robinson engine is exercised too


@pytest.mark.parametrize("value", [0.0, 5e-324, 1e-300, 1e-12, 0.01, 1 / 3, 0.5, 0.999999, 1.0])
@pytest.mark.parametrize("k", [2, 3, 6])
def test_oracle_agreement_all_equal(value, k):
    p = _sym(k, np.full(k * (k - 1) // 2, value))
    assert_matches_oracle(p)
    # every hypothesis is tested with the whole family: m * p, at most 1
    m = k * (k - 1) // 2
    expected = min(1.0, m * value)
    apv = bergmann_hommel(p)
    assert np.all(apv[~np.eye(k, dtype=bool)] == expected)


@pytest.mark.parametrize("k", [4, 7])
def test_oracle_agreement_degenerate_mixtures(k):
    rng = np.random.default_rng(1988)
    m = k * (k - 1) // 2
    for values in ([0.0, 1.0], [0.0, 1e-300], [1e-300, 1.0], [0.0, 0.5, 1.0]):
        for _ in range(10):
            assert_matches_oracle(_sym(k, rng.choice(values, size=m)))


@pytest.mark.slow
def test_oracle_agreement_k9():
    rng = np.random.default_rng(9)
    for kind in KINDS:
        for _ in range(4):
            assert_matches_oracle(random_matrix(rng, 9, kind))


@given(
    k=st.integers(2, 6),
    data=st.data(),
)
def test_oracle_agreement_hypothesis(k, data):
    m = k * (k - 1) // 2
    pool = st.sampled_from([0.0, 1e-10, 0.001, 0.01, 0.02, 0.05, 0.2, 0.5, 1.0])
    values = data.draw(st.lists(st.one_of(pool, st.floats(0.0, 1.0)), min_size=m, max_size=m))
    assert_matches_oracle(_sym(k, np.array(values)))


def wilcoxon_pvalues(rng: np.random.Generator, k: int, n: int, spread: float) -> np.ndarray:
    """Wilcoxon signed-rank p-values of every pair of a simulated score table: not a
    Robinson matrix in general, so the general engine's bounds are exercised."""
    scores = np.linspace(0.0, spread, k) + rng.normal(size=(n, k))
    p = np.full((k, k), np.nan)
    for i in range(k):
        for j in range(i + 1, k):
            p[i, j] = p[j, i] = wilcoxon(scores[:, i], scores[:, j]).pvalue
    return p


@pytest.mark.parametrize("k", [5, 6, 7, 8])
def test_oracle_agreement_wilcoxon(k):
    rng = np.random.default_rng(1945 + k)
    for _ in range(6):
        n = int(rng.choice([10, 30, 50, 100]))
        p = wilcoxon_pvalues(rng, k, n, float(rng.uniform(0.0, 4.0)))
        assert_matches_oracle(p)


@pytest.mark.slow
def test_oracle_agreement_wilcoxon_k9():
    rng = np.random.default_rng(1945)
    for n, spread in [(30, 3.0), (50, 3.0), (100, 3.0), (40, 1.0), (60, 0.3), (20, 6.0)]:
        assert_matches_oracle(wilcoxon_pvalues(rng, 9, n, spread))


def _engine_settings():
    """The general engine as shipped, with its edge branching always run to the end, and
    with neither unit interval views nor branching (the search over cliques alone)."""
    import cdplot.stats._bh_general as ex

    yield "default", []
    yield (
        "branch-always",
        [
            (ex._GeneralEngine, "BRANCH_NODES", 10**9),
            (ex._GeneralEngine, "BRANCH_NODES_PAIR", 10**9),
        ],
    )
    yield (
        "cliques-only",
        [
            (ex, "_interval_view", lambda *args, **kwargs: None),
            (ex._GeneralEngine, "BRANCH_NODES", 0),
            (ex._GeneralEngine, "BRANCH_NODES_PAIR", 0),
        ],
    )


def assert_every_path_matches_oracle(p: np.ndarray) -> None:
    expected = oracle_bergmann_hommel(p)
    for name, patches in _engine_settings():
        with pytest.MonkeyPatch.context() as mp:
            for owner, attr, value in patches:
                mp.setattr(owner, attr, value)
            np.testing.assert_array_equal(
                _bergmann_hommel(p, engine="general"), expected, err_msg=name
            )


@pytest.mark.parametrize("k", [5, 6, 7, 8])
def test_every_general_path_matches_oracle_near_line(k):
    """Unit interval views, edge branching and the clique search, each on its own,
    against every exhaustive set (k <= 8), on near-line p-values with ties and zeros."""
    rng = np.random.default_rng(15 + k)
    for _ in range(8):
        assert_every_path_matches_oracle(near_line_matrix(rng, k))
    for _ in range(3):
        n = int(rng.choice([30, 100, 1000]))
        assert_every_path_matches_oracle(wilcoxon_pvalues(rng, k, n, float(rng.uniform(1, 4))))


@pytest.mark.parametrize("kind", KINDS)
def test_every_general_path_matches_oracle_random(kind):
    """The same on every kind of random matrix: most threshold graphs of uniform or tied
    p-values are far from unit interval graphs, so the branching runs deep there."""
    rng = np.random.default_rng(2015)
    for k in (6, 7, 8):
        for _ in range(3):
            assert_every_path_matches_oracle(random_matrix(rng, k, kind))


def _random_unit_interval_graph(rng: np.random.Generator, k: int) -> list[int]:
    """Points on a line, adjacent within distance 1, labels shuffled (bit masks)."""
    x = rng.uniform(0.0, float(rng.uniform(1.0, 4.0)), size=k)
    x[rng.integers(0, k)] = x[0]  # a tie
    labels = rng.permutation(k).tolist()
    adj = [0] * k
    for i in range(k):
        for j in range(k):
            if i != j and abs(x[i] - x[j]) <= 1.0:
                adj[labels[i]] |= 1 << labels[j]
    return adj


def _brute_together(adj: list[int], a: int, b: int) -> int:
    """max sum C(|g|, 2) over clique partitions with a and b in one group (-1: none)."""
    parts = _clique_partitions(list(range(len(adj))), lambda u, v: adj[u] >> v & 1)
    return max((_within(p) for p in parts if any(a in g and b in g for g in p)), default=-1)


def test_interval_view_and_staircase_against_brute_force():
    """Unit interval graphs are recognised (3-sweep LexBFS, verified), their staircase
    describes exactly their edges, and g and the best partition holding a given pair
    in one group equal the enumeration of all partitions; removing corner edges keeps
    the order valid and the values exact."""
    rng = np.random.default_rng(1969)
    pairs = removed = 0
    for _ in range(40):
        k = int(rng.integers(2, 8))
        adj = _random_unit_interval_graph(rng, k)
        view = _interval_view(adj, _unlimited(k))
        assert view is not None
        while True:
            for i in range(k):  # the staircase is the graph
                for j in range(i + 1, k):
                    a, b = sorted((view.pos[i], view.pos[j]))
                    assert bool(adj[i] >> j & 1) == (b <= view.reach[a])
            view._optima()
            assert view.F[k] == _brute_cluster_deletion(adj, (1 << k) - 1)
            edges = [(i, j) for i in range(k) for j in range(i + 1, k) if adj[i] >> j & 1]
            for i, j in edges:
                expected = _brute_together(adj, i, j)
                assert view.together([(i, j)], -1, 10**9) == expected
                pairs += 1
            corners = [
                (i, j)
                for i, j in edges
                if view.reach[min(view.pos[i], view.pos[j])] == max(view.pos[i], view.pos[j])
                and view.lo[max(view.pos[i], view.pos[j])] == min(view.pos[i], view.pos[j])
            ]
            if not corners:
                break
            i, j = corners[int(rng.integers(len(corners)))]
            assert view.remove_edge(*sorted((view.pos[i], view.pos[j])))
            adj[i] &= ~(1 << j)
            adj[j] &= ~(1 << i)
            removed += 1
    assert pairs > 200 and removed > 50


def test_constrained_with_forced_members_against_brute_force():
    """_constrained(l, r, a, b): the best partition with a group whose first and last
    positions are l and r and which holds a and b, on unit interval graphs in their
    order, for every such (l, r, a, b), against the enumeration of every partition."""
    rng = np.random.default_rng(1996)
    checked = forced = 0
    for _ in range(25):
        k = int(rng.integers(3, 8))
        adj = _random_unit_interval_graph(rng, k)
        view = _interval_view(adj, _unlimited(k))
        view._optima()
        order = view.order
        parts = [
            [sorted(view.pos[v] for v in g) for g in part]
            for part in _clique_partitions(list(range(k)), lambda u, v, adj=adj: adj[u] >> v & 1)
        ]
        for left in range(k):
            for right in range(left + 1, view.reach[left] + 1):
                for a in range(left, right + 1):
                    for b in range(a, right + 1):
                        expected = max(
                            _within(part)
                            for part in parts
                            if any(
                                g[0] == left and g[-1] == right and a in g and b in g for g in part
                            )
                        )
                        assert view._constrained(left, right, a, b) == expected, (
                            order,
                            left,
                            right,
                            a,
                            b,
                        )
                        checked += 1
                        forced += left < a or b < right
    assert checked > 300 and forced > 200


def test_interval_view_refuses_other_graphs():
    """A claw, a 4-cycle, a net and a tent (Roberts 1969: the minimal graphs that are not
    unit interval graphs, with the longer holes) are refused; the closure in any order
    contains the graph, so its optimum bounds the graph's from above."""

    def graph(k, edges):
        adj = [0] * k
        for i, j in edges:
            adj[i] |= 1 << j
            adj[j] |= 1 << i
        return adj

    claw = graph(4, [(0, 1), (0, 2), (0, 3)])
    c4 = graph(4, [(0, 1), (1, 2), (2, 3), (3, 0)])
    net = graph(6, [(0, 1), (1, 2), (0, 2), (0, 3), (1, 4), (2, 5)])
    tent = graph(6, [(0, 1), (1, 2), (0, 2), (3, 0), (3, 1), (4, 1), (4, 2), (5, 2), (5, 0)])
    rng = np.random.default_rng(4)
    for adj in (claw, c4, net, tent):
        k = len(adj)
        order: list[int] = []
        assert _interval_view(adj, _unlimited(k), order) is None
        a, x, b = _p3(adj, order)
        assert adj[x] >> a & 1 and adj[x] >> b & 1 and not adj[a] >> b & 1
        for _ in range(5):
            closure = _closure_view(adj, rng.permutation(k).tolist(), _unlimited(k))
            closure._optima()
            assert closure.F[k] >= _brute_cluster_deletion(adj, (1 << k) - 1)


def test_branching_against_brute_force():
    """The edge-branching search, run to the end, on random graphs and with a pair
    forced into one group, against the enumeration of every partition."""
    rng = np.random.default_rng(1988)
    checked = 0
    for _ in range(40):
        k = int(rng.integers(3, 8))
        level = np.zeros((k, k), dtype=np.int64)
        rows, cols = np.triu_indices(k, 1)
        level[rows, cols] = level[cols, rows] = rng.integers(0, 3, size=len(rows))
        engine = _GeneralEngine(level, 3, _unlimited(k))
        engine.BRANCH_NODES = engine.BRANCH_NODES_PAIR = 10**9  # run to the end
        engine._advance(1)  # the level-0 edges are gone
        adj = engine.adj
        found = engine._branch_search(None, -1, 10**9)
        assert found is not None and found[0] == _brute_cluster_deletion(adj, (1 << k) - 1)
        covered = 0
        for grp in found[1]:  # the partition returned is one, and optimal
            assert all(
                adj[u] >> v & 1
                for u in range(k)
                for v in range(k)
                if u != v and grp >> u & 1 and grp >> v & 1
            )
            covered |= grp
        assert covered == (1 << k) - 1
        edges = [(i, j) for i in range(k) for j in range(i + 1, k) if adj[i] >> j & 1]
        for i, j in edges[:4]:
            expected = _brute_together(adj, i, j)
            assert engine._branch_search([(i, j)], -1, 10**9)[0] == expected
            checked += 1
    assert checked > 60


@given(k=st.integers(2, 8), data=st.data())
def test_every_general_path_matches_oracle_hypothesis(k, data):
    """Positions on a line with noise (p = 2 Phi(-z)), drawn by hypothesis, quantised
    to a pool of values with ties, zeros and values that underflow."""
    m = k * (k - 1) // 2
    pos = data.draw(st.lists(st.integers(0, 12), min_size=k, max_size=k))
    noise = data.draw(st.lists(st.sampled_from([-1, 0, 0, 0, 1]), min_size=m, max_size=m))
    rows, cols = np.triu_indices(k, 1)
    dist = np.abs(np.array(pos)[rows] - np.array(pos)[cols]) + np.array(noise)
    pool = np.array([1.0, 0.5, 0.2, 0.05, 0.01, 1e-5, 1e-100, 1e-300, 5e-324, 0.0, 0.0, 0.0])
    upper = pool[np.clip(dist, 0, len(pool) - 1)]
    if data.draw(st.booleans()):  # some exact values mixed in
        flip = data.draw(st.lists(st.floats(0.0, 1.0), min_size=m, max_size=m))
        mask = np.array(data.draw(st.lists(st.booleans(), min_size=m, max_size=m)))
        upper = np.where(mask, np.array(flip), upper)
    assert_every_path_matches_oracle(_sym(k, upper))


def _previous_engine_tables():
    import json
    from pathlib import Path

    for name in ("bergmann_previous_engine.json", "bergmann_three_clusters.json"):
        doc = json.loads((Path(__file__).parent / "reference" / name).read_text())
        for table in doc["tables"]:
            slow = table["k"] == 30 and table["seed"] != 2  # about 1-3 s each
            kind = table.get("kind", "wilcoxon")
            yield pytest.param(
                table,
                id=f"{kind}-k{table['k']}-N{table['N']}-seed{table['seed']}",
                marks=[pytest.mark.slow] if slow else [],
            )


@pytest.mark.parametrize("table", list(_previous_engine_tables()))
def test_previous_engine_reference(table):
    """Identical, bit for bit, to the APVs of earlier engines: before the unit interval
    views and edge branching (tests/reference/make_bergmann_previous_engine.py: commit
    2e6876a) on Wilcoxon tables with k = 12 to 30, and before the largest-group search
    (tests/reference/make_bergmann_three_clusters.py: commit 9c73ebe) on three-cluster
    and small-N Wilcoxon tables with k = 20 to 24."""
    k = table["k"]
    upper = np.array([float.fromhex(x) for x in table["pvalues"]])
    expected = np.array([float.fromhex(x) for x in table["apv"]])
    p = _sym(k, upper)
    assert _robinson_order(p) is None  # the general engine
    rows, cols = np.triu_indices(k, 1)
    np.testing.assert_array_equal(bergmann_hommel(p, bh_budget=None)[rows, cols], expected)


def _brute_cluster_deletion(adj: list[int], u: int) -> int:
    """max sum C(|g|, 2) over partitions of the vertex set u into cliques, by enumeration."""
    vertices = [v for v in range(len(adj)) if u >> v & 1]
    return max(_within(p) for p in _clique_partitions(vertices, lambda a, b: adj[a] >> b & 1))


def test_general_engine_cluster_deletion_and_bound():
    """f(U) is the exact cluster-deletion optimum and the colouring bound is an upper
    bound of it, on random graphs of every density and their induced subgraphs."""
    rng = np.random.default_rng(2026)
    tight = 0
    for _ in range(60):
        k = int(rng.integers(2, 8))
        density = float(rng.uniform(0.2, 1.0))
        level = np.zeros((k, k), dtype=np.int64)
        rows, cols = np.triu_indices(k, 1)
        absent = rng.uniform(size=len(rows)) > density  # level 0: removed below level 1
        level[rows, cols] = level[cols, rows] = np.where(absent, 0, 1)
        engine = _GeneralEngine(level, 2, _unlimited(k))
        engine._advance(1)
        for u in rng.integers(1, 2**k, size=6).tolist():
            exact = _brute_cluster_deletion(engine.adj, u)
            assert engine.f(u) == exact
            assert engine._colour_bound(u) >= exact
            tight += engine._colour_bound(u) == exact
    assert tight > 100


def test_general_engine_with_tiny_memo(monkeypatch):
    # the memo is emptied when full; results must not depend on it
    monkeypatch.setattr(_GeneralEngine, "MEMO_LIMIT", 5)
    rng = np.random.default_rng(1979)
    for i, kind in enumerate(KINDS * 2):
        k = 6 + i % 3
        p = random_matrix(rng, k, kind)
        expected = oracle_bergmann_hommel(p)
        np.testing.assert_array_equal(_bergmann_hommel(p, engine="general"), expected)


def _brute_constrained(q: np.ndarray, t: float, left: int, right: int) -> int:
    """Largest number of within-group pairs over partitions into cliques of G_t (pairs
    with p >= t) having a group whose first and last positions are left and right."""
    parts = _clique_partitions(list(range(q.shape[0])), lambda i, j: q[i, j] >= t)
    spans = (p for p in parts if any(min(g) == left and max(g) == right for g in p))
    return max((_within(p) for p in spans), default=0)


def test_robinson_constrained_step_against_brute_force():
    """The Robinson engine's per-level optimum with a forced group span, for every level
    and every level-t pair, including tied distances (blocks crossing the span)."""
    rng = np.random.default_rng(1994)
    checked = crossing = 0
    for _ in range(40):
        k = int(rng.integers(3, 8))
        p = random_matrix(rng, k, "robinson-ties")
        order = _robinson_order(p)
        if order is None:
            continue
        q = p[np.ix_(order, order)]
        rows, cols = np.triu_indices(k, 1)
        levels = np.unique(q[rows, cols])
        engine = _RobinsonEngine(q, levels, budget=_unlimited(k))
        for lev, t in enumerate(levels.tolist()):
            engine._update_reach(t)
            engine._optima()  # the prefix and suffix optima _constrained starts from
            for left, right in engine.special[lev]:
                expected = _brute_constrained(q, t, left, right)
                assert engine._constrained(left, right) == expected
                checked += 1
                crossing += left > 0 and engine.reach[left - 1] > right
    assert checked > 100 and crossing > 0


def _unlimited(k: int):
    from cdplot.stats._bh_budget import _Budget

    return _Budget(None, k)


# ---------------------------------------------------------------------------------------
# Bergmann-Hommel: properties and larger k


@given(k=st.integers(2, 7), seed=st.integers(0, 2**32 - 1), kind=st.sampled_from(KINDS))
def test_ordering_of_procedures(k, seed, kind):
    p = random_matrix(np.random.default_rng(seed), k, kind)
    rows, cols = np.triu_indices(k, 1)
    pu = p[rows, cols]
    bh = bergmann_hommel(p)[rows, cols]
    sh = shaffer(pu, k)
    ho = holm(pu)
    bonferroni = np.minimum(1.0, len(pu) * pu)
    assert np.all(pu <= bh) and np.all(bh <= 1.0)
    assert np.all(bh <= sh) and np.all(sh <= ho) and np.all(ho <= bonferroni)
    # monotone in the raw p-value; equal raw p-values, equal APVs
    order = np.argsort(pu, kind="stable")
    assert np.all(np.diff(bh[order]) >= 0)
    for x in np.unique(pu):
        assert len(np.unique(bh[pu == x])) == 1


@given(k=st.integers(2, 9), seed=st.integers(0, 2**32 - 1), kind=st.sampled_from(KINDS))
def test_relabelling_permutes_result(k, seed, kind):
    rng = np.random.default_rng(seed)
    p = random_matrix(rng, k, kind)
    perm = rng.permutation(k)
    apv = bergmann_hommel(p)
    np.testing.assert_array_equal(bergmann_hommel(p[np.ix_(perm, perm)]), apv[np.ix_(perm, perm)])


@pytest.mark.parametrize("k", [10, 12, 14])
def test_engines_agree_on_mean_ranks(k):
    rng = np.random.default_rng(k)
    for spread in (0.5, 2.0):
        p = simulated_pvalues(rng, k, 40, spread)
        assert _robinson_order(p) is not None
        np.testing.assert_array_equal(
            _bergmann_hommel(p, engine="robinson"), _bergmann_hommel(p, engine="general")
        )


@pytest.mark.slow
@pytest.mark.parametrize("k", [15, 16])
def test_engines_agree_on_mean_ranks_large(k):
    rng = np.random.default_rng(k)
    for spread in (1.0, 3.0):
        p = simulated_pvalues(rng, k, 60, spread)
        np.testing.assert_array_equal(
            _bergmann_hommel(p, engine="robinson"), _bergmann_hommel(p, engine="general")
        )


def test_large_k_mean_ranks_is_fast():
    rng = np.random.default_rng(30)
    p = simulated_pvalues(rng, 40, 50, 3.0)
    start = time.perf_counter()
    apv = bergmann_hommel(p)
    assert time.perf_counter() - start < 5.0
    rows, cols = np.triu_indices(40, 1)
    pu, bh = p[rows, cols], apv[rows, cols]
    assert np.all(pu <= bh) and np.all(bh <= shaffer(pu, 40))


# ---------------------------------------------------------------------------------------
# errors, limits, small k, progress


def test_work_limit_fails_fast():
    rng = np.random.default_rng(5)
    p = random_matrix(rng, 16, "small")  # about 10^5 steps without a limit
    assert _robinson_order(p) is None
    start = time.perf_counter()
    with pytest.raises(BergmannHommelLimitError, match=r"max_steps=2000 .*'shaffer'.*'holm'"):
        _bergmann_hommel(p, max_steps=2000)
    assert time.perf_counter() - start < 2.0
    assert issubclass(BergmannHommelLimitError, ValueError)


@pytest.mark.parametrize(
    ("pvalues", "match"),
    [
        (np.zeros((2, 3)), "square"),
        (np.array([[np.nan, 0.1], [0.2, np.nan]]), "symmetric"),
        (np.array([[np.nan, np.nan], [np.nan, np.nan]]), "NaN outside the diagonal"),
        (np.array([[np.nan, 1.5], [1.5, np.nan]]), r"\[0, 1\]"),
        (np.array([[np.nan, -0.1], [-0.1, np.nan]]), r"\[0, 1\]"),
    ],
)
def test_invalid_input(pvalues, match):
    with pytest.raises(CdplotInputError, match=match):
        bergmann_hommel(pvalues)


def test_engine_name_checked():
    with pytest.raises(CdplotInputError, match="not a valid engine"):
        _bergmann_hommel(np.full((2, 2), 0.5), engine="fast")
    with pytest.raises(CdplotInputError, match="not a Robinson matrix"):
        _bergmann_hommel(random_matrix(np.random.default_rng(5), 16, "uniform"), engine="robinson")


def test_small_k():
    assert bergmann_hommel(np.zeros((0, 0))).shape == (0, 0)
    assert np.isnan(bergmann_hommel(np.array([[0.3]]))).all()
    # k = 2: one hypothesis, one exhaustive set {H1}: the APV is the raw p-value
    np.testing.assert_array_equal(
        bergmann_hommel(np.array([[1.0, 0.04], [0.04, 1.0]])),
        np.array([[np.nan, 0.04], [0.04, np.nan]]),
    )


def test_progress_bar(capsys):
    p = mean_ranks_pvalues(GH_RANKS, 30)
    expected = bergmann_hommel(p, progress=False)
    np.testing.assert_array_equal(bergmann_hommel(p, progress=True), expected)
    assert "Bergmann-Hommel (k=5)" in capsys.readouterr().err
    bergmann_hommel(p)  # not a terminal: no bar
    assert capsys.readouterr().err == ""

"""The compact letter display against a plain reference, and its speed on large boards.

What is verified here is consistency, not a value from another tool: the letters of
``cdplot.stats._letters`` are compared, letter for letter and in the same order, with
``_reference_letter_matrix`` below, a short set-based transcription of the steps the
module documents: the maximal runs when the not-separated pairs form runs in display
order; otherwise the greedy cliques, and (up to ``INSERT_ABSORB_MAX_K`` algorithms)
Piepho's (2004) insert-and-absorb in the input order and in the display order, each
followed by Piepho's sweep, the display with the fewest letters kept (the first of
equals); letters ordered by their first holder in display order. The reference is
checked against R's ``multcompLetters`` in ``tests/test_letters.py`` only through the
module (fewer or as many letters), not here.
"""

from __future__ import annotations

import time
import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import cdplot
from cdplot.stats._letters import (
    INSERT_ABSORB_MAX_K,
    INSERT_ABSORB_MAX_LETTERS,
    compact_letters,
    letter_matrix,
    letter_names,
)

Letters = list[set[int]]


# ---------------------------------------------------------------- the reference


def _reference_runs(sep: np.ndarray, order: list[int]) -> Letters | None:
    """The maximal runs of not-separated algorithms when each row's run is contiguous and
    the runs' ends never move back; else None."""
    k = len(order)
    ends = []
    for a in range(k):
        near = [b for b in range(k) if a == b or not sep[order[a], order[b]]]
        if near != list(range(near[0], near[-1] + 1)):
            return None
        ends.append((near[0], near[-1]))
    if any(ends[a + 1][0] < ends[a][0] or ends[a + 1][1] < ends[a][1] for a in range(k - 1)):
        return None
    starts = [a for a in range(k) if a == 0 or ends[a - 1][1] < ends[a][1]]
    return [{order[p] for p in range(a, ends[a][1] + 1)} for a in starts]


def _reference_greedy(sep: np.ndarray, order: list[int]) -> Letters:
    """For each algorithm i in order, while it shares no letter with some j not separated
    from it (the first such j in order): a letter of i, j and every later algorithm (in
    order) not separated from those already in; a letter of its own if it has none."""
    letters: Letters = []
    covered = {(a, a) for a in order}
    for i in order:
        while True:
            pending = [v for v in order if not sep[i, v] and (i, v) not in covered]
            if not pending:
                break
            members = [i, pending[0]]
            for v in order:
                if v not in members[:2] and not any(sep[v, u] for u in members):
                    members.append(v)
            letters.append(set(members))
            covered |= {(a, b) for a in members for b in members}
        if not any(i in letter for letter in letters):
            letters.append({i})
    return letters


def _reference_insert_absorb(sep: np.ndarray, order: list[int]) -> Letters | None:
    """Piepho's insert-and-absorb: for each separated pair (column by column of the lower
    triangle in ``order``), every letter holding both is split in two (one without each),
    then a changed letter inside another kept letter is dropped (the last ones first).
    None (given up) past INSERT_ABSORB_MAX_LETTERS letters."""
    k = len(order)
    letters: Letters = [set(range(k))]
    for jpos, j in enumerate(order):
        for i in order[jpos + 1 :]:
            if not sep[i, j]:
                continue
            both = [c for c, letter in enumerate(letters) if i in letter and j in letter]
            if not both:
                continue
            first_copy = len(letters)
            letters += [letters[c] - {j} for c in both]
            for c in both:
                letters[c] = letters[c] - {i}
            keep = [True] * len(letters)
            for c in sorted(both + list(range(first_copy, len(letters))), reverse=True):
                if any(
                    keep[d] and d != c and letters[c] <= letters[d] for d in range(len(letters))
                ):
                    keep[c] = False
            letters = [letter for letter, kept in zip(letters, keep, strict=True) if kept]
            if len(letters) > INSERT_ABSORB_MAX_LETTERS:
                return None
    return letters


def _reference_sweep(letters: Letters) -> Letters:
    """Piepho's sweep: letter by letter, a holder loses the letter when it keeps another
    and shares another letter with every other holder of this one."""
    letters = [set(letter) for letter in letters]

    def shared(a: int, b: int) -> int:
        return sum(a in letter and b in letter for letter in letters)

    for letter in letters:
        for i in sorted(letter):
            partners = letter - {i}
            if shared(i, i) > 1 and all(shared(i, p) > 1 for p in partners):
                letter.discard(i)
    return [letter for letter in letters if letter]


def _reference_letter_matrix(sep: np.ndarray, order: list[int]) -> np.ndarray:
    k = len(order)
    best = _reference_runs(sep, order)
    if best is None:
        candidates = [_reference_sweep(_reference_greedy(sep, order))]
        if k <= INSERT_ABSORB_MAX_K:
            for o in (list(range(k)), order):
                letters = _reference_insert_absorb(sep, o)
                if letters is not None:
                    candidates.append(_reference_sweep(letters))
        best = min(candidates, key=len)
    best = sorted(best, key=lambda letter: [a not in letter for a in order])
    return np.array([[a in letter for letter in best] for a in range(k)], dtype=bool)


# ---------------------------------------------------------------- the same letters


def _symmetric(upper: np.ndarray) -> np.ndarray:
    sep = np.triu(upper, 1)
    return sep | sep.T


def _assert_same(sep: np.ndarray, order: list[int]) -> None:
    found = letter_matrix(sep, order)
    expected = _reference_letter_matrix(sep, order)
    assert found.shape == expected.shape
    assert np.array_equal(found, expected)


@given(
    k=st.integers(1, 12),
    seed=st.integers(0, 2**32 - 1),
    density=st.floats(0.0, 1.0),
    shuffled=st.booleans(),
)
def test_letters_equal_the_reference_on_random_matrices(k, seed, density, shuffled):
    rng = np.random.default_rng(seed)
    sep = _symmetric(rng.random((k, k)) < density)
    order = [int(i) for i in rng.permutation(k)] if shuffled else list(range(k))
    _assert_same(sep, order)


@given(
    k=st.integers(2, 24),
    seed=st.integers(0, 2**32 - 1),
    reach=st.floats(0.0, 1.0),
    flips=st.sampled_from([0.0, 0.01, 0.03]),
)
def test_letters_equal_the_reference_on_nearly_linear_matrices(k, seed, reach, flips):
    """A distance on a line, a few pairs flipped: the runs, or a general graph near them."""
    rng = np.random.default_rng(seed)
    x = np.sort(rng.uniform(0.0, 1.0, k))
    sep = _symmetric((np.abs(x[:, None] - x[None, :]) > reach) ^ (rng.random((k, k)) < flips))
    order = [int(i) for i in rng.permutation(k)]
    _assert_same(sep, order)
    _assert_same(sep, list(np.argsort(x)))


def _board(k: int, n: int, seed: int, **options) -> cdplot.Comparison:
    rng = np.random.default_rng(seed)
    table = rng.normal(size=(n, k)) + np.linspace(0.0, 1.5, k)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return cdplot.compare(table, **options)


@pytest.mark.parametrize(
    "options",
    [{"test": "wilcoxon"}, {"test": "nemenyi"}, {"test": "sign"}, {"control": "A1"}],
    ids=["wilcoxon", "nemenyi", "sign", "control"],
)
def test_result_letters_equal_the_reference_on_random_boards(options):
    for seed in range(6):
        res = _board(12 + 2 * seed, 10 + 5 * seed, seed, **options)
        ranked = [str(a) for a in res.average_ranks.index]
        significant = res.significant
        if significant.ndim == 1:  # against the control: only its pairs are separated
            sep = np.zeros((len(ranked), len(ranked)), dtype=bool)
            control = ranked.index(str(res.control))
            for name, differs in significant.items():
                sep[ranked.index(str(name)), control] = bool(differs)
            sep |= sep.T
        else:
            sep = significant.loc[ranked, ranked].to_numpy(dtype=bool)
        expected = _reference_letter_matrix(sep, list(range(len(ranked))))
        names = letter_names(expected.shape[1])
        assert res.letters == {
            a: "".join(s for s, has in zip(names, row, strict=True) if has)
            for a, row in zip(ranked, expected, strict=True)
        }


# ---------------------------------------------------------------- large boards


def _large_board(k: int) -> tuple[np.ndarray, list[int]]:
    """k models on 40 datasets, a trend small against the noise: Wilcoxon with Holm
    separates few pairs, and not as runs (a general graph, not the interval case)."""
    res = _board(k, 40, 0, test="wilcoxon")
    names = [str(a) for a in res.algorithms]
    order = [names.index(str(a)) for a in res.average_ranks.index]
    return np.asarray(res.significant, dtype=bool), order


@pytest.fixture(scope="module")
def board_1000() -> tuple[np.ndarray, list[int]]:
    return _large_board(1000)


def test_letters_of_a_1000_model_board_take_well_under_a_few_seconds(board_1000):
    """The sweep looks at each pair once (it took 20 s here before, the cost growing as
    the letters times their holders squared); the letters keep the defining property."""
    sep, order = board_1000
    start = time.perf_counter()
    matrix = letter_matrix(sep, order)
    assert time.perf_counter() - start < 3.0  # about 0.15 s on an idle core
    shares = matrix.astype(np.float32) @ matrix.T.astype(np.float32) > 0
    together = ~sep
    np.fill_diagonal(together, True)
    assert np.array_equal(shares, together)
    assert matrix[order[0], 0] and matrix.shape[1] > 100  # a general graph: many letters


def test_letters_of_a_large_board_equal_the_reference_letter_for_letter():
    """k = 70 on a board like the 1000-model one (the reference is quadratic per letter)."""
    sep, order = _large_board(70)
    names = [f"m{i}" for i in range(70)]
    expected = _reference_letter_matrix(sep, order)
    assert np.array_equal(letter_matrix(sep, order), expected)
    assert len(compact_letters(sep, names, order)) == 70


def test_pairs_separated_two_by_two_give_insert_and_absorb_up():
    """50 algorithms separated two by two and from nothing else: insert-and-absorb would
    keep 2^25 maximal sets of not-separated algorithms (it ran out of memory, asking for
    tens of GiB); past INSERT_ABSORB_MAX_LETTERS it is given up, and the greedy display
    stands."""
    from cdplot.stats._letters import _greedy_cliques, _sort_columns, _sweep

    k = 50
    sep = np.zeros((k, k), dtype=bool)
    sep[np.arange(0, k, 2), np.arange(1, k, 2)] = True
    sep |= sep.T
    order = list(range(k))
    start = time.perf_counter()
    matrix = letter_matrix(sep, order)
    assert time.perf_counter() - start < 10.0  # about 0.3 s on an idle core
    greedy = _sort_columns(_sweep(_greedy_cliques(sep, order)), order)
    assert np.array_equal(matrix, greedy)
    shares = matrix.astype(np.float32) @ matrix.T.astype(np.float32) > 0
    assert np.array_equal(shares, ~sep)

"""Compact letter display (Piepho 2004) against R's multcompView::multcompLetters.

Reference: tests/reference/letters_r.csv, made by tests/reference/make_letters_r.R
(R 4.2.2, multcompView 0.1.8, ``multcompLetters(m)`` on each matrix).
"""

from __future__ import annotations

import csv
import itertools
import re
import warnings
from pathlib import Path

import numpy as np
import pytest

import cdplot
from cdplot.stats._letters import compact_letters, letter_matrix, letter_names

REFERENCE = Path(__file__).parent / "reference" / "letters_r.csv"


def _cases() -> list[dict[str, object]]:
    with REFERENCE.open() as fh:
        rows = list(csv.DictReader(line for line in fh if not line.startswith("#")))
    cases = []
    for row in rows:
        k = int(row["k"])
        bits = np.array([c == "1" for c in row["separated"]]).reshape(k, k)
        cases.append(
            {
                "case": row["case"],
                "names": row["names"].split("|"),
                "separated": bits,
                "n_letters": int(row["n_letters"]),
                "letters": row["letters"].split("|"),
            }
        )
    return cases


CASES = _cases()


def _assert_defining_property(letters: dict[str, str], names, separated) -> None:
    """Two algorithms share a letter exactly when the pair is not separated."""
    sets = [_split(letters[n]) for n in names]
    assert all(sets), "every algorithm has a letter"
    for i, j in itertools.combinations(range(len(names)), 2):
        share = bool(sets[i] & sets[j])
        assert share == (not separated[i, j]), (names[i], names[j], letters)


def _split(text: str) -> set[str]:
    """Letters of a display string: past z and Z a letter is dots then a character."""
    return set(re.findall(r"\.*[^.]", text))


def test_reference_file_is_complete():
    assert len(CASES) >= 130
    assert {c["case"].split("/")[0] for c in CASES} >= {"benavoli2016", "garcia2008_synthetic"}


@pytest.mark.parametrize("case", CASES, ids=[c["case"] for c in CASES])
def test_letters_never_more_than_multcompletters(case):
    names, sep = case["names"], case["separated"]
    # R's own letters have the defining property (the reference is read correctly)
    _assert_defining_property(dict(zip(names, case["letters"], strict=True)), names, sep)
    letters = compact_letters(sep, names)
    _assert_defining_property(letters, names, sep)
    used = set().union(*(_split(v) for v in letters.values()))
    assert len(used) <= case["n_letters"]  # multcompLetters(m): ncol(LetterMatrix)
    # any display order: still never more letters than R on the input order
    order = np.random.default_rng(len(names)).permutation(len(names))
    again = compact_letters(sep, names, order)
    _assert_defining_property(again, names, sep)
    assert letter_matrix(sep, order).shape[1] <= case["n_letters"]
    assert list(again) == [names[i] for i in order]
    assert "a" in _split(again[names[order[0]]])


def test_interval_shortcut_matches_insert_absorb():
    # "line" matrices (a distance on a line): the maximal runs, as many letters as R gives
    from cdplot.stats._letters import _interval_letters

    lines = [c for c in CASES if c["case"].startswith("line")]
    assert len(lines) == 30
    for case in lines:
        sep = case["separated"]
        k = sep.shape[0]
        # rows are in the line's order (make_letters_r.R sorts x; only the names are shuffled)
        order = list(range(k))
        runs = _interval_letters(sep, order)
        assert runs is not None, case["case"]
        assert runs.shape[1] == case["n_letters"]  # multcompLetters: same count


def testletter_names_follow_multcompletters_past_52():
    # multcompLetters on 60 separated algorithms: a..z, A..Z, .a, .b, ... (letters_r.csv)
    (case,) = [c for c in CASES if c["case"] == "separated60"]
    assert letter_names(60) == case["letters"]


@pytest.mark.parametrize("seed", range(40))
def test_defining_property_on_random_matrices(seed):
    rng = np.random.default_rng(seed)
    k = int(rng.integers(2, 40))
    upper = np.triu(rng.random((k, k)) < rng.uniform(0.05, 0.95), 1)
    sep = upper | upper.T
    names = [f"m{i}" for i in range(k)]
    _assert_defining_property(compact_letters(sep, names), names, sep)


def test_letters_of_every_bundled_table():
    warnings.simplefilter("ignore", cdplot.PoolDependenceWarning)
    for name in cdplot.datasets.names():
        table = cdplot.datasets.load(name)
        if len(table) < 2 or table.index.name != "dataset":  # items or runs: boards only
            continue
        for test in ("nemenyi", "wilcoxon", "sign"):
            res = cdplot.compare(table, test=test)
            letters = res.letters
            assert list(letters) == list(res.average_ranks.index)
            assert letters[res.average_ranks.index[0]].startswith("a")
            sig = res.significant.loc[res.algorithms, res.algorithms].to_numpy(dtype=bool)
            _assert_defining_property(letters, res.algorithms, sig)


def test_letters_with_a_control():
    table = cdplot.datasets.load("garcia2008_synthetic")
    res = cdplot.compare(table, test="wilcoxon", control="Kernel")
    letters = res.letters
    for other in res.algorithms:
        if other != "Kernel":
            share = bool(_split(letters[other]) & _split(letters["Kernel"]))
            assert share == (not bool(res.significant[other]))


def test_bad_matrix_is_refused():
    with pytest.raises(cdplot.CdplotInputError, match="square"):
        letter_matrix(np.zeros((2, 3), dtype=bool))
    with pytest.raises(cdplot.CdplotInputError, match="one name per row"):
        compact_letters(np.zeros((2, 2), dtype=bool), ["a"])


def test_large_boards_use_the_greedy_cover_fast():
    """Beyond INSERT_ABSORB_MAX_K: the greedy cover with the sweep, property intact."""
    import time

    from cdplot.stats._letters import INSERT_ABSORB_MAX_K

    rng = np.random.default_rng(150)
    k = 150
    assert k > INSERT_ABSORB_MAX_K
    x = np.sort(rng.uniform(0, k, k))
    sep = np.abs(x[:, None] - x[None, :]) > 20
    flips = np.triu(rng.random((k, k)) < 0.03, 1)
    sep ^= flips | flips.T  # not a line: no interval shortcut
    names = [f"m{i}" for i in range(k)]
    start = time.perf_counter()
    letters = compact_letters(sep, names)
    assert time.perf_counter() - start < 20
    _assert_defining_property(letters, names, sep)


def test_fewer_letters_than_multcompletters_on_a_100_model_leaderboard():
    """k = 100, Wilcoxon-Holm (letters_large_r.csv: multcompLetters gives 125 letters)."""
    path = REFERENCE.parent / "letters_large_r.csv"
    with path.open() as fh:
        (row,) = list(csv.DictReader(line for line in fh if not line.startswith("#")))
    k = int(row["k"])
    sep = np.array([c == "1" for c in row["separated"]]).reshape(k, k)
    names = row["names"].split("|")
    letters = compact_letters(sep, names)
    _assert_defining_property(letters, names, sep)
    used = set().union(*(_split(v) for v in letters.values()))
    assert len(used) <= int(row["n_letters"]) == 125


# --------------------------------------------------------------------------- numbered tiers


def test_tiers_run_from_each_first_row_to_the_first_separated_one():
    from cdplot.stats._letters import tiers

    rng = np.random.default_rng(11)
    for _ in range(200):
        k = int(rng.integers(2, 30))
        sep = np.triu(rng.random((k, k)) < rng.uniform(0.05, 0.8), 1)
        sep = sep | sep.T
        order = [int(i) for i in rng.permutation(k)]
        found = tiers(sep, order)
        assert found[0] == 1
        assert all(b - a in (0, 1) for a, b in zip(found, found[1:], strict=False))
        first: dict[int, int] = {}
        for i, t in zip(order, found, strict=True):
            first.setdefault(t, i)
            assert i == first[t] or not sep[i, first[t]]  # not separated from its first
        for t in range(2, found[-1] + 1):
            assert sep[first[t], first[t - 1]]  # each tier starts at a separated one


def test_result_tiers_follow_the_order_given():
    from cdplot.stats._letters import result_tiers

    res = cdplot.compare(cdplot.datasets.load("garcia2008_synthetic"), control="Kernel")
    ranked = list(res.average_ranks.index)
    assert list(result_tiers(res)) == ranked
    assert result_tiers(res, ranked[::-1])[ranked[-1]] == 1
    with pytest.raises(cdplot.CdplotInputError, match="each of the 5 algorithms once"):
        result_tiers(res, ranked[:3])


def test_letters_are_computed_once_per_result():
    res = cdplot.compare(cdplot.datasets.load("benavoli2016"), test="wilcoxon")
    first = res.letters
    first["x"] = "changed"  # a copy: the result's letters do not change
    assert (
        "x" not in res.letters
        and res.letters
        == cdplot.compare(cdplot.datasets.load("benavoli2016"), test="wilcoxon").letters
    )

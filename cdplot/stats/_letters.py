"""Compact letter display of all-pairwise comparisons (Piepho 2004).

Two algorithms share a letter exactly when the test does not separate them. The letters
come from Piepho's insert-and-absorb algorithm ("An algorithm for a letter-based
representation of all-pairwise comparisons", *J. Comput. Graph. Stat.* 13(2), 2004),
followed by his sweep step, which deletes letters that no non-separated pair needs.
Insert-and-absorb is what R's ``multcompView::multcompLetters`` runs; its number of
letters depends on the order in which the separated pairs are inserted, so the pairs are
inserted in two orders (R's order over the input, and over the average-rank order) and
the display with fewer letters is kept: never more letters than ``multcompLetters`` gives
on the same matrix in either order. (On its way, insert-and-absorb keeps every maximal set
of algorithms not separated by the pairs inserted so far: up to 2^(k/2) of them, when the
algorithms are separated two by two; an order is given up past
``INSERT_ABSORB_MAX_LETTERS`` letters, and the bound holds for the orders kept.)

When the not-separated pairs form runs of the display order, the maximal runs are the
letters (found in one pass; no display has fewer). Otherwise greedy cliques followed by
the sweep are a candidate at every k, and the only one beyond ``INSERT_ABSORB_MAX_K``
algorithms; the sweep looks at each pair once, at the last letter it shares, so their
cost grows with the letters and the pairs, not as k^3 (k = 1,000: a fraction of a second).
"""

from __future__ import annotations

import string
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from .._errors import CdplotInputError

if TYPE_CHECKING:  # pragma: no cover
    from ._results import Comparison, ComparisonResult

__all__ = [
    "SINGLE_LETTERS",
    "compact_letters",
    "letter_matrix",
    "letter_names",
    "result_letters",
    "result_tiers",
    "separated_pairs",
    "tiers",
]

#: Up to this many algorithms insert-and-absorb runs too (in two orders) and the display
#: with the fewest letters is kept; beyond, its columns multiply (k = 200: 1,400 before the
#: sweep; on a general graph they can grow exponentially) and the greedy cover alone is
#: used.
INSERT_ABSORB_MAX_K = 60
#: Insert-and-absorb keeps every maximal set of not-separated algorithms of the pairs
#: inserted so far, as many as 2^(k/2) (pairs separated two by two, and nothing else);
#: an order whose letters grow past this many is given up (its display is not a
#: candidate), which bounds its time to about a second.
INSERT_ABSORB_MAX_LETTERS = 2000
#: The alphabet of multcompLetters: a-z, A-Z, then "." to prefix a second alphabet.
_ALPHABET = tuple(string.ascii_lowercase + string.ascii_uppercase + ".")
#: The one-character letters, in order: ``letter_names(n) == SINGLE_LETTERS[:n]`` for
#: ``n <= 52`` (a display needing more letters names them ".a", ".b", ...).
SINGLE_LETTERS = _ALPHABET[:-1]


def _absorb(columns: list[int], changed: Sequence[int]) -> list[int]:
    """Drop the changed columns that lie inside another column (Piepho's absorb step).

    A column is a Python integer (bit i: algorithm i); the changed ones are looked at in
    the order given, the last first. The columns that did not change contain no other
    column (the invariant of the algorithm), so only the changed ones are checked; of two
    equal columns one stays.
    """
    keep = [True] * len(columns)
    for c in changed:
        column = columns[c]
        for d, other in enumerate(columns):
            if column | other == other and d != c and keep[d]:
                keep[c] = False
                break
    return [column for column, kept in zip(columns, keep, strict=True) if kept]


def _insert_absorb(separated: np.ndarray, order: Sequence[int]) -> np.ndarray | None:
    """Letter matrix (rows = algorithms, columns = letters) by insert-and-absorb.

    The separated pairs are inserted in R's order: the lower triangle of the matrix
    permuted to ``order``, column by column. A letter is a Python integer (bit i:
    algorithm i), so a split and the test of one letter inside another are a few
    operations on machine words. None when the letters grow past
    :data:`INSERT_ABSORB_MAX_LETTERS`.
    """
    k = separated.shape[0]
    order = list(order)
    columns = [(1 << k) - 1]
    later, earlier = np.nonzero(np.tril(separated[np.ix_(order, order)], -1).T)
    for jpos, ipos in zip(later.tolist(), earlier.tolist(), strict=True):
        i, j = order[ipos], order[jpos]
        pair = (1 << i) | (1 << j)
        both = [c for c, column in enumerate(columns) if column & pair == pair]
        if not both:
            continue
        first_new = len(columns)
        columns += [columns[c] & ~(1 << j) for c in both]  # the copies lose one of the pair...
        for c in both:
            columns[c] &= ~(1 << i)  # ...and the originals the other
        changed = [*range(len(columns) - 1, first_new - 1, -1), *reversed(both)]
        columns = _absorb(columns, changed)
        if len(columns) > INSERT_ABSORB_MAX_LETTERS:
            return None
    held = [[bool(column >> i & 1) for column in columns] for i in range(k)]
    return np.array(held, dtype=bool).reshape(k, len(columns))


def _interval_letters(separated: np.ndarray, order: Sequence[int]) -> np.ndarray | None:
    """The maximal runs of not-separated algorithms, when they say everything; else None.

    When, in ``order``, each algorithm is not separated from exactly a run of neighbours
    and the runs' ends never move backwards (a test that separates by a distance on a
    line, such as a difference of average ranks), the graph of not-separated pairs is a
    proper interval graph: its maximal cliques are the runs ``[a, end(a)]`` where the
    end moves on, each holds a pair no other holds, so no display has fewer letters.
    Linear in the number of pairs, which keeps k = 1,000 fast.
    """
    together = ~separated[np.ix_(order, order)]
    np.fill_diagonal(together, True)
    first = together.argmax(axis=1)
    last = together.shape[1] - 1 - together[:, ::-1].argmax(axis=1)
    contiguous = np.array_equal(together.sum(axis=1), last - first + 1)
    if not (contiguous and np.all(np.diff(first) >= 0) and np.all(np.diff(last) >= 0)):
        return None
    starts = [a for a in range(len(order)) if a == 0 or last[a - 1] < last[a]]
    runs = np.zeros((len(order), len(starts)), dtype=bool)
    for c, a in enumerate(starts):
        runs[a : last[a] + 1, c] = True
    columns = np.empty_like(runs)
    columns[list(order)] = runs
    return columns


def _row_bits(matrix: np.ndarray) -> list[int]:
    """Each row of a boolean matrix as a Python integer: bit c set where column c is True."""
    packed = np.packbits(matrix, axis=1, bitorder="little")
    return [int.from_bytes(row.tobytes(), "little") for row in packed]


def _greedy_cliques(separated: np.ndarray, order: Sequence[int]) -> np.ndarray:
    """A letter for each clique grown greedily from a pair that no letter covers yet.

    In display order: for algorithm i and the first j not separated from it with whom it
    shares no letter yet, a new letter holds i, j and then every algorithm (in display
    order) not separated from all those already in. An algorithm separated from all others
    gets a letter of its own.

    Sets of display positions are Python integers (bit p: ``order[p]``). A clique is all
    positions but those separated from a member, so growing it visits only the positions
    separated from someone (an algorithm separated from none joins every clique); what
    an algorithm already shares is the union of the letters holding it, kept packed.
    """
    k = len(order)
    apart = _row_bits(separated[np.ix_(order, order)])
    linked = [p for p in range(k) if apart[p]]
    everyone = (1 << k) - 1
    width = (k + 7) // 8
    packed = np.zeros((max(k, 8), width), dtype=np.uint8)  # the letters' positions
    count = 0
    for p in range(k):
        holds = (packed[:count, p >> 3] >> (p & 7)) & 1 == 1
        shared = np.bitwise_or.reduce(packed[:count][holds], axis=0)
        pending = everyone & ~apart[p] & ~int.from_bytes(shared.tobytes(), "little")
        pending &= ~(1 << p)
        new = [] if pending or holds.any() else [1 << p]
        while pending:
            q = (pending & -pending).bit_length() - 1  # first position p shares nothing with
            excluded = apart[p] | apart[q]
            for v in linked:
                if v != p and v != q and not (excluded >> v) & 1:
                    excluded |= apart[v]
            new.append(everyone & ~excluded)
            pending &= excluded
        for members in new:
            if count == packed.shape[0]:
                packed = np.concatenate([packed, np.zeros_like(packed)])
            packed[count] = np.frombuffer(members.to_bytes(width, "little"), dtype=np.uint8)
            count += 1
    by_position = np.unpackbits(packed[:count], axis=1, count=k, bitorder="little")
    columns = np.empty((k, count), dtype=bool)
    columns[list(order)] = by_position.T.astype(bool)
    return columns


def _letter_words(columns: np.ndarray) -> np.ndarray:
    """Each row's letters as 64-bit words: letter c is bit ``c % 64`` of word ``c // 64``."""
    k, m = columns.shape
    packed = np.zeros((k, 8 * max(1, -(-m // 64))), dtype=np.uint8)
    packed[:, : (m + 7) // 8] = np.packbits(columns, axis=1, bitorder="little")
    return packed.view("<u8")


def _highest_bit(words: np.ndarray) -> np.ndarray:
    """The index of the highest set bit of each nonzero 64-bit word.

    The float nearest a word has its highest bit's exponent or, rounded up to the next
    power of two, one more; the shift tells which.
    """
    exponent = np.frexp(words.astype(np.float64))[1].astype(np.uint64) - np.uint64(1)
    return (exponent - ((words >> exponent) == 0)).astype(np.int64)


def _last_letters(columns: np.ndarray) -> np.ndarray:
    """The last letter of each row (-1 for a row without letters)."""
    last = np.full(columns.shape[0], -1, dtype=np.int64)
    words = _letter_words(columns)
    for w in range(words.shape[1]):
        hit = np.flatnonzero(words[:, w])
        last[hit] = 64 * w + _highest_bit(words[hit, w])
    return last


def _last_shared_letters(columns: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Pairs of rows (i < j) sharing a letter and the last letter they share.

    Returns the rows i, the rows j and the letters, ordered by letter. The words are read
    from the last one down, and a pair is set aside at the first word it shares.
    """
    words = _letter_words(columns)
    firsts, seconds = np.triu_indices(words.shape[0], 1)
    found: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
    for w in range(words.shape[1] - 1, -1, -1):
        shared = words[firsts, w] & words[seconds, w]
        hit = shared != 0
        found.append((firsts[hit], seconds[hit], 64 * w + _highest_bit(shared[hit])))
        firsts, seconds = firsts[~hit], seconds[~hit]
    letter = np.concatenate([f[2] for f in found])
    key = letter.astype(np.uint16) if columns.shape[1] <= 1 << 16 else letter
    by_letter = np.argsort(key, kind="stable")  # of 16-bit keys: a radix sort
    return (
        np.concatenate([f[0] for f in found])[by_letter],
        np.concatenate([f[1] for f in found])[by_letter],
        letter[by_letter],
    )


def _sweep(columns: np.ndarray) -> np.ndarray:
    """Delete every letter that no non-separated pair needs (Piepho's sweep step).

    Letter by letter, a holder i of the letter loses it when i keeps another letter and
    shares another letter with every other holder (all not separated from i). Each
    deletion leaves the others' tests unchanged, so the holders that keep a letter are
    those that need it when it is reached: the pairs whose last shared letter (of the
    letters as they were) it is and that no kept earlier letter holds, and the
    algorithms whose last letter it is and that hold no kept earlier letter. Each pair
    is looked at once, at its last shared letter.
    """
    k, m = columns.shape
    firsts, seconds, pair_letter = _last_shared_letters(columns)
    pair_bounds = np.searchsorted(pair_letter, np.arange(m + 1))
    own_last = _last_letters(columns)
    owners = np.argsort(own_last, kind="stable")
    own_bounds = np.searchsorted(own_last[owners], np.arange(m + 1))
    kept_words = np.zeros((k, -(-m // 64)), dtype=np.uint64)  # the kept letters of each row
    lettered = np.zeros(k, dtype=bool)  # rows holding a kept letter
    kept: list[np.ndarray] = []
    for c in range(m):
        used = len(kept) // 64 + 1
        i = firsts[pair_bounds[c] : pair_bounds[c + 1]]
        j = seconds[pair_bounds[c] : pair_bounds[c + 1]]
        needed = ~(kept_words[i, :used] & kept_words[j, :used]).any(axis=1)
        alone = owners[own_bounds[c] : own_bounds[c + 1]]
        alone = alone[~lettered[alone]]
        if not (alone.size or needed.any()):
            continue
        column = np.zeros(k, dtype=bool)
        column[i[needed]] = column[j[needed]] = column[alone] = True
        kept_words[column, len(kept) // 64] |= np.uint64(1 << (len(kept) % 64))
        lettered |= column
        kept.append(column)
    return np.column_stack(kept) if kept else np.zeros((k, 0), dtype=bool)


def letter_names(n: int, alphabet: Sequence[str] = _ALPHABET) -> list[str]:
    """``n`` letter names in multcompLetters' scheme: a..z, A..Z, then .a, .b, ..."""
    if n < len(alphabet):
        return list(alphabet[:n])
    last = alphabet[-1]
    longer = [last + a for a in alphabet[:-1]] + [last]
    return list(alphabet[:-1]) + letter_names(n - len(alphabet) + 1, longer)


def _sort_columns(columns: np.ndarray, order: Sequence[int]) -> np.ndarray:
    """Columns ordered by the first algorithm (in ``order``) that holds them, then the next."""
    ranked = columns[list(order)]
    return columns[:, np.lexsort(~ranked[::-1])]  # stable; the last key is the first one


def letter_matrix(separated: np.ndarray, order: Sequence[int] | None = None) -> np.ndarray:
    """Boolean letter matrix of a symmetric k x k matrix of separated pairs.

    Parameters
    ----------
    separated : numpy.ndarray
        k x k booleans, True where the test separates the pair (diagonal ignored).
    order : sequence of int, optional
        Display order (best first); the first letter goes to ``order[0]``. Default: the
        input order.

    Returns
    -------
    numpy.ndarray
        k x m booleans: row i holds the letters of algorithm i, columns in letter order.
        Rows i and j share a column exactly when ``separated[i, j]`` is False.

    Examples
    --------
    >>> import numpy as np
    >>> sep = np.array([[0, 0, 1], [0, 0, 0], [1, 0, 0]], dtype=bool)
    >>> letter_matrix(sep).astype(int).tolist()
    [[1, 0], [1, 1], [0, 1]]
    """
    sep = np.asarray(separated, dtype=bool)
    if sep.ndim != 2 or sep.shape[0] != sep.shape[1]:
        raise CdplotInputError(
            f"separated must be a square k x k matrix, got shape {sep.shape}; pass the "
            "result's `significant` table (all pairs, not a comparison with a control)."
        )
    sep = sep | sep.T
    np.fill_diagonal(sep, False)
    k = sep.shape[0]
    display = list(range(k)) if order is None else [int(i) for i in order]
    if sorted(display) != list(range(k)):
        raise CdplotInputError(f"order must be a permutation of 0..{k - 1}; got {display}.")
    if k == 0:
        return np.ones((0, 1), dtype=bool)
    best = _interval_letters(sep, display)
    if best is None:
        candidates = [_sweep(_greedy_cliques(sep, display))]
        if k <= INSERT_ABSORB_MAX_K:
            orders = (list(range(k)), display)
            found = (_insert_absorb(sep, o) for o in orders)
            candidates += [_sweep(columns) for columns in found if columns is not None]
        best = min(candidates, key=lambda m: m.shape[1])
    return _sort_columns(best, display)


def compact_letters(
    separated: np.ndarray, names: Sequence[str], order: Sequence[int] | None = None
) -> dict[str, str]:
    """Letters of each algorithm: two share a letter exactly when not separated.

    Parameters
    ----------
    separated : numpy.ndarray
        k x k booleans, True where the test separates the pair.
    names : sequence of str
        The k algorithm names, in the rows' order.
    order : sequence of int, optional
        Display order, best first: the best algorithm gets ``"a"``.

    Returns
    -------
    dict of str to str
        Algorithm -> its letters (e.g. ``"ab"``), in display order.

    Examples
    --------
    >>> import numpy as np
    >>> sep = np.array([[0, 0, 1], [0, 0, 0], [1, 0, 0]], dtype=bool)
    >>> compact_letters(sep, ["x", "y", "z"])
    {'x': 'a', 'y': 'ab', 'z': 'b'}
    """
    matrix = letter_matrix(separated, order)
    if len(names) != matrix.shape[0]:
        raise CdplotInputError(
            f"{len(names)} names for a {matrix.shape[0]} x {matrix.shape[0]} matrix; pass "
            "one name per row."
        )
    symbols = letter_names(matrix.shape[1])
    display = range(len(names)) if order is None else order
    return {
        str(names[i]): "".join(s for s, has in zip(symbols, matrix[i], strict=True) if has)
        for i in display
    }


def separated_pairs(result: Comparison) -> tuple[list[str], np.ndarray]:
    """The algorithms best average rank first and the k x k pairs the result separates.

    Against a control only the pairs with the control are tested; an untested pair is not
    separated.
    """
    values = np.asarray(result._pairwise.significant, dtype=bool)
    ranked = [str(n) for n in result._ranking.rank_order]
    names = [str(n) for n in result.algorithms]
    if values.ndim == 1:
        k = len(ranked)
        control = ranked.index(str(result.control))
        others = [n for n in names if n != str(result.control)]
        differs = dict(zip(others, values.tolist(), strict=True))
        sep = np.zeros((k, k), dtype=bool)
        for i, name in enumerate(ranked):
            if differs.get(name, False):
                sep[i, control] = sep[control, i] = True
        return ranked, sep
    index = [names.index(n) for n in ranked]
    sep = values[np.ix_(index, index)]
    return ranked, sep | sep.T


def result_letters(result: Comparison) -> dict[str, str]:
    """Compact letter display of a comparison (see :attr:`ComparisonResult.letters`).

    Computed afresh (seconds at k = 300); ``result.letters`` keeps it on the result.
    """
    values = np.asarray(result._pairwise.significant, dtype=bool)
    if values.ndim == 1:  # against a control: the pairs in average-rank order
        ranked, sep = separated_pairs(result)
        return compact_letters(sep, ranked, range(len(ranked)))
    ranked = [str(n) for n in result._ranking.rank_order]
    names = [str(n) for n in result.algorithms]
    return compact_letters(values, names, [names.index(n) for n in ranked])


def tiers(separated: np.ndarray, order: Sequence[int]) -> list[int]:
    """Numbered tiers in display order: a tier runs from its first algorithm down to the
    last one before the first algorithm separated from that first one.

    So every algorithm of a tier is not separated from the tier's first (best-placed)
    algorithm, and the first algorithm of the next tier is. One number per algorithm,
    readable at any k (a compact letter display, exact for every pair, needs hundreds of
    letters on a 300-algorithm Wilcoxon board).

    Parameters
    ----------
    separated : numpy.ndarray
        k x k booleans, True where the test separates the pair (made symmetric).
    order : sequence of int
        Display order, best first.

    Returns
    -------
    list of int
        The tier (1 = best) of ``order[0]``, ``order[1]``, ...

    Examples
    --------
    >>> import numpy as np
    >>> sep = np.array([[0, 0, 1, 1], [0, 0, 0, 1], [1, 0, 0, 0], [1, 1, 0, 0]], dtype=bool)
    >>> tiers(sep, [0, 1, 2, 3])
    [1, 1, 2, 2]
    """
    sep = np.asarray(separated, dtype=bool)
    sep = sep | sep.T
    out: list[int] = []
    leader, tier = None, 0
    for i in order:
        if leader is None or sep[leader, i]:
            leader, tier = i, tier + 1
        out.append(tier)
    return out


def result_tiers(result: ComparisonResult, order: Sequence[str] | None = None) -> dict[str, int]:
    """The tiers (:func:`tiers`) of a comparison's algorithms in ``order`` (default: best
    average rank first)."""
    ranked, sep = separated_pairs(result)
    names = ranked if order is None else [str(a) for a in order]
    if sorted(names) != sorted(ranked):
        raise CdplotInputError(
            f"order must hold each of the {len(ranked)} algorithms once; got {len(names)} names."
        )
    position = {a: i for i, a in enumerate(ranked)}
    found = tiers(sep, [position[a] for a in names])
    return dict(zip(names, found, strict=True))

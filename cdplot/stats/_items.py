"""Item-level analysis: paired tests within each task, and a hierarchical rank bootstrap.

Both read the per-task items x models matrices that :func:`cdplot.compare` keeps in
``res.items`` when its input has an item column (see :class:`cdplot.io.ItemScores`).

- :func:`item_tests`: every pair of models on every task, on the items both have: McNemar's
  test for 0/1 scores (exact binomial below ``exact_below`` discordant items, else the
  continuity-corrected chi-square, as R's ``mcnemar.test``), a paired t-test (R's
  ``t.test(paired = TRUE)``) or a sign-flip permutation test for continuous scores; the
  p-values of all pairs on all tasks adjusted together as one family.
- :func:`hierarchical_rank_intervals`: percentile intervals of each model's average rank
  when the tasks are resampled and, within each drawn task, its items.
"""

from __future__ import annotations

import itertools
import math
import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np

from .._errors import CdplotInputError, CdplotWarning, check_in_list, spell
from ._adjust import adjust_control
from ._benchmark_pairs import bootstrap_counts
from ._onedataset import paired_t
from ._options import check_alpha, check_confidence

__all__ = [
    "ITEM_TEST_METHODS",
    "MAX_HIERARCHICAL_CELLS",
    "MAX_RESAMPLES",
    "MAX_SIGN_FLIPS_PER_PAIR",
    "hierarchical_bounds",
    "hierarchical_rank_intervals",
    "item_tests",
    "item_wins",
]

#: values of ``item_tests(method=...)``
ITEM_TEST_METHODS = ("auto", "paired-t", "permutation")
_FAMILY_CORRECTIONS = ("none", "bonferroni", "holm", "hochberg", "hommel", "finner")
#: sign-flip permutation tests enumerate every sign pattern up to this many nonzero differences
_EXACT_FLIPS = 16
#: the most random sign patterns of one permutation test (as ``simulate``'s
#: ``MAX_REPLICATES``): its p-values then resolve 1 / (B + 1) = 1e-7, finer than any
#: correction of the p-values of all pairs on all tasks needs
MAX_RESAMPLES = 10_000_000
#: the most random signs (patterns x nonzero differences) one pair's test draws: about two
#: minutes of work; a larger test is refused before anything runs
MAX_SIGN_FLIPS_PER_PAIR = 2_000_000_000
#: random signs drawn at once (8 MB): the memory of a permutation test, whatever its size
_FLIP_CHUNK_CELLS = 1 << 20
#: the most (replicate x task), (replicate x model) and (drawn task x item) cells of the
#: hierarchical bootstrap held at once: about 1 GB (measured: 16 to 33 bytes a cell)
MAX_HIERARCHICAL_CELLS = 30_000_000
#: cells (replicate x (model x model + task x model + item)) of one chunk of the hierarchical
#: bootstrap-t: 8 MB a float64 array, about six such arrays at once
_STUDENT_CHUNK_CELLS = 1 << 20
#: items from which the hierarchical bootstrap counts its draws row by row
_ROW_COUNT_ITEMS = 4096


def _check_count(value: Any, option: str, least: int, most: int, why: str) -> int:
    """An integer in ``[least, most]``; bools, floats and strings are refused."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < least:
        raise CdplotInputError(f"{spell(option)} must be an integer >= {least}, got {value!r}.")
    if value > most:
        raise CdplotInputError(
            f"{spell(option)}={int(value):,} exceeds the bound of {most:,}: {why}"
        )
    return int(value)


def _generator(random_state: Any) -> np.random.Generator:
    """A numpy Generator from None, a non-negative integer seed, a SeedSequence or a
    Generator (used as it is); anything else is refused."""
    if random_state is None or isinstance(random_state, np.random.SeedSequence):
        return np.random.default_rng(random_state)
    if isinstance(random_state, np.random.Generator):
        return random_state
    if isinstance(random_state, (int, np.integer)) and not isinstance(random_state, bool):
        if random_state < 0:
            raise CdplotInputError(f"{spell('random_state')} must be >= 0, got {random_state}.")
        return np.random.default_rng(int(random_state))
    raise CdplotInputError(
        f"{spell('random_state')} must be None, a non-negative integer seed, a numpy "
        f"SeedSequence or Generator, got {type(random_state).__name__} ({random_state!r})."
    )


class _TaskMatrices(Sequence):
    """Each task's float items x models matrix, made when it is read (one task at a time:
    the items keep 0/1 scores in one byte each)."""

    def __init__(self, items: Any, tasks: list[str], models: list[str]) -> None:
        self._items, self._models = items, models
        self._positions = [items.tasks.index(t) for t in tasks]
        self.sizes = [int(items.n_items[p]) for p in self._positions]

    def __len__(self) -> int:
        return len(self._positions)

    def __getitem__(self, t: Any) -> Any:
        if isinstance(t, slice):
            return [self[i] for i in range(*t.indices(len(self)))]
        return self._items.matrix(self._positions[t], self._models)


def _matrices(data: Any) -> tuple[list[str], list[str], _TaskMatrices, bool]:
    """Tasks, models, item matrices (restricted to the result's tasks and models), direction."""
    from ..io import ItemScores

    higher = True
    items: Any
    if isinstance(data, ItemScores):
        items = data
        tasks, models = list(items.tasks), list(items.models)
    else:
        items = getattr(data, "items", None)
        if not isinstance(items, ItemScores):
            raise CdplotInputError(
                "item-level analysis needs per-item scores: pass the result of "
                "cdplot.compare() on a table with an item column (item, doc_id, question_id, "
                f"...; name it with {spell('item', 'COLUMN')}), or its .items."
            )
        tasks, models, higher = list(data.datasets), list(data.algorithms), data.higher_is_better
    return tasks, models, _TaskMatrices(items, tasks, models), bool(higher)


def _is_binary(x: np.ndarray) -> bool:
    present = x[~np.isnan(x)]
    return bool(present.size) and bool(np.all((present == 0) | (present == 1)))


def _sign_flip(d: np.ndarray, n_resamples: int, rng: np.random.Generator) -> tuple[float, float]:
    """Two-sided sign-flip permutation p-value of the mean difference (exact when small)."""
    d = d[d != 0]
    n = d.size
    if n == 0:
        return 0.0, 1.0
    observed = abs(d.sum())
    if n <= _EXACT_FLIPS:
        signs = 1 - 2 * ((np.arange(2**n)[:, None] >> np.arange(n)) & 1)
        sums = np.abs(signs @ d)
        return float(d.mean()), float(np.mean(sums >= observed * (1 - 1e-12)))
    hits = 0
    rows = max(1, _FLIP_CHUNK_CELLS // n)  # random signs in chunks: bounded memory
    for start in range(0, n_resamples, rows):
        signs = rng.choice(np.array([-1.0, 1.0]), size=(min(rows, n_resamples - start), n))
        hits += int(np.sum(np.abs(signs @ d) >= observed * (1 - 1e-12)))
    return float(d.mean()), (1 + hits) / (1 + n_resamples)


def _check_permutation_work(mats: Sequence[np.ndarray], n_resamples: int) -> None:
    """Refuse, before anything runs, a permutation test whose pairs draw too many signs."""
    most = 0
    for mat in mats:
        if mat.size and not _is_binary(mat):
            present = (~np.isnan(mat)).astype(float)
            both = present.T @ present
            np.fill_diagonal(both, 0.0)
            most = max(most, int(both.max()))
    if most > _EXACT_FLIPS and n_resamples * most > MAX_SIGN_FLIPS_PER_PAIR:
        fewer = MAX_SIGN_FLIPS_PER_PAIR // most
        raise CdplotInputError(
            f"n_resamples={n_resamples:,} random sign patterns of up to {most:,} items per "
            f"pair make {n_resamples * most:,} random signs for one pair, beyond the bound "
            f"of {MAX_SIGN_FLIPS_PER_PAIR:,} (about two minutes of work per pair); use at "
            f"most n_resamples={fewer:,}, or method='paired-t'."
        )


def _pair_test(
    x: np.ndarray, y: np.ndarray, method: str, options: dict
) -> tuple[str, float, float]:
    """(test name, statistic, p-value) of two continuous models on the items both have."""
    if method == "permutation":
        stat, p = _sign_flip(x - y, options["n_resamples"], options["rng"])
        return "sign-flip permutation", stat, p
    d = x - y
    if np.all(d == d[0]):
        return "paired t (constant differences)", math.nan, 1.0 if d[0] == 0 else 0.0
    res = paired_t(x, y)
    return "paired t", float(res.statistic), float(res.pvalue)


def item_tests(
    data: Any,
    *,
    method: str = "auto",
    correction: str = "holm",
    alpha: float | None = None,
    exact_below: int = 25,
    n_resamples: int = 9999,
    random_state: int | None = None,
) -> Any:
    """Paired tests of every pair of models within every task, on the items both have.

    Parameters
    ----------
    data : ComparisonResult or cdplot.io.ItemScores
        A result of :func:`cdplot.compare` on item-level input (its ``items``), or the items.
    method : {"auto", "paired-t", "permutation"}
        "auto": McNemar's test on a task whose scores are all 0 or 1, else the paired t-test;
        "paired-t": the paired t-test on every task; "permutation": the two-sided sign-flip
        permutation test of the mean difference on continuous tasks (exact up to 16 nonzero
        differences, else ``n_resamples`` random sign patterns, p = (1 + hits) / (1 + B)),
        McNemar's on 0/1 tasks.
    correction : {"holm", "none", "bonferroni", "hochberg", "hommel", "finner"}
        Adjustment of the p-values of all pairs on all tasks, one family.
    alpha : float, optional
        Significance level; default the result's ``alpha`` (0.05 for bare items).
    exact_below : int, default 25
        McNemar's exact binomial test when fewer items than this are discordant (b + c),
        else the continuity-corrected chi-square (R's ``mcnemar.test``).
    n_resamples : int, default 9999
        Random sign patterns of the permutation test above 16 nonzero differences, at most
        :data:`MAX_RESAMPLES` (10,000,000), and at most :data:`MAX_SIGN_FLIPS_PER_PAIR`
        (2e9) random signs (patterns x items) for one pair; drawn in chunks of about a
        million signs, so memory stays bounded.
    random_state : int, numpy.random.SeedSequence or numpy.random.Generator, optional
        Seed of those patterns.

    Returns
    -------
    pandas.DataFrame
        One row per task and pair: ``task``, ``algorithm_1``, ``algorithm_2``, ``n_items``
        (items both have), ``mean_1``, ``mean_2``, ``test``, ``statistic``, ``pvalue``,
        ``adjusted_pvalue``, ``significant`` and ``better`` (the model with the better mean
        when significant, else ``""``). ``attrs`` hold ``alpha`` and ``correction``.

    Raises
    ------
    CdplotInputError
        For a parameter of the wrong type or out of range (named in the message), and for
        a permutation test beyond the bounds above, before anything runs.

    Examples
    --------
    >>> import pandas as pd, cdplot
    >>> rows = pd.DataFrame({"task": ["t"] * 60, "model": ["A", "B"] * 30,
    ...     "doc_id": [i // 2 for i in range(60)], "acc": [1, 0] * 20 + [1, 1] * 10})
    >>> tab = item_tests(cdplot.io.prepare_input(rows).items)
    >>> tab.loc[0, ["test", "better"]].tolist()
    ['McNemar exact', 'A']
    """
    method = check_in_list(ITEM_TEST_METHODS, method=method)
    correction = check_in_list(_FAMILY_CORRECTIONS, correction=correction)
    alpha = check_alpha(getattr(data, "alpha", 0.05) if alpha is None else alpha)
    exact_below = _check_count(exact_below, "exact_below", 0, 2**62, "")
    n_resamples = _check_count(
        n_resamples,
        "n_resamples",
        1,
        MAX_RESAMPLES,
        "a permutation p-value resolves 1 / (n_resamples + 1), and 1e-7 is finer than any "
        "correction of these tests needs; for more, run several seeds and pool the hits.",
    )
    rng = _generator(random_state)
    tasks, models, mats, higher = _matrices(data)
    if method == "permutation":
        _check_permutation_work(mats, n_resamples)
    options = {"n_resamples": n_resamples, "rng": rng}
    parts: list[dict[str, np.ndarray]] = []
    for task, mat in zip(tasks, mats, strict=True):
        if method != "paired-t" and _is_binary(mat):
            parts.append(_binary_task(task, mat, models, exact_below))
            continue
        rows = []
        for i, j in itertools.combinations(range(len(models)), 2):
            both = ~np.isnan(mat[:, i]) & ~np.isnan(mat[:, j])
            x, y = mat[both, i], mat[both, j]
            if x.size < 2:
                name, stat, p = "too few common items", math.nan, math.nan
            else:
                name, stat, p = _pair_test(x, y, method, options)
            rows.append(
                (task, models[i], models[j], int(x.size), _mean(x), _mean(y), name, stat, p)
            )
        parts.append(_row_columns(rows))
    return _tests_frame(parts, correction, alpha, higher)


#: the columns of the table of :func:`item_tests` before the adjustment, and their dtypes
_TEST_COLUMNS = {
    "task": object,
    "algorithm_1": object,
    "algorithm_2": object,
    "n_items": np.int64,
    "mean_1": float,
    "mean_2": float,
    "test": object,
    "statistic": float,
    "pvalue": float,
}


def _row_columns(rows: list[tuple]) -> dict[str, np.ndarray]:
    """One task's rows of tests as columns."""
    columns = zip(*rows, strict=True) if rows else [()] * len(_TEST_COLUMNS)
    return {
        name: np.array(list(values), dtype=dtype)
        for (name, dtype), values in zip(_TEST_COLUMNS.items(), columns, strict=True)
    }


def _binary_task(
    task: str, mat: np.ndarray, models: list[str], exact_below: int
) -> dict[str, np.ndarray]:
    """McNemar's test of every pair of one 0/1 task, the counts from two matrix products.

    ``b[i, j]`` = items both have where i is right and j wrong; the tests of all pairs are
    computed at once, with the arithmetic of :func:`cdplot.stats.mcnemar` (the same
    floating-point operations, element-wise), so a large task costs a few products.
    """
    b, both, hits = _binary_counts(mat)
    return _mcnemar_columns(task, models, b, both, hits, exact_below)


def _mcnemar_columns(
    task: str,
    models: list[str] | tuple[str, ...],
    b: np.ndarray,
    both: np.ndarray,
    hits: np.ndarray,
    exact_below: int,
) -> dict[str, np.ndarray]:
    """One 0/1 task's columns of tests from its ``k x k`` counts: ``b[i, j]`` items where i
    is right and j wrong, ``both`` items both scored, ``hits[i, j]`` items i got right of
    those j scored. Every pair at once, in ``itertools.combinations`` order."""
    first, second = np.triu_indices(len(models), 1)  # itertools.combinations' order
    n = both[first, second].astype(np.int64)
    names = np.empty(len(models), dtype=object)
    names[:] = models
    with np.errstate(invalid="ignore", divide="ignore"):
        mean_1 = hits[first, second] / n
        mean_2 = hits[second, first] / n
    name, stat, pvalue = _mcnemar_pairs(
        b[first, second].astype(np.int64), b[second, first].astype(np.int64), exact_below
    )
    few = n < 2
    name[few] = "too few common items"
    for col in (mean_1, mean_2, stat, pvalue):
        col[few] = math.nan
    task_col = np.empty(n.size, dtype=object)
    task_col[:] = task
    return {
        "task": task_col,
        "algorithm_1": names[first],
        "algorithm_2": names[second],
        "n_items": n,
        "mean_1": mean_1,
        "mean_2": mean_2,
        "test": name,
        "statistic": stat,
        "pvalue": pvalue,
    }


#: uint64 words of bit-packed items held at once by :func:`_both_right` (128 MB)
_BIT_WORDS = 1 << 24


def _both_right(right: np.ndarray) -> np.ndarray:
    """``[i, j]``: items on which both models i and j are right, of a complete 0/1 task
    (``items x k`` booleans), as float64: each model's answers packed into 64-bit words,
    then the bits both have counted (``np.bitwise_count``) a block of models at a time.
    Whole numbers, exact: the numbers of ``right.T @ right``, without BLAS."""
    k = right.shape[1]
    packed = np.packbits(right.T, axis=1)  # k x ceil(items / 8) bytes
    pad = (-packed.shape[1]) % 8
    if pad:
        packed = np.pad(packed, ((0, 0), (0, pad)))
    words = np.ascontiguousarray(packed).view(np.uint64)  # k x w
    agree = np.empty((k, k))
    step = max(1, _BIT_WORDS // max(1, k * words.shape[1]))
    for start in range(0, k, step):
        block = words[start : start + step, None, :] & words[None, :, :]
        agree[start : start + step] = np.bitwise_count(block).sum(axis=2, dtype=np.int64)
    return agree


def _binary_counts(mat: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``b[i, j]`` (items both have, i right and j wrong), ``both[i, j]`` (items both have)
    and ``hits[i, j]`` (i's right answers on them) of one 0/1 task (NaN: no score).

    Every entry is a count, a whole number: computed exactly in any order of summation,
    so float32 products (exact below 2**24 items) and, when every model has every item,
    the counts of both-right items from packed bits (:func:`_both_right`;
    ``b = hits - both right``) give the very numbers of the three float64 products.
    """
    present = ~np.isnan(mat)
    if present.all():
        n = mat.shape[0]
        right = mat == 1.0
        agree = _both_right(right)
        hits = np.broadcast_to(right.sum(axis=0).astype(float)[:, None], agree.shape)
        return hits - agree, np.full(agree.shape, float(n)), hits
    kind = np.float32 if mat.shape[0] < 2**24 else np.float64
    right = np.where(present, mat, 0.0).astype(kind)
    p = present.astype(kind)
    b = (right.T @ (p - right)).astype(float)
    return b, (p.T @ p).astype(float), (right.T @ p).astype(float)


def _mcnemar_pairs(
    b: np.ndarray, c: np.ndarray, exact_below: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Test names, statistics and two-sided p-values of McNemar's test of many pairs.

    The exact binomial test below ``exact_below`` discordant items, else the
    continuity-corrected chi-square: :func:`cdplot.stats.mcnemar`'s formulas, element-wise
    (``min(1, 2 I_1/2(n - x, x + 1))`` with ``x = min(b, c)``; ``max(|b - c| - 1, 0)^2 / n``
    and its chi-square tail), so every value is the one it returns.
    """
    from ._special import special

    total = b + c
    none = total == 0
    exact = ~none & (total < exact_below)
    name = np.full(b.size, "McNemar chi-square (corrected)", dtype=object)
    name[exact] = "McNemar exact"
    name[none] = "McNemar (no discordant item)"
    diff = np.maximum(np.abs(b - c) - 1, 0)
    with np.errstate(invalid="ignore", divide="ignore"):
        stat = (diff * diff).astype(float) / total.astype(float)
    pvalue = special.chdtrc(1.0, stat)
    low = np.minimum(b, c)[exact]
    pvalue[exact] = np.minimum(1.0, 2.0 * special.betainc(total[exact] - low, low + 1, 0.5))
    stat[exact] = b[exact].astype(float)
    stat[none], pvalue[none] = 0.0, 1.0
    return name, stat, pvalue


def _mean(x: np.ndarray) -> float:
    return float(x.mean()) if x.size else math.nan


def _tests_frame(parts: list[Any], correction: str, alpha: float, higher: bool) -> Any:
    """The table of :func:`item_tests` from its tasks' columns (or from row tuples)."""
    import pandas as pd

    if not parts or isinstance(parts[0], tuple):
        parts = [_row_columns(parts)]
    frame = pd.DataFrame(
        {name: np.concatenate([part[name] for part in parts]) for name in _TEST_COLUMNS}
    )
    p = frame["pvalue"].to_numpy(dtype=float)
    adjusted = np.full(p.size, np.nan)
    ok = ~np.isnan(p)
    if ok.any():
        adjusted[ok] = adjust_control(p[ok], correction) if correction != "none" else p[ok]
    frame["adjusted_pvalue"] = adjusted
    frame["significant"] = adjusted <= alpha
    first_better = (frame["mean_1"] > frame["mean_2"]) == higher
    frame["better"] = np.where(
        frame["significant"],
        np.where(first_better, frame["algorithm_1"], frame["algorithm_2"]),
        "",
    )
    frame.attrs.update(alpha=alpha, correction=correction)
    return frame


def item_wins(tests: Any) -> Any:
    """Tasks on which each model is significantly better than each other (k x k counts).

    Parameters
    ----------
    tests : pandas.DataFrame
        The table of :func:`item_tests`.

    Returns
    -------
    pandas.DataFrame
        ``[a, b]``: the number of tasks where ``a`` is significantly better than ``b``.

    Examples
    --------
    >>> import pandas as pd
    >>> tab = pd.DataFrame({"task": ["t1", "t2"], "algorithm_1": ["A", "A"],
    ...     "algorithm_2": ["B", "B"], "better": ["A", ""]})
    >>> int(item_wins(tab).loc["A", "B"])
    1
    """
    import pandas as pd

    needed = ("algorithm_1", "algorithm_2", "better")
    columns = getattr(tests, "columns", None)
    if columns is None or any(c not in columns for c in needed):
        raise CdplotInputError(
            f"item_wins counts the table of item_tests() (columns {', '.join(needed)}), got "
            f"{type(tests).__name__}; e.g. item_wins(item_tests(result))."
        )
    models = list(dict.fromkeys([*tests["algorithm_1"], *tests["algorithm_2"]]))
    wins = pd.DataFrame(0, index=pd.Index(models, name="better"), columns=models)
    for a1, a2, better in zip(
        tests["algorithm_1"], tests["algorithm_2"], tests["better"], strict=True
    ):
        if better:
            worse = a2 if better == a1 else a1
            wins.loc[better, worse] += 1
    wins.columns.name = "than"
    return wins


def _average_ranks(means: np.ndarray) -> np.ndarray:
    """Row-wise ranks (1 = highest mean, ties averaged) of a (rows x k) array."""
    from scipy.stats import rankdata

    return rankdata(-means, axis=1, method="average")


def _resampled_means(
    mat: np.ndarray, draws: int, rng: np.random.Generator, fallback: np.ndarray
) -> np.ndarray:
    """``draws`` item bootstraps of one task: model means (draws x k)."""
    n = mat.shape[0]
    present = ~np.isnan(mat)
    values = np.where(present, mat, 0.0)
    weights = _item_counts(rng, draws, n)
    total = weights @ values
    if present.all():  # every count is n, exactly (whole numbers): one product, not two
        return total / float(n)
    count = weights @ present.astype(float)
    with np.errstate(invalid="ignore", divide="ignore"):
        means = total / count
    return np.where(count > 0, means, fallback)


def _item_counts(rng: np.random.Generator, draws: int, n: int) -> np.ndarray:
    """``draws x n`` multinomial counts of ``n`` items drawn with replacement: ``n``
    uniform 32-bit integer draws per row, all rows in one call, counted (the draws of the
    one-benchmark bootstrap's :func:`bootstrap_counts`; a third of the time of
    ``rng.multinomial``'s ``n`` sequential binomials). Many items are counted row by row,
    each row's bins staying in the cache; few in one flat count."""
    if n < _ROW_COUNT_ITEMS:
        return bootstrap_counts(rng, draws, n)
    drawn = rng.integers(0, n, size=(draws, n), dtype=np.int32)
    counts = np.empty((draws, n))
    for row in range(draws):
        counts[row] = np.bincount(drawn[row], minlength=n)
    return counts


def _task_means(mat: np.ndarray) -> np.ndarray:
    """Each model's mean over the items it has (NaN for none), without warnings."""
    present = ~np.isnan(mat)
    n = present.sum(axis=0)
    total = np.where(present, mat, 0.0).sum(axis=0)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(n > 0, total / np.maximum(n, 1), np.nan)


def _check_hierarchical_size(n_boot: int, mats: _TaskMatrices, k: int) -> None:
    """Refuse, before drawing, a hierarchical bootstrap whose arrays exceed the bound.

    Held at once: the drawn tasks (``n_boot x tasks``), the replicates' average ranks
    (``n_boot x k``) and the item weights of the most-drawn task (about ``n_boot x items``);
    the pairs of :func:`hierarchical_bounds` go in chunks of replicates
    (:data:`_STUDENT_CHUNK_CELLS`), within these.
    """
    items = max(mats.sizes, default=0)
    cells = n_boot * (len(mats) + k + items)
    if cells > MAX_HIERARCHICAL_CELLS:
        fewer = max(1, MAX_HIERARCHICAL_CELLS // max(1, cells // n_boot))
        raise CdplotInputError(
            f"n_boot={n_boot:,} hierarchical replicates of {len(mats)} tasks, {k} models and "
            f"up to {items:,} items per task hold about {cells:,} numbers at once, beyond the "
            f"bound of {MAX_HIERARCHICAL_CELLS:,} (about 1 GB); use at most "
            f"n_boot={fewer:,}."
        )


def _replicates(
    data: Any, n_boot: int, rng: np.random.Generator
) -> tuple[list[str], list[str], np.ndarray, np.ndarray]:
    """Tasks, models, the observed average ranks and ``n_boot`` hierarchical replicates.

    Each replicate draws the tasks with replacement and, for each draw of a task, its items
    with replacement (multinomial counts as weights: a chunk of draws of one task is one
    matrix product); ranks 1 = best, ties averaged.
    """
    tasks, models, mats, higher = _matrices(data)
    _check_hierarchical_size(n_boot, mats, len(models))
    sign = 1.0 if higher else -1.0
    n_tasks, k = len(mats), len(models)
    task_means = np.array([_task_means(m) for m in mats]).reshape(n_tasks, k)
    drawn = rng.integers(0, n_tasks, size=(n_boot, n_tasks))
    rank_sum = np.zeros((n_boot, k))
    for t, mat in enumerate(mats):
        reps = np.nonzero(drawn == t)[0]  # the replicate of each draw of task t
        if reps.size == 0 or mat.shape[0] == 0:
            if reps.size:
                np.add.at(rank_sum, reps, _average_ranks(sign * task_means[t][None, :]))
            continue
        means = _resampled_means(mat, reps.size, rng, task_means[t])
        np.add.at(rank_sum, reps, _average_ranks(sign * means))
    observed = _average_ranks(sign * task_means).mean(axis=0)
    return tasks, models, observed, rank_sum / n_tasks


def _replicate_ranks(
    mats: Sequence[np.ndarray],
    task_means: np.ndarray,
    sign: float,
    draws: int,
    rng: np.random.Generator,
) -> np.ndarray:
    """``draws`` hierarchical replicates of the per-task ranks (``draws x tasks x k``).

    Each replicate draws the tasks with replacement and, for each draw of a task, its items
    with replacement; the models are ranked on each drawn task (1 = best, ties averaged).
    """
    n_tasks, k = task_means.shape
    drawn = rng.integers(0, n_tasks, size=(draws, n_tasks))
    ranks = np.empty((draws, n_tasks, k))
    for t, mat in enumerate(mats):
        rep, slot = np.nonzero(drawn == t)  # each draw of task t: its replicate and slot
        if rep.size == 0:
            continue
        if mat.shape[0] == 0:
            ranks[rep, slot] = _average_ranks(sign * task_means[t][None, :])
            continue
        means = _resampled_means(mat, rep.size, rng, task_means[t])
        ranks[rep, slot] = _average_ranks(sign * means)
    return ranks


def _pair_spread(ranks: np.ndarray) -> np.ndarray:
    """Standard error of each difference of average ranks (``... x k x k``) from the per-task
    ranks (``... x tasks x k``): the population standard deviation over the tasks of the
    per-task rank differences, over ``sqrt(tasks)`` (the between-task, "ultimate cluster"
    estimate of a two-stage sample, which carries the within-task item noise too)."""
    n_tasks = ranks.shape[-2]
    centred = ranks - ranks.mean(axis=-2, keepdims=True)
    moments = np.matmul(np.swapaxes(centred, -1, -2), centred) / n_tasks  # covariances
    var = np.diagonal(moments, axis1=-2, axis2=-1)
    spread = var[..., :, None] + var[..., None, :] - 2.0 * moments
    # rank differences are multiples of 1/2 no larger than k: what is below this is rounding
    spread[spread < 1e-9] = 0.0
    return np.sqrt(spread / n_tasks)


def _studentized_chunk(
    ranks: np.ndarray, theta: np.ndarray, se: np.ndarray, simultaneous: bool
) -> tuple[np.ndarray, np.ndarray]:
    """Bootstrap-t of one chunk of replicates: per replicate and model ``j``, the max over
    its pairs of ``|D*_jl - D_jl| / se*_jl`` (``b x k``; ``b x 1`` when ``simultaneous``),
    ``se*`` the replicate's own :func:`_pair_spread`; and the replicates' average ranks.

    A replicate whose differences do not spread over its drawn tasks is studentized by the
    sample's ``se``; a pair with ``se == 0`` (the same rank difference on every task) counts
    0 (its margin is set apart, see :func:`hierarchical_bounds`).
    """
    average = ranks.mean(axis=1)
    shift = average - theta
    gap = np.abs(shift[:, :, None] - shift[:, None, :])
    own = _pair_spread(ranks)
    scale = np.where(own > 0, own, se)
    with np.errstate(invalid="ignore", divide="ignore"):
        t = np.where((scale > 0) & (se > 0), gap / np.where(scale > 0, scale, 1.0), 0.0)
    per_model = t.max(axis=2)
    return (per_model.max(axis=1, keepdims=True) if simultaneous else per_model), average


def hierarchical_bounds(
    res: Any, order: list[str], confidence: float, simultaneous: bool, n_boot: int, rng: Any
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Rank positions ``low``, ``high``, the max-t critical value and ``p_best`` (in ``order``)
    from the hierarchical replicates, for :func:`cdplot.rank_intervals` (``"hierarchical"``).

    The bootstrap-t form of the construction of Mogstad et al. (2024), with hierarchical
    replicates (tasks, then items within each drawn task, re-ranked) in place of the paired
    bootstrap over datasets. ``D_jl`` is the difference of average ranks and ``se_jl`` the
    standard deviation of the per-task rank differences over ``sqrt(tasks)``; each replicate
    is studentized by the same statistic of its own drawn tasks, and ``c`` is the
    ``confidence`` quantile of ``max |D*_jl - D_jl| / se*_jl`` (over all pairs; over the
    pairs of ``j`` when marginal). ``l`` is confidently better than ``j`` when
    ``D_jl - c se_jl > 0``. A pair with the same rank difference on every task (``se_jl``
    0) is scaled instead by the replicates' standard deviation of ``D*_jl``, fixed, both in
    the max-t and in its margin (0 when the items do not vary either: the order is then
    exact), with a :class:`cdplot.CdplotWarning`. ``p_best`` is the share of replicates in
    which each model has the best average rank (a tie splits it). The replicates are drawn
    in chunks of bounded memory (:data:`_STUDENT_CHUNK_CELLS`).
    """
    _, models, mats, higher = _matrices(res)
    k, n_tasks = len(models), len(mats)
    _check_hierarchical_size(n_boot, mats, k)
    cols = [models.index(a) for a in order]
    ordered = [m[:, cols] for m in mats]  # every task's floats: read in each chunk below
    sign = 1.0 if higher else -1.0
    task_means = np.array([_task_means(m) for m in ordered]).reshape(n_tasks, k)
    observed = _average_ranks(sign * task_means)
    theta = observed.mean(axis=0)
    se = _pair_spread(observed)
    items = max((m.shape[0] for m in ordered), default=0)  # item weights of a task's draws
    step = max(1, _STUDENT_CHUNK_CELLS // (k * k + n_tasks * k + items))
    stats, boot = [], np.empty((n_boot, k))
    for start in range(0, n_boot, step):
        ranks = _replicate_ranks(ordered, task_means, sign, min(step, n_boot - start), rng)
        chunk, average = _studentized_chunk(ranks, theta, se, simultaneous)
        stats.append(chunk)
        boot[start : start + len(average)] = average
    spread, constant = _constant_pairs(boot, theta, se, simultaneous)
    row_max = np.maximum(np.concatenate(stats), constant)
    if simultaneous:
        critical = np.atleast_1d(np.quantile(row_max[:, 0], confidence, method="inverted_cdf"))
        c = np.full(k, critical[0])
    else:
        critical = np.quantile(row_max, confidence, axis=0, method="inverted_cdf")
        c = critical
    margin = c[:, None] * np.where(se > 0, se, spread)
    diff = theta[:, None] - theta[None, :]
    better = ((diff - margin) > 0).sum(axis=1)
    worse = ((diff + margin) < 0).sum(axis=1)
    best = boot == boot.min(axis=1, keepdims=True)
    p_best = (best / best.sum(axis=1, keepdims=True)).mean(axis=0)
    return (1 + better).astype(int), (k - worse).astype(int), critical.astype(float), p_best


def _constant_pairs(
    boot: np.ndarray, theta: np.ndarray, se: np.ndarray, simultaneous: bool
) -> tuple[np.ndarray, np.ndarray]:
    """For the pairs with ``se == 0`` (the same rank difference on every task): their
    standard error taken from the replicates (the standard deviation of ``D*_jl``; 0
    elsewhere, ``k x k``) and their max-t ``|D*_jl - D_jl| / sd`` per replicate (``b x 1``
    when ``simultaneous``, else ``b x k``), with a warning where it is used. The pairs go in
    groups of bounded memory (:data:`_STUDENT_CHUNK_CELLS`)."""
    b, k = boot.shape
    spread = np.zeros_like(se)
    stats = np.zeros((b, 1 if simultaneous else k))
    first, second = np.nonzero(np.triu(se == 0, 1))
    step = max(1, _STUDENT_CHUNK_CELLS // b)
    for start in range(0, first.size, step):
        j, lo = first[start : start + step], second[start : start + step]
        gap = boot[:, j] - boot[:, lo]
        sd = gap.std(axis=0)
        spread[j, lo] = spread[lo, j] = sd
        gap -= theta[j] - theta[lo]
        with np.errstate(invalid="ignore", divide="ignore"):
            t = np.where(sd > 0, np.abs(gap) / np.where(sd > 0, sd, 1.0), 0.0)
        if simultaneous:
            np.maximum(stats[:, 0], t.max(axis=1), out=stats[:, 0])
            continue
        for pos in range(j.size):  # at most step pairs: a short loop
            np.maximum(stats[:, j[pos]], t[:, pos], out=stats[:, j[pos]])
            np.maximum(stats[:, lo[pos]], t[:, pos], out=stats[:, lo[pos]])
    used = int((np.triu(spread, 1) > 0).sum())
    if used:
        warnings.warn(
            f"rank_intervals(method='hierarchical'): {used} pair(s) of models have the same "
            "rank difference on every task, so their standard error is the spread of the "
            "bootstrap replicates (fixed, not studentized); their intervals may cover less "
            "than the stated confidence with few tasks: add tasks where you can.",
            CdplotWarning,
            stacklevel=4,  # the caller of rank_intervals
        )
    return spread, stats


def hierarchical_rank_intervals(
    data: Any,
    *,
    n_boot: int = 1000,
    confidence: float = 0.95,
    random_state: int | None = None,
) -> Any:
    """Bootstrap intervals of the average ranks, resampling tasks, then items within tasks.

    Each replicate draws the tasks with replacement and, independently for each drawn task,
    its items with replacement; the models are ranked on each drawn task by their mean over
    the drawn items (1 = best, ties averaged) and the ranks averaged over the drawn tasks.
    The interval is the percentile interval of the replicates' average ranks (numpy's
    default linear interpolation). Items a model lacks (``missing="keep"``) are left out of
    its means.

    Parameters
    ----------
    data : ComparisonResult or cdplot.io.ItemScores
        A result of :func:`cdplot.compare` on item-level input, or its ``items``.
    n_boot : int, default 1000
        Number of bootstrap replicates, at most :data:`MAX_RESAMPLES`, and at most
        :data:`MAX_HIERARCHICAL_CELLS` numbers (replicates x (tasks + models + items of a
        task)) held at once.
    confidence : float, default 0.95
        Coverage of the percentile interval.
    random_state : int, numpy.random.SeedSequence or numpy.random.Generator, optional
        Seed (the replicates are reproducible with it).

    Returns
    -------
    pandas.DataFrame
        Index ``algorithm`` (best average rank first), columns ``average_rank`` (on the
        data), ``low`` and ``high``.

    Examples
    --------
    >>> import pandas as pd, cdplot
    >>> rows = pd.DataFrame({"task": ["t1"] * 4 + ["t2"] * 4, "model": ["A", "B"] * 4,
    ...     "doc_id": [0, 0, 1, 1] * 2, "acc": [1, 0, 1, 0, 1, 0, 1, 1]})
    >>> ci = hierarchical_rank_intervals(cdplot.io.prepare_input(rows).items, random_state=0)
    >>> ci.loc["A"].tolist()
    [1.0, 1.0, 1.25]
    """
    import pandas as pd

    n_boot = _check_count(
        n_boot,
        "n_boot",
        1,
        MAX_RESAMPLES,
        "percentile ends resolve 1 / n_boot, and 1e-7 is finer than any interval needs.",
    )
    confidence = check_confidence(confidence)
    tasks, models, observed, boot = _replicates(data, n_boot, _generator(random_state))
    k = len(models)
    tail = (1.0 - float(confidence)) / 2.0
    low, high = np.quantile(boot, [tail, 1.0 - tail], axis=0)
    frame = pd.DataFrame(
        {"average_rank": observed, "low": low, "high": high},
        index=pd.Index(models, name="algorithm"),
    )
    order = sorted(range(k), key=lambda j: (observed[j], models[j]))
    frame = frame.iloc[order]
    frame.attrs.update(n_boot=int(n_boot), confidence=float(confidence), tasks=tuple(tasks))
    return frame


class ItemWins:
    """What the item-wins matrix (:func:`cdplot.item_wins_plot`) shows of an item-test table.

    Made by :meth:`of`: the counts of :func:`item_wins`, models ordered by their total
    number of wins (ties by name), and the number of tasks.

    Attributes
    ----------
    models : tuple of str
        Rows and columns, most wins first.
    counts : numpy.ndarray
        ``[i, j]``: tasks on which ``models[i]`` is significantly better than ``models[j]``.
    n_tasks : int
        Tasks in the table.
    """

    __slots__ = ("counts", "models", "n_tasks")

    def __init__(self, models: tuple[str, ...], counts: np.ndarray, n_tasks: int) -> None:
        self.models = models
        self.counts = counts
        self.n_tasks = n_tasks

    @classmethod
    def of(cls, tests: Any) -> ItemWins:
        """The matrix of the table of :func:`item_tests`.

        Raises
        ------
        CdplotInputError
            For anything but a table with the columns ``task``, ``algorithm_1``,
            ``algorithm_2`` and ``better``.
        """
        import pandas as pd

        required = {"task", "algorithm_1", "algorithm_2", "better"}
        if not isinstance(tests, pd.DataFrame) or not required <= set(tests.columns):
            raise CdplotInputError(
                "item_wins_plot draws the table returned by cdplot.stats.item_tests(...)."
            )
        wins = item_wins(tests)
        order = sorted(wins.index, key=lambda m: (-int(wins.loc[m].sum()), str(m)))
        counts = wins.loc[order, order].to_numpy(dtype=float)
        return cls(tuple(str(m) for m in order), counts, int(tests["task"].nunique()))

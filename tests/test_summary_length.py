"""The summary's length on large boards: bounded whatever k, with the top of the board, the
tie class of the best, the counts, and where the full lists are.

Checked for consistency with the result it summarises (the tie class and the counts are
recomputed here from ``res.significant``, ``res.groups`` and ``res.uncovered_pairs``); the
boards are synthetic (normal scores, a linear trend in skill, fixed seeds).
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest
from _helpers import quiet_compare

import cdplot
from cdplot.report._summary import (
    FULL_SUMMARY_MAX_ALGORITHMS,
    LARGE_BOARD_MAX_LINES,
    LARGE_BOARD_NAMES,
)


def board(k: int, n: int, seed: int = 0, width: int = 9) -> pd.DataFrame:
    """k algorithms on n datasets; names ``model_000`` padded to ``width`` characters."""
    rng = np.random.default_rng(seed)
    scores = np.linspace(0.0, 3.0, k)[None, :] + rng.normal(size=(n, k)) * 1.5
    names = [f"model_{i:03d}".ljust(width, "x") for i in range(k)]
    return pd.DataFrame(scores, columns=names, index=[f"data_{j}" for j in range(n)])


def _flat(text: str) -> str:
    return " ".join(text.split())


def _tie_class(res) -> list[str]:
    best = res.average_ranks.index[0]
    row = res.significant.loc[best]
    return [a for a in res.average_ranks.index[1:] if not row[a]]


@pytest.mark.parametrize(("k", "n"), [(78, 51), (300, 30)])
def test_a_large_board_summary_is_bounded_and_says_what_matters(k, n):
    res = quiet_compare(board(k, n))
    text = res.summary()
    lines = text.splitlines()
    assert len(lines) <= LARGE_BOARD_MAX_LINES
    assert max(len(line) for line in lines) <= 88
    flat = _flat(text)
    # the top of the board: the best ten average ranks
    top = res.average_ranks.index[:LARGE_BOARD_NAMES]
    assert all(f"{a} ({res.average_ranks[a]:.2f})" in flat for a in top)
    # the tie class of the best, with its size
    tied = _tie_class(res)
    assert tied  # these boards have one
    best = res.average_ranks.index[0]
    listed = ", ".join(tied[:LARGE_BOARD_NAMES])
    assert (
        f"Tie class of the best: {best} (best average rank) is not significantly different "
        f"from {len(tied)} of the {k - 1} others: {listed}, and "
        f"{len(tied) - LARGE_BOARD_NAMES} more." in flat
    )
    # the counts
    upper = res.significant.to_numpy()[np.triu_indices(k, 1)]
    assert f"Significant differences ({int(upper.sum())} of {k * (k - 1) // 2})" in flat
    sizes = [len(g) for g in res.groups if len(g) > 1]
    assert f"{len(res.groups)} groups of algorithms" in flat
    assert f"(the largest has {max(sizes)} algorithms)" in flat
    assert f"{len(res.uncovered_pairs)} pairs are not significantly different" in flat
    # where the full lists are
    for where in ("res.to_frame()", "res.to_json()", "res.groups", "cdplot.report.to_html(res)"):
        assert where in flat
    # nothing lists every group or every non-transitive pair any more
    assert "in no common group (non-significance is not transitive): res.uncovered_pairs" in flat


def test_the_bound_holds_with_long_names_and_every_optional_paragraph():
    # 30-character names; the pool-dependence caution, the pool sensitivity of many pairs,
    # the few-datasets warning, bootstrap rank intervals and effect sizes all present
    res = quiet_compare(board(30, 9, width=30), test="mean-ranks")
    intervals = res.rank_intervals("bootstrap", n_boot=100, random_state=0)
    effects = res.effect_sizes("mean")
    pool = cdplot.pool_sensitivity(res, others=[1, 2], max_pools=5)
    text = res.summary(intervals=intervals, effects=effects, pool=pool)
    assert len(text.splitlines()) <= LARGE_BOARD_MAX_LINES
    flat = _flat(text)
    assert re.search(r"Pool sensitivity .*?; and \d+ more\. The other decisions", flat)
    assert "Warning: only 9 datasets" in flat
    assert "Rank intervals (95 % simultaneous, paired bootstrap" in flat
    assert re.search(r"Effect sizes \(mean difference, 95 % CI\): .*; and \d+ more\.", flat)


def test_a_large_bayesian_board_names_the_best_tie_class_and_bounds_its_decisions():
    k = FULL_SUMMARY_MAX_ALGORITHMS + 4  # large enough for the bounded summary, and quick
    res = quiet_compare(
        board(k, 15), test="bayes-signed-rank", rope=0.1, random_state=0, nsamples=2000
    )
    text = res.summary()
    assert len(text.splitlines()) <= LARGE_BOARD_MAX_LINES
    flat = _flat(text)
    tied = _tie_class(res)
    assert f"is not decided different from {len(tied)} of the {k - 1} others" in flat
    assert re.search(r"Practically better: .*?; and \d+ more\. ", flat)


def test_a_large_board_against_a_control_names_its_tie_class():
    data = board(78, 30)
    control = data.columns[0]
    res = quiet_compare(data, control=control)
    text = res.summary()
    assert len(text.splitlines()) <= LARGE_BOARD_MAX_LINES
    tied = [a for a in res.average_ranks.index if a != control and not res.significant[a]]
    assert (
        f"Against the control: {control} is not significantly different from {len(tied)} of "
        "the 77 others" in _flat(text)
    )


def test_boards_up_to_the_threshold_keep_the_whole_summary():
    res = quiet_compare(board(FULL_SUMMARY_MAX_ALGORITHMS, 30))
    flat = _flat(res.summary())
    assert "Groups of algorithms with no significant difference inside (best first): {" in flat
    for group in res.groups:
        assert "{" + ", ".join(group) + "}" in flat
    assert "Tie class of the best" not in flat
    assert "res.to_json()" not in flat

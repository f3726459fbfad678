"""Large tables: the compact letters, the groups, the summary and the JSON of a large board.

Run as ``python benchmarks/bench_letters.py`` (``-k 200 400 1000``, ``--rounds``,
``--test``). The board is the one large leaderboards give: k models on N = 40 datasets,
standard normal noise plus a trend of one standard deviation over all the models, so that
the test (Wilcoxon with Holm by default) separates few pairs, and not as runs of the rank
order: the letters are those of a general graph (greedy cliques, then Piepho's sweep).
With ``--test nemenyi`` the pairs separated are runs (the one-sweep interval case).

Each round runs, on the same table, ``compare()`` (the yardstick: the analysis the tables
describe), then on its fresh result ``res.letters``, ``find_groups`` (the groups of the
CD diagram, recomputed from the result's significance matrix), ``res.summary()`` and
``res.to_json()``, and a second yardstick for the JSON: the standard library's C encoder
writing the same four k x k matrices as nested lists without indentation
(``json.dumps(m.tolist())``, NaN allowed; the lists made untimed), what formatting the
numbers costs a user who writes them with :mod:`json`. It is no floor: cdplot writes each
distinct value of a block once, and the p-values of a large board repeat. The calls take
turns round after round, so a busy machine slows them alike; the table gives the median
time with its min-max, and the median of the per-round ratios to ``compare()`` (and to
``json.dumps``, for the JSON) with their min-max. The load average is printed before and
after.

Goals: letters and groups at k = 1,000 in at most 1 s each, the summary in at most
0.2 s, the JSON written in at most 1 s.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import sys
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _common import machine_summary, markdown_table  # noqa: E402

import cdplot  # noqa: E402
from cdplot.stats._groups import find_groups  # noqa: E402

#: Seconds each step may take at k = 1,000 (None: no goal).
GOALS = {"letters": 1.0, "groups": 1.0, "summary()": 0.2, "to_json()": 1.0}
#: One letter of a display: past z and Z, dots then a character.
LETTER = re.compile(r"\.*[^.]")
STEPS = ("compare()", "letters", "groups", "summary()", "to_json()", "json.dumps")


def board(k: int, n: int = 40, seed: int = 0) -> np.ndarray:
    """N x k scores: standard normal noise plus a trend of 1 over the k models."""
    rng = np.random.default_rng(seed)
    return rng.normal(size=(n, k)) + np.linspace(0.0, 1.0, k)


def timed(fn: Callable[[], Any]) -> tuple[float, Any]:
    start = time.perf_counter()
    out = fn()
    return time.perf_counter() - start, out


def one_round(scores: np.ndarray, test: str) -> dict[str, float]:
    """The steps once each, in turn, on a fresh result."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        times = {}
        times["compare()"], res = timed(lambda: cdplot.compare(scores, test=test))
        names = [str(a) for a in res.algorithms]
        order = [names.index(str(a)) for a in res.average_ranks.index]
        significant = np.asarray(res._pairwise.significant, dtype=bool)
        times["letters"], letters = timed(lambda: res.letters)
        times["n letters"] = len({a for text in letters.values() for a in LETTER.findall(text)})
        times["groups"], _ = timed(lambda: find_groups(order, significant))
        times["summary()"], _ = timed(res.summary)
        times["to_json()"], _ = timed(res.to_json)
        matrices = [res.statistics, res.pvalues, res.adjusted_pvalues, res.significant]
        lists = [np.asarray(m).tolist() for m in matrices]  # made untimed: json.dumps formats
        times["json.dumps"], _ = timed(lambda: [json.dumps(m) for m in lists])
    return times


def spread(values: list[float], fmt: str) -> str:
    return f"{statistics.median(values):{fmt}} ({min(values):{fmt}}-{max(values):{fmt}})"


def report(k: int, rounds: list[dict[str, float]], letters: int) -> list[list[str]]:
    rows = []
    for step in STEPS:
        times = [r[step] for r in rounds]
        to_compare = [r[step] / r["compare()"] for r in rounds]
        to_floor = (
            spread([r[step] / r["json.dumps"] for r in rounds], ".2f")
            if step == "to_json()"
            else ""
        )
        goal = GOALS.get(step) if k == 1000 else None
        met = "" if goal is None else ("met" if statistics.median(times) <= goal else "MISSED")
        rows.append(
            [
                f"{k}",
                step,
                spread(times, ".3f"),
                spread(to_compare, ".2f"),
                to_floor,
                "" if goal is None else f"<= {goal} s: {met}",
            ]
        )
    rows[1][1] += f" ({letters} letters)"
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-k", type=int, nargs="+", default=[200, 400, 1000])
    parser.add_argument("-n", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--test", default="wilcoxon")
    args = parser.parse_args(argv)
    print(machine_summary())
    print(f"load average before: {' '.join(f'{v:.2f}' for v in os.getloadavg())}")
    print(f"N = {args.n}, test = {args.test}, {args.rounds} rounds after one warm-up\n")
    rows = []
    for k in args.k:
        scores = board(k, args.n)
        one_round(scores, args.test)  # warm-up: imports, caches
        rounds = [one_round(scores, args.test) for _ in range(args.rounds)]
        rows += report(k, rounds, int(rounds[0]["n letters"]))
    headers = ["k", "step", "median s (min-max)", "/ compare()", "/ json.dumps", "goal"]
    print(markdown_table(headers, rows))
    print(f"\nload average after: {' '.join(f'{v:.2f}' for v in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

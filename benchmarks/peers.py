"""Benchmark 3: cdplot and its peers on the same inputs, in the same process and run.

Peers (installed only through the ``bench`` extra: ``pip install .[bench]``):
scikit-posthocs (``posthoc_wilcoxon``, ``posthoc_nemenyi_friedman``,
``critical_difference_diagram``), autorank (``autorank`` + ``plot_stats``) and aeon
(``aeon.benchmarking.stats.wilcoxon_test``, ``plot_critical_difference``). A peer that is
not installed is reported as "not installed". Sections:

1. all-pairs Wilcoxon signed-rank test + Holm, next to the ``numpy.sort`` floor of the
   same k(k-1)/2 x N array of ``|x_i - x_j|``;
2. Nemenyi p-values for all pairs (ranks included);
3. a whole analysis (Friedman, post-hoc test, groups) without drawing;
4. analysis + critical-difference diagram + PDF (in memory), after all imports.

Every input is a random N x k table (normal noise plus a trend over the algorithms).
Times are medians of up to 5 runs after a warm-up (one run when a call takes over 10 s);
cdplot's Wilcoxon and the sort floor take turns, up to 9 runs each.
"ratio" columns are the fastest peer's time over cdplot's; "check" is the largest
absolute difference between cdplot's and scikit-posthocs' p-values (same test, same
options). Run ``python benchmarks/peers.py`` (about 5 minutes) or ``--quick``.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import sys
import warnings
from collections.abc import Callable
from typing import Any

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
from _common import (  # noqa: E402
    format_seconds,
    installed,
    machine_summary,
    markdown_table,
    scores,
    sort_floor,
    time_call,
)

import cdplot  # noqa: E402
from cdplot.stats import adjust_all_pairs, nemenyi_test, rank_rows, wilcoxon_test  # noqa: E402

WILCOXON_CASES = ((10, 100), (50, 1000), (100, 1000), (50, 10_000), (100, 10_000))
NEMENYI_CASES = ((10, 30), (50, 1000), (100, 1000))
ANALYSIS_CASES = ((10, 30), (50, 1000))
DIAGRAM_CASES = ((10, 30), (50, 500))
QUICK = {
    "wilcoxon": ((10, 100), (50, 1000)),
    "nemenyi": ((10, 30), (50, 1000)),
    "analysis": ((10, 30),),
    "diagram": ((10, 30),),
}
PEERS = {"scikit-posthocs": "scikit_posthocs", "autorank": "autorank", "aeon": "aeon"}
NOT_INSTALLED = "not installed"


def _close_figures() -> None:
    if "matplotlib.pyplot" in sys.modules:
        sys.modules["matplotlib.pyplot"].close("all")


def _timed(fn: Callable[[], Any]) -> float:
    def run() -> None:
        fn()
        _close_figures()

    return time_call(run).median


def _frame(x: np.ndarray) -> pd.DataFrame:
    return pd.DataFrame(x, columns=[f"alg{j}" for j in range(x.shape[1])])


def _ratio(peer_times: list[float | None], ours: float) -> str:
    known = [t for t in peer_times if t is not None]
    return f"{min(known) / ours:.1f}x" if known else "-"


def _cell(t: float | None, peer: str) -> str:
    return NOT_INSTALLED if t is None and not installed(PEERS[peer]) else format_seconds(t)


# --- 1. Wilcoxon + Holm --------------------------------------------------------------------


def wilcoxon_section(cases: tuple[tuple[int, int], ...]) -> str:
    rows = []
    for k, n in cases:
        print(f"  wilcoxon k = {k}, N = {n} ...", file=sys.stderr, flush=True)
        x = scores(k, n)
        iu = np.triu_indices(k, 1)

        def ours(x: np.ndarray = x, k: int = k, iu: Any = iu) -> np.ndarray:
            return adjust_all_pairs(wilcoxon_test(x).pvalue[iu], k, "holm")

        floor, _, timing = sort_floor(x, ours)  # taking turns with the floor
        t_ours = timing.median
        t_sp = t_aeon = None
        check = "-"
        if installed("scikit_posthocs"):
            import scikit_posthocs as sp

            groups = list(x.T)

            def sp_run(groups: list[np.ndarray] = groups) -> pd.DataFrame:
                # continuity correction as R's wilcox.test and cdplot's default
                return sp.posthoc_wilcoxon(groups, correction=True, p_adjust="holm")

            t_sp = _timed(sp_run)
            theirs = sp_run().to_numpy()[iu]
            check = f"{np.max(np.abs(theirs - ours())):.1e}"
        if installed("aeon"):
            from aeon.benchmarking.stats import wilcoxon_test as aeon_wilcoxon

            labels = [f"alg{j}" for j in range(k)]
            t_aeon = _timed(lambda x=x, labels=labels: aeon_wilcoxon(x, labels))
        rows.append(
            [
                f"{k} x {n}",
                format_seconds(t_ours),
                format_seconds(floor.median),
                f"{t_ours / floor.median:.2f}",
                _cell(t_sp, "scikit-posthocs"),
                _cell(t_aeon, "aeon"),
                _ratio([t_sp, t_aeon], t_ours),
                check,
            ]
        )
    head = [
        "k x N",
        "cdplot",
        "numpy.sort floor",
        "cdplot / floor",
        "scikit-posthocs",
        "aeon (no Holm)",
        "fastest peer / cdplot",
        "check",
    ]
    return markdown_table(head, rows)


# --- 2. Nemenyi -------------------------------------------------------------------------


def nemenyi_section(cases: tuple[tuple[int, int], ...]) -> str:
    rows = []
    for k, n in cases:
        print(f"  nemenyi k = {k}, N = {n} ...", file=sys.stderr, flush=True)
        x = scores(k, n)

        def ours(x: np.ndarray = x, n: int = n) -> np.ndarray:
            return nemenyi_test(rank_rows(-x).mean(axis=0), n).pvalue

        t_ours = _timed(ours)
        t_sp = None
        check = "-"
        if installed("scikit_posthocs"):
            import scikit_posthocs as sp

            t_sp = _timed(lambda x=x: sp.posthoc_nemenyi_friedman(x))
            theirs = sp.posthoc_nemenyi_friedman(x).to_numpy()
            off = ~np.eye(k, dtype=bool)
            check = f"{np.max(np.abs(theirs[off] - ours()[off])):.1e}"
        rows.append(
            [
                f"{k} x {n}",
                format_seconds(t_ours),
                _cell(t_sp, "scikit-posthocs"),
                _ratio([t_sp], t_ours),
                check,
            ]
        )
    return markdown_table(["k x N", "cdplot", "scikit-posthocs", "ratio", "check"], rows)


# --- 3. whole analysis --------------------------------------------------------------------


def analysis_section(cases: tuple[tuple[int, int], ...]) -> str:
    rows = []
    for k, n in cases:
        print(f"  analysis k = {k}, N = {n} ...", file=sys.stderr, flush=True)
        data = _frame(scores(k, n))
        t_nem = _timed(lambda data=data: cdplot.compare(data, test="nemenyi"))
        t_wil = _timed(lambda data=data: cdplot.compare(data))
        t_auto = None
        if installed("autorank"):
            from autorank import autorank

            t_auto = _timed(lambda data=data: autorank(data, force_mode="nonparametric"))
        rows.append(
            [
                f"{k} x {n}",
                format_seconds(t_nem),
                format_seconds(t_wil),
                _cell(t_auto, "autorank"),
                _ratio([t_auto], t_nem),
            ]
        )
    head = [
        "k x N",
        "cdplot nemenyi",
        "cdplot wilcoxon + holm",
        "autorank (friedman + nemenyi)",
        "autorank / cdplot nemenyi",
    ]
    return markdown_table(head, rows)


# --- 4. analysis + diagram + PDF ------------------------------------------------------------


def diagram_section(cases: tuple[tuple[int, int], ...]) -> str:
    rows = []
    for k, n in cases:
        print(f"  diagram k = {k}, N = {n} ...", file=sys.stderr, flush=True)
        x = scores(k, n)
        data = _frame(x)
        labels = list(data.columns)

        def pdf(fig: Any) -> None:
            fig.savefig(io.BytesIO(), format="pdf")

        def ours(data: pd.DataFrame = data) -> None:
            pdf(cdplot.cd_diagram(cdplot.compare(data)).figure)

        times: dict[str, float | None] = {"cdplot": _timed(ours)}
        times["scikit-posthocs"] = times["autorank"] = times["aeon"] = None
        if installed("scikit_posthocs"):
            import matplotlib.pyplot as plt
            import scikit_posthocs as sp

            def sp_run(data: pd.DataFrame = data) -> None:
                ranks = data.rank(axis=1, ascending=False).mean()
                p = sp.posthoc_wilcoxon(
                    [data[c].to_numpy() for c in data.columns], correction=True, p_adjust="holm"
                )
                p.index = p.columns = data.columns
                fig, ax = plt.subplots(figsize=(6, 3))
                sp.critical_difference_diagram(ranks, p, ax=ax)
                pdf(fig)

            times["scikit-posthocs"] = _timed(sp_run)
        if installed("autorank"):
            import matplotlib.pyplot as plt
            from autorank import autorank, plot_stats

            def autorank_run(data: pd.DataFrame = data) -> None:
                ax = plot_stats(autorank(data, force_mode="nonparametric"))
                pdf(ax.figure)

            times["autorank"] = _timed(autorank_run)
        if installed("aeon"):
            from aeon.visualisation import plot_critical_difference

            def aeon_run(x: np.ndarray = x, labels: list[str] = labels) -> None:
                fig, _ = plot_critical_difference(x, labels, test="wilcoxon", correction="holm")
                pdf(fig)

            times["aeon"] = _timed(aeon_run)
        peers = [times[p] for p in PEERS]
        rows.append(
            [f"{k} x {n}", format_seconds(times["cdplot"])]
            + [_cell(times[p], p) for p in PEERS]
            + [_ratio(peers, times["cdplot"])]
        )
    head = ["k x N", "cdplot", *PEERS, "fastest peer / cdplot"]
    return markdown_table(head, rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small cases only")
    args = parser.parse_args(argv)
    warnings.simplefilter("ignore")
    print(f"machine: {machine_summary(('numpy', 'scipy', 'pandas', 'matplotlib'))}")
    versions = []
    for name, module in PEERS.items():
        if installed(module):
            from importlib.metadata import version

            versions.append(f"{name} {version(name)}")
        else:
            versions.append(f"{name} {NOT_INSTALLED}")
    print(f"peers: {', '.join(versions)}")
    cases = (
        QUICK
        if args.quick
        else {
            "wilcoxon": WILCOXON_CASES,
            "nemenyi": NEMENYI_CASES,
            "analysis": ANALYSIS_CASES,
            "diagram": DIAGRAM_CASES,
        }
    )
    sections = (
        ("1. All-pairs Wilcoxon signed-rank test + Holm", wilcoxon_section, "wilcoxon"),
        ("2. Nemenyi p-values, all pairs (ranks included)", nemenyi_section, "nemenyi"),
        (
            "3. Whole analysis (Friedman, post-hoc test, groups), no drawing",
            analysis_section,
            "analysis",
        ),
        ("4. Analysis + CD diagram + PDF in memory, after imports", diagram_section, "diagram"),
    )
    for title, section, key in sections:
        with contextlib.redirect_stdout(io.StringIO()):  # autorank prints its results
            table = section(cases[key])
        print(f"\n### {title}\n")
        print(table, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Benchmark: the renderings of a result against compare() + cd_diagram().

Target: at k = 100 algorithms each of ``summary()``, ``to_frame()``, ``to_markdown()``,
``str(res)`` and the notebook display costs at most 10 % of ``compare()`` +
``cd_diagram()``. The notebook display draws the diagram itself (as SVG), so it is
timed twice: as shown (with the diagram, against compare + cd_diagram + SVG savefig)
and without the diagram. Every rendering gets a fresh result (nothing cached), timed
round-robin with the reference; medians of a few rounds; ratios are printed.

Run ``python benchmarks/report_speed.py [k] [N]`` (default k = 100, N = 30).
"""

from __future__ import annotations

import io
import statistics
import sys
import time
import warnings

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

import cdplot  # noqa: E402
import cdplot.plotting  # noqa: E402, F401
import cdplot.report  # noqa: E402

ROUNDS = 5


def main(k: int = 100, n: int = 30) -> None:
    rng = np.random.default_rng(0)
    scores = pd.DataFrame(
        rng.normal(size=(n, k)) + np.linspace(0.0, 1.0, k),
        columns=[f"algorithm {i}" for i in range(k)],
    )
    warnings.simplefilter("ignore", cdplot.CdplotWarning)

    def fresh():
        return cdplot.compare(scores)

    def reference():
        res = fresh()
        ax = cdplot.cd_diagram(res)
        plt.close(ax.figure)

    def reference_svg():
        res = fresh()
        ax = cdplot.cd_diagram(res)
        ax.figure.savefig(io.StringIO(), format="svg")
        plt.close(ax.figure)

    renderings = {
        "to_frame()": lambda r: r.to_frame(),
        "summary()": lambda r: r.summary(),
        "str(res)": str,
        "to_markdown()": lambda r: r.to_markdown(),
        "to_latex()": lambda r: r.to_latex(pvalues=None),
        "HTML, no diagram": lambda r: cdplot.report.to_html(r, diagram=False, page=False),
        "_repr_html_()": lambda r: r._repr_html_(),
    }
    times: dict[str, list[float]] = {
        name: [] for name in ["reference", "reference+svg", *renderings]
    }
    reference()  # warm caches (fonts, imports)
    for _ in range(ROUNDS):
        t0 = time.perf_counter()
        reference()
        times["reference"].append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        reference_svg()
        times["reference+svg"].append(time.perf_counter() - t0)
        for name, render in renderings.items():
            res = fresh()
            t0 = time.perf_counter()
            render(res)
            times[name].append(time.perf_counter() - t0)
    ref = statistics.median(times["reference"])
    ref_svg = statistics.median(times["reference+svg"])
    print(f"k = {k}, N = {n}; medians of {ROUNDS} interleaved rounds")
    print(f"{'step':<20}{'median s':>10}{'ratio':>8}  (to compare + cd_diagram = {ref:.3f} s)")
    for name in renderings:
        t = statistics.median(times[name])
        base = ref_svg if name == "_repr_html_()" else ref
        note = "  (to compare + cd_diagram + SVG)" if name == "_repr_html_()" else ""
        print(f"{name:<20}{t:>10.4f}{t / base:>8.2f}{note}")


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:3]))

"""Cost of TrueType embedding in a PDF: the bundled "cdplot Sans" against DejaVu Sans.

One process, the two settings taking turns round by round on the same figures (a CD
diagram with a highlighted name and an APV heatmap, k = 7), so that machine noise hits
both alike; prints the per-round ratio bundled / DejaVu with min, median and max.

    PYTHONPATH=. python benchmarks/font_embedding.py [rounds]
"""

from __future__ import annotations

import io
import statistics
import sys
import time
import warnings
from unittest import mock

import cdplot
from cdplot.plotting import _style


def save_all(figs) -> float:
    start = time.perf_counter()
    for fig in figs:
        fig.savefig(io.BytesIO(), format="pdf")
    return time.perf_counter() - start


def main(rounds: int = 10) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cdplot.CdplotWarning)
        res = cdplot.compare(cdplot.datasets.load("benavoli2016"), correction="bergmann-hommel")
    figs = [cdplot.cd_diagram(res, highlight=["C3"]).figure, cdplot.apv_heatmap(res).figure]
    dejavu = mock.patch.object(_style, "embedding_rc", lambda texts: ({}, False))
    save_all(figs)  # warm up: imports, font caches
    with dejavu:
        save_all(figs)
    times: dict[str, list[float]] = {"bundled": [], "dejavu": []}
    for i in range(rounds):
        order = ("bundled", "dejavu") if i % 2 == 0 else ("dejavu", "bundled")
        for name in order:
            if name == "dejavu":
                with dejavu:
                    times[name].append(save_all(figs))
            else:
                times[name].append(save_all(figs))
    ratios = sorted(b / d for b, d in zip(times["bundled"], times["dejavu"], strict=True))
    for name, values in times.items():
        print(f"{name:8s} median {statistics.median(values) / len(figs) * 1000:7.1f} ms per save")
    print(
        f"ratio bundled/dejavu: min {ratios[0]:.2f}  median {statistics.median(ratios):.2f}  "
        f"max {ratios[-1]:.2f}  ({rounds} rounds)"
    )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 10)

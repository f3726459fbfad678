"""The rank-interval plot against a bare-matplotlib floor, at k = 300 and k = 1,000.

Run as ``python benchmarks/rank_plot_floor.py`` (``--rounds``, ``--sizes 300:1,1000:3``
for k and the number of panels, ``--formats pdf,png``). For each k a table of k
algorithms on N = 50 datasets (normal noise plus a trend over the algorithms) is compared
with ``test="nemenyi"`` (not timed, nor the compact letters, computed once per result and
kept: their time is printed once). Then, round by round, two calls take turns:

* **cdplot**: ``cdplot.rank_plot(res, width=7, columns=c)`` and its ``savefig`` to a PDF
  or PNG in memory: the statistics the plot shows (intervals, tiers, mean scores), the
  layout with its text measurement, the artists, the file.
* **floor**: bare matplotlib drawing the same marks, read from cdplot's figure before the
  rounds (not timed): a ``Figure`` of the same size, one Axes over it with the same
  limits, one ``ax.text`` per text label at the same position with the same font size,
  weight, colour and alignment, the same collections (bars, band, grid, axes) and one
  ``ax.plot`` of the points, saved to the same format with the same font settings (the
  bundled font embedded as TrueType in the PDF, as cdplot saves it). The floor measures
  no text and computes nothing: it is what drawing and saving these artists costs.

The ratio cdplot / floor is taken within each round; the table gives its median and
min-max, the medians of both times, and the load average before and after. The machine
(processor, cores, Python, matplotlib) is printed first.
"""

from __future__ import annotations

import argparse
import io
import os
import platform
import statistics
import sys
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import format_seconds, machine_summary, scores  # noqa: E402

import cdplot  # noqa: E402


def _load() -> str:
    if not hasattr(os, "getloadavg"):
        return "?"
    return "/".join(f"{v:.2f}" for v in os.getloadavg())


def floor_spec(ax: Any) -> dict[str, Any]:
    """Everything the floor draws, read from cdplot's Axes: texts, collections, points."""
    from matplotlib.collections import LineCollection, PolyCollection

    from cdplot.plotting import _style

    fig = ax.get_figure(root=True)
    texts = [
        dict(
            x=t.get_position()[0],
            y=t.get_position()[1],
            s=t.get_text(),
            fontsize=t.get_fontsize(),
            fontweight=t.get_fontweight(),
            color=t.get_color(),
            ha=t.get_horizontalalignment(),
            va=t.get_verticalalignment(),
            family=t.get_fontfamily(),
        )  # fmt: skip
        for t in ax.texts
    ]
    lines, polys = [], []
    for c in ax.collections:
        if isinstance(c, LineCollection):
            lines.append(
                dict(
                    segments=c.get_segments(), colors=c.get_colors(),
                    linewidths=c.get_linewidths(), capstyle=c.get_capstyle() or "butt",
                    zorder=c.get_zorder(),
                )
            )  # fmt: skip
        elif isinstance(c, PolyCollection):
            verts = [p.vertices for p in c.get_paths()]
            polys.append(dict(verts=verts, facecolors=c.get_facecolors(), zorder=c.get_zorder()))
    points = [
        dict(
            x=line.get_xdata(),
            y=line.get_ydata(),
            markersize=line.get_markersize(),
            markerfacecolor=line.get_markerfacecolor(),
            markeredgecolor=line.get_markeredgecolor(),
            zorder=line.get_zorder(),
        )  # fmt: skip
        for line in ax.lines
    ]
    rc, _ = _style.embedding_rc([t["s"] for t in texts])
    return dict(
        size=tuple(fig.get_size_inches()), dpi=fig.dpi, xlim=ax.get_xlim(),
        ylim=ax.get_ylim(), texts=texts, lines=lines, polys=polys, points=points,
        rc={**_style.SAVE_RC, **rc},
    )  # fmt: skip


def draw_floor(spec: dict[str, Any], fmt: str) -> bytes:
    """Bare matplotlib: the same artists drawn and saved, nothing measured."""
    import matplotlib as mpl
    from matplotlib.collections import LineCollection, PolyCollection
    from matplotlib.figure import Figure

    fig = Figure(figsize=spec["size"], dpi=spec["dpi"])
    ax = fig.add_axes((0.0, 0.0, 1.0, 1.0))
    ax.set_xlim(*spec["xlim"])
    ax.set_ylim(*spec["ylim"])
    ax.set_axis_off()
    for p in spec["polys"]:
        ax.add_collection(
            PolyCollection(p["verts"], facecolors=p["facecolors"], edgecolors="none",
                           zorder=p["zorder"])
        )  # fmt: skip
    for c in spec["lines"]:
        ax.add_collection(
            LineCollection(c["segments"], colors=c["colors"], linewidths=c["linewidths"],
                           capstyle=c["capstyle"], zorder=c["zorder"])
        )  # fmt: skip
    for p in spec["points"]:
        ax.plot(
            p["x"], p["y"], linestyle="none", marker="o", markersize=p["markersize"],
            markerfacecolor=p["markerfacecolor"], markeredgecolor=p["markeredgecolor"],
            zorder=p["zorder"],
        )  # fmt: skip
    for t in spec["texts"]:
        ax.text(
            t["x"], t["y"], t["s"], fontsize=t["fontsize"], fontweight=t["fontweight"],
            color=t["color"], ha=t["ha"], va=t["va"], family=t["family"],
        )  # fmt: skip
    buf = io.BytesIO()
    with mpl.rc_context(spec["rc"]):
        fig.savefig(buf, format=fmt)
    return buf.getvalue()


def draw_cdplot(res: Any, columns: int, fmt: str) -> bytes:
    """cdplot's rank plot, drawn and saved."""
    ax = cdplot.rank_plot(res, width=7.0, columns=columns)
    buf = io.BytesIO()
    ax.get_figure(root=True).savefig(buf, format=fmt)
    return buf.getvalue()


def _interleaved(a: Callable[[], Any], b: Callable[[], Any], rounds: int) -> list[list[float]]:
    a(), b()  # warm-up: imports, font caches
    times: list[list[float]] = [[], []]
    for _ in range(rounds):
        for fn, bucket in ((a, times[0]), (b, times[1])):
            t0 = time.perf_counter()
            fn()
            bucket.append(time.perf_counter() - t0)
    return times


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="300:1,1000:3", help="k:columns, comma-separated")
    parser.add_argument("--formats", default="pdf,png")
    parser.add_argument("-n", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args(argv)
    import matplotlib as mpl

    print(machine_summary(("numpy", "matplotlib")))
    print(f"{platform.platform()}, os.cpu_count() = {os.cpu_count()}")
    print(f"N = {args.n}, width 7 in, {args.rounds} rounds, taking turns\n")
    print(
        "| k | panels | format | texts | cdplot (median) | floor (median) "
        "| cdplot / floor: median (min-max) | load before -> after |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    notes: list[str] = []
    with mpl.rc_context({"figure.dpi": 100.0}):
        for size in args.sizes.split(","):
            k, columns = (int(v) for v in size.split(":"))
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                res = cdplot.compare(scores(k, args.n, seed=28), test="nemenyi")
            t0 = time.perf_counter()
            res.letters  # noqa: B018  (computed once per result, then kept)
            letters = time.perf_counter() - t0
            spec = floor_spec(cdplot.rank_plot(res, width=7.0, columns=columns))
            for fmt in args.formats.split(","):
                before = _load()
                mine, floor = _interleaved(
                    lambda r=res, c=columns, f=fmt: draw_cdplot(r, c, f),
                    lambda s=spec, f=fmt: draw_floor(s, f),
                    args.rounds,
                )
                ratios = [m / f for m, f in zip(mine, floor, strict=True)]
                print(
                    f"| {k} | {columns} | {fmt} | {len(spec['texts'])} "
                    f"| {format_seconds(statistics.median(mine))} "
                    f"| {format_seconds(statistics.median(floor))} "
                    f"| {statistics.median(ratios):.2f} ({min(ratios):.2f}-{max(ratios):.2f}) "
                    f"| {before} -> {_load()} |"
                )
            notes.append(f"k = {k}: compact letters, once per result: {format_seconds(letters)}")
    print("\n" + "\n".join(notes))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

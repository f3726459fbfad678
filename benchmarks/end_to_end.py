"""Benchmark 2: the whole ``cdplot compare`` process, CSV -> CD diagram, against floors and peers.

For each (k, N) it writes a wide CSV file (normal noise plus a trend over the algorithms) and
times whole processes, interpreter start-up and imports included, **round-robin**: in every
round each command runs once, in turn, so that a busy machine slows them alike. Every
command's time is divided by the time of cdplot's CLI *in the same round*, and the table
gives the min, median and max of those per-round ratios (the machine's noise cancels in a
ratio; a single time does not mean much on a shared machine).

Commands:

- ``cdplot CLI``: ``python -m cdplot compare RESULTS.csv -o cd.pdf``, the default run
  (Wilcoxon + Holm, the summary printed: the reference of every ratio);
- ``cdplot CLI -q``: the same with nothing printed, like the peers' scripts;
- ``cdplot CLI nemenyi``: the default run with ``--test nemenyi`` (summary printed);
- ``cdplot script``: the same through the Python API (``compare`` + ``cd_diagram`` + savefig);
- ``fair floor``: numpy reads the CSV and ranks it, and matplotlib draws the figure the
  command line draws, saved as a PDF with TrueType fonts: where that is the CD diagram
  (k = 5, 10), as many texts and lines as the diagram (2k + 5 texts, k + 7 lines); where
  the CD diagram does not read at the CLI's 3.3 in and the CLI draws the rank plot (k >= 20),
  the rank plot's own artists, read from the CLI's figure once before the rounds (every
  text at its place, size, weight and colour, the same collections and points, the bundled
  font), with no text measured;
- ``bare savefig``: ``Figure().savefig("x.pdf")``, the least any matplotlib tool can do;
- peers, when installed (``pip install .[bench]``): scikit-posthocs, autorank, aeon, each a
  minimal CSV -> PDF script; and **cddiagram** (pure-Python SVG writer, no matplotlib or
  pandas), which needs Python >= 3.12: pass its interpreter with ``--cddiagram-python``;
  it runs twice, with its default post-hoc test (``posthoc="wilcoxon-holm"``, against
  cdplot's default run) and with ``posthoc="nemenyi"`` (against ``cdplot CLI nemenyi``).

Processes run with bytecode, as installed packages do (``PYTHONDONTWRITEBYTECODE`` is
dropped, see ``_common.bench_env``). Run ``python benchmarks/end_to_end.py`` (a few
minutes) or ``--quick``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np
from _common import bench_env, format_seconds, installed, machine_summary, markdown_table, scores

CASES = ((5, 30), (10, 30), (20, 100), (50, 500), (100, 1000))
QUICK_CASES = ((10, 30),)
#: Targets (ratios to cdplot's CLI time, summary printed).
TARGET_FLOOR_RATIO = 1.3  # cdplot CLI <= 1.3 x the fair floor at k = 10, 20, 50 and 100
FLOOR_TARGET_K = (10, 20, 50, 100)
TARGET_PEER_SPEEDUP = 2.0  # fastest matplotlib peer >= 2 x cdplot CLI

SCRIPT_CDPLOT = """\
import sys
import cdplot
res = cdplot.compare(sys.argv[1])
cdplot.cd_diagram(res).figure.savefig(sys.argv[2])
"""

SCRIPT_FAIR_FLOOR = """\
import sys
import numpy as np
import matplotlib
matplotlib.rcParams["pdf.fonttype"] = 42
from matplotlib.figure import Figure
with open(sys.argv[1], encoding="utf-8") as fh:
    names = fh.readline().rstrip("\\n").split(",")[1:]
x = np.loadtxt(sys.argv[1], delimiter=",", skiprows=1, usecols=range(1, len(names) + 1))
ranks = np.argsort(np.argsort(-x, axis=1), axis=1).mean(axis=0) + 1
k = len(names)
fig = Figure(figsize=(3.3, 0.4 + 0.2 * k))
ax = fig.add_axes((0, 0, 1, 1))
ax.set_axis_off()
ax.set_xlim(0, 1)
ax.set_ylim(0, 1)
for i in range(5):
    ax.text(0.1 + 0.2 * i, 0.95, str(i + 1), ha="center", fontsize=8)
for j, (name, r) in enumerate(zip(names, ranks)):
    y = 0.8 - 0.7 * j / k
    ax.text(0.02, y, name, fontsize=8)
    ax.text(0.98, y, f"{r:.2f}", ha="right", fontsize=8)
    ax.plot([0.3, 0.5], [y, 0.9], color="k", lw=0.8)
for i in range(7):
    ax.plot([0.1, 0.9], [0.9 - 0.01 * i] * 2, color="k", lw=1)
fig.savefig(sys.argv[2])
"""

#: The fair floor where the command line draws the rank plot (the CD diagram does not read
#: at its width: k >= 20 here): numpy reads the CSV and ranks it, then bare matplotlib
#: draws the artists of the CLI's own figure, read from it once before the rounds (texts at
#: the same places, sizes, weights and colours; the same collections and points; the same
#: bundled font embedded as TrueType), measuring no text. argv: CSV OUT.pdf SPEC.pickle
SCRIPT_RANK_FLOOR = """\
import pickle
import sys
import numpy as np
import matplotlib as mpl
from matplotlib import font_manager
from matplotlib.collections import LineCollection, PolyCollection
from matplotlib.figure import Figure
with open(sys.argv[1], encoding="utf-8") as fh:
    names = fh.readline().rstrip("\\n").split(",")[1:]
x = np.loadtxt(sys.argv[1], delimiter=",", skiprows=1, usecols=range(1, len(names) + 1))
ranks = np.argsort(np.argsort(-x, axis=1), axis=1).mean(axis=0) + 1
with open(sys.argv[3], "rb") as fh:
    spec = pickle.load(fh)
for path in spec["fonts"]:
    font_manager.fontManager.addfont(path)
fig = Figure(figsize=spec["size"], dpi=spec["dpi"])
ax = fig.add_axes((0.0, 0.0, 1.0, 1.0))
ax.set_xlim(*spec["xlim"])
ax.set_ylim(*spec["ylim"])
ax.set_axis_off()
for p in spec["polys"]:
    ax.add_collection(PolyCollection(p["verts"], facecolors=p["facecolors"], edgecolors="none",
                                     zorder=p["zorder"]))
for c in spec["lines"]:
    ax.add_collection(LineCollection(c["segments"], colors=c["colors"],
                                     linewidths=c["linewidths"], capstyle=c["capstyle"],
                                     zorder=c["zorder"]))
for p in spec["points"]:
    ax.plot(p["x"], p["y"], linestyle="none", marker="o", markersize=p["markersize"],
            markerfacecolor=p["markerfacecolor"], markeredgecolor=p["markeredgecolor"],
            zorder=p["zorder"])
for t in spec["texts"]:
    ax.text(t["x"], t["y"], t["s"], fontsize=t["fontsize"], fontweight=t["fontweight"],
            color=t["color"], ha=t["ha"], va=t["va"], family=t["family"])
with mpl.rc_context(spec["rc"]):
    fig.savefig(sys.argv[2])
"""

SCRIPT_BARE = "from matplotlib.figure import Figure; import sys; Figure().savefig(sys.argv[2])"

#: cddiagram's run with its post-hoc test (argv[3]: "wilcoxon-holm", its default, or
#: "nemenyi"): each is timed against cdplot's run of the same test
SCRIPT_CDDIAGRAM = """\
import sys
import numpy as np
from cddiagram import draw_cd_diagram
with open(sys.argv[1], encoding="utf-8") as fh:
    names = fh.readline().rstrip("\\n").split(",")[1:]
x = np.loadtxt(sys.argv[1], delimiter=",", skiprows=1, usecols=range(1, len(names) + 1))
draw_cd_diagram(x, labels=names, out_file=sys.argv[2], posthoc=sys.argv[3])
"""
#: cddiagram's runs and the cdplot run of the same test each is compared with
CDDIAGRAM_RUNS = {
    "cddiagram (SVG)": ("wilcoxon-holm", "cdplot CLI"),
    "cddiagram nemenyi (SVG)": ("nemenyi", "cdplot CLI nemenyi"),
}

#: CSV -> PDF with each peer's public API; argv: RESULTS.csv OUT.pdf
PEER_SCRIPTS = {
    "scikit-posthocs": """\
import sys
import matplotlib.pyplot as plt
import pandas as pd
import scikit_posthocs as sp
data = pd.read_csv(sys.argv[1], index_col=0)
ranks = data.rank(axis=1, ascending=False).mean()
p = sp.posthoc_wilcoxon([data[c].to_numpy() for c in data.columns], correction=True,
                        p_adjust="holm")
p.index = p.columns = data.columns
fig, ax = plt.subplots(figsize=(6, 3))
sp.critical_difference_diagram(ranks, p, ax=ax)
fig.savefig(sys.argv[2])
""",
    "autorank": """\
import sys
import pandas as pd
from autorank import autorank, plot_stats
data = pd.read_csv(sys.argv[1], index_col=0)
ax = plot_stats(autorank(data, force_mode="nonparametric"))
ax.figure.savefig(sys.argv[2])
""",
    "aeon": """\
import sys
import pandas as pd
from aeon.visualisation import plot_critical_difference
data = pd.read_csv(sys.argv[1], index_col=0)
fig, ax = plot_critical_difference(data.to_numpy(), list(data.columns), test="wilcoxon",
                                   correction="holm")
fig.savefig(sys.argv[2])
""",
}
PEER_MODULES = {"scikit-posthocs": "scikit_posthocs", "autorank": "autorank", "aeon": "aeon"}
MATPLOTLIB_PEERS = tuple(PEER_MODULES)


def write_csv(k: int, n: int, folder: Path) -> Path:
    data = scores(k, n)
    path = folder / f"results_k{k}_n{n}.csv"
    with open(path, "w", encoding="utf-8") as fh:
        fh.write("dataset," + ",".join(f"algorithm {j}" for j in range(k)) + "\n")
        for i, row in enumerate(np.asarray(data)):
            fh.write(f"dataset {i}," + ",".join(repr(float(v)) for v in row) + "\n")
    return path


def cli_figure(csv: Path) -> tuple[str, Any]:
    """The figure the default command line draws for ``csv`` (its kind, and the Figure)."""
    import argparse

    import cdplot
    from cdplot.cli._rank_figure import rank_figure
    from cdplot.plotting._cd import SINGLE_COLUMN_WIDTH
    from cdplot.plotting._choose import choose_figure

    res = cdplot.compare(str(csv))
    kind = choose_figure(res, width=SINGLE_COLUMN_WIDTH)
    if kind == "cd":
        return kind, None
    no_panels = argparse.Namespace(columns=None, max_height=None)
    return kind, rank_figure(res, {"width": None, "highlight": None}, no_panels)


def rank_floor_spec(fig: Any, path: Path) -> None:
    """Pickle what the rank-plot floor draws (rank_plot_floor.floor_spec of the figure)."""
    import pickle

    from rank_plot_floor import floor_spec

    from cdplot.plotting import _style

    (ax,) = fig.axes
    spec = floor_spec(ax)
    spec["fonts"] = [str(f) for f in sorted(_style.FONT_DIR.glob("cdplotSans*.ttf"))]
    path.write_bytes(pickle.dumps(spec))


def run_once(cmd: list[str], env: dict[str, str]) -> float:
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True, check=False)
    elapsed = time.perf_counter() - t0
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd[:4])} ... failed:\n{proc.stderr[-2000:]}")
    return elapsed


def round_robin(commands: dict[str, list[str]], rounds: int, env: dict[str, str]) -> dict:
    """Per-command list of times; each round runs every command once, in turn."""
    for cmd in commands.values():  # warm-up: file caches, bytecode
        run_once(cmd, env)
    times: dict[str, list[float]] = {name: [] for name in commands}
    for r in range(rounds):
        order = list(commands)
        if r % 2:  # alternate the order so no command always runs right after another
            order.reverse()
        for name in order:
            times[name].append(run_once(commands[name], env))
    return times


def ratio_summary(times: dict[str, list[float]], name: str, ref: str) -> tuple[float, ...]:
    """min, median, max of the per-round ratios time[name] / time[ref]."""
    ratios = [a / b for a, b in zip(times[name], times[ref], strict=True)]
    return min(ratios), statistics.median(ratios), max(ratios)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="k = 10, N = 30 only")
    parser.add_argument("--rounds", type=int, default=7, help="timed rounds (default 7)")
    parser.add_argument("--cddiagram-python", help="a Python >= 3.12 with cddiagram installed")
    parser.add_argument("--cases", help="k:N pairs to run, e.g. 10:30,100:1000 (default: all five)")
    args = parser.parse_args(argv)
    cases = QUICK_CASES if args.quick else CASES
    if args.cases:
        cases = tuple(tuple(int(v) for v in case.split(":")) for case in args.cases.split(","))
    env = bench_env()
    python = sys.executable
    peers = [name for name, module in PEER_MODULES.items() if installed(module)]

    print(f"machine: {machine_summary(('numpy', 'scipy', 'pandas', 'matplotlib'))}")
    load_before = " ".join(f"{v:.2f}" for v in os.getloadavg())
    print(f"{args.rounds} rounds, whole processes, MPLBACKEND=Agg; ratios are per round")
    targets: list[str] = []
    figures: list[str] = []
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        scripts = {
            "cdplot script": SCRIPT_CDPLOT,
            "fair floor": SCRIPT_FAIR_FLOOR,
            "rank floor": SCRIPT_RANK_FLOOR,
            "bare savefig": SCRIPT_BARE,
            **{p: PEER_SCRIPTS[p] for p in peers},
        }
        paths = {}
        for name, text in scripts.items():
            paths[name] = folder / f"run_{name.replace(' ', '_').replace('-', '_')}.py"
            paths[name].write_text(text, encoding="utf-8")
        cdd_script = folder / "cddiagram_run.py"
        cdd_script.write_text(SCRIPT_CDDIAGRAM, encoding="utf-8")
        rows = []
        for k, n in cases:
            print(f"  k = {k}, N = {n} ...", file=sys.stderr, flush=True)
            csv = write_csv(k, n, folder)
            cli = [python, "-m", "cdplot", "compare", str(csv), "-o"]
            commands = {
                "cdplot CLI": [*cli, str(folder / "cli.pdf")],
                "cdplot CLI -q": [*cli, str(folder / "cli_quiet.pdf"), "-q"],
                "cdplot CLI nemenyi": [*cli, str(folder / "cli_nemenyi.pdf"), "--test", "nemenyi"],
            }
            for name, path in paths.items():
                if name != "rank floor":
                    commands[name] = [python, str(path), str(csv), str(folder / f"{name}.pdf")]
            kind, fig = cli_figure(csv)
            if kind == "ranks":  # the floor draws the CLI's rank plot
                spec = folder / f"rank_floor_k{k}.pickle"
                rank_floor_spec(fig, spec)
                commands["fair floor"] = [
                    python, str(paths["rank floor"]), str(csv), str(folder / "floor.pdf"),
                    str(spec),
                ]  # fmt: skip
            drawn = "the CD diagram" if kind == "cd" else "the rank plot"
            figures.append(f"- k = {k}, N = {n}: the CLI and the fair floor draw {drawn}")
            if args.cddiagram_python:
                for name, (posthoc, _) in CDDIAGRAM_RUNS.items():
                    out_svg = str(folder / f"cdd_{posthoc}.svg")
                    commands[name] = [args.cddiagram_python, str(cdd_script), str(csv), out_svg]
                    commands[name].append(posthoc)
            times = round_robin(commands, args.rounds, env)
            for name in commands:
                lo, med, hi = ratio_summary(times, name, "cdplot CLI")
                rows.append(
                    [
                        f"{k} x {n}",
                        name,
                        format_seconds(statistics.median(times[name])),
                        f"{med:.2f}",
                        f"{lo:.2f}-{hi:.2f}",
                    ]
                )
            if k in FLOOR_TARGET_K:
                lo, med, hi = ratio_summary(times, "cdplot CLI", "fair floor")
                targets.append(
                    f"- k = {k}, N = {n}: cdplot CLI / fair floor = {med:.2f} "
                    f"({lo:.2f}-{hi:.2f}); target <= {TARGET_FLOOR_RATIO}: "
                    f"{'met' if med <= TARGET_FLOOR_RATIO else 'MISSED'}"
                )
            if (k, n) == (10, 30):
                mpl = [p for p in MATPLOTLIB_PEERS if p in times]
                if mpl:
                    best = min(mpl, key=lambda p: statistics.median(times[p]))
                    lo, med, hi = ratio_summary(times, best, "cdplot CLI")
                    targets.append(
                        f"- k = 10, N = 30: fastest matplotlib peer ({best}) / cdplot CLI = "
                        f"{med:.2f} ({lo:.2f}-{hi:.2f}); target >= {TARGET_PEER_SPEEDUP}: "
                        f"{'met' if med >= TARGET_PEER_SPEEDUP else 'MISSED'}"
                    )
            for cdd_run, (_, cli_run) in CDDIAGRAM_RUNS.items():
                if cdd_run not in times:
                    break
                lo, med, hi = ratio_summary(times, cdd_run, cli_run)
                targets.append(
                    f"- k = {k}, N = {n}: {cdd_run} / {cli_run} = {med:.2f} "
                    f"({lo:.2f}-{hi:.2f}); target > 1: {'met' if med > 1 else 'MISSED'}"
                )

    print(f"load average after: {' '.join(f'{v:.2f}' for v in os.getloadavg())}")
    print("load average before: " + load_before)
    print("\n### CSV -> figure, whole process\n")
    head = ["k x N", "command", "median time", "ratio to cdplot CLI (median)", "min-max"]
    print(markdown_table(head, rows))
    print("\n### Figures\n")
    print("\n".join(figures))
    print("\n### Targets\n")
    print("\n".join(targets) if targets else "(no target case run)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

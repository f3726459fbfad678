"""Benchmark 2: the whole ``cdplot compare`` process, from a CSV file to a PDF diagram.

For (k, N) in (5, 30), (10, 30), (20, 100), (50, 500) it writes a wide CSV file (one row
per dataset, one column per algorithm; normal noise plus a trend) and times whole
processes, interpreter start-up and imports included:

- ``cdplot``: ``python -m cdplot compare RESULTS.csv -o cd.pdf`` (Wilcoxon + Holm);
- the peers, when installed (``pip install .[bench]``), each a minimal script reading the
  same CSV and writing a CD diagram PDF: scikit-posthocs (``posthoc_wilcoxon`` with Holm +
  ``critical_difference_diagram``), autorank (``autorank`` in its non-parametric mode +
  ``plot_stats``) and aeon (``plot_critical_difference``, Wilcoxon + Holm);
- the floors: ``python -c pass`` and a bare matplotlib ``Figure().savefig("x.pdf")``.

Every command runs once untimed (warm file caches, compiled bytecode), then the commands
take turns for ``--runs`` rounds (default 5) so that a busy machine slows them alike; the
table shows medians. ``MPLBACKEND=Agg`` for every process. It also times
``import cdplot`` in fresh processes and checks that it loads no matplotlib, seaborn or
``scipy.stats``. Run ``python benchmarks/end_to_end.py`` (about 4 minutes) or ``--quick``.
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

import pandas as pd
from _common import format_seconds, installed, machine_summary, markdown_table, scores

CASES = ((5, 30), (10, 30), (20, 100), (50, 500))
QUICK_CASES = ((5, 30), (10, 30))
#: Issue 7's targets at k = 10, N = 30.
TARGET_CASE = (10, 30)
TARGET_FLOOR_RATIO = 1.3
TARGET_PEER_SPEEDUP = 2.0
TARGET_IMPORT_SECONDS = 0.5
HEAVY_MODULES = ("matplotlib", "seaborn", "scipy.stats")

FLOOR_SAVEFIG = 'from matplotlib.figure import Figure; Figure().savefig(r"{out}")'

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

IMPORT_PROBE = (
    "import sys, time\n"
    "t = time.perf_counter()\n"
    "import cdplot\n"
    "t = time.perf_counter() - t\n"
    f"heavy = [m for m in {HEAVY_MODULES!r} if m in sys.modules]\n"
    "print(t, ','.join(heavy))\n"
)


def write_csv(k: int, n: int, folder: Path) -> Path:
    data = pd.DataFrame(
        scores(k, n),
        columns=[f"algorithm {j}" for j in range(k)],
        index=pd.Index([f"dataset {i}" for i in range(n)], name="dataset"),
    )
    path = folder / f"results_k{k}_n{n}.csv"
    data.to_csv(path)
    return path


def run_once(cmd: list[str], env: dict[str, str]) -> float:
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True)
    elapsed = time.perf_counter() - t0
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd[:4])} ... failed:\n{proc.stderr[-2000:]}")
    return elapsed


def time_commands(commands: dict[str, list[str]], runs: int, env: dict[str, str]) -> dict:
    """Median wall time of each command; the commands take turns, after one warm-up each."""
    for cmd in commands.values():
        run_once(cmd, env)
    times: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(runs):
        for name, cmd in commands.items():
            times[name].append(run_once(cmd, env))
    return {name: statistics.median(t) for name, t in times.items()}


def import_probe(runs: int, env: dict[str, str]) -> tuple[float, str]:
    """Median in-process time of ``import cdplot`` over fresh processes; heavy modules seen."""
    cmd = [sys.executable, "-c", IMPORT_PROBE]
    subprocess.run(cmd, env=env, capture_output=True, check=True)
    times, heavy = [], set()
    for _ in range(runs):
        out = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True).stdout
        seconds, loaded = out.split(" ", 1) if " " in out.strip() else (out, "")
        times.append(float(seconds))
        heavy.update(m for m in loaded.strip().split(",") if m)
    return statistics.median(times), ", ".join(sorted(heavy)) or "none"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="k = 5 and 10 on N = 30 only")
    parser.add_argument("--runs", type=int, default=5, help="timed rounds (default 5)")
    args = parser.parse_args(argv)
    cases = QUICK_CASES if args.quick else CASES
    env = {**os.environ, "MPLBACKEND": "Agg"}
    python = sys.executable
    peers = [name for name, module in PEER_MODULES.items() if installed(module)]

    print(f"machine: {machine_summary(('numpy', 'scipy', 'pandas', 'matplotlib'))}")
    print(f"runs: median of {args.runs}, whole processes, MPLBACKEND=Agg")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        floors = time_commands(
            {
                "python -c pass": [python, "-c", "pass"],
                "Figure().savefig": [
                    python,
                    "-c",
                    FLOOR_SAVEFIG.format(out=folder / "floor.pdf"),
                ],
            },
            args.runs,
            env,
        )
        import_seconds, heavy = import_probe(args.runs, env)
        rows, results = [], {}
        for k, n in cases:
            print(f"  k = {k}, N = {n} ...", file=sys.stderr, flush=True)
            csv = write_csv(k, n, folder)
            commands = {
                "cdplot": [python, "-m", "cdplot", "compare", str(csv), "-o", str(folder / "c.pdf")]
            }
            for name in peers:
                script = folder / f"peer_{name}.py"
                script.write_text(PEER_SCRIPTS[name], encoding="utf-8")
                commands[name] = [python, str(script), str(csv), str(folder / f"{name}.pdf")]
            times = time_commands(commands, args.runs, env)
            results[(k, n)] = times
            ours = times["cdplot"]
            peer_times = [times[p] for p in peers]
            rows.append(
                [f"{k} x {n}", format_seconds(ours)]
                + [
                    format_seconds(times[p]) if p in times else "not installed"
                    for p in PEER_MODULES
                ]
                + [
                    f"{ours / floors['Figure().savefig']:.2f}",
                    f"{min(peer_times) / ours:.2f}x" if peer_times else "-",
                ]
            )

    print(
        f"\nfloors: python -c pass {format_seconds(floors['python -c pass'])}, "
        f"bare matplotlib Figure().savefig('x.pdf') {format_seconds(floors['Figure().savefig'])}"
    )
    print(
        f"import cdplot (in a fresh process, median): {format_seconds(import_seconds)}; "
        f"heavy modules loaded: {heavy}"
    )
    print("\n### CSV -> PDF, whole process (median)\n")
    head = ["k x N", "cdplot", *PEER_MODULES, "cdplot / savefig floor", "fastest peer / cdplot"]
    print(markdown_table(head, rows))

    print("\n### Targets (issue 7)\n")
    ok = True
    if TARGET_CASE in results:
        times = results[TARGET_CASE]
        ratio = times["cdplot"] / floors["Figure().savefig"]
        met = ratio <= TARGET_FLOOR_RATIO
        ok &= met
        print(
            f"- k = 10, N = 30: cdplot / savefig floor = {ratio:.2f} "
            f"(target <= {TARGET_FLOOR_RATIO}): {'met' if met else 'MISSED'}"
        )
        mpl_peers = [times[p] for p in peers]
        if mpl_peers:
            speedup = min(mpl_peers) / times["cdplot"]
            met = speedup >= TARGET_PEER_SPEEDUP
            ok &= met
            print(
                f"- k = 10, N = 30: fastest peer / cdplot = {speedup:.2f} "
                f"(target >= {TARGET_PEER_SPEEDUP}): {'met' if met else 'MISSED'}"
            )
        else:
            print("- k = 10, N = 30: no peer installed")
    met = import_seconds < TARGET_IMPORT_SECONDS and heavy == "none"
    ok &= met
    print(
        f"- import cdplot: {format_seconds(import_seconds)} (target < {TARGET_IMPORT_SECONDS} s), "
        f"heavy modules: {heavy}: {'met' if met else 'MISSED'}"
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

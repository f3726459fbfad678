"""Benchmark: a large results file through the command line and through ``compare(path)``.

Target: the CLI's memory and time on a large file stay within 1.5x of ``compare(path)``.
A wide CSV of N datasets x k algorithms (default 52,000 x 100, about 45 MiB) is analysed by
whole processes, taking turns round by round:

- ``compare(path)``: ``python -c "import cdplot; cdplot.compare(PATH)"``;
- ``CLI summary``: ``python -m cdplot compare PATH`` (the summary printed, nothing written);
- ``CLI --json``: ``python -m cdplot compare PATH --json OUT -q`` (the whole result as JSON).

Each process reports its own peak resident memory (``ru_maxrss``) at exit; times are wall
clock. The table gives the median of each and the per-round ratios to ``compare(path)``
(min-median-max), so that a busy machine slows both sides of a ratio alike.

Run ``python benchmarks/large_file.py`` (a few minutes) or ``--quick`` (10,000 x 100).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from _common import bench_env, format_bytes, format_seconds, machine_summary, markdown_table

#: Run a module or a snippet, then print this process's peak resident memory (bytes).
WRAPPER = """\
import resource, runpy, sys
kind, what, *rest = sys.argv[1:]
try:
    if kind == "module":
        sys.argv = [what, *rest]
        runpy.run_module(what, run_name="__main__")
    else:
        exec(what)
except SystemExit as exc:
    if exc.code not in (0, None):
        raise
finally:
    sys.stdout.flush()
    print("MAXRSS", resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024, file=sys.stderr)
"""

TARGET_RATIO = 1.5


def write_csv(path: Path, n: int, k: int, seed: int = 0) -> None:
    rng = np.random.default_rng(seed)
    with open(path, "w", encoding="utf-8") as fh:
        fh.write("dataset," + ",".join(f"alg{j}" for j in range(k)) + "\n")
        block = 5000
        for start in range(0, n, block):
            rows = rng.normal(size=(min(block, n - start), k)) + np.linspace(0, 0.3, k)
            fh.writelines(
                f"d{start + i}," + ",".join(f"{v:.6f}" for v in row) + "\n"
                for i, row in enumerate(rows)
            )


def run(cmd: list[str], env: dict[str, str]) -> tuple[float, int]:
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True, check=False)
    elapsed = time.perf_counter() - t0
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd[:6])} failed:\n{proc.stderr[-2000:]}")
    rss = [line for line in proc.stderr.splitlines() if line.startswith("MAXRSS ")]
    return elapsed, int(rss[-1].split()[1])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="10,000 x 100 and 2 rounds")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args(argv)
    n, k = (10_000, 100) if args.quick else (52_000, 100)
    rounds = 2 if args.quick else args.rounds
    env = bench_env()
    print(f"machine: {machine_summary(('numpy', 'scipy', 'pandas', 'matplotlib'))}")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        csv = folder / "large.csv"
        write_csv(csv, n, k)
        size = csv.stat().st_size
        wrapper = folder / "wrapper.py"
        wrapper.write_text(WRAPPER, encoding="utf-8")
        base = [sys.executable, str(wrapper)]
        commands = {
            "compare(path)": [*base, "code", f"import cdplot; cdplot.compare({str(csv)!r})"],
            "CLI summary": [*base, "module", "cdplot", "compare", str(csv)],
            "CLI --json": [
                *base,
                "module",
                "cdplot",
                "compare",
                str(csv),
                "--json",
                str(folder / "out.json"),
                "-q",
            ],
        }
        times: dict[str, list[float]] = {name: [] for name in commands}
        peaks: dict[str, list[int]] = {name: [] for name in commands}
        for r in range(rounds):
            order = list(commands) if r % 2 == 0 else list(reversed(commands))
            for name in order:
                elapsed, peak = run(commands[name], env)
                times[name].append(elapsed)
                peaks[name].append(peak)
            print(f"  round {r + 1} of {rounds} done", file=sys.stderr, flush=True)
        json_size = (folder / "out.json").stat().st_size

    print(f"input: {n:,} datasets x {k} algorithms, {format_bytes(size)} CSV; JSON written:")
    print(f"{format_bytes(json_size)}; {rounds} rounds, whole processes, taking turns\n")
    rows = []
    ref = "compare(path)"
    verdicts = []
    for name in commands:
        t_ratio = [a / b for a, b in zip(times[name], times[ref], strict=True)]
        m_ratio = [a / b for a, b in zip(peaks[name], peaks[ref], strict=True)]
        rows.append(
            [
                name,
                format_seconds(statistics.median(times[name])),
                f"{statistics.median(t_ratio):.2f} ({min(t_ratio):.2f}-{max(t_ratio):.2f})",
                format_bytes(statistics.median(peaks[name])),
                f"{statistics.median(m_ratio):.2f} ({min(m_ratio):.2f}-{max(m_ratio):.2f})",
            ]
        )
        if name != ref:
            ok = statistics.median(t_ratio) <= TARGET_RATIO
            ok = ok and statistics.median(m_ratio) <= TARGET_RATIO
            verdicts.append(f"- {name}: {'met' if ok else 'MISSED'} (target <= {TARGET_RATIO}x)")
    head = ["process", "time", "time / compare(path)", "peak RSS", "peak RSS / compare(path)"]
    print(markdown_table(head, rows))
    print("\n" + "\n".join(verdicts))
    return 0


if __name__ == "__main__":
    sys.exit(main())

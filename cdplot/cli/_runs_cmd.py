"""``cdplot runs``: aggregates, probabilities of improvement and profiles of a table of runs.

Reads one table with a run column (``run``, ``seed``, ``fold``, ...), prints the aggregate
scores and the probabilities of improvement with their stratified-bootstrap intervals (one
bootstrap, shared by everything printed and drawn), and writes JSON, CSV and a figure on
request. Not to be confused with ``cdplot compare A.json B.json`` (two runs of one
benchmark, ``_runs.py``).
"""

from __future__ import annotations

import argparse
import json
from typing import Any, TextIO

from .._errors import CdplotInputError
from ._csv import csv_bytes
from ._figures import figure_format, render
from ._output import Target, commit, plan

__all__ = ["add_parser", "run"]

EPILOG = """\
examples:
  # IQM, median, mean and optimality gap of human-normalised scores, with 95 % intervals
  cdplot runs atari_runs.csv --normalise atari_random_human.csv
  # also every pair's probability of improvement, and the figure of the aggregates
  cdplot runs runs.csv --improvement -o aggregates.pdf
  # rliable's score distribution with bands, on its non-linear axis
  cdplot runs runs.csv --profile runs --figure profile --scale nonlinear -o profile.png
  # Dolan-More performance profile of solvers' times (lower is better)
  cdplot runs times.csv --lower-is-better --profile performance -o profile.pdf
  # ... of scores to maximise (sizes found): the ratio is the best score over each one's
  cdplot runs sizes.csv --profile performance -o profile.pdf

The table is long (task, algorithm, run and score columns) or wide (task and run columns,
one column per algorithm). --normalise FILE is a table with columns task, low (or min) and
high (or max): scores become (score - low) / (high - low).
"""

FIGURES = ("aggregates", "improvement", "profile")
PROFILES = ("runs", "tasks", "performance", "data")


def add_parser(subparsers: Any, common: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """Register ``runs`` on an argparse subparsers object; returns its parser."""
    p = subparsers.add_parser(
        "runs",
        parents=[common],
        help="aggregates, probability of improvement and profiles over runs (rliable)",
        description="Aggregate scores (median, IQM, mean, optimality gap), the probability "
        "of improvement of every pair and performance profiles, with intervals from the "
        "stratified bootstrap over the runs of each task (Agarwal et al. 2021).",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=EPILOG,
    )
    p.add_argument("results", metavar="RESULTS", help="table of runs (CSV or TSV)")
    cols = p.add_argument_group("columns")
    cols.add_argument("--dataset-col", metavar="NAME", help="the task column")
    cols.add_argument("--algorithm-col", metavar="NAME", help="the algorithm column")
    cols.add_argument("--score-col", metavar="NAME", help="the score column")
    cols.add_argument("--run-col", metavar="NAME", help="the run (seed) column")
    cols.add_argument("--lower-is-better", action="store_true", help="lower scores are better")
    a = p.add_argument_group("analysis")
    a.add_argument("--normalise", metavar="FILE", help="per-task low and high scores")
    a.add_argument(
        "--metrics",
        metavar="M1,M2",
        default="median,iqm,mean,optimality-gap",
        help="aggregates (median, iqm, mean, optimality-gap)",
    )
    a.add_argument("--gamma", type=float, default=1.0, help="optimality gap threshold (1.0)")
    a.add_argument("--improvement", action="store_true", help="every pair's P(X > Y)")
    a.add_argument("--profile", choices=PROFILES, help="a profile (see the examples)")
    a.add_argument("--confidence", type=float, default=0.95, help="interval level (0.95)")
    a.add_argument("--n-boot", type=int, default=2000, help="bootstrap replicates (2000)")
    a.add_argument("--seed", type=int, default=None, help="random seed")
    a.add_argument(
        "--resample-tasks",
        action="store_true",
        help="also resample the tasks (rliable's task bootstrap)",
    )
    o = p.add_argument_group("output")
    o.add_argument("--json", metavar="FILE", help="write the results as JSON")
    o.add_argument("--csv", metavar="FILE", help="write the aggregates as CSV")
    o.add_argument("-o", "--output", metavar="FILE", help="write a figure (.pdf .svg .png)")
    o.add_argument("--figure", choices=FIGURES, help="which figure -o draws")
    o.add_argument("--scale", choices=("linear", "log", "nonlinear"), default="linear")
    return p


def _bounds(path: str) -> dict[str, tuple[float, float]]:
    from ..io import read_columns

    columns, name = read_columns(path)
    keys = {k.strip().lower(): k for k in columns}
    task = keys.get("task") or keys.get("dataset") or keys.get("game")
    low = keys.get("low") or keys.get("min")
    high = keys.get("high") or keys.get("max")
    if task is None or low is None or high is None:
        raise CdplotInputError(
            f"--normalise {name}: needs columns task, low (or min) and high (or max); it has "
            f"{', '.join(columns)}."
        )
    return {
        str(t): (float(lo), float(hi))
        for t, lo, hi in zip(columns[task], columns[low], columns[high], strict=True)
    }


def _analyse(args: argparse.Namespace) -> dict[str, Any]:
    from ..io import normalise_runs, read_run_scores
    from ..stats._improvement import probability_of_improvement
    from ..stats._profiles import data_profile, performance_profile, score_profile
    from ..stats._run_aggregates import aggregate_scores
    from ..stats._run_bootstrap import run_bootstrap

    runs = read_run_scores(
        args.results,
        dataset=args.dataset_col,
        algorithm=args.algorithm_col,
        score=args.score_col,
        run=args.run_col,
        higher_is_better=not args.lower_is_better,
        failures=args.profile in ("performance", "data"),
    )
    options = {"confidence": args.confidence}
    out: dict[str, Any] = {"aggregates": None, "improvement": None, "profile": None}
    if args.profile in ("performance", "data"):
        make = performance_profile if args.profile == "performance" else data_profile
        out["profile"] = make(runs, n_boot=args.n_boot, random_state=args.seed, **options)
        return out
    if args.normalise:
        runs = normalise_runs(runs, _bounds(args.normalise))
    boot = run_bootstrap(  # one bootstrap, shared by everything printed and drawn
        runs, n_boot=args.n_boot, random_state=args.seed, tasks=args.resample_tasks
    )
    metrics = [m.strip() for m in args.metrics.split(",") if m.strip()]
    out["aggregates"] = aggregate_scores(
        runs, metrics=metrics, gamma=args.gamma, bootstrap=boot, **options
    )
    if args.improvement or args.figure == "improvement":
        out["improvement"] = probability_of_improvement(runs, bootstrap=boot, **options)
    if args.profile:
        out["profile"] = score_profile(runs, of=args.profile, bootstrap=boot, **options)
    return out


def _draw(found: dict[str, Any], args: argparse.Namespace) -> Any:
    from ..plotting._aggregates_plot import aggregate_plot, improvement_plot
    from ..plotting._profiles import profile_plot

    kind = args.figure or ("profile" if found["profile"] is not None else "aggregates")
    if kind == "profile":
        if found["profile"] is None:
            raise CdplotInputError("--figure profile needs --profile (runs, tasks, ...).")
        return profile_plot(found["profile"], scale=args.scale).figure
    if kind == "improvement":
        return improvement_plot(found["improvement"]).figure
    return aggregate_plot(found["aggregates"]).figure


def run(args: argparse.Namespace, out: TextIO) -> None:
    """Run ``cdplot runs`` with parsed arguments (errors raise :class:`CdplotInputError`)."""
    from ..report._runs import runs_json, runs_text

    wanted = [
        (option, path)
        for option, path in (("--json", args.json), ("--csv", args.csv), ("-o", args.output))
        if path
    ]
    targets: dict[str, Target] = {t.option: t for t in plan(wanted, [args.results])}
    ext = figure_format("-o", args.output, None) if args.output else None
    found = _analyse(args)
    parts = [r for r in (found["aggregates"], found["improvement"]) if r is not None]
    quiet = args.quiet or any(t.kind == "stdout" for t in targets.values())
    if not quiet:
        text = runs_text(parts) if parts else _profile_text(found["profile"])
        print(text, file=out)
    contents: list[tuple[Target, bytes]] = []
    if args.json:
        doc = runs_json(parts or None, found["profile"])
        text = json.dumps(doc, indent=2, ensure_ascii=False, allow_nan=False)
        contents.append((targets["--json"], (text + "\n").encode("utf-8")))
    if args.csv:
        table = found["aggregates"] or found["profile"]
        contents.append((targets["--csv"], csv_bytes(table.to_frame())))
    if args.output and ext is not None:
        contents.append((targets["-o"], render(lambda: _draw(found, args), ext, None)))
    commit(contents)
    if contents and not quiet:
        print("\nwrote " + ", ".join(t.path for t, _ in contents), file=out)


def _profile_text(profile: Any) -> str:
    name = {"performance": "Dolan-More performance", "data": "More-Wild data"}[profile.kind]
    lines = [f"{name} profile over {profile.tau.size} points (fraction at the last point):"]
    for i, a in enumerate(profile.algorithms):
        lines.append(f"  {a}: {profile.profile[i, -1]:.3f}")
    return "\n".join(lines)

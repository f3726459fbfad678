"""``cdplot plan``: how many datasets, items or runs a benchmark needs, from a pilot file.

``add_parser(subparsers, common)`` registers the subcommand, ``run(args, out)`` runs it; bad
input raises :class:`~cdplot.CdplotInputError` (exit status 2, one line, from ``_main``), and
the outputs are written all-or-nothing by ``_output``.
"""

from __future__ import annotations

import argparse
from typing import Any, TextIO

from .._errors import CdplotInputError
from ._csv import csv_bytes
from ._figures import render
from ._output import Target, commit
from ._output import plan as plan_outputs

__all__ = ["add_parser", "run"]

FIGURE_FORMATS = ("pdf", "svg", "png", "pgf", "eps")

EPILOG = """\
examples:
  # the detectable difference now, and the datasets needed for the two best to differ
  cdplot plan results.csv --test wilcoxon --correction holm
  # datasets needed to detect 0.01 between C4.5 and C4.5+m with Nemenyi's test, 90 % power
  cdplot plan results.csv --test nemenyi --correction nemenyi --difference 0.01 \\
      --pair C4.5,C4.5+m --power 0.9 -o power.pdf --json plan.json
  # items needed to separate the top 3 models of one benchmark (item-level log)
  cdplot plan items.csv --top 3 --no-mdd
  # a fitted normal model instead of resampling the pilot's datasets, on 2 processes
  cdplot plan results.csv --model normal --jobs 2

The pilot is any file 'cdplot compare' reads: datasets x algorithms, a long table with a
run/seed/fold column (then N counts runs per task), or one benchmark's items.
"""


class _InputError(CdplotInputError):
    """Bad usage of the subcommand: one line on stderr, exit status 2."""


def add_parser(subparsers: Any, common: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """Register ``plan`` on an argparse subparsers object; returns its parser."""
    p = subparsers.add_parser(
        "plan",
        parents=[common],
        help="datasets, items or runs needed, from a pilot, by simulation",
        description="From a pilot table and the procedure of the study: the minimum "
        "detectable difference at the pilot's size, the number of datasets, items or runs "
        "needed to detect a difference or separate the top models, and each task's "
        "signal-to-noise, by simulation with Monte Carlo errors.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=EPILOG,
    )
    p.add_argument("pilot", metavar="FILE", help="the pilot results (CSV/TSV, logs, ...)")
    proc = p.add_argument_group("procedure")
    proc.add_argument("--test", help="pairwise test (default wilcoxon; mcnemar for 0/1 items)")
    proc.add_argument("--correction", default="holm", help="p-value correction (holm)")
    proc.add_argument("--alpha", type=float, default=0.05, help="significance level (0.05)")
    proc.add_argument("--control", help="compare against this algorithm only")
    q = p.add_argument_group("questions")
    q.add_argument("--power", type=float, default=0.8, help="target power (0.8)")
    q.add_argument("--difference", type=float, help="difference to detect (default: observed)")
    q.add_argument("--pair", metavar="A,B", help="the pair (default: the pilot's two best)")
    q.add_argument("--top", type=int, help="also separate the top M models")
    q.add_argument("--no-mdd", action="store_true", help="skip the minimum detectable difference")
    sim = p.add_argument_group("simulation")
    sim.add_argument("--design", choices=("datasets", "items", "runs"), help="what N counts")
    sim.add_argument("--model", choices=("resample", "normal"), help="resample or fit normal")
    sim.add_argument("--replicates", type=int, default=2000, help="per design point (2000)")
    sim.add_argument("--max-n", type=int, help="largest N searched")
    sim.add_argument("--seed", type=int, default=0, help="random seed (0)")
    sim.add_argument("--jobs", type=int, default=1, help="worker processes (-1: all cores)")
    sim.add_argument("--backend", help="joblib back end: loky, dask, ray, threading")
    sim.add_argument("--scheduler", help="dask scheduler address (with --backend dask)")
    data = p.add_argument_group("data")
    data.add_argument("--lower-is-better", action="store_true", help="errors, losses, times")
    data.add_argument("--dataset-col", help="the column of datasets")
    data.add_argument("--algorithm-col", help="the column of algorithms")
    data.add_argument("--score-col", help="the column of scores")
    out = p.add_argument_group("output")
    out.add_argument("-o", "--output", metavar="FIGURE", help="power against N (.pdf, .png)")
    out.add_argument("--json", metavar="FILE", help="the plan as JSON")
    out.add_argument("--csv", metavar="FILE", help="the simulated design points as CSV")
    return p


def _pair(text: str | None) -> tuple[str, str] | None:
    if text is None:
        return None
    names = [n.strip() for n in text.split(",")]
    if len(names) != 2 or not all(names):
        raise _InputError(f"--pair takes two names A,B, got {text!r}")
    return names[0], names[1]


def _figure_format(path: str) -> str:
    ext = path.rsplit(".", 1)[-1].lower() if "." in path else ""
    if ext not in FIGURE_FORMATS:
        raise _InputError(
            f"cannot tell the figure format of {path!r}; end it with one of "
            f"{', '.join('.' + f for f in FIGURE_FORMATS)}"
        )
    return ext


def run(args: argparse.Namespace, out: TextIO) -> None:
    """Run ``cdplot plan`` with parsed arguments (errors raise :class:`CdplotInputError`)."""
    from ..simulation import plan

    wanted = [
        (option, path)
        for option, path in (("--json", args.json), ("--csv", args.csv), ("-o", args.output))
        if path
    ]
    targets = {t.option: t for t in plan_outputs(wanted, [args.pilot])}
    ext = _figure_format(args.output) if args.output else None
    result = plan(
        args.pilot,
        test=args.test,
        correction=args.correction,
        alpha=args.alpha,
        control=args.control,
        power=args.power,
        difference=args.difference,
        pair=_pair(args.pair),
        top=args.top,
        mdd=not args.no_mdd,
        design=args.design,
        model=args.model,
        n_replicates=args.replicates,
        max_n=args.max_n,
        higher_is_better=False if args.lower_is_better else None,
        random_state=args.seed,
        n_jobs=args.jobs,
        backend=args.backend,
        scheduler=args.scheduler,
        dataset=args.dataset_col,
        algorithm=args.algorithm_col,
        score=args.score_col,
    )
    quiet = args.quiet or any(t.kind == "stdout" for t in targets.values())
    if not quiet:
        print(result, file=out)
    contents: list[tuple[Target, bytes]] = []
    if args.json:
        contents.append((targets["--json"], (result.to_json() + "\n").encode("utf-8")))
    if args.csv:
        contents.append((targets["--csv"], csv_bytes(result.to_frame())))
    if args.output:
        contents.append((targets["-o"], render(lambda: result.plot().figure, ext, None)))
    commit(contents)
    if contents and not quiet:
        print("\nwrote " + ", ".join(t.path for t, _ in contents), file=out)

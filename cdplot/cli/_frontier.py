"""``cdplot frontier``: the cost-performance Pareto frontier of a long table with costs."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, TextIO

from .._errors import CdplotInputError
from ._figures import figure_format, render
from ._output import commit, plan

__all__ = ["add_parser", "run"]

EPILOG = """\
examples:
  cdplot frontier results.csv                       # cost column found by name
  cdplot frontier results.csv --cost-col wallclock -o frontier.pdf
  cdplot frontier results.csv --margin 0.01 --on scores --json frontier.json
  cdplot frontier results.csv --report frontier.html   # CD diagram, frontier figure, table

The table is long: one row per dataset (task), model and run, with a score column and a
cost column (run time, tokens, price; lower is better). A column called cost, price,
tokens, runtime, seconds, latency, ... is the cost; otherwise name it with --cost-col.
"""


def add_parser(sub: Any, common: argparse.ArgumentParser) -> argparse.ArgumentParser:
    cmd = sub.add_parser(
        "frontier",
        parents=[common],
        help="the cost-performance Pareto frontier with bootstrap uncertainty",
        description="Estimate each model's mean cost and performance, the probability that "
        "it lies on the cost-performance Pareto frontier (bootstrap over the datasets), the "
        "frontier band, and which models confidently dominate others (one simultaneous "
        "max-t confidence set: all decisions together wrong with probability <= 1 - "
        "confidence).",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=EPILOG,
    )
    cmd.add_argument("results", metavar="RESULTS", help="a long CSV file, or - for stdin")
    cols = cmd.add_argument_group("columns")
    cols.add_argument("--cost-col", dest="cost", metavar="COL", help="the cost column")
    cols.add_argument("--dataset-col", dest="dataset", metavar="COL")
    cols.add_argument("--algorithm-col", dest="algorithm", metavar="COL")
    cols.add_argument("--score-col", dest="score", metavar="COL")
    cols.add_argument(
        "--lower-is-better", action="store_true", help="lower scores are better (e.g. error)"
    )
    cols.add_argument(
        "--aggregate", choices=("mean", "median"), help="how repeated runs become one score"
    )
    stats = cmd.add_argument_group("statistics")
    stats.add_argument(
        "--on",
        choices=("scores", "ranks"),
        help="performance: mean score or average rank (default ranks; scores for one benchmark)",
    )
    stats.add_argument(
        "--margin",
        type=float,
        metavar="M",
        help="non-inferiority margin (>= 0, performance units) of 'cheaper and non-inferior'",
    )
    stats.add_argument("--confidence", type=float, default=0.95, metavar="C")
    stats.add_argument("--n-boot", type=int, default=2000, metavar="N")
    stats.add_argument("--seed", type=int, default=0, metavar="S")
    out = cmd.add_argument_group("outputs")
    out.add_argument("-o", "--output", metavar="FIGURE", help="frontier figure file")
    out.add_argument("--format", help="figure format (default: from the extension)")
    out.add_argument("--dpi", type=float, help="figure resolution (raster formats)")
    out.add_argument("--json", metavar="FILE", help="the frontier as JSON")
    out.add_argument("--markdown", metavar="FILE", help="the frontier section as Markdown")
    out.add_argument("--latex", metavar="FILE", help="the frontier table as LaTeX")
    out.add_argument("--report", metavar="FILE", help="HTML page: the comparison and the frontier")
    return cmd


def _input(path: str) -> Any:
    return sys.stdin if path == "-" else path


def run(args: argparse.Namespace, out: TextIO) -> None:
    from ..report._frontier import frontier_latex, frontier_markdown, frontier_text
    from ..report._html import to_html
    from ..stats._pareto import compare_with_costs, pareto_frontier

    if args.margin is not None and args.margin < 0:
        raise CdplotInputError(
            f"--margin must be >= 0: it is how much worse the cheaper model may be, got "
            f"{args.margin:g}; e.g. --margin {abs(args.margin):g}."
        )
    fmt = figure_format("-o", args.output, args.format) if args.output else None
    if args.format and not args.output:
        raise CdplotInputError("--format applies to the figure; add -o FIGURE or drop it.")
    wanted = [
        (option, path)
        for option, path in (
            ("-o", args.output),
            ("--json", args.json),
            ("--markdown", args.markdown),
            ("--latex", args.latex),
            ("--report", args.report),
        )
        if path
    ]
    targets = {t.option: t for t in plan(wanted, [args.results])}
    compare_kwargs: dict[str, Any] = {
        key: getattr(args, key)
        for key in ("dataset", "algorithm", "score", "aggregate")
        if getattr(args, key) is not None
    }
    if args.lower_is_better:
        compare_kwargs["higher_is_better"] = False
    result, costs, column = compare_with_costs(
        _input(args.results), cost=args.cost, **compare_kwargs
    )
    frontier = pareto_frontier(
        result,
        cost=costs,
        cost_name=column,
        on=args.on,
        confidence=args.confidence,
        margin=args.margin,
        n_boot=args.n_boot,
        random_state=args.seed,
    )
    contents: list[tuple[Any, Any]] = []
    if fmt is not None:

        def draw() -> Any:
            from ..plotting._pareto_plot import pareto_plot

            return pareto_plot(frontier).figure

        contents.append((targets["-o"], render(draw, fmt, args.dpi)))
    texts = {
        "--json": lambda: json.dumps(frontier.to_dict(), indent=2, allow_nan=False) + "\n",
        "--markdown": lambda: frontier_markdown(frontier),
        "--latex": lambda: frontier_latex(frontier),
        "--report": lambda: to_html(result, frontier=frontier),
    }
    for option, make in texts.items():
        if option in targets:
            contents.append((targets[option], make().encode("utf-8")))
    commit(contents)
    to_stdout = any(t.kind == "stdout" for t in targets.values())
    if not (args.quiet or to_stdout):
        print(frontier_text(frontier), file=out)
        for target in targets.values():
            print(f"wrote {target.path}", file=out)

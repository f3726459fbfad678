"""``cdplot demo``: the CD diagram of Demšar (2006) Table 6, in one command."""

from __future__ import annotations

import argparse
import textwrap
import warnings
from typing import Any, TextIO

from .._errors import PoolDependenceWarning
from ._figures import (
    add_figure_options,
    check_figure_options,
    check_highlight,
    figure_format,
    figure_width,
    render,
)
from ._output import STDOUT, commit, plan

__all__ = ["add_parser", "run"]

DEMO_OUTPUT = "cd-demo.pdf"
#: Why the demo shows the Nemenyi test, printed above its summary (whose caution says the
#: rest; the pool-dependence warning is not printed a second time).
WHY_NEMENYI = (
    "This demo reproduces Demšar (2006), Figure 1a: his Table 6 with the Nemenyi test at "
    "alpha = 0.10, as the paper shows it. For your own results, cdplot compare uses the "
    "Wilcoxon signed-rank test with Holm's correction by default."
)
#: Line width of the printed summary.
SUMMARY_WIDTH = 88
EPILOG = """\
examples:
  cdplot demo                    # writes cd-demo.pdf
  cdplot demo -o demo.svg        # any of pdf, svg, png, pgf, eps
  cdplot demo -o - --format png > demo.png
"""


def add_parser(sub: Any, common: argparse.ArgumentParser) -> argparse.ArgumentParser:
    demo = sub.add_parser(
        "demo",
        parents=[common],
        help="draw the CD diagram of the bundled Demšar (2006) example",
        description="Render the CD diagram of Demšar (2006) Table 6 (four C4.5 variants on "
        "14 data sets; Nemenyi test, alpha = 0.10, as his Figure 1a) and print the summary.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=EPILOG,
    )
    demo.add_argument(
        "-o",
        "--output",
        default=DEMO_OUTPUT,
        metavar="FILE",
        help=f"figure file, or - for standard output (default {DEMO_OUTPUT})",
    )
    add_figure_options(demo)
    return demo


def run(args: argparse.Namespace, out: TextIO) -> None:
    from .. import datasets
    from ..io import parse_scores
    from ..stats._compare import compare

    check_figure_options(args)
    fmt = figure_format("-o", args.output, args.format)
    (target,) = plan([("-o", args.output)])
    data = datasets.load("demsar2006")
    # names checked before the test runs: a mistyped name gets its one error line only
    check_highlight(args.highlight, parse_scores(data).algorithms, "the demo data")
    with warnings.catch_warnings():  # the summary's caution says it, once
        warnings.simplefilter("ignore", PoolDependenceWarning)
        result = compare(data, test="nemenyi", alpha=0.10)
    to_stdout = args.output == STDOUT
    if not (args.quiet or to_stdout):
        print(textwrap.fill(WHY_NEMENYI, SUMMARY_WIDTH) + "\n", file=out)
        print(result.summary(), file=out)

    def draw() -> Any:
        from ..plotting import cd_diagram

        options: dict[str, Any] = {"width": figure_width(args), "highlight": args.highlight}
        if args.title is not None:
            options["title"] = args.title
        return cd_diagram(result, **options).figure

    commit([(target, render(draw, fmt, args.dpi))])
    if not (args.quiet or to_stdout):
        print(f"\nwrote {args.output}", file=out)

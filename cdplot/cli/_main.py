"""The ``cdplot`` command: from a results file to a figure in one line.

``cdplot demo`` draws the bundled Demšar (2006) example; ``cdplot compare RESULTS`` analyses
a CSV/TSV file (or standard input) and writes the diagram, heatmap, report and JSON asked
for. Exit status: 0 on success, 2 for bad input or usage (one line on stderr), 1 for a bug.
Heavy modules (matplotlib, seaborn) are imported only when a figure is written.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import warnings
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

__all__ = ["main"]

FIGURE_FORMATS = ("pdf", "svg", "png", "pgf", "eps")
REPORT_FORMATS = {".md": "markdown", ".markdown": "markdown", ".tex": "latex", ".html": "html"}
COLUMN_WIDTHS = {"single": 3.3, "double": 7.0}
DEMO_OUTPUT = "cd-demo.pdf"

DEMO_EPILOG = """\
examples:
  cdplot demo                    # writes cd-demo.pdf
  cdplot demo -o demo.svg        # any of pdf, svg, png, pgf, eps
"""

COMPARE_EPILOG = """\
RESULTS is a CSV or TSV file, or - for standard input, either
  wide: one row per dataset, a first column with dataset names, one column per algorithm; or
  long: one row per (dataset, algorithm) with a score column (detected when the columns are
        called dataset, algorithm, score, or when there are exactly three columns of which
        the last alone is numeric; otherwise name them with --*-col).

examples:
  cdplot compare results.csv -o cd.pdf
  cdplot compare errors.csv --lower-is-better --test nemenyi --alpha 0.1 -o cd.svg
  cdplot compare runs.csv --dataset-col problem --algorithm-col method --score-col acc \\
      --correction bergmann -o cd.pdf --heatmap apv.pdf --report report.md --json res.json
  cat results.csv | cdplot compare - --control baseline --correction holm -o cd.png
"""


class UsageError(Exception):
    """Bad input or usage: reported on one line, exit status 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> Any:  # argparse prints usage + exits 2 by default
        raise UsageError(f"{message} (see 'cdplot {self.prog.split()[-1]} --help')")


def _build_parser() -> argparse.ArgumentParser:
    from .._version import __version__

    parser = _Parser(
        prog="cdplot",
        description="Statistical comparison of algorithms over datasets, and critical "
        "difference diagrams.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="commands:\n  demo      the diagram of Demšar (2006) Table 6\n"
        "  compare   analyse a results file\n\nrun 'cdplot COMMAND --help' for examples.",
    )
    parser.add_argument("--version", action="version", version=f"cdplot {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    demo = sub.add_parser(
        "demo",
        help="draw the CD diagram of the bundled Demšar (2006) example",
        description="Render the CD diagram of Demšar (2006) Table 6 (four C4.5 variants on "
        "14 data sets; Nemenyi test, alpha = 0.10, as his Figure 1a) and print the summary.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=DEMO_EPILOG,
    )
    demo.add_argument(
        "-o",
        "--output",
        default=DEMO_OUTPUT,
        metavar="FILE",
        help=f"figure file (default {DEMO_OUTPUT})",
    )

    cmp_ = sub.add_parser(
        "compare",
        help="analyse a results file and draw its CD diagram",
        description="Rank the algorithms per dataset, run the Friedman test and a post-hoc "
        "test, print the summary, and write the figures and reports asked for.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=COMPARE_EPILOG,
    )
    cmp_.add_argument("results", metavar="RESULTS", help="CSV/TSV file, or - for stdin")
    out = cmp_.add_argument_group("outputs")
    out.add_argument(
        "-o", "--output", metavar="FIGURE", help="CD diagram file (.pdf, .svg, .png, .pgf, .eps)"
    )
    out.add_argument("--heatmap", metavar="FILE", help="APV heatmap file (same formats)")
    out.add_argument("--report", metavar="FILE", help="report file: .md, .tex or .html")
    out.add_argument("--json", metavar="FILE", help="the whole result as JSON")
    out.add_argument("--width", type=float, metavar="INCHES", help="figure width in inches")
    out.add_argument(
        "--column",
        choices=tuple(COLUMN_WIDTHS),
        help="width preset: single (3.3 in) or double (7 in) column",
    )
    out.add_argument("-q", "--quiet", action="store_true", help="do not print the summary")
    st = cmp_.add_argument_group("statistics")
    st.add_argument(
        "--test", default="wilcoxon", help="wilcoxon (default), sign, mean-ranks or nemenyi"
    )
    st.add_argument(
        "--correction",
        default="holm",
        help="none, bonferroni, holm (default), hochberg, hommel, finner, shaffer, "
        "bergmann; with --control also bonferroni-dunn and li",
    )
    st.add_argument("--alpha", type=float, default=0.05, help="significance level (0.05)")
    st.add_argument("--control", metavar="NAME", help="compare every algorithm with this one")
    st.add_argument(
        "--lower-is-better",
        action="store_true",
        help="lower scores are better (errors, losses, times)",
    )
    st.add_argument(
        "--missing",
        choices=("raise", "drop"),
        default="raise",
        help="drop: drop datasets with missing results (default: error)",
    )
    st.add_argument(
        "--tie-correction",
        action="store_true",
        help="tie-corrected Friedman statistic (as R's friedman.test)",
    )
    st.add_argument(
        "--zero-method",
        choices=("wilcox", "pratt", "zsplit"),
        help="Wilcoxon: treatment of zero differences (default wilcox)",
    )
    st.add_argument(
        "--sign-ties",
        choices=("split", "discard"),
        help="sign test: split ties evenly (default) or discard them",
    )
    cols = cmp_.add_argument_group("long-format columns")
    cols.add_argument("--dataset-col", metavar="COL", help="column with dataset names")
    cols.add_argument("--algorithm-col", metavar="COL", help="column with algorithm names")
    cols.add_argument("--score-col", metavar="COL", help="column with the scores")
    return parser


def _extension(path: str, allowed: Sequence[str], what: str) -> str:
    ext = Path(path).suffix.lower().lstrip(".")
    if ext not in allowed:
        raise UsageError(
            f"cannot tell the {what} format of {path!r} from its extension; use one of "
            + ", ".join(f".{a}" for a in allowed)
        )
    return ext


def _atomic_write(path: str, write: Callable[[Any], None], binary: bool) -> None:
    """Write through a temporary file in the target directory, then rename over ``path``."""
    target = Path(path)
    directory = target.parent if str(target.parent) else Path(".")
    if not directory.is_dir():
        raise UsageError(f"cannot write {path!r}: directory {str(directory)!r} does not exist")
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".part", dir=directory)
    try:
        mode = "wb" if binary else "w"
        encoding = None if binary else "utf-8"
        with os.fdopen(fd, mode, encoding=encoding) as fh:
            write(fh)
        os.chmod(tmp, _file_mode(target))
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _file_mode(target: Path) -> int:
    """The mode a new file would get (or the existing file's): mkstemp's files are 0600."""
    try:
        return target.stat().st_mode & 0o777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def _save_figure(fig: Any, path: str) -> None:
    ext = _extension(path, FIGURE_FORMATS, "figure")
    _atomic_write(path, lambda fh: fig.savefig(fh, format=ext), binary=True)


def _width(args: argparse.Namespace) -> float | None:
    if args.width is not None:
        if args.width <= 0:
            raise UsageError(f"--width must be positive, got {args.width:g}")
        return args.width
    return COLUMN_WIDTHS[args.column] if args.column else None


def _draw_cd(result: Any, path: str, width: float | None) -> None:
    _extension(path, FIGURE_FORMATS, "figure")  # fail before the slow import
    from ..plotting import cd_diagram

    ax = cd_diagram(result, width=width)
    _save_figure(ax.figure, path)


def _draw_heatmap(result: Any, path: str, width: float | None) -> None:
    _extension(path, FIGURE_FORMATS, "figure")
    from ..plotting import apv_heatmap

    ax = apv_heatmap(result, width=width)
    _save_figure(ax.figure, path)


def _write_report(result: Any, path: str) -> None:
    ext = "." + _extension(path, [e.lstrip(".") for e in REPORT_FORMATS], "report")
    kind = REPORT_FORMATS[ext]
    render = {"markdown": "to_markdown", "latex": "to_latex", "html": "_repr_html_"}[kind]
    text = getattr(result, render)()
    if kind == "html" and not text.lstrip().lower().startswith("<!doctype"):
        text = (
            '<!DOCTYPE html>\n<html><head><meta charset="utf-8"></head><body>\n'
            f"{text}\n</body></html>\n"
        )
    _atomic_write(path, lambda fh: fh.write(text if text.endswith("\n") else text + "\n"), False)


def _run_demo(args: argparse.Namespace, out: Any) -> None:
    from .. import datasets
    from ..stats._compare import compare

    _extension(args.output, FIGURE_FORMATS, "figure")
    result = compare(datasets.load("demsar2006"), test="nemenyi", alpha=0.10)
    print(result.summary(), file=out)
    _draw_cd(result, args.output, None)
    print(f"\nwrote {args.output}", file=out)


def _run_compare(args: argparse.Namespace, out: Any) -> None:
    from .._json import result_to_json
    from ..stats._compare import compare

    width = _width(args)
    for path in (args.output, args.heatmap):
        if path:
            _extension(path, FIGURE_FORMATS, "figure")
    if args.report:
        _extension(args.report, [e.lstrip(".") for e in REPORT_FORMATS], "report")
    source: Any = sys.stdin if args.results == "-" else args.results
    options: dict[str, Any] = {}
    if args.zero_method:
        if args.test != "wilcoxon":
            raise UsageError("--zero-method applies to --test wilcoxon only")
        options["zero_method"] = args.zero_method
    if args.sign_ties:
        if args.test != "sign":
            raise UsageError("--sign-ties applies to --test sign only")
        options["ties"] = args.sign_ties
    result = compare(
        source,
        dataset=args.dataset_col,
        algorithm=args.algorithm_col,
        score=args.score_col,
        higher_is_better=not args.lower_is_better,
        test=args.test,
        correction=args.correction,
        alpha=args.alpha,
        control=args.control,
        missing=args.missing,
        tie_correction=args.tie_correction,
        **options,
    )
    if not args.quiet:
        print(result.summary(), file=out)
    written = []
    if args.json:
        text = result_to_json(result)
        _atomic_write(args.json, lambda fh: fh.write(text + "\n"), binary=False)
        written.append(args.json)
    if args.report:
        _write_report(result, args.report)
        written.append(args.report)
    if args.output:
        _draw_cd(result, args.output, width)
        written.append(args.output)
    if args.heatmap:
        _draw_heatmap(result, args.heatmap, width)
        written.append(args.heatmap)
    if written and not args.quiet:
        print("\nwrote " + ", ".join(written), file=out)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``cdplot`` command line; returns the exit status.

    Parameters
    ----------
    argv : sequence of str, optional
        Arguments without the program name (default ``sys.argv[1:]``).

    Returns
    -------
    int
        0 on success, 2 for bad input or usage (one line on stderr).
    """
    from .._errors import CdplotInputError, CdplotWarning

    parser = _build_parser()
    caught: list[warnings.WarningMessage] = []
    try:
        args = parser.parse_args(argv)
        if args.command is None:
            parser.print_help()
            return 2
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", CdplotWarning)
            if args.command == "demo":
                _run_demo(args, sys.stdout)
            else:
                _run_compare(args, sys.stdout)
    except (UsageError, CdplotInputError) as exc:
        _print_warnings(caught)
        print(f"cdplot: error: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        _print_warnings(caught)
        where = f" {exc.filename!r}" if getattr(exc, "filename", None) else ""
        print(f"cdplot: error: cannot write{where}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    except SystemExit as exc:  # --help and --version
        return exc.code if isinstance(exc.code, int) else 0
    except KeyboardInterrupt:
        return 130
    _print_warnings(caught)
    return 0


def _print_warnings(caught: list[warnings.WarningMessage] | None) -> None:
    for w in caught or ():
        print(f"cdplot: warning: {w.message}", file=sys.stderr)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

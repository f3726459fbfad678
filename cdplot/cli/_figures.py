"""Figure options shared by the subcommands, and figures rendered to bytes.

Everything that can be checked without matplotlib (sizes, formats, the TeX engine for PGF)
is checked before any input is read; matplotlib is imported only to draw.
"""

from __future__ import annotations

import argparse
import io
import math
import os
import shutil
import sys
from collections.abc import Callable, Sequence
from typing import Any

from .._errors import CdplotInputError, spell
from ._output import STDOUT

__all__ = [
    "COLUMN_WIDTHS",
    "FIGURE_KINDS",
    "FIGURE_FORMATS",
    "add_figure_options",
    "check_figure_options",
    "check_highlight",
    "figure_format",
    "figure_width",
    "render",
    "tex_engine",
]

FIGURE_FORMATS = ("pdf", "svg", "png", "pgf", "eps")
BINARY_FORMATS = ("pdf", "png", "eps")
#: TeX points per inch.
TEX_POINTS = 72.27
#: Column and text widths (TeX points) of the usual classes, as LaTeX sets them:
#: ``\columnwidth`` for a venue's name, ``\textwidth`` (a figure* across both columns)
#: for ``<venue>-double``. article: ``\documentclass[twocolumn,10pt]{article}``, measured
#: with pdflatex (size10.clo; letter paper is LaTeX's default, a4 with ``a4paper``); acm:
#: acmart ``sigconf`` (paper 8.5 in, inner and outer margins 54 pt, columnsep 2 pc, in
#: acmart.dtx); ieee: IEEEtran (``\textwidth`` 43 pc = 2 x 21 pc + ``\columnsep`` 1 pc);
#: lncs: llncs (one column, ``\textwidth`` 12.2 cm).
VENUE_POINTS: dict[str, float] = {
    "article": 229.5,
    "article-double": 469.0,
    "article-a4": 221.0,
    "article-a4-double": 452.0,
    "acm": (8.5 * TEX_POINTS - 2 * 54.0 - 24.0) / 2,  # 241.1475 pt
    "acm-double": 8.5 * TEX_POINTS - 2 * 54.0,  # 506.295 pt
    "ieee": 252.0,
    "ieee-double": 516.0,
    "lncs": 12.2 / 2.54 * TEX_POINTS,  # 347.1235 pt
}
#: ``single`` and ``double`` fit every venue: the narrowest column and the narrowest
#: two-column text width (both of article on A4 paper).
COLUMN_WIDTHS: dict[str, float] = {
    "single": min(v for k, v in VENUE_POINTS.items() if not k.endswith("-double")) / TEX_POINTS,
    "double": min(v for k, v in VENUE_POINTS.items() if k.endswith("-double")) / TEX_POINTS,
    **{name: points / TEX_POINTS for name, points in VENUE_POINTS.items()},
}
#: ``--figure``: auto (the CD diagram while legible at the width, else the rank plot) or one.
FIGURE_KINDS = ("auto", "cd", "ranks", "mcm")
#: Default resolution of raster output (PNG); vector formats use it for rasterised parts only.
DEFAULT_DPI = 300.0
#: TeX engines matplotlib's PGF backend can run to measure text, in order of preference.
TEX_ENGINES = ("xelatex", "lualatex", "pdflatex")
#: Largest sizes accepted (a typo guard: a 1000-inch figure is not a CD diagram).
MAX_WIDTH = 100.0
MAX_DPI = 2400.0


def add_figure_options(parser: argparse.ArgumentParser) -> None:
    """``--format --width --column --dpi --title/--no-title --highlight``."""
    fig = parser.add_argument_group("figure options")
    fig.add_argument(
        "--format",
        choices=FIGURE_FORMATS,
        help="figure format (default: from the file's extension; needed with -o -)",
    )
    fig.add_argument("--width", type=float, metavar="INCHES", help="figure width in inches")
    fig.add_argument(
        "--column",
        choices=tuple(COLUMN_WIDTHS),
        metavar="PRESET",
        help="width preset, a LaTeX class's \\columnwidth: article (229.5 pt), article-a4, acm, "
        "ieee, lncs; <venue>-double its \\textwidth; single (221 pt) and double (452 pt) fit "
        "every venue",
    )
    fig.add_argument(
        "--dpi",
        type=float,
        metavar="DPI",
        help=f"resolution of PNG output (default {DEFAULT_DPI:g})",
    )
    title = fig.add_mutually_exclusive_group()
    title.add_argument(
        "--title", metavar="TEXT", help="title of the CD diagram (default: the test)"
    )
    title.add_argument(
        "--no-title", dest="title", action="store_false", help="no title above the CD diagram"
    )
    fig.add_argument("--highlight", nargs="+", metavar="NAME", help="algorithms to draw in colour")


def _positive(value: float | None, flag: str, limit: float, unit: str) -> None:
    if value is None:
        return
    if not math.isfinite(value) or value <= 0:
        raise CdplotInputError(f"{flag} must be a positive number of {unit}, got {value:g}.")
    if value > limit:
        raise CdplotInputError(f"{flag} {value:g} is too large; at most {limit:g} {unit}.")


def check_figure_options(args: argparse.Namespace) -> None:
    """Sizes finite and positive, ``--width`` and ``--column`` not both."""
    _positive(args.width, "--width", MAX_WIDTH, "inches")
    _positive(args.dpi, "--dpi", MAX_DPI, "dots per inch")
    if args.width is not None and args.column is not None:
        raise CdplotInputError(
            f"--width {args.width:g} and --column {args.column} both set the width; give one."
        )


def figure_width(args: argparse.Namespace) -> float | None:
    if args.width is not None:
        return float(args.width)
    return COLUMN_WIDTHS[args.column] if args.column else None


def figure_format(option: str, path: str, fmt: str | None) -> str:
    """The format of a figure output, from ``--format`` or the file's extension.

    Checked before any input is read; a PGF figure also needs a TeX engine on PATH.
    """
    ext = os.path.splitext(path)[1].lower().lstrip(".")
    if path == STDOUT:
        if fmt is None:
            raise CdplotInputError(
                f"{option} - writes the figure to standard output; say which format with "
                f"--format ({'|'.join(FIGURE_FORMATS)}), e.g. {option} - --format pdf."
            )
        chosen = fmt
        if chosen in BINARY_FORMATS and sys.stdout.isatty():
            raise CdplotInputError(
                f"{option} - --format {fmt} would write a binary file to the terminal; "
                f"redirect it, e.g. {option} - --format {fmt} > figure.{fmt}."
            )
    elif fmt is not None:
        if ext in FIGURE_FORMATS and ext != fmt:
            raise CdplotInputError(
                f"{option} {path!r} has the extension .{ext} but --format is {fmt}; name the "
                f"file .{fmt} or drop --format."
            )
        chosen = fmt
    elif ext in FIGURE_FORMATS:
        chosen = ext
    else:
        raise CdplotInputError(
            f"cannot tell the figure format of {path!r} ({option}) from its extension; use "
            f"one of {', '.join('.' + f for f in FIGURE_FORMATS)}, or pass --format."
        )
    if chosen == "pgf" and tex_engine() is None:
        raise CdplotInputError(
            f"writing PGF ({option} {path}) needs a TeX engine ({', '.join(TEX_ENGINES)}) on "
            "PATH, and none was found; install TeX Live, or write .pdf or .svg instead."
        )
    return chosen


def tex_engine() -> str | None:
    """The first TeX engine on PATH (PGF output needs one to measure text), or None."""
    for engine in TEX_ENGINES:
        if shutil.which(engine):
            return engine
    return None


def render(draw: Callable[[], Any], fmt: str, dpi: float | None) -> bytes:
    """Draw a figure (``draw`` returns it) and return the bytes of the file.

    A ValueError raised by cdplot's own plotting code (its validation of sizes and names)
    is user input and becomes :class:`CdplotInputError`; the ``--width`` advice is added.
    """
    try:
        fig = draw()
    except CdplotInputError:
        raise
    except ValueError as exc:
        origin = _origin(exc)
        if origin.startswith(("matplotlib._mathtext", "matplotlib.mathtext")):
            raise CdplotInputError(_mathtext_message(exc)) from None
        if not origin.startswith("cdplot.plotting"):
            raise
        advice = ""
        if "width" in str(exc):
            advice = f" Use a larger {spell('width')} (e.g. {spell('width', 7)})."
        raise CdplotInputError(f"{exc}.{advice}".replace("..", ".")) from None
    buffer = io.BytesIO()
    kwargs: dict[str, Any] = {"format": fmt, "dpi": DEFAULT_DPI if dpi is None else dpi}
    import matplotlib as mpl

    rc: dict[str, Any] = {}
    if fmt == "pgf":
        engine = mpl.rcParams["pgf.texsystem"]
        if not shutil.which(engine):
            rc["pgf.texsystem"] = tex_engine()
    try:
        with mpl.rc_context(rc):
            fig.savefig(buffer, **kwargs)
    except Exception as exc:
        # matplotlib's PGF backend runs TeX on every label: LatexError, or a ValueError
        # "Error measuring ..." with TeX's log, when a name is not valid TeX (e.g. "c&d")
        tex_failed = type(exc).__name__ == "LatexError" or str(exc).startswith("Error measuring")
        if fmt == "pgf" and tex_failed:
            raise CdplotInputError(
                f"TeX could not typeset the figure for PGF output ({_tex_reason(str(exc))}); "
                "rename the algorithms without TeX's special characters (& % $ # _ { } ~ ^ "
                "\\), or write .pdf or .svg instead."
            ) from None
        raise
    return buffer.getvalue()


def _tex_reason(log: str) -> str:
    """TeX's own complaint: the first line starting with "!" in its log."""
    for line in log.splitlines():
        if line.strip().startswith("!"):
            return line.strip().lstrip("! ").rstrip(".")
    return "TeX failed"


def _origin(exc: BaseException) -> str:
    """The module of the innermost frame that raised ``exc``."""
    tb = exc.__traceback__
    last = ""
    while tb is not None:
        last = str(tb.tb_frame.f_globals.get("__name__", ""))
        tb = tb.tb_next
    return last


def _mathtext_message(exc: BaseException) -> str:
    """A label with ``$...$`` that matplotlib's math parser rejects.

    matplotlib's message is the text, a caret line, then ``ParseException: reason``.
    """
    lines = [line.strip() for line in str(exc).strip().splitlines() if line.strip()]
    text = lines[0] if lines else ""
    reason = lines[-1].split("Exception:")[-1].split(", found")[0].strip() if lines else ""
    return (
        f"cannot draw the label '{text}': matplotlib reads text between $ signs as "
        f"mathematics and rejects it ({reason}); change the label (an algorithm name or the "
        "title), or write \\$ for a literal dollar sign."
    )


def check_highlight(names: Sequence[str] | None, algorithms: Sequence[str], source: str) -> None:
    """Every ``--highlight`` name is an algorithm of the results."""
    from .._errors import suggest

    for name in names or ():
        if name not in algorithms:
            raise CdplotInputError(
                f"--highlight {name!r} is not an algorithm of {source}; the algorithms are "
                f"{', '.join(repr(a) for a in algorithms)}." + suggest(name, algorithms)
            )

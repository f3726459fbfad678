"""The ``cdplot`` command: the parser, the exit codes, the warnings.

``cdplot demo`` draws the bundled Demšar (2006) example (:mod:`._demo`); ``cdplot compare
RESULTS...`` analyses CSV/TSV files (:mod:`._compare`). Outputs are written by
:mod:`._output` (checked first, all-or-nothing, never over a link or a special file).

Exit status: 0 success; 2 for any user-caused condition (exactly one ``cdplot: error:``
line); 1 for a bug in cdplot (one line asking for a report, ``--debug`` shows the
traceback); 130 interrupted (Ctrl-C); 143 terminated (SIGTERM); 141 when the reader of
standard output went away (``cdplot ... | head``). Messages name command-line
flags (the run happens inside :func:`cdplot._errors.cli_spelling`). Heavy modules
(matplotlib, seaborn, pandas) are imported only when needed.
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import os
import signal
import sys
import threading
import traceback
import warnings
from collections.abc import Iterator, Sequence
from typing import Any

from .._errors import CdplotInputError, cli_spelling
from . import EXIT_INTERRUPTED
from ._output import PENDING_SIGNALS, Terminated, raise_pending

__all__ = ["UsageError", "main"]

EXIT_OK, EXIT_BUG, EXIT_USER = 0, 1, 2
EXIT_TERMINATED, EXIT_BROKEN_PIPE = 143, 141


class UsageError(CdplotInputError):
    """Bad usage of the command line (argparse's complaints): exit status 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> Any:  # argparse prints usage + exits 2 by default
        command = " ".join(self.prog.split()[1:2])  # "" for the top-level parser
        raise UsageError(f"{message} (see '{' '.join(['cdplot', command]).strip()} --help')")


def _common() -> argparse.ArgumentParser:
    """Options every subcommand takes."""
    common = argparse.ArgumentParser(add_help=False)
    g = common.add_argument_group("messages")
    g.add_argument(
        "-q",
        "--quiet",
        action="store_true",
        help="print nothing but errors (no summary, no warnings)",
    )
    g.add_argument("--no-warn", action="store_true", help="do not print cdplot's warnings")
    g.add_argument("--debug", action="store_true", help="show the traceback of any error")
    return common


def build_parser() -> argparse.ArgumentParser:
    """The ``cdplot`` parser: one subparser per subcommand module."""
    from .._version import __version__
    from . import _check, _compare, _demo, _frontier, _plan, _runs_cmd, _simulate

    parser = _Parser(
        prog="cdplot",
        description="Statistical comparison of algorithms over datasets, and critical "
        "difference diagrams.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="commands:\n  demo      the diagram of Demšar (2006) Table 6\n"
        "  compare   analyse results files\n"
        "  simulate  power and error rates of the procedures by simulation\n"
        "  plan      datasets, items or runs needed, from a pilot\n"
        "  check     test claims (A is best, A better than B) with an exit status for CI\n"
        "  frontier  the cost-performance Pareto frontier with uncertainty\n"
        "  runs      aggregates, probability of improvement and profiles over runs\n\n"
        "exit status: 0 success, 2 bad input or usage, 1 a bug in cdplot, 130 interrupted;\n"
        "cdplot check: 0 supported, 1 contradicted, 3 undecided (see its --help).\n"
        "run 'cdplot COMMAND --help' for examples.",
    )
    parser.add_argument("--version", action="version", version=f"cdplot {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    common = _common()
    for module in (_demo, _compare, _simulate, _plan, _check, _frontier, _runs_cmd):
        module.add_parser(sub, common)
    return parser


def _runner(command: str) -> Any:
    from . import _check, _compare, _demo, _frontier, _plan, _runs_cmd, _simulate

    return {
        "demo": _demo.run,
        "compare": _compare.run,
        "simulate": _simulate.run,
        "plan": _plan.run,
        "check": _check.run,
        "frontier": _frontier.run,
        "runs": _runs_cmd.run,
    }[command]


def _one_line(text: object) -> str:
    return " ".join(str(text).split())


@contextlib.contextmanager
def _signals() -> Iterator[None]:
    """SIGTERM raises :class:`Terminated` (so temporaries are removed), SIGINT KeyboardInterrupt."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def on_term(signum: int, frame: Any) -> None:
        PENDING_SIGNALS.append(signum)  # checked again at safe points if this is swallowed
        raise Terminated

    def on_int(signum: int, frame: Any) -> None:
        PENDING_SIGNALS.append(signum)
        raise KeyboardInterrupt

    PENDING_SIGNALS.clear()
    old_term = signal.signal(signal.SIGTERM, on_term)
    old_int = signal.signal(signal.SIGINT, on_int)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, old_term)
        signal.signal(signal.SIGINT, old_int)


def main(argv: Sequence[str] | None = None) -> int:
    """The command line behind :func:`cdplot.cli.main` (same arguments, same exit statuses),
    run once the parser and the statistics are imported."""
    argv = list(sys.argv[1:] if argv is None else argv)
    debug = "--debug" in argv
    caught: list[Any] = []
    args = None
    status = EXIT_OK
    try:
        with _signals(), cli_spelling():
            parser = build_parser()
            try:
                args = parser.parse_args(argv)
            except UsageError as exc:
                if "required: RESULTS" in str(exc) and "--highlight" in argv:
                    raise UsageError(
                        f"{exc}; --highlight takes every name after it, so put RESULTS "
                        "before --highlight"
                    ) from None
                if "required: RESULTS" in str(exc) and "--lower-is-better" in argv:
                    raise UsageError(
                        f"{exc}; --lower-is-better takes an optional column name, so put "
                        "RESULTS before --lower-is-better"
                    ) from None
                raise
            if args.command is None:
                parser.print_help(sys.stderr)
                return EXIT_USER
            debug = args.debug
            _refuse_empty_paths(args)
            silent = args.quiet or args.no_warn
            with warnings.catch_warnings(record=True) as recorded, _library_log(caught, silent):
                warnings.simplefilter("ignore" if silent else "always")
                try:
                    returned = _runner(args.command)(args, sys.stdout)
                    raise_pending()
                    status = returned if isinstance(returned, int) else EXIT_OK
                finally:
                    caught[:0] = recorded
    except CdplotInputError as exc:
        _print_warnings(caught)
        if debug:
            traceback.print_exc()
        print(f"cdplot: error: {_one_line(exc)}", file=sys.stderr)
        return EXIT_USER
    except SystemExit as exc:  # --help and --version
        return exc.code if isinstance(exc.code, int) else EXIT_OK
    except BrokenPipeError:  # the reader went away (cdplot ... | head): stop quietly
        _silence_stdout()
        return EXIT_BROKEN_PIPE
    except KeyboardInterrupt:
        print("cdplot: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except Terminated:
        print("cdplot: terminated", file=sys.stderr)
        return EXIT_TERMINATED
    except Exception as exc:  # a bug: one line, the traceback with --debug
        from .._version import __version__

        _print_warnings(caught)
        if debug:
            traceback.print_exc()
        print(
            f"cdplot: error: internal error ({type(exc).__name__}: {_one_line(exc)}); this is "
            f"a bug in cdplot {__version__}; please report it with the command you ran and "
            "the traceback that --debug shows.",
            file=sys.stderr,
        )
        return EXIT_BUG
    _print_warnings(caught)
    return status


#: Options that name an output file (dest -> flag): an empty value is refused.
_OUTPUT_FLAGS = {
    "output": "-o",
    "json": "--json",
    "csv": "--csv",
    "report": "--report",
    "heatmap": "--heatmap",
    "item_tests": "--item-tests",
    "markdown": "--markdown",
    "methods": "--methods",
    "bib": "--bib",
}


def _refuse_empty_paths(args: argparse.Namespace) -> None:
    """``-o ""`` (``-o "$OUT"`` with ``OUT`` unset) is a mistake, never "no output"."""
    for dest, flag in _OUTPUT_FLAGS.items():
        if getattr(args, dest, None) == "":
            raise UsageError(
                f"{flag} got an empty file name (an unset shell variable?); give a file name, "
                f"or - for standard output, or leave out {flag}."
            )


def _silence_stdout() -> None:
    """Point the process's stdout at /dev/null so the exit-time flush does not fail again."""
    if sys.stdout is not sys.__stdout__:
        return
    with contextlib.suppress(OSError, ValueError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())


class _Collect(logging.Handler):
    def __init__(self, into: list[Any]) -> None:
        super().__init__(logging.WARNING)
        self.into = into

    def emit(self, record: logging.LogRecord) -> None:
        self.into.append(record.getMessage())


@contextlib.contextmanager
def _library_log(into: list[Any], silent: bool) -> Iterator[None]:
    """matplotlib's logged warnings (e.g. a missing glyph) become cdplot warning lines."""
    logger = logging.getLogger("matplotlib")
    handler = _Collect(into) if not silent else logging.NullHandler()
    old_propagate = logger.propagate
    logger.addHandler(handler)
    logger.propagate = False
    try:
        yield
    finally:
        logger.removeHandler(handler)
        logger.propagate = old_propagate


def _print_warnings(caught: list[Any] | None) -> None:
    """One line per warning, each saying how to silence it on the command line."""
    seen: set[str] = set()
    for w in caught or ():
        text = _one_line(getattr(w, "message", w))
        if text in seen:
            continue
        seen.add(text)
        print(f"cdplot: warning: {text} (silence with --no-warn or -q)", file=sys.stderr)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

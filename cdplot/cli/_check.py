"""``cdplot check``: claims about a comparison answered with an exit status, for CI.

``cdplot check results.csv --claim "A is best" --claim "A better than B"`` compares the
results file as ``cdplot compare`` does and tests the claims together
(:func:`cdplot.check`); ``cdplot check base.jsonl new.jsonl --no-worse-than 0.01`` is the
regression gate on two runs of one benchmark (the claim "new not worse than base by
0.01"). The exit status says the outcome; ``--markdown FILE`` writes a pull-request comment
(all-or-nothing, :mod:`._output`).
"""

from __future__ import annotations

import argparse
import os
import re
import warnings
from typing import Any, TextIO

from .._errors import CdplotInputError
from ._output import STDOUT, plan

__all__ = ["EPILOG", "add_parser", "run"]

#: compare() keywords that read_runs takes (the columns of the logs, missing items)
_RUN_READER = ("item", "score", "cluster", "sample", "missing")
#: bytes read to recognise a saved comparison (its format's name comes first)
_HEAD_BYTES = 256

EPILOG = """\
claims (one --claim each; keywords in any letter case, a name holding a keyword in quotes):
  NAME is best                         NAME among the top N
  NAME better than NAME                NAME not worse than NAME by MARGIN
RESULTS may also be a comparison saved by cdplot compare --json (then only --alpha applies).
MARGIN is the largest loss still accepted, >= 0, in score units (for errors and times
too: 'B not worse than A by 0.5' means B's error exceeds A's by less than 0.5). A NAME is a
model (algorithm) of RESULTS, or its --label.

The claims are tested together: each gives two one-sided hypotheses (the claim is false;
the claim is true), and Holm's procedure over all of them keeps the probability that any
claim gets a wrong verdict at most --alpha (default 0.05). "is best" and "among the top N"
are intersection-union tests over the rivals.

regression gate: two runs of one benchmark (item-level logs of the same items, one model a
file, named by the file or --name), BASE first:
  cdplot check base.jsonl new.jsonl --no-worse-than 0.01 --markdown comment.md
checks "new not worse than base by 0.01" on the paired item scores (Tango's score test for
0/1 scores, the paired or cluster-robust t-test otherwise).

examples:
  cdplot check results.csv --claim "RF is best" --claim "RF better than SVM"
  cdplot check errors.csv --lower-is-better --claim "B not worse than A by 0.01"
  cdplot check items.parquet --cluster-col passage --claim "gpt among the top 3"

exit status: 0 every claim supported, 1 a claim contradicted, 3 no claim contradicted and
some undecided, 2 bad input or usage (one line on stderr); also 1 for a bug in cdplot (its
message says so), 130 interrupted, 143 terminated.
"""


def add_parser(sub: Any, common: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """The ``check`` subcommand: RESULTS, the claims, the gate, the Markdown summary, and
    the reading and statistics options of ``cdplot compare``."""
    from ._compare import COMPARE_FLAGS
    from ._labels import add_label_options

    parser = sub.add_parser(
        "check",
        parents=[common],
        help="test claims (A is best, A better than B, ...) with an exit status for CI",
        description="Compare RESULTS as cdplot compare does, then test the claims together "
        "and answer each supported, contradicted or undecided.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=EPILOG,
    )
    parser.add_argument(
        "results",
        metavar="RESULTS",
        nargs="+",
        help="a results file (as cdplot compare reads it, or a comparison saved with its "
        "--json), or two runs of one benchmark (BASE NEW) for --no-worse-than",
    )
    group = parser.add_argument_group("claims")
    group.add_argument(
        "--claim",
        action="append",
        metavar="CLAIM",
        help="a claim to test (repeatable; the grammar is below)",
    )
    group.add_argument(
        "--no-worse-than",
        type=float,
        metavar="MARGIN",
        help="regression gate on two runs BASE NEW: the claim 'NEW not worse than BASE by "
        "MARGIN' (MARGIN >= 0, score units)",
    )
    group.add_argument(
        "--markdown",
        metavar="FILE",
        help="write the verdicts as Markdown (a pull-request comment); - for standard output",
    )
    group.add_argument(
        "--name",
        action="append",
        metavar="NAME",
        help="the model of a run file (repeat once per file; default: the file's stem)",
    )
    add_label_options(parser)
    groups: dict[str, Any] = {}
    for flag in COMPARE_FLAGS:
        if flag.group not in groups:
            groups[flag.group] = parser.add_argument_group(flag.group)
        groups[flag.group].add_argument(
            flag.flag, dest=flag.keyword, default=argparse.SUPPRESS, **flag.kwargs
        )
    return parser


def _run_names(args: argparse.Namespace) -> list[str]:
    files = list(args.results)
    if args.name is not None and len(args.name) != len(files):
        raise CdplotInputError(
            f"got {len(args.name)} --name for {len(files)} RESULTS files; give one --name per "
            "file, in the same order."
        )
    stems = [os.path.splitext(os.path.basename(f))[0] for f in files]
    names = list(args.name) if args.name else stems
    if STDOUT in files and len(files) > 1:
        raise CdplotInputError("runs are read from files; name files instead of - (stdin).")
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise CdplotInputError(
            f"two RESULTS files are both called {twice[0]!r}; tell them apart with --name."
        )
    return names


def _comparison(args: argparse.Namespace, options: dict[str, Any]) -> tuple[Any, list[str]]:
    """The comparison of RESULTS (one file, or the runs of several) and the run names."""
    if len(args.results) == 1:
        if args.name:
            raise CdplotInputError("--name names the runs of several RESULTS files; drop it.")
        from ..stats._compare import compare
        from ._compare import _read_stdin

        path = args.results[0]
        if _is_saved_result(path):
            return _saved_result(path, options), []
        return compare(_read_stdin() if path == STDOUT else path, **options), []
    from ..io._runs import read_runs
    from ..stats._benchmark import compare_benchmark, refuse_board_options
    from ._runs import _BOARD, _COMPARISON, _READER

    names = _run_names(args)
    refuse_board_options(
        **{k: options[k] for k in _BOARD if k in options},
        test_options={
            k: v for k, v in options.items() if k not in (*_READER, *_BOARD, *_COMPARISON)
        },
    )
    reading = {k: options[k] for k in _RUN_READER if k in options}
    items = read_runs(args.results, names=names, **reading)
    given = {k: v for k, v in options.items() if k in _COMPARISON}
    return compare_benchmark(items, **given), names


def _is_saved_result(path: str) -> bool:
    """Whether ``path`` is a comparison saved by ``cdplot compare --json`` (its document
    opens with its format's name)."""
    if path == STDOUT or not path.lower().endswith(".json") or not os.path.isfile(path):
        return False
    with open(path, "rb") as fh:
        head = fh.read(_HEAD_BYTES).decode("utf-8", errors="replace")
    return re.match(r'\s*\{\s*"format"\s*:\s*"cdplot-comparison"', head) is not None


def _saved_result(path: str, options: dict[str, Any]) -> Any:
    """The saved comparison; only ``--alpha`` (the claims' level) applies to it."""
    from .._json_check import load_result

    fixed = sorted(k for k in options if k != "alpha")
    if fixed:
        from .._errors import spell

        raise CdplotInputError(
            f"{path!r} is a saved comparison, whose analysis is fixed; drop "
            f"{', '.join(spell(k) for k in fixed)} (only --alpha, the claims' level, applies)."
        )
    return load_result(path)


def _claims(args: argparse.Namespace, runs: list[str]) -> list[str]:
    claims = list(args.claim or [])
    margin = args.no_worse_than
    if margin is not None:
        if len(runs) != 2:
            raise CdplotInputError(
                "--no-worse-than gates two runs of one benchmark, BASE then NEW (e.g. cdplot "
                f"check base.jsonl new.jsonl --no-worse-than 0.01); got {len(args.results)} "
                "RESULTS file(s)."
            )
        if not margin >= 0 or margin == float("inf"):
            raise CdplotInputError(
                f"--no-worse-than {margin:g} must be a margin >= 0 in score units, the largest "
                "loss of NEW against BASE still accepted (e.g. --no-worse-than 0.01)."
            )
        base, new = runs
        claims.append(f"'{new}' not worse than '{base}' by {margin!r}")
    if not claims:
        raise CdplotInputError(
            "nothing to check: give --claim CLAIM (e.g. --claim 'A is best'), or two runs "
            "with --no-worse-than MARGIN."
        )
    return claims


def run(args: argparse.Namespace, out: TextIO) -> int:
    """Compare, check the claims, print the verdicts, write ``--markdown``; the exit status."""
    from ..stats._claims import check
    from ._compare import compare_options, metric_directions
    from ._output import commit

    directions = metric_directions(args)
    if directions is not None and len(directions) > 1:
        raise CdplotInputError(
            "cdplot check tests claims about one metric; give one --score-col (run cdplot "
            "check once per metric)."
        )
    gate = args.no_worse_than is not None
    if (args.claim is None and not gate) or (gate and len(args.results) != 2):
        _claims(args, [])  # says what to give, before anything is read
    wanted = [("--markdown", args.markdown)] if args.markdown else []
    targets = plan(wanted, [a for a in args.results if a != STDOUT])
    options = compare_options(args)
    raised: list[warnings.WarningMessage] = []
    try:
        with warnings.catch_warnings(record=True) as raised:
            warnings.simplefilter("always")
            result, runs = _comparison(args, options)
            claims = _claims(args, runs)
            verdicts = check(result, claims, alpha=options.get("alpha"))
    finally:  # the reading's warnings are said, also before an error
        for w in raised:
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
    to_stdout = bool(targets) and targets[0].kind == "stdout"
    if not (args.quiet or to_stdout):
        print(verdicts, file=out)
    if targets:
        commit([(targets[0], verdicts.to_markdown().encode("utf-8"))])
        if not (args.quiet or to_stdout):
            print(f"\nwrote {targets[0].path}", file=out)
    return verdicts.exit_code

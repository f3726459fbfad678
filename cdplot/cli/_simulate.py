"""``cdplot simulate``: a simulation study of the post-hoc procedures from the command line.

``add_parser(subparsers, common)`` registers the subcommand, ``run(args, out)`` runs it; bad
input raises :class:`~cdplot.CdplotInputError` (exit status 2, one line, from ``_main``), and
the outputs are written all-or-nothing by ``_output``. Heavy modules (joblib, dask,
matplotlib) are imported only when needed.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from .._errors import CdplotInputError
from ._csv import csv_bytes
from ._figures import render
from ._output import Target, commit, plan

__all__ = ["add_parser", "run"]

FIGURE_FORMATS = ("pdf", "svg", "png", "pgf", "eps")

EPILOG = """\
examples:
  # Benavoli et al. (2016) Example 2: power of the sign and mean-ranks tests for A vs B
  cdplot simulate --means 0,1.5,5,6,7 --n 20 --procedures "sign:none,mean-ranks:none" \\
      --replicates 10000 --pair A,B --json out.json -o power.pdf
  # FWER of the corrections under the complete null, k = 10, on 2 processes
  cdplot simulate --k 10 --n 30 --procedures "wilcoxon:holm,wilcoxon:shaffer,nemenyi:nemenyi" \\
      --jobs 2 -o fwer.png
  # a power curve: B's mean over a grid
  cdplot simulate --means 0,0,0,0 --vary B --grid 0,0.25,0.5,1 --pair A,B -o curve.pdf
  # Demšar's scheme: resample 10 datasets of a real table, shift one algorithm
  cdplot simulate --table results.csv --n 10 --shift C4.5=0.01 --procedures wilcoxon:holm

  # Bayesian signed-rank test: wrong and correct 'better' decisions, 'equivalent' ones
  cdplot simulate --means 0,0,0.5,1 --n 30 --procedures bayes-signed-rank:none,wilcoxon:holm \
      --rope 0.1 --nsamples 5000 --seed 1

procedures are test:correction[:control], separated by commas; tests and corrections as
for 'cdplot compare' (the Bayesian tests take the correction 'none'); --rope, --threshold,
--nsamples and --prior apply to the Bayesian tests.
"""


class _InputError(CdplotInputError):
    """Bad usage of the subcommand: one line on stderr, exit status 2."""


def add_parser(subparsers: Any, common: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """Register ``simulate`` on an argparse subparsers object; returns its parser."""
    p = subparsers.add_parser(
        "simulate",
        parents=[common],
        help="power, FWER and FDR of post-hoc procedures by simulation",
        description="Simulate score tables, run the post-hoc procedures on each, and report "
        "rejection rates, family-wise error, power and false discovery rate with Monte Carlo "
        "standard errors.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=EPILOG,
    )
    model = p.add_argument_group("model")
    model.add_argument("--means", metavar="M1,M2,...", help="mean score of each algorithm")
    model.add_argument("--k", type=int, help="number of algorithms (all means 0 without --means)")
    model.add_argument("--names", metavar="A,B,...", help="algorithm names (default A, B, ...)")
    model.add_argument("--n", type=int, default=None, help="datasets per table (default 20)")
    model.add_argument("--sd", type=float, default=1.0, help="standard deviation (1.0)")
    model.add_argument(
        "--correlation", type=float, default=0.0, help="correlation of algorithms on a dataset"
    )
    model.add_argument("--table", metavar="FILE", help="resample the datasets of this table")
    model.add_argument(
        "--shift",
        action="append",
        default=[],
        metavar="NAME=AMOUNT",
        help="with --table: add AMOUNT to NAME's scores (repeatable)",
    )
    model.add_argument(
        "--lower-is-better", action="store_true", help="with --table: lower scores are better"
    )
    model.add_argument("--vary", metavar="NAME", help="power curve: vary NAME's mean over --grid")
    model.add_argument("--grid", metavar="V1,V2,...", help="values of NAME's mean for --vary")
    st = p.add_argument_group("study")
    st.add_argument(
        "--procedures",
        default="wilcoxon:holm,sign:holm,mean-ranks:holm",
        help="test:correction[:control],... (default wilcoxon:holm,sign:holm,mean-ranks:holm)",
    )
    st.add_argument("--replicates", type=int, default=10_000, help="simulated tables (10000)")
    st.add_argument("--alpha", type=float, default=0.05, help="significance level (0.05)")
    st.add_argument("--seed", type=int, default=None, help="random seed (reproducible runs)")
    st.add_argument("--jobs", type=int, default=1, help="worker processes (-1: all cores)")
    st.add_argument(
        "--backend", default=None, help="loky (default with --jobs > 1), dask, ray, sequential"
    )
    st.add_argument("--scheduler", metavar="ADDRESS", help="dask scheduler address")
    st.add_argument(
        "--bh-budget",
        type=float,
        metavar="SECONDS",
        help="time budget of each table's Bergmann-Hommel search (default 10; inf for none)",
    )
    st.add_argument("--no-progress", action="store_true", help="no progress bar")
    bayes = p.add_argument_group("Bayesian tests (bayes-signed-rank, bayes-sign)")
    bayes.add_argument("--rope", type=float, help="half-width of the rope (0)")
    bayes.add_argument("--threshold", type=float, help="posterior threshold of a decision (0.95)")
    bayes.add_argument(
        "--nsamples", type=int, help="posterior samples per pair (5000 in a simulation)"
    )
    bayes.add_argument("--prior", type=float, help="strength of the prior pseudo-observation")
    out = p.add_argument_group("outputs")
    out.add_argument("-o", "--output", metavar="FIGURE", help="figure (.pdf, .svg, .png, ...)")
    out.add_argument("--json", metavar="FILE", help="the estimates and settings as JSON")
    out.add_argument(
        "--csv",
        metavar="FILE",
        help="the per-pair rejection rates as CSV (a name a spreadsheet would run as a "
        "formula, =... +... -... @..., is written with a leading ')",
    )
    out.add_argument(
        "--pair",
        metavar="A,B",
        help="print (and draw with -o) the rejection rate of this pair under each procedure",
    )
    p.set_defaults(run=run)
    return p


def _numbers(text: str, what: str) -> list[float]:
    try:
        return [float(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise _InputError(f"{what} must be numbers separated by commas, got {text!r}") from None


def _names(text: str | None) -> list[str] | None:
    return None if text is None else [x.strip() for x in text.split(",") if x.strip()]


def _model(args: argparse.Namespace, means_override: dict[str, float] | None = None) -> Any:
    from ..simulation import NormalModel, ResampleModel

    if args.table is not None:
        if args.means or args.k or args.vary:
            raise _InputError("--table resamples a real table; drop --means, --k and --vary")
        shift = {}
        for item in args.shift:
            name, sep, amount = item.partition("=")
            if not sep:
                raise _InputError(f"--shift takes NAME=AMOUNT, got {item!r}")
            shift[name.strip()] = _numbers(amount, "--shift")[0]
        return ResampleModel(
            args.table,
            n_datasets=args.n,
            shift=shift or None,
            higher_is_better=not args.lower_is_better,
        )
    if args.shift or args.lower_is_better:
        raise _InputError("--shift and --lower-is-better apply to --table only")
    if args.means is not None:
        means = _numbers(args.means, "--means")
        if args.k is not None and args.k != len(means):
            raise _InputError(f"--k {args.k} but --means gives {len(means)} values")
    elif args.k is not None:
        if args.k < 2:
            raise _InputError(f"--k must be at least 2, got {args.k}")
        means = [0.0] * args.k
    else:
        raise _InputError("give the model: --means M1,M2,... or --k K or --table FILE")
    names = _names(args.names) or [_letter(j) for j in range(len(means))]
    twice = next((n for n in names if names.count(n) > 1), None)
    if twice is not None:
        raise _InputError(f"--names gives {twice!r} twice; give every algorithm its own name")
    if len(names) != len(means):
        raise _InputError(f"--names gives {len(names)} names for {len(means)} algorithms")
    table = dict(zip(names, means, strict=True))
    if means_override:
        table.update(means_override)
    return NormalModel(
        table,
        sd=args.sd,
        n_datasets=20 if args.n is None else args.n,
        correlation=args.correlation,
    )


def _check_pair(pair: list[str], algorithms: Sequence[str]) -> None:
    from .._errors import suggest

    for name in pair:
        if name not in algorithms:
            raise _InputError(
                f"--pair {name!r} is not an algorithm of the model; the algorithms are "
                + ", ".join(repr(a) for a in algorithms)
                + "."
                + suggest(name, algorithms)
            )
    if pair[0] == pair[1]:
        raise _InputError(f"--pair names one algorithm twice ({pair[0]!r}); give two, e.g. A,B")


def pair_rates(result: Any, pair: Sequence[str]) -> str:
    """The rejection rate of the pair A vs B under each procedure (at each grid point).

    A procedure against a control that is neither A nor B does not test the pair.
    """
    a, b = pair
    frame = result.to_frame()
    rows = frame[((frame.a == a) & (frame.b == b)) | ((frame.a == b) & (frame.b == a))]
    cells = {
        (row.procedure, getattr(row, "effect", None)): _pair_cell(row, a)
        for row in rows.itertuples()
    }
    effects = list(getattr(result, "effects", [None]))
    heads = ["procedure"] + [f"{'rate' if e is None else f'effect = {e:g}'}" for e in effects]
    table = [[p] + [cells.get((p, e), "not tested") for e in effects] for p in result.procedures]
    widths = [max(len(str(r[i])) for r in [heads, *table]) for i in range(len(heads))]
    lines = [
        "  ".join(
            str(c).ljust(w) if i == 0 else str(c).rjust(w)
            for i, (c, w) in enumerate(zip(r, widths, strict=True))
        ).rstrip()
        for r in [heads, *table]
    ]
    title = f"Rejection rate of {a} vs {b} (estimate \u00b1 Monte Carlo standard error):"
    if any(_bayesian(t) for t in frame["test"]):
        title += f"\n(Bayesian tests: rate of the decisions {a} better / equivalent / {a} worse)"
    return "\n".join([title, *lines])


def _bayesian(test: str) -> bool:
    """Whether a study's row is of a Bayesian test (decision rates, no rejection rate)."""
    from ..stats._catalogue import entry_of

    entry = entry_of(test)
    return entry is not None and entry.bayesian


def _pair_cell(row: Any, a: str) -> str:
    """A frequentist row's rejection rate, or a Bayesian row's decision rates."""
    if not _bayesian(row.test):
        return f"{row.rejection_rate:.4f} \u00b1 {row.se:.4f}"
    first, second = (row.a_better_rate, row.b_better_rate)
    if row.a != a:
        first, second = second, first
    return f"better {first:.4f} / equivalent {row.equivalent_rate:.4f} / worse {second:.4f}"


def _pm(rate: float, se: float) -> str:
    return f"{rate:.4f} \u00b1 {se:.4f}"


def _letter(j: int) -> str:
    return chr(ord("A") + j) if j < 26 else f"A{j + 1}"


def _figure_format(path: str) -> str:
    ext = Path(path).suffix.lower().lstrip(".")
    if ext not in FIGURE_FORMATS:
        raise _InputError(
            f"cannot tell the figure format of {path!r} from its extension; use one of "
            + ", ".join(f".{a}" for a in FIGURE_FORMATS)
        )
    return ext


def _procedures(args: argparse.Namespace) -> list[Any]:
    """The --procedures, with the Bayesian options given to the Bayesian tests."""
    from ..stats._catalogue import CATALOGUE
    from ..stats._procedure import resolve_test

    names = ("rope", "threshold", "nsamples", "prior")
    options = {n: getattr(args, n) for n in names if getattr(args, n) is not None}
    out: list[Any] = []
    for text in (p.strip() for p in args.procedures.split(",") if p.strip()):
        test, _, rest = text.partition(":")
        if not CATALOGUE[resolve_test(test.strip())].bayesian:
            out.append(text)
            continue
        correction, _, control = rest.partition(":")
        spec = {"test": test.strip(), "correction": correction.strip() or None, **options}
        if control.strip():
            spec["control"] = control.strip()
        out.append(spec)
    if options and all(isinstance(p, str) for p in out):
        given = ", ".join(f"--{n}" for n in options)
        raise _InputError(
            f"{given} apply to the Bayesian tests only; add one to --procedures (e.g. "
            "bayes-signed-rank:none) or drop them"
        )
    return out


def _study(args: argparse.Namespace) -> Any:
    from ..simulation import simulate, simulate_grid

    procedures = _procedures(args)
    common: dict[str, Any] = {
        "procedures": procedures,
        "n_replicates": args.replicates,
        "alpha": args.alpha,
        "random_state": args.seed,
        "n_jobs": args.jobs,
        "backend": args.backend,
        "progress": False if args.no_progress or args.quiet else None,
    }
    if args.scheduler:
        common["scheduler"] = args.scheduler
    if args.bh_budget is not None:
        common["bh_budget"] = args.bh_budget
    if (args.vary is None) != (args.grid is None):
        raise _InputError("--vary NAME and --grid V1,V2,... go together")
    if args.vary is None:
        return simulate(_model(args), **common)
    base = _model(args)
    if args.vary not in base.algorithms:
        raise _InputError(
            f"--vary {args.vary!r} is not an algorithm; the algorithms are "
            + ", ".join(repr(a) for a in base.algorithms)
        )
    grid = _numbers(args.grid, "--grid")
    if not grid:
        raise _InputError("--grid needs at least one value")
    models = {g: _model(args, {args.vary: g}) for g in grid}
    return simulate_grid(models, **common)


def run(args: argparse.Namespace, out: TextIO) -> None:
    """Run ``cdplot simulate`` with parsed arguments (errors raise :class:`CdplotInputError`)."""
    wanted = [
        (option, path)
        for option, path in (("--json", args.json), ("--csv", args.csv), ("-o", args.output))
        if path
    ]
    targets = {t.option: t for t in plan(wanted, [args.table] if args.table else [])}
    ext = _figure_format(args.output) if args.output else None
    pair = _names(args.pair)
    if pair is not None and len(pair) != 2:
        raise _InputError(f"--pair takes two names A,B, got {args.pair!r}")
    if pair is not None:
        _check_pair(pair, _model(args).algorithms)
    result = _study(args)
    quiet = args.quiet or any(t.kind == "stdout" for t in targets.values())  # stdout: output only
    if not quiet:
        print(result, file=out)
        if pair is not None:
            print("\n" + pair_rates(result, pair), file=out)
    contents: list[tuple[Target, bytes]] = []
    if args.json:
        text = json.dumps(result.to_dict(), indent=2, ensure_ascii=False, allow_nan=False)
        contents.append((targets["--json"], (text + "\n").encode("utf-8")))
    if args.csv:
        contents.append((targets["--csv"], csv_bytes(result.to_frame())))
    if args.output:

        def draw() -> Any:
            ax = result.plot(pair=tuple(pair) if pair else None)
            if args.vary:
                ax.set_xlabel(f"mean of {args.vary}")
            return ax.figure

        contents.append((targets["-o"], render(draw, ext, None)))
    commit(contents)
    if contents and not quiet:
        print("\nwrote " + ", ".join(t.path for t, _ in contents), file=out)

"""``cdplot compare``: results files in, summary, figures, report and JSON out.

Every option that maps to a :func:`cdplot.compare` keyword is one line of
:data:`COMPARE_FLAGS`; its flag comes from the one spelling table
(:data:`cdplot._errors.CLI_FLAGS`), and it reaches ``compare()`` only when given, so
``compare()``'s defaults are the only defaults.
"""

from __future__ import annotations

import argparse
import io
import os
import sys
import warnings
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TextIO

from .._errors import CLI_FLAGS, CdplotInputError, PoolDependenceWarning, suggest
from ..io import ALGORITHM_NAMES, DATASET_NAMES, REPETITION_NAMES
from ._engine import add_engine_option, engine_source
from ._figures import (
    FIGURE_KINDS,
    add_figure_options,
    check_figure_options,
    check_highlight,
    figure_format,
    figure_width,
    render,
)
from ._items import item_outputs
from ._labels import LABELS_HELP, add_label_options, labels_from_args
from ._methods import add_methods_options, methods_contents, methods_wanted
from ._output import STDOUT, Content, Target, commit, plan
from ._rank_figure import add_rank_plot_options, check_rank_plot_options, rank_figure
from ._runs import compare_read_runs, read_runs

__all__ = ["COMPARE_FLAGS", "add_parser", "compare_options", "run"]

REPORT_FORMATS = {".md": "markdown", ".markdown": "markdown", ".tex": "latex", ".html": "html"}


def _names_list(names: Sequence[str], indent: int, width: int = 88) -> str:
    """``names`` joined with ", " and wrapped at ``width`` with a hanging ``indent``."""
    import textwrap

    return textwrap.fill(
        ", ".join(names),
        width,
        initial_indent=" " * indent,
        subsequent_indent=" " * indent,
        break_on_hyphens=False,
    ).lstrip()


INPUT_RULES = f"""\
RESULTS is a CSV or TSV file (comma, tab, or ';' with decimal commas), or - for stdin.
Columns are recognised by name, in any order (case, _, - and spaces ignored):
  dataset     {_names_list(DATASET_NAMES, 14)}
  algorithm   {_names_list(ALGORITHM_NAMES, 14)}
  repetition  {_names_list(REPETITION_NAMES, 14)}
--dataset-col, --algorithm-col and --score-col always win over the names.
long table: it has an algorithm column; one row per dataset, algorithm (and run), the
  one other numeric column holds the scores (name it with --score-col when there are
  several, or give --score-col once per metric: one aligned diagram per metric, with
  --lower-is-better COL for each metric where lower is better).
wide table: one row per dataset, one column per algorithm. The first column holds the
  dataset names when its header is a dataset name (numeric ids included, e.g. task_id),
  empty, 'Unnamed: 0', 'id' or 'index', or when it is not numeric; otherwise it is an
  algorithm. Nothing is guessed from the position of a column: what cannot be decided is
  refused with the flags to pass.
repeated runs: several rows per dataset and algorithm (folds, seeds) are refused unless
  --aggregate mean|median combines them (exact means; the summary says "scores are means
  over 10 folds").
missing results: refused unless --missing drop (datasets), drop-algorithms, or keep
  (Skillings-Mack test).
ties: scores are ranked as written (as scipy and R do: 0.83 and 0.8300000000000001 are
  not a tie); --decimals N rounds them to N decimals first.
Several RESULTS files (e.g. one per metric) give one figure with one aligned diagram each.
one benchmark: an item table with one task (or no task column), one row per model and
  item (--item-col; --cluster-col, --sample-col), compares the models on the items: mean
  scores with intervals, paired differences, groups. Two (or more) such files of the same
  items, e.g. base.jsonl new.jsonl, are runs compared with each other (one model a file,
  named by the file): the paired difference with its interval and p-value, the items won
  and lost; --json writes the comparison.
An output named - goes to standard output (then the summary is not printed).
"""

EPILOG = (
    INPUT_RULES
    + "\n"
    + LABELS_HELP
    + """
--json with several --score-col writes one object keyed by metric, each value the JSON of
one comparison; --report writes one section (Markdown, HTML) or table (LaTeX) per metric.

examples:
  cdplot compare results.csv -o cd.pdf
  cdplot compare errors.csv --lower-is-better --test nemenyi --alpha 0.1 -o cd.svg
  cdplot compare runs.csv --dataset-col problem --algorithm-col method --score-col acc \\
      --correction bergmann -o cd.pdf --heatmap apv.pdf --report report.md --json res.json
  cdplot compare accuracy.csv auc.csv -o both.pdf --highlight SVM
  cdplot compare items.parquet --cluster-col passage --sample-col epoch -o means.pdf
  cdplot compare base.jsonl new.jsonl --json diff.json
  cdplot compare runs.csv --aggregate mean --score-col accuracy --score-col fit_time \\
      --lower-is-better fit_time -o metrics.pdf --label 'RandomForest (500 trees)=RF'
  cat results.csv | cdplot compare - --control baseline --correction holm -o - --format png \\
      > cd.png

exit status: 0 success, 2 bad input or usage (one line on stderr), 1 a bug in cdplot,
130 interrupted (Ctrl-C), 143 terminated (SIGTERM), 141 standard output closed early.
"""
)


@dataclass(frozen=True)
class Flag:
    """One command-line option that maps to a keyword of :func:`cdplot.compare`."""

    keyword: str
    group: str
    kwargs: dict[str, Any] = field(default_factory=dict)

    @property
    def flag(self) -> str:
        return CLI_FLAGS[self.keyword]


def _flag(keyword: str, group: str, **kwargs: Any) -> Flag:
    return Flag(keyword, group, kwargs)


_STATS, _COLS = "statistics", "long-format columns"
#: compare() keyword -> its option. Adding a keyword to the CLI is one line here (plus its
#: spelling in cdplot._errors.CLI_FLAGS).
COMPARE_FLAGS: tuple[Flag, ...] = (
    _flag(
        "test",
        _STATS,
        metavar="TEST",
        help="wilcoxon (default), sign, mean-ranks, nemenyi, aligned-ranks, quade, "
        "exact-rank-sum, paired-t, tukey, conover, durbin (balanced incomplete designs), "
        "bayes-signed-rank, bayes-sign or bayes-hierarchical (per-fold scores); one "
        "benchmark's items: mcnemar (default for 0/1 "
        "scores), paired-t (default otherwise) or cluster-t (default with --cluster-col)",
    ),
    _flag(
        "omnibus",
        _STATS,
        metavar="TEST",
        help="omnibus test: friedman (default), aligned-ranks, quade, skillings-mack "
        "(default with --missing keep), rm-anova, durbin (balanced incomplete designs; "
        "default with --test durbin) or page (with --order)",
    ),
    _flag(
        "order",
        _STATS,
        type=lambda text: [x.strip() for x in text.split(",") if x.strip()],
        metavar="A,B,C",
        help="--omnibus page: the algorithms from the one expected to perform worst to "
        "the one expected to perform best",
    ),
    _flag("rope", _STATS, type=float, help="Bayesian tests: region of practical equivalence"),
    _flag(
        "threshold",
        _STATS,
        type=float,
        metavar="P",
        help="Bayesian tests: posterior probability a decision needs (default 0.95)",
    ),
    _flag(
        "nsamples",
        _STATS,
        type=int,
        metavar="N",
        help="Bayesian tests: posterior samples per pair (default 50000; bayes-hierarchical: 4000)",
    ),
    _flag("random_state", _STATS, type=int, metavar="SEED", help="Bayesian tests: random seed"),
    _flag(
        "prior",
        _STATS,
        type=float,
        metavar="S",
        help="Bayesian tests: strength of the prior pseudo-observation (default 1 for "
        "bayes-sign, 0.5 for bayes-signed-rank)",
    ),
    _flag(
        "test_train_ratio",
        _STATS,
        type=float,
        metavar="R",
        help="bayes-hierarchical: n_test / n_train of a fold (default: 1 / (folds per run - 1))",
    ),
    _flag("runs", _STATS, type=int, help="bayes-hierarchical: repetitions of the CV"),
    _flag("warmup", _STATS, type=int, help="bayes-hierarchical: NUTS warm-up iterations"),
    _flag("chains", _STATS, type=int, help="bayes-hierarchical: NUTS chains (default 4)"),
    _flag(
        "strict",
        _STATS,
        action="store_const",
        const=True,
        help="bayes-hierarchical: fail (exit 2) when the sampler does not converge",
    ),
    _flag(
        "method",
        _STATS,
        choices=("garcia", "conover"),
        help="--test quade: post-hoc of Garcia et al. (default) or Conover",
    ),
    _flag(
        "aggregate",
        _STATS,
        choices=("mean", "median"),
        help="combine repeated runs (several rows per dataset and algorithm)",
    ),
    _flag(
        "decimals",
        _STATS,
        type=int,
        metavar="N",
        help="round the scores to N decimals before ranking",
    ),
    _flag(
        "correction",
        _STATS,
        metavar="NAME",
        help="none, bonferroni, holm (default; nemenyi for --test nemenyi), hochberg, "
        "hommel, finner, shaffer, bergmann; with --control also bonferroni-dunn and li; "
        "holland, rom; fdr-bh, fdr-by (false discovery rate, no groups)",
    ),
    _flag("alpha", _STATS, type=float, help="significance level (default 0.05)"),
    _flag(
        "confidence",
        _STATS,
        type=float,
        metavar="LEVEL",
        help="one benchmark's items: confidence level of the intervals of the mean scores "
        "and of the paired differences (default 0.95)",
    ),
    _flag("control", _STATS, metavar="NAME", help="compare every algorithm with this one"),
    _flag(
        "higher_is_better",
        _STATS,
        nargs="?",
        action="append",
        const=True,
        metavar="COL",
        help="lower scores are better (errors, losses, times); with several --score-col, "
        "name each lower-is-better metric: --lower-is-better fit_time (repeatable)",
    ),
    _flag(
        "missing",
        _STATS,
        choices=("raise", "drop", "drop-algorithms", "keep"),
        help="missing results: drop the datasets, drop the algorithms, or keep them "
        "(Skillings-Mack test); default: error",
    ),
    _flag(
        "fdr_groups",
        _STATS,
        action="store_true",
        help="--correction fdr-bh|fdr-by: draw groups anyway (captioned as FDR)",
    ),
    _flag(
        "tie_correction",
        _STATS,
        action="store_true",
        help="tie-corrected Friedman statistic (as R's friedman.test)",
    ),
    _flag(
        "zero_method",
        _STATS,
        choices=("wilcox", "pratt", "zsplit"),
        help="Wilcoxon: treatment of zero differences (default wilcox)",
    ),
    _flag(
        "ties",
        _STATS,
        choices=("split", "discard"),
        help="sign test: split ties evenly (default) or discard them",
    ),
    _flag(
        "bh_budget",
        _STATS,
        type=float,
        metavar="SECONDS",
        help="time budget of --correction bergmann (default 10; inf for none)",
    ),
    _flag("dataset", _COLS, metavar="COL", help="column with dataset names"),
    _flag("algorithm", _COLS, metavar="COL", help="column with algorithm names"),
    _flag("cost", _COLS, metavar="COL", help="cost column (kept apart, in --json; see frontier)"),
    _flag(
        "item",
        _COLS,
        metavar="COL",
        help="item column of item-level rows (default: item, item_id, doc_id, question_id, "
        "instance_id, example_id or sample_id)",
    ),
    _flag(
        "cluster",
        _COLS,
        metavar="COL",
        help="one benchmark's items: the cluster of each item (passage, repository, "
        "scenario); the pairs are then compared cluster-robustly",
    ),
    _flag(
        "sample",
        _COLS,
        metavar="COL",
        help="one benchmark's items: the sample (epoch, attempt, seed) of repeated scores "
        "of a model on an item (an item's score is their mean)",
    ),
    _flag(
        "score",
        _COLS,
        action="append",
        metavar="COL",
        help="column with the scores; repeat it to compare several metrics of one file "
        "(one aligned diagram each)",
    ),
)


def add_parser(sub: Any, common: argparse.ArgumentParser) -> argparse.ArgumentParser:
    cmp_ = sub.add_parser(
        "compare",
        parents=[common],
        help="analyse results files and draw their CD diagram",
        description="Rank the algorithms per dataset, run the Friedman test and a post-hoc "
        "test, print the summary, and write the figures and reports asked for.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=EPILOG,
    )
    cmp_.add_argument(
        "results",
        metavar="RESULTS",
        nargs="+",
        help="CSV/TSV file(s), or - for stdin; also Parquet or JSON Lines files or folders, "
        "lm-evaluation-harness output folders, MLflow, W&B or OpenML CSV exports",
    )
    add_engine_option(cmp_)
    out = cmp_.add_argument_group("outputs (FILE or - for standard output)")
    out.add_argument(
        "-o", "--output", metavar="FIGURE", help="CD diagram file (.pdf, .svg, .png, .pgf, .eps)"
    )
    out.add_argument(
        "--figure",
        choices=FIGURE_KINDS,
        default="auto",
        help="the figure of -o: auto (default: the CD diagram while legible at the width, "
        "else the rank plot), cd, ranks (rank intervals and letters) or mcm",
    )
    out.add_argument("--heatmap", metavar="FILE", help="APV heatmap file (same formats)")
    out.add_argument("--report", metavar="FILE", help="report file: .md, .tex or .html")
    out.add_argument(
        "--report-format",
        choices=("markdown", "latex", "html"),
        help="report format (default: from the extension; needed with --report -)",
    )
    out.add_argument(
        "--compact",
        action="store_true",
        help="LaTeX report: ranks and group letters in three columns that fit one column, "
        "instead of the k x k p-value table",
    )
    out.add_argument(
        "--table-env",
        choices=("table", "table*"),
        help="LaTeX report: float environment (table* spans both columns; default table)",
    )
    out.add_argument("--json", metavar="FILE", help="the whole result as JSON")
    out.add_argument(
        "--item-tests",
        metavar="FILE",
        help="item-level input: the within-task tests as CSV (a name a spreadsheet would "
        "run as a formula, =... +... -... @..., is written with a leading ')",
    )
    out.add_argument(
        "--name",
        action="append",
        metavar="NAME",
        help="title of a RESULTS file's diagram (repeat once per file; default: file stem)",
    )
    add_figure_options(cmp_)
    add_rank_plot_options(cmp_)
    add_label_options(cmp_)
    add_interval_options(cmp_)
    add_methods_options(cmp_)
    groups: dict[str, Any] = {}
    for flag in COMPARE_FLAGS:
        if flag.group not in groups:
            groups[flag.group] = cmp_.add_argument_group(flag.group)
        groups[flag.group].add_argument(
            flag.flag, dest=flag.keyword, default=argparse.SUPPRESS, **flag.kwargs
        )
    groups[_STATS].add_argument(
        "--higher-is-better",
        dest="higher_given",
        action="store_true",
        help="higher scores are better (the default, said explicitly: silences the warning "
        "about a score or file named like an error, loss or time)",
    )
    return cmp_


def add_interval_options(parser: argparse.ArgumentParser) -> None:
    """``--effect-size MEASURE`` and ``--rank-intervals METHOD`` (summary, reports, JSON)."""
    group = parser.add_argument_group("effect sizes and rank intervals")
    group.add_argument(
        "--effect-size",
        metavar="MEASURE",
        help="effect size of every pair with its 1 - alpha interval: mean, hodges-lehmann, "
        "superiority or cohen-d (in the summary, reports and JSON)",
    )
    group.add_argument(
        "--rank-intervals",
        choices=("test", "bootstrap"),
        help="1 - alpha confidence intervals for the ranks, from the tests' decisions or a "
        "paired bootstrap (over datasets; over the items, or their clusters, of one benchmark)",
    )
    group.add_argument(
        "--interval-seed",
        type=int,
        default=0,
        metavar="SEED",
        help="seed of the bootstraps of --rank-intervals (default 0: reproducible)",
    )


def add_intervals(results: dict[str, Any], args: argparse.Namespace) -> dict[str, dict[str, Any]]:
    """What ``--effect-size`` and ``--rank-intervals`` ask, computed for every result.

    Returns
    -------
    dict
        ``{"intervals": {name: RankIntervals}, "effects": {name: frame}}`` (the names of
        the results; empty when not asked): the keywords of the summary, the reports and
        the JSON, which show them.
    """
    shown: dict[str, dict[str, Any]] = {"intervals": {}, "effects": {}}
    for name, result in results.items():
        if getattr(args, "effect_size", None):
            shown["effects"][name] = result.effect_sizes(
                args.effect_size, confidence=1 - result.alpha
            )
        if getattr(args, "rank_intervals", None):
            shown["intervals"][name] = result.rank_intervals(
                args.rank_intervals,
                confidence=1 - result.alpha,
                random_state=args.interval_seed,
            )
    return shown


def _one(shown: dict[str, dict[str, Any]], name: str) -> dict[str, Any]:
    """The keywords ``intervals`` and ``effects`` of the result named ``name``."""
    return {what: by_name.get(name) for what, by_name in shown.items()}


#: compare() keywords about reading the table or drawing groups, not the procedure
_READING = (
    "dataset",
    "algorithm",
    "cost",
    "score",
    "item",
    "cluster",
    "sample",
    "confidence",
    "fdr_groups",
    "higher_is_better",
    "tie_correction",
    "aggregate",
    "decimals",
    "labels",
)


def _check_procedure(options: dict[str, Any]) -> None:
    """Refuse a bad test/correction/control/option combination before reading any input.

    The same :class:`cdplot.stats.Procedure` that compare() builds, with its messages.
    """
    from ..stats._procedure import Procedure

    Procedure.resolve(**{k: v for k, v in options.items() if k not in _READING})


def compare_options(args: argparse.Namespace) -> dict[str, Any]:
    """The ``compare()`` keywords the user gave (and only those).

    ``--score-col`` and ``--lower-is-better`` are resolved by :func:`metric_directions`:
    with one score column they become ``score=`` and ``higher_is_better=False``; with
    several (one comparison per metric) they are left to :func:`cdplot.compare_metrics`.
    ``--label`` and ``--labels FILE`` become ``labels=``.
    """
    options = {
        f.keyword: getattr(args, f.keyword) for f in COMPARE_FLAGS if hasattr(args, f.keyword)
    }
    metrics = metric_directions(args)
    options.pop("score", None)
    options.pop("higher_is_better", None)
    if metrics is not None and len(metrics) == 1:
        ((column, direction),) = metrics.items()
        if column is not None:
            options["score"] = column
        if direction == "lower":
            options["higher_is_better"] = False
    if getattr(args, "higher_given", False):
        if options.get("higher_is_better") is False or (metrics and len(metrics) > 1):
            raise CdplotInputError(
                "--higher-is-better and --lower-is-better contradict each other for one "
                "metric; give one of them (with several --score-col, name each "
                "lower-is-better metric with --lower-is-better COL instead)."
            )
        options["higher_is_better"] = True
    labels = labels_from_args(getattr(args, "label", None), getattr(args, "labels_file", None))
    if labels is not None:
        options["labels"] = labels
    return options


def _looks_like_file(name: str) -> bool:
    return name == STDOUT or name.lower().endswith((".csv", ".tsv", ".txt")) or os.path.isfile(name)


def metric_directions(args: argparse.Namespace) -> dict[str | None, str] | None:
    """Score column -> ``"higher"`` or ``"lower"`` from ``--score-col`` and ``--lower-is-better``.

    None when neither flag was given; ``{None: "lower"}`` for a bare ``--lower-is-better``
    without ``--score-col``; several entries for several ``--score-col`` (one comparison
    per metric, :func:`cdplot.compare_metrics`).
    """
    scores: list[str] = list(getattr(args, "score", None) or [])
    lower = list(getattr(args, "higher_is_better", None) or [])
    if not scores and not lower:
        return None
    bare = any(v is True for v in lower)
    named = [v for v in lower if v is not True]
    twice = next((c for c in scores if scores.count(c) > 1), None)
    if twice is not None:
        raise CdplotInputError(f"--score-col {twice!r} is given twice; give each metric once.")
    for column in named:
        if column in scores:
            continue
        hint = ""
        if _looks_like_file(column):
            hint = (
                f" If {column!r} is a RESULTS file, put it before --lower-is-better, which "
                "takes an optional column name."
            )
        if not scores:
            raise CdplotInputError(
                f"--lower-is-better {column} names a score column, but no --score-col is "
                f"given; add --score-col {column}, or write --lower-is-better alone (lower "
                "scores are better)." + hint
            )
        raise CdplotInputError(
            f"--lower-is-better {column!r} is not one of the --score-col columns "
            f"({', '.join(repr(c) for c in scores)}); name a metric given with --score-col."
            + suggest(column, scores)
            + hint
        )
    if len(scores) > 1 and bare:
        raise CdplotInputError(
            f"with several --score-col, say which metrics are lower-is-better, e.g. "
            f"--lower-is-better {scores[-1]}; a bare --lower-is-better would not say which."
        )
    if not scores:
        return {None: "lower"}
    return {c: "lower" if bare or c in named else "higher" for c in scores}


def _report_kind(path: str, kind: str | None) -> str:
    ext = os.path.splitext(path)[1].lower()
    if path == STDOUT:
        if kind is None:
            raise CdplotInputError(
                "--report - writes the report to standard output; say which format with "
                "--report-format (markdown|latex|html), e.g. --report - --report-format markdown."
            )
        return kind
    if kind is not None:
        if ext in REPORT_FORMATS and REPORT_FORMATS[ext] != kind:
            raise CdplotInputError(
                f"--report {path!r} has the extension {ext} but --report-format is {kind}; "
                "make them agree or drop --report-format."
            )
        return kind
    if ext not in REPORT_FORMATS:
        raise CdplotInputError(
            f"cannot tell the report format of {path!r} from its extension; use one of "
            f"{', '.join(REPORT_FORMATS)}, or pass --report-format."
        )
    return REPORT_FORMATS[ext]


def _check_metrics(args: argparse.Namespace, metrics: dict[Any, str]) -> None:
    """Several ``--score-col``: one RESULTS file, no ``--name``, no ``--heatmap``."""
    flags = " ".join(f"--score-col {c}" for c in metrics)
    if len(args.results) > 1:
        raise CdplotInputError(
            f"{flags} compares several metrics of one RESULTS file, got "
            f"{len(args.results)} files; run cdplot compare once per file."
        )
    if args.name is not None:
        raise CdplotInputError(
            "--name titles the diagrams of several RESULTS files; with several --score-col "
            "the diagrams are titled by the metrics (use --title for the whole figure)."
        )
    if args.heatmap:
        raise CdplotInputError(
            f"--heatmap draws one comparison, and {flags} makes {len(metrics)}; run cdplot "
            "compare once per metric (one --score-col) for the heatmaps."
        )


def _check_names_not_labels(args: argparse.Namespace, labels: dict[str, str]) -> None:
    """``--control`` and ``--highlight`` take the data's names, not display names."""
    by_label = {label: name for name, label in labels.items() if label != name}
    given = [("--control", getattr(args, "control", None))]
    given += [("--highlight", name) for name in args.highlight or ()]
    for option, value in given:
        if value in by_label and value not in labels:
            raise CdplotInputError(
                f"{option} {value!r} is the display name of {by_label[value]!r} (--label); "
                f"{option} takes the algorithm's name: {option} '{by_label[value]}'."
            )


def _names(args: argparse.Namespace) -> list[str]:
    files: Sequence[str] = args.results
    if args.name is not None and len(files) == 1:
        raise CdplotInputError(
            "--name titles the diagrams of several RESULTS files; with one file, use "
            f"--title {args.name[0]!r}."
        )
    if args.name is not None:
        if len(args.name) != len(files):
            raise CdplotInputError(
                f"got {len(args.name)} --name for {len(files)} RESULTS files; give one "
                "--name per file, in the same order."
            )
        names = list(args.name)
    else:
        names = [
            "stdin" if f == STDOUT else os.path.splitext(os.path.basename(f))[0] for f in files
        ]
    if files.count(STDOUT) > 1:
        raise CdplotInputError("standard input (-) can be read only once; name files instead.")
    dup = sorted({n for n in names if names.count(n) > 1})
    if dup:
        raise CdplotInputError(
            f"two RESULTS files are both called {dup[0]!r}; tell them apart with --name, e.g. "
            + " ".join(f"--name {n}{i + 1}" for i, n in enumerate(names))
            + "."
        )
    return names


def _check_several(args: argparse.Namespace) -> None:
    if len(args.results) == 1:
        return
    for option, value in (("--json", args.json), ("--report", args.report)):
        if value:
            raise CdplotInputError(
                f"{option} takes one RESULTS file, got {len(args.results)}; run cdplot "
                f"compare once per file for {option}, or drop it."
            )
    if args.heatmap:
        raise CdplotInputError(
            f"--heatmap takes one RESULTS file, got {len(args.results)}; run cdplot compare "
            "once per file for the heatmaps."
        )


def _read_stdin() -> io.StringIO:
    """Standard input as text (UTF-8, BOM allowed), or a one-line error."""
    buffer = getattr(sys.stdin, "buffer", None)
    raw = sys.stdin.read() if buffer is None else buffer.read()
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise CdplotInputError(
                "standard input is not UTF-8 text; convert it, e.g. with iconv -t UTF-8."
            ) from None
    stream = io.StringIO(raw)
    stream.name = "<stdin>"
    return stream


def _metric_title(metric: str, result: Any) -> str:
    return metric if result.higher_is_better else f"{metric} (lower is better)"


def _latex_options(args: argparse.Namespace, report_kind: str | None) -> dict[str, Any]:
    """``to_latex`` keywords of ``--compact`` and ``--table-env``, for a LaTeX report only."""
    given = [f for f, v in (("--compact", args.compact), ("--table-env", args.table_env)) if v]
    if given and report_kind != "latex":
        raise CdplotInputError(
            f"{given[0]} applies to a LaTeX report; add --report FILE.tex (or --report - "
            "--report-format latex), or drop it."
        )
    options: dict[str, Any] = {"compact": True} if args.compact else {}
    if args.table_env:
        options["table_environment"] = args.table_env
    return options


def _reports_text(
    results: dict[str, Any],
    kind: str,
    latex: Mapping[str, Any] | None = None,
    shown: dict[str, dict[str, Any]] | None = None,
) -> str:
    """One report with a section (Markdown, HTML) or a table (LaTeX) per metric."""
    from ..report._html import to_html_sections
    from ..report._latex import latex_text
    from ..report._markdown import escape_markdown

    shown = shown or {}
    titles = {m: _metric_title(m, r) for m, r in results.items()}
    if kind == "html":
        text = to_html_sections(
            {titles[m]: r for m, r in results.items()},
            **{what: {titles[m]: v for m, v in given.items()} for what, given in shown.items()},
        )
        return text if text.endswith("\n") else text + "\n"
    parts = []
    for metric, result in results.items():
        extra = _one(shown, metric)
        if kind == "markdown":
            parts.append(f"## {escape_markdown(titles[metric])}\n\n{result.to_markdown(**extra)}")
        else:  # one float per metric, its caption led by the metric
            table = result.to_latex(**(latex or {}), **extra)
            lead = latex_text(titles[metric])
            parts.append(table.replace("\\caption{", f"\\caption{{{lead}. ", 1))
    text = "\n".join(parts)
    return text if text.endswith("\n") else text + "\n"


def _report_text(
    result: Any, kind: str, latex: Mapping[str, Any] | None = None, **shown: Any
) -> str:
    """The report of one result; ``shown``: its ``intervals`` and ``effects`` keywords."""
    from .. import report

    if kind == "markdown":
        text = result.to_markdown(**shown)
    elif kind == "latex":
        text = result.to_latex(**(latex or {}), **shown)
    else:
        text = report.to_html(result, **shown)
        if not text.lstrip().lower().startswith("<!doctype"):
            text = (
                '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>cdplot report'
                f"</title></head><body>\n{text}\n</body></html>\n"
            )
    return text if text.endswith("\n") else text + "\n"


#: Words of the summary's caution on a mean-ranks test's pool dependence
#: (:class:`~cdplot.PoolDependenceWarning` says the same).
POOL_CAUTION = "depends on which other algorithms"


def _compute(
    args: argparse.Namespace,
    names: list[str],
    metrics: dict[Any, str] | None,
    options: dict[str, Any],
    results: dict[str, Any],
) -> None:
    """One result per file (or per metric of one file), into ``results``."""
    from ..stats._compare import compare

    if metrics is not None:
        from ..stats._metrics import compare_metrics

        path = args.results[0]
        source: Any = _read_stdin() if path == STDOUT else path
        results.update(compare_metrics(source, metrics, **options))
        for result in results.values():
            check_highlight(args.highlight, result.algorithms, repr(path))
        return
    for name, path in zip(names, args.results, strict=True):
        source = _read_stdin() if path == STDOUT else engine_source(path, args.engine)
        results[name] = compare(source, **options)
        check_highlight(args.highlight, results[name].algorithms, repr(path))


def _warn_again(raised: list[warnings.WarningMessage], summaries: Iterable[str]) -> None:
    """Re-issue the warnings, except a pool-dependence caution every summary prints."""
    texts = list(summaries)
    said = bool(texts) and all(POOL_CAUTION in t for t in texts)
    for w in raised:
        if said and issubclass(w.category, PoolDependenceWarning):
            continue
        warnings.warn_explicit(w.message, w.category, w.filename, w.lineno, source=w.source)


def run(args: argparse.Namespace, out: TextIO) -> None:
    # 1. everything that needs no input: options, formats, output targets
    check_figure_options(args)
    check_rank_plot_options(args)
    directions = metric_directions(args)
    metrics = directions if directions is not None and len(directions) > 1 else None
    names: list[str] = []
    runs: Any = None
    if metrics is not None:
        _check_metrics(args, metrics)
    else:
        names = _names(args)
        runs = read_runs(args, names, compare_options(args)) if len(names) > 1 else None
        if runs is None:
            _check_several(args)
        else:  # runs of one benchmark: one comparison
            names = [" vs ".join(names)]
    fig_formats = {
        option: figure_format(option, path, args.format)
        for option, path in (("-o", args.output), ("--heatmap", args.heatmap))
        if path
    }
    report_kind = _report_kind(args.report, args.report_format) if args.report else None
    if args.format and not fig_formats:
        raise CdplotInputError("--format applies to figures; add -o FIGURE or --heatmap FILE.")
    if args.report_format and not args.report:
        raise CdplotInputError("--report-format applies to --report FILE; add it or drop this.")
    latex = _latex_options(args, report_kind)
    wanted = [
        (option, path)
        for option, path in (
            ("--json", args.json),
            ("--report", args.report),
            ("-o", args.output),
            ("--heatmap", args.heatmap),
            ("--item-tests", args.item_tests),
            *methods_wanted(args),
        )
        if path
    ]
    inputs = [*args.results, *([args.labels_file] if args.labels_file else [])]
    targets: dict[str, Target] = {t.option: t for t in plan(wanted, inputs)}
    to_stdout = any(t.kind == "stdout" for t in targets.values())
    quiet = args.quiet or to_stdout

    # 2. the statistics, one result per file (or per metric of one file)
    options = compare_options(args)
    _check_procedure(options)
    _check_names_not_labels(args, options.get("labels") or {})
    results: dict[str, Any] = {}
    item_text: dict[str, tuple[str, bytes]] = {}
    raised: list[warnings.WarningMessage] = []
    try:
        with warnings.catch_warnings(record=True) as raised:
            warnings.simplefilter("always")
            if runs is not None:
                results[names[0]] = compare_read_runs(runs, options)
            else:
                _compute(args, names, metrics, options, results)
            given = add_intervals(results, args)
            summaries = (
                {} if quiet else {n: r.summary(**_one(given, n)) for n, r in results.items()}
            )
    except BaseException:
        _warn_again(raised, ())
        raise
    _warn_again(raised, summaries.values())  # a caution the summary prints: once, not twice
    for name, text in summaries.items():
        if len(results) > 1:
            result = results[name]
            shown = _metric_title(name, result) if metrics is not None else name
            print(f"== {shown} ==", file=out)
        print(text, file=out)
        if getattr(results[name], "items", None) is not None:
            item_text[name] = item_outputs(results[name])
            print("\n" + item_text[name][0], file=out)
        if len(results) > 1:
            print(file=out)

    # 3. every output rendered (the JSON streamed as it is written), then all-or-nothing
    result = next(iter(results.values())) if len(results) == 1 else None
    kind = _figure_kind(result, args, out=None if quiet else out) if args.output else "cd"
    contents: list[tuple[Target, Content]] = []
    if args.json:
        contents.append((targets["--json"], _json_content(results, metrics is None, given)))
    if report_kind:
        text = (
            _report_text(result, report_kind, latex, **_one(given, next(iter(results))))
            if metrics is None
            else _reports_text(results, report_kind, latex, given)
        )
        contents.append((targets["--report"], text.encode("utf-8")))
    if args.item_tests:
        if result is None or result.items is None:
            raise CdplotInputError(
                "--item-tests needs one item-level input (a table with an item column; "
                "name it with --item-col)."
            )
        done = next(iter(item_text.values()), None) or item_outputs(result)
        contents.append((targets["--item-tests"], done[1]))
    if args.output:
        figure_results = (
            results if metrics is None else {_metric_title(m, r): r for m, r in results.items()}
        )
        contents.append(
            (
                targets["-o"],
                render(lambda: _cd_figure(figure_results, args, kind), fig_formats["-o"], args.dpi),
            )
        )
    if args.heatmap:
        contents.append(
            (
                targets["--heatmap"],
                render(lambda: _heatmap(result, args), fig_formats["--heatmap"], args.dpi),
            )
        )
    contents += methods_contents(results, args, targets, given)
    commit(contents)
    if contents and not quiet:
        print("\nwrote " + ", ".join(t.path for t, _ in contents), file=out)


def _json_content(
    results: dict[str, Any], one: bool, shown: dict[str, dict[str, Any]]
) -> Iterator[bytes]:
    """The JSON document in chunks (a large result is never held whole), then a newline:
    of the one result (``one``), else of every result keyed by its name, each with the
    rank intervals and effect sizes computed for it (``shown``)."""
    from .._json import json_chunks

    if one:
        name, result = next(iter(results.items()))
        yield from json_chunks(result, **_one(shown, name))
    else:
        yield from json_chunks(results, **shown)
    yield b"\n"


def _figure_kind(result: Any, args: argparse.Namespace, out: TextIO | None) -> str:
    """The figure of ``-o`` (``--figure``); for ``auto`` a one-line note says which and why."""
    ranks_asked = args.columns is not None or args.max_height is not None
    if result is None:  # several comparisons: aligned CD diagrams
        if ranks_asked:
            raise CdplotInputError(
                "--columns and --max-height apply to the rank plot of one comparison, and "
                "this run makes several (one CD diagram each); run cdplot compare once each."
            )
        if args.figure not in ("auto", "cd"):
            raise CdplotInputError(
                f"--figure {args.figure} draws one comparison, and this run makes several; "
                "drop --figure (one CD diagram per comparison) or run cdplot compare once each."
            )
        return "cd"
    if args.figure != "auto":
        return args.figure
    if ranks_asked:
        if out is not None:
            flag = "--columns" if args.columns is not None else "--max-height"
            print(f"figure: the rank plot, which {flag} applies to (--figure to choose)", file=out)
        return "ranks"
    from ..plotting._cd import SINGLE_COLUMN_WIDTH
    from ..plotting._kinds import figures

    if figures(result).auto is not None:
        return figures(result).auto  # a Bayesian comparison: its CD diagram
    from ..plotting._choose import figure_reason

    # the width the figure is drawn at: cd_diagram's own default when none is given
    kind, reason = figure_reason(result, figure_width(args) or SINGLE_COLUMN_WIDTH)
    if out is not None:
        print(f"figure: {reason} (--figure cd|ranks|mcm to choose)", file=out)
    return kind


def _cd_figure(results: dict[str, Any], args: argparse.Namespace, kind: str = "cd") -> Any:
    from .. import plotting
    from ..plotting import cd_diagrams
    from ..plotting._kinds import figures

    options: dict[str, Any] = {"highlight": args.highlight}
    width = figure_width(args)
    if args.title is not None:
        options["title"] = args.title
    if kind in ("ranks", "mcm"):
        from ..plotting._choose import plot_result

        (result,) = results.values()
        if kind == "ranks":
            return rank_figure(result, {"width": width, **options}, args)
        return plot_result(result, kind).get_figure(root=True)
    if len(results) == 1:
        (result,) = results.values()
        draw = getattr(plotting, figures(result).function("cd", result))  # Bayesian: its own
        return draw(result, width=width, **options).figure
    if width is not None:
        options["width"] = width
    return cd_diagrams(results, **options)


def _heatmap(result: Any, args: argparse.Namespace) -> Any:
    from ..plotting import apv_heatmap
    from ..plotting._kinds import figures

    if figures(result).by_kind["heatmap"] != "apv_heatmap":
        raise CdplotInputError(
            f"--heatmap draws p-values, but --test {result.test} gives posterior "
            "probabilities; drop --heatmap (-o draws the Bayesian CD diagram, --json and "
            "--report hold every posterior)."
        )
    return apv_heatmap(result, width=figure_width(args)).figure

"""JSON serialisation of a ComparisonResult (for pipelines); round-trips exactly.

The document (``format`` ``"cdplot-comparison"``, ``format_version`` 1) is one object:

=====================  =================================================================
key                    value
=====================  =================================================================
``settings``           ``test``, ``correction``, ``alpha``, ``control``,
                       ``higher_is_better``, ``test_options``
``algorithms``         the data's names, input order (``labels`` holds display names)
``datasets``           dataset names, input order
``scores``, ``ranks``  N x k matrices (rows = datasets, columns = algorithms)
``average_ranks``      algorithm -> average rank, best first
``friedman``,          ``{name, statistic, pvalue, df}`` or null (``df`` a number, or
``iman_davenport``,    a pair for an F statistic)
``omnibus``
``n_missing``,         number of missing results; datasets with fewer than two results;
``ignored_datasets``   what ``missing=`` dropped
``dropped_datasets``,
``dropped_algorithms``
``labels``             algorithm -> display name (only those given)
``input_notes``        sentences: how the table was read (aggregation, rounding, drops)
``source_note``        null, or how a recognised source (lm-evaluation-harness, Parquet,
                       MLflow, ...) was read; item matrices (``res.items``) are not written
``aggregation``        null, or ``{function, columns, min_count, max_count, counts, split_ties,
                       tie_decimals}`` (the last two: ties of the written scores' means that
                       the exact means split, and the decimals that keep them; optional)
                       with ``counts`` = ``{dataset: {algorithm: runs}}`` (before drops)
``score_std``          null, or an N x k matrix like ``scores``: standard deviation
                       (``ddof=1``) of the runs of each cell (null for one run)
``decimals``           null, or the number of decimals the scores were rounded to
``n_per_pair``         null, or a k x k matrix of the datasets both algorithms have
``statistics``,        k x k matrices (input order; null on the diagonal)
``pvalues``
``adjusted_pvalues``,  k x k matrices, or with a control ``{algorithm: value}``
``significant``
``groups``,            lists of algorithm names
``uncovered_pairs``
``critical_difference``  a number or null; ``critical_difference_units`` ``"rank"`` or
                       ``"score"`` (Tukey)
``mean_scores``        null, or algorithm -> mean score (parametric analyses)
``rope``,              Bayesian tests: the rope and the decision threshold; else null
``threshold``
``posterior_better``,  Bayesian tests: k x k posterior probabilities (row practically
``posterior_equivalent``  better than column; practically equivalent); else null
``decisions``          Bayesian tests: k x k strings ("A better", "B better",
                       "equivalent", "undecided", "" on the diagonal); else null
=====================  =================================================================

NaN is written as null and infinities as ``"inf"``/``"-inf"`` (JSON has neither). Fields
added after a file was written default on reading (null, empty), so older files still
load. :func:`results_to_json` writes several results (one per metric) as one object
keyed by metric, each value a document as above.
"""

from __future__ import annotations

import functools
import itertools
import json
import math
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import IO, TYPE_CHECKING, Any

import numpy as np

from ._errors import CdplotInputError
from ._json_check import checked_document
from ._version import __version__
from .io import Aggregation
from .stats._own_ranks import OWN_RANK_LABELS
from .stats._results import (
    BayesianComparisonResult,
    ComparisonResult,
    OmnibusResult,
    is_comparison,
)

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

__all__ = [
    "result_from_json",
    "result_to_json",
    "results_from_json",
    "results_to_json",
    "write_json",
]

FORMAT = "cdplot-comparison"
FORMAT_VERSION = 1


def _num(x: Any) -> Any:
    """A JSON-safe number: NaN -> null, +-inf -> "inf"/"-inf" (JSON has neither)."""
    if isinstance(x, (bool, np.bool_)):
        return bool(x)
    x = float(x)
    if math.isnan(x):
        return None
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return x


def _unnum(x: Any) -> float:
    if x is None:
        return math.nan
    if isinstance(x, str):
        return float(x)
    return float(x)


class _Rows:
    """A matrix written row by row, straight from its numpy array (never a nested list).

    With ``scale``, each row is multiplied by it as it is written (the ranks, stored as
    twice their value, are written as ranks without a float copy of the table).
    """

    def __init__(self, values: np.ndarray, scale: float | None = None) -> None:
        self.values = np.asarray(values)
        self.scale = scale

    def rows(self) -> Iterator[np.ndarray]:
        """The rows, scaled if asked."""
        for row in self.values:
            yield row if self.scale is None else row * self.scale


class _Object(dict):
    """A JSON object whose values may hold :class:`_Rows` (written piece by piece)."""


def _ranks_rows(ranking: Any) -> _Rows:
    """The per-dataset ranks, from their compact form when stored so."""
    if ranking.twice_ranks is not None:
        return _Rows(ranking.twice_ranks, scale=0.5)
    return _Rows(ranking.ranks)


def _matrix(values: np.ndarray | None) -> _Rows | None:
    return None if values is None else _Rows(values)


def _series(
    labels: Sequence[str], values: np.ndarray | None, flags: bool = False
) -> dict[str, Any] | None:
    """``{label: value}`` (booleans with ``flags``), or None."""
    if values is None:
        return None
    items = zip(labels, np.asarray(values).tolist(), strict=True)
    return {str(k): bool(v) if flags else _num(v) for k, v in items}


def _per_pair(result: Any, values: np.ndarray, flags: bool = False) -> Any:
    """A k x k matrix, or against a control ``{other: value}``."""
    if values.ndim == 2:
        return _Rows(np.asarray(values, dtype=bool) if flags else values)
    others = [a for a in result.algorithms if a != result.control]
    return _series(others, values, flags)


@functools.singledispatch
def _evidence(result: Any) -> dict[str, Any]:
    """The document's pairwise keys: p-values (frequentist) or posteriors (Bayesian)."""
    raise TypeError(f"not a comparison result: {type(result).__name__}")


@_evidence.register
def _(result: ComparisonResult) -> dict[str, Any]:
    part, means = result._pairwise, result._parametric
    cd = part.critical_difference
    return {
        "statistics": _Rows(part.statistics),
        "pvalues": _Rows(part.pvalues),
        "adjusted_pvalues": _per_pair(result, part.adjusted_pvalues),
        "critical_difference": None if cd is None else _num(cd),
        "critical_difference_units": part.critical_difference_units,
        "mean_scores": _series(means.mean_order or (), means.mean_scores),
        **dict.fromkeys(_BAYES_KEYS),
    }


@_evidence.register
def _(result: BayesianComparisonResult) -> dict[str, Any]:
    # format version 1 keeps its keys: P(row practically better) as the statistic, no p-values
    part, k = result._pairwise, result.n_algorithms
    no_pvalues = np.full(np.shape(part.significant), np.nan)
    return {
        "statistics": _Rows(part.posterior_better),
        "pvalues": _Rows(np.full((k, k), np.nan)),
        "adjusted_pvalues": _per_pair(result, no_pvalues),
        "critical_difference": None,
        "critical_difference_units": "rank",
        "mean_scores": None,
        "rope": _num(part.rope),
        "threshold": _num(part.threshold),
        "posterior_better": _Rows(part.posterior_better),
        "posterior_equivalent": _Rows(part.posterior_equivalent),
        "decisions": _Rows(part.decisions),
    }


#: the Bayesian keys (null in a frequentist result's document)
_BAYES_KEYS = ("rope", "threshold", "posterior_better", "posterior_equivalent", "decisions")


def _row_items(row: np.ndarray) -> list[str]:
    """JSON texts of one row: numbers as ``float.__repr__`` (as :mod:`json` writes them)."""
    if row.dtype == np.bool_:
        return ["true" if v else "false" for v in row.tolist()]
    if row.dtype == object:  # strings (the decisions of a Bayesian test)
        return [json.dumps(str(v), ensure_ascii=False) for v in row.tolist()]
    values = row.astype(float)
    if np.isfinite(values).all():
        return [repr(v) for v in values.tolist()]
    return [json.dumps(_num(v)) for v in values.tolist()]


def _newline(indent: int | None, level: int) -> str:
    return "" if indent is None else "\n" + " " * (indent * level)


def _container(
    brackets: str, members: Iterable[Iterable[str]], indent: int | None, level: int
) -> Iterator[str]:
    """``[...]`` or ``{...}`` around ``members`` (each an iterable of pieces), laid out as
    :func:`json.dumps` lays them out: one member per line when indented, ``", "`` otherwise."""
    empty = True
    yield brackets[0]
    for member in members:
        separator = ("," if not empty else "") + (
            _newline(indent, level + 1) if indent is not None else " " * (not empty)
        )
        empty = False
        yield separator
        yield from member
    yield brackets[1] if empty else _newline(indent, level) + brackets[1]


def _pieces(value: Any, indent: int | None, level: int) -> Iterator[str]:
    """The JSON text of ``value`` at nesting ``level``, as :func:`json.dumps` would write it."""
    if isinstance(value, _Rows):
        rows = (
            _container("[]", ([item] for item in _row_items(row)), indent, level + 1)
            for row in value.rows()
        )
        yield from _container("[]", rows, indent, level)
    elif isinstance(value, _Object):
        members = (
            itertools.chain([json.dumps(str(key), ensure_ascii=False) + ": "],
                            _pieces(item, indent, level + 1))
            for key, item in value.items()
        )  # fmt: skip
        yield from _container("{}", members, indent, level)
    else:
        text = json.dumps(value, indent=indent, allow_nan=False, ensure_ascii=False)
        yield text if indent is None else text.replace("\n", _newline(indent, level))


def _chunks(document: _Object, indent: int | None, size: int = 1 << 18) -> Iterator[str]:
    """The document's text in pieces of about ``size`` characters."""
    buffer: list[str] = []
    length = 0
    for piece in _pieces(document, indent, 0):
        buffer.append(piece)
        length += len(piece)
        if length >= size:
            yield "".join(buffer)
            buffer, length = [], 0
    if buffer:
        yield "".join(buffer)


def _aggregation(agg: Aggregation | None) -> dict[str, Any] | None:
    if agg is None:
        return None
    counts = agg.counts
    return {
        "function": agg.function,
        "columns": list(agg.columns),
        "min_count": int(agg.min_count),
        "max_count": int(agg.max_count),
        "counts": {
            str(d): {str(a): int(n) for a, n in row.items()} for d, row in counts.iterrows()
        },
        "split_ties": int(agg.split_ties),
        "tie_decimals": agg.tie_decimals,
    }


def _aggregation_back(d: dict[str, Any] | None) -> Aggregation | None:
    if d is None:
        return None
    rows = d["counts"]
    algorithms = list(next(iter(rows.values()), {}))
    counts = np.array([[int(row[a]) for a in algorithms] for row in rows.values()], dtype=np.int64)
    return Aggregation(
        function=str(d["function"]),
        columns=tuple(str(c) for c in d["columns"]),
        counts=counts.reshape(len(rows), len(algorithms)),
        min_count=int(d["min_count"]),
        max_count=int(d["max_count"]),
        datasets=list(rows),
        algorithms=algorithms,
        split_ties=int(d.get("split_ties", 0)),
        tie_decimals=d.get("tie_decimals"),
    )


def _omnibus(o: OmnibusResult | None) -> dict[str, Any] | None:
    if o is None:  # e.g. Friedman on a table with missing results
        return None
    df = [_num(d) for d in o.df] if isinstance(o.df, tuple) else _num(o.df)
    return {"name": o.name, "statistic": _num(o.statistic), "pvalue": _num(o.pvalue), "df": df}


def result_to_json(result: ComparisonResult, *, indent: int | None = 2) -> str:
    """Serialise a result: settings, scores, ranks, omnibus tests, p-values, APVs, groups.

    Also ``result.to_json()``; :func:`cdplot.load_result` reads the text back.

    >>> import cdplot
    >>> text = result_to_json(cdplot.compare(cdplot.datasets.load("demsar2006")))
    >>> result_from_json(text).groups == cdplot.compare(cdplot.datasets.load("demsar2006")).groups
    True
    """
    return "".join(_chunks(_document(result), indent))


def json_chunks(
    results: ComparisonResult | Mapping[str, ComparisonResult], *, indent: int | None = 2
) -> Iterator[bytes]:
    """The UTF-8 text of :func:`result_to_json` (or :func:`results_to_json` for a mapping)
    in chunks of about 256 KiB, for writing a large result without holding it whole."""
    document = _document(results) if is_comparison(results) else _several(results)
    for chunk in _chunks(document, indent):
        yield chunk.encode("utf-8")


def write_json(result: ComparisonResult, fh: IO[str], *, indent: int | None = 2) -> None:
    """Write :func:`result_to_json`'s text to an open text file, streamed (no large string).

    >>> import io, cdplot
    >>> res = cdplot.compare(cdplot.datasets.load("demsar2006"))
    >>> buffer = io.StringIO()
    >>> write_json(res, buffer)
    >>> buffer.getvalue() == result_to_json(res)
    True
    """
    for chunk in _chunks(_document(result), indent):
        fh.write(chunk)


def _document(result: ComparisonResult) -> _Object:
    """The JSON document of a result: Python objects, matrices as :class:`_Rows`."""
    ranking, evidence = result._ranking, _evidence(result)
    doc = _Object(
        {
            "format": FORMAT,
            "format_version": FORMAT_VERSION,
            "cdplot_version": __version__,
            "settings": {
                "test": result.test,
                "correction": result.correction,
                "alpha": result.alpha,
                "control": result.control,
                "higher_is_better": result.higher_is_better,
                "test_options": result.test_options,
            },
            "algorithms": list(result.algorithms),
            "datasets": list(result.datasets),
            "scores": _Rows(result._input.scores),
            "ranks": _ranks_rows(ranking),
            "average_ranks": _series(ranking.rank_order, ranking.average_ranks),
            "friedman": _omnibus(result.friedman),
            "iman_davenport": _omnibus(result.iman_davenport),
            "omnibus": _omnibus(result.omnibus),
            "n_missing": int(result.n_missing),
            "ignored_datasets": list(result.ignored_datasets),
            "dropped_datasets": list(result.dropped_datasets),
            "dropped_algorithms": list(result.dropped_algorithms),
            "labels": dict(result.labels),
            "input_notes": list(result.input_notes),
            "source_note": result.source_note,
            "aggregation": _aggregation(result.aggregation),
            "score_std": _matrix(result._input.score_std),
            "decimals": result.decimals,
            "n_per_pair": _matrix(result._pairwise.n_per_pair),
            "statistics": evidence.pop("statistics"),
            "pvalues": evidence.pop("pvalues"),
            "adjusted_pvalues": evidence.pop("adjusted_pvalues"),
            "significant": _per_pair(result, result._pairwise.significant, flags=True),
            "groups": [list(g) for g in result.groups],
            "uncovered_pairs": [list(p) for p in result.uncovered_pairs],
            **evidence,  # critical difference and mean scores, or the posteriors
        }
    )
    doc.update(_computed(result))  # rank intervals and effect sizes, when computed
    return doc


def _computed(result: ComparisonResult) -> dict[str, Any]:
    """``rank_intervals`` and ``effect_sizes`` keys for what was computed on ``result``."""
    from .stats._effects import computed_effect_sizes
    from .stats._intervals import computed_rank_intervals

    out: dict[str, Any] = {}
    ri = computed_rank_intervals(result)
    if ri is not None:
        out["rank_intervals"] = {
            "method": ri.method,
            "confidence": ri.confidence,
            "simultaneous": ri.simultaneous,
            "on": ri.on,
            "n_boot": ri.n_boot,
            "critical_value": None
            if ri.critical_value is None
            else [_num(c) for c in ri.critical_value],
            "algorithms": list(ri.algorithms),
            "low": [int(x) for x in ri.low],
            "high": [int(x) for x in ri.high],
            "p_best": [_num(p) for p in ri.p_best],
            "best_set": list(ri.best_set),
        }
    effects = computed_effect_sizes(result)
    if effects is not None:
        out["effect_sizes"] = [
            {k: (_num(v) if isinstance(v, float) else v) for k, v in row.items()}
            for row in effects.to_dict(orient="records")
        ]
    return out


def _omnibus_back(d: dict[str, Any] | None) -> OmnibusResult | None:
    if d is None:
        return None
    df = tuple(_unnum(x) for x in d["df"]) if isinstance(d["df"], list) else _unnum(d["df"])
    return OmnibusResult(_unnum(d["statistic"]), _unnum(d["pvalue"]), df, d.get("name", ""))


def result_from_json(text: str) -> ComparisonResult:
    """Rebuild a :class:`ComparisonResult` from :func:`result_to_json`'s output.

    Raises
    ------
    CdplotInputError
        If ``text`` is not JSON, not a cdplot result, from a newer format version, or has a
        missing or malformed field (the message names it).
    """
    doc = checked_document(text)  # types, shapes, agreement of the fields (issue 25, N6)
    try:
        return _rebuild(doc)
    except KeyError as exc:
        raise CdplotInputError(
            f"not a complete cdplot JSON result: the field {exc.args[0]!r} is missing."
        ) from None
    except (TypeError, ValueError, AttributeError) as exc:
        raise CdplotInputError(
            f"not a valid cdplot JSON result: a field is malformed ({exc})."
        ) from None


def _rebuild(doc: dict[str, Any]) -> ComparisonResult | BayesianComparisonResult:
    import pandas as pd

    algs = pd.Index(doc["algorithms"], dtype=object, name="algorithm")
    plain = pd.Index(doc["algorithms"], dtype=object)
    dsets = pd.Index(doc["datasets"], dtype=object, name="dataset")

    def mat(key: str, index: pd.Index, columns: pd.Index, dtype: Any = float) -> pd.DataFrame:
        values = np.array([[_unnum(v) for v in row] for row in doc[key]], dtype=float)
        return pd.DataFrame(values.astype(dtype), index=index, columns=columns)

    settings = doc["settings"]
    control = settings["control"]
    if control is None:
        adjusted: pd.DataFrame | pd.Series = mat("adjusted_pvalues", plain, plain)
        significant: pd.DataFrame | pd.Series = pd.DataFrame(
            np.array(doc["significant"], dtype=bool), index=plain, columns=plain
        )
    else:
        others = pd.Index(list(doc["adjusted_pvalues"]), dtype=object, name="algorithm")
        adjusted = pd.Series(
            [_unnum(v) for v in doc["adjusted_pvalues"].values()],
            index=others,
            name=f"APV vs {control}",
        )
        significant = pd.Series(
            [bool(v) for v in doc["significant"].values()],
            index=others,
            name=f"significant vs {control}",
        )
    avg = pd.Series(
        [_unnum(v) for v in doc["average_ranks"].values()],
        index=pd.Index(list(doc["average_ranks"]), dtype=object, name="algorithm"),
        # issue 30: the aligned-ranks and Quade tests report their own ranking
        name="average rank"
        if doc.get("n_missing")
        else OWN_RANK_LABELS.get(doc["settings"]["test"], "average rank"),
    )
    cd = doc["critical_difference"]
    std = mat("score_std", dsets, algs) if doc.get("score_std") is not None else None
    per_pair = (
        mat("n_per_pair", plain, plain, dtype="int64")
        if doc.get("n_per_pair") is not None
        else None
    )
    decimals = doc.get("decimals")
    friedman = _omnibus_back(doc["friedman"])
    omnibus = doc.get("omnibus")
    # the same test as Friedman's is the same object, as compare() returns it
    omnibus_back = friedman if omnibus is not None and omnibus == doc["friedman"] else None
    means = doc.get("mean_scores")
    bayes = {}
    if doc.get("posterior_better") is not None:
        better = mat("posterior_better", plain, plain)
        bayes = {
            "rope": _unnum(doc["rope"]),
            "threshold": _unnum(doc["threshold"]),
            "posterior_better": better,
            "posterior_equivalent": mat("posterior_equivalent", plain, plain),
            "posterior_worse": better.T.copy(),
            "decisions": pd.DataFrame(
                np.array(doc["decisions"], dtype=object), index=plain, columns=plain.copy()
            ),
        }
    common = {
        "algorithms": list(doc["algorithms"]),
        "datasets": list(doc["datasets"]),
        "scores": mat("scores", dsets, algs),
        "ranks": mat("ranks", dsets, algs),
        "average_ranks": avg,
        "friedman": friedman,
        "iman_davenport": _omnibus_back(doc["iman_davenport"]),
        "omnibus": omnibus_back or _omnibus_back(omnibus),
        "n_missing": int(doc.get("n_missing", 0)),
        "ignored_datasets": tuple(doc.get("ignored_datasets", ())),
        "dropped_datasets": tuple(doc.get("dropped_datasets", ())),
        "dropped_algorithms": tuple(doc.get("dropped_algorithms", ())),
        "labels": dict(doc.get("labels", {})),
        "source_note": doc.get("source_note"),
        "aggregation": _aggregation_back(doc.get("aggregation")),
        "score_std": std,
        "decimals": None if decimals is None else int(decimals),
        "n_per_pair": per_pair,
        "test": settings["test"],
        "correction": settings["correction"],
        "alpha": float(settings["alpha"]),
        "control": control,
        "higher_is_better": bool(settings["higher_is_better"]),
        "significant": significant,
        "groups": tuple(tuple(g) for g in doc["groups"]),
        "uncovered_pairs": tuple((a, b) for a, b in doc["uncovered_pairs"]),
        "test_options": dict(settings.get("test_options", {})),
    }
    if bayes:
        return BayesianComparisonResult(**common, **bayes)
    return ComparisonResult(
        **common,
        statistics=mat("statistics", plain, plain),
        pvalues=mat("pvalues", plain, plain),
        adjusted_pvalues=adjusted,
        critical_difference=None if cd is None else _unnum(cd),
        critical_difference_units=doc.get("critical_difference_units", "rank"),
        mean_scores=None
        if means is None
        else pd.Series(
            [_unnum(v) for v in means.values()],
            index=pd.Index(list(means), dtype=object, name="algorithm"),
            name="mean score",
        ),
    )


def results_to_json(results: Mapping[str, ComparisonResult], *, indent: int | None = 2) -> str:
    """Serialise several results (e.g. one per metric) as one object keyed by their names.

    Each value is the document of :func:`result_to_json`; the keys keep their order.
    ``cdplot compare --score-col accuracy --score-col fit_time --json FILE`` writes this.

    >>> import cdplot
    >>> res = cdplot.compare(cdplot.datasets.load("demsar2006"))
    >>> back = results_from_json(results_to_json({"accuracy": res}))
    >>> list(back), back["accuracy"].groups == res.groups
    (['accuracy'], True)
    """
    document = _several(results)
    return "".join(_chunks(document, indent))


def _several(results: Any) -> _Object:
    """The document of several results: one object keyed by their names."""
    if not isinstance(results, Mapping) or not results:
        raise CdplotInputError(
            "results_to_json() takes a non-empty mapping of name -> ComparisonResult, got "
            f"{type(results).__name__}; for one result use result_to_json()."
        )
    return _Object((str(name), _document(r)) for name, r in results.items())


def results_from_json(text: str) -> dict[str, ComparisonResult]:
    """Rebuild the mapping written by :func:`results_to_json`.

    Raises
    ------
    CdplotInputError
        If ``text`` is not JSON, not an object of cdplot results, or a result is invalid
        (as :func:`result_from_json`, the message names the entry).
    """
    try:
        doc = json.loads(text)
    except (ValueError, RecursionError) as exc:  # ValueError: also an over-long integer
        raise CdplotInputError(f"not a cdplot JSON file: {exc}.") from None
    if not isinstance(doc, dict) or not doc or doc.get("format") == FORMAT:
        raise CdplotInputError(
            "not a cdplot JSON file of several results (an object of name -> result); read "
            "a single result with result_from_json()."
        )
    out = {}
    for name, entry in doc.items():
        try:
            out[name] = result_from_json(json.dumps(entry))
        except CdplotInputError as exc:
            raise CdplotInputError(f"entry {name!r}: {exc}") from None
    return out

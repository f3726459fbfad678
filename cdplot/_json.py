"""JSON serialisation of a comparison result (for pipelines); round-trips exactly.

The document (``format`` ``"cdplot-comparison"``, ``format_version`` 1) is one object, written
from the result's parts and read back into them as :data:`cdplot._json_fields.FIELDS`
describes each key (the same description checks a document before it is read):

=====================  =================================================================
key                    value
=====================  =================================================================
``settings``           ``test``, ``correction``, ``alpha``, ``control``,
                       ``higher_is_better``, ``test_options``
``procedure``          null, or the procedure run: ``test``, ``correction``, ``control``,
                       ``options``, ``alpha``, ``bh_budget`` (seconds, null: no limit),
                       ``omnibus``, ``order`` (agreeing with ``settings``; a document without
                       it, written before results kept their procedure, rebuilds it from
                       ``settings`` with the default budget)
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
``costs``,             null, or an N x k matrix like ``scores``: the cost of each cell
``cost_name``          (``compare(..., cost=COLUMN)``: mean over runs) and its column
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
``diagnostics``        a test sampled by MCMC (``bayes-hierarchical``): one object per pair
                       fitted, ``{algorithm_1, algorithm_2, rhat, ess, divergences}``
                       (largest split R-hat, smallest bulk effective sample size, divergent
                       transitions); else null (other tests, and files written before)
``rank_intervals``     only when given (``intervals=``): ``method``, ``confidence``,
                       ``simultaneous``, ``on``, ``n_boot``, ``critical_value``,
                       ``algorithms``, ``low``, ``high``, ``p_best``, ``best_set``
``effect_sizes``       only when given (``effects=``): one object per row of the frame
=====================  =================================================================

NaN is written as null and infinities as ``"inf"``/``"-inf"`` (JSON has neither). Fields
added after a file was written default on reading (null, empty), so older files still
load. :func:`results_to_json` writes several results (one per metric) as one object
keyed by metric, each value a document as above.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import math
from collections.abc import Iterable, Iterator, Mapping
from typing import IO, TYPE_CHECKING, Any

import numpy as np

from ._errors import CdplotInputError
from ._json_check import FORMAT, FORMAT_VERSION, checked_document
from ._json_fields import FIELDS, Layout, Rows
from ._json_fields import number as _num
from ._version import __version__
from .stats._own_ranks import OWN_RANK_LABELS
from .stats._results import (
    BayesianComparisonResult,
    Comparison,
    ComparisonResult,
    is_comparison,
)

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

    from .stats._intervals import RankIntervals

__all__ = [
    "result_from_json",
    "result_to_json",
    "results_from_json",
    "results_to_json",
    "write_json",
]


class _Object(dict):
    """A JSON object whose values may hold :class:`_Rows` (written piece by piece)."""


#: Rows are turned into text in blocks of about this many cells.
_BLOCK_CELLS = 1 << 12


class _Texts:
    """The JSON texts of the values of one matrix, block of rows by block of rows, as
    :func:`json.dumps` writes each value: numbers as ``float.__repr__``, NaN as null,
    infinities as strings, ``true``/``false``, strings escaped.

    Each distinct value of a block (bit for bit: 0.0 and -0.0 differ) is written once, and
    the texts of the first distinct values of the matrix, up to ``limit`` (about one per
    64 cells), are kept for the next blocks: the p-values and statistics of a large board
    repeat across its rows.
    """

    def __init__(self, cells: int) -> None:
        self.known: dict[Any, str] = {}
        self.limit = max(_BLOCK_CELLS, cells // 64)

    def __call__(self, rows: np.ndarray) -> np.ndarray:
        """The texts of a block of rows (an object array of the same shape)."""
        if rows.dtype == np.bool_:
            return np.where(rows, "true", "false").astype(object)
        if rows.dtype == object:  # strings (the decisions of a Bayesian test)
            keys, where = np.unique([str(v) for v in rows.ravel().tolist()], return_inverse=True)
            distinct = values = keys.tolist()
            write = _string_texts
        else:  # numbers, told apart by their bits
            numbers = np.ascontiguousarray(rows, dtype=np.float64)
            keys, where = np.unique(numbers.view(np.int64), return_inverse=True)
            distinct, values = keys.tolist(), keys.view(np.float64).tolist()
            write = _number_texts
        texts = [self.known.get(key) for key in distinct]
        missing = [i for i, text in enumerate(texts) if text is None]
        if missing:
            fresh = write([values[i] for i in missing])
            for i, text in zip(missing, fresh, strict=True):
                texts[i] = text
            kept = missing[: max(0, self.limit - len(self.known))]
            self.known.update((distinct[i], texts[i]) for i in kept)
        return np.array(texts, dtype=object)[where.reshape(rows.shape)]


def _string_texts(values: list[str]) -> list[str]:
    """Each string as JSON (not ASCII-escaped)."""
    return [json.dumps(v, ensure_ascii=False) for v in values]


def _number_texts(values: list[float]) -> list[str]:
    """``float.__repr__`` of each value; NaN null, infinities as strings (as JSON)."""
    if all(map(math.isfinite, values)):
        return list(map(float.__repr__, values))
    return [repr(v) if math.isfinite(v) else json.dumps(_num(v)) for v in values]


def _newline(indent: int | None, level: int) -> str:
    return "" if indent is None else "\n" + " " * (indent * level)


def _blocks(value: Rows) -> Iterator[np.ndarray]:
    """The rows of a matrix, stacked in blocks of about :data:`_BLOCK_CELLS` cells."""
    block: list[np.ndarray] = []
    cells = 0
    for row in value.rows():
        block.append(row)
        cells += row.size + 1
        if cells >= _BLOCK_CELLS:
            yield np.stack(block)
            block, cells = [], 0
    if block:
        yield np.stack(block)


def _rows_pieces(value: Rows, indent: int | None, level: int) -> Iterator[str]:
    """A matrix as :func:`json.dumps` lays it out, one piece per row (one string each)."""
    between = ", " if indent is None else "," + _newline(indent, level + 1)
    inner = ", " if indent is None else "," + _newline(indent, level + 2)
    opening = "[" if indent is None else "[" + inner[1:]
    closing = _newline(indent, level + 1) + "]"
    first = True
    texts = _Texts(value.values.size)
    yield "["
    for block in _blocks(value):
        for row in texts(block):
            if not first or indent is not None:
                yield between if not first else _newline(indent, level + 1)
            yield opening + inner.join(row.tolist()) + closing if row.size else "[]"
            first = False
    yield "]" if first or indent is None else _newline(indent, level) + "]"


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
    if isinstance(value, Rows):
        yield from _rows_pieces(value, indent, level)
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


def result_to_json(
    result: Comparison,
    *,
    intervals: RankIntervals | None = None,
    effects: pd.DataFrame | None = None,
    indent: int | None = 2,
) -> str:
    """Serialise a result: settings, scores, ranks, omnibus tests, p-values, APVs, groups.

    Also ``result.to_json()``; :func:`cdplot.load_result` reads the text back.

    Parameters
    ----------
    result : Comparison
        The result of :func:`cdplot.compare`.
    intervals : RankIntervals, optional
        Written under ``rank_intervals``: what ``cdplot.rank_intervals(result, ...)``
        returned. Default: none (a result remembers nothing computed from it, so two
        equal results write the same document).
    effects : pandas.DataFrame, optional
        Written under ``effect_sizes``, one object per row: the frame of
        ``cdplot.effect_sizes(result, ...)``. Default: none.
    indent : int or None, default 2
        Indentation of the JSON text (None: one line).

    Returns
    -------
    str
        The JSON document. ``CdplotInputError`` is raised for ``intervals`` or
        ``effects`` of other algorithms than the result's.

    Examples
    --------
    >>> import cdplot
    >>> text = result_to_json(cdplot.compare(cdplot.datasets.load("demsar2006")))
    >>> result_from_json(text).groups == cdplot.compare(cdplot.datasets.load("demsar2006")).groups
    True
    """
    return "".join(_chunks(_document(result, intervals, effects), indent))


def json_chunks(
    results: Comparison | Mapping[str, Comparison],
    *,
    intervals: Any = None,
    effects: Any = None,
    indent: int | None = 2,
) -> Iterator[bytes]:
    """The UTF-8 text of :func:`result_to_json` (or :func:`results_to_json` for a mapping)
    in chunks of about 256 KiB, for writing a large result without holding it whole.

    ``intervals`` and ``effects`` are those of :func:`result_to_json`, or for a mapping
    those of :func:`results_to_json` (keyed by the results' names)."""
    document = (
        _document(results, intervals, effects)
        if is_comparison(results)
        else _several(results, intervals, effects)
    )
    for chunk in _chunks(document, indent):
        yield chunk.encode("utf-8")


def write_json(
    result: Comparison,
    fh: IO[str],
    *,
    intervals: RankIntervals | None = None,
    effects: pd.DataFrame | None = None,
    indent: int | None = 2,
) -> None:
    """Write :func:`result_to_json`'s text to an open text file, streamed (no large string).

    ``intervals`` and ``effects`` are those of :func:`result_to_json`.

    >>> import io, cdplot
    >>> res = cdplot.compare(cdplot.datasets.load("demsar2006"))
    >>> buffer = io.StringIO()
    >>> write_json(res, buffer)
    >>> buffer.getvalue() == result_to_json(res)
    True
    """
    for chunk in _chunks(_document(result, intervals, effects), indent):
        fh.write(chunk)


def _document(result: Comparison, intervals: Any = None, effects: Any = None) -> _Object:
    """The JSON document of a result: its parts' fields as :data:`FIELDS` describes them
    (Python objects, matrices as :class:`~cdplot._json_fields.Rows`), then the rank
    intervals and effect sizes given (checked: computed from ``result``)."""
    from .stats._effects import shown_effects
    from .stats._intervals import shown_intervals

    intervals = shown_intervals(result, intervals)
    effects = shown_effects(result, effects)
    layout = Layout(list(result.algorithms), list(result.datasets), result.control)
    doc = _Object(
        {"format": FORMAT, "format_version": FORMAT_VERSION, "cdplot_version": __version__}
    )
    for field in FIELDS:
        owner, last = field.place(doc)
        owner[last] = field.written(result, layout)
    doc.update(_shown(intervals, effects))  # rank intervals and effect sizes, when given
    return doc


def _shown(ri: RankIntervals | None, effects: pd.DataFrame | None) -> dict[str, Any]:
    """``rank_intervals`` and ``effect_sizes`` keys for the intervals and effects given."""
    out: dict[str, Any] = {}
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
    if effects is not None:
        out["effect_sizes"] = [
            {k: (_num(v) if isinstance(v, float) else v) for k, v in row.items()}
            for row in effects.to_dict(orient="records")
        ]
    return out


def result_from_json(text: str) -> Comparison:
    """Rebuild a comparison result (of its kind) from :func:`result_to_json`'s output.

    Raises
    ------
    CdplotInputError
        If ``text`` is not JSON, not a cdplot result, from a newer format version, or has a
        missing or malformed field (the message names it).
    """
    doc = checked_document(text)  # types, shapes, agreement of the fields
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


def _rebuild(doc: dict[str, Any]) -> Comparison:
    """The result of a checked document: each part built from the fields :data:`FIELDS`
    reads for it (the fields of the other kind, and keys the part lacks, left aside)."""
    settings = doc["settings"]
    layout = Layout(
        list(doc["algorithms"]),
        list(doc["datasets"]),
        settings["control"],
        doc,
        # the aligned-ranks and Quade tests report their own ranking
        rank_name="average rank"
        if doc.get("n_missing")
        else OWN_RANK_LABELS.get(settings["test"], "average rank"),
    )
    bayesian = doc.get("posterior_better") is not None
    kind = BayesianComparisonResult if bayesian else ComparisonResult
    if doc.get("benchmark") is not None:  # one benchmark's items
        from .stats._benchmark_result import BenchmarkComparison

        kind = BenchmarkComparison
    values: dict[str, dict[str, Any]] = {attr: {} for attr in kind._PARTS}
    for field in FIELDS:
        if field.part not in values:
            continue
        known = {f.name for f in dataclasses.fields(kind._PARTS[field.part])}
        if not known.intersection(field.names):
            continue  # a key of the other kind (null in this document)
        read = field.read(field.value(doc), layout)
        values[field.part].update((k, v) for k, v in read.items() if k in known)
    return kind(**{attr: part(**values[attr]) for attr, part in kind._PARTS.items()})


def results_to_json(
    results: Mapping[str, Comparison],
    *,
    intervals: Mapping[str, RankIntervals] | None = None,
    effects: Mapping[str, pd.DataFrame] | None = None,
    indent: int | None = 2,
) -> str:
    """Serialise several results (e.g. one per metric) as one object keyed by their names.

    Each value is the document of :func:`result_to_json`; the keys keep their order.
    ``cdplot compare --score-col accuracy --score-col fit_time --json FILE`` writes this.
    ``intervals`` and ``effects`` map a result's name to the rank intervals or effect
    sizes written with it (as :func:`result_to_json`'s); a result not named has none.

    >>> import cdplot
    >>> res = cdplot.compare(cdplot.datasets.load("demsar2006"))
    >>> back = results_from_json(results_to_json({"accuracy": res}))
    >>> list(back), back["accuracy"].groups == res.groups
    (['accuracy'], True)
    """
    document = _several(results, intervals, effects)
    return "".join(_chunks(document, indent))


def _several(results: Any, intervals: Any = None, effects: Any = None) -> _Object:
    """The document of several results: one object keyed by their names, each with the
    rank intervals and effect sizes given for its name."""
    if not isinstance(results, Mapping) or not results:
        raise CdplotInputError(
            "results_to_json() takes a non-empty mapping of name -> ComparisonResult, got "
            f"{type(results).__name__}; for one result use result_to_json()."
        )
    from .report._intervals import by_name

    intervals = by_name(results, intervals, "intervals")
    effects = by_name(results, effects, "effects")
    return _Object(
        (str(name), _document(r, intervals.get(name), effects.get(name)))
        for name, r in results.items()
    )


def results_from_json(text: str) -> dict[str, Comparison]:
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

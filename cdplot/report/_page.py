"""The interactive part of the HTML page: dataset filters and numbers recomputed in the browser.

:func:`page_payload` gathers what the page's script (``_page.js``) needs: the scores, the
settings of the result, and the constants that depend only on k and alpha (Nemenyi's
``q_alpha``, the Bonferroni-Dunn quantile, Shaffer's multipliers, the quadrature rule of
the studentized range). :func:`explorer_html` returns the ``<section>`` with the controls,
the live table and figure, the payload and the inline script. Everything is inline: the
page makes no network request.
"""

from __future__ import annotations

import html
import json
import math
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING, Any

from .._labels import TEST_TITLES, correction_title
from ..stats._catalogue import entry_of
from ._evidence import evidence
from ._model import display_name
from ._page_encode import pair_sums_field, scores_field

if TYPE_CHECKING:  # pragma: no cover
    from ..stats._results import ComparisonResult

__all__ = ["explorer_html", "page_payload"]

#: Corrections the page recomputes (all pairs, or against a control).
EXACT_CORRECTIONS = (
    "none",
    "bonferroni",
    "bonferroni-dunn",
    "holm",
    "hochberg",
    "hommel",
    "finner",
    "li",
    "shaffer",
    "nemenyi",
)


@cache
def _asset(name: str) -> str:
    return resources.files(__package__).joinpath(name).read_text(encoding="utf-8")


def page_css() -> str:
    """The style sheet of the interactive section (screen and print)."""
    return _asset("_page.css")


def _not_recomputed(result: ComparisonResult) -> str | None:
    """Why the page cannot recompute the post-hoc test on a subset, or None if it can."""
    entry = entry_of(result.test)
    if entry is None or not entry.in_page:  # the tests whose entry says the page has them
        title = TEST_TITLES.get(result.test, result.test)
        return (
            f"The {title} is not recomputed in the page; its results below are those of the "
            "full table."
        )
    if result.correction not in EXACT_CORRECTIONS:
        return (
            f"The {correction_title(result)} correction is not recomputed in the page; the "
            "adjusted p-values and groups below are those of the full table."
        )
    return None


def _quadrature() -> dict[str, list[float]]:
    """The unit-panel Gauss-Legendre rule of :func:`cdplot.stats._studentized.range_sf`."""
    from ..stats._studentized import _unit_rule

    x, w = _unit_rule()
    return {"x": x.tolist(), "w": w.tolist()}


def _constants(result: ComparisonResult) -> dict[str, Any]:
    """Values that depend only on k and alpha, computed once in Python."""
    k, alpha = result.n_algorithms, result.alpha
    out: dict[str, Any] = {}
    entry = entry_of(result.test)
    if entry is not None and entry.in_page and entry.critical_difference is not None:
        # the page recomputes the critical difference (the Nemenyi test's)
        from ..stats._pairwise import nemenyi_q

        out["qAlpha"] = nemenyi_q(k, alpha)
        out["quadrature"] = _quadrature()
    if result.control is not None and result.correction == "bonferroni-dunn":
        from ..stats._posthoc import bonferroni_dunn_quantile

        out["zDunn"] = bonferroni_dunn_quantile(k, alpha)
    if result.correction == "shaffer":
        from ..stats._exhaustive import shaffer_multipliers

        out["shaffer"] = [int(t) for t in shaffer_multipliers(k)]
    return out


def _finite(value: float) -> float | None:
    return float(value) if math.isfinite(value) else None


def _full_table(result: ComparisonResult) -> dict[str, Any]:
    """The full-table post-hoc results, shown greyed when the page cannot recompute them.

    ``apv`` lists, in the order of the algorithms, the adjusted p-value (or, for a Bayesian
    test, the posterior probability shown in the static report) of algorithm a against b at
    ``a * k + b`` (null on the diagonal); against a control it lists the control's row (k
    values, null for the control). A flat list in algorithm order keeps the names out of it.
    """
    table, every_pair = evidence(result).page_values()
    algorithms = list(result.algorithms)
    if every_pair:
        apv = [None if a == b else _finite(table.loc[a, b]) for a in algorithms for b in algorithms]
    else:
        apv = [
            None if b == result.control or b not in table.index else _finite(table[b])
            for b in algorithms
        ]
    return {
        "apv": apv,
        "groups": [list(map(str, g)) for g in result.groups],
        "criticalDifference": evidence(result).critical_difference,
    }


def _tie_corrected(result: ComparisonResult) -> bool:
    """Whether the result's Friedman statistic carries the tie correction."""
    from ..stats._omnibus import friedman

    avg = result.average_ranks.to_numpy()
    plain = friedman(avg, result.n_datasets).statistic
    return not math.isclose(plain, result.friedman.statistic, rel_tol=1e-12, abs_tol=1e-12)


def page_payload(result: ComparisonResult) -> dict[str, Any] | None:
    """What the page's script needs, or None when the table is incomplete.

    Parameters
    ----------
    result : ComparisonResult
        A result of :func:`cdplot.compare` on a complete table.

    Returns
    -------
    dict or None
        JSON-ready: names, display labels, the scores (rows of numbers, or one base64 string
        of little-endian float64 values row by row when that is shorter), the settings and
        constants.

    Examples
    --------
    >>> import warnings, cdplot
    >>> warnings.simplefilter("ignore", cdplot.PoolDependenceWarning)
    >>> res = cdplot.compare(cdplot.datasets.load("demsar2006"), test="nemenyi")
    >>> payload = page_payload(res)
    >>> payload["recompute"], round(payload["qAlpha"], 3)  # Demšar (2006) Table 5(a), k = 4
    (True, 2.569)
    """
    if result.n_missing or result.friedman is None:
        return None
    import numpy as np

    scores = np.asarray(result.scores, dtype=float)
    if not np.isfinite(scores).all():
        return None
    reason = _not_recomputed(result)
    options = dict(result.test_options)
    return {
        "algorithms": list(map(str, result.algorithms)),
        "labels": [display_name(result, a) for a in result.algorithms],
        "datasets": list(map(str, result.datasets)),
        "scores": scores_field(scores),
        "higherIsBetter": bool(result.higher_is_better),
        "test": result.test,
        "testTitle": TEST_TITLES.get(result.test, result.test),
        "correction": result.correction,
        "alpha": result.alpha,
        "control": result.control,
        "tieCorrection": _tie_corrected(result),
        "options": {
            "zeroMethod": options.get("zero_method", "wilcox"),
            "exact": options.get("exact"),
            "continuity": bool(options.get("continuity", True)),
            "ties": options.get("ties", "split"),
        },
        "recompute": reason is None,
        "note": reason,
        "full": None if reason is None else _full_table(result),
        "pairSums": pair_sums_field(result) if reason is None else None,
        **_constants(result),
    }


def _json_for_script(payload: dict[str, Any]) -> str:
    """JSON that cannot end its ``<script>`` element early (``</`` and ``<!--`` escaped)."""
    text = json.dumps(payload, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")


def _method_line(result: ComparisonResult, payload: dict[str, Any]) -> str:
    """What the page recomputes, in one sentence."""
    test = TEST_TITLES.get(result.test, result.test)
    if result.correction == "nemenyi":
        correction = "its single-step adjustment"
    else:
        correction = f"{correction_title(result)} correction"
    recomputed = "average ranks, Friedman and Iman–Davenport tests"
    if payload["recompute"]:
        against = (
            f"the comparisons against {display_name(result, result.control)}"
            if result.control is not None
            else "the groups"
        )
        return (
            f"Recomputed in this page on the datasets ticked: {recomputed}, the {test} with "
            f"{correction} at α = {result.alpha:g}, {against} and the figure."
        )
    return f"Recomputed in this page on the datasets ticked: {recomputed}."


def explorer_html(result: ComparisonResult, h2: str = "h2") -> str:
    """The interactive ``<section>``: dataset checkboxes, live table and figure, inline script.

    Parameters
    ----------
    result : ComparisonResult
        A result of :func:`cdplot.compare`.
    h2 : str, default "h2"
        The heading element of the section.

    Returns
    -------
    str
        The section's HTML, or ``""`` when the page cannot recompute the result (an
        incomplete table: the static report is then the whole page).

    Examples
    --------
    >>> import cdplot
    >>> res = cdplot.compare(cdplot.datasets.load("demsar2006"))
    >>> section = explorer_html(res)
    >>> section.count('type="checkbox" data-dataset='), 'id="cdplot-result"' in section
    (14, True)
    """
    payload = page_payload(result)
    if payload is None:
        return ""
    esc = html.escape
    items = "".join(
        f'<li><label><input type="checkbox" data-dataset="{esc(d, quote=True)}" checked> '
        f"{esc(d)}</label></li>"
        for d in payload["datasets"]
    )
    note = (
        f'<p class="cdplot-note cdplot-greyed">{esc(payload["note"])}</p>'
        if payload["note"]
        else ""
    )
    what = evidence(result).table_words
    table_class = "cdplot-live-table" + ("" if payload["recompute"] else " cdplot-greyed")
    return (
        '<section class="cdplot-explorer" id="explore" aria-label="Explore: choose the datasets">'
        f"<{h2}>Explore: choose the datasets</{h2}>"
        f'<p class="cdplot-method">{esc(_method_line(result, payload))}</p>{note}'
        '<div class="cdplot-layout"><fieldset class="cdplot-datasets">'
        '<legend>Datasets (<span class="cdplot-count"></span>)</legend>'
        '<div class="cdplot-buttons"><button type="button" data-action="all">All</button>'
        '<button type="button" data-action="none">None</button></div>'
        '<label class="cdplot-filter">Filter datasets '
        '<input type="search" autocomplete="off" placeholder="name contains…"></label>'
        f'<ul class="cdplot-dataset-list">{items}</ul></fieldset>'
        '<div class="cdplot-live">'
        '<div id="cdplot-result" data-cdplot-result role="status" aria-live="polite">'
        '<p class="cdplot-omnibus"></p></div>'
        '<div class="cdplot-live-figure" aria-label="Figure of the selected datasets"></div>'
        '<div class="cdplot-buttons"><button type="button" data-action="svg">Download figure '
        '(SVG)</button><button type="button" data-action="csv">Download table (CSV)</button>'
        '</div><div class="cdplot-scroll" tabindex="0" aria-label="Live ranks table">'
        f'<table class="{table_class}"><caption>Average ranks on the datasets ticked</caption>'
        '<tbody></tbody></table></div><div class="cdplot-detail" aria-live="polite">'
        f"Hover or focus an algorithm for its rank interval, wins/ties/losses and {what}.</div>"
        "</div></div>"
        f'<script type="application/json" class="cdplot-payload">{_json_for_script(payload)}'
        f"</script><script>{_asset('_page.js')}</script></section>"
    )

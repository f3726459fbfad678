"""The rank-interval plot: one row per algorithm, legible from 10 to 1,000 algorithms.

One quantity on the axis, the rank position: the observed position as a point, the
interval of positions as a bar; the average rank is printed beside as text.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import matplotlib as mpl
import numpy as np
from matplotlib.collections import LineCollection, PolyCollection

from .._errors import CdplotInputError
from ..stats._intervals import RankPlotStatistics
from ..stats._letters import SINGLE_LETTERS
from . import _style
from ._cd import SINGLE_COLUMN_WIDTH, _title
from ._cd_layout import check_width
from ._figure import new_figure
from ._mathtext import check_mathtext
from ._pgf import PgfSafeText
from ._rank_layout import (
    MIN_FONTSIZE,
    RankLayout,
    RankRow,
    compact_letter_runs,
    letter_tokens,
    min_width,
    rank_layout,
    row_fontsize,
)
from ._text_measure import TextMeasure

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.axes import Axes

    from ..stats._results import ComparisonResult

__all__ = ["rank_plot"]

#: Colours: the bar and point of an algorithm, those of the confidence set of the best,
#: the band behind the set, the grid.
BAR_COLOR, POINT_COLOR = "0.55", _style.INK
BEST_COLOR, BEST_BAND = _style.OKABE_ITO[0], "#DCEBF7"
GRID_COLOR = "0.88"

#: Letters are shown while every algorithm's display, runs written first-last, has at most
#: this many characters and the display needs at most 52 letters (a-z, A-Z: never R's
#: dotted ".a" alphabet); otherwise numbered tiers (:func:`cdplot.stats._letters.tiers`).
MAX_LETTER_CHARS = 10
MAX_LETTERS = len(SINGLE_LETTERS)

#: What each mark is, in the note below the plot.
MARKS_NOTE = (
    "Point: observed rank position ({basis}; 1 = best); bar: the rank positions it may "
    "hold ({interval}); shaded: may rank first; avg. rank: its mean rank over the datasets."
)
#: The same of one benchmark's models (the column beside the bar is the mean score).
BENCHMARK_MARKS_NOTE = (
    "Point: observed rank position ({basis}; 1 = best); bar: the rank positions it may "
    "hold ({interval}); shaded: may rank first; mean score: over the {n_items} items."
)
OUTSIDE_NOTE = "Open point: outside its bar (these intervals rank another estimate)."
GROUPS_NOTE = {
    "letters": "Algorithms that share a letter are not significantly different.",
    "tier": "Tier: from its first algorithm down to the last before the first one "
    "significantly different from it.",
}


def _basis(stats: RankPlotStatistics) -> str:
    """What the point ranks, for the note."""
    return "by mean score" if stats.by_score else "by average rank"


def _interval_words(stats: RankPlotStatistics) -> str:
    """How the drawn intervals were made, for the note."""
    if stats.source == "decisions":
        return f"from the {'decided' if stats.bayesian else 'significant'} pairs"
    if stats.method is None or stats.confidence is None:
        return "the given intervals"
    if stats.method == "test":
        return "from the significant pairs"
    joint = "simultaneous" if stats.simultaneous else "one at a time"
    return f"{stats.method}, {stats.confidence:.0%} {joint}"


def _letter_runs(letters: Mapping[str, str]) -> dict[str, str] | None:
    """Each algorithm's letters with runs written first-last, or None where the display
    needs more than MAX_LETTERS letters or a row more than MAX_LETTER_CHARS characters."""
    used = {t for v in letters.values() for t in letter_tokens(v)}
    if len(used) > MAX_LETTERS:
        return None
    alphabet = SINGLE_LETTERS[: len(used)]
    runs = {a: compact_letter_runs(v, alphabet) for a, v in letters.items()}
    widest = max((len(v) for v in runs.values()), default=0)
    return runs if widest <= MAX_LETTER_CHARS else None


def group_display(result: ComparisonResult, letters: Mapping[str, str] | None = None) -> str:
    """``"letters"`` while the compact letter display is short, else ``"tier"``.

    Letters while every algorithm's letters, runs of four or more written first-last,
    take at most MAX_LETTER_CHARS characters and the display needs at most MAX_LETTERS
    letters; beyond (a 100-model Wilcoxon board: 18 characters; 300 models: 350 letters)
    numbered tiers, one number per algorithm. ``letters``: ``result.letters`` if known.
    """
    letters = result.letters if letters is None else letters
    return "tier" if _letter_runs(letters) is None else "letters"


def _score_texts(stats: RankPlotStatistics) -> dict[str, str]:
    """Mean score ± standard deviation over the datasets, per algorithm."""
    return {
        a: f"{m:.3g} ± {s:.2g}" if np.isfinite(s) else f"{m:.3g}"
        for a, m, s in zip(stats.algorithms, stats.mean_score, stats.score_sd, strict=True)
    }


def _group_texts(result: ComparisonResult, stats: RankPlotStatistics) -> tuple[str, dict[str, str]]:
    """The groups column: its head and each algorithm's letters or tier."""
    runs = _letter_runs(result.letters)
    if runs is None:
        return "tier", {a: str(t) for a, t in zip(stats.algorithms, stats.tiers, strict=True)}
    return "letters", runs


def _rows(
    result: ComparisonResult,
    stats: RankPlotStatistics,
    show: tuple[bool, bool, bool],
    highlight: set[str],
    labels: Mapping[str, str],
) -> tuple[list[RankRow], str]:
    """The rows in order of their positions, and the head of the groups column."""
    show_letters, show_scores, show_p_best = show
    head, groups = _group_texts(result, stats) if show_letters else ("letters", {})
    scores = _score_texts(stats) if show_scores else {}
    heads = {}
    if _is_benchmark(result):  # the models' mean scores beside the bar, not average ranks
        heads = {"value_head": "mean score", "name_head": "model"}
    rows = []
    for i, a in enumerate(stats.algorithms):
        chance = None if stats.p_best is None else stats.p_best[i]
        if heads:
            heads["value"] = f"{stats.mean_score[i]:.3f}"
        rows.append(
            RankRow(
                name=labels.get(a, result.label(a)),
                average_rank=float(stats.average_rank[i]),
                low=float(stats.low[i]),
                high=float(stats.high[i]),
                in_best_set=bool(stats.in_best_set[i]),
                position=float(stats.position[i]),
                letters=groups.get(a, ""),
                score=scores.get(a, ""),
                p_best="" if chance is None or not show_p_best else f"{chance:.2f}",
                bold=a in highlight or result.label(a) in highlight,
                **heads,
            )
        )
    check_mathtext([r.name for r in rows], where="rank_plot")
    return rows, head


def _is_benchmark(result: ComparisonResult) -> bool:
    """Whether ``result`` compares models on the items of one benchmark (a
    ``BenchmarkComparison``: the kind with the benchmark's items)."""
    return hasattr(type(result), "benchmark_items")


def _note(
    stats: RankPlotStatistics,
    rows: Sequence[RankRow],
    groups: str | None,
    n_items: int | None = None,
) -> str:
    """The key below the plot: what the point, the bar, the shading and the columns are
    (``n_items``: those of one benchmark, whose value column is the mean score)."""
    marks = MARKS_NOTE if n_items is None else BENCHMARK_MARKS_NOTE
    words = {"basis": _basis(stats), "interval": _interval_words(stats), "n_items": n_items}
    lines = [marks.format(**words)]
    if any(not r.low <= (r.position or 0.0) <= r.high for r in rows):
        lines.append(OUTSIDE_NOTE)
    if groups is not None:
        lines.append(GROUPS_NOTE[groups])
        if stats.bayesian:
            lines[-1] = lines[-1].replace("not significantly different", "not decided different")
            lines[-1] = lines[-1].replace("significantly different", "decided different")
    return "\n".join(lines)


def _props(fontsize: float, base: float) -> dict[str, dict[str, Any]]:
    small = max(0.9 * fontsize, MIN_FONTSIZE)
    return {
        "row": {"fontsize": fontsize},
        "row_bold": {"fontsize": fontsize, "fontweight": "bold"},
        "head": {"fontsize": fontsize, "color": _style.RANK_INK},
        "tick": {"fontsize": small, "color": _style.RANK_INK},
        "title": {"fontsize": max(base, fontsize), **_style.alpha_font(_style.alpha_symbol())},
        "note": {"fontsize": small, "color": _style.RANK_INK},
    }


def _draw(ax: Axes, layout: RankLayout, props: Mapping[str, Mapping[str, Any]]) -> None:
    box = ax.get_window_extent()
    height = box.height / ax.get_figure(root=True).dpi
    spare = max(height - layout.height, 0.0)
    ax.set_xlim(0.0, layout.width)
    ax.set_ylim(layout.height + spare / 2, -spare / 2)
    ax.set_axis_off()
    best = [r for r in layout.rows if r.in_best_set]
    # the confidence set of the best: a band behind each of its rows, across its own axis
    bands = []
    for r in best:
        lo, hi = layout.axes[r.panel][:2]
        bands.append([(lo, r.band[0]), (hi, r.band[0]), (hi, r.band[1]), (lo, r.band[1])])
    ax.add_collection(
        PolyCollection(
            bands, facecolors=BEST_BAND, edgecolors="none", zorder=0.5, gid="rank-best-band"
        )
    )
    ax.add_collection(
        LineCollection(
            [[(x, top), (x, bottom)] for x, top, bottom in layout.grid],
            colors=GRID_COLOR, linewidths=0.5, zorder=1, gid="rank-grid",
        )
    )  # fmt: skip
    ax.add_collection(
        LineCollection(
            [[(lo, top), (hi, top)] for lo, hi, top, _ in layout.axes],
            colors=_style.INK, linewidths=0.6, zorder=1, gid="rank-axis",
        )
    )  # fmt: skip
    thick = max(0.35 * layout.pitch * 72.0, 1.0)
    for rows, color, gid in ((layout.rows, BAR_COLOR, "rank-interval"), (best, BEST_COLOR, "")):
        if gid == "" and not rows:
            continue
        ax.add_collection(
            LineCollection(
                [[(r.low, r.y), (r.high, r.y)] for r in rows],
                colors=color, linewidths=thick, capstyle="butt", zorder=2,
                gid=gid or "rank-best-interval",
            )
        )  # fmt: skip
    size = max(0.45 * layout.pitch * 72.0, 2.0)
    inside = [r for r in layout.rows if not r.outside]
    ax.plot(
        [r.point for r in inside], [r.y for r in inside], linestyle="none", marker="o",
        markersize=size, color=POINT_COLOR, zorder=3, gid="rank-point",
    )  # fmt: skip
    outside = [r for r in layout.rows if r.outside]
    if outside:
        ax.plot(
            [r.point for r in outside], [r.y for r in outside], linestyle="none", marker="o",
            markersize=size, markerfacecolor="white", markeredgecolor=POINT_COLOR,
            zorder=3, gid="rank-point-outside",
        )  # fmt: skip
    for t in layout.texts:  # add_artist clips each text to the Axes (once: it costs)
        ax.add_artist(
            PgfSafeText(t.x, t.y, t.text, ha=t.ha, va=t.va, gid=t.gid or None, **props[t.role])
        )


def rank_plot_min_width(result: ComparisonResult, columns: int = 1) -> float:
    """The narrowest width (inches) :func:`rank_plot` draws ``result`` on with its defaults
    (letters shown, no scores or P(best), ``columns`` panels)."""
    stats = RankPlotStatistics.of(result)
    rows, head = _rows(result, stats, (True, False, False), set(), {})
    dpi = float(mpl.rcParams["figure.dpi"])
    width = 0.0
    for _ in range(2):  # the default font size grows with the width
        base = _style.default_fontsize(width)
        size = row_fontsize(len(rows), base)
        props = _props(size, base)
        found = min_width(rows, TextMeasure(dpi, props), columns=columns, groups_head=head)
        width = max(width, found)
    return width


def rank_plot(
    result: ComparisonResult,
    *,
    intervals: Any = None,
    ax: Axes | None = None,
    width: float | None = None,
    columns: int = 1,
    show_letters: bool = True,
    show_scores: bool = False,
    show_p_best: bool = False,
    highlight: str | Sequence[str] | None = None,
    labels: Mapping[str, str] | None = None,
    title: bool | str | None = True,
    note: bool | str = True,
    fontsize: float | None = None,
) -> Axes:
    """Draw the rank-interval plot of a comparison: legible from 10 to 1,000 algorithms.

    One row per algorithm, best first, and one quantity on the axis, the rank position
    (1 = best): the point is the position the algorithm holds (its place by average rank,
    or by mean score for Tukey's HSD and intervals ``on="scores"``; ties in name order),
    the bar the positions it may hold (its rank interval). The average rank is printed
    beside, as text. The confidence set of the best is shaded, and the groups column shows
    a compact letter display (:attr:`ComparisonResult.letters`: algorithms that share a
    letter are not significantly different) while it is short (at most 10 characters a
    row and 52 letters), else numbered tiers (a tier runs from its first algorithm down
    to the last before the first one significantly different from it). The key below
    says what each mark is. Optional columns give the mean score ± standard deviation
    over the datasets and the probability of ranking first. Rows are about 0.1 in tall
    beyond 40 algorithms (6-pt text, the smallest drawn); long boards wrap into
    side-by-side panels with ``columns=``, each shading its own rows. This is an
    Axes-level function.

    The intervals of ``cdplot.rank_intervals`` (``method="test"`` and ``"bootstrap"``)
    count the algorithms confidently better than one and those confidently worse on the
    estimate they rank, so the observed position always lies in the bar. Given intervals
    that do not contain it (they rank another estimate) are drawn with an open point,
    and the key says so.

    Parameters
    ----------
    result : ComparisonResult
        The result of :func:`cdplot.compare`.
    intervals : object, optional
        Rank intervals, the object of ``cdplot.rank_intervals(result, ...)``. By default
        the test-based intervals: ``low = 1 + #{significantly better}``, ``high = k -
        #{significantly worse}``; the confidence set of the best is where ``low = 1``.
        Against a control those of ``rank_intervals(method="test")`` from the k - 1
        tests with the control (see its Notes): wide by construction, since the other
        pairs are not tested. All of them are computed in stats
        (:class:`cdplot.stats._intervals.RankPlotStatistics`).
    ax : matplotlib.axes.Axes, optional
        Draw here, laid out for its size. By default a new figure ``width`` inches wide,
        as tall as the rows need.
    width : float, optional
        Width of a new figure in inches (default 3.3, one column; 7 for a page).
    columns : int
        Side-by-side panels the rows wrap into (default 1).
    show_letters, show_scores, show_p_best : bool
        Show the groups column (default: letters, or numbered tiers where letters would
        be long), the mean score ± std, and P(best) (from ``intervals``, else
        ``cdplot.rank_intervals(result, random_state=0)``). Runs of four or more
        consecutive letters are written first–last (``c–h``).
    highlight : str or sequence of str, optional
        Algorithms whose names are bold.
    labels : mapping of str to str, optional
        Display names (algorithm -> text), over those of ``compare(labels=...)``.
    title : bool or str
        True: the test, correction and alpha; a string: that; False/None: no title.
    note : bool or str
        True: the key below the plot (what the point, the bar, the shading and the
        columns are; wrapped to the width); a string: that; False: none.
    fontsize : float, optional
        Font size of the rows up to 40 algorithms (default 8 pt at one column, 9 pt
        wider); beyond, rows are 6 pt.

    Returns
    -------
    matplotlib.axes.Axes
        The Axes drawn on. Artists carry gids: ``rank-name-<name>``,
        ``rank-average-<name>``, ``rank-letters-<name>`` (letters or tier),
        ``rank-interval``, ``rank-point`` (``rank-point-outside``), ``rank-best-band``,
        ``rank-grid``, ``rank-note``, ...

    Raises
    ------
    CdplotInputError
        For a width or ``columns`` that leaves no room, ``width`` with ``ax``, or
        ``intervals`` of another result.

    See Also
    --------
    cd_diagram : Demšar's diagram, the better figure while it is legible.
    choose_figure : which of the two suits a width.

    Examples
    --------
    >>> import cdplot
    >>> res = cdplot.compare(cdplot.datasets.load("benavoli2016"), test="wilcoxon")
    >>> ax = cdplot.rank_plot(res, width=3.3)
    >>> [t.get_text() for t in ax.texts if t.get_gid() == "rank-letters-C1"]
    ['ab']
    """
    stats = RankPlotStatistics.of(result, intervals, p_best=show_p_best)
    chosen = {highlight} if isinstance(highlight, str) else set(highlight or ())
    rows, groups_head = _rows(
        result, stats, (show_letters, show_scores, show_p_best), chosen, labels or {}
    )
    if ax is None:
        fig_width = SINGLE_COLUMN_WIDTH if width is None else check_width(width)
        dpi = float(mpl.rcParams["figure.dpi"])
    else:
        if width is not None:
            raise CdplotInputError(
                "width applies only to a new figure; it cannot be given with ax. Size the "
                "Axes instead, or drop ax= to get a new figure of that width."
            )
        dpi = ax.get_figure(root=True).dpi
        fig_width = ax.get_window_extent().width / dpi
    base = float(fontsize) if fontsize is not None else _style.default_fontsize(fig_width)
    size = row_fontsize(len(rows), base)
    props = _props(size, base)
    shown_title = _title(result) if title is True else (str(title) if title else None)
    shown_note = (
        _note(
            stats,
            rows,
            groups_head if show_letters else None,
            result.n_items if _is_benchmark(result) else None,  # type: ignore[attr-defined]
        )
        if note is True
        else (str(note) if note else None)
    )
    layout = rank_layout(
        rows,
        width=fig_width,
        measure=TextMeasure(dpi, props),
        fontsize=size,
        columns=columns,
        title=shown_title,
        note=shown_note,
        groups_head=groups_head,
    )
    if ax is None:
        ax = new_figure(fig_width, layout.height).add_axes((0.0, 0.0, 1.0, 1.0))
    _draw(ax, layout, props)
    return ax

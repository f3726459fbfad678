"""Geometry of the rank-interval plot, in inches (pure: no matplotlib).

One row per algorithm, best first, in one to a few side-by-side panels. Each panel has
columns: the name (right-aligned), an axis of rank positions with the observed position as
a point and the interval of positions as a bar (one quantity, its own interval), the average
rank as text, the compact letters or the tier, and optionally the mean score ± std and
P(best). y grows downwards from the top of the figure, as in the CD diagram's layout.
Texts are measured by a callable ``measure(text, role) -> (width, height)`` in inches.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from .._errors import CdplotInputError
from ._text_measure import CachedMeasure

__all__ = [
    "MIN_FONTSIZE",
    "RankLayout",
    "RankRow",
    "compact_letter_runs",
    "letter_tokens",
    "min_width",
    "rank_layout",
    "row_fontsize",
    "wrap_lines",
]

Measure = Callable[[str, str], tuple[float, float]]

#: The smallest text drawn (points): at k = 300 on 7 in every text is at least this.
MIN_FONTSIZE = 6.0
#: Up to this many rows the base font size is kept; beyond it rows use MIN_FONTSIZE.
ROOMY_ROWS = 40
#: Row pitch as a multiple of the row font size (1.2 is matplotlib's text box height).
ROW_PITCH = 1.2
#: Gaps (inches): between columns, between panels, at the figure's edges.
COLUMN_GAP, PANEL_GAP, MARGIN = 0.06, 0.2, 0.04
#: The plot area is never narrower than this (inches), nor than its head.
MIN_AXIS_WIDTH = 0.5
#: Names never take more than this share of a panel.
MAX_NAME_SHARE = 0.45
#: The key below the plot wraps at this share of the room between the margins.
NOTE_SHARE = 0.95
#: Runs of at least this many consecutive letters are written first–last.
LETTER_RUN = 4

_ELLIPSIS = "\u2026"
_DASH = "\u2013"


@dataclass(frozen=True)
class RankRow:
    """What one row shows: the texts and the interval of one algorithm."""

    name: str
    average_rank: float
    low: float
    high: float
    in_best_set: bool = False
    #: The observed rank position (1 = best): the point, on the axis of the bar. None: the
    #: average rank (rows laid out without positions, e.g. by a caller of the layout only).
    position: float | None = None
    letters: str = ""
    score: str = ""
    p_best: str = ""
    bold: bool = False
    #: The text of the value column (empty: the average rank, to two decimals), its head
    #: and the head of the names (those of the first row head every panel).
    value: str = ""
    value_head: str = "avg. rank"
    name_head: str = "algorithm"


@dataclass(frozen=True)
class TextBox:
    """A text at (x, y), aligned by ``ha``/``va``, of a role (its font)."""

    x: float
    y: float
    text: str
    role: str
    ha: str = "left"
    va: str = "center"
    gid: str = ""


@dataclass(frozen=True)
class RowGeometry:
    """Where one row's marks go: the point, the bar, the band behind it, in its panel."""

    name: str
    y: float
    point: float
    low: float
    high: float
    band: tuple[float, float]
    in_best_set: bool
    #: The panel (index into ``RankLayout.axes``) the row is drawn in.
    panel: int = 0
    #: The point lies outside its bar (intervals that rank another estimate).
    outside: bool = False


@dataclass(frozen=True)
class RankLayout:
    """Everything the drawing module needs, in inches (y downwards)."""

    width: float
    height: float
    fontsize: float
    pitch: float
    texts: list[TextBox] = field(default_factory=list)
    rows: list[RowGeometry] = field(default_factory=list)
    #: Each panel's rank axis: (x at rank 1, x at rank k, y top, y bottom).
    axes: list[tuple[float, float, float, float]] = field(default_factory=list)
    #: Vertical grid lines: (x, y top, y bottom).
    grid: list[tuple[float, float, float]] = field(default_factory=list)
    truncated: dict[str, str] = field(default_factory=dict)


def row_fontsize(k: int, base: float) -> float:
    """Font size of the rows: ``base`` up to ROOMY_ROWS rows, MIN_FONTSIZE beyond."""
    return max(float(base), MIN_FONTSIZE) if k <= ROOMY_ROWS else MIN_FONTSIZE


def letter_tokens(text: str) -> list[str]:
    """The letters of a display string: past z and Z a letter is dots then a character."""
    if "." not in text:  # one character a letter
        return list(text)
    out: list[str] = []
    for ch in text:
        if out and out[-1].endswith(".") and set(out[-1]) == {"."}:
            out[-1] += ch  # multcompLetters' letters past Z: dots then a character
        else:
            out.append(ch)
    return out


def compact_letter_runs(text: str, alphabet: Sequence[str]) -> str:
    """``text`` with runs of LETTER_RUN or more consecutive letters written first–last.

    Examples
    --------
    >>> compact_letter_runs("abcdefh", list("abcdefgh"))
    'a–fh'
    """
    position = {s: i for i, s in enumerate(alphabet)}
    tokens = letter_tokens(text)
    out, start = [], 0
    while start < len(tokens):
        end = start
        while (
            end + 1 < len(tokens)
            and tokens[end + 1] in position
            and tokens[end] in position
            and position[tokens[end + 1]] == position[tokens[end]] + 1
        ):
            end += 1
        if end - start + 1 >= LETTER_RUN:
            out.append(f"{tokens[start]}{_DASH}{tokens[end]}")
        else:
            out.extend(tokens[start : end + 1])
        start = end + 1
    return "".join(out)


def _tick_step(k: int, axis_width: float, label_width: Callable[[str], float]) -> int:
    """The smallest round step whose tick labels do not touch along the axis."""
    for step in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000):
        per_rank = axis_width / max(k - 1, 1)
        widest = label_width(str(max(k, step)))
        if step * per_rank >= widest + COLUMN_GAP:
            return step
    return max(k, 1)


def _truncate(name: str, room: float, measure: CachedMeasure, role: str) -> str:
    if measure.fits(name, room, role):
        return name
    lo, hi = 0, len(name)
    while lo < hi:  # the longest prefix that fits with the ellipsis
        mid = (lo + hi + 1) // 2
        if measure(name[:mid] + _ELLIPSIS, role)[0] <= room:
            lo = mid
        else:
            hi = mid - 1
    return name[:lo] + _ELLIPSIS


@dataclass(frozen=True)
class _Columns:
    """Widths (inches) of a panel's columns."""

    name: float
    axis: float
    average: float
    letters: float
    score: float
    p_best: float


#: The head of the average-rank column.
AVERAGE_HEAD = "avg. rank"
#: The head of the axis: what the point and the bar are (the short one on a narrow axis;
#: the key below says it in full).
AXIS_HEAD, AXIS_HEAD_SHORT = "rank position", "rank"


def average_text(row: RankRow) -> str:
    """The value printed beside the bar: the row's own text, else its average rank."""
    return row.value or f"{row.average_rank:.2f}"


def _extras(
    rows: Sequence[RankRow], measure: CachedMeasure, groups_head: str
) -> tuple[float, float, float, float]:
    """Widths of the columns right of the axis: average rank, letters, score, P(best)."""
    widest = measure.widest
    average = widest([average_text(r) for r in rows] + [rows[0].value_head], "row")
    # the letters (or tiers) are never cut: the column is as wide as the widest
    letters = widest([r.letters for r in rows] + [groups_head], "row") if rows[0].letters else 0
    score = widest([r.score for r in rows] + ["mean ± sd"], "row") if rows[0].score else 0.0
    p_best = widest([r.p_best for r in rows] + ["P(best)"], "row") if rows[0].p_best else 0.0
    return average, letters, score, p_best


def _min_axis(measure: CachedMeasure) -> float:
    """The narrowest axis: MIN_AXIS_WIDTH, and room for its short head."""
    return max(MIN_AXIS_WIDTH, measure(AXIS_HEAD_SHORT, "head")[0] + COLUMN_GAP)


def min_width(
    rows: Sequence[RankRow], measure: Measure, *, columns: int = 1, groups_head: str = "letters"
) -> float:
    """The narrowest figure (inches) :func:`rank_layout` lays these rows out on.

    Each panel needs its columns right of the axis, the smallest axis and the smallest
    name column (one letter and an ellipsis), which is also at most MAX_NAME_SHARE of it.
    """
    quick = CachedMeasure(measure)
    extras = sum(w + COLUMN_GAP for w in _extras(rows, quick, groups_head) if w)
    floor = quick("M" + _ELLIPSIS, "row")[0]
    axis = _min_axis(quick)
    panel = max(extras + 2 * COLUMN_GAP + axis + floor, floor / MAX_NAME_SHARE)
    return columns * panel + 2 * MARGIN + PANEL_GAP * (columns - 1) + 1e-6


def _columns(
    rows: Sequence[RankRow], panel: float, measure: CachedMeasure, groups_head: str
) -> _Columns:
    widest = measure.widest
    average, letters, score, p_best = _extras(rows, measure, groups_head)
    extras = sum(w + COLUMN_GAP for w in (average, letters, score, p_best) if w)
    names = max(widest([r.name for r in rows], "row_bold"), widest([rows[0].name_head], "head"))
    room = panel - extras - 2 * COLUMN_GAP - _min_axis(measure)
    name = min(names, room, MAX_NAME_SHARE * panel)
    if name < measure("M" + _ELLIPSIS, "row")[0]:
        raise CdplotInputError(
            f"a panel {panel:.2f} in wide has no room for the names and the rank axis; "
            "pass a larger width=, fewer columns=, or show_scores=False / show_p_best=False."
        )
    axis = panel - extras - name - 2 * COLUMN_GAP
    return _Columns(name, axis, average, letters, score, p_best)


@dataclass(frozen=True)
class _Frame:
    """Where a panel goes: its left edge, its index, the rows' top, pitch and header."""

    x0: float
    index: int
    top: float
    pitch: float
    header: float


def _axis_ticks(k: int, lo_x: float, hi_x: float, measure: CachedMeasure) -> list[int]:
    """The rank positions labelled on an axis from ``lo_x`` (position 1) to ``hi_x`` (k)."""
    scale = (hi_x - lo_x) / max(k - 1, 1)
    step = _tick_step(k, hi_x - lo_x, lambda s: measure(s, "tick")[0])
    ticks = [1, *range(step, k + 1, step)] if step > 1 else list(range(1, k + 1))
    if ticks[-1] != k and (k - ticks[-1]) * scale >= measure(str(k), "tick")[0] + COLUMN_GAP:
        ticks.append(k)
    return ticks


def _panel(
    rows: Sequence[RankRow],
    frame: _Frame,
    cols: _Columns,
    k: int,
    groups_head: str,
    measure: CachedMeasure,
    out: RankLayout,
) -> None:
    """Lay out one panel's rows, header and axis into ``out``."""
    top, pitch, header = frame.top, frame.pitch, frame.header
    name_x = frame.x0 + cols.name
    ax0 = name_x + COLUMN_GAP
    ax1 = ax0 + cols.axis
    pad = 0.5 * measure(str(k), "tick")[0]  # ranks 1 and k keep their tick labels inside
    lo_x, hi_x = ax0 + pad, ax1 - pad
    scale = (hi_x - lo_x) / max(k - 1, 1)

    def at(rank: float) -> float:
        return lo_x + (rank - 1.0) * scale

    bottom = top + header + pitch * len(rows)
    out.axes.append((lo_x, hi_x, top + header, bottom))
    for t in _axis_ticks(k, lo_x, hi_x, measure):
        out.texts.append(TextBox(at(t), top + header - 0.02, str(t), "tick", "center", "bottom"))
        out.grid.append((at(t), top + header, bottom))
    y_head = top + 0.5 * measure("Ag", "head")[1]
    out.texts.append(TextBox(name_x, y_head, rows[0].name_head, "head", "right", "center"))
    fits = measure(AXIS_HEAD, "head")[0] + COLUMN_GAP <= cols.axis
    head = AXIS_HEAD if fits else AXIS_HEAD_SHORT
    out.texts.append(
        TextBox((ax0 + ax1) / 2, y_head, head, "head", "center", "center", "rank-axis-head")
    )
    x = ax1 + COLUMN_GAP
    extra_cols = []
    for width, title, attr in (
        (cols.average, rows[0].value_head, "average"),
        (cols.letters, groups_head, "letters"),
        (cols.score, "mean ± sd", "score"),
        (cols.p_best, "P(best)", "p_best"),
    ):
        if width:
            out.texts.append(TextBox(x, y_head, title, "head", "left", "center"))
            extra_cols.append((x, attr))
            x += width + COLUMN_GAP
    # the names of each font that all fit, found in one measurement (else one by one)
    fit = {
        role: measure.all_fit([r.name for r in rows if r.bold == bold], cols.name, role)
        for role, bold in (("row", False), ("row_bold", True))
    }
    for i, row in enumerate(rows):
        y = top + header + pitch * (i + 0.5)
        role = "row_bold" if row.bold else "row"
        shown = row.name if fit[role] else _truncate(row.name, cols.name, measure, role)
        if shown != row.name:
            out.truncated[row.name] = shown
        out.texts.append(
            TextBox(name_x, y, shown, role, "right", "center", f"rank-name-{row.name}")
        )
        for cx, attr in extra_cols:
            gid = f"rank-{attr.replace('_', '-')}-{row.name}"
            text = average_text(row) if attr == "average" else getattr(row, attr)
            out.texts.append(TextBox(cx, y, text, "row", "left", "center", gid))
        point = row.average_rank if row.position is None else row.position
        out.rows.append(
            RowGeometry(
                row.name, y, at(point), at(row.low), at(row.high),
                (y - pitch / 2, y + pitch / 2), row.in_best_set, frame.index,
                not row.low <= point <= row.high,
            )
        )  # fmt: skip


def wrap_lines(text: str, width: float, measure: Measure, role: str) -> str:
    """``text`` with each line broken at spaces so that no line is wider than ``width``.

    A single word wider than ``width`` stays on its own line (never cut).
    """
    out: list[str] = []
    for line in text.split("\n"):
        current = ""
        for word in line.split(" "):
            trial = f"{current} {word}" if current else word
            if current and measure(trial, role)[0] > width:
                out.append(current)
                current = word
            else:
                current = trial
        out.append(current)
    return "\n".join(out)


def rank_layout(
    rows: Sequence[RankRow],
    *,
    width: float,
    measure: Measure,
    fontsize: float,
    columns: int = 1,
    title: str | None = None,
    note: str | None = None,
    groups_head: str = "letters",
) -> RankLayout:
    """Lay out the rank-interval plot of ``rows`` (best first) on ``width`` inches.

    Parameters
    ----------
    rows : sequence of RankRow
        One per algorithm, in display order.
    width : float
        Width of the figure (inches).
    measure : callable
        ``measure(text, role) -> (width, height)`` in inches for the roles ``"row"``,
        ``"row_bold"``, ``"head"``, ``"tick"``, ``"title"`` and ``"note"``.
    fontsize : float
        Font size of the rows (points); the row pitch is ``ROW_PITCH`` times it.
    columns : int
        Number of side-by-side panels the rows wrap into.
    title, note : str, optional
        A title above, a note below (wrapped at spaces to the width).
    groups_head : str
        The head of the column of ``RankRow.letters`` (``"letters"`` or ``"tier"``).

    Returns
    -------
    RankLayout
        Texts, rows, axes and grid lines, in inches.
    """
    k = len(rows)
    if isinstance(columns, bool) or not isinstance(columns, int) or not 1 <= columns <= max(k, 1):
        raise CdplotInputError(
            f"columns must be a whole number from 1 to the number of algorithms ({k}), got "
            f"{columns!r}; e.g. columns=2 to wrap a long board into two panels."
        )
    measure = CachedMeasure(measure)
    pitch = ROW_PITCH * fontsize / 72.0
    per_panel = math.ceil(k / columns)
    panel = (width - 2 * MARGIN - PANEL_GAP * (columns - 1)) / columns
    cols = _columns(rows, panel, measure, groups_head)
    title_h = measure(title, "title")[1] + 0.05 if title else 0.0
    header = measure("Ag", "head")[1] + measure("10", "tick")[1] + 0.06
    if note:  # a margin for text measured at one dpi and saved at another (hinting)
        note = wrap_lines(note, NOTE_SHARE * (width - 2 * MARGIN), measure, "note")
    note_h = measure(note, "note")[1] + 0.05 if note else 0.0
    height = MARGIN + title_h + header + pitch * per_panel + note_h + MARGIN
    out = RankLayout(width=width, height=height, fontsize=fontsize, pitch=pitch)
    if title:
        out.texts.append(TextBox(width / 2, MARGIN, title, "title", "center", "top", "rank-title"))
    top = MARGIN + title_h
    for p in range(columns):
        chunk = rows[p * per_panel : (p + 1) * per_panel]
        if chunk:
            frame = _Frame(MARGIN + p * (panel + PANEL_GAP), len(out.axes), top, pitch, header)
            _panel(chunk, frame, cols, k, groups_head, measure, out)
    if note:
        y = top + header + pitch * per_panel + 0.05
        out.texts.append(TextBox(MARGIN, y, note, "note", "left", "top", "rank-note"))
    return out

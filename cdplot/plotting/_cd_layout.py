"""Geometry of the critical difference diagram (pure: no matplotlib).

Everything is computed in inches, in a coordinate system whose origin is the
top-left corner of the drawing area, with x growing to the right and y growing
*downwards*. The renderer (:mod:`cdplot.plotting._cd`) maps this system 1:1 onto
an Axes with an inverted y-axis, so one data unit is one inch on paper.

Text sizes depend on fonts, which only the renderer knows; the layout asks for
them through a ``measure(text, role) -> (width, height)`` callback (inches).
Tests pass a simple fake measure and check the geometry with numbers.

The figure, top to bottom (Demšar 2006, Figure 1):

- an optional title;
- the critical difference bar with its value, when there is a CD;
- the rank axis: tick labels, ticks, the axis line spanning ranks 1..k; or,
  for Tukey's HSD (a critical difference in score units), a mean-score axis
  under a caption, spanning nice score ticks around the mean scores
  (:func:`score_scale`);
- group bars (rows packed as tightly as possible) or the interval of one CD
  around the control;
- one row per algorithm on each side: a line from its average rank down and
  out to the side, an optional marker, its average rank and its name;
- footnotes, then legend entries.
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from .._errors import CdplotInputError, check_in_list, spell
from ._text_measure import CachedMeasure

__all__ = [
    "Legibility",
    "bar_width",
    "legibility",
    "Axis",
    "Bar",
    "CDLayout",
    "Columns",
    "FittedNames",
    "Frame",
    "Label",
    "LayoutParams",
    "LegendEntry",
    "ScoreScale",
    "TextBlock",
    "axis_band",
    "bars_band",
    "cached_measure",
    "cd_bar_band",
    "check_inputs",
    "check_width",
    "columns",
    "compute_layout",
    "common_prefix",
    "fit_names",
    "shorten_name",
    "side_limits",
    "format_rank",
    "frame",
    "label_rows_band",
    "score_decimals",
    "score_scale",
    "notes_band",
    "nice_ticks",
    "pack_intervals",
    "sides",
    "tick_positions",
    "title_band",
    "wrap_text",
]

#: ``measure(text, role) -> (width, height)`` in inches; ``text`` may hold newlines.
Measure = Callable[[str, str], tuple[float, float]]

#: Text roles the layout asks the renderer to measure.
ROLES = ("name", "name_bold", "rank", "tick", "title", "cd", "note")

ELLIPSIS = "\N{HORIZONTAL ELLIPSIS}"
#: Characters after which a long name or title may be broken onto the next line: spaces,
#: hyphens and underscores (with case changes, below); never inside a word or a number.
_BREAK_AFTER = r"\s\-_"
#: Break points: after a run of break characters (not before a digit: "1e-3", "rbf-2"),
#: and at case changes, between the words of camelCase names ("Random|Forest",
#: "XG|Boost").
_BREAK_RE = re.compile(
    rf"(?<=[{_BREAK_AFTER}])(?![{_BREAK_AFTER}])(?!(?<=-)\d)"
    r"|(?<=[a-z])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])"
)
#: Relations that bind the words beside them into one formula, kept on one line
#: ("alpha = 0.05", "p < 0.001", "P >= 0.95").
_RELATIONS = "=<>\u2264\u2265\u2248\u2260\u00b1"
#: Candidate label steps for the rank axis, tried in this order.
_TICK_STEPS = (1, 5, 10, 25, 50, 100, 250, 500, 1000)
#: Mantissas of the steps of a score axis (``m * 10**e``), as in matplotlib's MaxNLocator.
_NICE_MANTISSAS = (1.0, 2.0, 2.5, 5.0)
#: A score axis has at most this many intervals between labelled ticks.
MAX_SCORE_INTERVALS = 10
#: Caption of a mean-score axis (``{direction}``: "higher" or "lower").
SCORE_CAPTION = "mean score ({direction} is better)"

LongNames = Literal["wrap", "truncate"]
LegendKind = Literal["control", "significant", "interval"]


@dataclass(frozen=True)
class LayoutParams:
    """Distances of the layout, in inches unless a name says otherwise."""

    #: Blank border around the whole drawing.
    pad: float = 0.05
    #: Vertical gap between bands (title, CD bar, axis, rows, notes, legend).
    band_gap: float = 0.07
    #: Small vertical gap, e.g. between a label and the bar it belongs to.
    small_gap: float = 0.03
    #: Horizontal length of each algorithm's line beyond the end of the axis.
    line_stub: float = 0.1
    #: Horizontal gap between a line end and its texts, and between the rank and the name.
    text_gap: float = 0.04
    #: Horizontal room reserved for a marker at a line end (control mode).
    marker_space: float = 0.09
    #: The axis is never shorter than this fraction of the width; names wrap instead.
    min_axis_fraction: float = 0.25
    #: A wrapped name uses at most this many lines; the rest is truncated.
    max_name_lines: int = 3
    #: Vertical gap between the label blocks of consecutive rows.
    row_gap: float = 0.02
    #: Length of the ticks at labelled ranks (minor ticks are half as long).
    tick_length: float = 0.05
    #: Gap between the top of the ticks and the tick labels.
    tick_label_gap: float = 0.015
    #: Minimum horizontal gap between two tick labels.
    tick_label_spacing: float = 0.06
    #: Unlabelled integer ticks are drawn only if at least this far apart.
    min_minor_tick_spacing: float = 0.03
    #: Half-height of the end caps of the CD bar and of the CD interval.
    cap_half_height: float = 0.025
    #: Distance from the axis to the first row of bars.
    bar_offset: float = 0.07
    #: Distance between two rows of bars.
    bar_pitch: float = 0.06
    #: Bars extend this far beyond the ranks of their outermost members.
    bar_overhang: float = 0.025
    #: Two bars share a row only if at least this far apart.
    bar_min_gap: float = 0.25
    #: Distance between the last row of bars and the first row of names.
    rows_offset: float = 0.08
    #: Width reserved for a legend handle, and the gap between handle and text.
    legend_handle_width: float = 0.2
    legend_handle_gap: float = 0.05


@dataclass(frozen=True)
class TextBlock:
    """A text to draw: ``(x, y)`` is its anchor, with alignments as in matplotlib."""

    text: str
    x: float
    y: float
    ha: str
    va: str
    width: float
    height: float
    role: str
    #: Font size relative to the role's: below 1 when a word or formula wider than the
    #: room was shrunk to fit rather than cut (:func:`fit_scale`).
    scale: float = 1.0

    @property
    def bbox(self) -> tuple[float, float, float, float]:
        """``(x0, y0, x1, y1)`` of the text in layout inches (y downwards)."""
        x0 = {"left": self.x, "right": self.x - self.width}.get(self.ha, self.x - self.width / 2)
        y0 = {"top": self.y, "bottom": self.y - self.height}.get(self.va, self.y - self.height / 2)
        return (x0, y0, x0 + self.width, y0 + self.height)


@dataclass(frozen=True)
class Label:
    """One algorithm: its line, its rank text and its name."""

    algorithm: str
    #: Its average rank, or its mean score on a score axis.
    rank: float
    side: Literal["left", "right"]
    #: Row on its side, 0 at the top.
    row: int
    #: x of the average rank (or mean score) on the axis.
    x_rank: float
    #: y of the horizontal segment (the vertical centre of the texts).
    y: float
    #: x where the horizontal segment ends (and the marker sits).
    x_end: float
    rank_text: TextBlock
    name_text: TextBlock
    #: Number of the footnote giving the full name, if the name was truncated.
    footnote: int | None = None


@dataclass(frozen=True)
class Bar:
    """A thick horizontal bar joining algorithms (a group), or the CD interval."""

    members: tuple[str, ...]
    x0: float
    x1: float
    y: float
    row: int


@dataclass(frozen=True)
class LegendEntry:
    """A legend row: a handle of the given kind at ``x_handle`` and a text."""

    kind: str
    x_handle: float
    y: float
    text: TextBlock


@dataclass(frozen=True)
class CDLayout:
    """Positions of everything in a critical difference diagram (inches, y downwards)."""

    width: float
    height: float
    #: x of the axis ends (left, right) and y of the axis line.
    x_axis: tuple[float, float]
    y_axis: float
    #: Whether the best end of the axis (rank 1, best mean score) is on the left.
    best_left: bool
    #: x of every tick, and whether each is labelled (major).
    ticks: tuple[tuple[float, bool], ...]
    tick_labels: tuple[TextBlock, ...]
    tick_length: float
    title: TextBlock | None
    #: The CD bar above the axis, its end caps' half-height and its label.
    cd_bar: Bar | None
    cd_label: TextBlock | None
    cap_half_height: float
    #: The interval of one CD on both sides of the control (Demšar's Figure 1b).
    interval: Bar | None
    bars: tuple[Bar, ...]
    labels: tuple[Label, ...]
    #: Algorithms with a marker at their line end, and which kind.
    markers: Mapping[str, str]
    notes: tuple[TextBlock, ...]
    legend: tuple[LegendEntry, ...]
    #: Horizontal space used left and right of the axis (for aligning diagrams).
    margins: tuple[float, float]
    params: LayoutParams = field(repr=False, default_factory=LayoutParams)
    #: What the axis measures: average ranks, or mean scores (Tukey's HSD).
    units: Literal["rank", "score"] = "rank"
    #: Values at the best and at the worst end of a score axis (None: ranks 1 and k).
    value_ends: tuple[float, float] | None = None
    #: The caption above a score axis' tick labels (None on the rank axis).
    axis_caption: TextBlock | None = None
    #: How legible the diagram is at this size (:func:`legibility`).
    legibility: Legibility | None = None

    @property
    def ends(self) -> tuple[float, float]:
        """Values at the best and the worst end of the axis: ``(1, k)`` for ranks."""
        return (1.0, float(self.k)) if self.value_ends is None else self.value_ends

    def value_to_x(self, value: float) -> float:
        """x of an average rank (or, on a score axis, of a mean score)."""
        x0, x1 = self.x_axis
        best, worst = self.ends
        frac = (value - best) / (worst - best)
        return x0 + frac * (x1 - x0) if self.best_left else x1 - frac * (x1 - x0)

    def rank_to_x(self, rank: float) -> float:
        """x of an average rank on the axis (of a mean score on a score axis)."""
        return self.value_to_x(rank)

    @property
    def x_per_unit(self) -> float:
        """Length on paper of one unit of the axis (one rank, or one score unit)."""
        best, worst = self.ends
        return (self.x_axis[1] - self.x_axis[0]) / abs(worst - best)

    @property
    def k(self) -> int:
        """Number of algorithms."""
        return len(self.labels)

    def texts(self) -> list[TextBlock]:
        """Every text of the layout."""
        heads = (self.title, self.cd_label, self.axis_caption)
        out: list[TextBlock] = [t for t in heads if t is not None]
        out += self.tick_labels
        for label in self.labels:
            out += [label.rank_text, label.name_text]
        out += self.notes
        out += [e.text for e in self.legend]
        return out


# --------------------------------------------------------------------------- helpers


def format_rank(rank: float, fmt: str | Callable[[float], str]) -> str:
    """Format an average rank with a format string (``"{:.2f}"``) or a callable."""
    if callable(fmt):
        return fmt(rank)
    return fmt.format(rank)


def _tokens(text: str) -> list[str]:
    """Split at break points, but never inside ``$...$`` (mathtext) or a formula."""
    parts = [t for t in _BREAK_RE.split(text) if t]
    dollars = text.count("$") - text.count("\\$")
    if dollars and dollars % 2 == 0:  # mathtext (matplotlib needs pairs of $)
        merged: list[str] = []
        math_open = False
        for part in parts:
            if math_open:
                merged[-1] += part
            else:
                merged.append(part)
            math_open ^= (part.count("$") - part.count("\\$")) % 2 == 1
        parts = merged
    tokens: list[str] = []
    for part in parts:  # a relation binds its neighbours: "alpha = 0.05" is one token
        if tokens and (tokens[-1].rstrip()[-1:] in _RELATIONS or part.lstrip()[:1] in _RELATIONS):
            tokens[-1] += part
        else:
            tokens.append(part)
    return tokens


def _fit_prefix(text: str, suffix: str, max_width: float, width: Callable[[str], float]) -> str:
    """Longest prefix of ``text`` such that ``prefix + suffix`` fits (at least one character)."""
    lo, hi = 1, len(text)
    while lo < hi:  # binary search for the last length that fits
        mid = (lo + hi + 1) // 2
        if width(text[:mid].rstrip() + suffix) <= max_width:
            lo = mid
        else:
            hi = mid - 1
    return text[:lo].rstrip()


def _break_lines(
    text: str, max_width: float, width: Callable[[str], float]
) -> list[tuple[str, int]]:
    """Greedy lines at the break points, each with its offset in ``text``.

    A token wider than a line gets a line of its own.
    """
    lines: list[tuple[str, int]] = []
    current, start, offset = "", 0, 0
    for token in _tokens(text):
        if not current.strip() or width((current + token).rstrip()) <= max_width:
            current += token
        else:
            lines.append((current.rstrip(), start))
            current, start = token, offset
        offset += len(token)
    lines.append((current.rstrip(), start))
    return [(line.lstrip(), at + len(line) - len(line.lstrip())) for line, at in lines]


def wrap_text(
    text: str,
    max_width: float,
    width: Callable[[str], float],
    *,
    max_lines: int | None = None,
    truncate_suffix: str = "",
) -> tuple[list[str], bool]:
    """Break ``text`` into lines no wider than ``max_width``.

    Lines break only after spaces, hyphens and underscores and at case changes
    (between the words of camelCase names), never inside a word, a number,
    ``$...$`` (mathtext) or a formula (the words on both sides of ``=``, ``<``,
    ``>``, ``≤``, ``≥``, ``≈``, ``≠``, ``±`` stay on one line: "α = 0.05").
    A word wider than a line is never cut between characters: with
    ``max_lines`` the text is abbreviated instead (the last kept line ends
    with an ellipsis and ``truncate_suffix``, e.g. a footnote number); without
    it the word keeps a line of its own, wider than ``max_width``, and the
    caller shrinks the text (:func:`fit_scale`).

    Parameters
    ----------
    text : str
        The text to wrap (newlines are treated as spaces).
    max_width : float
        Maximum width of a line, in the unit of ``width``.
    width : callable
        ``width(s)`` is the width of the single-line string ``s``.
    max_lines : int, optional
        Maximum number of lines.
    truncate_suffix : str
        Appended after the ellipsis when the text had to be truncated.

    Returns
    -------
    lines : list of str
        The lines, at least one.
    truncated : bool
        Whether some of the text was dropped.
    """
    text = " ".join(text.split("\n"))
    broken = _break_lines(text, max_width, width)
    lines = [line for line, _ in broken]
    too_wide = [i for i, line in enumerate(lines) if width(line) > max_width]
    if max_lines is None or (len(lines) <= max_lines and not too_wide):
        return lines, False
    n_kept = min([max_lines - 1, *too_wide])
    kept = lines[:n_kept]
    rest = text[broken[n_kept][1] :].rstrip()
    tail = ELLIPSIS + truncate_suffix
    kept.append(_fit_prefix(rest, tail, max_width, width) + tail)
    return kept, True


def fit_scale(lines: Sequence[str], max_width: float, width: Callable[[str], float]) -> float:
    """Font scale (at most 1) at which the widest of ``lines`` fits ``max_width``.

    Text width is proportional to the font size, so a title or note whose
    unbreakable word or formula is wider than the room is shrunk, never cut.
    """
    widest = max((width(line) for line in lines), default=0.0)
    return 1.0 if widest <= max_width else max_width / widest


def pack_intervals(intervals: Sequence[tuple[float, float]], min_gap: float) -> list[int]:
    """Assign intervals to rows so that no two on a row are closer than ``min_gap``.

    Greedy interval partitioning in order of left ends, which uses the fewest
    rows possible (the maximum number of mutually overlapping intervals).

    Parameters
    ----------
    intervals : sequence of (float, float)
        ``(x0, x1)`` with ``x0 <= x1``.
    min_gap : float
        Minimum horizontal distance between two intervals on one row.

    Returns
    -------
    list of int
        Row of each interval (0 = first row), in input order.
    """
    order = sorted(range(len(intervals)), key=lambda i: (intervals[i][0], intervals[i][1]))
    row_ends: list[float] = []
    rows = [0] * len(intervals)
    for i in order:
        x0, x1 = intervals[i]
        for r, end in enumerate(row_ends):
            if x0 - end >= min_gap:
                rows[i] = r
                row_ends[r] = x1
                break
        else:
            rows[i] = len(row_ends)
            row_ends.append(x1)
    return rows


def tick_positions(
    k: int, scale: float, label_width: float, spacing: float, min_minor_spacing: float
) -> tuple[list[int], list[int]]:
    """Choose the labelled and the unlabelled integer ranks of the axis.

    Parameters
    ----------
    k : int
        Number of algorithms; the axis spans ranks 1..k.
    scale : float
        Length of one rank unit on the axis.
    label_width : float
        Width of the widest tick label.
    spacing : float
        Minimum gap between two tick labels.
    min_minor_spacing : float
        Unlabelled ticks at every integer are kept only if at least this far apart.

    Returns
    -------
    major : list of int
        Labelled ranks: 1, k and multiples of the smallest step whose labels do
        not collide (1 and k are labelled even on an axis too short for both).
    minor : list of int
        Unlabelled integer ranks (empty when integers are too dense).
    """
    need = label_width + spacing
    step = next((s for s in _TICK_STEPS if s * scale >= need), k)
    candidates = sorted({1, k, *range(step, k, step)})
    major: list[int] = []
    for r in candidates:
        if not major or (r - major[-1]) * scale >= need:
            major.append(r)
        elif r == k:  # the axis ends are always labelled; k replaces its neighbour
            if major[-1] == 1:
                major.append(k)  # only when the whole axis is shorter than two labels
            else:
                major[-1] = k
    dense = scale < min_minor_spacing
    minor = [] if dense else [r for r in range(1, k + 1) if r not in major]
    return major, minor


def _step_decimals(mantissa: float, exponent: int) -> int:
    """Decimals that print every multiple of ``mantissa * 10**exponent`` exactly."""
    return max(0, -exponent + (1 if mantissa == 2.5 else 0))


def _format_fixed(value: float, decimals: int) -> str:
    """``value`` with ``decimals`` decimals, never as ``-0.00``."""
    text = f"{value:.{decimals}f}"
    return text[1:] if text.startswith("-") and float(text) == 0 else text


def nice_ticks(
    lo: float,
    hi: float,
    *,
    length: float,
    width: Callable[[str], float],
    spacing: float,
    max_intervals: int = MAX_SCORE_INTERVALS,
) -> tuple[list[float], int]:
    """Evenly spaced ticks at round numbers covering ``[lo, hi]``, labels that never collide.

    The steps are ``m * 10**e`` with ``m`` in 1, 2, 2.5, 5 (the "nice numbers" of
    matplotlib's ``MaxNLocator``), tried from fine to coarse; the first step whose
    widest label, plus ``spacing``, fits between two ticks wins. The first and last
    tick are the multiples of the step at or just outside ``lo`` and ``hi``, so the
    axis ends on labelled ticks, as the rank axis ends on 1 and k.

    Parameters
    ----------
    lo, hi : float
        The values to cover, ``lo < hi``.
    length : float
        Length of the axis on paper (inches).
    width : callable
        ``width(s)`` is the width of the tick label ``s`` (inches).
    spacing : float
        Minimum gap between two tick labels (inches).
    max_intervals : int
        At most this many intervals between ticks.

    Returns
    -------
    ticks : list of float
        The tick values, increasing; at least two.
    decimals : int
        Decimals that print each tick exactly.
    """
    span = hi - lo
    top = math.floor(math.log10(span))
    candidates = [
        (m, e) for e in range(top - 2, top + 2) for m in _NICE_MANTISSAS
    ]  # from a step of span / 1000 up to one that covers the span in one or two intervals
    best: tuple[list[float], int] | None = None
    for m, e in candidates:
        step = m * 10.0**e
        first = math.floor(lo / step + 1e-9)
        last = math.ceil(hi / step - 1e-9)
        if last - first > max_intervals:
            continue
        ticks = [(first + i) * step for i in range(last - first + 1)]
        decimals = _step_decimals(m, e)
        widest = max(width(_format_fixed(t, decimals)) for t in ticks)
        if widest + spacing <= step * length / (ticks[-1] - ticks[0]):
            return ticks, decimals
        if best is None or len(ticks) < len(best[0]):
            best = (ticks, decimals)
    assert best is not None  # the coarsest steps always have at most two intervals
    return best  # an axis too short for any: the fewest ticks (the rank axis labels 1 and k)


#: Differences of mean scores below this (absolutely, or relative to the scores' size
#: times 1e-9) are float noise: the scores count as equal.
SCORE_RESOLUTION = 1e-12


def _noise(values: Sequence[float]) -> float:
    """Differences up to this are float noise for scores of this size."""
    return max(SCORE_RESOLUTION, 1e-9 * max(abs(v) for v in values))


def score_decimals(values: Sequence[float], critical_difference: float | None) -> int:
    """Decimals of the mean scores and the CD on a score axis: 3 significant digits of the CD.

    Without a positive CD, 3 significant digits of the spread of the values, or of
    their size when they are all equal; 2 when the scores are all (about) 0.
    Differences below float noise (:data:`SCORE_RESOLUTION`) do not count.
    """
    spread = max(values) - min(values)
    noise = _noise(values)
    for ref in (critical_difference, spread, max(abs(v) for v in values)):
        if ref is not None and math.isfinite(ref) and ref > noise:
            return max(0, 2 - math.floor(math.log10(ref)))
    return 2


@dataclass(frozen=True)
class ScoreScale:
    """A mean-score axis: the values at its ends and its ticks."""

    #: Values at the best and at the worst end of the axis.
    ends: tuple[float, float]
    #: Tick values, increasing, and their labels.
    ticks: tuple[float, ...]
    tick_texts: tuple[str, ...]


def score_scale(
    values: Sequence[float],
    critical_difference: float | None,
    *,
    length: float,
    higher_is_better: bool,
    size: Size,
    params: LayoutParams,
) -> ScoreScale:
    """The extent and ticks of a mean-score axis ``length`` inches long.

    The axis covers the mean scores and is at least one critical difference
    long (so the CD bar is drawn at its full length), widened evenly on both
    sides when the scores are closer together than that; all-equal scores with
    no CD (or differences below float noise, :data:`SCORE_RESOLUTION`) get a span
    of one fifth of their order of magnitude around their centre (1 around 0).
    Its ends are nice ticks (:func:`nice_ticks`). The best end is the highest
    score, or the lowest one with ``higher_is_better=False``.
    """
    lo, hi = min(values), max(values)
    need = critical_difference if critical_difference and critical_difference > 0 else 0.0
    if hi - lo < need:
        widen = (need - (hi - lo)) / 2
        lo, hi = lo - widen, hi + widen
    if not hi - lo > _noise([lo, hi]):  # all scores equal and no CD: a nominal span
        centre = (lo + hi) / 2
        if abs(centre) <= SCORE_RESOLUTION:
            half = 0.5
        else:
            half = 10.0 ** (math.floor(math.log10(abs(centre))) - 1)
        lo, hi = min(lo, centre - half), max(hi, centre + half)
    ticks, decimals = nice_ticks(
        lo,
        hi,
        length=length,
        width=lambda t: size(t, "tick")[0],
        spacing=params.tick_label_spacing,
    )
    ends = (ticks[-1], ticks[0]) if higher_is_better else (ticks[0], ticks[-1])
    return ScoreScale(ends, tuple(ticks), tuple(_format_fixed(t, decimals) for t in ticks))


# --------------------------------------------------------------------------- bands
#
# compute_layout is a driver over the steps below (matplotlib's do_constrained_layout is the
# model): first the horizontal frame (columns beside the axis, names fitted to them, the
# axis between), then the bands top down, each taking the y where it starts and returning
# what it placed and the y where the next band starts. Each step takes a ``size(text, role)``
# callback (a caching wrapper around ``measure``), so each is testable with a fake measure.

#: ``size(text, role) -> (width, height)``: the measure, cached.
Size = Callable[[str, str], tuple[float, float]]


def cached_measure(measure: Measure) -> Size:
    """Wrap ``measure`` so each (text, role) is measured once (:class:`CachedMeasure`)."""
    return CachedMeasure(measure)


def check_inputs(names: Sequence[str], ranks: Sequence[float], long_names: str) -> str:
    """Refuse input the layout cannot draw; return ``long_names`` canonical."""
    k = len(names)
    if len(ranks) != k:
        raise CdplotInputError(
            f"got {k} names but {len(ranks)} average ranks; pass one average rank per name."
        )
    if k < 2:
        raise CdplotInputError(
            "a critical difference diagram needs at least two algorithms; got "
            f"{k}. Compare two or more algorithms."
        )
    return check_in_list(("wrap", "truncate"), long_names=long_names)


def check_width(width: float) -> float:
    """``width`` as a float, refused unless it is finite and positive."""
    try:
        value = float(width)
    except (TypeError, ValueError):
        raise CdplotInputError(
            f"{spell('width')} must be a number of inches, got {width!r}; e.g. "
            f"{spell('width', 3.3)} for one column."
        ) from None
    if not math.isfinite(value) or value <= 0:
        raise CdplotInputError(
            f"{spell('width')} must be a finite, positive number of inches, got {width!r}; "
            f"e.g. {spell('width', 3.3)} for one column of a two-column paper, 7 for the full "
            "width."
        )
    return value


@dataclass(frozen=True)
class Columns:
    """Horizontal room beside the axis, on each side (inches)."""

    #: Width of the widest rank text.
    rank_col: float
    #: Room reserved for markers (0 without markers).
    marker_col: float
    #: Everything beside the axis except the name: stub, marker, gaps, rank, pad.
    fixed: float
    #: Widest a name may be when both sides need all their room.
    name_limit: float
    #: Room for the names of both sides together, less the user's cap when set (inches;
    #: None: twice ``name_limit``). A side whose names are narrow leaves the rest to the
    #: other (:func:`side_limits`).
    names_room: float | None = None


def columns(
    rank_texts: Sequence[str],
    *,
    width: float,
    has_markers: bool,
    max_name_width: float | None,
    size: Size,
    params: LayoutParams,
) -> Columns:
    """Room beside the axis: fixed columns, and what is left for the names.

    The axis keeps at least ``params.min_axis_fraction`` of the width; the names
    share the rest, less the fixed columns, or less when ``max_name_width`` says so.
    """
    p = params
    rank_col = max(size(t, "rank")[0] for t in rank_texts)
    marker_col = p.marker_space if has_markers else 0.0
    fixed = p.line_stub + marker_col + p.text_gap + rank_col + p.text_gap + p.pad
    available = (width - p.min_axis_fraction * width) / 2 - fixed
    if available <= 0:
        need = 2 * fixed / (1 - p.min_axis_fraction)
        raise CdplotInputError(
            f"a width of {width:g} in is too small for this diagram: the ranks and lines "
            f"beside the axis alone need more than {need:.2f} in. Pass a larger "
            f"{spell('width')} (e.g. {spell('width', 3.3)}) or a smaller fontsize."
        )
    limit = available if max_name_width is None else min(available, max_name_width)
    return Columns(rank_col, marker_col, fixed, limit, 2 * available)


@dataclass(frozen=True)
class FittedNames:
    """Names as displayed (wrapped or truncated), their sizes and footnote numbers."""

    display: Mapping[str, str]
    #: Sizes as drawn (of a shrunk name: at its smaller font size).
    sizes: Mapping[str, tuple[float, float]]
    footnotes: Mapping[str, int]
    #: Font scale of the names drawn smaller to fit whole (:data:`NAME_SHRINK_FLOOR`).
    scales: Mapping[str, float] = field(default_factory=dict)


def side_limits(
    names: Sequence[str],
    side_of: Mapping[str, str],
    cols: Columns,
    *,
    max_name_width: float | None,
    role_of: Callable[[str], str],
    size: Size,
    shown: Mapping[str, str] | None = None,
) -> dict[str, float]:
    """Widest a name may be on each side, measured against the room really there.

    Both sides share ``cols.names_room``: a side whose widest name (on one line) needs
    less than half leaves the rest to the other side, so a long name beside short ones
    is drawn whole; when both need more than half, each gets half. ``max_name_width``
    caps both.
    """
    room = 2 * cols.name_limit if cols.names_room is None else cols.names_room

    def natural(side: str) -> float:
        widths = [size((shown or {}).get(n, n), role_of(n))[0] for n in names if side_of[n] == side]
        return max(widths, default=0.0)

    need = {"left": natural("left"), "right": natural("right")}
    limits = {}
    for side, other in (("left", "right"), ("right", "left")):
        limit = max(room / 2, room - need[other])
        limits[side] = limit if max_name_width is None else min(limit, max_name_width)
    return limits


#: A name too wide for its room, even wrapped, is drawn whole at a smaller font size
#: down to this fraction of the names' size (the size of the tick labels); only a name
#: wider still is shortened.
NAME_SHRINK_FLOOR = 0.85

#: Characters that end a qualifier of a name ("sklearn.", "imputer=", "org/", "Pipeline("):
#: a shortened name drops whole qualifiers from its start, never part of a word.
_QUALIFIER_ENDS = "./\\:=(,;|"
#: A prefix all names share also ends at a space, hyphen or underscore ("model_", "MR-").
_PREFIX_ENDS = _QUALIFIER_ENDS + " _-"


def common_prefix(names: Collection[str]) -> str:
    """The start all ``names`` share, up to the end of a qualifier or word (``_PREFIX_ENDS``).

    Never a whole name: each name keeps at least one character after it. Empty for
    fewer than two names.
    """
    if len(names) < 2:
        return ""
    shared = os.path.commonprefix(list(names))
    shared = shared[: min(len(n) for n in names) - 1]
    cut = max((i + 1 for i, c in enumerate(shared) if c in _PREFIX_ENDS), default=0)
    return shared[:cut]


#: A qualifier ends between a word character and the start of an identifier: "sklearn.svm",
#: "estimator=sklearn", "Pipeline(imputer"; never in "0.1", "(L2)" after a space, or ", k".
_QUALIFIER_RE = re.compile(rf"(?<=\w)[{re.escape(_QUALIFIER_ENDS)}](?=[^\W\d])")


def _qualified_tails(name: str) -> list[str]:
    """What is left of ``name`` after each of its qualifiers, longest first."""
    return [name[m.end() :] for m in _QUALIFIER_RE.finditer(name)]


def _balanced(text: str) -> str:
    """``text`` without the closing brackets at its end that close nothing in it."""
    for opening, closing in ("()", "[]", "{}"):
        while text.endswith(closing) and text.count(closing) > text.count(opening):
            text = text[:-1]
    return text


def shorten_name(
    name: str, limit: float, width: Callable[[str], float], *, prefix: str = "", suffix: str = ""
) -> str:
    """``name`` shortened to fit ``limit``, keeping the part that tells it from the others.

    First the ``prefix`` all names share is dropped, then whole qualifiers from the start
    ("sklearn.ensemble.RandomForestClassifier" -> "…RandomForestClassifier"), each drop
    marked by a leading ellipsis; only when even the last part is too wide is its end cut
    (today's rule: "constan…"). ``suffix`` (a footnote number) follows the text.
    """
    stem = name[len(prefix) :] if prefix and name.startswith(prefix) else name
    tails = [_balanced(t) for t in [stem, *_qualified_tails(stem)]]
    for tail in tails:
        text = (ELLIPSIS if tail != name else "") + tail + suffix
        if tail.strip() and width(text) <= limit:
            return text
    last = next((t for t in reversed(tails) if t.strip()), stem)
    lead = ELLIPSIS if last != name else ""
    tail = ELLIPSIS + suffix
    return lead + _fit_prefix(last, tail, limit - width(lead), width) + tail


def fit_names(
    names: Sequence[str],
    *,
    limit: float,
    role_of: Callable[[str], str],
    long_names: str,
    size: Size,
    params: LayoutParams,
    shown: Mapping[str, str] | None = None,
    limits: Mapping[str, float] | None = None,
) -> FittedNames:
    """Wrap (or shorten, with a numbered footnote) the names wider than their room.

    ``limit`` is the room of every name, unless ``limits`` gives a name its own
    (:func:`side_limits`). A name that does not fit even wrapped is shortened by
    :func:`shorten_name`: the prefix all names share and leading qualifiers go first.
    ``shown`` gives the text drawn for an algorithm (its label) where it is not its
    name; the results stay keyed by the names.
    """
    footnote_of: dict[str, int] = {}
    display: dict[str, str] = {}
    name_size: dict[str, tuple[float, float]] = {}
    scales: dict[str, float] = {}
    max_lines = 1 if long_names == "truncate" else params.max_name_lines
    texts = [key if shown is None else shown.get(key, key) for key in names]
    prefix = common_prefix(texts)
    for key, name in zip(names, texts, strict=True):
        role = role_of(key)
        room = limit if limits is None else limits.get(key, limit)

        def width_of(s: str, role: str = role) -> float:
            return size(s, role)[0]

        if width_of(name) <= room and "\n" not in name:
            lines, truncated = [name], False
        else:
            lines, truncated = wrap_text(name, room, width_of, max_lines=max_lines)
            whole = " ".join(name.split("\n"))
            if truncated and room / width_of(whole) >= NAME_SHRINK_FLOOR:
                lines, truncated = [whole], False  # whole, a little smaller
                scales[key] = room / width_of(whole)
            elif truncated:  # cut anyway: one line, the distinguishing part kept
                footnote_of[key] = len(footnote_of) + 1
                suffix = f" [{footnote_of[key]}]"
                lines = [shorten_name(name, room, width_of, prefix=prefix, suffix=suffix)]
        display[key] = "\n".join(lines)
        w, h = size(display[key], role)
        name_size[key] = (w * scales.get(key, 1.0), h * scales.get(key, 1.0))
    return FittedNames(display, name_size, footnote_of, scales)


def sides(names: Sequence[str], reverse: bool) -> dict[str, str]:
    """Side of each name: the better half (rounded up) on the best side."""
    n_best = math.ceil(len(names) / 2)
    best_side, worst_side = ("left", "right") if reverse else ("right", "left")
    return {n: (best_side if i < n_best else worst_side) for i, n in enumerate(names)}


@dataclass(frozen=True)
class Frame:
    """The axis' horizontal extent and the value-to-x mapping (ranks or mean scores)."""

    x0: float
    x1: float
    k: int
    reverse: bool
    margins: tuple[float, float]
    #: Values at the best and at the worst end of a score axis (None: ranks 1 and k).
    ends: tuple[float, float] | None = None

    @property
    def span(self) -> float:
        """Length of the axis in its units: k - 1 ranks, or the score range."""
        return self.k - 1.0 if self.ends is None else abs(self.ends[1] - self.ends[0])

    @property
    def bounds(self) -> tuple[float, float]:
        """Smallest and largest value on the axis."""
        if self.ends is None:
            return 1.0, float(self.k)
        return min(self.ends), max(self.ends)

    @property
    def scale(self) -> float:
        """Length of one unit of the axis, a rank or a score unit (inches)."""
        if self.ends is None:
            return (self.x1 - self.x0) / (self.k - 1)
        return (self.x1 - self.x0) / self.span

    def x(self, value: float) -> float:
        """x of an average rank (of a mean score on a score axis)."""
        if self.ends is None:
            frac = value - 1.0
        else:  # distance from the best end, in score units
            best, worst = self.ends
            frac = value - best if worst > best else best - value
        return self.x0 + frac * self.scale if self.reverse else self.x1 - frac * self.scale


def frame(
    names: Sequence[str],
    side_of: Mapping[str, str],
    fitted: FittedNames,
    cols: Columns,
    *,
    width: float,
    reverse: bool,
    min_margins: tuple[float, float],
) -> Frame:
    """Place the axis between the widest name of each side (and ``min_margins``)."""

    def margin(side: str) -> float:
        widest = max((fitted.sizes[n][0] for n in names if side_of[n] == side), default=0.0)
        return cols.fixed + widest

    left = max(margin("left"), min_margins[0])
    right = max(margin("right"), min_margins[1])
    if width - right - left <= 0:
        raise CdplotInputError(
            f"a width of {width:g} in is too small for these margins ({left:.2f} in left and "
            f"{right:.2f} in right of the axis). Pass a larger {spell('width')}, or "
            "long_names='truncate' or a smaller max_name_width."
        )
    return Frame(left, width - right, len(names), reverse, (left, right))


def title_band(
    title: str | None, y: float, *, width: float, size: Size, params: LayoutParams
) -> tuple[TextBlock | None, float]:
    """The title, wrapped to the width and centred; returns it and the next band's y."""
    if not title:
        return None, y
    p = params
    block = _wrapped_block(title, width - 2 * p.pad, "title", size)
    block = replace(block, x=width / 2, y=y, ha="center")
    return block, y + block.height + p.band_gap


def _wrapped_block(text: str, max_width: float, role: str, size: Size) -> TextBlock:
    """``text`` wrapped to ``max_width``, shrunk if a word or formula is still wider.

    Anchored top left at (0, 0); the caller places it.
    """
    lines, _ = wrap_text(text, max_width, lambda s: size(s, role)[0])
    scale = fit_scale(lines, max_width, lambda s: size(s, role)[0])
    joined = "\n".join(lines)
    w, h = size(joined, role)
    return TextBlock(joined, 0.0, 0.0, "left", "top", w * scale, h * scale, role, scale)


def cd_bar_band(
    critical_difference: float | None,
    y: float,
    *,
    fr: Frame,
    width: float,
    cd_format: str,
    size: Size,
    params: LayoutParams,
) -> tuple[Bar | None, TextBlock | None, float]:
    """The CD bar from the axis' left end (cut at the axis' length) and its label above."""
    if critical_difference is None:
        return None, None, y
    p = params
    label = cd_format.format(critical_difference)
    lw, lh = size(label, "cd")
    length = min(critical_difference, fr.span) * fr.scale
    bx0, bx1 = fr.x0, fr.x0 + length
    centre = min(max((bx0 + bx1) / 2, p.pad + lw / 2), width - p.pad - lw / 2)
    block = TextBlock(label, centre, y, "center", "top", lw, lh, "cd")
    y += lh + p.small_gap + p.cap_half_height
    bar = Bar((), bx0, bx1, y, 0)
    return bar, block, y + p.cap_half_height + p.band_gap


@dataclass(frozen=True)
class Axis:
    """The rank axis: its y, its ticks ``(x, labelled)`` and tick labels."""

    y: float
    ticks: tuple[tuple[float, bool], ...]
    labels: tuple[TextBlock, ...]
    #: The caption above the tick labels of a score axis.
    caption: TextBlock | None = None


def axis_band(
    y: float,
    *,
    fr: Frame,
    size: Size,
    params: LayoutParams,
    scale: ScoreScale | None = None,
    caption: str | None = None,
) -> Axis:
    """Tick labels on top (thinned so they never collide), ticks, then the axis line.

    With ``scale``, a score axis: a caption centred above the axis, then the
    labelled score ticks of ``scale`` (no unlabelled ones).
    """
    p = params
    if scale is not None:
        return _score_axis_band(y, fr=fr, size=size, params=p, scale=scale, caption=caption)
    k = fr.k
    tick_w = max(size(str(r), "tick")[0] for r in (1, k))
    tick_h = size("1", "tick")[1]
    major, minor = tick_positions(
        k, fr.scale, tick_w, p.tick_label_spacing, p.min_minor_tick_spacing
    )
    y_labels_bottom = y + tick_h
    y_axis = y_labels_bottom + p.tick_label_gap + p.tick_length
    labels = []
    for r in major:
        w, h = size(str(r), "tick")
        labels.append(TextBlock(str(r), fr.x(r), y_labels_bottom, "center", "bottom", w, h, "tick"))
    ticks = sorted([(fr.x(r), True) for r in major] + [(fr.x(r), False) for r in minor])
    return Axis(y_axis, tuple(ticks), tuple(labels))


def _score_axis_band(
    y: float,
    *,
    fr: Frame,
    size: Size,
    params: LayoutParams,
    scale: ScoreScale,
    caption: str | None,
) -> Axis:
    """The score axis of :func:`axis_band`: caption, tick labels, ticks, axis line."""
    p = params
    caption_block = None
    if caption:
        cw, ch = size(caption, "tick")
        width = fr.x1 + fr.margins[1]  # the axis ends this far from the right edge
        centre = min(max((fr.x0 + fr.x1) / 2, p.pad + cw / 2), width - p.pad - cw / 2)
        caption_block = TextBlock(caption, centre, y, "center", "top", cw, ch, "tick")
        y += ch + p.small_gap
    tick_h = max(size(t, "tick")[1] for t in scale.tick_texts)
    y_labels_bottom = y + tick_h
    y_axis = y_labels_bottom + p.tick_label_gap + p.tick_length
    labels = []
    for value, text in zip(scale.ticks, scale.tick_texts, strict=True):
        w, h = size(text, "tick")
        x = fr.x(value)
        labels.append(TextBlock(text, x, y_labels_bottom, "center", "bottom", w, h, "tick"))
    ticks = sorted((fr.x(v), True) for v in scale.ticks)
    return Axis(y_axis, tuple(ticks), tuple(labels), caption_block)


def bars_band(
    groups: Sequence[Sequence[str]],
    rank_of: Mapping[str, float],
    y_axis: float,
    *,
    fr: Frame,
    interval_around: str | None,
    critical_difference: float | None,
    params: LayoutParams,
) -> tuple[Bar | None, tuple[Bar, ...], float]:
    """The CD interval around a control (first row), then group bars packed into rows.

    Returns the interval, the bars and the y of the first row of names.
    """
    p = params
    y_bar0 = y_axis + p.bar_offset
    interval_bar = None
    n_rows = 0
    if interval_around is not None and critical_difference is not None:
        rc = rank_of[interval_around]
        lo_r = max(fr.bounds[0], rc - critical_difference)
        hi_r = min(fr.bounds[1], rc + critical_difference)
        ix = sorted((fr.x(lo_r), fr.x(hi_r)))
        interval_bar = Bar((interval_around,), ix[0], ix[1], y_bar0, 0)
        n_rows = 1
    drawn = [tuple(g) for g in groups if len(g) >= 2]
    spans = []
    for g in drawn:
        xs = [fr.x(rank_of[n]) for n in g]
        spans.append((min(xs) - p.bar_overhang, max(xs) + p.bar_overhang))
    rows = pack_intervals(spans, p.bar_min_gap)
    bars = tuple(
        Bar(g, s[0], s[1], y_bar0 + (n_rows + r) * p.bar_pitch, n_rows + r)
        for g, s, r in zip(drawn, spans, rows, strict=True)
    )
    n_rows += max(rows, default=-1) + 1
    if n_rows:
        return interval_bar, bars, y_bar0 + (n_rows - 1) * p.bar_pitch + p.rows_offset
    return interval_bar, bars, y_axis + p.rows_offset


#: Group bars thin down to this (points) when there are more than THICK_BAR_ROWS rows of them,
#: so that a clear gap stays between two rows (the bar pitch is fixed: the height does not
#: change).
THICK_BAR_WIDTH, THIN_BAR_WIDTH, THICK_BAR_ROWS = 2.5, 1.5, 4
#: A diagram is legible when neighbouring algorithms' lines are on average at least
#: MIN_LINE_SPACING points apart on the axis (the smallest text cdplot draws, 6 pt: a
#: bar's end can be followed to its line as a row of text can), two rows of group bars at
#: least MIN_BAR_GAP points apart, and the bars stack into at most MAX_BAR_ROWS rows
#: (beyond, a staircase nobody follows).
MIN_LINE_SPACING, MIN_BAR_GAP, MAX_BAR_ROWS = 6.0, 1.5, 15


@dataclass(frozen=True)
class Legibility:
    """Whether a diagram reads at its size, measured on its own geometry (points).

    Attributes
    ----------
    line_spacing : float
        Length of the axis divided by k - 1: the mean distance between the lines of
        two neighbouring algorithms.
    bar_gap : float
        Clear vertical gap between two rows of group bars (inf with fewer than two rows).
    bar_width : float
        Thickness of the group bars.
    bar_rows : int
        Rows of group bars.
    legible : bool
        ``line_spacing >= MIN_LINE_SPACING``, ``bar_gap >= MIN_BAR_GAP`` and
        ``bar_rows <= MAX_BAR_ROWS``.
    reason : str
        What is too small, in words ("" when legible).
    """

    line_spacing: float
    bar_gap: float
    bar_width: float
    bar_rows: int
    legible: bool
    reason: str


def bar_width(n_rows: int) -> float:
    """Thickness (points) of the group bars when they stack into ``n_rows`` rows."""
    return THICK_BAR_WIDTH if n_rows <= THICK_BAR_ROWS else THIN_BAR_WIDTH


def legibility(
    k: int, x_axis: tuple[float, float], bars: Sequence[Bar], params: LayoutParams
) -> Legibility:
    """Measure how legible a diagram is from its geometry (see :class:`Legibility`)."""
    rows = len({b.row for b in bars})
    width = bar_width(rows)
    spacing = float(abs(x_axis[1] - x_axis[0]) * 72.0 / max(k - 1, 1))
    gap = params.bar_pitch * 72.0 - width if rows >= 2 else math.inf
    problems = []
    if spacing < MIN_LINE_SPACING:
        problems.append(
            f"neighbouring algorithms are {spacing:.1f} pt apart on the axis, under "
            f"{MIN_LINE_SPACING:g} pt"
        )
    if gap < MIN_BAR_GAP:
        problems.append(f"group bars are {gap:.1f} pt apart, under {MIN_BAR_GAP:g} pt")
    if rows > MAX_BAR_ROWS:
        problems.append(f"group bars stack into {rows} rows, over {MAX_BAR_ROWS}")
    return Legibility(spacing, gap, width, rows, not problems, "; ".join(problems))


def label_rows_band(
    names: Sequence[str],
    rank_texts: Mapping[str, str],
    rank_of: Mapping[str, float],
    side_of: Mapping[str, str],
    fitted: FittedNames,
    y: float,
    *,
    fr: Frame,
    cols: Columns,
    role_of: Callable[[str], str],
    size: Size,
    params: LayoutParams,
) -> tuple[tuple[Label, ...], float]:
    """One row per algorithm on each side, the outermost on top; returns labels and bottom.

    Labels come back in the order of ``names``.
    """
    p = params
    worst_side = "left" if not fr.reverse else "right"
    labels: list[Label] = []
    bottom = y
    for side in ("left", "right"):
        members = [n for n in names if side_of[n] == side]
        if side == worst_side:
            members = members[::-1]
        sign = -1.0 if side == "left" else 1.0
        edge = fr.x0 if side == "left" else fr.x1
        ha = "right" if side == "left" else "left"
        x_end = edge + sign * p.line_stub
        x_rank_text = x_end + sign * (cols.marker_col + p.text_gap)
        x_name = x_rank_text + sign * (cols.rank_col + p.text_gap)
        y_top = y
        for row, name in enumerate(members):
            nw, nh = fitted.sizes[name]
            rw, rh = size(rank_texts[name], "rank")
            yc = y_top + max(nh, rh) / 2
            rank_block = TextBlock(rank_texts[name], x_rank_text, yc, ha, "center", rw, rh, "rank")
            name_block = TextBlock(
                fitted.display[name],
                x_name,
                yc,
                ha,
                "center",
                nw,
                nh,
                role_of(name),
                fitted.scales.get(name, 1.0),
            )
            labels.append(
                Label(
                    name,
                    rank_of[name],
                    side,  # type: ignore[arg-type]
                    row,
                    fr.x(rank_of[name]),
                    yc,
                    x_end,
                    rank_block,
                    name_block,
                    fitted.footnotes.get(name),
                )
            )
            y_top += max(nh, rh) + p.row_gap
        bottom = max(bottom, y_top - p.row_gap if members else y_top)
    order = {n: i for i, n in enumerate(names)}
    labels.sort(key=lambda lab: order[lab.algorithm])
    return tuple(labels), bottom


def notes_band(
    notes: Sequence[str],
    legend: Sequence[tuple[str, str]],
    footnotes: Mapping[str, int],
    y: float,
    *,
    width: float,
    size: Size,
    params: LayoutParams,
) -> tuple[tuple[TextBlock, ...], tuple[LegendEntry, ...], float]:
    """Footnotes (the given ones, then the full truncated names), then legend entries.

    ``y`` is the bottom of the rows of names; returns the notes, the legend and the
    drawing's height.
    """
    p = params
    y += p.band_gap
    note_texts = list(notes)
    note_texts += [f"[{i}] {n}" for n, i in sorted(footnotes.items(), key=lambda t: t[1])]
    note_blocks = []
    for note in note_texts:
        block = _wrapped_block(note, width - 2 * p.pad, "note", size)
        note_blocks.append(replace(block, x=p.pad, y=y))
        y += block.height + p.row_gap
    entries = []
    x_text = p.pad + p.legend_handle_width + p.legend_handle_gap
    for kind, text in legend:
        block = _wrapped_block(text, width - x_text - p.pad, "note", size)
        h = block.height
        block = replace(block, x=x_text, y=y)
        y_handle = y + size("1", "note")[1] / 2
        entries.append(LegendEntry(kind, p.pad + p.legend_handle_width / 2, y_handle, block))
        y += h + p.row_gap
    y -= p.row_gap if (note_blocks or entries) else p.band_gap
    return tuple(note_blocks), tuple(entries), y + p.pad


# --------------------------------------------------------------------------- layout


@dataclass(frozen=True)
class _Across:
    """The horizontal steps of a CD layout: columns, fitted names, the axis' extent."""

    names: list[str]
    width: float
    size: Size
    rank_of: dict[str, float]
    rank_texts: dict[str, str]
    cols: Columns
    side_of: dict[str, str]
    fitted: FittedNames
    fr: Frame
    scale: Any
    cd_format: str
    axis_caption: str | None
    role_of: Callable[[str], str]


def _across(
    names: Sequence[str],
    ranks: Sequence[float],
    *,
    width: float,
    measure: Measure,
    critical_difference: float | None,
    markers: Mapping[str, str],
    reverse: bool,
    rank_format: str | Callable[[float], str] | None,
    cd_format: str | None,
    bold: Collection[str],
    long_names: LongNames,
    max_name_width: float | None,
    min_margins: tuple[float, float],
    params: LayoutParams,
    score_axis: bool,
    higher_is_better: bool,
    axis_caption: str | None,
    display_names: Mapping[str, str] | None,
) -> _Across:
    """The steps across (see :func:`compute_layout`'s notes), up to the axis' extent."""
    p = params
    names = list(names)
    ranks = [float(r) for r in ranks]
    long_names = check_inputs(names, ranks, long_names)  # type: ignore[assignment]
    width = check_width(width)
    markers = dict(markers or {})
    bold = set(bold)
    size = cached_measure(measure)
    if score_axis and not all(math.isfinite(r) for r in ranks):
        raise CdplotInputError(
            f"every mean score must be a finite number to place it on the axis, got {ranks}; "
            "compare tables of finite scores."
        )
    if score_axis:
        decimals = score_decimals(ranks, critical_difference)
        rank_format = f"{{:.{decimals}f}}" if rank_format is None else rank_format
        cd_format = f"CD = {{:.{decimals}f}}" if cd_format is None else cd_format
        if axis_caption is None:
            axis_caption = SCORE_CAPTION.format(direction="higher" if higher_is_better else "lower")
    rank_format = "{:.2f}" if rank_format is None else rank_format
    cd_format = "CD = {:.2f}" if cd_format is None else cd_format

    def role_of(name: str) -> str:
        return "name_bold" if name in bold else "name"

    rank_of = dict(zip(names, ranks, strict=True))
    rank_texts = {n: format_rank(r, rank_format) for n, r in rank_of.items()}

    # horizontal: columns beside the axis, names fitted to them, the axis between
    cols = columns(
        [rank_texts[n] for n in names],
        width=width,
        has_markers=bool(markers),
        max_name_width=max_name_width,
        size=size,
        params=p,
    )
    side_of = sides(names, reverse)
    room = side_limits(
        names, side_of, cols, max_name_width=max_name_width, role_of=role_of, size=size,
        shown=display_names,
    )  # fmt: skip
    fitted = fit_names(
        names, limit=cols.name_limit, role_of=role_of, long_names=long_names, size=size, params=p,
        shown=display_names, limits={n: room[side_of[n]] for n in names},
    )  # fmt: skip
    fr = frame(names, side_of, fitted, cols, width=width, reverse=reverse, min_margins=min_margins)
    scale = None
    if score_axis:  # the values at the axis' ends need its length
        scale = score_scale(
            ranks, critical_difference, length=fr.x1 - fr.x0,
            higher_is_better=higher_is_better, size=size, params=p,
        )  # fmt: skip
        fr = replace(fr, ends=scale.ends)
    return _Across(
        names, width, size, rank_of, rank_texts, cols, side_of, fitted, fr, scale, cd_format,
        axis_caption, role_of,
    )  # fmt: skip


def axis_legibility(
    names: Sequence[str],
    ranks: Sequence[float],
    *,
    width: float,
    measure: Measure,
    groups: Sequence[Sequence[str]] = (),
    critical_difference: float | None = None,
    control: str | None = None,
    interval: bool = False,
    markers: Mapping[str, str] | None = None,
    reverse: bool = False,
    rank_format: str | Callable[[float], str] | None = None,
    cd_format: str | None = None,
    bold: Collection[str] = (),
    long_names: LongNames = "wrap",
    max_name_width: float | None = None,
    min_margins: tuple[float, float] = (0.0, 0.0),
    params: LayoutParams | None = None,
    score_axis: bool = False,
    higher_is_better: bool = True,
    axis_caption: str | None = None,
    display_names: Mapping[str, str] | None = None,
    **_vertical: Any,
) -> Legibility:
    """The :class:`Legibility` of :func:`compute_layout` with these arguments, computed
    from the steps across and the group bars only (no title, axis labels, label rows or
    notes: the texts above and below the axis do not change it), equal to
    ``compute_layout(...).legibility``. Arguments that only place texts vertically
    (``title``, ``notes``, ``legend``) are accepted and ignored."""
    p = params or LayoutParams()
    a = _across(
        names, ranks, width=width, measure=measure, critical_difference=critical_difference,
        markers=dict(markers or {}), reverse=reverse, rank_format=rank_format,
        cd_format=cd_format, bold=bold, long_names=long_names, max_name_width=max_name_width,
        min_margins=min_margins, params=p, score_axis=score_axis,
        higher_is_better=higher_is_better, axis_caption=axis_caption,
        display_names=display_names,
    )  # fmt: skip
    _, bars, _ = bars_band(
        groups, a.rank_of, 0.0, fr=a.fr, interval_around=control if interval else None,
        critical_difference=critical_difference, params=p,
    )  # fmt: skip
    return legibility(len(a.names), (a.fr.x0, a.fr.x1), bars, p)


def compute_layout(
    names: Sequence[str],
    ranks: Sequence[float],
    *,
    width: float,
    measure: Measure,
    groups: Sequence[Sequence[str]] = (),
    critical_difference: float | None = None,
    control: str | None = None,
    interval: bool = False,
    markers: Mapping[str, str] | None = None,
    reverse: bool = False,
    title: str | None = None,
    notes: Sequence[str] = (),
    legend: Sequence[tuple[str, str]] = (),
    rank_format: str | Callable[[float], str] | None = None,
    cd_format: str | None = None,
    bold: Collection[str] = (),
    long_names: LongNames = "wrap",
    max_name_width: float | None = None,
    min_margins: tuple[float, float] = (0.0, 0.0),
    params: LayoutParams | None = None,
    score_axis: bool = False,
    higher_is_better: bool = True,
    axis_caption: str | None = None,
    display_names: Mapping[str, str] | None = None,
) -> CDLayout:
    """Compute the geometry of a critical difference diagram.

    Parameters
    ----------
    names : sequence of str
        Algorithms in average-rank order, best (lowest rank) first; on a
        score axis in mean-score order, best first.
    ranks : sequence of float
        Their average ranks (non-decreasing), or with ``score_axis`` their
        mean scores.
    width : float
        Width of the drawing, inches.
    measure : callable
        ``measure(text, role)`` returns ``(width, height)`` in inches of
        ``text`` (which may hold newlines) drawn in the font of ``role``
        (one of :data:`ROLES`).
    groups : sequence of sequence of str
        Groups of algorithms joined by a bar; groups of one are not drawn.
    critical_difference : float, optional
        Draw the CD bar above the axis with this length in ranks (in score
        units on a score axis).
    control : str, optional
        The control algorithm; with ``interval=True`` a bar marks one CD on
        both sides of its average rank.
    interval : bool
        Draw the interval around the control (needs both ``control`` and
        ``critical_difference``).
    markers : mapping of str to str, optional
        Algorithms that get a marker at their line end, with the marker kind.
    reverse : bool
        If False (default, Demšar) rank 1 is at the right end of the axis.
    title : str, optional
        A title, wrapped to the width.
    notes : sequence of str
        Footnotes below the names, each wrapped to the width.
    legend : sequence of (str, str)
        Legend entries ``(kind, text)`` below the notes.
    rank_format : str or callable, optional
        Format of the average ranks (mean scores) printed beside the names.
        Default ``"{:.2f}"``; on a score axis, the decimals of
        :func:`score_decimals` (3 significant digits of the CD).
    cd_format : str, optional
        Format of the CD bar's label. Default ``"CD = {:.2f}"``; on a score
        axis with the decimals of :func:`score_decimals`.
    bold : collection of str
        Algorithms whose names are set in bold.
    long_names : {"wrap", "truncate"}
        Wrap names wider than the available space onto up to
        ``params.max_name_lines`` lines, or cut them to one line; cut names get
        a footnote number and a footnote with the full name.
    max_name_width : float, optional
        Maximum width of a name, inches (default: what the width allows).
    min_margins : (float, float)
        Minimum horizontal space left and right of the axis, to align the axes
        of several diagrams.
    params : LayoutParams, optional
        Distances.
    score_axis : bool
        Draw a mean-score axis instead of the rank axis (Tukey's HSD, whose
        critical difference is a difference of mean scores): ``ranks`` are
        mean scores, the axis spans nice score ticks around them
        (:func:`score_scale`) under a caption, best end where rank 1 would be.
    higher_is_better : bool
        On a score axis, whether the highest mean score is the best.
    axis_caption : str, optional
        Caption of a score axis; default "mean score (higher is better)" or
        "(lower is better)".
    display_names : mapping of str to str, optional
        The text drawn for an algorithm (its label) where it is not its name.
        Everything else (``groups``, ``markers``, ``bold``, the labels of the
        layout) refers to the names.

    Returns
    -------
    CDLayout
        The geometry, in inches with y downwards.

    Raises
    ------
    CdplotInputError
        If names and ranks differ in length, fewer than two algorithms are
        given, ``long_names`` is unknown, the width is not a positive number
        or cannot hold the diagram, or a mean score is not finite.

    Notes
    -----
    The steps, each a function of this module: :func:`columns` (room beside
    the axis), :func:`fit_names`, :func:`sides`, :func:`frame` (the axis'
    extent), :func:`score_scale` (on a score axis), then the bands top down:
    :func:`title_band`, :func:`cd_bar_band`, :func:`axis_band`,
    :func:`bars_band`, :func:`label_rows_band`, :func:`notes_band`.

    On a score axis one score unit is ``L / (s_best - s_worst)`` inches
    long, for an axis ``L`` inches long between the scores ``s_best`` and
    ``s_worst`` at its ends, and the CD bar is ``CD`` score units long.
    """
    p = params or LayoutParams()
    markers = dict(markers or {})
    a = _across(
        names, ranks, width=width, measure=measure, critical_difference=critical_difference,
        markers=markers, reverse=reverse, rank_format=rank_format, cd_format=cd_format,
        bold=bold, long_names=long_names, max_name_width=max_name_width,
        min_margins=min_margins, params=p, score_axis=score_axis,
        higher_is_better=higher_is_better, axis_caption=axis_caption,
        display_names=display_names,
    )  # fmt: skip
    names, width, size, fr, fitted, cols = a.names, a.width, a.size, a.fr, a.fitted, a.cols
    rank_of, rank_texts, side_of, role_of = a.rank_of, a.rank_texts, a.side_of, a.role_of
    scale, cd_format, axis_caption = a.scale, a.cd_format, a.axis_caption

    # vertical, top down
    title_block, y = title_band(title, p.pad, width=width, size=size, params=p)
    cd_bar, cd_label, y = cd_bar_band(
        critical_difference, y, fr=fr, width=width, cd_format=cd_format, size=size, params=p
    )
    axis = axis_band(y, fr=fr, size=size, params=p, scale=scale, caption=axis_caption)
    interval_bar, bars, y = bars_band(
        groups,
        rank_of,
        axis.y,
        fr=fr,
        interval_around=control if interval else None,
        critical_difference=critical_difference,
        params=p,
    )
    labels, y = label_rows_band(
        names, rank_texts, rank_of, side_of, fitted, y,
        fr=fr, cols=cols, role_of=role_of, size=size, params=p,
    )  # fmt: skip
    shown = display_names or {}
    footnotes = {shown.get(n, n): i for n, i in fitted.footnotes.items()}
    note_blocks, legend_entries, height = notes_band(
        notes, legend, footnotes, y, width=width, size=size, params=p
    )

    return CDLayout(
        width=width,
        height=height,
        x_axis=(fr.x0, fr.x1),
        y_axis=axis.y,
        best_left=reverse,
        ticks=axis.ticks,
        tick_labels=axis.labels,
        tick_length=p.tick_length,
        title=title_block,
        cd_bar=cd_bar,
        cd_label=cd_label,
        cap_half_height=p.cap_half_height,
        interval=interval_bar,
        bars=bars,
        labels=labels,
        markers=markers,
        notes=note_blocks,
        legend=legend_entries,
        margins=fr.margins,
        params=p,
        units="score" if score_axis else "rank",
        value_ends=fr.ends,
        axis_caption=axis.caption,
        legibility=legibility(len(names), (fr.x0, fr.x1), bars, p),
    )

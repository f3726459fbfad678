"""Critical difference diagrams: turn a :mod:`._cd_layout` into matplotlib artists."""

from __future__ import annotations

import warnings
import weakref
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import matplotlib as mpl
from matplotlib.collections import LineCollection
from matplotlib.figure import Figure
from matplotlib.font_manager import FontProperties
from matplotlib.lines import Line2D
from matplotlib.text import Text

from .._errors import CdplotInputError, CdplotWarning, suggest
from .._labels import CORRECTION_TITLES, TEST_TITLES
from . import _style
from ._cd_layout import (
    CDLayout,
    LayoutParams,
    Legibility,
    LongNames,
    axis_legibility,
    check_width,
    compute_layout,
    fit_scale,
    wrap_text,
)
from ._docstrings import DOCS
from ._figure import CDFigure, new_figure
from ._mathtext import check_mathtext
from ._pgf import PgfSafeText
from ._text_measure import TextMeasure

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.axes import Axes

    from ..stats._results import ComparisonResult

__all__ = ["CDFigure", "cd_diagram", "cd_diagrams"]

#: Default width of a new figure: one column of a two-column paper (inches).
SINGLE_COLUMN_WIDTH = 3.3
#: Default width of :func:`cd_diagrams`: the full width of a two-column paper.
DOUBLE_COLUMN_WIDTH = 7.0

#: Font sizes of the texts relative to the base font size (the names).
RANK_FONT_SCALE = 0.85
TICK_FONT_SCALE = 0.85
NOTE_FONT_SCALE = 0.8
TITLE_FONT_SCALE = 1.0

#: Line widths (points) and marker size.
LINE_WIDTH = 0.8
AXIS_WIDTH = 0.8
BAR_WIDTH = 2.5
CD_BAR_WIDTH = 1.2
MARKER_SIZE = 4.0
#: For large k the algorithms' lines thin down to this fraction of the mean distance
#: between two ranks on the axis, but not below MIN_LINE_WIDTH.
LINE_SPACING_FRACTION = 0.4
MIN_LINE_WIDTH = 0.3
POINTS_PER_INCH = 72.0

#: z-order: algorithm lines below bars below markers.
Z_LINES, Z_BARS, Z_MARKERS = 2.0, 3.0, 4.0

#: How many uncovered pairs the footnote lists by name.
MAX_PAIRS_LISTED = 3


# --------------------------------------------------------------------------- options


@dataclass(frozen=True)
class _Options:
    """Style options of a diagram (everything except the result and the Axes)."""

    reverse: bool = False
    highlight: Any = None
    palette: Any = None
    group_colors: bool | Sequence[Any] = False
    title: bool | str | None = True
    footnote: bool | str = True
    rank_format: str | Callable[[float], str] | None = None
    long_names: LongNames = "wrap"
    max_name_width: float | None = None
    fontsize: float | None = None
    text_kws: Mapping[str, Any] = field(default_factory=dict)
    line_kws: Mapping[str, Any] = field(default_factory=dict)
    bar_kws: Mapping[str, Any] = field(default_factory=dict)
    #: Resolved colours, filled in by cd_diagrams so that panels agree.
    colors: Mapping[str, Any] | None = None
    highlighted: frozenset[str] | None = None


def _role_props(opts: _Options, width: float) -> dict[str, dict[str, Any]]:
    """Text properties of each layout role."""
    base = opts.fontsize if opts.fontsize is not None else _style.default_fontsize(width)
    name = {"fontsize": base, **opts.text_kws}
    return {
        "name": name,
        "name_bold": {**name, "fontweight": "bold"},
        "rank": {"fontsize": base * RANK_FONT_SCALE},
        "tick": {"fontsize": base * TICK_FONT_SCALE},
        "cd": {"fontsize": base * TICK_FONT_SCALE},
        "title": {"fontsize": base * TITLE_FONT_SCALE, **_style.alpha_font(_style.alpha_symbol())},
        "note": {"fontsize": base * NOTE_FONT_SCALE},
    }


#: Roles of the CD diagram whose texts span the figure's width (notes, legend).
WIDEST_ROLES = frozenset({"note"})


# --------------------------------------------------------------------------- content


def _title(result: ComparisonResult) -> str:
    test = TEST_TITLES.get(result.test, result.test)
    test = test[0].upper() + test[1:]
    if result.control is not None:
        test += f" vs {result.label(result.control)}"
    parts = [test]
    if result.correction not in ("nemenyi", result.test):  # Tukey's HSD adjusts itself
        correction = CORRECTION_TITLES.get(result.correction, result.correction)
        parts.append(correction)
    parts.append(ALPHA_TITLE.format(alpha=_style.alpha_symbol(), value=result.alpha))
    return ", ".join(parts)


#: alpha in titles. ``alpha`` is :func:`._style.alpha_symbol`: the bundled font's italic
#: alpha under matplotlib's default font (plain text: no mathtext parser, one embedded
#: face), else the mathtext ``$\alpha$``; both are typeset as ``$\alpha$`` in PGF output.
ALPHA_TITLE = "{alpha} = {value:g}"
#: The footnote on pairs that no bar joins although they are not significantly different.
PAIR_NOTE = "{n} further {pairs_word} not significantly different but not joined by a bar: {pairs}."


def _pair_note(
    pairs: Sequence[tuple[str, str]], footnote: str | bool, shown: Mapping[str, str]
) -> str:
    """The footnote on uncovered pairs, from ``footnote`` (True: PAIR_NOTE) as a template."""
    listed = ", ".join(
        f"{shown.get(a, a)} vs {shown.get(b, b)}" for a, b in pairs[:MAX_PAIRS_LISTED]
    )
    more = len(pairs) - MAX_PAIRS_LISTED
    if more > 0:
        listed += f" and {more} more"
    template = PAIR_NOTE if footnote is True else str(footnote)
    n = len(pairs)
    words = "pair is" if n == 1 else "pairs are"
    try:
        return template.format(n=n, pairs=listed, pairs_word=words)
    except (KeyError, IndexError, ValueError) as err:
        raise CdplotInputError(
            f"footnote={footnote!r} is not a valid template: {err}. Use the fields {{n}} "
            "(number of pairs) and {pairs} (the pairs), e.g. footnote='{n} pairs are not "
            "joined: {pairs}', or footnote=False for none."
        ) from None


@dataclass(frozen=True)
class _NameLookup:
    """Algorithms named in options (``highlight``, ``palette``) by name or by label."""

    algorithms: tuple[str, ...]
    #: label -> the algorithms shown with it (in one result or another)
    by_label: Mapping[str, frozenset[str]]

    @classmethod
    def of(cls, results: Sequence[ComparisonResult]) -> _NameLookup:
        algorithms: list[str] = []
        by_label: dict[str, set[str]] = {}
        for res in results:
            algorithms += [a for a in res.algorithms if a not in algorithms]
            for name, label in res.labels.items():
                by_label.setdefault(label, set()).add(name)
        return cls(tuple(algorithms), {k: frozenset(v) for k, v in by_label.items()})

    def _spelling(self, name: str) -> str | None:
        """A way to name the algorithm ``name`` that means nothing else."""
        if not self.by_label.get(name, frozenset()) - {name}:
            return name
        for label, members in self.by_label.items():
            if members == {name} and label not in self.algorithms:
                return label
        return None

    def algorithm(self, name: Any, option: str) -> Any:
        """The algorithm ``name`` stands for: itself, or the one labelled so.

        Refuses a name that is one algorithm's name and another's label, and (when
        labels were given) a name that is neither, listing names and labels; without
        labels, unknown names are left for :func:`cdplot.plotting._style.resolve_colors`
        to refuse.
        """
        if not isinstance(name, str) or not self.by_label:
            return name
        meanings = sorted(({name} & set(self.algorithms)) | self.by_label.get(name, frozenset()))
        if len(meanings) == 1:
            return meanings[0]
        if not meanings:
            labels = sorted(self.by_label)
            raise CdplotInputError(
                f"{name!r} is not a valid value for {option}: it is neither one of the "
                "compared algorithms ("
                + ", ".join(repr(a) for a in self.algorithms)
                + ") nor one of their labels ("
                + ", ".join(repr(lab) for lab in labels)
                + ")."
                + suggest(name, [*self.algorithms, *labels])
            )
        ways = []
        for meaning in meanings:
            spelling = self._spelling(meaning)
            if spelling is not None:
                ways.append(f"{option}={spelling!r} for the algorithm {meaning!r}")
        fix = (
            "pass " + " or ".join(ways)
            if len(ways) == len(meanings)
            else "give labels that are not also the names of other algorithms"
        )
        raise CdplotInputError(
            f"{option}={name!r} is ambiguous: "
            + " and ".join(
                f"the algorithm {m!r}" if m == name else f"the label of {m!r}" for m in meanings
            )
            + f" are both called {name!r}; {fix}."
        )

    def resolve(self, value: Any, option: str) -> Any:
        """``highlight`` or ``palette`` with every label replaced by its algorithm."""
        if value is None or not self.by_label:
            return value
        if isinstance(value, str):
            if option == "palette":  # a palette name such as "okabe-ito"
                return value
            return self.algorithm(value, option)
        if isinstance(value, Mapping):
            out: dict[Any, Any] = {}
            for key, color in value.items():
                name = self.algorithm(key, option)
                if name in out:
                    raise CdplotInputError(
                        f"{option} names the algorithm {name!r} twice (by its name and by its "
                        "label); give it once."
                    )
                out[name] = color
            return out
        if option == "palette" or not isinstance(value, Iterable):  # colours, or refused later
            return value
        return [self.algorithm(v, option) for v in value]


@dataclass(frozen=True)
class _Content:
    """What to draw, read off the result (no statistics computed here)."""

    names: list[str]
    #: Average ranks, or mean scores on a score axis.
    ranks: list[float]
    groups: tuple[tuple[str, ...], ...]
    critical_difference: float | None
    control: str | None
    interval: bool
    markers: dict[str, str]
    legend: list[tuple[str, str]]
    notes: list[str]
    title: str | None
    colors: dict[str, Any]
    highlighted: set[str]
    #: Draw a mean-score axis (Tukey's HSD) instead of the rank axis.
    score_axis: bool = False
    higher_is_better: bool = True
    #: The labels drawn instead of the names (``compare(labels=...)``).
    shown: dict[str, str] = field(default_factory=dict)
    #: Caption of the axis when it is not Friedman's average rank.
    axis_caption: str | None = None


def _shown_names(result: ComparisonResult) -> list[str]:
    """The names as the diagram draws them (their labels)."""
    return [result.label(a) for a in result.algorithms]


def _on_score_axis(result: ComparisonResult) -> bool:
    """Whether the result is drawn on a mean-score axis: its CD is in score units (Tukey)."""
    return result._pairwise.critical_difference_units == "score" and (
        result._parametric.mean_scores is not None
    )


def _own_rank_caption(result: ComparisonResult) -> str | None:
    """The axis caption of a test's own ranking (aligned ranks, Quade's), else None."""
    from ..stats._own_ranks import OWN_RANK_LABELS

    name = result._ranking.rank_name
    return f"{name} (lower is better)" if name in OWN_RANK_LABELS.values() else None


def _content(result: ComparisonResult, opts: _Options, panel: str | None = None) -> _Content:
    score_axis = _on_score_axis(result)
    # Tukey's HSD is a difference of mean scores, its groups run in mean-score order
    # (read from the result's parts: drawing a diagram never needs pandas)
    if score_axis:
        order, values = result._parametric.mean_order, result._parametric.mean_scores
    else:
        order, values = result._ranking.rank_order, result._ranking.average_ranks
    # aligned ranks (1..N k) and Quade's weighted ranks go on a captioned axis
    caption = None if score_axis else _own_rank_caption(result)
    names = [str(n) for n in order]
    ranks = [float(r) for r in values]
    shown = {a: result.label(a) for a in result.algorithms if result.label(a) != a}
    if opts.colors is not None:
        colors, highlighted = dict(opts.colors), set(opts.highlighted or ())
    else:
        lookup = _NameLookup.of([result])
        colors, highlighted = _style.resolve_colors(
            result.algorithms,
            palette=lookup.resolve(opts.palette, "palette"),
            highlight=lookup.resolve(opts.highlight, "highlight"),
        )
    control = result.control
    shown_control = None if control is None else result.label(control)
    cd = result._pairwise.critical_difference  # None for a Bayesian comparison
    markers: dict[str, str] = {}
    legend: list[tuple[str, str]] = []
    notes: list[str] = []
    if cd is not None and result._pairwise.critical_difference_units == "score" and not score_axis:
        # a CD in score units has no length on the rank axis (a result without mean scores)
        notes.append(f"The critical difference, {float(cd):.4g}, is in score units: not drawn.")
        cd = None
    n_missing = int(getattr(result, "n_missing", 0) or 0)
    if n_missing:
        total = len(result.algorithms) * len(result.datasets)
        notes.append(
            f"{n_missing} of {total} results missing; ranks within each dataset over the "
            "algorithms present (Skillings-Mack scaling)."
        )
    if control is not None:
        others = [a for a in result.algorithms if a != control]
        differs = dict(zip(others, result._pairwise.significant.tolist(), strict=True))
        significant = [n for n in names if n != control and bool(differs[n])]
        markers[control] = "control"
        markers.update(dict.fromkeys(significant, "significant"))
        legend.append(("control", f"control: {shown_control}"))
        if cd is not None:
            legend.append(("interval", f"one CD on both sides of {shown_control}"))
        if significant:
            legend.append(("significant", f"significantly different from {shown_control}"))
        else:
            notes.append(f"No algorithm is significantly different from {shown_control}.")
    if result.correction in ("fdr-bh", "fdr-by") and control is None:  # FDR groups
        procedure = CORRECTION_TITLES[result.correction].replace(" (FDR)", "")
        notes.append(
            f"{procedure} controls the false discovery rate, not the family-wise error: "
            + ("these groups come from it." if result.groups else "no groups are drawn.")
        )
    if result.uncovered_pairs and opts.footnote is not False and opts.footnote is not None:
        notes.append(_pair_note(result.uncovered_pairs, opts.footnote, shown))

    if opts.title is True:
        title = _title(result)
        if panel is not None:
            title = f"{panel}: {title}"
    elif opts.title:
        title = str(opts.title)
    else:
        title = panel
    return _Content(
        names=names,
        ranks=ranks,
        groups=tuple(tuple(g) for g in result.groups),
        critical_difference=None if cd is None else float(cd),
        control=control,
        interval=control is not None and cd is not None,
        markers=markers,
        legend=legend,
        notes=notes,
        title=title,
        colors=colors,
        highlighted=highlighted,
        score_axis=score_axis or caption is not None,
        higher_is_better=bool(result.higher_is_better) if caption is None else False,
        shown=shown,
        axis_caption=caption,
    )


def _layout_arguments(
    content: _Content, opts: _Options, width: float, min_margins: tuple[float, float]
) -> dict[str, Any]:
    """The arguments of :func:`compute_layout` but the measure."""
    return {
        "names": content.names,
        "ranks": content.ranks,
        "width": width,
        "groups": content.groups,
        "critical_difference": content.critical_difference,
        "control": content.control,
        "interval": content.interval,
        "markers": content.markers,
        "reverse": opts.reverse,
        "title": content.title,
        "notes": content.notes,
        "legend": content.legend,
        "rank_format": opts.rank_format,
        "bold": content.highlighted | ({content.control} if content.control else set()),
        "long_names": opts.long_names,
        "max_name_width": opts.max_name_width,
        "min_margins": min_margins,
        "params": LayoutParams(),
        "score_axis": content.score_axis,
        "higher_is_better": content.higher_is_better,
        "axis_caption": content.axis_caption,
        "display_names": content.shown,
    }


def _layout(
    content: _Content,
    opts: _Options,
    width: float,
    dpi: float,
    min_margins: tuple[float, float] = (0.0, 0.0),
) -> CDLayout:
    measure = TextMeasure(dpi, _role_props(opts, width), WIDEST_ROLES)
    return compute_layout(measure=measure, **_layout_arguments(content, opts, width, min_margins))


def _legibility(content: _Content, opts: _Options, width: float, dpi: float) -> Legibility:
    """``_layout(content, opts, width, dpi).legibility``, from the steps across the axis and
    the group bars only (the notes, whose measure is widened, are not laid out)."""
    measure = TextMeasure(dpi, _role_props(opts, width))
    return axis_legibility(measure=measure, **_layout_arguments(content, opts, width, (0.0, 0.0)))


#: The rcParams prefixes text measurement reads (fonts, text rendering, mathtext).
_MEASURED_RC = ("font.", "text.", "mathtext.")
#: The last layout :func:`_result_layout` computed: (result, options, width, dpi, the
#: measured rcParams) -> layout. The command line lays a diagram out to judge whether it
#: reads (:func:`cdplot.choose_figure`), then draws it: the second layout is this one.
_last_layout: tuple[Any, ...] | None = None


def _measured_rc() -> tuple[tuple[str, str], ...]:
    """The rcParams a layout's text sizes depend on, as a comparable tuple."""
    return tuple(
        (key, repr(value)) for key, value in mpl.rcParams.items() if key.startswith(_MEASURED_RC)
    )


def _result_layout(
    result: ComparisonResult, content: _Content, opts: _Options, width: float, dpi: float
) -> CDLayout:
    """``_layout(content, opts, width, dpi)`` of ``result``'s diagram, computed once for the
    same result (the same object: results are immutable), options, width, dpi and fonts."""
    global _last_layout
    key = (opts, float(width), float(dpi), _measured_rc())
    last = _last_layout
    if last is not None and last[0]() is result and last[1] == key:
        return last[2]
    layout = _layout(content, opts, width, dpi)
    try:
        _last_layout = (weakref.ref(result), key, layout)
    except TypeError:  # not weakly referable: nothing kept
        _last_layout = None
    return layout


# --------------------------------------------------------------------------- drawing

_MARKER_STYLE = {
    "control": {"marker": "D", "color": _style.INK, "markerfacecolor": "white"},
    "significant": {"marker": "o", "color": _style.SIGNIFICANT_COLOR},
}


def _fit_axes(ax: Axes, layout: CDLayout) -> None:
    """Map layout inches 1:1 onto the Axes, content centred vertically if there is room."""
    box = ax.get_window_extent()
    dpi = ax.get_figure(root=True).dpi
    height = box.height / dpi
    spare = max(height - layout.height, 0.0)
    ax.set_xlim(0.0, layout.width)
    ax.set_ylim(layout.height + spare / 2, -spare / 2)
    ax.set_axis_off()


def _text(ax: Axes, block: Any, gid: str, props: Mapping[str, Any], **extra: Any) -> Text:
    """A text of the layout, escaped for LaTeX when a PGF backend draws it.

    A block the layout shrank to fit (``block.scale < 1``) gets the smaller font size.
    """
    scale = getattr(block, "scale", 1.0)
    if scale != 1.0:
        props = {**props, "fontsize": _fontsize(props) * scale}
    text = PgfSafeText(
        block.x, block.y, block.text, ha=block.ha, va=block.va, gid=gid, **{**props, **extra}
    )
    text.set_clip_path(ax.patch)
    ax.add_artist(text)
    return text


def _fontsize(props: Mapping[str, Any]) -> float:
    """The font size (points) these text properties give."""
    return float(FontProperties(size=props.get("fontsize", props.get("size"))).get_size_in_points())


def _draw_axis(ax: Axes, layout: CDLayout, props: Mapping[str, Any]) -> None:
    """The axis: its line, ticks (minor ones half as long), tick labels and caption."""
    x0, x1 = layout.x_axis
    y_axis = layout.y_axis
    ax.add_line(
        Line2D(
            [x0, x1],
            [y_axis, y_axis],
            color=_style.INK,
            lw=AXIS_WIDTH,
            gid="cd-axis",
            solid_capstyle="projecting",
        )
    )
    segments = [
        [(x, y_axis), (x, y_axis - (layout.tick_length if major else layout.tick_length / 2))]
        for x, major in layout.ticks
    ]
    ax.add_collection(
        LineCollection(segments, colors=_style.INK, linewidths=AXIS_WIDTH, gid="cd-ticks"),
        autolim=False,
    )
    for block in layout.tick_labels:
        _text(ax, block, "cd-tick-label", props["tick"])
    if layout.axis_caption is not None:
        _text(ax, layout.axis_caption, "cd-axis-caption", props["tick"])


def _draw_title(ax: Axes, layout: CDLayout, props: Mapping[str, Any]) -> None:
    if layout.title is not None:
        _text(ax, layout.title, "cd-title", props["title"])


def _draw_cd_bar(ax: Axes, layout: CDLayout, props: Mapping[str, Any]) -> None:
    """The critical difference above the axis: bar, end caps and label."""
    if layout.cd_bar is None or layout.cd_label is None:
        return
    cap = layout.cap_half_height
    bar = layout.cd_bar
    ax.add_line(
        Line2D([bar.x0, bar.x1], [bar.y, bar.y], color=_style.INK, lw=CD_BAR_WIDTH, gid="cd-cd-bar")
    )
    caps = [[(x, bar.y - cap), (x, bar.y + cap)] for x in (bar.x0, bar.x1)]
    ax.add_collection(
        LineCollection(caps, colors=_style.INK, linewidths=CD_BAR_WIDTH, gid="cd-cd-caps"),
        autolim=False,
    )
    _text(ax, layout.cd_label, "cd-cd-label", props["cd"])


def _line_kws(layout: CDLayout, opts: _Options) -> dict[str, Any]:
    """Style of the algorithms' lines: thinner for large k, never below MIN_LINE_WIDTH."""
    x0, x1 = layout.x_axis
    spacing = (x1 - x0) / (layout.k - 1) * POINTS_PER_INCH
    line_width = min(LINE_WIDTH, max(MIN_LINE_WIDTH, LINE_SPACING_FRACTION * spacing))
    return {"color": _style.INK, "lw": line_width, **opts.line_kws}


def _draw_labels(
    ax: Axes,
    layout: CDLayout,
    colors: Mapping[str, Any],
    opts: _Options,
    props: Mapping[str, Any],
) -> None:
    """Each algorithm: its elbow line, rank text, name and marker."""
    line_kws = _line_kws(layout, opts)
    for label in layout.labels:
        name = label.algorithm
        color = colors.get(name)
        kws = {**line_kws, "color": color} if color is not None else line_kws
        ax.add_line(
            Line2D(
                [label.x_rank, label.x_rank, label.x_end],
                [layout.y_axis, label.y, label.y],
                zorder=Z_LINES,
                gid=f"cd-line-{name}",
                **kws,
            )
        )
        rank_color = color if color is not None else _style.RANK_INK
        _text(ax, label.rank_text, f"cd-rank-{name}", props["rank"], color=rank_color)
        name_props = props[label.name_text.role]
        extra = {"color": color} if color is not None else {}
        _text(ax, label.name_text, f"cd-name-{name}", name_props, **extra)
        kind = layout.markers.get(name)
        if kind is not None:
            ax.add_line(
                Line2D(
                    [label.x_end],
                    [label.y],
                    ms=MARKER_SIZE,
                    linestyle="none",
                    zorder=Z_MARKERS,
                    gid=f"cd-marker-{name}",
                    **_MARKER_STYLE[kind],
                )
            )


def _bar_kws(opts: _Options) -> dict[str, Any]:
    return {"color": _style.INK, "lw": BAR_WIDTH, "solid_capstyle": "butt", **opts.bar_kws}


def _draw_bars(ax: Axes, layout: CDLayout, colors: Mapping[str, Any], opts: _Options) -> None:
    """Group bars (coloured with ``group_colors``) and the CD interval around the control."""
    bar_kws = _bar_kws(opts)
    if layout.legibility is not None and not {"lw", "linewidth"} & set(opts.bar_kws):
        bar_kws["lw"] = layout.legibility.bar_width  # thinner when many rows stack
    group_cycle = _style.group_bar_colors(opts.group_colors, colors.values(), len(layout.bars))
    for i, bar in enumerate(layout.bars):
        kws = dict(bar_kws)
        if group_cycle:
            kws["color"] = group_cycle[i % len(group_cycle)]
        ax.add_line(
            Line2D(
                [bar.x0, bar.x1],
                [bar.y, bar.y],
                zorder=Z_BARS,
                gid="cd-group-bar",
                label="_" + " | ".join(bar.members),
                **kws,
            )
        )
    if layout.interval is not None:
        bar = layout.interval
        ax.add_line(
            Line2D([bar.x0, bar.x1], [bar.y, bar.y], zorder=Z_BARS, gid="cd-interval", **bar_kws)
        )


def _draw_notes(ax: Axes, layout: CDLayout, opts: _Options, props: Mapping[str, Any]) -> None:
    """Footnotes, then legend entries (a handle like the artist it explains, and a text)."""
    for block in layout.notes:
        _text(ax, block, "cd-note", props["note"])
    handle_half = layout.params.legend_handle_width / 2
    for entry in layout.legend:
        if entry.kind == "interval":
            handle = Line2D(
                [entry.x_handle - handle_half, entry.x_handle + handle_half],
                [entry.y, entry.y],
                **_bar_kws(opts),
            )
        else:
            handle = Line2D(
                [entry.x_handle],
                [entry.y],
                ms=MARKER_SIZE,
                linestyle="none",
                **_MARKER_STYLE[entry.kind],
            )
        handle.set_gid(f"cd-legend-{entry.kind}")
        ax.add_line(handle)
        _text(ax, entry.text, f"cd-legend-text-{entry.kind}", props["note"])


def _draw(ax: Axes, layout: CDLayout, content: _Content, opts: _Options, width: float) -> None:
    """Turn the layout into artists, one family at a time (the order sets the z-order ties)."""
    props = _role_props(opts, width)
    _fit_axes(ax, layout)
    _draw_axis(ax, layout, props)
    _draw_title(ax, layout, props)
    _draw_cd_bar(ax, layout, props)
    _draw_labels(ax, layout, content.colors, opts, props)
    _draw_bars(ax, layout, content.colors, opts)
    _draw_notes(ax, layout, opts, props)


# --------------------------------------------------------------------------- public API


def _options(**kwargs: Any) -> _Options:
    for key in ("text_kws", "line_kws", "bar_kws"):
        kwargs[key] = dict(kwargs[key] or {})
    return _Options(**kwargs)


def cd_diagram(
    result: ComparisonResult,
    *,
    ax: Axes | None = None,
    width: float | None = None,
    reverse: bool = False,
    highlight: str | Sequence[str] | Mapping[str, Any] | None = None,
    palette: str | Sequence[Any] | Mapping[str, Any] | None = None,
    group_colors: bool | Sequence[Any] = False,
    title: bool | str | None = True,
    footnote: bool | str = True,
    rank_format: str | Callable[[float], str] | None = None,
    long_names: LongNames = "wrap",
    max_name_width: float | None = None,
    fontsize: float | None = None,
    text_kws: Mapping[str, Any] | None = None,
    line_kws: Mapping[str, Any] | None = None,
    bar_kws: Mapping[str, Any] | None = None,
) -> Axes:
    """Draw the critical difference diagram of a comparison.

    Demšar's (2006) diagram: the rank axis on top, each algorithm a line from
    its average rank down and out to its name, with the average rank beside
    the name. What else is drawn depends on the result:

    - all pairs: thick bars join the groups of algorithms that are not
      significantly different (``result.groups``); with the Nemenyi test the
      critical difference is drawn above the axis (Demšar's Figure 1a);
    - against a control: a marker shows the control and each algorithm that
      differs significantly from it; with the Bonferroni-Dunn critical
      difference, a bar marks one CD on both sides of the control (Figure 1b);
    - Tukey's HSD (``test="tukey"``), whose critical difference is a
      difference of mean scores: the axis is a mean-score axis instead
      (``result.mean_scores``, captioned "mean score (higher is better)"),
      each line starts at the algorithm's mean score with the mean score
      beside its name, the CD bar is the critical difference in score units
      and the groups run in mean-score order.

    Algorithms are shown by their labels (``compare(labels=...)``). The
    diagram only draws ``result``; it never recomputes a statistic. This is
    an Axes-level function.

    Parameters
    ----------
    result : ComparisonResult
        The result of :func:`cdplot.compare`.
    ax : matplotlib.axes.Axes, optional
        Draw here, without resizing anything; the content is laid out for the
        Axes' size at the time of the call. By default a new figure ``width``
        inches wide is made, as tall as the content needs.
    width : float, optional
        Width of the new figure in inches (default 3.3, one column of a
        two-column paper; 7 is the full page width). Only when ``ax`` is None.
    %(reverse)s
    %(highlight)s
    %(palette)s
    %(group_colors)s
    title : bool or str
        True (default): a title naming the test, the correction and alpha.
        A string: that title. False or None: no title.
    %(footnote)s
    %(rank_format)s
    %(long_names)s
    %(max_name_width)s
    %(fontsize)s
    %(kws)s

    Returns
    -------
    matplotlib.axes.Axes
        The Axes drawn on. Its artists carry gids: ``cd-name-<algorithm>``,
        ``cd-rank-<algorithm>``, ``cd-line-<algorithm>``, ``cd-group-bar``,
        ``cd-cd-bar``, ``cd-interval``, ``cd-marker-<algorithm>``, ...

    Raises
    ------
    CdplotInputError
        For an unknown algorithm in ``highlight`` or ``palette``, an invalid
        option value, ``width`` given together with ``ax``, or a width too
        small for the diagram.

    See Also
    --------
    cd_diagrams : several diagrams in one figure, e.g. one per metric.
    cdplot.compare : computes the result drawn here.

    Notes
    -----
    Layout, in inches, adapts to the content: the figure grows with k, tick
    labels thin out when they would collide, and names wider than the space
    beside the axis are wrapped at spaces, hyphens, underscores and case
    changes, never inside a word. The two sides share that space: a side of
    short names leaves the rest to the other. A name still too wide is set
    up to 15 %% smaller; only a name wider still is shortened, with a numbered
    footnote giving the full name, and then the start all names share and its
    leading qualifiers go first ("sklearn.ensemble.RandomForestClassifier"
    becomes "…RandomForestClassifier [1]"). A title or note is wrapped
    likewise, never inside a formula such as "α = 0.05", and set smaller if
    one word is still too wide (e.g. in a small Axes of your own); notes are
    measured at the widest of the usual resolutions (72 to 600 dpi, and the
    unhinted widths of PDF), so they stay inside the figure whatever it is
    saved at. No two texts overlap for k up to at least 100 at widths
    of 3.3 and 7 inches.

    A new figure is a :class:`CDFigure`, whose ``savefig`` embeds TrueType
    fonts in PDF and EPS files (``pdf.fonttype = 42``). For a figure of your
    own, set ``matplotlib.rcParams["pdf.fonttype"] = 42`` yourself. To keep
    text as text in SVG files (editable in Inkscape or Illustrator), set
    ``matplotlib.rcParams["svg.fonttype"] = "none"`` before saving. When
    :mod:`matplotlib.pyplot` has been imported, or in IPython and Jupyter, the
    new figure is managed by pyplot (``plt.show()`` and notebooks display it);
    otherwise (e.g. on the command line) it is a bare figure, and pyplot is not
    imported.

    On a mean-score axis, one score unit is :math:`L / (s_{max} - s_{min})`
    inches long for an axis :math:`L` inches long between the scores
    :math:`s_{min}` and :math:`s_{max}` at its ends, round numbers chosen so
    the axis covers every mean score and is at least one CD long; the best
    end (highest mean score, lowest for ``higher_is_better=False``) is where
    rank 1 is on the rank axis.

    Groups come from ``result.groups`` only, so no bar ever joins two
    algorithms that differ significantly. Non-significant pairs that no group
    covers (``result.uncovered_pairs``) are listed in a footnote instead
    ("2 further pairs are not significantly different but not joined by a
    bar: A vs B, C vs D."); ``footnote`` rewords or removes it.

    Under matplotlib's default font the title's alpha is the italic alpha
    U+1D6FC of the bundled "cdplot Sans" (the glyph mathtext would draw, without
    building the mathtext parser); with other fonts it is the mathtext
    ``$\\alpha$``. Either is written ``$\\alpha$`` in PGF output, so the figure
    saved as PGF typesets in any LaTeX engine; a new figure's
    ``savefig`` escapes algorithm names for LaTeX when saving PGF (see
    :class:`CDFigure`).

    References
    ----------
    .. [1] J. Demšar, "Statistical comparisons of classifiers over multiple
       data sets", Journal of Machine Learning Research 7, 1-30, 2006.

    Examples
    --------
    >>> import warnings
    >>> import cdplot
    >>> with warnings.catch_warnings():  # the Nemenyi test's pool dependence
    ...     warnings.simplefilter("ignore", cdplot.PoolDependenceWarning)
    ...     res = cdplot.compare(cdplot.datasets.load("demsar2006"), test="nemenyi", alpha=0.10)
    >>> ax = cdplot.cd_diagram(res)
    >>> ax.figure.savefig("cd.pdf")  # doctest: +SKIP

    Tukey's HSD on a mean-score axis, with display names:

    >>> tukey = cdplot.compare(
    ...     cdplot.datasets.load("demsar2006"), test="tukey", labels={"C4.5+m+cf": "m+cf"}
    ... )
    >>> ax = cdplot.cd_diagram(tukey, highlight="m+cf")
    >>> [t.get_text() for t in ax.texts if t.get_gid() == "cd-axis-caption"]
    ['mean score (higher is better)']
    """
    opts = _options(
        reverse=reverse,
        highlight=highlight,
        palette=palette,
        group_colors=group_colors,
        title=title,
        footnote=footnote,
        rank_format=rank_format,
        long_names=long_names,
        max_name_width=max_name_width,
        fontsize=fontsize,
        text_kws=text_kws,
        line_kws=line_kws,
        bar_kws=bar_kws,
    )
    check_mathtext(_shown_names(result), where="cd_diagram")
    content = _content(result, opts)
    if ax is None:
        fig_width = SINGLE_COLUMN_WIDTH if width is None else check_width(width)
        dpi = float(mpl.rcParams["figure.dpi"])
        layout = _result_layout(result, content, opts, fig_width, dpi)
        fig = new_figure(fig_width, layout.height)
        ax = fig.add_axes((0.0, 0.0, 1.0, 1.0))
    else:
        if width is not None:
            raise CdplotInputError(
                "width applies only to a new figure; it cannot be given with ax. Size the "
                "Axes instead, or drop ax= to get a new figure of that width."
            )
        fig = ax.get_figure(root=True)
        fig_width = ax.get_window_extent().width / fig.dpi
        layout = _result_layout(result, content, opts, fig_width, fig.dpi)
    _draw(ax, layout, content, opts, fig_width)
    _warn_if_illegible(layout, len(content.names), fig_width)
    return ax


def _warn_if_illegible(layout: CDLayout, k: int, width: float) -> None:
    """Say so when the diagram does not read at this width, and offer the rank plot."""
    measured = layout.legibility
    if measured is None or measured.legible:
        return
    warnings.warn(
        f"the CD diagram of {k} algorithms is not legible at {width:.3g} in: {measured.reason}. "
        "Draw the rank-interval plot instead (cdplot.rank_plot(res) or "
        "res.plot(kind='ranks'); kind='auto' chooses), or pass a larger width=.",
        CdplotWarning,
        stacklevel=3,
    )


def cd_diagrams(
    results: Mapping[str, ComparisonResult],
    *,
    width: float = DOUBLE_COLUMN_WIDTH,
    reverse: bool = False,
    highlight: str | Sequence[str] | Mapping[str, Any] | None = None,
    palette: str | Sequence[Any] | Mapping[str, Any] | None = None,
    group_colors: bool | Sequence[Any] = False,
    title: bool | str | None = True,
    footnote: bool | str = True,
    rank_format: str | Callable[[float], str] | None = None,
    long_names: LongNames = "wrap",
    max_name_width: float | None = None,
    fontsize: float | None = None,
    text_kws: Mapping[str, Any] | None = None,
    line_kws: Mapping[str, Any] | None = None,
    bar_kws: Mapping[str, Any] | None = None,
) -> Figure:
    """Draw several critical difference diagrams in one figure, stacked vertically.

    One diagram per result, e.g. one per metric, titled by its key. The rank
    axes are aligned, and an algorithm has the same colour in every diagram.
    This is a figure-level function: it makes the figure and sizes it to the
    content.

    Parameters
    ----------
    results : mapping of str to ComparisonResult
        Panel title -> result of :func:`cdplot.compare`, drawn top to bottom.
    width : float
        Width of the figure in inches (default 7, the full width of a
        two-column paper).
    %(reverse)s
    %(highlight)s
    %(palette)s
    %(group_colors)s
    title : bool or str
        True (default): each panel is titled by its key followed by the test,
        correction and alpha. False or None: by its key only. A string: a
        title for the whole figure (panels are titled by their keys).
    %(footnote)s
    %(rank_format)s
    %(long_names)s
    %(max_name_width)s
    %(fontsize)s
    %(kws)s

    Returns
    -------
    matplotlib.figure.Figure
        The figure (a :class:`CDFigure`); ``fig.axes`` holds one Axes per
        result, in order.

    Raises
    ------
    CdplotInputError
        If ``results`` is empty, or as :func:`cd_diagram`.

    See Also
    --------
    cd_diagram : one diagram, on a given or a new Axes.

    Examples
    --------
    >>> import warnings
    >>> import cdplot
    >>> data = cdplot.datasets.load("demsar2006")
    >>> with warnings.catch_warnings():  # the Nemenyi test's pool dependence
    ...     warnings.simplefilter("ignore", cdplot.PoolDependenceWarning)
    ...     nemenyi = cdplot.compare(data, test="nemenyi", alpha=0.10)
    >>> fig = cdplot.cd_diagrams({"Nemenyi": nemenyi, "Wilcoxon-Holm": cdplot.compare(data)})
    """
    if not results:
        raise CdplotInputError(
            "results must hold at least one comparison result, e.g. cd_diagrams({'accuracy': res})."
        )
    width = check_width(width)
    lookup = _NameLookup.of(list(results.values()))
    colors, highlighted = _style.resolve_colors(
        lookup.algorithms,
        palette=lookup.resolve(palette, "palette"),
        highlight=lookup.resolve(highlight, "highlight"),
    )
    figure_title = title if isinstance(title, str) else None
    opts = _options(
        reverse=reverse,
        highlight=highlight,
        palette=palette,
        group_colors=group_colors,
        title=True if title is True else None,
        footnote=footnote,
        rank_format=rank_format,
        long_names=long_names,
        max_name_width=max_name_width,
        fontsize=fontsize,
        text_kws=text_kws,
        line_kws=line_kws,
        bar_kws=bar_kws,
        colors=colors,
        highlighted=frozenset(highlighted),
    )
    for res in results.values():
        check_mathtext(_shown_names(res), where="cd_diagrams")
    dpi = float(mpl.rcParams["figure.dpi"])
    contents = [_content(res, opts, panel=str(key)) for key, res in results.items()]
    layouts = [_layout(c, opts, width, dpi) for c in contents]
    margins = (max(lay.margins[0] for lay in layouts), max(lay.margins[1] for lay in layouts))
    layouts = [_layout(c, opts, width, dpi, min_margins=margins) for c in contents]

    pad = LayoutParams().pad
    header = None
    if figure_title:
        measure = TextMeasure(dpi, _role_props(opts, width))
        lines, _ = wrap_text(figure_title, width - 2 * pad, lambda s: measure(s, "title")[0])
        header = "\n".join(lines)
        header_scale = fit_scale(lines, width - 2 * pad, lambda s: measure(s, "title")[0])
    top = 0.0 if header is None else measure(header, "title")[1] * header_scale + 2 * pad
    total = top + sum(lay.height for lay in layouts)
    fig = new_figure(width, total)
    y = top
    for content, layout in zip(contents, layouts, strict=True):
        bottom = (total - y - layout.height) / total
        ax = fig.add_axes((0.0, bottom, 1.0, layout.height / total))
        _draw(ax, layout, content, opts, width)
        y += layout.height
    if header is not None:
        props = _role_props(opts, width)["title"]
        props = {**props, "fontsize": _fontsize(props) * header_scale}
        fig.text(
            0.5, 1.0 - pad / total, header, ha="center", va="top", gid="cd-figure-title", **props
        )
    return fig


cd_diagram.__doc__ = cd_diagram.__doc__ % DOCS if cd_diagram.__doc__ else None
cd_diagrams.__doc__ = cd_diagrams.__doc__ % DOCS if cd_diagrams.__doc__ else None

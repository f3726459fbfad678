"""The one text measurer of the figures: sizes of texts in inches, by matplotlib's metrics.

:class:`TextMeasure` measures with matplotlib's own font metrics (Agg at a resolution):
``measure(text, role)`` with the text properties of named roles (the CD diagram, the rank
plot), ``measure.size(text, **props)`` and ``measure.box(text, **props)`` with properties
given per text (the heatmap). :class:`CachedMeasure` wraps any ``measure(text, role)``
callable with a cache and a quick estimate from single characters; the pure layout
modules (:mod:`._cd_layout`, :mod:`._rank_layout`) use it on the measure they are given,
so this module loads matplotlib only when a :class:`TextMeasure` is made.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

__all__ = ["OUTPUT_DPIS", "CachedMeasure", "TextMeasure"]

#: ``measure(text, role) -> (width, height)`` in inches.
Measure = Callable[[str, str], tuple[float, float]]

#: Resolutions a figure is commonly saved or shown at; 1200 dpi stands for the unhinted
#: metrics of vector output (PDF, SVG, PGF). Agg hints glyphs to whole pixels, so a line's
#: width is not proportional to the resolution: the same note is 2-10 % wider at one than
#: at another.
OUTPUT_DPIS = (72, 80, 90, 96, 100, 110, 120, 144, 150, 192, 200, 300, 600, 1200)
#: The text whose widths at :data:`OUTPUT_DPIS` give a role's widening: every letter, digit
#: and the punctuation of notes, in proportions like those of a sentence.
_SPECIMEN = (
    "The quick brown fox jumps over the lazy dog; 0123456789 pairs are not joined "
    "by a bar: ABCDEFGHIJKLM vs NOPQRSTUVWXYZ (p = 0.05), and 7 more."
)
#: Relative margin of the quick estimate (sum of the characters' widths, no kerning).
ESTIMATE_MARGIN = 0.15

#: Widening of each (Text properties, resolution) measured so far.
_WIDENINGS: dict[tuple[str, float], float] = {}
#: One Agg renderer (and its figure) per resolution, shared by every TextMeasure: matplotlib
#: caches text metrics per renderer, so a text measured by one figure's layout (the CD
#: diagram laid out to choose the figure, the rank plot's narrowest width) is not laid
#: out again by the next at the same resolution and font.
_RENDERERS: dict[float, tuple[Any, Any]] = {}


def _renderer(dpi: float) -> tuple[Any, Any]:
    """The shared ``(figure, renderer)`` measuring at ``dpi``."""
    if dpi not in _RENDERERS:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure

        figure = Figure(dpi=dpi)
        _RENDERERS[dpi] = (figure, FigureCanvasAgg(figure).get_renderer())
    return _RENDERERS[dpi]


def _widening(props: Mapping[str, Any], dpi: float) -> float:
    """Largest ratio of the specimen's width at an output resolution to its width at ``dpi``."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.text import Text

    key = (repr(sorted(props.items())), dpi)
    if key not in _WIDENINGS:
        # a small canvas: a text's metrics do not depend on the figure's size, and Agg
        # allocates the whole canvas for each renderer (6.4 x 4.8 in at 1,200 dpi: 177 MB
        # and about 30 ms each, 0.4-0.7 s for the 14 resolutions)
        figure = Figure(figsize=(0.5, 0.5))
        text = Text(0.0, 0.0, _SPECIMEN, **props)
        text.set_figure(figure)

        def width(d: float) -> float:
            figure.set_dpi(d)
            return text.get_window_extent(FigureCanvasAgg(figure).get_renderer()).width / d

        here = width(dpi)
        _WIDENINGS[key] = max(1.0, *(width(d) / here for d in OUTPUT_DPIS))
    return _WIDENINGS[key]


class TextMeasure:
    """Sizes of texts in inches, with matplotlib's own metrics (Agg at ``dpi``).

    ``measure(text, role) -> (width, height)`` uses the properties ``props[role]``. Texts
    of the roles in ``widest`` (the CD diagram's notes) span the figure's width: their
    widths are widened by the largest ratio, over :data:`OUTPUT_DPIS`, of a specimen
    sentence's width at that resolution to its width at the figure's, so a footnote
    wrapped to the figure stays inside it whatever resolution it is saved at (one
    specimen per role: measuring every text at every resolution would make drawing
    several times slower).
    """

    def __init__(
        self,
        dpi: float,
        props: Mapping[str, Mapping[str, Any]] | None = None,
        widest: Iterable[str] = (),
    ):
        from matplotlib.text import Text

        self._text_type = Text
        self._figure, self._renderer = _renderer(float(dpi))
        self._dpi = dpi
        self._texts = {}
        props = props or {}
        for role, kw in props.items():
            text = Text(0.0, 0.0, "", **kw)
            text.set_figure(self._figure)
            self._texts[role] = text
        self._widen = {role: _widening(props[role], dpi) for role in widest}
        self._boxes: dict[tuple[str, str], tuple[float, float, float, float]] = {}

    def __call__(self, text: str, role: str) -> tuple[float, float]:
        artist = self._texts[role]
        artist.set_text(text)
        box = artist.get_window_extent(self._renderer)
        return box.width / self._dpi * self._widen.get(role, 1.0), box.height / self._dpi

    def widest_line(self, texts: Sequence[str], role: str) -> float:
        """Width (inches) of the widest of ``texts``, measured as the lines of one text.

        Each line is laid out as the one-line text would be (the same metrics), so this
        is the max of ``self(t, role)[0]``, in one layout rather than one per text.
        """
        artist = self._texts[role]
        artist.set_text("\n".join(texts))
        box = artist.get_window_extent(self._renderer)
        return box.width / self._dpi * self._widen.get(role, 1.0)

    def _extent(self, text: str, props: Mapping[str, Any]) -> Any:
        artist = self._text_type(0.0, 0.0, text, **props)
        artist.set_figure(self._figure)
        return artist.get_window_extent(self._renderer)

    def size(self, text: str, **props: Any) -> tuple[float, float]:
        """Width and height (inches) of ``text`` drawn with ``props``."""
        box = self._extent(text, props)
        return box.width / self._dpi, box.height / self._dpi

    def box(self, text: str, **props: Any) -> tuple[float, float, float, float]:
        """``(x0, y0, x1, y1)`` (inches) of ``text`` drawn with ``props``, relative to its
        anchor (alignment and rotation included); each (text, props) measured once."""
        key = (text, repr(props))
        if key not in self._boxes:
            box = self._extent(text, props)
            d = self._dpi
            self._boxes[key] = (box.x0 / d, box.y0 / d, box.x1 / d, box.y1 / d)
        return self._boxes[key]


class CachedMeasure:
    """``measure`` with a cache, and a quick estimate from the widths of single characters.

    The estimate (the sum of the characters' widths: no kerning) decides only whether a
    text is clearly narrower than some room, within ESTIMATE_MARGIN; near the room, the
    exact measure decides. At k = 1,000 this saves thousands of text layouts.
    """

    def __init__(self, measure: Measure):
        self._measure = measure
        self._cache: dict[tuple[str, str], tuple[float, float]] = {}

    def __call__(self, text: str, role: str) -> tuple[float, float]:
        key = (text, role)
        if key not in self._cache:
            self._cache[key] = self._measure(text, role)
        return self._cache[key]

    def estimate(self, text: str, role: str) -> float:
        return sum(self(ch, role)[0] for ch in text)

    def fits(self, text: str, room: float, role: str) -> bool:
        if self.estimate(text, role) * (1.0 + ESTIMATE_MARGIN) <= room:
            return True
        return self(text, role)[0] <= room

    def all_fit(self, texts: Sequence[str], room: float, role: str) -> bool:
        """Whether every one of ``texts`` is at most ``room`` wide, measured as the lines of
        one text when the measure can (a :class:`TextMeasure`; no mathematics or line
        breaks in them); False when it cannot say (then measure them one by one)."""
        if not self._as_lines(texts):
            return False
        return not texts or self._measure.widest_line(texts, role) <= room

    def widest(self, texts: Sequence[str], role: str) -> float:
        """Width of the widest text: exact for the few whose estimate could be the widest."""
        texts = [t for t in dict.fromkeys(texts) if t]
        if not texts:
            return 0.0
        estimates = [self.estimate(t, role) for t in texts]
        top = max(estimates)
        near = [
            t for t, e in zip(texts, estimates, strict=True) if e * (1.0 + ESTIMATE_MARGIN) >= top
        ]
        if len(near) > 1 and self._as_lines(near):
            return self._measure.widest_line(near, role)  # the same max, in one layout
        return max(self(t, role)[0] for t in near)

    def _as_lines(self, texts: Sequence[str]) -> bool:
        """Whether ``texts`` can be measured as the lines of one text: the measure can
        (a :class:`TextMeasure`), and none holds mathematics or a line break."""
        return hasattr(self._measure, "widest_line") and not any(
            "$" in t or "\n" in t for t in texts
        )

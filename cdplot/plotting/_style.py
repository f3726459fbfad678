"""Colours, font sizes and save settings shared by cdplot's figures."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import matplotlib as mpl
from matplotlib.colors import to_hex

from .._errors import CdplotInputError, check_in_list, suggest

__all__ = [
    "GROUP_GREYS",
    "OKABE_ITO",
    "SAVE_RC",
    "default_fontsize",
    "group_bar_colors",
    "resolve_colors",
]

#: The Okabe & Ito (2008) colourblind-safe palette, in the order cdplot uses it.
#: Yellow (#F0E442) is left out: it is unreadable as text on white.
OKABE_ITO: tuple[str, ...] = (
    "#0072B2",  # blue
    "#D55E00",  # vermillion
    "#009E73",  # bluish green
    "#CC79A7",  # reddish purple
    "#E69F00",  # orange
    "#56B4E9",  # sky blue
)
#: Names accepted for the palette above.
PALETTE_NAMES = ("okabe-ito", "colorblind")

#: Colour of lines, bars and texts that are not highlighted.
INK = "black"
#: Colour of the average ranks printed beside the names.
RANK_INK = "0.3"
#: Marker colour of algorithms significantly different from the control.
SIGNIFICANT_COLOR = OKABE_ITO[1]

#: Width (inches) from which a figure counts as double-column.
DOUBLE_COLUMN_WIDTH = 5.0
#: Base font sizes (points) for single- and double-column figures.
SINGLE_COLUMN_FONTSIZE = 8.0
DOUBLE_COLUMN_FONTSIZE = 9.0

#: Settings applied when a figure made by cdplot is saved: TrueType fonts
#: embedded in PDF and PostScript (not Type 3), so that text stays searchable
#: and editable and journals' font checks pass.
SAVE_RC: dict[str, Any] = {"pdf.fonttype": 42, "ps.fonttype": 42}


#: Greys for group bars once the palette's free colours are used up (never black, the
#: colour of uncoloured algorithms, and dark enough to read as a bar on white).
GROUP_GREYS: tuple[str, ...] = ("0.25", "0.45", "0.62")


def group_bar_colors(
    group_colors: bool | Sequence[Any], used: Iterable[Any], n_bars: int
) -> list[Any] | None:
    """Colours of the group bars, cycled over the bars; None for the default (black).

    ``group_colors=True`` takes the Okabe-Ito colours that no algorithm uses, so a
    bar never seems to belong to an algorithm of the same colour; when those are
    fewer than the bars (or none is left), greys follow. A sequence is used as
    given (cycled).
    """
    if group_colors is True:
        taken = {to_hex(c) for c in used}
        free: list[Any] = [c for c in OKABE_ITO if to_hex(c) not in taken]
        if len(free) < n_bars:
            free += [g for g in GROUP_GREYS if to_hex(g) not in taken]
        return free or [GROUP_GREYS[0]]
    if group_colors is False or group_colors is None:
        return None
    if isinstance(group_colors, str):
        return [group_colors]
    colors = list(group_colors)
    if not colors:
        raise CdplotInputError(
            "group_colors must be True, False or a non-empty sequence of colours; got an "
            "empty sequence. Pass group_colors=True for colours no algorithm uses."
        )
    return colors


#: The bundled cut of DejaVu Sans (Latin-1, Latin Extended-A, Greek, punctuation, and
#: the italic alpha U+1D6FC; see fonts/make_fonts.py and fonts/LICENSE_DEJAVU): the same
#: glyphs, metrics, kerning and ligatures, a tenth of the size, so embedding it in a PDF
#: costs a fraction of the time.
BUNDLED_FAMILY = "cdplot Sans"
FONT_DIR = Path(__file__).parent / "fonts"
#: Mathtext that cdplot writes, whose glyphs the bundled font holds.
OWN_MATH = frozenset({r"$\alpha$", r"$\leq\alpha$", r"$\leq$"})
#: matplotlib's own tick labels, e.g. ``$\\mathdefault{10^{-3}}$`` (digits and signs only).
_TICK_MATH_RE = re.compile(r"\$\\mathdefault\{[0-9.^{}\-\u2212 ]*(\\times)?[0-9.^{}\-\u2212 ]*\}\$")
_MATH_RE = re.compile(r"(?<!\\)\$.*?(?<!\\)\$")
_covered: list[frozenset[int]] = []


def _bundled_charset() -> frozenset[int]:
    """Code points the bundled font holds (all four faces hold the same); empty if absent.

    The fonts are added to matplotlib's font manager on the first call.
    """
    if not _covered:
        from matplotlib import font_manager
        from matplotlib.ft2font import FT2Font

        files = sorted(FONT_DIR.glob("cdplotSans*.ttf"))
        for path in files:
            font_manager.fontManager.addfont(str(path))
        chars = frozenset(FT2Font(str(files[0])).get_charmap()) if len(files) == 4 else None
        _covered.append(chars or frozenset())
    return _covered[0]


#: U+1D6FC MATHEMATICAL ITALIC SMALL ALPHA. The bundled fonts draw it with the alpha of
#: DejaVu Sans Oblique (Bold Oblique in the bold faces), the glyph mathtext draws for
#: ``$\alpha$`` under matplotlib's default font; plain text, so neither drawing nor
#: measuring it builds matplotlib's mathtext parser.
ITALIC_ALPHA = "\N{MATHEMATICAL ITALIC SMALL ALPHA}"
#: The mathtext alpha, written when the user changed matplotlib's fonts.
MATH_ALPHA = r"$\alpha$"
#: Font of a text that holds :data:`ITALIC_ALPHA`: matplotlib's default family first
#: (so every other character, and PGF output, is as before), the bundled font as the
#: fallback that holds the alpha.
ALPHA_FONT_FAMILY = ("sans-serif", BUNDLED_FAMILY)


def _default_font() -> bool:
    """Whether matplotlib's default font is in force (DejaVu Sans, text and mathtext)."""
    rc = mpl.rcParams
    return (
        list(rc["font.family"]) == ["sans-serif"]
        and list(rc["font.sans-serif"])[:1] == ["DejaVu Sans"]
        and rc["mathtext.fontset"] == "dejavusans"
    )


def alpha_symbol() -> str:
    r"""How cdplot writes alpha in a figure: :data:`ITALIC_ALPHA` or ``$\alpha$``.

    The italic alpha of the bundled font when matplotlib's default font is in force
    (as :func:`embedding_rc` decides) and the bundled fonts are present; it looks
    exactly as mathtext's alpha then. Otherwise the mathtext ``$\alpha$``, drawn in the
    fonts the user chose.
    """
    if _default_font() and ord(ITALIC_ALPHA) in _bundled_charset():
        return ITALIC_ALPHA
    return MATH_ALPHA


def alpha_font(text: str) -> dict[str, Any]:
    """Text properties that draw ``text``: the bundled fallback if it holds the alpha.

    ``{"fontfamily": [...]}`` (:data:`ALPHA_FONT_FAMILY`) when ``text`` holds
    :data:`ITALIC_ALPHA`, else no properties. The bundled fonts are added to
    matplotlib's font manager if they are not yet.
    """
    if ITALIC_ALPHA not in text:
        return {}
    _bundled_charset()
    return {"fontfamily": list(ALPHA_FONT_FAMILY)}


def _math_segments(text: str) -> list[str]:
    dollars = text.count("$") - text.count("\\$")
    return _MATH_RE.findall(text) if dollars and dollars % 2 == 0 else []


def embedding_rc(texts: Iterable[str]) -> tuple[dict[str, Any], bool]:
    """Settings that embed the bundled font instead of DejaVu Sans when saving PDF/PS.

    Only when the user kept matplotlib's default font (DejaVu Sans, through the
    ``sans-serif`` family and the ``dejavusans`` mathtext font set) and the bundled
    font holds every character of the figure's ``texts``: then text is set in
    "cdplot Sans", which draws the same glyphs. Mathtext follows when the figure's
    ``$...$`` are all cdplot's own (:data:`OWN_MATH`). Otherwise nothing changes.

    Returns
    -------
    rc : dict
        rcParams to apply while saving (empty: keep DejaVu Sans).
    math : bool
        Whether texts with mathtext should switch to the ``custom`` math font set.
    """
    rc = mpl.rcParams
    texts = list(texts)
    covered = _bundled_charset() if _default_font() else frozenset()
    if not covered or any(ord(c) not in covered for t in texts for c in t if c not in "\n\t"):
        return {}, False
    out: dict[str, Any] = {"font.sans-serif": [BUNDLED_FAMILY, *rc["font.sans-serif"]]}
    math = all(
        m in OWN_MATH or _TICK_MATH_RE.fullmatch(m) for t in texts for m in _math_segments(t)
    )
    if math:
        out.update(
            {
                "mathtext.fontset": "custom",
                "mathtext.rm": BUNDLED_FAMILY,
                "mathtext.sf": BUNDLED_FAMILY,
                "mathtext.it": f"{BUNDLED_FAMILY}:italic",
                "mathtext.bf": f"{BUNDLED_FAMILY}:bold",
                "mathtext.bfit": f"{BUNDLED_FAMILY}:italic:bold",
                "mathtext.cal": BUNDLED_FAMILY,
                "mathtext.tt": "DejaVu Sans Mono",
                "mathtext.fallback": "stixsans",
            }
        )
    return out, math


def default_fontsize(width: float) -> float:
    """Base font size (points) for a figure ``width`` inches wide."""
    return DOUBLE_COLUMN_FONTSIZE if width >= DOUBLE_COLUMN_WIDTH else SINGLE_COLUMN_FONTSIZE


def palette_colors(palette: str | Sequence[Any] | None) -> list[Any]:
    """Colours of a palette given by name (``"okabe-ito"``) or as a sequence.

    None gives the colours used for highlighting (:data:`OKABE_ITO`); the named
    palette adds Okabe & Ito's black as a seventh colour for colouring every
    algorithm.
    """
    if palette is None:
        return list(OKABE_ITO)
    if isinstance(palette, str):
        try:
            check_in_list(PALETTE_NAMES, palette=palette)
        except CdplotInputError as err:
            raise CdplotInputError(
                f"{err} A palette may also be a sequence of colours (palette=['C0', 'C1']) "
                "or a mapping of algorithm to colour."
            ) from None
        return [*OKABE_ITO, INK]
    colors = list(palette)
    if not colors:
        raise CdplotInputError(
            "palette must hold at least one colour; pass e.g. palette='okabe-ito' or "
            "palette=['C0', 'C1']."
        )
    return colors


def _check_names(what: str, names: Iterable[str], valid: Sequence[str]) -> None:
    unknown = [n for n in names if n not in valid]
    if unknown:
        raise CdplotInputError(
            f"{unknown[0]!r} is not a valid value for {what}: it is not one of the compared "
            "algorithms, which are "
            + ", ".join(repr(v) for v in valid)
            + "."
            + suggest(unknown[0], valid)
        )


def resolve_colors(
    algorithms: Sequence[str],
    *,
    palette: str | Sequence[Any] | Mapping[str, Any] | None = None,
    highlight: str | Sequence[str] | Mapping[str, Any] | None = None,
) -> tuple[dict[str, Any], set[str]]:
    """Colour of each algorithm and the set of highlighted ones.

    Parameters
    ----------
    algorithms : sequence of str
        All algorithms, in a fixed order (colours are assigned in this order,
        so the same algorithm gets the same colour in every diagram).
    palette : str, sequence or mapping, optional
        None: no colours except for highlighted algorithms. A palette name or
        a sequence of colours: every algorithm gets one, cycling. A mapping:
        the given algorithms get the given colours.
    highlight : str, sequence of str or mapping, optional
        Algorithms to highlight; a mapping also gives their colours.
        Highlighted algorithms without a colour take the palette's colours in
        order.

    Returns
    -------
    colors : dict
        Colour of each coloured algorithm.
    highlighted : set of str
        The highlighted algorithms.
    """
    algorithms = list(algorithms)
    colors: dict[str, Any] = {}
    if isinstance(palette, Mapping):
        _check_names("palette", palette, algorithms)
        colors.update(palette)
    elif palette is not None:
        cycle = palette_colors(palette)
        colors.update({a: cycle[i % len(cycle)] for i, a in enumerate(algorithms)})

    if highlight is None:
        return colors, set()
    if isinstance(highlight, str):
        highlight = [highlight]
    if isinstance(highlight, Mapping):
        _check_names("highlight", highlight, algorithms)
        colors.update(highlight)
        return colors, set(highlight)
    names = list(highlight)
    _check_names("highlight", names, algorithms)
    cycle = palette_colors(None if palette is None or isinstance(palette, Mapping) else palette)
    for i, name in enumerate(n for n in names if n not in colors):
        colors[name] = cycle[i % len(cycle)]
    return colors, set(names)

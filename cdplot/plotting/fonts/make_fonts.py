"""Make the bundled "cdplot Sans" fonts: DejaVu Sans cut to the characters of figures.

Run ``python cdplot/plotting/fonts/make_fonts.py`` with the matplotlib whose DejaVu Sans
fonts should be cut (the files are copied from matplotlib's ``mpl-data/fonts/ttf``).

Why: embedding TrueType in a PDF (``pdf.fonttype = 42``) makes fontTools parse and
subset the whole font at every save; DejaVu Sans is 756 KB with large kerning and
ligature tables, and a CD diagram brought three of its faces (regular, bold for
highlighted names, oblique for the mathtext alpha; now two, see below). The cut keeps
Latin-1, Latin Extended-A, Greek, general punctuation (the thin space U+2009 included)
and the few mathematical signs cdplot writes, with every glyph, metric, kerning pair and
ligature of those characters unchanged, so text looks and is laid out exactly as with
DejaVu Sans.

One character is added from another face: U+1D6FC MATHEMATICAL ITALIC SMALL ALPHA, whose
glyph (outline and advance) is the alpha of DejaVu Sans Oblique in the upright faces and
the oblique face, and of DejaVu Sans Bold Oblique in the two bold faces. cdplot writes
it where it wrote the mathtext ``$\\alpha$`` ("alpha = 0.05" in titles): plain text, so
drawing a figure never builds matplotlib's mathtext parser and a PDF embeds one face,
not an oblique face for a single letter, while the alpha looks as before (mathtext draws
``$\\alpha$`` with that very glyph of DejaVu Sans Oblique). Its TrueType instructions
are dropped (they refer to the other face's ``fpgm`` and ``cvt``), and since the
character lies beyond the BMP the fonts gain format 12 cmap subtables (platform 3
encoding 10, platform 0 encoding 4) holding every mapping plus U+1D6FC.

Licence: DejaVu fonts are (c) Bitstream (Bitstream Vera licence) with DejaVu's changes
in the public domain; the licence allows modified copies under a name containing neither
"Bitstream" nor "Vera" (adding glyphs, such as the italic alpha, included), and requires
its notice in every copy: hence the name "cdplot Sans" and LICENSE_DEJAVU beside the
fonts.
"""

from __future__ import annotations

import copy
from pathlib import Path

import matplotlib as mpl
from fontTools import subset
from fontTools.ttLib import TTFont
from fontTools.ttLib.tables._c_m_a_p import CmapSubtable
from fontTools.ttLib.tables.ttProgram import Program

FAMILY = "cdplot Sans"
#: source file in matplotlib -> (bundled file, style name)
FACES = {
    "DejaVuSans.ttf": ("cdplotSans.ttf", "Book"),
    "DejaVuSans-Bold.ttf": ("cdplotSans-Bold.ttf", "Bold"),
    "DejaVuSans-Oblique.ttf": ("cdplotSans-Oblique.ttf", "Oblique"),
    "DejaVuSans-BoldOblique.ttf": ("cdplotSans-BoldOblique.ttf", "Bold Oblique"),
}
#: Unicode ranges kept (inclusive).
RANGES = (
    (0x0020, 0x007E),  # ASCII
    (0x00A0, 0x017F),  # Latin-1 Supplement, Latin Extended-A
    (0x0370, 0x03FF),  # Greek
    (0x2009, 0x2009),  # thin space (around the "≤" of "≤ 𝛼" in the heatmap's colour bar)
    (0x2010, 0x2027),  # dashes, quotes, bullet, ellipsis
    (0x2030, 0x203A),  # per mille, primes, angle quotes
    (0x2212, 0x2212),  # minus sign (negative tick labels)
    (0x2264, 0x2265),  # less-/greater-than or equal to
)
#: U+1D6FC MATHEMATICAL ITALIC SMALL ALPHA, added to every face.
ITALIC_ALPHA = 0x1D6FC
ITALIC_ALPHA_GLYPH = "u1D6FC"
#: bundled file -> source of its italic alpha (the oblique face of the same weight)
ALPHA_SOURCE = {
    "cdplotSans.ttf": "DejaVuSans-Oblique.ttf",
    "cdplotSans-Oblique.ttf": "DejaVuSans-Oblique.ttf",
    "cdplotSans-Bold.ttf": "DejaVuSans-BoldOblique.ttf",
    "cdplotSans-BoldOblique.ttf": "DejaVuSans-BoldOblique.ttf",
}


def add_italic_alpha(font: TTFont, source: TTFont) -> None:
    """Add U+1D6FC to ``font`` with the outline and advance of ``source``'s alpha."""
    alpha = source.getBestCmap()[0x03B1]
    glyph = copy.deepcopy(source["glyf"][alpha])
    assert not glyph.isComposite()  # a composite would refer to source's other glyphs
    glyph.program = Program()  # the instructions refer to source's fpgm and cvt
    glyph.program.fromBytecode(b"")
    order = font.getGlyphOrder()
    assert ITALIC_ALPHA_GLYPH not in order
    font["glyf"].glyphs[ITALIC_ALPHA_GLYPH] = glyph
    font["glyf"].glyphOrder = [*order, ITALIC_ALPHA_GLYPH]
    font.setGlyphOrder([*order, ITALIC_ALPHA_GLYPH])
    font["hmtx"].metrics[ITALIC_ALPHA_GLYPH] = source["hmtx"].metrics[alpha]
    cmap = font["cmap"]
    mapping = dict(font.getBestCmap())
    mapping[ITALIC_ALPHA] = ITALIC_ALPHA_GLYPH
    for table in cmap.tables:  # DejaVu's format 12 subtable (platform 0, encoding 10)
        if table.format == 12:
            table.cmap[ITALIC_ALPHA] = ITALIC_ALPHA_GLYPH
    have = {(t.platformID, t.platEncID) for t in cmap.tables}
    for platform, encoding in ((0, 4), (3, 10)):
        if (platform, encoding) not in have:
            table = CmapSubtable.newSubtable(12)
            table.platformID, table.platEncID, table.language = platform, encoding, 0
            table.cmap = dict(mapping)
            cmap.tables.append(table)
    cmap.tables.sort(key=lambda t: (t.platformID, t.platEncID))


def make(out: Path) -> None:
    source = Path(mpl.get_data_path()) / "fonts" / "ttf"
    unicodes = [u for lo, hi in RANGES for u in range(lo, hi + 1)]
    for name, (target, style) in FACES.items():
        options = subset.Options()
        options.layout_features = ["*"]  # keep kerning and ligatures as they are
        options.name_IDs = ["*"]
        options.notdef_outline = True
        options.glyph_names = False
        font = TTFont(source / name)
        subsetter = subset.Subsetter(options)
        subsetter.populate(unicodes=unicodes)
        subsetter.subset(font)
        add_italic_alpha(font, TTFont(source / ALPHA_SOURCE[target]))
        ps_style = style.replace(" ", "")
        names = {
            1: FAMILY,
            2: style,
            3: f"{FAMILY} {style} (cut of DejaVu Sans for cdplot)",
            4: FAMILY if style == "Book" else f"{FAMILY} {style}",
            6: "cdplotSans" if style == "Book" else f"cdplotSans-{ps_style}",
            16: FAMILY,
            17: style,
        }
        table = font["name"]
        table.names = [n for n in table.names if n.nameID not in names]
        for name_id, value in names.items():
            table.setName(value, name_id, 3, 1, 0x409)
            table.setName(value, name_id, 1, 0, 0)
        font.save(out / target)


if __name__ == "__main__":
    make(Path(__file__).parent)

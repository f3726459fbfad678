"""Make the bundled "cdplot Sans" fonts: DejaVu Sans cut to the characters of figures.

Run ``python cdplot/plotting/fonts/make_fonts.py`` with the matplotlib whose DejaVu Sans
fonts should be cut (the files are copied from matplotlib's ``mpl-data/fonts/ttf``).

Why: embedding TrueType in a PDF (``pdf.fonttype = 42``) makes fontTools parse and subset
the whole font at every save; DejaVu Sans is 756 KB with large kerning and ligature
tables, and a CD diagram brings three of its faces (regular, bold for highlighted names,
oblique for the mathtext alpha). The cut keeps Latin-1, Latin Extended-A, Greek,
general punctuation and the few mathematical signs cdplot writes, with every glyph,
metric, kerning pair and ligature of those characters unchanged, so text looks and is
laid out exactly as with DejaVu Sans.

Licence: DejaVu fonts are (c) Bitstream (Bitstream Vera licence) with DejaVu's changes
in the public domain; the licence allows modified copies under a name containing
neither "Bitstream" nor "Vera", and requires its notice in every copy: hence the name
"cdplot Sans" and LICENSE_DEJAVU beside the fonts.
"""

from __future__ import annotations

from pathlib import Path

import matplotlib as mpl
from fontTools import subset
from fontTools.ttLib import TTFont

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
    (0x2010, 0x2027),  # dashes, quotes, bullet, ellipsis
    (0x2030, 0x203A),  # per mille, primes, angle quotes
    (0x2212, 0x2212),  # minus sign (negative tick labels)
    (0x2264, 0x2265),  # less-/greater-than or equal to
)


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

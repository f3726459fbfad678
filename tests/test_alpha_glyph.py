"""The italic alpha U+1D6FC of the bundled fonts: cdplot's figures write it instead of
the mathtext ``$\\alpha$`` under matplotlib's default font (no mathtext parser, one
embedded face), and it is the very glyph mathtext draws for ``$\\alpha$``."""

from __future__ import annotations

from pathlib import Path

import matplotlib as mpl
import numpy as np
import pandas as pd
import pytest
from _helpers import pdf_fonts
from fontTools.ttLib import TTFont
from matplotlib import mathtext
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

import cdplot
from cdplot.plotting import _style, apv_heatmap, cd_diagram

ITALIC_ALPHA = "\N{MATHEMATICAL ITALIC SMALL ALPHA}"
MPL_FONTS = Path(mpl.get_data_path()) / "fonts" / "ttf"
#: bundled face -> matplotlib's DejaVu Sans face it is cut from, and the face whose
#: alpha (U+03B1) is its italic alpha
FACES = {
    "cdplotSans.ttf": ("DejaVuSans.ttf", "DejaVuSans-Oblique.ttf"),
    "cdplotSans-Oblique.ttf": ("DejaVuSans-Oblique.ttf", "DejaVuSans-Oblique.ttf"),
    "cdplotSans-Bold.ttf": ("DejaVuSans-Bold.ttf", "DejaVuSans-BoldOblique.ttf"),
    "cdplotSans-BoldOblique.ttf": ("DejaVuSans-BoldOblique.ttf", "DejaVuSans-BoldOblique.ttf"),
}


def _outline(font: TTFont, glyph_name: str) -> tuple:
    """Points, on-curve flags, contour ends and horizontal metrics of a glyph.

    Composite glyphs are resolved into their components' points.
    """
    glyf = font["glyf"]
    coords, ends, flags = glyf[glyph_name].getCoordinates(glyf)
    on_curve = [f & 1 for f in flags]  # the other bits are encoding details
    return [tuple(c) for c in coords], on_curve, list(ends), font["hmtx"][glyph_name]


@pytest.mark.parametrize("face", sorted(FACES))
def test_italic_alpha_is_the_oblique_faces_alpha(face):
    bundled = TTFont(_style.FONT_DIR / face)
    source = TTFont(MPL_FONTS / FACES[face][1])
    new = bundled.getBestCmap()[0x1D6FC]
    assert _outline(bundled, new) == _outline(source, source.getBestCmap()[0x03B1])
    # no TrueType instructions: they would run against this face's fpgm and cvt
    program = bundled["glyf"][new].program
    assert program.getBytecode() == b""


@pytest.mark.parametrize("face", sorted(FACES))
def test_every_other_character_is_dejavu_sans_unchanged(face):
    bundled = TTFont(_style.FONT_DIR / face)
    source = TTFont(MPL_FONTS / FACES[face][0])
    ours, theirs = bundled.getBestCmap(), source.getBestCmap()
    assert 0x1D6FC not in theirs and 0x1D6FC in ours
    for code, name in ours.items():
        if code != 0x1D6FC:
            assert _outline(bundled, name) == _outline(source, theirs[code]), hex(code)
    # every Unicode cmap subtable, BMP or not, agrees on every character
    for table in bundled["cmap"].tables:
        if table.isUnicode():
            expected = (
                ours if table.format == 12 else {c: n for c, n in ours.items() if c < 0x10000}
            )
            assert table.cmap == expected, (table.platformID, table.platEncID)


def test_all_faces_hold_the_same_characters():
    charsets = [frozenset(TTFont(_style.FONT_DIR / f).getBestCmap()) for f in FACES]
    assert len(set(charsets)) == 1
    assert 0x1D6FC in _style._bundled_charset() and charsets[0] == _style._bundled_charset()


# --------------------------------------------------------------------------- figures


@pytest.fixture
def result() -> cdplot.ComparisonResult:
    rng = np.random.default_rng(3)
    data = pd.DataFrame(rng.random((30, 10)) + np.arange(10) * 0.03)
    data.columns = [f"alg{i}" for i in range(10)]
    return cdplot.compare(data)


@pytest.fixture
def math_calls(monkeypatch) -> list[str]:
    """Every text matplotlib's mathtext parser is asked to parse from now on."""
    calls: list[str] = []
    parse = mathtext.MathTextParser.parse

    def counting(self, s, *args, **kwargs):
        calls.append(s)
        return parse(self, s, *args, **kwargs)

    monkeypatch.setattr(mathtext.MathTextParser, "parse", counting)
    return calls


def test_default_cd_diagram_writes_the_italic_alpha_without_mathtext(result, math_calls, tmp_path):
    ax = cd_diagram(result)
    title = next(t for t in ax.texts if t.get_gid() == "cd-title")
    assert title.get_text().endswith(f"Holm, {ITALIC_ALPHA} = 0.05")
    for ext in ("pdf", "png", "svg", "eps"):
        ax.figure.savefig(tmp_path / f"cd.{ext}")
    assert math_calls == []
    assert pdf_fonts((tmp_path / "cd.pdf").read_bytes()) == {"cdplotSans"}


def test_the_mathtext_probe_sees_mathtext(result, math_calls, tmp_path):
    # the probe above can fail: a title with mathtext is seen
    cd_diagram(result, title=r"$\alpha$ = 0.05").figure.savefig(tmp_path / "cd.pdf")
    assert r"$\alpha$ = 0.05" in math_calls
    assert "cdplotSans-Oblique" in pdf_fonts((tmp_path / "cd.pdf").read_bytes())


@pytest.mark.parametrize(
    "rc",
    [{"font.family": "serif"}, {"mathtext.fontset": "stix"}, {"font.sans-serif": ["Arial"]}],
)
def test_changed_fonts_keep_the_mathtext_alpha(result, rc, math_calls, tmp_path):
    with mpl.rc_context(rc):
        ax = cd_diagram(result)
        title = next(t for t in ax.texts if t.get_gid() == "cd-title")
        assert title.get_text().endswith(r"Holm, $\alpha$ = 0.05")
        assert title.get_fontfamily() == list(mpl.rcParams["font.family"])
        ax.figure.savefig(tmp_path / "cd.png")
        ax.figure.savefig(tmp_path / "cd.pdf")
    assert any(r"$\alpha$" in s for s in math_calls)
    assert not any("cdplotSans" in f for f in pdf_fonts((tmp_path / "cd.pdf").read_bytes()))


def test_without_the_bundled_fonts_the_alpha_is_mathtext(monkeypatch):
    assert _style.alpha_symbol() == ITALIC_ALPHA
    monkeypatch.setattr(_style, "_covered", [frozenset()])
    assert _style.alpha_symbol() == r"$\alpha$"


def _ink(text: str, **props) -> np.ndarray:
    """Grey levels of ``text`` drawn alone by Agg, cropped to its ink."""
    fig = Figure(figsize=(1, 1), dpi=300)
    canvas = FigureCanvasAgg(fig)
    fig.text(0.3, 0.3, text, fontsize=12, **props)
    canvas.draw()
    grey = 255 - np.asarray(canvas.buffer_rgba())[..., 0].astype(int)
    rows, cols = np.nonzero(grey)
    return grey[rows.min() : rows.max() + 1, cols.min() : cols.max() + 1]


@pytest.mark.parametrize("weight", ["normal", "bold"])
def test_italic_alpha_looks_like_mathtexts_alpha(weight):
    plain = _ink(ITALIC_ALPHA, fontweight=weight, **_style.alpha_font(ITALIC_ALPHA))
    math = _ink(r"$\alpha$" if weight == "normal" else r"$\boldsymbol{\alpha}$")
    # same glyph at the same size: same ink box and amount of ink, up to sub-pixel placement
    # (an upright alpha, U+03B1, is 2 pixels narrower here; STIX's alpha is smaller)
    assert plain.shape == math.shape
    assert plain.sum() == pytest.approx(math.sum(), rel=0.005)
    assert np.corrcoef(plain.ravel(), math.ravel())[0, 1] > 0.95


def test_heatmap_writes_the_italic_alpha_without_mathtext(tmp_path, math_calls):
    data = cdplot.datasets.load("demsar2006")
    ax = apv_heatmap(cdplot.compare(data, test="wilcoxon", correction="holm"))
    cbar_ax = ax.collections[0].colorbar.ax
    labels = [t for t in cbar_ax.get_yticklabels() if ITALIC_ALPHA in t.get_text()]
    assert [t.get_text() for t in labels] == [f"{ITALIC_ALPHA} = 0.05"]
    rule = (
        "(\N{THIN SPACE}\N{LESS-THAN OR EQUAL TO}\N{THIN SPACE}" + ITALIC_ALPHA + ": significant)"
    )
    assert cbar_ax.get_ylabel().endswith("\n" + rule)
    for ext in ("pdf", "png", "svg"):
        ax.figure.savefig(tmp_path / f"apv.{ext}")
    assert math_calls == []
    # the regular face (the bold one would be for significant p-values), no oblique face
    assert pdf_fonts((tmp_path / "apv.pdf").read_bytes()) == {"cdplotSans"}


def test_heatmap_with_changed_fonts_keeps_the_mathtext_alpha(math_calls):
    data = cdplot.datasets.load("demsar2006")
    with mpl.rc_context({"font.family": "serif"}):
        ax = apv_heatmap(cdplot.compare(data, test="wilcoxon", correction="holm"))
        cbar_ax = ax.collections[0].colorbar.ax
        assert r"$\alpha$ = 0.05" in [t.get_text() for t in cbar_ax.get_yticklabels()]
        assert cbar_ax.get_ylabel().endswith("\n" + r"($\leq\alpha$: significant)")
        ax.figure.canvas.draw()
    assert r"$\alpha$ = 0.05" in math_calls


def test_thin_space_spaces_the_rule_as_mathtext_does():
    # mathtext puts 0.2 of an "m" of DejaVu Sans Oblique on each side of a relation
    # (matplotlib's _mathtext.Parser.symbol); the thin space U+2009 is 0.2 em
    oblique = TTFont(MPL_FONTS / "DejaVuSans-Oblique.ttf")
    bundled = TTFont(_style.FONT_DIR / "cdplotSans.ttf")
    em = oblique["head"].unitsPerEm
    relation_space = 0.2 * oblique["hmtx"][oblique.getBestCmap()[ord("m")]][0] / em
    thin = bundled["hmtx"][bundled.getBestCmap()[0x2009]][0] / bundled["head"].unitsPerEm
    assert thin == pytest.approx(relation_space, abs=0.006)  # em: 0.1997 vs 0.1948
    plain = _ink(
        "(\N{THIN SPACE}\N{LESS-THAN OR EQUAL TO}\N{THIN SPACE}" + ITALIC_ALPHA + ":",
        **_style.alpha_font(ITALIC_ALPHA),
    )
    math = _ink(r"($\leq\alpha$:")
    # within a pixel at 100 dpi (12 pt): 2 x 0.005 em of spacing, and mathtext's own layout
    assert abs(plain.shape[1] - math.shape[1]) <= 3  # pixels at 300 dpi
    assert plain.sum() == pytest.approx(math.sum(), rel=0.01)


def test_kerning_and_ligatures_are_dejavu_sans():
    # matplotlib lays text out with libraqm (GPOS kerning, GSUB ligatures): every pair of
    # letters, digits and common signs lands where it lands in DejaVu Sans, glyph for
    # glyph, in the faces a default figure embeds (the regular and bold ones)
    from matplotlib._text_helpers import layout
    from matplotlib.ft2font import FT2Font

    chars = [chr(c) for c in range(0x21, 0x7F) if chr(c).isalnum() or chr(c) in ".,:;-()='"]
    text = "".join(a + b + " " for a in chars for b in chars)
    for face in ("cdplotSans.ttf", "cdplotSans-Bold.ttf"):
        source = FACES[face][0]
        fonts = [FT2Font(str(MPL_FONTS / source)), FT2Font(str(_style.FONT_DIR / face))]
        for font in fonts:
            font.set_size(100, 72)
        ours, theirs = ([(round(i.x, 6), i.char) for i in layout(text, f)] for f in fonts[::-1])
        assert ours == theirs, face

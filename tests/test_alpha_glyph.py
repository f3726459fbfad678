"""The italic alpha U+1D6FC of the bundled fonts: cdplot's figures write it instead of
the mathtext ``$\\alpha$`` under matplotlib's default font (no mathtext parser, one
embedded face), and it is the very glyph mathtext draws for ``$\\alpha$``."""

from __future__ import annotations

import re
from pathlib import Path

import matplotlib as mpl
import numpy as np
import pandas as pd
import pytest
from matplotlib import mathtext
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

import cdplot
from cdplot.plotting import _style, apv_heatmap, cd_diagram

fontTools = pytest.importorskip("fontTools")
from fontTools.ttLib import TTFont  # noqa: E402

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


def _pdf_fonts(path: Path) -> set[str]:
    """Base font names embedded in a PDF, without the subset prefix."""
    names = re.findall(rb"/BaseFont\s*/([A-Za-z0-9+\-]+)", path.read_bytes())
    return {n.decode().split("+", 1)[-1] for n in names}


def test_default_cd_diagram_writes_the_italic_alpha_without_mathtext(result, math_calls, tmp_path):
    ax = cd_diagram(result)
    title = next(t for t in ax.texts if t.get_gid() == "cd-title")
    assert title.get_text().endswith(f"Holm, {ITALIC_ALPHA} = 0.05")
    for ext in ("pdf", "png", "svg", "eps"):
        ax.figure.savefig(tmp_path / f"cd.{ext}")
    assert math_calls == []
    assert _pdf_fonts(tmp_path / "cd.pdf") == {"cdplotSans"}


def test_the_mathtext_probe_sees_mathtext(result, math_calls, tmp_path):
    # the probe above can fail: a title with mathtext is seen
    cd_diagram(result, title=r"$\alpha$ = 0.05").figure.savefig(tmp_path / "cd.pdf")
    assert r"$\alpha$ = 0.05" in math_calls
    assert "cdplotSans-Oblique" in _pdf_fonts(tmp_path / "cd.pdf")


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
    assert not any("cdplotSans" in f for f in _pdf_fonts(tmp_path / "cd.pdf"))


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


def test_heatmap_alpha_tick_is_the_italic_alpha(tmp_path, math_calls):
    data = cdplot.datasets.load("demsar2006")
    ax = apv_heatmap(cdplot.compare(data, test="wilcoxon", correction="holm"))
    cbar_ax = ax.collections[0].colorbar.ax
    labels = [t for t in cbar_ax.get_yticklabels() if ITALIC_ALPHA in t.get_text()]
    assert [t.get_text() for t in labels] == [f"{ITALIC_ALPHA} = 0.05"]
    ax.figure.savefig(tmp_path / "apv.png")
    assert not any(ITALIC_ALPHA in s or r"$\alpha$ =" in s for s in math_calls)

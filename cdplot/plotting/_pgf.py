"""PGF output that ``\\input``s into a pdflatex, xelatex or lualatex paper.

matplotlib's PGF backend hands text to LaTeX as it is, so an algorithm name such as
``rf_500`` or ``k-NN & PCA`` breaks the paper (or ``savefig`` itself), and it needs the
TeX engine of ``pgf.texsystem`` (xelatex by default) to measure text. When a figure made
by cdplot is saved as PGF (:meth:`~cdplot.plotting.CDFigure.savefig`):

- :func:`check_pgf_engine` picks an installed engine (the configured one first, then
  xelatex, lualatex, pdflatex) or refuses, before anything is written;
- :func:`pgf_escaped` escapes every text of the figure for LaTeX while it is saved
  (:func:`latex_escape`), so that the paper shows exactly what the PNG or PDF shows.
  Mathtext (``$...$``, parsed as matplotlib parses it) is kept as math, so cdplot's
  ``$\\alpha$`` is typeset by LaTeX in the document's math font; so is the italic
  alpha U+1D6FC that cdplot writes instead under matplotlib's default font.
"""

from __future__ import annotations

import contextlib
import os
import shutil
from collections.abc import Iterator
from typing import Any

import matplotlib as mpl
from matplotlib.collections import Collection
from matplotlib.figure import Figure
from matplotlib.text import Text
from matplotlib.ticker import Formatter

from .._errors import CdplotInputError

__all__ = [
    "PGF_ENGINES",
    "PgfSafeText",
    "check_pgf_engine",
    "is_pgf",
    "latex_escape",
    "pgf_escaped",
    "save_format",
]

#: TeX engines matplotlib's PGF backend can use, in the order cdplot tries them.
PGF_ENGINES = ("xelatex", "lualatex", "pdflatex")

#: Characters that LaTeX reads as commands, and what prints them. The en dash and the
#: ellipsis become their ASCII LaTeX spellings, which every engine and font has.
_LATEX_SPECIAL = {
    "\\": r"\textbackslash{}",
    "&": r"\&",
    "%": r"\%",
    # not \$: matplotlib turns \$ back into $ in text that is not mathtext
    "$": r"\textdollar{}",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
    "\N{EN DASH}": "--",
    "\N{HORIZONTAL ELLIPSIS}": r"\ldots{}",
    "\N{THIN SPACE}": r"\,",
    # symbols cdplot's own figures write as Unicode (P ≥ 0.95, α = 0.05, mean ± s.e.):
    # typeset as math, so any engine (pdflatex included) prints them
    "\N{GREATER-THAN OR EQUAL TO}": r"$\geq$",
    "\N{LESS-THAN OR EQUAL TO}": r"$\leq$",
    "\N{GREEK SMALL LETTER ALPHA}": r"$\alpha$",
    # the italic alpha of cdplot's titles under matplotlib's default font
    "\N{MATHEMATICAL ITALIC SMALL ALPHA}": r"$\alpha$",
    "\N{PLUS-MINUS SIGN}": r"$\pm$",
    "\N{MULTIPLICATION SIGN}": r"$\times$",
    "\N{MINUS SIGN}": r"$-$",
}


def _escape_plain(text: str) -> str:
    return "".join(_LATEX_SPECIAL.get(c, c) for c in text)


def _is_math(text: str) -> bool:
    """matplotlib's rule (``cbook.is_math_text``): an even, nonzero number of ``$``."""
    dollars = text.count("$") - text.count(r"\$")
    return dollars > 0 and dollars % 2 == 0


def latex_escape(text: str) -> str:
    r"""LaTeX source that prints ``text`` as matplotlib draws it.

    Outside mathtext the special characters ``\ & % $ # _ { } ~ ^`` are escaped (and
    the en dash and ellipsis spelled ``--`` and ``\ldots{}``, and ≥, ≤, α, 𝛼 (U+1D6FC),
    ±, ×, − set as math so that pdflatex prints them); mathtext segments
    ``$...$`` are kept, as matplotlib keeps them, so they are typeset as math. A text
    with an odd number of ``$`` is not mathtext for matplotlib, and is escaped whole.

    Parameters
    ----------
    text : str
        A figure text.

    Returns
    -------
    str

    Examples
    --------
    >>> latex_escape("k-NN & PCA, rf_500")
    'k-NN \\& PCA, rf\\_500'
    >>> latex_escape(r"Holm, $\alpha$ = 0.05, 50%")
    'Holm, $\\alpha$ = 0.05, 50\\%'
    >>> latex_escape("$baseline")
    '\\textdollar{}baseline'
    """
    if not _is_math(text):
        return _escape_plain(text.replace(r"\$", "$"))
    out = []
    math = False
    segment = ""
    i = 0
    while i < len(text):
        if text.startswith(r"\$", i) and not math:
            segment += "$"
            i += 2
            continue
        if text[i] == "$" and not (math and text[i - 1] == "\\"):
            out.append("$" + segment + "$" if math else _escape_plain(segment))
            segment = ""
            math = not math
        else:
            segment += text[i]
        i += 1
    out.append(_escape_plain(segment))
    return "".join(out)


def check_pgf_engine(texsystem: str | None = None) -> str:
    """The TeX engine to save PGF with: the configured one if installed, else another.

    Tries ``texsystem`` (default: :rc:`pgf.texsystem`, xelatex unless changed), then
    xelatex, lualatex and pdflatex, and returns the first found on the ``PATH``.

    Parameters
    ----------
    texsystem : str, optional
        The preferred engine.

    Returns
    -------
    str
        An engine name for :rc:`pgf.texsystem`.

    Raises
    ------
    CdplotInputError
        If no TeX engine is installed; nothing has been written then.

    Examples
    --------
    >>> check_pgf_engine() in PGF_ENGINES  # doctest: +SKIP
    True
    """
    preferred = texsystem or str(mpl.rcParams["pgf.texsystem"])
    for engine in (preferred, *[e for e in PGF_ENGINES if e != preferred]):
        if shutil.which(engine):
            return engine
    raise CdplotInputError(
        "saving PGF needs a TeX engine (xelatex, lualatex or pdflatex) on the PATH, and none "
        "was found; install one (e.g. Debian: apt install texlive-latex-base "
        "texlive-latex-recommended texlive-pictures) or save as PDF or SVG, which "
        "\\includegraphics takes as well."
    )


def save_format(fname: Any, kwargs: dict[str, Any]) -> str:
    """The format ``savefig(fname, **kwargs)`` writes: by format, backend or extension."""
    fmt = kwargs.get("format")
    if fmt is not None:
        return str(fmt).lower()
    if str(kwargs.get("backend") or "").lower() == "pgf":
        return "pgf"
    if isinstance(fname, (str, os.PathLike)):
        ext = os.path.splitext(os.fspath(fname))[1]
        if ext:
            return ext[1:].lower()
    return str(mpl.rcParams["savefig.format"]).lower()


def is_pgf(fname: Any, kwargs: dict[str, Any]) -> bool:
    """Whether ``savefig(fname, **kwargs)`` writes PGF (by format, backend or extension)."""
    return save_format(fname, kwargs) == "pgf"


def _is_pgf_renderer(renderer: Any) -> bool:
    # savefig draws through a MixedModeRenderer around the backend's own renderer
    inner = getattr(renderer, "_renderer", None)
    return any(type(r).__module__ == "matplotlib.backends.backend_pgf" for r in (renderer, inner))


class PgfSafeText(Text):
    """A Text that LaTeX-escapes itself (:func:`latex_escape`) for the PGF backend.

    cdplot draws its CD diagram's texts as these, so a diagram drawn into a figure of
    the user's own (``cd_diagram(res, ax=ax)``) saves as PGF with its names escaped
    too; other backends draw the text as it is.
    """

    @contextlib.contextmanager
    def _escaped_for(self, renderer: Any) -> Iterator[None]:
        if not _is_pgf_renderer(renderer) or getattr(self, "_escaping", False):
            yield
            return
        text = self.get_text()
        self._text = latex_escape(text)
        self._escaping = True
        try:
            yield
        finally:
            self._text = text
            self._escaping = False

    def draw(self, renderer: Any) -> None:
        with self._escaped_for(renderer):
            super().draw(renderer)

    def get_window_extent(self, renderer: Any = None, dpi: Any = None) -> Any:
        # matplotlib measures with the given renderer, else the one it last used
        current = renderer if renderer is not None else getattr(self, "_renderer", None)
        with self._escaped_for(current):
            return super().get_window_extent(renderer, dpi)


class _EscapingFormatter(Formatter):
    """Tick labels of another formatter, LaTeX-escaped (tick labels are re-made at draw)."""

    def __init__(self, inner: Formatter):
        self.inner = inner

    def __call__(self, x: Any, pos: Any = None) -> str:
        return latex_escape(self.inner(x, pos))

    def format_ticks(self, values: Any) -> list[str]:
        return [latex_escape(s) for s in self.inner.format_ticks(values)]

    def get_offset(self) -> str:
        return latex_escape(self.inner.get_offset())


@contextlib.contextmanager
def pgf_escaped(fig: Figure) -> Iterator[None]:
    """Within this block every text of ``fig`` is LaTeX-escaped (:func:`latex_escape`).

    Rasterized artists (a colour bar's many colours) are drawn as vectors meanwhile,
    so the PGF file is one file, with no PNG beside it to copy into the paper.
    Texts, tick formatters and rasterization are restored afterwards, so the figure
    draws as before.
    """
    texts = [(t, t.get_text()) for t in fig.findobj(Text) if not isinstance(t, PgfSafeText)]
    rasterized = [a for a in fig.findobj() if a.get_rasterized()]
    # drawn as vectors, a colour bar's quads get hairline seams unless edged in their colour
    edges = [(a, a.get_edgecolor()) for a in rasterized if isinstance(a, Collection)]
    axes = [
        (axis, axis.get_major_formatter(), axis.get_minor_formatter(),
         axis.isDefault_majfmt, axis.isDefault_minfmt)
        for ax in fig.get_axes()
        for axis in (ax.xaxis, ax.yaxis)
    ]  # fmt: skip
    try:
        for text, old in texts:
            text.set_text(latex_escape(old))
        for axis, major, minor, _, _ in axes:
            axis.set_major_formatter(_EscapingFormatter(major))
            axis.set_minor_formatter(_EscapingFormatter(minor))
        for artist in rasterized:
            artist.set_rasterized(False)
        for artist, _ in edges:
            artist.set_edgecolor("face")
        yield
    finally:
        for artist in rasterized:
            artist.set_rasterized(True)
        for artist, color in edges:
            artist.set_edgecolor(color)
        for text, old in texts:
            text.set_text(old)
        for axis, major, minor, default_major, default_minor in axes:
            axis.set_major_formatter(major)
            axis.set_minor_formatter(minor)
            axis.isDefault_majfmt, axis.isDefault_minfmt = default_major, default_minor

"""The figure class of cdplot's figure-level functions, and how a new figure is made."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator
from typing import Any

import matplotlib as mpl
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.text import Text

from . import _pgf, _style

__all__ = ["CDFigure", "new_axes", "new_figure"]


class CDFigure(Figure):
    r"""A :class:`~matplotlib.figure.Figure` that saves files ready for a paper.

    :meth:`savefig` applies :data:`cdplot.plotting._style.SAVE_RC`
    (``pdf.fonttype = ps.fonttype = 42``), so PDF and EPS files carry real
    TrueType fonts rather than Type 3 fonts; with matplotlib's default font the
    embedded font is "cdplot Sans", a bundled cut of DejaVu Sans with the same
    glyphs that is much cheaper to embed. Saving PGF picks an installed TeX
    engine (:func:`~cdplot.plotting._pgf.check_pgf_engine`; none installed:
    :class:`~cdplot.CdplotInputError` before anything is written) and escapes
    every text for LaTeX (:func:`~cdplot.plotting._pgf.latex_escape`), so the
    file ``\input``s into a pdflatex, xelatex or lualatex document. Everything
    else is a plain Figure.
    """

    def savefig(self, fname: Any, *args: Any, **kwargs: Any) -> None:
        """Save the figure; see :meth:`matplotlib.figure.Figure.savefig`."""
        with mpl.rc_context(_style.SAVE_RC):
            fmt = _pgf.save_format(fname, kwargs)
            if fmt in ("pdf", "ps", "eps"):
                with self._bundled_font():
                    super().savefig(fname, *args, **kwargs)
                return
            if fmt != "pgf":
                super().savefig(fname, *args, **kwargs)
                return
            engine = _pgf.check_pgf_engine()
            with mpl.rc_context({"pgf.texsystem": engine}), _pgf.pgf_escaped(self):
                super().savefig(fname, *args, **kwargs)

    @contextlib.contextmanager
    def _bundled_font(self) -> Iterator[None]:
        """Embed the bundled cut of DejaVu Sans (:func:`_style.embedding_rc`) meanwhile."""
        artists = self.findobj(Text)
        texts = [t.get_text() for t in artists]
        for ax in self.get_axes():  # tick labels are made when drawn
            for axis in (ax.xaxis, ax.yaxis):
                texts += [str(s) for s in getattr(axis.get_major_formatter(), "seq", ())]
        rc, math = _style.embedding_rc(texts)
        # a text's math font set is fixed when it is made; switch it, then switch back
        switched = [t for t in artists if t.get_math_fontfamily() == "dejavusans"] if math else []
        try:
            for text in switched:
                text.set_math_fontfamily("custom")
            with mpl.rc_context(rc):
                yield
        finally:
            for text in switched:
                text.set_math_fontfamily("dejavusans")


def new_figure(width: float, height: float, *, pyplot: bool | None = None) -> Figure:
    """A :class:`CDFigure` of this size (inches).

    Managed by pyplot if the user works with pyplot (so that ``plt.show()`` and
    notebooks display it), else a bare figure on an Agg canvas: no GUI, no pyplot
    import. ``pyplot`` says whether pyplot is in use; by default, whether it has
    been imported (callers that import seaborn, which imports pyplot, look first).
    """
    if pyplot is None:
        pyplot = "matplotlib.pyplot" in sys.modules
    if pyplot:
        import matplotlib.pyplot as plt

        return plt.figure(figsize=(width, height), FigureClass=CDFigure)
    fig = CDFigure(figsize=(width, height))
    FigureCanvasAgg(fig)
    return fig


def new_axes(width: float, height: float, rect: tuple[float, float, float, float]) -> Axes:
    """Axes at ``rect`` (figure fractions) of a new ``width`` x ``height`` inch figure.

    The figure is a :func:`new_figure` (managed by pyplot when the user has imported it);
    it saves with TrueType fonts.
    """
    return new_figure(width, height).add_axes(rect)

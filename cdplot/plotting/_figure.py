"""The figure class of cdplot's figure-level functions, and how a new figure is made."""

from __future__ import annotations

import sys
from typing import Any

import matplotlib as mpl
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from . import _pgf, _style

__all__ = ["CDFigure", "new_figure"]


class CDFigure(Figure):
    r"""A :class:`~matplotlib.figure.Figure` that saves files ready for a paper.

    :meth:`savefig` applies :data:`cdplot.plotting._style.SAVE_RC`
    (``pdf.fonttype = ps.fonttype = 42``), so PDF and EPS files carry real
    TrueType fonts rather than Type 3 fonts. Saving PGF picks an installed TeX
    engine (:func:`~cdplot.plotting._pgf.check_pgf_engine`; none installed:
    :class:`~cdplot.CdplotInputError` before anything is written) and escapes
    every text for LaTeX (:func:`~cdplot.plotting._pgf.latex_escape`), so the
    file ``\input``s into a pdflatex, xelatex or lualatex document. Everything
    else is a plain Figure.
    """

    def savefig(self, fname: Any, *args: Any, **kwargs: Any) -> None:
        """Save the figure; see :meth:`matplotlib.figure.Figure.savefig`."""
        with mpl.rc_context(_style.SAVE_RC):
            if not _pgf.is_pgf(fname, kwargs):
                super().savefig(fname, *args, **kwargs)
                return
            engine = _pgf.check_pgf_engine()
            with mpl.rc_context({"pgf.texsystem": engine}), _pgf.pgf_escaped(self):
                super().savefig(fname, *args, **kwargs)


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

"""A new figure for the Axes-level functions of the Bayesian, pool and MCM figures."""

from __future__ import annotations

from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg

from ._cd import CDFigure
from ._figure import use_pyplot

__all__ = ["new_axes"]


def new_axes(width: float, height: float, rect: tuple[float, float, float, float]) -> Axes:
    """Axes at ``rect`` (figure fractions) of a new ``width`` x ``height`` inch figure.

    The figure is managed by pyplot when the user has imported pyplot or works in
    IPython or Jupyter (so notebooks and ``plt.show()`` display it), else a bare figure
    (:func:`._figure.use_pyplot`); it saves with TrueType fonts.
    """
    if use_pyplot():
        import matplotlib.pyplot as plt

        fig = plt.figure(figsize=(width, height), FigureClass=CDFigure)
    else:
        fig = CDFigure(figsize=(width, height))
        FigureCanvasAgg(fig)
    return fig.add_axes(rect)

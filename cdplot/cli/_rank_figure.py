"""The rank plot of ``cdplot compare -o``: its panels (``--columns``) and a page-height limit.

``--columns N`` is :func:`cdplot.rank_plot`'s ``columns=``. ``--max-height INCHES`` chooses
it: the fewest side-by-side panels whose figure is at most that tall (a long board on one
page). Both ask for the rank plot: with ``--figure auto`` they choose it, with another
figure they are refused.
"""

from __future__ import annotations

import argparse
import math
import sys
from typing import Any

from .._errors import CdplotInputError

__all__ = ["RANK_FLAGS", "add_rank_plot_options", "check_rank_plot_options", "rank_figure"]

#: Largest page height accepted (a typo guard, as for --width).
MAX_HEIGHT = 100.0


def add_rank_plot_options(parser: argparse.ArgumentParser) -> None:
    """``--columns N`` and ``--max-height INCHES`` (one of them)."""
    group = parser.add_argument_group("rank plot (--figure ranks)")
    one = group.add_mutually_exclusive_group()
    one.add_argument(
        "--columns",
        type=int,
        metavar="N",
        help="side-by-side panels the rows of the rank plot wrap into (default 1)",
    )
    one.add_argument(
        "--max-height",
        type=float,
        metavar="INCHES",
        help="the rank plot at most this tall: as few panels as that needs (e.g. 9 for a "
        "page); chooses --columns",
    )


def _given(args: argparse.Namespace) -> str | None:
    """The rank-plot flag given (``--columns 2``), or None."""
    if getattr(args, "columns", None) is not None:
        return f"--columns {args.columns}"
    if getattr(args, "max_height", None) is not None:
        return f"--max-height {args.max_height:g}"
    return None


#: ``args`` attributes of the rank-plot options (for the figure choice).
RANK_FLAGS = ("columns", "max_height")


def check_rank_plot_options(args: argparse.Namespace) -> None:
    """Before any input is read: sizes in range, a rank plot to apply them to."""
    flag = _given(args)
    if flag is None:
        return
    if args.columns is not None and args.columns < 1:
        raise CdplotInputError(
            f"--columns must be a whole number of panels, at least 1, got {args.columns}."
        )
    height = args.max_height
    if height is not None and (not math.isfinite(height) or height <= 0):
        raise CdplotInputError(f"--max-height must be a positive number of inches, got {height:g}.")
    if height is not None and height > MAX_HEIGHT:
        raise CdplotInputError(
            f"--max-height {height:g} is too large; at most {MAX_HEIGHT:g} inches."
        )
    if not args.output:
        raise CdplotInputError(f"{flag} applies to the rank plot of -o; add -o FIGURE or drop it.")
    if args.figure not in ("auto", "ranks"):
        raise CdplotInputError(
            f"{flag} applies to the rank plot, not --figure {args.figure}; use --figure ranks "
            "(or leave out --figure), or drop it."
        )


def _discard(fig: Any) -> None:
    """Close a figure drawn only to be measured (pyplot keeps figures it made)."""
    if "matplotlib.pyplot" in sys.modules:
        sys.modules["matplotlib.pyplot"].close(fig)


def _row_pitch(fig: Any) -> float:
    """Inches between two rows of a one-panel rank plot, from its name texts."""
    ys = sorted(
        {
            round(t.get_transform().transform(t.get_position())[1] / fig.dpi, 6)
            for ax in fig.axes
            for t in ax.texts
            if str(t.get_gid() or "").startswith("rank-name-")
        }
    )
    steps = sorted(b - a for a, b in zip(ys, ys[1:], strict=False) if b > a)
    return steps[len(steps) // 2] if steps else 0.0


def _fewest_panels(k: int, height: float, pitch: float, limit: float) -> int:
    """Fewest panels for which a one-panel height of ``height`` shrinks to ``limit``."""
    fixed = height - pitch * k
    for columns in range(1, k + 1):
        if fixed + pitch * math.ceil(k / columns) <= limit + 1e-9:
            return columns
    return k


def rank_figure(result: Any, options: dict[str, Any], args: argparse.Namespace) -> Any:
    """The rank plot's figure with ``--columns``, or with the fewest panels under
    ``--max-height``.

    Parameters
    ----------
    result : ComparisonResult
        The comparison drawn.
    options : dict
        Other keywords of :func:`cdplot.plotting._choose.plot_result` (width, title, ...).
    args : argparse.Namespace
        The parsed command line (``columns``, ``max_height``).

    Returns
    -------
    matplotlib.figure.Figure

    Raises
    ------
    CdplotInputError
        For more panels than algorithms, or a height no number of panels reaches at the
        width.
    """
    from ..plotting._choose import plot_result

    k = result.n_algorithms
    columns, limit = getattr(args, "columns", None), getattr(args, "max_height", None)
    if columns is not None and columns > k:
        raise CdplotInputError(
            f"--columns {columns} asks for more panels than there are algorithms ({k}); "
            f"give at most --columns {k}."
        )

    def draw(panels: int) -> Any:
        return plot_result(result, "ranks", columns=panels, **options).get_figure(root=True)

    try:
        fig = draw(columns or 1)
    except CdplotInputError as exc:
        if columns is None or "panel" not in str(exc):
            raise
        raise CdplotInputError(
            f"--columns {columns} makes the rank plot's panels too narrow for the names and "
            "the rank axis at this width; give a larger --width (or --column double), or "
            "fewer --columns."
        ) from None
    if limit is None or fig.get_figheight() <= limit:
        return fig
    tallest, pitch = fig.get_figheight(), _row_pitch(fig)
    floor = tallest - pitch * (k - 1)  # one row per panel: the title, header and key
    if floor > limit:
        _discard(fig)
        raise CdplotInputError(
            f"--max-height {limit:g} is less than the rank plot's title, header and key "
            f"need ({floor:.2f} in with one row); give a larger --max-height."
        )
    panels = _fewest_panels(k, tallest, pitch, limit)
    while True:
        _discard(fig)
        try:
            fig = draw(panels)
        except CdplotInputError:
            raise CdplotInputError(
                f"--max-height {limit:g} needs the rank plot of {k} algorithms in {panels} "
                f"side-by-side panels, which do not fit its width; give a larger --width (or "
                f"--column double), or a larger --max-height."
            ) from None
        if fig.get_figheight() <= limit or panels >= k:
            break
        panels += 1
    if fig.get_figheight() > limit:
        raise CdplotInputError(
            f"the rank plot of {k} algorithms is at least {fig.get_figheight():.2f} in tall "
            f"(one row per panel; {tallest:.2f} in in one panel); give --max-height "
            f"{math.ceil(fig.get_figheight() * 10) / 10:g} or more."
        )
    return fig

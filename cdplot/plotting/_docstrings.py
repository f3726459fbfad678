"""Parameter descriptions shared by the docstrings of the plotting functions."""

from __future__ import annotations

__all__ = ["DOCS"]

DOCS: dict[str, str] = {
    "reverse": """reverse : bool
        If False (default, as in Demšar 2006) the best (lowest) ranks, or the
        best mean scores on a mean-score axis, are on the right; True puts
        them on the left.""",
    "highlight": """highlight : str, sequence of str or mapping, optional
        Algorithms to highlight (coloured line, bold coloured name), by name
        or by the label given with ``compare(labels=...)``. A mapping gives
        their colours; otherwise they take the palette's colours in order.""",
    "palette": """palette : str, sequence or mapping, optional
        Colour every algorithm: ``"okabe-ito"`` (alias ``"colorblind"``, the
        colourblind-safe palette of Okabe & Ito, seven colours without yellow
        but with black), a sequence of colours (cycled over the algorithms in
        input order; colours repeat when there are fewer colours than
        algorithms) or a mapping algorithm -> colour. Default: black, as in
        Demšar's figures.""",
    "group_colors": """group_colors : bool or sequence of colours
        Colour the group bars: True takes the colours of the colourblind-safe
        palette that no algorithm uses, a sequence gives the colours (cycled).
        No bar takes the colour of an algorithm; once the palette's free
        colours are used up, greys follow. Default: black bars.""",
    "footnote": """footnote : bool or str, default True
        The footnote listing pairs that are not significantly different but
        that no bar joins ("2 further pairs are not significantly different but
        not joined by a bar: A vs B, C vs D."). False: no footnote. A string
        rewords it, as a template with the fields ``{n}`` (number of pairs) and
        ``{pairs}`` (the first three pairs, "and 2 more" for the rest).""",
    "rank_format": """rank_format : str or callable, optional
        Format of the numbers printed beside the names, the average ranks (or
        the mean scores on a mean-score axis): a format string or a function
        of the number returning a string. Default ``"{:.2f}"`` for ranks; for
        mean scores as many decimals as give the critical difference three
        significant digits (4 for a CD of 0.0185).""",
    "long_names": """long_names : {"wrap", "truncate"}
        What to do with names wider than the space beside the axis: wrap them
        onto up to three lines (default; only at spaces, hyphens, underscores
        and case changes, never inside a word: a name that still does not fit
        is cut as with "truncate"), or cut them to one line ending in an
        ellipsis and a footnote number, with the full names in footnotes.""",
    "max_name_width": """max_name_width : float, optional
        Maximum width of a name in inches (default: what the width allows
        while keeping the axis at least a quarter of the width).""",
    "fontsize": """fontsize : float, optional
        Font size of the names in points (default 8 below 5 inches of width,
        else 9); ranks, ticks and footnotes are set a little smaller.""",
    "kws": """text_kws : dict, optional
        Properties of the name texts (:class:`matplotlib.text.Text`), e.g.
        ``fontfamily`` or ``fontsize``.
    line_kws : dict, optional
        Properties of the algorithms' lines (:class:`matplotlib.lines.Line2D`).
    bar_kws : dict, optional
        Properties of the group bars and of the CD interval
        (:class:`matplotlib.lines.Line2D`), e.g. ``lw`` or ``color``.""",
}

"""Where the frontier figure's model labels go: pure geometry, no matplotlib.

Each label is a box of measured size placed near its point without overlapping another
label, another point or the edge of the Axes: candidate positions around the point
(right, left, above, below, then the diagonals) at growing distances are tried in turn,
the labels of the frontier's models first. A label placed away from its point gets a
leader line; a label that finds no room is left out (the caller says how many).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

__all__ = ["LabelBox", "place_labels"]

#: distances (in units of the gap) of the candidate positions from the point's marker
RINGS = (1.0, 2.5, 4.5, 7.0, 10.0, 14.0, 19.0)
#: a label farther than this many gaps from its marker gets a leader line
LEADER_FROM = 2.0


@dataclass(frozen=True)
class LabelBox:
    """A placed label: lower-left corner and size (inches), and whether it needs a
    leader line to its point."""

    index: int
    x: float
    y: float
    width: float
    height: float
    leader: bool


def _candidates(
    px: float, py: float, w: float, h: float, r: float, gap: float
) -> list[tuple[float, float, bool]]:
    """Lower-left corners around the point (right, left, above, below, diagonals)."""
    out = []
    for ring in RINGS:
        d = r + ring * gap
        spots = (
            (px + d, py - h / 2),
            (px - d - w, py - h / 2),
            (px - w / 2, py + d),
            (px - w / 2, py - d - h),
            (px + d * 0.7, py + d * 0.7),
            (px - d * 0.7 - w, py + d * 0.7),
            (px + d * 0.7, py - d * 0.7 - h),
            (px - d * 0.7 - w, py - d * 0.7 - h),
        )
        out.extend((x, y, ring > LEADER_FROM) for x, y in spots)
    return out


def place_labels(
    points: np.ndarray,
    sizes: Sequence[tuple[float, float]],
    order: Sequence[int],
    area: tuple[float, float, float, float],
    *,
    radius: float,
    gap: float,
    obstacles: Sequence[tuple[float, float, float, float]] = (),
) -> list[LabelBox | None]:
    """Place a label beside each point without overlaps.

    Parameters
    ----------
    points : numpy.ndarray
        ``k x 2`` positions of the points (inches).
    sizes : sequence of (width, height)
        Each label's size (inches).
    order : sequence of int
        Which labels are placed first (the others get what room is left).
    area : (x0, y0, x1, y1)
        The box every label must stay inside (inches).
    radius : float
        Half the size of a marker (inches): no label covers a marker.
    gap : float
        Space between a marker and its label (inches).
    obstacles : sequence of (x0, y0, x1, y1)
        Further boxes no label may cover (the legend), in inches.

    Returns
    -------
    list of LabelBox or None
        One per point, in the points' order; None where no room was found.

    Examples
    --------
    >>> import numpy as np
    >>> boxes = place_labels(np.array([[1.0, 1.0], [1.2, 1.0]]), [(0.3, 0.1)] * 2, [0, 1],
    ...                      (0, 0, 3, 2), radius=0.03, gap=0.02)
    >>> [(round(b.x, 2), round(b.y, 2)) for b in boxes]
    [(0.65, 0.95), (1.25, 0.95)]
    """
    points = np.asarray(points, dtype=float).reshape(-1, 2)
    taken = [(px - radius, py - radius, px + radius, py + radius) for px, py in points.tolist()] + [
        tuple(map(float, b)) for b in obstacles
    ]
    x0, y0, x1, y1 = area
    out: list[LabelBox | None] = [None] * len(points)
    for i in order:
        px, py = points[i]
        w, h = sizes[i]
        boxes = np.array(taken)
        for x, y, leader in _candidates(px, py, w, h, radius, gap):
            if x < x0 or y < y0 or x + w > x1 or y + h > y1:
                continue
            clear = (
                (boxes[:, 0] >= x + w)
                | (boxes[:, 2] <= x)
                | (boxes[:, 1] >= y + h)
                | (boxes[:, 3] <= y)
            )
            if clear.all():
                out[i] = LabelBox(int(i), float(x), float(y), float(w), float(h), leader)
                taken.append((x, y, x + w, y + h))
                break
    return out

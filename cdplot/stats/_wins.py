"""Win/tie/loss counts of every pair of algorithms (Demšar 2006, §2.2 and §3.1.4)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from .._errors import check_bool
from ._values import ValueEquality

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

__all__ = ["WinTieLossResult", "win_tie_loss"]


@dataclass(frozen=True, eq=False)
class WinTieLossResult(ValueEquality):
    """Win/tie/loss counts of every pair of algorithms over the datasets.

    Entry ``[a, b]`` of each matrix counts datasets: on how many ``a`` beats
    ``b`` (``wins``), scores exactly equal (``ties``) or ``b`` beats ``a``
    (``losses``). So ``wins + ties + losses = N`` off the diagonal,
    ``losses`` is the transpose of ``wins`` and ``ties`` is symmetric. The
    diagonal (an algorithm against itself) is 0 in all three.

    Attributes
    ----------
    wins : pandas.DataFrame
        k x k integer matrix, rows and columns in input order.
    ties : pandas.DataFrame
        k x k integer matrix of exact ties (equal scores, no tolerance).
    losses : pandas.DataFrame
        k x k integer matrix, the transpose of ``wins``.
    n_datasets : int
        Number of datasets N.
    """

    wins: pd.DataFrame
    ties: pd.DataFrame
    losses: pd.DataFrame
    n_datasets: int

    def to_frame(self) -> pd.DataFrame:
        """Tidy table: one row per ordered pair of different algorithms.

        Returns
        -------
        pandas.DataFrame
            Columns ``algorithm_1``, ``algorithm_2``, ``wins``, ``ties`` and
            ``losses`` (of ``algorithm_1`` against ``algorithm_2``).
        """
        names = list(self.wins.index)
        rows = [
            (a, b, int(self.wins.loc[a, b]), int(self.ties.loc[a, b]), int(self.losses.loc[a, b]))
            for a in names
            for b in names
            if a != b
        ]
        import pandas as pd

        return pd.DataFrame(rows, columns=["algorithm_1", "algorithm_2", "wins", "ties", "losses"])

    def table(self) -> pd.DataFrame:
        """k x k table of ``"wins/ties/losses"`` strings (row against column), for display."""
        names = list(self.wins.index)
        cells = [
            [
                ""
                if a == b
                else f"{self.wins.loc[a, b]}/{self.ties.loc[a, b]}/{self.losses.loc[a, b]}"
                for b in names
            ]
            for a in names
        ]
        import pandas as pd

        return pd.DataFrame(cells, index=self.wins.index, columns=self.wins.columns)

    def __str__(self) -> str:
        return self.table().to_string()


def win_tie_loss(scores: pd.DataFrame, *, higher_is_better: bool | None = None) -> WinTieLossResult:
    """Count, for every pair of algorithms, the datasets each one wins and the ties.

    Parameters
    ----------
    scores : pandas.DataFrame
        N x k scores, rows = datasets, columns = algorithms, no missing values.
    higher_is_better : bool, optional
        Whether the higher score wins (False for errors, losses, run times). Not given:
        the higher score wins, as in :func:`cdplot.compare`.

    Returns
    -------
    WinTieLossResult
        The ``wins``, ``ties`` and ``losses`` matrices (k x k, input order).

    Notes
    -----
    Scores are compared with exact floating-point equality, as the ranks are
    (two scores that print alike but differ in the last bit are not a tie).
    Demšar (2006) describes such matrices of pairwise counts (§2.2) and the
    sign test built on them (§3.1.4, which splits ties evenly; the counts here
    keep ties apart).

    References
    ----------
    J. Demšar, "Statistical comparisons of classifiers over multiple data
    sets", JMLR 7 (2006), §2.2 and §3.1.4.

    Examples
    --------
    >>> import pandas as pd
    >>> scores = pd.DataFrame({"A": [0.9, 0.8, 0.7], "B": [0.8, 0.8, 0.9]})
    >>> wtl = win_tie_loss(scores)
    >>> int(wtl.wins.loc["A", "B"]), int(wtl.ties.loc["A", "B"]), int(wtl.losses.loc["A", "B"])
    (1, 1, 1)
    """
    values = scores.to_numpy(dtype=float)
    higher = True if higher_is_better is None else check_bool(higher_is_better, "higher_is_better")
    oriented = values if higher else -values
    k = oriented.shape[1]
    wins = np.zeros((k, k), dtype=np.int64)
    ties = np.zeros((k, k), dtype=np.int64)
    # one algorithm at a time: memory stays O(N k), never O(N k^2)
    for i in range(k):
        column = oriented[:, i : i + 1]
        wins[i] = (column > oriented).sum(axis=0)
        ties[i] = (column == oriented).sum(axis=0)
    np.fill_diagonal(ties, 0)
    import pandas as pd

    names = pd.Index(scores.columns, name="algorithm", dtype=object)

    def frame(matrix: np.ndarray) -> pd.DataFrame:
        return pd.DataFrame(matrix, index=names, columns=names.copy())

    return WinTieLossResult(
        wins=frame(wins), ties=frame(ties), losses=frame(wins.T.copy()), n_datasets=len(values)
    )

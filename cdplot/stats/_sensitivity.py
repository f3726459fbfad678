"""How much the ranking of the algorithms depends on how the scores are aggregated.

Leaderboards disagree because they aggregate differently. :func:`aggregation_sensitivity`
ranks the algorithms under six aggregations of the same table -- average rank, mean
score, median score, win rate over pairs, interquartile mean, Bradley-Terry strength --
plus the range of average-rank positions when any one dataset is left out, and Kendall's
tau between the rankings.

Bradley-Terry: ``P(i beats j) = 1 / (1 + exp(-(s_i - s_j)))`` fitted by maximum likelihood
(Newton's method) to the win counts over datasets, a tie counting half a win to each;
the same model as R's ``BradleyTerry2::BTm(cbind(wins_i, wins_j), player1, player2)``.
The log-abilities are centred to mean zero; their covariance is the pseudo-inverse of the
Fisher information (the weighted Laplacian), which gives Wald intervals.
"""

from __future__ import annotations

import dataclasses
import warnings
from typing import TYPE_CHECKING, Any

import numpy as np

from .._errors import CdplotInputError, CdplotWarning, check_bool, renamed_keywords
from ..io import exact_mean, parse_scores
from ._options import check_confidence, check_direction_of_result
from ._ranks import rank_rows

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd
    from matplotlib.axes import Axes

__all__ = ["AGGREGATIONS", "AggregationSensitivity", "aggregation_sensitivity", "bradley_terry"]

#: the aggregations, in the order of the columns of ``to_frame()``
AGGREGATIONS = ("average_rank", "mean", "median", "win_rate", "iqm", "bradley_terry")


def _positions(values: np.ndarray, *, smaller_is_better: bool) -> np.ndarray:
    """Position 1..k of each algorithm (1 = best), equal values sharing the average."""
    v = np.asarray(values, dtype=float)
    key = v if smaller_is_better else -v
    return rank_rows(key[None, :])[0]  # rank_rows: 1 = smallest


def _win_counts(oriented: np.ndarray) -> np.ndarray:
    """``w[i, j]`` = datasets on which i beats j, plus half the datasets they tie on."""
    x = oriented
    beats = (x[:, :, None] > x[:, None, :]).sum(axis=0)
    ties = (x[:, :, None] == x[:, None, :]).sum(axis=0)
    w = beats + 0.5 * ties
    np.fill_diagonal(w, 0.0)
    return w


def _interquartile_mean(x: np.ndarray) -> np.ndarray:
    """Mean of the middle half of each column (``scipy.stats.trim_mean(x, 0.25)``)."""
    n = x.shape[0]
    cut = int(0.25 * n)
    s = np.sort(x, axis=0)
    return s[cut : n - cut].mean(axis=0)


def _mle_exists(w: np.ndarray) -> bool:
    """Zermelo/Ford: the ML strengths are finite iff the win graph is strongly connected."""
    k = w.shape[0]
    adj = w > 0
    for graph in (adj, adj.T):
        seen = np.zeros(k, dtype=bool)
        seen[0] = True
        frontier = [0]
        while frontier:
            node = frontier.pop()
            new = graph[node] & ~seen
            seen |= new
            frontier.extend(np.flatnonzero(new).tolist())
        if not seen.all():
            return False
    return True


@renamed_keywords(level="confidence")
def bradley_terry(wins: np.ndarray, *, confidence: float = 0.95) -> tuple[np.ndarray, ...]:
    """Maximum-likelihood Bradley-Terry log-abilities from a k x k matrix of win counts.

    Parameters
    ----------
    wins : array_like
        ``wins[i, j]`` = times i beat j (may be fractional: half wins for ties).
    confidence : float, default 0.95
        Confidence level of the Wald intervals (``level=`` is its deprecated old name).

    Returns
    -------
    strength, low, high, se : numpy.ndarray
        Log-abilities centred to mean zero, the interval bounds, the standard errors.
        NaN when the maximum-likelihood estimate does not exist (the win graph is not
        strongly connected: some group of algorithms never loses to the rest).

    Examples
    --------
    >>> import numpy as np
    >>> s, lo, hi, se = bradley_terry(np.array([[0, 3, 4], [1, 0, 2], [1, 2, 0.0]]))
    >>> np.round(s, 3).tolist()
    [0.832, -0.376, -0.456]
    """
    from ._special import special

    w = np.asarray(wins, dtype=float)
    k = w.shape[0]
    nan = np.full(k, np.nan)
    if not _mle_exists(w):
        return nan, nan.copy(), nan.copy(), nan.copy()
    games = w + w.T
    s = np.zeros(k)
    centre = np.full((k, k), 1.0 / k)
    for _ in range(100):
        p = special.expit(s[:, None] - s[None, :])
        grad = w.sum(axis=1) - (games * p).sum(axis=1)
        info = games * p * p.T
        lap = np.diag(info.sum(axis=1)) - info
        step = np.linalg.solve(lap + centre, grad)
        s = s + step
        s -= s.mean()
        if np.max(np.abs(step)) < 1e-13:
            break
    p = special.expit(s[:, None] - s[None, :])
    info = games * p * p.T
    lap = np.diag(info.sum(axis=1)) - info
    cov = np.linalg.inv(lap + centre) - centre  # the pseudo-inverse of the Laplacian
    se = np.sqrt(np.maximum(np.diag(cov), 0.0))
    z = float(special.ndtri(0.5 + confidence / 2.0))
    return s, s - z * se, s + z * se, se


@dataclasses.dataclass(frozen=True)
class AggregationSensitivity:
    """Rankings of the same table under several aggregations.

    Attributes
    ----------
    algorithms : list of str
        In input order.
    ranks : dict of str to numpy.ndarray
        Position (1 = best, ties share the average) of each algorithm under each
        aggregation of :data:`AGGREGATIONS`.
    values : dict of str to numpy.ndarray
        The aggregated value behind each ranking (average rank, mean score, ...,
        Bradley-Terry strength).
    lodo_low, lodo_high : numpy.ndarray
        Best and worst average-rank position each algorithm takes when any one
        dataset is left out.
    bradley_terry : pandas.DataFrame
        ``strength`` (log-ability centred to mean zero), ``low``, ``high`` (Wald
        interval at ``confidence``) and ``se``, one row per algorithm.
    kendall_tau : pandas.DataFrame
        Kendall's tau-b between every two rankings (``scipy.stats.kendalltau``).
    bt_values, tau_values : numpy.ndarray
        The numbers of ``bradley_terry`` (k x 4) and ``kendall_tau``, without pandas.
    confidence : float
        Confidence level of the Bradley-Terry intervals (``level`` is its deprecated
        old name).
    higher_is_better : bool
        How the scores were read.
    """

    algorithms: list[str]
    ranks: dict[str, np.ndarray]
    values: dict[str, np.ndarray]
    lodo_low: np.ndarray
    lodo_high: np.ndarray
    bt_values: np.ndarray
    tau_values: np.ndarray
    confidence: float
    higher_is_better: bool

    @property
    def level(self) -> float:
        """Deprecated old name of :attr:`confidence` (same value)."""
        warnings.warn(
            "AggregationSensitivity.level is deprecated; read .confidence (same value).",
            DeprecationWarning,
            stacklevel=2,
        )
        return self.confidence

    @property
    def bradley_terry(self) -> pd.DataFrame:
        """The Bradley-Terry strengths with their intervals (a pandas DataFrame)."""
        import pandas as pd

        return pd.DataFrame(
            self.bt_values,
            index=pd.Index(list(self.algorithms), dtype=object, name="algorithm"),
            columns=pd.Index(["strength", "low", "high", "se"], dtype=object),
        )

    @property
    def kendall_tau(self) -> pd.DataFrame:
        """Kendall's tau-b between every two rankings (a pandas DataFrame)."""
        import pandas as pd

        def index() -> pd.Index:
            return pd.Index(list(AGGREGATIONS), dtype=object, name="aggregation")

        return pd.DataFrame(self.tau_values, index=index(), columns=index())

    def to_frame(self) -> pd.DataFrame:
        """One row per algorithm: its position under each aggregation and the LODO range.

        Columns ``average_rank``, ``mean``, ``median``, ``win_rate``, ``iqm``,
        ``bradley_terry``, ``lodo_low``, ``lodo_high``; rows best first by average rank.
        """
        import pandas as pd

        frame = pd.DataFrame(
            {**self.ranks, "lodo_low": self.lodo_low, "lodo_high": self.lodo_high},
            index=pd.Index(self.algorithms, name="algorithm"),
        )
        order = np.lexsort((np.array(self.algorithms), self.values["average_rank"]))
        return frame.iloc[order]

    def plot(self, **kwargs: Any) -> Axes:
        """Draw the rank matrix (:func:`cdplot.aggregation_sensitivity_plot`)."""
        from ..plotting._sensitivity import aggregation_sensitivity_plot

        return aggregation_sensitivity_plot(self, **kwargs)


def _leave_one_out(ranks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Best and worst average-rank position over the tables with one dataset left out."""
    n = ranks.shape[0]
    total = ranks.sum(axis=0)
    pos = np.array(
        [_positions((total - ranks[d]) / (n - 1), smaller_is_better=True) for d in range(n)]
    )
    return pos.min(axis=0), pos.max(axis=0)


def _tau_matrix(ranks: dict[str, np.ndarray]) -> np.ndarray:
    from scipy import stats

    names = list(ranks)
    tau = np.eye(len(names))
    for a in range(len(names)):
        for b in range(a + 1, len(names)):
            x, y = ranks[names[a]], ranks[names[b]]
            if np.isnan(x).any() or np.isnan(y).any():
                value = np.nan
            else:
                with warnings.catch_warnings():  # constant rankings: tau is NaN, said so
                    warnings.simplefilter("ignore")
                    value = float(stats.kendalltau(x, y).statistic)
            tau[a, b] = tau[b, a] = value
    return tau


def _read(
    data: Any,
    higher_is_better: bool | None,
    dataset: str | None,
    algorithm: str | None,
    score: str | None,
    aggregate: str | None,
) -> tuple[np.ndarray, list[str], bool]:
    """The complete N x k scores, the algorithm names and the direction; refuses gaps."""
    from ._results import is_comparison

    if is_comparison(data):
        scores = np.asarray(data._input.scores, dtype=float)
        names = [str(a) for a in data.algorithms]
        better_high = check_direction_of_result(higher_is_better, data.higher_is_better)
    else:
        table = parse_scores(
            data,
            dataset=dataset,
            algorithm=algorithm,
            score=score,
            aggregate=aggregate,
            warn_direction=higher_is_better is None,  # compare()'s warning on error-like names
        )
        scores, names = table.scores, [str(a) for a in table.algorithms]
        better_high = True if higher_is_better is None else bool(higher_is_better)
    n, k = scores.shape
    if n < 2 or k < 2 or np.isnan(scores).any():
        raise CdplotInputError(
            f"aggregation sensitivity needs a complete table with at least 2 datasets and 2 "
            f"algorithms (got {n} x {k}, {int(np.isnan(scores).sum())} missing); pass a "
            "complete table (cdplot.compare(..., missing='drop') shows which rows are full)."
        )
    return scores, names, better_high


@renamed_keywords(level="confidence")
def aggregation_sensitivity(
    data: Any,
    *,
    higher_is_better: bool | None = None,
    confidence: float = 0.95,
    dataset: str | None = None,
    algorithm: str | None = None,
    score: str | None = None,
    aggregate: str | None = None,
) -> AggregationSensitivity:
    """Rank the algorithms under six aggregations, leave-one-dataset-out, and Kendall's tau.

    Parameters
    ----------
    data : DataFrame, array, path or ComparisonResult
        Scores in any form :func:`cdplot.compare` accepts (complete table), or a
        result of :func:`cdplot.compare` (its scores and direction are used).
    higher_is_better : bool, optional
        False for errors, losses or times (a bool: ``"False"`` is refused). Not given:
        higher is better, with a :class:`cdplot.CdplotWarning` when the score column's
        name reads as an error, loss or time, as in :func:`cdplot.compare`. For a result:
        its own direction; a different value is refused.
    confidence : float, default 0.95
        Confidence level of the Bradley-Terry Wald intervals, in (0, 1) (``level=`` is
        its deprecated old name).
    dataset, algorithm, score, aggregate
        As in :func:`cdplot.compare`, for long tables and repeated runs.

    Returns
    -------
    AggregationSensitivity
        ``to_frame()`` gives each algorithm's position under ``average_rank``,
        ``mean``, ``median``, ``win_rate`` (share of (other algorithm, dataset)
        pairs won, ties half), ``iqm`` (interquartile mean over datasets, as
        ``scipy.stats.trim_mean(x, 0.25)``) and ``bradley_terry`` (strength fitted
        to the pairwise win counts over datasets), and ``lodo_low`` /
        ``lodo_high``; ``.bradley_terry`` the strengths with intervals;
        ``.kendall_tau`` Kendall's tau-b between the rankings.

    Raises
    ------
    CdplotInputError
        For a parameter of the wrong type or out of range (named in the message), and for
        a table with gaps or fewer than two datasets or algorithms.

    Warns
    -----
    CdplotWarning
        When the Bradley-Terry maximum-likelihood estimate does not exist (some
        algorithms never lose to the others); its column is then NaN.

    Examples
    --------
    >>> import cdplot
    >>> sens = cdplot.aggregation_sensitivity(cdplot.datasets.load("demsar2006"))
    >>> sens.to_frame().columns.tolist()[:3]
    ['average_rank', 'mean', 'median']
    """
    if higher_is_better is not None:
        higher_is_better = check_bool(higher_is_better, "higher_is_better")
    confidence = check_confidence(confidence)
    scores, names, better_high = _read(data, higher_is_better, dataset, algorithm, score, aggregate)
    n, k = scores.shape
    x = scores if better_high else -scores
    within = rank_rows(-x)
    wins = _win_counts(x)
    strength, low, high, se = bradley_terry(wins, confidence=confidence)
    if np.isnan(strength).any():
        warnings.warn(
            "the Bradley-Terry maximum-likelihood strengths do not exist for this table "
            "(some algorithms never lose to the others on any dataset, so their strength "
            "is infinite); the bradley_terry column is NaN. The other aggregations are "
            "unaffected.",
            CdplotWarning,
            stacklevel=3,  # the caller, through the keyword wrapper
        )
    sign = 1.0 if better_high else -1.0
    # exact means of the floats: equal column sums tie whatever the order of the datasets
    means = np.array([exact_mean(column) for column in x.T.tolist()])
    values = {
        "average_rank": within.mean(axis=0),
        "mean": sign * means,
        "median": sign * np.median(x, axis=0),
        "win_rate": wins.sum(axis=1) / (n * (k - 1)),
        "iqm": sign * _interquartile_mean(x),
        "bradley_terry": strength,
    }
    oriented = {
        "average_rank": -values["average_rank"],
        "mean": means,
        "median": np.median(x, axis=0),
        "win_rate": values["win_rate"],
        "iqm": _interquartile_mean(x),
        "bradley_terry": strength,
    }
    ranks = {
        key: (np.full(k, np.nan) if np.isnan(v).any() else _positions(v, smaller_is_better=False))
        for key, v in oriented.items()
    }
    lodo_low, lodo_high = _leave_one_out(within) if n > 2 else (ranks["average_rank"],) * 2
    return AggregationSensitivity(
        algorithms=names,
        ranks=ranks,
        values=values,
        lodo_low=lodo_low,
        lodo_high=lodo_high,
        bt_values=np.column_stack([strength, low, high, se]),
        tau_values=_tau_matrix(ranks),
        confidence=confidence,
        higher_is_better=better_high,
    )

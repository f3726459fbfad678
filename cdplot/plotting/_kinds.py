"""Which figures draw which kind of comparison: the one place plotting/ asks for the kind.

A frequentist comparison (:class:`~cdplot.stats.ComparisonResult`, p-values) is drawn by
the CD diagram, the rank plot, the multiple-comparison matrix and the p-value heatmap; a
Bayesian one (:class:`~cdplot.stats.BayesianComparisonResult`, posterior probabilities) by
the Bayesian CD diagram, the rank plot, the posterior plot and the simplex plot.
:func:`figures` answers by the result's type; the figure functions call :func:`require`
on their input, and :func:`~cdplot.plotting._choose.plot_result` (``res.plot()``) and the
command line pick each kind's figure from it.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

from .._errors import CdplotInputError
from ..stats._results import BayesianComparisonResult, ComparisonResult

__all__ = ["Figures", "figures", "require"]


@dataclass(frozen=True)
class Figures:
    """The figures of one kind of comparison.

    Attributes
    ----------
    by_kind : dict of str to str
        ``res.plot(kind=...)``'s kinds ("cd", "ranks", "mcm", "heatmap") -> the name of the
        function in :mod:`cdplot.plotting` that draws it for this kind.
    auto : str or None
        The figure ``kind="auto"`` draws, or None to choose by legibility at the width.
    drawn_by : tuple of str
        Every figure function that draws this kind (the others refuse it).
    refusal : str
        What a figure function that does not draw this kind says (``{func}``, ``{test}``).
    """

    by_kind: dict[str, str]
    auto: str | None
    drawn_by: tuple[str, ...]
    refusal: str

    def function(self, kind: str, result: Any) -> str:
        """The function drawing figure ``kind`` of ``result`` (refused if it has none)."""
        if kind not in self.by_kind:
            require(result, {"mcm": "multi_comparison_matrix", "heatmap": "apv_heatmap"}[kind])
        return self.by_kind[kind]


_FREQUENTIST = Figures(
    {"cd": "cd_diagram", "ranks": "rank_plot", "mcm": "multi_comparison_matrix",
     "heatmap": "apv_heatmap"},
    None,
    ("cd_diagram", "rank_plot", "multi_comparison_matrix", "apv_heatmap"),
    "{func} draws a Bayesian comparison; compute it with cdplot.compare(data, "
    "test='bayes-signed-rank', rope=...) (or test='bayes-sign').",
)  # fmt: skip
_BAYESIAN = Figures(
    {"cd": "bayes_cd_diagram", "ranks": "rank_plot", "heatmap": "posterior_plot"},
    "cd",
    ("bayes_cd_diagram", "rank_plot", "posterior_plot", "simplex_plot", "equivalence_groups"),
    "{func} draws p-values, but the {test} test gives posterior probabilities; draw them "
    "with cdplot.posterior_plot(result) (every pair) or cdplot.bayes_cd_diagram(result).",
)


@functools.singledispatch
def figures(result: Any) -> Figures:
    """The figures of ``result``'s kind (see :class:`Figures`)."""
    raise CdplotInputError(
        f"expected the result of cdplot.compare(), got {type(result).__name__}; compare the "
        "scores first: res = cdplot.compare(data)."
    )


@figures.register
def _(result: ComparisonResult) -> Figures:
    return _FREQUENTIST


@figures.register
def _(result: BayesianComparisonResult) -> Figures:
    return _BAYESIAN


def require(result: Any, func: str) -> None:
    """Refuse, with what to draw instead, a result whose kind ``func`` does not draw."""
    kind = figures(result)
    if func not in kind.drawn_by:
        raise CdplotInputError(kind.refusal.format(func=func, test=result.test))

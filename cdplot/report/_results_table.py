"""The results table every paper has: the scores per dataset, best in bold, ranks below.

One row per dataset, one column per algorithm (input order), the score (mean ± std when
runs were aggregated), the best per row in bold and the second underlined, then an
average-rank row and, against a control, a win/tie/loss row, a row of adjusted p-values
and a marker on every algorithm that differs significantly from the control according to
the comparison. Nothing is recomputed: ranks, wins and p-values come from the result.
"""

from __future__ import annotations

import functools
import html
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

import numpy as np
import pandas as pd

from .._errors import CdplotInputError, renamed_keywords
from .._labels import TEST_TITLES, format_pvalue, pvalue_label
from ._evidence import evidence
from ._latex import check_float_options, escape_latex, latex_number, wrap_float
from ._markdown import escape_markdown
from ._model import display_name

if TYPE_CHECKING:  # pragma: no cover
    from ..stats._results import ComparisonResult

__all__ = ["ResultsTable", "results_table"]

#: Marker of an algorithm significantly different from the control.
MARKER = "\N{DAGGER}"


@dataclass(frozen=True)
class ResultsTable:
    """Scores per dataset with best/second marks, average ranks and the control's record.

    Made by :func:`results_table`; render it with :meth:`to_latex`,
    :meth:`to_markdown`, :meth:`to_html` or :meth:`to_frame`.

    Attributes
    ----------
    scores : pandas.DataFrame
        Datasets x algorithms, the analysed scores (means of the runs if aggregated).
    std : pandas.DataFrame or None
        Standard deviations of the runs, same shape, when shown.
    best, second : pandas.DataFrame
        Boolean, same shape: the best score of each row (rank 1, ties included) and
        the second best (the next rank), from ``result.ranks``.
    average_ranks : pandas.Series
        Average rank per algorithm, input order.
    control : str or None
        The algorithm the last rows compare with.
    record : pandas.DataFrame or None
        Per algorithm: ``wins``, ``ties`` and ``losses`` against the control
        (datasets), the ``adjusted_pvalue`` and ``significant``; None without a control.
    decimals : int
        Decimals of the scores.
    """

    scores: pd.DataFrame = field(repr=False)
    std: pd.DataFrame | None = field(repr=False)
    best: pd.DataFrame = field(repr=False)
    second: pd.DataFrame = field(repr=False)
    average_ranks: pd.Series = field(repr=False)
    control: str | None
    record: pd.DataFrame | None = field(repr=False)
    decimals: int
    _result: Any = field(repr=False)

    # ------------------------------------------------------------------ cells

    def _cells(self, fmt: _Format) -> tuple[list[str], list[list[str]], list[list[str]]]:
        """Heads, dataset rows and summary rows of one format (arrays, no per-cell lookups)."""
        algorithms = list(self.scores.columns)
        shown = functools.partial(display_name, self._result)  # display names (labels=)
        heads = [fmt.name(shown(a)) + (fmt.marker if self._marked(a) else "") for a in algorithms]
        values = self.scores.to_numpy(dtype=float)
        spread = None if self.std is None else self.std.to_numpy(dtype=float)
        best, second = self.best.to_numpy(dtype=bool), self.second.to_numpy(dtype=bool)
        d = self.decimals
        rows = []
        for i, dataset in enumerate(self.scores.index):
            row = [fmt.name(str(dataset))]
            for j in range(len(algorithms)):
                value = values[i, j]
                if value != value:
                    row.append(fmt.dash)
                    continue
                text = fmt.number(f"{value:.{d}f}")
                if spread is not None and spread[i, j] == spread[i, j]:
                    text += fmt.number.pm + fmt.number(f"{spread[i, j]:.{d}f}")
                if best[i, j]:
                    text = fmt.bold(text)
                elif second[i, j]:
                    text = fmt.second(text)
                row.append(text)
            rows.append(row)
        ranks = self.average_ranks.to_numpy(dtype=float)
        order = np.unique(ranks)
        rank_row = ["Average rank"]
        for r in ranks:
            text = fmt.number(f"{r:.2f}")
            if r == order[0]:
                text = fmt.bold(text)
            elif len(order) > 1 and r == order[1]:
                text = fmt.second(text)
            rank_row.append(text)
        summary = [rank_row]
        if self.record is not None:
            control = fmt.name(shown(str(self.control)))
            wtl, pv = [f"W/T/L vs {control}"], [f"{fmt.p} vs {control}"]
            for a in algorithms:
                if a == self.control:
                    wtl.append(fmt.dash)
                    pv.append(fmt.dash)
                    continue
                rec = self.record.loc[a]
                wtl.append(f"{int(rec['wins'])}/{int(rec['ties'])}/{int(rec['losses'])}")
                pv.append(fmt.number(format_pvalue(float(rec["adjusted_pvalue"]))))
            summary += [wtl, pv]
        return heads, rows, summary

    def _marked(self, algorithm: str) -> bool:
        return self.record is not None and bool(self.record["significant"].get(algorithm, False))

    def legend(self, markup: Literal["text", "latex", "markdown", "html"] = "text") -> str:
        """The sentence explaining the marks (what bold, underline and the marker mean)."""
        res = self._result
        direction = "highest" if res.higher_is_better else "lowest"
        second = "in italics" if markup == "markdown" else "underlined"
        what = "mean ± standard deviation over the runs" if self.std is not None else "score"
        text = f"Each cell is the {what}"
        if markup == "text":
            text += f"; higher_is_better={res.higher_is_better}. Average rank: 1 = best."
        else:
            text += (
                f"; per dataset the best ({direction}) is in bold and the second best "
                f"{second}. Average rank: 1 = best."
            )
        if self.record is not None:
            label = pvalue_label(res, adjusted=True)
            test = TEST_TITLES.get(res.test, res.test)
            text += (
                f" W/T/L: datasets on which the algorithm wins, ties or loses against the "
                f"control {display_name(res, self.control)}; p: {label} of the {test} against it; "
                f"{MARKER} marks a significant difference at alpha = {res.alpha:g}."
            )
        if markup == "latex":
            return (
                escape_latex(text)
                .replace("±", r"$\pm$")
                .replace(MARKER, r"$^{\dagger}$")
                .replace("alpha", r"$\alpha$")
                .replace("\N{EN DASH}", "--")
            )
        if markup == "markdown":
            return escape_markdown(text)
        if markup == "html":
            return html.escape(text).replace("alpha", "α")
        return text

    # ------------------------------------------------------------------ renderings

    def to_frame(self) -> pd.DataFrame:
        """The table as displayed, as strings without markup (datasets, then summary rows).

        Returns
        -------
        pandas.DataFrame
            Index: the datasets, then ``"Average rank"`` and, with a control,
            ``"W/T/L vs <control>"`` and ``"p vs <control>"``; columns: the
            algorithms (a marked one carries the marker).
        """
        heads, rows, summary = self._cells(_PLAIN)
        body = rows + summary
        return pd.DataFrame(
            [r[1:] for r in body],
            index=pd.Index([r[0] for r in body], name="dataset"),
            columns=pd.Index(heads, name="algorithm"),
        )

    @renamed_keywords(env="table_environment")
    def to_latex(
        self,
        *,
        caption: str | bool | None = True,
        label: str | None = None,
        table_environment: Literal["table", "table*"] = "table",
        size: str | None = None,
        resize: bool = False,
        position: str = "htbp",
        environment: bool = True,
    ) -> str:
        r"""LaTeX (booktabs): ``\textbf`` best, ``\underline`` second, ``$^\dagger$`` marker.

        Parameters
        ----------
        caption : str or bool, default True
            True: the legend (what the marks mean); a string: that caption
            (LaTeX, not escaped); False/None: none.
        label : str, optional
            ``\label`` of the table.
        table_environment : {"table", "table*"}, default "table"
            One column, or both columns of a two-column paper.
        size : {"tiny", "scriptsize", "footnotesize", "small", "normalsize"}, optional
            Font size inside the float.
        resize : bool, default False
            ``\resizebox`` the tabular to the column (``table*``: text) width.
        position : str, default "htbp"
            Placement of the float.
        environment : bool, default True
            False returns the ``tabular`` only.

        Returns
        -------
        str
        """
        env, size = check_float_options(table_environment, size)
        heads, rows, summary = self._cells(_LATEX)
        spec = "l" + "r" * len(heads)
        body = [rf"\begin{{tabular}}{{{spec}}}", r"\toprule"]
        body.append(" & ".join(["Dataset", *heads]) + r" \\")
        body.append(r"\midrule")
        body += [" & ".join(r) + r" \\" for r in rows]
        body.append(r"\midrule")
        body += [" & ".join(r) + r" \\" for r in summary]
        body += [r"\bottomrule", r"\end{tabular}"]
        if not environment:
            return "\n".join(body) + "\n"
        text = self.legend("latex") if caption is True else (caption or None)
        return wrap_float(
            body, env=env, position=position, caption=text, label=label, size=size, resize=resize
        )

    def to_markdown(self) -> str:
        """GitHub-flavoured Markdown: ``**best**``, ``*second*`` (Markdown has no underline).

        Returns
        -------
        str
        """
        heads, rows, summary = self._cells(_MARKDOWN)
        lines = ["| " + " | ".join(["Dataset", *heads]) + " |"]
        lines.append("|" + "|".join([":---"] + ["---:"] * len(heads)) + "|")
        lines += ["| " + " | ".join(r) + " |" for r in rows + summary]
        return "\n".join(lines) + "\n\n" + self.legend("markdown") + "\n"

    def to_html(self) -> str:
        """An HTML ``<table>`` (``<strong>`` best, ``<u>`` second) with the legend below.

        Returns
        -------
        str
        """
        heads, rows, summary = self._cells(_HTML)
        out = ['<table class="cdplot-results"><thead><tr><th>Dataset</th>']
        out += [f'<th class="num">{h}</th>' for h in heads]
        out.append("</tr></thead><tbody>")
        for r in rows:
            out.append(f"<tr><th>{r[0]}</th>" + "".join(f'<td class="num">{c}</td>' for c in r[1:]))
            out.append("</tr>")
        out.append('</tbody><tbody class="summary">')
        for r in summary:
            out.append(f"<tr><th>{r[0]}</th>" + "".join(f'<td class="num">{c}</td>' for c in r[1:]))
            out.append("</tr>")
        out.append(f'</tbody></table><p class="legend">{self.legend("html")}</p>')
        return "".join(out)

    def _repr_html_(self) -> str:
        return self.to_html()

    def __str__(self) -> str:
        return self.to_frame().to_string() + "\n" + self.legend("text")


@dataclass(frozen=True)
class _Format:
    name: Any
    number: Any
    bold: Any
    second: Any
    marker: str
    dash: str
    p: str = "p"


class _Number:
    """Escapes a number; ``pm`` is the format's ± separator."""

    def __init__(self, escape, pm: str) -> None:
        self.escape, self.pm = escape, pm

    def __call__(self, text: str) -> str:
        return self.escape(text)


_PLAIN = _Format(str, _Number(str, " ± "), str, str, MARKER, "\N{EN DASH}")
_LATEX = _Format(
    escape_latex,
    _Number(latex_number, r" $\pm$ "),
    lambda t: rf"\textbf{{{t}}}",
    lambda t: rf"\underline{{{t}}}",
    r"$^{\dagger}$",
    "--",
    "$p$",
)
_MARKDOWN = _Format(
    escape_markdown,
    _Number(escape_markdown, " ± "),
    lambda t: f"**{t}**",
    lambda t: f"*{t}*",
    MARKER,
    "\N{EN DASH}",
)
_HTML = _Format(
    html.escape,
    _Number(html.escape, " ± "),
    lambda t: f"<strong>{t}</strong>",
    lambda t: f"<u>{t}</u>",
    MARKER,
    "\N{EN DASH}",
)


def results_table(
    result: ComparisonResult,
    *,
    control: str | None = None,
    decimals: int = 3,
    std: bool = True,
) -> ResultsTable:
    r"""The table of scores a paper prints: datasets x algorithms, best bold, ranks below.

    One row per dataset and one column per algorithm with its score (mean ±
    standard deviation when repeated runs were aggregated and ``std``), the
    best score of each row in bold and the second underlined (by the ranks of
    the comparison, so ``higher_is_better`` and exact ties are respected), an
    average-rank row, and against a control a win/tie/loss row, a row of
    adjusted p-values and a dagger (†) on every algorithm that the comparison
    found significantly different from the control.

    Parameters
    ----------
    result : ComparisonResult
        The result of :func:`cdplot.compare`.
    control : str, optional
        The algorithm to compare with (your proposed method). Default: the
        result's control if it has one, else no control rows and no markers.
    decimals : int, default 3
        Decimals of the scores (and standard deviations).
    std : bool, default True
        Show the standard deviations when the result has them
        (``result.score_std``, from aggregated runs).

    Returns
    -------
    ResultsTable
        With ``to_latex()`` (booktabs), ``to_markdown()``, ``to_html()`` and
        ``to_frame()``; it displays itself in notebooks.

    Raises
    ------
    CdplotInputError
        ``control`` is not one of the algorithms, or differs from the control
        the comparison was made against (its other pairs were not tested), or
        ``decimals`` is not a non-negative integer.

    Notes
    -----
    Markers follow ``result.significant``: for a comparison of all pairs its
    row of the control; for a comparison against a control its Series. The
    win/tie/loss counts are ``result.wins`` (Demšar 2006, §3.1.4). Best and
    second best are rank 1 and the next rank of ``result.ranks`` in each row
    (average ranks for ties), not a comparison of rounded values.

    References
    ----------
    J. Demšar (2006). Statistical comparisons of classifiers over multiple data
    sets. JMLR 7, 1-30.

    Examples
    --------
    >>> import cdplot
    >>> res = cdplot.compare(cdplot.datasets.load("demsar2006"))
    >>> table = cdplot.results_table(res, control="C4.5")
    >>> table.to_frame().loc["W/T/L vs C4.5", "C4.5+m"]  # Demšar (2006), Table 2
    '10/2/2'
    """
    if isinstance(decimals, bool) or not isinstance(decimals, int | np.integer) or decimals < 0:
        raise CdplotInputError(f"decimals must be a non-negative integer, got {decimals!r}.")
    algorithms = [str(a) for a in result.algorithms]
    if control is None:
        control = result.control
    elif str(control) not in algorithms:
        raise CdplotInputError(
            f"unknown control algorithm {control!r}; the algorithms are "
            f"{', '.join(repr(a) for a in algorithms)}."
        )
    elif result.control is not None and str(control) != result.control:
        raise CdplotInputError(
            f"the comparison was made against the control {result.control!r}, so pairs with "
            f"{control!r} were not tested; pass control={result.control!r}, or compare all "
            f"pairs (control=None in compare()) or with compare(..., control={control!r})."
        )
    scores = result.scores.loc[:, algorithms]
    std_frame = getattr(result, "score_std", None) if std else None
    if std_frame is not None:
        std_frame = std_frame.reindex(index=scores.index, columns=algorithms)
    ranks = result.ranks.loc[scores.index, algorithms].to_numpy(dtype=float)
    ranks = np.where(np.isnan(ranks), np.inf, ranks)  # missing results mark nothing
    first = ranks.min(axis=1, keepdims=True)
    nxt = np.where(ranks > first, ranks, np.inf).min(axis=1, keepdims=True)
    ranks = np.where(np.isinf(ranks), np.nan, ranks)
    best = pd.DataFrame(ranks == first, index=scores.index, columns=algorithms)
    second = pd.DataFrame(ranks == nxt, index=scores.index, columns=algorithms)
    record = None
    if control is not None:
        control = str(control)
        others = [a for a in algorithms if a != control]
        apv, sig = evidence(result).versus(control, others)
        w = result.wins
        record = pd.DataFrame(
            {
                "wins": w.wins.loc[others, control].to_numpy(dtype=int),
                "ties": w.ties.loc[others, control].to_numpy(dtype=int),
                "losses": w.losses.loc[others, control].to_numpy(dtype=int),
                "adjusted_pvalue": apv.to_numpy(dtype=float),
                "significant": sig.to_numpy(dtype=bool),
            },
            index=pd.Index(others, name="algorithm"),
        )
    return ResultsTable(
        scores=scores,
        std=std_frame,
        best=best,
        second=second,
        average_ranks=result.average_ranks.reindex(algorithms),
        control=control,
        record=record,
        decimals=int(decimals),
        _result=result,
    )

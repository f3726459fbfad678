"""Example score tables bundled with cdplot (offline, small CSV files).

Four are boards (rows = datasets, columns = algorithms); ``humaneval_murdza`` is one
benchmark's items (rows = items, columns = models), compared on its items by
``cdplot.compare(table)``; ``blum2015`` keeps every run (a long table: task, run, algorithm,
score), read by ``cdplot.io.read_run_scores`` for the run-level analyses.

>>> import cdplot
>>> cdplot.datasets.names()  # doctest: +NORMALIZE_WHITESPACE
['demsar2006', 'benavoli2016', 'garcia2008_ranks', 'garcia2008_synthetic', 'humaneval_murdza',
 'blum2015']
>>> cdplot.datasets.load("demsar2006").shape
(14, 4)
"""

from __future__ import annotations

import csv
from functools import lru_cache
from typing import TYPE_CHECKING

from .._errors import CdplotInputError

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

__all__ = ["describe", "load", "names"]


@lru_cache(maxsize=1)
def _registry() -> dict[str, dict[str, str]]:
    from importlib import resources

    text = resources.files(__name__).joinpath("_registry.csv").read_text(encoding="utf-8")
    return {row["name"]: row for row in csv.DictReader(text.splitlines())}


def names() -> list[str]:
    """Names of the bundled datasets.

    Examples
    --------
    >>> import cdplot
    >>> cdplot.datasets.names()  # doctest: +NORMALIZE_WHITESPACE
    ['demsar2006', 'benavoli2016', 'garcia2008_ranks', 'garcia2008_synthetic',
     'humaneval_murdza', 'blum2015']
    """
    return list(_registry())


def describe(name: str) -> dict[str, str]:
    """Description and source (paper and table) of a bundled dataset.

    Examples
    --------
    >>> import cdplot
    >>> cdplot.datasets.describe('demsar2006')['source']
    'Demšar (2006), JMLR 7, Table 6 (the first two columns are Table 2)'
    """
    _check(name)
    return dict(_registry()[name])


def _check(name: str) -> None:
    if name not in _registry():
        raise CdplotInputError(
            f"{name!r} is not a bundled dataset; available: {', '.join(repr(n) for n in names())}."
        )


def load(name: str) -> pd.DataFrame:
    """Load a bundled example as a DataFrame (wide: rows = datasets or items; or long, with runs).

    Parameters
    ----------
    name : {"demsar2006", "benavoli2016", "garcia2008_ranks", "garcia2008_synthetic", \
"humaneval_murdza", "blum2015"}
        ``"demsar2006"``: Demšar (2006) Table 6, AUC of four C4.5 variants on 14
        data sets, as printed. ``"benavoli2016"``: the 7 x 54 accuracy table of
        Benavoli et al. (2016), Example 3. ``"garcia2008_ranks"``: the published
        average ranks of García & Herrera's (2008) five classifiers (a single
        row; the number of data sets, 30, is in ``df.attrs["n_datasets"]``).
        ``"garcia2008_synthetic"``: a constructed 30 x 5 table of ranks (lower is
        better) whose average ranks are García & Herrera's published ones.
        ``"humaneval_murdza"``: one benchmark, HumanEval's 164 problems (rows)
        and three models (columns); each cell is the share of ten runs whose
        code passed the problem's unit tests, as published by J. Murdza in
        github.com/jamesmurdza/humaneval-results (README, "Results by task").
        ``"blum2015"``: Blum, Calvo & Blesa (2015), the sizes of the independent
        sets found by eight decentralised algorithms (FruitFly, Shukla, Ikeda,
        Turau, Rand1, Rand2, FrogCOL, FrogMIS) on random geometric graphs: 30
        classes (``task`` ``"n=100 r=0.140"``: nodes and connection radius) of 30
        graphs each (``graph`` 1 to 30), as distributed in the R package scmamp.
        A long table of 7,200 rows: ``read_run_scores(df, run="graph",
        score="score")`` keeps the graphs of a class apart as its runs.

    Returns
    -------
    pandas.DataFrame
        Index named ``dataset`` (``item`` for one benchmark's items, with the
        columns named ``model``), one float column per algorithm; for
        ``"blum2015"`` the long table (columns ``task``, ``size``, ``radius``,
        ``graph``, ``algorithm``, ``score``; the sizes are integers). ``df.attrs``
        holds ``source``, ``description``, ``n_datasets`` (the tasks of
        ``"blum2015"``) and ``higher_is_better``. ``cdplot.compare(df)`` compares
        an item table on its items (the index names them).

    Examples
    --------
    >>> import cdplot
    >>> cdplot.datasets.load('demsar2006').shape
    (14, 4)
    """
    _check(name)
    meta = _registry()[name]
    from importlib import resources

    import pandas as pd

    rows = meta.get("rows") or "dataset"
    with resources.files(__name__).joinpath(f"{name}.csv").open(encoding="utf-8") as fh:
        frame = pd.read_csv(fh, index_col=None if rows == "run" else 0)
    if rows == "run":  # a long table of runs, kept as read
        return _with_attrs(frame, meta)
    columns = "model" if rows == "item" else "algorithm"
    frame.index = pd.Index([str(i) for i in frame.index], name=rows, dtype=object)
    frame.columns = pd.Index([str(c) for c in frame.columns], name=columns, dtype=object)
    return _with_attrs(frame.astype(float), meta)


def _with_attrs(frame: pd.DataFrame, meta: dict[str, str]) -> pd.DataFrame:
    frame.attrs.update(
        source=meta["source"],
        description=meta["description"],
        n_datasets=int(meta["n_datasets"]),
        higher_is_better=meta["higher_is_better"] == "True",
    )
    return frame

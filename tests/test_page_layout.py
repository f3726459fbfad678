"""The interactive page at phone and desktop widths, in a real browser (chromium, Playwright).

What is checked, and against what:

* names are never cut: every name drawn in the live figure, the live table and the list of
  datasets lies inside the viewport and inside the element that would clip it, no two
  names in the figure overlap, and the drawn lines of a wrapped name spell the whole name
  (k = 7 with AutoML Benchmark framework names; k = 78 with TabArena-style names such as
  "REALTABPFN-V2.5 (tuned + ensemble)"), at 390, 1,280 and 1,920 px;
* the rank plot drawn beyond 20 algorithms: the point is the algorithm's position in the
  ranking (the table's # column) inside its rank interval, its average rank is printed
  beside, and the caption says which mark is which;
* the omnibus line is the reports' own (``cdplot.report._model.omnibus_line``);
* "None" clears the panel of the algorithm hovered before;
* the static diagram's smallest text renders at 9 px or more at 390 px (its size in
  points read from the matplotlib figure the report draws);
* the CSV download neutralises text cells a spreadsheet would read as a formula.

The browser fixture and the page visit are those of ``test_page.py``; the tests skip,
with the reason, when chromium is missing.
"""

from __future__ import annotations

import csv
import io
import re
from importlib import import_module
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from _helpers import quiet_compare
from test_page import _Visit, _write, browser  # noqa: F401  (the fixture)

import cdplot

#: Framework names of the AutoML Benchmark (Gijsbers et al. 2024), k = 7.
AMLB = [
    "constantpredictor",
    "randomforest",
    "tunedrandomforest",
    "autogluon",
    "flaml",
    "lightautoml",
    "h2oautoml",
]
#: Method families in the style of TabArena's leaderboard (26 x 3 variants = 78 methods).
FAMILIES = [
    "REALTABPFN-V2.5", "TABPFNV2", "TABM", "CATBOOST", "LIGHTGBM", "XGBOOST", "MODERNNCA",
    "REALMLP", "TABICL", "EBM", "FASTAIMLP", "TORCHMLP", "RANDOMFOREST", "EXTRATREES", "KNN",
    "LINEARMODEL", "TABDPT", "MITRA", "XRFM", "BETA-TABPFN", "TABFLEX", "LIMIX", "AUTOGLUON",
    "SAP-RPT-OSS", "PERPETUAL", "GRANDE",
]  # fmt: skip
VARIANTS = ["(default)", "(tuned)", "(tuned + ensemble)"]
WIDTHS = [390, 1280, 1920]
#: Smallest rendered text (CSS px) of the static diagram on a phone.
READABLE_PX = 9.0


def _board(names, n_datasets, seed, spread):
    """Normal scores, the later names better on average (by ``spread`` in all)."""
    rng = np.random.default_rng(seed)
    k = len(names)
    scores = rng.normal(size=(n_datasets, k)) + np.linspace(0.0, spread, k)
    return pd.DataFrame(scores, columns=names, index=[f"task_{i:02d}" for i in range(n_datasets)])


def _boards():
    return {
        "k7": (_board(AMLB, 12, 0, 1.5), {}),  # the long names on the left
        # k <= 20 with long names: at 390 px the rank plot gives them room
        "k10": (_board([f"{f} {v}" for f in FAMILIES[:5] for v in VARIANTS][:10], 20, 2, 2.0), {}),
        "k78": (
            _board([f"{f} {v}" for f in FAMILIES for v in VARIANTS], 51, 1, 3.0),
            {"test": "nemenyi"},
        ),
    }


BOARDS = _boards()


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    """``board -> (result, page path)``: each board compared and its page written once for
    the module (the pages are only read)."""
    folder = tmp_path_factory.mktemp("boards")
    cache: dict[str, tuple] = {}

    def get(board: str) -> tuple:
        if board not in cache:
            data, kwargs = BOARDS[board]
            res = quiet_compare(data, **kwargs)
            cache[board] = res, _write(folder, res, f"{board}.html")
        return cache[board]

    return get


#: Every name element's box, the box of the element that would clip it, and, in the figure,
#: the text its name lines spell.
NAME_BOXES = """() => {
    const box = (el) => { const r = el.getBoundingClientRect();
        return {left: r.left, right: r.right, top: r.top, bottom: r.bottom}; };
    const figure = document.querySelector('.cdplot-live-figure');
    const svg = figure.querySelector('svg');
    const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
    const names = [...svg.querySelectorAll('g[data-algorithm]')].map((g) => {
        const text = g.querySelector('text.cdplot-name') || g.querySelector('text');
        const lines = [...text.querySelectorAll('tspan.cdplot-name-line')];
        return {algorithm: g.dataset.algorithm, box: box(text),
                spelled: lines.length ? lines.map((t) => t.textContent).join('') : null,
                px: parseFloat(getComputedStyle(text).fontSize) * scale};
    });
    const scroll = document.querySelector('.cdplot-scroll');
    const table = [...document.querySelectorAll('tr[data-algorithm] th')].map((th) => (
        {algorithm: th.textContent, box: box(th)}));
    const list = document.querySelector('.cdplot-datasets');
    const datasets = [...document.querySelectorAll('.cdplot-dataset-list label')].map((l) => (
        {algorithm: l.textContent.trim(), box: box(l)}));
    return {
        viewport: document.documentElement.clientWidth,
        overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
        figure: box(figure), svg: box(svg), names: names,
        scroll: box(scroll), scrollOverflow: scroll.scrollWidth - scroll.clientWidth,
        table: table, list: box(list), datasets: datasets,
    };
}"""


def _inside(inner, outer, slack=0.5):
    return (
        inner["left"] >= outer["left"] - slack
        and inner["right"] <= outer["right"] + slack
        and inner["top"] >= outer["top"] - slack
        and inner["bottom"] <= outer["bottom"] + slack
    )


def _overlap(a, b):
    return (
        min(a["right"], b["right"]) - max(a["left"], b["left"]) > 0.5
        and min(a["bottom"], b["bottom"]) - max(a["top"], b["top"]) > 0.5
    )


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("board", sorted(BOARDS))
def test_names_are_never_cut(browser, written, board, width):  # noqa: F811
    res, path = written(board)
    visit = _Visit(browser, path, width=width)
    try:
        got = visit.page.evaluate(NAME_BOXES)
        assert visit.errors == []
        assert got["overflow"] <= 0
        viewport = {"left": 0, "right": got["viewport"], "top": -1e9, "bottom": 1e9}
        labels = {a: res.label(a) for a in res.algorithms}
        assert len(got["names"]) == res.n_algorithms
        for name in got["names"]:
            assert _inside(name["box"], viewport), name
            assert _inside(name["box"], got["svg"]), name
            assert _inside(name["box"], {**got["figure"], "top": -1e9, "bottom": 1e9}), name
        for name in got["names"]:
            # wrapped or not, the lines spell the whole name (only spaces at breaks dropped)
            assert name["spelled"].replace(" ", "") == labels[name["algorithm"]].replace(" ", "")
            assert name["px"] >= 10 - 0.05, name  # the floor of the names' size
        boxes = [n["box"] for n in got["names"]]
        for i, a in enumerate(boxes):
            for b in boxes[i + 1 :]:
                assert not _overlap(a, b), (a, b)
        # the live table: every name visible without scrolling it sideways
        assert got["scrollOverflow"] <= 0
        for cell in got["table"]:
            assert _inside(cell["box"], viewport) and _inside(cell["box"], got["scroll"]), cell
        side = {**got["list"], "top": -1e9, "bottom": 1e9}  # the list scrolls vertically
        for label in got["datasets"]:
            assert _inside(label["box"], side), label
    finally:
        visit.close()


def _rank_plot_marks(page) -> list[dict]:
    return page.evaluate(
        """() => [...document.querySelectorAll('.cdplot-live-figure g[data-algorithm]')].map(
            (g) => {
                const bar = g.querySelector('line.cdplot-interval');
                const dot = g.querySelector('circle');
                return {algorithm: g.dataset.algorithm, cx: +dot.getAttribute('cx'),
                        bar: bar ? [+bar.getAttribute('x1'), +bar.getAttribute('x2')] : null,
                        rank: g.querySelector('text.cdplot-average-rank').textContent};
            })"""
    )


def test_rank_plot_point_is_the_position_inside_its_interval(browser, written):  # noqa: F811
    res, path = written("k78")
    visit = _Visit(browser, path)
    try:
        marks = _rank_plot_marks(visit.page)
        rows = visit.page.evaluate(
            """() => [...document.querySelectorAll('tr[data-algorithm]')].map((r) => [
                r.dataset.algorithm, r.cells[0].textContent, r.cells[3].textContent])"""
        )
        assert [m["algorithm"] for m in marks] == list(res.average_ranks.index)
        # the bars are cdplot's test-based rank intervals (1 + #better, k - #worse)
        python = res.rank_intervals(method="test")
        pairs = zip(python.low.tolist(), python.high.tolist(), strict=True)
        bounds = dict(zip(python.algorithms, pairs, strict=True))
        # positions 1 and k fix the axis; every point sits at its row's # (1 = best)
        x1, xk = marks[0]["cx"], marks[-1]["cx"]
        k = res.n_algorithms
        for mark, (name, position, interval) in zip(marks, rows, strict=True):
            assert mark["algorithm"] == name
            want = x1 + (int(position) - 1) * (xk - x1) / (k - 1)
            assert mark["cx"] == pytest.approx(want, abs=1e-6)
            low, high = (int(v) for v in interval.split("\N{EN DASH}"))
            assert (low, high) == bounds[name]
            assert mark["bar"][0] == pytest.approx(x1 + (low - 1) * (xk - x1) / (k - 1))
            assert mark["bar"][1] == pytest.approx(x1 + (high - 1) * (xk - x1) / (k - 1))
            assert mark["bar"][0] - 1e-6 <= mark["cx"] <= mark["bar"][1] + 1e-6
            assert mark["rank"] == f"{res.average_ranks[name]:.2f}"
        caption = visit.page.locator(".cdplot-figure-note").inner_text()
        assert "Point: the algorithm's position in the ranking" in caption
        assert "Bar: its rank interval" in caption and "its average rank" in caption
    finally:
        visit.close()


@pytest.mark.parametrize("table", ["identical", "demsar2006"])
def test_pvalues_are_written_as_the_reports_write_them(browser, tmp_path, table):  # noqa: F811
    from cdplot.report import format_pvalue
    from cdplot.report._model import omnibus_line

    if table == "identical":  # every dataset ranks alike: p < 0.001 and an infinite F
        data = pd.DataFrame(np.tile(np.arange(5.0), (40, 1)), columns=list("ABCDE"))
    else:
        data = cdplot.datasets.load(table)
    res = quiet_compare(data)
    visit = _Visit(browser, _write(tmp_path, res))
    try:
        text = visit.page.locator(".cdplot-omnibus").inner_text()
        assert text == f"On {res.n_datasets} datasets: {omnibus_line(res, 'html')}."
        best = res.average_ranks.index[0]
        visit.page.locator(f'tr[data-algorithm="{best}"]').hover()
        shown = visit.page.locator(".cdplot-detail li").all_inner_texts()
        apv = res.adjusted_pvalues[best]
        want = [
            f"vs {b}: {format_pvalue(apv[b])}" + (" *" if apv[b] <= res.alpha else "")
            for b in res.average_ranks.index[1:]
        ]
        assert shown == want
        assert not re.search(r"\de[+-]?\d", text + "".join(shown))
    finally:
        visit.close()


def test_none_clears_the_detail_panel(browser, tmp_path):  # noqa: F811
    res = quiet_compare(cdplot.datasets.load("demsar2006"))
    visit = _Visit(browser, _write(tmp_path, res))
    page = visit.page
    try:
        page.locator('tr[data-algorithm="C4.5+m+cf"]').hover()
        assert "average rank 1.929" in page.locator(".cdplot-detail").inner_text()
        page.get_by_role("button", name="None").click()
        detail = page.locator(".cdplot-detail").inner_text()
        assert "C4.5" not in detail and "average rank" not in detail
        assert "at least two datasets" in detail
        page.get_by_role("button", name="All").click()  # the hovered one comes back
        assert "average rank 1.929" in page.locator(".cdplot-detail").inner_text()
        assert visit.errors == []
    finally:
        visit.close()


def _smallest_text_pt(res) -> float:
    """The smallest font size (pt) of the diagram the report draws (matplotlib's own texts)."""
    from matplotlib.text import Text

    from cdplot.report._evidence import evidence
    from cdplot.report._html import SCREEN_WIDTH

    _, draw = evidence(res).figures(import_module("cdplot.plotting"), "diagram", SCREEN_WIDTH)
    fig = draw(res).figure
    sizes = [t.get_fontsize() for t in fig.findobj(Text) if t.get_visible() and t.get_text()]
    import matplotlib.pyplot as plt

    plt.close(fig)
    return min(sizes)


@pytest.mark.parametrize("board", sorted(BOARDS))
def test_static_diagram_is_readable_on_a_phone(browser, written, board):  # noqa: F811
    res, path = written(board)
    visit = _Visit(browser, path, width=390)
    try:
        got = visit.page.evaluate(
            """() => {
                const svg = document.querySelector('#diagram figure svg');
                return {px_per_pt: svg.getBoundingClientRect().width / svg.viewBox.baseVal.width,
                        overflow: document.documentElement.scrollWidth
                            - document.documentElement.clientWidth};
            }"""
        )
        assert got["overflow"] <= 0  # the figure scrolls inside its <figure>, not the page
        assert _smallest_text_pt(res) * got["px_per_pt"] >= READABLE_PX - 1e-6
    finally:
        visit.close()


def test_csv_download_neutralises_formula_cells(browser, tmp_path):  # noqa: F811
    names = ["=HYPERLINK(1)", "+SUM(A1)", "-2+3", "@cmd", "\tTAB", "\rCR", "plain", "a=b"]
    rng = np.random.default_rng(3)
    data = pd.DataFrame(rng.normal(size=(10, len(names))), columns=names)
    res = quiet_compare(data)
    visit = _Visit(browser, _write(tmp_path, res))
    page = visit.page
    try:
        with page.expect_download() as table:
            page.get_by_role("button", name="Download table (CSV)").click()
        text = Path(table.value.path()).read_bytes().decode("utf-8")  # keeps a lone CR
        rows = list(csv.DictReader(io.StringIO(text, newline="")))
        written = {r["algorithm"]: r for r in rows}
        for name in names:
            want = "'" + name if name[0] in "=+-@\t\r" else name
            assert want in written, (name, list(written))
            row = written[want]
            # numbers stay numbers: no apostrophe on the ranks and p-values
            assert float(row["average_rank"]) == pytest.approx(res.average_ranks[name])
            assert all(not v.startswith("'") for k, v in row.items() if k != "algorithm")
        every_cell = [c for line in csv.reader(io.StringIO(text, newline="")) for c in line]
        assert not [c for c in every_cell if c and c[0] in "=+-@\t\r"]
    finally:
        visit.close()

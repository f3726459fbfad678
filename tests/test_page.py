"""The interactive results page, in a real browser (Debian's chromium driven by Playwright).

Every number the page recomputes on a subset of datasets is compared with
``cdplot.compare`` on the same subset, and the page's special functions with
``scipy.special`` / ``scipy.stats`` (independent implementations). Playwright comes with
the test extra; the browser tests skip, with the reason, only when no chromium binary is
found (``.ci/run`` installs one).
"""

from __future__ import annotations

import csv
import io
import json
import math
import re
import shutil
import warnings
import zlib
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from _helpers import quiet_compare
from scipy import special, stats

import cdplot
from cdplot.report import to_html
from cdplot.report._page import explorer_html, page_payload

#: The page's size budget at k = 50 algorithms and N = 100 datasets (full-precision scores).
SIZE_BUDGET = 500_000

CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def _chromium() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    from playwright import sync_api  # in the test extra: missing, it is an error, not a skip

    executable = _chromium()
    if executable is None:
        pytest.skip("no chromium binary on PATH (.ci/run installs Debian's chromium)")
    profile = tmp_path_factory.mktemp("chromium-profile")
    with sync_api.sync_playwright() as pw:
        context = pw.chromium.launch_persistent_context(
            str(profile), executable_path=executable, headless=True, args=CHROMIUM_FLAGS
        )
        try:
            yield context
        finally:
            context.close()


class _Visit:
    """A page opened from disk, with its console errors and every request it made."""

    def __init__(self, context, path: Path, width: int = 1280) -> None:
        self.errors: list[str] = []
        self.requests: list[str] = []
        self.page = context.new_page()
        self.page.set_viewport_size({"width": width, "height": 900})
        self.page.on("request", lambda r: self.requests.append(r.url))
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        # anything but the file itself is blocked (and recorded above)
        self.page.route(
            "**/*",
            lambda route: (
                route.continue_() if route.request.url == path.as_uri() else route.abort()
            ),
        )
        self.page.goto(path.as_uri())

    def select(self, datasets) -> None:
        """Tick exactly these datasets (one change event, as a click sends)."""
        self.page.evaluate(
            """(names) => {
                const keep = new Set(names);
                const boxes = [...document.querySelectorAll('input[data-dataset]')];
                boxes.forEach((b) => { b.checked = keep.has(b.dataset.dataset); });
                boxes[0].dispatchEvent(new Event('change', {bubbles: true}));
            }""",
            list(datasets),
        )

    def state(self) -> dict:
        return self.page.evaluate(
            """() => {
                const el = document.getElementById('cdplot-result');
                const rows = [...document.querySelectorAll('tr[data-algorithm]')];
                const page = document.querySelector('.cdplot-explorer').cdplotPage;
                return {
                    friedman: el.dataset.friedmanP,
                    iman: el.dataset.imanDavenportP,
                    cd: el.hasAttribute('data-critical-difference')
                        ? el.dataset.criticalDifference : null,
                    groups: JSON.parse(el.dataset.groups),
                    ranks: rows.map((r) => [r.dataset.algorithm, r.dataset.averageRank]),
                    csv: page.csv(),
                };
            }"""
        )

    def close(self) -> None:
        self.page.close()


def _write(tmp_path: Path, res, name: str = "page.html", diagram: bool = True) -> Path:
    path = tmp_path / name
    path.write_text(to_html(res, diagram=diagram), encoding="utf-8")
    return path


def _check_against_compare(state: dict, res) -> None:
    """The page's live numbers equal cdplot.compare's on the same subset (1e-9)."""
    got = dict(state["ranks"])
    assert list(got) == list(res.average_ranks.index)  # best first, ties by name
    for name, value in res.average_ranks.items():
        assert float(got[name]) == pytest.approx(value, rel=1e-12, abs=1e-12)
    assert float(state["friedman"]) == pytest.approx(res.friedman.pvalue, rel=1e-9, abs=1e-15)
    assert float(state["iman"]) == pytest.approx(res.iman_davenport.pvalue, rel=1e-9, abs=1e-15)
    if res.critical_difference is None:
        assert state["cd"] is None
    else:
        assert float(state["cd"]) == pytest.approx(res.critical_difference, rel=1e-12)
    assert [tuple(g) for g in state["groups"]] == [tuple(g) for g in res.groups]
    rows = list(csv.DictReader(io.StringIO(state["csv"])))
    apv = res.adjusted_pvalues
    for row in rows:
        a = row["algorithm"]
        for b in res.algorithms:
            cell = row[f"apv_vs_{b}"]
            if res.control is None:
                want = np.nan if a == b else apv.loc[a, b]
            elif res.control in (a, b) and a != b:
                want = apv[b if a == res.control else a]
            else:
                want = np.nan
            if np.isnan(want):
                assert cell == ""
            else:
                assert float(cell) == pytest.approx(want, rel=1e-9, abs=1e-14), (a, b)


# ------------------------------------------------------------------- without a browser


def test_page_is_one_self_contained_file_within_budget():
    rng = np.random.default_rng(50)
    scores = pd.DataFrame(
        rng.normal(size=(100, 50)),
        columns=[f"algorithm_{j:02d}" for j in range(50)],
        index=[f"dataset_{i:03d}" for i in range(100)],
    )
    page = to_html(quiet_compare(scores, test="nemenyi"))
    assert len(page.encode("utf-8")) < SIZE_BUDGET
    # nothing is fetched: no external script, style, image or font
    assert not re.search(r"\bsrc=|href=\"(?!#)|@import|url\((?!#)", page)
    assert not re.search(r"<(link|img|iframe|object|embed|audio|video|source)\b", page)
    assert page.count('type="checkbox" data-dataset=') == 100
    assert page.count("<script") == 2  # the payload and the one script


def test_payload_script_cannot_close_its_element():
    data = cdplot.datasets.load("demsar2006").rename(index={"iris": "</script><b>x"})
    section = explorer_html(quiet_compare(data))
    start = section.index('class="cdplot-payload">') + len('class="cdplot-payload">')
    body = section[start : section.index("</script>", start)]
    assert "</script><b>x" in json.loads(body)["datasets"]


def test_incomplete_table_gets_the_static_report_only():
    data = cdplot.datasets.load("demsar2006").copy()
    data.iloc[0, 0] = np.nan
    res = quiet_compare(data, missing="keep")
    assert page_payload(res) is None
    page = to_html(res, diagram=False)
    assert "<script" not in page and 'id="cdplot-result"' not in page


def test_interactive_false_is_the_static_report():
    res = quiet_compare(cdplot.datasets.load("demsar2006"))
    assert "<script" not in to_html(res, diagram=False, interactive=False)
    assert 'id="cdplot-result"' in res.to_html(diagram=False)


def test_cli_report_writes_the_page(tmp_path):
    from cdplot.cli import main

    src = tmp_path / "scores.csv"
    cdplot.datasets.load("demsar2006").to_csv(src)
    out = tmp_path / "page.html"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert main(["compare", str(src), "-q", "--report", str(out)]) == 0
    text = out.read_text(encoding="utf-8")
    assert 'id="cdplot-result"' in text and text.count('data-dataset="') == 14


# ------------------------------------------------------------------- in the browser


def test_page_loads_offline_without_errors(browser, tmp_path):
    path = _write(tmp_path, quiet_compare(cdplot.datasets.load("benavoli2016"), test="nemenyi"))
    visit = _Visit(browser, path)
    try:
        assert visit.errors == []
        assert visit.requests == [path.as_uri()]  # the file itself, nothing else
        assert visit.page.locator(".cdplot-live-figure svg").count() == 1
    finally:
        visit.close()


@pytest.mark.parametrize(
    ("table", "kwargs", "subsets"),
    [
        ("benavoli2016", {"test": "nemenyi"}, 8),
        ("benavoli2016", {"test": "mean-ranks", "correction": "shaffer"}, 4),
        ("benavoli2016", {"test": "wilcoxon"}, 4),  # exact and normal p-values (ties)
        ("demsar2006", {"test": "sign"}, 4),
        ("demsar2006", {"test": "mean-ranks", "control": "C4.5", "correction": "bonferroni"}, 2),
        ("demsar2006", {"test": "wilcoxon", "correction": "hommel"}, 2),
        ("demsar2006", {"test": "mean-ranks", "correction": "finner", "tie_correction": True}, 2),
        ("demsar2006", {"test": "nemenyi", "alpha": 0.1}, 2),
        (
            "garcia2008_synthetic",
            {"higher_is_better": False, "test": "mean-ranks", "correction": "hochberg"},
            2,
        ),
        ("benavoli2016", {"test": "wilcoxon", "zero_method": "pratt", "correction": "finner"}, 2),
        (
            "benavoli2016",
            {"test": "wilcoxon", "zero_method": "zsplit", "exact": False, "continuity": False},
            2,
        ),
        ("benavoli2016", {"test": "sign", "ties": "discard", "correction": "hommel"}, 2),
        ("benavoli2016", {"test": "mean-ranks", "control": "C3", "correction": "li"}, 2),
        ("benavoli2016", {"test": "wilcoxon", "control": "C3", "correction": "hommel"}, 2),
    ],
)
def test_toggled_subsets_match_compare(browser, tmp_path, table, kwargs, subsets):
    data = cdplot.datasets.load(table)
    # the live numbers are checked here: the page is written without its static diagram
    path = _write(tmp_path, quiet_compare(data, **kwargs), diagram=False)
    visit = _Visit(browser, path)
    rng = np.random.default_rng(zlib.crc32(repr((table, sorted(kwargs.items()))).encode()))
    try:
        _check_against_compare(visit.state(), quiet_compare(data, **kwargs))
        for _ in range(subsets):
            size = int(rng.integers(3, len(data)))
            chosen = sorted(rng.choice(len(data), size=size, replace=False))
            names = [data.index[i] for i in chosen]
            visit.select(names)
            _check_against_compare(visit.state(), quiet_compare(data.iloc[chosen], **kwargs))
        assert visit.errors == []
    finally:
        visit.close()


def test_other_tests_show_the_full_table_greyed(browser, tmp_path):
    data = cdplot.datasets.load("demsar2006")
    path = _write(tmp_path, quiet_compare(data, test="paired-t"))
    visit = _Visit(browser, path)
    try:
        visit.select(list(data.index[:6]))
        state = visit.state()
        sub = quiet_compare(data.iloc[:6], test="paired-t")
        assert float(state["friedman"]) == pytest.approx(sub.friedman.pvalue, rel=1e-9)
        full = quiet_compare(data, test="paired-t")
        assert [tuple(g) for g in state["groups"]] == [tuple(g) for g in full.groups]
        note = visit.page.locator(".cdplot-note").inner_text()
        assert "paired t-test" in note.lower() and "full table" in note
        assert visit.errors == []
    finally:
        visit.close()


def test_two_notebook_displays_on_one_page_work_apart(browser, tmp_path):
    demsar = cdplot.datasets.load("demsar2006")
    first, second = quiet_compare(demsar), quiet_compare(demsar, test="nemenyi")
    path = tmp_path / "notebook.html"
    path.write_text(
        "<!DOCTYPE html><html><head><meta charset='utf-8'></head><body>"
        f"{first._repr_html_()}{second._repr_html_()}</body></html>",
        encoding="utf-8",
    )
    visit = _Visit(browser, path)
    try:
        sections = visit.page.locator(".cdplot-explorer")
        assert sections.count() == 2
        sections.nth(1).locator('input[data-dataset="iris"]').uncheck()
        cd = (
            sections.nth(1)
            .locator("[data-cdplot-result]")
            .get_attribute("data-critical-difference")
        )
        subset = quiet_compare(demsar.drop(index="iris"), test="nemenyi")
        assert float(cd) == pytest.approx(subset.critical_difference, rel=1e-12)
        assert sections.nth(0).locator("input[data-dataset]:checked").count() == 14
        assert visit.errors == []
    finally:
        visit.close()


def test_controls_work_from_the_keyboard(browser, tmp_path):
    data = cdplot.datasets.load("demsar2006")
    visit = _Visit(browser, _write(tmp_path, quiet_compare(data)))
    page = visit.page
    try:
        page.get_by_label("Filter datasets").fill("breast")
        shown = page.locator(".cdplot-dataset-list li:visible")
        assert shown.count() == 2  # breast cancer, breast cancer wisconsin
        page.get_by_role("button", name="None").press("Enter")  # none of those shown
        assert page.locator("input[data-dataset]:checked").count() == 12
        page.get_by_label("Filter datasets").fill("")
        box = page.locator('input[data-dataset="iris"]')
        box.focus()
        page.keyboard.press("Space")
        remaining = [d for d in data.index if d != "iris" and "breast" not in d]
        _check_against_compare(visit.state(), quiet_compare(data.loc[remaining]))
        page.get_by_role("button", name="None").press("Enter")
        assert visit.page.locator("#cdplot-result").get_attribute("data-friedman-p") == ""
        assert "at least two datasets" in page.locator(".cdplot-omnibus").inner_text()
        page.get_by_role("button", name="All").press("Enter")
        _check_against_compare(visit.state(), quiet_compare(data))
        assert visit.errors == []
        # hovering an algorithm shows its adjusted p-values against the others
        page.locator('tr[data-algorithm="C4.5+m+cf"]').hover()
        detail = page.locator(".cdplot-detail").inner_text()
        assert "C4.5+m+cf" in detail and "vs C4.5" in detail and "rank interval" in detail
    finally:
        visit.close()


def test_downloads_are_the_figure_and_the_table(browser, tmp_path):
    data = cdplot.datasets.load("demsar2006")
    visit = _Visit(browser, _write(tmp_path, quiet_compare(data, test="nemenyi")))
    page = visit.page
    try:
        with page.expect_download() as svg:
            page.get_by_role("button", name="Download figure (SVG)").click()
        text = Path(svg.value.path()).read_text(encoding="utf-8")
        assert text.startswith("<svg") and "C4.5+m+cf" in text
        with page.expect_download() as table:
            page.get_by_role("button", name="Download table (CSV)").click()
        rows = list(csv.DictReader(io.StringIO(Path(table.value.path()).read_text())))
        assert [r["algorithm"] for r in rows] == list(quiet_compare(data).average_ranks.index)
    finally:
        visit.close()


def test_print_style_hides_the_controls(browser, tmp_path):
    visit = _Visit(browser, _write(tmp_path, quiet_compare(cdplot.datasets.load("demsar2006"))))
    try:
        visit.page.emulate_media(media="print")
        assert not visit.page.get_by_role("button", name="All").is_visible()
        assert not visit.page.get_by_label("Filter datasets").is_visible()
        assert visit.page.locator(".cdplot-live-figure svg").is_visible()
        assert visit.page.locator('input[data-dataset="iris"]').is_visible()  # the selection
    finally:
        visit.close()


@pytest.mark.parametrize("width", [390, 1280, 1920])
def test_no_horizontal_overflow_and_screenshots(browser, tmp_path, width):
    res = quiet_compare(cdplot.datasets.load("benavoli2016"), test="nemenyi")
    visit = _Visit(browser, _write(tmp_path, res), width=width)
    page = visit.page
    try:
        overflow = page.evaluate(
            "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
        assert overflow <= 0
        figure = page.locator(".cdplot-live-figure svg")
        assert figure.bounding_box()["width"] <= width
        page.screenshot(path=str(tmp_path / f"page-{width}.png"), full_page=True)
        assert (tmp_path / f"page-{width}.png").stat().st_size > 10_000
    finally:
        visit.close()


def test_large_k_draws_the_rank_plot(browser, tmp_path):
    rng = np.random.default_rng(7)
    scores = pd.DataFrame(
        rng.normal(size=(40, 30)) + np.linspace(0, 2, 30),
        columns=[f"m{j:02d}" for j in range(30)],
    )
    res = quiet_compare(scores, test="nemenyi")
    visit = _Visit(browser, _write(tmp_path, res))
    try:
        assert visit.page.locator(".cdplot-live-figure svg circle").count() == 30
        subset = list(range(0, 40, 2))
        visit.select([res.datasets[i] for i in subset])
        _check_against_compare(visit.state(), quiet_compare(scores.iloc[subset], test="nemenyi"))
    finally:
        visit.close()


def test_special_functions_against_scipy(browser, tmp_path):
    """The page's chi-square, F, binomial, erfc and studentized-range tails (1e-12 relative)."""
    visit = _Visit(browser, _write(tmp_path, quiet_compare(cdplot.datasets.load("demsar2006"))))
    chi2 = [(df, x) for df in (1, 3, 6, 49) for x in (0.01, 0.5, 3.0, 20.0, 150.0)]
    fs = [(d1, d2, f) for d1, d2 in ((3, 39), (6, 318), (49, 4851)) for f in (0.2, 1.1, 3.0, 9.0)]
    binom = [(k, n) for n in (5, 14, 54, 300) for k in (0, n // 4, n // 2 - 1)]
    erfc = [0.0, 0.3, 1.0, 2.5, 6.0, 20.0]
    got = visit.page.evaluate(
        """([chi2, fs, binom, erfc]) => {
            const m = window.cdplotMath;
            return [chi2.map(([d, x]) => m.chi2Sf(d, x)),
                    fs.map(([a, b, f]) => m.fSf(a, b, f)),
                    binom.map(([k, n]) => m.binomCdfHalf(k, n)),
                    erfc.map((x) => m.erfc(x))];
        }""",
        [chi2, fs, binom, erfc],
    )
    np.testing.assert_allclose(got[0], [special.chdtrc(d, x) for d, x in chi2], rtol=1e-12)
    np.testing.assert_allclose(got[1], [special.fdtrc(a, b, f) for a, b, f in fs], rtol=1e-12)
    np.testing.assert_allclose(got[2], [special.bdtr(k, n, 0.5) for k, n in binom], rtol=1e-12)
    np.testing.assert_allclose(got[3], special.erfc(erfc), rtol=1e-13)
    # the studentized range (infinite df): scipy.stats.studentized_range, to its accuracy
    rule = page_payload(quiet_compare(cdplot.datasets.load("demsar2006"), test="nemenyi"))
    qs = [(0.5, 4), (2.5, 4), (2.949 * math.sqrt(2.0), 7), (5.0, 10)]
    sf = visit.page.evaluate(
        "([qs, rule]) => qs.map(([q, k]) => window.cdplotMath.rangeSf(q, k, rule))",
        [qs, rule["quadrature"]],
    )
    want = [stats.studentized_range.sf(q, k, np.inf) for q, k in qs]
    np.testing.assert_allclose(sf, want, rtol=1e-7)
    # Demšar (2006) Table 5(a): q_0.05 = 2.949 for k = 7 (the range over sqrt 2, 3 decimals)
    assert math.isclose(sf[2], 0.05, rel_tol=5e-3)
    visit.close()

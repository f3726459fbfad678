"""The interactive page click by click: sums kept up to date, work done only when read.

A click moves one dataset in or out of the selection; the page then updates the per-pair
sums of the Wilcoxon and sign tests by that dataset instead of summing every dataset
again, starts from the full table's sums written by cdplot's own kernel, and computes a
Nemenyi p-value only when something reads it. What is checked, and against what:

* after every single click the live numbers equal ``cdplot.compare`` on the same subset
  (``_check_against_compare`` of ``test_page.py``), with ties and zero differences under
  each zero method, for the sign test's two tie rules and against a control;
* the sums a run of clicks leaves equal the sums the page computes from scratch for the
  same selection, and the full table's sums in the payload equal the page's own;
* the payload's encodings: the scores as base64 float64 exactly when shorter, the sums as
  an independent computation (``scipy.stats.rankdata`` of ``|d|``) gives them;
* at k = 300 and N = 100 a click recomputes the page within a budget the page missed by
  far when it summed every dataset again (about 1 s a click, issue measurement).
"""

from __future__ import annotations

import base64
import json
import statistics

import numpy as np
import pandas as pd
import pytest
from _helpers import quiet_compare
from scipy import stats
from test_page import _check_against_compare, _Visit, _write, browser  # noqa: F401

import cdplot
from cdplot.report._page import page_payload
from cdplot.report._page_encode import pair_sums_field, scores_field

#: A click at k = 300, N = 100 (script time, median of five) within this many ms; the page
#: took 0.8-2.5 s a click when it summed every dataset and every pair again.
CLICK_BUDGET_MS = 400.0


def _coarse(seed: int, n: int = 16, k: int = 6) -> pd.DataFrame:
    """Scores on a grid of 0.1: many tied and zero differences."""
    rng = np.random.default_rng(seed)
    values = np.round(rng.normal(size=(n, k)) + np.linspace(0, 1.5, k), 1)
    return pd.DataFrame(values, columns=[f"m{j}" for j in range(k)])


def _unpack(field: dict, m: int) -> np.ndarray:
    if field is None:
        return np.zeros(m)
    kinds = {1: "<u1", 2: "<u2", 4: "<u4", 8: "<f8"}
    return np.frombuffer(base64.b64decode(field["data"]), dtype=kinds[field["bytes"]]).astype(float)


# ------------------------------------------------------------------- without a browser


def test_scores_are_base64_float64_when_shorter():
    full = np.random.default_rng(0).normal(size=(5, 4))
    packed = scores_field(full)
    assert isinstance(packed, str)
    assert np.array_equal(np.frombuffer(base64.b64decode(packed), "<f8").reshape(5, 4), full)
    few_digits = np.round(full, 2)
    assert scores_field(few_digits) == few_digits.tolist()  # shorter as JSON numbers


def test_page_payload_is_compact_at_k300():
    rng = np.random.default_rng(3)
    scores = pd.DataFrame(rng.normal(size=(100, 300)) + np.linspace(0, 3, 300))
    payload = page_payload(quiet_compare(scores))
    assert isinstance(payload["scores"], str)  # 11 characters a score instead of ~19
    assert len(json.dumps(payload)) < 700_000


@pytest.mark.parametrize("higher", [True, False])
def test_pair_sums_equal_ranks_of_absolute_differences(higher):
    data = _coarse(4, n=15, k=5)
    res = quiet_compare(data, test="wilcoxon", higher_is_better=higher)
    field = pair_sums_field(res)
    x = data.to_numpy() * (1 if higher else -1)
    k, n = x.shape[1], x.shape[0]
    m = k * (k - 1) // 2
    got = {name: _unpack(field[name], m) for name in ("rankMinus2", "negatives", "zeros", "ties")}
    t = 0
    for i in range(k):
        for j in range(i + 1, k):
            d = x[:, i] - x[:, j]
            ranks = stats.rankdata(np.abs(d))  # average ranks of |d|, zeros included
            _, counts = np.unique(np.abs(d[d != 0]), return_counts=True)
            assert got["rankMinus2"][t] == 2 * ranks[d < 0].sum()
            assert got["negatives"][t] == np.count_nonzero(d < 0)
            assert got["zeros"][t] == np.count_nonzero(d == 0)
            assert got["ties"][t] == float(np.sum(counts.astype(float) ** 3 - counts))
            t += 1
    assert n == 15


def test_pair_sums_only_for_every_pair_of_a_wilcoxon_test():
    data = _coarse(5)
    assert pair_sums_field(quiet_compare(data, test="sign")) is None
    assert pair_sums_field(quiet_compare(data, test="wilcoxon", control="m0")) is None


# ------------------------------------------------------------------- in the browser

CLICKS = """(index) => {
    document.querySelectorAll('input[data-dataset]')[index].click();
}"""

SUMS = """() => {
    const state = document.querySelector('.cdplot-explorer').cdplotPage.model.state;
    return [state.a, state.b, state.rank2, state.ties].map((v) => Array.from(v));
}"""


@pytest.mark.parametrize(
    "kwargs",
    [
        {"test": "wilcoxon"},
        {"test": "wilcoxon", "zero_method": "pratt", "correction": "finner"},
        {"test": "wilcoxon", "zero_method": "zsplit", "correction": "hommel"},
        {"test": "wilcoxon", "exact": False, "continuity": False},
        {"test": "wilcoxon", "control": "m2", "correction": "holm"},
        {"test": "sign"},
        {"test": "sign", "ties": "discard", "correction": "shaffer"},
        {"test": "nemenyi"},
        {"test": "mean-ranks", "control": "m0", "correction": "li"},
    ],
)
def test_each_click_matches_compare(browser, tmp_path, kwargs):  # noqa: F811
    data = _coarse(11)
    visit = _Visit(browser, _write(tmp_path, quiet_compare(data, **kwargs), diagram=False))
    ticked = list(range(len(data)))
    try:
        for index in (3, 7, 3, 0, 12, 5, 7):  # out, out, back in, ...
            visit.page.evaluate(CLICKS, index)
            ticked = sorted(set(ticked) ^ {index})
            _check_against_compare(visit.state(), quiet_compare(data.iloc[ticked], **kwargs))
        assert visit.errors == []
    finally:
        visit.close()


MODEL = "document.querySelector('.cdplot-explorer').cdplotPage.model"

TICK = """(flags) => {
    const boxes = [...document.querySelectorAll('input[data-dataset]')];
    boxes.forEach((b, i) => { b.checked = flags[i] === '1'; });
    boxes[0].dispatchEvent(new Event('change', {bubbles: true}));
}"""


@pytest.mark.parametrize("test", ["wilcoxon", "sign"])
def test_sums_after_clicks_equal_sums_from_scratch(browser, tmp_path, test):  # noqa: F811
    data = _coarse(12, n=20, k=7)
    visit = _Visit(browser, _write(tmp_path, quiet_compare(data, test=test), diagram=False))
    page = visit.page
    try:
        loaded = page.evaluate(SUMS)  # the wilcoxon test's from the payload
        # from scratch: no full-table sums to start from, no dataset moved one by one
        page.evaluate(f"() => {{ {MODEL}.cfg.pairSums = null; {MODEL}.movesMax = 0; }}")
        page.get_by_role("button", name="None").click()
        page.get_by_role("button", name="All").click()
        assert page.evaluate(SUMS) == loaded
        page.evaluate(f"() => {{ {MODEL}.movesMax = 16; }}")
        for index in (2, 9, 4, 2, 15, 0, 1, 3):  # one dataset a click
            page.evaluate(CLICKS, index)
        by_clicks = page.evaluate(SUMS)
        ticked = page.evaluate(f"() => {MODEL}.ticked.join('')")
        page.evaluate(f"() => {{ {MODEL}.movesMax = 0; }}")
        page.get_by_role("button", name="None").click()
        page.evaluate(TICK, ticked)
        assert page.evaluate(SUMS) == by_clicks
        assert visit.errors == []
    finally:
        visit.close()


def test_all_after_a_few_clicks_starts_from_the_full_table(browser, tmp_path):  # noqa: F811
    data = _coarse(13, n=40, k=6)
    res = quiet_compare(data, test="wilcoxon")
    visit = _Visit(browser, _write(tmp_path, res, diagram=False))
    page = visit.page
    try:
        loaded = page.evaluate(SUMS)
        flags = ["1"] * 40
        for index in range(0, 40, 2):
            flags[index] = "0"
        page.evaluate(TICK, "".join(flags))  # 20 datasets out at once: summed afresh
        half = [i for i in range(40) if flags[i] == "1"]
        _check_against_compare(visit.state(), quiet_compare(data.iloc[half], test="wilcoxon"))
        flags[0] = "1"
        page.evaluate(TICK, "".join(flags))
        page.get_by_role("button", name="All").click()  # the full table's sums, reloaded
        assert page.evaluate(SUMS) == loaded
        _check_against_compare(visit.state(), res)
        assert visit.errors == []
    finally:
        visit.close()


def test_nemenyi_pvalues_are_computed_when_read(browser, tmp_path):  # noqa: F811
    rng = np.random.default_rng(9)
    scores = pd.DataFrame(rng.normal(size=(30, 60)) + np.linspace(0, 3, 60))
    res = quiet_compare(scores, test="nemenyi")
    visit = _Visit(browser, _write(tmp_path, res, diagram=False))
    page = visit.page
    count = """() => {
        const res = document.querySelector('.cdplot-explorer').cdplotPage.res;
        return res.apvs.filter((v) => v === v).length;
    }"""
    try:
        # the groups and intervals are decided from the critical distance: no p-value yet
        assert page.evaluate(count) < 60
        name = str(res.algorithms[0])
        page.locator(f'tr[data-algorithm="{name}"]').hover()
        assert page.evaluate(count) >= 2 * 59  # the row hovered (and its mirror)
        _check_against_compare(visit.state(), res)  # the CSV reads every pair
        assert visit.errors == []
    finally:
        visit.close()


def test_focus_and_hover_show_the_algorithm(browser, tmp_path):  # noqa: F811
    data = cdplot.datasets.load("demsar2006")
    visit = _Visit(browser, _write(tmp_path, quiet_compare(data)))
    page = visit.page
    try:
        page.locator('tr[data-algorithm="C4.5"]').focus()  # from the keyboard
        assert "C4.5: average rank" in page.locator(".cdplot-detail").inner_text()
        page.locator('.cdplot-live-figure g[data-algorithm="C4.5+m+cf"] text').first.hover()
        assert "C4.5+m+cf: average rank" in page.locator(".cdplot-detail").inner_text()
        page.locator('input[data-dataset="iris"]').click()  # the panel follows the click
        sub = quiet_compare(data.drop(index="iris"))
        want = f"average rank {sub.average_ranks['C4.5+m+cf']:.3f}"
        assert want in page.locator(".cdplot-detail").inner_text()
        assert visit.errors == []
    finally:
        visit.close()


@pytest.mark.slow
@pytest.mark.parametrize("test", ["wilcoxon", "nemenyi"])
def test_click_at_k300_is_fast(browser, tmp_path, test):  # noqa: F811
    rng = np.random.default_rng(45)
    scores = pd.DataFrame(
        rng.normal(size=(100, 300)) + np.linspace(0, 3, 300),
        columns=[f"model_{j:03d}" for j in range(300)],
    )
    path = _write(tmp_path, quiet_compare(scores, test=test), diagram=False)
    assert path.stat().st_size < 2_000_000
    visit = _Visit(browser, path)
    try:
        times = [
            visit.page.evaluate(
                """(i) => {
                    const box = document.querySelectorAll('input[data-dataset]')[i];
                    const t0 = performance.now();
                    box.click();
                    return performance.now() - t0;
                }""",
                i,
            )
            for i in (3, 8, 3, 20, 8)
        ]
        assert statistics.median(times) < CLICK_BUDGET_MS, times
        assert visit.errors == []
    finally:
        visit.close()


def test_names_in_the_live_table_stay_text(browser, tmp_path):  # noqa: F811
    data = _coarse(14, n=10, k=4)
    data.columns = ['<img src=x onerror="window.hit=1">', "a&b", "c'd", '"e"']
    visit = _Visit(browser, _write(tmp_path, quiet_compare(data), diagram=False))
    try:
        names = visit.page.evaluate(
            """() => [...document.querySelectorAll('tr[data-algorithm]')].map(
                (r) => [r.dataset.algorithm, r.querySelector('th').textContent])"""
        )
        assert sorted(n for n, _ in names) == sorted(data.columns)
        assert all(name == shown for name, shown in names)
        assert visit.page.evaluate("() => document.querySelectorAll('tbody img').length") == 0
        assert visit.page.evaluate("() => window.hit") is None
        assert visit.errors == []
    finally:
        visit.close()


def test_off_screen_parts_wait_on_screen_and_print_whole(browser, tmp_path):  # noqa: F811
    rng = np.random.default_rng(15)
    scores = pd.DataFrame(rng.normal(size=(20, 80)) + np.linspace(0, 3, 80))
    visit = _Visit(browser, _write(tmp_path, quiet_compare(scores)))
    style = """() => ['.cdplot-scroll', '.cdplot-detail', '#settings'].map(
        (s) => getComputedStyle(document.querySelector(s)).contentVisibility)"""
    try:
        assert visit.page.evaluate(style) == ["auto", "auto", "auto"]
        visit.page.emulate_media(media="print")
        assert visit.page.evaluate(style) == ["visible", "visible", "visible"]
        visit.page.emulate_media(media="screen")
        # scrolled to, the live table is laid out with every row
        visit.page.locator(".cdplot-live-table").scroll_into_view_if_needed()
        rows = visit.page.locator(".cdplot-live-table tbody tr")
        assert rows.count() == 80 and rows.nth(79).bounding_box()["height"] > 10
    finally:
        visit.close()


def test_figure_follows_its_box_width(browser, tmp_path):  # noqa: F811
    visit = _Visit(browser, _write(tmp_path, quiet_compare(cdplot.datasets.load("demsar2006"))))
    page = visit.page
    width = "() => document.querySelector('.cdplot-live-figure svg').getAttribute('width')"
    try:
        before = float(page.evaluate(width))
        # the box narrows without a window resize (as a notebook's panel can)
        page.evaluate("() => { document.querySelector('.cdplot-live').style.width = '420px'; }")
        page.wait_for_function(f"() => ({width})() !== '{before:g}'", timeout=5000)
        assert float(page.evaluate(width)) == pytest.approx(420, abs=2)
        assert visit.errors == []
    finally:
        visit.close()


@pytest.mark.parametrize("test", ["wilcoxon", "sign"])
def test_warming_up_leaves_the_sums_as_they_were(browser, tmp_path, test):  # noqa: F811
    data = _coarse(16, n=12, k=5)
    visit = _Visit(browser, _write(tmp_path, quiet_compare(data, test=test), diagram=False))
    page = visit.page
    try:
        page.evaluate(CLICKS, 4)  # from a selection that is not every dataset, too
        before = page.evaluate(SUMS), page.evaluate(f"() => {MODEL}.ticked.join('')")
        page.evaluate(f"() => {MODEL}.warm()")  # what the page runs once when idle
        assert (page.evaluate(SUMS), page.evaluate(f"() => {MODEL}.ticked.join('')")) == before
        _check_against_compare(visit.state(), quiet_compare(data.drop(index=4), test=test))
        assert visit.errors == []
    finally:
        visit.close()

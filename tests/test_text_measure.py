"""The one text measurer of the figures (plotting/_text_measure.py).

Consistency only: the measurer is matplotlib's own metrics; what is checked is that every
figure measures through it and that its options behave as documented.
"""

from __future__ import annotations

import ast
from pathlib import Path

import matplotlib as mpl
import pytest

import cdplot
from cdplot.plotting import _cd_layout, _rank_layout
from cdplot.plotting._text_measure import OUTPUT_DPIS, CachedMeasure, TextMeasure

PLOTTING = Path(cdplot.__file__).parent / "plotting"


def _measuring_code(path: Path) -> list[str]:
    """Classes named like a measurer and ``Text(...)`` artists made to be measured."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ClassDef) and node.name.endswith("Measure"):
            found.append(f"class {node.name}")
        elif isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Text":
            found.append(f"line {node.lineno}: Text(...)")
    return found


@pytest.mark.parametrize(
    "path", sorted(p for p in PLOTTING.glob("*.py") if p.name != "_text_measure.py")
)
def test_texts_are_measured_in_one_module(path):
    assert _measuring_code(path) == [], path.name


def test_the_layouts_cache_through_the_one_measurer():
    calls = []

    def fake(text, role):
        calls.append(text)
        return 0.1 * len(text), 0.2

    size = _cd_layout.cached_measure(fake)
    assert isinstance(size, CachedMeasure)
    assert size("ab", "name") == size("ab", "name") == pytest.approx((0.2, 0.2))
    assert calls == ["ab"]
    assert _rank_layout.CachedMeasure is CachedMeasure


def test_widest_roles_are_measured_at_the_widest_common_resolution():
    props = {"note": {"fontsize": 7.0}, "name": {"fontsize": 7.0}}
    dpi = float(mpl.rcParams["figure.dpi"])
    plain = TextMeasure(dpi, props)
    widest = TextMeasure(dpi, props, {"note"})
    text = "3 further pairs are not significantly different but not joined by a bar."
    assert widest(text, "name") == plain(text, "name")
    assert widest(text, "note")[1] == plain(text, "note")[1]
    ratio = widest(text, "note")[0] / plain(text, "note")[0]
    assert ratio >= 1.0
    at = {d: TextMeasure(d, props)(text, "note")[0] for d in (dpi, *OUTPUT_DPIS)}
    assert ratio * at[dpi] >= 0.97 * max(at.values())  # one specimen stands for all texts


def test_sizes_and_boxes_by_properties():
    measure = TextMeasure(100.0)
    w, h = measure.size("p = 0.05", fontsize=10.0)
    x0, y0, x1, y1 = measure.box("p = 0.05", fontsize=10.0, ha="center", va="center")
    assert x1 - x0 == pytest.approx(w) and y1 - y0 == pytest.approx(h)
    assert x0 == pytest.approx(-w / 2, abs=0.02) and measure.box(
        "p = 0.05", fontsize=10.0, ha="center", va="center"
    ) == (x0, y0, x1, y1)

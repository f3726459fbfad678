"""The CD diagram's layout is computed once when the figure is chosen and then drawn.

The command line's ``--figure auto`` (the default) lays the diagram out to judge whether it
reads (``choose_figure``), then draws it: that second layout is the first one, reused for
the same result, options, width, dpi and fonts. Any change among these lays it out anew.
"""

from __future__ import annotations

import matplotlib as mpl
import numpy as np
import pytest

import cdplot
from cdplot.cli._main import main
from cdplot.plotting import _cd


@pytest.fixture
def layout_calls(monkeypatch):
    """Count the CD layouts computed (cdplot.plotting._cd_layout.compute_layout)."""
    calls = []
    original = _cd.compute_layout

    def counting(*args, **kwargs):
        calls.append(kwargs.get("width"))
        return original(*args, **kwargs)

    monkeypatch.setattr(_cd, "compute_layout", counting)
    monkeypatch.setattr(_cd, "_last_layout", None, raising=False)
    return calls


def _table(k: int, n: int = 30) -> np.ndarray:
    rng = np.random.default_rng(3)
    return rng.normal(size=(n, k)) + np.linspace(0, 1, k)


def _write_csv(path, table: np.ndarray) -> None:
    names = [f"algorithm {j}" for j in range(table.shape[1])]
    lines = ["dataset," + ",".join(names)]
    lines += [f"d{i}," + ",".join(repr(float(v)) for v in row) for i, row in enumerate(table)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


@pytest.mark.parametrize("k", [5, 10])
def test_the_command_line_lays_the_diagram_out_once(tmp_path, layout_calls, capsys, k):
    csv = tmp_path / "results.csv"
    _write_csv(csv, _table(k))
    assert main(["compare", str(csv), "-o", str(tmp_path / "cd.pdf")]) == 0
    assert "legible" in capsys.readouterr().out  # the choice was made by the layout
    assert (tmp_path / "cd.pdf").stat().st_size > 0
    assert len(layout_calls) == 1  # before: 2 (the choice, then the drawing)


def test_choose_then_draw_reuses_the_layout(layout_calls):
    res = cdplot.compare(_table(8))
    assert cdplot.choose_figure(res, width=3.3) == "cd"
    ax = cdplot.cd_diagram(res, width=3.3)
    assert len(layout_calls) == 1
    reused = _cd._last_layout[2]
    assert ax.figure.get_size_inches()[1] == pytest.approx(reused.height)


def test_other_options_width_fonts_or_result_lay_out_anew(layout_calls):
    res = cdplot.compare(_table(8))
    cdplot.choose_figure(res, width=3.3)
    cdplot.cd_diagram(res, width=3.3, highlight="A2")  # other options
    cdplot.cd_diagram(res, width=4.0)  # another width
    with mpl.rc_context({"font.size": 13}):  # other fonts
        cdplot.cd_diagram(res, width=4.0)
    cdplot.cd_diagram(cdplot.compare(_table(8)), width=4.0)  # an equal but new result
    assert layout_calls == [3.3, 3.3, 4.0, 4.0, 4.0]


def test_a_reused_layout_draws_the_same_figure(tmp_path, monkeypatch):
    res = cdplot.compare(_table(8))
    monkeypatch.setattr(_cd, "_last_layout", None)
    fresh = cdplot.cd_diagram(res, width=3.3)
    monkeypatch.setattr(_cd, "_last_layout", None)
    cdplot.choose_figure(res, width=3.3)
    reused = cdplot.cd_diagram(res, width=3.3)
    assert [t.get_text() for t in reused.texts] == [t.get_text() for t in fresh.texts]
    assert [t.get_position() for t in reused.texts] == [t.get_position() for t in fresh.texts]
    assert reused.figure.get_size_inches().tolist() == fresh.figure.get_size_inches().tolist()


# ------------------------------------------------- the choice reads the axis and the bars


def _legibility_cases():
    for k in (5, 12, 20, 30, 40):
        for width in (3.3, 7.0):
            for test in ("wilcoxon", "nemenyi"):
                yield k, width, test


@pytest.mark.parametrize(("k", "width", "test"), list(_legibility_cases()))
def test_the_axis_legibility_equals_the_whole_layouts(k, width, test):
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cdplot.CdplotWarning)
        res = cdplot.compare(_table(k), test=test)
    opts = _cd._options(text_kws=None, line_kws=None, bar_kws=None)
    content = _cd._content(res, opts)
    whole = _cd._layout(content, opts, width, 100.0).legibility
    assert _cd._legibility(content, opts, width, 100.0) == whole


def test_an_illegible_diagram_is_not_laid_out_to_choose(layout_calls):
    import pandas as pd

    table = pd.DataFrame(_table(20, n=100), columns=[f"algorithm {j}" for j in range(20)])
    res = cdplot.compare(table)
    assert cdplot.choose_figure(res, width=3.3) == "ranks"
    assert layout_calls == []  # before: one whole layout (title, labels, notes), discarded

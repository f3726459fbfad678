"""``cdplot compare --columns N`` and ``--max-height INCHES``: the rank plot of a long board.

``--columns N`` draws :func:`cdplot.rank_plot` with ``columns=N``; ``--max-height`` chooses
the fewest panels whose figure is at most that tall. The figure heights are compared with
the Python API's own figures (``rank_plot(res, columns=c)``), read from the SVG's height.
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from _helpers import run

import cdplot

pytestmark = [
    pytest.mark.filterwarnings("ignore::cdplot.PoolDependenceWarning"),
    pytest.mark.filterwarnings("ignore::cdplot.CdplotWarning"),
]

K = 60
GUIDE = Path(__file__).resolve().parents[1] / "docs" / "guide" / "command-line.md"


@pytest.fixture(scope="module")
def board(tmp_path_factory):
    """60 algorithms over 12 datasets, in a CSV file, and its comparison."""
    rng = np.random.default_rng(7)
    scores = rng.normal(size=(12, K)) + np.linspace(0.0, 2.0, K)
    frame = pd.DataFrame(scores, columns=[f"m{j:02d}" for j in range(K)])
    frame.index = [f"d{i}" for i in range(12)]
    path = tmp_path_factory.mktemp("board") / "board.csv"
    frame.rename_axis("dataset").to_csv(path)
    return path, cdplot.compare(path)


def _api_height(result, columns):
    return cdplot.rank_plot(result, columns=columns, width=7).get_figure(root=True).get_figheight()


def _svg_height(path: Path) -> float:
    head = path.read_text(encoding="utf-8")[:2000]
    return float(re.search(r'<svg[^>]*\sheight="([0-9.]+)pt"', head).group(1)) / 72.0


def test_columns_draws_the_rank_plot_in_that_many_panels(board, tmp_path, capsys):
    path, result = board
    target = tmp_path / "ranks.svg"
    code, out, err = run(["compare", path, "--columns", "3", "--width", "7", "-o", target], capsys)
    assert code == 0, err
    assert "figure: the rank plot, which --columns applies to" in out
    assert _svg_height(target) == pytest.approx(_api_height(result, 3), abs=0.01)
    assert _api_height(result, 3) < _api_height(result, 1)


def test_max_height_chooses_the_fewest_panels_that_fit(board, tmp_path, capsys):
    path, result = board
    two, three = _api_height(result, 2), _api_height(result, 3)
    limit = round((two + three) / 2, 2)  # two panels are too tall, three fit
    assert three <= limit < two
    target = tmp_path / "ranks.svg"
    code, out, err = run(
        ["compare", path, "--figure", "ranks", "--max-height", limit, "--width", "7", "-o", target],
        capsys,
    )
    assert code == 0, err
    assert _svg_height(target) == pytest.approx(three, abs=0.01)
    assert _svg_height(target) <= limit


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--columns", "2"], "--columns 2 applies to the rank plot of -o; add -o FIGURE"),
        (["--max-height", "9", "--figure", "cd", "-o", "x.pdf"], "not --figure cd"),
        (["--columns", "0", "-o", "x.pdf"], "at least 1, got 0"),
        (["--max-height", "-1", "-o", "x.pdf"], "positive number of inches, got -1"),
        (["--max-height", "500", "-o", "x.pdf"], "at most 100 inches"),
        (["--columns", "2", "--max-height", "9", "-o", "x.pdf"], "not allowed with argument"),
    ],
)
def test_rank_plot_options_are_checked_before_reading(extra, message, tmp_path, capsys):
    missing = tmp_path / "not-read.csv"  # never opened: the options are refused first
    code, out, err = run(["compare", missing, *extra], capsys)
    assert code == 2
    assert message in err
    assert len(err.splitlines()) == 1
    assert list(tmp_path.iterdir()) == []


def test_more_panels_than_algorithms_and_too_low_a_page_are_refused(board, tmp_path, capsys):
    path, _ = board
    code, out, err = run(["compare", path, "--columns", "61", "-o", tmp_path / "x.svg"], capsys)
    assert code == 2
    assert "--columns 61 asks for more panels than there are algorithms (60)" in err
    code, out, err = run(["compare", path, "--max-height", "0.3", "-o", tmp_path / "x.svg"], capsys)
    assert code == 2
    assert "--max-height 0.3 is less than the rank plot's title, header and key need" in err
    code, out, err = run(["compare", path, "--columns", "20", "-o", tmp_path / "x.svg"], capsys)
    assert code == 2
    assert err.splitlines() == [
        "cdplot: error: --columns 20 makes the rank plot's panels too narrow for the names and "
        "the rank axis at this width; give a larger --width (or --column double), or fewer "
        "--columns."
    ]
    assert list(tmp_path.iterdir()) == []


def test_several_comparisons_refuse_rank_plot_options(board, tmp_path, capsys):
    path, _ = board
    code, out, err = run(
        ["compare", path, path, "--name", "a", "--name", "b", "--columns", "2", "-o", "x.pdf"],
        capsys,
    )
    assert code == 2
    assert "apply to the rank plot of one comparison" in err


def test_the_guide_lists_every_option_of_compare():
    from cdplot.cli._main import build_parser

    parser = build_parser()
    (sub,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    guide = GUIDE.read_text(encoding="utf-8")
    options = [o for a in sub.choices["compare"]._actions for o in a.option_strings if o != "-h"]
    missing = [o for o in options if o != "--help" and f"`{o}" not in guide]
    assert not missing, missing

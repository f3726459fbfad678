"""Names in the CD diagram are shortened only when they do not fit, and then keep what
tells them apart.

The room of a name is measured against what the diagram really has: both sides share the
room beside the axis, so a long name beside short ones is drawn whole; a name a little
too wide is drawn a little smaller (down to ``NAME_SHRINK_FLOOR``); only a name wider
still is shortened, and then the prefix all names share and its leading qualifiers go
first ("…RandomForestClassifier [1]", never "sklearn.… [1]"). Checked on the framework
names of the AutoML Benchmark at a one-column width (Python and the command line's PGF),
on OpenML flow names, and on the pure functions with a fake measure (one unit per
character).
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest
from _helpers import run

import cdplot
from cdplot.plotting._cd_layout import (
    ELLIPSIS,
    NAME_SHRINK_FLOOR,
    Columns,
    LayoutParams,
    common_prefix,
    fit_names,
    shorten_name,
    side_limits,
)

#: Framework names of the AutoML Benchmark (Gijsbers et al. 2024), as its result files spell them.
AMLB = [
    "constantpredictor", "RandomForest", "TunedRandomForest", "autosklearn", "AutoGluon",
    "flaml", "H2OAutoML",
]  # fmt: skip
#: \columnwidth of a two-column 10 pt article (229.5 pt), the CLI's --column article.
ARTICLE = 229.5 / 72.27
#: OpenML flow names: one pipeline, five estimators.
FLOW = "sklearn.pipeline.Pipeline(imputer=sklearn.impute.SimpleImputer,estimator=sklearn.{})"
ESTIMATORS = [
    "ensemble.RandomForestClassifier", "ensemble.GradientBoostingClassifier", "svm.SVC",
    "linear_model.LogisticRegression", "neighbors.KNeighborsClassifier",
]  # fmt: skip
FLOWS = [FLOW.format(e) for e in ESTIMATORS]


def board(names, seed=1, n=40):
    """Scores with distinct skills (seeded), one column per name."""
    rng = np.random.default_rng(seed)
    skill = np.linspace(0.0, 1.3, len(names))
    return pd.DataFrame(skill + rng.normal(0, 0.5, (n, len(names))), columns=names)


def drawn_names(ax):
    return [t.get_text() for t in ax.texts if (t.get_gid() or "").startswith("cd-name")]


def width_of(text: str) -> float:
    """Fake measure: one unit per character."""
    return float(len(text))


def test_amlb_frameworks_whole_at_one_column():
    res = cdplot.compare(board(AMLB))
    ax = cdplot.cd_diagram(res, width=ARTICLE)
    shown = drawn_names(ax)
    assert len(shown) == len(AMLB)
    assert not [s for s in shown if ELLIPSIS in s or "[" in s], shown
    assert sorted(s.replace("\n", "") for s in shown) == sorted(AMLB)
    assert not [t for t in ax.texts if t.get_gid() == "cd-note" and t.get_text().startswith("[")]
    figure = ax.get_figure()
    renderer = figure.canvas.get_renderer()
    for text in ax.texts:  # whole names, and still inside the figure
        box = text.get_window_extent(renderer)
        assert box.x0 >= 0 and box.x1 <= figure.bbox.width, text.get_text()


def test_amlb_frameworks_whole_in_the_cli_pgf_at_column_article(tmp_path, capsys):
    from cdplot.plotting._pgf import PGF_ENGINES

    if not any(__import__("shutil").which(e) for e in PGF_ENGINES):
        pytest.skip("PGF output needs a TeX engine")
    table = board(AMLB).reset_index(names="task")
    long = table.melt(id_vars="task", var_name="framework", value_name="score")
    long.to_csv(tmp_path / "amlb.csv", index=False)
    args = [tmp_path / "amlb.csv", "--algorithm-col", "framework", "--dataset-col", "task"]
    code, _, err = run(
        ["compare", *args, "-o", tmp_path / "cd.pgf", "--figure", "cd", "--column", "article"],
        capsys,
    )
    assert code == 0, err
    pgf = (tmp_path / "cd.pgf").read_text(encoding="utf-8")
    assert r"\ldots" not in pgf
    texts = "".join(re.findall(r"\\def%\{\\%\}(.*?)\}\}%\n", pgf))  # lines of a name in order
    for name in AMLB:
        assert name in texts, texts


def test_flow_names_keep_the_estimator():
    res = cdplot.compare(board(FLOWS, seed=2, n=30))
    ax = cdplot.cd_diagram(res, width=7)
    shown = drawn_names(ax)
    for name in shown:
        assert not name.startswith("sklearn."), name
        assert re.fullmatch(rf"{ELLIPSIS}\S+ \[\d\]", name), name
    classes = {re.match(rf"{ELLIPSIS}(?:\w+\.)?(\w+) ", s).group(1) for s in shown}
    assert classes == {e.split(".")[-1] for e in ESTIMATORS}  # each tells its flow apart
    notes = [t.get_text() for t in ax.texts if t.get_gid() == "cd-note"]
    assert sorted(n.split("] ", 1)[1] for n in notes) == sorted(FLOWS)  # full names below


@pytest.mark.parametrize(
    ("names", "prefix"),
    [
        (
            FLOWS,
            "sklearn.pipeline.Pipeline(imputer=sklearn.impute.SimpleImputer,estimator=sklearn.",
        ),
        (["model_01", "model_02"], "model_"),
        (["MR-Hydra", "MR-Hydra-2"], "MR-"),
        (["alpha", "alphabet"], ""),  # not inside a word
        (["same", "same"], ""),  # never a whole name
        (["only"], ""),
        (["RandomForest", "TunedRandomForest"], ""),
    ],
)
def test_common_prefix(names, prefix):
    assert common_prefix(names) == prefix


@pytest.mark.parametrize(
    ("name", "limit", "prefix", "shown"),
    [
        # the shared prefix goes first, then leading qualifiers, the bracket it opened too
        (FLOWS[0], 40, common_prefix(FLOWS), "…ensemble.RandomForestClassifier [1]"),
        (FLOWS[0], 30, common_prefix(FLOWS), "…RandomForestClassifier [1]"),
        (FLOWS[0], 30, "", "…RandomForestClassifier [1]"),
        (FLOWS[2], 30, common_prefix(FLOWS), "…svm.SVC [1]"),
        # nothing to drop: the end is cut, as before
        ("constantpredictor", 12, "", "constan… [1]"),
        # words and numbers are not qualifiers: "0.1", "(L2)", ", k"
        ("Gradient boosting, learning rate 0.1", 14, "", "Gradient… [1]"),
        ("Logistic regression (L2)", 14, "", "Logistic… [1]"),
        # even the last qualifier's part too wide: it is cut too
        ("org.example.AVeryLongClassName", 12, "", "…AVeryL… [1]"),
    ],
)
def test_shorten_name(name, limit, prefix, shown):
    text = shorten_name(name, limit, width_of, prefix=prefix, suffix=" [1]")
    assert text == shown
    assert width_of(text) <= limit


def test_a_narrow_side_leaves_its_room_to_the_other():
    cols = Columns(rank_col=4.0, marker_col=0.0, fixed=6.0, name_limit=10.0, names_room=20.0)
    side_of = {"a-rather-long-name": "left", "b": "right", "cc": "right"}

    def limits(cap=None, names=side_of):
        return side_limits(
            list(names), names, cols, max_name_width=cap,
            role_of=lambda n: "name", size=lambda s, role: (width_of(s), 1.0),
        )  # fmt: skip

    assert limits() == {"left": 18.0, "right": 10.0}
    assert limits(cap=12.0) == {"left": 12.0, "right": 10.0}
    both_long = {"a" * 15: "left", "b" * 15: "right"}
    assert limits(names=both_long) == {"left": 10.0, "right": 10.0}  # each half


def test_a_name_slightly_too_wide_is_shrunk_not_cut():
    size = lambda s, role: (width_of(s), 1.0)  # noqa: E731
    params = LayoutParams()
    name = "x" * 20
    room = 20 * (NAME_SHRINK_FLOOR + 0.05)
    fitted = fit_names([name], limit=room, role_of=lambda n: "name", long_names="truncate",
                       size=size, params=params)  # fmt: skip
    assert fitted.display[name] == name and not fitted.footnotes
    assert fitted.scales[name] == pytest.approx(room / 20)
    assert fitted.sizes[name][0] == pytest.approx(room)
    tight = 20 * (NAME_SHRINK_FLOOR - 0.05)
    cut = fit_names([name], limit=tight, role_of=lambda n: "name", long_names="truncate",
                    size=size, params=params)  # fmt: skip
    assert cut.display[name].endswith(f"{ELLIPSIS} [1]") and cut.footnotes == {name: 1}

"""Item-level input: per-task matrices, missing items, within-task tests, hierarchical bootstrap.

Reference p-values come from R (tests/reference/items_reference.R, which names each call:
``mcnemar.test``, ``binom.test``, ``t.test(paired = TRUE)``, ``p.adjust(method = "holm")``)
on tests/reference/items_data.csv; task means from pandas' ``groupby().mean()``.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import cdplot
from cdplot import CdplotInputError
from cdplot.io import prepare_input
from cdplot.stats import hierarchical_rank_intervals, item_tests, item_wins

REF = Path(__file__).parent / "reference"
pytestmark = [
    pytest.mark.filterwarnings("ignore::cdplot.PoolDependenceWarning"),
    pytest.mark.filterwarnings("ignore:with .* datasets the:cdplot.CdplotWarning"),
]


def _rows(n_tasks=6, models="ABCD", n_items=30, seed=1) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    out = []
    for t in range(n_tasks):
        for m, model in enumerate(models):
            hits = rng.random(n_items) < 0.35 + 0.12 * m
            out += [(f"task{t}", model, f"q{t}-{i}", float(h)) for i, h in enumerate(hits)]
    return pd.DataFrame(out, columns=["task", "model", "question_id", "correct"])


def test_item_table_is_averaged_per_task_and_kept():
    rows = _rows()
    res = cdplot.compare(rows)
    means = rows.groupby(["task", "model"])["correct"].mean()
    for (task, model), mean in means.items():
        assert res.scores.loc[task, model] == mean
    assert res.items.item == "question_id"
    assert res.aggregation.describe() == "scores are means over 30 question_ids"
    frame = res.items.frame("task2")
    want = rows[rows.task == "task2"].pivot(index="question_id", columns="model", values="correct")
    assert frame.to_numpy().tolist() == want.loc[frame.index, list("ABCD")].to_numpy().tolist()


def test_item_keyword_wins_and_median_aggregates_items():
    rows = _rows().rename(columns={"question_id": "prompt"})
    with pytest.raises(CdplotInputError):  # 'prompt' is no item name: read as repeated rows
        cdplot.compare(rows)
    res = cdplot.compare(rows, item="prompt", aggregate="median")
    med = rows.groupby(["task", "model"])["correct"].median()
    for (task, model), value in med.items():
        assert res.scores.loc[task, model] == value
    with pytest.raises(CdplotInputError, match=r"column 'nope' \(given as item=\)"):
        cdplot.compare(rows, item="nope")


def test_missing_items_follow_the_missing_policy():
    rows = _rows()
    gap = rows[~((rows.task == "task1") & (rows.model == "B") & rows.question_id.isin(["q1-0"]))]
    with pytest.raises(CdplotInputError, match=r"'B' has scores on 29 of the 30 items of task"):
        cdplot.compare(gap)
    kept = cdplot.compare(gap, missing="keep")
    t1 = gap[gap.task == "task1"]
    assert kept.scores.loc["task1", "B"] == t1[t1.model == "B"]["correct"].mean()
    dropped = cdplot.compare(gap, missing="drop")
    common = t1[t1.question_id != "q1-0"]
    for model in "ABCD":
        assert dropped.scores.loc["task1", model] == common[common.model == model].correct.mean()
    assert dropped.items.frame("task1").shape == (29, 4)
    with pytest.warns(cdplot.CdplotWarning, match=r"dropped 1 algorithm\(s\) .*'B'"):
        no_b = cdplot.compare(gap, missing="drop-algorithms")
    assert no_b.algorithms == ["A", "C", "D"]


def test_duplicate_items_are_refused():
    rows = _rows()
    with pytest.raises(CdplotInputError, match=r"has 2 rows for item 'q0-0' of task 'task0'"):
        cdplot.compare(pd.concat([rows, rows.iloc[:1]]))


def test_within_task_tests_match_r():
    data = pd.read_csv(REF / "items_data.csv")
    ref = pd.read_csv(REF / "items_reference.csv")
    items = prepare_input(data, item="item").items
    tab = item_tests(items, correction="holm")
    assert len(tab) == len(ref)
    for (_, got), (_, want) in zip(tab.iterrows(), ref.iterrows(), strict=True):
        assert (got.task, got.algorithm_1, got.algorithm_2) == (
            want.task,
            want.algorithm_1,
            want.algorithm_2,
        )
        assert got.pvalue == pytest.approx(want.pvalue, rel=1e-12)
        assert got.adjusted_pvalue == pytest.approx(want.holm, rel=1e-12)
        if want.r_test != "binom.test":  # binom.test reports b, cdplot the chi-square / t
            assert got.statistic == pytest.approx(want.statistic, rel=1e-12)
    assert set(tab.test) == {"McNemar chi-square (corrected)", "McNemar exact", "paired t"}


def test_sign_flip_is_exact_for_small_samples():
    x = np.array([0.3, 0.9, 0.4, 0.8, 0.65, 0.7])
    y = np.array([0.1, 0.5, 0.45, 0.6, 0.6, 0.2])
    d = x - y
    # all 2^6 sign patterns by brute force, the definition of the two-sided test
    stats = [
        abs(sum(s * v for s, v in zip(signs, d, strict=True)))
        for signs in itertools.product((1, -1), repeat=6)
    ]
    want = sum(v >= abs(d.sum()) - 1e-12 for v in stats) / 64
    rows = pd.DataFrame(
        {"task": "t", "model": ["A"] * 6 + ["B"] * 6, "item": list(range(6)) * 2, "s": [*x, *y]}
    )
    tab = item_tests(prepare_input(rows).items, method="permutation")
    assert tab.loc[0, "pvalue"] == want


def test_item_wins_and_figure_counts():
    res = cdplot.compare(_rows(n_items=200, seed=4))
    tab = item_tests(res)
    wins = item_wins(tab)
    sig = tab[tab.significant]
    assert int(wins.to_numpy().sum()) == len(sig)
    for _, row in sig.iterrows():
        assert row.better == (row.algorithm_1 if row.mean_1 > row.mean_2 else row.algorithm_2)


def test_item_tests_need_items():
    with pytest.raises(CdplotInputError, match=r"needs per-item scores"):
        item_tests(cdplot.compare(cdplot.datasets.load("demsar2006")))


def test_hierarchical_intervals_cover_and_are_reproducible():
    res = cdplot.compare(_rows(n_items=40, seed=7))
    a = hierarchical_rank_intervals(res, n_boot=300, random_state=3)
    b = hierarchical_rank_intervals(res, n_boot=300, random_state=3)
    pd.testing.assert_frame_equal(a, b)
    assert list(a.columns) == ["average_rank", "low", "high"]
    assert (a.low <= a.average_rank).all() and (a.average_rank <= a.high).all()
    assert a.average_rank.to_dict() == pytest.approx(res.average_ranks.to_dict())


def test_hierarchical_intervals_collapse_without_variation():
    # every item of every task ranks the models D > C > B > A: no resample changes a rank
    rows = [
        (f"t{t}", m, i, float(j)) for t in range(4) for j, m in enumerate("ABCD") for i in range(5)
    ]
    frame = pd.DataFrame(rows, columns=["task", "model", "item", "score"])
    ci = hierarchical_rank_intervals(prepare_input(frame).items, n_boot=50, random_state=0)
    assert ci.index.tolist() == ["D", "C", "B", "A"]
    assert ci.low.tolist() == ci.high.tolist() == [1.0, 2.0, 3.0, 4.0]


def test_hierarchical_items_widen_the_task_bootstrap():
    # one task-level bootstrap (items fixed) vs resampling the items too: with few, noisy
    # items per task the second is wider (the item-level uncertainty the first ignores)
    res = cdplot.compare(_rows(n_tasks=8, n_items=8, seed=11))
    hier = hierarchical_rank_intervals(res, n_boot=400, random_state=1)
    width = (hier.high - hier.low).mean()
    rng = np.random.default_rng(1)
    ranks = res.ranks.to_numpy()
    boots = ranks[rng.integers(0, len(ranks), size=(400, len(ranks)))].mean(axis=1)
    task_only = np.quantile(boots, [0.025, 0.975], axis=0)
    assert width > (task_only[1] - task_only[0]).mean()


def test_cli_item_col_prints_tests_and_intervals_and_writes_the_table(tmp_path, capsys):
    import polars as pl
    from _helpers import run

    rows = _rows(n_items=60, seed=5).rename(columns={"question_id": "prompt_idx"})
    pl.from_pandas(rows).write_parquet(tmp_path / "items.parquet")
    out_csv = tmp_path / "tests.csv"
    code, out, err = run(
        [
            "compare",
            tmp_path / "items.parquet",
            "--item-col",
            "prompt_idx",
            "--item-tests",
            out_csv,
        ],
        capsys,
    )
    assert code == 0, err
    flat = " ".join(out.split())
    assert f"read {str(tmp_path / 'items.parquet')!r} as Parquet (1,440 rows)" in flat
    assert "Within-task tests on the items (McNemar" in out
    assert "hierarchical bootstrap intervals (tasks, then items; 1000 replicates, seed 0)" in out
    written = pd.read_csv(out_csv, keep_default_na=False)
    want = item_tests(cdplot.compare(rows, item="prompt_idx"))
    assert written["pvalue"].tolist() == pytest.approx(want["pvalue"].tolist(), rel=1e-15)
    assert written["better"].tolist() == want["better"].tolist()
    ci = hierarchical_rank_intervals(cdplot.compare(rows, item="prompt_idx"), random_state=0)
    best = ci.index[0]
    assert f"  {best}  {ci.average_rank.iloc[0]:.2f}  [{ci.low.iloc[0]:.2f}," in out


def _wins_figure_tests() -> pd.DataFrame:
    return item_tests(cdplot.compare(_rows(n_items=200, seed=4)))


def test_item_wins_plot_cells_are_the_counts():
    from cdplot.plotting import item_wins_plot

    tab = _wins_figure_tests()
    ax = item_wins_plot(tab)
    wins = item_wins(tab)
    order = [t.get_text() for t in ax.get_yticklabels()]
    image = next(im for im in ax.get_images() if im.get_gid() == "item-wins-cells")
    shown = np.asarray(image.get_array())
    want = wins.loc[order, order].to_numpy(dtype=float)
    off = ~np.eye(len(order), dtype=bool)
    assert shown[off].tolist() == want[off].tolist()
    texts = [t.get_text() for t in ax.texts if t.get_gid() == "item-wins-annotation"]
    assert sorted(map(int, texts)) == sorted(want[off].astype(int).tolist())
    with pytest.raises(CdplotInputError, match=r"draws the table returned by"):
        item_wins_plot(pd.DataFrame({"x": [1]}))


@pytest.mark.mpl_image_compare(filename="item_wins.png")
def test_image_item_wins():
    from cdplot.plotting import item_wins_plot

    return item_wins_plot(_wins_figure_tests()).get_figure()


def test_rank_intervals_hierarchical_plugs_into_the_interval_object():
    res = cdplot.compare(_rows(n_tasks=8, n_items=60, seed=1))
    ri = cdplot.rank_intervals(res, method="hierarchical", n_boot=500, random_state=0)
    assert ri.method == "hierarchical"
    assert list(ri.algorithms) == list(res.average_ranks.index)
    assert (ri.low <= ri.high).all()
    assert ri.p_best.sum() == pytest.approx(1.0)
    boot = cdplot.rank_intervals(res, method="bootstrap", n_boot=500, random_state=0)
    # resampling the items too can only add uncertainty on these noisy 0/1 items
    assert ((ri.high - ri.low) >= (boot.high - boot.low)).all()
    with pytest.raises(CdplotInputError, match=r"needs per-item scores"):
        cdplot.rank_intervals(
            cdplot.compare(cdplot.datasets.load("demsar2006")), method="hierarchical"
        )
    with pytest.raises(CdplotInputError, match=r"drop on='scores'"):
        cdplot.rank_intervals(res, method="hierarchical", on="scores")


def test_rank_intervals_hierarchical_without_item_noise_is_exact():
    # items identical within each task and one model always best: every replicate ranks
    # the models alike, so each interval is its own rank and p_best is 1 for the best
    rows = [
        (f"t{t}", m, i, float(j)) for t in range(6) for j, m in enumerate("ABCD") for i in range(4)
    ]
    res = cdplot.compare(pd.DataFrame(rows, columns=["task", "model", "item", "score"]))
    ri = cdplot.rank_intervals(res, method="hierarchical", n_boot=200, random_state=0)
    assert ri.low.tolist() == ri.high.tolist() == [1, 2, 3, 4]
    assert ri.p_best.tolist() == [1.0, 0.0, 0.0, 0.0]


def test_item_refusals_name_the_file(tmp_path):
    rows = _rows()
    rows = rows[~((rows.task == "task1") & (rows.model == "B") & (rows.question_id == "q1-0"))]
    rows.to_csv(tmp_path / "items.csv", index=False)
    with pytest.raises(CdplotInputError, match=r"task 'task1' in '.*items.csv'; pass missing="):
        cdplot.compare(tmp_path / "items.csv")


def test_hierarchical_replicates_agree_with_a_plain_loop():
    """The vectorised resampler against a per-replicate loop written from the definition
    (draw tasks, then items of each drawn task, rank, average): same distribution, so the
    means and standard deviations of the replicates agree within Monte Carlo error."""
    from scipy.stats import rankdata

    from cdplot.stats._items import _replicates

    frame = _rows(n_tasks=6, models="ABC", n_items=15, seed=21)
    items = prepare_input(frame).items
    mats = items.matrices
    n_boot = 3000
    rng = np.random.default_rng(99)
    plain = np.empty((n_boot, 3))
    for b in range(n_boot):
        ranks = []
        for t in rng.integers(0, len(mats), size=len(mats)):
            mat = mats[t]
            rows = mat[rng.integers(0, mat.shape[0], size=mat.shape[0])]
            ranks.append(rankdata(-rows.mean(axis=0)))
        plain[b] = np.mean(ranks, axis=0)
    _, _, observed, fast = _replicates(items, n_boot, np.random.default_rng(5))
    se_mean = np.sqrt(plain.var(axis=0) / n_boot + fast.var(axis=0) / n_boot)
    assert np.all(np.abs(plain.mean(axis=0) - fast.mean(axis=0)) < 4.5 * se_mean)
    ratio = fast.std(axis=0) / plain.std(axis=0)
    assert np.all((ratio > 0.9) & (ratio < 1.1))

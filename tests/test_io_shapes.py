"""Real-world table shapes, each read as a person would read it.

Every fixture is built from one hand-made wide table (datasets x algorithms, made without
cdplot); the test checks that compare() on the fixture gives exactly the analysis of that
wide table, and the statistics of the wide table are checked against scipy:

- Friedman chi-square with tie correction: ``scipy.stats.friedmanchisquare(*wide.T)``;
- Wilcoxon p-value of one pair: ``scipy.stats.wilcoxon(x, y)`` (exact, no ties/zeros);
- aggregated means: ``float(fractions.Fraction`` sum ``/ n)`` (the exact mean, rounded once);
- per-cell standard deviations: ``numpy.std(runs, ddof=1)`` (rtol 1e-12).
"""

from __future__ import annotations

import io
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest
from _helpers import quiet_compare as quiet
from scipy import stats

import cdplot

ALGORITHMS = ["LogReg", "SVM", "RandomForest", "kNN"]
DATASETS = [f"ds{i:02d}" for i in range(12)]
TASK_IDS = [3, 31, 37, 43, 49, 53, 219, 3902, 3903, 3913, 9946, 9952]


@pytest.fixture(scope="module")
def hand_wide() -> pd.DataFrame:
    """The table a person would write down: 12 datasets x 4 algorithms, no ties."""
    rng = np.random.default_rng(12)
    base = rng.uniform(0.6, 0.9, size=(12, 1))
    skill = np.array([0.04, 0.02, 0.05, 0.0])
    values = np.round(base + skill + rng.normal(0, 0.03, size=(12, 4)), 4)
    return pd.DataFrame(values, index=pd.Index(DATASETS, name="dataset"), columns=ALGORITHMS)


def assert_same_analysis(res, ref):
    assert sorted(res.algorithms) == sorted(ref.algorithms)
    assert sorted(res.datasets) == sorted(ref.datasets)
    names = ref.algorithms
    pd.testing.assert_series_equal(
        res.average_ranks.sort_index(), ref.average_ranks.sort_index(), check_exact=True
    )
    pd.testing.assert_frame_equal(
        res.pvalues.loc[names, names], ref.pvalues.loc[names, names], check_exact=True
    )
    pd.testing.assert_frame_equal(res.scores.loc[ref.datasets, names], ref.scores, check_exact=True)
    assert res.friedman.statistic == ref.friedman.statistic
    assert res.groups == ref.groups


def test_hand_table_statistics_match_scipy(hand_wide):
    res = quiet(hand_wide, tie_correction=True, correction="none")
    chi2, p = stats.friedmanchisquare(*hand_wide.to_numpy().T)
    assert res.friedman.statistic == pytest.approx(chi2, rel=1e-12)
    assert res.friedman.pvalue == pytest.approx(p, rel=1e-10)
    w = stats.wilcoxon(hand_wide["LogReg"], hand_wide["kNN"])
    assert res.pvalues.loc["LogReg", "kNN"] == pytest.approx(w.pvalue, rel=1e-12)


def test_algorithm_first_long_table(hand_wide):
    # the shape that used to be read transposed: algorithm, dataset, accuracy
    long = hand_wide.reset_index().melt(
        id_vars="dataset", var_name="algorithm", value_name="accuracy"
    )[["algorithm", "dataset", "accuracy"]]
    res = quiet(long)
    assert res.algorithms == ALGORITHMS and res.datasets == DATASETS
    assert_same_analysis(res, quiet(hand_wide))


def per_fold_log(hand_wide: pd.DataFrame, rng: np.random.Generator) -> pd.DataFrame:
    """5 folds x 2 seeds per cell whose exact mean is the hand table's value."""
    rows = []
    for d in DATASETS:
        for a in ALGORITHMS:
            target = Fraction(float(hand_wide.loc[d, a]))
            offsets = [Fraction(int(x), 1000) for x in rng.integers(-20, 21, size=9)]
            offsets.append(-sum(offsets))  # the 10 runs average to the target exactly
            for r, off in enumerate(offsets):
                rows.append(
                    {
                        "Dataset": d,
                        "Model": a,
                        "fold": r % 5,
                        "seed": 100 + r // 5,
                        "accuracy": float(target + off),
                        "fit_time": 1.0 + r,
                    }
                )
    return pd.DataFrame(rows)


def exact_means(log: pd.DataFrame, value: str) -> pd.DataFrame:
    out = pd.DataFrame(index=pd.Index(DATASETS, name="dataset"), columns=ALGORITHMS, dtype=float)
    for (d, a), runs in log.groupby(["Dataset", "Model"])[value]:
        out.loc[d, a] = float(sum(Fraction(v) for v in runs) / len(runs))
    return out


def test_per_fold_log_with_fold_and_seed(hand_wide, rng):
    log = per_fold_log(hand_wide, rng)
    shuffled = log.sample(frac=1.0, random_state=3)[
        ["seed", "accuracy", "Model", "fold", "Dataset", "fit_time"]
    ]
    with pytest.raises(
        cdplot.CdplotInputError,
        match=r"^several columns could hold the scores: 'accuracy', 'fit_time'; pass "
        r"score='accuracy'",
    ):
        cdplot.compare(shuffled)
    with pytest.raises(
        cdplot.CdplotInputError,
        match=r"^10 rows per dataset and algorithm, told apart by columns 'seed' and 'fold': "
        r"these look like repeated runs; pass aggregate='mean' to average them",
    ):
        cdplot.compare(shuffled, score="accuracy")
    res = quiet(shuffled, score="accuracy", aggregate="mean")
    means = exact_means(log, "accuracy")
    np.testing.assert_array_equal(res.scores.loc[DATASETS, ALGORITHMS].to_numpy(), means)
    assert_same_analysis(res, quiet(means))
    # the runs were built to average exactly to the hand table
    np.testing.assert_array_equal(means.to_numpy(), hand_wide.to_numpy())
    agg = res.aggregation
    assert (agg.function, agg.columns, agg.min_count, agg.max_count) == (
        "mean",
        ("seed", "fold"),
        10,
        10,
    )
    assert (agg.counts.to_numpy() == 10).all()
    assert res.input_notes == ("scores are means over 10 runs (seed \N{MULTIPLICATION SIGN} fold)",)
    for (d, a), runs in log.groupby(["Dataset", "Model"])["accuracy"]:
        assert res.score_std.loc[d, a] == pytest.approx(np.std(runs, ddof=1), rel=1e-12)


def test_per_fold_log_one_repetition_column(hand_wide, rng):
    log = per_fold_log(hand_wide, rng).drop(columns=["seed", "fit_time"])
    log["fold"] = np.tile(np.arange(10), len(log) // 10)
    res = quiet(log, aggregate="median")
    assert res.input_notes == ("scores are medians over 10 folds",)
    for (d, a), runs in log.groupby(["Dataset", "Model"])["accuracy"]:
        assert res.scores.loc[d, a] == np.median(runs)


def test_several_metric_columns(hand_wide, rng):
    log = per_fold_log(hand_wide, rng)
    results = cdplot.compare_metrics(
        log, {"accuracy": "higher", "fit_time": "lower"}, aggregate="mean", correction="none"
    )
    assert list(results) == ["accuracy", "fit_time"]
    acc_ref = quiet(exact_means(log, "accuracy"), correction="none")
    time_ref = quiet(exact_means(log, "fit_time"), correction="none", higher_is_better=False)
    assert_same_analysis(results["accuracy"], acc_ref)
    assert_same_analysis(results["fit_time"], time_ref)
    assert results["fit_time"].higher_is_better is False
    # ready for cd_diagrams: a mapping of title -> result
    pytest.importorskip("matplotlib")
    fig = cdplot.cd_diagrams(results)
    assert len(fig.axes) == 2


def test_id_column_wide_table(hand_wide, tmp_path):
    # the first column is a numeric dataset id, not an algorithm that wins everywhere
    table = hand_wide.set_axis(pd.Index(TASK_IDS, name="task_id"), axis=0)
    path = tmp_path / "openml.csv"
    table.to_csv(path)
    assert path.read_text().splitlines()[0] == "task_id,LogReg,SVM,RandomForest,kNN"
    res = quiet(path)
    assert res.datasets == [str(t) for t in TASK_IDS]
    assert res.algorithms == ALGORITHMS
    assert_same_analysis(res, quiet(table.set_axis([str(t) for t in TASK_IDS], axis=0)))
    # the same as a DataFrame with the ids in a column
    assert_same_analysis(quiet(table.reset_index()), res)


def test_semicolon_decimal_comma_csv(hand_wide, tmp_path):
    path = tmp_path / "excel-de.csv"
    lines = ["Datensatz;" + ";".join(ALGORITHMS)]
    for d, row in hand_wide.iterrows():
        lines.append(d + ";" + ";".join(repr(float(v)).replace(".", ",") for v in row))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    res = quiet(path)
    assert res.datasets == DATASETS and res.algorithms == ALGORITHMS
    assert_same_analysis(res, quiet(hand_wide))


def test_polars_frames(hand_wide):
    pl = pytest.importorskip("polars")
    long = hand_wide.reset_index().melt(id_vars="dataset", var_name="method", value_name="acc")
    frame = pl.DataFrame({c: long[c].tolist() for c in long.columns})
    assert_same_analysis(quiet(frame), quiet(hand_wide))
    wide = pl.DataFrame({"dataset": DATASETS, **{a: hand_wide[a].tolist() for a in ALGORITHMS}})
    assert_same_analysis(quiet(wide), quiet(hand_wide))
    assert_same_analysis(quiet(wide.lazy()), quiet(hand_wide))  # a LazyFrame is collected


def test_stdin_like_stream_of_a_long_csv(hand_wide):
    long = hand_wide.reset_index().melt(id_vars="dataset", var_name="learner", value_name="auc")
    text = long[["learner", "auc", "dataset"]].to_csv(index=False)
    assert_same_analysis(quiet(io.StringIO(text)), quiet(hand_wide))
    assert_same_analysis(quiet(io.BytesIO(text.encode())), quiet(hand_wide))


def test_several_metrics_from_a_stream_read_once(hand_wide, rng):
    log = per_fold_log(hand_wide, rng)
    stream = io.StringIO(log.to_csv(index=False, sep=";", decimal=","))
    results = cdplot.compare_metrics(
        stream, {"fit_time": "lower", "accuracy": "higher"}, aggregate="mean", correction="none"
    )
    assert list(results) == ["fit_time", "accuracy"]
    assert_same_analysis(
        results["accuracy"], quiet(exact_means(log, "accuracy"), correction="none")
    )

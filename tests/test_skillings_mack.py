"""Skillings-Mack test and the analysis of incomplete tables (``missing="keep"``).

Verified against R: ``PMCMRplus::skillingsMackTest`` (PMCMRplus 1.9.10, R 4.2.2) on
``tests/reference/sm_k4_N12.csv`` -- statistic, p, adjusted rank sums, lambda, covariance,
block ranks. Verified against scipy: on complete tables the statistic equals Friedman's
chi-square (``scipy.stats.friedmanchisquare`` without ties; Demšar's uncorrected formula on
``scipy.stats.rankdata`` ranks with ties); per-pair Wilcoxon and sign tests on the common
datasets equal ``scipy.stats.wilcoxon`` / ``scipy.stats.binomtest`` on those datasets.
Consistency only: an algorithm without results is the same as no such column; a dataset
with one result changes nothing; error messages.
"""

from __future__ import annotations

import json
import math
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats

import cdplot
from cdplot import CdplotInputError, CdplotWarning
from cdplot.stats._skillings_mack import incomplete_ranks, scaled_ranks, skillings_mack_test

REF = Path(__file__).parent / "reference"


@pytest.fixture(scope="module")
def sm_ref():
    table = pd.read_csv(REF / "sm_k4_N12.csv", index_col=0)
    ref = json.loads((REF / "sm_k4_N12.json").read_text())
    return table, ref


# --- against PMCMRplus::skillingsMackTest --------------------------------------------------


def test_statistic_matches_pmcmrplus(sm_ref):
    table, ref = sm_ref
    sm = ref["skillings_mack"]
    res = skillings_mack_test(table.to_numpy())
    # PMCMRplus::skillingsMackTest(Y): T = 10.81287754235969, p = 0.012781969125110102
    assert res.statistic == pytest.approx(sm["statistic"], rel=1e-12)
    assert res.pvalue == pytest.approx(sm["p"], rel=1e-12)
    assert res.df == sm["df"]
    np.testing.assert_allclose(res.adjusted_rank_sums, sm["adjusted_rank_sums_A"], rtol=1e-12)
    np.testing.assert_array_equal(res.covariance, np.array(sm["covariance"], dtype=float))
    lam = np.array([[np.nan if v is None else v for v in row] for row in sm["lambda"]])
    np.testing.assert_array_equal(-res.covariance[~np.eye(4, dtype=bool)], lam[~np.isnan(lam)])
    assert list(res.n_observed) == ref["observed_per_block"]
    assert res.ignored_datasets == ()


def test_block_ranks_match_reference(sm_ref):
    table, ref = sm_ref
    ranks, k_j = incomplete_ranks(table.to_numpy())
    # the reference fills a missing cell with the block's midrank (k_j + 1) / 2
    filled = np.where(np.isnan(ranks), (k_j[:, None] + 1) / 2.0, ranks)
    np.testing.assert_array_equal(filled, np.array(ref["skillings_mack"]["block_ranks_rank1_best"]))


def test_orientation_does_not_change_statistic(sm_ref):
    table, ref = sm_ref
    a = skillings_mack_test(table.to_numpy())
    b = skillings_mack_test(-table.to_numpy())
    assert b.statistic == pytest.approx(a.statistic, rel=1e-12)
    np.testing.assert_allclose(b.adjusted_rank_sums, -a.adjusted_rank_sums, rtol=1e-12)


def test_compare_keep_reports_skillings_mack(sm_ref):
    table, ref = sm_ref
    res = cdplot.compare(table, missing="keep")
    assert res.omnibus.name == "Skillings-Mack chi-square"
    assert res.omnibus.statistic == pytest.approx(ref["skillings_mack"]["statistic"], rel=1e-12)
    assert res.friedman is None and res.iman_davenport is None
    assert res.n_missing == ref["n_missing"] == 4
    observed = table.notna().to_numpy().astype(int)
    np.testing.assert_array_equal(res.n_per_pair.to_numpy(), observed.T @ observed)
    assert res.critical_difference is None


def test_average_ranks_are_scaled_adjusted_rank_sums(sm_ref):
    # average rank = (k + 1)/2 + sqrt((k + 1)/12) A_i / n_i with PMCMRplus's A_i: the
    # documented Skillings-Mack scaling of the diagram's ranks
    table, ref = sm_ref
    k = table.shape[1]
    a = np.array(ref["skillings_mack"]["adjusted_rank_sums_A"])
    n_i = table.notna().sum(axis=0).to_numpy()
    expected = (k + 1) / 2 + math.sqrt((k + 1) / 12) * a / n_i
    res = cdplot.compare(table, missing="keep")
    got = res.average_ranks.reindex(table.columns).to_numpy()
    np.testing.assert_allclose(got, expected, rtol=1e-12)
    np.testing.assert_allclose(res.ranks.mean(axis=0).to_numpy(), expected, rtol=1e-12)


# --- equal to Friedman on complete tables ---------------------------------------------------


@given(
    st.integers(2, 7).flatmap(
        lambda k: st.lists(
            st.lists(st.integers(0, 4), min_size=k, max_size=k), min_size=2, max_size=15
        )
    )
)
def test_equals_friedman_on_complete_tables(rows):
    x = np.array(rows, dtype=float)
    n, k = x.shape
    r = stats.rankdata(-x, axis=1)
    demsar = 12 * n / (k * (k + 1)) * np.sum((r.mean(axis=0) - (k + 1) / 2) ** 2)
    res = skillings_mack_test(x)
    assert res.statistic == pytest.approx(demsar, rel=1e-9, abs=1e-9)
    assert res.df == k - 1


def test_equals_scipy_friedman_without_ties(rng):
    for _ in range(20):
        n, k = int(rng.integers(3, 30)), int(rng.integers(3, 9))
        x = rng.normal(size=(n, k))
        expected = stats.friedmanchisquare(*x.T)
        res = skillings_mack_test(x)
        assert res.statistic == pytest.approx(expected.statistic, rel=1e-10)
        assert res.pvalue == pytest.approx(expected.pvalue, rel=1e-8)


def test_compare_keep_on_complete_table_equals_friedman(demsar):
    plain = cdplot.compare(demsar)
    kept = cdplot.compare(demsar, missing="keep")
    assert kept.omnibus.name == "Skillings-Mack chi-square"
    assert kept.omnibus.statistic == pytest.approx(plain.friedman.statistic, rel=1e-12)
    pd.testing.assert_series_equal(kept.average_ranks, plain.average_ranks)
    pd.testing.assert_frame_equal(kept.pvalues, plain.pvalues)
    assert kept.n_missing == 0


# --- pairwise tests on the common datasets --------------------------------------------------


def _holey(rng, n=25, k=5, frac=0.2):
    x = rng.normal(size=(n, k))
    x[rng.random((n, k)) < frac] = np.nan
    return x


def test_pairwise_wilcoxon_and_sign_use_common_datasets(rng):
    x = _holey(rng)
    frame = pd.DataFrame(x, columns=[f"A{j}" for j in range(5)])
    wil = cdplot.compare(frame, missing="keep", test="wilcoxon", correction="none")
    sig = cdplot.compare(frame, missing="keep", test="sign", correction="none")
    for i in range(5):
        for j in range(i + 1, 5):
            both = ~np.isnan(x[:, i]) & ~np.isnan(x[:, j])
            a, b = x[both, i], x[both, j]
            assert wil.n_per_pair.iloc[i, j] == both.sum()
            # R wilcox.test(paired = TRUE): exact for n < 50 without ties
            expected = stats.wilcoxon(a, b, method="exact").pvalue
            assert wil.pvalues.iloc[i, j] == pytest.approx(expected, rel=1e-10)
            wins = int((a > b).sum())
            expected = stats.binomtest(wins, len(a)).pvalue
            assert sig.pvalues.iloc[i, j] == pytest.approx(expected, rel=1e-10)


def test_rank_tests_refused_on_incomplete_tables(sm_ref):
    table, _ = sm_ref
    for test in ("mean-ranks", "nemenyi", "aligned-ranks", "quade", "exact-rank-sum"):
        with pytest.raises(
            CdplotInputError,
            match=rf"test='{test}' needs every algorithm ranked on every dataset.*4 result\(s\) "
            r"are missing; use test='wilcoxon' or test='sign'.*missing='drop'",
        ):
            cdplot.compare(table, missing="keep", test=test)
    with pytest.raises(
        CdplotInputError, match="omnibus='quade' needs a complete table.*'skillings-mack'"
    ):
        cdplot.compare(table, missing="keep", omnibus="quade")


def test_raise_message_offers_keep(sm_ref):
    table, _ = sm_ref
    with pytest.raises(CdplotInputError, match="missing='keep' to analyse the incomplete"):
        cdplot.compare(table)


# --- bad input and its documented handling --------------------------------------------------


def test_algorithm_without_results_is_left_out_consistently(sm_ref):
    table, _ = sm_ref
    with_empty = table.assign(EMPTY=np.nan)
    with pytest.warns(CdplotWarning, match="left out 1 algorithm.*'EMPTY'"):
        res = cdplot.compare(with_empty, missing="keep")
    plain = cdplot.compare(table, missing="keep")
    assert res.algorithms == plain.algorithms
    assert res.omnibus.statistic == plain.omnibus.statistic
    pd.testing.assert_series_equal(res.average_ranks, plain.average_ranks)
    pd.testing.assert_frame_equal(res.pvalues, plain.pvalues)


def test_dropping_a_complete_algorithm_is_the_same_as_never_having_it(rng):
    # removing an algorithm's cells (all NaN) and removing its column agree, for any
    # pattern of holes elsewhere
    for _ in range(10):
        x = _holey(rng, n=20, k=5, frac=0.15)
        frame = pd.DataFrame(x, columns=list("ABCDE"))
        blanked = frame.assign(C=np.nan)
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always", CdplotWarning)  # datasets left with one result
            try:
                ref = cdplot.compare(frame.drop(columns="C"), missing="keep")
            except CdplotInputError:
                continue  # e.g. an algorithm split from the others: refused either way
            n_ref = len(seen)
            got = cdplot.compare(blanked, missing="keep")
        new = [str(w.message) for w in seen[n_ref:]]
        assert any("left out 1 algorithm(s) with no result at all: 'C'" in m for m in new)
        assert got.ignored_datasets == ref.ignored_datasets
        assert got.omnibus.statistic == pytest.approx(ref.omnibus.statistic, rel=1e-12)
        pd.testing.assert_series_equal(got.average_ranks, ref.average_ranks)


def test_dataset_with_one_result_is_ignored_and_reported(sm_ref):
    table, _ = sm_ref
    extra = pd.DataFrame([[0.5, np.nan, np.nan, np.nan]], index=["lonely"], columns=table.columns)
    with pytest.warns(CdplotWarning, match="ignored 1 dataset.*fewer than two.*'lonely'"):
        res = cdplot.compare(pd.concat([table, extra]), missing="keep")
    plain = cdplot.compare(table, missing="keep")
    assert res.ignored_datasets == ("lonely",)
    assert res.omnibus.ignored_datasets == ("lonely",)
    assert res.omnibus.statistic == pytest.approx(plain.omnibus.statistic, rel=1e-12)
    pd.testing.assert_series_equal(res.average_ranks, plain.average_ranks)
    assert res.ranks.loc["lonely"].isna().all()


def test_all_missing_table_is_refused():
    x = np.full((4, 3), np.nan)
    with pytest.raises(CdplotInputError, match="every score is missing"):
        cdplot.compare(x, missing="keep")


def test_no_comparable_dataset_is_refused():
    x = np.array([[0.5, np.nan, np.nan], [np.nan, 0.4, np.nan], [np.nan, np.nan, 0.3]])
    with pytest.raises(CdplotInputError, match="no dataset has results for two or more"):
        skillings_mack_test(x)


def test_only_one_algorithm_with_results_is_refused():
    x = np.array([[0.5, np.nan], [0.6, np.nan], [0.7, np.nan]])
    with (
        warnings.catch_warnings(),
        pytest.raises(CdplotInputError, match="only 1 algorithm\\(s\\) have any result"),
    ):
        warnings.simplefilter("ignore", CdplotWarning)
        cdplot.compare(x, missing="keep")


def test_algorithm_only_on_lonely_datasets_is_refused():
    x = np.array([[0.5, 0.4, np.nan], [0.6, 0.3, np.nan], [np.nan, np.nan, 0.9]])
    with pytest.raises(CdplotInputError, match="algorithm\\(s\\) 'A3' have no result on any"):
        skillings_mack_test(x)


def test_disconnected_groups_are_refused():
    x = np.array(
        [[0.5, 0.4, np.nan, np.nan], [0.6, 0.3, np.nan, np.nan], [np.nan, np.nan, 0.9, 0.8]]
    )
    groups = r"split into groups.*\{'A1', 'A2'\}; \{'A3', 'A4'\}"
    with pytest.raises(CdplotInputError, match=groups):
        skillings_mack_test(x, algorithms=["A1", "A2", "A3", "A4"])


def test_scaled_ranks_keep_complete_rows():
    x = np.array([[3.0, 1.0, 2.0], [1.0, np.nan, 2.0]])
    got = scaled_ranks(x)
    np.testing.assert_array_equal(got[0], [1.0, 3.0, 2.0])
    # k_j = 2 -> ranks 1, 2 around the midrank 1.5, stretched by sqrt(4/3) around 2
    step = math.sqrt(4 / 3) * 0.5
    np.testing.assert_allclose(got[1, [0, 2]], [2 + step, 2 - step])
    assert np.isnan(got[1, 1])


def test_diagram_of_an_incomplete_table(sm_ref, tmp_path):
    table, _ = sm_ref
    res = cdplot.compare(table, missing="keep")
    ax = res.plot()
    path = tmp_path / "sm.png"
    ax.figure.savefig(path)
    assert path.stat().st_size > 0


def test_pair_without_common_dataset_warns_and_gets_p_one(rng):
    x = rng.normal(size=(12, 3))
    x[:6, 1] = np.nan  # A and B never meet; both meet C on six datasets
    x[6:, 0] = np.nan
    frame = pd.DataFrame(x, columns=["A", "B", "C"])
    with pytest.warns(CdplotWarning, match="1 pair\\(s\\) never have results.*'A' and 'B'"):
        res = cdplot.compare(frame, missing="keep", correction="none")
    assert res.pvalues.loc["A", "B"] == 1.0
    assert res.n_per_pair.loc["A", "B"] == 0
    assert res.n_per_pair.loc["A", "C"] == 6


def test_tidy_frame_and_wins_of_an_incomplete_table(sm_ref):
    table, _ = sm_ref
    res = cdplot.compare(table, missing="keep")
    frame = res.to_frame()
    assert len(frame) == 6
    observed = table.notna().to_numpy()
    for row in frame.itertuples():
        i, j = table.columns.get_loc(row.algorithm_1), table.columns.get_loc(row.algorithm_2)
        # wins, ties and losses count only the datasets where both have a result
        assert row.wins + row.ties + row.losses == (observed[:, i] & observed[:, j]).sum()


def test_long_table_with_absent_rows(sm_ref):
    table, ref = sm_ref
    long = table.stack().rename("score").reset_index()
    long.columns = ["dataset", "algorithm", "score"]
    long = long.dropna()  # a long table simply lacks the rows of missing results
    assert len(long) == 48 - 4
    res = cdplot.compare(long, missing="keep")
    assert res.n_missing == 4
    assert res.omnibus.statistic == pytest.approx(ref["skillings_mack"]["statistic"], rel=1e-12)


def test_control_mode_on_an_incomplete_table(sm_ref):
    table, _ = sm_ref
    res = cdplot.compare(table, missing="keep", control="A2", correction="none")
    for other in ("A1", "A3", "A4"):
        both = table[["A2", other]].dropna()
        # R wilcox.test(paired = TRUE) with ties: normal approximation with correction
        expected = stats.wilcoxon(
            both["A2"], both[other], zero_method="wilcox", correction=True, method="asymptotic"
        ).pvalue
        assert res.adjusted_pvalues[other] == pytest.approx(expected, rel=1e-10)


def _sm_oracle(x):
    """Skillings-Mack from its definition: scipy ranks per dataset, a regular inverse.

    For a connected design the covariance has rank k - 1, and dropping one algorithm
    (its adjusted rank sum is minus the sum of the others) leaves an invertible matrix.
    """
    n, k = x.shape
    a = np.zeros(k)
    lam = np.zeros((k, k))
    for row in x:
        seen = np.flatnonzero(~np.isnan(row))
        kj = len(seen)
        if kj < 2:
            continue
        r = stats.rankdata(-row[seen])
        a[seen] += np.sqrt(12 / (kj + 1)) * (r - (kj + 1) / 2)
        for i in seen:
            for j in seen:
                if i != j:
                    lam[i, j] += 1
    cov = np.diag(lam.sum(axis=1)) - lam
    return float(a[:-1] @ np.linalg.solve(cov[:-1, :-1], a[:-1]))


@given(
    st.integers(3, 6).flatmap(
        lambda k: st.lists(
            st.lists(st.one_of(st.none(), st.integers(0, 5)), min_size=k, max_size=k),
            min_size=3,
            max_size=12,
        )
    )
)
def test_matches_definition_on_incomplete_tables(rows):
    x = np.array([[np.nan if v is None else v for v in row] for row in rows], dtype=float)
    try:
        res = skillings_mack_test(x)
    except CdplotInputError:
        return  # disconnected or empty designs: refused (tested above)
    assert res.statistic == pytest.approx(_sm_oracle(x), rel=1e-9, abs=1e-9)


def test_tie_correction_is_refused_on_incomplete_tables(sm_ref):
    table, _ = sm_ref
    with pytest.raises(CdplotInputError, match="tie_correction=True corrects Friedman"):
        cdplot.compare(table, missing="keep", tie_correction=True)

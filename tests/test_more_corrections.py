"""Holland, Rom, Benjamini-Hochberg and Benjamini-Yekutieli adjusted p-values.

Reference values: ``tests/reference/corrections_r.csv``, made by
``tests/reference/make_corrections_r.R`` (base R 4.2.2): ``p.adjust(p, "BH")``,
``p.adjust(p, "BY")``, Holland's formula and Rom's recursion solved with ``uniroot``,
written in R independently of cdplot.
"""

from __future__ import annotations

import csv
import warnings
from pathlib import Path

import numpy as np
import pytest

import cdplot
from cdplot.stats import adjust_all_pairs, adjust_control
from cdplot.stats._sidak_rom import rom_critical_values, rom_rows

REF = Path(__file__).parent / "reference" / "corrections_r.csv"


def _reference():
    cases: dict[str, dict[str, list[float]]] = {}
    with REF.open() as fh:
        rows = [r for r in fh if not r.startswith("#")]
    for row in csv.DictReader(rows):
        case = cases.setdefault(row["case"], {})
        for col in ("p", "bh", "by", "holland", "rom"):
            case.setdefault(col, []).append(float(row[col]) if row[col] != "NA" else np.nan)
    return cases


CASES = _reference()
FAMILIES = {c: v for c, v in CASES.items() if c != "crit"}


@pytest.mark.parametrize("case", sorted(FAMILIES))
def test_fdr_equals_r_p_adjust_to_the_last_bit(case):
    p = np.array(FAMILIES[case]["p"])
    # R: p.adjust(p, "BH") and p.adjust(p, "BY") (make_corrections_r.R)
    np.testing.assert_array_equal(adjust_control(p, "fdr-bh"), FAMILIES[case]["bh"])
    np.testing.assert_array_equal(adjust_control(p, "fdr-by"), FAMILIES[case]["by"])


@pytest.mark.parametrize("case", sorted(FAMILIES))
def test_holland_and_rom_equal_the_r_formulas(case):
    p = np.array(FAMILIES[case]["p"])
    # R: Holland's formula; Rom's recursion solved by uniroot(tol = 1e-15). R's
    # 1 - (1 - p)^r cancels digits (abs. error ~1e-16); cdplot's -expm1(r log1p(-p)) does not
    np.testing.assert_allclose(
        adjust_control(p, "holland"), FAMILIES[case]["holland"], rtol=1e-12, atol=1e-15
    )
    np.testing.assert_allclose(adjust_control(p, "rom"), FAMILIES[case]["rom"], rtol=1e-9)


def test_all_pairs_use_the_whole_family():
    for case in ("2", "3"):  # 6 p-values = the k(k-1)/2 pairs of k = 4 (case 3 with ties)
        ref, p = FAMILIES[case], np.array(FAMILIES[case]["p"])
        np.testing.assert_array_equal(adjust_all_pairs(p, 4, "fdr-bh"), ref["bh"])
        np.testing.assert_array_equal(adjust_all_pairs(p, 4, "fdr-by"), ref["by"])
        np.testing.assert_allclose(adjust_all_pairs(p, 4, "holland"), ref["holland"], rtol=1e-12)
        np.testing.assert_allclose(adjust_all_pairs(p, 4, "rom"), ref["rom"], rtol=1e-9)


@pytest.mark.parametrize("alpha", [0.05, 0.01])
def test_rom_critical_values(alpha):
    crit = CASES["crit"]
    ref = [c for a, c in zip(crit["p"], crit["rom"], strict=True) if a == alpha]
    np.testing.assert_allclose(rom_critical_values(alpha, 10), ref, rtol=1e-14)
    # c_3 = (alpha + alpha^2 - 3 (alpha / 2)^2) / 3, by hand
    assert rom_critical_values(alpha, 3)[2] == pytest.approx(
        (alpha + alpha**2 - 3 * (alpha / 2) ** 2) / 3, rel=1e-15
    )


def test_rom_adjusted_p_is_the_smallest_rejecting_alpha():
    """At alpha = APV the hypothesis is rejected by Rom's step-up, just below it it is not."""
    rng = np.random.default_rng(7)
    for _ in range(8):
        m = int(rng.integers(2, 25))
        p = rng.uniform(0, 0.1, m) ** rng.uniform(0.5, 3)
        apv = rom_rows(p[None])[0]
        for i in np.flatnonzero(apv < 1):
            assert _rom_rejects(p, apv[i])[i]
            assert not _rom_rejects(p, apv[i] * (1 - 1e-12))[i]


def _rom_rejects(p, alpha):
    m = p.size
    crit = rom_critical_values(alpha, m)[::-1]  # c_m for the smallest p ... c_1 the largest
    order = np.argsort(p)
    ok = np.flatnonzero(p[order] <= crit)
    out = np.zeros(m, bool)
    if ok.size:
        out[order[: ok.max() + 1]] = True
    return out


@pytest.mark.parametrize("seed", range(5))
def test_properties(seed):
    rng = np.random.default_rng(seed)
    p = rng.uniform(0, 0.3, 15) ** 2
    bonf, holm = adjust_control(p, "bonferroni"), adjust_control(p, "holm")
    holland, rom = adjust_control(p, "holland"), adjust_control(p, "rom")
    bh, by = adjust_control(p, "fdr-bh"), adjust_control(p, "fdr-by")
    hochberg = adjust_control(p, "hochberg")
    assert (holland <= holm + 1e-15).all() and (holm <= bonf).all()  # Šidák beats Bonferroni
    assert (rom <= hochberg * (1 + 1e-12)).all()  # Rom's critical values exceed alpha / r
    assert (by >= bh).all() and (bh <= hochberg).all()
    for apv in (holland, rom, bh, by):
        assert (apv >= p).all() and (apv <= 1).all()
        order = np.argsort(p)
        assert (np.diff(apv[order]) >= 0).all()  # monotone in p: rejections nest in alpha


def test_rom_refuses_too_many_hypotheses():
    with pytest.raises(cdplot.CdplotInputError, match="hommel"):
        adjust_control(np.full(191, 0.01), "rom")


def test_compare_with_fdr_draws_no_groups():
    data = cdplot.datasets.load("demsar2006")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cdplot.CdplotWarning)
        res = cdplot.compare(data, test="wilcoxon", correction="fdr-bh")
        holm = cdplot.compare(data, test="wilcoxon", correction="holm")
    assert res.correction == "fdr-bh"
    assert res.groups == () and holm.groups != ()
    assert "false discovery rate" in res.summary()
    assert "not the family-wise" in res.summary()
    notes = [t.get_text() for t in res.plot().texts]
    assert any("no groups are drawn" in t for t in notes), notes


def test_fdr_groups_on_request(capsys):
    from _helpers import run

    data = cdplot.datasets.load("demsar2006")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cdplot.CdplotWarning)
        asked = cdplot.compare(data, correction="fdr-by", fdr_groups=True)
        holm = cdplot.compare(data, correction="holm")
    assert asked.groups == holm.groups  # no pair is significant under either here
    notes = [t.get_text() for t in asked.plot().texts]
    assert any("these groups come from it" in t for t in notes), notes
    with pytest.raises(cdplot.CdplotInputError, match="fdr_groups"):
        cdplot.compare(data, correction="holm", fdr_groups=True)
    csv_path = Path(cdplot.__file__).parent / "datasets" / "demsar2006.csv"
    code, out, err = run(["compare", csv_path, "--correction", "fdr-bh", "--fdr-groups"], capsys)
    assert code == 0, err
    assert "Groups of algorithms" in out
    code, _, err = run(["compare", csv_path, "--fdr-groups"], capsys)
    assert code != 0 and "--fdr-groups" in err


@pytest.mark.parametrize("name", ["holland", "rom", "fdr-bh", "fdr-by"])
def test_batch_path_equals_the_single_path(name):
    from cdplot.stats._batch import batch_adjust_all_pairs, batch_adjust_control

    p = np.random.default_rng(4).uniform(0, 0.2, (6, 6))
    np.testing.assert_array_equal(
        batch_adjust_all_pairs(p, 4, name), [adjust_all_pairs(r, 4, name) for r in p]
    )
    np.testing.assert_array_equal(
        batch_adjust_control(p[:, :3], name), [adjust_control(r, name) for r in p[:, :3]]
    )

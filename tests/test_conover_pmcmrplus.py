"""What the documentation says about PMCMRplus's Conover test is true.

PMCMRplus's NEWS (``inst/NEWS.Rd``, version 1.9.10, 2023-12-10): "Function
frdAllPairsConoverTest internally calculated wrong Friedmans test statistics that lead to
wrong pairwise tests statistics and p-values. This was fixed." Its NAMESPACE (1.9.x) exports
``frdAllPairsConoverTest``, ``frdAllPairsExactTest``, ``frdAllPairsMillerTest``,
``frdAllPairsNemenyiTest``, ``frdAllPairsSiegelTest``, ``frdHouseTest``,
``frdManyOneDemsarTest``, ``frdManyOneExactTest`` and ``frdManyOneNemenyiTest``: no
many-to-one Conover test after Friedman. Checked here: every ``frd...Test`` the package and
its documentation name is one of those, and PMCMRplus's form of the t statistic,
``|R_i - R_j| / sqrt(A B)`` with Friedman's statistic as ``T2`` (the fixed version, written
out below), equals cdplot's Conover t (Conover 1999, eq. 5.8.11; R reference values in
``tests/reference/conover_page_r.csv``).
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from test_conover_page import TABLES, VALUES

from cdplot.stats._conover import conover_friedman_test
from cdplot.stats._ranks import rank_rows

ROOT = Path(__file__).resolve().parents[1]
#: PMCMRplus 1.9.x NAMESPACE, the export()s of Friedman-type post-hoc tests
PMCMRPLUS_FRD_EXPORTS = {
    "frdAllPairsConoverTest",
    "frdAllPairsExactTest",
    "frdAllPairsMillerTest",
    "frdAllPairsNemenyiTest",
    "frdAllPairsSiegelTest",
    "frdHouseTest",
    "frdManyOneDemsarTest",
    "frdManyOneExactTest",
    "frdManyOneNemenyiTest",
}


def _texts():
    for folder, pattern in (("docs", "*.md"), ("cdplot", "*.py"), ("tests/reference", "*.R")):
        for path in sorted((ROOT / folder).rglob(pattern)):
            yield path, path.read_text(encoding="utf-8")
    yield ROOT / "README.md", (ROOT / "README.md").read_text(encoding="utf-8")


def test_every_pmcmrplus_friedman_function_named_exists():
    named = {
        (path.relative_to(ROOT).as_posix(), name)
        for path, text in _texts()
        for name in re.findall(r"\bfrd\w+Test\b", text)
    }
    assert named, "the documentation names PMCMRplus functions"
    unknown = sorted((where, name) for where, name in named if name not in PMCMRPLUS_FRD_EXPORTS)
    assert unknown == []


def test_no_text_says_pmcmrplus_still_computes_the_wrong_t2():
    for path, text in _texts():
        flat = " ".join(text.split())
        for match in re.finditer(r"sum\(R\.sum\)", flat):
            around = flat[max(0, match.start() - 300) : match.end() + 300]
            assert "1.9.10" in around, f"{path}: PMCMRplus's T2 without the version that fixed it"


def _pmcmrplus_fixed_t(y: np.ndarray) -> np.ndarray:
    """frdAllPairsConoverTest's t with Friedman's statistic as T2 (m = 1 replicate)."""
    r = rank_rows(-y)  # 1 = best, ties averaged
    n, k = r.shape
    rsum = r.sum(axis=0)
    s2 = 1 / (k - 1) * ((r**2).sum() - k * n * (k + 1) ** 2 / 4)
    t2 = 1 / s2 * ((rsum**2).sum() - k * n**2 * ((k + 1) / 2) ** 2)  # Friedman's chi-square
    a = s2 * (2 * n * (k - 1)) / (n * k - k - n + 1)
    b = 1 - t2 / (n * (k - 1))
    return np.abs(rsum[:, None] - rsum[None, :]) / (np.sqrt(a) * np.sqrt(b))


@pytest.mark.parametrize("case", sorted(TABLES))
def test_conover_t_equals_pmcmrplus_form_with_friedmans_t2(case):
    y, ref = TABLES[case], VALUES[case]
    ours = conover_friedman_test(y).statistic
    theirs = _pmcmrplus_fixed_t(y)
    k = y.shape[1]
    for i in range(k):
        for j in range(i + 1, k):
            if ref["conover_t", i, j] == 0:
                assert ours[i, j] == theirs[i, j] == 0
            else:  # R: Conover (1999) eq. 5.8.11 in conover_page_r.csv
                assert ours[i, j] == pytest.approx(ref["conover_t", i, j], rel=1e-12)
                assert theirs[i, j] == pytest.approx(ours[i, j], rel=1e-11)

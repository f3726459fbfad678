"""``res.methods_text()`` and ``res.methods_bibtex()``: the paper's methods paragraph.

Consistency only: every fact in the paragraph is read from the result (k, N, the runs
aggregated, the test, correction and alpha, the intervals, the versions), so changing the
result changes the words; every citation has its BibTeX entry and nothing else is in the
bibliography. The paragraph of each kind of result compiles in a LaTeX document with its
BibTeX (pdflatex, bibtex), with no undefined citation; skipped without them.
"""

from __future__ import annotations

import re
import shutil
import subprocess

import numpy as np
import pandas as pd
import pytest
from _helpers import quiet_compare, run_tex

import cdplot
from cdplot import CdplotInputError
from cdplot.io._benchmark import BenchmarkItems
from cdplot.stats import compare_benchmark


def _board() -> cdplot.ComparisonResult:
    return quiet_compare(cdplot.datasets.load("demsar2006"))


def _folds() -> cdplot.ComparisonResult:
    rng = np.random.default_rng(2)
    rows = [
        (f"d{d}", a, fold, 0.7 + 0.02 * j + rng.normal(0, 0.01))
        for d in range(8)
        for j, a in enumerate(["A", "B", "C"])
        for fold in range(5)
    ]
    table = pd.DataFrame(rows, columns=["dataset", "algorithm", "fold", "accuracy"])
    return quiet_compare(table, aggregate="mean", test="sign", correction="shaffer", alpha=0.1)


def _bayes() -> cdplot.BayesianComparisonResult:
    return quiet_compare(
        cdplot.datasets.load("demsar2006"), test="bayes-sign", rope=0.01, random_state=0
    )


def _benchmark() -> cdplot.BenchmarkComparison:
    rng = np.random.default_rng(0)
    x = (rng.random((200, 3)) < [0.5, 0.6, 0.7]).astype(float)
    items = BenchmarkItems(
        ("a", "b", "c"),
        tuple(f"q{i}" for i in range(200)),
        x,
        True,
        clusters=np.arange(200) // 5,
        cluster_ids=tuple(f"p{i}" for i in range(40)),
        cluster_column="passage",
    )
    return compare_benchmark(items)


KINDS = {"board": _board, "folds": _folds, "bayesian": _bayes, "benchmark": _benchmark}


def test_the_board_paragraph_names_its_facts():
    text = _board().methods_text()
    assert text.startswith("We compared 4 algorithms on 14 datasets;")
    assert "Wilcoxon signed-rank test (Wilcoxon 1945; Demšar 2006)" in text
    assert (
        "Holm's procedure (Holm 1979), which controls the family-wise error rate at α = 0.05"
        in text
    )
    assert f"cdplot {cdplot.__version__}" in text


def test_aggregated_runs_say_what_varies_and_that_spreads_are_sds():
    text = _folds().methods_text()
    assert "the mean over its 5 runs (fold)" in text
    assert (
        "sign test" in text and "Shaffer's procedure (Shaffer 1986; García & Herrera 2008)" in text
    )
    assert "α = 0.1" in text
    assert "standard deviation, not a standard error" in text


def test_the_bayesian_paragraph_names_rope_prior_and_threshold():
    text = _bayes().methods_text()
    assert "Bayesian sign test (Benavoli et al. 2017)" in text
    assert "±0.01 score units, a Dirichlet-process prior of strength 1" in text
    assert "Posterior probabilities are not p-values" in text
    assert "Holm" not in text


def test_the_benchmark_paragraph_names_items_clusters_and_intervals():
    text = _benchmark().methods_text()
    assert "3 models on the 200 items of one benchmark, grouped in 40 clusters (passage)" in text
    assert "95% cluster-robust" in text and "not ±SD or ±SE bars" in text
    assert "clusters are an independent sample" in text


def test_rank_intervals_and_effect_sizes_given_are_described():
    res = _board()
    intervals = res.rank_intervals("bootstrap", n_boot=500, random_state=0)
    effects = res.effect_sizes("hodges-lehmann", confidence=0.9)
    text = res.methods_text(intervals=intervals, effects=effects)
    assert "paired bootstrap over the datasets (500 resamples)" in text
    assert "(Mogstad et al. 2024)" in text
    assert "Hodges–Lehmann estimate of the difference) are given with 90% confidence" in text
    assert "mogstad2024" in res.methods_bibtex(intervals=intervals)


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_every_citation_has_its_entry_and_no_other(kind):
    res = KINDS[kind]()
    cited = set(",".join(re.findall(r"\\cite\{([^}]*)\}", res.methods_text("latex"))).split(","))
    entries = set(re.findall(r"^@\w+\{([^,]+),", res.methods_bibtex(), re.M))
    assert cited == entries and cited


def test_a_bad_format_is_refused():
    with pytest.raises(CdplotInputError, match=r"'html' is not a valid value for format"):
        _board().methods_text("html")


DOCUMENT = r"""\documentclass{article}
\usepackage[T1]{fontenc}
\usepackage{lmodern}
\begin{document}
\section*{Methods}
%s
\bibliographystyle{plain}
\bibliography{methods}
\end{document}
"""


@pytest.mark.skipif(
    shutil.which("pdflatex") is None or shutil.which("bibtex") is None,
    reason="needs pdflatex and bibtex",
)
@pytest.mark.parametrize("kind", sorted(KINDS))
def test_the_paragraph_compiles_with_its_bibtex(tmp_path, kind):
    res = KINDS[kind]()
    (tmp_path / "paper.tex").write_text(DOCUMENT % res.methods_text("latex"), encoding="utf-8")
    (tmp_path / "methods.bib").write_text(res.methods_bibtex(), encoding="utf-8")
    first = run_tex("pdflatex", "paper.tex", tmp_path, timeout=240)
    assert first.returncode == 0, first.log[-2000:]
    bib = subprocess.run(
        ["bibtex", "paper"], cwd=tmp_path, capture_output=True, text=True, check=False
    )
    assert bib.returncode == 0 and "Warning" not in bib.stdout, bib.stdout
    for _ in range(2):
        done = run_tex("pdflatex", "paper.tex", tmp_path, timeout=240)
    assert done.returncode == 0
    errors = [line for line in done.log.splitlines() if line.startswith("!")]
    assert not errors
    assert "undefined" not in done.log.lower(), re.findall(r".*undefined.*", done.log)


def test_tukey_missing_results_and_no_citation_are_worded_from_the_result():
    table = cdplot.datasets.load("demsar2006").copy()
    table.iloc[0, 1] = np.nan
    text = quiet_compare(table, missing="keep").methods_text()
    assert "1 result was missing." in text
    assert "Skillings-Mack chi-square test (Skillings & Mack 1981)" in text
    tukey = quiet_compare(cdplot.datasets.load("demsar2006"), test="tukey").methods_text()
    assert "Tukey HSD test, whose studentized range keeps the family-wise error rate" in tukey
    assert "The critical difference diagram shows the mean scores" in tukey
    paired = quiet_compare(cdplot.datasets.load("demsar2006"), test="paired-t").methods_text()
    assert "paired t-test and adjusted" in paired  # no gap where no citation is


def test_the_benchmark_bootstrap_of_the_ranks_resamples_its_clusters():
    res = _benchmark()
    intervals = res.rank_intervals("bootstrap", n_boot=200, random_state=0)
    text = res.methods_text(intervals=intervals)
    assert "from a paired bootstrap over the clusters of items (200 resamples)" in text

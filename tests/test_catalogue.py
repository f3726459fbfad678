"""The catalogue of pairwise tests: one read-only entry per test, and what compare() does
agrees with what each entry says.

Every test of ``cdplot.stats._catalogue.CATALOGUE`` is run through :func:`cdplot.compare`
on Demšar's (2006) Table 6 (14 datasets, 4 algorithms; ties broken); the assertions compare
the result with the entry's facts, not with numbers (the numbers are pinned by the tests of
each family).
"""

from __future__ import annotations

import ast
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest

import cdplot
from cdplot import CdplotInputError, PoolDependenceWarning
from cdplot.stats._catalogue import ALIASES, CATALOGUE, PairwiseTest

#: Demšar's Table 6 with its ties within a dataset broken (the exact rank-sum test refuses
#: ties): each algorithm's scores shifted by a different millionth
DATA = cdplot.datasets.load("demsar2006") + np.arange(4) * 1e-6
BAYES_OPTIONS = {"nsamples": 2000, "random_state": 0}
PACKAGE = Path(cdplot.__file__).parent
#: the tests over a board of datasets (the others compare one benchmark's items:
#: tests/test_benchmark_compare.py)
# a test of the per-fold scores needs folds (tests/test_bayes_hierarchical_compare.py)
BOARD_TESTS = [
    name for name, entry in CATALOGUE.items() if entry.on_boards and entry.reads != "folds"
]


def _compare(test: str, data=DATA, **kwargs):
    entry = CATALOGUE[ALIASES.get(test, test)]
    options = BAYES_OPTIONS if entry.bayesian else {}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = cdplot.compare(data, test=test, **options, **kwargs)
    return result, [w.category for w in caught]


def test_the_registries_are_read_only():
    import cdplot.report
    from cdplot.stats._own_ranks import OWN_RANK_LABELS

    registries = (CATALOGUE, ALIASES, cdplot.stats.TESTS, cdplot.report.TEST_TITLES)
    for registry in (*registries, cdplot.report.CORRECTION_TITLES):
        with pytest.raises(TypeError):
            registry["new-test"] = ()
    with pytest.raises(TypeError):
        OWN_RANK_LABELS["wilcoxon"] = "rank"
    entry = CATALOGUE["wilcoxon"]
    with pytest.raises(TypeError):
        entry.options["ties"] = None
    with pytest.raises(AttributeError):
        entry.title = "another title"  # frozen


def test_every_entry_is_whole():
    assert not set(ALIASES) & set(CATALOGUE)
    for name, entry in CATALOGUE.items():
        assert isinstance(entry, PairwiseTest) and entry.name == name and entry.title
        kernels = (entry.all_pairs, entry.ordered, entry.common_datasets, entry.batch)
        for kernel in (*kernels, entry.critical_difference, entry.own_ranking):
            assert kernel is None or callable(kernel.load()), (name, kernel)
        assert (entry.common_datasets is not None) == (entry.incomplete == "each pair")
        assert (entry.own_ranking is None) == (entry.own_rank_label is None)
        assert entry.kind in ("frequentist", "bayesian")
        assert all(check is None or callable(check) for check in entry.options.values())
        assert cdplot.stats.TESTS[name] == tuple(entry.options)
        assert cdplot.report.TEST_TITLES[name] == entry.title


@pytest.mark.parametrize("test", BOARD_TESTS)
def test_compare_does_what_the_entry_says(test):
    entry = CATALOGUE[test]
    result, caught = _compare(test)
    assert result.test == test
    assert result.correction == entry.default_correction
    assert (PoolDependenceWarning in caught) == entry.pool_dependent
    assert isinstance(result, cdplot.stats.BayesianComparisonResult) == entry.bayesian
    if not entry.bayesian:
        has_cd = result.critical_difference is not None
        assert has_cd == (entry.critical_difference is not None)
    expected_label = entry.own_rank_label or "average rank"
    assert result._ranking.rank_name == expected_label
    for alias in (a for a, name in ALIASES.items() if name == test):
        assert _compare(alias)[0].test == test


@pytest.mark.parametrize("test", BOARD_TESTS)
def test_control_and_missing_results_as_the_entry_says(test):
    entry = CATALOGUE[test]
    if entry.no_control is None:
        result, _ = _compare(test, control="C4.5", correction=None)
        assert result.control == "C4.5"
    else:
        with pytest.raises(CdplotInputError, match="compares all pairs"):
            _compare(test, control="C4.5")
    holes = DATA.copy()
    holes.iloc[0, 0] = np.nan
    if entry.needs_complete:
        with pytest.raises(CdplotInputError, match="missing"):
            _compare(test, data=holes, missing="keep")
    elif entry.incomplete == "each pair":
        assert _compare(test, data=holes, missing="keep")[0]._input.n_missing == 1


def test_an_option_of_another_test_is_refused_by_name():
    with pytest.raises(CdplotInputError, match=r"unknown option\(s\) 'ties'.*zero_method"):
        cdplot.compare(DATA, test="wilcoxon", ties="split")
    with pytest.raises(CdplotInputError, match="zero_method"):
        cdplot.compare(DATA, test="wilcoxon", zero_method="nope")


def test_importing_the_catalogue_loads_no_kernel_and_nothing_heavy():
    code = (
        "import sys, importlib.util\n"
        "NAME = 'cdplot.stats._catalogue_alone'\n"
        "spec = importlib.util.spec_from_file_location(NAME, sys.argv[1])\n"
        "module = importlib.util.module_from_spec(spec)\n"
        "sys.modules[NAME] = module\n"
        "module.__package__ = 'cdplot.stats'\n"
        "spec.loader.exec_module(module)\n"
        "heavy = ('scipy.special', 'pandas', 'matplotlib', 'cdplot.stats._pairwise')\n"
        "print([m for m in heavy if m in sys.modules], len(module.CATALOGUE))\n"
    )
    path = str(PACKAGE / "stats" / "_catalogue.py")
    out = subprocess.run(
        [sys.executable, "-c", code, path], capture_output=True, text=True, check=True
    )
    assert out.stdout.split() == ["[]", str(len(CATALOGUE))]


def _literal_test_comparisons(path: Path) -> list[int]:
    """Lines comparing a ``test`` name or attribute with a string literal (or a tuple of them)."""
    lines = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Compare):
            continue
        left = node.left
        named = (isinstance(left, ast.Name) and left.id == "test") or (
            isinstance(left, ast.Attribute) and left.attr == "test"
        )
        literal = [
            c
            for c in node.comparators
            if (isinstance(c, ast.Constant) and isinstance(c.value, str))
            or (isinstance(c, ast.Tuple) and all(isinstance(e, ast.Constant) for e in c.elts))
        ]
        if named and literal:
            lines.append(node.lineno)
    return lines


#: modules that tell their own family's tests apart (the Bayesian sign and signed-rank
#: kernels; the paired tests of one benchmark's items, ``pair_statistics(test=...)``), and
#: the result's settings read by the code that owns the result's parts
FAMILY_MODULES = {
    "stats/_bayes.py",
    "stats/_batch_bayes.py",
    "stats/_benchmark_pairs.py",
    # the margin-shifted versions of each family's test that decide a claim
    "stats/_claims.py",
    "stats/_compare.py",
    # the same paired tests of one benchmark's items from sums computed in a data engine
    "stats/_engine.py",
    "stats/_results.py",
}


def test_no_module_names_a_test_instead_of_reading_its_entry():
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        where = path.relative_to(PACKAGE).as_posix()
        lines = _literal_test_comparisons(path)
        if lines and where not in FAMILY_MODULES:
            found[where] = lines
    assert found == {}


def test_the_checker_sees_a_literal_comparison(tmp_path):
    source = tmp_path / "m.py"
    source.write_text(
        "def f(proc, test):\n"
        "    a = proc.test == 'nemenyi'\n"
        "    b = test in ('sign', 'wilcoxon')\n"
        "    return a or b or proc.test == proc.other\n"
    )
    assert _literal_test_comparisons(source) == [2, 3]


def test_the_post_hoc_step_leaves_the_bayesian_tests_to_their_own_step(monkeypatch):
    source = (PACKAGE / "stats" / "_posthoc.py").read_text(encoding="utf-8")
    imported = {
        node.module
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.ImportFrom) and node.module
    }
    assert "_bayes" not in imported and "proc.bayesian" not in source
    import cdplot.stats._compare as driver

    steps = []
    for name in ("run_bayes", "run_posthoc"):
        step = getattr(driver, name)
        monkeypatch.setattr(
            driver,
            name,
            lambda *a, _step=step, _name=name, **k: steps.append(_name) or _step(*a, **k),
        )
    _compare("bayes-sign")
    _compare("sign")
    assert steps == ["run_bayes", "run_posthoc"]

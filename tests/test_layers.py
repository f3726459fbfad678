"""The layers of ARCHITECTURE.md, checked statically on every module's top-level imports.

A module-level import must point down the layers, or stay inside its own top-level package
(``cdplot.stats._compare`` may import ``cdplot.stats._adjust``). Imports inside functions
(the declared seams such as ``res.plot()``) and under ``if TYPE_CHECKING:`` are allowed to
point anywhere. Nothing below the presentation layer imports matplotlib or seaborn at
module level. The checker is also run on synthetic sources to show that it fails on a
deliberately wrong import.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

import pytest

PACKAGE_ROOT = Path(__file__).resolve().parent.parent / "cdplot"

#: ARCHITECTURE.md's layer table: top-level unit of cdplot -> layer (higher = above).
LAYERS: dict[str, int] = {
    "cdplot._errors": 0,
    "cdplot._version": 0,
    "cdplot.io": 1,
    "cdplot.datasets": 1,
    "cdplot._data": 1,  # the input parser until it moves into cdplot.io
    "cdplot.stats": 2,
    "cdplot._labels": 3,
    "cdplot._json_fields": 3,  # the JSON document's fields; imports only the error family
    "cdplot.simulation": 4,
    "cdplot.plotting": 4,
    "cdplot.report": 4,
    "cdplot._json_check": 4,  # checks a JSON document; imports only the error family
    "cdplot.cli": 5,
    "cdplot._json": 5,
    "cdplot": 6,  # the package facade (__init__, __main__) re-exports from everything
}
#: Highest layer that must not import these at module level (stats, input and vocabulary).
NO_PLOTTING_LIBS_UP_TO = 3
PLOTTING_LIBS = ("matplotlib", "seaborn")


@dataclass(frozen=True)
class Violation:
    module: str
    imported: str
    line: int
    why: str

    def __str__(self) -> str:
        return f"{self.module}:{self.line} imports {self.imported}: {self.why}"


def unit_of(module: str) -> str:
    """The top-level unit (a key of LAYERS) a module belongs to."""
    parts = module.split(".")
    for n in range(len(parts), 0, -1):
        candidate = ".".join(parts[:n])
        if candidate in LAYERS and (candidate != "cdplot" or n == len(parts)):
            return candidate
    if module in ("cdplot.__main__",):
        return "cdplot"
    raise KeyError(f"{module} is in no layer of ARCHITECTURE.md; add it to LAYERS")


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _top_level_imports(body: list[ast.stmt]) -> list[ast.stmt]:
    """Import statements run at import time: not in functions, not under TYPE_CHECKING."""
    found: list[ast.stmt] = []
    for node in body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            found.append(node)
        elif isinstance(node, ast.If):
            if not _is_type_checking(node.test):
                found += _top_level_imports(node.body)
            found += _top_level_imports(node.orelse)
        elif isinstance(node, ast.Try):
            for block in (node.body, node.orelse, node.finalbody):
                found += _top_level_imports(block)
            for handler in node.handlers:
                found += _top_level_imports(handler.body)
        elif isinstance(node, (ast.With, ast.ClassDef)):
            found += _top_level_imports(node.body)
    return found


def _resolve(module: str, is_package: bool, node: ast.ImportFrom) -> str:
    if node.level == 0:
        return node.module or ""
    base = module.split(".")
    if not is_package:
        base = base[:-1]
    if node.level > 1:
        base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def imported_modules(
    module: str, source: str, is_package: bool, known: set[str]
) -> list[tuple[str, int]]:
    """(absolute module, line) for every top-level import of ``source``.

    ``from X import name`` counts as an import of ``X.name`` when that is a module of
    cdplot (``known``), else of ``X``.
    """
    tree = ast.parse(source)
    out: list[tuple[str, int]] = []
    for node in _top_level_imports(tree.body):
        if isinstance(node, ast.Import):
            out += [(alias.name, node.lineno) for alias in node.names]
            continue
        base = _resolve(module, is_package, node)
        for alias in node.names:
            full = f"{base}.{alias.name}"
            out.append((full if full in known else base, node.lineno))
    return out


def check_module(module: str, source: str, is_package: bool, known: set[str]) -> list[Violation]:
    """Every top-level import of ``module`` that points up or sideways."""
    here = unit_of(module)
    layer = LAYERS[here]
    problems = []
    for imported, line in imported_modules(module, source, is_package, known):
        root = imported.split(".")[0]
        if root != "cdplot":
            if root in PLOTTING_LIBS and layer <= NO_PLOTTING_LIBS_UP_TO:
                problems.append(
                    Violation(module, imported, line, f"layer {layer} must not load {root}")
                )
            continue
        there = unit_of(imported)
        if there == here:
            continue
        if LAYERS[there] > layer:
            why = f"points up (layer {layer} -> {LAYERS[there]})"
        elif LAYERS[there] == layer:
            why = f"points sideways ({here} and {there} are both layer {layer})"
        else:
            continue
        problems.append(Violation(module, imported, line, why))
    return problems


def _modules() -> dict[str, tuple[Path, bool]]:
    found = {}
    for path in sorted(PACKAGE_ROOT.rglob("*.py")):
        rel = path.relative_to(PACKAGE_ROOT.parent).with_suffix("")
        parts = list(rel.parts)
        is_package = parts[-1] == "__init__"
        if is_package:
            parts = parts[:-1]
        found[".".join(parts)] = (path, is_package)
    return found


MODULES = _modules()
KNOWN = set(MODULES)


def test_every_module_has_a_layer():
    assert len(MODULES) > 20
    for module in MODULES:
        unit_of(module)  # raises for a module outside the map


@pytest.mark.parametrize("module", sorted(MODULES))
def test_imports_point_down(module):
    path, is_package = MODULES[module]
    problems = check_module(module, path.read_text(encoding="utf-8"), is_package, KNOWN)
    assert not problems, "\n".join(str(p) for p in problems)


# ------------------------------------------------------------------ the checker itself
SYNTHETIC_KNOWN = KNOWN | {"cdplot.stats._fake", "cdplot.plotting._fake"}


@pytest.mark.parametrize(
    ("module", "source", "why"),
    [
        ("cdplot.stats._fake", "from ..plotting import cd_diagram\n", "points up (layer 2 -> 4)"),
        ("cdplot.stats._fake", "import cdplot.cli\n", "points up (layer 2 -> 5)"),
        ("cdplot.stats._fake", "from .. import report\n", "points up"),
        ("cdplot._errors", "from .io import parse_scores\n", "points up (layer 0 -> 1)"),
        (
            "cdplot.plotting._fake",
            "from ..report import to_html\n",
            "points sideways (cdplot.plotting and cdplot.report are both layer 4)",
        ),
        (
            "cdplot.stats._fake",
            "try:\n    import matplotlib.pyplot as plt\nexcept ImportError:\n    plt = None\n",
            "layer 2 must not load matplotlib",
        ),
        ("cdplot.stats._fake", "class A:\n    from ..plotting import _cd\n", "points up"),
        ("cdplot._json", "from .cli import main\n", "points sideways"),
    ],
)
def test_checker_catches_wrong_imports(module, source, why):
    problems = check_module(module, source, False, SYNTHETIC_KNOWN)
    assert len(problems) == 1 and why in str(problems[0])


@pytest.mark.parametrize(
    ("module", "source"),
    [
        ("cdplot.plotting._fake", "from .._labels import format_pvalue\nfrom . import _cd\n"),
        ("cdplot.stats._fake", "def f():\n    from ..plotting import cd_diagram\n"),
        (
            "cdplot.stats._fake",
            "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ..plotting import x\n",
        ),
        ("cdplot.cli._fake", "from ..stats._compare import compare\nimport numpy as np\n"),
        ("cdplot.plotting._fake", "import matplotlib as mpl\n"),
    ],
)
def test_checker_allows_downward_and_deferred_imports(module, source):
    known = SYNTHETIC_KNOWN | {"cdplot.cli._fake"}
    assert check_module(module, source, False, known) == []


def test_relative_imports_resolve_like_python():
    node = ast.parse("from ..stats import _adjust").body[0]
    assert isinstance(node, ast.ImportFrom)
    assert _resolve("cdplot.cli._main", False, node) == "cdplot.stats"
    assert _resolve("cdplot.cli", True, node) == "cdplot.stats"  # package: level 2 from cli
    got = imported_modules("cdplot.cli._main", "from ..stats import _adjust\n", False, KNOWN)
    assert got == [("cdplot.stats._adjust", 1)]


# ------------------------------------------------------- imports made by string (importlib)
#: String imports (``importlib.import_module("...")``) anywhere in a module, also inside
#: functions, must point down like a top-level import, or be declared here with the reason.
DECLARED_STRING_IMPORTS = {
    ("cdplot.report._html", "cdplot.plotting"): "the HTML page embeds the figures when "
    "matplotlib is installed (a report without it keeps the text)",
}


def string_imports(module: str, source: str, is_package: bool) -> list[tuple[str, int]]:
    """(absolute module, line) of every ``import_module`` call with a literal name."""
    out = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call) or not node.args:
            continue
        func = node.func
        name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
        first = node.args[0]
        if name != "import_module" or not isinstance(first, ast.Constant):
            continue
        target = str(first.value)
        if target.startswith("."):  # relative to the package given as second argument
            level = len(target) - len(target.lstrip("."))
            relative = ast.ImportFrom(module=target.lstrip(".") or None, names=[], level=level)
            target = _resolve(module, is_package, relative)
        out.append((target, node.lineno))
    return out


def check_string_imports(module: str, source: str, is_package: bool) -> list[Violation]:
    here = unit_of(module)
    problems = []
    for target, line in string_imports(module, source, is_package):
        if target.split(".")[0] != "cdplot" or (module, unit_of(target)) in DECLARED_STRING_IMPORTS:
            continue
        there = unit_of(target)
        if there != here and LAYERS[there] >= LAYERS[here]:
            why = "imports by string up or sideways; import normally or declare it in test_layers"
            problems.append(Violation(module, target, line, why))
    return problems


@pytest.mark.parametrize("module", sorted(MODULES))
def test_string_imports_point_down_or_are_declared(module):
    path, is_package = MODULES[module]
    problems = check_string_imports(module, path.read_text(encoding="utf-8"), is_package)
    assert not problems, "\n".join(str(p) for p in problems)


def test_the_string_import_checker_sees_imports_inside_functions():
    source = 'def f():\n    from importlib import import_module\n    import_module("cdplot.cli")\n'
    (problem,) = check_string_imports("cdplot.stats._fake", source, False)
    assert problem.imported == "cdplot.cli" and problem.line == 3
    relative = "import importlib\nimportlib.import_module('.report', __name__)\n"
    assert string_imports("cdplot", relative, True) == [("cdplot.report", 2)]
    assert check_string_imports("cdplot", relative, True) == []
    assert (
        check_string_imports("cdplot.report._html", "import_module('cdplot.plotting')", False) == []
    )


# ------------------------------------------------------------ figures only draw
#: Everything plotting/ may import from stats/, anywhere in a module (also inside
#: functions): the result types a figure reads - each figure's numbers come from one of
#: them (``RankPlotStatistics.of``, ``ComparisonMatrix.of``, ``ItemWins.of``), made in stats -
#: and the kinds and vocabulary (names, no computation). Nothing else: no test, no
#: correction, no interval or bootstrap, no module imported whole.
PLOTTING_MAY_IMPORT_FROM_STATS: dict[str, set[str]] = {
    # result types
    "cdplot.stats._results": {"Comparison", "ComparisonResult", "BayesianComparisonResult"},
    "cdplot.stats._bayes": {"BayesianResult"},
    "cdplot.stats._intervals": {"RankIntervals", "RankPlotStatistics"},
    "cdplot.stats._comparison_matrix": {"ComparisonMatrix"},
    "cdplot.stats._items": {"ItemWins"},
    "cdplot.stats._pareto": {"ParetoFrontier"},
    "cdplot.stats._sensitivity": {"AggregationSensitivity", "AGGREGATIONS"},
    # kinds and vocabulary
    "cdplot.stats._own_ranks": {"OWN_RANK_LABELS"},
    "cdplot.stats._letters": {"SINGLE_LETTERS"},
}
#: Libraries that compute statistics or draw random numbers: never imported by plotting/.
STATISTICS_LIBS = ("scipy", "statsmodels", "numpy.random", "sklearn")
#: Calls that compute a statistic (numpy's and pandas' reductions, a random generator):
#: a figure reads such numbers, it never calls these.
STATISTIC_CALLS = frozenset(
    {
        "mean", "nanmean", "std", "nanstd", "var", "nanvar", "median", "nanmedian",
        "quantile", "nanquantile", "percentile", "nanpercentile", "average", "corrcoef",
        "cov", "nunique", "value_counts", "rankdata", "default_rng", "bootstrap",
    }
)  # fmt: skip
PLOTTING_MODULES = sorted(m for m in MODULES if unit_of(m) == "cdplot.plotting")


def statistics_in_plotting(module: str, source: str, is_package: bool) -> list[str]:
    """What in a plotting module computes statistics: a stats name outside
    PLOTTING_MAY_IMPORT_FROM_STATS, a statistics library, a reduction call; anywhere in
    the module, functions included."""
    problems = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith(STATISTICS_LIBS) or alias.name.startswith("cdplot.stats"):
                    problems.append(f"line {node.lineno}: import {alias.name}")
        elif isinstance(node, ast.ImportFrom):
            base = _resolve(module, is_package, node)
            if base.startswith(STATISTICS_LIBS):
                problems.append(f"line {node.lineno}: from {base} import ...")
            elif base == "cdplot.stats" or base.startswith("cdplot.stats."):
                allowed = PLOTTING_MAY_IMPORT_FROM_STATS.get(base, set())
                problems += [
                    f"line {node.lineno}: {base}.{a.name} is not a result type or kind"
                    for a in node.names
                    if a.name not in allowed
                ]
        elif isinstance(node, ast.Call):
            name = getattr(node.func, "attr", None) or getattr(node.func, "id", None)
            if name in STATISTIC_CALLS:
                problems.append(f"line {node.lineno}: calls {name}()")
    return problems


@pytest.mark.parametrize("module", PLOTTING_MODULES)
def test_plotting_never_computes_statistics(module):
    """A figure reads a result (or an object it is given); every statistic it shows is
    computed in stats/."""
    path, is_package = MODULES[module]
    problems = statistics_in_plotting(module, path.read_text(encoding="utf-8"), is_package)
    assert not problems, f"{module} computes statistics:\n" + "\n".join(problems)


@pytest.mark.parametrize(
    ("source", "found"),
    [
        ("def f(r):\n    from ..stats._intervals import rank_intervals\n", "rank_intervals"),
        ("from ..stats import item_wins\n", "cdplot.stats.item_wins"),
        ("from ..stats import _intervals\n", "_intervals"),
        ("import cdplot.stats._letters\n", "import cdplot.stats._letters"),
        ("def f():\n    import scipy.stats\n", "import scipy.stats"),
        ("from numpy.random import default_rng\n", "from numpy.random"),
        ("def f(x):\n    return np.nanmean(x, axis=0)\n", "calls nanmean()"),
        ("def f(t):\n    return t['task'].nunique()\n", "calls nunique()"),
    ],
)
def test_the_statistics_check_catches_computing_code(source, found):
    problems = statistics_in_plotting("cdplot.plotting._fake", source, False)
    assert len(problems) == 1 and found in problems[0]


def test_the_statistics_check_allows_result_types_and_kinds():
    source = (
        "from ..stats._intervals import RankPlotStatistics\n"
        "def f():\n    from ..stats._own_ranks import OWN_RANK_LABELS\n"
        "    return np.isfinite(1.0)\n"
    )
    assert statistics_in_plotting("cdplot.plotting._fake", source, False) == []


@pytest.mark.parametrize("name", ["_cd_layout", "_heatmap_layout", "_rank_layout"])
def test_layout_modules_import_no_drawing_library(name):
    """The pure geometry modules import neither matplotlib, seaborn nor numpy (anywhere)."""
    path, _ = MODULES[f"cdplot.plotting.{name}"]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            modules = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            modules = [node.module or ""] if node.level == 0 else []
        else:
            continue
        for module in modules:
            assert not module.startswith(("matplotlib", "seaborn", "numpy")), (name, module)


@pytest.mark.parametrize("module", PLOTTING_MODULES)
def test_only_the_heatmap_loads_seaborn(module):
    path, _ = MODULES[module]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
        if isinstance(node, ast.ImportFrom) and node.level == 0:
            names = [node.module or ""]
        if any(n.startswith("seaborn") for n in names):
            assert module == "cdplot.plotting._heatmap", f"{module}:{node.lineno} loads seaborn"

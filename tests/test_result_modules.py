"""The comparison results sit above the test families: no module circle runs through them.

``stats/_results.py`` (the comparison results) imports the statistics it reports on, some
of them when first read (``res.assumptions``, ``res.procedure``, ...). The test families
return the small results of ``stats/_test_results.py``, so none of the modules the
comparison results reach imports ``stats/_results.py`` back at module level.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

STATS = Path(__file__).resolve().parent.parent / "cdplot" / "stats"
RESULTS = "_results"


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return getattr(test, "id", None) == "TYPE_CHECKING" or getattr(test, "attr", None) == (
        "TYPE_CHECKING"
    )


def _stats_imports(tree: ast.AST, top_level_only: bool) -> set[str]:
    """The sibling modules of ``stats/`` a module imports (``from ._x import ...``)."""
    found: set[str] = set()

    def visit(body: list[ast.stmt]) -> None:
        for node in body:
            if isinstance(node, ast.ImportFrom) and node.level == 1:
                if node.module:
                    found.add(node.module.split(".")[0])
                else:
                    found.update(alias.name for alias in node.names)
            elif isinstance(node, ast.If) and _is_type_checking(node):
                continue
            elif isinstance(node, (ast.If, ast.Try, ast.With, ast.ClassDef)):
                for block in ("body", "orelse", "finalbody", "handlers"):
                    for child in getattr(node, block, []):
                        visit(child.body if isinstance(child, ast.ExceptHandler) else [child])
            elif not top_level_only and isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                visit(node.body)

    visit(tree.body)  # type: ignore[attr-defined]
    return {name for name in found if (STATS / f"{name}.py").exists()}


def _tree(name: str) -> ast.AST:
    return ast.parse((STATS / f"{name}.py").read_text(encoding="utf-8"))


def _reached_from_results() -> dict[str, str]:
    """Every stats module the comparison results load (when imported or when a property is
    first read), and through which module, following module-level imports onwards."""
    via: dict[str, str] = {}
    todo = [(name, RESULTS) for name in sorted(_stats_imports(_tree(RESULTS), False))]
    while todo:
        name, parent = todo.pop()
        if name in via or name == RESULTS:
            continue
        via[name] = parent
        todo += [(child, name) for child in sorted(_stats_imports(_tree(name), True))]
    return via


def test_no_module_the_comparison_results_load_imports_them_back():
    reached = _reached_from_results()
    assert "_parametric" in reached  # res.assumptions: the walk follows deferred imports
    back = {
        name: via for name, via in reached.items() if RESULTS in _stats_imports(_tree(name), True)
    }
    assert not back, f"modules importing stats._results back (module: reached via): {back}"
    assert "_test_results" in reached


@pytest.mark.parametrize(
    "name",
    ["OmnibusResult", "PairwiseResult", "SkillingsMackResult", "PairedTestResult",
     "AssumptionCheck"],
)  # fmt: skip
def test_the_test_results_keep_their_public_names(name):
    import cdplot.stats
    from cdplot.stats import _results, _test_results

    cls = getattr(_test_results, name)
    assert getattr(cdplot.stats, name) is cls
    assert getattr(_results, name) is cls  # where they were first (and old pickles look)
    if name == "OmnibusResult":
        import cdplot

        assert cdplot.OmnibusResult is cls

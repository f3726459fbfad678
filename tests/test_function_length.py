"""No function in cdplot is longer than about 120 lines of code (its docstring not counted).

Long algorithms are short drivers over named steps (ARCHITECTURE.md). There is no
exception: the exact Bergmann-Hommel engine, once exempt, is split into modules of one job
each (stats/_exhaustive.py, _bh_budget.py, _bh_staircase.py, _bh_general.py).
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE_ROOT = Path(__file__).resolve().parent.parent / "cdplot"
MAX_LINES = 120
EXEMPT: set[str] = set()


def code_lines(node: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    """Lines from the first statement after the docstring to the end of the function."""
    body = node.body
    first = body[0]
    docstring = isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
    if docstring and isinstance(first.value.value, str) and len(body) > 1:
        first = body[1]
    return node.end_lineno - first.lineno + 1


def long_functions(source: str, limit: int = MAX_LINES) -> list[tuple[str, int]]:
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            lines = code_lines(node)
            if lines > limit:
                found.append((node.name, lines))
    return found


def test_no_function_over_the_limit():
    offenders = []
    for path in sorted(PACKAGE_ROOT.rglob("*.py")):
        relative = path.relative_to(PACKAGE_ROOT).as_posix()
        if relative in EXEMPT:
            continue
        offenders += [(relative, *hit) for hit in long_functions(path.read_text("utf-8"))]
    assert offenders == []


def test_the_measure_counts_code_not_the_docstring():
    body = "\n".join(f"    x{i} = {i}" for i in range(5))
    source = f'def f():\n    """Doc.\n\n    More.\n    """\n{body}\n'
    assert long_functions(source, limit=4) == [("f", 5)]
    assert long_functions(source, limit=5) == []

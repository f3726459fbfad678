"""The statistics and the readers type-check: mypy with the project's [tool.mypy] settings.

One mypy run over ``cdplot.stats`` and ``cdplot.io`` (the packages named in pyproject.toml,
their imports followed); each module of those packages is a test case, so a failure names
the module and mypy's error lines.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # one mypy run without a cache: about a minute on 2 cores

ROOT = Path(__file__).resolve().parents[1]
CHECKED = ("cdplot/stats", "cdplot/io")
MODULES = sorted(p.relative_to(ROOT).as_posix() for d in CHECKED for p in (ROOT / d).glob("*.py"))
_ERROR = re.compile(r"^(?P<path>[^:\s]+\.py):\d+: error: ")


@pytest.fixture(scope="module")
def mypy_errors(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[str]]:
    """mypy's error lines by file (relative to the checkout, forward slashes)."""
    cache = tmp_path_factory.mktemp("mypy_cache")
    run = subprocess.run(
        [sys.executable, "-m", "mypy", "--cache-dir", str(cache)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode in (0, 1), f"mypy did not run: {run.stderr or run.stdout}"
    errors: dict[str, list[str]] = {}
    for line in run.stdout.splitlines():
        match = _ERROR.match(line)
        if match:
            errors.setdefault(match["path"].replace("\\", "/"), []).append(line)
    assert run.returncode == (1 if errors else 0), run.stdout + run.stderr
    return errors


@pytest.mark.parametrize("module", MODULES)
def test_module_type_checks(module: str, mypy_errors: dict[str, list[str]]) -> None:
    assert mypy_errors.get(module, []) == []


def test_the_modules_they_import_type_check(mypy_errors: dict[str, list[str]]) -> None:
    outside = {path: lines for path, lines in mypy_errors.items() if path not in MODULES}
    assert outside == {}

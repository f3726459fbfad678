"""The documentation's promises: every public function shows a runnable example, every public
name has a docstring (the API reference is generated from them), the README stays a front page
whose quick start is what CI runs, and the site's sources are complete."""

from __future__ import annotations

import importlib
import inspect
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = (
    "cdplot",
    "cdplot.stats",
    "cdplot.plotting",
    "cdplot.io",
    "cdplot.report",
    "cdplot.simulation",
    "cdplot.datasets",
)


def _public_objects():
    seen = set()
    for package in PACKAGES:
        module = importlib.import_module(package)
        for name in getattr(module, "__all__", ()):
            obj = getattr(module, name)
            if (inspect.isroutine(obj) or inspect.isclass(obj)) and id(obj) not in seen:
                seen.add(id(obj))
                yield f"{package}.{name}", obj


def test_every_public_function_has_a_doctest_example():
    missing = [
        name
        for name, obj in _public_objects()
        if inspect.isroutine(obj) and ">>>" not in (obj.__doc__ or "")
    ]
    assert not missing, f"public functions without an example: {missing}"


def test_every_public_name_has_its_own_docstring():
    missing = [name for name, obj in _public_objects() if not (obj.__doc__ or "").strip()]
    assert not missing, f"public names without a docstring: {missing}"


def test_readme_is_a_front_page_whose_test_command_is_what_ci_runs():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 200
    commands = re.findall(r"```bash\n(?:#[^\n]*\n)?(python3 -m venv[^\n]*)\n```", readme)
    assert len(commands) >= 2
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    test_command = next(c for c in commands if "pytest" in c)
    assert test_command in ci


def test_readme_links_point_to_files_that_exist():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    targets = re.findall(r"\]\(((?!https?:)[^)#]+)\)", readme)
    assert targets
    missing = [t for t in targets if not (ROOT / t).exists()]
    assert not missing, missing


@pytest.mark.parametrize("page", sorted((ROOT / "docs").rglob("*.md")), ids=lambda p: p.name)
def test_doc_pages_link_to_pages_and_images_that_exist(page):
    text = page.read_text(encoding="utf-8")
    targets = re.findall(r"\]\(((?!https?:)[^)#\s]+)\)", text)
    missing = [t for t in targets if not (page.parent / t).exists()]
    assert not missing, missing


def test_the_cli_reference_is_generated_from_the_parser():
    page = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    assert "{cdplot-cli}" in page
    assert "--lower-is-better" not in page  # not retyped: the directive writes it

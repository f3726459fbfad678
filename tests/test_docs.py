"""The documentation's promises: every public function shows a runnable example, every public
name has a docstring (the API reference is generated from them), the README stays a front page
whose quick start is what CI runs, the site's sources are complete, and every ```python block
of the user guide (docs/guide/*.md) and of the site's front pages (docs/*.md) runs as written.

The blocks run page by page, in order, in one namespace and an empty working folder.
A block that cannot run here (it needs files of the reader's own, a cluster or the network)
carries the marker ``<!-- docs-test: skip -->`` on the line right above its fence; MyST
renders the HTML comment as nothing. Use it rarely: an example that only needs data builds
or loads its data."""

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


# --------------------------------------------------------------------------- the guide's code

#: The marker, on the line right above a ```python fence, of a guide example that cannot run
#: in the test suite as written: it needs files of the reader's own, a cluster or the network.
#: Use it rarely; an example that only needs data should build or load its data instead.
SKIP_MARKER = "<!-- docs-test: skip -->"
#: the user guide and the site's front pages (docs/index.md, docs/getting-started.md, ...)
GUIDE = sorted((ROOT / "docs" / "guide").glob("*.md")) + sorted((ROOT / "docs").glob("*.md"))
_FENCE = re.compile(r"^```python\n(.*?)^```", re.MULTILINE | re.DOTALL)


def python_blocks(text: str) -> list[tuple[int, str, bool]]:
    """The ```python blocks of a Markdown page: (first line number, code, skipped)."""
    out = []
    for match in _FENCE.finditer(text):
        before = text[: match.start()].rstrip("\n").rsplit("\n", 1)[-1]
        line = text.count("\n", 0, match.start()) + 2
        out.append((line, match.group(1), before.strip() == SKIP_MARKER))
    return out


def test_python_blocks_finds_the_fences_and_the_skip_marker():
    page = f"text\n```python\nx = 1\n```\n{SKIP_MARKER}\n```python\nraise SystemExit\n```\n"
    assert python_blocks(page) == [(3, "x = 1\n", False), (7, "raise SystemExit\n", True)]


#: pages whose examples take longer than a few seconds (a simulation of 20,000 replicates)
SLOW_PAGES = {"simulation.md"}
#: pages whose examples do not run yet, and why (kept in step with the pages: strict)
def _guide_pages() -> list:
    params = []
    for page in GUIDE:
        if all(skipped for _, _, skipped in python_blocks(page.read_text(encoding="utf-8"))):
            continue  # no block, or none that runs here
        marks = [pytest.mark.slow] if page.name in SLOW_PAGES else []
        params.append(pytest.param(page, marks=marks, id=str(page.relative_to(ROOT / "docs"))))
    return params


@pytest.mark.parametrize("page", _guide_pages())
def test_every_python_example_of_the_guide_runs_as_written(page, tmp_path, monkeypatch):
    """A page's blocks run in order in one namespace (the page is read top to bottom), in
    an empty working folder; warnings the examples raise are not errors here."""
    import warnings

    monkeypatch.chdir(tmp_path)
    namespace: dict = {"__name__": "__docs__"}
    for line, code, skipped in python_blocks(page.read_text(encoding="utf-8")):
        if skipped:
            continue
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            exec(compile(code, f"{page.name}, line {line}", "exec"), namespace)


def test_cdplot_plotting_is_an_attribute_after_import_cdplot_without_matplotlib():
    import subprocess
    import sys

    code = (
        "import sys, cdplot\n"
        "plotting = cdplot.plotting\n"
        "print('matplotlib' in sys.modules, 'item_wins_plot' in plotting.__all__)\n"
        "print(callable(cdplot.plotting.item_wins_plot), callable(cdplot.simulation.simulate))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "True", "True", "True"]

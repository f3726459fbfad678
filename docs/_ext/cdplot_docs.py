"""Sphinx directives of the cdplot documentation.

``.. cdplot-cli::`` writes the command-line reference from cdplot's own argparse parser (the
help of ``cdplot`` and of each subcommand), so it cannot drift from the code.
The API reference (``docs/api/``) is written at the start of every build from each package's
``__all__``, so every public name has a page; one without a docstring stops the build.
"""

from __future__ import annotations

import argparse
import importlib
import inspect
from pathlib import Path

from docutils import nodes
from sphinx.util.docutils import SphinxDirective

PACKAGES = (
    "cdplot",
    "cdplot.stats",
    "cdplot.plotting",
    "cdplot.io",
    "cdplot.report",
    "cdplot.simulation",
    "cdplot.datasets",
)


def _subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


class CliReference(SphinxDirective):
    """The help text of ``cdplot`` and of every subcommand, as argparse prints it."""

    def run(self) -> list[nodes.Node]:
        from cdplot.cli._main import build_parser

        parser = build_parser()
        out: list[nodes.Node] = []
        for name, sub in [("cdplot", parser), *_subparsers(parser).items()]:
            title = name if name == "cdplot" else f"cdplot {name}"
            section = nodes.section(ids=[nodes.make_id(title)])
            section += nodes.title(text=title)
            text = sub.format_help()
            section += nodes.literal_block(text, text, language="text")
            out.append(section)
        return out


def public_names() -> dict[str, list[str]]:
    """``{package: sorted public names}`` from every package's ``__all__``."""
    names = {}
    for package in PACKAGES:
        module = importlib.import_module(package)
        names[package] = sorted(n for n in getattr(module, "__all__", ()) if n != "__version__")
    return names


_TITLES = {
    "cdplot": "cdplot — the top-level API",
    "cdplot.stats": "cdplot.stats — the tests",
    "cdplot.plotting": "cdplot.plotting — the figures",
    "cdplot.io": "cdplot.io — reading tables",
    "cdplot.report": "cdplot.report — reports and text",
    "cdplot.simulation": "cdplot.simulation — simulation studies",
    "cdplot.datasets": "cdplot.datasets — bundled tables",
}


def _is_value(obj: object) -> bool:
    return not (inspect.isclass(obj) or inspect.isroutine(obj) or inspect.ismodule(obj))


def write_api_pages(app, config=None) -> None:
    """Write ``docs/api/*.rst`` from every package's ``__all__`` (generated, not committed).

    A public function or class is documented once, under the first package that exports it;
    the later packages say where. A public function or class without a docstring of its own
    stops the build.
    """
    api = Path(app.srcdir) / "api"
    api.mkdir(exist_ok=True)
    seen: dict[int, str] = {}
    undocumented = []
    pages = []
    for package, names in public_names().items():
        module = importlib.import_module(package)
        documented, aliases, values = [], [], []
        for name in names:
            obj = getattr(module, name)
            if inspect.ismodule(obj):
                aliases.append(f"``{package}.{name}``: the subpackage :doc:`{obj.__name__}`")
                continue
            if _is_value(obj):
                values.append((name, obj))
                continue
            if id(obj) in seen:
                aliases.append(f"``{package}.{name}``: the same object as :obj:`{seen[id(obj)]}`")
                continue
            seen[id(obj)] = f"{package}.{name}"
            if not (obj.__doc__ or "").strip():
                undocumented.append(f"{package}.{name}")
            documented.append(name)
        lines = [
            _TITLES[package],
            "=" * len(_TITLES[package]),
            "",
            f".. module:: {package}",
            "",
            f".. currentmodule:: {package}",
            "",
        ]
        doc = (module.__doc__ or "").strip().split("\n\n")[0]
        lines += [doc, ""] if doc else []
        if documented:
            lines += [".. autosummary::", "   :toctree: generated", "   :nosignatures:", ""]
            lines += [f"   {name}" for name in documented] + [""]
        if values:
            lines += ["Constants", "---------", ""]
            for name, obj in values:
                text = repr(obj)
                if len(text) > 300:
                    text = text[:297] + "..."
                lines += [f".. data:: {package}.{name}", "", f"   ``{text}``", ""]
        if aliases:
            lines += ["Also exported here", "------------------", ""]
            lines += [f"* {alias}" for alias in aliases] + [""]
        (api / f"{package}.rst").write_text("\n".join(lines), encoding="utf-8")
        pages.append(package)
    index = [
        "API reference",
        "=============",
        "",
        "Every public name of cdplot, generated from the docstrings.",
        "",
        ".. toctree::",
        "   :maxdepth: 1",
        "",
    ] + [f"   {p}" for p in pages]
    (api / "index.rst").write_text("\n".join(index) + "\n", encoding="utf-8")
    if undocumented:
        raise RuntimeError("public names without a docstring: " + ", ".join(undocumented))


def setup(app):  # noqa: D103
    app.add_directive("cdplot-cli", CliReference)
    app.connect("config-inited", write_api_pages)
    return {"parallel_read_safe": True, "parallel_write_safe": True}

"""Sphinx configuration of the cdplot documentation.

Build (offline, warnings as errors)::

    pip install ".[docs]"
    python -m sphinx -W -b html docs docs/_build/html

The gallery (``gallery/``) is executed by sphinx-gallery; each script writes its files into a
temporary folder of the build, never into the source tree. Intersphinx links to numpy, scipy,
pandas and matplotlib need their inventories from the network, which CI does not have: they are
used only when ``CDPLOT_DOCS_INTERSPHINX=1`` is set (set it on a machine with network access).
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE / "_ext"))

import matplotlib  # noqa: E402

matplotlib.use("Agg")
# cdplot's figure functions register their figures with pyplot when pyplot is loaded, which
# is how sphinx-gallery finds the figures to show under each example.
import matplotlib.pyplot  # noqa: E402, F401

import cdplot  # noqa: E402

project = "cdplot"
author = "The cdplot developers"
copyright = "2026, The cdplot developers"
version = release = cdplot.__version__

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.mathjax",
    "sphinx.ext.viewcode",
    "numpydoc",
    "myst_parser",
    "sphinx_gallery.gen_gallery",
    "cdplot_docs",
]
if os.environ.get("CDPLOT_DOCS_INTERSPHINX") == "1":
    extensions.append("sphinx.ext.intersphinx")
    intersphinx_mapping = {
        "python": ("https://docs.python.org/3", None),
        "numpy": ("https://numpy.org/doc/stable", None),
        "scipy": ("https://docs.scipy.org/doc/scipy", None),
        "pandas": ("https://pandas.pydata.org/docs", None),
        "matplotlib": ("https://matplotlib.org/stable", None),
    }

source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build", "readme", "auto_examples/*.ipynb", "**.zip", "**.py", "**.md5"]
myst_enable_extensions = ["dollarmath", "colon_fence"]
myst_heading_anchors = 3
suppress_warnings = ["myst.xref_missing", "config.cache"]

autosummary_generate = True
autodoc_typehints = "none"
autoclass_content = "class"
autodoc_inherit_docstrings = False
autodoc_default_options = {"members": False}
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_xref_param_type = False

_gallery_out = tempfile.mkdtemp(prefix="cdplot-gallery-")
os.environ["CDPLOT_GALLERY_OUT"] = _gallery_out
sphinx_gallery_conf = {
    "examples_dirs": str(ROOT / "gallery"),
    "gallery_dirs": "auto_examples",
    "filename_pattern": r".*\.py$",
    "ignore_pattern": r"__init__\.py",
    "download_all_examples": False,
    "remove_config_comments": True,
    "within_subsection_order": "FileNameSortKey",
    "reset_modules": ("matplotlib",),
    "capture_repr": (),
    "show_memory": False,
    "plot_gallery": "True",
}

html_theme = "pydata_sphinx_theme"
html_title = "cdplot"
html_static_path: list[str] = []
templates_path = ["_templates"]
html_theme_options = {
    "navigation_with_keys": False,
    "show_toc_level": 2,
    "secondary_sidebar_items": ["page-toc"],
}
html_show_sourcelink = False

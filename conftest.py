"""Fixtures for every test item under the repository, the docstring examples of ``cdplot/``
included (``tests/conftest.py`` holds those of the test suite)."""

from __future__ import annotations

import sys

import pytest


@pytest.fixture(autouse=True)
def _close_example_figures():
    """Close the figures a docstring example drew (each draws one or two and keeps none)."""
    yield
    if "matplotlib.pyplot" in sys.modules:
        sys.modules["matplotlib.pyplot"].close("all")

"""Shared fixtures: closing figures, a seeded rng, bundled example tables, hypothesis profile."""

from __future__ import annotations

import os
import sys

import numpy as np
import pytest
from hypothesis import HealthCheck, settings

os.environ.setdefault("MPLBACKEND", "Agg")

settings.register_profile(
    "cdplot",
    derandomize=True,
    deadline=None,
    max_examples=60,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile("cdplot")


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    if "matplotlib.pyplot" in sys.modules:
        sys.modules["matplotlib.pyplot"].close("all")


@pytest.fixture
def rng() -> np.random.Generator:
    return np.random.default_rng(20061)


@pytest.fixture
def demsar():
    import cdplot

    return cdplot.datasets.load("demsar2006")


@pytest.fixture
def benavoli():
    import cdplot

    return cdplot.datasets.load("benavoli2016")

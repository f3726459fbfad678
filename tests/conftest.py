"""Shared fixtures: closing figures, a seeded rng, bundled example tables and results,
hypothesis profile."""

from __future__ import annotations

import os

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


@pytest.fixture
def results_csv(tmp_path, benavoli):
    """Benavoli et al.'s table written to ``tmp_path / "results.csv"`` (for the CLI)."""
    path = tmp_path / "results.csv"
    benavoli.to_csv(path)
    return path


@pytest.fixture
def garcia():
    """García & Herrera's synthetic table (lower is better), mean ranks and Bergmann-Hommel;
    its pool-dependence warning is expected."""
    import cdplot

    data = cdplot.datasets.load("garcia2008_synthetic")
    with pytest.warns(cdplot.PoolDependenceWarning):
        return cdplot.compare(
            data, higher_is_better=False, test="mean-ranks", correction="bergmann"
        )


@pytest.fixture(scope="module")
def bayes_benavoli():
    """The Bayesian signed-rank comparison of Benavoli et al.'s table (seeded)."""
    import cdplot

    ben = cdplot.datasets.load("benavoli2016")  # accuracies in percent: rope of one point
    return cdplot.compare(ben, test="bayes-signed-rank", rope=1.0, nsamples=5000, random_state=0)

"""simulate() runs every frequentist procedure compare() accepts, with compare()'s answers.

The reference is cdplot.compare on each simulated table; its own tests pin it to published
values and to R/scipy (tests/test_paper_values.py, test_other_omnibus.py, test_parametric.py).
Here the simulation must reproduce, replicate by replicate, the rejections it makes.
"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

import cdplot
from cdplot.simulation import NormalModel, simulate

PROCEDURES = [
    ("quade", "holm"),
    ("aligned-ranks", "finner"),
    ("paired-t", "hochberg"),
    ("paired-t", "bonferroni-dunn", "a"),
]


def _rejections_by_compare(model, tables, procs, alpha):
    names = list(model.algorithms)
    counts: dict[tuple[str, str, str], int] = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cdplot.CdplotWarning)
        for table in tables:
            frame = pd.DataFrame(table, columns=names)
            for test, correction, *ctrl in procs:
                control = ctrl[0] if ctrl else None
                res = cdplot.compare(
                    frame, test=test, correction=correction, control=control, alpha=alpha
                )
                label = res.procedure.label
                if control is not None:
                    hits = [(control, b) for b, sig in res.significant.items() if sig]
                else:
                    sig = np.triu(res.significant.to_numpy())
                    hits = [(names[i], names[j]) for i, j in zip(*np.nonzero(sig), strict=True)]
                for a, b in hits:
                    counts[label, a, b] = counts.get((label, a, b), 0) + 1
    return counts


@pytest.mark.parametrize(
    ("procedures", "n_rep"),
    # compare() with Tukey's HSD takes ~1 s a table: four tables, every pair rejected at least once
    [(PROCEDURES, 40), ([("tukey", "tukey")], 4)],
)
def test_every_frequentist_test_is_simulated_as_compare_decides(procedures, n_rep):
    model = NormalModel(means={"a": 0.0, "b": 0.5, "c": 1.0, "d": 1.5}, n_datasets=10)
    sim = simulate(model, procedures=procedures, n_replicates=n_rep, alpha=0.1, random_state=3)
    (child,) = np.random.SeedSequence(3).spawn(1)  # one block of BLOCK >= 40 replicates
    tables = model.draw(np.random.default_rng(child), n_rep)
    expected = _rejections_by_compare(model, tables, procedures, 0.1)
    got = {
        (row.procedure, row.a, row.b): row.rejections
        for row in sim.to_frame().itertuples()
        if row.rejections
    }
    assert got == expected
    assert {label for label, _, _ in got} == set(sim.procedures)  # every procedure rejects

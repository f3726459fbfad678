"""simulate() bounds the memory of a chunk, not the shape of the table.

A chunk holds its replicates' tables and p-values and the difference work arrays of one
replicate at a time (stats/_batch.py), about ``chunk_bytes(k, N)`` bytes; a study is refused
only when one seed block of 100 replicates would exceed ``MAX_CHUNK_BYTES`` (1 GB). Checked
here: 100 algorithms on 50 datasets run (they were refused by a bound on pairs x datasets)
within the estimate, enormous tables are refused up front with the bound and a fix, and a
chunk_size beyond the bound is cut to it without changing the numbers. No statistics are
verified here (see tests/test_simulate.py).
"""

from __future__ import annotations

import tracemalloc

import pytest

import cdplot
from cdplot.simulation import _runner
from cdplot.simulation._runner import MAX_CHUNK_BYTES, chunk_bytes

PROCS = [("sign", "holm"), ("mean-ranks", "holm")]


def _model(k: int, n: int) -> cdplot.NormalModel:
    return cdplot.NormalModel(means={f"M{i:03d}": 0.02 * i for i in range(k)}, n_datasets=n)


def test_hundred_algorithms_on_fifty_datasets_run_in_bounded_memory():
    tracemalloc.start()
    try:
        sim = cdplot.simulate(_model(100, 50), procedures=PROCS, n_replicates=100, random_state=3)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert sim.n_replicates == 100 and len(sim.to_frame()) == 2 * 4950
    assert peak < chunk_bytes(100, 50) < MAX_CHUNK_BYTES  # about 78 MB estimated


@pytest.mark.parametrize(
    ("k", "n", "message"),
    [
        (100, 10**6, r"about 630\.0 GB for one seed block .* at most 1,517 datasets with 100 "),
        (3, 10**7, r"beyond the bound of 1 GB per worker; use at most 109,383 datasets"),
        (3000, 10, r"4,498,500 pairs\) needs about .* GB .*; use fewer algorithms"),
    ],
)
def test_enormous_tables_are_refused_before_anything_is_drawn(k, n, message):
    tracemalloc.start()
    try:
        with pytest.raises(cdplot.CdplotInputError, match=message):
            cdplot.simulate(_model(k, n), procedures=PROCS, n_replicates=10, random_state=1)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 20 * 2**20


def test_chunk_size_beyond_the_memory_bound_is_cut_to_it(monkeypatch):
    model = _model(5, 12)
    ref = cdplot.simulate(model, procedures=PROCS, n_replicates=700, random_state=5)
    monkeypatch.setattr(_runner, "MAX_CHUNK_BYTES", chunk_bytes(5, 12, 3))
    cut = cdplot.simulate(
        model, procedures=PROCS, n_replicates=700, random_state=5, chunk_size=10_000
    )
    assert cut.settings["chunk_size"] == 300 and cut.settings["n_chunks"] == 3
    assert ref.settings["chunk_size"] == 200  # default: about four chunks
    assert cut.to_frame().equals(ref.to_frame())
    assert cut.fwer.equals(ref.fwer)

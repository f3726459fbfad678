"""A simulation chunk in a process whose environment fixed glibc's malloc thresholds.

dask.distributed's nannies start every worker with ``MALLOC_TRIM_THRESHOLD_=65536``, which
turns glibc's dynamic mmap threshold off: every buffer of a chunk above 128 KiB was mapped,
faulted in page by page and unmapped again, and a worker of the user's own LocalCluster
spent 1.3-1.5x the CPU of one process per replicate. The chunk now runs with both
thresholds raised and restores them afterwards (``cdplot/simulation/_allocator.py``).

The regression test counts minor page faults (``resource.getrusage``) of the same study in
two fresh processes with the variable set, once as the chunk runs and once with the
thresholds left alone (the state before the change): the raised thresholds remove most of
the faults (2,000 replicates: about 31,400 left alone, 6,600 with them raised).
"""

from __future__ import annotations

import os
import platform
import subprocess
import sys
from pathlib import Path

import pytest

from cdplot.simulation import _allocator
from cdplot.simulation._allocator import (
    CHUNK_MMAP_THRESHOLD,
    CHUNK_TRIM_THRESHOLD,
    M_MMAP_THRESHOLD,
    M_TRIM_THRESHOLD,
    chunk_allocator,
)

GLIBC = platform.system() == "Linux" and platform.libc_ver()[0] == "glibc"

FAULTS_SCRIPT = """\
import contextlib
import resource
import sys
import cdplot
import cdplot.simulation._runner as runner
if sys.argv[1:] == ["--without-fix"]:
    runner.chunk_allocator = contextlib.nullcontext
model = cdplot.NormalModel(means=[0.1 * j for j in range(10)], n_datasets=30)
procedures = [("wilcoxon", "holm"), ("mean-ranks", "bonferroni")]
cdplot.simulate(model, procedures=procedures, n_replicates=2000, random_state=0)
before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
cdplot.simulate(model, procedures=procedures, n_replicates=2000, random_state=1)
print(resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before)
"""


def _page_faults(tmp_path: Path, *args: str, **extra: str) -> int:
    env = {k: v for k, v in os.environ.items() if k not in _allocator.FIXING_VARIABLES}
    env.update(extra)
    env["PYTHONPATH"] = os.pathsep.join(
        [str(Path(__file__).resolve().parents[1]), env.get("PYTHONPATH", "")]
    )
    script = tmp_path / "faults.py"
    script.write_text(FAULTS_SCRIPT, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, str(script), *args],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return int(done.stdout.split()[-1])


@pytest.mark.skipif(not GLIBC, reason="glibc's malloc only")
def test_fixed_trim_threshold_costs_no_extra_page_faults(tmp_path):
    # The same study with the variable set, once as it runs and once with the thresholds
    # left alone: the fix must remove most of the faults. A comparison with a run without
    # the variable is not stable: there glibc's dynamic threshold may have grown during the
    # first study so far that the second faults only a handful of pages (4 seen in CI).
    fixed = _page_faults(tmp_path, MALLOC_TRIM_THRESHOLD_="65536")
    unfixed = _page_faults(tmp_path, "--without-fix", MALLOC_TRIM_THRESHOLD_="65536")
    # before the change the two were equal; now about a fifth (6,600 against 31,400)
    assert fixed <= unfixed / 2, (fixed, unfixed)


class FakeLibc:
    """Records glibc's mallopt and malloc_trim calls."""

    def __init__(self) -> None:
        self.calls: list[tuple] = []

    def mallopt(self, param: int, value: int) -> int:
        self.calls.append(("mallopt", param, value))
        return 1

    def malloc_trim(self, pad: int) -> int:
        self.calls.append(("malloc_trim", pad))
        return 1


@pytest.fixture
def fake_libc(monkeypatch):
    libc = FakeLibc()
    monkeypatch.setattr(_allocator, "_libc", lambda: libc)
    return libc


def started_with(monkeypatch, **variables: str) -> None:
    """Pretend this process started with ``variables`` in its environment."""
    monkeypatch.setattr(_allocator, "_start_environment", lambda: dict(variables))


def test_no_fixing_variable_leaves_the_allocator_alone(fake_libc, monkeypatch):
    started_with(monkeypatch)
    with chunk_allocator() as raised:
        assert raised is False
    assert fake_libc.calls == []


def test_a_variable_set_after_the_start_changes_nothing(fake_libc, monkeypatch):
    # a LocalCluster started in this process adds MALLOC_TRIM_THRESHOLD_ to os.environ for
    # its workers; glibc read its settings when this process started
    monkeypatch.setenv("MALLOC_TRIM_THRESHOLD_", "65536")
    assert "MALLOC_TRIM_THRESHOLD_" not in _allocator._start_environment()
    with chunk_allocator() as raised:
        assert raised is False
    assert fake_libc.calls == []


def test_raises_then_restores_the_environment_thresholds(fake_libc, monkeypatch):
    started_with(monkeypatch, MALLOC_TRIM_THRESHOLD_="65536")
    with chunk_allocator() as raised:
        assert raised is True
        assert fake_libc.calls == [
            ("mallopt", M_MMAP_THRESHOLD, CHUNK_MMAP_THRESHOLD),
            ("mallopt", M_TRIM_THRESHOLD, CHUNK_TRIM_THRESHOLD),
        ]
    assert fake_libc.calls[2:] == [
        ("mallopt", M_MMAP_THRESHOLD, 128 * 1024),  # glibc's default: the variable fixed it
        ("mallopt", M_TRIM_THRESHOLD, 65536),  # the environment's value
        ("malloc_trim", 0),
    ]


def test_nested_chunks_raise_once_and_restore_once(fake_libc, monkeypatch):
    started_with(monkeypatch, MALLOC_MMAP_THRESHOLD_="262144")
    with chunk_allocator(), chunk_allocator():
        assert len(fake_libc.calls) == 2
    assert fake_libc.calls[2] == ("mallopt", M_MMAP_THRESHOLD, 262144)
    assert len(fake_libc.calls) == 5


def test_restores_even_when_the_chunk_fails(fake_libc, monkeypatch):
    started_with(monkeypatch, MALLOC_TOP_PAD_="0")
    with pytest.raises(RuntimeError, match="chunk failed"), chunk_allocator():
        raise RuntimeError("chunk failed")
    assert fake_libc.calls[-1] == ("malloc_trim", 0)
    assert _allocator._depth == 0


@pytest.mark.skipif(not GLIBC, reason="glibc's malloc only")
def test_the_real_glibc_is_found():
    assert _allocator._libc() is not None

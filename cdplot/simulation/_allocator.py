"""glibc's malloc thresholds while a chunk of replicates runs, where the environment fixed them.

glibc's malloc serves a request above its *mmap threshold* with a fresh ``mmap`` and returns
it with ``munmap`` when freed; by default the threshold is dynamic: it rises to the size of
the largest block freed (up to 32 MiB), so a program that allocates and frees the same
buffers again and again soon reuses heap memory. Setting any of ``MALLOC_TRIM_THRESHOLD_``,
``MALLOC_TOP_PAD_``, ``MALLOC_MMAP_THRESHOLD_`` or ``MALLOC_MMAP_MAX_`` in the environment
turns that adjustment off, and the threshold stays at 128 KiB. dask.distributed's nannies
set ``MALLOC_TRIM_THRESHOLD_=65536`` in every worker they start (its
``distributed.nanny.pre-spawn-environ``): each array of a chunk above 128 KiB (the batch
kernels' difference and key buffers, hundreds per chunk) is then mapped, zero-filled by the
kernel page by page, and unmapped, and a worker spent about 1.3-1.5x the CPU of one process
per replicate (measured with a ``LocalCluster(n_workers=2, threads_per_worker=1)``).

:func:`chunk_allocator` raises the mmap threshold to :data:`CHUNK_MMAP_THRESHOLD` and the
trim threshold (the free memory at the top of the heap kept rather than returned, 64 KiB
there: the heap shrank and grew again, page by page, between the kernels' calls) to
:data:`CHUNK_TRIM_THRESHOLD` while a chunk runs, and only in such a process (the dynamic
threshold is left alone elsewhere). Afterwards it restores the thresholds the environment
gave (or glibc's 128 KiB) and returns the free memory with ``malloc_trim(0)``, so the
worker's allocator and memory are as its owner configured them between chunks. Measured in
one process with ``MALLOC_TRIM_THRESHOLD_=65536`` (6,000 replicates of k = 10, N = 30, four
chunks): 75,000 minor page faults and 0.43 s CPU before; with both thresholds raised 13,300
and 0.34 s, as with no variable set (13,100 and 0.34 s); the mmap threshold alone left
43,500. Other C libraries (musl, macOS) are left alone.
"""

from __future__ import annotations

import contextlib
import ctypes
import functools
import platform
import threading
from collections.abc import Iterator
from typing import Any

__all__ = ["CHUNK_MMAP_THRESHOLD", "CHUNK_TRIM_THRESHOLD", "FIXING_VARIABLES", "chunk_allocator"]

#: mallopt's parameter number of the mmap threshold (glibc's malloc.h: M_MMAP_THRESHOLD)
M_MMAP_THRESHOLD = -3
#: glibc's default mmap and trim thresholds, in force while an environment variable fixes them
GLIBC_DEFAULT_THRESHOLD = 128 * 1024
#: the threshold while a chunk runs: glibc's own ceiling of the dynamic threshold on 64-bit
#: systems (DEFAULT_MMAP_THRESHOLD_MAX), so that a chunk's buffers come from the heap
CHUNK_MMAP_THRESHOLD = 32 * 1024 * 1024
#: mallopt's parameter number of the trim threshold (M_TRIM_THRESHOLD)
M_TRIM_THRESHOLD = -1
#: the trim threshold while a chunk runs: a chunk's memory is bounded by MAX_CHUNK_BYTES
CHUNK_TRIM_THRESHOLD = 1 << 30
#: the environment variables that turn glibc's dynamic mmap threshold off
FIXING_VARIABLES = (
    "MALLOC_TRIM_THRESHOLD_",
    "MALLOC_TOP_PAD_",
    "MALLOC_MMAP_THRESHOLD_",
    "MALLOC_MMAP_MAX_",
)

_lock = threading.Lock()
_depth = 0  # chunks running in this process (a worker with several threads)


@functools.lru_cache(maxsize=1)
def _libc() -> Any:
    """glibc (its ``mallopt`` and ``malloc_trim``), or None under another C library."""
    if platform.system() != "Linux" or platform.libc_ver()[0] != "glibc":
        return None
    try:
        libc = ctypes.CDLL(None)
        libc.mallopt, libc.malloc_trim  # noqa: B018 - both must exist
    except (OSError, AttributeError):  # pragma: no cover - glibc always has them
        return None
    return libc


@functools.lru_cache(maxsize=1)
def _start_environment() -> dict[str, str]:
    """The variables of :data:`FIXING_VARIABLES` this process started with.

    glibc reads them once, when the process starts: the environment it started with
    (``/proc/self/environ``) is what counts, not ``os.environ``, to which a LocalCluster
    started in this process adds distributed's variables for its workers.
    """
    try:
        with open("/proc/self/environ", "rb") as fh:
            entries = fh.read().split(b"\0")
    except OSError:
        return {}
    found = {}
    for entry in entries:
        name, _, value = entry.decode("utf-8", "replace").partition("=")
        if name in FIXING_VARIABLES:
            found[name] = value
    return found


def _environment_threshold(name: str) -> int:
    """The threshold the start environment's ``name`` gives glibc (else its 128 KiB)."""
    try:
        return int(_start_environment().get(name, ""))
    except ValueError:
        return GLIBC_DEFAULT_THRESHOLD


@contextlib.contextmanager
def chunk_allocator() -> Iterator[bool]:
    """Run a chunk with glibc's mmap and trim thresholds raised, where the environment fixed them.

    Yields whether the thresholds were raised (False where the process started with no
    variable of :data:`FIXING_VARIABLES`, or the C library is not glibc). Nested and concurrent
    chunks (a worker running several threads) share one raise: the first raises the
    threshold, the last restores it.
    """
    global _depth
    libc = _libc() if _start_environment() else None
    if libc is None:
        yield False
        return
    with _lock:
        if _depth == 0:
            libc.mallopt(M_MMAP_THRESHOLD, CHUNK_MMAP_THRESHOLD)
            libc.mallopt(M_TRIM_THRESHOLD, CHUNK_TRIM_THRESHOLD)
        _depth += 1
    try:
        yield True
    finally:
        with _lock:
            _depth -= 1
            if _depth == 0:
                libc.mallopt(M_MMAP_THRESHOLD, _environment_threshold("MALLOC_MMAP_THRESHOLD_"))
                libc.mallopt(M_TRIM_THRESHOLD, _environment_threshold("MALLOC_TRIM_THRESHOLD_"))
                libc.malloc_trim(0)

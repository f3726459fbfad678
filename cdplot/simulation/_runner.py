"""The replicate runner: seed blocks, chunks, joblib back ends (loky, dask, ray), progress."""

from __future__ import annotations

import contextlib
import dataclasses
import math
import os
import sys
import time
import warnings
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import numpy as np

from .._errors import CdplotInputError, CdplotWarning, check_in_list, spell
from ..stats import _batch
from ..stats._adjust import check_bh_budget
from ..stats._batch import (
    batch_adjust_all_pairs,
    batch_adjust_control,
    batch_average_ranks,
    batch_pvalues,
)
from ..stats._catalogue import RANKS
from ..stats._caveats import datasets_needed, min_attainable_pvalue
from ..stats._exhaustive import _bergmann_hommel
from ..stats._options import check_alpha
from ._allocator import chunk_allocator
from ._bayes_run import bayes_counts, check_bayes
from ._benchmark_run import benchmark_procedures, clustered_pvalues
from ._models import as_model
from ._procedures import DEFAULT_PROCEDURES, Procedure
from ._result import PowerCurveResult, SimulationResult

__all__ = ["BLOCK", "MAX_CHUNK_BYTES", "chunk_bytes", "simulate", "simulate_grid"]

#: replicates drawn from one spawned SeedSequence. Chunks (the tasks sent to workers) are
#: made of whole blocks, so the random numbers, hence the result, do not depend on the chunk
#: size, the number of workers or the back end.
BLOCK = 100
#: pairwise-difference cells (replicates x pairs x datasets) of one chunk at most: bounds a
#: worker's memory (about 60 bytes a cell)
CHUNK_CELLS = 1 << 22
BACKENDS = ("loky", "dask", "ray", "threading", "sequential")
#: with ``backend=None``, ``n_jobs != 1`` and no ``chunk_size``, a study of fewer pairwise-
#: difference cells than this runs in this process: about a second of work in one
#: process, less than starting worker processes costs (so parallel is never much slower)
PARALLEL_MIN_CELLS = 40_000_000
#: the progress bar appears after this many seconds
PROGRESS_DELAY_S = 2.0


#: the most replicates one call runs (a study is split into calls beyond it: see simulate)
MAX_REPLICATES = 10_000_000
#: the memory one chunk (a task sent to a worker) may need: about 1 GB per worker. A chunk
#: holds, for each of its replicates, the drawn table and the p-values of every pair, and
#: once the work arrays of the pairwise differences of one replicate (the kernels of
#: stats/_batch.py run a few replicates at a time): see :func:`chunk_bytes`
MAX_CHUNK_BYTES = 1 << 30
#: bytes per (replicate x pair): p-values, adjusted p-values, decisions and their sums
#: (measured: about 83 at k = 200 and 300 algorithms)
PAIR_BYTES = 96
#: bytes per drawn score (replicate x dataset x algorithm): the draw, its copies, the ranks
#: (measured: about 23 at k = 10, N = 5,000)
TABLE_BYTES = 32
#: bytes per (pair x dataset) cell of the work arrays of the pairwise differences
DIFFERENCE_BYTES = 72


def chunk_bytes(k: int, n_datasets: int, blocks: int = 1) -> int:
    """The memory (bytes, an upper estimate) of a chunk of ``blocks`` seed blocks.

    ``blocks x BLOCK`` replicates of ``PAIR_BYTES`` per pair and ``TABLE_BYTES`` per drawn
    score, plus the difference work arrays of at least one replicate (the kernels process
    ``max(1, 65,536 / (pairs x datasets))`` replicates at a time).
    """
    pairs = k * (k - 1) // 2
    per_replicate = PAIR_BYTES * pairs + TABLE_BYTES * n_datasets * k
    work = DIFFERENCE_BYTES * max(pairs * n_datasets, _batch.CHUNK_CELLS)
    return blocks * BLOCK * per_replicate + work


def _check_replicates(n: Any) -> int:
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
        raise CdplotInputError(f"n_replicates must be a positive integer, got {n!r}.")
    if n > MAX_REPLICATES:
        raise CdplotInputError(
            f"n_replicates={int(n)} exceeds the bound of {MAX_REPLICATES:,} replicates per "
            "call; split the study into calls of at most that many, each with its own seed "
            "from one SeedSequence (seeds = numpy.random.SeedSequence(1).spawn(m); "
            "simulate(model, n_replicates=n // m, random_state=seeds[i])), and pool the counts."
        )
    return int(n)


def _most_datasets(k: int) -> int:
    """The most datasets whose seed block of ``k`` algorithms fits in ``MAX_CHUNK_BYTES``."""
    lo, hi = 1, 2
    while chunk_bytes(k, hi) <= MAX_CHUNK_BYTES:
        lo, hi = hi, 2 * hi
    while hi - lo > 1:  # chunk_bytes increases with the datasets: bisection
        mid = (lo + hi) // 2
        lo, hi = (mid, hi) if chunk_bytes(k, mid) <= MAX_CHUNK_BYTES else (lo, mid)
    return lo


def _check_size(k: int, n_datasets: int) -> None:
    """Refuse up front a table so large that one seed block of replicates (the smallest
    chunk: its random numbers come from one seed) does not fit in ``MAX_CHUNK_BYTES``."""
    need = chunk_bytes(k, n_datasets)
    if need <= MAX_CHUNK_BYTES:
        return
    fix = (
        f"use at most {_most_datasets(k):,} datasets with {k} algorithms"
        if chunk_bytes(k, 2) <= MAX_CHUNK_BYTES
        else "use fewer algorithms"
    )
    raise CdplotInputError(
        f"n_datasets={n_datasets:,} with {k:,} algorithms ({k * (k - 1) // 2:,} pairs) needs "
        f"about {need / 2**30:,.1f} GB for one seed block of {BLOCK} replicates, beyond the "
        f"bound of {MAX_CHUNK_BYTES / 2**30:.0f} GB per worker; {fix}."
    )


def _seed_sequence(random_state: Any) -> np.random.SeedSequence:
    if isinstance(random_state, np.random.SeedSequence):
        # a fresh copy: spawning from the user's object would depend on its history
        return np.random.SeedSequence(random_state.entropy, spawn_key=random_state.spawn_key)
    if random_state is None:
        return np.random.SeedSequence()
    if isinstance(random_state, (int, np.integer)) and not isinstance(random_state, bool):
        if random_state < 0:
            raise CdplotInputError(f"{spell('random_state')} must be >= 0, got {random_state}.")
        return np.random.SeedSequence(int(random_state))
    raise CdplotInputError(
        f"{spell('random_state')} must be None, a non-negative int or a numpy SeedSequence, got "
        f"{type(random_state).__name__}; a Generator cannot be split reproducibly across "
        "workers, so pass its seed instead."
    )


def _with_budget(procs: list[Procedure], bh_budget: Any) -> list[Procedure]:
    """``procs`` with ``bh_budget`` (seconds) as the budget of each Bergmann-Hommel one.

    Not given (None): each procedure keeps its own. Given with no Bergmann-Hommel
    procedure, it is refused as :func:`cdplot.compare` refuses it.
    """
    if bh_budget is None:
        return procs
    budget = check_bh_budget(bh_budget)
    if not any(p.correction == "bergmann-hommel" for p in procs):
        raise CdplotInputError(
            f"{spell('bh_budget')} applies to {spell('correction', 'bergmann-hommel')} only, "
            f"and no procedure uses it; drop it."
        )
    return [
        dataclasses.replace(p, bh_budget=budget) if p.correction == "bergmann-hommel" else p
        for p in procs
    ]


def _bergmann_hommel_rows(
    pvalues: np.ndarray, k: int, bh_budget: float | None, max_steps: int | None
) -> np.ndarray:
    """Bergmann-Hommel APVs of each row of R x m all-pairs p-values, as
    :func:`cdplot.compare` adjusts one table: each table's search within ``bh_budget``
    seconds (None: no limit) and, for the deprecated ``bh_max_steps``, ``max_steps`` steps."""
    i, j = np.triu_indices(k, 1)
    out = np.empty_like(pvalues)
    mat = np.full((k, k), np.nan)
    for row in range(pvalues.shape[0]):
        mat[i, j] = mat[j, i] = pvalues[row]
        apv = _bergmann_hommel(mat, max_steps=max_steps, progress=False, budget_seconds=bh_budget)
        out[row] = apv[i, j]
    return out


def _run_chunk(
    model: Any,
    procedures: Sequence[Procedure],
    alpha: float,
    seeds: Sequence[np.random.SeedSequence],
    sizes: Sequence[int],
    truth: np.ndarray | None,
    bh_max_steps: int | None,
    effects: np.ndarray | None = None,
) -> tuple[dict[str, tuple[np.ndarray, ...]], float]:
    """Simulate the blocks of one chunk and run every procedure on the same tables.

    Returns ``{label: (rejections per hypothesis, false rejections per replicate, true
    rejections per replicate, per-block sums of the APVs, per-block sums of their
    squares)}`` (integers, and float sums over the fixed seed blocks, so the chunks combine
    to the same numbers however they are cut; a Bayesian procedure's entry is that of
    :func:`~cdplot.simulation._bayes_run.bayes_counts`) and the CPU seconds the chunk took.
    """
    with chunk_allocator():  # glibc reuses the chunk's buffers in a dask worker too
        cpu_start = time.process_time()
        tables = np.concatenate(
            [
                np.asarray(model.draw(np.random.default_rng(s), n), dtype=float)
                for s, n in zip(seeds, sizes, strict=True)
            ]
        )
        if not np.isfinite(tables).all():
            raise CdplotInputError("the model drew NaN or infinite scores.")
        r, n_drawn, k = tables.shape
        _check_size(k, n_drawn)  # a generator's table size is known once drawn
        algorithms = model.algorithms
        edges = np.cumsum([0, *sizes]).tolist()
        blocks = list(zip(edges[:-1], edges[1:], strict=True))
        avg = None
        if any(p.entry.batch is not None and p.entry.reads == RANKS for p in procedures):
            avg = batch_average_ranks(tables)
        raw: dict[Any, np.ndarray] = {}
        bayes = [p for p in procedures if p.bayesian]
        out: dict[str, tuple[np.ndarray, ...]] = dict(
            bayes_counts(tables, bayes, seeds, blocks, truth, effects, algorithms)
        )
        for proc in procedures:
            if proc.bayesian:
                continue
            key = proc.test_key()
            if key not in raw:
                clusters = getattr(model, "clusters", None)
                raw[key] = _raw_pvalues(tables, proc, avg, algorithms, clusters)
            p_all = raw[key]
            a, b = proc.hypotheses(k, algorithms)
            if proc.control is None:
                if proc.single_step:  # Nemenyi's and Tukey's p-values are adjusted already
                    apv = p_all
                elif proc.correction == "bergmann-hommel":
                    apv = _bergmann_hommel_rows(p_all, k, proc.bh_budget, bh_max_steps)
                else:
                    apv = batch_adjust_all_pairs(p_all, k, proc.correction)
            else:
                lookup = np.zeros((k, k), dtype=np.intp)
                iu, ju = np.triu_indices(k, 1)
                lookup[iu, ju] = np.arange(iu.size)
                lookup[ju, iu] = np.arange(iu.size)
                apv = batch_adjust_control(p_all[:, lookup[a, b]], proc.correction)
            reject = apv <= alpha
            counts = reject.sum(axis=0).astype(np.int64)
            if truth is None:
                false = np.zeros(r, dtype=np.int32)
                true = reject.sum(axis=1).astype(np.int32)
            else:
                null = truth[a, b]
                false = reject[:, null].sum(axis=1).astype(np.int32)
                true = reject[:, ~null].sum(axis=1).astype(np.int32)
            # sums of the APVs and of their squares per seed block (fixed boundaries: the same
            # numbers however the blocks are grouped into chunks; combined with math.fsum)
            sums = np.stack([apv[lo:hi].sum(axis=0) for lo, hi in blocks])
            squares = np.stack([np.square(apv[lo:hi]).sum(axis=0) for lo, hi in blocks])
            out[proc.label] = (counts, false, true, sums, squares)
        return out, time.process_time() - cpu_start


def _raw_pvalues(
    tables: np.ndarray,
    proc: Procedure,
    avg: np.ndarray | None,
    algorithms: Sequence[str],
    clusters: np.ndarray | None = None,
) -> np.ndarray:
    """R x m raw p-values (pairs in ``triu_indices`` order) of ``proc``'s test on each table.

    The vectorised kernels where there are some (stats/_batch.py); else the test of
    :func:`cdplot.compare` run table by table, in compare()'s canonical (by name) order of
    the algorithms, so that each row equals ``compare(table).pvalues`` to the last bit. A
    cluster-robust test on a model's items in ``clusters`` runs with them, as
    :func:`cdplot.compare` runs it on a benchmark with a cluster column.
    """
    if proc.entry.batch is not None:
        return batch_pvalues(tables, proc.test, proc.options, avg_ranks=avg)
    if clusters is not None and proc.entry.clustered:
        return clustered_pvalues(tables, clusters)
    r, n, k = tables.shape
    canon = sorted(range(k), key=lambda j: algorithms[j])
    inverse = np.argsort(canon)
    iu, ju = np.triu_indices(k, 1)
    rows, cols = inverse[iu], inverse[ju]  # the pairs' positions in canonical order
    entry = proc.entry
    datasets = [str(i) for i in range(n)]
    no_ranks = np.zeros(k)  # only the mean-ranks tests read average ranks (batch kernels)
    out = np.empty((r, iu.size))
    for i in range(r):
        result = entry.run_all_pairs(tables[i][:, canon], no_ranks, n, proc.options, datasets)
        out[i] = result.pvalue[rows, cols]
    return out


def _chunks(n_blocks: int, blocks_per_chunk: int) -> list[tuple[int, int]]:
    return [
        (start, min(n_blocks, start + blocks_per_chunk))
        for start in range(0, n_blocks, blocks_per_chunk)
    ]


@contextlib.contextmanager
def _dask_client(scheduler: Any, n_jobs: int) -> Iterator[Any]:
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError:  # pragma: no cover - dask is in the test extra
        raise CdplotInputError(
            'backend="dask" needs dask.distributed: pip install "cdplot[distributed]".'
        ) from None
    if scheduler is not None and not isinstance(scheduler, str):
        yield scheduler  # a Client the user manages
        return
    if isinstance(scheduler, str):
        client = Client(scheduler)
        try:
            yield client
        finally:
            client.close()
        return
    from dask.distributed import get_client

    try:
        current = get_client()  # the user's current client
    except ValueError:
        current = None
    if current is not None:
        yield current
        return
    import dask

    workers = n_jobs if n_jobs > 0 else None
    # The nannies of a LocalCluster run in this process and write distributed's
    # "pre-spawn-environ" (MALLOC_TRIM_THRESHOLD_=65536, OMP_NUM_THREADS=1, ...) into
    # os.environ before starting each worker. That trim threshold makes glibc return every
    # freed chunk-sized buffer at once, so the workers spend far more CPU per replicate:
    # it is left out, and this process's environment is restored afterwards (processes
    # started later, such as loky workers, would inherit it).
    environ = dask.config.get("distributed.nanny.pre-spawn-environ", default={}) or {}
    saved = {key: os.environ.get(key) for key in environ}
    try:
        with (
            dask.config.set({"distributed.nanny.pre-spawn-environ.MALLOC_TRIM_THRESHOLD_": None}),
            LocalCluster(
                n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=":0"
            ) as cluster,
            Client(cluster) as client,
        ):
            yield client
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


def _progress_bar(progress: bool | None, total: int) -> Any:
    if progress is False:
        return None
    if progress is None:
        isatty = getattr(sys.stderr, "isatty", None)
        if not (isatty and isatty()):
            return None
    from tqdm import tqdm

    return tqdm(
        total=total,
        desc="simulate",
        unit="replicate",
        file=sys.stderr,
        delay=PROGRESS_DELAY_S if progress is None else 0.0,
        leave=False,
    )


def simulate(
    model: Any,
    *,
    procedures: Any = DEFAULT_PROCEDURES,
    n_replicates: int = 10_000,
    alpha: float = 0.05,
    random_state: int | np.random.SeedSequence | None = None,
    n_jobs: int = 1,
    backend: str | None = None,
    progress: bool | None = None,
    chunk_size: int | None = None,
    scheduler: Any = None,
    bh_budget: float | None = None,
    bh_max_steps: int | None = None,
) -> SimulationResult:
    """Estimate the rejection rates, FWER, power and FDR of post-hoc procedures by simulation.

    Every procedure runs on the same simulated tables (common random numbers), so their
    differences are estimated with less noise than their levels.

    Parameters
    ----------
    model : NormalModel, ResampleModel, GeneratorModel, BenchmarkModel or callable
        What a table looks like. A callable ``f(rng) -> N x k array`` is wrapped in
        :class:`GeneratorModel`. A :class:`BenchmarkModel` draws items x models tables of
        one benchmark: its procedures are the single-benchmark tests ("mcnemar",
        "paired-t", "cluster-t", the latter with the model's clusters; by default the one
        :func:`cdplot.compare` would choose, with Holm's correction), and any correction.
    procedures : list, default [("wilcoxon", "holm"), ("sign", "holm"), ("mean-ranks", "holm")]
        Any (test, correction) pair :func:`cdplot.compare` accepts, as a tuple, a
        ``(test, correction, control)`` tuple (control mode), a dict
        ``{"test", "correction", "control", **test_options}``, a string
        ``"test:correction[:control]"`` or a :class:`cdplot.stats.Procedure`. Every
        frequentist test runs (the Wilcoxon, sign, mean-ranks and Nemenyi tests vectorised
        over replicates, the others table by table, each with :func:`cdplot.compare`'s
        p-values). The Bayesian tests ("bayes-signed-rank", "bayes-sign", correction
        "none") run vectorised over replicates with compare()'s posteriors (5,000
        posterior samples per pair unless ``nsamples`` is given) and report decision
        rates instead of rejections (see :class:`SimulationResult`).
    n_replicates : int, default 10000
        Number of simulated tables, at most ``MAX_REPLICATES`` (10,000,000) per call; a
        larger study is several calls with seeds spawned from one
        :class:`numpy.random.SeedSequence`, their counts pooled.
    alpha : float, default 0.05
        A hypothesis is rejected when its adjusted p-value is at most ``alpha``.
    random_state : int, numpy.random.SeedSequence or None
        Seed of the study. The same seed gives the same result for any ``n_jobs``,
        ``chunk_size`` and ``backend``. None draws fresh entropy, recorded in
        ``result.settings["random_state"]``.
    n_jobs : int, default 1
        Worker processes (-1: all cores). With ``backend="dask"`` and no running client, the
        number of workers of the LocalCluster started for the study. Without ``backend``
        and ``chunk_size``, a study too small to share (under about a second of work:
        :data:`PARALLEL_MIN_CELLS` replicates x pairs x datasets) runs in this process,
        which is faster than starting workers; ``settings["backend"]`` then says
        ``"sequential"``.
    backend : {None, "loky", "dask", "ray", "threading", "sequential"}, optional
        joblib back end. None: in this process when ``n_jobs == 1``, else loky. "dask" runs
        on a dask.distributed client: ``scheduler`` if given (a Client or an address such as
        ``"tcp://10.0.0.1:8786"``), else the current client, else a LocalCluster with
        ``n_jobs`` worker processes started and closed for the study. "ray" needs Ray.
    progress : bool or None, default None
        A tqdm progress bar: None shows it on a terminal once the study has run 2 s; True
        always; False never.
    chunk_size : int, optional
        Replicates per task, rounded up to whole seed blocks of :data:`BLOCK` = 100, and
        down to the blocks whose memory fits in :data:`MAX_CHUNK_BYTES` (1 GB).
        Default: about four tasks per worker, at most a few million pairwise cells each.
    scheduler : dask.distributed.Client or str, optional
        Where ``backend="dask"`` runs.
    bh_budget : float, optional
        Time budget in seconds of each table's exact Bergmann-Hommel search (procedures
        with ``correction="bergmann-hommel"``), as in :func:`cdplot.compare`: not given,
        each procedure's own (10 s unless the procedure says otherwise); ``math.inf`` for
        no limit. A table that exceeds it stops the study with
        :class:`~cdplot.BergmannHommelLimitError`.
    bh_max_steps : int, optional
        Deprecated (DeprecationWarning): a budget in search steps; pass ``bh_budget``
        (seconds) instead. Still honoured for this release.

    Returns
    -------
    SimulationResult
        ``to_frame()`` (per-pair rejection rates with standard errors), ``fwer`` and
        ``fwer_se``, ``power_any``, ``power_all``, ``power_avg``, ``fdr`` (each with
        ``_se``), ``summary()``, ``settings``; for Bayesian procedures
        ``wrong_better_rate``, ``correct_better_rate``, ``equivalent_rate_equal`` and
        ``equivalent_rate_different`` (each with ``_se``).

    Raises
    ------
    CdplotInputError
        For an unknown test, correction, control, back end or a bad setting; for more than
        ``MAX_REPLICATES`` replicates, or a table so large that one seed block of
        :data:`BLOCK` replicates would need more than :data:`MAX_CHUNK_BYTES` (1 GB) of
        memory (:func:`chunk_bytes`: e.g. 100 algorithms run on up to about 1,500
        datasets, 1,000 algorithms on none), so that memory stays bounded per worker.

    Notes
    -----
    The study is cut into seed blocks of :data:`BLOCK` replicates; block b draws its tables
    from the b-th child of ``SeedSequence(random_state).spawn(n_blocks)``. Tasks are runs of
    whole blocks, and workers return integer counts only, so any split of the work gives
    the same numbers. The p-values of each (test, options) are computed once per chunk with
    the kernels of :mod:`cdplot.stats._batch`, vectorised over the replicates, and equal
    those of :func:`cdplot.compare` on each table. Monte Carlo standard errors: see
    :class:`SimulationResult`.

    References
    ----------
    J. Demšar (2006), JMLR 7, §4. S. García and F. Herrera (2008), JMLR 9, §4.
    A. Benavoli, G. Corani and F. Mangili (2016), JMLR 17, Example 2.

    Examples
    --------
    >>> import cdplot
    >>> model = cdplot.NormalModel(means={"A": 0, "B": 1.5, "C": 5, "D": 6, "E": 7})
    >>> sim = cdplot.simulate(model, procedures=[("sign", "none"), ("mean-ranks", "none")],
    ...                       n_replicates=200, random_state=1)
    >>> sorted(sim.fwer.index)
    ['mean-ranks+none', 'sign+none']
    """
    model = as_model(model)
    n_replicates = _check_replicates(n_replicates)
    alpha = check_alpha(alpha)
    procs = _with_budget(benchmark_procedures(model, procedures, DEFAULT_PROCEDURES), bh_budget)
    if bh_max_steps is not None:
        warnings.warn(
            "simulate(bh_max_steps=...) is deprecated; pass bh_budget= (seconds per table), "
            "as compare() takes it.",
            DeprecationWarning,
            stacklevel=2,
        )
    seed = _seed_sequence(random_state)
    if isinstance(n_jobs, bool) or not isinstance(n_jobs, (int, np.integer)) or n_jobs == 0:
        raise CdplotInputError(
            f"n_jobs must be a non-zero integer (-1: all cores), got {n_jobs!r}."
        )
    backend_name = None if backend is None else check_in_list(BACKENDS, backend=backend)
    if progress not in (None, True, False):
        raise CdplotInputError(f"progress must be None, True or False, got {progress!r}.")
    _warn_unreachable(procs, getattr(model, "n_datasets", None), alpha)
    truth = model.true_null
    if truth is not None:
        truth = np.asarray(truth, dtype=bool)
    effects = getattr(model, "true_effects", None)
    if effects is not None:
        effects = np.asarray(effects, dtype=float)

    k = len(model.algorithms)
    _check_size(k, getattr(model, "n_datasets", None) or 0)
    n_blocks = math.ceil(n_replicates / BLOCK)
    children = seed.spawn(n_blocks)
    sizes = [min(BLOCK, n_replicates - b * BLOCK) for b in range(n_blocks)]
    n_data = getattr(model, "n_datasets", None) or 30
    cells_per_rep = max(1, k * (k - 1) // 2 * n_data)
    # whole seed blocks per chunk: about CHUNK_CELLS pairwise cells, and never more memory
    # than MAX_CHUNK_BYTES (a user's chunk_size is cut to that too)
    work = chunk_bytes(k, n_data, 0)
    fit = max(1, (MAX_CHUNK_BYTES - work) // (chunk_bytes(k, n_data, 1) - work))
    max_blocks = max(1, min(CHUNK_CELLS // (cells_per_rep * BLOCK), fit))
    if chunk_size is not None and (
        isinstance(chunk_size, bool)
        or not isinstance(chunk_size, (int, np.integer))
        or chunk_size < 1
    ):
        raise CdplotInputError(f"chunk_size must be a positive integer, got {chunk_size!r}.")

    def args(task: tuple[int, int]) -> tuple[Any, ...]:
        lo, hi = task
        return (model, procs, alpha, children[lo:hi], sizes[lo:hi], truth, bh_max_steps, effects)

    started = time.perf_counter()
    outputs: list[dict[str, Any]] = []
    cpu_seconds = 0.0
    if (
        backend_name is None
        and n_jobs != 1
        and chunk_size is None
        and n_replicates * cells_per_rep < PARALLEL_MIN_CELLS
    ):
        backend_name = "sequential"  # too little work to share
    with _executor(backend_name, n_jobs, scheduler) as (run_tasks, workers, used):
        if chunk_size is not None:
            per_chunk = min(math.ceil(int(chunk_size) / BLOCK), fit)
        else:
            per_chunk = min(max_blocks, max(1, math.ceil(n_blocks / (4 * workers))))
        tasks = _chunks(n_blocks, per_chunk)
        bar = _progress_bar(progress, n_replicates)
        try:
            for (out, cpu), task in zip(run_tasks(tasks, args), tasks, strict=True):
                outputs.append(out)
                cpu_seconds += cpu
                if bar is not None:
                    bar.update(sum(sizes[task[0] : task[1]]))
        finally:
            if bar is not None:
                bar.close()
    elapsed = time.perf_counter() - started

    counts, false, true, apv_sums, bayes = _combine(outputs, procs)
    pairs = {p.label: p.hypotheses(k, model.algorithms) for p in procs}
    specs = {p.label: (p.test, p.correction, p.control) for p in procs}
    settings = _settings(
        model,
        procs,
        seed,
        chunk=(per_chunk * BLOCK, len(tasks)),
        run=(used, int(n_jobs), workers),
        times=(elapsed, cpu_seconds),
    )
    return SimulationResult(
        procedures=tuple(p.label for p in procs),
        algorithms=tuple(model.algorithms),
        n_replicates=n_replicates,
        alpha=alpha,
        settings=settings,
        truth_known=truth is not None,
        _pairs=pairs,
        _specs=specs,
        _counts=counts,
        _false=false,
        _true=true,
        _apv_sums=apv_sums,
        _truth=truth,
        _bayes=bayes,
        _direction_known=effects is not None,
    )


def _combine(outputs: list[dict[str, Any]], procs: Sequence[Procedure]) -> tuple[dict, ...]:
    """The chunks' counts summed (and the per-replicate arrays joined) per procedure."""
    labels = [p.label for p in procs if not p.bayesian]
    counts = {lab: sum(o[lab][0] for o in outputs) for lab in labels}
    bayes = {
        p.label: (
            sum(o[p.label][0] for o in outputs),
            np.concatenate([o[p.label][1] for o in outputs], axis=1),
        )
        for p in procs
        if p.bayesian
    }
    false = {lab: np.concatenate([o[lab][1] for o in outputs]) for lab in labels}
    true = {lab: np.concatenate([o[lab][2] for o in outputs]) for lab in labels}
    apv_sums = {
        lab: np.array(
            [
                [
                    math.fsum(col)
                    for col in np.concatenate([o[lab][which] for o in outputs]).T.tolist()
                ]
                for which in (3, 4)
            ]
        )
        for lab in labels
    }
    return counts, false, true, apv_sums, bayes


def _posterior_settings(proc: Procedure) -> dict[str, Any]:
    """What a Bayesian procedure ran with: its options, defaults filled in, and its seeds."""
    settings = check_bayes(proc)
    return {
        "rope": settings.rope,
        "threshold": settings.threshold,
        "nsamples": settings.nsamples,
        "prior": settings.prior[0],
        "posterior_seed": "per seed block" if settings.seed is None else settings.seed,
    }


def _warn_unreachable(procs: Sequence[Procedure], n: int | None, alpha: float) -> None:
    """Warn, as compare() does, when the Wilcoxon or sign test cannot reach alpha on n datasets."""
    if n is None:
        return
    tests = sorted({p.test for p in procs if min_attainable_pvalue(p.test, n) is not None})
    smallest = min_attainable_pvalue("sign", n)  # the same for both tests
    if tests and smallest > alpha:
        need = datasets_needed(alpha)
        warnings.warn(
            f"with {n} datasets the {' and '.join(tests)} test cannot reach p <= {alpha:g} "
            f"(its smallest two-sided p-value is {smallest:.3g}): its power is 0. At least "
            f"{need} datasets are needed.",
            CdplotWarning,
            stacklevel=3,
        )


def _cpu_count() -> int:
    return os.cpu_count() or 1


@contextlib.contextmanager
def _executor(backend: str | None, n_jobs: int, scheduler: Any) -> Iterator[tuple[Any, int, str]]:
    """``(run_tasks, workers, name)``: a function running the tasks (results in task order),
    the number of workers (to size the chunks) and the back end's name."""

    def in_process(tasks: list[tuple[int, int]], args: Any) -> Iterator[Any]:
        return (_run_chunk(*args(t)) for t in tasks)

    if backend == "sequential" or (backend is None and n_jobs == 1):
        yield in_process, 1, "sequential"
        return
    from joblib import Parallel, delayed, parallel_config

    def calls(tasks: list[tuple[int, int]], args: Any) -> Iterator[Any]:
        return (delayed(_run_chunk)(*args(t)) for t in tasks)

    if backend == "dask":
        with _dask_client(scheduler, n_jobs) as client:
            workers = max(1, sum(client.nthreads().values()))

            def on_dask(tasks: list[tuple[int, int]], args: Any) -> Iterator[Any]:
                with parallel_config(backend="dask", client=client):
                    yield from Parallel(n_jobs=-1, return_as="generator")(calls(tasks, args))

            yield on_dask, workers, "dask"
        return
    workers = n_jobs if n_jobs > 0 else max(1, _cpu_count() + 1 + n_jobs)
    if backend == "ray":
        try:
            from ray.util.joblib import register_ray
        except ImportError:
            raise CdplotInputError(
                'backend="ray" needs Ray: pip install "ray[default]"; or use backend="dask" '
                'or "loky".'
            ) from None
        register_ray()

        def on_ray(tasks: list[tuple[int, int]], args: Any) -> Iterator[Any]:
            with parallel_config(backend="ray"):
                yield from Parallel(n_jobs=n_jobs, return_as="generator")(calls(tasks, args))

        yield on_ray, workers, "ray"
        return
    name = backend or "loky"

    def on_joblib(tasks: list[tuple[int, int]], args: Any) -> Iterator[Any]:
        yield from Parallel(n_jobs=n_jobs, backend=name, return_as="generator")(calls(tasks, args))

    yield on_joblib, workers, name


def _settings(
    model: Any,
    procs: list[Any],
    seed: np.random.SeedSequence,
    *,
    chunk: tuple[int, int],
    run: tuple[str, int, int],
    times: tuple[float, float],
) -> dict[str, Any]:
    """The settings a simulation records: model, procedures, seed, chunking, back end, time."""
    return {
        "model": model.describe(),
        "procedures": [
            {
                "label": p.label,
                "test": p.test,
                "correction": p.correction,
                "control": p.control,
                "options": dict(p.options),
                **(_posterior_settings(p) if p.bayesian else {}),
            }
            for p in procs
        ],
        "random_state": seed.entropy,
        "spawn_key": list(seed.spawn_key),
        "seed_block": BLOCK,
        "chunk_size": chunk[0],
        "n_chunks": chunk[1],
        "backend": run[0],
        "n_jobs": run[1],
        "workers": run[2],
        "elapsed_s": times[0],
        "cpu_s": times[1],
    }


def simulate_grid(
    models: Mapping[float, Any],
    *,
    procedures: Any = DEFAULT_PROCEDURES,
    n_replicates: int = 10_000,
    alpha: float = 0.05,
    random_state: int | np.random.SeedSequence | None = None,
    n_jobs: int = 1,
    backend: str | None = None,
    progress: bool | None = None,
    **kwargs: Any,
) -> PowerCurveResult:
    """Power curves: :func:`simulate` once per effect size, on common random numbers.

    Parameters
    ----------
    models : mapping
        ``{effect size: model}``, e.g. one :class:`NormalModel` per mean difference. All
        models must have the same algorithms.
    procedures, n_replicates, alpha, random_state, n_jobs, backend, progress, **kwargs
        As :func:`simulate`. Every grid point uses the same seed, so with models that draw
        alike (e.g. NormalModels differing in their means only) the points share their
        random numbers and the curves are smooth.

    Returns
    -------
    PowerCurveResult
        ``effects``, ``results`` (one :class:`SimulationResult` per effect), ``summary()``,
        ``to_frame()``, ``plot()``.

    Examples
    --------
    >>> import cdplot
    >>> grid = {d: cdplot.NormalModel({"A": 0, "B": d, "C": 0}) for d in (0.0, 1.0)}
    >>> curve = cdplot.simulate_grid(grid, procedures=[("wilcoxon", "holm")], n_replicates=100,
    ...                              random_state=0)
    >>> curve.effects
    (0.0, 1.0)
    """
    if not isinstance(models, Mapping) or not models:
        raise CdplotInputError(
            "models must be a non-empty mapping {effect size: model}, e.g. "
            "{d: cdplot.NormalModel({'A': 0, 'B': d}) for d in (0, 0.5, 1)}."
        )
    effects = []
    for effect in models:
        try:
            effects.append(float(effect))
        except (TypeError, ValueError):
            raise CdplotInputError(
                f"the keys of models must be numbers (effect sizes), got {effect!r}."
            ) from None
    seed = _seed_sequence(random_state)
    results = {}
    algorithms = None
    for effect, model in zip(effects, models.values(), strict=True):
        model = as_model(model)
        if algorithms is None:
            algorithms = model.algorithms
        elif model.algorithms != algorithms:
            raise CdplotInputError(
                f"every model of the grid must have the same algorithms; {algorithms} and "
                f"{model.algorithms} differ."
            )
        results[effect] = simulate(
            model,
            procedures=procedures,
            n_replicates=n_replicates,
            alpha=alpha,
            random_state=np.random.SeedSequence(seed.entropy, spawn_key=seed.spawn_key),
            n_jobs=n_jobs,
            backend=backend,
            progress=progress,
            **kwargs,
        )
    return PowerCurveResult(effects=tuple(effects), results=results)

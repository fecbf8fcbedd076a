"""Where the generator's work runs: this process, local worker processes, or a Dask cluster.

The pipeline (``generator.pipeline``) cuts a run into jobs whose results depend on the job
alone (a numbered starting point, a candidate seed), and takes their results **in job order**,
whatever order they finish in.  So the same seed writes the same files with one process, with
``--workers N`` processes or on a cluster (``--scheduler ADDRESS``, as ``survey`` does it): only
how soon they are written changes.

Jobs are pulled from their iterable as results come back, a few more than there are workers in
flight, so a run that has found its puzzles stops after little wasted work; stopping early (the
caller leaves the loop) terminates the local workers or cancels the cluster's tasks.
"""

from __future__ import annotations

import multiprocessing
import uuid
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from typing import Any, TypeVar

from ..limits import check_workers
from ..outputs import worker_init

Job = TypeVar("Job")
Result = TypeVar("Result")

AHEAD = 2  # jobs in flight per worker process: one running, one waiting to start
CLUSTER_IN_FLIGHT = 64  # jobs in flight on a cluster (its workers are not counted here)


def ordered_results(function: Callable[[Job], Result], jobs: Iterable[Job], *, workers: int = 1,
                    cluster: Any = None, name: str = "generate") -> Iterator[Result]:
    """``function(job)`` for every job, in the order of `jobs`: here (one worker, no cluster), in
    `workers` local processes, or on `cluster` (a ``distributed.Client``, which the command line
    connects with ``--scheduler``). `function` must be a module-level function, its jobs and
    results picklable."""
    if cluster is not None:
        return _on_cluster(function, jobs, cluster, name)
    check_workers(workers)
    if workers == 1:
        return map(function, jobs)
    return _in_processes(function, jobs, workers)


def _in_processes(function: Callable[[Job], Result], jobs: Iterable[Job], workers: int) -> Iterator[Result]:
    source = iter(jobs)
    pool = multiprocessing.get_context("spawn").Pool(workers, initializer=worker_init)
    try:
        pending: deque[Any] = deque()
        while True:
            while len(pending) < AHEAD * workers:
                job = next(source, None)
                if job is None:
                    break
                pending.append(pool.apply_async(function, (job,)))
            if not pending:
                break
            # The oldest job first: later ones keep running meanwhile, their results wait here.
            yield pending.popleft().get()
        pool.close()
    finally:
        pool.terminate()
        pool.join()


def _on_cluster(function: Callable[[Job], Result], jobs: Iterable[Job], client: Any,
                name: str) -> Iterator[Result]:
    # Task keys name the run and the job, so two runs on one cluster do not collide.
    source = iter(jobs)
    token = uuid.uuid4().hex[:12]
    count = 0
    pending: deque[Any] = deque()
    try:
        while True:
            while len(pending) < CLUSTER_IN_FLIGHT:
                job = next(source, None)
                if job is None:
                    break
                pending.append(client.submit(function, job, key=f"{name}-{token}-{count}",
                                             pure=False, retries=1))
                count += 1
            if not pending:
                break
            future = pending.popleft()
            result = future.result()
            future.release()
            yield result
    finally:
        if pending:
            client.cancel(list(pending))

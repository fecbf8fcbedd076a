"""Run survey jobs on a Dask distributed cluster (``survey --scheduler ADDRESS``).

The cluster only changes where the deals are solved: each deal is one task
running the same function as the local pool, and the caller writes the rows
as they arrive, exactly as it does for the pool.  A task whose worker dies is
given to another worker by the scheduler (Dask's own rule: a task is retried
on a new worker until it has been on ``distributed.scheduler.allowed-failures``
dead workers), so a lost worker loses no deal; a deal whose task still fails
is reported as an error and nothing is written for it, so a re-run solves it.

``distributed`` is an optional dependency (``pip install 'agnes-teach[dask]'``).
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterable, Iterator
from typing import Any, TypeVar

from ..errors import InputError

Job = TypeVar("Job")

INSTALL_HINT = "install it with: pip install 'agnes-teach[dask]'"


def _distributed() -> Any:
    try:
        import distributed
    except ImportError:
        raise InputError(f"--scheduler needs the Python package 'distributed'; {INSTALL_HINT}") from None
    return distributed


def connect(address: Any) -> Any:
    """A ``distributed.Client`` for `address`, or InputError saying how to get one."""
    distributed = _distributed()
    try:
        return distributed.Client(address, timeout="10s", set_as_default=False)
    except (OSError, TimeoutError, ValueError) as exc:
        raise InputError(
            f"--scheduler: cannot reach a Dask scheduler at {address}: {exc}; start one with "
            "'dask scheduler' and at least one 'dask worker ADDRESS'"
        ) from None


def run_on_cluster(
    client: Any, jobs: Iterable[Job], function: Callable[[Job], dict[str, Any]], *, name: str = "survey",
    in_flight: int = 64,
) -> Iterator[dict[str, Any]]:
    """Yield ``function(job)`` for every job, in the order the cluster finishes them.

    `client` comes from :func:`connect`.  The jobs are pulled from the iterable
    as tasks finish, at most `in_flight` at a time on the cluster (a range of
    deals is never listed whole).  Task keys name the run and the job
    (``name-<run>-<index>``), so two surveys on one cluster do not collide.
    The tasks not yet finished are cancelled if the caller stops early.
    """
    distributed = _distributed()
    token = uuid.uuid4().hex[:12]
    source = iter(jobs)
    count = 0
    pending = distributed.as_completed([], loop=client.loop)
    live: list[Any] = []

    def submit_more() -> None:
        nonlocal count
        while pending.count() < in_flight:
            job = next(source, None)
            if job is None:
                return
            future = client.submit(function, job, key=f"{name}-{token}-{count}", pure=False, retries=1)
            count += 1
            live.append(future)
            pending.add(future)

    try:
        submit_more()
        while not pending.is_empty():
            future = next(pending)
            try:
                row = future.result()
            except distributed.KilledWorker as exc:
                raise InputError(
                    f"--scheduler: the workers solving a deal died too often ({exc}); the rows "
                    "written so far are kept: run the same survey again to solve the rest"
                ) from None
            live.remove(future)
            future.release()
            submit_more()
            yield row
    finally:
        if live:
            client.cancel(live)


__all__ = ["connect", "run_on_cluster"]

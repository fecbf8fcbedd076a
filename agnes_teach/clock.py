"""A run's clock, seen by every stage of a job: ``generate --max-seconds`` stops inside a stage.

A job sets the run's deadline around its stages (``running_until``); the long loops of those stages
(the solver's slices, the reduction's search and descent, the shortest answers' layers) call
``check``, which raises ``OutOfTime`` once the deadline has passed. The job then drops everything it
found (``generator.pipeline``): what a run keeps never depends on where the clock stopped it, so a
run cut short keeps a prefix of what an unbounded run keeps. Without a deadline ``check`` costs a
lookup and never raises.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

_DEADLINE: ContextVar[float | None] = ContextVar("agnes_teach_deadline", default=None)


class OutOfTime(Exception):
    """The run's time ran out inside a stage; the stage's partial work must be dropped."""


@contextmanager
def running_until(deadline: float | None) -> Iterator[None]:
    """Stages run inside this see `deadline` (a ``time.monotonic`` instant; None: no deadline)."""
    token = _DEADLINE.set(deadline)
    try:
        yield
    finally:
        _DEADLINE.reset(token)


def deadline() -> float | None:
    """The deadline the current stage runs under (None: none)."""
    return _DEADLINE.get()


def check() -> None:
    """Raise ``OutOfTime`` if the current stage runs past its deadline."""
    until = _DEADLINE.get()
    if until is not None and time.monotonic() > until:
        raise OutOfTime("the run's time ran out")

"""Temporary outputs that a stopped run must not leave behind.

Commands write into a temporary file or folder beside the target and rename it
on success.  Each one is registered here while it exists, so the SIGTERM
handler of the command line can remove them and exit at once: raising an
exception from a signal handler is not enough, because Python swallows it when
the signal lands inside a callback (WeasyPrint and importlib have such
callbacks), and the run would then go on to write its output.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import tempfile
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

_pending: dict[str, None] = {}  # insertion-ordered set of paths


@contextmanager
def signals_held() -> Iterator[None]:
    """Hold SIGINT and SIGTERM back for the block (delivered right after it)."""
    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "pthread_sigmask"):
        yield
        return
    old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


@contextmanager
def registered(path: Path | Callable[[], Path]) -> Iterator[Path]:
    """Register `path` as a temporary output for as long as the block runs.

    Given a function that creates the temporary file or folder, it is called
    with the stop signals held, so no signal lands between the creation and the
    registration (a temporary file would be left behind).
    """
    if callable(path):
        with signals_held():
            path = path()
            _pending[str(path)] = None
    else:
        _pending[str(path)] = None
    try:
        yield path
    finally:
        _pending.pop(str(path), None)


def remove_pending() -> None:
    """Remove every registered temporary output (called on SIGTERM)."""
    for name in list(_pending):
        path = Path(name)
        if path.is_dir():
            shutil.rmtree(path, ignore_errors=True)
        else:
            path.unlink(missing_ok=True)


def usual_mode(path: Path) -> None:
    """Give a file or folder made private by tempfile the mode a new one gets (umask applied)."""
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(path, (0o777 if path.is_dir() else 0o666) & ~umask)


def staging_folder(parent: Path, prefix: str) -> Path:
    """A new temporary folder in `parent`, with the usual mode, since it may be renamed into place."""
    folder = Path(tempfile.mkdtemp(prefix=prefix, dir=parent))
    usual_mode(folder)
    return folder


class Interrupted(BaseException):
    """SIGINT or SIGTERM arrived inside an ``interruptible()`` block.

    A BaseException, like KeyboardInterrupt, so ``except Exception`` does not
    swallow it.
    """

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


_graceful = [0]  # depth of interruptible() blocks


@contextmanager
def interruptible() -> Iterator[None]:
    """Inside this block a stop signal raises Interrupted instead of ending the process at once.

    For commands that wait on worker processes and own a file that must stay
    whole (``survey``): they stop the workers, close the file and exit with
    128 + the signal's number.  Only use it where the main thread waits in
    Python code, never inside a library's callbacks.
    """
    _graceful[0] += 1
    try:
        yield
    finally:
        _graceful[0] -= 1


def stop_gracefully() -> bool:
    return _graceful[0] > 0


def worker_init() -> None:
    """Initializer of worker processes: Ctrl-C reaches the whole process group, and the
    parent stops its workers itself (a worker would print a KeyboardInterrupt traceback)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def stop_children() -> None:
    """Kill this process's worker processes (before exiting at once on a stop signal)."""
    import multiprocessing

    for child in multiprocessing.active_children():
        with contextlib.suppress(Exception):
            child.kill()

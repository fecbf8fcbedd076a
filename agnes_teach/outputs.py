"""Temporary outputs that a stopped run must not leave behind.

Commands write into a temporary file or folder beside the target and rename it
on success.  Each one is registered here while it exists, so the SIGTERM
handler of the command line can remove them and exit at once: raising an
exception from a signal handler is not enough, because Python swallows it when
the signal lands inside a callback (WeasyPrint and importlib have such
callbacks), and the run would then go on to write its output.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

_pending: dict[str, None] = {}  # insertion-ordered set of paths


@contextmanager
def registered(path: Path) -> Iterator[Path]:
    """Register `path` as a temporary output for as long as the block runs."""
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

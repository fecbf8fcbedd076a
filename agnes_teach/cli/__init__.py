"""The ``agnes-teach`` command line (formats.md, "The command line").

Each command lives in a module of this package and registers itself on
``app``.  Bad input never shows a traceback: commands raise InputError, and
``input_errors`` prints every problem on stderr and exits 2.
"""

from __future__ import annotations

import functools
import os
import signal
import sys
from collections.abc import Callable
from typing import ParamSpec, TypeVar

import typer

from ..errors import InputError
from ..outputs import remove_pending

app = typer.Typer(
    name="agnes-teach",
    help="Teach the rules of the patience game Agnes Bernauer: deal, check, solve, "
    "generate puzzles, print worksheets and build the rules guide.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)

P = ParamSpec("P")
R = TypeVar("R")


def input_errors(func: Callable[P, R]) -> Callable[P, R]:
    """Turn InputError into a clear message on stderr and exit code 2."""

    @functools.wraps(func)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return func(*args, **kwargs)
        except InputError as exc:
            for problem in exc.problems:
                print(f"agnes-teach: {problem}", file=sys.stderr)
            raise typer.Exit(2) from None

    return wrapper


def _exit_on_sigterm(signum: int, frame: object) -> None:
    # Remove the run's temporary outputs and exit at once: an exception raised here
    # could be swallowed by a callback the signal interrupted (see agnes_teach.outputs).
    remove_pending()
    os._exit(128 + signum)


def main() -> None:
    signal.signal(signal.SIGTERM, _exit_on_sigterm)
    # Importing the command modules registers their commands on `app`.
    from . import play  # noqa: F401

    for name in ("solve", "generate", "render", "schema"):
        try:
            __import__(f"{__name__}.{name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"{__name__}.{name}":
                raise
    app()

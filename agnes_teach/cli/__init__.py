"""The ``agnes-teach`` command line (formats.md, "The command line").

Each command lives in a module of this package and registers itself on
``app``.  Bad input never shows a traceback: commands raise InputError, and
``input_errors`` prints every problem on stderr and exits 2.
"""

from __future__ import annotations

import contextlib
import functools
import importlib
import os
import signal
import sys
from collections.abc import Callable
from typing import Annotated, ParamSpec, TypeVar

import typer

from .. import __version__
from ..errors import InputError
from ..limits import MAX_PROBLEMS_SHOWN
from ..outputs import Interrupted, remove_pending, stop_children, stop_gracefully

app = typer.Typer(
    name="agnes-teach",
    help="Teach the rules of the patience game Agnes Bernauer: deal, check, solve, hint, "
    "generate puzzles, print worksheets and build the rules guide.\n\n"
    "Example: agnes-teach hint --deal 123 --fair 20 --lang ru",
    no_args_is_help=True,
    add_completion=True,
    pretty_exceptions_enable=False,
    # Plain click output: errors as one "Error: ..." line, help that fits any terminal.
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)

# Every module that registers commands on `app`, in the order --help lists them.
COMMAND_MODULES = ("play", "solve", "hint", "generate", "render", "schema")


def _print_version(value: bool) -> None:
    if value:
        print(f"agnes-teach {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool, typer.Option("--version", callback=_print_version, is_eager=True,
                           help="Print the version and exit.")
    ] = False,
) -> None:
    """The options that come before the command name."""


def load_commands() -> typer.Typer:
    """Import every command module (each registers its commands on `app`) and return `app`."""
    for name in COMMAND_MODULES:
        importlib.import_module(f"{__name__}.{name}")
    return app

P = ParamSpec("P")
R = TypeVar("R")


def report(exc: InputError) -> None:
    """Print an InputError's problems on stderr: at most MAX_PROBLEMS_SHOWN, then how many more."""
    shown = exc.problems[:MAX_PROBLEMS_SHOWN]
    for problem in shown:
        print(f"agnes-teach: {problem}", file=sys.stderr)
    rest = len(exc.problems) - len(shown)
    if rest:
        print(f"agnes-teach: ... and {rest} more problems (fix these first)", file=sys.stderr)


def input_errors(func: Callable[P, R]) -> Callable[P, R]:
    """Turn InputError into a clear message on stderr and exit code 2."""

    @functools.wraps(func)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return func(*args, **kwargs)
        except InputError as exc:
            report(exc)
            raise typer.Exit(2) from None

    return wrapper


def _on_stop_signal(signum: int, frame: object) -> None:
    if stop_gracefully():
        # survey: it stops its workers and closes its file itself (agnes_teach.outputs).
        raise Interrupted(signum)
    # Remove the run's temporary outputs and exit at once: an exception raised here
    # could be swallowed by a callback the signal interrupted (WeasyPrint has such
    # callbacks, and Ctrl-C during a worksheet used to be lost there).
    remove_pending()
    stop_children()
    with contextlib.suppress(Exception):
        os.write(2, b"agnes-teach: interrupted; nothing was written\n")
    os._exit(128 + signum)


def main() -> None:
    signal.signal(signal.SIGTERM, _on_stop_signal)
    signal.signal(signal.SIGINT, _on_stop_signal)
    # A file name that is not UTF-8 (kept as surrogate escapes) must not crash a print.
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(AttributeError, ValueError):
            stream.reconfigure(errors="backslashreplace")  # type: ignore[union-attr]
    load_commands()()

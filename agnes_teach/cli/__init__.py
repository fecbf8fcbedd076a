"""The ``agnes-teach`` command line (formats.md, "The command line").

Each command group is a module of this package with its own Typer ``app``;
the root ``app`` here joins them with ``add_typer`` (no name: their commands
sit at the top level, in the order --help lists them).  Bad input never shows
a traceback: commands raise InputError, and ``errors.input_errors`` prints
every problem on stderr and exits 2.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
from typing import Annotated

import typer

from .. import __version__
from ..outputs import Interrupted, remove_pending, stop_children, stop_gracefully
from . import classroom, generate, hint, play, render, schema, solve

app = typer.Typer(
    name="agnes-teach",
    help="Teach the rules of the patience game Agnes Bernauer: deal, check, solve, hint, "
    "generate puzzles, print worksheets and build the rules guide.\n\n"
    # \b: click keeps the example paragraph's lines as they are instead of rewrapping them.
    "\b\nExample:\n  agnes-teach hint --deal 123 --fair 20 --lang ru",
    no_args_is_help=True,
    add_completion=True,
    pretty_exceptions_enable=False,
    # Plain click output: errors as one "Error: ..." line, help that fits any terminal.
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)

# The command groups, each its own Typer, in the order --help lists their commands.
app.add_typer(play.app)  # deal, moves, check
app.add_typer(solve.app)  # solve, survey
app.add_typer(hint.app)
app.add_typer(generate.app)
app.add_typer(render.app)  # sheet, guide, demo
app.add_typer(schema.app)
app.add_typer(classroom.app)  # classroom init, token, serve, report, ratings


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
    app()

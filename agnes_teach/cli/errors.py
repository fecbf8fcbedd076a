"""How a command reports bad input: every problem on stderr, exit code 2, never a traceback."""

from __future__ import annotations

import functools
import json
import sys
from collections.abc import Callable
from typing import ParamSpec, TypeVar

import typer

from ..errors import InputError
from ..limits import MAX_PROBLEMS_SHOWN

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


def report_json(exc: InputError) -> None:
    """The problems as the one JSON object of a --json run (formats.md, "--json output")."""
    errors = [{"file": p.file, "line": p.line, "message": p.message} for p in exc.problems]
    print(json.dumps({"ok": False, "errors": errors}, ensure_ascii=False))


def input_errors(func: Callable[P, R]) -> Callable[P, R]:
    """Turn InputError into a clear message on stderr and exit code 2 (with --json, also on stdout)."""

    @functools.wraps(func)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return func(*args, **kwargs)
        except InputError as exc:
            report(exc)
            # A --json caller parses stdout: it gets the problems there too, never an empty stream.
            if kwargs.get("as_json"):
                report_json(exc)
            raise typer.Exit(2) from None

    return wrapper

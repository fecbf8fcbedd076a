"""How a command reports bad input: every problem on stderr, exit code 2, never a traceback."""

from __future__ import annotations

import functools
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

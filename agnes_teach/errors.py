"""One error hierarchy: every error the project raises on purpose is an :class:`AgnesError`.

* :class:`InputError` - input that cannot be used (the command line turns it
  into exit code 2); :class:`ProfileError` is the kind about a profile.

The errors about moves subclass :class:`AgnesError` beside what they carry,
so this module names nothing above it: ``piles.MoveSyntaxError`` (text that
is not a move at all), ``moves.AmbiguousMoveError`` (``t5>t2`` where several
tails could go) and ``predicates.IllegalMoveError`` (a move the rules refuse,
naming the rule).

Each is also a ``ValueError``, as python-chess's move errors are, so callers
that catch ``ValueError`` keep working.
"""

from __future__ import annotations

from dataclasses import dataclass


class AgnesError(ValueError):
    """The base of every error agnes-teach raises on purpose."""


@dataclass(frozen=True)
class Problem:
    """One thing wrong with an input, and where (file and 1-based line if known)."""

    message: str
    file: str | None = None
    line: int | None = None

    def __str__(self) -> str:
        where = self.file or ""
        if self.file and self.line:
            where += f":{self.line}"
        return f"{where}: {self.message}" if where else self.message


class InputError(AgnesError):
    """Input that cannot be used: carries every problem found, not only the first."""

    def __init__(self, problems: list[Problem] | Problem | str) -> None:
        if isinstance(problems, str):
            problems = [Problem(problems)]
        elif isinstance(problems, Problem):
            problems = [problems]
        self.problems = list(problems)
        super().__init__("\n".join(str(p) for p in self.problems))

    def in_file(self, file: str) -> InputError:
        """The same problems, with `file` filled in where they had none."""
        return type(self)([Problem(p.message, p.file or file, p.line) for p in self.problems])


class ProfileError(InputError):
    """An unknown profile, or a profile file that cannot be used."""

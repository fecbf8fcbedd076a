"""Bad input: the one exception type the command line turns into exit code 2."""

from __future__ import annotations

from dataclasses import dataclass


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


class InputError(ValueError):
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
        return InputError(
            [Problem(p.message, p.file or file, p.line) for p in self.problems]
        )

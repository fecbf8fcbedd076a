"""The README's Python examples run as doctests; docs/formats.md describes every command."""

from __future__ import annotations

import doctest
import os
import re
from pathlib import Path

import pytest
import typer

from agnes_teach.cli import app

REPO = Path(__file__).resolve().parent.parent
README = (REPO / "README.md").read_text("utf-8")
FORMATS = (REPO / "docs" / "formats.md").read_text("utf-8")
BLOCKS = re.findall(r"```pycon\n(.*?)```", README, flags=re.S)


def test_the_readme_has_python_examples() -> None:
    assert BLOCKS and sum(block.count(">>> ") for block in BLOCKS) >= 10


@pytest.mark.parametrize("number", range(len(BLOCKS)))
def test_readme_examples_run(number: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)  # the examples name files relative to the repository
    test = doctest.DocTestParser().get_doctest(BLOCKS[number], {}, f"README.md block {number + 1}",
                                               "README.md", 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    output: list[str] = []
    runner.run(test, out=output.append)
    assert runner.failures == 0, "".join(output)
    assert os.getcwd() == str(REPO)


def test_formats_describes_every_command() -> None:
    group = typer.main.get_command(app)
    missing = [name for name in group.commands if f"`agnes-teach {name}" not in FORMATS]
    assert missing == []


def test_readme_links_the_formats_spec() -> None:
    assert "](docs/formats.md)" in README


def _console_transcript() -> list[tuple[str, list[str]]]:
    """The README's first console example: (command, the output lines shown under it)."""
    block = re.search(r"Examples:\n\n```console\n(.*?)```", README, flags=re.S)
    assert block is not None
    steps: list[tuple[str, list[str]]] = []
    for line in block.group(1).splitlines():
        if line.startswith("$ "):
            steps.append((line[2:], []))
        else:
            steps[-1][1].append(line)
    return steps


def test_readme_console_example_is_what_the_program_prints(tmp_path: Path) -> None:
    import shlex
    import subprocess
    import sys

    steps = _console_transcript()
    assert len(steps) >= 4
    ran = 0
    for command, shown in steps:
        if not shown and ">" not in command:
            continue  # `check puzzles/` (the whole library) is run by test_puzzle_library.py
        words = shlex.split(command)
        redirect = words.index(">") if ">" in words else None
        argv = words[1:redirect] if redirect is not None else words[1:]
        proc = subprocess.run([sys.executable, "-m", "agnes_teach", *argv], capture_output=True, text=True,
                              cwd=tmp_path, timeout=120)
        if redirect is not None:
            (tmp_path / words[redirect + 1]).write_text(proc.stdout, "utf-8")
        else:
            assert proc.stdout.splitlines() == shown, command
        ran += 1
    assert ran == len(steps) - 1

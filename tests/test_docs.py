"""The README's Python examples run as doctests; docs/formats.md describes every command."""

from __future__ import annotations

import doctest
import os
import re
from pathlib import Path

import pytest
import typer

from agnes_teach.cli import app, load_commands

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
    load_commands()
    group = typer.main.get_command(app)
    missing = [name for name in group.commands if f"`agnes-teach {name}" not in FORMATS]
    assert missing == []


def test_readme_links_the_formats_spec() -> None:
    assert "](docs/formats.md)" in README

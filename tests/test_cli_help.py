"""Every --help as an 80-column terminal shows it: examples kept whole, pointers to the docs pages.

click rewraps a help paragraph to the terminal's width, which used to break an example inside its
command line; a ``\\b`` line before the paragraph keeps its lines as written.
"""

from __future__ import annotations

from typing import Any

import click
import pytest
import typer

from agnes_teach.cli import app

ROOT: Any = typer.main.get_command(app)
COMMANDS = sorted(ROOT.commands)
WIDTH = 80


def _help(name: str | None) -> tuple[str, str]:
    """(the help as written in the source, the --help text at WIDTH columns) of a command or the root."""
    root_ctx = click.Context(ROOT, info_name="agnes-teach", terminal_width=WIDTH, max_content_width=WIDTH)
    if name is None:
        return ROOT.help or "", ROOT.get_help(root_ctx)
    command = ROOT.commands[name]
    ctx = click.Context(command, info_name=name, parent=root_ctx, terminal_width=WIDTH,
                        max_content_width=WIDTH)
    return command.help or "", command.get_help(ctx)


def _example_lines(source: str) -> list[str]:
    """The lines of the examples as written: each command line and its continuation lines."""
    lines = source.splitlines()
    out = []
    for number, line in enumerate(lines):
        text = line.strip()
        continued = number > 0 and lines[number - 1].rstrip().endswith("\\")
        if "agnes-teach " in text and not text.startswith("agnes-teach`") or continued:
            out.append(text[text.index("agnes-teach "):] if not continued else text)
    return out


@pytest.mark.parametrize("name", [None, *COMMANDS])
def test_every_example_line_is_shown_whole_at_80_columns(name: str | None) -> None:
    source, shown = _help(name)
    examples = _example_lines(source)
    assert examples, f"{name or 'agnes-teach'} --help has no example"
    shown_lines = [line.strip() for line in shown.splitlines()]
    for example in examples:
        assert example in shown_lines, f"{name} --help breaks the example line {example!r}"
    for line in shown.splitlines():
        if "agnes-teach " in line or line.rstrip().endswith("\\"):
            assert len(line) <= WIDTH, f"{name} --help: an example line is wider than {WIDTH}: {line!r}"


@pytest.mark.parametrize("name", [None, *COMMANDS])
def test_help_points_to_the_docs_pages_not_the_readme(name: str | None) -> None:
    _, shown = _help(name)
    assert "README" not in shown

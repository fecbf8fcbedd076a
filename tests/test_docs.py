"""The documentation: the README stays short, the pages under docs/ build into a site with no warning,
the Python examples of docs/commands.md run as doctests, the console example is what the program prints,
and docs/formats.md describes every command."""

from __future__ import annotations

import doctest
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import typer
import yaml

from agnes_teach.cli import app

REPO = Path(__file__).resolve().parent.parent
DOCS = REPO / "docs"
README = (REPO / "README.md").read_text("utf-8")
COMMANDS = (DOCS / "commands.md").read_text("utf-8")
INDEX = (DOCS / "index.md").read_text("utf-8")
FORMATS = (DOCS / "formats.md").read_text("utf-8")
BLOCKS = re.findall(r"```pycon\n(.*?)```", COMMANDS, flags=re.S)
README_MAX_LINES = 250


def _command_names() -> list[str]:
    return sorted(typer.main.get_command(app).commands)


def test_the_commands_page_has_python_examples() -> None:
    assert BLOCKS and sum(block.count(">>> ") for block in BLOCKS) >= 10


@pytest.mark.parametrize("number", range(len(BLOCKS)))
def test_commands_page_examples_run(number: int, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)  # the examples work from any folder, not only the repository's root
    test = doctest.DocTestParser().get_doctest(BLOCKS[number], {}, f"docs/commands.md block {number + 1}",
                                               "docs/commands.md", 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    output: list[str] = []
    runner.run(test, out=output.append)
    assert runner.failures == 0, "".join(output)
    assert os.getcwd() == str(tmp_path)


def test_formats_describes_every_command() -> None:
    missing = [name for name in _command_names() if f"`agnes-teach {name}" not in FORMATS]
    assert missing == []


def test_readme_links_the_formats_spec() -> None:
    assert "](docs/formats.md)" in README


def _command_table(text: str) -> list[str]:
    """The rows of the table under "| command | does |"."""
    start = text.index("| command | does |\n")
    rows = []
    for line in text[start:].splitlines()[2:]:
        if not line.startswith("|"):
            break
        rows.append(line)
    return rows


def test_the_command_tables_name_every_command_and_agree() -> None:
    readme, page = _command_table(README), _command_table(COMMANDS)
    assert readme == page  # the README's table is the commands page's, row for row
    for name in _command_names():
        assert any(re.match(rf"\| `agnes-teach {name}[ `]", row) for row in page), name
    assert any("`agnes-teach sheet PATHS --mix " in row for row in page)


def _options_of(command: object) -> set[str]:
    """Every long option of a command, or of each command of a group (``classroom``)."""
    subcommands = getattr(command, "commands", None)
    if subcommands:
        return set().union(*(_options_of(sub) for sub in subcommands.values()))
    return {opt for param in getattr(command, "params", []) for opt in param.opts if opt.startswith("--")}


def test_every_option_a_command_row_names_is_one_of_the_commands_options() -> None:
    root = typer.main.get_command(app)
    for row in _command_table(COMMANDS):
        name = re.match(r"\| `agnes-teach ([a-z]+)", row)
        if name is None:
            continue
        options = _options_of(root.commands[name.group(1)]) | {"--version"}  # type: ignore[attr-defined]
        named = set(re.findall(r"(?<![\w-])--[a-z][a-z-]*", row))
        assert named - options == set(), row


# Options users could not find (docs/commands.md): each in its command's row and in an example.
FINDABLE = {"agnes-teach generate": ("--workers", "--scheduler"),
            "agnes-teach sheet": ("--seed", "--profile"),
            "agnes-teach guide": ("--profile",),
            "python puzzles/build_library.py": ("--workers", "--scheduler")}


def test_the_options_for_speed_a_weeks_sheet_and_another_game_are_listed_with_an_example() -> None:
    rows = _command_table(COMMANDS)
    examples = [line.removeprefix(".venv/bin/") for block in re.findall(r"```sh\n(.*?)```", COMMANDS, re.S)
                for line in block.splitlines()]
    for command, options in FINDABLE.items():
        mine = [row for row in rows if row.startswith(f"| `{command} ")]
        assert mine, command
        for option in options:
            assert any(option in row for row in mine), (command, option)
            assert any(line.startswith(f"{command} ") and f"{option} " in line for line in examples), \
                (command, option)


def _console_block(text: str) -> str:
    block = re.search(r"Examples:\n\n```console\n(.*?)```", text, flags=re.S)
    assert block is not None
    return block.group(1)


def _console_transcript() -> list[tuple[str, list[str]]]:
    """The README's console example: (command, the output lines shown under it)."""
    steps: list[tuple[str, list[str]]] = []
    for line in _console_block(README).splitlines():
        if line.startswith("$ "):
            steps.append((line[2:], []))
        else:
            steps[-1][1].append(line)
    return steps


def test_the_console_example_is_the_same_everywhere() -> None:
    # The README, the site's home and the commands page show one example; the next test runs it.
    assert _console_block(INDEX) == _console_block(README) == _console_block(COMMANDS)


def test_readme_console_example_is_what_the_program_prints(tmp_path: Path) -> None:
    import shlex

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


def _quick_start_blocks(text: str) -> list[str]:
    """The fenced sh blocks of the Quick start, read as .ci/run reads them."""
    section = re.search(r"^## Quick start\n(.*?)(?=^## )", text, re.S | re.M)
    assert section is not None
    return re.findall(r"```sh\n(.*?)\n```", section.group(1), re.S)


def test_the_site_installs_as_the_quick_start_does() -> None:
    blocks = _quick_start_blocks(README)
    assert len(blocks) == 2  # .ci/run runs the second
    assert re.findall(r"```sh\n(.*?)\n```", INDEX.split("\n## The four jobs")[0], re.S) == blocks


def test_the_readme_is_short() -> None:
    lines = README.count("\n")
    assert lines <= README_MAX_LINES, f"README.md has {lines} lines; the rest belongs under docs/"


def test_readme_links_resolve() -> None:
    targets = re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", README)
    assert targets
    missing = [t for t in targets if "://" not in t and not (REPO / t).exists()]
    assert missing == []


def _nav_files(nav: object) -> list[str]:
    if isinstance(nav, str):
        return [nav]
    if isinstance(nav, list):
        return [f for entry in nav for f in _nav_files(entry)]
    if isinstance(nav, dict):
        return [f for value in nav.values() for f in _nav_files(value)]
    raise AssertionError(f"unexpected nav entry {nav!r}")


def test_every_docs_page_is_in_the_nav_and_linked_from_the_readme() -> None:
    config = yaml.safe_load((REPO / "mkdocs.yml").read_text("utf-8"))
    assert config["docs_dir"] == "docs" and config["strict"] is True
    assert Path(config["site_dir"]).parts[0] == "build"  # git ignores build/
    nav = _nav_files(config["nav"])
    assert len(nav) == len(set(nav))
    pages = sorted(p.relative_to(DOCS).as_posix() for p in DOCS.rglob("*.md"))
    assert sorted(nav) == pages
    assert [page for page in pages if f"](docs/{page})" not in README] == []


def test_the_site_builds_with_no_warning(tmp_path: Path) -> None:
    proc = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--config-file",
                           str(REPO / "mkdocs.yml"), "--site-dir", str(tmp_path / "site")],
                          capture_output=True, text=True, cwd=REPO, timeout=300)
    log = proc.stdout + proc.stderr
    assert proc.returncode == 0, log
    assert "WARNING" not in log and "ERROR" not in log, log
    assert (tmp_path / "site" / "index.html").is_file()

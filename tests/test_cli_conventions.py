"""The command-line conventions (docs/commands.md, "Command-line conventions"), walked over every command.

Each rule is checked for every command the program registers, so a new
command that forgets one fails here.
"""

from __future__ import annotations

import inspect
import json
import os
import stat
import subprocess
import sys
import tomllib
import typing
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from agnes_teach import __version__, i18n
from agnes_teach.cli import app
from agnes_teach.profile import profile_ids

REPO = Path(__file__).resolve().parent.parent
runner = CliRunner()
GROUP: Any = typer.main.get_command(app)


def _walk(group: Any, prefix: str = "") -> dict[str, Any]:
    """Every command by its full name; a group's commands too ("classroom serve")."""
    out: dict[str, Any] = {}
    for name, command in group.commands.items():
        if hasattr(command, "commands"):  # a group of its own (Typer's, not click's, class)
            out.update(_walk(command, f"{prefix}{name} "))
        else:
            out[f"{prefix}{name}"] = command
    return out


BY_NAME = _walk(GROUP)
COMMANDS = sorted(BY_NAME)

# Options whose values form a closed set, and that set.
CLOSED = {
    "--profile": set(profile_ids()),
    "--lang": set(i18n.languages()),
    "--paper": {"a4", "letter"},
    "--answers": {"appendix", "none", "separate"},
    "--task": {"key-move", "trap", "win"},
    "--difficulty": {"easy", "medium", "hard"},
}
# Commands whose result is already JSON (or that produce none: a server) need no --json.
NO_JSON = {"schema", "classroom serve"}


def _options(name: str) -> dict[str, Any]:
    command = BY_NAME[name]
    return {opt: p for p in command.params for opt in getattr(p, "opts", []) if opt.startswith("--")}


def _completions(command_name: str, param: Any, incomplete: str = "") -> set[str]:
    command = BY_NAME[command_name]
    ctx = command.make_context(command_name, [], resilient_parsing=True)
    return {item.value for item in param.shell_complete(ctx, incomplete)}


def test_every_command_is_walked() -> None:
    assert {"deal", "moves", "check", "solve", "survey", "hint", "generate", "sheet", "guide",
            "demo"} <= set(COMMANDS)


@pytest.mark.parametrize("name", COMMANDS)
def test_help_has_an_example_of_this_command(name: str) -> None:
    result = runner.invoke(app, [*name.split(), "--help"])
    assert result.exit_code == 0
    lines = [line.strip() for line in result.stdout.splitlines()]
    assert any(line in ("Example:", "Examples:") for line in lines), f"{name} --help has no example"
    examples = [line for line in lines if line.startswith("agnes-teach ")]
    assert examples and all(line.startswith(f"agnes-teach {name}") for line in examples), examples


def test_top_level_help_has_an_example() -> None:
    result = runner.invoke(app, ["--help"])
    assert result.exit_code == 0 and "Example:\n    agnes-teach " in result.stdout


@pytest.mark.parametrize("name", COMMANDS)
def test_closed_sets_are_choices(name: str) -> None:
    for opt, param in _options(name).items():
        if opt in CLOSED:
            assert _completions(name, param) == CLOSED[opt], (name, opt)
    theme = _options(name).get("--theme")
    if theme is not None:
        from agnes_teach.themes import theme_ids

        assert _completions(name, theme) == set(theme_ids())


def test_language_lists_complete_one_language_at_a_time() -> None:
    lang = _options("guide")["--lang"]
    assert _completions("guide", lang, "ru,") == {"ru,en", "ru,es"}


@pytest.mark.parametrize("name", sorted(set(COMMANDS) - NO_JSON))
def test_every_command_with_a_result_has_json(name: str) -> None:
    assert "--json" in _options(name), f"{name} has no --json"


@pytest.mark.parametrize("name", COMMANDS)
def test_out_comes_with_parents(name: str) -> None:
    options = _options(name)
    if "--out" in options:
        assert "--parents" in options, f"{name} has --out but no --parents"


def _declared_options() -> dict[str, dict[str, str]]:
    """Option name -> command -> the type its function declares (None stripped)."""
    out: dict[str, dict[str, str]] = {}
    # Each command group is its own Typer, joined into `app` without a name.
    commands = [info for group in app.registered_groups if group.typer_instance is not None
                for info in group.typer_instance.registered_commands]
    for info in commands:
        assert info.callback is not None
        callback = inspect.unwrap(info.callback)
        hints = typing.get_type_hints(callback, include_extras=True)
        for hint in hints.values():
            if not hasattr(hint, "__metadata__"):
                continue
            base, extras = hint.__origin__, hint.__metadata__
            # In an Annotated option the first name is held as its "default" (Typer's convention).
            names = [n for e in extras
                     for n in (getattr(e, "default", None), *(getattr(e, "param_decls", None) or ()))]
            decls = [n for n in names if isinstance(n, str) and n.startswith("--")]
            kinds = [a for a in typing.get_args(base) if a is not type(None)] or [base]
            for decl in decls:
                out.setdefault(decl, {})[info.name or callback.__name__] = " | ".join(map(repr, kinds))
    return out


# Options that take a comma list (or, for sheet, repeat) where a command takes several values.
LIST_FORMS = {"--lang": "<class 'str'>", "--theme": "list[str]", "--difficulty": "list[str]"}


def test_one_option_name_has_one_kind_of_value() -> None:
    # --out is the path of the command's main artefact everywhere (a file or a folder, as the
    # table of docs/commands.md says); every other name takes the same kind of value in every command
    # (--lang: one language, or a comma-separated list where a command writes one per language).
    declared = _declared_options()
    assert {"--budget", "--json", "--profile", "--lang", "--out", "--parents"} <= set(declared)
    mixed = {}
    for opt, by_command in declared.items():
        kinds = set(by_command.values())
        if opt in LIST_FORMS:
            kinds -= {LIST_FORMS[opt]}  # the list form, checked by its completion above
        if len(kinds) > 1:
            mixed[opt] = by_command
    assert mixed == {}


def test_version_matches_the_package_metadata() -> None:
    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0
    project = tomllib.loads((REPO / "pyproject.toml").read_text("utf-8"))["project"]
    assert result.stdout.strip() == f"agnes-teach {project['version']}" == f"agnes-teach {__version__}"


def test_completion_is_available() -> None:
    result = runner.invoke(app, ["--help"])
    assert "--install-completion" in result.stdout and "--show-completion" in result.stdout


def test_a_closed_set_refuses_a_typo_with_the_choices() -> None:
    result = runner.invoke(app, ["deal", "1", "--profile", "bernuaer"])
    assert result.exit_code == 2
    assert "'bernuaer' is not one of" in result.stderr and "'bernauer'" in result.stderr


# ------------------------------------------------------------------ --out and --parents

OUT_RUNS = {
    "sheet": lambda out: ["sheet", str(REPO / "tests/sheet_positions/01-section-08.yaml"),
                          "--out", str(out / "w.pdf")],
    "guide": lambda out: ["guide", "--lang", "en", "--out", str(out / "guide")],
    "survey": lambda out: ["survey", "--deals", "3", "--budget", "20", "--out", str(out / "s.jsonl")],
    "generate": lambda out: ["generate", "--theme", "tableau.wrap", "--count", "1", "--seed", "1",
                             "--source", "built", "--out", str(out / "puzzles")],
}


@pytest.mark.parametrize("name", sorted(OUT_RUNS))
def test_out_into_a_missing_folder_is_bad_input_unless_parents(name: str, tmp_path: Path) -> None:
    missing = tmp_path / "no" / "such"
    args = OUT_RUNS[name](missing)
    refused = runner.invoke(app, args)
    assert refused.exit_code == 2, refused.output
    assert "does not exist" in refused.stderr and "--parents" in refused.stderr
    assert list(tmp_path.iterdir()) == []
    made = runner.invoke(app, [*args, "--parents", "--json"])
    assert made.exit_code == 0, made.output
    assert missing.is_dir()
    data = json.loads(made.stdout)
    if name != "survey":
        assert data["written"] and all(Path(p).exists() for p in data["written"])


def _usual(mode: int, folder: bool) -> int:
    umask = os.umask(0)
    os.umask(umask)
    return (0o777 if folder else 0o666) & ~umask


def test_output_folders_get_the_usual_mode(tmp_path: Path) -> None:
    out = tmp_path / "puzzles"
    result = runner.invoke(app, OUT_RUNS["generate"](tmp_path)[:-1] + [str(out)])
    assert result.exit_code == 0, result.output
    assert stat.S_IMODE(out.stat().st_mode) == _usual(0, folder=True)
    for f in out.iterdir():
        assert stat.S_IMODE(f.stat().st_mode) == _usual(0, folder=False)
    guide = tmp_path / "guide"
    assert runner.invoke(app, ["guide", "--lang", "en", "--out", str(guide)]).exit_code == 0
    assert stat.S_IMODE(guide.stat().st_mode) == _usual(0, folder=True)


def test_python_dash_m_runs_the_command_line() -> None:
    proc = subprocess.run([sys.executable, "-m", "agnes_teach", "--version"], capture_output=True, text=True,
                          timeout=60, cwd=REPO)
    assert proc.returncode == 0 and proc.stdout.strip() == f"agnes-teach {__version__}"
    proc = subprocess.run([sys.executable, "-m", "agnes_teach", "deal", "abc"], capture_output=True,
                          text=True, timeout=60, cwd=REPO)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr

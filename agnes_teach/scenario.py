"""Scenario files: a position plus what is claimed about it (formats.md)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import InputError, Problem
from .moves import MoveSyntaxError, MoveText, parse_move_text, split_moves
from .position import Position, parse_position
from .registry import is_rule_id
from .yamlio import Locator, load_file

TASKS = ("win", "key-move", "legal-moves", "trap")
SCENARIO_KEYS = {
    "id", "title", "task", "themes", "position", "solution", "expect",
    # written by the generator; read back as information only
    "difficulty", "generator", "seed", "distractor", "notes", "instruction",
}
EXPECT_KEYS = {"winnable", "key_move", "legal", "illegal", "trap_move"}


@dataclass
class Scenario:
    file: str
    id: str
    task: str | None
    themes: list[str]
    position: Position
    title: dict[str, str] = field(default_factory=dict)
    solution: list[MoveText] | None = None
    solution_lines: list[int | None] = field(default_factory=list)
    expect: dict[str, Any] = field(default_factory=dict)
    raw: dict[str, Any] = field(default_factory=dict)
    locator: Locator | None = None


def parse_moves(text: object, loc: Locator, *path: str | int) -> list[MoveText]:
    """A list of move texts; InputError naming every move that is not one."""
    if not isinstance(text, (str, list)):
        raise InputError(loc.problem("moves must be a string or a list", *path))
    problems: list[Problem] = []
    out: list[MoveText] = []
    for i, item in enumerate(split_moves(text)):
        try:
            out.append(parse_move_text(item))
        except MoveSyntaxError as exc:
            problems.append(loc.problem(f"move {i + 1}: {exc}", *path))
    if problems:
        raise InputError(problems)
    return out


def load_scenario(path: str | Path) -> Scenario:
    """Load a scenario file, or a bare position file; InputError with every problem."""
    data, loc = load_file(path)
    return scenario_from_data(data, loc, str(path))


def scenario_from_data(data: object, loc: Locator, file: str) -> Scenario:
    if data is None:
        raise InputError(loc.problem("the file holds no YAML data (only comments or blank lines)"))
    if not isinstance(data, dict):
        raise InputError(loc.problem("a scenario or position must be a YAML mapping"))
    if "position" not in data:
        # A bare position: everything at the top level.
        bare = parse_position(data, loc)
        return Scenario(file, Path(file).stem, None, [], bare, raw={}, locator=loc)

    problems: list[Problem] = []
    for key in data:
        if key not in SCENARIO_KEYS:
            problems.append(loc.problem(f"unknown key {key!r} in a scenario", key))
    sid = data.get("id")
    if not isinstance(sid, (str, int)) or isinstance(sid, bool) or str(sid).strip() == "":
        problems.append(loc.problem("'id' is missing or not a string", "id"))
    task = data.get("task")
    if task is not None and task not in TASKS:
        problems.append(loc.problem(f"unknown task {task!r} (one of: {', '.join(TASKS)})", "task"))
    themes = data.get("themes") or []
    if not isinstance(themes, list):
        problems.append(loc.problem("'themes' must be a list of rule ids", "themes"))
        themes = []
    for i, theme in enumerate(themes):
        if not is_rule_id(str(theme)):
            problems.append(loc.problem(f"unknown rule id {theme!r} in themes", "themes", i))
    title = data.get("title") or {}
    if isinstance(title, str):
        title = {"en": title}
    if not isinstance(title, dict):
        problems.append(loc.problem("'title' must map a language to a title", "title"))
        title = {}
    expect = data.get("expect") or {}
    if not isinstance(expect, dict):
        problems.append(loc.problem("'expect' must be a mapping", "expect"))
        expect = {}
    for key in expect:
        if key not in EXPECT_KEYS:
            problems.append(loc.problem(f"unknown key {key!r} in expect", "expect", key))
    if "winnable" in expect and not isinstance(expect["winnable"], bool):
        problems.append(loc.problem("expect.winnable must be true or false", "expect", "winnable"))
    illegal = expect.get("illegal")
    if illegal is not None:
        if not isinstance(illegal, dict):
            problems.append(loc.problem("expect.illegal maps a move to a rule id", "expect", "illegal"))
        else:
            for move, rule_id in illegal.items():
                if not is_rule_id(str(rule_id)):
                    problems.append(loc.problem(
                        f"unknown rule id {rule_id!r} for {move}", "expect", "illegal", move))
    for key in ("legal",):
        if key in expect:
            try:
                parse_moves(expect[key], loc, "expect", key)
            except InputError as exc:
                problems.extend(exc.problems)
    for key in ("key_move", "trap_move"):
        if key in expect:
            try:
                found = parse_moves(expect[key], loc, "expect", key)
                if len(found) != 1:
                    problems.append(loc.problem(f"expect.{key} must be one move", "expect", key))
            except InputError as exc:
                problems.extend(exc.problems)
    if isinstance(illegal, dict):
        for move in illegal:
            try:
                parse_move_text(str(move))
            except MoveSyntaxError as exc:
                problems.append(loc.problem(str(exc), "expect", "illegal", move))
    solution = None
    if data.get("solution") is not None:
        try:
            solution = parse_moves(data["solution"], loc, "solution")
        except InputError as exc:
            problems.extend(exc.problems)
    position: Position | None = None
    try:
        position = parse_position(data["position"], loc.at("position"))
    except InputError as exc:
        problems.extend(exc.problems)
    if problems or position is None:
        raise InputError(problems)
    return Scenario(
        file=file,
        id=str(sid),
        task=task,
        themes=[str(t) for t in themes],
        position=position,
        title={str(k): str(v) for k, v in title.items()},
        solution=solution,
        expect=dict(expect),
        raw=data,
        locator=loc,
    )


def scenario_files(paths: list[str]) -> list[Path]:
    """Files named, and ``*.yaml``/``*.yml`` under folders named, in sorted order."""
    out: list[Path] = []
    seen: set[Path] = set()

    def add(f: Path) -> None:
        # A file named twice (or named and inside a folder named) is read once.
        key = f.resolve()
        if key not in seen:
            seen.add(key)
            out.append(f)

    for name in paths:
        p = Path(name)
        if p.is_dir():
            for f in sorted(f for f in p.rglob("*") if f.suffix in (".yaml", ".yml") and f.is_file()):
                add(f)
        elif p.exists():
            add(p)
        else:
            raise InputError(Problem("no such file or folder", name))
    return out

"""Scenario files: a position plus what is claimed about it (formats.md).

A file is validated once, here, when it is loaded: the shape of every field
against the table of ``agnes_teach.fields`` (the JSON Schema printed by
``agnes-teach schema`` says the same), then the position against its profile.
The ``Scenario`` holds converted values (moves as ``MoveText``, titles as
text per language, the task and difficulty as registry members, the
distractor's move parsed), so nothing downstream parses text again.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

from .errors import InputError, Problem
from .fields import convert, scenario_record
from .limits import MAX_MOVES
from .moves import MoveSyntaxError, MoveText, parse_move_text, split_moves
from .position import Position, position_from_values
from .registry import Difficulty, Task
from .validation import shape_issues
from .yamlio import Locator, load_file

__all__ = ["Distractor", "Scenario", "load_puzzles", "load_scenario", "load_scenarios", "parse_moves",
           "scenario_files", "scenario_from_data"]

@dataclass(frozen=True)
class Distractor:
    """The tempting wrong move the generator recorded (``distractor:``), its move already parsed."""

    move: MoveText | None  # None when the record names no move, or text that is not one
    record: Mapping[str, str]  # every entry as written: move, refuted, ...

    @classmethod
    def of(cls, record: Mapping[str, str]) -> Distractor:
        text = record.get("move")
        try:
            move = parse_move_text(text) if isinstance(text, str) else None
        except MoveSyntaxError:
            move = None  # information only: a file is not refused for it
        return cls(move, MappingProxyType(dict(record)))


@dataclass(frozen=True)
class AnswerClaim:
    """A file's ``answer:``: its solution is a shortest answer of `moves` moves, one of `count`."""

    moves: int
    count: int
    alternatives: tuple[tuple[MoveText, ...], ...] = ()


@dataclass
class Scenario:
    """A loaded scenario.  ``expect`` holds converted claims: ``winnable`` a bool, ``key_move``
    and ``trap_move`` a MoveText, ``trap_moves`` and ``legal`` a list of MoveText, ``illegal``
    MoveText -> rule id; ``answer`` is the claim about the solution's length (``AnswerClaim``).

    The generator's information keys come typed too: ``difficulty``, ``stock_shown`` (the sheet
    shows the stock face up), ``distractor``, ``measured`` (its measured play, read only) and
    ``generator`` (the version that wrote the file; None for a file written by hand).
    """

    file: str
    id: str
    task: Task | None
    themes: list[str]
    position: Position
    title: dict[str, str] = field(default_factory=dict)
    solution: list[MoveText] | None = None
    solution_lines: list[int | None] = field(default_factory=list)
    expect: dict[str, Any] = field(default_factory=dict)
    difficulty: Difficulty | None = None
    stock_shown: bool = False
    distractor: Distractor | None = None
    measured: Mapping[str, int | bool] = field(default_factory=lambda: MappingProxyType({}))
    generator: str | None = None
    locator: Locator | None = None
    answer: AnswerClaim | None = None


def parse_moves(text: object, loc: Locator, *path: str | int) -> list[MoveText]:
    """Moves given outside a file (``--solution``); InputError naming every move that is not one."""
    if not isinstance(text, (str, list)):
        raise InputError(loc.problem("moves must be a string or a list", *path))
    problems: list[Problem] = []
    out: list[MoveText] = []
    items = split_moves(text)
    if len(items) > MAX_MOVES:
        raise InputError(loc.problem(f"{len(items)} moves; at most {MAX_MOVES} are checked at once", *path))
    for i, item in enumerate(items):
        try:
            out.append(parse_move_text(item, typed=True))  # a person typed these
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
    issues = shape_issues(data, "file")
    if issues:
        raise InputError([loc.problem(i.message, *i.path) for i in issues])
    assert isinstance(data, dict)
    values = convert(data, "file")
    if "position" not in data:
        # A bare position: everything at the top level.
        bare = position_from_values(values, loc)
        return Scenario(file, Path(file).stem, None, [], bare, locator=loc)
    position = position_from_values(values["position"], loc.at("position"))
    title = values.get("title")
    if isinstance(title, str):
        title = {"en": title}
    assert set(values) <= set(scenario_record().key_names())
    distractor = values.get("distractor")
    return Scenario(
        file=file,
        id=str(values["id"]),
        task=values.get("task"),
        themes=list(values.get("themes") or []),
        position=position,
        title=dict(title or {}),
        solution=values.get("solution"),
        expect=dict(values.get("expect") or {}),
        difficulty=values.get("difficulty"),
        stock_shown=values.get("stock_shown") is True,
        distractor=Distractor.of(distractor) if distractor is not None else None,
        measured=MappingProxyType(dict(values.get("measured") or {})),
        generator=values.get("generator"),
        locator=loc,
        answer=_answer_claim(values.get("answer")),
    )


def _answer_claim(value: dict[str, Any] | None) -> AnswerClaim | None:
    if value is None:
        return None
    return AnswerClaim(value["moves"], value["count"], tuple(tuple(a) for a in value.get("alternatives", ())))


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
        elif p.exists() or p.is_symlink():
            add(p)
        else:
            raise InputError(Problem("no such file or folder", name))
    return out


def load_scenarios(files: Sequence[str | Path]) -> list[Scenario]:
    """Every file's scenario, or one InputError naming every problem of every file (so bad input
    anywhere stops a run before any of it is used)."""
    problems: list[Problem] = []
    scenarios: list[Scenario] = []
    for f in files:
        try:
            scenarios.append(load_scenario(f))
        except InputError as exc:
            problems.extend(exc.in_file(str(f)).problems)
    if problems:
        raise InputError(problems)
    return scenarios


def load_puzzles(paths: Sequence[str | Path]) -> list[Scenario]:
    """Every scenario in the files and folders named (see :func:`scenario_files`), loaded."""
    return load_scenarios(scenario_files([str(p) for p in paths]))

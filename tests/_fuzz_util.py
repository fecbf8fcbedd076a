"""Structural mutations of valid scenarios, and a run of one command on the result.

Shared by the fuzz test of the suite (``test_fuzz.py``, driven by hypothesis)
and the long run (``bench/fuzz.py``, driven by a seeded ``random.Random``):
both pick mutations through a ``choose(n)`` function returning 0..n-1.

A mutation replaces a value anywhere in the document with a value of
another type or an odd one (huge and odd numbers, unicode and control
characters, card and move spellings), turns lists into strings or mappings
and back, deletes keys, adds keys, duplicates or drops entries.  The result is
written as YAML and given to the real command line in-process.  The contract:
no exception escapes but a clean exit, and the exit code is one the command
documents.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from unittest import mock

import typer.testing
import yaml
from typer.testing import CliRunner

from agnes_teach.cli import app

REPO = Path(__file__).resolve().parent.parent
Choose = Callable[[int], int]

# Documented exit codes (docs/commands.md, "Command-line conventions"): 2 is bad input everywhere.
EXIT_CODES = {
    "moves": {0, 2},
    "check": {0, 1, 2},
    "solve": {0, 1, 2, 3},
    "sheet": {0, 2},
    "hint": {0, 2},
}


def seed_documents() -> list[dict[str, Any]]:
    """Valid scenarios of every task and a bare position, as loaded YAML."""
    names = [
        "../agnes_teach/data/examples/section-08.yaml",
        "../tests/hint_positions/stock-last-two-s106-005.yaml",  # a copy of an earlier library puzzle
        "../tests/sheet_positions/02-ace-after-king.yaml",
        "../tests/sheet_positions/03-run-moves-whole.yaml",
    ]
    found = sorted((REPO / "tests" / "fixtures" / "whole-game").rglob("*.yaml"))
    docs = [yaml.safe_load((REPO / "puzzles" / n).read_text("utf-8")) for n in names]
    for path in found[::11]:
        docs.append(yaml.safe_load(path.read_text("utf-8")))
    docs.append(dict(docs[0]["position"]))  # a bare position file
    return docs


ODD_SCALARS: list[Any] = [
    None, True, False, 0, -1, 1, 13, 14, 2**31, 2**64, -(2**63), 10**30, 1.5, -0.0, 1e309, math.nan,
    "", " ", "x", "yes", "no", "~", "null", "0x1F", "1e3", "KH", "10h", "T♠", "1H", "11S", "♥K", "K♥\ufe0f",
    "KH,QH", "KH;QH", "KH QH JH", "ZZ", "6H>f", "6H > f", "6H→f", "6h->F", "deal", "DEAL", "deal,", "t1>t2",
    "x1>f", "r9>t9", "f>t1", "6H>>f", "6H>f 7H>f", "tableau.empty", "end.win", "no.such.rule", "bernauer",
    "agnes-ru", "win", "key-move", "trap", "legal-moves", "\u0007", "a\u0000b", "\u202e", "é", "Ж", "🂡",
    "x" * 300, "KH " * 60, "6H>f " * 1001, "\t", "\n", "a: b", "- c", "[1, 2]", "{a: 1}",
]


def odd_value(choose: Choose, depth: int = 0) -> Any:
    kind = choose(6) if depth < 2 else 0
    if kind <= 2:
        return ODD_SCALARS[choose(len(ODD_SCALARS))]
    if kind == 3:
        return [odd_value(choose, depth + 1) for _ in range(choose(4))]
    if kind == 4:
        return {str(odd_value(choose, depth + 1))[:20]: odd_value(choose, depth + 1)
                for _ in range(choose(3))}
    return [[odd_value(choose, depth + 2)] for _ in range(choose(3))]


def _paths(node: Any, at: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [at]
    if isinstance(node, dict):
        for key, value in node.items():
            out += _paths(value, (*at, key))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            out += _paths(value, (*at, i))
    return out


def _get(doc: Any, path: tuple[Any, ...]) -> Any:
    for key in path:
        doc = doc[key]
    return doc


def _reshape(value: Any, choose: Choose) -> Any:
    """Lists <-> strings <-> mappings."""
    if isinstance(value, list):
        return [" ".join(map(str, value)), {str(v): v for v in value if not isinstance(v, (list, dict))},
                ", ".join(map(str, value)), value[:1], value * 2][choose(5)]
    if isinstance(value, str):
        return [value.split(), {value: value}, [value], value.upper(), value.lower(), value.replace(" ", ","),
                value + ",", " " + value + " ;"][choose(8)]
    if isinstance(value, dict):
        return [list(value.items()), list(value), list(value.values()), " ".join(map(str, value))][choose(4)]
    return [str(value), [value], {"v": value}][choose(3)]


MUTATIONS = ("replace", "reshape", "delete", "add-key", "duplicate", "drop", "swap")


def mutate(doc: dict[str, Any], choose: Choose, count: int) -> dict[str, Any]:
    doc = copy.deepcopy(doc)
    for _ in range(count):
        paths = _paths(doc)
        path = paths[choose(len(paths))]
        kind = MUTATIONS[choose(len(MUTATIONS))]
        if not path:
            if kind == "add-key":
                doc[["extra", "tableu", "Position", "expect", "notes", "1"][choose(6)]] = odd_value(choose)
            continue
        parent, key = _get(doc, path[:-1]), path[-1]
        value = parent[key]
        if kind == "replace":
            parent[key] = odd_value(choose)
        elif kind == "reshape":
            parent[key] = _reshape(value, choose)
        elif kind == "delete":
            del parent[key]
        elif kind == "add-key" and isinstance(value, dict):
            value[["x", "expect", "winnable", "S", "h", "♣", "en", "zz"][choose(8)]] = odd_value(choose)
        elif kind == "duplicate" and isinstance(value, list) and value:
            value.append(copy.deepcopy(value[choose(len(value))]))
        elif kind == "drop" and isinstance(value, list) and value:
            value.pop(choose(len(value)))
        elif kind == "swap" and len(paths) > 1:
            other = paths[choose(len(paths))]
            if other and other[: len(path)] != path and path[: len(other)] != other:
                other_parent = _get(doc, other[:-1])
                theirs = copy.deepcopy(other_parent[other[-1]])
                other_parent[other[-1]], parent[key] = copy.deepcopy(value), theirs
    return doc


def to_text(doc: Any) -> str:
    return yaml.safe_dump(doc, sort_keys=False, allow_unicode=True, width=200)


@dataclass
class Outcome:
    command: str
    code: int
    error: BaseException | None  # an exception that escaped (a traceback for the user)
    stderr: str

    @property
    def ok(self) -> bool:
        return (self.error is None and self.code in EXIT_CODES[self.command]
                and "Traceback" not in self.stderr)


_runner = CliRunner()
_command: list[Any] = []


def cli_command() -> Any:
    """The click command of the real app, built once (typer would rebuild it for every run)."""
    if not _command:
        from typer.main import get_command

        _command.append(get_command(app))
    return _command[0]


def run_command(command: str, path: Path, out_dir: Path, budget: float = 0.05) -> Outcome:
    """Run one command of the real command line in-process on a file."""
    args = {
        "moves": ["moves", str(path)],
        "check": ["check", str(path), "--budget", str(budget)],
        "solve": ["solve", str(path), "--budget", str(budget)],
        "sheet": ["sheet", str(path), "--out", str(out_dir / "fuzz.pdf")],
        "hint": ["hint", str(path), "--json", "--budget", str(budget)],
    }[command]
    # typer's runner, handed the command built once: the same entry point, 100 ms less per run.
    with mock.patch.object(typer.testing, "_get_command", lambda _app: cli_command()):
        result = _runner.invoke(app, args)
    escaped = result.exception if not isinstance(result.exception, SystemExit) else None
    return Outcome(command, result.exit_code, escaped, result.stderr)


# Tags of the YAML core schema (and the unsafe python/* ones), each thrown at values that fit it,
# that do not, and that run on into the next line: a constructor may refuse any of them with
# whatever exception its library raises (``!!bool yes`` followed by a list item is a KeyError).
YAML_TAGS = ("!!bool", "!!int", "!!float", "!!str", "!!null", "!!binary", "!!timestamp", "!!set", "!!omap",
             "!!pairs", "!!seq", "!!map", "!!merge", "!!value", "!!python/object:os.system",
             "!!python/name:os.system", "!!python/tuple", "!x", "!<tag:example.com,2000:x>")
TAGGED_VALUES = ("yes", "no", "abc", "0x1Z", "1_000", "2020-99-99", "2020-01-01", "12:00", "zz%%",
                 "aGVsbG8=", "[1, 2]", "{a: 1}", "[a]", "{a, b}", "''", "~", "1e999", "-.inf", ".nan",
                 "KH", "deal", "6H>f")
CONTINUATIONS = ("", "\n  - deal", "\n  - 6H>f\n  - deal", "\n  a: b", "\n  more text")


def tag_text(text: str, choose: Choose) -> str:
    """`text` with one value (or a key's value slot) replaced by a tagged value, maybe running on."""
    lines = text.splitlines()
    slots = [i for i, line in enumerate(lines) if ":" in line or line.lstrip().startswith("- ")]
    i = slots[choose(len(slots))] if slots else 0
    line = lines[i] if lines else ""
    head = line.split(":", 1)[0] + ": " if ":" in line else line[: len(line) - len(line.lstrip())] + "- "
    tagged = YAML_TAGS[choose(len(YAML_TAGS))] + " " + TAGGED_VALUES[choose(len(TAGGED_VALUES))]
    lines[i:i + 1] = (head + tagged + CONTINUATIONS[choose(len(CONTINUATIONS))]).split("\n")
    return "\n".join(lines) + "\n"

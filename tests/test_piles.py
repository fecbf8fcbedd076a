"""Pile names are values: kinds and numbers, never prefixes of the text (outside agnes_teach.piles)."""

from __future__ import annotations

import ast
import pickle
from pathlib import Path

import pytest
import yaml

from agnes_teach.errors import InputError
from agnes_teach.moves import DEAL_MOVE, Move, parse_move_text
from agnes_teach.piles import FOUNDATION, STOCK, MoveSyntaxError, Pile, PileKind
from agnes_teach.profile import get_profile, profile_ids

PACKAGE = Path(__file__).resolve().parent.parent / "agnes_teach"


@pytest.mark.parametrize(("text", "kind", "number"), [
    ("t1", PileKind.COLUMN, 1), ("t9", PileKind.COLUMN, 9), ("r7", PileKind.RESERVE, 7),
    ("x2", PileKind.EXPOSED, 2), ("f", PileKind.FOUNDATION, 0), ("deal", PileKind.STOCK, 0),
    (" T3 ", PileKind.COLUMN, 3),
])
def test_parse_gives_kind_number_and_offset(text: str, kind: PileKind, number: int) -> None:
    pile = Pile.parse(text)
    assert pile.kind is kind and pile.number == number and pile.offset == number - 1
    assert pile == text.strip().lower() and isinstance(pile, str)


@pytest.mark.parametrize("text", ["", "t", "t0", "t100", "q1", "r-1", "3t", "foundation", "x1x"])
def test_parse_refuses_what_is_not_a_pile(text: str) -> None:
    with pytest.raises(MoveSyntaxError, match="not a pile"):
        Pile.parse(text)
    assert issubclass(MoveSyntaxError, ValueError)


def test_piles_are_made_once() -> None:
    assert Pile.column(3) is Pile.parse("t3") is Pile("t3")
    assert Pile.parse("f") is FOUNDATION and Pile.parse("deal") is STOCK
    assert pickle.loads(pickle.dumps(Pile.reserve(2))) is Pile.reserve(2)
    assert {Pile.column(1): 1}["t1"] == 1 and {"t1": 1}[Pile.column(1)] == 1
    with pytest.raises(ValueError):
        Pile.column(0)
    with pytest.raises(ValueError):
        Pile.of(PileKind.FOUNDATION, 1)


def test_yaml_writes_a_pile_as_its_name() -> None:
    assert yaml.safe_dump({"dest": Pile.column(4)}) == "dest: t4\n"


def test_moves_hold_piles() -> None:
    assert Move(5, "t2").dest is Pile.column(2)  # type: ignore[arg-type]
    assert DEAL_MOVE.dest is STOCK and DEAL_MOVE.is_deal and str(DEAL_MOVE) == "deal"
    text = parse_move_text("t5>t2")
    assert text.source is Pile.column(5) and text.dest is Pile.column(2)
    assert parse_move_text("6H>f").dest is FOUNDATION


@pytest.mark.parametrize("pid", profile_ids())
def test_profile_deal_targets_are_piles(pid: str) -> None:
    profile = get_profile(pid)
    for deal in profile.stock_deals:
        assert all(type(p) is Pile and (p.is_column or p.is_stack) for p in deal)
    assert all(type(p) is Pile for p in profile.pile_names())


def test_a_bad_deal_target_names_the_deal(tmp_path: Path) -> None:
    house = tmp_path / "house.yaml"
    house.write_text("extends: agnes-ru\nstock_deals: [[r1, f]]\n", "utf-8")
    with pytest.raises(InputError, match="stock_deals"):
        get_profile(str(house))


# ------------------------------------------------------------ no prefixes left

_LETTERS = {"t", "r", "x", "f", "s"}


def _prefix_tests(tree: ast.AST) -> list[tuple[int, str]]:
    """`name[0] == "t"`, `name.startswith("r")`, `int(name[1:])`, `{"t": ...}[name[0]]`, `kind in "tr"`."""
    found: list[tuple[int, str]] = []

    def first_char(node: ast.AST) -> bool:
        return isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) \
            and node.slice.value == 0

    def letter(node: ast.AST) -> bool:
        return isinstance(node, ast.Constant) and node.value in _LETTERS

    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            if any(first_char(a) for a in sides) and any(letter(b) for b in sides):
                found.append((node.lineno, "name[0] compared with a pile letter"))
            if any(isinstance(op, ast.In | ast.NotIn) for op in node.ops) and any(
                    isinstance(c, ast.Constant) and isinstance(c.value, str) and 1 < len(c.value) <= 3
                    and set(c.value) <= _LETTERS for c in node.comparators):
                found.append((node.lineno, "a pile kind looked up in a string of letters"))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and node.func.attr in ("startswith", "endswith") and node.args:
            arg = node.args[0]
            options = arg.elts if isinstance(arg, ast.Tuple) else [arg]
            if any(letter(o) for o in options):
                found.append((node.lineno, "startswith a pile letter"))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "int" \
                and node.args and isinstance(node.args[0], ast.Subscript) \
                and isinstance(cut := node.args[0].slice, ast.Slice) \
                and isinstance(cut.lower, ast.Constant) and cut.lower.value == 1 and cut.upper is None:
            found.append((node.lineno, "int(name[1:])"))
        elif isinstance(node, ast.Subscript) and isinstance(node.value, ast.Attribute) \
                and node.value.attr in ("dest", "source") \
                and isinstance(node.slice, ast.Constant | ast.Slice):
            found.append((node.lineno, "a move's pile read as text"))
        elif isinstance(node, ast.Subscript) and isinstance(node.value, ast.Dict) and first_char(node.slice) \
                and any(letter(k) for k in node.value.keys if k is not None):
            found.append((node.lineno, "a table keyed by a pile letter"))
    return found


def test_the_scan_finds_each_pattern() -> None:
    code = ('a = p[0] == "t"\nb = p.startswith(("r", "x"))\nc = int(p[1:])\n'
            'd = {"t": 1, "r": 2}[p[0]]\ne = kind in "tr"\nf = move.dest[1:]\n')
    assert sorted({line for line, _ in _prefix_tests(ast.parse(code))}) == [1, 2, 3, 4, 5, 6]


def test_no_prefix_test_of_pile_names_outside_the_pile_module() -> None:
    offenders = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.name == "piles.py":
            continue
        for line, what in _prefix_tests(ast.parse(path.read_text("utf-8"))):
            offenders.append(f"{path.relative_to(PACKAGE.parent)}:{line}: {what}")
    assert not offenders, "use Pile.kind / .number / .offset instead:\n" + "\n".join(offenders)

"""Rules as predicates: the enum matches the registry, one predicate per refusing rule, in the
registry's order; one error hierarchy; ``resolve`` returns a Move or raises."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from _engine_util import build

from agnes_teach import errors
from agnes_teach.deal import deal
from agnes_teach.engine import legal_moves, refusal, resolve
from agnes_teach.moves import AmbiguousMoveError, Move, parse_move_text
from agnes_teach.piles import MoveSyntaxError
from agnes_teach.predicates import CHECKS, PREDICATES, IllegalMoveError, first_refusal, rule_used
from agnes_teach.profile import get_profile
from agnes_teach.registry import RuleId, check_order, rules

ROOT = Path(__file__).resolve().parent.parent


def test_enum_is_the_registry() -> None:
    assert {r.value for r in RuleId} == {str(r) for r in rules()}
    assert all(isinstance(r, RuleId) for r in rules())


def test_one_predicate_per_refusing_rule_in_the_stated_order() -> None:
    refusing = [r.id for r in rules().values() if r.refuses]
    assert sorted(PREDICATES) == sorted(refusing)
    assert [rule_id for rule_id, _ in CHECKS] == check_order()
    checked = [rules()[r].checked for r in check_order()]
    assert checked == sorted(checked) and len(set(checked)) == len(checked)


def test_each_predicate_names_its_own_rule() -> None:
    # Every refusal a predicate returns carries the id it is registered under.
    for n in range(1, 6):
        pos = deal(n, get_profile("bernauer"))
        for card in range(52):
            for dest in ("f", "t1", "t4", "r2", "x1"):
                move = Move(card, dest)  # type: ignore[arg-type]
                for rule_id, check in CHECKS:
                    why = check(pos, move, pos.profile)
                    assert why is None or why.rule == rule_id


def test_first_refusal_is_the_engine_refusal() -> None:
    pos = deal(4, get_profile("morehead"))
    for card in range(52):
        move = Move(card, "t2")  # type: ignore[arg-type]
        assert refusal(pos, move) == first_refusal(pos, move)


def test_rule_used_by_legal_moves_is_a_rule_of_the_profile() -> None:
    for pid in ("bernauer", "agnes-ru", "parlett", "morehead", "reserve-last-deal"):
        pos = deal(11, get_profile(pid))
        for move in legal_moves(pos):
            assert pos.profile.uses(rule_used(pos, move)), (pid, move)


def test_no_rule_id_string_literals_outside_the_registry() -> None:
    ids = {r.value for r in RuleId}
    found = []
    for path in (ROOT / "agnes_teach").rglob("*.py"):
        if path.name == "registry.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and node.value in ids:
                found.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.value}")
    assert not found, found


def test_one_error_hierarchy() -> None:
    for cls in (errors.InputError, errors.ProfileError, MoveSyntaxError, AmbiguousMoveError,
                IllegalMoveError):
        assert issubclass(cls, errors.AgnesError) and issubclass(cls, ValueError)
    assert issubclass(errors.ProfileError, errors.InputError)  # the command line's exit 2


def test_resolve_returns_a_move_or_raises() -> None:
    pos = build("bernauer", tableau={1: "4D 3S 4S", 3: "4C"})
    assert str(resolve(pos, parse_move_text("t1>t3"))) == "4S>t3"  # the longest run: refused later
    with pytest.raises(IllegalMoveError) as refused:
        resolve(pos, parse_move_text("t2>t3"))
    assert refused.value.refusal.rule == RuleId.TABLEAU_RUN
    with pytest.raises(IllegalMoveError) as missing:
        resolve(pos, parse_move_text("t9>t3"))
    assert missing.value.refusal.rule == RuleId.DEAL_LAYOUT
    ambiguous = AmbiguousMoveError("t1>t2", [Move(None, "deal")])
    assert ambiguous.candidates == (Move(None, "deal"),) and "ambiguous" in str(ambiguous)

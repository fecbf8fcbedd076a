"""reserve.no-build: a player who parks a card on an empty reserve pile (a free cell) or builds on a
reserve top takes refused moves for legal, plans with them, and loses the theme's puzzles, which the
key wins.

The table: moves in hand-built positions (base 9, so 6-8 are the last cards of a suit), each
added by the belief or not, and refused by exactly the rule named. With no deal to come, one empty
reserve pile stands for all (the believer's free cell is the first); with a deal to come, each one
is its own place.
"""

from __future__ import annotations

import pytest
from _add_belief_util import AddCase, check_case, check_plan_needs_refusal, check_puzzle, theme_puzzles
from _engine_util import build, move

from agnes_teach.engine import apply_move, finishes_home
from agnes_teach.registry import RuleId
from agnes_teach.tagger.players import lost_under
from agnes_teach.themes import theme_for

THEME = theme_for(RuleId.RESERVE_NO_BUILD, "bernauer")
EMPTY = {"base": 9, "tableau": {1: "8C", 2: "7D"}, "reserve": {3: "8D"}}
FITS = {"base": 9, "tableau": {1: "8D", 2: "7D"}, "reserve": {3: "8S"}}
DEAL_TO_COME = {"base": 9, "tableau": {1: "8C", 2: "7D"}, "reserve": {3: "8D"}, "stock": "7S 8S"}
CASES = [
    AddCase("onto the first empty reserve pile", EMPTY, "7D>r1", True, RuleId.RESERVE_NO_BUILD),
    AddCase("another empty pile stands for the first", EMPTY, "7D>r2", False, RuleId.RESERVE_NO_BUILD),
    AddCase("a reserve top it does not fit", EMPTY, "7D>r3", False, RuleId.RESERVE_NO_BUILD),
    AddCase("a column top of the other colour: legal", EMPTY, "7D>t1", False, None),
    AddCase("a reserve top it fits as on a column", FITS, "7D>r3", True, RuleId.RESERVE_NO_BUILD),
    AddCase("a deal to come: every empty pile", DEAL_TO_COME, "7D>r2", True, RuleId.RESERVE_NO_BUILD),
    AddCase("a reserve card onto another pile", FITS, "8S>r1", True, RuleId.RESERVE_NO_BUILD),
    AddCase("onto an exposed cell: another rule", EMPTY, "7D>x1", False, RuleId.STOCK_LAST_TWO),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_the_added_move_is_refused_by_exactly_this_rule(case: AddCase) -> None:
    check_case(case, THEME.believer, RuleId.RESERVE_NO_BUILD)


def test_the_believer_plans_with_the_free_cell() -> None:
    # 6C is next home, under 7H, with 6H under it. The believer parks 7H on the first empty reserve
    # pile (one move); the rule wants it on 8S, which 8D covers: 8D into an empty column first (two
    # moves). Every plan the believer sees needs the refused move.
    pos = build(base=9, tableau={1: "6H 6C 7H", 2: "8S 8D", 3: "8H"}, reserve={1: "8C 7C"})
    check_plan_needs_refusal(pos, THEME.believer, ["7H>r2"], ("8D>t4", "7H>t2"))


def test_a_position_the_believer_wins_is_not_lost() -> None:
    # 7D parked or laid on 8C: both plans are one move long, and the legal one wins.
    pos = build(base=9, tableau={1: "8C", 2: "6C 7D", 3: "8D"}, reserve={1: "7C"})
    assert lost_under(pos, THEME.believer) is False
    pos = apply_move(pos, move(pos, "7D>t1"))
    assert finishes_home(pos)


PUZZLES = theme_puzzles(THEME)


def test_the_library_holds_the_theme() -> None:
    assert len(PUZZLES) >= 1


@pytest.mark.parametrize("scenario", PUZZLES, ids=lambda s: s.id)
def test_the_puzzle_is_lost_by_the_believer_and_won_by_the_key(scenario) -> None:  # type: ignore[no-untyped-def]
    check_puzzle(scenario, THEME)

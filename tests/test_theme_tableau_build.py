"""tableau.build: a player who builds by suit (or by colour) takes refused moves for legal, plans with
them, and loses the theme's puzzles, which the key wins.

The table: moves in hand-built positions (base 9, so 6-8 are the last cards of a suit), each
added by the belief or not, and refused by exactly the rule named.
"""

from __future__ import annotations

import pytest
from _add_belief_util import AddCase, check_case, check_plan_needs_refusal, check_puzzle, theme_puzzles
from _engine_util import build

from agnes_teach.registry import RuleId
from agnes_teach.tagger.players import lost_under
from agnes_teach.themes import theme_for

THEME = theme_for(RuleId.TABLEAU_BUILD, "bernauer")
SINGLE = {"base": 9, "tableau": {1: "7C", 2: "7S", 3: "7D", 4: "8C 6C", 5: "8S", 6: "8D"}}
RUN = {"base": 9, "tableau": {1: "8H 7C 6D", 2: "8S", 3: "8C", 4: "8D", 5: "7D"}}
CASES = [
    AddCase("onto its own suit", SINGLE, "6C>t1", True, RuleId.TABLEAU_BUILD),
    AddCase("onto the other suit of its colour", SINGLE, "6C>t2", True, RuleId.TABLEAU_BUILD),
    AddCase("onto the other colour: legal", SINGLE, "6C>t3", False, None),
    AddCase("two ranks lower: no belief takes it", SINGLE, "6C>t5", False, RuleId.TABLEAU_BUILD),
    AddCase("into an empty column: another rule", SINGLE, "6C>t7", False, RuleId.TABLEAU_EMPTY),
    AddCase("a run led onto its own colour", RUN, "7C>t2", True, RuleId.TABLEAU_BUILD),
    AddCase("a run led onto its own suit", RUN, "7C>t3", True, RuleId.TABLEAU_BUILD),
    AddCase("a run led onto the other colour: legal", RUN, "7C>t4", False, None),
    AddCase("a card of a run alone: another rule", RUN, "6D>t2", False, RuleId.TABLEAU_BUILD),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_the_added_move_is_refused_by_exactly_this_rule(case: AddCase) -> None:
    check_case(case, THEME.believer, RuleId.TABLEAU_BUILD)


def test_the_believer_plans_with_the_move_the_rule_refuses() -> None:
    # 4C is next home, under 5C. The believer's quickest plan lays 5C on 6C (one move); the rule
    # wants it on a red 6, and 6D must first go onto 7C (two moves): every plan needs the refusal.
    pos = build(base=9, tableau={4: "8C 7D 6C", 6: "7C", 7: "8D 4C 5C"}, reserve={6: "6D"})
    check_plan_needs_refusal(pos, THEME.believer, ["5C>t4"], ("6D>t6", "5C>t6"))


def test_a_position_the_believer_wins_is_not_lost() -> None:
    # Every card goes home by itself: no plan needs a refused move, so the check can fail.
    pos = build(base=9, tableau={1: "8C", 2: "7C", 3: "6C"})
    assert lost_under(pos, THEME.believer) is False


PUZZLES = theme_puzzles(THEME)


def test_the_library_holds_the_theme() -> None:
    assert len(PUZZLES) >= 1


@pytest.mark.parametrize("scenario", PUZZLES, ids=lambda s: s.id)
def test_the_puzzle_is_lost_by_the_believer_and_won_by_the_key(scenario) -> None:  # type: ignore[no-untyped-def]
    check_puzzle(scenario, THEME)

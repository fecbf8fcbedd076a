"""foundation.suit: a player who sends a card home on the foundation of the other suit of its colour
takes refused moves for legal, plans with them, and loses the theme's puzzles, which the key wins.

The table: moves in a hand-built position (base 9, so the order runs 9 10 J Q K A 2 .. 8; the ♥
foundation wants the 6♥, the ♦ one the 4♦, the ♠ one the 8♠, the ♣ one the 7♣), each added by the
belief or not, and refused by exactly the rule named.
"""

from __future__ import annotations

from collections import Counter

import pytest
from _add_belief_util import AddCase, check_case, check_puzzle, theme_puzzles
from _engine_util import build, move

from agnes_teach.cards import parse_card
from agnes_teach.engine import apply_move, finishes_home
from agnes_teach.position import Position
from agnes_teach.registry import RuleId
from agnes_teach.tagger.misconception import apply_believed
from agnes_teach.tagger.plans import plans_for
from agnes_teach.tagger.players import lost_under
from agnes_teach.themes import Lesson, theme_for

THEME = theme_for(RuleId.FOUNDATION_SUIT, "bernauer")
TOPS = {"base": 9, "tableau": {1: "4D 6D", 2: "5D 8C", 3: "7C 8D", 4: "8S", 5: "6H", 6: "8H 7H", 7: "7D"}}
RESERVE = {"base": 9, "tableau": {1: "4D", 2: "5D", 3: "8H 7H", 4: "6H", 5: "8D 7D"}, "reserve": {2: "6D"}}
CASES = [
    AddCase("onto the other red foundation, which takes its rank", TOPS, "6D>f", True,
            RuleId.FOUNDATION_SUIT),
    AddCase("onto the other black foundation, which takes its rank", TOPS, "8C>f", True,
            RuleId.FOUNDATION_SUIT),
    AddCase("a red card where only a black foundation takes its rank", TOPS, "8D>f", False,
            RuleId.FOUNDATION_SUIT),
    AddCase("a rank the other red foundation does not take yet", TOPS, "7D>f", False, RuleId.FOUNDATION_SUIT),
    AddCase("onto its own foundation: legal", TOPS, "6H>f", False, None),
    AddCase("onto its own black foundation: legal", TOPS, "8S>f", False, None),
    AddCase("from a reserve top, as from a column", RESERVE, "6D>f", True, RuleId.FOUNDATION_SUIT),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_the_added_move_is_refused_by_exactly_this_rule(case: AddCase) -> None:
    check_case(case, THEME.believer, RuleId.FOUNDATION_SUIT)


def _cards(pos: Position) -> Counter[int]:
    return Counter(c for group in (pos.tableau, pos.reserve, pos.exposed) for pile in group for c in pile)


# (layout, the column the 6♥ lies alone in, what is left where the 6♦ lay: a column's card or an
# emptied reserve pile)
@pytest.mark.parametrize(("layout", "heart_at", "under"), [(TOPS, 4, "4D"), (RESERVE, 3, None)])
def test_the_believer_sees_the_twin_card_stand_in_for_the_one_sent_home(
        layout: dict[str, object], heart_at: int, under: str | None) -> None:
    # The 6♦ goes onto the 6♥'s foundation in the believer's eyes: that foundation grows by one,
    # the 6♦ leaves its pile, and the real 6♥ is, for it, the 6♦ the ♦ foundation still wants.
    pos = build(**layout)  # type: ignore[arg-type]
    assert pos.tableau[heart_at] == (parse_card("6H"),)
    after = apply_believed(pos, move(pos, "6D>f"), THEME.believer)
    heart, diamond = parse_card("6H"), parse_card("6D")
    assert after.foundations[1] == pos.foundations[1] + 1
    assert after.foundations[0::2] == pos.foundations[0::2] and after.foundations[3] == pos.foundations[3]
    assert _cards(after) == _cards(pos) - Counter([heart])
    assert after.tableau[heart_at] == (diamond,)
    if under is not None:
        assert after.tableau[0] == (parse_card(under),)
    else:
        assert not after.reserve[1]


def test_a_legal_move_home_is_laid_out_as_the_rules_do() -> None:
    pos = build(**TOPS)  # type: ignore[arg-type]
    after = apply_believed(pos, move(pos, "6H>f"), THEME.believer)
    assert after.foundations[1] == pos.foundations[1] + 1 and not after.tableau[4]
    assert _cards(after) == _cards(pos) - Counter([parse_card("6H")])


# Base Q, so J is the last rank and the only one an empty column takes. The ♥ foundation wants 6♥,
# which lies under 8♥ and 10♥ in t7; the ♦ foundation wants 10♦, so the believer sees 10♥ go home.
BURIED = {"base": "Q", "tableau": {2: "7H", 3: "10C 9H", 4: "JC 10D", 7: "6H 8H 10H"},
          "reserve": {3: "9C", 6: "JH"}, "exposed": {1: "JD", 2: "JS"}}


def test_the_believer_plans_with_the_move_the_rule_refuses() -> None:
    # The believer's quickest plan sends 10♥ home onto 9♦ and lays 9♣ on 10♦ for 8♥; the rule
    # wants 10♥ on a black Jack first (J♠ laid in an empty column, or J♣ once 10♦ is home), then
    # 9♣ on it and 8♥ on 9♣, which frees 6♥: every plan of the believer needs the refusal.
    pos = build(**BURIED)  # type: ignore[arg-type]
    plans = plans_for(THEME.believer, pos)
    first = plans.first_moves(pos)
    assert first is not None and [str(m) for m in first.refused] == ["10H>f"]
    assert lost_under(pos, THEME.believer) is True
    ahead = plans.refused_ahead(pos, move(pos, "9C>t4"))
    assert ahead is not None and str(ahead[1]) == "10H>f"
    facts = THEME.explain(pos, move(pos, "9C>t4"), Lesson(*ahead))
    assert facts is not None and facts.rule == RuleId.FOUNDATION_SUIT
    assert dict(facts.cards) == {"card": parse_card("10H"), "target": parse_card("9D"),
                                 "next": parse_card("6H")}
    for text in ("JS>t1", "10H>t1", "9C>t1", "8H>t1"):
        pos = apply_move(pos, move(pos, text))
    assert finishes_home(pos)


def test_a_position_the_believer_wins_is_not_lost() -> None:
    # Every card goes home by itself: no plan needs a refused move, so the check can fail.
    pos = build(base=9, tableau={1: "8H", 2: "7H", 3: "6H"})
    assert lost_under(pos, THEME.believer) is False


PUZZLES = theme_puzzles(THEME)


def test_the_library_holds_the_theme() -> None:
    assert len(PUZZLES) >= 7


@pytest.mark.parametrize("scenario", PUZZLES, ids=lambda s: s.id)
def test_the_puzzle_is_lost_by_the_believer_and_won_by_the_key(scenario) -> None:  # type: ignore[no-untyped-def]
    check_puzzle(scenario, THEME)

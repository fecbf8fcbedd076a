"""Table-driven cases per rule id: a move the rule allows, and a move refused with exactly that id.

Every case is judged twice: by ``refusal`` (through the same parse/resolve path
``check`` uses) and by membership in ``legal_moves``, so the two can never
disagree on a case.  The coverage test at the end demands a refusing case for
every rule id that can refuse in each profile.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest
from _engine_util import build, move, verdict

from agnes_teach.cards import SUITS, parse_card
from agnes_teach.engine import IllegalMoveError, apply_move, judge, legal_moves, resolve
from agnes_teach.i18n import refusal_message
from agnes_teach.moves import Move, parse_move_text
from agnes_teach.profile import get_profile, profile_ids
from agnes_teach.registry import rule, rules

DEALT = ("bernauer", "morehead", "parlett", "reserve-last-deal")  # base card dealt, 7 reserve piles
WITH_EXPOSED = ("bernauer", "morehead", "parlett")  # the last two cards go to x1 x2
SOREL = ("sorel", "sorel-strict")  # no reserve, same-colour building, suit runs moving whole


@dataclass(frozen=True)
class Case:
    rule: str  # the rule the case is about
    move: str
    expect: str | None  # None: legal; else the refusing rule id
    layout: dict[str, Any]
    profiles: tuple[str, ...] = DEALT
    per_profile: dict[str, str | None] = field(default_factory=dict)  # where a profile differs

    def runs(self) -> list[tuple[str, str | None]]:
        return [(p, self.per_profile.get(p, self.expect)) for p in self.profiles]


B5 = {"base": 5}  # base 5: ... Q K A 2 3 4 are the last foundation cards, so cheap to place

CASES: list[Case] = [
    # deal.layout: piles the profile does not have
    Case("deal.layout", "4C>t7", None, {**B5, "tableau": {2: "4C"}}),
    Case("deal.layout", "4C>t8", "deal.layout", {**B5, "tableau": {2: "4C"}}),
    Case("deal.layout", "4C>r8", "deal.layout", {**B5, "tableau": {2: "4C"}}),
    Case("deal.layout", "4C>x3", "deal.layout", {**B5, "tableau": {2: "4C"}}),
    Case(
        "deal.layout",
        "4C>x1",
        "stock.last-two",
        {**B5, "tableau": {2: "4C"}},
        per_profile={"reserve-last-deal": "deal.layout"},
    ),  # reserve-last-deal has no exposed cells
    Case(
        "deal.layout", "x1>t1", "deal.layout", {**B5, "tableau": {2: "4C"}}, profiles=("reserve-last-deal",)
    ),
    Case("deal.layout", "t8>t1", "deal.layout", {**B5, "tableau": {2: "4C"}}),
    # foundation.start: an empty foundation takes only the base-rank card of its suit
    Case(
        "foundation.start",
        "5S>f",
        None,
        {**B5, "tableau": {1: "6S 7S 8S 9S 10S JS QS KS AS 2S 3S 4S"}, "reserve": {1: "5S"}},
        per_profile={"parlett": "reserve.to-tableau-only"},
    ),
    Case(
        "foundation.start",
        "4S>f",
        "foundation.start",
        {**B5, "tableau": {1: "6S 7S 8S 9S 10S JS QS KS AS 2S 3S 4S"}, "reserve": {1: "5S"}},
    ),
    # foundation.suit: up by one in the suit
    Case("foundation.suit", "5H>f", None, {"base": 7, "tableau": {1: "6H 5H"}}),
    Case("foundation.suit", "6H>f", "foundation.suit", {"base": 7, "tableau": {1: "5H 6H"}}),
    Case(
        "foundation.suit",
        "r1>f",
        "foundation.suit",
        {"base": 7, "reserve": {1: "5H 6H"}},
        per_profile={"parlett": "reserve.to-tableau-only"},
    ),
    # foundation.wrap: after K comes A (base 5: ... Q K A 2 3 4)
    Case("foundation.wrap", "AH>f", None, {**B5, "tableau": {1: "4H 3H 2H AH"}}),
    # foundation.full: a complete foundation takes nothing more
    Case("foundation.full", "4H>f", "foundation.full", {**B5, "tableau": {2: "4C"}}),
    Case("foundation.full", "KH>f", "foundation.full", {**B5, "tableau": {2: "4C"}}),
    Case("foundation.full", "4H>f", None, {**B5, "tableau": {2: "4H"}}),  # the 13th card goes on
    # foundation.final: a foundation card never comes back
    Case("foundation.final", "5H>t2", "foundation.final", {"base": 7, "tableau": {1: "6H", 2: "6S"}}),
    Case("foundation.final", "4H>t2", "foundation.final", {"base": 7, "tableau": {1: "6H 5H", 2: "5S 6S"}}),
    Case("foundation.final", "5H>f", "foundation.final", {"base": 7, "tableau": {1: "6H"}}),
    Case("foundation.final", "6H>t2", None, {"base": 8, "tableau": {1: "7H 6H", 2: "7S"}}),
    # tableau.build: down by one, other colour
    Case("tableau.build", "3H>t2", None, {**B5, "tableau": {2: "4C", 3: "3H"}, "reserve": {1: "4H"}}),
    Case(
        "tableau.build", "3S>t2", "tableau.build", {**B5, "tableau": {2: "4C", 3: "3S"}, "reserve": {1: "4S"}}
    ),
    Case(
        "tableau.build",
        "2H>t2",
        "tableau.build",
        {**B5, "tableau": {2: "4C", 3: "2H"}, "reserve": {1: "4H 3H"}},
    ),
    Case("tableau.build", "r1>t2", "tableau.build", {**B5, "tableau": {2: "4C"}, "reserve": {1: "4S 3S"}}),
    Case(
        "tableau.build",
        "x1>t2",
        None,
        {**B5, "tableau": {2: "4C"}, "reserve": {1: "4D"}, "exposed": {1: "3D"}},
        profiles=WITH_EXPOSED,
    ),
    Case(
        "tableau.build",
        "x2>t2",
        "tableau.build",
        {**B5, "tableau": {2: "4C"}, "exposed": {2: "3C"}},
        profiles=WITH_EXPOSED,
    ),
    # tableau.wrap: a black K on a red A where ranks wrap (all of these profiles)
    Case("tableau.wrap", "KS>t2", None, {"base": 2, "tableau": {2: "AH", 3: "AS KS"}}),
    Case("tableau.wrap", "KH>t2", "tableau.build", {"base": 2, "tableau": {2: "AD", 3: "AH KH"}}),
    # tableau.run: a valid run moves as one unit; anything else does not
    Case(
        "tableau.run",
        "3H>t2",
        None,
        {**B5, "tableau": {2: "4C", 3: "KS 3H 2S"}, "reserve": {1: "4H", 2: "4S 3S", 3: "AS"}},
    ),
    Case(
        "tableau.run",
        "t3>t2",
        None,
        {**B5, "tableau": {2: "4C", 3: "KS 3H 2S"}, "reserve": {1: "4H", 2: "4S 3S", 3: "AS"}},
    ),
    Case(
        "tableau.run", "3H>t2", "tableau.run", {**B5, "tableau": {2: "4C", 3: "3H 2H"}, "reserve": {1: "4H"}}
    ),
    Case(
        "tableau.run",
        "3H>f",
        "tableau.run",
        {**B5, "tableau": {3: "3H 2S"}, "reserve": {1: "4H", 2: "4S 3S"}},
    ),
    Case(
        "tableau.run",
        "2S>t3",
        "tableau.run",
        {**B5, "tableau": {3: "3H 2S"}, "reserve": {1: "4H", 2: "4S 3S"}},
    ),
    Case(
        "tableau.run",
        "t1>t3",
        "tableau.run",
        {**B5, "tableau": {3: "3H 2S"}, "reserve": {1: "4H", 2: "4S 3S"}},
    ),
    # tableau.whole-run: in morehead only the whole run at the top moves
    Case(
        "tableau.whole-run",
        "2S>t4",
        None,
        {
            **B5,
            "tableau": {2: "4C", 3: "KS 3H 2S", 4: "3D"},
            "reserve": {1: "4H", 2: "4S 3S", 3: "AS", 4: "4D"},
        },
        per_profile={"morehead": "tableau.whole-run"},
    ),
    Case(
        "tableau.whole-run",
        "3H>t2",
        None,
        {
            **B5,
            "tableau": {2: "4C", 3: "KS 3H 2S", 4: "3D"},
            "reserve": {1: "4H", 2: "4S 3S", 3: "AS", 4: "4D"},
        },
    ),
    # A top card lying on a run still goes to its foundation in morehead: the rule is about
    # moving runs between columns (see engine.legal_moves).
    Case(
        "tableau.whole-run",
        "2S>f",
        None,
        {**B5, "tableau": {2: "4C", 3: "2D 3H 2S", 4: "3D"}, "reserve": {1: "4H", 2: "4S 3S", 4: "4D"}},
    ),
    # tableau.empty: only the rank below the base, whatever the foundations hold
    Case("tableau.empty", "4C>t1", None, {**B5, "tableau": {2: "4C"}}),
    Case("tableau.empty", "3C>t1", "tableau.empty", {**B5, "tableau": {2: "3C"}, "reserve": {1: "4C"}}),
    Case("tableau.empty", "4D>t1", None, {**B5, "tableau": {3: "4D 3C"}, "reserve": {1: "4C"}}),
    Case(
        "tableau.empty",
        "3C>t1",
        "tableau.empty",
        {**B5, "tableau": {3: "4D 3C"}, "reserve": {1: "4C"}},
        per_profile={"morehead": "tableau.whole-run"},
    ),  # a part of a run never moves there
    Case("tableau.empty", "r1>t1", None, {**B5, "reserve": {1: "4C"}}),
    Case("tableau.empty", "KC>t1", None, {"base": "A", "tableau": {2: "KC"}}),
    Case("tableau.empty", "QC>t1", "tableau.empty", {"base": "A", "tableau": {2: "KC QC"}}),
    # reserve.top: only the top card of a reserve pile
    Case("reserve.top", "4C>t1", None, {**B5, "tableau": {2: "4H"}, "reserve": {1: "3H 4C"}}),
    Case("reserve.top", "3H>f", "reserve.top", {**B5, "tableau": {2: "4H"}, "reserve": {1: "3H 4C"}}),
    Case(
        "reserve.top", "3H>t3", "reserve.top", {**B5, "tableau": {2: "4H", 3: "4S"}, "reserve": {1: "3H 4C"}}
    ),
    Case("reserve.top", "r2>t1", "reserve.top", {**B5, "tableau": {2: "4C"}}),  # an empty pile has no top
    # reserve.no-build: nothing goes on a reserve pile, not even an empty one
    Case("reserve.no-build", "4C>r2", "reserve.no-build", {**B5, "tableau": {2: "4C"}, "reserve": {2: "4D"}}),
    Case("reserve.no-build", "4C>r3", "reserve.no-build", {**B5, "tableau": {2: "4C"}}),
    Case("reserve.no-build", "r2>t1", None, {**B5, "reserve": {2: "4D"}}),
    # reserve.to-tableau-only (parlett): a reserve card never goes straight home
    Case(
        "reserve.to-tableau-only",
        "4C>f",
        None,
        {**B5, "reserve": {1: "4C"}},
        per_profile={"parlett": "reserve.to-tableau-only"},
    ),
    Case(
        "reserve.to-tableau-only",
        "r1>f",
        None,
        {**B5, "reserve": {1: "4C"}},
        per_profile={"parlett": "reserve.to-tableau-only"},
    ),
    Case("reserve.to-tableau-only", "4C>t1", None, {**B5, "reserve": {1: "4C"}}),
    # foundation.from-tableau-only (parlett): the exposed cards are not tableau cards
    Case(
        "foundation.from-tableau-only",
        "4C>f",
        None,
        {**B5, "exposed": {1: "4C"}},
        profiles=WITH_EXPOSED,
        per_profile={"parlett": "foundation.from-tableau-only"},
    ),
    Case("foundation.from-tableau-only", "4C>t1", None, {**B5, "exposed": {1: "4C"}}, profiles=WITH_EXPOSED),
    Case("foundation.from-tableau-only", "4C>f", None, {**B5, "tableau": {3: "4C"}}),
    # stock.deal: stock cards play only once dealt
    Case("stock.deal", "deal", None, {**B5, "stock": "4S 3S 2S AS 4H 3H 2H AH 4D 3D 2D AD 4C 3C 2C AC"}),
    Case(
        "stock.deal", "AS>f", "stock.deal", {**B5, "stock": "4S 3S 2S AS 4H 3H 2H AH 4D 3D 2D AD 4C 3C 2C AC"}
    ),
    Case(
        "stock.deal",
        "4S>t1",
        "stock.deal",
        {**B5, "stock": "4S 3S 2S AS 4H 3H 2H AH 4D 3D 2D AD 4C 3C 2C AC"},
    ),
    Case("stock.deal", "4H>f", "stock.deal", {**B5, "stock": "4H 4S"}),
    # stock.last-two: nothing is placed on an exposed card
    Case(
        "stock.last-two",
        "4C>x1",
        "stock.last-two",
        {**B5, "tableau": {2: "4C"}, "exposed": {1: "4D"}},
        profiles=WITH_EXPOSED,
    ),
    Case("stock.last-two", "4C>x2", "stock.last-two", {**B5, "tableau": {2: "4C"}}, profiles=WITH_EXPOSED),
    Case(
        "stock.last-two", "x1>t1", "stock.last-two", {**B5, "tableau": {2: "4C"}}, profiles=WITH_EXPOSED
    ),  # an empty cell has nothing to play
    Case(
        "stock.last-two",
        "4D>f",
        None,
        {**B5, "tableau": {2: "4C"}, "exposed": {1: "4D"}},
        profiles=WITH_EXPOSED,
        per_profile={"parlett": "foundation.from-tableau-only"},
    ),
    # stock.no-redeal: the stock goes through once
    Case("stock.no-redeal", "deal", "stock.no-redeal", {**B5, "tableau": {2: "4C"}}),
    Case("stock.no-redeal", "deal", None, {**B5, "stock": "4H 4S"}),
    # ---- Agnes Sorel (base 5: ... Q K A 2 3 4 are the last foundation cards)
    Case("deal.layout", "4C>r1", "deal.layout", {**B5, "tableau": {2: "4C"}}, profiles=SOREL),
    Case("deal.layout", "4C>x1", "deal.layout", {**B5, "tableau": {2: "4C"}}, profiles=SOREL),
    Case("deal.layout", "4C>t8", "deal.layout", {**B5, "tableau": {2: "4C"}}, profiles=SOREL),
    Case("foundation.start", "5S>f", None,
         {**B5, "tableau": {1: "6S 7S 8S 9S 10S JS QS KS AS 2S 3S 4S", 2: "5S"}}, profiles=SOREL),
    Case("foundation.start", "4S>f", "foundation.start",
         {**B5, "tableau": {1: "6S 7S 8S 9S 10S JS QS KS AS 2S 3S 4S", 2: "5S"}}, profiles=SOREL),
    Case("foundation.suit", "6H>f", "foundation.suit", {"base": 7, "tableau": {1: "5H 6H"}}, profiles=SOREL),
    Case("foundation.full", "4H>f", "foundation.full", {**B5, "tableau": {2: "4C"}}, profiles=SOREL),
    Case("foundation.final", "5H>t2", "foundation.final", {"base": 7, "tableau": {1: "6H", 2: "6S"}},
         profiles=SOREL),
    # tableau.same-colour: down by one in the same colour, and never across the base
    Case("tableau.same-colour", "3S>t2", None, {**B5, "tableau": {2: "4C", 3: "3S", 4: "4S"}},
         profiles=SOREL),
    Case("tableau.same-colour", "3H>t2", "tableau.same-colour",
         {**B5, "tableau": {2: "4C", 3: "3H", 4: "4H"}},
         profiles=SOREL),
    Case("tableau.same-colour", "4C>t2", "tableau.same-colour",
         {**B5, "tableau": {1: "6S 7S 8S 9S 10S JS QS KS AS 2S 3S 4S", 2: "5S", 3: "4C"}}, profiles=SOREL),
    Case("tableau.same-colour", "3H>t2", "tableau.build", {**B5, "tableau": {2: "4D", 3: "3H", 4: "4H"}}),
    # tableau.wrap: a King on an Ace of its colour (ranks go round from the base)
    Case("tableau.wrap", "KS>t2", None, {"base": 2, "tableau": {2: "AC", 3: "AH KS", 4: "AS"}},
         profiles=SOREL),
    Case("tableau.wrap", "KH>t2", "tableau.same-colour",
         {"base": 2, "tableau": {2: "AC", 3: "AS KH", 4: "AH"}},
         profiles=SOREL),
    # tableau.suit-run: only a run of one suit moves together
    Case("tableau.suit-run", "3D>t2", None, {**B5, "tableau": {2: "4H", 3: "3D 2D", 4: "4D"}},
         profiles=SOREL),
    Case("tableau.suit-run", "t3>t2", None, {**B5, "tableau": {2: "4H", 3: "3D 2D", 4: "4D"}},
         profiles=SOREL),
    Case("tableau.suit-run", "3H>t2", "tableau.suit-run",
         {**B5, "tableau": {2: "4D", 3: "3H 2D", 4: "4H", 5: "3D"}}, profiles=SOREL),
    Case("tableau.suit-run", "2D>t2", None, {**B5, "tableau": {2: "3D", 3: "3H 2D", 4: "4H", 5: "4D"}},
         profiles=SOREL),  # 2D lies on 3H by colour, not by suit: it moves alone
    Case("tableau.suit-run", "3H>f", "tableau.run", {**B5, "tableau": {3: "3H 2H", 4: "4H"}}, profiles=SOREL),
    # tableau.whole-run: a part of a suit run never moves alone
    Case("tableau.whole-run", "2D>t2", "tableau.whole-run",
         {**B5, "tableau": {2: "3H", 3: "3D 2D", 4: "4D", 5: "4H"}}, profiles=SOREL),
    Case("tableau.whole-run", "2D>f", None, {**B5, "tableau": {3: "3D 2D", 4: "4D"}}, profiles=SOREL),
    # tableau.empty: any card that may move (sorel); nothing but a deal (sorel-strict)
    Case("tableau.empty", "4C>t1", None, {**B5, "tableau": {2: "4C"}}, profiles=SOREL,
         per_profile={"sorel-strict": "tableau.empty"}),
    Case("tableau.empty", "3D>t1", None, {**B5, "tableau": {3: "3D 2D", 4: "4D"}}, profiles=SOREL,
         per_profile={"sorel-strict": "tableau.empty"}),
    Case("tableau.empty", "2D>t1", "tableau.whole-run", {**B5, "tableau": {3: "3D 2D", 4: "4D"}},
         profiles=SOREL),
    # the stock
    Case("stock.deal", "deal", None, {**B5, "stock": "4H 4S"}, profiles=SOREL),
    Case("stock.deal", "4H>f", "stock.deal", {**B5, "stock": "4H 4S"}, profiles=SOREL),
    Case("stock.no-redeal", "deal", "stock.no-redeal", {**B5, "tableau": {2: "4C"}}, profiles=SOREL),
]

# agnes-ru: foundations from A, no wrap in the tableau, empty columns take a K, six reserve
# piles, three deals of six, and the top foundation card may come back to a column.
RU = ("agnes-ru",)
HEARTS_UP_TO_A = "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH"  # every heart; AH on top
CASES += [
    Case("deal.layout", "KC>r7", "deal.layout", {"tableau": {2: "KC"}}, profiles=RU),
    Case("deal.layout", "KC>x1", "deal.layout", {"tableau": {2: "KC"}}, profiles=RU),
    Case("deal.layout", "KC>t1", None, {"tableau": {2: "KC"}}, profiles=RU),
    Case("foundation.start", "AH>f", None, {"tableau": {1: HEARTS_UP_TO_A}}, profiles=RU),
    Case(
        "foundation.start",
        "r1>f",
        None,
        {"tableau": {1: HEARTS_UP_TO_A[:-3]}, "reserve": {1: "AH"}},
        profiles=RU,
    ),
    Case(
        "foundation.start",
        "KH>f",
        "foundation.start",
        {"tableau": {1: HEARTS_UP_TO_A[:-3], 2: "AH"}},
        profiles=RU,
    ),
    Case("foundation.suit", "KH>f", None, {"tableau": {1: "KH"}}, profiles=RU),
    Case("foundation.suit", "KH>f", "foundation.suit", {"tableau": {1: "QH KH"}}, profiles=RU),
    Case("foundation.full", "KH>f", "foundation.full", {"tableau": {2: "KC"}}, profiles=RU),
    Case("foundation.full", "QH>t2", "foundation.return", {"tableau": {2: "KC"}}, profiles=RU),
    Case("foundation.return", "KH>t1", None, {"tableau": {2: "KC"}}, profiles=RU),  # top of a full one
    Case("foundation.return", "QH>t2", None, {"tableau": {1: "KH", 2: "KS"}}, profiles=RU),
    Case(
        "foundation.return",
        "JH>t3",
        "foundation.return",
        {"tableau": {1: "KH", 3: "QC"}, "reserve": {1: "KC"}},
        profiles=RU,
    ),
    Case("foundation.return", "QH>f", "foundation.return", {"tableau": {1: "KH", 2: "KS"}}, profiles=RU),
    Case("foundation.return", "QH>r1", "reserve.no-build", {"tableau": {1: "KH", 2: "KS"}}, profiles=RU),
    Case("foundation.return", "QH>t4", "tableau.empty", {"tableau": {1: "KH", 2: "KS"}}, profiles=RU),
    Case("foundation.return", "QH>t2", "tableau.build", {"tableau": {1: "KH", 2: "KD"}}, profiles=RU),
    Case("tableau.build", "QH>t1", None, {"tableau": {1: "KS", 2: "KH QH"}}, profiles=RU),
    Case("tableau.build", "QH>t1", "tableau.build", {"tableau": {1: "KD", 2: "KH QH"}}, profiles=RU),
    Case("tableau.wrap", "KS>t2", "tableau.wrap", {"tableau": {2: HEARTS_UP_TO_A, 3: "KS"}}, profiles=RU),
    Case(
        "tableau.run",
        "QH>t1",
        None,
        {"tableau": {1: "KC", 2: "KS QH JC"}, "reserve": {1: "QC", 2: "KH"}},
        profiles=RU,
    ),
    Case("tableau.run", "KC>t1", "tableau.run", {"tableau": {2: "KC QC"}}, profiles=RU),
    Case("tableau.empty", "KC>t1", None, {"tableau": {2: "QH KC"}, "reserve": {1: "KH"}}, profiles=RU),
    Case(
        "tableau.empty",
        "QH>t1",
        "tableau.empty",
        {"tableau": {2: "KC QH"}, "reserve": {1: "KH"}},
        profiles=RU,
    ),
    Case("reserve.top", "KH>t1", "reserve.top", {"tableau": {2: "KC"}, "reserve": {1: "KH KS"}}, profiles=RU),
    Case("reserve.top", "KS>t1", None, {"tableau": {2: "KC"}, "reserve": {1: "KH KS"}}, profiles=RU),
    Case("reserve.no-build", "KC>r6", "reserve.no-build", {"tableau": {2: "KC"}}, profiles=RU),
    Case(
        "stock.deal",
        "deal",
        None,
        {"stock": "KS QS JS 10S KH QH JH 10H KD QD JD 10D KC QC JC 10C 9S 9H"},
        profiles=RU,
    ),
    Case(
        "stock.deal",
        "KS>t1",
        "stock.deal",
        {"stock": "KS QS JS 10S KH QH JH 10H KD QD JD 10D KC QC JC 10C 9S 9H"},
        profiles=RU,
    ),
    Case("stock.no-redeal", "deal", "stock.no-redeal", {"tableau": {2: "KC"}}, profiles=RU),
]


def _ids() -> list[str]:
    return [f"{c.rule}:{p}:{c.move}->{e or 'legal'}" for c in CASES for p, e in c.runs()]


@pytest.mark.parametrize(
    ("case", "profile", "expected"), [(c, p, e) for c in CASES for p, e in c.runs()], ids=_ids()
)
def test_rule_case(case: Case, profile: str, expected: str | None) -> None:
    pos = build(profile, **case.layout)
    assert verdict(pos, case.move) == expected
    try:
        resolved: Move | None = resolve(pos, parse_move_text(case.move))
    except IllegalMoveError:
        resolved = None
    if resolved is not None:
        # legal_moves must agree with refusal on every case
        assert (resolved in legal_moves(pos)) == (expected is None)
    if expected is not None:
        assert get_profile(profile).uses(expected), (
            f"{profile} refuses with {expected}, a rule it does not use"
        )
        assert rule(expected).refuses
    else:
        assert isinstance(resolved, Move)
        after = apply_move(pos, resolved)
        assert sorted(after.all_cards()) == list(range(52))


def test_every_refusing_rule_has_a_refusing_case_in_each_profile() -> None:
    # Rules that a profile lists but that can refuse nothing there, and why.
    cannot_refuse = {
        # tableau.wrap only refuses where the profile turns wrapping off
        **{(p, "tableau.wrap"): "wrapping is allowed" for p in DEALT},
        # with no exposed cells, a move to x1 is refused for deal.layout (no such pile)
        ("reserve-last-deal", "stock.last-two"): "no exposed cells",
        # Agnes Sorel: K on A is allowed; the last deal goes onto the columns; sorel takes any
        # card that may move into an empty column
        **{(p, "tableau.wrap"): "wrapping is allowed" for p in SOREL},
        **{(p, "stock.last-two"): "no exposed cells" for p in SOREL},
        ("sorel", "tableau.empty"): "any card that may move may go there",
    }
    covered = {(p, e) for c in CASES for p, e in c.runs() if e is not None}
    missing = []
    for pid in profile_ids():
        prof = get_profile(pid)
        for rid in prof.rules:
            if rules()[rid].refuses and (pid, rid) not in covered and (pid, rid) not in cannot_refuse:
                missing.append((pid, rid))
    assert not missing


def test_every_rule_has_a_case() -> None:
    about = {c.rule for c in CASES}
    refusing = {rid for rid, r in rules().items() if r.refuses}
    assert refusing <= about


def test_refusal_messages_fill_every_field() -> None:
    for case in CASES:
        for profile, expected in case.runs():
            if expected is None:
                continue
            pos = build(profile, **case.layout)
            why = judge(pos, parse_move_text(case.move))
            assert why is not None
            text = refusal_message(why, "en")
            assert "{" not in text and text.strip(), (case, text)


# ------------------------------------------------------------ deals move cards where the profile says


@pytest.mark.parametrize("profile", DEALT)
def test_deal_lays_one_card_on_each_reserve_pile_in_order(profile: str) -> None:
    stock = "4S 3S 2S AS 4H 3H 2H AH 4D 3D 2D AD 4C 3C 2C AC"
    pos = build(profile, base=5, stock=stock)
    after = apply_move(pos, Move(None, "deal"))
    assert [p[-1] for p in after.reserve] == [parse_card(c) for c in stock.split()[:7]]
    assert after.stock == tuple(parse_card(c) for c in stock.split()[7:])


@pytest.mark.parametrize("profile", WITH_EXPOSED)
def test_last_deal_exposes_two_cards(profile: str) -> None:
    pos = build(profile, base=5, stock="4H 4S")
    after = apply_move(pos, Move(None, "deal"))
    assert after.exposed == ((parse_card("4H"),), (parse_card("4S"),))
    assert after.stock == ()
    assert verdict(after, "deal") == "stock.no-redeal"
    assert verdict(after, "4C>x1") == "stock.last-two"


def test_reserve_last_deal_puts_the_last_two_on_r1_r2() -> None:
    pos = build("reserve-last-deal", base=5, stock="4H 4S")
    after = apply_move(pos, Move(None, "deal"))
    assert after.reserve[0][-1] == parse_card("4H") and after.reserve[1][-1] == parse_card("4S")
    assert after.exposed == ()
    # Those two are reserve cards now: top cards play, the cards under them wait.
    assert verdict(after, "4H>f") is None
    assert verdict(after, "r2>f") is None


def test_agnes_ru_deals_three_times_six() -> None:
    stock = "KS QS JS 10S KH QH JH 10H KD QD JD 10D KC QC JC 10C 9S 9H"
    pos = build("agnes-ru", stock=stock)
    for left in (12, 6, 0):
        pos = apply_move(pos, Move(None, "deal"))
        assert len(pos.stock) == left
    assert [len(p) for p in pos.reserve] == [3] * 6
    assert verdict(pos, "deal") == "stock.no-redeal"


def test_won_when_all_home() -> None:
    pos = build("bernauer", base=5, tableau={1: "4H"})
    assert not pos.is_won()
    after = apply_move(pos, move(pos, "4H>f"))
    assert after.is_won() and after.cards_home() == 52
    assert legal_moves(after) == []


def test_suits_order_matches_formats() -> None:
    assert SUITS == "SHDC"

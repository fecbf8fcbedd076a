"""foundation.final: a card on a foundation never comes back, and the eager player who sends every
card home at once loses the library's puzzles.

* the lesson predicate (``predicates.uses_foundation_final``) and the cards it looks at
  (``home_moves_on_offer``), table-driven on hand-built positions;
* the theme's profiles: every shipped one whose foundations are final;
* on every library puzzle of the theme: the believer cannot win (``players.lost_under``, exact),
  the misconception player wins no game, the key wins (the rest goes home by itself), and the key
  explains the eager move home in the rule's terms in every language.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest
from _engine_util import build, move

from agnes_teach.cards import parse_card
from agnes_teach.engine import apply_move, finishes_home, legal_moves, resolve
from agnes_teach.moves import DEAL_MOVE, Move
from agnes_teach.position import Position
from agnes_teach.predicates import home_moves_on_offer, uses_foundation_final
from agnes_teach.profile import get_profile, profile_ids
from agnes_teach.registry import RuleId
from agnes_teach.scenario import Scenario, load_puzzles
from agnes_teach.tagger.detectors import Lesson
from agnes_teach.tagger.players import lost_under, misconception_policy, win_rate
from agnes_teach.tagger.refutation import explain_scenario
from agnes_teach.themes import find_theme, theme_for

LIBRARY = Path(__file__).resolve().parent.parent / "puzzles" / "small" / "foundation.final"
THEME = theme_for(RuleId.FOUNDATION_FINAL, "bernauer")

# Base K. 9S on t3 can go home, and so can QD on t6; JS (under 9S) needs QD as its landing place,
# since 10S, which the spade foundation needs after 9S, lies under JS.
HOST = build("bernauer", "K", tableau={3: "10S JS 9S", 6: "QD"}, reserve={5: "QS"})
# ... after 9S went home: JS may go onto QD while QD could still go home.
HOST_AFTER = apply_move(HOST, move(HOST, "9S>f"))
# Base K. The diamond foundation waits for JD under QS, the spade one for JS under QD: no card can
# go home, and a Queen may go into an empty column.
NOTHING_HOME = build("bernauer", "K", tableau={1: "JD QS", 2: "JS QD"})
# Base K. Only a reserve top can go home (QD on r1); QS may go into an empty column.
RESERVE_HOME = build("bernauer", "K", tableau={1: "JS QS"}, reserve={1: "QD"})
# Base K. QD can go home while the last two cards wait in the stock (the deal is the third).
DEAL_PENDING = build("bernauer", "K", tableau={1: "QD"}, stock="JS QS")
# The Russian online game's foundations give their top card back: KS can go home, and the
# King-only empty column takes it too.
RETURNING = build("agnes-ru", tableau={1: "KS", 2: "KH"})

Row = tuple[Position, str, bool]

LESSON_MOVES: list[Row] = [
    (HOST, "QD>t1", True),  # a move into a column while 9S and QD could go home
    (HOST, "9S>f", False),  # a move home is the believer's own move
    (HOST, "QD>f", False),
    (HOST_AFTER, "JS>t6", True),  # the answer's move: JS onto QD, which could go home instead
    (HOST_AFTER, "QD>f", False),
    (NOTHING_HOME, "QS>t3", False),  # no card can go home: any move is the believer's too
    (NOTHING_HOME, "QD>t3", False),
    (RESERVE_HOME, "QS>t2", True),  # a reserve top that can go home counts as on offer
    (RESERVE_HOME, "QD>f", False),
    (RETURNING, "KS>t3", False),  # where foundations give cards back, nothing is final
    (RETURNING, "KS>f", False),
]


@pytest.mark.parametrize(("pos", "text", "uses"), LESSON_MOVES)
def test_the_lesson_move_is_a_card_kept_back_from_home(pos: Position, text: str, uses: bool) -> None:
    played = move(pos, text)
    assert played in legal_moves(pos)
    assert uses_foundation_final(pos, played) is uses
    # The believer forbids exactly the lesson moves, and the detector finds exactly them.
    assert (played not in THEME.believer.allowed(pos, [played])) is uses
    assert THEME.detect(Lesson(pos, (played,), within=1)) is uses


def test_a_deal_while_a_card_could_go_home_keeps_it_back() -> None:
    assert DEAL_MOVE in legal_moves(DEAL_PENDING)
    assert uses_foundation_final(DEAL_PENDING, DEAL_MOVE)
    assert THEME.believer.allowed(DEAL_PENDING, legal_moves(DEAL_PENDING)) == [move(DEAL_PENDING, "QD>f")]


HOME_CARDS: list[tuple[Position, set[str]]] = [
    (HOST, {"9S", "QD"}),
    (HOST_AFTER, {"QD"}),
    (NOTHING_HOME, set()),
    (RESERVE_HOME, {"QD"}),
    (DEAL_PENDING, {"QD"}),
    (RETURNING, {"KS", "KH"}),
]


@pytest.mark.parametrize(("pos", "cards"), HOME_CARDS)
def test_the_cards_on_offer_are_those_the_engine_lets_go_home(pos: Position, cards: set[str]) -> None:
    assert set(home_moves_on_offer(pos)) == {parse_card(c) for c in cards}
    assert set(home_moves_on_offer(pos)) == {m.card for m in legal_moves(pos) if m.dest.is_foundation}


def test_where_reserve_cards_may_not_go_home_they_are_not_on_offer() -> None:
    # Parlett's reserve cards go only to the columns: QD on r1 is the next diamond, yet not on offer.
    assert not get_profile("parlett").reserve_to_foundation
    pos = build("parlett", "K", tableau={1: "JS QS"}, reserve={1: "QD"})
    assert home_moves_on_offer(pos) == ()
    assert not any(m.dest.is_foundation for m in legal_moves(pos))


def test_the_theme_is_posed_wherever_foundations_are_final() -> None:
    final = {p for p in profile_ids() if not get_profile(p).foundation_return}
    assert set(THEME.profiles) == final
    assert "agnes-ru" not in final
    assert find_theme(RuleId.FOUNDATION_FINAL, "agnes-ru") is None


# ------------------------------------------------------------------ the library


@cache
def library() -> tuple[Scenario, ...]:
    return tuple(load_puzzles([LIBRARY]))


def _line(sc: Scenario) -> list[Move]:
    pos, out = sc.position, []
    for text in sc.solution or []:
        played = resolve(pos, text)
        out.append(played)
        pos = apply_move(pos, played)
    return out


def test_the_library_holds_the_theme() -> None:
    assert len(library()) >= 12
    assert all(sc.themes[0] == RuleId.FOUNDATION_FINAL for sc in library())


@pytest.mark.parametrize("sc", library(), ids=lambda sc: sc.id)
def test_the_eager_player_loses_and_the_key_wins(sc: Scenario) -> None:
    pos = sc.position
    assert lost_under(pos, THEME.believer) is True
    assert win_rate(pos, misconception_policy(THEME.believer), playouts=20) == 0
    after = pos
    for played in _line(sc):
        after = apply_move(after, played)
    assert finishes_home(after)


@pytest.mark.parametrize("sc", library(), ids=lambda sc: sc.id)
def test_the_key_explains_the_eager_move_home_by_the_rule(sc: Scenario) -> None:
    entries = explain_scenario(sc, _line(sc))
    cited = [e for e in entries if e.explanation.rule == RuleId.FOUNDATION_FINAL]
    assert cited, [str(m) for e in entries for m in e.moves]
    for entry in cited:
        assert all(m.dest.is_foundation for m in entry.moves)
        for lang in ("en", "ru", "es"):
            text = entry.explanation.text(lang)
            assert not re.search(r"\{\w+\}", text), text


def test_the_tempting_move_is_the_move_home_that_takes_the_landing_place() -> None:
    line = (move(HOST_AFTER, "JS>t6"),)
    losing = (move(HOST_AFTER, "QD>f"),)
    found = THEME.tempting(HOST_AFTER, line, losing)
    assert found is not None and found.rule is None and str(found.move) == "QD>f"
    # No losing move home: the losing move a player is drawn to most, as for any theme.
    other = THEME.tempting(HOST_AFTER, line, (move(HOST_AFTER, "QD>t1"),))
    assert other is not None and str(other.move) == "QD>t1"

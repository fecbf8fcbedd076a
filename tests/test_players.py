"""Players of our own (random, greedy home-first, each theme's misconception) and the
"lost when the permission is removed" search: positive and negative tables."""

from __future__ import annotations

import pytest

from agnes_teach.cards import parse_card
from agnes_teach.generator import THEMES
from agnes_teach.moves import DEAL_MOVE, Move
from agnes_teach.position import Position, parse_position
from agnes_teach.tagger.players import (
    MISCONCEPTIONS,
    PREDICATES,
    fatal_mistake_rate,
    lost_under,
    player,
    playout,
    win_rate,
)


def pos(**piles: object) -> Position:
    data: dict[str, object] = {"profile": "bernauer", "base": 5, "foundations": {},
                               "tableau": [[]] * 7, "reserve": [[]] * 7, "stock": [], "exposed": []}
    data.update(piles)
    return parse_position(data)


FULL = {"S": "4S", "H": "4H", "D": "4D"}
# Clubs 5..K home; A 2 3 4 out.  4♣ covers A♣ and can go only into an empty column.
NEEDS_EMPTY = pos(foundations={**FULL, "C": "KC"}, tableau=[[], "AC 4C", "2C", "3C", [], [], []])
# The same cards, 4♣ free: nothing needs the empty column.
NO_NEED = pos(foundations={**FULL, "C": "KC"}, tableau=[[], "AC", "2C", "4C 3C", [], [], []])
# Base 2: K♣ lies on the Q♣ the foundation needs first; its only way off is onto A♦ (tableau wrap).
NEEDS_WRAP = parse_position({
    "profile": "bernauer", "base": 2, "foundations": {"S": "AS", "H": "AH", "D": "KD", "C": "JC"},
    "tableau": ["QC KC", "AD", "AC", [], [], [], []], "reserve": [[]] * 7, "stock": [], "exposed": []})
FREE_KING = parse_position({
    "profile": "bernauer", "base": 2, "foundations": {"S": "AS", "H": "AH", "D": "KD", "C": "JC"},
    "tableau": ["QC", "AD KC", "AC", [], [], [], []], "reserve": [[]] * 7, "stock": [], "exposed": []})
# A run 4♠ 3♥ that may move whole into an empty column.
RUN = pos(foundations={"S": "2S", "H": "2H", "D": "4D", "C": "4C"},
          tableau=["4S 3H", "3S", "4H", [], [], [], []])

# Base 5, every suit home but 2♣ 3♣ 4♣.  Reserve: 3♣ lies on 2♣ (r1).  The believer never
# lifts 3♣, so 2♣ never comes free.
COVERED = pos(foundations={**FULL, "C": "AC"}, tableau=["4C", [], [], [], [], [], []],
              reserve=["2C 3C", [], [], [], [], [], []])

CASES = [  # (predicate, position, move, expected)
    ("non-king-into-empty-column", NEEDS_EMPTY, Move(parse_card("4C"), "t1"), True),
    ("non-king-into-empty-column", NEEDS_EMPTY, Move(parse_card("2C"), "f"), False),
    ("king-onto-ace", NEEDS_WRAP, Move(parse_card("KC"), "t2"), True),
    ("king-onto-ace", NEEDS_WRAP, Move(parse_card("KC"), "t3"), False),
    ("multi-card-move", RUN, Move(parse_card("4S"), "t4"), True),
    ("multi-card-move", RUN, Move(parse_card("3H"), "t4"), False),
    ("deal", NO_NEED, DEAL_MOVE, True),
    ("deal", NEEDS_EMPTY, Move(parse_card("4C"), "t1"), False),
]


@pytest.mark.parametrize(("name", "position", "move", "expected"), CASES)
def test_move_predicates(name: str, position: Position, move: Move, expected: bool) -> None:
    assert PREDICATES[name](position, move) is expected


def test_every_theme_names_a_misconception_with_a_known_predicate() -> None:
    assert set(MISCONCEPTIONS) == set(THEMES)
    for m in MISCONCEPTIONS.values():
        assert m.predicate in PREDICATES and m.kind in ("forbid", "force") and m.belief


@pytest.mark.parametrize(("theme", "position", "lost"), [
    ("tableau.empty", NEEDS_EMPTY, True),
    ("tableau.empty", NO_NEED, False),
    ("tableau.wrap", NEEDS_WRAP, True),
    ("tableau.wrap", FREE_KING, False),
])
def test_lost_when_the_permission_is_removed(theme: str, position: Position, lost: bool) -> None:
    assert lost_under(position, MISCONCEPTIONS[theme]) is lost


def test_the_search_answers_unknown_past_its_state_budget() -> None:
    # tableau.run has neither a restriction of the solver's tables nor an argument: the believer's
    # tree cannot show a loss here (the position is won), and one state is too few to explore.
    assert lost_under(NO_NEED, MISCONCEPTIONS["tableau.run"], max_states=1) is None


# Base 5, clubs to the K home: the A♣ must still follow the K (foundation.wrap's argument);
# under base A nothing wraps, so the argument says nothing.
WRAP_DUE = pos(foundations={**FULL, "C": "KC"}, tableau=["AC", "2C", "3C", "4C", [], [], []])
OPEN_SUIT = pos(foundations={"S": "4S", "H": "4H", "D": "4D"},
                tableau=["5C 6C 7C 8C 9C 10C JC QC KC AC 2C 3C 4C", [], [], [], [], [], []])


@pytest.mark.parametrize(("theme", "position", "lost"), [
    ("foundation.wrap", WRAP_DUE, True),  # by argument: the A♣ can never follow the K♣
    ("foundation.start", OPEN_SUIT, True),  # by argument: the club foundation is empty, base 5
    ("foundation.start", WRAP_DUE, None),  # no empty foundation: nothing the argument can say
])
def test_arguments_decide_from_the_position_alone(theme: str, position: Position, lost: bool | None) -> None:
    assert lost_under(position, MISCONCEPTIONS[theme], max_states=0, depth=0) is lost


def test_restricted_tables_remove_exactly_the_believers_moves() -> None:
    from agnes_teach.engine import legal_moves
    from agnes_teach.solver.fast import FastState
    from agnes_teach.tagger.players import RESTRICTIONS, restricted_rules

    for name, theme, position in (("no-tableau-wrap", "tableau.wrap", NEEDS_WRAP),
                                  ("empty-column-kings-only", "tableau.empty", NEEDS_EMPTY)):
        assert name in RESTRICTIONS
        state = FastState(position, restricted_rules(position, name))
        believed = sorted(str(state.engine_move(m)) for m in state.moves())
        allowed = MISCONCEPTIONS[theme].allowed(position, legal_moves(position))
        assert believed == sorted(str(m) for m in allowed)
        assert len(allowed) < len(legal_moves(position))


def test_win_rates_are_reproducible_shares() -> None:
    rate = win_rate(NEEDS_WRAP, player("random"), playouts=40, seed=1)
    assert 0 < rate < 1 and rate == win_rate(NEEDS_WRAP, player("random"), playouts=40, seed=1)
    assert win_rate(NEEDS_WRAP, player("tableau.wrap"), playouts=20) == 0.0
    assert win_rate(NEEDS_EMPTY, player("tableau.empty"), playouts=20) == 0.0
    assert win_rate(NO_NEED, player("greedy"), playouts=20) == 1.0


FATAL_CASES = [  # (position, player, fatal-mistake rate in 40 playouts, seed 1)
    (NO_NEED, "random", 0.0),  # no move loses: random play cannot fail it
    (NEEDS_EMPTY, "random", 0.0),
    (NEEDS_WRAP, "random", 0.5),  # some first moves bury K♣ for good
    (NEEDS_WRAP, "tableau.wrap", 1.0),  # the believer never lays K♣ on A♦
]


@pytest.mark.parametrize(("position", "name", "rate"), FATAL_CASES)
def test_fatal_mistake_rates(position: Position, name: str, rate: float) -> None:
    assert fatal_mistake_rate(position, player(name), playouts=40, seed=1) == rate


def test_criterion_one_counts_a_game_without_a_fatal_mistake_as_won() -> None:
    from agnes_teach.tagger.players import random_win_rate

    assert random_win_rate(NEEDS_WRAP, playouts=40, seed=1) == 1 - fatal_mistake_rate(
        NEEDS_WRAP, player("random"), playouts=40, seed=1) == 0.5
    assert random_win_rate(NO_NEED, playouts=10) == 1.0 and random_win_rate(COVERED, playouts=10) == 0.0
    # Playout i depends on (seed, i) alone: a shorter count is a prefix of a longer one.
    short = [random_win_rate(NEEDS_WRAP, playouts=n, seed=3) * n for n in (10, 20)]
    assert short[0] <= short[1] <= short[0] + 10


@pytest.mark.parametrize(("position", "bar", "rate"), [
    (NEEDS_WRAP, 0.35, None),  # half the games survive: the screen stops early and rejects
    (NEEDS_WRAP, 0.60, 0.5),  # under the bar: the full count's rate, never an early accept
    (NO_NEED, 0.35, None),
    (COVERED, 0.35, 0.0),
])
def test_the_screen_rejects_early_and_never_accepts_early(position: Position, bar: float,
                                                         rate: float | None) -> None:
    from agnes_teach.tagger.players import random_win_rate

    assert random_win_rate(position, playouts=40, seed=1, screen=bar) == rate


@pytest.mark.parametrize(("wins", "n", "low"), [(0, 20, 0.0), (12, 20, 0.329), (20, 20, 0.751), (0, 0, 0.0)])
def test_wilson_lower_bound(wins: int, n: int, low: float) -> None:
    from agnes_teach.tagger.players import wilson_low

    assert round(wilson_low(wins, n), 3) == low


def test_running_out_of_moves_is_not_a_fatal_mistake() -> None:
    import random

    # Capped at two moves, random play never finishes NO_NEED (a loss for the capped rate)...
    assert not any(playout(NO_NEED, player("random"), random.Random(s), max_moves=2) for s in range(10))
    # ...yet it has made no mistake that loses the game.
    assert fatal_mistake_rate(NO_NEED, player("random"), playouts=10, max_moves=2) == 0.0
    assert fatal_mistake_rate(COVERED, player("random"), playouts=10, max_moves=2) == 1.0  # lost already


UNCOVERED = pos(foundations={**FULL, "C": "AC"}, tableau=["4C", "3C", [], [], [], [], []],
                reserve=["2C", [], [], [], [], [], []])


def test_a_covered_reserve_card_is_lost_to_the_believer_by_argument() -> None:
    assert lost_under(COVERED, MISCONCEPTIONS["reserve.top"], max_states=0, depth=0) is True
    assert lost_under(UNCOVERED, MISCONCEPTIONS["reserve.top"], max_states=0, depth=0) is None


def _cells(x1: str, x2: str, tableau: list[object]) -> Position:
    return pos(foundations={**FULL, "C": "AC"}, tableau=tableau, exposed=[x1, x2])


@pytest.mark.parametrize(("x1", "x2", "lost"), [
    # x1 = 2♣ is needed first and x2 = 3♣ can go only home: the believer, who plays x1 only
    # after x2, is stuck; the real game plays 2♣ then 3♣.
    ("2C", "3C", True),
    # The other way round the believer plays x2 = 2♣ first and wins.
    ("3C", "2C", False),
])
def test_the_last_two_believer_plays_x1_only_after_x2(x1: str, x2: str, lost: bool) -> None:
    from agnes_teach.tagger.players import TRANSFORMS

    position = _cells(x1, x2, ["4C", [], [], [], [], [], []])
    believed = TRANSFORMS["exposed-cells-as-one-pile"](position)
    assert believed is not None and believed.exposed[1] == ()
    assert lost_under(position, MISCONCEPTIONS["stock.last-two"], max_states=0, depth=0) is lost


def test_a_playout_asks_the_solver_at_doubling_gaps() -> None:
    from agnes_teach.tagger.players import CHECK_POINTS, check_points

    assert sorted(CHECK_POINTS) == [0, 15, 30, 60, 120, 240, 480, 960, 1920]
    assert sorted(check_points(2, 10)) == [0, 2, 4, 8]

"""Players of our own (random, greedy home-first, each theme's misconception) and the
"lost when the permission is removed" search: positive and negative tables."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from _solver_util import ALL_PROFILES, random_small_position
from hypothesis import given, settings
from hypothesis import strategies as st

from agnes_teach.cards import parse_card
from agnes_teach.moves import DEAL_MOVE, Move
from agnes_teach.position import Position, parse_position
from agnes_teach.tagger.misconception import Misconception
from agnes_teach.tagger.players import (
    fatal_mistake_rate,
    lost_under,
    player,
    playout,
    win_rate,
)
from agnes_teach.themes import all_themes, theme_for


def believer(rule: str) -> Misconception:
    """The misconception of `rule`'s theme in the profile these positions are of."""
    return theme_for(rule, "bernauer").believer


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
# A♦ with K♣ on it lies on Q♣, which its foundation needs next: the pair must move away as one run
# (into an empty column, which base 2 opens to an Ace), and only the wrap makes it one.
PAIR_ON_QUEEN = parse_position({
    "profile": "bernauer", "base": 2, "foundations": {"S": "AS", "H": "AH", "D": "KD", "C": "JC"},
    "tableau": ["QC AD KC", [], "AC", [], [], [], []], "reserve": [[]] * 7, "stock": [], "exposed": []})
# A run 4♠ 3♥ that may move whole into an empty column.
RUN = pos(foundations={"S": "2S", "H": "2H", "D": "4D", "C": "4C"},
          tableau=["4S 3H", "3S", "4H", [], [], [], []])

# Base 5, every suit home but 2♣ 3♣ 4♣.  Reserve: 3♣ lies on 2♣ (r1).  The believer never
# lifts 3♣, so 2♣ never comes free.
COVERED = pos(foundations={**FULL, "C": "AC"}, tableau=["4C", [], [], [], [], [], []],
              reserve=["2C 3C", [], [], [], [], [], []])

CASES = [  # (the theme whose belief's predicate, position, move, expected)
    ("tableau.empty", NEEDS_EMPTY, Move(parse_card("4C"), "t1"), True),
    ("tableau.empty", NEEDS_EMPTY, Move(parse_card("2C"), "f"), False),
    ("tableau.wrap", NEEDS_WRAP, Move(parse_card("KC"), "t2"), True),
    ("tableau.wrap", NEEDS_WRAP, Move(parse_card("KC"), "t3"), False),
    # K♣ lies on A♦: they are no run without the wrap.
    ("tableau.wrap", PAIR_ON_QUEEN, Move(parse_card("AD"), "t4"), True),
    ("tableau.wrap", FREE_KING, Move(parse_card("KC"), "f"), False),
    ("tableau.run", RUN, Move(parse_card("4S"), "t4"), True),
    ("tableau.run", RUN, Move(parse_card("3H"), "t4"), False),
    ("stock.deal", NO_NEED, DEAL_MOVE, True),
    ("stock.deal", NEEDS_EMPTY, Move(parse_card("4C"), "t1"), False),
]


@pytest.mark.parametrize(("theme", "position", "move", "expected"), CASES)
def test_move_predicates(theme: str, position: Position, move: Move, expected: bool) -> None:
    assert believer(theme).predicate(position, move) is expected


def test_every_theme_has_a_misconception_with_a_predicate() -> None:
    for theme in all_themes():
        m = theme.believer
        assert callable(m.predicate) and m.kind in ("forbid", "force", "add", "widen") and m.belief, theme.id


# Base 5, clubs to the K home, the A♣ 2♣ 3♣ 4♣ in four columns: the A♣ follows the K♣ only as
# the game ends, when the moves home alone finish it.
WRAP_DUE = pos(foundations={**FULL, "C": "KC"}, tableau=["AC", "2C", "3C", "4C", [], [], []])
# The A♣ lies on the 4♥ that 3♣ must go onto to free 2♣: the wrap is needed before the end.
HOST_UNDER_ACE = pos(foundations={"S": "4S", "H": "3H", "D": "4D", "C": "KC"},
                     tableau=["2C 3C", "4H AC", "4C", [], [], [], []])
# The club foundation is empty and its thirteen cards lie in the order they go home.
ONE_SUIT_IN_ORDER = pos(foundations={"S": "4S", "H": "4H", "D": "4D"},
                        tableau=["4C 3C 2C AC KC QC JC 10C 9C 8C 7C 6C 5C", [], [], [], [], [], []])
# 4♠ lies on the 3♠ its foundation needs and can only go into an empty column, which only 5♣, the
# base card that opens the club foundation, can leave behind.
OPEN_FIRST = pos(foundations={"S": "2S", "H": "4H", "D": "4D"},
                 tableau=["5C", "3S 4S", "4C 3C 2C AC", "KC QC JC", "10C 9C 8C", "7C", "6C"])
# 4♣ covers 2♣ in a reserve pile; it must go into an empty column before 2♣ can go home.
COVERED_BY_FOUR = pos(foundations={**FULL, "C": "AC"}, tableau=["3C", [], [], [], [], [], []],
                      reserve=["2C 4C", [], [], [], [], [], []])
# 2♣ covers 3♣ in a reserve pile, and goes home first: uncovering it is a move home at the end.
UNCOVERED_AT_THE_END = pos(foundations={**FULL, "C": "AC"}, tableau=["4C", [], [], [], [], [], []],
                           reserve=["3C 2C", [], [], [], [], [], []])


@pytest.mark.parametrize(("theme", "position", "lost"), [
    ("tableau.empty", NEEDS_EMPTY, True),
    ("tableau.empty", NO_NEED, False),
    ("tableau.wrap", NEEDS_WRAP, True),
    ("tableau.wrap", FREE_KING, False),
    ("tableau.wrap", PAIR_ON_QUEEN, True),  # the believer sees no run to move
    ("tableau.run", RUN, False),
    ("foundation.wrap", WRAP_DUE, False),
    ("foundation.wrap", HOST_UNDER_ACE, True),
    ("foundation.start", ONE_SUIT_IN_ORDER, False),
    ("foundation.start", OPEN_FIRST, True),
    ("reserve.top", COVERED_BY_FOUR, True),
    ("reserve.top", UNCOVERED_AT_THE_END, False),
])
def test_lost_when_the_permission_is_removed(theme: str, position: Position, lost: bool) -> None:
    assert lost_under(position, believer(theme)) is lost
    # The misconception player agrees: it wins where the believer reaches the goal.
    assert win_rate(position, player(theme), playouts=20) == (0.0 if lost else 1.0)


@pytest.mark.parametrize(("position", "finish"), [
    (WRAP_DUE, True), (ONE_SUIT_IN_ORDER, True), (UNCOVERED_AT_THE_END, True), (NO_NEED, True),
    (NEEDS_EMPTY, False),  # 4♣ covers A♣ and goes home last
    (HOST_UNDER_ACE, False), (COVERED_BY_FOUR, False),
    # 2♣ and 3♣ are still in the stock: a deal is no move home.
    (pos(foundations={**FULL, "C": "AC"}, tableau=["4C", [], [], [], [], [], []], stock=["2C", "3C"]), False),
])
def test_the_believers_goal_is_a_position_the_moves_home_finish(position: Position, finish: bool) -> None:
    from agnes_teach.engine import finishes_home

    assert finishes_home(position) is finish


# Base 4, spades to the K home: A♠ lies on the 3♠ that must go into an empty column to free 2♠.
# The believer can play 3♣ home, and nothing else: two states.
ACE_ON_THREE = parse_position({
    "profile": "bernauer", "base": 4, "foundations": {"S": "KS", "H": "3H", "D": "3D", "C": "2C"},
    "tableau": [[], [], [], "2S 3S AS", [], [], "3C"], "reserve": [[]] * 7, "stock": [], "exposed": []})


def test_the_search_answers_unknown_past_its_state_budget() -> None:
    # The real game is won, so the believer's tree cannot show a loss: the search decides, and one
    # state is too few for it.  (4♣ wandering between empty columns in HOST_UNDER_ACE is one state:
    # positions equal up to the order of columns are one.)
    wrap = believer("foundation.wrap")
    assert lost_under(ACE_ON_THREE, wrap, max_states=1) is None
    assert lost_under(ACE_ON_THREE, wrap, max_states=2) is True
    assert lost_under(HOST_UNDER_ACE, wrap, max_states=1) is True
    # A goal needs no state beyond the position itself.
    assert lost_under(WRAP_DUE, wrap, max_states=0, depth=0) is False


def test_restricted_tables_remove_exactly_the_believers_moves() -> None:
    from agnes_teach.engine import legal_moves
    from agnes_teach.solver.fast import FastState
    from agnes_teach.tagger.players import restricted_rules

    for theme, position in (("tableau.wrap", NEEDS_WRAP),
                            ("tableau.wrap", PAIR_ON_QUEEN),
                            ("tableau.run", RUN),
                            ("tableau.empty", NEEDS_EMPTY)):
        restriction = believer(theme).restriction
        assert restriction is not None
        rules = restricted_rules(position, restriction)
        assert rules is not None
        state = FastState(position, rules)
        believed = sorted(str(state.engine_move(m)) for m in state.moves())
        allowed = believer(theme).allowed(position, legal_moves(position))
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


def test_a_covered_reserve_card_is_no_proof_on_its_own() -> None:
    # COVERED is lost in the real game (3♣ can never leave 2♣): the believer's tree shows it with
    # no search.  UNCOVERED has no covered card: the moves home finish it at once.
    top = believer("reserve.top")
    assert lost_under(COVERED, top, max_states=0, depth=0) is True
    assert lost_under(UNCOVERED, top, max_states=0, depth=0) is False
    # A covered card the believer never frees, but the last moves home do: not lost.
    assert lost_under(UNCOVERED_AT_THE_END, top, max_states=0, depth=0) is False
    # Without the tree, the search needs the one state the believer can reach.
    assert lost_under(COVERED_BY_FOUR, top, max_states=1, depth=0) is True


def test_the_misconception_player_learns_the_rule_only_at_the_very_end() -> None:
    import random

    # In WRAP_DUE the believer never lays the A♣ on the K♣, yet once the moves home alone finish
    # the game the player plays them: the game ends won.
    wrap = player("foundation.wrap")
    assert all(playout(WRAP_DUE, wrap, random.Random(s)) for s in range(5))
    assert not any(playout(HOST_UNDER_ACE, wrap, random.Random(s)) for s in range(5))


def _cells(x1: str, x2: str, tableau: list[object]) -> Position:
    return pos(foundations={**FULL, "C": "AC"}, tableau=tableau, exposed=[x1, x2])


# Base 6.  x1 = 5♥ must go into an empty column for 4♣ to leave 3♣; x2 = 4♦ can go nowhere yet,
# so the believer, who plays x1 only after x2, is stuck long before the moves home could finish.
X1_FIRST = parse_position({
    "profile": "bernauer", "base": 6, "foundations": {"S": "5S", "H": "4H", "D": "2D", "C": "2C"},
    "tableau": ["5C 5D 3D 3C 4C", [], [], [], [], [], []], "reserve": [[]] * 7, "stock": [],
    "exposed": ["5H", "4D"]})


@pytest.mark.parametrize(("position", "lost"), [
    # x1 = 2♣ goes home before x2 = 3♣: a believer stuck only there is at the goal, as the moves
    # home alone finish the game (the transformed game, x2 on x1, is lost: no proof either way).
    (_cells("2C", "3C", ["4C", [], [], [], [], [], []]), False),
    # The other way round the believer plays x2 = 2♣ first and wins (the transformed game is won).
    (_cells("3C", "2C", ["4C", [], [], [], [], [], []]), False),
    (X1_FIRST, True),
])
def test_the_last_two_believer_plays_x1_only_after_x2(position: Position, lost: bool) -> None:
    last_two = believer("stock.last-two")
    assert last_two.transform is not None
    believed = last_two.transform(position)
    assert believed is not None and believed.exposed[1] == ()
    assert lost_under(position, last_two) is lost


def test_a_playout_asks_the_solver_at_doubling_gaps() -> None:
    from agnes_teach.tagger.players import CHECK_POINTS, check_points

    assert sorted(CHECK_POINTS) == [0, 15, 30, 60, 120, 240, 480, 960, 1920]
    assert sorted(check_points(2, 10)) == [0, 2, 4, 8]


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), profile=st.sampled_from(ALL_PROFILES), left=st.integers(3, 9))
def test_every_proof_of_a_belief_agrees_with_the_believers_search(seed: int, profile: str, left: int) -> None:
    # A restriction of the solver's tables and a transformed position are shortcuts: the believer's
    # search over the same belief, with neither, must reach the same verdict.  The restricted
    # tables give the compiled core and the Python search the same verdict too.
    from dataclasses import replace

    from agnes_teach.solver import solve
    from agnes_teach.solver.compiled import AVAILABLE, supports
    from agnes_teach.solver.fast import FastState
    from agnes_teach.tagger.players import restricted_rules

    position = random_small_position(random.Random(seed), profile, left, stack_share=0.5)
    for taught in all_themes():
        theme, misconception = taught.id, taught.believer
        # A *widen* belief's widened tables are its game itself, not a shortcut to a verdict.
        if profile not in taught.profiles or position.profile.cannot_use(theme) \
                or not (misconception.restriction or misconception.transform) \
                or misconception.kind == "widen":
            continue
        proved = lost_under(position, misconception)
        plain = replace(misconception, restriction=None, transform=None)
        searched = lost_under(position, plain, max_states=20_000, depth=0)
        assert None in (proved, searched) or proved == searched, (theme, position.to_data())
        rules = restricted_rules(position, misconception.restriction) if misconception.restriction else None
        if rules is not None and AVAILABLE and supports(FastState(position, rules)):
            verdicts = {solve(position, nodes=50_000, rules=rules, engine=e).status for e in ("c", "python")}
            assert len(verdicts) == 1, (theme, position.to_data())


def test_a_rate_near_the_bar_is_confirmed_by_more_games_with_another_seed() -> None:
    from agnes_teach.scenario import load_scenario
    from agnes_teach.tagger.players import CONFIRM_ABOVE, confirmed_random_rate, random_win_rate

    examples = Path(__file__).resolve().parent.parent / "agnes_teach" / "data" / "examples"
    easy = load_scenario(examples / "section-08.yaml").position  # the worked example: random play wins often
    rate = random_win_rate(easy, 20)
    assert rate is not None and rate > 0.5
    assert confirmed_random_rate(easy, CONFIRM_ABOVE)  # at or under 20%: nothing more to play
    assert not confirmed_random_rate(easy, 0.25)  # the 300 more games win far more than 27%

"""Three readings of "this move uses the theme's rule" agree, move by move, for every theme.

* the detector: the theme's lesson move (``Theme.lesson_move``), what its
  ``Theme.detect`` looks for in a line (a one-move line is detected exactly when
  its move is one; reserve.top's detector also wants the uncovered card played
  next);
* the misconception: the moves ``Misconception.allowed`` leaves out, which the
  misconception player never plays before the moves home alone finish the game;
* the solver's tables restricted by the belief (``players.restricted_rules``),
  where the theme has a restriction: their move generator yields exactly the
  moves the belief allows.

Every theme of the registry (``themes.all_themes``) is held to it, each on
the positions of the profiles it is posed for: every position along the
solution lines of the library's puzzles, positions of random games (long runs,
Kings on Aces), and random small positions of every profile (hypothesis).  A
theme whose lesson is no single move (stock.deal) cannot agree by nature, and
its test says why.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest
from _solver_util import ALL_PROFILES, random_small_position, random_walk
from hypothesis import given, settings
from hypothesis import strategies as st

from agnes_teach.cards import card_name
from agnes_teach.engine import (
    apply_move,
    apply_unchecked,
    finishes_home,
    legal_moves,
    locate,
    refusal,
    resolve,
)
from agnes_teach.moves import DEAL_MOVE, Move
from agnes_teach.piles import Pile
from agnes_teach.position import Position
from agnes_teach.registry import RuleId
from agnes_teach.scenario import load_puzzles
from agnes_teach.solver.fast import FastState, Rules
from agnes_teach.tagger.answer import answer_cut
from agnes_teach.tagger.detectors import Lesson
from agnes_teach.tagger.misconception import Restriction, added_moves
from agnes_teach.tagger.players import misconception_policy, restricted_rules
from agnes_teach.themes import Theme, all_themes, theme_for
from agnes_teach.themes.reserve_top import uncovers_reserve

PUZZLES = Path(__file__).resolve().parent.parent / "puzzles"
WHOLE_GAME = PUZZLES.parent / "tests" / "fixtures" / "whole-game"  # the earlier whole-game puzzles
# Every theme whose belief forbids moves, named "rule@first profile" in the test ids.
FORBIDDING = [t for t in all_themes() if t.believer.kind == "forbid"]
FORCING = [t for t in all_themes() if t.believer.kind == "force"]
# Every theme whose belief adds moves the rules refuse (it forbids none, so it agrees differently:
# ``test_an_added_belief_forbids_nothing_and_adds_only_its_rules_refusals``).
ADDING = [t for t in all_themes() if t.believer.kind == "add"]

# ... and every theme whose belief widens the solver's game by the moves the rules refuse.
WIDENING = [t for t in all_themes() if t.believer.kind == "widen"]


def _name(theme: Theme) -> str:
    return f"{theme.id}@{theme.profiles[0]}"


def _poses(theme: Theme, pos: Position) -> bool:
    """Is `theme` posed for the profile of `pos`, and can the profile use its rule at all?"""
    return pos.profile.id in theme.profiles and not pos.profile.cannot_use(theme.id)


@cache
def library_positions() -> tuple[Position, ...]:
    """Every other position on the solution line of every library puzzle and every earlier
    whole-game one (they hold the lesson moves the small set lacks, stock.last-two's), from its
    start to where only moves home are left (after that every position is one more card home)."""
    out: list[Position] = []
    for scenario in load_puzzles([PUZZLES, WHOLE_GAME]):
        pos = scenario.position
        line = list(scenario.solution or [])
        for i, move in enumerate(line[:answer_cut(pos, line) + 1]):
            if i % 2 == 0:
                out.append(pos)
            pos = apply_move(pos, move)
    return tuple(out)


@cache
def game_positions() -> tuple[Position, ...]:
    """Positions of random games of every profile: runs build up, and Kings land on Aces."""
    return tuple(p for profile in ALL_PROFILES for seed in (1, 2, 3)
                 for p in random_walk(seed, profile, 150, home_bias=0.2)[::3])


def detector_says(theme: Theme, pos: Position, move: Move) -> bool:
    """Does the theme's detector count `move`, played now, as the lesson?"""
    assert theme.lesson_move is not None, theme.id
    said = theme.lesson_move(pos, move)
    if theme.rule == RuleId.RESERVE_TOP:
        # The detector wants the uncovered card played afterwards: try each way of playing it.
        under = uncovers_reserve(pos, move)
        after = apply_unchecked(pos, move)
        follow = [m for m in legal_moves(after) if under is not None and m.card == under]
        assert all(theme.detect(Lesson(pos, (move, m), within=2)) for m in follow)
        assert not theme.detect(Lesson(pos, (move,), within=1))
    else:
        assert theme.detect(Lesson(pos, (move,), within=1)) == said, (theme.id, str(move))
    return said


# Restricted tables per profile, base and restriction: they read nothing else of a position.
TABLES: dict[tuple[str, int, Restriction], Rules | None] = {}


def restricted_moves(pos: Position, theme: Theme) -> set[str] | None:
    """The moves the solver's restricted tables generate (None: the theme has no restriction here)."""
    restriction = theme.believer.restriction
    if restriction is None:
        return None
    key = (pos.profile.id, pos.base, restriction)
    if key not in TABLES:
        TABLES[key] = restricted_rules(pos, restriction)
    rules = TABLES[key]
    if rules is None:
        return None
    state = FastState(pos, rules)
    return {str(state.engine_move(m)) for m in state.moves()}


def disagreements(pos: Position, theme: Theme) -> Iterator[str]:
    """Every way the three readings differ on the legal moves of `pos` (none when they agree)."""
    misconception = theme.believer
    moves = legal_moves(pos)
    allowed = set(misconception.allowed(pos, moves))
    for move in moves:
        forbidden = move not in allowed
        if forbidden != detector_says(theme, pos, move):
            yield f"{theme}: {move} forbidden={forbidden}, the detector disagrees"
        if forbidden and misconception.restriction and move.dest.is_foundation:
            yield f"{theme}: {move} goes home, yet a restriction of the tables forbids it"
    believed = restricted_moves(pos, theme)
    if believed is not None and believed != {str(m) for m in allowed}:
        yield f"{theme}: the restricted tables give {sorted(believed ^ {str(m) for m in allowed})} apart"
    if not finishes_home(pos):
        choice = misconception_policy(misconception)(pos, moves, random.Random(0))
        if choice is not None and choice not in allowed:
            yield f"{theme}: the misconception player plays {choice}, which the belief forbids"


def test_every_theme_has_a_reading_of_each_kind() -> None:
    assert FORBIDDING and len(FORBIDDING) + len(FORCING) + len(ADDING) + len(WIDENING) == len(all_themes())
    # A forbidding belief denies the lesson move; a forcing one's lesson is a move not made.
    assert all(t.lesson_move is not None for t in FORBIDDING)
    assert all(t.lesson_move is None for t in FORCING)
    for theme in FORBIDDING:
        assert theme.detect.__doc__, theme.id


@pytest.mark.parametrize("theme", FORBIDDING, ids=_name)
def test_the_three_agree_along_the_library_lines(theme: Theme) -> None:
    problems = [p for pos in library_positions() if pos.profile.id in theme.profiles
                for p in disagreements(pos, theme)]
    assert not problems, problems[:5]


@pytest.mark.parametrize("theme", FORBIDDING, ids=_name)
def test_the_three_agree_in_random_games(theme: Theme) -> None:
    positions = [p for p in game_positions() if _poses(theme, p)]
    problems = [p for pos in positions for p in disagreements(pos, theme)]
    assert not problems, problems[:5]


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), profile=st.sampled_from(ALL_PROFILES), left=st.integers(4, 20))
def test_the_three_agree_on_random_small_positions(seed: int, profile: str, left: int) -> None:
    pos = random_small_position(random.Random(seed), profile, left, stack_share=0.5)
    problems = [p for theme in FORBIDDING if _poses(theme, pos) for p in disagreements(pos, theme)]
    assert not problems, problems[:5]


def test_the_library_lines_hold_every_kind_of_lesson_move() -> None:
    # The agreement above is tested on moves of each kind, not vacuously.
    seen = {_name(theme): 0 for theme in FORBIDDING}
    for pos in library_positions():
        for move in legal_moves(pos):
            for theme in FORBIDDING:
                assert theme.lesson_move is not None
                seen[_name(theme)] += pos.profile.id in theme.profiles and theme.lesson_move(pos, move)
    assert all(seen.values()), seen


def test_a_king_on_an_ace_moving_with_it_uses_the_wrap() -> None:
    # The tableau.wrap puzzle of deal 6001, after its first eight moves: A♥ with K♠ on it moves
    # onto 2♠ as one run.  Without the wrap K♠ on A♥ is no run, so the belief cannot make the
    # move, the detector counts it, and the restricted tables (which once kept it in their move
    # generator while their dead-end test read the pair as no run) drop it.
    (scenario,) = load_puzzles([WHOLE_GAME / "tableau.wrap" / "tableau-wrap-d6001-m56.yaml"])
    pos = scenario.position
    line = list(scenario.solution or [])
    for move in line[:8]:
        pos = apply_move(pos, move)
    run = resolve(pos, line[8])
    assert str(run) == "AH>t5" and run.card is not None
    place = locate(pos, run.card)
    assert [card_name(c) for c in pos.tableau[place.index][place.depth:]] == ["AH", "KS"]
    wrap = theme_for(RuleId.TABLEAU_WRAP, pos.profile.id)
    assert detector_says(wrap, pos, run)
    assert run not in wrap.believer.allowed(pos, legal_moves(pos))
    believed = restricted_moves(pos, wrap)
    assert believed is not None and str(run) not in believed
    assert not list(disagreements(pos, wrap))


def test_stock_deal_forces_a_move_and_its_lesson_is_no_move() -> None:
    # The three cannot agree by nature here: the belief forbids nothing (it forces the deal when
    # no card can go home), the lesson is a deal *not* made, which no single move shows (the
    # detector reads the line and the losing first moves), and a force is no restriction of the
    # tables.  What the filter does is pinned instead.
    deal = theme_for(RuleId.STOCK_DEAL, "bernauer")
    misconception = deal.believer
    assert misconception.kind == "force" and misconception.restriction is None
    assert deal.lesson_move is None
    checked = 0
    for pos in (*library_positions(), *game_positions()):
        if pos.profile.id not in deal.profiles:
            continue
        moves = legal_moves(pos)
        allowed = misconception.allowed(pos, moves)
        if DEAL_MOVE in moves and not any(m.dest.is_foundation for m in moves):
            assert allowed == [DEAL_MOVE]
            checked += 1
        else:
            assert allowed == moves
        assert not deal.detect(Lesson(pos, (DEAL_MOVE,), (DEAL_MOVE,)))
    assert checked


@pytest.mark.parametrize("theme", ADDING, ids=_name)
def test_an_added_belief_forbids_nothing_and_adds_only_its_rules_refusals(theme: Theme) -> None:
    # The believer may make every legal move; each move it adds is one the engine refuses, and
    # refuses first by the theme's own rule (so the key can cite it). Along the library's lines
    # and in random games, and the added moves are not vacuous there.
    positions = [p for p in (*library_positions(), *game_positions()) if _poses(theme, p)]
    added = 0
    for pos in positions:
        moves = legal_moves(pos)
        assert theme.believer.allowed(pos, moves) == moves
        got = added_moves(pos, theme.believer)
        # Asking only the piles the belief names (dest_kinds) leaves out no move it would add.
        assert got == added_moves(pos, dataclasses.replace(theme.believer, dest_kinds=None))
        for move in got:
            why = refusal(pos, move)
            assert why is not None and why.rule == theme.rule, (theme.id, str(move))
            added += 1
    assert added, theme.id

def widened_moves(pos: Position, theme: Theme) -> set[Move] | None:
    """The moves of an *add* believer's game: the move generator on the tables its belief widens
    (None where the tables cannot say the belief)."""
    restriction = theme.believer.restriction
    assert restriction is not None, theme.id
    rules = Rules(pos)
    if not restriction(rules):
        return None
    state = FastState(pos, rules)
    return {state.engine_move(m) for m in state.moves()}


def column_moves(pos: Position) -> Iterator[Move]:
    """Every card of a column sent, with what lies on it, to every other column: the candidates a
    belief about what moves together may add."""
    columns = [Pile.column(j + 1) for j in range(pos.profile.columns)]
    for i, column in enumerate(pos.tableau):
        for card in column:
            yield from (Move(card, dest) for dest in columns if dest.offset != i)


@pytest.mark.parametrize("theme", WIDENING, ids=_name)
def test_a_widening_belief_widens_the_game_by_exactly_its_moves(theme: Theme) -> None:
    """The believer's game (the widened tables) holds every real move and exactly the refused
    moves the belief's predicate names, no other."""
    checked = 0
    for pos in (*library_positions(), *game_positions()):
        if not _poses(theme, pos):
            continue
        believed = widened_moves(pos, theme)
        assert believed is not None, theme.id
        real = set(legal_moves(pos))
        added = {m for m in column_moves(pos) if theme.believer.predicate(pos, m)}
        assert not real & added, (theme.id, sorted(map(str, real & added)))
        assert believed == real | added, (theme.id, sorted(map(str, believed ^ (real | added))))
        checked += bool(added)
    assert checked, theme.id

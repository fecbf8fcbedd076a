"""Theme detectors: one pure predicate per rule use, and one detector per theme.

A detector looks at a puzzle's facts (position, winning line, first moves
proved losing) and says whether the line really *uses* the rule early on; the
generator never just asserts a theme.  Detectors are pure functions of their
arguments, in the style of a chess-puzzle tagger (kept apart from the
builders, as a tagger is kept apart from the generator), and each has positive
and negative tables in the tests.  ``rule_of`` names the rule any legal move
applies, for counting the rules a line needs.

What a detector looks for in a line is one move predicate per theme
(``LESSON_MOVES``): the theme's rule applied where the theme's misconception
denies it.  The misconception players forbid exactly those moves and the
solver's restricted tables drop exactly them (``tests/test_theme_agreement.py``
checks the three agree move by move).  A move the rule allows *and* the belief
allows (a King into an empty column when the base is an Ace, x2 played) uses
the rule but teaches nothing against the belief, so no detector counts it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..cards import Card, rank_of
from ..engine import apply_move, locate, refusal
from ..moves import DEAL_MOVE, Move
from ..piles import PileKind
from ..position import Position
from ..predicates import (
    rule_used,
    uses_foundation_start,
    uses_foundation_wrap,
    uses_stock_last_two,
    uses_tableau_empty,
    uses_tableau_run,
    uses_tableau_wrap,
)
from ..registry import RuleId

LESSON_WINDOW = 3  # the rule must be used within this many moves of the solution


@dataclass(frozen=True)
class Lesson:
    """What a detector may look at: pure data, no solver calls."""

    position: Position
    line: tuple[Move, ...]  # a winning line from `position`
    losing: tuple[Move, ...] = ()  # first moves proved to lose
    within: int = LESSON_WINDOW


def _steps(lesson: Lesson) -> list[tuple[Position, Move]]:
    """The first `within` moves of the line with the position before each (stops at an illegal one)."""
    out: list[tuple[Position, Move]] = []
    pos = lesson.position
    for move in lesson.line[: lesson.within]:
        if refusal(pos, move) is not None:
            break
        out.append((pos, move))
        pos = apply_move(pos, move)
    return out


def available(pos: Position) -> list[Card]:
    """Cards that can be picked up now: column tops, reserve tops, exposed cards."""
    out: list[Card] = []
    for group in (pos.tableau, pos.reserve, pos.exposed):
        out.extend(pile[-1] for pile in group if pile)
    return out


# ------------------------------------------------------------- rule uses


# The predicates themselves live beside the refusing ones (agnes_teach.predicates), so the
# detectors, the players and the generator's rating read one definition of each use.
wraps_foundation = uses_foundation_wrap
fills_empty_column = uses_tableau_empty
wraps_tableau = uses_tableau_wrap
moves_run = uses_tableau_run
plays_exposed = uses_stock_last_two
starts_foundation = uses_foundation_start


def rule_of(pos: Position, move: Move) -> str:
    """The rule a legal move applies, for counting how many rules a line needs (the rating, the
    checker's theme use)."""
    return rule_used(pos, move)


def uncovers_reserve(pos: Position, move: Move) -> Card | None:
    """The card a move uncovers on a reserve pile, if it takes the top of a pile of two or more."""
    if move.card is None:
        return None
    place = locate(pos, move.card)
    if place.kind is not PileKind.RESERVE:
        return None
    pile = pos.reserve[place.index]
    return pile[-2] if len(pile) >= 2 and place.depth == len(pile) - 1 else None


# ------------------------------------------------------------ lesson moves
#
# Each theme's lesson move: its rule used where the theme's misconception says the move cannot be
# made.  The detectors look for these, the misconceptions forbid them (``players.PREDICATES``).

MovePredicate = Callable[[Position, Move], bool]


def non_king_into_empty(pos: Position, move: Move) -> bool:
    """A card other than a King (or a run led by one) goes into an empty column, as the rule lets it."""
    return fills_empty_column(pos, move) and move.card is not None and rank_of(move.card) != 13


def uncovers_reserve_card(pos: Position, move: Move) -> bool:
    """A reserve top that covers another card is moved off it (home or onto a column)."""
    return uncovers_reserve(pos, move) is not None


def plays_lower_exposed(pos: Position, move: Move) -> bool:
    """The first exposed cell is played while the second still holds a card (as if x2 covered x1)."""
    if not plays_exposed(pos, move) or move.card is None:
        return False
    place = locate(pos, move.card)
    return any(pos.exposed[place.index + 1:])


def starts_foundation_not_ace(pos: Position, move: Move) -> bool:
    """An empty foundation is opened by its base card, which is not an Ace."""
    return starts_foundation(pos, move) and move.card is not None and rank_of(move.card) != 1


# The lesson move of every theme whose detector looks for one.  stock.deal's lesson is a deal *not*
# made, which no single move shows: its detector reads the line and the losing first moves.
LESSON_MOVES: dict[str, MovePredicate] = {
    RuleId.FOUNDATION_WRAP: wraps_foundation,
    RuleId.TABLEAU_EMPTY: non_king_into_empty,
    RuleId.TABLEAU_WRAP: wraps_tableau,
    RuleId.TABLEAU_RUN: moves_run,
    RuleId.STOCK_LAST_TWO: plays_lower_exposed,
    RuleId.RESERVE_TOP: uncovers_reserve_card,
    RuleId.FOUNDATION_START: starts_foundation_not_ace,
}


# -------------------------------------------------------------- detectors


def _uses(rule_use: Callable[[Position, Move], bool]) -> Callable[[Lesson], bool]:
    def detect(lesson: Lesson) -> bool:
        return any(rule_use(pos, move) for pos, move in _steps(lesson))

    detect.__doc__ = f"The line uses the rule within its first moves: {rule_use.__doc__}"
    return detect


detect_foundation_wrap = _uses(LESSON_MOVES[RuleId.FOUNDATION_WRAP])
detect_tableau_empty = _uses(LESSON_MOVES[RuleId.TABLEAU_EMPTY])
detect_tableau_wrap = _uses(LESSON_MOVES[RuleId.TABLEAU_WRAP])
detect_tableau_run = _uses(LESSON_MOVES[RuleId.TABLEAU_RUN])
detect_stock_last_two = _uses(LESSON_MOVES[RuleId.STOCK_LAST_TWO])
detect_foundation_start = _uses(LESSON_MOVES[RuleId.FOUNDATION_START])


def detect_reserve_top(lesson: Lesson) -> bool:
    """The line takes a reserve top off a covered card, then plays that card, early on."""
    steps = _steps(lesson)
    for i, (pos, move) in enumerate(steps):
        under = uncovers_reserve(pos, move)
        if under is not None and any(m.card == under for _, m in steps[i + 1:]):
            return True
    return False


def detect_stock_deal(lesson: Lesson) -> bool:
    """Dealing now is legal and proved to lose, it would cover a reserve card, and the line
    wins by first playing a card off a pile the deal would cover."""
    pos = lesson.position
    if not pos.stock or DEAL_MOVE not in lesson.losing or not lesson.line:
        return False
    targets = pos.profile.stock_deals[pos.deals_done]
    covered = [t.offset for t in targets if t.kind is PileKind.RESERVE and pos.reserve[t.offset]]
    for before, move in _steps(lesson):
        if move == DEAL_MOVE:
            return False
        if move.card is not None:
            place = locate(before, move.card)
            if place.kind is PileKind.RESERVE and place.index in covered:
                return True
    return False

"""What every theme detector shares: the facts a detector looks at, and the line's first moves.

A detector looks at a puzzle's facts (position, winning line, first moves
proved losing) and says whether the line really *uses* the rule early on; the
generator never just asserts a theme.  Detectors are pure functions of their
arguments, in the style of a chess-puzzle tagger (kept apart from the
builders, as a tagger is kept apart from the generator), and each has positive
and negative tables in the tests.  Each theme's detector and lesson move live
in its own module (``agnes_teach.themes``); ``rule_of`` names the rule any
legal move applies, for counting the rules a line needs.

What a detector looks for in a line is the theme's lesson move
(``Theme.lesson_move``): the theme's rule applied where the theme's
misconception denies it.  The misconception player forbids exactly those moves
and the solver's restricted tables drop exactly them
(``tests/test_theme_agreement.py`` checks the three agree move by move).  A
move the rule allows *and* the belief allows (a King into an empty column when
the base is an Ace, x2 played) uses the rule but teaches nothing against the
belief, so no detector counts it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..cards import Card
from ..engine import apply_move, refusal
from ..moves import Move
from ..position import Position
from ..predicates import rule_used

LESSON_WINDOW = 3  # the rule must be used within this many moves of the solution


@dataclass(frozen=True)
class Lesson:
    """What a detector may look at: pure data, no solver calls."""

    position: Position
    line: tuple[Move, ...]  # a winning line from `position`
    losing: tuple[Move, ...] = ()  # first moves proved to lose
    within: int = LESSON_WINDOW


def steps(lesson: Lesson) -> list[tuple[Position, Move]]:
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


MovePredicate = Callable[[Position, Move], bool]


def rule_of(pos: Position, move: Move) -> str:
    """The rule a legal move applies, for counting how many rules a line needs (the rating, the
    checker's theme use)."""
    return rule_used(pos, move)


def detects_move(lesson_move: MovePredicate) -> Callable[[Lesson], bool]:
    """The detector that looks for `lesson_move` among the line's first moves."""
    def detect(lesson: Lesson) -> bool:
        return any(lesson_move(pos, move) for pos, move in steps(lesson))

    detect.__doc__ = f"The line uses the rule within its first moves: {lesson_move.__doc__}"
    return detect

"""foundation.wrap: foundation ranks go round the corner, an Ace follows a King."""

from __future__ import annotations

from ..cards import suit_of
from ..moves import Move
from ..position import Position
from ..registry import RuleId
from . import Lesson, RuleFacts

RULE = RuleId.FOUNDATION_WRAP


def explain(here: Position, wrong: Move, lesson: Lesson | None) -> RuleFacts | None:
    """The Ace that follows its suit's King home (the base is not an Ace)."""
    if lesson is None or lesson.move.card is None:
        return None
    king = lesson.position.foundation_top(suit_of(lesson.move.card))
    if king is None:
        return None
    return RuleFacts(RULE, cards=(("ace", lesson.move.card), ("king", king)),
                     ranks=(("base", lesson.position.base),))

"""foundation.start: a foundation is opened by the base-rank card of its suit, not by an Ace."""

from __future__ import annotations

from ..moves import Move
from ..position import Position
from ..registry import RuleId
from . import Lesson, RuleFacts

RULE = RuleId.FOUNDATION_START


def explain(here: Position, wrong: Move, lesson: Lesson | None) -> RuleFacts | None:
    """The base-rank card that opens its empty foundation."""
    if lesson is None or lesson.move.card is None:
        return None
    return RuleFacts(RULE, cards=(("card", lesson.move.card),), ranks=(("base", lesson.position.base),))

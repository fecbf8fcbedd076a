"""tableau.wrap: tableau ranks go round the corner, a King lies on an Ace of the other colour."""

from __future__ import annotations

from ..moves import Move
from ..position import Position
from ..registry import RuleId
from . import Lesson, RuleFacts

RULE = RuleId.TABLEAU_WRAP


def explain(here: Position, wrong: Move, lesson: Lesson | None) -> RuleFacts | None:
    """The card the answer moves thanks to the corner, and the column it goes to."""
    if lesson is None or lesson.move.card is None:
        return None
    return RuleFacts(RULE, cards=(("card", lesson.move.card),), words=(("pile", lesson.move.dest),))

"""tableau.run: a valid run moves as one unit."""

from __future__ import annotations

from ..engine import locate
from ..moves import Move
from ..piles import PileKind
from ..position import Position
from ..registry import RuleId
from . import Lesson, RuleFacts

RULE = RuleId.TABLEAU_RUN


def explain(here: Position, wrong: Move, lesson: Lesson | None) -> RuleFacts | None:
    """The run the answer moves whole: its lead card, the cards on it and where it goes."""
    if lesson is None or lesson.move.card is None:
        return None
    place = locate(lesson.position, lesson.move.card)
    if place.kind is not PileKind.COLUMN:
        return None
    column = lesson.position.tableau[place.index]
    on = column[place.depth + 1:]
    if not on:
        return None
    return RuleFacts(RULE, cards=(("card", lesson.move.card), *(("on", c) for c in on)),
                     words=(("pile", lesson.move.dest),))

"""reserve.top: only the top card of a reserve pile is free."""

from __future__ import annotations

from ..engine import locate
from ..moves import Move
from ..piles import Pile, PileKind
from ..position import Position
from ..registry import RuleId
from . import Lesson, RuleFacts

RULE = RuleId.RESERVE_TOP


def explain(here: Position, wrong: Move, lesson: Lesson | None) -> RuleFacts | None:
    """The reserve top the answer moves off, and the card under it that it frees."""
    if lesson is None or lesson.move.card is None:
        return None
    place = locate(lesson.position, lesson.move.card)
    if place.kind is not PileKind.RESERVE or place.depth == 0:
        return None
    pile = lesson.position.reserve[place.index]
    return RuleFacts(RULE, cards=(("top", lesson.move.card), ("under", pile[place.depth - 1])),
                     words=(("pile", Pile.reserve(place.index + 1)),))

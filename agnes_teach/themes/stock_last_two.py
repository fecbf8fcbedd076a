"""stock.last-two: both exposed cards are free at once."""

from __future__ import annotations

from ..engine import locate
from ..moves import Move
from ..piles import Pile, PileKind
from ..position import Position
from ..registry import RuleId
from . import Lesson, RuleFacts

RULE = RuleId.STOCK_LAST_TWO


def explain(here: Position, wrong: Move, lesson: Lesson | None) -> RuleFacts | None:
    """The exposed card the answer plays while the other cell still holds a card."""
    if lesson is None or lesson.move.card is None:
        return None
    pos = lesson.position
    place = locate(pos, lesson.move.card)
    if place.kind is not PileKind.EXPOSED:
        return None
    other = next(((i, cell[-1]) for i, cell in enumerate(pos.exposed) if cell and i != place.index), None)
    if other is None:
        return None
    cells = (("pile", Pile.exposed(place.index + 1)), ("other_pile", Pile.exposed(other[0] + 1)))
    return RuleFacts(RULE, cards=(("card", lesson.move.card), ("other", other[1])), words=cells)

"""tableau.empty: an empty column takes only the rank below the base (or the profile's rank)."""

from __future__ import annotations

from ..moves import Move
from ..position import Position
from ..registry import RuleId
from . import Lesson, RuleFacts

RULE = RuleId.TABLEAU_EMPTY


def explain(here: Position, wrong: Move, lesson: Lesson | None) -> RuleFacts | None:
    """Which rank may fill an empty column, and the card the answer puts there."""
    if lesson is None or lesson.move.card is None:
        return None
    pos = lesson.position
    return RuleFacts(RULE, cards=(("card", lesson.move.card),),
                     ranks=(("rank", pos.profile.empty_rank(pos.base)), ("base", pos.base)),
                     words=(("pile", lesson.move.dest),))

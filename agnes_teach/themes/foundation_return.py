"""foundation.return (agnes-ru): a foundation's top card may come back to a column.

The Russian online game lets the top card of a foundation return to a suitable column top (or,
a King, to an empty column). A Bernauer player at that table never takes a card back, since in
Bernauer a foundation card stays home for good (``foundation.final``); the lesson is a position
where bringing one back is the only way through: the card it lets land, or the card it uncovers,
needs that returned card as a step in the columns.
"""

from __future__ import annotations

from ..moves import Move
from ..position import Position
from ..predicates import uses_foundation_return
from ..registry import RuleId, Task
from ..solver.fast import Rules
from ..tagger.detectors import detects_move
from ..tagger.distractors import distract_losing
from ..tagger.misconception import Misconception
from . import Lesson, Recipe, RuleFacts, Theme

# ------------------------------------------------------------ the lesson


def foundations_final(rules: Rules) -> bool:
    """The solver's tables with no card ever taken back from a foundation (Bernauer's rule)."""
    rules.foundation_return = False
    return True


# ------------------------------------------------------------ why the believer loses


def explain(here: Position, wrong: Move, lesson: Lesson | None) -> RuleFacts | None:
    """The foundation card the answer takes back, and the column it lands on."""
    if lesson is None or lesson.move.card is None:
        return None
    return RuleFacts(RuleId.FOUNDATION_RETURN, cards=(("card", lesson.move.card),),
                     words=(("pile", lesson.move.dest),))


THEME = Theme(
    rule=RuleId.FOUNDATION_RETURN,
    profiles=("agnes-ru",),
    tasks=(Task.WIN, Task.TRAP),
    lesson_move=uses_foundation_return,
    detect=detects_move(uses_foundation_return),
    believer=Misconception("a card on a foundation stays there for good (as in Bernauer)", "forbid",
                           uses_foundation_return, restriction=foundations_final),
    tempting=distract_losing,
    # The move back is on offer at the start, and a move the believer picks (its moves home first)
    # competes with it and loses: a game where cards come back forgives almost every move, so the
    # choice is laid out, and a believer who is not caught there has learnt nothing. A small layout
    # keeps the solver's line short; the cut-down keeps only positions where the believer is caught
    # at the rule's first use.
    recipe=Recipe(contested=True, contest_loses=True, contest_picked=True, most_cards=16),
    caught_at_first_use=True,
    build=None,
    explain=explain,
    how="a foundation's top card must come back to a column, as a step for the card that blocks "
        "the next card home; a Bernauer player never takes a card back",
)

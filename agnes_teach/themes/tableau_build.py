"""tableau.build: a column card takes the next lower rank in the *other* colour.

The misconception is one the rules' sources name first among beginners' mistakes: building by
suit (or by colour, as in Agnes Sorel). It forbids nothing a player may do; it adds moves the rule
refuses, so the believer is a *planner* (``Misconception`` of kind ``add``): it plans the quickest
win counting on a card of its own colour, makes the legal moves that plan starts with, and is
caught out only where the plan needs the refused move, with the game already lost.
"""

from __future__ import annotations

from ..board import build_table
from ..moves import Move
from ..piles import PileKind
from ..position import Position
from ..predicates import first_refusal, uses_tableau_build
from ..profile import TableauBuild, get_profile
from ..registry import RuleId, Task
from ..tagger.detectors import detects_move
from ..tagger.distractors import Distractor, Moves, plan_distractor
from ..tagger.misconception import Misconception
from . import Lesson, Recipe, RuleFacts, Theme, every_profile

# ------------------------------------------------------------ the misconception


def _refused_by_the_rule(pos: Position, move: Move) -> bool:
    """The rules refuse `move`, first by this theme's rule (so the key can cite it)."""
    why = first_refusal(pos, move)
    return why is not None and why.rule == RuleId.TABLEAU_BUILD


def builds_in_own_colour(pos: Position, move: Move) -> bool:
    """A card (or a run led by it) goes onto a column top one rank higher of its own colour (its
    suit or the other suit of that colour): what the believer takes for legal and the build rule
    refuses."""
    if move.card is None or not move.dest.is_column:
        return False
    target = pos.pile(move.dest)
    if not target:
        return False
    same_colour = build_table(TableauBuild.SAME_COLOUR, pos.profile.rank_cycle, pos.base)
    return bool(same_colour[move.card * 52 + target[-1]]) \
        and _refused_by_the_rule(pos, move)


SUIT_BUILDER = Misconception("a card goes on the next higher rank of its own suit or colour too", "add",
                         builds_in_own_colour, dest_kinds=frozenset({PileKind.COLUMN}))


# ------------------------------------------------------------ the tempting move


def distract_tableau_build(pos: Position, line: Moves, losing: Moves) -> Distractor | None:
    """The believer's losing first move (its plan counts on a build in one colour later), else such
    a build on offer now, which the rule refuses."""
    return plan_distractor(pos, losing, SUIT_BUILDER, RuleId.TABLEAU_BUILD)


# ------------------------------------------------------------ why the believer loses


def explain(here: Position, wrong: Move, lesson: Lesson | None) -> RuleFacts | None:
    """The build in one colour the believer's plan needs after the wrong move: the card and the
    column top it cannot go on."""
    if lesson is None or lesson.move.card is None or not lesson.move.dest.is_column:
        return None
    target = lesson.position.pile(lesson.move.dest)
    if not target:
        return None
    return RuleFacts(RuleId.TABLEAU_BUILD, cards=(("card", lesson.move.card), ("target", target[-1])),
                     words=(("pile", lesson.move.dest),))


def _alternate_profiles() -> tuple[str, ...]:
    """The Bernauer family: every shipped profile that builds in alternate colours, but the Russian
    game, whose own themes teach a Bernauer player at its table."""
    return tuple(p for p in every_profile("agnes-ru")
                 if get_profile(p).tableau_build == TableauBuild.ALTERNATE)


THEME = Theme(
    rule=RuleId.TABLEAU_BUILD,
    profiles=_alternate_profiles(),
    tasks=(Task.WIN,),
    lesson_move=uses_tableau_build,
    detect=detects_move(uses_tableau_build),
    believer=SUIT_BUILDER,
    tempting=distract_tableau_build,
    recipe=Recipe(most_cards=16),
    build=None,
    explain=explain,
    how="a card must go onto a column top of the other colour; a player who builds by suit spends "
        "that top on something else and counts on a card of its own colour, which the rule refuses",
)

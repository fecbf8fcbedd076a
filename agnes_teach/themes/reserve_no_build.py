"""reserve.no-build: nothing is ever placed on a reserve pile, not even on an empty one.

The misconception, named by the rules' sources among beginners' mistakes: an emptied reserve pile
is a free cell to park a card in (or a reserve top takes a card as a column top would). It adds
moves the rule refuses, so the believer is a *planner* (``Misconception`` of kind ``add``): it plans
the quickest win counting on parking a card, makes the legal moves that plan starts with, and is
caught out only where the plan needs the refused move, with the game already lost.
"""

from __future__ import annotations

from ..board import fits
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
    return why is not None and why.rule == RuleId.RESERVE_NO_BUILD


def parks_on_reserve(pos: Position, move: Move) -> bool:
    """A card goes onto a reserve pile: the first empty one (the believer's free cell: which empty
    pile takes it changes nothing while no deal is to come, so one stands for all), or onto a
    reserve top it would fit as on a column top. The believer takes it for legal; the rule refuses."""
    if move.card is None or move.dest.kind is not PileKind.RESERVE:
        return False
    pile = pos.pile(move.dest)
    if pile:
        return fits(pos, move.card, pile[-1]) and _refused_by_the_rule(pos, move)
    first_empty = next(i for i, p in enumerate(pos.reserve) if not p)
    if not pos.stock and first_empty != move.dest.offset:
        return False
    return _refused_by_the_rule(pos, move)


FREE_CELL_PARKER = Misconception("an empty reserve pile is a free cell, and a reserve top takes a card as a "
                         "column top does", "add", parks_on_reserve,
                         dest_kinds=frozenset({PileKind.RESERVE}))


# ------------------------------------------------------------ the tempting move


def distract_reserve_no_build(pos: Position, line: Moves, losing: Moves) -> Distractor | None:
    """The believer's losing first move (its plan parks a card on the reserve later), else a card
    parked on the reserve now, which the rule refuses."""
    return plan_distractor(pos, losing, FREE_CELL_PARKER, RuleId.RESERVE_NO_BUILD)


# ------------------------------------------------------------ why the believer loses


def explain(here: Position, wrong: Move, lesson: Lesson | None) -> RuleFacts | None:
    """The card the believer's plan parks on the reserve after the wrong move, and the pile."""
    if lesson is None or lesson.move.card is None or lesson.move.dest.kind is not PileKind.RESERVE:
        return None
    return RuleFacts(RuleId.RESERVE_NO_BUILD, cards=(("card", lesson.move.card),),
                     words=(("pile", lesson.move.dest),))


def _reserve_profiles() -> tuple[str, ...]:
    """The Bernauer family: every shipped profile with reserve piles that builds in alternate
    colours, but the Russian game, whose own themes teach a Bernauer player at its table."""
    return tuple(p for p in every_profile("agnes-ru")
                 if get_profile(p).reserve_piles and get_profile(p).tableau_build == TableauBuild.ALTERNATE)


THEME = Theme(
    rule=RuleId.RESERVE_NO_BUILD,
    profiles=_reserve_profiles(),
    tasks=(Task.WIN,),
    # Where the believer parks a card, the answer finds it a column top of the other colour.
    lesson_move=uses_tableau_build,
    detect=detects_move(uses_tableau_build),
    believer=FREE_CELL_PARKER,
    tempting=distract_reserve_no_build,
    # The parking move is on offer and the layout opens on a decision point: a parked card can
    # only cost the game where some move loses (docs/puzzles.md, "Recipes that fail less").
    recipe=Recipe(most_cards=16, belief_adds=True, move_loses=True),
    build=None,
    explain=explain,
    how="a card is in the way and no reserve pile may take it; a player who parks it on an empty "
        "reserve pile spends the one column top that could on something else",
)

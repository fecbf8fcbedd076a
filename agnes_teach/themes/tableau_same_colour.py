"""tableau.same-colour: Agnes Sorel packs a column down in the same colour (8♠ on 9♣, 5♦ on 6♥).

The misconception is a Bernauer player's at Sorel's table: a card goes on the next higher card of
the *other* colour. Sorel refuses every such move, so the believer never lays a card on a column
top at all; it still plays home, fills an empty column where the profile lets it, and deals.
"""

from __future__ import annotations

from ..board import build_table
from ..engine import locate
from ..moves import Move
from ..piles import Pile, PileKind
from ..position import Position
from ..predicates import uses_tableau_same_colour
from ..profile import TableauBuild, get_profile, profile_ids
from ..registry import RuleId, Task
from ..solver.fast import Rules
from ..tagger.detectors import detects_move
from ..tagger.distractors import Distractor, Moves, first_refused, movable
from ..tagger.misconception import Misconception
from . import Lesson, Recipe, RuleFacts, Theme

# ------------------------------------------------------------ the lesson


def nothing_builds(rules: Rules) -> bool:
    """The solver's tables with no card laid on a column top: the believer's packing (the other
    colour) is refused at this table, and the table's own packing is not believed."""
    rules.on = bytearray(52 * 52)
    rules.hosts = [[] for _ in range(52)]
    rules.guests = [[] for _ in range(52)]
    return True


def same_colour_profiles() -> tuple[str, ...]:
    """The shipped profiles that pack in the same colour: where the rule is in force."""
    return tuple(p for p in profile_ids() if get_profile(p).tableau_build == TableauBuild.SAME_COLOUR)


# ------------------------------------------------------------ the tempting move


def distract_same_colour(pos: Position, line: Moves, losing: Moves) -> Distractor | None:
    """The Bernauer habit: a movable card laid on the next higher card of the other colour."""
    alternate = build_table(TableauBuild.ALTERNATE, pos.profile.rank_cycle, pos.base)
    tops = [(Pile.column(j + 1), column[-1]) for j, column in enumerate(pos.tableau) if column]
    candidates: list[Move] = []
    for card in movable(pos):
        place = locate(pos, card)
        home_column = place.index if place.kind is PileKind.COLUMN else None
        for dest, top in tops:
            if alternate[card * 52 + top] and dest.offset != home_column:
                candidates.append(Move(card, dest))
    # The answer's own card first: the pupil who knows its place but not the colour rule.
    first = line[0].card if line else None
    candidates.sort(key=lambda m: (m.card != first, str(m)))
    return first_refused(pos, candidates, RuleId.TABLEAU_SAME_COLOUR)


# ------------------------------------------------------------ why the believer loses


def explain(here: Position, wrong: Move, lesson: Lesson | None) -> RuleFacts | None:
    """The card the answer packs, the same-colour card it goes on, and that column."""
    if lesson is None or lesson.move.card is None:
        return None
    target = lesson.position.pile(lesson.move.dest)
    if not target:
        return None
    return RuleFacts(RuleId.TABLEAU_SAME_COLOUR, cards=(("card", lesson.move.card), ("target", target[-1])),
                     words=(("pile", lesson.move.dest),))


THEME = Theme(
    rule=RuleId.TABLEAU_SAME_COLOUR,
    profiles=same_colour_profiles(),
    tasks=(Task.WIN, Task.TRAP),
    lesson_move=uses_tableau_same_colour,
    detect=detects_move(uses_tableau_same_colour),
    believer=Misconception("a card goes on the next higher card of the other colour", "forbid",
                           uses_tableau_same_colour, restriction=nothing_builds),
    tempting=distract_same_colour,
    # An empty column beside the card to pack, and the believer's move into it competing with the
    # packing: "keep the space, pack in colour" is the choice (plain Sorel fills a space with any run).
    recipe=Recipe(deals_left=1),
    build=None,
    explain=explain,
    how="a card that blocks the one needed next can only go on the next higher card of its own "
        "colour; the other colour, the Bernauer habit, is refused",
)

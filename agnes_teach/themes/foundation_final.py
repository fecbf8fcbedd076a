"""foundation.final: a card on a foundation never comes back, so sending a card home is for good.

The misreading it corrects is the eager player's: every card goes home the moment it can, as if it
could be taken back to a column when another card needs to lie on it. Where foundations are final
that costs the game whenever a card still in play needs the card sent home as its landing place.
The believer is a *forbid* belief: while a card can go home it makes no other move (it never keeps
a card back, never deals first), which is exactly the eager player's game.
"""

from __future__ import annotations

from ..board import move_tables
from ..cards import Card, rank_index, rank_of, suit_of
from ..moves import Move
from ..position import Position
from ..predicates import uses_foundation_final
from ..registry import RuleId, Task
from ..tagger.detectors import detects_move
from ..tagger.distractors import Distractor, Moves, distract_losing
from ..tagger.misconception import Misconception
from . import Lesson, Recipe, RuleFacts, Theme, every_profile

# The one profile whose foundations are not final: its top foundation card may come back
# (foundation.return), so an early move home there can be undone and teaches nothing.
RETURNING_PROFILE = "agnes-ru"


# ------------------------------------------------------------ the tempting move


def distract_home(pos: Position, line: Moves, losing: Moves) -> Distractor | None:
    """The losing move home that takes the card the answer's first move lands on (the eager
    player's move, and the lesson's point), else any losing move home, else the losing move a
    player is drawn to most."""
    home = [m for m in losing if m.dest.is_foundation]
    first = line[0] if line else None
    if first is not None and first.dest.is_column and pos.pile(first.dest):
        host = pos.pile(first.dest)[-1]
        taking = [m for m in home if m.card == host]
        if taking:
            return Distractor(taking[0], None)
    if home:
        return Distractor(home[0], None)
    return distract_losing(pos, line, losing)


# ------------------------------------------------------------ why the believer loses


def _guest_in_play(here: Position, card: Card, lesson: Lesson | None) -> Card | None:
    """A card still in play that could be laid on `card` in the tableau (None: no card needs `card`
    as a landing place). The answer's card when the answer lays it there; else the one that most
    needs a landing place: one lying on a card of its own suit that its foundation takes first (it
    must leave before its suit can go on), then one covering any card, then any."""
    if lesson is not None and lesson.move.card is not None and lesson.move.dest.is_column:
        target = lesson.position.pile(lesson.move.dest)
        if target and target[-1] == card:
            return lesson.move.card
    guests = {g for g in range(52) if card in move_tables(here.profile, here.base).hosts[g]}
    found: list[tuple[int, Card]] = []
    for group in (here.tableau, here.reserve, here.exposed, (here.stock,)):
        for pile in group:
            for depth, c in enumerate(pile):
                if c not in guests:
                    continue
                below = pile[:depth]
                blocks_its_suit = any(suit_of(b) == suit_of(c) and rank_index(here.base, rank_of(b))
                                      < rank_index(here.base, rank_of(c)) for b in below)
                found.append((0 if blocks_its_suit else 1 if below else 2, c))
    return min(found, key=lambda f: f[0])[1] if found else None


def explain(here: Position, wrong: Move, lesson: Lesson | None) -> RuleFacts | None:
    """The card the believer sends home, which will never come back, and a card still in play that
    needs it as a landing place."""
    if wrong.card is None or not wrong.dest.is_foundation:
        return None
    guest = _guest_in_play(here, wrong.card, lesson)
    if guest is None:
        return None
    return RuleFacts(RuleId.FOUNDATION_FINAL, cards=(("card", wrong.card), ("guest", guest)))


THEME = Theme(
    rule=RuleId.FOUNDATION_FINAL,
    profiles=every_profile(RETURNING_PROFILE),
    tasks=(Task.WIN, Task.TRAP),
    lesson_move=uses_foundation_final,
    detect=detects_move(uses_foundation_final),
    believer=Misconception("a card sent home can be taken back later, so send every card home at once",
                           "forbid", uses_foundation_final),
    tempting=distract_home,
    recipe=Recipe(contested=True, contest_loses=True),
    build=None,
    explain=explain,
    how="a card can go home, but a card still in play must first be laid on it: send it home now and "
        "it never comes back to take that card",
)


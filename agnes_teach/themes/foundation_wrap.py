"""foundation.wrap: foundation ranks go round the corner, an Ace follows a King."""

from __future__ import annotations

import random

from ..cards import make_card, suit_of
from ..generator.build import Draft
from ..generator.builders.layout import (
    merge,
    needed,
    other_colour,
    pick_base,
    pick_piles,
    stack_then_cover,
    stock_size,
    suit_counts,
)
from ..moves import Move
from ..position import Position
from ..predicates import uses_foundation_wrap
from ..profile import Profile
from ..registry import RuleId, Task
from ..tagger.detectors import detects_move
from ..tagger.distractors import distract_losing
from ..tagger.misconception import Misconception
from . import Lays, Lesson, Recipe, RuleFacts, Theme, every_profile

# ------------------------------------------------------------ the built layout


def build_foundation_wrap(rng: random.Random, profile: Profile, task: str, size: int) -> Draft | None:
    """A black King could park on the red Ace that blocks the Queen its suit needs: the Ace goes
    home on its King instead."""
    base = pick_base(profile, rng, 2, 3 + 2 * size)
    if base == 1:
        return None
    ace_suit = rng.randrange(4)
    king_suit = other_colour(rng, ace_suit)
    ace = make_card(1, ace_suit)
    queen, king = make_card(12, king_suit), make_card(13, king_suit)
    if base == 13:
        return None
    counts = suit_counts(rng, base, [ace, queen], rng.randint(size, 1 + 3 * size))
    counts[ace_suit] = needed(base, ace)
    draft = Draft(profile, base, counts, stock_size(profile))
    order = merge(rng, draft, [ace])
    if order is None or king not in order or order.index(queen) > order.index(king):
        return None
    order.remove(ace)
    cols = pick_piles(draft, rng, 2 + size, rng.randint(0, 1 + size), set(), task)
    blocked, parking = cols[0], cols[1]
    pins = {queen: blocked, king: parking}
    return stack_then_cover(draft, rng, order, cols, pins, {queen, king}, [(blocked, ace)])


# ------------------------------------------------------------ why the believer loses


def explain(here: Position, wrong: Move, lesson: Lesson | None) -> RuleFacts | None:
    """The Ace that follows its suit's King home (the base is not an Ace)."""
    if lesson is None or lesson.move.card is None:
        return None
    king = lesson.position.foundation_top(suit_of(lesson.move.card))
    if king is None:
        return None
    return RuleFacts(RuleId.FOUNDATION_WRAP, cards=(("ace", lesson.move.card), ("king", king)),
                     ranks=(("base", lesson.position.base),))


THEME = Theme(
    rule=RuleId.FOUNDATION_WRAP,
    profiles=every_profile(),
    tasks=(Task.KEY_MOVE, Task.TRAP),
    lesson_move=uses_foundation_wrap,
    detect=detects_move(uses_foundation_wrap),
    believer=Misconception("ranks stop at the King: an Ace never follows it", "forbid", uses_foundation_wrap),
    tempting=distract_losing,
    recipe=Recipe(king_topped=True, contested=True, contest_loses=True),
    build=build_foundation_wrap,
    explain=explain,
    how="a suit stopped at its King; its Ace lies on the Queen another suit needs first, and a King "
        "of the other colour could park on that Ace (tableau wrap) and bury both",
    required=True,
    build_lays=(Lays.ALTERNATE_RUNS, Lays.RESERVE_PILES),
)

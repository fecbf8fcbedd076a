"""tableau.wrap: tableau ranks go round the corner, a King lies on an Ace of the other colour."""

from __future__ import annotations

import random

from ..cards import make_card, rank_of
from ..generator.build import Draft
from ..generator.builders.layout import (
    merge,
    other_colour,
    pick_base,
    pick_piles,
    stack_then_cover,
    stock_size,
    suit_counts,
)
from ..moves import Move
from ..position import Position
from ..predicates import uses_tableau_wrap
from ..profile import Profile
from ..registry import RuleId, Task
from ..solver.fast import Rules
from ..tagger.detectors import detects_move
from ..tagger.distractors import distract_losing
from ..tagger.misconception import Misconception, runs_may_shorten
from . import Lays, Lesson, Recipe, RuleFacts, Theme, every_profile

# ------------------------------------------------------------ the lesson


def _king_on_ace(pair: int) -> bool:
    """Is the pair ``card * 52 + below`` of a build or link table a King on an Ace?"""
    return rank_of(pair // 52) == 13 and rank_of(pair % 52) == 1


def no_tableau_wrap(rules: Rules) -> bool:
    """A King neither builds on an Ace nor, lying on one, moves with it: the belief's rank order
    stops at the King for the build and for runs alike (``uses_tableau_wrap``)."""
    rules.on = bytearray(ok and not _king_on_ace(i) for i, ok in enumerate(rules.on))
    rules.hosts = [[t for t in range(52) if rules.on[c * 52 + t]] for c in range(52)]
    rules.guests = [[c for c in range(52) if rules.on[c * 52 + t]] for t in range(52)]
    rules.link = bytes(ok and not _king_on_ace(i) for i, ok in enumerate(rules.link))
    return runs_may_shorten(rules)


# ------------------------------------------------------------ the built layout


def build_tableau_wrap(rng: random.Random, profile: Profile, task: str, size: int) -> Draft | None:
    """A King lies on the Queen of its suit, which the order needs first; its only way off is
    onto an Ace of the other colour."""
    if not profile.tableau_wrap:
        return None
    base = pick_base(profile, rng, 2, 5 + 2 * size)
    if base in (1, 13):
        return None
    king_suit = rng.randrange(4)
    ace_suit = other_colour(rng, king_suit)
    king, queen, ace = make_card(13, king_suit), make_card(12, king_suit), make_card(1, ace_suit)
    counts = suit_counts(rng, base, [queen, ace], rng.randint(size, 1 + 3 * size))
    draft = Draft(profile, base, counts, stock_size(profile))
    order = merge(rng, draft, [queen])
    if order is None or order.index(ace) < order.index(king):
        return None
    order.remove(king)
    piles = pick_piles(draft, rng, 2 + size, rng.randint(0, 1 + size), set(), task)
    if len(piles) < 2 or not piles[1].is_column:
        return None
    return stack_then_cover(draft, rng, order, piles, {queen: piles[0], ace: piles[1]}, {queen, ace},
                             [(piles[0], king)])


# ------------------------------------------------------------ why the believer loses


def explain(here: Position, wrong: Move, lesson: Lesson | None) -> RuleFacts | None:
    """The card the answer moves thanks to the corner, and the column it goes to."""
    if lesson is None or lesson.move.card is None:
        return None
    return RuleFacts(RuleId.TABLEAU_WRAP, cards=(("card", lesson.move.card),),
                     words=(("pile", lesson.move.dest),))


THEME = Theme(
    rule=RuleId.TABLEAU_WRAP,
    profiles=every_profile(),
    tasks=(Task.KEY_MOVE, Task.WIN, Task.TRAP),
    lesson_move=uses_tableau_wrap,
    detect=detects_move(uses_tableau_wrap),
    believer=Misconception("ranks stop at the King: nothing goes on an Ace, and a King on an Ace is no run",
                           "forbid", uses_tableau_wrap, restriction=no_tableau_wrap),
    tempting=distract_losing,
    recipe=Recipe(),
    build=build_tableau_wrap,
    explain=explain,
    how="a King lies on the Queen of its suit, needed first; its only way off is onto an Ace of "
        "the other colour on a column top",
    build_lays=(Lays.ALTERNATE_RUNS, Lays.RESERVE_PILES),
)

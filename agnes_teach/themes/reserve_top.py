"""reserve.top: only the top card of a reserve pile is free."""

from __future__ import annotations

import random

from ..cards import Card
from ..engine import builds_on, locate
from ..generator.build import Draft
from ..generator.builders.layout import blocked_by_tableau_card, merge, pick_base, suit_counts
from ..moves import Move
from ..piles import FOUNDATION, Pile, PileKind
from ..position import Position
from ..profile import Profile
from ..registry import RuleId, Task
from ..tagger.detectors import Lesson as Line
from ..tagger.detectors import steps
from ..tagger.distractors import Distractor, Moves, first_refused
from ..tagger.misconception import Misconception
from . import Lays, Lesson, Recipe, RuleFacts, Theme, every_profile

# ------------------------------------------------------------ the lesson


def uncovers_reserve(pos: Position, move: Move) -> Card | None:
    """The card a move uncovers on a reserve pile, if it takes the top of a pile of two or more."""
    if move.card is None:
        return None
    place = locate(pos, move.card)
    if place.kind is not PileKind.RESERVE:
        return None
    pile = pos.reserve[place.index]
    return pile[-2] if len(pile) >= 2 and place.depth == len(pile) - 1 else None


def uncovers_reserve_card(pos: Position, move: Move) -> bool:
    """A reserve top that covers another card is moved off it (home or onto a column)."""
    return uncovers_reserve(pos, move) is not None


def detect_reserve_top(lesson: Line) -> bool:
    """The line takes a reserve top off a covered card, then plays that card, early on."""
    taken = steps(lesson)
    for i, (pos, move) in enumerate(taken):
        under = uncovers_reserve(pos, move)
        if under is not None and any(m.card == under for _, m in taken[i + 1:]):
            return True
    return False


# ------------------------------------------------------------ the tempting move


def distract_reserve_top(pos: Position, line: Moves, losing: Moves) -> Distractor | None:
    """The covered reserve card played before its cover: first the one the line frees."""
    covered: list[Card] = []
    for pile in pos.reserve:
        covered.extend(pile[:-1])
    line_cards = [m.card for m in line if m.card is not None]
    covered.sort(key=lambda c: (line_cards.index(c) if c in line_cards else 99, c))
    moves = [Move(c, FOUNDATION) for c in covered]
    moves += [Move(c, Pile.column(i + 1)) for c in covered for i, col in enumerate(pos.tableau)
              if col and builds_on(c, col[-1], pos.profile.tableau_wrap)]
    moves.sort(key=lambda m: (covered.index(m.card) if m.card is not None else 99, not m.dest.is_foundation))
    return first_refused(pos, moves, RuleId.RESERVE_TOP)


# ------------------------------------------------------------ the built layout


def build_reserve_top(rng: random.Random, profile: Profile, task: str, size: int) -> Draft | None:
    """The first card of the order lies under another card on a reserve pile; that card goes
    onto a column first."""
    stock = next((n for n in (0, 2) if n in profile.stock_sizes() and profile.deals_done(n)), None)
    if stock is None:
        return None
    base = pick_base(profile, rng, 1, 13)
    draft = Draft(profile, base, suit_counts(rng, base, [], rng.randint(4 + size, 6 + 3 * size)), stock)
    order = merge(rng, draft, [])
    if order is None:
        return None
    if stock:
        draft.stock = sorted(rng.sample(order[1:], stock), key=order.index)
        order = [c for c in order if c not in draft.stock]
    return blocked_by_tableau_card(draft, rng, order, order[0], (PileKind.RESERVE,), 2 + size, task=task)


# ------------------------------------------------------------ why the believer loses


def explain(here: Position, wrong: Move, lesson: Lesson | None) -> RuleFacts | None:
    """The reserve top the answer moves off, and the card under it that it frees."""
    if lesson is None or lesson.move.card is None:
        return None
    place = locate(lesson.position, lesson.move.card)
    if place.kind is not PileKind.RESERVE or place.depth == 0:
        return None
    pile = lesson.position.reserve[place.index]
    return RuleFacts(RuleId.RESERVE_TOP, cards=(("top", lesson.move.card), ("under", pile[place.depth - 1])),
                     words=(("pile", Pile.reserve(place.index + 1)),))


THEME = Theme(
    rule=RuleId.RESERVE_TOP,
    profiles=every_profile(),
    tasks=(Task.WIN,),
    lesson_move=uncovers_reserve_card,
    detect=detect_reserve_top,
    believer=Misconception("a visible covered card is playable, so nothing needs moving off it", "forbid",
                           uncovers_reserve_card),
    tempting=distract_reserve_top,
    # The competing move must lose: without that, the commonest failure was a layout won by a
    # believer who never uncovers a card (docs/puzzles.md, "Recipes that fail less").
    recipe=Recipe(covered_reserve=True, contested=True, contest_loses=True),
    build=build_reserve_top,
    explain=explain,
    how="the first card needed lies under another card on a reserve pile; that card must go onto a "
        "column first (the covered card is refused)",
    build_lays=(Lays.ALTERNATE_RUNS, Lays.RESERVE_PILES),
)

"""foundation.start: a foundation is opened by the base-rank card of its suit, not by an Ace."""

from __future__ import annotations

import random

from ..cards import make_card, rank_of, suit_of
from ..generator.build import Draft
from ..generator.builders.layout import blocked_by_tableau_card, merge, pick_base, stock_size, suit_counts
from ..moves import Move
from ..piles import FOUNDATION, PileKind
from ..position import Position
from ..predicates import uses_foundation_start
from ..profile import Profile, get_profile, profile_ids
from ..registry import RuleId, Task
from ..tagger.detectors import available, detects_move
from ..tagger.distractors import Distractor, first_refused
from ..tagger.misconception import Misconception
from . import Lesson, Recipe, RuleFacts, Theme

# ------------------------------------------------------------ the lesson


def starts_foundation_not_ace(pos: Position, move: Move) -> bool:
    """An empty foundation is opened by its base card, which is not an Ace."""
    return uses_foundation_start(pos, move) and move.card is not None and rank_of(move.card) != 1


# ------------------------------------------------------------ the tempting move


def distract_foundation_start(pos: Position, line: tuple[Move, ...],
                              losing: tuple[Move, ...]) -> Distractor | None:
    """Another card of the empty foundation's suit (an Ace first, the Klondike habit)."""
    empty_suits = [s for s in range(4) if pos.foundations[s] == 0]
    cards = [c for c in available(pos) if suit_of(c) in empty_suits and rank_of(c) != pos.base]
    cards.sort(key=lambda c: (rank_of(c) != 1, c))
    return first_refused(pos, [Move(c, FOUNDATION) for c in cards], RuleId.FOUNDATION_START)


# ------------------------------------------------------------ the built layout


def build_foundation_start(rng: random.Random, profile: Profile, task: str, size: int) -> Draft | None:
    """A whole suit is out.  Its base card is blocked by a card that goes onto a column; its Ace
    (the Klondike habit) lies free but may not start the foundation."""
    base = pick_base(profile, rng, 2, 13)
    suit = rng.randrange(4)
    start, ace = make_card(base, suit), make_card(1, suit)
    counts = suit_counts(rng, base, [], rng.randint(3 + size, 5 + 2 * size), cap=4)
    counts[suit] = 13
    if profile.base_dealt and all(k == 13 for k in counts):
        return None
    draft = Draft(profile, base, counts, stock_size(profile))
    order = merge(rng, draft, [start])
    if order is None:
        return None
    return blocked_by_tableau_card(draft, rng, order, start, (PileKind.COLUMN, PileKind.RESERVE), 5 + size,
                                    {ace: "top"} if base != 1 else None)


# ------------------------------------------------------------ why the believer loses


def explain(here: Position, wrong: Move, lesson: Lesson | None) -> RuleFacts | None:
    """The base-rank card that opens its empty foundation."""
    if lesson is None or lesson.move.card is None:
        return None
    return RuleFacts(RuleId.FOUNDATION_START, cards=(("card", lesson.move.card),),
                     ranks=(("base", lesson.position.base),))


def dealt_base_profiles() -> tuple[str, ...]:
    """The shipped profiles whose base is a dealt card (``foundation_start: dealt`` or
    ``dealt-after-tableau``): where a foundation may start at another rank than the Ace. A fixed
    base (``foundation_start: A``) is what the believer already plays: nothing to teach there."""
    return tuple(p for p in profile_ids() if get_profile(p).base_dealt)


THEME = Theme(
    rule=RuleId.FOUNDATION_START,
    profiles=dealt_base_profiles(),
    tasks=(Task.WIN,),
    lesson_move=starts_foundation_not_ace,
    detect=detects_move(starts_foundation_not_ace),
    believer=Misconception("foundations start with Aces", "forbid", starts_foundation_not_ace),
    tempting=distract_foundation_start,
    recipe=Recipe(empty_foundation=True),
    build=build_foundation_start,
    explain=explain,
    how="a whole suit out: its base card is blocked by a card that must go onto a column; its Ace "
        "lies free and is refused by the empty foundation",
    # The faint base card in an empty foundation would give the lesson away.
    shows_base_card=False,
)

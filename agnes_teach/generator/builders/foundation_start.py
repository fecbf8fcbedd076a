"""The foundation.start lesson's builder."""

from __future__ import annotations

import random

from ...cards import make_card
from ...piles import PileKind
from ...profile import Profile
from ..build import Draft
from .layout import blocked_by_tableau_card, merge, pick_base, stock_size, suit_counts


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

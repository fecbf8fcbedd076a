"""The foundation.wrap lesson's builder."""

from __future__ import annotations

import random

from ...cards import make_card
from ...profile import Profile
from ..build import Draft
from .layout import (
    merge,
    needed,
    other_colour,
    pick_base,
    pick_piles,
    stack_then_cover,
    stock_size,
    suit_counts,
)


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

"""The tableau.wrap lesson's builder."""

from __future__ import annotations

import random

from ...cards import make_card
from ...profile import Profile
from ..build import Draft
from .layout import merge, other_colour, pick_base, pick_piles, stack_then_cover, stock_size, suit_counts


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

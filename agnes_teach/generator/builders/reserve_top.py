"""The reserve.top lesson's builder."""

from __future__ import annotations

import random

from ...piles import PileKind
from ...profile import Profile
from ..build import Draft
from .layout import blocked_by_tableau_card, merge, pick_base, suit_counts


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

"""The stock.deal lesson's builder."""

from __future__ import annotations

import random

from ...cards import rank_of, suit_of
from ...engine import builds_on
from ...piles import PileKind
from ...profile import Profile
from ..build import Draft
from .layout import merge, pick_base, pick_piles, stack_then_cover, suit_counts


def build_stock_deal(rng: random.Random, profile: Profile, task: str, size: int) -> Draft | None:
    """One full deal is left.  A reserve top is the card the order needs first, and the stock card
    that would land on it is a later card of its suit: deal now and it is buried."""
    stock = next((n for n in profile.stock_sizes()
                  if n and any(t.kind is PileKind.RESERVE
                               for t in profile.stock_deals[profile.deals_done(n) or 0])
                  and n <= 9), -1)
    if stock < 0:
        return None
    base = pick_base(profile, rng, 1, 13)
    draft = Draft(profile, base, [0, 0, 0, 0], stock)
    suit = rng.randrange(4)
    draft.out = suit_counts(rng, base, [], stock + rng.randint(1, 2 + size), cap=7)
    draft.out[suit] = max(draft.out[suit], 2)
    order = merge(rng, draft, [])
    if order is None:
        return None
    first = order[0]
    # The cover must have no way off the buried card: no column card it could build on is
    # still out, and it is not of the rank an empty column takes.
    out = set(order)
    later = [c for c in draft.out_cards(suit_of(first))[1:]
             if rank_of(c) != profile.empty_rank(base)
             and not any(builds_on(c, t, profile.tableau_wrap) for t in out)]
    if not later:
        return None
    cover = rng.choice(later)
    targets = profile.stock_deals[draft.deals_done]
    slot = rng.choice([k for k, t in enumerate(targets) if t.kind is PileKind.RESERVE])
    pool = [c for c in order[1:] if c != cover]
    if len(pool) < stock - 1:  # too few cards out to fill the stock around the cover
        return None
    picked = rng.sample(pool, stock - 1)
    picked.sort(key=order.index)
    draft.stock = picked[:slot] + [cover] + picked[slot:]
    rest = [c for c in order[1:] if c not in draft.stock]
    piles = pick_piles(draft, rng, 2 + size, 0, set(), task)
    return stack_then_cover(draft, rng, rest, piles, {}, set(), [(targets[slot], first)])

"""The stock.last_two lesson's builder."""

from __future__ import annotations

import random

from ...engine import builds_on
from ...profile import Profile
from ..build import Draft
from .layout import merge, pick_base, pick_piles, stack, suit_counts, target_pairs


def build_stock_last_two(rng: random.Random, profile: Profile, task: str, size: int) -> Draft | None:
    """A card blocks the first card of the order and fits only on an exposed card, which is
    not a place to build: the exposed card goes to the tableau first."""
    if not profile.exposed_cells:
        return None
    base = pick_base(profile, rng, 1, 13)
    wrap = profile.tableau_wrap
    draft = Draft(profile, base, suit_counts(rng, base, [], rng.randint(6, 9 + 2 * size), cap=5), 0)
    order = merge(rng, draft, [])
    if order is None:
        return None
    first = order[0]
    # blocker Z on X (exposed) on W (a column top): played Z, X, W in that order.
    chains = [(z, x, w) for x, w in target_pairs(order, wrap, 1)
              for z in order[1:order.index(x)] if builds_on(z, x, wrap)]
    if not chains:
        return None
    blocker, exposed, target = rng.choice(chains)
    others = [c for c in order[1:] if c not in (blocker, exposed, target)]
    second = rng.choice(others) if others and profile.exposed_cells > 1 else None
    order = [c for c in order if c not in (blocker, exposed, second)]
    piles = pick_piles(draft, rng, 2 + size, rng.randint(0, 1), set(), task)
    cols = [p for p in piles if p.is_column]
    if len(cols) < 2:
        return None
    if not stack(draft, rng, order, piles, {first: cols[0], target: cols[1]}, {first, target}):
        return None
    if not draft.can_put(cols[0], blocker):
        return None
    draft.put(cols[0], blocker)
    draft.put("x1", exposed)
    if second is not None:
        draft.put("x2", second)
    return draft

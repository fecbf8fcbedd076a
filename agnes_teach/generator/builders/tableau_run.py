"""The tableau.run lesson's builder."""

from __future__ import annotations

import random

from ...cards import rank_of, suit_of
from ...engine import builds_on
from ...profile import Profile
from ...registry import Task
from ..build import Draft
from .layout import merge, pick_base, pick_piles, stack_then_cover, stock_size, suit_counts, target_pairs


def build_tableau_run(rng: random.Random, profile: Profile, task: str, size: int) -> Draft | None:
    """A two-card run lies on the card the order needs first; it moves whole onto a column."""
    base = pick_base(profile, rng, 1, 13)
    wrap = profile.tableau_wrap
    extra = (rng.randint(7 + size, 9 + 3 * size) if task == Task.KEY_MOVE
             else rng.randint(4 + size, 6 + 3 * size))
    draft = Draft(profile, base, suit_counts(rng, base, [], extra, cap=5), stock_size(profile))
    order = merge(rng, draft, [])
    if order is None:
        return None
    first = order[0]
    # For a key move: a lead or target of the rank an empty column takes, or a top card that
    # simply goes home, would give a second winning move.
    empty_rank = profile.empty_rank(base)
    triples = [(lead, second, target) for lead, target in target_pairs(order, wrap, 1)
               for second in order[1:] if builds_on(second, lead, wrap)
               and order.index(second) < order.index(lead)
               and (task != Task.KEY_MOVE or (empty_rank not in (rank_of(lead), rank_of(target))
                                           and draft.out_cards(suit_of(second))[0] != second))]
    if not triples:
        return None
    lead, second, target = rng.choice(triples)
    order = [c for c in order if c not in (lead, second)]
    piles = pick_piles(draft, rng, 2 + size, rng.randint(0, 1), set(), task)
    cols = [p for p in piles if p.is_column]
    if len(cols) < 2:
        return None
    return stack_then_cover(draft, rng, order, piles, {first: cols[0], target: cols[1]}, {first, target},
                             [(cols[0], lead), (cols[0], second)])

"""What every builder shares: a play order of the out cards, laid out pile by pile.

A builder lays the cards out in a *play order*: a random merge of the suits'
foundation orders, with the cards of every pile ordered so that the higher a
card lies the earlier it is played.  Such a layout is won by playing home in
that order; the lesson is then added by putting one or two cards out of
order (a blocker on the card the order needs first), so that the win needs
exactly the move the theme teaches.  The search decides the rest.
"""

from __future__ import annotations

import random

from ...cards import Card, is_red, make_card, suit_of
from ...engine import builds_on
from ...piles import Pile, PileKind
from ...profile import Profile
from ...registry import Task
from ..build import Draft, foundation_order


def merge(rng: random.Random, draft: Draft, first: list[Card]) -> list[Card] | None:
    """A random play order of the out cards that starts with `first` (None if it cannot)."""
    queues = [draft.out_cards(s) for s in range(4)]
    order: list[Card] = []
    for card in first:
        q = queues[suit_of(card)]
        if not q or q[0] != card:
            return None
        order.append(q.pop(0))
    while any(queues):
        s = rng.choice([i for i in range(4) if queues[i]])
        order.append(queues[s].pop(0))
    return order


def stack(draft: Draft, rng: random.Random, order: list[Card], piles: list[Pile],
           pins: dict[Card, Pile], tops: set[Card]) -> bool:
    """Lay `order` out so every pile is played top first.  Pinned cards go to their pile; a card
    in `tops` stays on top of its pile (nothing played earlier goes on it)."""
    closed: set[Pile] = set()
    for card in reversed(order):
        if card in pins:
            pile = pins[card]
            if pile in closed or not draft.can_put(pile, card):
                return False
        else:
            spots = [n for n in piles if n not in closed and draft.can_put(n, card)]
            if not spots:
                return False
            pile = rng.choice(spots)
        draft.put(pile, card)
        if card in tops:
            closed.add(pile)
    return True



def stack_then_cover(draft: Draft, rng: random.Random, order: list[Card], piles: list[Pile],
                      pins: dict[Card, Pile], tops: set[Card],
                      covers: list[tuple[Pile, Card]]) -> Draft | None:
    """`stack` the order, then lay each (pile, card) of `covers` on top: the cards that set up
    the lesson by blocking what the order needs.  None if any of it does not fit."""
    if not stack(draft, rng, order, piles, pins, tops):
        return None
    for pile, card in covers:
        if not draft.can_put(pile, card):
            return None
        draft.put(pile, card)
    return draft


def pick_base(profile: Profile, rng: random.Random, low: int, high: int) -> int:
    """The profile's fixed base, or a random one in low..high."""
    return profile.base_rank or rng.randint(low, min(13, high))


def pick_piles(draft: Draft, rng: random.Random, columns: int, reserves: int, avoid: set[str],
           task: str = Task.WIN) -> list[Pile]:
    """Random piles to lay cards on.  For a key-move puzzle, few and deep ones: every top is
    then a lesson card, and no side move wins as well."""
    cols = [p for i in range(draft.profile.columns) if (p := Pile.column(i + 1)) not in avoid]
    res = [p for i in range(draft.profile.reserve_piles) if (p := Pile.reserve(i + 1)) not in avoid]
    if task == Task.KEY_MOVE:
        cols = sorted(cols, key=lambda n: -draft.profile.column_lengths[n.offset])[:4]
        columns, reserves = min(columns, 2), min(reserves, 1)
    return rng.sample(cols, min(columns, len(cols))) + rng.sample(res, min(reserves, len(res)))


def needed(base: int, card: Card) -> int:
    """How many cards of its suit are out when `card` is: it and every card after it."""
    return 13 - foundation_order(base, suit_of(card)).index(card)


def suit_counts(rng: random.Random, base: int, cards: list[Card], extra: int, cap: int = 4) -> list[int]:
    """Cards out per suit: enough for `cards` to be out, plus `extra` spread at random."""
    out = [0, 0, 0, 0]
    for card in cards:
        out[suit_of(card)] = max(out[suit_of(card)], needed(base, card))
    for _ in range(extra):
        s = rng.randrange(4)
        if out[s] < cap or out[s] == 0:
            out[s] += 1
    return [min(13, k) for k in out]


def other_colour(rng: random.Random, suit: int) -> int:
    return rng.choice([s for s in range(4) if is_red(make_card(1, s)) != is_red(make_card(1, suit))])


def stock_size(profile: Profile) -> int:
    return 0 if 0 in profile.stock_sizes() else min(profile.stock_sizes())


def target_pairs(order: list[Card], wrap: bool, after: int) -> list[tuple[Card, Card]]:
    """(card, target) with `card` building on `target`, the target played after the card."""
    return [(c, t) for i, c in enumerate(order) if i >= after for t in order[i + 1:] if builds_on(c, t, wrap)]



def blocked_by_tableau_card(draft: Draft, rng: random.Random, order: list[Card], first: Card,
                             first_kind: tuple[PileKind, ...], columns: int,
                             tops: dict[Card, str] | None = None,
                             task: str = Task.WIN) -> Draft | None:
    """`first` under a card that must go onto a column top before `first` can be played."""
    wrap = draft.profile.tableau_wrap
    pairs = target_pairs(order, wrap, 1)
    if not pairs:
        return None
    cover, target = rng.choice(pairs)
    order = [c for c in order if c != cover]
    piles = pick_piles(draft, rng, columns, 1 + rng.randint(0, 1), set(), task)
    holder = next((p for p in piles if p.kind in first_kind), None)
    cols = [p for p in piles if p.is_column and p != holder]
    if holder is None or not cols:
        return None
    pins = {first: holder, target: cols[0]}
    extra = {c: p for c, p in (tops or {}).items()}
    spare = [p for p in piles if p not in (holder, cols[0])]
    for card in extra:
        if not spare:
            return None
        pins[card] = spare.pop(0)
    return stack_then_cover(draft, rng, order, piles, pins, set(pins), [(holder, cover)])
